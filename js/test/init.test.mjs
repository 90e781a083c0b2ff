// The top-level functions before and after init(): each call before any
// instance is a not_initialized TokenfitError (never a TypeError), a text
// area typed into while the module loads is caught up by a counter made
// from its value, and which instance answers them is decided by rule (the
// full one when there is one, then the first init() called), never by which
// start finished first. Its own file: the bound instance is per process.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as tokenfit from 'tokenfit';

const FUNCTIONS = {
  countTokens: ['x'], countChat: [{ messages: [] }], calculateBudget: [{}], planInjection: [{}], encode: ['x'],
  decode: [[1]], withinLimit: ['x', 1], truncate: ['x', 1], chunk: ['x', 1], calibrate: [{}], models: [],
  registerModels: [{}], encodings: [], version: [], liveCounter: [], loadEncoding: ['o200k_base'],
};

const dist = (f) => readFileSync(new URL(`../dist/${f}`, import.meta.url));
const later = (v, ms) => new Promise((resolve) => setTimeout(() => resolve(v), ms));

test('every top-level function before init() is a not_initialized TokenfitError, saying what to call', async () => {
  for (const [fn, args] of Object.entries(FUNCTIONS)) {
    const check = (e) => {
      assert.ok(e instanceof tokenfit.TokenfitError, `${fn}: ${e && e.name}: ${e && e.message}`);
      assert.equal(e.code, 'not_initialized', fn);
      assert.match(e.message, new RegExp(`${fn}\\(\\) was called before init\\(\\).*await init\\(\\)`), fn);
      return true;
    };
    if (fn === 'loadEncoding') await assert.rejects(tokenfit[fn](...args), check);
    else assert.throws(() => tokenfit[fn](...args), check);
  }
});

test('a text area typed into while the module loads: the counter made from its value catches up', async () => {
  // js/README.md's pattern: input events before init() resolves have no
  // counter to update; the counter starts from the area's value then.
  const area = { value: '', selectionEnd: 0 };
  let counter = null;
  const shown = [];
  const onInput = () => {
    if (counter) shown.push(counter.update(area.value, area.selectionEnd));
  };
  const started = tokenfit.init({ lite: true, module: later(dist('tokenfit-lite.wasm'), 50) }).then((tf) => {
    counter = tf.liveCounter(undefined, area.value);
    shown.push(counter.count());
  });
  for (const c of 'Hello') {
    area.value += c;
    area.selectionEnd = area.value.length;
    onInput();
  }
  assert.deepEqual(shown, [], 'nothing to show before init');
  await started;
  area.value += ' world';
  area.selectionEnd = area.value.length;
  onInput();
  assert.deepEqual(shown, [1, 2]);
});

test('Promise.all([init(), init({ lite: true })]): the top-level functions use the full instance, whichever started first', async () => {
  // The full module is made to finish last; the lean one of the test above
  // is bound until then.
  const [full, lean] = await Promise.all([
    tokenfit.init({ module: later(dist('tokenfit.wasm'), 300) }),
    tokenfit.init({ lite: true }),
  ]);
  assert.equal(full.module, 'wasip1');
  assert.equal(lean.module, 'lite');
  assert.equal(tokenfit.countChat({ messages: [{ role: 'user', content: 'Hello world' }] }).exact, false);
  assert.equal(tokenfit.version(), full.version());
  // A later lean instance never takes over; among full ones the first called stays.
  await Promise.all([tokenfit.init({ lite: true }), tokenfit.init({ module: dist('tokenfit.wasm') })]);
  tokenfit.registerModels({ models: [{ id: 'bound-check', encoding: 'cl100k_base', contextWindow: 1000 }] });
  assert.equal(full.countTokens('Hello world', { model: 'bound-check' }), 2, 'registered on the first full instance');
});

test('an instance out of memory: its calls say so, and init() starts another that the top-level functions then use', async () => {
  // A Node whose WebAssembly memories stop at 44 MiB (the module starts at
  // about 20 MB) runs the module out of memory encoding a 60 MB text (15 M
  // ids), for real.
  const { execFile } = await import('node:child_process');
  const script = new URL('oom-check.mjs', import.meta.url);
  const { stdout, stderr } = await new Promise((resolve, reject) => {
    execFile(process.execPath, ['--wasm-max-mem-pages=700', script.pathname], { maxBuffer: 16 << 20, timeout: 120000 },
      (err, stdout, stderr) => (err ? reject(Object.assign(err, { stderr })) : resolve({ stdout, stderr })));
  });
  const out = JSON.parse(stdout);
  assert.equal(out.before, 2);
  for (const failed of [out.huge, out.same, out.topLevel]) {
    assert.equal(failed.name, 'TokenfitError', JSON.stringify(failed));
    assert.equal(failed.code, 'internal');
    assert.match(failed.message, /out of memory.*`await init\(\)` starts another/);
  }
  assert.deepEqual(
    { newInstance: out.newInstance, next: out.next, topLevelAfter: out.topLevelAfter, deadStaysDead: out.deadStaysDead, initAgain: out.initAgain },
    { newInstance: true, next: 2, topLevelAfter: 2, deadStaysDead: 'internal', initAgain: true });
  assert.match(stderr, /fatal error: out of memory/, 'Go\'s runtime says why on stderr');
});
