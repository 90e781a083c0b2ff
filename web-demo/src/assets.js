// Where the page serves tokenfit's files (build.mjs copies them into
// dist/assets/<hash>/: both modules, and the tables in the package's
// transport form, .tkp, with o200k_base also expanded, .tkt), and the full
// module's download and compile, which the jobs worker makes once the first
// count is on screen (boot.js starts the first screen's: the lean module
// and o200k_base).

// TOKENFIT_ASSETS is build.mjs's define: assets/<hash of the files>/.
/* global TOKENFIT_ASSETS */

export const assetBase = new URL(`./${TOKENFIT_ASSETS}`, import.meta.url);

// compileFull downloads and compiles the full module (budgets, plans, chat
// counts, estimates).
export const compileFull = () => WebAssembly.compileStreaming(fetch(new URL('tokenfit.wasm', assetBase)));
