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
  worker.unref(); // an idle tokenfit worker does not keep the process alive
  const ref = { n: 0 };
  return connect({
    post: (m) => {
      if (ref.n++ === 0) worker.ref();
      worker.postMessage(m);
    },
    listen: (h) => worker.on('message', (m) => {
      if (--ref.n === 0) worker.unref();
      h(m);
    }),
    onError: (h) => worker.on('error', h),
    terminate: () => worker.terminate(),
  }, options);
}
