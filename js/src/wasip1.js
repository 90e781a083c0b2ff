// The wasip1 reactors, full (tokenfit.wasm) and lean (tokenfit-lite.wasm):
// the module's memory, the scratch buffer texts are written into, and one
// method per export. The full module answers through call (JSON); the lean
// one has direct exports instead (encode, decode, within_limit, truncate,
// live_*). full.js and lean.js build an instance's operations on these.

import { wasiShim } from './wasi.js';
import { TokenfitError, trapping, bounded, fromAnswer, statusError } from './errors.js';

export const ABI_VERSION = 1;
const MAX_BYTES = 1 << 30; // the module's largest buffer (wasm/ABI.md)
const BIG = 1 << 24; // texts longer than this are measured exactly before they are copied
const SCRATCH = 64 << 10; // the text buffer a module starts with (texts up to 21,845 UTF-16 units)

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

/**
 * unpack splits a packed i64 answer, as JavaScript receives it (a signed
 * BigInt), into its address (high half) and length (low half), both
 * unsigned: an address at or above 2 GiB has the sign bit set.
 * @param {bigint} packed
 * @returns {[number, number]}
 */
export function unpack(packed) {
  const u = BigInt.asUintN(64, packed);
  return [Number(u >> 32n), Number(u & 0xffffffffn)];
}

// Every number the module returns as an i32 address is read unsigned
// (>>> 0), every packed i64 through unpack: a module grown past 2 GiB hands
// out addresses with the sign bit set.
export class Wasip1 {
  constructor(instance, shim) {
    const x = trapping(instance.exports);
    this.shim = shim;
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

  // fatal is why Go's runtime died, from its last words ('' if it did not say).
  fatal() {
    return this.shim ? this.shim.fatal() : '';
  }

  fail(status) {
    const packed = this.x.last_error();
    if (packed === 0n) return statusError(status);
    return fromAnswer(JSON.parse(this.take(packed)));
  }

  // take reads a packed buffer as text and frees it.
  take(packed) {
    const [p, n] = unpack(packed);
    const s = decoder.decode(this.bytes().subarray(p, p + n));
    this.x.free(p);
    return s;
  }

  alloc(n) {
    const p = this.x.alloc(n) >>> 0;
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

  // encodingHandle returns the handle of an encoding, or of a tokenizer
  // loaded under the name (which counts with the name's latest load).
  encodingHandle(name) {
    const n = this.put(name);
    const h = this.x.encoding_handle(this.buf, n);
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

  // call runs a JSON operation and returns its answer, parsed.
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
    return JSON.parse(this.take(packed));
  }

  // The lean module's direct exports.

  encode(h, text) {
    const n = this.put(text);
    const packed = this.x.encode(h, this.buf, n);
    if (packed === 0n) throw this.fail(-1);
    const [p, len] = unpack(packed);
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
    const [kept, tokens] = unpack(r);
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

export async function startWasip1(module, sync) {
  const shim = wasiShim();
  const instance = sync ? new WebAssembly.Instance(module, shim.imports) : await WebAssembly.instantiate(module, shim.imports);
  shim.setMemory(instance.exports.memory);
  instance.exports._initialize();
  const v = instance.exports.abi_version();
  if (v !== ABI_VERSION) {
    throw new TokenfitError('invalid_argument', `tokenfit: the module speaks ABI ${v}, this package ${ABI_VERSION}: use the tokenfit.wasm that came with this package`);
  }
  const be = bounded(new Wasip1(instance, shim));
  // The scratch buffer comes first: counting texts that fit it then never
  // allocates in the module, and a first count after loading a table does
  // not pay for the collection that loading has made due.
  be.grow(SCRATCH);
  return be;
}

