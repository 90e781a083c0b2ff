// The operations of the modules that answer in JSON: the full wasip1
// reactor and the GOOS=js module. Every operation is a call; counting by an
// encoding or a loaded tokenizer, or by a model seen once, takes the
// module's count export instead (no JSON either way). lean.js is the same interface over the lean
// module; instance.js documents it.

import { fromAnswer } from './errors.js';
import { checkTarget, toJSON } from './args.js';
import { ENCODINGS, DEFAULT_ENCODING } from './table.js';
import { base64Request } from './tokenizer.js';

/**
 * @param be the backend: wasip1.js's Wasip1 over tokenfit.wasm, or gojs.js's GoJS
 * @param enc the instance's encodings (encodings.js)
 * @param {() => boolean} [catalog] loads the model catalog where it can now (catalog.js's auto): true when it did
 */
export function jsonOps(be, enc, catalog = () => false) {
  const models = new Map(); // model → encoding name, for exact models
  const tokenizers = new Map(); // the name of a loaded tokenizer → its handle, once asked for

  // tokenizer returns the handle of the tokenizer loaded under name, or
  // undefined when none is.
  const tokenizer = (name) => {
    let h = tokenizers.get(name);
    if (h === null) tokenizers.set(name, (h = be.encodingHandle(name)));
    return h;
  };

  // call runs one JSON operation, loading encodings it finds missing, and
  // the model catalog when the answer fell back (a model outside the
  // built-in rows) or lists every model.
  const call = (op, request, fn = op) => {
    const json = toJSON(fn, request);
    if (op === 'models' && !(request && request.model)) catalog();
    for (let tries = 0; ; tries++) {
      const answer = be.call(op, json);
      if (answer && (answer.fallback || (answer.model && answer.model.fallback)) && catalog()) continue;
      if (!answer || !answer.error) return answer;
      // The missing encoding is the error's own field (wasm/ABI.md).
      const missing = answer.error.code === 'encoding_not_loaded' && answer.error.encoding;
      if (ENCODINGS.includes(missing) && tries < ENCODINGS.length && !enc.has(missing)) {
        enc.handle(missing, fn);
        continue;
      }
      throw fromAnswer(answer);
    }
  };

  // fast returns the handle that answers target without JSON, or undefined
  // when the JSON path must (a model not seen yet, a heuristic, a
  // calibration).
  const fast = (fn, target) => {
    if (target == null) return enc.handle(DEFAULT_ENCODING, fn);
    checkTarget(fn, target);
    if (target.calibration != null) return undefined;
    if (target.encoding !== undefined && target.encoding !== '') {
      if (ENCODINGS.includes(target.encoding)) return enc.handle(target.encoding, fn);
      return tokenizer(target.encoding); // else a heuristic such as chars4: core knows
    }
    if (target.model !== undefined && target.model !== '') {
      const name = models.get(target.model);
      if (name === undefined) return undefined;
      return ENCODINGS.includes(name) ? enc.handle(name, fn) : tokenizer(name);
    }
    return enc.handle(DEFAULT_ENCODING, fn);
  };

  // learn remembers the encoding of an exact model from a JSON answer.
  const learn = (target, answer) => {
    if (target && target.model && !target.encoding && target.calibration == null && answer.exact && (ENCODINGS.includes(answer.encoding) || tokenizers.has(answer.encoding))) {
      models.set(target.model, answer.encoding);
    }
  };

  return {
    call,
    count(text, target) {
      const h = fast('countTokens', target);
      if (h !== undefined) return be.count(h, text);
      const a = call('countTokens', { ...target, text }, 'countTokens');
      learn(target, a);
      return a.tokens;
    },
    encode: (text, target) => call('encode', { ...target, text }).ids,
    decode: (ids, target, checked) => {
      const a = call('decode', { ...target, ids: Array.from(ids) });
      return checked ? { text: a.text, valid: a.valid } : a.text;
    },
    withinLimit(text, limit, target) {
      // A long text counted with a built-in encoding is streamed, and read
      // no further than the limit needs: the answer for an empty text says
      // what counts (and answers a bad request as the whole one would).
      if (be.streamsWithin && be.streamsWithin(text) && (target == null || target.calibration == null)) {
        const a = call('withinLimit', { ...target, text: '', limit });
        learn(target, a);
        if (a.exact && ENCODINGS.includes(a.encoding)) {
          const h = enc.handle(a.encoding, 'withinLimit');
          const tokens = be.stream(h, text, limit);
          return { ...a, within: tokens <= limit, tokens };
        }
      }
      return call('withinLimit', { ...target, text, limit });
    },
    truncate: (text, maxTokens, options) => call('truncate', { ...options, text, maxTokens }),
    registerModels(registry) {
      const a = call('registerModels', registry, 'registerModels');
      models.clear(); // a model may now mean another encoding
      return a;
    },
    encodings: () => (be.kind === 'js' ? enc.list() : call('encodings', {}).encodings),
    liveNew(target, text) {
      if (target == null || (!target.encoding && !target.model)) enc.handle(DEFAULT_ENCODING, 'liveCounter');
      const a = call('liveNew', { ...target, text }, 'liveCounter');
      return { id: a.id, encoding: a.encoding, tokens: a.tokens };
    },
    liveEdit: (id, at, del, insert) => call('liveEdit', { id, at, delete: del, insert }, 'liveCounter.edit').tokens,
    liveReset: (id, text) => call('liveGet', { id, text }, 'liveCounter.reset').tokens,
    liveText: (id) => call('liveGet', { id }, 'liveCounter.text').text,
    liveFree: (id) => be.call('liveFree', JSON.stringify({ id })),
    // loadTokenizer takes the file's bytes under a name, or its parsed JSON
    // as core's request already (tokenizer.js). Bytes go to the module as
    // they are where it can take them (load_tokenizer), else as base64.
    loadTokenizer(request) {
      let answer;
      if (typeof request === 'string') answer = be.call('loadTokenizer', request);
      else if (be.loadsBytes) answer = be.loadTokenizer(request.name, request.bytes);
      else answer = be.call('loadTokenizer', base64Request(request.name, request.bytes));
      if (answer && answer.error) throw fromAnswer(answer);
      if (!tokenizers.has(answer.name)) tokenizers.set(answer.name, null);
      return answer;
    },
  };
}
