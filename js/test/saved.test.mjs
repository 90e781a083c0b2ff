// The memory image a page saves (src/saved.js), in headless Chromium: each
// visit a page of its own in one profile (the HTTP server counts the page's
// fetches of o200k_base's table: a start from the image fetches none).
// After a first visit counts a marker text, the saved image holds o200k_base
// and not the marker; the next visit starts from it and counts as official
// tiktoken; an image cut, corrupted or of another module is ignored (the
// table is fetched), counts stay right and it is replaced; without Cache
// Storage, with a Cache Storage that refuses, and with savedImage: false,
// init() starts as before and counts right.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { get_encoding } from 'tiktoken';

const js = fileURLToPath(new URL('../', import.meta.url));
const runtimes = process.env.TOKENFIT_RUNTIMES || join(js, '../build/js-runtimes');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const types = { '.js': 'text/javascript', '.mjs': 'text/javascript', '.html': 'text/html', '.wasm': 'application/wasm' };

const TEXTS = ['Hello world', 'Привет, мир! 東京タワーに行きましょう 🎉🚀', 'func main() { fmt.Println("hi") }\n\n\n    indented\t\ttabs', ''];
const official = get_encoding('o200k_base');
const WANT = TEXTS.map((t) => official.encode_ordinary(t).length);
official.free();

test('headless Chromium: a returning page starts from the image the first one saved, never trusting a bad one', { skip: process.env.TOKENFIT_SKIP_BROWSER === '1' && 'TOKENFIT_SKIP_BROWSER=1', timeout: 600000 }, async () => {
  assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing`);
  const { chromium } = await import(pathToFileURL(join(runtimes, 'node_modules/playwright-core/index.mjs')).href);
  let tables = 0;
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (path === '/dist/tables/o200k_base.tkp') tables++;
    const file = path.includes('..') ? null : join(js, path);
    if (!file || !existsSync(file)) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': types[extname(file)] || 'application/octet-stream', 'cache-control': 'no-store' }).end(readFileSync(file));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const profile = mkdtempSync(join(tmpdir(), 'tokenfit-saved-'));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const logs = [];
  // visit opens a page of its own, runs before(page) first if given, and
  // returns it once the helpers are there.
  const visit = async (before) => {
    const page = await browser.newPage();
    page.on('pageerror', (e) => logs.push(String(e)));
    if (before) await page.addInitScript(before);
    await page.goto(`http://127.0.0.1:${server.address().port}/test/browser/saved.html`);
    await page.waitForFunction(() => window.ready, null, { timeout: 60000 });
    return page;
  };
  // counts starts tokenfit in the page with options and returns its counts
  // and how many times it fetched the table during init().
  const counts = async (page, options) => {
    const before = tables;
    const got = await page.evaluate(async ([texts, options]) => {
      const tf = await window.saved.tokenfit.init(options);
      return texts.map((t) => tf.countTokens(t));
    }, [TEXTS, options]);
    return { got, fetched: tables - before };
  };
  const marker = `zq-marker-${Math.random().toString(36).slice(2)}-${Date.now()}`;
  try {
    // The first visit: no image; the table is fetched; the page counts the
    // marker; then an image is saved, holding o200k_base and not the marker.
    let page = await visit();
    assert.deepEqual(await page.evaluate(() => window.saved.entries()), []);
    let r = await counts(page);
    assert.deepEqual(r.got, WANT);
    assert.ok(r.fetched >= 1, 'the first visit fetches the table');
    await page.evaluate(async (m) => {
      const tf = await window.saved.tokenfit.init();
      tf.countTokens(m.repeat(3));
      tf.encode(m);
      tf.liveCounter({ encoding: 'o200k_base' }).update(m);
    }, marker);
    const first = await page.evaluate(async (m) => {
      const b = await window.saved.saved();
      return b && { length: b.length, marker: window.saved.find(b, m), encoding: window.saved.find(b, 'o200k_base') };
    }, marker);
    assert.ok(first, `no image was saved\n${logs.join('\n')}`);
    assert.equal(first.marker, false, 'the saved image holds the text the page counted');
    assert.equal(first.encoding, true, 'the scan finds what the image does hold');
    await page.close();

    // The next visit starts from it: no table fetched, the same counts.
    page = await visit();
    r = await counts(page);
    assert.deepEqual(r, { got: WANT, fetched: 0 }, 'a returning visit starts from the saved image');
    assert.deepEqual(await page.evaluate(async () => (await window.saved.tokenfit.init()).encodings().filter((e) => e.loaded).map((e) => e.name)), ['o200k_base']);
    // What every good image of this module says: its version,
    // memory size, encodings and identity (its digest and pages carry the
    // saving instance's random state).
    const stable = (b) => [...b.slice(0, 8), ...b.slice(24, 32), ...b.slice(64, 96)];
    const good = await page.evaluate(() => window.saved.bytes().then((b) => Array.from(b.subarray(0, 128))));
    await page.close();

    // Damaged images: each is ignored (the table is fetched, the counts are
    // right) and replaced by a good one.
    const damages = {
      'a flipped byte in its pages': (b) => { b[b.length - 3000] ^= 0x20; return b; },
      'a flipped byte in its header': (b) => { b[24] ^= 1; return b; },
      'another module\'s image': (b) => { b[64] ^= 1; return b; },
      'cut short': (b) => b.subarray(0, b.length - 4096),
    };
    for (const [what, change] of Object.entries(damages)) {
      page = await visit();
      await page.evaluate((src) => window.saved.damage(eval(src)), `(${change})`);
      const damaged = await page.evaluate(() => window.saved.bytes().then((b) => b && b.length));
      await page.close();
      page = await visit();
      r = await counts(page);
      assert.deepEqual(r.got, WANT, what);
      assert.ok(r.fetched >= 1, `${what}: the table is fetched instead`);
      const again = await page.evaluate(async () => {
        const b = await window.saved.saved(null);
        return b && Array.from(b.subarray(0, 128));
      });
      assert.ok(again, `${what}: replaced (was ${damaged} bytes)`);
      assert.deepEqual(stable(again), stable(good), `${what}: replaced by a good image`);
      await page.close();
    }
    // Cut in its compressed form.
    page = await visit();
    await page.evaluate(() => window.saved.damage((b) => b.subarray(0, b.length >> 1), true));
    await page.close();
    page = await visit();
    r = await counts(page);
    assert.ok(r.fetched >= 1, 'a cut deflate stream: the table is fetched');
    assert.deepEqual(r.got, WANT, 'a cut deflate stream');
    assert.ok(await page.evaluate(() => window.saved.saved(null)), 'replaced');
    await page.close();

    // savedImage: false neither reads nor saves one.
    let before = tables;
    page = await visit();
    r = await counts(page, { savedImage: false });
    assert.deepEqual(r, { got: WANT, fetched: 1 }, 'savedImage: false');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert.equal(tables, before + 1, 'savedImage: false saves nothing');
    await page.close();

    // No Cache Storage (an insecure origin), and one that refuses (a full
    // quota, a private mode): today's start, the same counts.
    page = await visit(() => Object.defineProperty(window, 'caches', { value: undefined }));
    r = await counts(page);
    assert.ok(r.fetched === 1 && r.got.every((n, i) => n === WANT[i]), 'no Cache Storage');
    await page.close();
    page = await visit(() => {
      const refuse = () => Promise.reject(new DOMException('quota', 'QuotaExceededError'));
      CacheStorage.prototype.open = refuse;
    });
    r = await counts(page);
    assert.deepEqual(r.got, WANT, 'a Cache Storage that refuses');
    await new Promise((resolve) => setTimeout(resolve, 1500)); // its idle save fails quietly
    await page.close();

    // In a module worker: the same start, saved and restored.
    const inWorker = async (page) => {
      const before = tables;
      const got = await page.evaluate((texts) => new Promise((resolve, reject) => {
        const src = `import * as t from '${location.origin}/dist/esm/index.js';
          const tf = await t.init();
          postMessage(${JSON.stringify(texts)}.map((x) => tf.countTokens(x)));`;
        const w = new Worker(URL.createObjectURL(new Blob([src], { type: 'text/javascript' })), { type: 'module' });
        w.onmessage = (e) => resolve(e.data);
        w.onerror = (e) => reject(new Error(e.message));
      }), TEXTS);
      return { got, fetched: tables - before };
    };
    page = await visit();
    await page.evaluate(() => caches.delete('tokenfit'));
    r = await inWorker(page);
    assert.deepEqual(r.got, WANT, 'a worker');
    assert.ok(r.fetched >= 1, 'a worker\'s first start fetches the table');
    assert.ok(await page.evaluate(() => window.saved.saved(null)), 'a worker saves an image');
    r = await inWorker(page);
    assert.deepEqual(r, { got: WANT, fetched: 0 }, 'a worker starts from the saved image');
    await page.close();

    // An app's own module (the web demo's way): savedImage: true with
    // o200k_base given as bytes saves one under the key of such modules,
    // and the next start with them restores it (it loads no table: the
    // bytes given are not used).
    const own = async (page) => page.evaluate(async (texts) => {
      const bytes = new Uint8Array(await (await fetch('/dist/tables/o200k_base.tkp')).arrayBuffer());
      const module = await WebAssembly.compileStreaming(fetch('/dist/tokenfit-lite.wasm'));
      const tf = await window.saved.tokenfit.init({ module, encodings: { o200k_base: bytes }, savedImage: true });
      return { got: texts.map((t) => tf.countTokens(t)), memory: tf.memoryBytes() };
    }, TEXTS);
    page = await visit();
    const fresh = await own(page);
    assert.deepEqual(fresh.got, WANT, 'an app\'s own module');
    const keys = await page.evaluate(async () => {
      for (let i = 0; i < 600; i++) {
        const k = await window.saved.entries();
        if (k.length === 1 && k[0].startsWith('https://tokenfit.invalid/')) return k;
        await new Promise((r) => setTimeout(r, 100));
      }
      return window.saved.entries();
    });
    assert.deepEqual(keys, ['https://tokenfit.invalid/module.wasm?tokenfit-image=o200k_base']);
    await page.close();
    page = await visit();
    const again = await own(page);
    assert.deepEqual(again.got, WANT, 'an app\'s own module, restored');
    await page.close();
    assert.deepEqual(logs, []);
  } finally {
    await browser.close();
    server.close();
    rmSync(profile, { recursive: true, force: true });
  }
});
