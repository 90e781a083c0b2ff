// The page's one door to tokenfit, the npm package, imported by its name as
// any application would. Only the workers (worker.js) open it.
//
// A bundled page loads the package's files from where the page serves
// them: build.mjs copies the module and the tables into dist/assets.
// (Before the package landed on main, build.mjs pointed `tokenfit` at
// ./standin, the same API over the GOOS=js module.)

import { init } from 'tokenfit';

export { TokenfitError } from 'tokenfit';

const assets = new URL('./assets/', import.meta.url);

// open starts tokenfit with the tables of the given encodings; others load
// with tf.loadEncoding(name) when a model needs them.
export function open(encodings = ['o200k_base']) {
  return init({
    module: new URL('tokenfit.wasm', assets),
    encodings,
    tables: new URL('tables/', assets),
  });
}
