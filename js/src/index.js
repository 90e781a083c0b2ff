// tokenfit for browsers and edge runtimes (the package's default export
// condition). init() fetches the module and the tables beside this file, or
// takes them from its options (a URL, bytes, a Response or, for the module,
// a WebAssembly.Module). See index.d.ts.

import { makeInit } from './tokenfit.js';
import { webPlatform } from './assets.js';

export * from './api.js';

/** Starts tokenfit: see index.d.ts. */
export const init = makeInit(webPlatform);
