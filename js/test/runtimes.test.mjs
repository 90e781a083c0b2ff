// The shared checks and the hostile cases in every runtime a user deploys
// to, besides Node: Deno and Bun (runtime-check.mjs), Cloudflare's workerd
// (workerd/: a worker importing the module as a WebAssembly.Module, served
// on 127.0.0.1, queried here and put under a bounded load) and headless
// Chromium (browser/index.html, through playwright-core and Debian's
// chromium). Every runtime comes from npm (make js-runtimes, into
// build/js-runtimes; TOKENFIT_RUNTIMES names another directory), except
// Chromium (apt-get install chromium; make chromium installs it).
// TOKENFIT_SKIP_BROWSER=1 skips Chromium on a machine without it.
// TOKENFIT_HUGE=1 (make test-long) runs the huge hostile cases in Deno and
// Bun at full size; workerd and Chromium always run them scaled down 64×.
// TOKENFIT_LONG=1 puts workerd under 8 × 10,000 requests instead of 8 × 500.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { init } from 'tokenfit';
import { body, check, contains, verdict, summary } from './hostile.mjs';
import { load } from './load.mjs';
import { bundleHostile, bundleVectors } from './vectors.mjs';
import { serveWorkerd } from './serve-workerd.mjs';
import { compareShipped, shippedCounts, shippedTexts } from './shipped-check.mjs';

const js = fileURLToPath(new URL('../', import.meta.url));
const build = fileURLToPath(new URL('../../build/wasm/', import.meta.url));
// make js-runtimes installs Deno, Bun, workerd and playwright-core there.
const runtimes = process.env.TOKENFIT_RUNTIMES || fileURLToPath(new URL('../../build/js-runtimes/', import.meta.url));
const bin = (name) => join(runtimes, 'node_modules/.bin', name);
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
// make hf-deps' tokenizer.json files, which the shipped tokenizers are checked against.
const hf = fileURLToPath(new URL('../../build/hf/', import.meta.url));

const hostile = bundleHostile();
const huge = process.env.TOKENFIT_HUGE === '1';

// assertHostile holds a runtime's hostile results (runCases, one per
// module) to the cases it should have run, and reports their counts.
function assertHostile(t, results, modules, where) {
  assert.deepEqual(results.map((r) => r.module), modules, `${where}: the modules that ran the hostile cases`);
  for (const r of results) {
    t.diagnostic(`${where} ${summary(r)}`);
    assert.deepEqual(verdict(r, hostile), [], `${where} ${r.module}`);
  }
}

function assertClean(results, where) {
  const failed = Object.entries(results).filter(([, f]) => f.length);
  assert.deepEqual(Object.fromEntries(failed), {}, `${where}: ${failed.map(([k]) => k).join(', ')} failed`);
  assert.ok(Object.keys(results).length >= 4, `${where}: only ${Object.keys(results)} ran`);
}

function run(cmd, args, options = {}) {
  return new Promise((resolve) => {
    execFile(cmd, args, { cwd: js, maxBuffer: 16 << 20, timeout: 120000, ...options }, (err, stdout, stderr) => resolve({ err, stdout, stderr }));
  });
}

// The shipped tokenizers' counts of the shared vectors' texts with each
// model's tokenizer.json (make hf-deps) loaded here, in Node, once: what
// every runtime's counts with the shipped tables must equal.
const shipped = JSON.parse(readFileSync(join(js, 'scripts/tokenizers.json'), 'utf8')).tokenizers;
const shippedVectorTexts = shippedTexts(bundleVectors());
let fromJSON;
function assertShipped(got, where) {
  fromJSON ??= shippedCounts(init, shipped, (t) => new URL(t.source.path, pathToFileURL(hf)), shippedVectorTexts);
  return fromJSON.then((want) => assert.deepEqual(compareShipped(shipped, got, want, shippedVectorTexts), [], `${where}: the shipped tokenizers`));
}

async function runtimeCheck(t, cmd, args) {
  const { err, stdout, stderr } = await run(cmd, huge ? [...args, '--huge'] : args, { timeout: huge ? 600000 : 240000 });
  const line = stdout.split('\n').find((l) => l.startsWith('RESULT '));
  assert.ok(line, `no result (${err && err.message})\n${stdout}\n${stderr}`);
  const { runtime, results, hostile: h, shipped: counts } = JSON.parse(line.slice(7));
  assertClean(results, cmd);
  assertHostile(t, h, ['wasip1', 'lite'], runtime);
  await assertShipped(counts, runtime);
  assert.ifError(err);
}

test('Deno', (t) => runtimeCheck(t, bin('deno'), ['run', '--allow-read', '--allow-net=127.0.0.1', 'test/runtime-check.mjs']));

test('Bun', (t) => runtimeCheck(t, bin('bun'), ['test/runtime-check.mjs']));

// startWorkerd serves workerd/ on 127.0.0.1 from a temporary directory and
// returns its port and how to stop it.
async function startWorkerd() {
  const dir = mkdtempSync(join(tmpdir(), 'tokenfit-workerd-'));
  cpSync(join(js, 'test/workerd'), dir, { recursive: true });
  // Every file of the package's built code (dist/esm, copied with dist
  // below), so that a new chunk needs no entry by hand.
  const src = readdirSync(join(js, 'dist/esm')).filter((f) => f.endsWith('.js')).sort()
    .map((f) => `    (name = "dist/esm/${f}", esModule = embed "dist/esm/${f}"),`);
  // The shipped tokenizers' tables as data modules, and a module that
  // exports each under its file's name.
  const id = (t) => t.file.replace(/\W/g, '_');
  const tables = shipped.map((t) => `    (name = "tables/${t.file}.tkh", data = embed "dist/tables/${t.file}.tkh"),`);
  tables.push('    (name = "shipped-tables.mjs", esModule = embed "shipped-tables.mjs"),');
  writeFileSync(join(dir, 'shipped-tables.mjs'), shipped.map((t) => `export { default as ${id(t)} } from './tables/${t.file}.tkh';\n`).join(''));
  cpSync(join(js, 'scripts/tokenizers.json'), join(dir, 'tokenizers.json'));
  const config = join(dir, 'config.capnp');
  writeFileSync(config, readFileSync(config, 'utf8').replace(/^ *# SRC_MODULES:.*$/m, src.join('\n'))
    .replace(/^ *# SHIPPED_MODULES:.*\n.*\n/m, tables.join('\n') + '\n'));
  cpSync(join(js, 'dist'), join(dir, 'dist'), { recursive: true });
  mkdirSync(join(dir, 'test'));
  for (const f of ['shared.mjs', 'hostile.mjs', 'hostile-js.mjs', 'shipped-check.mjs']) cpSync(join(js, 'test', f), join(dir, 'test', f));
  writeFileSync(join(dir, 'vectors.json'), JSON.stringify(bundleVectors()));
  writeFileSync(join(dir, 'hostile.json'), JSON.stringify(hostile));
  return serveWorkerd(bin('workerd'), dir);
}

test('Cloudflare workerd: the module imported as a WebAssembly.Module', async (t) => {
  const { port, stop } = await startWorkerd();
  const get = async (path) => {
    const r = await fetch(`http://127.0.0.1:${port}${path}`);
    const answer = await r.json();
    assert.equal(r.status, 200, answer.error);
    return answer;
  };
  try {
    await t.test('the shared checks', async () => {
      for (const module of ['full', 'lite']) {
        const answer = await get(`/?module=${module}`);
        assert.equal(answer.module, module === 'full' ? 'wasip1' : 'lite');
        assertClean(answer.results, `workerd ${module}`);
      }
    });
    await t.test('the shipped tokenizers, imported as data: the counts of their tokenizer.json files in Node', async () => {
      await assertShipped(await get('/shipped'), 'workerd');
    });
    await t.test('hostile inputs', async (t) => {
      assertHostile(t, [await get('/hostile?module=full'), await get('/hostile?module=lite')], ['wasip1', 'lite'], 'workerd');
    });
    await t.test('a bounded load on one shared instance: 8 connections, every answer right', async (t) => {
      const perConnection = process.env.TOKENFIT_LONG === '1' ? 10000 : 500;
      const r = await load({ port, connections: 8, perConnection, request: await loadRequests() });
      t.diagnostic(`workerd load: ${r.requests} requests over ${r.connections} connections in ${r.seconds.toFixed(1)} s, ` +
        `${r.perSecond} requests/s, latency p50 ${r.p50} ms, p99 ${r.p99} ms, ${r.errors} errors`);
      assert.deepEqual(r.firstErrors, []);
      assert.equal(r.errors, 0);
    });
  } finally {
    stop();
  }
});

// loadRequests returns the load's i-th request: counts on the fast path
// and through JSON (held to tiktoken's counts), chats (to what the API
// billed), the shared budget and plan vectors, and budgets and plans
// over those chats (to the answers of the same package here in Node), and
// hostile requests (held to their expectation; those that need a fresh
// instance, change its models, or are huge or binary, left out).
async function loadRequests() {
  const vectors = bundleVectors();
  const local = await init({});
  const json = (path, request, judge) => ({ path, body: typeof request === 'string' ? request : JSON.stringify(request), judge });
  const ok = (want) => (status, answer) => (status === 200 ? want(answer) : `status ${status}: ${JSON.stringify(answer).slice(0, 300)}`);
  const same = (want) => ok((a) => (JSON.stringify(a) === JSON.stringify(want) ? null : `${JSON.stringify(a).slice(0, 300)}\nwant ${JSON.stringify(want).slice(0, 300)}`));
  const equal = (got, want, what) => (got === want ? null : `${what} ${got}, want ${want}`);

  const texts = vectors.tokens.cases.filter((c) => c.text.length <= 2000);
  const counts = texts.flatMap((c) => local.encodings().map(({ name }) => json(`/count?encoding=${name}`, c.text,
    ok((a) => equal(a.tokens, c.counts[name], 'tokens')))));
  const jsonCounts = texts.map((c) => json('/call/countTokens', { text: c.text, model: 'gpt-4o' },
    ok((a) => equal(a.tokens, c.counts.o200k_base, 'tokens'))));
  const chats = vectors.chat.filter((v) => !v.knownMismatch).map((v) => json('/call/countChat', { ...v.request, model: v.resolvedModel || v.model },
    ok((a) => equal(a.total, v.prompt_tokens, 'total'))));
  const budgets = [
    // testdata/vectors/budget.json, plan.json and shapes.json, as core and
    // the host read them; an expected error answers 400.
    ...vectors.budgets.map((c) => json(`/call/${c.op}`, c.request, (status, a) => {
      if (status !== (c.expect.error ? 400 : 200)) return `${c.name}: status ${status}: ${JSON.stringify(a).slice(0, 300)}`;
      const why = contains(a, c.expect);
      return why && `${c.name}: ${why}`;
    })),
    ...vectors.chat.slice(0, 40).map((v, i) => {
      const req = { model: 'gpt-4o', contextWindow: 300 + 25 * i, sections: { system: 'Be brief.', current: 'next?' }, history: v.request.messages };
      return json('/call/calculateBudget', req, same(local.calculateBudget(req)));
    }),
    ...vectors.chat.slice(0, 20).map((v, i) => {
      const items = v.request.messages.map((m, k) => ({ id: `m${k}`, name: `message ${k}`, kind: k % 3 ? 'directive' : 'constraint',
        activation: ((k * 37 + i) % 100) / 100, content: typeof m.content === 'string' ? m.content : JSON.stringify(m.content) }));
      const req = { budget: 40 + 10 * i, items };
      return json('/call/planInjection', req, same(local.planInjection(req)));
    }),
  ];
  const bad = hostile.cases
    .filter((c) => !c.huge && !c.binary && /^[A-Za-z]*$/.test(c.op) && c.op !== 'count' && !/^live|^registerModels$/.test(c.op))
    .map((c) => json(`/call/${c.op}`, body(c), (status, answer) => {
      if (status !== (answer.error ? 400 : 200)) return `status ${status} for ${JSON.stringify(answer).slice(0, 200)}`;
      const why = check(c.expect, answer);
      return why && `${c.name}: ${why}`;
    }));
  bad.push(json('/count?encoding=o200k_bas', 'x', (status, a) => (status === 400 && a.error.code === 'unknown_encoding' ? null : `${status} ${JSON.stringify(a)}`)));
  // Of every 8 requests: 2 fast-path counts, 1 JSON count, 1 chat, 2 budgets or plans, 2 hostile.
  const mix = [counts, counts, jsonCounts, chats, budgets, budgets, bad, bad];
  return (i) => {
    const kind = mix[i % mix.length];
    return kind[(i * 7919) % kind.length];
  };
}

const types = { '.js': 'text/javascript', '.mjs': 'text/javascript', '.html': 'text/html', '.json': 'application/json', '.wasm': 'application/wasm' };

// serve answers the package directory (js/), the GOOS=js module and Go's
// wasm_exec.js under /build/, and the bundled vectors and hostile cases.
function serve() {
  const bundles = { '/vectors.json': JSON.stringify(bundleVectors()), '/hostile.json': JSON.stringify(hostile) };
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    let file;
    if (bundles[path]) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(bundles[path]);
    }
    if (path.startsWith('/build/')) file = join(build, path.slice(7));
    else if (!path.includes('..')) file = join(js, path);
    if (!file || !existsSync(file)) {
      res.writeHead(404);
      return res.end('not found');
    }
    res.writeHead(200, { 'content-type': types[extname(file)] || 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

test('headless Chromium: init by URL, loadEncoding, the GOOS=js module, the hostile cases, the Worker helper, loadTokenizer after init(), the shipped tokenizers', { skip: process.env.TOKENFIT_SKIP_BROWSER === '1' && 'TOKENFIT_SKIP_BROWSER=1' }, async (t) => {
  assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: apt-get install chromium (make chromium does), or TOKENFIT_SKIP_BROWSER=1`);
  const { chromium } = await import(pathToFileURL(join(runtimes, 'node_modules/playwright-core/index.mjs')).href);
  const server = await serve();
  const profile = mkdtempSync(join(tmpdir(), 'tokenfit-chromium-'));
  let browser;
  try {
    // A fresh profile (playwright passes it as --user-data-dir).
    browser = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
        '--disable-component-update', '--disable-sync'],
    });
    const page = await browser.newPage();
    const logs = [];
    page.on('console', (m) => logs.push(m.text()));
    page.on('pageerror', (e) => logs.push(String(e)));
    await page.goto(`http://127.0.0.1:${server.address().port}/test/browser/index.html`);
    const { results, hostile: h } = await page.waitForFunction(() => window.__results, null, { timeout: 180000 }).then((h) => h.jsonValue());
    assertClean(results, `chromium\n${logs.join('\n')}`);
    for (const k of ['full/chat', 'nohf/chat', 'lite/tokens', 'js/tokens', 'loading', 'worker']) assert.ok(k in results, `${k} did not run`);
    assertHostile(t, h, ['wasip1', 'lite', 'js'], 'chromium');
    // loadTokenizer after the default init(), and a failed fetch of the
    // module with the loader, in a page of its own (upgrade-check.mjs).
    const second = await browser.newPage();
    second.on('console', (m) => logs.push(m.text()));
    second.on('pageerror', (e) => logs.push(String(e)));
    await second.goto(`http://127.0.0.1:${server.address().port}/test/browser/upgrade.html`);
    const upgrade = await second.waitForFunction(() => window.__upgrade, null, { timeout: 120000 }).then((h) => h.jsonValue());
    assert.deepEqual(upgrade, { upgrade: [], failed: [] }, `chromium\n${logs.join('\n')}`);
    // The shipped tokenizers (shipped-check.mjs), in a page of its own.
    const third = await browser.newPage();
    third.on('console', (m) => logs.push(m.text()));
    third.on('pageerror', (e) => logs.push(String(e)));
    await third.goto(`http://127.0.0.1:${server.address().port}/test/browser/shipped.html`);
    const answer = await third.waitForFunction(() => window.__shipped, null, { timeout: 300000 }).then((h) => h.jsonValue());
    assert.equal(answer.error, undefined, `chromium\n${logs.join('\n')}`);
    await assertShipped(answer.counts, 'chromium');
  } finally {
    if (browser) await browser.close();
    server.close();
    rmSync(profile, { recursive: true, force: true });
  }
});
