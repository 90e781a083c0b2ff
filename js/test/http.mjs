// The HTTP API's test helpers, shared by edge.test.mjs and
// scripts/bench-serve.mjs: the mixed requests of the load tests and the
// example Worker served by workerd.
import { cpSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { init } from 'tokenfit';
import { STATUS } from '../src/http-table.js';
import { serveWorkerd } from './serve-workerd.mjs';

const js = fileURLToPath(new URL('../', import.meta.url));
const repo = fileURLToPath(new URL('../../', import.meta.url));

// loadRequests returns the i-th request of a mixed load: every routed
// operation, answers and errors, each judged against this package's own
// answer in Node (or its error, with the status of its code).
export async function loadRequests(prefix) {
  const local = await init({});
  const texts = ['Hello world', '', '日本語のテキストです。', 'token '.repeat(40), 'emoji 👩‍👩‍👧 and\r\n  spaces\t'];
  const reqs = [];
  const add = (op, body) => {
    let status = 200;
    let want;
    try {
      want = local.call(op, body || '{}');
    } catch (e) {
      status = STATUS[e.code] ?? 500;
      want = { error: { code: e.code, message: e.message, ...(e.field ? { field: e.field } : {}) } };
    }
    const wantText = JSON.stringify(want);
    reqs.push({ path: `${prefix}/v1/${op}`, body, judge: (st, a) => (st === status && JSON.stringify(a) === wantText ? null : `${op} ${body.slice(0, 80)}: ${st} ${JSON.stringify(a).slice(0, 200)}, want ${status} ${wantText.slice(0, 200)}`) });
  };
  texts.forEach((text, i) => {
    const q = JSON.stringify(text);
    add('countTokens', `{"text": ${q}}`);
    add('countTokens', `{"text": ${q}, "model": "gpt-4"}`);
    add('encode', `{"text": ${q}, "encoding": "cl100k_base"}`);
    add('truncate', `{"text": ${q}, "maxTokens": ${i + 1}}`);
    add('chunk', `{"text": ${q}, "maxTokens": ${3 + i}}`);
    add('withinLimit', `{"text": ${q}, "limit": ${2 * i}}`);
    add('countChat', `{"model": "gpt-4o", "messages": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": ${q}}]}`);
  });
  add('decode', '{"ids": [9906, 1917], "encoding": "cl100k_base"}');
  add('calculateBudget', '{"model": "gpt-4o", "systemPrompt": "You are helpful.", "messages": [{"role": "user", "content": "Hi"}], "maxOutputTokens": 1000}');
  add('planInjection', `{"model": "gpt-4o", "tokenBudget": 50, "candidates": [{"id": "a", "text": "alpha beta", "priority": 1}, {"id": "b", "text": "${'gamma '.repeat(100)}", "priority": 2}]}`);
  add('calibrate', '{"model": "gpt-4o", "estimated": 100, "actual": 110}');
  add('models', '{"model": "gpt-4o"}');
  add('version', '');
  add('countTokens', '{"text": 1}');
  add('countTokens', '{"text": "a", "encoding": "nope"}');
  add('countChat', '{"messages": "no"}');
  add('countTokens', '{"text": "a"');
  return (i) => reqs[i % reqs.length];
}

// startWorker serves examples/cloudflare-worker/worker.js with the workerd
// installed under runtimes (make js-runtimes) on a
// loopback port, the package's files as the modules its imports name
// (tokenfit/edge, tokenfit/tokenfit.wasm, tokenfit/tables/…), as wrangler
// would bundle them.
export async function startWorker(runtimes) {
  const dir = mkdtempSync(join(tmpdir(), 'tokenfit-edge-'));
  cpSync(join(repo, 'examples/cloudflare-worker/worker.js'), join(dir, 'worker.js'));
  cpSync(join(js, 'dist'), join(dir, 'dist'), { recursive: true });
  // The package's built code, each file under the name its imports give it
  // from tokenfit/edge (./chunk-….js → tokenfit/chunk-….js).
  const esm = readdirSync(join(js, 'dist/esm')).filter((f) => f.endsWith('.js'));
  const modules = [
    '(name = "worker.js", esModule = embed "worker.js")',
    '(name = "tokenfit/edge", esModule = embed "dist/esm/edge.js")',
    ...esm.map((f) => `(name = "tokenfit/${f}", esModule = embed "dist/esm/${f}")`),
    '(name = "tokenfit/tokenfit.wasm", wasm = embed "dist/tokenfit.wasm")',
    ...['o200k_base', 'cl100k_base', 'p50k_base', 'r50k_base'].map((e) => `(name = "tokenfit/tables/${e}.tkp", data = embed "dist/tables/${e}.tkp")`),
  ];
  writeFileSync(join(dir, 'config.capnp'), `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [(name = "main", worker = .w)],
  sockets = [(name = "http", address = "127.0.0.1:0", http = (), service = "main")],
);
const w :Workerd.Worker = (
  modules = [\n    ${modules.join(',\n    ')}\n  ],
  compatibilityDate = "2025-09-01",
);
`);
  return serveWorkerd(join(runtimes, 'node_modules/.bin/workerd'), dir);
}

