// The page's first script, a classic one at the top of index.html's head:
// it runs before the rest of the document is parsed, and starts what the
// first count needs: the lean module's download and compile
// (WebAssembly.compileStreaming; V8 compiles on its own threads while the
// page is parsed and laid out) and o200k_base's table. main.js, a module
// that runs once the document is parsed, carries this file too and takes
// both from whichever copy ran first (one global, tokenfitBoot).
// index.html preloads the same two files, so the downloads start before
// even this script has arrived.
//
// An async module script would start them only after the first layout
// (its turn comes between the parser's tasks, and the first layout of this
// page takes 0.1-0.5 s, most of it font lookups), so build.mjs bundles this
// file alone as a classic script (dist/boot.js, 1 KB).

/* global TOKENFIT_ASSETS */
// The page's directory: dist/, where index.html, boot.js and main.js are.
const base = new URL(`./${TOKENFIT_ASSETS}`, document.baseURI);

// boot starts the downloads once per page and returns
// { module, table: Uint8Array, at: { boot, compiled, fetched } } (promises;
// at's times in ms since navigation, filled as each arrives).
export function boot() {
  if (globalThis.tokenfitBoot) return globalThis.tokenfitBoot;
  const at = { boot: performance.now() };
  const module = WebAssembly.compileStreaming(fetch(new URL('tokenfit-lite.wasm', base))).then((m) => {
    at.compiled = performance.now();
    return m;
  });
  const table = fetch(new URL('tables/o200k_base.tkt', base)).then((r) => {
    if (!r.ok) throw new Error(`the table of o200k_base: HTTP ${r.status} for ${r.url}`);
    return r.arrayBuffer();
  }).then((b) => {
    at.fetched = performance.now();
    return new Uint8Array(b);
  });
  // main.js reports a failure; until it looks, it is not an unhandled one.
  module.catch(() => {});
  table.catch(() => {});
  return (globalThis.tokenfitBoot = { at, module, table });
}

// prepare returns what boot started, once it is in: the lean module,
// compiled, and o200k_base's table as init() takes them; at gets the times.
export async function prepare(at = {}) {
  const started = boot();
  const [module, table] = await Promise.all([started.module, started.table]);
  Object.assign(at, started.at);
  return { module, encodings: { o200k_base: table } };
}

boot();
