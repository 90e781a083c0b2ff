// The model catalog: the models of models.dev beyond the registry built
// into the module (core/registry/catalog.json, dist/tables/catalog.json in
// the package, about 1.3 MB, 90 KB of gzip), loaded under the built-in rows.
// Where the platform reads files synchronously (Node, Deno, Bun) it is read
// the first time a call needs it: an answer that fell back (a model the
// built-in rows do not know), or every model listed; elsewhere
// loadCatalog(source) or init({ catalog: source }) loads it, the source
// imported by the app (tokenfit/assets/catalog) so that bundlers ship it
// only to apps that load it (API.md, "Models, the catalog and costs").

import { TokenfitError, fromAnswer } from './errors.js';
import { checkSource, fetchBytes } from './load.js';

const text = (bytes) => new TextDecoder().decode(bytes);

/**
 * @param platform how the platform reads a URL (catalogURL: where the package's catalog is, readSync: a file now)
 * @param {(fn: () => any) => any} guard the instance's guard (instance.js)
 * @returns the instance's catalog: auto() loads it where it can be read now
 * (true when it did), load(source) loads it from a source, into() loads it into
 * a module the instance moves to (upgrade.js)
 */
export function catalogLoader(platform, guard) {
  let loaded = null; // the catalog's text once loaded into the module
  let tried = false; // auto() read nothing: it does not read again
  let into = null; // the module to load it into: set by upgrade.js

  const put = (be, json) => {
    const a = be.call('loadCatalog', json);
    if (a && a.error) throw fromAnswer(a);
    return a;
  };
  return {
    // attach makes be the module the catalog goes into, loading it there
    // if it was loaded before (run: the guard that module's failures go to).
    attach(be, run = guard) {
      if (loaded !== null) run(() => put(be, loaded));
      into = be;
    },
    auto() {
      if (loaded !== null || tried || !platform.readSync || !platform.catalogURL) return false;
      tried = true;
      const bytes = platform.readSync(platform.catalogURL());
      if (!bytes) return false;
      const json = text(bytes);
      guard(() => put(into, json));
      loaded = json;
      return true;
    },
    async load(source) {
      checkSource('loadCatalog', source);
      let src = source;
      if (src === undefined && platform.catalogURL) src = platform.catalogURL();
      if (src === undefined) {
        // An import the app writes, so that bundlers ship the catalog only
        // in apps that load it.
        throw new TokenfitError('invalid_argument', "tokenfit: loadCatalog: give the catalog's source here: " +
          "`import catalog from 'tokenfit/assets/catalog'` and `await tf.loadCatalog(catalog())` (a bundler then ships it), or its URL");
      }
      const json = text(await fetchBytes(platform, src, 'the catalog'));
      return guard(() => {
        const a = put(into, json);
        loaded = json;
        return a;
      });
    },
  };
}
