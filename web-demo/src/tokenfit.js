// The page's one door to tokenfit, the npm package, imported by its name as
// any application would. Only the workers (worker.js) open it.
//
// A bundled page tells the package where its files are: build.mjs copies
// the module and the tables into dist/assets, and the page compiles the
// module once (assets.js) for both workers.

import { init } from 'tokenfit';
import { assetBase } from './assets.js';

export { TokenfitError } from 'tokenfit';

// open starts tokenfit on a compiled module with the given tables (name →
// bytes); other encodings load with tf.loadEncoding(name) when a model
// needs them, from dist/assets/tables.
export function open({ module, encodings }) {
  return init({ module, encodings, tables: new URL('tables/', assetBase) });
}
