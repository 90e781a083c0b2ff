// Counting speed in Chromium: the npm package against gpt-tokenizer in one
// page, on bench.mjs's text (core/bench_test.go's benchCorpus) and its
// ~200-byte messages, measured as bench.mjs measures them in Node (the
// corpus counted again and again, the messages pass after pass), but in
// rounds that time both contenders in turn, the ratio the median of the
// rounds': a page has no CPU clock, and the machine is shared.
// Prints the same two ratios with issue 15's goals. The page imports the
// package's sources and gpt-tokenizer's ES modules as they are (no bundler:
// what is timed is the counting, not the loading), served from 127.0.0.1,
// and sends its figures back; headless Debian Chromium ($CHROMIUM) runs it.
//
//   make bench-js      (node js/scripts/bench-browser.mjs build/bench/corpus.txt)
//
// Speed is measured here, never asserted in a test: the machine is shared.

import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const js = fileURLToPath(new URL('../', import.meta.url));
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const corpusPath = resolve(process.argv[2] || join(js, '../build/bench/corpus.txt'));

if (!existsSync(CHROMIUM) || !existsSync(join(js, 'dist/tokenfit-nohf.wasm'))) {
  console.log(`\nCounting speed in Chromium: skipped (needs ${CHROMIUM} and make js)`);
  process.exit(0);
}

// The page: the same cut of messages and the same timing loop as
// bench.mjs, with performance.now() (Chromium coarsens it to 100 µs; every
// timed stretch is hundreds of milliseconds).
const page = `<!doctype html>
<meta charset="utf-8">
<script type="module">
import { init } from '/dist/esm/index.js';
import { countTokens as gpt } from '/node_modules/gpt-tokenizer/esm/encoding/o200k_base.js';

const post = (body) => fetch('/result', { method: 'POST', body: JSON.stringify(body) });
try {
  const bytes = new Uint8Array(await (await fetch('/corpus.txt')).arrayBuffer());
  const corpus = new TextDecoder().decode(bytes);
  const decoder = new TextDecoder();
  const msgs = [];
  for (let i = 0; i + 200 < bytes.length && msgs.length < 2000;) {
    let j = i + 200;
    while (j < bytes.length && (bytes[j] & 0xc0) === 0x80) j++;
    msgs.push(decoder.decode(bytes.subarray(i, j)));
    i = j;
  }
  const tf = await init();
  const contenders = { tokenfit: (s) => tf.countTokens(s), 'gpt-tokenizer': (s) => gpt(s) };
  const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  // Each round times one batch of each contender, in turn: the ratio of
  // each round is taken, so that a load that comes and goes weighs on both.
  const rounds = (work, minMs, n) => {
    const iters = {};
    for (const [name, count] of Object.entries(contenders)) {
      iters[name] = 1;
      for (;;) {
        const t0 = performance.now();
        for (let i = 0; i < iters[name]; i++) work(count);
        if (performance.now() - t0 > minMs) break;
        iters[name] *= 2;
      }
    }
    const times = Object.fromEntries(Object.keys(contenders).map((k) => [k, []]));
    const ratios = [];
    for (let r = 0; r < n; r++) {
      for (const [name, count] of Object.entries(contenders)) {
        const t0 = performance.now();
        for (let i = 0; i < iters[name]; i++) work(count);
        times[name].push((performance.now() - t0) / iters[name]);
      }
      ratios.push(times['gpt-tokenizer'][r] / times.tokenfit[r]);
    }
    return { ms: Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)])), ratio: median(ratios) };
  };
  const rows = {};
  for (const [name, count] of Object.entries(contenders)) {
    let msgTokens = 0;
    for (const m of msgs) msgTokens += count(m);
    rows[name] = { tokens: count(corpus), msgTokens };
  }
  const corpusRuns = rounds((count) => count(corpus), 300, 9);
  const msgRuns = rounds((count) => { for (const m of msgs) count(m); }, 300, 9);
  for (const name of Object.keys(contenders)) {
    rows[name].warm = corpusRuns.ms[name];
    rows[name].perMsg = msgRuns.ms[name] / msgs.length;
  }
  const ratios = { corpus: corpusRuns.ratio, messages: msgRuns.ratio };
  await post({ bytes: bytes.length, messages: msgs.length, userAgent: navigator.userAgent, rows, ratios });
} catch (e) {
  await post({ error: String(e && e.stack || e) });
}
</script>
`;

const types = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm', '.json': 'application/json' };
let done;
const result = new Promise((r) => { done = r; });
const server = createServer((req, res) => {
  const path = new URL(req.url, 'http://x').pathname;
  if (req.method === 'POST' && path === '/result') {
    let body = '';
    req.on('data', (d) => { body += d; });
    req.on('end', () => { res.end(); done(JSON.parse(body)); });
    return;
  }
  if (path === '/') return res.writeHead(200, { 'content-type': 'text/html' }).end(page);
  if (path === '/corpus.txt') return res.writeHead(200, { 'content-type': 'text/plain' }).end(readFileSync(corpusPath));
  // The package's sources and files, and gpt-tokenizer's modules.
  const file = join(js, path);
  if (!file.startsWith(js) || !/^\/(src|dist|node_modules\/gpt-tokenizer)\//.test(path) || !existsSync(file)) return res.writeHead(404).end();
  res.writeHead(200, { 'content-type': types[extname(file)] || 'application/octet-stream' }).end(readFileSync(file));
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));

const profile = mkdtempSync(join(tmpdir(), 'tokenfit-browser-'));
const chromium = spawn(CHROMIUM, ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--disable-renderer-backgrounding', '--disable-background-timer-throttling',
  '--disable-backgrounding-occluded-windows', `--user-data-dir=${profile}`, `http://127.0.0.1:${server.address().port}/`], { stdio: 'ignore' });
const timeout = setTimeout(() => done({ error: 'no result after 10 minutes' }), 600_000);
let r;
try {
  r = await result;
} finally {
  clearTimeout(timeout);
  chromium.kill();
  server.close();
  await new Promise((ok) => chromium.once('exit', ok));
  // Chromium's helper processes can still write to the profile after the
  // browser exits: a profile left behind must not hide the result.
  try {
    rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  } catch (err) {
    console.error(`(could not remove ${profile}: ${err.code})`);
  }
}
if (r.error) {
  console.error(`Counting speed in Chromium: the page failed: ${r.error}`);
  process.exit(1);
}

const tf = r.rows.tokenfit, gptRow = r.rows['gpt-tokenizer'];
if (tf.tokens !== gptRow.tokens || tf.msgTokens !== gptRow.msgTokens) {
  console.error(`Chromium: gpt-tokenizer counts ${gptRow.tokens} (messages ${gptRow.msgTokens}), tokenfit ${tf.tokens} (${tf.msgTokens})`);
  process.exitCode = 1;
}
const chrome = (r.userAgent.match(/Chrome\/[\d.]+/) || ['Chromium'])[0];
console.log(`\nCounting speed in headless ${chrome}, o200k_base, one page (init() with no options; the same corpus and ${r.messages} messages as above):\n`);
console.log(`${''.padEnd(24)}${'corpus MB/s'.padStart(12)}${'µs/message'.padStart(12)}`);
for (const [name, row] of Object.entries(r.rows)) {
  console.log(`${name.padEnd(24)}${(r.bytes / 1e6 / (row.warm / 1000)).toFixed(1).padStart(12)}${(row.perMsg * 1000).toFixed(1).padStart(12)}`);
}
console.log('\nRatios in Chromium (the median of 9 rounds, each timing both in turn; above 1 is tokenfit faster) and the targets:\n');
for (const [what, x, goal] of [
  ['corpus throughput (warm) vs gpt-tokenizer, Chromium', r.ratios.corpus, 3],
  ['200-byte messages (warm) vs gpt-tokenizer, Chromium', r.ratios.messages, 2.5],
]) {
  console.log(`${what.padEnd(52)}${(x.toFixed(2) + '×').padStart(9)}  ≥ ${goal}×    ${x >= goal ? 'met' : 'MISSED'}`);
}
