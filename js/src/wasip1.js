// The wasip1 reactors, full (tokenfit.wasm) and lean (tokenfit-lite.wasm):
// the module's memory, the scratch buffer texts are written into, and one
// method per export. The full module answers through call (JSON); the lean
// one has direct exports instead (encode, decode, within_limit, truncate,
// live_*). full.js and lean.js build an instance's operations on these.

import { wasiShim } from './wasi.js';
import { TokenfitError, trapping, bounded, fromAnswer, statusError } from './errors.js';
import { MAX_BYTES, tooLong } from './args.js';
import { partEnd, utf8Length } from './utf8.js';
import { expandTable, isPacked } from './table.js';
import { memoryImage } from './load.js';

export const ABI_VERSION = 1;
const BIG = 1 << 24; // texts longer than this are measured exactly before they are copied
const SCRATCH = 64 << 10; // the text buffer a module starts with (texts up to 21,845 UTF-16 units)
// Streaming (wasm/ABI.md, stream_new): a count of a text longer than
// STREAM_COUNT UTF-16 units, or a check against a limit of one longer than
// STREAM_LIMIT, writes it to a stream counter in parts, so that it is never
// copied in whole: a part is at most PART units (768 KB of UTF-8), and a
// check starts with parts of FIRST units, doubling, so that it reads about
// as much text as its limit covers.
const STREAM_COUNT = 1 << 20;
const STREAM_LIMIT = 1 << 16;
const PART = 1 << 18;
const FIRST = 1 << 14;
const NO_LIMIT = 0x7fffffff;

const encoder = new TextEncoder();
// ignoreBOM: a text that starts with U+FEFF must come back with it.
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

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
    this.streaming = typeof x.stream_new === 'function'; // a module built before them has none
    this.encodings = new Set(); // the handles of built-in encodings (load_table's), which stream
    this.loadsBytes = typeof x.load_tokenizer === 'function'; // a module built before it has none
    this.imaged = new Map(); // encoding name → handle, of the encodings its memory image held loaded
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
    if (need > MAX_BYTES) throw tooLong();
    if (this.buf) this.x.free(this.buf);
    this.buf = 0; // alloc may fail
    this.cap = Math.max(need, 4096);
    this.buf = this.alloc(this.cap);
    this.view = null;
  }

  // put writes text into the scratch buffer and returns its length in bytes.
  // Its length decides most texts: a UTF-16 unit is 1 to 3 bytes of UTF-8,
  // so a text of more than 1 GiB units is refused at once, and only one of
  // a third of that to 1 GiB units is measured (to 1 GiB and no further).
  put(text) {
    const len = text.length;
    if (len === 0) return 0;
    if (len * 3 > this.cap) this.grow(len <= BIG ? len * 3 : len > MAX_BYTES ? len : utf8Length(text, MAX_BYTES));
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

  // loadTable loads a .tkt (with its index, if any) or a .tkp: the module
  // expands a .tkp itself (load_packed), so its bytes are copied in once
  // and the table written once, inside; a module built before load_packed
  // gets it expanded here.
  loadTable(bytes, index) {
    const packed = isPacked(bytes) && typeof this.x.load_packed === 'function';
    if (isPacked(bytes) && !packed) bytes = expandTable(bytes);
    const p = this.alloc(bytes.length);
    this.bytes().set(bytes, p);
    let h;
    if (packed) {
      h = this.x.load_packed(p, bytes.length);
    } else if (index && this.x.load_indexed) {
      // The prebuilt index: the module uses its look-up structures in place
      // instead of building them, and keeps both buffers once it has loaded
      // them (wasm/ABI.md, load_indexed: freeing them is harmless).
      const q = this.alloc(index.length);
      this.bytes().set(index, q);
      h = this.x.load_indexed(p, bytes.length, q, index.length);
      this.x.free(q);
    } else {
      h = this.x.load_table(p, bytes.length);
    }
    this.x.free(p);
    if (h < 0) throw this.fail(h);
    this.encodings.add(h);
    return h;
  }

  // loadTokenizer loads a tokenizer.json's bytes (or its compact table's)
  // under name through load_tokenizer (wasm/ABI.md): no base64 and no JSON
  // request. The answer, parsed (an error answer too), as call's.
  loadTokenizer(name, bytes) {
    const p = this.alloc(bytes.length);
    let packed;
    try {
      this.bytes().set(bytes, p);
      const n = this.put(name);
      packed = this.x.load_tokenizer(this.buf, n, p, bytes.length);
    } finally {
      this.x.free(p);
    }
    if (packed === 0n) throw this.fail(-1);
    return JSON.parse(this.take(packed));
  }

  // loadRead loads a .tkt and its index that readTable and readIndex read
  // straight into buffers of the module (each given place(size), which
  // returns a view of a new buffer), so that their bytes are written once;
  // check(tkt) may refuse the table before its index is read. undefined
  // when readTable finds no table; without an index, load_table. A module
  // that has loaded the pair keeps both buffers (load_indexed): the frees
  // below then do nothing.
  loadRead(readTable, readIndex, check) {
    let p = 0;
    let q = 0;
    // A view taken after alloc, which may grow (and so detach) the memory.
    const place = (n, set) => {
      const at = this.alloc(n);
      set(at);
      return new Uint8Array(this.memory.buffer, at, n);
    };
    try {
      const tkt = readTable((n) => place(n, (at) => { p = at; }));
      if (!tkt) return undefined;
      check(tkt);
      const n = tkt.length;
      // alloc may grow the memory: the table's view is not used after it.
      const idx = this.x.load_indexed ? readIndex((m) => place(m, (at) => { q = at; })) : undefined;
      const h = idx ? this.x.load_indexed(p, n, q, idx.length) : this.x.load_table(p, n);
      if (h < 0) throw this.fail(h);
      this.encodings.add(h);
      return h;
    } finally {
      if (p) this.x.free(p);
      if (q) this.x.free(q);
    }
  }

  // encodingHandle returns the handle of an encoding, or of a tokenizer
  // loaded under the name (which counts with the name's latest load).
  encodingHandle(name) {
    const n = this.put(name);
    const h = this.x.encoding_handle(this.buf, n);
    if (h < 0) throw this.fail(h);
    return h;
  }

  // streamable reports whether text, longer than min UTF-16 units, is
  // streamed with the handle h (a built-in encoding's).
  streamable(h, text, min) {
    return this.streaming && text.length > min && this.encodings.has(h);
  }

  // streamsWithin reports whether a check of text against a limit is
  // streamed when it counts with a built-in encoding.
  streamsWithin(text) {
    return this.streaming && text.length > STREAM_LIMIT;
  }

  // stream writes text in parts to a stream counter with the built-in
  // encoding h that stops once the count passes limit, and returns the
  // count: exact when the text has at most limit tokens, else the count
  // above limit where the module stopped (within_limit's answer for the
  // whole text). Every part's UTF-8 is that part of the whole text's
  // (partEnd); the stream counter makes the count the whole text's,
  // wherever the parts end.
  stream(h, text, limit) {
    const id = this.x.stream_new(h, limit);
    if (id < 0) throw this.fail(id);
    let open = true;
    try {
      let part = limit === NO_LIMIT ? PART : FIRST;
      for (let i = 0; i < text.length;) {
        const j = partEnd(text, i, part);
        const n = this.put(text.substring(i, j));
        const st = this.x.stream_write(id, this.buf, n);
        if (st < 0) {
          open = false; // a refused write ends the stream counter
          throw this.fail(st);
        }
        if (st === 1) break; // over the limit: the rest changes nothing
        i = j;
        part = Math.min(2 * part, PART);
      }
      open = false;
      const c = this.x.stream_end(id);
      if (c < 0) throw this.fail(c);
      return c;
    } catch (e) {
      if (open && e instanceof TokenfitError) this.x.stream_end(id); // refused: the module still answers
      throw e;
    }
  }

  count(h, text) {
    if (this.streamable(h, text, STREAM_COUNT)) return this.stream(h, text, NO_LIMIT);
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
    if (this.streamable(h, text, STREAM_LIMIT)) return this.stream(h, text, limit);
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

// startWasip1 starts module; image (by default the one the module was read
// with: load.js memoryImage; null for none) writes a memory image into its
// memory first and returns the encodings it holds loaded.
export async function startWasip1(module, sync, random, image = memoryImage(module)) {
  const shim = wasiShim({ random });
  const instance = sync ? new WebAssembly.Instance(module, shim.imports) : await WebAssembly.instantiate(module, shim.imports);
  shim.setMemory(instance.exports.memory);
  const holds = image ? image(instance.exports.memory) : [];
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
  // A loaded image's encodings: their handles, for encodings.js.
  for (const name of holds) {
    const h = be.encodingHandle(name);
    be.encodings.add(h);
    be.imaged.set(name, h);
  }
  return be;
}

