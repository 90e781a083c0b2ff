// Writes the loaded memory image of the default module (make js-core):
// <name>.o200k_base.mem beside <name>.wasm, the instance's memory after
// _initialize and a load of o200k_base from the package's own .tkt and .tkx,
// so that Node's default init() starts with the encoding already loaded: the
// table's read, digest, parse and the first call of the load's functions
// (compiled by Liftoff on the spot) happen here, once, instead of in every
// process (RATIONALE.md, "Where does a cold start go").
//
// The format is js/src/image-format.js's with version 4: word 6 is the
// memory's size in 64 KB pages (the load grew it), word 7 says it holds
// o200k_base, and the runs are every non-zero 4 KB page of that memory (a
// fresh instance's other pages are zero already). The identity and samples
// tie it to its module as they tie the plain image, and its digest to its
// pages.
//
// What makes the snapshot safe (each checked here, or the build fails):
// - The module's globals after the load equal those after _initialize (the
//   stack pointer is back, nothing else moved): read through a copy of the
//   module that exports them, which runs instead of the module (the same
//   code and data; only the export section differs).
// - Determinism: no clock moves (every clock reads 1 ns) and the random
//   source is fixed, so the same module and tables give the same bytes.
// - Every instance still draws its own random state: the module's
//   _initialize is reseed_runtime (postlink.Preinit), which the package
//   calls after writing this image as after the plain one. What the load
//   seeded stays the build's: the encoding's map of special tokens and the
//   engine's map of loaded encodings, whose keys are fixed (look-ups, never
//   grown by a request; the one map that grows with calls, bufs, is made
//   again by the re-seed).
// - The collection the load made due runs here (one allocation and its
//   free, as the package's scratch buffer does), not at the process's first
//   allocation: left due, it cost 35 ms and 2,500 page faults there.
//
//   node scripts/loaded-image.mjs dist/tokenfit-nohf.wasm

import { readFileSync, writeFileSync, openSync, fstatSync, readSync, closeSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { memoryImage, imageOf } from './memory-image.mjs';
import { LOADED, parseHead } from '../src/image-format.js';
import { wasiShim } from '../src/wasi.js';
import { Wasip1 } from '../src/wasip1.js';

const PAGE = 4096;
export const ENCODING = 'o200k_base';

// The globals Go's linker gives a module (cmd/link/internal/wasm: 0 SP,
// 1 CTXT, 2 g, 3-6 RET0-RET3, 7 PAUSE) that hold nothing between two calls
// from the host: the closure context and the result registers, which the
// code writes before it reads them. The others must come back as they were.
const SCRATCH_REGISTERS = new Set([1, 3, 4, 5, 6]);

// exportGlobals returns a copy of module b whose export section also
// exports every global it defines, as __global<i>.
function exportGlobals(b) {
  let p = 8;
  const leb = () => {
    let r = 0;
    for (let s = 0; ; s += 7) {
      const x = b[p++];
      r += (x & 0x7f) * 2 ** s;
      if (!(x & 0x80)) return r;
    }
  };
  const enc = (n) => {
    const out = [];
    do {
      let x = n & 0x7f;
      n = Math.floor(n / 128);
      if (n) x |= 0x80;
      out.push(x);
    } while (n);
    return out;
  };
  const parts = [b.subarray(0, 8)];
  let globals = 0;
  while (p < b.length) {
    const at = p;
    const id = b[p++];
    const size = leb();
    const body = p;
    const end = p + size;
    if (id === 2) {
      // Go's wasip1 modules import functions only: global indexes then
      // start at 0 with the module's own.
      for (let n = leb(); n > 0; n--) {
        for (let k = 0; k < 2; k++) {
          const len = leb(); // the module's and the field's names
          p += len;
        }
        if (b[p++] !== 0) throw new Error('the module imports something other than functions');
        leb();
      }
    }
    if (id === 6) {
      p = body;
      globals = leb();
    }
    if (id === 7) {
      p = body;
      const n = leb();
      const extra = [];
      for (let g = 0; g < globals; g++) {
        const name = Buffer.from(`__global${g}`);
        extra.push(...enc(name.length), ...name, 3, ...enc(g));
      }
      const content = Buffer.concat([Buffer.from(enc(n + globals)), b.subarray(p, end), Buffer.from(extra)]);
      parts.push(Buffer.from([7, ...enc(content.length)]), content);
    } else {
      parts.push(b.subarray(at, end));
    }
    p = end;
  }
  return { bytes: Buffer.concat(parts), globals };
}

// readInto reads a file into the buffer place(size) gives, as node.js does.
const readInto = (file) => (place) => {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    const view = place(size);
    for (let at = 0; at < size;) at += readSync(fd, view, at, size - at, at);
    return view;
  } finally {
    closeSync(fd);
  }
};

export function loadedImage(file) {
  const b = readFileSync(file);
  const plain = parseHead(memoryImage(b));
  const { bytes, globals } = exportGlobals(b);
  const shim = wasiShim({ random: (view) => (view.fill(7), true) });
  // Every clock stands at 1 ns, as in postlink.Preinit's run.
  let instance;
  shim.imports.wasi_snapshot_preview1.clock_time_get = (id, precision, out) => {
    new DataView(instance.exports.memory.buffer).setBigUint64(out >>> 0, 1n, true);
    return 0;
  };
  instance = new WebAssembly.Instance(new WebAssembly.Module(bytes), shim.imports);
  shim.setMemory(instance.exports.memory);
  const values = () => Array.from({ length: globals }, (_, g) => instance.exports[`__global${g}`].value);
  const before = values();
  instance.exports._initialize();
  const be = new Wasip1(instance, shim);
  const dir = new URL('tables/', pathToFileURL(file));
  const h = be.loadRead(readInto(new URL(`${ENCODING}.tkt`, dir)), readInto(new URL(`${ENCODING}.tkx`, dir)), () => {});
  if (!(h > 0)) throw new Error(`${ENCODING} did not load`);
  be.x.free(be.alloc(64 << 10));
  const after = values();
  after.forEach((v, g) => {
    if (v !== before[g] && !SCRATCH_REGISTERS.has(g)) throw new Error(`global ${g} is ${v} after the load, ${before[g]} after _initialize: no loaded image`);
  });
  const m = new Uint8Array(instance.exports.memory.buffer);
  const runs = [];
  for (let q = 0; q * PAGE < m.length; q++) {
    let used = false;
    for (let i = q * PAGE; i < (q + 1) * PAGE && !used; i++) used = m[i] !== 0;
    if (!used) continue;
    const last = runs.at(-1);
    if (last && last[0] + last[1] === q) last[1]++;
    else runs.push([q, 1]);
  }
  return imageOf(m, runs, { ...plain, version: LOADED, pages: m.length / 65536, holds: [ENCODING] });
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  for (const f of process.argv.slice(2)) {
    const image = loadedImage(f);
    const out = f.replace(/\.wasm$/, `.${ENCODING}.mem`);
    writeFileSync(out, image);
    console.log(`${out} ${image.length} bytes (${image.readUInt32LE(20)} runs, memory ${image.readUInt32LE(24)} × 64 KB)`);
  }
}
