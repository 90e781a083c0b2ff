// The digest of a memory image (image-format.js, for Node's images and a
// page's saved one): a WebAssembly function over the instance's own memory,
// run on each piece of an image's pages in turn. Over a piece it keeps two
// sums of each 4-byte lane of every 16 bytes, s += block and t += s
// (Fletcher's sums, 32 bits a lane, four lanes a SIMD vector), then mixes
// s's and t's lanes into the running digest h with tables.Digest's step
// (core/internal/tables/verify.go), h = (h ^ x) · K then h ^= h >> 32, a
// bijection of h for each x and of x for each h. A change confined to one
// 16-byte block changes s (each lane's sum moves by that lane's change,
// never 0 mod 2^32), so it always changes the digest; t makes it depend on
// where in the piece a block lies. Not cryptographic: it catches damage (a
// flipped byte, a cut or stale file), not someone who can write the
// package's files. Its cost is what a check of an image at every start
// may cost: SIMD adds run in V8's baseline code (a function called once is
// not optimised while it runs) at about a byte per instruction, 2 ms for
// the loaded image's 7 MB where a multiply per 8 bytes (tables.Digest)
// took twice that (make bench-start prints it beside what the image saves).

const K = 0x9e3779b97f4a7c15n;
// Each run is digested in pieces of CHUNK bytes, each chained from the one
// before, so that two changes that cancel in the sums must fall in one
// piece (smaller pieces cost more calls: 16 KB took twice as long).
const CHUNK = 256 << 10;

// The module, written out: a start pays for no assembler (building it with
// BigInt LEB128 took 2 ms of a cold start). digest.test.mjs holds it to a
// reference in JavaScript.
const [GET, SET, TEE] = [0x20, 0x21, 0x22];
const ADD = [0xfd, 0xae, 0x01]; // i32x4.add
// h = (h ^ x) * K; h ^= h >> 32, with x on the stack (tables.Digest's step).
const MIX = [GET, 2, 0x85, 0x42, 0x95, 0xf8, 0xa9, 0xfa, 0x97, 0xb7, 0xde, 0x9b, 0x9e, 0x7f, 0x7e, TEE, 2, GET, 2, 0x42, 32, 0x88, 0x85, SET, 2];
// s += the 16 bytes at p + off; t += s.
const vec = (off) => [GET, 3, GET, 0, 0xfd, 0x00, 4, off, ...ADD, TEE, 3, GET, 4, ...ADD, SET, 4];
const lane = (v, i) => [GET, v, 0xfd, 0x1d, i, ...MIX]; // i64x2.extract_lane i of v, mixed into h
const body = [
  2, 2, 0x7b, 1, 0x7f, // locals: 3 s, 4 t (v128, from 0), 5 end (i32); params 0 p, 1 n, 2 h
  GET, 0, GET, 1, 0x6a, SET, 5, // end = p + n
  0x02, 0x40, 0x03, 0x40, // block, loop
  GET, 0, GET, 5, 0x4f, 0x0d, 1, // br_if out when p >= end (unsigned)
  ...vec(0), ...vec(16), ...vec(32), ...vec(48),
  GET, 0, 0x41, 0xc0, 0x00, 0x6a, SET, 0, // p += 64
  0x0c, 0, 0x0b, 0x0b, // br loop; end loop, block
  ...lane(3, 0), ...lane(3, 1), ...lane(4, 0), ...lane(4, 1),
  GET, 2, 0x0b,
];
const name = (s) => [s.length, ...Array.from(s, (c) => c.charCodeAt(0))];
const section = (id, b) => [id, ...(b.length < 128 ? [b.length] : [0x80 | (b.length & 0x7f), b.length >> 7]), ...b];
const moduleBytes = () => new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0,
  ...section(1, [1, 0x60, 3, 0x7f, 0x7f, 0x7e, 1, 0x7e]), // type (i32, i32, i64) → i64
  ...section(2, [1, ...name('m'), ...name('memory'), 0x02, 0x00, 0x00]), // import m.memory
  ...section(3, [1, 0]),
  ...section(7, [1, ...name('digest'), 0x00, 0]),
  ...section(10, [1, ...(body.length < 128 ? [body.length] : [0x80 | (body.length & 0x7f), body.length >> 7]), ...body]),
]);

let compiled = null;

/**
 * prepare compiles the digest's module now: a start calls it before it
 * compiles tokenfit's module, since compiled after it, while V8 still works
 * on the large one, the small one took 2-30 ms instead of about one.
 */
export function prepare() {
  compiled ??= new WebAssembly.Module(moduleBytes());
}

/**
 * digester returns digest(p, n, h) over memory: the digest (a BigInt, its
 * 64 bits unsigned) of the n bytes at p, n a multiple of 64, chained from h.
 * Cost: O(n).
 * @param {WebAssembly.Memory} memory
 * @returns {(p: number, n: number, h: bigint) => bigint}
 */
export function digester(memory) {
  prepare();
  const { digest } = new WebAssembly.Instance(compiled, { m: { memory } }).exports;
  return (p, n, h) => BigInt.asUintN(64, digest(p, n, h));
}

/**
 * runsDigest is the digest of an image's page runs as they lie in memory:
 * each run's pages chained, with the header's meaning (the memory's size,
 * what it holds) and the runs' places and lengths folded in first, so that
 * a header that says otherwise, pages written elsewhere or a run moved
 * changes it too.
 * @param {WebAssembly.Memory} memory
 * @param {number[][]} runs [first page, pages] of 4 KB pages
 * @param {number} pages the memory's size in 64 KB pages the image needs
 * @param {number} holds the encodings it holds loaded, a bit each
 * @param {(at: number, n: number) => void} [each] called before each piece
 *   is digested, in order: a reader writes the piece there, so that the
 *   digest reads it while it is in the cache (about half the time of a
 *   digest after the whole image is written)
 */
export function runsDigest(memory, runs, pages, holds, each) {
  const d = digester(memory);
  let h = (BigInt(holds) << 32n) | BigInt(pages);
  for (const [first, n] of runs) h = ((h ^ ((BigInt(first) << 32n) | BigInt(n))) * K) & 0xffffffffffffffffn;
  for (const [first, n] of runs) {
    for (let at = first * 4096, end = (first + n) * 4096; at < end; at += CHUNK) {
      const k = Math.min(CHUNK, end - at);
      if (each) each(at, k);
      h = d(at, k, h);
    }
  }
  return h;
}
