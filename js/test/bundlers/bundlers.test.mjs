// The package as a web app gets it: npm pack of js/, installed into a tiny
// app (app/: a text area counted live, `import { init } from 'tokenfit'`,
// init() without options), built by each bundler people use with no
// configuration about tokenfit, served on 127.0.0.1 and driven in headless
// Chromium (Debian's; $CHROMIUM overrides): "Hello world" must count 2, and
// typing into the text area must update the count to what Node counts.
//
// The same app as a Cloudflare worker (app/worker.js) runs under wrangler
// dev, counting what the test POSTs.
//
// Each build's output is held to what the app can load: the modules and the
// tables in the one form pages download (.tkp), nothing twice, and no
// open-weight tokenizer's table (.tkh) unless the app imports one. Each
// bundler builds the app again with one such import (app/shipped.js:
// tokenfit/tokenizers/mistral-7b-v0.1), and that build holds that table
// too, once, and counts with it in Chromium exactly as Node does; the
// worker likewise (app/worker-shipped.js).
//
// The bundlers are pinned in the Makefile (JS_BUNDLER_PACKAGES) and
// installed once into build/js-bundlers (make js-bundlers;
// TOKENFIT_BUNDLERS names another directory). The apps are built under
// its apps/, so that they resolve the bundlers as a project's own
// node_modules would. Run by make test-bundlers, after make js.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { basename, extname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { init, ENCODINGS } from 'tokenfit';
import mistral from '../../tokenizers/mistral-7b-v0.1.js';

const js = fileURLToPath(new URL('../../', import.meta.url));
const appSource = fileURLToPath(new URL('./app/', import.meta.url));
const bundlers = process.env.TOKENFIT_BUNDLERS || fileURLToPath(new URL('../../../build/js-bundlers/', import.meta.url));
const bin = (name) => join(bundlers, 'node_modules/.bin', name);
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

const TYPED = ' and one more line, typed live';
let expected; // the count of the text area after typing, from Node
// What app/shipped.js and app/worker-shipped.js answer with Mistral 7B
// v0.1's shipped table loaded, from Node.
const SHIPPED_TEXT = 'Hello world, in Mistral 7B';
let shippedAnswer;
let tarball;
let browser;
let profile;

function run(cmd, args, cwd) {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { cwd, maxBuffer: 64 << 20, timeout: 300000, env: { ...process.env, NO_COLOR: '1' } }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${basename(cmd)} ${args.join(' ')}: ${err.message}\n${stdout}\n${stderr}`));
      else resolve(stdout);
    });
  });
}

before(async () => {
  assert.ok(existsSync(bin('vite')), `the bundlers are not installed in ${bundlers}: make js-bundlers`);
  assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: apt-get install chromium (make chromium does)`);
  const tf = await init();
  expected = tf.countTokens('Hello world' + TYPED);
  const full = await init({ tokenizers: true });
  await full.loadTokenizer('hf:mistralai/Mistral-7B-v0.1', mistral());
  const answer = full.call('countTokens', { text: SHIPPED_TEXT, model: 'mistral-7b-instruct-v0.1' });
  assert.equal(answer.exact, true, 'Mistral 7B v0.1 with its shipped table');
  shippedAnswer = `${answer.tokens} true`;
  const packDir = mkdtempSync(join(tmpdir(), 'tokenfit-pack-'));
  const out = await run('npm', ['pack', '--silent', '--pack-destination', packDir], js);
  tarball = join(packDir, out.trim().split('\n').pop());
  const { chromium } = await import(pathToFileURL(join(bundlers, 'node_modules/playwright-core/index.mjs')).href);
  profile = mkdtempSync(join(tmpdir(), 'tokenfit-chromium-'));
  browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
});

after(async () => {
  if (browser) await browser.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
  if (tarball) rmSync(join(tarball, '..'), { recursive: true, force: true });
});

// makeApp lays out the app in apps/<dir> with the packed package installed
// as npm would: extracted into node_modules/tokenfit.
async function makeApp(dir) {
  const app = join(bundlers, 'apps', dir);
  rmSync(app, { recursive: true, force: true });
  mkdirSync(join(app, 'node_modules/tokenfit'), { recursive: true });
  cpSync(appSource, app, { recursive: true });
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: `app-${dir}`, private: true, type: 'module' }, null, 2));
  // A lock file marks the project's root, as in any app: without one
  // Parcel takes the checkout around build/ for it, and writes its cache there.
  writeFileSync(join(app, 'package-lock.json'), JSON.stringify({ name: `app-${dir}`, lockfileVersion: 3, requires: true, packages: {} }, null, 2));
  await run('tar', ['xzf', tarball, '-C', join(app, 'node_modules/tokenfit'), '--strip-components=1'], app);
  return app;
}

const types = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css' };

// serveStatic serves a directory on 127.0.0.1, as a static host would.
function serveStatic(root) {
  const server = createServer((req, res) => {
    let path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (path.endsWith('/')) path += 'index.html';
    const file = join(root, path);
    if (!file.startsWith(root) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': types[extname(file)] || 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function freePort() {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

function files(dir) {
  return readdirSync(dir, { recursive: true }).map((f) => join(dir, f)).filter((f) => statSync(f).isFile());
}

// The package's files a build emitted, named by the file of js/dist each
// one is a copy of (bundlers rename them). Each must be a module or a table
// in its transport form, and none twice.
function packageAssets(t, dist, shipped) {
  const sources = new Map(files(join(js, 'dist')).map((f) => [digest(f), relative(join(js, 'dist'), f)]));
  const emitted = files(dist).filter((f) => sources.has(digest(f)));
  const names = emitted.map((f) => sources.get(digest(f))).sort();
  const bytes = emitted.reduce((n, f) => n + statSync(f).size, 0);
  t.diagnostic(`emitted ${names.length} of the package's files, ${(bytes / 1e6).toFixed(2)} MB: ${names.join(' ')}`);
  assert.deepEqual(names, shipped, 'the package files in the build');
  assert.equal(files(dist).filter((f) => /\.(wasm|tkt|tkp|tkx|tkh)$/.test(f)).length, shipped.length, 'module and table files in the build');
}

// What an app that calls init() can load: either module, and each
// encoding's table in the form pages download.
const SHIPPED = ['tokenfit-lite.wasm', 'tokenfit-nohf.wasm', 'tokenfit.wasm', ...ENCODINGS.map((e) => `tables/${e}.tkp`)].sort();

const digest = (f) => createHash('sha256').update(readFileSync(f)).digest('hex');

// countInChromium opens the app, waits for its first count, types into the
// text area and waits for the live count Node expects; with shipped, the
// app (app/shipped.js) must also have counted with Mistral 7B's table as
// Node does. The default app (init() without options) then has saved its
// memory image (src/saved.js): opened again, it counts without fetching
// o200k_base's table.
async function countInChromium(t, url, { shipped, explicit } = {}) {
  const page = await browser.newPage();
  const logs = [];
  const fetched = [];
  page.on('console', (m) => logs.push(m.text()));
  page.on('pageerror', (e) => logs.push(String(e)));
  page.on('requestfinished', (r) => fetched.push(new URL(r.url()).pathname));
  try {
    await page.goto(url);
    await page.waitForFunction(() => document.body.dataset.ready || document.body.dataset.error, null, { timeout: 120000 });
    const { ready, error, shipped: answer } = await page.evaluate(() => ({ ...document.body.dataset }));
    assert.equal(error, undefined, `init() failed: ${error}\n${logs.join('\n')}`);
    assert.equal(ready, '2', 'countTokens("Hello world")');
    if (shipped) assert.equal(answer, shippedAnswer, 'the count with the shipped Mistral 7B table, and exact');
    assert.equal(await page.evaluate(() => document.querySelector('output').value), '2', 'the live count before typing');
    await page.focus('textarea');
    await page.keyboard.press('End');
    await page.keyboard.type(TYPED);
    await page.waitForFunction((n) => document.querySelector('output').value === n, String(expected), { timeout: 10000 })
      .catch(async () => assert.fail(`after typing, the live count is ${await page.evaluate(() => document.querySelector('output').value)}, not ${expected}`));
    t.diagnostic(`fetched: ${fetched.filter((p) => /\.(wasm|tk.)$/.test(p)).map((p) => basename(p)).join(' ')}`);
    if (!shipped && !explicit) {
      const saved = await page.waitForFunction(async () => (await (await caches.open('tokenfit')).keys()).length > 0, null, { timeout: 60000, polling: 200 })
        .then(() => true, () => false);
      assert.ok(saved, `no memory image was saved\n${logs.join('\n')}`);
      fetched.length = 0;
      await page.goto(url);
      await page.waitForFunction(() => document.body.dataset.ready || document.body.dataset.error, null, { timeout: 120000 });
      assert.equal(await page.evaluate(() => document.body.dataset.ready), '2', `the returning visit's count\n${logs.join('\n')}`);
      const tables = fetched.filter((p) => /\.tkp$/.test(p));
      assert.deepEqual(tables, [], 'a returning visit starts from the saved image, without the table');
      t.diagnostic(`returning visit fetched: ${fetched.filter((p) => /\.(wasm|tk.)$/.test(p)).map((p) => basename(p)).join(' ') || 'nothing'} (from the HTTP cache or the server)`);
    }
  } finally {
    await page.close();
  }
}

// A bundler's build: its command in the app directory, then the output
// served as a static site. explicit and shipped build app/explicit.js or
// app/shipped.js instead of src/index.js.
async function buildAndCount(t, dir, cmd, args, { html, explicit, shipped } = {}) {
  const app = await makeApp(dir);
  if (explicit) cpSync(join(app, 'explicit.js'), join(app, 'src/index.js'));
  if (shipped) cpSync(join(app, 'shipped.js'), join(app, 'src/index.js'));
  const started = Date.now();
  await run(cmd === 'node' ? process.execPath : bin(cmd), args, app);
  t.diagnostic(`${dir} built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const dist = join(app, 'dist');
  if (html) writeFileSync(join(dist, 'index.html'), readFileSync(join(app, 'index.html'), 'utf8').replace('./src/index.js', `./${html}`));
  packageAssets(t, dist, explicit ? ['tables/o200k_base.tkp', 'tokenfit-lite.wasm']
    : shipped ? [...SHIPPED, 'tables/mistral-7b-v0.1.tkh'].sort() : SHIPPED);
  const server = await serveStatic(dist);
  try {
    await countInChromium(t, `http://127.0.0.1:${server.address().port}/`, { shipped, explicit });
  } finally {
    server.close();
  }
}

// startServer runs a dev server of the app until stop() and resolves once
// it prints its address.
async function startServer(app, cmd, args, address) {
  const child = spawn(bin(cmd), args, {
    cwd: app, detached: true, env: { ...process.env, NO_COLOR: '1', WRANGLER_SEND_METRICS: 'false' },
  });
  let output = '';
  const stop = () => {
    try {
      process.kill(-child.pid);
    } catch {} // already gone
  };
  try {
    await new Promise((resolve, reject) => {
      const onData = (d) => {
        output += d;
        if (output.includes(address)) resolve();
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      child.on('exit', (code) => reject(new Error(`${cmd} exited (${code}):\n${output}`)));
      setTimeout(() => reject(new Error(`${cmd} did not start in 120 s:\n${output}`)), 120000);
    });
  } catch (e) {
    stop();
    throw e;
  }
  return stop;
}

for (const shipped of [false, true]) {
  test(`Vite dev server${shipped ? ', with a shipped tokenizer' : ''}`, async (t) => {
    const app = await makeApp(shipped ? 'vite-dev-shipped' : 'vite-dev');
    if (shipped) cpSync(join(app, 'shipped.js'), join(app, 'src/index.js'));
    const port = await freePort();
    const stop = await startServer(app, 'vite', ['--host', '127.0.0.1', '--port', String(port), '--strictPort'], `127.0.0.1:${port}`);
    try {
      await countInChromium(t, `http://127.0.0.1:${port}/`, { shipped });
    } finally {
      stop();
    }
  });
}

// wrangler bundles with esbuild and runs the worker in workerd, here with
// no network (it falls back from the Request.cf data it cannot fetch).
// Workers cannot compile WebAssembly at run time, so the worker imports the
// module, and its table through the one rule in app/wrangler.toml.
test('wrangler dev (workerd, offline): the Workers setup of the README', async () => {
  const app = await makeApp('wrangler');
  const port = await freePort();
  const stop = await startServer(app, 'wrangler', ['dev', '--ip', '127.0.0.1', '--port', String(port)], 'Ready on');
  try {
    const count = async (text) => (await (await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: text })).json()).tokens;
    assert.equal(await count('Hello world'), 2);
    assert.equal(await count('Hello world' + TYPED), expected);
  } finally {
    stop();
  }
});

test('wrangler dev (workerd, offline), with a shipped tokenizer imported as data', async () => {
  const app = await makeApp('wrangler-shipped');
  const port = await freePort();
  const stop = await startServer(app, 'wrangler', ['dev', 'worker-shipped.js', '--ip', '127.0.0.1', '--port', String(port)], 'Ready on');
  try {
    const { tokens, exact } = await (await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: SHIPPED_TEXT })).json();
    assert.equal(`${tokens} ${exact}`, shippedAnswer);
  } finally {
    stop();
  }
});

// Each bundler builds the app as it is, and again with a shipped tokenizer.
const builds = [
  ['Vite build', 'vite-build', 'vite', ['build', '--logLevel', 'warn']],
  ['webpack 5', 'webpack', 'webpack', ['--mode', 'production'], { html: 'main.js' }],
  ['Rollup (node-resolve, import-meta-assets)', 'rollup', 'rollup', ['-c', '--silent'], { html: 'index.js' }],
  ['Parcel 2', 'parcel', 'parcel', ['build', 'index.html', '--no-cache', '--log-level', 'warn']],
  // esbuild copies no asset named by new URL(…, import.meta.url): its build
  // takes the package's plugin (app/esbuild.mjs).
  ['esbuild (with tokenfit/esbuild)', 'esbuild', 'node', ['esbuild.mjs'], { html: 'index.js' }],
];
for (const [name, dir, cmd, args, options] of builds) {
  test(name, (t) => buildAndCount(t, dir, cmd, args, options));
  test(`${name}, with a shipped tokenizer: the package's files and its table`, (t) =>
    buildAndCount(t, `${dir}-shipped`, cmd, args, { ...options, shipped: true }));
}

test('Vite build, tokenfit/explicit: only the lean module and o200k_base', (t) =>
  buildAndCount(t, 'vite-explicit', 'vite', ['build', '--logLevel', 'warn'], { explicit: true }));
