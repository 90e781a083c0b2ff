// The module worker that tokenfit/worker starts in browsers, Deno and Bun.
import { init } from './index.js';
import { serve } from './worker-serve.js';

serve({
  post: (m) => self.postMessage(m),
  listen: (h) => self.addEventListener('message', (e) => h(e.data)),
}, init);
