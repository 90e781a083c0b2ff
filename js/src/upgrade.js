// The move to the module with the tokenizer.json loader. init() starts
// tokenfit-nohf.wasm by default: the full module without the loader, 80 KB
// of gzip a page that never loads a tokenizer.json does not download
// (RATIONALE.md, "Why does init() start without the tokenizer.json
// loader?"). The first loadTokenizer on such an instance starts
// tokenfit.wasm beside it, gives it what the instance holds — the loaded
// encodings, the registered models, the live counters — and from then on
// the instance answers from it, under the same object. Until that moment
// the old module answers every call, so every call stays synchronous.
//
// upgradable returns the operations (the interface instance.js documents)
// that forward to whichever module answers now, with live counters' ids
// that outlive the move: a counter is made again in the new module from
// its text the next time it is used.
//
// The same move takes a page's default instance from the lean module to
// tokenfit-nohf.wasm (auto: RATIONALE.md, "Why does a page's init() start
// with the lean module?"): the lean module answers counts at once; the
// first call that needs the full module starts the move (tf.ready() starts
// it too) and, until it is done, is refused with not_initialized saying to
// await tf.ready(); every count meanwhile is answered by the lean module.

import { TokenfitError, Trap } from './errors.js';
import { startImaged } from './load.js';
import { catalogLoader } from './catalog.js';
import { startWasip1 } from './wasip1.js';
import { loadedEncodings } from './encodings.js';
import { jsonOps } from './full.js';
import { leanOps } from './lean.js';

// mount is a started module with its encodings and operations.
function mount(be, platform, tables, guard, early, catalog) {
  const enc = loadedEncodings(be, platform, tables, guard, early);
  return { be, enc, ops: be.lite ? leanOps(be, enc) : jsonOps(be, enc, catalog.auto) };
}

// hasLoader asks a full module whether it has the loader: an empty request
// is invalid_request there, unknown_operation in tokenfit-nohf.wasm.
function hasLoader(m) {
  const a = m.be.call('loadTokenizer', '{}');
  return !(a && a.error && a.error.code === 'unknown_operation');
}

/**
 * @param be the started module (wasip1.js, gojs.js)
 * @param platform how the platform reads a URL, and where its modules are
 * @param {(name: string) => URL} tables where an encoding's table is
 * @param {(fn: () => any) => any} guard the instance's guard (instance.js)
 * @param {Map<string, Promise<Uint8Array>>} [early] table fetches under way (init)
 * @param {boolean} [auto] be is the lean module of a page's default init(), which moves to the full one when a call needs it
 */
export function upgradable(be, platform, tables, guard, early, auto = false) {
  const catalog = catalogLoader(platform, guard);
  let cur = mount(be, platform, tables, guard, early, catalog);
  if (!be.lite) catalog.attach(be);
  let loader = be.lite ? false : undefined; // whether cur has the loader; undefined until asked
  let upgrading = null; // the promise of the move while it is under way
  let upgradingTo = null; // the kind of module it moves to
  let registered = false; // whether registerModels changed the registry, which the move then carries
  const lives = new Map(); // the id a counter got → { id, on, target, text }
  let nextLive = 0;

  // live returns the module's id of counter n, making the counter again in
  // the module that answers now (from the text it had) after a move.
  const live = (n) => {
    const c = lives.get(n);
    if (c.on !== cur) {
      c.id = cur.ops.liveNew(c.target, c.text).id;
      c.on = cur;
      c.text = undefined;
    }
    return c.id;
  };

  // upgrade moves to the module of kind ('nohf', the full module without
  // the loader, or 'full', with it).
  const upgrade = async (kind) => {
    let next;
    // A failure of the new module fails the move, not the instance; once
    // it answers, its failures are the instance's.
    const trial = (fn) => {
      if (next === cur) return guard(fn);
      try {
        return fn();
      } catch (e) {
        if (!(e instanceof Trap)) throw e;
        throw new TokenfitError('internal', `tokenfit: ${doing}: the module ${kind === 'full' ? 'with the tokenizer.json loader ' : ''}failed while starting (${e.message}); this instance keeps answering without it`);
      }
    };
    const doing = kind === 'full' ? 'loadTokenizer' : 'ready';
    const why = kind === 'full' ? "this instance's module has no tokenizer.json loader, and starting tokenfit.wasm failed" : 'starting the full module (tokenfit-nohf.wasm) failed';
    try {
      const be = await startImaged(platform, platform.moduleURL(kind), undefined, (module) => startWasip1(module, platform.syncCompile, platform.random));
      next = mount(be, platform, tables, trial, undefined, catalog);
    } catch (e) {
      if (e instanceof TokenfitError) {
        e.message = `tokenfit: ${doing}: ${why}: ${e.message.replace(/^tokenfit: /, '')}`;
        throw e;
      }
      const err = new TokenfitError('internal', `tokenfit: ${doing}: ${why} (${e && e.message}); this instance keeps answering without it`);
      err.cause = e;
      throw err;
    }
    const has = !next.be.lite && trial(() => hasLoader(next));
    if (kind === 'full' && !has) {
      throw new TokenfitError('unknown_operation', 'tokenfit: loadTokenizer: the module the platform gives for tokenizers has no tokenizer.json loader either');
    }
    if (next.be.lite) throw new TokenfitError('invalid_argument', `tokenfit: ${doing}: the platform's full module is the lean one`);
    // The encodings, until none was loaded meanwhile: the old module
    // answers (and may load more) while the new one loads.
    for (;;) {
      const missing = cur.enc.origins().filter(([name]) => !next.enc.has(name));
      if (missing.length === 0) break;
      await Promise.all(missing.map(([name, origin]) => next.enc.loadEncoding(name, origin)));
    }
    // From here on synchronous: no call can come in between. The registry
    // goes over as what the registrations added up to, not as the
    // registrations: the old module's models answer, every model and
    // estimator as last registered, in the registry's order, which given
    // back as one registration rebuilds it (core's
    // TestAPI_ModelsAnswerRegistersBack). Its size is the registry's, however
    // many registrations made it.
    if (registered) {
      const { models, estimators } = guard(() => cur.ops.call('models', {}));
      trial(() => next.ops.registerModels(JSON.stringify({ models, estimators })));
    }
    catalog.attach(next.be, trial); // the catalog, if the old module had it
    guard(() => {
      for (const c of lives.values()) if (c.on === cur) c.text = cur.ops.liveText(c.id);
    });
    cur = next;
    loader = has;
  };

  // move starts (or joins) the move to a module of kind; a failed move is
  // tried again by the next call.
  const move = (kind) => {
    if (upgrading === null || (kind === 'full' && upgradingTo !== 'full')) {
      const after = upgrading || Promise.resolve();
      upgradingTo = kind;
      const p = after.catch(() => {}).then(() => (kind === 'full' ? loader : !cur.be.lite) || upgrade(kind));
      upgrading = p.finally(() => {
        if (upgrading === q) upgrading = upgradingTo = null;
      });
      const q = upgrading;
    }
    return upgrading;
  };

  // Until an auto instance has moved, a call that needs the full module
  // starts the move and is refused, saying what to await.
  const lean = () => auto && cur.be.lite;
  const notReady = (fn) => {
    move('nohf').catch(() => {});
    const e = new TokenfitError('not_initialized',
      `tokenfit: ${fn} needs the full module, which this instance is still fetching (init() started with the lean one, which counts): ` +
      '`await tf.ready()` once first (or `init({ lite: false })` to start with the full module)');
    e.ready = true;
    return e;
  };
  // needsFull reports whether a count with target needs the full module.
  const needsFull = (target) => target != null && typeof target === 'object' &&
    ((target.model !== undefined && target.model !== '' && !(target.encoding !== undefined && target.encoding !== '')) || target.calibration != null);
  const counting = (fn, f) => (...args) => {
    if (lean() && needsFull(args[fn === 'truncate' ? 2 : fn === 'withinLimit' ? 2 : 1])) throw notReady(fn);
    return f(...args);
  };

  // A table loaded into the old module while the move was under way, after
  // the move had taken the list: loaded into the new one too.
  const loadEncoding = async (name, source) => {
    const from = cur;
    await from.enc.loadEncoding(name, source);
    if (from !== cur && !cur.enc.has(name)) {
      await cur.enc.loadEncoding(name, new Map(from.enc.origins()).get(name));
    }
  };

  const ops = {
    call(op, request, fn = op) {
      if (lean()) throw notReady(fn);
      return cur.ops.call(op, request, fn);
    },
    count: counting('countTokens', (text, target) => cur.ops.count(text, target)),
    encode: counting('encode', (text, target) => cur.ops.encode(text, target)),
    decode: counting('decode', (ids, target, checked) => cur.ops.decode(ids, target, checked)),
    withinLimit: counting('withinLimit', (text, limit, target) => cur.ops.withinLimit(text, limit, target)),
    truncate: counting('truncate', (text, maxTokens, options) => cur.ops.truncate(text, maxTokens, options)),
    registerModels(registry) {
      if (lean()) throw notReady('registerModels');
      const answer = cur.ops.registerModels(registry);
      registered = true;
      return answer;
    },
    encodings: () => cur.ops.encodings(),
    liveNew(target, text) {
      if (lean() && needsFull(target)) throw notReady('liveCounter');
      const a = cur.ops.liveNew(target, text);
      lives.set(++nextLive, { id: a.id, on: cur, target: target == null ? target : { ...target }, text: undefined });
      return { ...a, id: nextLive };
    },
    liveEdit: (n, at, del, insert) => cur.ops.liveEdit(live(n), at, del, insert),
    liveReset(n, text) {
      const c = lives.get(n);
      if (c.on === cur) return cur.ops.liveReset(c.id, text);
      const a = cur.ops.liveNew(c.target, text); // made again with its new text
      Object.assign(c, { id: a.id, on: cur, text: undefined });
      return a.tokens;
    },
    liveText(n) {
      const c = lives.get(n);
      return c.on === cur ? cur.ops.liveText(c.id) : c.text;
    },
    liveFree(n) {
      const c = lives.get(n);
      if (!c) return;
      lives.delete(n);
      if (c.on === cur) cur.ops.liveFree(c.id);
    },
    loadTokenizer: (json) => cur.ops.loadTokenizer(json),
  };

  return {
    ops,
    loadEncoding,
    memoryBytes: () => cur.be.memoryBytes(),
    kind: () => cur.be.kind,
    // loader resolves once the module that answers has the tokenizer.json
    // loader, moving to tokenfit.wasm the first time it has not (concurrent
    // calls share one move; a failed one is tried again by the next call).
    loader() {
      if (loader === undefined) loader = hasLoader(cur);
      if (loader) return Promise.resolve();
      return move('full');
    },
    // full resolves once the module that answers is a full one: at once,
    // but for an auto instance still on the lean module.
    full: () => (lean() ? move('nohf').then(() => {}) : Promise.resolve()),
    // loadCatalog loads the model catalog into the module that answers (an
    // auto instance moves to the full module first: the lean one has no
    // registry).
    loadCatalog: async (source) => {
      if (lean()) await move('nohf');
      return catalog.load(source);
    },
  };
}
