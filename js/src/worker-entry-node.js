// The worker thread that tokenfit/worker starts in Node.
import { parentPort } from 'node:worker_threads';
import { init } from './node.js';
import { serve } from './worker-serve.js';

serve({
  post: (m) => parentPort.postMessage(m),
  listen: (h) => parentPort.on('message', h),
}, init);
