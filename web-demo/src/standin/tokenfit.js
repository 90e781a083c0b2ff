// INTERIM — a stand-in for the npm package `tokenfit` while the package is
// not on main yet. build.mjs resolves `tokenfit` to this file only when
// ../js has no package source (js/src/index.js); once it does, the page is
// built on the package itself and this directory can go.
//
// It mirrors the part of the package's API (js/src/index.d.ts) the page
// uses — init({module, encodings, tables}), then synchronous countTokens,
// encode, decode, calculateBudget, planInjection, models, version,
// loadEncoding and liveCounter — over the GOOS=js module's JSON boundary
// (wasm/ABI.md, "The GOOS=js module").

import '../../../build/wasm/wasm_exec.js';

export class TokenfitError extends Error {
  constructor(code, message, field) {
    super(message);
    this.name = 'TokenfitError';
    this.code = code;
    this.field = field;
  }
}

let started; // GOOS=js registers one global: one runtime per realm.

export async function init({ module, encodings = ['o200k_base'], tables } = {}) {
  if (!started) started = start(module);
  const g = await started;
  const call = (op, req) => {
    const out = JSON.parse(g.call(op, JSON.stringify(req ?? {})));
    if (out && out.error) throw new TokenfitError(out.error.code, out.error.message, out.error.field);
    return out;
  };
  const loaded = new Set();
  const loadEncoding = async (name, source) => {
    if (loaded.has(name)) return;
    const src = source ?? new URL(`${name}.tkt`, tables);
    const bytes = src instanceof Uint8Array ? src : new Uint8Array(await (await fetch(src)).arrayBuffer());
    const out = JSON.parse(g.loadTable(bytes));
    if (out.error) throw new TokenfitError(out.error.code, out.error.message);
    loaded.add(name);
  };
  const preload = Array.isArray(encodings) ? encodings.map((e) => [e]) : Object.entries(encodings);
  await Promise.all(preload.map(([e, src]) => loadEncoding(e, src)));
  return {
    module: 'js',
    version: () => g.version,
    loadEncoding,
    countTokens: (text, t) => call('countTokens', { ...t, text }).tokens,
    encode: (text, t) => call('encode', { ...t, text }).ids,
    decode: (ids, t) => call('decode', { ...t, ids: [...ids] }).text,
    calculateBudget: (req) => call('calculateBudget', req),
    planInjection: (req) => call('planInjection', req),
    models: (req) => call('models', req ?? {}),
    liveCounter(t, text = '') {
      let { id, tokens, encoding } = call('liveNew', { ...t, text });
      return {
        encoding,
        count: () => tokens,
        edit(at, deleteCount = 0, insert = '') {
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
  let mod = await module;
  if (!(mod instanceof WebAssembly.Module)) {
    mod = await WebAssembly.compileStreaming(mod instanceof Response ? mod : fetch(mod));
  }
  const instance = await WebAssembly.instantiate(mod, go.importObject);
  go.run(instance); // resolves only when the program exits: never awaited
  if (!globalThis.__tokenfit) throw new Error('tokenfit: the GOOS=js module did not start');
  return globalThis.__tokenfit;
}
