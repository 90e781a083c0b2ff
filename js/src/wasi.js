// A minimal WASI preview 1, just enough for tokenfit's Go reactor (see
// RATIONALE.md, "Why does the package bring its own WASI shim?"). The
// reactor opens no file and reads no input: Go's runtime asks for the
// clocks, random bytes, poll_oneoff (its timers and usleep) and fd_write for
// its own last words. Everything else answers "not supported" or "bad file
// descriptor", which Go's os package handles. It runs wherever WebAssembly
// does (browsers, Node, Deno, Bun, workerd): no Node API, no globals but
// crypto, performance and console.

const EBADF = 8;
const EINVAL = 28;

/**
 * @param {{ env?: string[], log?: (line: string) => void, random?: (view: Uint8Array) => boolean }} [options] the
 *   environment ("NAME=value" strings, such as GOGC for Go's runtime), where
 *   the runtime's messages go, and a source of random bytes to try before
 *   crypto.getRandomValues (it fills view and returns true, or returns false)
 * @returns {{ imports: WebAssembly.Imports, setMemory(memory: WebAssembly.Memory): void, fatal(): string }}
 *   fatal: the runtime's first line saying why it is dying ("runtime: out
 *   of memory: …", "fatal error: …", "panic: …"), or ''
 */
export function wasiShim({ env = [], log = (line) => console.error(line), random = () => false } = {}) {
  /** @type {WebAssembly.Memory} */
  let memory;
  const view = () => new DataView(memory.buffer);
  const decoder = new TextDecoder();
  let pending = '';
  let fatal = '';
  const envBytes = env.map((e) => new TextEncoder().encode(e + '\0'));
  const origin = typeof performance !== 'undefined' ? performance.timeOrigin || Date.now() : Date.now();
  const now = () => (typeof performance !== 'undefined' ? performance.now() : Date.now() - origin);
  // Every address the module passes is an i32, which JavaScript receives
  // signed: each is read unsigned (>>> 0), for a module past 2 GiB.
  const zero2 = (a, b) => {
    view().setUint32(a >>> 0, 0, true);
    view().setUint32(b >>> 0, 0, true);
    return 0;
  };
  const wasi = {
    args_sizes_get: zero2,
    args_get: () => 0,
    environ_sizes_get(n, size) {
      n >>>= 0;
      size >>>= 0;
      view().setUint32(n, envBytes.length, true);
      view().setUint32(size, envBytes.reduce((a, b) => a + b.length, 0), true);
      return 0;
    },
    environ_get(ptrs, buf) {
      ptrs >>>= 0;
      buf >>>= 0;
      const v = view();
      for (const [i, b] of envBytes.entries()) {
        v.setUint32(ptrs + 4 * i, buf, true);
        new Uint8Array(memory.buffer, buf, b.length).set(b);
        buf += b.length;
      }
      return 0;
    },
    clock_time_get(id, precision, out) {
      // 0 is the real-time clock; the others are monotonic.
      const ms = id === 0 ? origin + now() : now();
      view().setBigUint64(out >>> 0, BigInt(Math.round(ms * 1e6)), true);
      return 0;
    },
    random_get(ptr, len) {
      ptr >>>= 0;
      len >>>= 0;
      if (random(new Uint8Array(memory.buffer, ptr, len))) return 0;
      // getRandomValues fills at most 65,536 bytes at a time.
      for (let off = 0; off < len; off += 65536) {
        crypto.getRandomValues(new Uint8Array(memory.buffer, ptr + off, Math.min(65536, len - off)));
      }
      return 0;
    },
    fd_write(fd, iovs, n, written) {
      if (fd !== 1 && fd !== 2) return EBADF;
      iovs >>>= 0;
      written >>>= 0;
      const v = view();
      let total = 0;
      for (let i = 0; i < n; i++) {
        const p = v.getUint32(iovs + 8 * i, true);
        const l = v.getUint32(iovs + 8 * i + 4, true);
        pending += decoder.decode(new Uint8Array(memory.buffer, p, l), { stream: true });
        total += l;
      }
      let nl;
      while ((nl = pending.indexOf('\n')) >= 0) {
        if (!fatal && /^(runtime: out of memory|fatal error: |panic: )/.test(pending)) fatal = pending.slice(0, Math.min(nl, 200));
        log(pending.slice(0, nl));
        pending = pending.slice(nl + 1);
      }
      v.setUint32(written, total, true);
      return 0;
    },
    proc_exit(code) {
      throw new WebAssembly.RuntimeError(`tokenfit: the module exited with status ${code}`);
    },
    sched_yield: () => 0,
    // Go's runtime calls poll_oneoff from netpoll, with one clock
    // subscription as its timeout, as soon as any runtime timer exists (the
    // GC's scavenger sleeps on one), and from usleep; any error but EINTR is
    // fatal ("poll_oneoff failed"), so ENOSYS here killed an instance at a
    // GC start some time into its life. The module opens no file, so only
    // clock subscriptions come: each is answered as fired, at once (a
    // synchronous call cannot sleep; Go checks its timers again and asks
    // anew). An fd subscription is answered EBADF.
    poll_oneoff(subs, events, n, nevents) {
      subs >>>= 0;
      events >>>= 0;
      nevents >>>= 0;
      const v = view();
      for (let i = 0; i < n; i++) {
        const s = subs + 48 * i; // subscription: userdata u64, tag u8 at 8, union at 16
        const e = events + 32 * i; // event: userdata u64, error u16 at 8, type u8 at 10, fd_readwrite at 16
        const tag = v.getUint8(s + 8);
        v.setBigUint64(e, v.getBigUint64(s, true), true);
        v.setUint16(e + 8, tag === 0 ? 0 : EBADF, true);
        v.setUint8(e + 10, tag);
        v.setBigUint64(e + 16, 0n, true);
        v.setUint16(e + 24, 0, true);
      }
      v.setUint32(nevents, n, true);
      return 0;
    },
    fd_close: () => EBADF,
    fd_read: () => EBADF,
    fd_fdstat_get: () => EBADF,
    fd_fdstat_set_flags: () => EBADF,
    fd_prestat_get: () => EBADF,
    fd_prestat_dir_name: () => EINVAL,
  };
  return {
    imports: { wasi_snapshot_preview1: wasi },
    setMemory(m) {
      memory = m;
    },
    fatal: () => fatal,
  };
}
