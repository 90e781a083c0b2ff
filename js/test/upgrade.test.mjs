// init() starts tokenfit-nohf.wasm, and the first loadTokenizer moves the
// instance to tokenfit.wasm (src/upgrade.js): the live counters, registered
// models and encodings made before keep answering, as do the top-level
// functions; concurrent loads share one move; a module that cannot be had
// is a TokenfitError that leaves the instance answering. Its own file: the
// bound instance is per process. Chromium runs the same checks
// (browser/index.html, with a failing fetch).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as tokenfit from 'tokenfit';
import * as explicit from 'tokenfit/explicit';
import { failedUpgradeChecks, smallTokenizer, upgradeChecks } from './upgrade-check.mjs';

const dist = (f) => readFileSync(new URL(`../dist/${f}`, import.meta.url));

test('loadTokenizer after the default init(): the instance moves to the module with the loader, state and all', async () => {
  assert.deepEqual(await upgradeChecks(tokenfit), []);
});

test('init({ tokenizers: true }) starts the module with the loader, and lite excludes it', async () => {
  const tf = await tokenfit.init({ tokenizers: true });
  const before = tf.memoryBytes();
  assert.equal((await tf.loadTokenizer('small', smallTokenizer())).vocabSize, 260);
  assert.equal(tf.countTokens('abc', { encoding: 'small' }), 1);
  assert.ok(tf.memoryBytes() >= before, 'the same module: its memory only grew');
  await assert.rejects(tokenfit.init({ lite: true, tokenizers: true }), { code: 'invalid_argument' });
});

test('tokenfit/explicit without the module with the loader: a TokenfitError saying what to pass, and the instance keeps answering', async () => {
  const tf = await explicit.init({ module: dist('tokenfit-nohf.wasm'), encodings: { o200k_base: dist('tables/o200k_base.tkp') } });
  assert.deepEqual(await failedUpgradeChecks(tokenfit, tf, 'invalid_argument'), []);
  await assert.rejects(tf.loadTokenizer('small', smallTokenizer()), /init\(\{ module: full\(\) \}\)/);
  // Given the module with the loader, it loads without a move.
  const full = await explicit.init({ module: dist('tokenfit.wasm'), encodings: { o200k_base: dist('tables/o200k_base.tkp') } });
  assert.equal((await full.loadTokenizer('small', smallTokenizer())).vocabSize, 260);
});

test('a table given as bytes, and one loaded while the move is under way, are in the new module', async () => {
  const node = await tokenfit.init({ encodings: { cl100k_base: dist('tables/cl100k_base.tkp') } });
  const moving = node.loadTokenizer('small', smallTokenizer());
  const loading = node.loadEncoding('p50k_base', dist('tables/p50k_base.tkt'));
  await Promise.all([moving, loading]);
  assert.equal(node.countTokens('Hello world', { encoding: 'cl100k_base' }), 2);
  assert.equal(node.countTokens('Hello world', { encoding: 'p50k_base' }), 2);
  assert.equal(node.countTokens('abc', { encoding: 'small' }), 1);
});

test('registrations before the move are kept as the registry they add up to, whatever their number', async () => {
  const v8 = await import('node:v8');
  const vm = await import('node:vm');
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc');
  const tf = await tokenfit.init({});
  const note = 'x'.repeat(20000);
  const registry = { estimators: { big: { base: 'o200k_base', ratio: 1.5, errorBound: 0.1, note } }, models: [{ id: 'big-1', estimator: 'big', contextWindow: 1000 }] };
  tf.registerModels(registry);
  gc();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < 1000; i++) tf.registerModels(registry); // 20 MB of requests
  gc();
  const grown = process.memoryUsage().heapUsed - before;
  assert.ok(grown < 5e6, `the JavaScript heap grew ${grown} bytes over 1,000 registrations`);
  await tf.loadTokenizer('small', smallTokenizer());
  const after = tf.models();
  assert.equal(after.estimators.big.note, note);
  assert.equal(after.models.filter((m) => m.id === 'big-1').length, 1);
});
