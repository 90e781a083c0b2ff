// The GOOS=js module (tokenfit-js.wasm, with Go's wasm_exec.js): kept
// working and tested, slower per call (RATIONALE.md). It answers through
// call (JSON) as the full reactor does; its table handles are the names.

import { TokenfitError, trapping, bounded, fromAnswer } from './errors.js';
import { ABI_VERSION } from './wasip1.js';
import { expandTable, isPacked } from './table.js';

class GoJS {
  constructor(api, memory) {
    this.api = trapping(api);
    this.memory = memory;
    this.kind = 'js';
    this.lite = false;
  }

  memoryBytes() {
    return this.memory ? this.memory.buffer.byteLength : 0;
  }

  // loadTable loads a .tkt, or a .tkp the module expands (loadPacked; a
  // module built before it gets it expanded here).
  loadTable(bytes) {
    let a;
    if (isPacked(bytes) && typeof this.api.loadPacked === 'function') a = JSON.parse(this.api.loadPacked(bytes));
    else a = JSON.parse(this.api.loadTable(expandTable(bytes)));
    if (a.error) throw fromAnswer(a);
    return a.encoding; // names are the handles here
  }

  encodingHandle(name) {
    return name; // count takes names, loaded tokenizers' included
  }

  count(name, text) {
    const n = this.api.count(name, text);
    if (n < 0) throw fromAnswer(JSON.parse(this.api.lastError()));
    return n;
  }

  call(op, json) {
    return JSON.parse(this.api.call(op, json));
  }
}

export async function startGoJS(module) {
  const Go = globalThis.Go;
  if (typeof Go !== 'function') {
    throw new TokenfitError('invalid_argument',
      'tokenfit: this is the GOOS=js module, which needs Go\'s wasm_exec.js: load it first (it defines globalThis.Go), or use tokenfit.wasm');
  }
  const go = new Go();
  const instance = await WebAssembly.instantiate(module, go.importObject);
  go.run(instance); // not awaited: main registers the API, then waits forever
  const api = globalThis.__tokenfit;
  if (!api || api.abiVersion !== ABI_VERSION) {
    throw new TokenfitError('invalid_argument', 'tokenfit: the GOOS=js module did not register its API (ABI 1)');
  }
  return bounded(new GoJS(api, instance.exports.mem));
}

