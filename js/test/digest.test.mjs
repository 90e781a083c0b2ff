// The image digest (src/digest.js): its WebAssembly function, written out
// as bytes, against the same function in JavaScript, and the property the
// image check rests on: a change confined to one 16-byte block of a piece
// always changes the digest.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { digester, runsDigest } from '../src/digest.js';

const M64 = (1n << 64n) - 1n;
const K = 0x9e3779b97f4a7c15n;
const mix = (h, x) => {
  h = ((h ^ x) * K) & M64;
  return h ^ (h >> 32n);
};

// reference: digest(p, n, h) as digest.js's comment says it, in BigInt.
function reference(bytes, p, n, h) {
  const v = new DataView(bytes.buffer, bytes.byteOffset);
  const s = [0, 0, 0, 0];
  const t = [0, 0, 0, 0];
  for (let at = p; at < p + n; at += 16) {
    for (let i = 0; i < 4; i++) {
      s[i] = (s[i] + v.getUint32(at + 4 * i, true)) >>> 0;
      t[i] = (t[i] + s[i]) >>> 0;
    }
  }
  const lane = (a, k) => BigInt(a[2 * k]) | (BigInt(a[2 * k + 1]) << 32n);
  for (const x of [lane(s, 0), lane(s, 1), lane(t, 0), lane(t, 1)]) h = mix(h, x);
  return h;
}

function memoryOf(pages, seed) {
  const memory = new WebAssembly.Memory({ initial: pages });
  const b = new Uint8Array(memory.buffer);
  let x = seed;
  for (let i = 0; i < b.length; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    b[i] = x >>> 24;
  }
  return { memory, b };
}

test('the digest function is the one its comment describes', () => {
  const { memory, b } = memoryOf(2, 1);
  const d = digester(memory);
  for (const [p, n, h] of [[0, 64, 0n], [64, 4096, 5n], [128, 65536, M64], [4096, 0, 77n], [0, 131072, 0x123456789n]]) {
    assert.equal(d(p, n, h), reference(b, p, n, h), `digest(${p}, ${n}, ${h})`);
  }
});

test('a change confined to one 16-byte block always changes an image digest', () => {
  const { memory, b } = memoryOf(8, 2);
  const runs = [[0, 40], [60, 10], [100, 28]];
  const want = runsDigest(memory, runs, 8, 1);
  let x = 3;
  for (let k = 0; k < 2000; k++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    const run = runs[x % runs.length];
    const at = run[0] * 4096 + (x >>> 4) % (run[1] * 4096);
    const block = at & ~15;
    const old = b.slice(block, block + 16);
    const flips = 1 + (x % 16);
    for (let i = 0; i < flips; i++) b[block + ((x >>> (i + 3)) % 16)] ^= 1 << ((x >>> i) % 8);
    if (!old.every((v, i) => v === b[block + i])) assert.notEqual(runsDigest(memory, runs, 8, 1), want, `a change at ${block}`);
    b.set(old, block);
  }
  assert.equal(runsDigest(memory, runs, 8, 1), want);
  assert.notEqual(runsDigest(memory, runs, 9, 1), want, 'another memory size');
  assert.notEqual(runsDigest(memory, runs, 8, 3), want, 'other encodings held');
  assert.notEqual(runsDigest(memory, [[0, 40], [61, 10], [100, 28]], 8, 1), want, 'a run moved');
});
