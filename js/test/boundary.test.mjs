// The numbers that cross the boundary, and what a failure at the boundary
// does: packed i64 answers whose address is at or above 2 GiB (negative
// as JavaScript receives them) unpack to the right address, and an
// exception from the wrapper's own boundary code (a RangeError) ends the
// instance as a TokenfitError rather than escaping as itself. make
// test-long grows a real module past 2 GiB and towards 4 GiB
// (test/big-memory.test.mjs).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { unpack } from '../src/wasip1.js';
import { bounded, TokenfitError } from '../src/errors.js';
import { makeInstance } from '../src/instance.js';

// signed is what JavaScript receives for an i64 with these halves.
const signed = (hi, lo) => BigInt.asIntN(64, (BigInt(hi) << 32n) | BigInt(lo));

test('unpack reads both halves of a packed answer unsigned, above 2 GiB and near 4 GiB', () => {
  for (const [p, n] of [[16, 5], [0x7fff_fff8, 11], [0x8000_0000, 1], [0xc000_0010, 0x1234], [0xffff_fff0, 0xffff_ffff]]) {
    const packed = signed(p, n);
    assert.deepEqual(unpack(packed), [p, n], `${p.toString(16)}:${n}`);
  }
  assert.ok(signed(0xc000_0010, 5) < 0n, 'the case the wrapper read wrongly: a negative BigInt');
});

class Failing {
  constructor() {
    this.kind = 'lite';
    this.lite = true;
    this.calls = 0;
  }

  count() {
    this.calls++;
    throw new RangeError('offset is out of bounds');
  }

  loadTable() {
    return 1;
  }

  memoryBytes() {
    return 0;
  }
}

test('a RangeError in the boundary code ends the instance as a TokenfitError, never escapes as itself', () => {
  const be = bounded(new Failing());
  const platform = { readSync: () => new Uint8Array(0) };
  const tf = makeInstance(be, platform, () => new URL('file:///none'));
  const first = assert.throws(() => tf.countTokens('Hello world'), (e) => {
    assert.ok(e instanceof TokenfitError, `${e && e.name}: ${e && e.message}`);
    assert.equal(e.code, 'internal');
    assert.match(e.message, /cannot answer any more/);
    assert.ok(e.cause instanceof RangeError);
    return true;
  });
  void first;
  // Dead, not half-alive: every later call says so without reaching the backend.
  assert.throws(() => tf.countTokens('x'), { code: 'internal', message: /cannot answer any more/ });
  assert.equal(be.calls, 1);
});
