// Where the page serves tokenfit's files (build.mjs copies them into
// dist/assets/<hash>/: the module, and the tables in the package's transport form,
// .tkp), and one download and compile of them for both workers:
// a compiled WebAssembly.Module and table bytes cross to a worker for free
// or nearly, where compiling twice would cost the page its start-up.

// TOKENFIT_ASSETS is build.mjs's define: assets/<hash of the files>/.
/* global TOKENFIT_ASSETS */
export const assetBase = new URL(`./${TOKENFIT_ASSETS}`, import.meta.url);

export async function prepare(encodings = ['o200k_base']) {
  const [module, ...tables] = await Promise.all([
    WebAssembly.compileStreaming(fetch(new URL('tokenfit.wasm', assetBase))),
    ...encodings.map((e) => fetch(new URL(`tables/${e}.tkp`, assetBase)).then((r) => r.arrayBuffer())),
  ]);
  return { module, encodings: Object.fromEntries(encodings.map((e, i) => [e, new Uint8Array(tables[i])])) };
}
