// Where the package's own files are: the modules and the tables beside this
// file (bundlers that understand new URL(…, import.meta.url) copy them), and
// the platform of browsers and edge runtimes that fetches them. node.js has
// Node's.

import { TokenfitError } from './errors.js';
import { DEFAULT_ENCODING } from './table.js';

export function defaultModuleURL() {
  return new URL('../dist/tokenfit.wasm', import.meta.url);
}
export function defaultLiteURL() {
  return new URL('../dist/tokenfit-lite.wasm', import.meta.url);
}
function defaultTableURL(name) {
  return new URL(`../dist/tables/${name}.tkp`, import.meta.url);
}

/** The platform of browsers and edge runtimes: fetch, and nothing synchronous. */
export const webPlatform = {
  name: 'web',
  base: () => (typeof location !== 'undefined' ? location.href : import.meta.url),
  async open(url, what) {
    const r = await fetch(url);
    if (!r.ok) throw new TokenfitError('invalid_argument', `tokenfit: ${what}: HTTP ${r.status} for ${url}`);
    return r;
  },
  async read(url, what) {
    return new Uint8Array(await (await this.open(url, what)).arrayBuffer());
  },
  preload: [DEFAULT_ENCODING],
  // Downloads take the transport form (27% less gzip); see expandTable.
  tableExt: '.tkp',
  tableURL: defaultTableURL,
};
