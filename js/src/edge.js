// tokenfit/edge for Cloudflare Workers, Deno Deploy and other fetch-handler
// platforms (the default export condition): createHandler over index.js's
// init(), which takes the module and tables from options.init. See index.d.ts.
//
//   export default { fetch: createHandler({ init: { module, encodings } }) };

import { init } from './index.js';
import { makeCreateHandler } from './serve.js';

/** The JSON API over HTTP as a fetch handler: see index.d.ts. */
export const createHandler = makeCreateHandler(init);
