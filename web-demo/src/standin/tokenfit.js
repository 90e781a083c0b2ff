// INTERIM — a stand-in for the npm package `tokenfit` while the package is
// being built on its own branch. It offers the package's planned API (the
// npm package issue): `const tf = await init({module, tables})`, then
// synchronous countTokens, encode, decode, countChat, calculateBudget,
// planInjection, models and liveCounter, over the GOOS=js module's JSON
// boundary (wasm/ABI.md, "The GOOS=js module"). Only src/tokenfit.js imports
// it; when the package lands, that file imports 'tokenfit' instead and this
// directory goes away.

import '../../../build/wasm/wasm_exec.js';

export class TokenfitError extends Error {
  constructor({ code, message, field }) {
    super(message);
    this.name = 'TokenfitError';
    this.code = code;
    this.field = field;
  }
}

let started; // GOOS=js registers one global: one runtime per realm.

// init({module, tables}): module is a URL (or Response, or compiled
// WebAssembly.Module) of tokenfit-js.wasm; tables maps encoding names to
// the URLs (or bytes) of their .tkt tables, loaded before init resolves.
export async function init({ module, tables = {} } = {}) {
  if (!started) started = start(module);
  const g = await started;
  const call = (op, req) => {
    const out = JSON.parse(g.call(op, JSON.stringify(req ?? {})));
    if (out && out.error) throw new TokenfitError(out.error);
    return out;
  };
  const loadTable = async (src) => {
    const bytes = src instanceof Uint8Array ? src : new Uint8Array(await (await fetch(src)).arrayBuffer());
    const out = JSON.parse(g.loadTable(bytes));
    if (out.error) throw new TokenfitError(out.error);
    return out.encoding;
  };
  await Promise.all(Object.values(tables).map(loadTable));
  const target = (t = {}) => (typeof t === 'string' ? { encoding: t } : t);
  return {
    version: g.version,
    loadTable,
    countTokens: (text, t) => call('countTokens', { ...target(t), text }).tokens,
    encode: (text, t) => call('encode', { ...target(t), text }).ids,
    decode: (ids, t) => call('decode', { ...target(t), ids }).text,
    countChat: (req) => call('countChat', req),
    calculateBudget: (req) => call('calculateBudget', req),
    planInjection: (req) => call('planInjection', req),
    models: () => call('models', {}),
    liveCounter(t, text = '') {
      let { id, tokens } = call('liveNew', { ...target(t), text });
      return {
        get count() { return tokens; },
        edit(at, deleteCount, insert = '') {
          ({ tokens } = call('liveEdit', { id, at, delete: deleteCount, insert }));
          return tokens;
        },
        dispose() {
          if (id) call('liveFree', { id });
          id = 0;
        },
      };
    },
  };
}

async function start(module) {
  const go = new globalThis.Go();
  let mod = module;
  if (!(mod instanceof WebAssembly.Module)) {
    const res = mod instanceof Response ? mod : await fetch(mod);
    mod = await WebAssembly.compileStreaming(res);
  }
  const instance = await WebAssembly.instantiate(mod, go.importObject);
  go.run(instance); // resolves only when the program exits: never awaited
  if (!globalThis.__tokenfit) throw new Error('tokenfit: the GOOS=js module did not start');
  return globalThis.__tokenfit;
}
