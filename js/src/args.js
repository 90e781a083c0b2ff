// Checking what callers pass: each function's arguments, and requests
// written as JSON. A refusal is an invalid_argument TokenfitError naming the
// function, what it wanted and what it got; nothing here reaches the module.

import { TokenfitError } from './errors.js';
import { utf8Length } from './utf8.js';

// MAX_BYTES is the most UTF-8 one input may have: the module's largest
// buffer (wasm/ABI.md). A text counted with a built-in encoding is streamed
// and may be longer.
export const MAX_BYTES = 2 ** 30;

/** The invalid_argument error of a text over MAX_BYTES. */
export function tooLong(fn) {
  return new TokenfitError('invalid_argument', `tokenfit: ${fn ? `${fn}: ` : ''}the text is more than ${MAX_BYTES} bytes (1 GiB) of UTF-8, the most the module takes at a time: split it`, fn ? 'text' : undefined);
}

// checkSize refuses a text over MAX_BYTES before it is written as JSON:
// at once when its length decides it (a UTF-16 unit is 1 to 3 bytes), else
// after measuring no more of it than MAX_BYTES.
function checkSize(fn, text) {
  if (3 * text.length > MAX_BYTES && utf8Length(text, MAX_BYTES) > MAX_BYTES) throw tooLong(fn);
}

export function describe(v) {
  if (v === null) return 'null';
  if (v === undefined) return 'undefined';
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

export function checkString(fn, name, v) {
  if (typeof v !== 'string') throw badArg(fn, `${name} must be a string`, v);
}

export function checkCount(fn, name, v) {
  if (!Number.isInteger(v) || v < 0 || v > 0x7fffffff) throw badArg(fn, `${name} must be an integer from 0 to 2147483647`, v);
}

export function checkObject(fn, name, v, optional) {
  if (optional && v == null) return;
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw badArg(fn, `${name} must be an object`, v);
}

// checkTokenIds throws invalid_argument unless ids is an array of token
// ids, naming the first element that is not one (field `ids[i]`). A hole
// in a sparse array is not one (every() would skip it; the lean module
// would read it as id 0).
export function checkTokenIds(fn, ids) {
  if (!(Array.isArray(ids) || ids instanceof Uint32Array || ids instanceof Int32Array)) {
    throw badArg(fn, 'ids must be an array of token ids (integers ≥ 0)', ids);
  }
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i];
    if (!Number.isInteger(id) || id < 0 || id > 0xffffffff) {
      throw badArg(fn, `ids[${i}] must be a token id, an integer from 0 to 4294967295`, i in ids ? id : undefined, `ids[${i}]`);
    }
  }
}

// checkTarget validates { encoding?, model?, calibration? }.
export function checkTarget(fn, t) {
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
  if (request !== null && typeof request.text === 'string') checkSize(fn, request.text);
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

