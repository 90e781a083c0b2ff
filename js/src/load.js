// Loading bytes: the module and the tables from a URL, a Response, bytes or
// a promise of one, through the platform's reader (fetch, or Node's file
// system). Where the package's own files are is assets.js's business.

import { TokenfitError } from './errors.js';
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
    return new Uint8Array(await src.arrayBuffer());
  }
  if (typeof src === 'string' || src instanceof URL) return platform.read(new URL(src, platform.base()), what);
  throw new TokenfitError('invalid_argument', `tokenfit: ${what} must be a URL, a Response or bytes, got ${describe(src)}`);
}

// The modules compiled without their data section, each with the function
// that writes its memory image into an instance's memory (see compile), which
// startWasip1 calls before _initialize.
const images = new WeakMap();

/** @returns {((memory: WebAssembly.Memory) => string[]) | undefined} */
export const memoryImage = (module) => images.get(module);

// compile compiles the module src; loaded names an encoding the platform may
// start the instance with already loaded (Node's loaded image of the default
// module: image.js), which the image function then returns.
export async function compile(platform, src, loaded) {
  src = await src;
  if (isModule(src)) return src;
  if (typeof src === 'string' || src instanceof URL) src = await platform.open(new URL(src, platform.base()), 'the module', loaded);
  // Node's platform opens the package's own modules without their data
  // section, as { bytes, image }: a third less to read and for V8 to copy,
  // and the pages the data would fill are read straight into the memory
  // (RATIONALE.md, "Where does a cold start go").
  if (src && src.image) {
    const module = platform.syncCompile ? new WebAssembly.Module(src.bytes) : await WebAssembly.compile(src.bytes);
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
      return WebAssembly.compileStreaming(src);
    }
    bytes = await fetchBytes(platform, src, 'the module');
  }
  // Node, Deno and Bun may compile synchronously, which V8 does lazily and
  // is several times faster for a first count than WebAssembly.compile;
  // browsers refuse synchronous compilation of a module this size.
  if (platform.syncCompile) return new WebAssembly.Module(bytes);
  return WebAssembly.compile(bytes);
}

