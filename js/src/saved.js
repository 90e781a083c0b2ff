// The memory image a page saves after its first count and starts from on its
// next visit (RATIONALE.md, "How does a returning page start from a saved
// memory image?"): the memory of an instance of the default module that has
// done nothing but _initialize and load o200k_base (the pages that differ
// from what the module's data gives a fresh instance), in image-format.js's
// format (version 4, the loaded image's; no module length, data section or
// samples: a page compiles the module from its response), compressed (deflate-raw)
// by CompressionStream into Cache Storage (cache "tokenfit", keyed by the
// module's URL). The next start with the same module reads it while the
// module compiles, and takes it only for the module whose identity it
// carries, into a memory of its size, once its pages give its digest; then
// _initialize draws the instance's own random state. Anything else — no
// Cache API (an insecure origin, some private modes), a full quota, an
// image cut, corrupted, stale or of another module — falls back to the
// start without it, silently, and a bad image is deleted, so the next save
// replaces it.
//
// Never the page's own instance: the saved memory is a second instance's,
// started in an idle moment for this alone, so no text the page counted can
// be in it (saved.test.mjs counts a marker text first and looks for it).

import { Refused } from './errors.js';
import { Wasip1 } from './wasip1.js';
import { wasiShim } from './wasi.js';
import { LOADED, HEAD, PAGE, parseHead, parseRuns, writeHead, maskOf, identify, sameBytes, check } from './image-format.js';
import { runsDigest, prepare } from './digest.js';
import { isPacked } from './table.js';

const CACHE = 'tokenfit';

// keyOf is the Cache Storage key of the image of module (its URL) holding
// the encoding name: a request nobody fetches.
function keyOf(moduleURL, name) {
  const u = new URL(moduleURL);
  u.searchParams.set('tokenfit-image', name);
  return u.href;
}

/** usable reports whether this platform can save and read images. */
export const usable = () => typeof caches !== 'undefined' && typeof CompressionStream === 'function' && typeof DecompressionStream === 'function';

/**
 * readSaved reads the saved image of the module at moduleURL that holds the
 * encoding name: { head, image(module) }, where image(module) gives the
 * function startWasip1 writes it into an instance's memory with, or
 * undefined when the image is not the module's (and then deletes it). null
 * when there is none or it cannot be read (deleted too, if it is there).
 * Never throws.
 * @param {URL} moduleURL
 * @param {string} name
 */
export async function readSaved(moduleURL, name) {
  if (!usable()) return null;
  const key = keyOf(moduleURL, name);
  let cache;
  const forget = () => cache.delete(key).catch(() => {});
  try {
    cache = await caches.open(CACHE);
    const r = await cache.match(key);
    if (!r || !r.body) return null;
    const b = new Uint8Array(await new Response(r.body.pipeThrough(new DecompressionStream('deflate-raw'))).arrayBuffer());
    const head = parseHead(b);
    if (!head || head.version !== LOADED || !head.holds.includes(name) || b.length < HEAD + 8 * head.runs) {
      forget();
      return null;
    }
    head.runs = parseRuns(b.subarray(HEAD), head.runs);
    prepare(); // while the module may still compile (digest.js)
    const from = HEAD + 8 * head.runs.length;
    if (b.length !== from + head.runs.reduce((n, [, k]) => n + k * PAGE, 0)) {
      forget();
      return null;
    }
    const write = (memory) => {
      const have = memory.buffer.byteLength / 65536;
      if (head.pages > have) {
        try {
          memory.grow(head.pages - have);
        } catch {
          throw new Refused('the saved image needs more memory than the module may have');
        }
      }
      const m = new Uint8Array(memory.buffer);
      let at = from;
      for (const [first, n] of head.runs) {
        if ((first + n) * PAGE > m.length) throw new Refused('the saved image does not fit the module\'s memory');
        m.set(b.subarray(at, at + n * PAGE), first * PAGE);
        at += n * PAGE;
      }
      if (!check(memory, head)) throw new Refused('the saved image is damaged: its pages do not give its digest');
      return head.holds;
    };
    return {
      head,
      forget,
      image(module) {
        const id = identify(module);
        if (id && sameBytes(id, head.id)) return write;
        forget();
        return undefined;
      },
    };
  } catch {
    if (cache) forget();
    return null;
  }
}

// snapshot gives the image of an instance's memory: the 4 KB pages that
// differ from what the module's data segments gave (initial, the memory
// before _initialize; a restored instance has those from its module), and
// every non-zero page beyond them (a fresh instance's others are zero).
function snapshot(memory, initial, module, names) {
  const words = new Uint32Array(memory.buffer);
  const was = new Uint32Array(initial.buffer, initial.byteOffset, initial.byteLength / 4);
  const runs = [];
  for (let q = 0, per = PAGE / 4; q * per < words.length; q++) {
    let keep = false;
    for (let i = q * per, end = i + per; i < end; i++) {
      if (words[i] !== (i < was.length ? was[i] : 0)) {
        keep = true;
        break;
      }
    }
    if (!keep) continue;
    const last = runs.at(-1);
    if (last && last[0] + last[1] === q) last[1]++;
    else runs.push([q, 1]);
  }
  const pages = memory.buffer.byteLength / 65536;
  const digest = runsDigest(memory, runs, pages, maskOf(names));
  const head = writeHead({ version: LOADED, runs, pages, holds: names, digest, id: identify(module) });
  const m = new Uint8Array(memory.buffer);
  return new Blob([head, ...runs.map(([q, n]) => m.slice(q * PAGE, (q + n) * PAGE))]);
}

/**
 * saveImage starts a second instance of module, loads the table (the bytes
 * table() gives) of the encoding name into it and nothing else, and saves
 * its memory as the image of the module at moduleURL; then deletes the
 * cache's other images (another module's URL: an older version's). Resolves
 * true once saved, false when the platform cannot (no Cache API, a full
 * quota, a module without identity). Never throws.
 * @param {WebAssembly.Module} module
 * @param {URL} moduleURL
 * @param {string} name
 * @param {() => Promise<Uint8Array>} table
 * @param {(view: Uint8Array) => boolean} [random]
 */
export async function saveImage(module, moduleURL, name, table, random) {
  if (!usable() || !identify(module)) return false;
  try {
    const bytes = await table();
    const shim = wasiShim({ random });
    const instance = await WebAssembly.instantiate(module, shim.imports);
    shim.setMemory(instance.exports.memory);
    const initial = new Uint8Array(instance.exports.memory.buffer).slice();
    instance.exports._initialize();
    const be = new Wasip1(instance, shim);
    // The table's bytes are copied in, loaded, and zeroed before they are
    // freed: freed memory keeps its bytes, and these would be 1.3 MB of the
    // image (a fifth) that no one reads.
    const p = be.alloc(bytes.length);
    be.bytes().set(bytes, p);
    const h = isPacked(bytes) ? be.x.load_packed(p, bytes.length) : be.x.load_table(p, bytes.length);
    be.bytes().fill(0, p, p + bytes.length);
    be.x.free(p);
    if (h < 0) return false;
    // The collection the load made due runs here, not at the restored
    // instance's first allocation (scripts/loaded-image.mjs).
    be.x.free(be.alloc(64 << 10));
    const blob = snapshot(instance.exports.memory, initial, module, [name]);
    const key = keyOf(moduleURL, name);
    const cache = await caches.open(CACHE);
    await cache.put(key, new Response(blob.stream().pipeThrough(new CompressionStream('deflate-raw')), {
      headers: { 'content-type': 'application/octet-stream' },
    }));
    for (const old of await cache.keys()) if (old.url !== key) await cache.delete(old);
    return true;
  } catch {
    return false;
  }
}

/**
 * whenIdle runs fn in an idle moment after the current task (a page's
 * requestIdleCallback; elsewhere, a timer).
 */
export function whenIdle(fn) {
  if (typeof requestIdleCallback === 'function') setTimeout(() => requestIdleCallback(fn, { timeout: 10000 }), 0);
  else setTimeout(fn, 100);
}
