// Writes the memory image of a wasip1 module for Node (make js-core):
// <name>.mem beside <name>.wasm, the memory pages the module's data
// segments write, so that Node can read the module without its data
// section and read those pages straight into the instance's memory
// (js/src/node.js; RATIONALE.md, "Where does a cold start go"). The module
// is not changed. Format, every integer a little-endian uint32:
//
//	word 0     magic "TKFM"
//	word 1     version (1)
//	word 2     the module's length in bytes
//	word 3     where its data section starts (the section id's byte)
//	word 4     where it ends (the next section's first byte)
//	word 5     runs, the number of page runs
//	words 6-7  reserved, 0
//	then       16 samples of the data section as the module holds it, 64
//	           bytes each, at samplesAt (the last one its last 64 bytes)
//	then       runs × (first page, pages), each page 4,096 bytes of memory
//	then       the pages of every run, in order
//
// Node takes the image only for the module it was made from: the same
// length, the data section where the image says, holding the same samples
// (make js writes both at once; the check catches a module copied in by
// hand, or an image left from another build).
//
//   node scripts/memory-image.mjs module.wasm...

import { readFileSync, writeFileSync } from 'node:fs';

const PAGE = 4096;

// samplesAt gives where the samples of a data section from at to end are
// (src/image.js reads them there).
export const samplesAt = (at, end) => Array.from({ length: 16 }, (_, k) => at + Math.floor((k * (end - at - 64)) / 15));

export function memoryImage(b) {
  if (b.readUInt32LE(0) !== 0x6d736100 || b.readUInt32LE(4) !== 1) throw new Error('not a WebAssembly module');
  let p = 8;
  const leb = () => {
    let r = 0;
    for (let s = 0; ; s += 7) {
      const x = b[p++];
      r += (x & 0x7f) * 2 ** s;
      if (!(x & 0x80)) return r;
    }
  };
  let data = null;
  let pages = 0;
  while (p < b.length) {
    const at = p;
    const id = b[p++];
    const size = leb();
    const end = p + size;
    // Without the data section the module must stay valid: a data count
    // section (bulk memory's memory.init, data.drop) would name segments
    // that are gone.
    if (id === 12) throw new Error('the module has a data count section: its data cannot be taken out');
    if (id === 5) {
      if (leb() !== 1) throw new Error('one memory expected');
      const flags = leb();
      pages = leb() * 65536 / PAGE;
      if (flags & 1) leb();
    }
    if (id === 11) {
      const mem = new Uint8Array(pages * PAGE);
      const touched = new Uint8Array(pages);
      for (let n = leb(); n > 0; n--) {
        // Only active segments of memory 0 at an i32.const offset, as Go's
        // linker and postlink write them.
        if (leb() !== 0 || b[p++] !== 0x41) throw new Error('a data segment that is not active at a constant offset');
        let off = 0;
        for (let s = 0; ; s += 7) {
          const x = b[p++];
          off |= (x & 0x7f) << s;
          if (!(x & 0x80)) break;
        }
        if (b[p++] !== 0x0b) throw new Error('a data segment whose offset is not one constant');
        const len = leb();
        if (off < 0 || off + len > mem.length) throw new Error('a data segment outside the initial memory');
        mem.set(b.subarray(p, p + len), off);
        for (let q = Math.floor(off / PAGE); q * PAGE < off + len; q++) touched[q] = 1;
        p += len;
      }
      data = { at, end, mem, touched };
    }
    p = end;
  }
  if (!data) throw new Error('the module has no data section');
  const runs = [];
  for (let q = 0; q < pages; q++) {
    if (!data.touched[q]) continue;
    const last = runs.at(-1);
    if (last && last[0] + last[1] === q) last[1]++;
    else runs.push([q, 1]);
  }
  if (data.end - data.at < 64) throw new Error('a data section under 64 bytes');
  const head = Buffer.alloc(32 + 1024 + 8 * runs.length);
  samplesAt(data.at, data.end).forEach((from, k) => b.copy(head, 32 + 64 * k, from, from + 64));
  head.write('TKFM', 0, 'latin1');
  [1, b.length, data.at, data.end, runs.length, 0, 0].forEach((w, i) => head.writeUInt32LE(w, 4 + 4 * i));
  runs.forEach(([q, n], i) => {
    head.writeUInt32LE(q, 1056 + 8 * i);
    head.writeUInt32LE(n, 1060 + 8 * i);
  });
  return Buffer.concat([head, ...runs.map(([q, n]) => data.mem.subarray(q * PAGE, (q + n) * PAGE))]);
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  for (const f of process.argv.slice(2)) {
    const image = memoryImage(readFileSync(f));
    writeFileSync(f.replace(/\.wasm$/, '.mem'), image);
    console.log(`${f.replace(/\.wasm$/, '.mem')} ${image.length} bytes (${image.readUInt32LE(20)} runs)`);
  }
}
