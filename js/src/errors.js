// The errors of tokenfit: TokenfitError and its codes, how the module's
// error answers become one, and the Trap that ends an instance.

/** An error from tokenfit, with a stable code (see index.d.ts). */
export class TokenfitError extends Error {
  constructor(code, message, field) {
    super(message);
    this.name = 'TokenfitError';
    this.code = code;
    if (field) this.field = field;
  }
}

// STATUS names the negative statuses of the module's integer-returning
// exports (wasm/ABI.md): STATUS[-status] is the code. A copy of the one
// table, core/engine's Codes, held to it by wasm/errorcodes_test.go (as
// are index.d.ts's ErrorCode and every code thrown here).
const STATUS = [null, 'internal', 'invalid_argument', 'invalid_handle', 'invalid_table', 'unknown_encoding',
  'encoding_not_loaded', 'invalid_request', 'invalid_token', 'unknown_operation', 'unsupported_tokenizer',
  'too_large'];

/** statusError is the error of a status with no error answer recorded. */
export function statusError(status) {
  return new TokenfitError(STATUS[-status] || 'internal', `tokenfit: status ${status}`);
}

/** fromAnswer turns the module's {"error": {...}} answer into a TokenfitError. */
export function fromAnswer(answer) {
  const e = answer && answer.error;
  if (!e) return new TokenfitError('internal', `tokenfit: unexpected answer ${JSON.stringify(answer)}`);
  return new TokenfitError(e.code || 'internal', e.message || e.code, e.field);
}

// Refused is what a memory image's function throws when the image, written
// into memory, is not the one it says it is (image.js: cut short, or its
// pages do not give its digest): the start is made again from the module
// read whole (load.js, startImaged), never from a damaged image.
export class Refused extends Error {}

export function notLoadedError(name, fn) {
  return new TokenfitError('encoding_not_loaded',
    `tokenfit: ${fn}: the encoding ${name} is not loaded: call \`await tf.loadEncoding('${name}')\` first, ` +
    `or pass { encodings: ['${name}'] } to init()`);
}

export function fullOnly(fn) {
  return new TokenfitError('unknown_operation',
    `tokenfit: ${fn} needs the full module, and this instance runs the lean one (tokenfit-lite.wasm, counting only): ` +
    'call init() without `lite` (or pass tokenfit.wasm as `module`)');
}

// Trap is what an exported function of a module threw (a trap, a stack
// overflow, an exit of Go's runtime), or anything but a TokenfitError the
// wrapper's own boundary code threw (a RangeError from a view it built
// wrong): either way the instance's state can no longer be trusted, and it
// cannot answer after one.
export class Trap extends Error {
  constructor(cause) {
    super(cause && cause.message);
    this.name = 'Trap';
    this.cause = cause;
  }
}

// bounded wraps every method of a backend (wasip1.js, gojs.js) so that
// anything it throws but a TokenfitError (a refusal that left it as it was)
// is a Trap: a RangeError from a view over the wrong bytes, a SyntaxError
// from an answer read from the wrong place. The instance then ends, saying
// so as a TokenfitError, instead of answering wrongly or throwing a
// RangeError on every later call.
export function bounded(be) {
  for (const name of Object.getOwnPropertyNames(Object.getPrototypeOf(be))) {
    const f = be[name];
    if (name === 'constructor' || typeof f !== 'function') continue;
    be[name] = (...args) => {
      try {
        return f.apply(be, args);
      } catch (e) {
        if (e instanceof TokenfitError || e instanceof Trap) throw e;
        throw new Trap(e);
      }
    };
  }
  return be;
}

// trapping returns a module's exports with each function turning what it
// throws into a Trap. Only the module's own failures end an instance: an
// exception from the wrapper (a RangeError while writing a request) or
// from the caller's code (a getter) does not. Costs nanoseconds a call.
export function trapping(exports) {
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
