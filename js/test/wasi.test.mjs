// The wasip1 module in Node's own WASI (node:wasi), driven through the raw
// ABI (wasm/ABI.md) with nothing of the npm package's loader or WASI shim:
// proof that the module runs in a WASI preview 1 host that is not ours and
// not wazero. It runs the shared vectors (tokens, chat, budgets, plans,
// shapes) and a sample of the hostile cases, each judged by the same rules
// as every other host, with the probe after each case. Run by make
// test-js (after make js). What Node needed: `new WASI({ version:
// 'preview1', returnOnExit: true })`, `wasi.initialize(instance)` for the
// reactor's _initialize, and nothing else (no preopens, args or env).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { WASI } from 'node:wasi';
import { TokenfitError } from 'tokenfit';
import { bundleVectors, bundleHostile } from './vectors.mjs';
import { checkTokenVectors, checkChatVectors, checkBudgetVectors } from './shared.mjs';
import { ask, body, check, probe, setup } from './hostile.mjs';

const ENCODINGS = ['o200k_base', 'cl100k_base', 'p50k_base', 'r50k_base'];
const module = new WebAssembly.Module(readFileSync(new URL('../../build/wasm/tokenfit.wasm', import.meta.url)));
const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

// raw starts one instance under node:wasi with the four tables loaded, and
// answers as the package's instance does: call(op, request) parses core's
// JSON answer and throws its error as a TokenfitError, countTokens is the
// raw count export on the handle of the encoding named, as the Go hosts
// call it.
function raw() {
  const wasi = new WASI({ version: 'preview1', returnOnExit: true });
  const instance = new WebAssembly.Instance(module, wasi.getImportObject());
  wasi.initialize(instance);
  const x = instance.exports;
  assert.equal(x.abi_version(), 1);
  const put = (bytes) => {
    const p = x.alloc(bytes.length);
    if (bytes.length > 0 && p === 0) throw fail(x.last_error());
    new Uint8Array(x.memory.buffer, p, bytes.length).set(bytes);
    return p;
  };
  const take = (packed) => {
    const p = Number(packed >> 32n);
    const n = Number(packed & 0xffffffffn);
    const s = decoder.decode(new Uint8Array(x.memory.buffer, p, n));
    x.free(p);
    return s;
  };
  const fail = (packed) => {
    const e = JSON.parse(take(packed)).error;
    return new TokenfitError(e.code, e.message, e.field);
  };
  const handles = {};
  for (const name of ENCODINGS) {
    const table = readFileSync(new URL(`../../core/tables/${name}.tkt`, import.meta.url));
    const p = put(table);
    handles[name] = x.load_table(p, table.length);
    x.free(p);
    assert.ok(handles[name] > 0, `load_table ${name}: ${handles[name]}`);
  }
  const tf = {
    module: 'wasip1',
    call(op, request) {
      const o = encoder.encode(op);
      const r = encoder.encode(typeof request === 'string' ? request : JSON.stringify(request));
      const op_ = put(o);
      const req = put(r);
      const answer = JSON.parse(take(x.call(op_, o.length, req, r.length)));
      x.free(op_);
      x.free(req);
      if (answer.error) throw new TokenfitError(answer.error.code, answer.error.message, answer.error.field);
      return answer;
    },
    countTokens(text, { encoding = '' } = {}) {
      let h = handles[encoding];
      if (h === undefined) {
        const e = encoder.encode(encoding);
        const p = put(e);
        h = x.encoding_handle(p, e.length);
        x.free(p);
        if (h < 0) throw fail(x.last_error());
      }
      const b = encoder.encode(text);
      const p = put(b);
      const n = x.count(h, p, b.length);
      x.free(p);
      if (n < 0) throw fail(x.last_error());
      return n;
    },
    encode: (text, t) => tf.call('encode', { text, ...t }).ids,
    decode: (ids, t) => tf.call('decode', { ids, ...t }).text,
    countChat: (request) => tf.call('countChat', request),
    memoryBytes: () => x.memory.buffer.byteLength,
  };
  return tf;
}

test('node:wasi: the shared vectors — token counts and ids, API-billed chats, budgets, plans, request shapes', () => {
  const tf = raw();
  const vectors = bundleVectors();
  assert.deepEqual(checkTokenVectors(tf, vectors), []);
  assert.deepEqual(checkChatVectors(tf, vectors), []);
  assert.deepEqual(checkBudgetVectors(tf, vectors), []);
});

test('node:wasi: a sample of the hostile cases (every 5th, huge ones scaled down), the instance answering the probe after each', (t) => {
  const file = bundleHostile();
  const tf = raw();
  setup(tf, file);
  const scale = 64;
  let ran = 0;
  const failures = [];
  file.cases.forEach((c, i) => {
    if (i % 5 !== 0 || c.binary) return;
    const got = ask(tf, c, body(c, scale));
    const why = got.thrown ? `threw ${got.thrown}` : check(c.expect, got);
    if (why) failures.push(`${c.name}: ${why}`);
    const p = probe(tf, file.probe);
    if (p) failures.push(`after ${c.name}: ${p}`);
    ran++;
  });
  t.diagnostic(`${ran} of ${file.cases.length} hostile cases run under node:wasi; memory ${(tf.memoryBytes() / 1048576).toFixed(0)} MB`);
  assert.ok(ran > 200, `only ${ran} cases`);
  assert.deepEqual(failures, []);
});
