// The format of a memory image, one for all three kinds: the plain image
// Node reads in place of a module's data section (dist/<name>.mem,
// scripts/memory-image.mjs), the loaded image Node starts the default
// module from (dist/<name>.o200k_base.mem, scripts/loaded-image.mjs) and
// the image a browser saves after its first count and restores on its
// next visit (saved.js). Every integer a little-endian uint32:
//
//	bytes 0-3     magic "TKFM"
//	word 1        version: 3 the plain image, 4 a loaded one
//	word 2        the module's length in bytes (0 in a saved image: a page
//	              compiles the module from its response, never holding it)
//	words 3-4     where its data section starts (the section id's byte) and
//	              ends (the next section's first byte); 0 in a saved image
//	word 5        runs, the number of page runs
//	word 6        the memory's size in 64 KB pages
//	word 7        the encodings it holds loaded, bit i for ENCODINGS[i]
//	words 8-9     the digest of the runs' pages as they lie in memory
//	              (digest.js runsDigest), low word first
//	words 10-15   0
//	bytes 64-95   the module's identity: the SHA-256 of the module that
//	              its custom section tokenfit.id holds (identify)
//	bytes 96-127  0
//	then          16 samples of the data section as the module holds it, 64
//	              bytes each, at samplesAt (zeros in a saved image)
//	then          runs × (first page, pages), each page 4,096 bytes of memory
//	then          the pages of every run, in order
//
// An image is taken only for the module whose identity it carries, only
// when the memory it fills has its size, and only once its pages, written
// into that memory, give its digest (check); after it, _initialize draws the
// instance's own random state (postlink.Preinit's re-seed), as after a
// start from the data segments.

import { ENCODINGS } from './table.js';
import { Refused } from './errors.js';
import { runsDigest } from './digest.js';

export const MAGIC = 0x4d464b54; // "TKFM"
export const PLAIN = 3;
export const LOADED = 4;
export const HEAD = 128 + 16 * 64;
export const PAGE = 4096;
/** The custom section that names a module: the SHA-256 of the rest of it. */
export const ID_SECTION = 'tokenfit.id';

/** samplesAt gives where the samples of a data section from at to end are. */
export const samplesAt = (at, end) => Array.from({ length: 16 }, (_, k) => at + Math.floor((k * (end - at - 64)) / 15));

/**
 * parseHead reads an image's header (its first HEAD bytes) and returns its
 * fields, or null when it is not an image of a version this package reads.
 * @param {Uint8Array} b
 */
export function parseHead(b) {
  if (b.length < HEAD) return null;
  const h = new DataView(b.buffer, b.byteOffset, HEAD);
  const version = h.getUint32(4, true);
  if (h.getUint32(0, true) !== MAGIC || (version !== PLAIN && version !== LOADED)) return null;
  const mask = h.getUint32(28, true);
  return {
    version,
    size: h.getUint32(8, true),
    at: h.getUint32(12, true),
    end: h.getUint32(16, true),
    runs: h.getUint32(20, true),
    pages: h.getUint32(24, true),
    mask,
    holds: ENCODINGS.filter((_, i) => mask & (1 << i)),
    digest: (BigInt(h.getUint32(36, true)) << 32n) | BigInt(h.getUint32(32, true)),
    id: b.slice(64, 96),
    samples: b.subarray(128, HEAD),
  };
}

/**
 * writeHead writes an image's header and run list.
 * @param {{ version: number, size?: number, at?: number, end?: number, runs: number[][], pages: number, holds?: string[], digest: bigint, id: Uint8Array, samples?: Uint8Array }} f
 * @returns {Uint8Array} HEAD + 8 × runs bytes
 */
export function writeHead(f) {
  const b = new Uint8Array(HEAD + 8 * f.runs.length);
  const h = new DataView(b.buffer);
  const mask = maskOf(f.holds);
  [MAGIC, f.version, f.size || 0, f.at || 0, f.end || 0, f.runs.length, f.pages, mask,
    Number(f.digest & 0xffffffffn), Number(f.digest >> 32n)].forEach((w, i) => h.setUint32(4 * i, w, true));
  b.set(f.id, 64);
  if (f.samples) b.set(f.samples, 128);
  f.runs.forEach(([q, n], i) => {
    h.setUint32(HEAD + 8 * i, q, true);
    h.setUint32(HEAD + 8 * i + 4, n, true);
  });
  return b;
}

/** maskOf gives the bits of word 7 for the encodings names. */
export function maskOf(names = []) {
  let mask = 0;
  for (const name of names) mask |= 1 << ENCODINGS.indexOf(name);
  return mask;
}

/** parseRuns reads the run list that follows a header. */
export function parseRuns(b, count) {
  const v = new DataView(b.buffer, b.byteOffset, 8 * count);
  return Array.from({ length: count }, (_, i) => [v.getUint32(8 * i, true), v.getUint32(8 * i + 4, true)]);
}

/** sameBytes reports whether two byte arrays are equal. */
export const sameBytes = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * identify returns a compiled module's identity (its tokenfit.id section's
 * 32 bytes), or null when it has none: an image is never taken for it.
 * @param {WebAssembly.Module} module
 */
export function identify(module) {
  const s = WebAssembly.Module.customSections(module, ID_SECTION);
  return s.length === 1 && s[0].byteLength === 32 ? new Uint8Array(s[0]) : null;
}

/**
 * idOf returns the identity a module's bytes carry (its tokenfit.id
 * section's 32 bytes), or null: identify for bytes not yet compiled. Cost:
 * a walk over the module's dozen section headers.
 * @param {Uint8Array} b
 */
export function idOf(b) {
  let p = 8;
  const leb = () => {
    let r = 0;
    for (let s = 0; p < b.length && s < 35; s += 7) {
      const x = b[p++];
      r += (x & 0x7f) * 2 ** s;
      if (!(x & 0x80)) return r;
    }
    return Infinity;
  };
  while (p < b.length) {
    const id = b[p++];
    const size = leb();
    const end = p + size;
    if (end > b.length) return null;
    if (id === 0) {
      const n = leb();
      if (n === ID_SECTION.length && String.fromCharCode(...b.subarray(p, p + n)) === ID_SECTION && end - p - n === 32) return b.slice(p + n, end);
    }
    p = end;
  }
  return null;
}

/**
 * check reports whether the pages of an image, written into memory at its
 * runs, give the digest its header carries, in a memory of its size
 * (false where the digest cannot run). Cost: one pass over the pages
 * (digest.js).
 * @param {WebAssembly.Memory} memory
 * @param {{ runs: number[][], pages: number, mask: number, digest: bigint }} image
 * @param {(at: number, n: number) => void} [each] writes each piece of the
 *   pages just before it is digested (runsDigest)
 */
export function check(memory, image, each) {
  if (memory.buffer.byteLength !== image.pages * 65536) return false;
  try {
    return runsDigest(memory, image.runs, image.pages, image.mask, each) === image.digest;
  } catch (e) {
    if (e instanceof Refused) throw e; // each's: the pages were cut short
    return false; // a runtime without WebAssembly SIMD: no image is trusted
  }
}
