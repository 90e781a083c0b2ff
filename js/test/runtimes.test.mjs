// The shared checks in every runtime a user deploys to, besides Node:
// Deno and Bun (runtime-check.mjs), Cloudflare's workerd (workerd/: a worker
// importing the module as a WebAssembly.Module, served on 127.0.0.1 and
// queried here) and headless Chromium (browser/index.html, through
// playwright-core and Debian's chromium). Every runtime comes from npm
// (make js-runtimes, into build/js-runtimes; TOKENFIT_RUNTIMES names another
// directory), except Chromium (apt-get install chromium; .ci/run installs it).
// TOKENFIT_SKIP_BROWSER=1 skips Chromium on a machine without it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFile } from 'node:child_process';
import { createServer } from 'node:http';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bundleVectors } from './vectors.mjs';

const js = fileURLToPath(new URL('../', import.meta.url));
const build = fileURLToPath(new URL('../../build/wasm/', import.meta.url));
// make js-runtimes installs Deno, Bun, workerd and playwright-core there.
const runtimes = process.env.TOKENFIT_RUNTIMES || fileURLToPath(new URL('../../build/js-runtimes/', import.meta.url));
const bin = (name) => join(runtimes, 'node_modules/.bin', name);
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

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

async function runtimeCheck(cmd, args) {
  const { err, stdout, stderr } = await run(cmd, args);
  const line = stdout.split('\n').find((l) => l.startsWith('RESULT '));
  assert.ok(line, `no result (${err && err.message})\n${stdout}\n${stderr}`);
  const { results } = JSON.parse(line.slice(7));
  assertClean(results, cmd);
  assert.ifError(err);
}

test('Deno', () => runtimeCheck(bin('deno'), ['run', '--allow-read', '--allow-net=127.0.0.1', 'test/runtime-check.mjs']));

test('Bun', () => runtimeCheck(bin('bun'), ['test/runtime-check.mjs']));

test('Cloudflare workerd: the module imported as a WebAssembly.Module', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tokenfit-workerd-'));
  let p;
  try {
    cpSync(join(js, 'test/workerd'), dir, { recursive: true });
    cpSync(join(js, 'src'), join(dir, 'src'), { recursive: true });
    cpSync(join(js, 'dist'), join(dir, 'dist'), { recursive: true });
    mkdirSync(join(dir, 'test'));
    cpSync(join(js, 'test/shared.mjs'), join(dir, 'test/shared.mjs'));
    writeFileSync(join(dir, 'vectors.json'), JSON.stringify(bundleVectors()));
    p = spawn(bin('workerd'), ['serve', join(dir, 'config.capnp'), '--control-fd', '3'], { stdio: ['ignore', 'ignore', 'pipe', 'pipe'] });
    let stderr = '';
    p.stderr.on('data', (d) => { stderr += d; });
    const port = await new Promise((resolve, reject) => {
      let buf = '';
      p.stdio[3].on('data', (d) => {
        buf += d;
        const m = /"port":(\d+)/.exec(buf);
        if (m) resolve(Number(m[1]));
      });
      p.on('exit', (code) => reject(new Error(`workerd exited (${code}): ${stderr}`)));
    });
    for (const module of ['full', 'lite']) {
      const r = await fetch(`http://127.0.0.1:${port}/?module=${module}`);
      const body = await r.json();
      assert.equal(r.status, 200, body.error);
      assert.equal(body.module, module === 'full' ? 'wasip1' : 'lite');
      assertClean(body.results, `workerd ${module}`);
    }
  } finally {
    if (p) p.kill();
    rmSync(dir, { recursive: true, force: true });
  }
});

const types = { '.js': 'text/javascript', '.mjs': 'text/javascript', '.html': 'text/html', '.json': 'application/json', '.wasm': 'application/wasm' };

// serve answers the package directory (js/), the GOOS=js module and Go's
// wasm_exec.js under /build/, and the bundled vectors.
function serve() {
  const vectors = JSON.stringify(bundleVectors());
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    let file;
    if (path === '/vectors.json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(vectors);
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

test('headless Chromium: init by URL, loadEncoding, the GOOS=js module, the Worker helper', { skip: process.env.TOKENFIT_SKIP_BROWSER === '1' && 'TOKENFIT_SKIP_BROWSER=1' }, async () => {
  assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: apt-get install chromium (.ci/run does), or TOKENFIT_SKIP_BROWSER=1`);
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
    const results = await page.waitForFunction(() => window.__results, null, { timeout: 120000 }).then((h) => h.jsonValue());
    assertClean(results, `chromium\n${logs.join('\n')}`);
    for (const k of ['full/chat', 'lite/tokens', 'js/tokens', 'loading', 'worker']) assert.ok(k in results, `${k} did not run`);
  } finally {
    if (browser) await browser.close();
    server.close();
    rmSync(profile, { recursive: true, force: true });
  }
});
