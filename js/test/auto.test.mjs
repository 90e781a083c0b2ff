// A page's default init() starts the lean module and moves to the full one
// (tokenfit-nohf.wasm) when a call needs it (src/upgrade.js, auto): here in
// Node on a platform that starts that way (src/tokenfit.js's makeInit, with
// the package's files read from dist/ after a delay, so that the move has
// room for calls). Calls raced against the move, on every turn of the event
// loop, are each answered right — counts, ids, checks, live counters' edits
// — or, for calls that need the full module before it is in, refused with
// not_initialized saying to await tf.ready(); none is lost or wrong, and
// after the move everything answers, the live counters' texts included.
// Chromium runs the page's real default init() the same way
// (saved.test.mjs).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { get_encoding } from 'tiktoken';
import { makeInit } from '../src/tokenfit.js';

const dist = new URL('../dist/', import.meta.url);
const files = { nohf: 'tokenfit-nohf.wasm', full: 'tokenfit.wasm', lite: 'tokenfit-lite.wasm' };
const later = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const platform = {
  name: 'auto-test',
  syncCompile: true,
  leanFirst: true,
  base: () => pathToFileURL(`${process.cwd()}/`),
  async read(url) {
    await later(url.pathname.endsWith('.wasm') ? 60 : 20);
    return readFileSync(url);
  },
  open(url) {
    return this.read(url);
  },
  preload: ['o200k_base'],
  moduleURL: (kind) => new URL(files[kind], dist),
  tableURL: (name) => new URL(`tables/${name}.tkt`, dist),
  tableExt: '.tkt',
};
const init = makeInit(platform);

const TEXTS = ['Hello world', 'Привет, мир! 東京タワーに行きましょう 🎉', 'func main() {\n\tfmt.Println("hi")\n}\n', '   spaces   and\ttabs  '];
const CHAT = { model: 'gpt-4o', messages: [{ role: 'user', content: 'Hello world' }] };

test('the lean module answers at once; calls raced against the move to the full one are answered right or refused to await ready()', async () => {
  const o200k = get_encoding('o200k_base');
  const cl100k = get_encoding('cl100k_base');
  const want = TEXTS.map((t) => o200k.encode_ordinary(t).length);
  const ids = TEXTS.map((t) => [...o200k.encode_ordinary(t)]);
  try {
    const chat = (await init({ lite: false })).countChat(CHAT).total; // the full module's, from the start
    const tf = await init();
    assert.equal(tf.module, 'lite');
    assert.deepEqual(TEXTS.map((t) => tf.countTokens(t)), want);
    assert.throws(() => tf.countChat(CHAT), (e) => e.code === 'not_initialized' && /await tf\.ready\(\)/.test(e.message));
    assert.throws(() => tf.countTokens('x', { model: 'gpt-4o' }), { code: 'not_initialized' });

    const counters = TEXTS.map((t) => tf.liveCounter({ encoding: 'o200k_base' }, t));
    let text = TEXTS[0];
    const edited = tf.liveCounter(undefined, text);
    let done = false;
    const moved = tf.ready().then(() => { done = true; });
    const cl100k_loaded = later(30).then(() => tf.loadEncoding('cl100k_base'));
    let calls = 0;
    let refused = 0;
    let answered = 0;
    for (let turn = 0; !done; turn++) {
      const i = turn % TEXTS.length;
      assert.equal(tf.countTokens(TEXTS[i]), want[i], `turn ${turn}: countTokens`);
      assert.deepEqual(tf.encode(TEXTS[i]), ids[i], `turn ${turn}: encode`);
      assert.equal(tf.decode(ids[i]), TEXTS[i], `turn ${turn}: decode`);
      assert.equal(tf.withinLimit(TEXTS[i], 5).within, want[i] <= 5, `turn ${turn}: withinLimit`);
      const piece = ` ${turn}`;
      edited.edit(text.length, 0, piece);
      text += piece;
      assert.equal(edited.count(), o200k.encode_ordinary(text).length, `turn ${turn}: the live counter`);
      assert.equal(counters[i].count(), want[i]);
      try {
        assert.equal(tf.countChat(CHAT).total, chat);
        answered++;
      } catch (e) {
        assert.ok(e.code === 'not_initialized' && e.ready, `turn ${turn}: countChat: ${e.code} ${e.message}`);
        refused++;
      }
      calls += 7;
      await new Promise((resolve) => setImmediate(resolve));
    }
    await moved;
    await cl100k_loaded;
    assert.ok(refused > 0, `${calls} calls raced the move, ${refused} refused countChat`);
    assert.equal(tf.module, 'wasip1');
    assert.equal(tf.countChat(CHAT).total, chat);
    assert.equal(tf.countTokens('x', { model: 'gpt-4o' }), 1);
    assert.equal(tf.countTokens(TEXTS[1], { encoding: 'cl100k_base' }), cl100k.encode_ordinary(TEXTS[1]).length);
    assert.equal(edited.text(), text);
    edited.edit(0, 0, 'Again: ');
    assert.equal(edited.count(), o200k.encode_ordinary(`Again: ${text}`).length);
    counters.forEach((c, i) => assert.equal(c.text(), TEXTS[i]));
    assert.deepEqual(TEXTS.map((t) => tf.countTokens(t)), want);
    await tf.ready(); // once moved, at once
    assert.equal(answered + refused, calls / 7);
  } finally {
    o200k.free();
    cl100k.free();
  }
});

test('an explicit lite: true or lite: false, a module given or tokenizers: true never start that way', async () => {
  assert.equal((await init({ lite: true })).module, 'lite');
  const lean = await init({ lite: true });
  assert.throws(() => lean.countChat(CHAT), { code: 'unknown_operation' });
  await lean.ready(); // nothing to move to
  assert.equal(lean.module, 'lite');
  assert.equal((await init({ lite: false })).module, 'wasip1');
  assert.equal((await init({ tokenizers: true })).module, 'wasip1');
});
