// tokenfit: exact token counts, context budgets and prompt-injection plans,
// from one Go core compiled to WebAssembly. This file is the whole wrapper
// for browsers, edge runtimes and (through node.js) Node, Deno and Bun. The
// types and every function's documentation are in index.d.ts; the boundary
// it speaks is wasm/ABI.md.
//
// It runs one of three modules, recognised by what they import and export:
//   tokenfit.wasm       the full wasip1 reactor (default): every operation
//   tokenfit-lite.wasm  the lean wasip1 reactor: counting only, a third smaller
//   tokenfit-js.wasm    the GOOS=js module (needs Go's wasm_exec.js), kept
//                       working and tested; slower per call (RATIONALE.md)

import { wasiShim } from './wasi.js';

/** The encodings tokenfit knows, in the order core lists them. */
export const ENCODINGS = Object.freeze(['o200k_base', 'cl100k_base', 'p50k_base', 'r50k_base']);

const DEFAULT_ENCODING = 'o200k_base';
const ABI_VERSION = 1;
const MAX_BYTES = 1 << 30; // the module's largest buffer (wasm/ABI.md)
const BIG = 1 << 24; // texts longer than this are measured exactly before they are copied
const SCRATCH = 64 << 10; // the text buffer a module starts with (texts up to 21,845 UTF-16 units)

// ---- errors -------------------------------------------------------------

/** An error from tokenfit, with a stable code (see index.d.ts). */
export class TokenfitError extends Error {
  constructor(code, message, field) {
    super(message);
    this.name = 'TokenfitError';
    this.code = code;
    if (field) this.field = field;
  }
}

const STATUS = [null, 'internal', 'invalid_argument', 'invalid_handle', 'invalid_table', 'unknown_encoding',
  'encoding_not_loaded', 'invalid_request', 'invalid_token', 'unknown_operation'];

function fromAnswer(answer) {
  const e = answer && answer.error;
  if (!e) return new TokenfitError('internal', `tokenfit: unexpected answer ${JSON.stringify(answer)}`);
  return new TokenfitError(e.code || 'internal', e.message || e.code, e.field);
}

function describe(v) {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') {
    const name = v.constructor && v.constructor.name;
    return name && name !== 'Object' ? `${/^[AEIOU]/.test(name) ? 'an' : 'a'} ${name}` : 'an object';
  }
  if (typeof v === 'string') return v === '' ? 'an empty string' : 'a string';
  return `${typeof v} ${String(v).slice(0, 20)}`;
}

/** An invalid_argument error: what fn wanted, and what it got (provider.js uses it too). */
export function badArg(fn, what, v, field) {
  return new TokenfitError('invalid_argument', `tokenfit: ${fn}: ${what}, got ${describe(v)}`, field);
}

function checkString(fn, name, v) {
  if (typeof v !== 'string') throw badArg(fn, `${name} must be a string`, v);
}

function checkCount(fn, name, v) {
  if (!Number.isInteger(v) || v < 0 || v > 0x7fffffff) throw badArg(fn, `${name} must be an integer from 0 to 2147483647`, v);
}

function checkObject(fn, name, v, optional) {
  if (optional && v == null) return;
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw badArg(fn, `${name} must be an object`, v);
}

// tokenIds reports whether ids is an array of token ids. A hole in a
// sparse array is not one (every() would skip it; the lean module would
// read it as id 0).
function tokenIds(ids) {
  if (!(Array.isArray(ids) || ids instanceof Uint32Array || ids instanceof Int32Array)) return false;
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i];
    if (!Number.isInteger(id) || id < 0 || id > 0xffffffff) return false;
  }
  return true;
}

// checkTarget validates { encoding?, model?, calibration? }.
function checkTarget(fn, t) {
  if (t == null) return;
  checkObject(fn, 'the options', t);
  if (t.encoding !== undefined) checkString(fn, 'encoding', t.encoding);
  if (t.model !== undefined) checkString(fn, 'model', t.model);
  checkObject(fn, 'calibration', t.calibration, true);
}

// notJSON is thrown by jsonValue for a value JSON cannot hold.
class NotJSON {
  constructor(key, what, sends, fix) {
    this.key = key;
    this.what = what;
    this.sends = sends; // what JSON.stringify would make of it
    this.fix = fix;
  }
}

// jsonValue is JSON.stringify's replacer: NaN and ±Infinity would be
// written as null, which core reads as the field's absence (its default),
// so a NaN limit would silently mean "no limit"; a Map or a Set would be
// written as {}, its entries lost; a BigInt would be a TypeError. All are
// refused by name. Costs about 0.3 µs a request.
function jsonValue(key, v) {
  if (typeof v === 'number') {
    if (v - v !== 0) throw new NotJSON(key, String(v), 'null, read as the field\'s absence', 'pass a finite number');
  } else if (typeof v === 'bigint') {
    throw new NotJSON(key, `the BigInt ${v}n`, 'nothing: it throws', 'pass a Number');
  } else if (typeof v === 'object' && (v instanceof Map || v instanceof Set)) {
    throw new NotJSON(key, `a ${v.constructor.name}`, '{}, its entries lost', 'pass a plain object or an array (Object.fromEntries(map), [...set])');
  }
  return v;
}

// toJSON writes a request as JSON (for every call, and provider.js's): a
// string is taken as JSON already, undefined is {}. What JSON cannot hold
// is an invalid_argument, never a
// TypeError or a silent null: NaN, Infinity, a BigInt, a Map or a Set, a
// cycle, nesting too deep for JSON.stringify (a RangeError), or a request
// that is itself a function or a symbol. (Inside a request, undefined,
// functions and symbols are dropped as JSON.stringify drops them; an
// exception from the caller's own getter or toJSON propagates unchanged,
// but for a TypeError or a RangeError, which cannot be told from
// JSON.stringify's own: the cause of an invalid_argument. None ends the
// instance: the module has not run.)
export function toJSON(fn, request) {
  if (request === undefined) return '{}';
  if (typeof request === 'string') return request;
  let json;
  try {
    json = JSON.stringify(request, jsonValue);
  } catch (e) {
    if (e instanceof NotJSON) {
      throw new TokenfitError('invalid_argument', `tokenfit: ${fn}: ${e.key === '' ? 'the request' : JSON.stringify(e.key.slice(0, 40))} is ${e.what}, ` +
        `which JSON cannot hold (JSON.stringify would send ${e.sends}): ${e.fix}`);
    }
    if (!(e instanceof TypeError || e instanceof RangeError)) throw e;
    const err = new TokenfitError('invalid_argument', `tokenfit: ${fn}: the request cannot be written as JSON (${e.message.split('\n')[0]}): ` +
      'pass plain objects, arrays, strings, numbers and booleans (a BigInt as a Number), nested at most a few thousand levels deep');
    err.cause = e;
    throw err;
  }
  if (json === undefined) throw badArg(fn, 'the request must be an object or a JSON string', request);
  return json;
}

// Trap is what an exported function of a module threw: a trap, a stack
// overflow, an exit of Go's runtime. The instance cannot answer after one.
class Trap extends Error {
  constructor(cause) {
    super(cause && cause.message);
    this.name = 'Trap';
    this.cause = cause;
  }
}

// trapping returns a module's exports with each function turning what it
// throws into a Trap. Only the module's own failures end an instance: an
// exception from the wrapper (a RangeError while writing a request) or
// from the caller's code (a getter) does not. Costs nanoseconds a call.
function trapping(exports) {
  const out = {};
  for (const [name, f] of Object.entries(exports)) {
    out[name] = typeof f !== 'function' ? f : (...args) => {
      try {
        return f(...args);
      } catch (e) {
        throw new Trap(e);
      }
    };
  }
  return out;
}

// ---- loading bytes ------------------------------------------------------

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
function checkSource(fn, src) {
  if (src === undefined || typeof src === 'string' || src instanceof URL || asBytes(src) || isResponse(src)) return;
  if (src !== null && (typeof src === 'object' || typeof src === 'function') && typeof src.then === 'function') return;
  throw badArg(fn, 'the source must be a URL, a Response or bytes', src);
}

// fetchBytes turns a URL, a Response or bytes into bytes.
async function fetchBytes(platform, src, what) {
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

async function compile(platform, src) {
  src = await src;
  if (isModule(src)) return src;
  if (typeof src === 'string' || src instanceof URL) src = await platform.open(new URL(src, platform.base()), 'the module');
  if (isResponse(src) && typeof WebAssembly.compileStreaming === 'function' &&
    (src.headers.get('content-type') || '').startsWith('application/wasm')) {
    if (!src.ok) throw new TokenfitError('invalid_argument', `tokenfit: the module: HTTP ${src.status} for ${src.url}`);
    return WebAssembly.compileStreaming(src);
  }
  const bytes = await fetchBytes(platform, src, 'the module');
  // Node, Deno and Bun may compile synchronously, which V8 does lazily and
  // is several times faster for a first count than WebAssembly.compile;
  // browsers refuse synchronous compilation of a module this size.
  if (platform.syncCompile) return new WebAssembly.Module(bytes);
  return WebAssembly.compile(bytes);
}

// ---- tables -------------------------------------------------------------

/**
 * expandTable returns the .tkt bytes of a table given as .tkt (unchanged) or
 * in tokenfit's transport form .tkp (every token of two bytes or more as the
 * pair of earlier tokens it joins; see scripts/pack-tables.mjs for the
 * format). The module checks the result against the CRC the .tkp carries.
 * Cost: O(table), a few milliseconds.
 * @param {Uint8Array} b
 * @returns {Uint8Array}
 */
export function expandTable(b) {
  if (b.length < 8 || b[0] !== 0x54 || b[1] !== 0x4b || b[2] !== 0x46 || b[3] !== 0x50) return b; // not "TKFP"
  const bad = () => new TokenfitError('invalid_table', 'tokenfit: a .tkp table is truncated or corrupt: download it again');
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const h = dv.getUint32(4, true);
  if (8 + h > b.length || h < 24) throw bad();
  const head = b.subarray(8, 8 + h);
  const hv = new DataView(head.buffer, head.byteOffset, h);
  const n = hv.getUint32(8, true);
  const total = hv.getUint32(20, true);
  let p = 8 + h;
  const kinds = b.subarray(p, p + n);
  p += n;
  let c1 = 0;
  let c2 = 0;
  for (let r = 0; r < n; r++) {
    if (kinds[r] === 1) c1++;
    else if (kinds[r] === 2) c2++;
  }
  const singles = b.subarray(p, p + c1);
  p += c1;
  const left = b.subarray(p, p + 3 * c2);
  p += 3 * c2;
  const right = b.subarray(p, p + 3 * c2);
  p += 3 * c2;
  if (p > b.length) throw bad();
  const specials = b.subarray(p);
  const out = new Uint8Array(h + n + total + specials.length);
  out.set(head, 0);
  const lens = out.subarray(h, h + n);
  const bytes = out.subarray(h + n, h + n + total);
  const off = new Uint32Array(n + 1);
  let w = 0;
  let i1 = 0;
  let i2 = 0;
  for (let r = 0; r < n; r++) {
    off[r] = w;
    const k = kinds[r];
    if (k === 1) {
      bytes[w++] = singles[i1++];
    } else if (k === 2) {
      const a = left[i2] | (left[c2 + i2] << 8) | (left[2 * c2 + i2] << 16);
      const c = right[i2] | (right[c2 + i2] << 8) | (right[2 * c2 + i2] << 16);
      i2++;
      if (a >= r || c >= r || w + lens[a] + lens[c] > total) throw bad();
      for (let j = off[a], e = j + lens[a]; j < e; j++) bytes[w++] = bytes[j];
      for (let j = off[c], e = j + lens[c]; j < e; j++) bytes[w++] = bytes[j];
    }
    lens[r] = w - off[r];
  }
  if (w !== total) throw bad();
  out.set(specials, h + n + total);
  return out;
}

// tableName reads the encoding name in a .tkt header (the module has
// checked the table by then).
function tableName(tkt) {
  const k = tkt[6];
  return tkt.length >= 24 + k ? String.fromCharCode(...tkt.subarray(24, 24 + k)) : '';
}

// ---- the wasip1 reactors ------------------------------------------------

const encoder = new TextEncoder();
// ignoreBOM: a text that starts with U+FEFF must come back with it.
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

function utf8Length(s) {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c < 0xdc00 && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 2; // a pair: 2 units, 4 bytes
      i++;
    } else n += 2; // 3 bytes (a lone surrogate becomes U+FFFD)
  }
  return n;
}

class Wasip1 {
  constructor(instance) {
    const x = trapping(instance.exports);
    this.x = x;
    this.memory = x.memory;
    this.lite = typeof x.encode === 'function';
    this.kind = this.lite ? 'lite' : 'wasip1';
    this.buf = 0; // the scratch buffer texts are written into
    this.cap = 0;
    this.view = null; // Uint8Array over the scratch buffer
    this.ops = new Map(); // operation name → its bytes in the module
  }

  bytes() {
    return new Uint8Array(this.memory.buffer);
  }

  memoryBytes() {
    return this.memory.buffer.byteLength;
  }

  fail(status) {
    const packed = this.x.last_error();
    if (packed === 0n) return new TokenfitError(STATUS[-status] || 'internal', `tokenfit: status ${status}`);
    return fromAnswer(JSON.parse(this.take(packed)));
  }

  // take reads a packed buffer as text and frees it.
  take(packed) {
    const p = Number(packed >> 32n);
    const n = Number(packed & 0xffffffffn);
    const s = decoder.decode(this.bytes().subarray(p, p + n));
    this.x.free(p);
    return s;
  }

  alloc(n) {
    const p = this.x.alloc(n);
    if (p === 0) throw this.fail(-2);
    return p;
  }

  grow(need) {
    if (need > MAX_BYTES) {
      throw new TokenfitError('invalid_argument', `tokenfit: the text is ${need} bytes of UTF-8; the module takes at most ${MAX_BYTES} (1 GiB) at a time: split it`);
    }
    if (this.buf) this.x.free(this.buf);
    this.buf = 0; // alloc may fail
    this.cap = Math.max(need, 4096);
    this.buf = this.alloc(this.cap);
    this.view = null;
  }

  // put writes text into the scratch buffer and returns its length in bytes.
  put(text) {
    const len = text.length;
    if (len === 0) return 0;
    if (len * 3 > this.cap) this.grow(len <= BIG ? len * 3 : utf8Length(text));
    if (this.view === null || this.view.buffer !== this.memory.buffer) {
      this.view = new Uint8Array(this.memory.buffer, this.buf, this.cap);
    }
    return encoder.encodeInto(text, this.view).written;
  }

  // shrink drops a scratch buffer a huge text left behind.
  shrink() {
    if (this.cap > BIG) {
      this.x.free(this.buf);
      this.buf = this.cap = 0;
      this.view = null;
    }
  }

  loadTable(bytes, index) {
    const p = this.alloc(bytes.length);
    this.bytes().set(bytes, p);
    let h;
    if (index && this.x.load_indexed) {
      // The prebuilt index: the module copies its look-up structures in
      // instead of building them (wasm/ABI.md, load_indexed).
      const q = this.alloc(index.length);
      this.bytes().set(index, q);
      h = this.x.load_indexed(p, bytes.length, q, index.length);
      this.x.free(q);
    } else {
      h = this.x.load_table(p, bytes.length);
    }
    this.x.free(p);
    if (h < 0) throw this.fail(h);
    return h;
  }

  count(h, text) {
    const n = this.put(text);
    const c = this.x.count(h, this.buf, n);
    if (n > BIG) this.shrink();
    if (c < 0) throw this.fail(c);
    return c;
  }

  call(op, json) {
    let o = this.ops.get(op);
    if (!o) {
      const b = encoder.encode(op);
      o = { p: this.alloc(Math.max(b.length, 1)), n: b.length };
      this.bytes().set(b, o.p);
      this.ops.set(op, o);
    }
    const n = this.put(json);
    const packed = this.x.call(o.p, o.n, this.buf, n);
    if (n > BIG) this.shrink();
    if (packed === 0n) throw this.fail(-1);
    return this.take(packed);
  }

  // The lean module's direct exports.

  encode(h, text) {
    const n = this.put(text);
    const packed = this.x.encode(h, this.buf, n);
    if (packed === 0n) throw this.fail(-1);
    const p = Number(packed >> 32n);
    const len = Number(packed & 0xffffffffn);
    const ids = new Uint32Array(len / 4);
    new Uint8Array(ids.buffer).set(this.bytes().subarray(p, p + len));
    this.x.free(p);
    if (n > BIG) this.shrink();
    return ids;
  }

  decode(h, ids, checked) {
    const len = ids.length * 4;
    if (len > this.cap) this.grow(len);
    new Uint32Array(this.memory.buffer, this.buf, ids.length).set(ids); // the scratch buffer is 8-aligned
    const valid = checked ? this.x.decode_valid(h, this.buf, len) : 1;
    if (valid < 0) throw this.fail(valid);
    const packed = this.x.decode(h, this.buf, len);
    if (packed === 0n) throw this.fail(-1);
    const text = this.take(packed);
    return checked ? { text, valid: valid === 1 } : text;
  }

  within(h, text, limit) {
    const n = this.put(text);
    const c = this.x.within_limit(h, this.buf, n, limit);
    if (n > BIG) this.shrink();
    if (c < 0) throw this.fail(c);
    return c;
  }

  truncate(h, text, max, fromEnd) {
    const n = this.put(text);
    const r = this.x.truncate(h, this.buf, n, max, fromEnd ? 1 : 0);
    if (r < 0n) throw this.fail(Number(r));
    const kept = Number(r >> 32n);
    const tokens = Number(r & 0xffffffffn);
    let out = text;
    if (kept < n) {
      const b = this.bytes();
      out = fromEnd ? decoder.decode(b.subarray(this.buf + n - kept, this.buf + n)) : decoder.decode(b.subarray(this.buf, this.buf + kept));
    }
    if (n > BIG) this.shrink();
    return { text: out, tokens, truncated: kept < n };
  }

  liveNew(h) {
    const id = this.x.live_new(h);
    if (id < 0) throw this.fail(id);
    return id;
  }

  liveEdit(id, at, del, ins) {
    const n = this.put(ins);
    const c = this.x.live_edit(id, at, del, this.buf, n);
    if (c < 0) throw this.fail(c);
    return c;
  }

  liveReset(id, text) {
    const n = this.put(text);
    const c = this.x.live_reset(id, this.buf, n);
    if (n > BIG) this.shrink();
    if (c < 0) throw this.fail(c);
    return c;
  }

  liveText(id) {
    const packed = this.x.live_text(id);
    if (packed === 0n) throw this.fail(-1);
    return this.take(packed);
  }

  liveFree(id) {
    this.x.live_free(id);
  }
}

async function startWasip1(module, sync) {
  const shim = wasiShim();
  const instance = sync ? new WebAssembly.Instance(module, shim.imports) : await WebAssembly.instantiate(module, shim.imports);
  shim.setMemory(instance.exports.memory);
  instance.exports._initialize();
  const v = instance.exports.abi_version();
  if (v !== ABI_VERSION) {
    throw new TokenfitError('invalid_argument', `tokenfit: the module speaks ABI ${v}, this package ${ABI_VERSION}: use the tokenfit.wasm that came with this package`);
  }
  const be = new Wasip1(instance);
  // The scratch buffer comes first: counting texts that fit it then never
  // allocates in the module, and a first count after loading a table does
  // not pay for the collection that loading has made due.
  be.grow(SCRATCH);
  return be;
}

// ---- the GOOS=js module -------------------------------------------------

class GoJS {
  constructor(api, memory) {
    this.api = trapping(api);
    this.memory = memory;
    this.kind = 'js';
    this.lite = false;
  }

  memoryBytes() {
    return this.memory ? this.memory.buffer.byteLength : 0;
  }

  loadTable(bytes) {
    const a = JSON.parse(this.api.loadTable(bytes));
    if (a.error) throw fromAnswer(a);
    return a.encoding; // names are the handles here
  }

  count(name, text) {
    const n = this.api.count(name, text);
    if (n < 0) throw fromAnswer(JSON.parse(this.api.lastError()));
    return n;
  }

  call(op, json) {
    return this.api.call(op, json);
  }
}

async function startGoJS(module) {
  const Go = globalThis.Go;
  if (typeof Go !== 'function') {
    throw new TokenfitError('invalid_argument',
      'tokenfit: this is the GOOS=js module, which needs Go\'s wasm_exec.js: load it first (it defines globalThis.Go), or use tokenfit.wasm');
  }
  const go = new Go();
  const instance = await WebAssembly.instantiate(module, go.importObject);
  go.run(instance); // not awaited: main registers the API, then waits forever
  const api = globalThis.__tokenfit;
  if (!api || api.abiVersion !== ABI_VERSION) {
    throw new TokenfitError('invalid_argument', 'tokenfit: the GOOS=js module did not register its API (ABI 1)');
  }
  return new GoJS(api, instance.exports.mem);
}

// ---- an instance --------------------------------------------------------

const registry = typeof FinalizationRegistry === 'function'
  ? new FinalizationRegistry((release) => release())
  : null;

function notLoadedError(name, fn) {
  return new TokenfitError('encoding_not_loaded',
    `tokenfit: ${fn}: the encoding ${name} is not loaded: call \`await tf.loadEncoding('${name}')\` first, ` +
    `or pass { encodings: ['${name}'] } to init()`);
}

function fullOnly(fn) {
  return new TokenfitError('unknown_operation',
    `tokenfit: ${fn} needs the full module, and this instance runs the lean one (tokenfit-lite.wasm, counting only): ` +
    'call init() without `lite` (or pass tokenfit.wasm as `module`)');
}

// makeInstance builds the API over a started module. Every function is a
// closure, so it keeps working when destructured.
function makeInstance(be, platform, tables) {
  const handles = new Map(); // encoding name → handle (GOOS=js: the name)
  const models = new Map(); // model → encoding name, for exact models
  let dead = null;

  // guard runs fn; a Trap (the module failed: it never should, bad input is
  // an error answer, see wasm/ABI.md) ends the instance, and every later
  // call says so. Any other exception leaves it working.
  const guard = (fn) => {
    if (dead) throw dead;
    try {
      return fn();
    } catch (e) {
      if (!(e instanceof Trap)) throw e;
      dead = new TokenfitError('internal',
        `tokenfit: the WebAssembly instance failed (${e.message}) and cannot answer any more: start another with \`await init(…)\``);
      dead.cause = e.cause;
      throw dead;
    }
  };

  // load loads a table and records its handle under the name the table
  // carries (read from its header here: asking the module would allocate,
  // and the first allocation after a load costs a garbage collection).
  const load = (bytes, index) => {
    const tkt = expandTable(bytes);
    const h = be.loadTable(tkt, index);
    const name = be.kind === 'js' ? h : tableName(tkt);
    if (name) handles.set(name, h);
    return h;
  };

  // handleOf returns the handle of a known encoding, loading its table from
  // disk when the platform can (Node), else throwing what to call.
  const handleOf = (name, fn) => {
    const h = handles.get(name);
    if (h !== undefined) return h;
    if (!ENCODINGS.includes(name)) {
      throw new TokenfitError('unknown_encoding', `tokenfit: ${fn}: unknown encoding "${name}" (known: ${ENCODINGS.join(', ')})`);
    }
    const bytes = platform.readSync && platform.readSync(tables(name));
    if (!bytes) throw notLoadedError(name, fn);
    load(bytes, platform.readIndexSync && platform.readIndexSync(name));
    return handles.get(name);
  };

  // call runs one JSON operation, loading encodings it finds missing.
  const call = (op, request, fn = op) => {
    if (be.lite) throw fullOnly(fn);
    const json = toJSON(fn, request);
    for (let tries = 0; ; tries++) {
      const answer = JSON.parse(be.call(op, json));
      if (!answer || !answer.error) return answer;
      const e = answer.error;
      const m = e.code === 'encoding_not_loaded' && /encoding not loaded: ([a-z0-9_]+)/.exec(e.message);
      if (m && tries < ENCODINGS.length && !handles.has(m[1])) {
        handleOf(m[1], fn);
        continue;
      }
      throw fromAnswer(answer);
    }
  };

  // fast returns the handle that answers target without JSON, or undefined
  // when the JSON path must (a model not seen yet, a heuristic, a
  // calibration).
  const fast = (fn, target) => {
    if (target == null) return handleOf(DEFAULT_ENCODING, fn);
    checkTarget(fn, target);
    if (target.calibration != null) {
      if (be.lite) throw fullOnly(`${fn} with a calibration`);
      return undefined;
    }
    if (target.encoding !== undefined && target.encoding !== '') {
      if (ENCODINGS.includes(target.encoding) || be.lite) return handleOf(target.encoding, fn);
      return undefined; // a heuristic such as chars4: core knows
    }
    if (target.model !== undefined && target.model !== '') {
      if (be.lite) {
        throw new TokenfitError('invalid_request',
          `tokenfit: ${fn}: the lean module counts by encoding, and knows no models: pass { encoding: 'o200k_base' } (or another), or use the full module for { model }`, 'model');
      }
      const name = models.get(target.model);
      return name === undefined ? undefined : handleOf(name, fn);
    }
    return handleOf(DEFAULT_ENCODING, fn);
  };

  // learn remembers the encoding of an exact model from a JSON answer.
  const learn = (target, answer) => {
    if (target && target.model && !target.encoding && target.calibration == null && answer.exact && ENCODINGS.includes(answer.encoding)) {
      models.set(target.model, answer.encoding);
    }
  };

  const counted = (target, name) => {
    const c = { encoding: name, exact: true };
    if (target && target.model) c.model = target.model;
    return c;
  };
  const nameOf = (target) => (target && target.encoding) || models.get(target && target.model) || DEFAULT_ENCODING;

  const countTokens = (text, target) => guard(() => {
    checkString('countTokens', 'text', text);
    const h = fast('countTokens', target);
    if (h !== undefined) return be.count(h, text);
    const a = call('countTokens', { ...target, text }, 'countTokens');
    learn(target, a);
    return a.tokens;
  });

  const encode = (text, target) => guard(() => {
    checkString('encode', 'text', text);
    if (be.lite) return Array.from(be.encode(fast('encode', target), text));
    checkTarget('encode', target);
    return call('encode', { ...target, text }).ids;
  });

  // With { valid: true } as options: { text, valid }, valid false when
  // the ids end (or start) inside a character, for streaming decoders.
  const decode = (ids, target, options) => guard(() => {
    if (!tokenIds(ids)) throw badArg('decode', 'ids must be an array of token ids (integers ≥ 0)', ids);
    const checked = !!(options && options.valid);
    if (be.lite) return be.decode(fast('decode', target), ids, checked);
    checkTarget('decode', target);
    const a = call('decode', { ...target, ids: Array.from(ids) });
    return checked ? { text: a.text, valid: a.valid } : a.text;
  });

  const withinLimit = (text, limit, target) => guard(() => {
    checkString('withinLimit', 'text', text);
    checkCount('withinLimit', 'limit', limit);
    if (be.lite) {
      const h = fast('withinLimit', target);
      const tokens = be.within(h, text, limit);
      return { within: tokens <= limit, tokens, ...counted(target, nameOf(target)) };
    }
    checkTarget('withinLimit', target);
    return call('withinLimit', { ...target, text, limit });
  });

  const truncate = (text, maxTokens, options) => guard(() => {
    checkString('truncate', 'text', text);
    checkCount('truncate', 'maxTokens', maxTokens);
    checkTarget('truncate', options);
    const keep = options && options.keep;
    if (keep !== undefined && keep !== 'start' && keep !== 'end') throw badArg('truncate', 'keep must be "start" or "end"', keep);
    if (be.lite) {
      const h = fast('truncate', options);
      return { ...be.truncate(h, text, maxTokens, keep === 'end'), ...counted(options, nameOf(options)) };
    }
    return call('truncate', { ...options, text, maxTokens });
  });

  const chunk = (text, maxTokens, options) => guard(() => {
    checkString('chunk', 'text', text);
    checkCount('chunk', 'maxTokens', maxTokens);
    checkTarget('chunk', options);
    return call('chunk', { ...options, text, maxTokens });
  });

  const request = (fn, op = fn) => (req) => guard(() => {
    checkObject(fn, 'the request', req);
    return call(op, req, fn);
  });

  const models_ = (req) => guard(() => {
    checkObject('models', 'the request', req, true);
    return call('models', req || {}, 'models');
  });

  const registerModels = (reg) => guard(() => {
    if (typeof reg !== 'string') checkObject('registerModels', 'the registry', reg);
    const a = call('registerModels', reg, 'registerModels');
    models.clear(); // a model may now mean another encoding
    return a;
  });

  const encodings = () => guard(() => {
    if (be.lite || be.kind === 'js') return ENCODINGS.map((name) => ({ name, loaded: handles.has(name) }));
    return call('encodings', {}).encodings;
  });

  const version = () => guard(() => call('version', {}).version);

  const liveCounter = (target, text = '') => guard(() => {
    checkString('liveCounter', 'text', text);
    let id;
    let name;
    let tokens;
    let live = true;
    let shadow; // the text as update() last saw it, when known
    if (be.lite) {
      const h = fast('liveCounter', target);
      name = nameOf(target);
      id = be.liveNew(h);
      tokens = be.liveReset(id, text);
    } else {
      checkTarget('liveCounter', target);
      if (target == null || (!target.encoding && !target.model)) handleOf(DEFAULT_ENCODING, 'liveCounter');
      const a = call('liveNew', { ...target, text }, 'liveCounter');
      id = a.id;
      name = a.encoding;
      tokens = a.tokens;
    }
    shadow = text;
    const release = () => {
      if (dead) return;
      try {
        if (be.lite) be.liveFree(id);
        else be.call('liveFree', JSON.stringify({ id }));
      } catch {
        // the instance is gone; so is the counter
      }
    };
    const token = {};
    const alive = (fn) => {
      if (!live) throw new TokenfitError('invalid_handle', `tokenfit: liveCounter.${fn}: this counter was disposed: make a new one with tf.liveCounter()`);
    };
    function edit(at, deleteCount = 0, insert = '') {
      return guard(() => {
        alive('edit');
        checkCount('liveCounter.edit', 'at', at);
        checkCount('liveCounter.edit', 'deleteCount', deleteCount);
        checkString('liveCounter.edit', 'insert', insert);
        shadow = undefined;
        tokens = be.lite ? be.liveEdit(id, at, deleteCount, insert) : call('liveEdit', { id, at, delete: deleteCount, insert }, 'liveCounter.edit').tokens;
        return tokens;
      });
    }
    function reset(newText) {
      return guard(() => {
        alive('reset');
        checkString('liveCounter.reset', 'text', newText);
        tokens = be.lite ? be.liveReset(id, newText) : call('liveGet', { id, text: newText }, 'liveCounter.reset').tokens;
        shadow = newText;
        return tokens;
      });
    }
    function getText() {
      return guard(() => {
        alive('text');
        return be.lite ? be.liveText(id) : call('liveGet', { id }, 'liveCounter.text').text;
      });
    }
    function update(newText) {
      return guard(() => {
        alive('update');
        checkString('liveCounter.update', 'text', newText);
        const old = shadow !== undefined ? shadow : getText();
        let start = 0;
        const max = Math.min(old.length, newText.length);
        while (start < max && old.charCodeAt(start) === newText.charCodeAt(start)) start++;
        let end = 0;
        while (end < max - start && old.charCodeAt(old.length - 1 - end) === newText.charCodeAt(newText.length - 1 - end)) end++;
        // Never cut between the halves of a surrogate pair.
        if (start > 0 && (old.charCodeAt(start - 1) & 0xfc00) === 0xd800) start--;
        if (end > 0 && (old.charCodeAt(old.length - end) & 0xfc00) === 0xdc00) end--;
        if (start !== old.length - end || start !== newText.length - end) {
          edit(start, old.length - end - start, newText.slice(start, newText.length - end));
        }
        shadow = newText;
        return tokens;
      });
    }
    function dispose() {
      if (!live) return;
      live = false;
      if (registry) registry.unregister(token);
      release();
    }
    const counter = {
      encoding: name,
      edit,
      update,
      reset,
      text: getText,
      count: () => {
        alive('count');
        return tokens;
      },
      dispose,
    };
    if (typeof Symbol.dispose === 'symbol') counter[Symbol.dispose] = dispose;
    if (registry) registry.register(counter, release, token);
    return Object.freeze(counter);
  });

  const loadEncoding = async (name, source) => {
    if (dead) throw dead;
    checkString('loadEncoding', 'the encoding name', name);
    if (!ENCODINGS.includes(name)) {
      throw new TokenfitError('unknown_encoding', `tokenfit: loadEncoding: unknown encoding ${JSON.stringify(name.slice(0, 40))} (known: ${ENCODINGS.join(', ')})`);
    }
    checkSource('loadEncoding', source);
    if (handles.has(name)) return;
    const bytes = await fetchBytes(platform, source !== undefined ? source : tables(name), `the table of ${name}`);
    guard(() => {
      load(bytes);
      if (!handles.has(name)) {
        throw new TokenfitError('invalid_table', `tokenfit: loadEncoding: the table given for ${name} holds another encoding`);
      }
    });
  };

  return Object.freeze({
    module: be.kind,
    countTokens,
    countChat: request('countChat'),
    calculateBudget: request('calculateBudget'),
    planInjection: request('planInjection'),
    encode,
    decode,
    withinLimit,
    truncate,
    chunk,
    calibrate: request('calibrate'),
    models: models_,
    registerModels,
    encodings,
    version,
    liveCounter,
    loadEncoding,
    memoryBytes: () => be.memoryBytes(),
    call: (op, req) => guard(() => {
      checkString('call', 'op', op);
      return call(op, req);
    }),
  });
}

// ---- init and the default instance --------------------------------------

let first = null; // the first instance made: the one the top-level functions use
const memo = new Map(); // platform → the promise of init() without options

/**
 * makeInit returns init for a platform: how it reads a URL (and, in Node,
 * how it reads a table synchronously).
 * @param {{ name: string, base(): string | URL, read(url: URL, what: string): Promise<Uint8Array>, open(url: URL, what: string): Promise<Response | Uint8Array>, readSync?: (url: URL) => Uint8Array | undefined, preload: string[] }} platform
 */
export function makeInit(platform) {
  return function init(options) {
    if (options === undefined) {
      if (!memo.has(platform)) {
        const p = start(platform, {});
        memo.set(platform, p);
        p.catch(() => memo.delete(platform));
      }
      return memo.get(platform);
    }
    return start(platform, options);
  };
}

async function start(platform, options) {
  checkObject('init', 'the options', options);
  const { lite = false, encodings, tables: base } = options;
  let src = options.module;
  if (src === undefined || src === null) src = lite ? defaultLiteURL() : defaultModuleURL();
  const tables = (name) => (base !== undefined ? new URL(`${name}${platform.tableExt}`, new URL(base, platform.base())) : platform.tableURL(name));

  const module = await compile(platform, src);
  const imports = WebAssembly.Module.imports(module).map((i) => i.module);
  const be = imports.includes('gojs') ? await startGoJS(module) : await startWasip1(module, platform.syncCompile);
  const tf = makeInstance(be, platform, tables);

  let preload = encodings;
  if (preload === undefined) preload = platform.preload;
  if (Array.isArray(preload)) {
    await Promise.all(preload.map((name) => tf.loadEncoding(name)));
  } else {
    checkObject('init', 'encodings', preload);
    await Promise.all(Object.entries(preload).map(([name, s]) => tf.loadEncoding(name, s)));
  }
  if (!first) first = tf;
  return tf;
}

// The package's own files, found beside this one (bundlers that understand
// new URL(…, import.meta.url) copy them).
function defaultModuleURL() {
  return new URL('../dist/tokenfit.wasm', import.meta.url);
}
function defaultLiteURL() {
  return new URL('../dist/tokenfit-lite.wasm', import.meta.url);
}
function defaultTableURL(name) {
  return new URL(`../dist/tables/${name}.tkp`, import.meta.url);
}

/** The platform of browsers and edge runtimes: fetch, and nothing synchronous. */
export const webPlatform = {
  name: 'web',
  base: () => (typeof location !== 'undefined' ? location.href : import.meta.url),
  async open(url, what) {
    const r = await fetch(url);
    if (!r.ok) throw new TokenfitError('invalid_argument', `tokenfit: ${what}: HTTP ${r.status} for ${url}`);
    return r;
  },
  async read(url, what) {
    return new Uint8Array(await (await this.open(url, what)).arrayBuffer());
  },
  preload: [DEFAULT_ENCODING],
  // Downloads take the transport form (27% less gzip); see expandTable.
  tableExt: '.tkp',
  tableURL: defaultTableURL,
};

function current(fn) {
  if (first) return first;
  throw new TokenfitError('not_initialized',
    `tokenfit: ${fn}() was called before init(): call \`await init()\` once first ` +
    '(in a browser or at the edge: `await init({ module })`, see the README)');
}

// The top-level functions: the first instance's, once init() has made one.
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
export const loadEncoding = (name, source) => current('loadEncoding').loadEncoding(name, source);
