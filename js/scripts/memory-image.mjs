// Writes the memory image of a wasip1 module for Node (make js-core):
// <name>.mem beside <name>.wasm, the memory pages the module's data
// segments write, so that Node can read the module without its data
// section and read those pages straight into the instance's memory
// (js/src/node.js; RATIONALE.md, "Where does a cold start go"). The format
// (version 3) is js/src/image-format.js's; word 6 is the memory's size as
// the module declares it, and the runs are the pages the data segments
// touch.
//
// First it gives the module its identity, if it has none: a custom
// section tokenfit.id holding the SHA-256 of the module without it,
// appended (runtimes skip custom sections), which every image made from
// the module carries and is checked against (image.js, saved.js).
//
// Node takes the image only for the module it was made from: the same
// length and identity, the data section where the image says, holding the
// same samples (make js writes both at once; the check catches a module
// copied in by hand, or an image left from another build), and only once
// its pages, in memory, give the digest it carries.
//
//   node scripts/memory-image.mjs module.wasm...

import { readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { PAGE, PLAIN, ID_SECTION, idOf, maskOf, samplesAt, writeHead } from '../src/image-format.js';
import { runsDigest } from '../src/digest.js';

export { samplesAt };

// identified returns the module b with its identity (the tokenfit.id
// section), appended if it has none.
export function identified(b) {
  if (idOf(b)) return b;
  const name = Buffer.from(ID_SECTION);
  const body = Buffer.concat([Buffer.from([name.length]), name, createHash('sha256').update(b).digest()]);
  return Buffer.concat([b, Buffer.from([0, body.length]), body]);
}

// imageOf writes the image of the pages runs of the memory m: the header
// (f's fields, the runs and their digest) and the pages.
export function imageOf(m, runs, f) {
  const memory = new WebAssembly.Memory({ initial: f.pages });
  const view = new Uint8Array(memory.buffer);
  for (const [q, n] of runs) view.set(m.subarray(q * PAGE, (q + n) * PAGE), q * PAGE);
  const head = writeHead({ ...f, runs, digest: runsDigest(memory, runs, f.pages, maskOf(f.holds)) });
  return Buffer.concat([head, ...runs.map(([q, n]) => m.subarray(q * PAGE, (q + n) * PAGE))]);
}

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
  const id = idOf(b);
  if (!id) throw new Error('the module has no tokenfit.id section (identified gives it one)');
  const samples = Buffer.concat(samplesAt(data.at, data.end).map((from) => b.subarray(from, from + 64)));
  return imageOf(data.mem, runs, { version: PLAIN, size: b.length, at: data.at, end: data.end, pages: pages * PAGE / 65536, id, samples });
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  for (const f of process.argv.slice(2)) {
    const b = identified(readFileSync(f));
    writeFileSync(f, b);
    const image = memoryImage(b);
    writeFileSync(f.replace(/\.wasm$/, '.mem'), image);
    console.log(`${f.replace(/\.wasm$/, '.mem')} ${image.length} bytes (${image.readUInt32LE(20)} runs)`);
  }
}
