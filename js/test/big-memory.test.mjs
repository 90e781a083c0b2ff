// A module grown past 2 GiB and towards 4 GiB (make test-long: set
// TOKENFIT_LONG=1): every answer read from an address with the sign bit set
// must be the answer given at a low address (a wrapper that read addresses
// signed read "loHelloHel…" from the wrong place, then threw RangeErrors
// for ever); and when memory runs out, every call is a TokenfitError
// (never a RangeError) and a failed instance stays failed. The memory is
// filled by holding buffers from the module's own alloc export (fresh
// pages, seconds), not by slow large calls.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { startWasip1 } from '../src/wasip1.js';
import { makeInstance } from '../src/instance.js';
import { TokenfitError } from '../src/errors.js';

const long = !!process.env.TOKENFIT_LONG;
const GiB = 2 ** 30;
const dist = (f) => readFileSync(new URL(`../dist/${f}`, import.meta.url));

// answers runs every kind of call whose answer crosses the boundary:
// counts, the scratch buffer, packed answers (text, ids, errors), live
// counters, and JSON calls on the full module.
function answers(tf, text) {
  const a = {};
  a.hello = tf.countTokens('Hello world');
  a.count = tf.countTokens(text);
  const ids = tf.encode(text);
  a.ids = ids.length;
  a.idsHead = ids.slice(0, 50);
  a.idsTail = ids.slice(-50);
  a.roundTrip = tf.decode(ids) === text;
  a.within = tf.withinLimit(text, 1000).tokens;
  const t = tf.truncate(text, 1000, { keep: 'end' });
  a.truncated = [t.tokens, t.text.length, t.text.slice(0, 40)];
  const lc = tf.liveCounter(undefined, text);
  a.live = lc.update(`${text} and a little more`);
  a.liveText = lc.text().length;
  lc.dispose();
  try {
    tf.countTokens('x', { encoding: 'no_such_encoding' });
  } catch (e) {
    a.error = [e.name, e.code, e.message];
  }
  if (tf.module !== 'lite') {
    a.chat = tf.countChat({ model: 'gpt-4o', messages: [{ role: 'user', content: text.slice(0, 100000) }] }).total;
    a.version = tf.version();
  }
  return a;
}

// fill holds module buffers until the memory is at least bytes, or the
// module can give no more, then fills the holes under 2 GiB that a garbage
// collection left (Go places a large buffer at the lowest address it fits)
// so that the next large buffer lands high; it returns how far it got.
function fill(be, bytes) {
  for (let chunk = GiB - 4096; be.memoryBytes() < bytes && chunk >= 16 << 20;) {
    try {
      be.alloc(Math.min(chunk, bytes - be.memoryBytes()));
    } catch {
      chunk >>= 1;
    }
  }
  for (let i = 0; i < 1024; i++) {
    try {
      if (be.alloc(4 << 20) >= 2 * GiB) break;
    } catch {
      break;
    }
  }
  return be.memoryBytes();
}

// start starts a module with o200k_base loaded.
async function start(file) {
  const be = await startWasip1(new WebAssembly.Module(dist(file)), true);
  const tf = makeInstance(be, {}, () => undefined);
  await tf.loadEncoding('o200k_base', dist('tables/o200k_base.tkt'));
  return { be, tf };
}

for (const [kind, file] of [['full', 'tokenfit.wasm'], ['lean', 'tokenfit-lite.wasm']]) {
  test(`${kind} module past 2 GiB and near 4 GiB: answers read from high addresses are the low ones`, { skip: !long && 'TOKENFIT_LONG=1 (make test-long)' }, async (t) => {
    // The reference answers come from another instance, at low addresses:
    // the one under test makes no garbage before it is filled, so no hole
    // under 2 GiB is left for its large buffers.
    const ref = (await start(file)).tf;
    const text = 'Hello world, the tokens of a long text. 東京 😀 '.repeat(400000); // 19 MB of UTF-8
    const low = answers(ref, text);
    assert.equal(low.hello, 2);
    assert.ok(low.roundTrip);

    const { be, tf } = await start(file);
    const reached = fill(be, 2 * GiB + (256 << 20));
    t.diagnostic(`${kind}: memory ${(reached / GiB).toFixed(2)} GiB`);
    assert.ok(reached > 2 * GiB);
    assert.deepEqual(answers(tf, text), low, 'past 2 GiB');
    assert.ok(be.buf >= 2 * GiB, `the scratch buffer is at ${be.buf.toString(16)}, under 2 GiB: the test proves nothing`);
    assert.deepEqual(answers(tf, text), low, 'past 2 GiB, again');

    const near = fill(be, 4 * GiB - (160 << 20));
    t.diagnostic(`${kind}: memory ${(near / GiB).toFixed(2)} GiB`);
    assert.ok(near > 3.5 * GiB);
    const small = text.slice(0, 200000);
    assert.deepEqual(answers(tf, small), answers(ref, small), 'near 4 GiB');

    // Past what the module can hold: a TokenfitError, never a RangeError;
    // and if the instance failed, it stays failed, saying so.
    let failure;
    try {
      for (let i = 0; i < 8; i++) answers(tf, text.repeat(2 + i));
    } catch (e) {
      failure = e;
    }
    assert.ok(failure instanceof TokenfitError, `${failure && failure.name}: ${failure && failure.message}`);
    t.diagnostic(`${kind}: past the memory: ${failure.code}: ${failure.message.slice(0, 160)}`);
    let after;
    try {
      after = tf.countTokens('Hello world');
    } catch (e) {
      assert.ok(e instanceof TokenfitError, `${e.name}: ${e.message}`);
      after = e.code;
    }
    assert.ok(after === 2 || after === 'internal', `after the failure: ${after}`);
  });
}
