// Benchmarks the two WebAssembly modules in Node: the GOOS=js module
// (syscall/js, globalThis.__tokenfit) against the GOOS=wasip1 reactor
// (//go:wasmexport, driven through a minimal WASI shim of our own, and
// through node:wasi for comparison). Both count o200k_base; the text is
// written into the reactor's memory with TextEncoder.encodeInto.
//
//   node js/scripts/bench-wasm.mjs build/wasm build/bench
//
// make bench-node builds the modules and the benchmark corpus (1 MiB, the
// text every host counts) first; the ~200-byte message is its first 200
// bytes. Nothing here needs npm packages.

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';

const [wasmDir = 'build/wasm', corpusPath = 'build/bench/corpus.txt', startOnly] = process.argv.slice(2);
const table = readFileSync('core/tables/o200k_base.tkt');
const mixed = readFileSync(corpusPath, 'utf8');
const message = new TextDecoder().decode(Buffer.from(mixed).subarray(0, 200)).replace(/\uFFFD$/, '');

// ---- a minimal WASI preview 1, enough for a Go reactor -------------------

function minimalWASI() {
  let memory;
  const view = () => new DataView(memory.buffer);
  const ENOSYS = 52, EBADF = 8;
  const decoder = new TextDecoder();
  const wasi = {
    args_sizes_get(argc, size) { view().setUint32(argc, 0, true); view().setUint32(size, 0, true); return 0; },
    args_get() { return 0; },
    environ_sizes_get(n, size) { view().setUint32(n, 0, true); view().setUint32(size, 0, true); return 0; },
    environ_get() { return 0; },
    clock_time_get(id, precision, out) {
      const ns = id === 0 ? BigInt(Date.now()) * 1000000n : process.hrtime.bigint();
      view().setBigUint64(out, ns, true);
      return 0;
    },
    random_get(ptr, len) { crypto.getRandomValues(new Uint8Array(memory.buffer, ptr, len)); return 0; },
    fd_write(fd, iovs, n, written) {
      let total = 0;
      for (let i = 0; i < n; i++) {
        const p = view().getUint32(iovs + 8 * i, true), l = view().getUint32(iovs + 8 * i + 4, true);
        const s = decoder.decode(new Uint8Array(memory.buffer, p, l));
        (fd === 2 ? process.stderr : process.stdout).write(s);
        total += l;
      }
      view().setUint32(written, total, true);
      return 0;
    },
    proc_exit(code) { throw new Error(`wasm exited with ${code}`); },
    sched_yield() { return 0; },
    poll_oneoff() { return ENOSYS; },
    fd_close() { return EBADF; },
    fd_read() { return EBADF; },
    fd_fdstat_get() { return EBADF; },
    fd_fdstat_set_flags() { return EBADF; },
    fd_prestat_get() { return EBADF; },
    fd_prestat_dir_name() { return EBADF; },
  };
  return { imports: { wasi_snapshot_preview1: wasi }, setMemory(m) { memory = m; } };
}

// ---- the wasip1 reactor ----------------------------------------------------

async function wasip1(kind, module) {
  let instance;
  if (kind === 'node:wasi') {
    const { WASI } = await import('node:wasi');
    const wasi = new WASI({ version: 'preview1', returnOnExit: true });
    instance = await WebAssembly.instantiate(module, wasi.getImportObject());
    wasi.initialize(instance);
  } else {
    const shim = minimalWASI();
    instance = await WebAssembly.instantiate(module, shim.imports);
    shim.setMemory(instance.exports.memory);
    instance.exports._initialize();
  }
  const x = instance.exports;
  const bytes = () => new Uint8Array(x.memory.buffer);
  const tp = x.alloc(table.length);
  bytes().set(table, tp);
  const handle = x.load_table(tp, table.length);
  x.free(tp);
  if (handle <= 0) throw new Error(`load_table: ${handle}`);
  // One input buffer, grown when a text does not fit (3 bytes per UTF-16
  // unit always do).
  let buf = 0, cap = 0;
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  const put = (s) => {
    const b = encoder.encode(s);
    const p = x.alloc(b.length);
    bytes().set(b, p);
    return [p, b.length];
  };
  return {
    call(op, json) {
      const [op_, opLen] = put(op), [req, reqLen] = put(json);
      const packed = x.call(op_, opLen, req, reqLen);
      x.free(op_);
      x.free(req);
      const p = Number(packed >> 32n), n = Number(packed & 0xffffffffn);
      const out = decoder.decode(new Uint8Array(x.memory.buffer, p, n));
      x.free(p);
      return out;
    },
    count(text) {
      const need = text.length * 3;
      if (need > cap) {
        if (buf) x.free(buf);
        cap = Math.max(need, 1024);
        buf = x.alloc(cap);
      }
      const { written } = encoder.encodeInto(text, new Uint8Array(x.memory.buffer, buf, cap));
      const n = x.count(handle, buf, written);
      if (n < 0) throw new Error(`count: status ${n}`);
      return n;
    },
  };
}

// ---- the GOOS=js module ----------------------------------------------------

async function goosJS(module) {
  await import(pathToFileURL(resolve(wasmDir, 'wasm_exec.js')).href);
  const go = new globalThis.Go();
  const instance = await WebAssembly.instantiate(module, go.importObject);
  go.run(instance); // not awaited: main registers __tokenfit, then waits
  const tf = globalThis.__tokenfit;
  const loaded = JSON.parse(tf.loadTable(new Uint8Array(table)));
  if (loaded.error) throw new Error(loaded.error.message);
  return {
    call: (op, json) => tf.call(op, json),
    count(text) {
      const n = tf.count('o200k_base', text);
      if (n < 0) throw new Error(tf.lastError());
      return n;
    },
  };
}

// ---- measuring ---------------------------------------------------------------

// median of runs of time per call, in µs
function measure(fn, { minTime = 300, runs = 7 } = {}) {
  let iters = 1;
  for (;;) {
    const t0 = performance.now();
    for (let i = 0; i < iters; i++) fn();
    if (performance.now() - t0 > minTime / runs) break;
    iters *= 2;
  }
  const times = [];
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    for (let i = 0; i < iters; i++) fn();
    times.push((performance.now() - t0) * 1000 / iters);
  }
  times.sort((a, b) => a - b);
  return times[runs >> 1];
}

const kinds = [
  ['GOOS=js (syscall/js)', 'tokenfit-js.wasm', goosJS],
  ['wasip1 (own WASI shim)', 'tokenfit.wasm', (m) => wasip1('shim', m)],
  ['wasip1 (node:wasi)', 'tokenfit.wasm', (m) => wasip1('node:wasi', m)],
];

// start returns the runtime and how long it took from the module's bytes to
// a first count: compiling, instantiating, the Go runtime's start-up and
// loading o200k_base.
async function start([name, file, make]) {
  const t0 = performance.now();
  const module = await WebAssembly.compile(readFileSync(join(wasmDir, file)));
  const rt = await make(module);
  rt.count('Hello world');
  rt.startMs = performance.now() - t0;
  rt.name = name;
  return rt;
}

// With a third argument, measure one fresh start and print it (the parent
// runs this in new processes, so no runtime inherits another's compiled code).
if (startOnly !== undefined) {
  const rt = await start(kinds[Number(startOnly)]);
  console.log(rt.startMs.toFixed(2));
  process.exit(0);
}

const runtimes = [];
for (const [i, kind] of kinds.entries()) {
  try {
    const rt = await start(kind);
    const fresh = [0, 1, 2].map(() => Number(execFileSync(process.execPath,
      ['--no-warnings', process.argv[1], wasmDir, corpusPath, String(i)], { encoding: 'utf8' })));
    rt.startMs = fresh.sort((a, b) => a - b)[1];
    runtimes.push(rt);
  } catch (e) {
    console.error(`${kind[0]}: skipped: ${e.message}`);
  }
}

const request = JSON.stringify({ encoding: 'o200k_base', text: message });
const counts = runtimes.map((rt) => [rt.count(message), rt.count(mixed), rt.call('countTokens', request)]);
if (counts.some((c) => c[0] !== counts[0][0] || c[1] !== counts[0][1] || c[2] !== counts[0][2])) {
  console.error('the runtimes disagree:', counts);
  process.exit(1);
}

const msgBytes = Buffer.byteLength(message), mixedBytes = Buffer.byteLength(mixed);
for (const rt of runtimes) {
  rt.perCall = measure(() => rt.count(message));
  rt.empty = measure(() => rt.count(''));
  rt.json = measure(() => rt.call('countTokens', request));
  rt.big = measure(() => rt.count(mixed), { minTime: 2000, runs: 5 });
}
const base = runtimes[0];
console.log(`\nNode ${process.version}, o200k_base; ${msgBytes}-byte message (${counts[0][0]} tokens), ${(mixedBytes / 1e6).toFixed(2)} MB mixed text (${counts[0][1]} tokens)`);
console.log(`first count: a fresh process from the module's bytes to a first count (compile, start, o200k_base table), median of 3`);
console.log(`ratios: time / ${base.name}'s time (below 1: faster)\n`);
const row = (cols) => console.log(cols.map((c, i) => (i === 0 ? c.padEnd(26) : c.padStart(14))).join(''));
row(['', 'first count', 'empty count', 'count message', 'ratio', 'JSON message', 'ratio', '1 MB', 'MB/s', 'ratio']);
for (const rt of runtimes) {
  row([
    rt.name,
    `${rt.startMs.toFixed(1)} ms`,
    `${rt.empty.toFixed(2)} µs`,
    `${rt.perCall.toFixed(2)} µs`,
    `${(rt.perCall / base.perCall).toFixed(2)}x`,
    `${rt.json.toFixed(2)} µs`,
    `${(rt.json / base.json).toFixed(2)}x`,
    `${(rt.big / 1000).toFixed(1)} ms`,
    `${(mixedBytes / rt.big).toFixed(2)}`,
    `${(rt.big / base.big).toFixed(2)}x`,
  ]);
}
