// tokenfit/worker for browsers, Deno and Bun: tokenfit in a module worker,
// the same API with promises. See worker.d.ts.
import { connect } from './worker-client.js';

/**
 * Starts tokenfit in a module worker and returns its API, each call a
 * promise. See worker.d.ts.
 */
export function createWorker(options = {}) {
  const worker = options.worker || new Worker(new URL('./worker-entry.js', import.meta.url), { type: 'module', name: 'tokenfit' });
  return connect({
    post: (m) => worker.postMessage(m),
    listen: (h) => worker.addEventListener('message', (e) => h(e.data)),
    onError: (h) => worker.addEventListener('error', (e) => h(e.error || new Error(e.message))),
    terminate: () => worker.terminate(),
  }, options);
}
