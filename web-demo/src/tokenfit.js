// The page's one door to tokenfit, the npm package, imported by its name as
// any application would. The page opens it twice: on the main thread for
// the live count (a keystroke's count in the same frame as the keystroke,
// with no 1 MB text to copy to a worker), on the lean module; and in the
// jobs worker (worker.js) for everything that reads the whole text, on the
// lean module first and the full one once it has compiled.
//
// A bundled page tells the package where its files are: build.mjs copies
// the modules and the tables into dist/assets (assets.js).

import { init } from 'tokenfit';
import { assetBase } from './assets.js';

export { TokenfitError } from 'tokenfit';

// open starts tokenfit on a compiled module with the given tables (name →
// bytes); other encodings load with tf.loadEncoding(name) when a model
// needs them, from dist/assets/tables. savedImage: the package saves the
// instance's memory with o200k_base loaded after the first count, and the
// next visit's open starts from it instead of loading the table.
export function open({ module, encodings, savedImage = false }) {
  return init({ module, encodings, tables: new URL('tables/', assetBase), savedImage });
}

// loading runs fn, loading each encoding the package says is missing (a
// browser loads tables asynchronously, so the package asks for them
// instead of reading them itself) and trying again.
export async function loading(tf, fn) {
  for (let tries = 0; ; tries++) {
    try {
      return fn();
    } catch (e) {
      const name = e.code === 'encoding_not_loaded' && (e.encoding ?? /the encoding (\w+) is not loaded/.exec(e.message)?.[1]);
      if (!name || tries > 4) throw e;
      await tf.loadEncoding(name);
    }
  }
}
