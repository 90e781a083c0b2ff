// tokenfit/worker for Node: tokenfit in a worker thread, the same API with
// promises. See worker.d.ts.
import { Worker } from 'node:worker_threads';
import { connect } from './worker-client.js';

/**
 * Starts tokenfit in a worker thread and returns its API, each call a
 * promise. See worker.d.ts.
 */
export function createWorker(options = {}) {
  const worker = options.worker || new Worker(new URL('./worker-entry-node.js', import.meta.url));
  // An idle tokenfit worker does not keep the process alive: it is
  // referenced only while answers are awaited. A message counts once
  // posted (postMessage throws for what cannot be cloned, and then nothing
  // was sent); every message gets one answer, or the worker ends.
  worker.unref();
  let awaited = 0;
  const settle = () => {
    awaited = 0;
    worker.unref();
  };
  return connect({
    post: (m) => {
      worker.postMessage(m);
      if (awaited++ === 0) worker.ref();
    },
    listen: (h) => worker.on('message', (m) => {
      if (awaited > 0 && --awaited === 0) worker.unref();
      h(m);
    }),
    onError: (h) => {
      worker.on('error', (e) => {
        settle();
        h(e);
      });
      // A worker that exits (terminated from outside, or process.exit in
      // it) answers nothing more.
      worker.on('exit', (code) => {
        settle();
        h(new Error(`the worker exited with code ${code}`));
      });
    },
    terminate: () => worker.terminate(),
  }, options);
}
