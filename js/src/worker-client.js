// The page side of tokenfit's Worker helper: the API of an instance running
// in a worker, each call a promise. Internal; see worker.d.ts.

import { TokenfitError } from './errors.js';

const FUNCTIONS = ['countTokens', 'countChat', 'calculateBudget', 'planInjection', 'encode', 'decode', 'withinLimit',
  'truncate', 'chunk', 'calibrate', 'models', 'registerModels', 'encodings', 'version', 'loadEncoding', 'loadCatalog', 'priceUsage',
  'memoryBytes', 'call'];

// cloneable makes init's options structured-cloneable: URLs become strings,
// Responses and promises their bytes or values.
async function cloneable(v) {
  v = await v;
  if (v instanceof URL) return v.href;
  if (typeof Response !== 'undefined' && v instanceof Response) return new Uint8Array(await v.arrayBuffer());
  if (v && typeof v === 'object' && !ArrayBuffer.isView(v) && !(v instanceof ArrayBuffer) &&
    !(typeof WebAssembly !== 'undefined' && v instanceof WebAssembly.Module)) {
    const out = Array.isArray(v) ? [] : {};
    for (const [k, x] of Object.entries(v)) out[k] = await cloneable(x);
    return out;
  }
  return v;
}

/**
 * @param {{ post(message: unknown): void, listen(handler: (message: any) => void): void, onError(handler: (e: Error) => void): void, terminate(): void }} port
 *   post throws when the message cannot be sent (and then nothing was); onError's
 *   handler runs when the worker fails or exits
 * @param {object} [options] init's options
 */
export async function connect(port, options = {}) {
  const pending = new Map();
  let next = 0;
  let failed = null;
  port.listen((msg) => {
    const p = pending.get(msg.id);
    if (!p) return;
    pending.delete(msg.id);
    if (msg.error) p.reject(new TokenfitError(msg.error.code, msg.error.message, msg.error.field));
    else p.resolve(msg.value);
  });
  // A worker that fails or exits answers nothing more: every call under
  // way rejects now, and every later one at once.
  port.onError((e) => {
    if (!failed) failed = new TokenfitError('internal', `tokenfit: the worker failed (${e && e.message}): make another with createWorker()`);
    for (const p of pending.values()) p.reject(failed);
    pending.clear();
  });
  const send = (msg) => {
    if (failed) return Promise.reject(failed);
    return new Promise((resolve, reject) => {
      const id = ++next;
      try {
        port.post({ ...msg, id });
      } catch (e) {
        // A symbol or a function cannot be posted (structured clone).
        const err = new TokenfitError('invalid_argument', `tokenfit: ${msg.fn}: an argument cannot be sent to the worker (${e && e.message}): ` +
          'pass strings, numbers, plain objects and arrays');
        err.cause = e;
        reject(err);
        return;
      }
      pending.set(id, { resolve, reject });
    });
  };
  // terminate ends the worker; every call then rejects at once, those under
  // way included (they would otherwise never settle).
  const terminate = () => {
    if (!failed) failed = new TokenfitError('invalid_handle', 'tokenfit: this worker was terminated: make another with createWorker()');
    for (const p of pending.values()) p.reject(failed);
    pending.clear();
    port.terminate();
  };
  const { worker, ...initOptions } = options; // eslint-disable-line no-unused-vars
  const started = await send({ fn: 'init', args: [await cloneable(initOptions)] });

  const registry = typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry((lid) => { send({ fn: 'live', lid, method: 'dispose' }).catch(() => {}); })
    : null;

  const api = { module: started.module, terminate };
  for (const fn of FUNCTIONS) {
    api[fn] = async (...args) => send({ fn, args: fn === 'loadEncoding' ? [args[0], await cloneable(args[1])] : args });
  }
  api.liveCounter = async (target, text) => {
    const { lid, encoding, count } = await send({ fn: 'liveNew', args: [target, text] });
    let last = count;
    let disposed = false;
    const call = (method) => (...args) => send({ fn: 'live', lid, method, args }).then((v) => {
      if (typeof v === 'number') last = v;
      return v;
    });
    const counter = {
      encoding,
      edit: call('edit'),
      update: call('update'),
      reset: call('reset'),
      text: call('text'),
      count: call('count'),
      /** The count of the latest answered call, without a round trip. */
      lastCount: () => last,
      dispose: () => {
        if (disposed) return Promise.resolve();
        disposed = true;
        if (registry) registry.unregister(counter);
        return send({ fn: 'live', lid, method: 'dispose' });
      },
    };
    if (registry) registry.register(counter, lid, counter);
    return Object.freeze(counter);
  };
  return Object.freeze(api);
}
