// A module worker holding one tokenfit instance. The page runs two: one for
// the live counter, so that a keystroke's count never waits behind a long
// job, and one for everything else (token views, budgets, plans, estimates).
//
// Messages in: {id, op, ...args}; out: {id, ok} or {id, error: {code, message}}.
// Jobs run one at a time, in order.

import { open } from './tokenfit.js';

let tf;
let registry; // models(): {models, estimators}
let counter; // {lc, encoding}
const pieces = new Map(); // encoding -> Map(id -> text of that one token)
let encoded = { key: '', text: '', ids: [] }; // the last encode, for paging

// encodingOf names the encoding that counts for a model: its own, or its
// estimator's base; unknown models fall back to cl100k_base (DESIGN.md).
function encodingOf(model) {
  const m = registry.models.find((x) => x.id === model || (x.aliases || []).includes(model));
  if (!m) return 'cl100k_base';
  if (m.encoding) return m.encoding;
  return registry.estimators[m.estimator]?.base ?? 'o200k_base';
}

const ops = {
  // open: {module, encodings} from assets.js's prepare.
  async open({ module, encodings }) {
    tf = await open({ module, encodings });
    registry = tf.models();
    return { version: tf.version(), module: tf.module, ...registry };
  },

  // counter: (re)opens the live counter for a model's encoding over text.
  async counter({ model, text }) {
    const encoding = encodingOf(model);
    await tf.loadEncoding(encoding);
    counter?.lc.dispose();
    const t0 = performance.now();
    const lc = tf.liveCounter({ encoding }, '');
    const tokens = text ? lc.edit(0, 0, text) : lc.count();
    counter = { lc, encoding };
    return { tokens, encoding, ms: performance.now() - t0 };
  },

  edit({ at, del, ins }) {
    const t0 = performance.now();
    const tokens = counter.lc.edit(at, del, ins);
    return { tokens, ms: performance.now() - t0 };
  },

  // estimate: the model's own count (an estimate for models without a
  // public tokenizer), next to the base encoding's exact count.
  async estimate({ model, text }) {
    await tf.loadEncoding(encodingOf(model));
    return tf.countTokens(text, { model });
  },

  // tokens: the ids of text[from:to) tokens, and each one's text.
  async tokens({ model, text, from, to }) {
    const encoding = encodingOf(model);
    await tf.loadEncoding(encoding);
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
    await tf.loadEncoding(encodingOf(req.model));
    return tf.calculateBudget(req);
  },

  async plan(req) {
    await tf.loadEncoding(encodingOf(req.model));
    return tf.planInjection(req);
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
