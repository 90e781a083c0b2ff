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
  // answer posts what run() gives. A call that needs the full module while
  // a lean-first instance (a page's default init()) is still moving to it
  // waits for the move here (calls to a worker are asynchronous anyway) and
  // runs again, so a worker never refuses one for that.
  const answer = (id, run) => {
    let value;
    try {
      value = run();
    } catch (e) {
      if (e && e.ready && tf && typeof tf.ready === 'function') {
        return tf.ready().then(() => answer(id, run), (err) => post(id, err));
      }
      post(id, e);
      return;
    }
    port.post({ id, value });
  };
  const post = (id, e) => port.post({ id, error: { code: e.code || 'internal', message: e.message || String(e), field: e.field } });
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
      return answer(id, () => {
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
