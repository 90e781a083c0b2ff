// The page's one door to tokenfit. Everything else (the workers, the UI)
// goes through what this file exports, so that following the npm package's
// API as it settles is a change to this file alone.
//
// Today it imports the interim stand-in (./standin), which offers the
// package's planned API over the GOOS=js module. When the package lands, the
// import below becomes `from 'tokenfit'`, and `assets` lists the files the
// package ships instead.

import { init } from './standin/tokenfit.js';

export { TokenfitError } from './standin/tokenfit.js';

// The files build.mjs copies into dist/assets (paths from the repository's
// root), and where the page loads them from.
export const assets = [
  'build/wasm/tokenfit-js.wasm',
  'core/internal/tables/o200k_base.tkt',
  'core/internal/tables/cl100k_base.tkt',
  'core/internal/tables/p50k_base.tkt',
  'core/internal/tables/r50k_base.tkt',
];

const asset = (name) => new URL(`./assets/${name}`, import.meta.url);

// open() starts tokenfit with the tables of the given encodings and returns
// the package's synchronous API, plus useEncoding(name), which loads another
// encoding's table the first time a model needs it.
export async function open(encodings = ['o200k_base']) {
  const tables = Object.fromEntries(encodings.map((e) => [e, asset(`${e}.tkt`)]));
  const tf = await init({ module: asset('tokenfit-js.wasm'), tables });
  const loaded = new Set(encodings);
  tf.useEncoding = async (name) => {
    if (loaded.has(name)) return;
    await tf.loadTable(asset(`${name}.tkt`));
    loaded.add(name);
  };
  return tf;
}
