// The page's one door to tokenfit, the npm package, imported by its name as
// any application would. The page opens it twice: on the main thread for
// the live count (a keystroke's count in the same frame as the keystroke,
// with no 1 MB text to copy to a worker), and in the jobs worker
// (worker.js) for everything that reads the whole text.
//
// A bundled page tells the package where its files are: build.mjs copies
// the module and the tables into dist/assets, and the page compiles the
// module once (assets.js) for both.

import { init } from 'tokenfit';
import { assetBase } from './assets.js';

export { TokenfitError } from 'tokenfit';

// open starts tokenfit on a compiled module with the given tables (name →
// bytes); other encodings load with tf.loadEncoding(name) when a model
// needs them, from dist/assets/tables.
export function open({ module, encodings }) {
  return init({ module, encodings, tables: new URL('tables/', assetBase) });
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

// encodingOf names the encoding that counts for a model, loaded: its own,
// or its estimator's base. The model is resolved by the package
// (tf.models({model}): exact id, alias, dated snapshot, or the fallback
// it reports), never here.
const estimators = new WeakMap(); // tf → models().estimators
export async function encodingOf(tf, model) {
  if (!estimators.has(tf)) estimators.set(tf, tf.models().estimators);
  const m = (await loading(tf, () => tf.models({ model }))).model;
  const encoding = m.encoding ?? estimators.get(tf)[m.estimator].base;
  await tf.loadEncoding(encoding);
  return encoding;
}
