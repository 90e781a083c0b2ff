// The shared checks outside Node: `deno run --allow-read
// --allow-net=127.0.0.1 runtime-check.mjs` and `bun runtime-check.mjs` run
// loadTokenizer after the default init() (upgrade-check.mjs), then the
// shared checks on the default module, the full one (with the
// tokenizer.json loader) and the lean one, the hostile cases on the full
// and the lean one, the Worker helper, the provider counter and the shipped
// tokenizers (shipped-check.mjs), then print one line "RESULT <json>"
// (failures per check, the hostile results, the shipped tokenizers' counts,
// which runtimes.test.mjs holds to their tokenizer.json files') and exit
// non-zero on any failure. runtimes.test.mjs runs them. The hostile cases'
// huge ones run scaled down as the file says (64×: a minute saved per
// runtime), or at full size, a fresh instance each, given --huge (make
// test-long).
import { createServer } from 'node:http';
import * as tokenfit from '../dist/esm/node.js';
import { createWorker } from '../dist/esm/worker.js';
import { runAll } from './shared.mjs';
import { setup, runCases, verdict } from './hostile.mjs';
import { upgradeChecks } from './upgrade-check.mjs';
import { shippedCounts, shippedTexts } from './shipped-check.mjs';
import { readFileSync } from 'node:fs';

const { init, providerCounter } = tokenfit;
import { bundleHostile, bundleVectors } from './vectors.mjs';

const args = typeof Deno !== 'undefined' ? Deno.args : process.argv.slice(2);
const vectors = bundleVectors();
const file = bundleHostile();
const results = {};
const hostile = [];
// First: its top-level functions need the default init() to bind first.
results.upgrade = await upgradeChecks(tokenfit);
for (const [check, failures] of Object.entries(runAll(await init({}), vectors))) results[`nohf/${check}`] = failures.slice(0, 10);
for (const [name, options] of [['full', { tokenizers: true }], ['lite', { lite: true }]]) {
  const tf = await init(options);
  for (const [check, failures] of Object.entries(runAll(tf, vectors))) results[`${name}/${check}`] = failures.slice(0, 10);
  const fresh = async () => {
    const t = await init(options);
    setup(t, file);
    return t;
  };
  const r = await runCases(await fresh(), file, { scale: args.includes('--huge') ? 1 : undefined, fresh });
  hostile.push({ ...r, failures: r.failures.slice(0, 10) });
  results[`${name}/hostile`] = verdict(r, file).slice(0, 10);
}
// The Worker helper: a module worker, which loads the package by fetching it.
const w = await createWorker({ lite: true });
const wf = [];
if ((await w.countTokens('Hello world')) !== 2) wf.push('countTokens');
const lc = await w.liveCounter({ encoding: 'o200k_base' }, 'Hello');
if ((await lc.edit(5, 0, ' world')) !== 2) wf.push('live edit');
w.terminate();
results['worker'] = wf;

// The provider counter with the runtime's own fetch and AbortController,
// against a count endpoint on 127.0.0.1 (node:http: Deno and Bun serve it).
const server = createServer((req, res) => {
  if (req.url.startsWith('/slow/')) return; // never answers
  if (req.url === '/ok/v1/messages/count_tokens' && req.method === 'POST' && req.headers['x-api-key'] === 'k') {
    res.writeHead(200, { 'content-type': 'application/json' });
    return res.end('{"input_tokens": 14}');
  }
  res.writeHead(529, { 'content-type': 'application/json' });
  res.end('{"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}');
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${server.address().port}`;
const full = await init();
const ask = (path, timeoutMs = 5000) => providerCounter({ fetch, apiKey: 'k', tf: full, baseURL: base + path, timeoutMs })
  .countChat({ model: 'claude-sonnet-4-5', max_tokens: 100, messages: [{ role: 'user', content: 'Hello' }] });
const pf = [];
const ok = await ask('/ok');
if (ok.source !== 'provider' || ok.tokens !== 14) pf.push(`provider: ${JSON.stringify(ok)}`);
const over = await ask('/over');
if (over.source !== 'estimate' || over.fallbackReason.status !== 529 || !(over.upperBound > over.tokens)) pf.push(`http 529: ${JSON.stringify(over)}`);
const slow = await ask('/slow', 100);
if (slow.fallbackReason?.code !== 'timeout') pf.push(`timeout: ${JSON.stringify(slow)}`);
server.closeAllConnections?.();
server.close();
results['provider'] = pf;

// The shipped tokenizers, each from its module in tokenizers/: their counts.
const { tokenizers } = JSON.parse(readFileSync(new URL('../scripts/tokenizers.json', import.meta.url), 'utf8'));
const shipped = await shippedCounts(init, tokenizers, async (t) => (await import(`../tokenizers/${t.file}.js`)).default(), shippedTexts(vectors));

const failed = Object.values(results).some((f) => f.length);
console.log('RESULT ' + JSON.stringify({ runtime: typeof Deno !== 'undefined' ? 'deno' : typeof Bun !== 'undefined' ? 'bun' : 'node', results, hostile, shipped }));
// Deno and Bun keep running while a worker lives: leave explicitly.
globalThis.process?.exit?.(failed ? 1 : 0);
