// The worker side of tokenfit's Worker helper: one instance, answering the
// messages of worker-client.js in order. Internal; see worker.d.ts.

/**
 * @param {{ post(message: unknown): void, listen(handler: (message: any) => void): void }} port
 * @param {(options?: object) => Promise<any>} init
 */
export function serve(port, init) {
  let tf = null;
  const lives = new Map(); // live counter id → counter
  let nextLive = 0;
  const answer = (id, run) => {
    let value;
    try {
      value = run();
    } catch (e) {
      port.post({ id, error: { code: e.code || 'internal', message: e.message || String(e), field: e.field } });
      return;
    }
    port.post({ id, value });
  };
  let queue = Promise.resolve();
  port.listen((msg) => {
    const { id, fn, args = [] } = msg;
    if (fn === 'init') {
      queue = queue.then(() => init(args[0]).then(
        (t) => {
          tf = t;
          port.post({ id, value: { module: t.module } });
        },
        (e) => port.post({ id, error: { code: e.code || 'internal', message: e.message || String(e), field: e.field } }),
      ));
      return;
    }
    queue = queue.then(() => {
      if (fn === 'loadEncoding' || fn === 'loadCatalog') {
        return tf[fn](...args).then(
          (v) => port.post({ id, value: v }),
          (e) => port.post({ id, error: { code: e.code || 'internal', message: e.message || String(e) } }),
        );
      }
      answer(id, () => {
        switch (fn) {
          case 'liveNew': {
            const c = tf.liveCounter(...args);
            lives.set(++nextLive, c);
            return { lid: nextLive, encoding: c.encoding, count: c.count() };
          }
          case 'live': {
            const c = lives.get(msg.lid);
            if (msg.method === 'dispose') {
              lives.delete(msg.lid);
              if (c) c.dispose();
              return undefined;
            }
            if (!c) throw Object.assign(new Error('tokenfit: this live counter was disposed: make a new one'), { code: 'invalid_handle' });
            return c[msg.method](...args);
          }
          default:
            if (typeof tf[fn] !== 'function') throw Object.assign(new Error(`tokenfit: no function ${fn}`), { code: 'unknown_operation' });
            return tf[fn](...args);
        }
      });
    });
  });
}
