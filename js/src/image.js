// A module's memory image (<name>.mem beside <name>.wasm, written by
// js/scripts/memory-image.mjs, whose comment gives the format): Node reads
// the package's own modules without their data section and reads the pages
// the data segments fill straight into the instance's memory. A fresh
// process's start is mostly fresh pages, and the data went through three
// (the read, V8's copy of the module, the memory): a third less of the
// module to read and copy, 800 fewer page faults (RATIONALE.md, "Where does
// a cold start go").

import { TokenfitError } from './errors.js';

// The header: 8 words, then 16 samples of 64 bytes (memory-image.mjs).
const HEAD = 32 + 16 * 64;

// readFull reads n bytes at pos of the file fd into view from at.
function readFull(fs, fd, view, at, n, pos, what) {
  for (let done = 0; done < n;) {
    const got = fs.readSync(fd, view, at + done, n - done, pos + done);
    if (got === 0) throw new TokenfitError('invalid_argument', `tokenfit: ${what} was cut short while it was read (reinstall the package; in a checkout, run \`make js\`)`);
    done += got;
  }
}

/**
 * readImaged reads a module without its data section, when the memory image
 * make js writes beside it (<name>.mem) is there and was made from it: the
 * bytes to compile, and image(memory), which reads the pages the data
 * segments fill straight into an instance's memory (before _initialize).
 * undefined when there is no image or it does not match the module.
 *
 * With an encoding's name, the loaded image (<name>.<encoding>.mem, written
 * by js/scripts/loaded-image.mjs) instead: the memory after _initialize and
 * that encoding's load from the package's own table, whose image(memory)
 * grows the memory to the image's size first and returns the names of the
 * encodings it holds loaded (the plain image's returns none).
 * @param fs Node's fs (or Deno's, Bun's)
 * @param {URL} url the module's file: URL
 * @param {string} [loaded] the encoding the image must hold loaded
 * @returns {{ bytes: Uint8Array, image(memory: WebAssembly.Memory): string[] } | undefined}
 */
export function readImaged(fs, url, loaded) {
  const memURL = new URL(url.href.replace(/\.wasm$/, loaded ? `.${loaded}.mem` : '.mem'));
  let fd;
  try {
    fd = fs.openSync(memURL, 'r');
  } catch {
    return undefined;
  }
  let head;
  try {
    const hb = new Uint8Array(HEAD);
    const h = new DataView(hb.buffer);
    if (fs.readSync(fd, hb, 0, HEAD, 0) !== HEAD || h.getUint32(0, true) !== 0x4d464b54 || h.getUint32(4, true) !== (loaded ? 2 : 1)) return undefined;
    const rb = new Uint8Array(8 * h.getUint32(20, true));
    readFull(fs, fd, rb, 0, rb.length, HEAD, memURL.pathname);
    const runs = new DataView(rb.buffer);
    head = { size: h.getUint32(8, true), at: h.getUint32(12, true), end: h.getUint32(16, true), samples: hb.subarray(32), runs, pages: h.getUint32(24, true) };
  } finally {
    fs.closeSync(fd);
  }
  const { size, at, end, samples, runs, pages } = head;
  fd = fs.openSync(url, 'r');
  let bytes;
  try {
    // The image's module: its length, a data section (id 11) whose size
    // ends where the image says, holding the samples the image recorded.
    const sec = new Uint8Array(6);
    if (fs.fstatSync(fd).size !== size || at + 70 > end || end > size || fs.readSync(fd, sec, 0, 6, at) !== 6 || sec[0] !== 11) return undefined;
    const held = new Uint8Array(1024);
    for (let k = 0; k < 16; k++) {
      if (fs.readSync(fd, held, 64 * k, 64, at + Math.floor((k * (end - at - 64)) / 15)) !== 64) return undefined;
    }
    if (held.some((x, j) => x !== samples[j])) return undefined;
    let len = 0;
    let i = 1;
    for (let s = 0; i < 6; s += 7) {
      len += (sec[i] & 0x7f) * 2 ** s;
      if (!(sec[i++] & 0x80)) break;
    }
    if (at + i + len !== end) return undefined;
    bytes = new Uint8Array(size - (end - at));
    readFull(fs, fd, bytes, 0, at, 0, url.pathname);
    readFull(fs, fd, bytes, at, size - end, end, url.pathname);
  } finally {
    fs.closeSync(fd);
  }
  const image = (memory) => {
    const have = memory.buffer.byteLength / 65536;
    if (loaded && pages > have) {
      try {
        memory.grow(pages - have);
      } catch {
        throw new TokenfitError('invalid_argument', `tokenfit: ${memURL.pathname} needs ${pages} pages of memory, more than the module may have (reinstall the package; in a checkout, run \`make js\`)`);
      }
    }
    const m = new Uint8Array(memory.buffer);
    const img = fs.openSync(memURL, 'r');
    try {
      let pos = HEAD + runs.byteLength;
      for (let r = 0; r < runs.byteLength; r += 8) {
        const from = runs.getUint32(r, true) * 4096;
        const n = runs.getUint32(r + 4, true) * 4096;
        if (from + n > m.length) throw new TokenfitError('invalid_argument', `tokenfit: ${memURL.pathname} does not fit the module's memory (reinstall the package; in a checkout, run \`make js\`)`);
        readFull(fs, img, m, from, n, pos, memURL.pathname);
        pos += n;
      }
    } finally {
      fs.closeSync(img);
    }
    return loaded ? [loaded] : [];
  };
  return { bytes, image };
}
