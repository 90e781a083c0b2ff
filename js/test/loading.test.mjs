// loadEncoding in the browser entry (nothing read from disk on demand):
// the table of another encoding is refused and leaves every loaded
// encoding as it was, and concurrent loads of one encoding from the default
// place fetch it once; a fetch that fails and a module that is not one are
// TokenfitErrors (browser and Node entries). fetch is replaced by one that reads the package's
// tables and counts what it is asked for.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { init } from '../dist/esm/index.js';
import { init as nodeInit } from 'tokenfit';

const dist = (f) => readFileSync(new URL(`../dist/${f}`, import.meta.url));
const fetched = [];
globalThis.fetch = async (url) => {
  if (String(url).includes('/offline/')) throw new TypeError('fetch failed'); // what undici throws for a refused connection
  fetched.push(String(url));
  await new Promise((resolve) => setTimeout(resolve, 20)); // a download takes a while
  return new Response(readFileSync(new URL(url)), { headers: { 'content-type': 'application/octet-stream' } });
};

for (const [kind, module] of [['full', 'tokenfit.wasm'], ['lean', 'tokenfit-lite.wasm']]) {
  test(`the table of another encoding is refused and changes nothing loaded (${kind} module)`, async () => {
    const tf = await init({ module: dist(module), encodings: { r50k_base: dist('tables/r50k_base.tkp') } });
    await assert.rejects(tf.loadEncoding('p50k_base', dist('tables/cl100k_base.tkt')),
      { name: 'TokenfitError', code: 'invalid_table', message: /given for p50k_base holds cl100k_base: nothing was loaded/ });
    assert.deepEqual(tf.encodings().filter((e) => e.loaded).map((e) => e.name), ['r50k_base']);
    assert.throws(() => tf.countTokens('Hello world', { encoding: 'cl100k_base' }), { code: 'encoding_not_loaded' });
    assert.throws(() => tf.countTokens('Hello world', { encoding: 'p50k_base' }), { code: 'encoding_not_loaded' });
    assert.equal(tf.countTokens('Hello world', { encoding: 'r50k_base' }), 2);
    // Bytes that are no table at all: the module refuses them, and nothing changes either.
    await assert.rejects(tf.loadEncoding('p50k_base', new Uint8Array(100)), { code: 'invalid_table' });
    assert.deepEqual(tf.encodings().filter((e) => e.loaded).map((e) => e.name), ['r50k_base']);
    // The right table still loads.
    await tf.loadEncoding('p50k_base', dist('tables/p50k_base.tkp'));
    assert.equal(tf.countTokens('Hello world', { encoding: 'p50k_base' }), 2);
  });
}

test('concurrent loads of one encoding fetch it once', async () => {
  const tf = await init({ module: dist('tokenfit-lite.wasm'), encodings: [], tables: new URL('../dist/tables/', import.meta.url) });
  fetched.length = 0;
  await Promise.all([tf.loadEncoding('cl100k_base'), tf.loadEncoding('cl100k_base'), tf.loadEncoding('cl100k_base')]);
  assert.deepEqual(fetched.map((u) => u.slice(u.lastIndexOf('/') + 1)), ['cl100k_base.tkp']);
  assert.equal(tf.countTokens('Hello world', { encoding: 'cl100k_base' }), 2);
  // A failed load is not remembered: the next call tries again.
  const broken = await init({ module: dist('tokenfit-lite.wasm'), encodings: [], tables: 'file:///nonexistent/' });
  fetched.length = 0;
  const tries = [broken.loadEncoding('p50k_base'), broken.loadEncoding('p50k_base')];
  for (const p of tries) await assert.rejects(p);
  await assert.rejects(broken.loadEncoding('p50k_base'));
  assert.equal(fetched.length, 2, 'two concurrent calls, one fetch; a later call, another');
});

test('a module served with a type compileStreaming refuses is compiled from its bytes', async () => {
  // Chromium and Node stream only "application/wasm" exactly; a server that
  // adds a parameter must not make init() fail.
  for (const type of ['application/wasm; charset=binary', 'Application/WASM', 'application/wasm']) {
    const module = new Response(dist('tokenfit-lite.wasm'), { headers: { 'content-type': type } });
    const tf = await init({ module, encodings: { r50k_base: dist('tables/r50k_base.tkp') } });
    assert.equal(tf.countTokens('Hello world', { encoding: 'r50k_base' }), 2, type);
  }
});

// Found by the audit: these threw the platform's own TypeError ("fetch
// failed") and WebAssembly.CompileError ("expected magic word"), where
// index.d.ts promises a TokenfitError for every error.
test('a fetch that fails and a module that is not one are TokenfitErrors, and the next init answers', async () => {
  const wasm = dist('tokenfit-lite.wasm');
  const html = () => new Response('<!doctype html><title>app</title>', { headers: { 'content-type': 'text/html' } });
  for (const [entry, start] of [['browser', init], ['node', nodeInit]]) {
    const notModule = { name: 'TokenfitError', code: 'invalid_argument', message: /^tokenfit: the module: not a WebAssembly module/ };
    await assert.rejects(start({ module: html() }), { name: 'TokenfitError', code: 'invalid_argument', message: /not WebAssembly but HTML/ }, entry);
    await assert.rejects(start({ module: wasm.subarray(0, wasm.length >> 1) }), notModule, entry);
    await assert.rejects(start({ module: new Uint8Array(0) }), notModule, entry);
    // A WebAssembly module, but not tokenfit's (no exports; one importing
    // what the WASI shim does not give): was a TypeError, a LinkError.
    const notOurs = { name: 'TokenfitError', code: 'invalid_argument', message: /the module is not a tokenfit module/ };
    await assert.rejects(start({ module: Uint8Array.of(0, 0x61, 0x73, 0x6d, 1, 0, 0, 0) }), notOurs, entry);
    await assert.rejects(start({ module: Uint8Array.from(Buffer.from('0061736d01000000010401600000020b0103656e7603666f6f0000', 'hex')) }), notOurs, entry);
    const offline = await start({ module: 'https://cdn.invalid/offline/tokenfit.wasm' }).catch((e) => e);
    assert.equal(offline.name, 'TokenfitError', entry);
    assert.equal(offline.code, 'invalid_argument');
    assert.match(offline.message, /^tokenfit: the module: the fetch failed: fetch failed/);
    assert.ok(offline.cause instanceof TypeError);
    const tf = await start({ module: wasm, encodings: { r50k_base: dist('tables/r50k_base.tkp') } });
    await assert.rejects(tf.loadEncoding('p50k_base', 'https://cdn.invalid/offline/p50k_base.tkp'),
      { name: 'TokenfitError', code: 'invalid_argument', message: /^tokenfit: the table of p50k_base: the fetch failed/ }, entry);
    await tf.loadEncoding('p50k_base', dist('tables/p50k_base.tkp'));
    assert.equal(tf.countTokens('Hello world', { encoding: 'p50k_base' }), 2, entry);
  }
});
