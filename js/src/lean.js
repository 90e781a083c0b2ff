// The operations of the lean module (tokenfit-lite.wasm): counting only,
// through its direct exports, by encoding. What needs the full module
// (JSON operations, models, calibrations) is an unknown_operation saying
// so. full.js is the same interface over the full module; instance.js
// documents it.

import { TokenfitError, fullOnly } from './errors.js';
import { checkTarget } from './args.js';
import { DEFAULT_ENCODING } from './table.js';

/**
 * @param be wasip1.js's Wasip1 over tokenfit-lite.wasm
 * @param enc the instance's encodings (encodings.js)
 */
export function leanOps(be, enc) {
  // handle returns the handle that answers target: the lean module has
  // nothing else.
  const handle = (fn, target) => {
    if (target == null) return enc.handle(DEFAULT_ENCODING, fn);
    checkTarget(fn, target);
    if (target.calibration != null) throw fullOnly(`${fn} with a calibration`);
    if (target.encoding !== undefined && target.encoding !== '') return enc.handle(target.encoding, fn);
    if (target.model !== undefined && target.model !== '') {
      throw new TokenfitError('invalid_request',
        `tokenfit: ${fn}: the lean module counts by encoding, and knows no models: pass { encoding: 'o200k_base' } (or another), or use the full module for { model }`, 'model');
    }
    return enc.handle(DEFAULT_ENCODING, fn);
  };
  const nameOf = (target) => (target && target.encoding) || DEFAULT_ENCODING;

  return {
    call: (op, request, fn = op) => {
      throw fullOnly(fn);
    },
    count: (text, target) => be.count(handle('countTokens', target), text),
    encode: (text, target) => Array.from(be.encode(handle('encode', target), text)),
    decode: (ids, target, checked) => be.decode(handle('decode', target), ids, checked),
    withinLimit(text, limit, target) {
      const tokens = be.within(handle('withinLimit', target), text, limit);
      return { within: tokens <= limit, tokens, encoding: nameOf(target), exact: true };
    },
    truncate: (text, maxTokens, options) => ({
      ...be.truncate(handle('truncate', options), text, maxTokens, options != null && options.keep === 'end'),
      encoding: nameOf(options),
      exact: true,
    }),
    registerModels() {
      throw fullOnly('registerModels');
    },
    loadTokenizer() {
      throw fullOnly('loadTokenizer');
    },
    encodings: () => enc.list(),
    liveNew(target, text) {
      const id = be.liveNew(handle('liveCounter', target));
      let tokens;
      try {
        tokens = be.liveReset(id, text);
      } catch (e) {
        if (e instanceof TokenfitError) be.liveFree(id);
        throw e;
      }
      return { id, encoding: nameOf(target), tokens };
    },
    liveEdit: (id, at, del, insert) => be.liveEdit(id, at, del, insert),
    liveReset: (id, text) => be.liveReset(id, text),
    liveText: (id) => be.liveText(id),
    liveFree: (id) => be.liveFree(id),
  };
}
