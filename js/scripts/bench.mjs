// The npm package against its peers in Node, on the same text as Go's
// engine benchmarks (core/bench_test.go's benchCorpus, written out by
// `make bench-js`): corpus throughput (first run and warm), per-call cost on
// its ~200-byte messages (cut as core's messages() cuts them), memory, cold
// start (a fresh process each, from import to a first count), and what a
// page downloads. Prints the ratio table with the targets.
//
//   make bench-js      (node js/scripts/bench.mjs build/bench/corpus.txt)
//
// Counting is timed in CPU time, in rounds that time every contender in
// turn (as bench-browser.mjs does in Chromium), and each ratio is the median
// of the rounds' own ratios: one after another by wall time, a shared
// machine's load swung the ratios 1.5–2.5×. Speed is measured here, never
// asserted in a test: the machine is shared.

import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync, brotliCompressSync, constants } from 'node:zlib';
import { performance } from 'node:perf_hooks';

const js = fileURLToPath(new URL('../', import.meta.url));
const buildWasm = resolve(js, '../build/wasm');

// ---- the contenders ---------------------------------------------------------

const version = (pkg) => JSON.parse(readFileSync(join(js, 'node_modules', pkg, 'package.json'))).version;

const contenders = {
  'tokenfit': async () => {
    const { init } = await import('tokenfit');
    const tf = await init();
    return (s) => tf.countTokens(s);
  },
  'tokenfit lite': async () => {
    const { init } = await import('tokenfit');
    const tf = await init({ lite: true });
    return (s) => tf.countTokens(s);
  },
  'tokenfit GOOS=js': async () => {
    await import(pathToFileURL(join(buildWasm, 'wasm_exec.js')).href);
    const { init } = await import('tokenfit');
    const tf = await init({ module: readFileSync(join(buildWasm, 'tokenfit-js.wasm')) });
    return (s) => tf.countTokens(s);
  },
  [`gpt-tokenizer ${version('gpt-tokenizer')}`]: async () => {
    const { countTokens } = await import('gpt-tokenizer/encoding/o200k_base');
    return (s) => countTokens(s);
  },
  [`tiktoken ${version('tiktoken')}`]: async () => {
    const { get_encoding } = await import('tiktoken');
    const e = get_encoding('o200k_base');
    return (s) => e.encode_ordinary(s).length;
  },
  [`js-tiktoken ${version('js-tiktoken')}`]: async () => {
    const { Tiktoken } = await import('js-tiktoken/lite');
    const { default: ranks } = await import('js-tiktoken/ranks/o200k_base');
    const e = new Tiktoken(ranks);
    return (s) => e.encode(s).length;
  },
};
const names = Object.keys(contenders);
const [TOKENFIT, LITE, , GPT, TIKTOKEN, JSTIKTOKEN] = names;

// messages cuts the corpus into pieces of about 200 bytes on character
// boundaries, as core/bench_test.go's messages() does.
function messages(b, n) {
  const out = [];
  for (let i = 0; i + 200 < b.length && out.length < n;) {
    let j = i + 200;
    while (j < b.length && (b[j] & 0xc0) === 0x80) j++;
    out.push(b.subarray(i, j).toString('utf8'));
    i = j;
  }
  return out;
}
// A child process: one cold start of one contender, and its memory.
if (process.argv[2] === '--child') {
  const name = process.argv[3];
  const corpus = readFileSync(process.argv[4], 'utf8');
  const rss0 = process.memoryUsage().rss;
  const t0 = performance.now();
  const count = await contenders[name]();
  count('Hello world');
  const cold = performance.now() - t0;
  const rss1 = process.memoryUsage().rss;
  // Each message once, with every cache as cold as a new process has it.
  const msgs = messages(Buffer.from(corpus), 2000);
  const t1 = performance.now();
  for (const m of msgs) count(m);
  const msgCold = (performance.now() - t1) / msgs.length;
  count(corpus);
  const rss2 = process.memoryUsage().rss;
  console.log(JSON.stringify({ cold, msgCold, startMB: (rss1 - rss0) / 1e6, afterMB: (rss2 - rss0) / 1e6 }));
  process.exit(0);
}

// ---- measuring --------------------------------------------------------------

const corpusPath = resolve(process.argv[2] || resolve(js, '../build/bench/corpus.txt'));
const corpusBytes = readFileSync(corpusPath);
const corpus = corpusBytes.toString('utf8');

const msgs = messages(corpusBytes, 2000);

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
// cpuMs is the CPU time this process has used, in ms (every thread: V8's
// compiler and collector threads work for the contender that runs).
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

// rounds times work with every contender in turn, round after round: each
// round runs one batch of each (sized beforehand to take about minMs), and
// its ratios against tokenfit are taken within the round, so that a load
// that comes and goes weighs on all of them. Time is CPU time, which a
// busy machine inflates far less than wall time. It returns each
// contender's median ms per work() and the median of its rounds' ratios
// (its time / tokenfit's: above 1, tokenfit is faster).
function rounds(counts, work, { minMs = 250, n = 9 } = {}) {
  const iters = {};
  for (const [name, count] of Object.entries(counts)) {
    iters[name] = 1;
    for (;;) {
      const t0 = cpuMs();
      for (let i = 0; i < iters[name]; i++) work(count);
      if (cpuMs() - t0 > minMs) break;
      iters[name] *= 2;
    }
  }
  const times = Object.fromEntries(Object.keys(counts).map((k) => [k, []]));
  const ratios = Object.fromEntries(Object.keys(counts).map((k) => [k, []]));
  for (let r = 0; r < n; r++) {
    for (const [name, count] of Object.entries(counts)) {
      const t0 = cpuMs();
      for (let i = 0; i < iters[name]; i++) work(count);
      times[name].push((cpuMs() - t0) / iters[name]);
    }
    for (const name of Object.keys(counts)) ratios[name].push(times[name][r] / times[TOKENFIT][r]);
  }
  const med = (o) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, median(v)]));
  return { ms: med(times), ratio: med(ratios) };
}

const rows = {};
const counts = {};
for (const name of names) {
  let count;
  try {
    count = await contenders[name]();
  } catch (e) {
    console.error(`${name}: skipped (${e.message})`);
    continue;
  }
  const t0 = cpuMs();
  const tokens = count(corpus);
  const first = cpuMs() - t0;
  let msgTokens = 0;
  for (const m of msgs) msgTokens += count(m);
  rows[name] = { tokens, msgTokens, first };
  counts[name] = count;
}
const ref = rows[TOKENFIT];
for (const [name, r] of Object.entries(rows)) {
  if (r.tokens !== ref.tokens || r.msgTokens !== ref.msgTokens) {
    console.error(`${name} counts ${r.tokens} tokens (messages ${r.msgTokens}); tokenfit ${ref.tokens} (${ref.msgTokens})`);
    process.exitCode = 1;
  }
}
const load0 = loadavg()[0];
const corpusRuns = rounds(counts, (count) => count(corpus));
const msgRuns = rounds(counts, (count) => { for (const m of msgs) count(m); });
for (const name of Object.keys(rows)) {
  Object.assign(rows[name], {
    warm: corpusRuns.ms[name],
    corpusRatio: corpusRuns.ratio[name],
    perMsg: msgRuns.ms[name] / msgs.length,
    msgRatio: msgRuns.ratio[name],
  });
}

// Cold start and memory: fresh processes, the contenders in turn, five
// rounds; the median of each, and of each round's ratio to tokenfit's.
const colds = Object.fromEntries(Object.keys(rows).map((k) => [k, []]));
for (let i = 0; i < 5; i++) {
  for (const name of Object.keys(rows)) {
    colds[name].push(JSON.parse(execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--child', name, corpusPath], { cwd: js, encoding: 'utf8' })));
  }
}
for (const [name, runs] of Object.entries(colds)) {
  rows[name].cold = median(runs.map((r) => r.cold));
  rows[name].coldRatio = median(runs.map((r, i) => colds[TOKENFIT][i].cold / r.cold)); // tokenfit's / this one's
  rows[name].msgCold = median(runs.map((r) => r.msgCold));
  rows[name].startMB = median(runs.map((r) => r.startMB));
  rows[name].afterMB = median(runs.map((r) => r.afterMB));
}
const load1 = loadavg()[0];

// ---- payload: what a page downloads ------------------------------------------

const gz = (b) => gzipSync(b, { level: 9 }).length;
const br = (b) => brotliCompressSync(b, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;

// The ES modules a file imports, transitively (relative imports only).
function moduleGraph(entry) {
  const seen = new Set();
  const visit = (f) => {
    if (seen.has(f)) return;
    seen.add(f);
    const src = readFileSync(f, 'utf8');
    for (const m of src.matchAll(/(?:import|export)\s[^'"]*?from\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)|import\s*['"](\.[^'"]+)['"]/g)) {
      visit(resolve(dirname(f), m[1] || m[2] || m[3]));
    }
  };
  visit(entry);
  return [...seen];
}

function payload(files) {
  const parts = files.map((f) => readFileSync(f));
  return {
    raw: parts.reduce((a, b) => a + b.length, 0),
    gzip: parts.reduce((a, b) => a + gz(b), 0),
    brotli: parts.reduce((a, b) => a + br(b), 0),
    files: files.length,
  };
}

// The glue is what ships: the split build's entry and the chunks it imports.
const dist = join(js, 'dist');
const glue = moduleGraph(join(dist, 'esm', 'index.js'));
// Pages download the transport form of the tables (.tkp).
const tables = ['o200k_base', 'cl100k_base', 'p50k_base', 'r50k_base'].map((e) => join(dist, 'tables', `${e}.tkp`));
const nm = (p) => join(js, 'node_modules', p);
const payloads = {
  'tokenfit lite, o200k_base': payload([...glue, join(dist, 'tokenfit-lite.wasm'), tables[0]]),
  'tokenfit full, o200k_base': payload([...glue, join(dist, 'tokenfit.wasm'), tables[0]]),
  'tokenfit lite, all four encodings': payload([...glue, join(dist, 'tokenfit-lite.wasm'), ...tables]),
  'tokenfit full, all four encodings': payload([...glue, join(dist, 'tokenfit.wasm'), ...tables]),
  'tokenfit glue (JS) alone': payload(glue),
  'gpt-tokenizer, o200k_base': payload(moduleGraph(nm('gpt-tokenizer/esm/encoding/o200k_base.js'))),
  'js-tiktoken, o200k_base': payload([...moduleGraph(nm('js-tiktoken/dist/lite.js')), nm('js-tiktoken/dist/ranks/o200k_base.js')]),
  'tiktoken (every encoding in its wasm)': payload([...moduleGraph(nm('tiktoken/tiktoken.js')), nm('tiktoken/tiktoken_bg.wasm')]),
};

// ---- the report --------------------------------------------------------------

const MB = 1e6;
const pad = (s, n) => String(s).padStart(n);
console.log(`\nNode ${process.version}, o200k_base. Corpus: ${corpusBytes.length.toLocaleString('en')} bytes, ${ref.tokens.toLocaleString('en')} tokens ` +
  `(core/bench_test.go's benchCorpus: testdata/corpus, Go's spec, net/http sources, JSON); ` +
  `${msgs.length} messages of about 200 bytes cut from it (${ref.msgTokens.toLocaleString('en')} tokens). Every contender counts the same. ` +
  `Load average ${load0.toFixed(1)} at the start, ${load1.toFixed(1)} at the end.`);
console.log('corpus: counting the whole text (MB/s of CPU time; "1st" is the first run, "warm" the median of 9 rounds that time every contender in turn);');
console.log('message: µs of CPU per ~200-byte message, "1st" counting each message once in a fresh process (caches cold, wall time), "warm" as the corpus;');
console.log('cold start: a fresh process from import() to a first count (wall time), the contenders in turn, median of 5; memory: RSS growth after loading and after counting the corpus.\n');
console.log(`${''.padEnd(24)}${pad('corpus MB/s', 12)}${pad('', 6)}${pad('µs/message', 12)}${pad('', 7)}${pad('cold start', 12)}${pad('RSS start', 11)}${pad('RSS after', 11)}`);
console.log(`${''.padEnd(24)}${pad('1st', 8)}${pad('warm', 10)}${pad('1st', 10)}${pad('warm', 9)}`);
for (const [name, r] of Object.entries(rows)) {
  console.log(`${name.padEnd(24)}${pad((corpusBytes.length / MB / (r.first / 1000)).toFixed(1), 8)}${pad((corpusBytes.length / MB / (r.warm / 1000)).toFixed(1), 10)}` +
    `${pad((r.msgCold * 1000).toFixed(1), 10)}${pad((r.perMsg * 1000).toFixed(1), 9)}${pad(r.cold.toFixed(0) + ' ms', 14)}${pad(r.startMB.toFixed(0) + ' MB', 11)}${pad(r.afterMB.toFixed(0) + ' MB', 11)}`);
}

console.log('\nWhat a page downloads (gzip -9; brotli -q 11 for comparison):\n');
for (const [name, p] of Object.entries(payloads)) {
  console.log(`${name.padEnd(40)}${pad((p.raw / MB).toFixed(2) + ' MB raw', 14)}${pad((p.gzip / MB).toFixed(3) + ' MB gzip', 16)}${pad((p.brotli / MB).toFixed(3) + ' MB br', 14)}  (${p.files} files)`);
}

// The ratios are the medians of the rounds' own ratios (rounds, colds).
const targets = [];
const ratio = (name, k) => rows[name] && rows[name][k];
if (rows[GPT]) {
  targets.push(['issue 15: corpus (warm) vs gpt-tokenizer', ratio(GPT, 'corpusRatio'), '≥ 3×', (x) => x >= 3]);
  targets.push(['corpus throughput (1st run) vs gpt-tokenizer', rows[GPT].first / ref.first, '(info)', null]);
}
if (rows[TIKTOKEN]) targets.push(['corpus throughput (warm) vs tiktoken', ratio(TIKTOKEN, 'corpusRatio'), '≥ 4×', (x) => x >= 4]);
if (rows[JSTIKTOKEN]) targets.push(['corpus throughput (warm) vs js-tiktoken', ratio(JSTIKTOKEN, 'corpusRatio'), '(info)', null]);
if (rows[GPT]) {
  targets.push(['issue 15: 200-byte messages (warm) vs gpt-tokenizer', ratio(GPT, 'msgRatio'), '≥ 2.5×', (x) => x >= 2.5]);
  targets.push(['200-byte messages (1st pass) vs gpt-tokenizer', rows[GPT].msgCold / ref.msgCold, '(info)', null]);
}
if (rows[TIKTOKEN]) targets.push(['200-byte messages vs tiktoken', ratio(TIKTOKEN, 'msgRatio'), '(info)', null]);
if (rows[GPT]) {
  targets.push(['issue 15: cold start / gpt-tokenizer\'s (tokenfit)', ratio(GPT, 'coldRatio'), '≤ 0.25', (x) => x <= 0.25, 'ratio']);
  if (rows[LITE]) targets.push(['cold start / gpt-tokenizer\'s (tokenfit lite)', median(colds[LITE].map((r, i) => r.cold / colds[GPT][i].cold)), '(info)', null, 'ratio']);
}
const lite = payloads['tokenfit lite, o200k_base'].gzip / MB;
targets.push(['o200k payload, gzip MB (lite: wasm + glue + table)', lite, '≤ 1.6', (x) => x <= 1.6, 'MB']);
targets.push(['every encoding, gzip MB (lite + 4 tables)', payloads['tokenfit lite, all four encodings'].gzip / MB, '≤ 3', (x) => x <= 3, 'MB']);
targets.push(['every encoding, gzip MB (full + 4 tables)', payloads['tokenfit full, all four encodings'].gzip / MB, '≤ 3', (x) => x <= 3, 'MB']);

console.log('\nRatios (tokenfit, the default full wasip1 module, against each peer: above 1 is tokenfit faster) and the targets:\n');
for (const [what, x, target, ok, unit] of targets) {
  const v = unit === 'MB' ? x.toFixed(3) : unit === 'ratio' ? x.toFixed(2) : x.toFixed(2) + '×';
  console.log(`${what.padEnd(52)}${pad(v, 9)}  ${target.padEnd(7)} ${ok ? (ok(x) ? 'met' : 'MISSED') : ''}`);
}

