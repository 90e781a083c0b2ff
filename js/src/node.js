// tokenfit for Node, Deno and Bun (the package's "node" export condition):
// the same API as index.js, with init() reading the module and the tables
// from the package directory, and encodings loaded from disk, synchronously,
// the first time a call needs them.

import { makeInit } from './tokenfit.js';
import { TokenfitError } from './errors.js';
import { readImaged } from './image.js';
import full from './assets/full.js';
import nohf from './assets/nohf.js';
import lite from './assets/lite.js';

export * from './api.js';

// Node's modules through process.getBuiltinModule where there is one (Node
// 20.16 and 22.3 on, Deno, Bun): an import of node:fs builds an ES module
// of all its exports, which loads fs's streams, 20-60 ms of a cold start
// (RATIONALE.md, "Where does a cold start go").
const fs = globalThis.process?.getBuiltinModule?.('node:fs') ?? (await import('node:fs'));
const { pathToFileURL } = globalThis.process?.getBuiltinModule?.('node:url') ?? (await import('node:url'));

// The tables are in dist/tables/, beside the modules: found from a module's
// URL, which assets/ gives right from this file in src/ and from the chunk
// of dist/esm/ it is built into (RATIONALE.md, "Why does the package ship a
// split build?").
const tableFile = (name, ext) => new URL(`tables/${name}${ext}`, nohf());

// random fills view from /dev/urandom, where the runtime is Node or Bun and
// the file can be read: the WASI shim's own source, Web Crypto, loads
// internal/crypto/webcrypto in Node at its first use, a cost in every cold
// start for the module's one draw of 32 bytes (RATIONALE.md, "Where does a
// cold start go"). Not in Deno, which may ask its user for the permission;
// false (Web Crypto, then) where the file is missing or unreadable.
function random(view) {
  if (globalThis.Deno !== undefined) return false;
  let fd;
  try {
    fd = fs.openSync('/dev/urandom', 'r');
  } catch {
    return false;
  }
  try {
    for (let at = 0; at < view.length;) {
      const n = fs.readSync(fd, view, at, view.length - at, null);
      if (n <= 0) return false;
      at += n;
    }
    return true;
  } catch {
    return false;
  } finally {
    fs.closeSync(fd);
  }
}

const nodePlatform = {
  name: 'node',
  syncCompile: true,
  loadedImage: true, // open may start the default module with o200k_base loaded
  random,
  base: () => pathToFileURL(process.cwd() + '/'),
  async read(url, what) {
    if (url.protocol !== 'file:') {
      const r = await fetch(url);
      if (!r.ok) throw new TokenfitError('invalid_argument', `tokenfit: ${what}: HTTP ${r.status} for ${url}`);
      return new Uint8Array(await r.arrayBuffer());
    }
    // Synchronously: fs/promises reads in chunks, each a trip through the
    // thread pool, and the module is read once, before anything can run.
    try {
      return fs.readFileSync(url);
    } catch (e) {
      throw new TokenfitError('invalid_argument', `tokenfit: ${what}: cannot read ${url.pathname} (${e.code || e.message})` +
        (url.pathname.includes('/dist/') ? ': the package is not built; in a checkout, run `make js`' : ''));
    }
  },
  // The package's own modules come without their data section when their
  // memory image is beside them (image.js; compile takes { bytes, image });
  // asked for an encoding loaded (init's default, tokenfit.js), the default
  // module's loaded image when there is one that matches it, else the plain;
  // loaded null, the module whole (load.js, startImaged).
  async open(url, what, loaded) {
    if (loaded !== null && (url.href === nohf().href || url.href === full().href || url.href === lite().href)) {
      try {
        const imaged = (loaded && url.href === nohf().href && readImaged(fs, url, loaded)) || readImaged(fs, url);
        if (imaged) return imaged;
      } catch (e) {
        if (e instanceof TokenfitError) throw e;
      }
    }
    return this.read(url, what);
  },
  readSync(url) {
    if (url.protocol !== 'file:') return undefined;
    try {
      return fs.readFileSync(url);
    } catch {
      return undefined;
    }
  },
  // The prebuilt index beside the table (make js writes it), when there is
  // one: loading then copies the look-up structures in instead of building
  // them, most of a cold table load.
  readIndexSync(name) {
    return this.readSync(tableFile(name, '.tkx'));
  },
  // readIntoSync reads a file straight into the buffer place(size) gives
  // (a view of the module's memory), so that its bytes are written once,
  // not read into a Buffer and copied (RATIONALE.md, "Where does a cold
  // start go"); undefined when there is no such file.
  readIntoSync(url, place) {
    if (url.protocol !== 'file:') return undefined;
    let fd;
    try {
      fd = fs.openSync(url, 'r');
    } catch {
      return undefined;
    }
    try {
      const size = fs.fstatSync(fd).size;
      const view = place(size);
      for (let at = 0; at < size;) {
        const n = fs.readSync(fd, view, at, size - at, at);
        if (n === 0) throw new TokenfitError('invalid_table', `tokenfit: ${url.pathname} was cut short while it was read`);
        at += n;
      }
      return view;
    } finally {
      fs.closeSync(fd);
    }
  },
  tableIndexURL: (name) => tableFile(name, '.tkx'),
  catalogURL: () => tableFile('catalog', '.json'),
  preload: [],
  // From disk, the .tkt itself: nothing to expand.
  tableExt: '.tkt',
  moduleURL: (kind) => ({ nohf, full, lite })[kind](),
  tableURL: (name) => tableFile(name, '.tkt'),
};

/**
 * Starts tokenfit. In Node, Deno and Bun it needs no options: the module and
 * the tables come from the package directory. See index.d.ts.
 */
export const init = makeInit(nodePlatform);
