// A module worker holding one tokenfit instance. The page runs two: one for
// the live counter, so that a keystroke's count never waits behind a long
// job, and one for everything else (token views, budgets, plans, estimates).
//
// Messages in: {id, op, ...args}; out: {id, ok} or {id, error: {code, message}}.
// Jobs run one at a time, in order.

import { open } from './tokenfit.js';

let tf;
let estimators; // models().estimators: an estimate's base encoding
let counter; // {lc, encoding}
const pieces = new Map(); // encoding -> Map(id -> text of that one token)
let encoded = { key: '', text: '', ids: [] }; // the last encode, for paging

// loading runs fn, loading each encoding the package says is missing
// (a browser loads tables asynchronously, so the package asks for them
// instead of reading them itself) and trying again.
async function loading(fn) {
  for (let tries = 0; ; tries++) {
    try {
      return fn();
    } catch (e) {
      const name = e.code === 'encoding_not_loaded' && (e.encoding ?? /the encoding (\w+) is not loaded/.exec(e.message)?.[1]);
      if (!name || tries > 4) throw e;
      await tf.loadEncoding(name);
    }
  }
}

// encodingOf names the encoding that counts for a model, loaded: its own,
// or its estimator's base. The model is resolved by the package
// (tf.models({model}): exact id, alias, dated snapshot, or the fallback
// it reports), never here.
async function encodingOf(model) {
  const m = (await loading(() => tf.models({ model }))).model;
  const encoding = m.encoding ?? estimators[m.estimator].base;
  await tf.loadEncoding(encoding);
  return encoding;
}

const ops = {
  // open: {module, encodings} from assets.js's prepare.
  async open({ module, encodings }) {
    tf = await open({ module, encodings });
    const registry = tf.models();
    estimators = registry.estimators;
    return { version: tf.version(), module: tf.module, ...registry };
  },

  // counter: (re)opens the live counter for a model's encoding over text.
  async counter({ model, text }) {
    const encoding = await encodingOf(model);
    counter?.lc.dispose();
    const t0 = performance.now();
    const lc = tf.liveCounter({ encoding }, '');
    const tokens = lc.reset(text);
    counter = { lc, encoding };
    return { tokens, encoding, ms: performance.now() - t0 };
  },

  // update: the text area's new value and caret (selectionEnd); the
  // package's liveCounter.update finds the edit from the caret, so a
  // keystroke in 1 MB costs O(edit).
  update({ text, caret }) {
    const t0 = performance.now();
    const tokens = counter.lc.update(text, caret);
    return { tokens, ms: performance.now() - t0 };
  },

  // estimate: the model's own count and the bound core gives it (for
  // models without a public tokenizer), beside the base encoding's exact
  // count: countTokens' JSON answer {tokens, upperBound, encoding, exact}.
  async estimate({ model, text }) {
    return loading(() => tf.call('countTokens', { model, text }));
  },

  // tokens: the ids of text[from:to) tokens, and each one's text.
  async tokens({ model, text, from, to }) {
    const encoding = await encodingOf(model);
    if (encoded.key !== encoding || encoded.text !== text) {
      encoded = { key: encoding, text, ids: tf.encode(text, { encoding }) };
    }
    let cache = pieces.get(encoding);
    if (!cache) pieces.set(encoding, (cache = new Map()));
    const ids = encoded.ids.slice(from, to);
    const texts = ids.map((id) => {
      let s = cache.get(id);
      if (s === undefined) cache.set(id, (s = tf.decode([id], { encoding })));
      return s;
    });
    return { encoding, total: encoded.ids.length, ids, texts };
  },

  async budget(req) {
    return loading(() => tf.calculateBudget(req));
  },

  async plan(req) {
    return loading(() => tf.planInjection(req));
  },
};

let queue = Promise.resolve();
self.onmessage = ({ data }) => {
  queue = queue.then(async () => {
    try {
      self.postMessage({ id: data.id, ok: await ops[data.op](data) });
    } catch (e) {
      self.postMessage({ id: data.id, error: { code: e.code ?? 'internal', message: String(e.message ?? e) } });
    }
  });
};
