// A module worker holding the jobs' tokenfit instances: everything that
// reads the whole text (token views, estimates, budgets, plans, chat
// counts), off the main thread. The live count runs on the main thread
// (main.js), so a keystroke never waits behind a job.
//
// It opens on the page's lean module, which shows the first screen's
// tokens at once, and compiles the full module meanwhile; what needs the
// full one (estimates, budgets, plans, chat counts) waits for it, and the
// token view moves to it.
//
// Messages in: {id, op, ...args}; out: {id, ok} or {id, error: {code, message}}.
// Jobs run one at a time, in order, except that a job waiting for the full
// module lets the token views behind it run.

import { compileFull } from './assets.js';
import { loading as loadingFor, open } from './tokenfit.js';

let current; // the full instance once it has started, the lean one before
let full; // the promise of the full instance
const loading = async (fn) => {
  const f = await full;
  return loadingFor(f, () => fn(f));
};
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
  // open: {module, encodings} from boot.js's prepare (the lean module and
  // o200k_base); the full module compiles meanwhile.
  async open({ module, encodings }) {
    current = await open({ module, encodings });
    full = compileFull().then((m) => open({ module: m, encodings }));
    full.then((f) => (current = f), () => {});
    return {};
  },

  // estimate: the model's own count and the bound core gives it (for
  // models without a public tokenizer), beside the base encoding's exact
  // count: countTokens' JSON answer {tokens, upperBound, encoding, exact}.
  async estimate({ model, text }) {
    return loading((f) => f.call('countTokens', { model, text }));
  },

  // tokens: the tokens from index `from` to about `to`, as groups to show:
  // usually one token each, but the tokens that only make whole characters
  // together (an emoji's UTF-8 split across tokens) or whole graphemes
  // together (a family emoji joined by ZWJ) form one group, shown once.
  // A page ends at a group boundary, so `next` may pass `to`.
  async tokens({ encoding, text, from, to }) {
    const tf = current; // the full instance may take over while this one loads a table
    await tf.loadEncoding(encoding);
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
    return loading((f) => f.calculateBudget(req));
  },

  async chat(req) {
    return loading((f) => f.countChat(req));
  },

  async plan(req) {
    return loading((f) => f.planInjection(req));
  },
};

const needsFull = new Set(['estimate', 'budget', 'chat', 'plan']);
let queue = Promise.resolve();
self.onmessage = ({ data }) => {
  const run = async () => {
    try {
      self.postMessage({ id: data.id, ok: await ops[data.op](data) });
    } catch (e) {
      self.postMessage({ id: data.id, error: { code: e.code ?? 'internal', message: String(e.message ?? e), field: e.field } });
    }
  };
  // A job for the full module joins the queue once the module has started
  // (or failed to: the job then says why), so token views go first meanwhile.
  const joins = needsFull.has(data.op) && full ? full.then(() => {}, () => {}) : null;
  if (joins) joins.then(() => (queue = queue.then(run)));
  else queue = queue.then(run);
};
