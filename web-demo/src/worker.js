// A module worker holding the jobs' tokenfit instances: everything that
// reads the whole text (token views, estimates, budgets, plans, chat
// counts), off the main thread. The live count runs on the main thread
// (main.js), so a keystroke never waits behind a job.
//
// It opens on the page's lean module, enough for the token view of a long
// text (the page makes a short one's itself), and compiles the full module
// meanwhile; what needs the full one (estimates, budgets, plans, chat
// counts) waits for it, and the token view moves to it.
//
// Messages in: {id, op, ...args}; out: {id, ok} or {id, error: {code, message}}.
// Jobs run one at a time, in order, except that a job waiting for the full
// module lets the token views behind it run.

import { compileFull } from './assets.js';
import { loading as loadingFor, open } from './tokenfit.js';
import { tokenGroups } from './tokens.js';

let current; // the full instance once it has started, the lean one before
let full; // the promise of the full instance
const loading = async (fn) => {
  const f = await full;
  return loadingFor(f, () => fn(f));
};
const tokens = tokenGroups();

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

  // tokens: a page of the token view (tokens.js).
  async tokens({ encoding, text, from, to }) {
    const tf = current; // the full instance may take over while this one loads a table
    await tf.loadEncoding(encoding);
    return tokens(tf, encoding, text, from, to);
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
