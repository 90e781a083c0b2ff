// tokenfit: exact token counts, context budgets and prompt-injection plans,
// from one Go core compiled to WebAssembly, for browsers, edge runtimes and
// (through node.js) Node, Deno and Bun. This file starts instances (init)
// and holds the top-level functions; the types and every function's
// documentation are in index.d.ts; the boundary it speaks is wasm/ABI.md.
//
// It runs one of four modules, recognised by what they import and export:
//   tokenfit-nohf.wasm  the full wasip1 reactor without the tokenizer.json
//                       loader (default): every operation; the first
//                       loadTokenizer moves the instance to tokenfit.wasm
//   tokenfit.wasm       the full wasip1 reactor with the loader ({ tokenizers: true })
//   tokenfit-lite.wasm  the lean wasip1 reactor: counting only, a third smaller
//   tokenfit-js.wasm    the GOOS=js module (needs Go's wasm_exec.js), kept
//                       working and tested; slower per call (RATIONALE.md)
//
// The rest of the wrapper, one concern a file:
//   errors.js     TokenfitError, the module's error answers, Trap
//   args.js       checking arguments; requests as JSON
//   utf8.js       a string's UTF-8: its length, parts that cut no character
//   table.js      the encodings; the .tkp transport form of a table
//   load.js       bytes from a URL, a Response or bytes; compiling the module
//   web.js        the platform of browsers and edge runtimes (fetch)
//   assets.js     where the package's own files are (assets/: one per file)
//   wasip1.js     the wasip1 reactors' exports and memory, streaming long
//                 texts (wasi.js: their WASI)
//   gojs.js       the GOOS=js module
//   encodings.js  the encodings an instance has loaded, loadEncoding
//   full.js       the operations over the full module (JSON)
//   lean.js       the operations over the lean module (direct exports)
//   live.js       the live counter
//   tokenizer.js  loadTokenizer: Hugging Face tokenizer.json files
//   upgrade.js    the move to the module with the loader, state and all
//   instance.js   the API over a started module, and its one interface to both

import { TokenfitError, Refused } from './errors.js';
import { badArg, checkObject } from './args.js';
import { compile, fetchBytes } from './load.js';
import { readSaved, saveImage, usable, whenIdle } from './saved.js';
import { ENCODINGS } from './table.js';
import { startWasip1 } from './wasip1.js';
import { startGoJS } from './gojs.js';
import { makeInstance } from './instance.js';

export { TokenfitError } from './errors.js';
export { ENCODINGS } from './table.js';

// ---- init and the default instance --------------------------------------

// The instance the top-level functions use: the full module's when one has
// been made, else the lean one's; among several of one kind, the one whose
// init() was called first. So which one answers never depends on which
// start finished first (the lean module starts faster):
// Promise.all([init(), init({ lite: true })]) binds the full instance.
// An instance that failed (out of memory) keeps answering the top-level
// functions with its error until another init() makes one, which takes its
// place; init() without options then starts a new one.
let bound = null; // { tf, rank }
let calls = 0; // init() calls so far, for their order
const memo = new Map(); // platform → { promise, tf } of init() without options

function bind(tf, seq, auto) {
  const rank = (tf.module === 'lite' && !auto ? 2 ** 40 : 0) + seq;
  if (bound === null || rank < bound.rank) bound = { tf, rank };
}

// ended forgets a failed instance: as the bound one, it yields to any other,
// and init() without options no longer returns it.
function ended(tf) {
  if (bound && bound.tf === tf) bound = { tf, rank: Infinity };
  for (const [platform, m] of memo) if (m.tf === tf) memo.delete(platform);
}

/**
 * makeInit returns init for a platform: how it reads a URL (and, in Node,
 * how it reads a table synchronously).
 * @param {{ name: string, base(): string | URL, read(url: URL, what: string): Promise<Uint8Array>, open(url: URL, what: string): Promise<Response | Uint8Array | { bytes: Uint8Array, image(memory: WebAssembly.Memory): void }>, readSync?: (url: URL) => Uint8Array | undefined, random?: (view: Uint8Array) => boolean, preload: string[], moduleURL(kind: 'nohf' | 'full' | 'lite'): URL, tableURL(name: string): URL, tableExt: string }} platform
 */
export function makeInit(platform) {
  return function init(options) {
    if (options === undefined) {
      if (!memo.has(platform)) {
        const m = { promise: start(platform, {}, ++calls), tf: null };
        memo.set(platform, m);
        m.promise.then((tf) => { m.tf = tf; }, () => memo.get(platform) === m && memo.delete(platform));
      }
      return memo.get(platform).promise;
    }
    return start(platform, options, ++calls);
  };
}

// notOurs is what a wasip1 start that failed throws: a module that is not
// a tokenfit module (one without the reactor's exports, or with imports the
// shim does not give: a LinkError) is invalid_argument, with the platform's
// error as the cause; anything else as it was. Checked only after a failure,
// so that a start pays nothing for it.
function notOurs(module, e) {
  if (e instanceof TokenfitError) return e;
  const exports = WebAssembly.Module.exports(module).map((x) => x.name);
  const foreign = WebAssembly.Module.imports(module).some((i) => i.module !== 'wasi_snapshot_preview1');
  if (!foreign && ['memory', '_initialize', 'abi_version'].every((n) => exports.includes(n))) return e;
  const err = new TokenfitError('invalid_argument', 'tokenfit: the module is not a tokenfit module (it lacks the exports memory, _initialize ' +
    'and abi_version, or imports more than WASI): use the tokenfit.wasm that came with this package');
  err.cause = e;
  return err;
}

// The key of the saved image of a module the app gives (savedImage: true).
const OWN_MODULE = new URL('https://tokenfit.invalid/module.wasm');

async function start(platform, options, seq) {
  checkObject('init', 'the options', options);
  const { lite, tokenizers = false, encodings, tables: base } = options;
  if (lite && tokenizers) throw badArg('init', 'lite and tokenizers exclude each other: the lean module counts with the built-in encodings only', options);
  // A page's default start (auto): the lean module, which counts at once,
  // moving to the full one when a call needs it (upgrade.js).
  const auto = platform.leanFirst && options.module == null && lite === undefined && !tokenizers;
  let src = options.module;
  if (src === undefined || src === null) src = platform.moduleURL(lite || auto ? 'lite' : tokenizers ? 'full' : 'nohf');
  const tables = (name) => (base !== undefined ? new URL(`${name}${platform.tableExt}`, new URL(base, platform.base())) : platform.tableURL(name));

  let preload = encodings;
  if (preload === undefined) preload = platform.preload;
  // The default module with o200k_base from the package's own table, which
  // the default init() loads at its first count, may start from a memory
  // image that holds it loaded: Node's, shipped beside the module
  // (image.js), or the one a page saved on an earlier visit (saved.js;
  // options.savedImage false: never).
  const packaged = options.module == null && !tokenizers && base === undefined &&
    (encodings === undefined || (Array.isArray(encodings) && encodings.includes('o200k_base')));
  const loaded = packaged && !lite && platform.loadedImage ? 'o200k_base' : undefined;
  // An app's own module saves one too when asked (savedImage: true) and
  // o200k_base is given as bytes or by URL: the image, under one key for
  // such modules, is taken only for the module whose identity it carries.
  const given = options.module != null && options.savedImage === true && preload && !Array.isArray(preload) ? preload.o200k_base : undefined;
  const own = given instanceof Uint8Array || typeof given === 'string' || given instanceof URL;
  const saving = (packaged ? options.savedImage !== false : own) && platform.savedImages && usable() ? 'o200k_base' : undefined;
  const key = packaged ? src : OWN_MODULE;
  // The module compiles while a page reads its saved image, and then while
  // the tables it still needs download (loadEncoding checks the names and
  // has the module expand and check the bytes after).
  const compiling = compile(platform, src, loaded);
  compiling.catch(() => {}); // awaited below, unless reading the image failed first
  const saved = saving ? await readSaved(key, saving) : null;
  const early = new Map();
  if (Array.isArray(preload)) {
    for (const name of preload) {
      if (!ENCODINGS.includes(name) || early.has(name) || name === loaded || (saved && name === saving)) continue;
      const p = fetchBytes(platform, tables(name), `the table of ${name}`);
      p.catch(() => {}); // a failed start may never await it
      early.set(name, p);
    }
  }

  let module = await compiling;
  const startOn = (module, image) => {
    const imports = WebAssembly.Module.imports(module).map((i) => i.module);
    return imports.includes('gojs') ? startGoJS(module) : startWasip1(module, platform.syncCompile, platform.random, image).catch((e) => {
      throw notOurs(module, e);
    });
  };
  // A refused image (image.js's or saved.js's: cut short, or not its
  // digest) costs a second start without it, never an answer: Node's module
  // read without its data section is read again whole.
  const image = saved ? saved.image(module) : undefined;
  let be;
  let restored = !!image;
  try {
    be = await startOn(module, image);
  } catch (e) {
    if (!(e instanceof Refused)) throw e;
    if (saved) saved.forget();
    if (!image) module = await compile(platform, src, null);
    be = await startOn(module, null);
    restored = false;
  }
  if (saving && !restored) {
    // The next visit's image, made in an idle moment after the first count
    // from the table this start downloaded (kept until then: fetched
    // again, it could be downloaded again from a server that says no-cache).
    const kept = own ? fetchBytes(platform, given, `the table of ${saving}`) : early.get(saving);
    whenIdle(() => saveImage(module, key, saving, () => kept || fetchBytes(platform, tables(saving), `the table of ${saving}`), platform.random));
  }
  const tf = makeInstance(be, platform, tables, early, () => ended(tf), auto);

  if (Array.isArray(preload)) {
    await Promise.all(preload.map((name) => tf.loadEncoding(name)));
  } else {
    checkObject('init', 'encodings', preload);
    await Promise.all(Object.entries(preload).map(([name, s]) => tf.loadEncoding(name, s)));
  }
  if (options.catalog !== undefined && options.catalog !== false) {
    await tf.loadCatalog(options.catalog === true ? undefined : options.catalog);
  }
  bind(tf, seq, auto);
  return tf;
}

function current(fn) {
  if (bound) return bound.tf;
  throw new TokenfitError('not_initialized',
    `tokenfit: ${fn}() was called before init(): call \`await init()\` once first ` +
    '(in a browser or at the edge: `await init({ module })`, see the README)');
}

// The top-level functions: the bound instance's (see bind), once init() has
// made one; before, each throws not_initialized (loadEncoding rejects).
export const countTokens = (text, target) => current('countTokens').countTokens(text, target);
export const countChat = (request) => current('countChat').countChat(request);
export const calculateBudget = (request) => current('calculateBudget').calculateBudget(request);
export const planInjection = (request) => current('planInjection').planInjection(request);
export const encode = (text, target) => current('encode').encode(text, target);
export const decode = (ids, target, options) => current('decode').decode(ids, target, options);
export const withinLimit = (text, limit, target) => current('withinLimit').withinLimit(text, limit, target);
export const truncate = (text, maxTokens, options) => current('truncate').truncate(text, maxTokens, options);
export const chunk = (text, maxTokens, options) => current('chunk').chunk(text, maxTokens, options);
export const calibrate = (request) => current('calibrate').calibrate(request);
export const models = (request) => current('models').models(request);
export const registerModels = (registry) => current('registerModels').registerModels(registry);
export const encodings = () => current('encodings').encodings();
export const version = () => current('version').version();
export const liveCounter = (target, text) => current('liveCounter').liveCounter(target, text);
export const loadEncoding = async (name, source) => current('loadEncoding').loadEncoding(name, source);
export const loadTokenizer = async (name, source) => current('loadTokenizer').loadTokenizer(name, source);
export const loadCatalog = async (source) => current('loadCatalog').loadCatalog(source);
export const priceUsage = (request) => current('priceUsage').priceUsage(request);
