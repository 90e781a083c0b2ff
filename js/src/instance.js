// An instance: the API over a started module. It checks every argument,
// runs the call through the module's operations and turns a failure of the
// module into a dead instance that says so. Every function is a closure, so
// it keeps working when destructured.
//
// The operations are one interface over either kind of module (full.js for
// the full reactor and the GOOS=js module, lean.js for the lean one), each
// taking checked arguments:
//   call(op, request, fn?)           a JSON operation's answer
//   count(text, target)              a count (the fast path where there is one)
//   encode(text, target)             ids
//   decode(ids, target, checked)     text; checked: { text, valid }
//   withinLimit(text, limit, target) { within, tokens, encoding, exact, ... }
//   truncate(text, maxTokens, opts)  { text, tokens, truncated, encoding, exact, ... }
//   registerModels(registry)         the answer
//   encodings()                      [{ name, loaded }]
//   liveNew(target, text)            { id, encoding, tokens }
//   liveEdit(id, at, del, insert), liveReset(id, text) → tokens
//   liveText(id) → text, liveFree(id)
//   loadTokenizer(request)           core's loadTokenizer answer: request is its JSON, or { name, bytes } (tokenizer.js)
// upgrade.js forwards them to the module that answers now, which the first
// loadTokenizer may replace by one with the tokenizer.json loader.

import { TokenfitError, Trap } from './errors.js';
import { badArg, checkCount, checkObject, checkString, checkTarget, checkTokenIds } from './args.js';
import { liveCounter } from './live.js';
import { tokenizerLoader } from './tokenizer.js';
import { upgradable } from './upgrade.js';

/**
 * @param be the started module (wasip1.js, gojs.js)
 * @param platform how the platform reads a URL
 * @param {(name: string) => URL} tables where an encoding's table is
 * @param {Map<string, Promise<Uint8Array>>} [early] table fetches under way (init)
 * @param {() => void} [ended] called once when the instance fails (init lets another take its place)
 * @param {boolean} [auto] be is the lean module of a page's default init(), which moves to the full one when a call needs it (upgrade.js)
 */
export function makeInstance(be, platform, tables, early, ended, auto = false) {
  let dead = null;

  // guard runs fn; a Trap (the module failed: it never should, bad input is
  // an error answer, see wasm/ABI.md; but a module out of memory does)
  // ends the instance, and every later call says so. Any other exception
  // leaves it working.
  const guard = (fn) => {
    if (dead) throw dead;
    try {
      return fn();
    } catch (e) {
      if (!(e instanceof Trap)) throw e;
      const why = be.fatal ? be.fatal() : '';
      dead = new TokenfitError('internal',
        `tokenfit: the WebAssembly instance failed (${why || e.message}) and cannot answer any more: \`await init()\` starts another, which the top-level functions then use`);
      dead.cause = e.cause;
      if (ended) ended();
      throw dead;
    }
  };

  const up = upgradable(be, platform, tables, guard, early, auto);
  const { ops } = up;

  const countTokens = (text, target) => guard(() => {
    checkString('countTokens', 'text', text);
    return ops.count(text, target);
  });

  const encode = (text, target) => guard(() => {
    checkString('encode', 'text', text);
    checkTarget('encode', target);
    return ops.encode(text, target);
  });

  // With { valid: true } as options: { text, valid }, valid false when the
  // ids end (or start) inside a character, for streaming decoders.
  const decode = (ids, target, options) => guard(() => {
    checkTokenIds('decode', ids);
    checkTarget('decode', target);
    return ops.decode(ids, target, !!(options && options.valid));
  });

  const withinLimit = (text, limit, target) => guard(() => {
    checkString('withinLimit', 'text', text);
    checkCount('withinLimit', 'limit', limit);
    checkTarget('withinLimit', target);
    return ops.withinLimit(text, limit, target);
  });

  const truncate = (text, maxTokens, options) => guard(() => {
    checkString('truncate', 'text', text);
    checkCount('truncate', 'maxTokens', maxTokens);
    checkTarget('truncate', options);
    const keep = options && options.keep;
    if (keep !== undefined && keep !== 'start' && keep !== 'end') throw badArg('truncate', 'keep must be "start" or "end"', keep);
    return ops.truncate(text, maxTokens, options);
  });

  const chunk = (text, maxTokens, options) => guard(() => {
    checkString('chunk', 'text', text);
    checkCount('chunk', 'maxTokens', maxTokens);
    checkTarget('chunk', options);
    return ops.call('chunk', { ...options, text, maxTokens });
  });

  const request = (fn, op = fn) => (req) => guard(() => {
    checkObject(fn, 'the request', req);
    return ops.call(op, req, fn);
  });

  return Object.freeze({
    get module() {
      return up.kind();
    },
    ready: async () => guard(up.full),
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
    models: (req) => guard(() => {
      checkObject('models', 'the request', req, true);
      return ops.call('models', req || {}, 'models');
    }),
    registerModels: (reg) => guard(() => {
      if (typeof reg !== 'string') checkObject('registerModels', 'the registry', reg);
      return ops.registerModels(reg);
    }),
    encodings: () => guard(() => ops.encodings()),
    version: () => guard(() => ops.call('version', {}).version),
    liveCounter: (target, text = '') => guard(() => {
      checkString('liveCounter', 'text', text);
      checkTarget('liveCounter', target);
      return liveCounter(ops, guard, () => dead !== null, target, text);
    }),
    loadEncoding: up.loadEncoding,
    loadCatalog: async (source) => {
      if (be.lite && !auto) throw new TokenfitError('unknown_operation', 'tokenfit: loadCatalog: the lean module counts with encodings only; it has no model registry');
      return up.loadCatalog(source);
    },
    priceUsage: request('priceUsage'),
    loadTokenizer: tokenizerLoader(ops, up.loader, platform, guard, !!be.lite && !auto),
    memoryBytes: () => up.memoryBytes(),
    call: (op, req) => guard(() => {
      checkString('call', 'op', op);
      return ops.call(op, req);
    }),
  });
}
