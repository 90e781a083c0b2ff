// A module worker holding the jobs' tokenfit instance: everything that
// reads the whole text (token views, estimates, budgets, plans, chat
// counts), off the main thread. The live count runs on the main thread
// (main.js), so a keystroke never waits behind a job.
//
// Messages in: {id, op, ...args}; out: {id, ok} or {id, error: {code, message}}.
// Jobs run one at a time, in order.

import { encodingOf as encodingFor, loading as loadingFor, open } from './tokenfit.js';

let tf;
const loading = (fn) => loadingFor(tf, fn);
const encodingOf = (model) => encodingFor(tf, model);
const pieces = new Map(); // encoding -> Map(id -> text of that one token)
let encoded = { key: '', text: '', ids: [] }; // the last encode, for paging

// joins says whether b's first grapheme continues a's last (a ZWJ, a
// combining mark, a variation selector, a skin tone...).
const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });
function joins(a, b) {
  if (!a || !b) return false;
  const lastA = [...graphemes.segment(a.slice(-16))].at(-1).segment;
  const first = graphemes.segment(lastA + b.slice(0, 16))[Symbol.iterator]().next().value.segment;
  return first.length > lastA.length;
}

const ops = {
  // open: {module, encodings} from assets.js's prepare.
  async open({ module, encodings }) {
    tf = await open({ module, encodings });
    return { version: tf.version() };
  },

  // estimate: the model's own count and the bound core gives it (for
  // models without a public tokenizer), beside the base encoding's exact
  // count: countTokens' JSON answer {tokens, upperBound, encoding, exact}.
  async estimate({ model, text }) {
    return loading(() => tf.call('countTokens', { model, text }));
  },

  // tokens: the tokens from index `from` to about `to`, as groups to show:
  // usually one token each, but the tokens that only make whole characters
  // together (an emoji's UTF-8 split across tokens) or whole graphemes
  // together (a family emoji joined by ZWJ) form one group, shown once.
  // A page ends at a group boundary, so `next` may pass `to`.
  async tokens({ model, text, from, to }) {
    const encoding = await encodingOf(model);
    if (encoded.key !== encoding || encoded.text !== text) {
      encoded = { key: encoding, text, ids: tf.encode(text, { encoding }) };
    }
    let cache = pieces.get(encoding);
    if (!cache) pieces.set(encoding, (cache = new Map()));
    const piece = (id) => {
      let s = cache.get(id);
      if (s === undefined) cache.set(id, (s = tf.decode([id], { encoding })));
      return s;
    };
    const ids = encoded.ids;
    const groups = [];
    let i = from;
    while (i < ids.length && (i < to || joins(groups.at(-1)?.text ?? '', piece(ids[i])))) {
      // Whole characters: extend while the bytes so far end mid-character.
      let j = i + 1;
      let t = piece(ids[i]);
      if (t.includes('\uFFFD')) {
        for (let k = j + 1; k <= Math.min(ids.length, i + 8); k++) {
          const u = tf.decode(ids.slice(i, k), { encoding });
          if (!u.includes('\uFFFD')) {
            [j, t] = [k, u];
            break;
          }
        }
      }
      const g = { ids: ids.slice(i, j), text: t };
      // Whole graphemes: join the previous group when a grapheme spans them.
      const last = groups.at(-1);
      if (last && last.ids.length + g.ids.length <= 16 && joins(last.text, g.text)) {
        last.ids.push(...g.ids);
        last.text += g.text;
      } else groups.push(g);
      i = j;
    }
    return { encoding, total: ids.length, groups, next: i };
  },

  async budget(req) {
    return loading(() => tf.calculateBudget(req));
  },

  async chat(req) {
    return loading(() => tf.countChat(req));
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
      self.postMessage({ id: data.id, error: { code: e.code ?? 'internal', message: String(e.message ?? e), field: e.field } });
    }
  });
};
