// A module's memory image (<name>.mem beside <name>.wasm, written by
// js/scripts/memory-image.mjs; image-format.js gives the format): Node reads
// the package's own modules without their data section and reads the pages
// the data segments fill straight into the instance's memory. A fresh
// process's start is mostly fresh pages, and the data went through three
// (the read, V8's copy of the module, the memory): a third less of the
// module to read and copy, 800 fewer page faults (RATIONALE.md, "Where does
// a cold start go").

import { Refused } from './errors.js';
import { HEAD, PLAIN, LOADED, PAGE, parseHead, parseRuns, idOf, sameBytes, check } from './image-format.js';
import { prepare } from './digest.js';

// readFull reads n bytes at pos of the file fd into view from at.
function readFull(fs, fd, view, at, n, pos, what) {
  for (let done = 0; done < n;) {
    const got = fs.readSync(fd, view, at + done, n - done, pos + done);
    if (got === 0) throw new Refused(`${what} was cut short while it was read`);
    done += got;
  }
}

/**
 * readImaged reads a module without its data section, when the memory image
 * make js writes beside it (<name>.mem) is there and was made from it: the
 * bytes to compile, and image(memory), which reads the pages the data
 * segments fill straight into an instance's memory (before _initialize).
 * undefined when there is no image or it does not match the module (its
 * length, identity, data section and samples); image(memory) throws Refused
 * when the pages are cut short or do not give the image's digest.
 *
 * With an encoding's name, the loaded image (<name>.<encoding>.mem, written
 * by js/scripts/loaded-image.mjs) instead: the memory after _initialize and
 * that encoding's load from the package's own table, whose image(memory)
 * grows the memory to the image's size first and returns the names of the
 * encodings it holds loaded (the plain image's returns none).
 * @param fs Node's fs (or Deno's, Bun's)
 * @param {URL} url the module's file: URL
 * @param {string} [loaded] the encoding the image must hold loaded
 * write(memory) reads the pages without the check, verify(memory) checks
 * them after (make bench-start's measure of the check).
 * @returns {{ bytes: Uint8Array, image(memory: WebAssembly.Memory): string[], write(memory: WebAssembly.Memory): void, verify(memory: WebAssembly.Memory): boolean } | undefined}
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
    if (fs.readSync(fd, hb, 0, HEAD, 0) !== HEAD) return undefined;
    head = parseHead(hb);
    if (!head || head.version !== (loaded ? LOADED : PLAIN) || (loaded && !head.holds.includes(loaded))) return undefined;
    const rb = new Uint8Array(8 * head.runs);
    try {
      readFull(fs, fd, rb, 0, rb.length, HEAD, memURL.pathname);
    } catch {
      return undefined;
    }
    head.runs = parseRuns(rb, head.runs);
  } finally {
    fs.closeSync(fd);
  }
  const { size, at, end, samples, runs, pages } = head;
  fd = fs.openSync(url, 'r');
  let bytes;
  try {
    // The image's module: its length, a data section (id 11) whose size
    // ends where the image says, holding the samples the image recorded,
    // and the identity the image carries.
    const sec = new Uint8Array(6);
    if (fs.fstatSync(fd).size !== size || at + 70 > end || end > size || fs.readSync(fd, sec, 0, 6, at) !== 6 || sec[0] !== 11) return undefined;
    const held = new Uint8Array(1024);
    for (let k = 0; k < 16; k++) {
      if (fs.readSync(fd, held, 64 * k, 64, at + Math.floor((k * (end - at - 64)) / 15)) !== 64) return undefined;
    }
    if (!sameBytes(held, samples)) return undefined;
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
  } catch (e) {
    if (e instanceof Refused) return undefined;
    throw e;
  } finally {
    fs.closeSync(fd);
  }
  const id = idOf(bytes);
  if (!id || !sameBytes(id, head.id)) return undefined;
  try {
    prepare(); // before the module compiles (digest.js)
  } catch {
    // a runtime without WebAssembly SIMD: check refuses the image later
  }
  // grown gives a view of memory at the image's size.
  const grown = (memory) => {
    const have = memory.buffer.byteLength / 65536;
    if (pages > have) {
      try {
        memory.grow(pages - have);
      } catch {
        throw new Refused(`${memURL.pathname} needs ${pages} pages of memory, more than the module may have`);
      }
    }
    return new Uint8Array(memory.buffer);
  };
  // reading calls fn(read) with read(at, n), which reads the image's next
  // n bytes of pages into memory at at.
  const reading = (m, fn) => {
    const img = fs.openSync(memURL, 'r');
    let pos = HEAD + 8 * runs.length;
    try {
      return fn((at, n) => {
        if (at + n > m.length) throw new Refused(`${memURL.pathname} does not fit the module's memory`);
        readFull(fs, img, m, at, n, pos, memURL.pathname);
        pos += n;
      });
    } finally {
      fs.closeSync(img);
    }
  };
  // image reads the pages and digests each piece as it comes in.
  const image = (memory) => {
    const m = grown(memory);
    if (!reading(m, (read) => check(memory, head, read))) throw new Refused(`${memURL.pathname} is damaged: its pages do not give its digest`);
    return head.holds;
  };
  // write reads the pages unchecked, and verify checks them after:
  // make bench-start's measure of what the check costs.
  const write = (memory) => {
    const m = grown(memory);
    reading(m, (read) => {
      for (const [first, n] of runs) read(first * PAGE, n * PAGE);
    });
  };
  const verify = (memory) => check(memory, head);
  return { bytes, image, write, verify };
}
