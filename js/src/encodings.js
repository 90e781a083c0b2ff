// The encodings an instance has loaded: their handles (GOOS=js: the names),
// loading a table (given, fetched, or in Node read from disk the first time
// a call needs it), the list encodings() reports from them, and where each
// came from (what upgrade.js loads into the module it starts).

import { TokenfitError, notLoadedError } from './errors.js';
import { checkString } from './args.js';
import { ENCODINGS, tableName } from './table.js';
import { checkSource, fetchBytes } from './load.js';

/**
 * @param be the backend (wasip1.js, gojs.js)
 * @param platform how the platform reads a URL (tokenfit.js, makeInit)
 * @param {(name: string) => URL} tables where an encoding's table is
 * @param {(fn: () => any) => any} guard the instance's guard (instance.js)
 * @param {Map<string, Promise<Uint8Array>>} [early] fetches of tables from their default place already under way (init)
 */
export function loadedEncodings(be, platform, tables, guard, early = new Map()) {
  const handles = new Map(); // encoding name → handle
  const fetching = new Map(); // encoding name → the promise of its load from the default place
  // encoding name → where its table came from: undefined for its default
  // place, else the URL or the bytes given (kept only then: a default
  // table is fetched again, from the HTTP cache as a rule).
  const origins = new Map();
  // Loaded before the instance started (Node's loaded image: from their
  // default place).
  for (const [name, h] of be.imaged || []) {
    handles.set(name, h);
    origins.set(name, undefined);
  }

  // load loads the table of the encoding want (a .tkt, or a .tkp the
  // backend has the module expand) and records its handle under the name
  // the table carries (read from its header here: asking the module would
  // allocate, and the first allocation after a load costs a garbage
  // collection). A table of another encoding is refused before the module
  // sees it, so it leaves every loaded encoding as it was.
  const checkName = (bytes, want) => {
    const named = tableName(bytes);
    if (named !== null && named !== want) {
      throw new TokenfitError('invalid_table',
        `tokenfit: loadEncoding: the table given for ${want} holds ${ENCODINGS.includes(named) ? named : 'another encoding'}: nothing was loaded`);
    }
    return named;
  };
  const load = (bytes, want, index) => {
    const named = checkName(bytes, want);
    const h = be.loadTable(bytes, index);
    const name = be.kind === 'js' ? h : named;
    if (name) handles.set(name, h);
    return h;
  };

  // handle returns the handle of a known encoding, loading its table from
  // disk when the platform can (Node), else throwing what to call.
  const handle = (name, fn) => {
    const h = handles.get(name);
    if (h !== undefined) return h;
    if (!ENCODINGS.includes(name)) {
      throw new TokenfitError('unknown_encoding', `tokenfit: ${fn}: unknown encoding "${name}" (known: ${ENCODINGS.join(', ')})`);
    }
    if (platform.readIntoSync && be.loadRead) {
      // Node: the .tkt and its index read straight into the module's memory.
      const h = be.loadRead((place) => platform.readIntoSync(tables(name), place),
        (place) => platform.readIntoSync(platform.tableIndexURL(name), place), (tkt) => checkName(tkt, name));
      if (h === undefined) throw notLoadedError(name, fn);
      handles.set(name, h);
    } else {
      const bytes = platform.readSync && platform.readSync(tables(name));
      if (!bytes) throw notLoadedError(name, fn);
      load(bytes, name, platform.readIndexSync && platform.readIndexSync(name));
    }
    origins.set(name, undefined);
    return handles.get(name);
  };

  const loadEncoding = async (name, source) => {
    guard(() => {
      checkString('loadEncoding', 'the encoding name', name);
      if (!ENCODINGS.includes(name)) {
        throw new TokenfitError('unknown_encoding', `tokenfit: loadEncoding: unknown encoding ${JSON.stringify(name.slice(0, 40))} (known: ${ENCODINGS.join(', ')})`);
      }
      checkSource('loadEncoding', source);
    });
    if (handles.has(name)) return;
    // Loads from the default place share one fetch while it is under way.
    if (source === undefined && fetching.has(name)) return fetching.get(name);
    const done = (async () => {
      const src = await source;
      const from = source !== undefined ? src : early.get(name) || tables(name);
      early.delete(name);
      const bytes = await fetchBytes(platform, from, `the table of ${name}`);
      guard(() => {
        if (handles.has(name)) return; // another load finished first
        load(bytes, name);
        if (!handles.has(name)) {
          throw new TokenfitError('invalid_table', `tokenfit: loadEncoding: the table given for ${name} holds another encoding`);
        }
        origins.set(name, source === undefined || typeof src === 'string' || src instanceof URL ? src : bytes);
      });
    })();
    if (source !== undefined) return done;
    fetching.set(name, done);
    try {
      return await done;
    } finally {
      fetching.delete(name);
    }
  };

  return {
    handle,
    has: (name) => handles.has(name),
    list: () => ENCODINGS.map((name) => ({ name, loaded: handles.has(name) })),
    origins: () => [...origins],
    loadEncoding,
  };
}
