// Loading bytes: the module and the tables from a URL, a Response, bytes or
// a promise of one, through the platform's reader (fetch, or Node's file
// system). Where the package's own files are is assets.js's business.

import { TokenfitError, Refused } from './errors.js';
import { badArg, describe } from './args.js';

const isModule = (v) => typeof WebAssembly !== 'undefined' && v instanceof WebAssembly.Module;
const isResponse = (v) => typeof Response !== 'undefined' && v instanceof Response;

function asBytes(v) {
  if (v instanceof Uint8Array) return v;
  if (v instanceof ArrayBuffer) return new Uint8Array(v);
  if (ArrayBuffer.isView(v)) return new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
  return null;
}

// checkSource refuses, before anything is fetched or loaded, a source that
// fetchBytes could never read (a promise is checked once it settles).
export function checkSource(fn, src) {
  if (src === undefined || typeof src === 'string' || src instanceof URL || asBytes(src) || isResponse(src)) return;
  if (src !== null && (typeof src === 'object' || typeof src === 'function') && typeof src.then === 'function') return;
  throw badArg(fn, 'the source must be a URL, a Response or bytes', src);
}

// fetchBytes turns a URL, a Response or bytes into bytes.
export async function fetchBytes(platform, src, what) {
  src = await src;
  const b = asBytes(src);
  if (b) return b;
  if (isResponse(src)) {
    if (!src.ok) throw new TokenfitError('invalid_argument', `tokenfit: ${what}: HTTP ${src.status} for ${src.url}`);
    return new Uint8Array(await typed(what, 'reading the response failed', src.arrayBuffer()));
  }
  if (typeof src === 'string' || src instanceof URL) return typed(what, 'the fetch failed', platform.read(new URL(src, platform.base()), what));
  throw new TokenfitError('invalid_argument', `tokenfit: ${what} must be a URL, a Response or bytes, got ${describe(src)}`);
}

// typed makes what a fetch or a compilation throws (a TypeError "fetch
// failed", a WebAssembly.CompileError) a TokenfitError with it as the cause,
// as every error tokenfit throws is (index.d.ts); a caller's own promise
// that rejects is never passed through here.
async function typed(what, doing, p) {
  try {
    return await p;
  } catch (e) {
    if (e instanceof TokenfitError) throw e;
    const err = new TokenfitError('invalid_argument', `tokenfit: ${what}: ${doing}: ${e && e.message}`);
    err.cause = e;
    throw err;
  }
}

// compileBytes compiles a module's bytes; bytes that are not one (an HTML
// page a server answered for the .wasm's URL, a cut download) are
// invalid_argument, saying so.
function compileBytes(platform, bytes) {
  const html = bytes.length > 0 && bytes[0] === 0x3c; // '<'
  const doing = html ? 'not WebAssembly but HTML (a page the server answered for the module\'s URL?)' : 'not a WebAssembly module';
  if (!platform.syncCompile) return typed('the module', doing, WebAssembly.compile(bytes));
  try {
    return new WebAssembly.Module(bytes);
  } catch (e) {
    return typed('the module', doing, Promise.reject(e));
  }
}

// The modules compiled without their data section, each with the function
// that writes its memory image into an instance's memory (see compile), which
// startWasip1 calls before _initialize.
const images = new WeakMap();

/** @returns {((memory: WebAssembly.Memory) => string[]) | undefined} */
export const memoryImage = (module) => images.get(module);

// compile compiles the module src; loaded names an encoding the platform may
// start the instance with already loaded (Node's loaded image of the default
// module: image.js), which the image function then returns; null, that the
// module is read whole, without an image.
export async function compile(platform, src, loaded) {
  src = await src;
  if (isModule(src)) return src;
  if (typeof src === 'string' || src instanceof URL) src = await typed('the module', 'the fetch failed', platform.open(new URL(src, platform.base()), 'the module', loaded));
  // Node's platform opens the package's own modules without their data
  // section, as { bytes, image }: a third less to read and for V8 to copy,
  // and the pages the data would fill are read straight into the memory
  // (RATIONALE.md, "Where does a cold start go").
  if (src && src.image) {
    const module = await compileBytes(platform, src.bytes);
    images.set(module, src.image);
    return module;
  }
  // Bytes are recognised first: in Node, the first use of Response loads
  // its fetch implementation (undici), 40-200 ms of a cold start.
  let bytes = asBytes(src);
  if (!bytes) {
    // compileStreaming takes exactly "application/wasm" (Chromium and Node
    // refuse a parameter such as "; charset=binary", Node any other case);
    // another type is compiled from the bytes instead. Only a streamed
    // compile lets Chromium keep the module's code in its code cache.
    if (isResponse(src) && typeof WebAssembly.compileStreaming === 'function' &&
      src.headers.get('content-type') === 'application/wasm') {
      if (!src.ok) throw new TokenfitError('invalid_argument', `tokenfit: the module: HTTP ${src.status} for ${src.url}`);
      return typed('the module', 'not a WebAssembly module', WebAssembly.compileStreaming(src));
    }
    bytes = await fetchBytes(platform, src, 'the module');
  }
  // Node, Deno and Bun may compile synchronously, which V8 does lazily and
  // is several times faster for a first count than WebAssembly.compile;
  // browsers refuse synchronous compilation of a module this size.
  return compileBytes(platform, bytes);
}


/**
 * startImaged compiles the module src and starts it with start(module);
 * when its memory image fails the start (Refused: cut short, or its pages
 * do not give its digest), it compiles the module read whole and starts
 * that instead: a damaged image costs a second start, never an answer.
 * @template T
 * @param {(module: WebAssembly.Module) => Promise<T>} start
 * @returns {Promise<T>}
 */
export async function startImaged(platform, src, loaded, start) {
  const module = await compile(platform, src, loaded);
  try {
    return await start(module);
  } catch (e) {
    if (!(e instanceof Refused)) throw e;
  }
  return start(await compile(platform, src, null));
}
