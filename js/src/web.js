// The platform of browsers and edge runtimes: fetch, and nothing
// synchronous. Which files it fetches by default is assets.js's business
// (tokenfit/explicit fetches none by default).

import { TokenfitError } from './errors.js';

export const web = {
  name: 'web',
  savedImages: true, // init() may start from the image a page saved before (saved.js)
  base: () => (typeof location !== 'undefined' ? location.href : import.meta.url),
  async open(url, what) {
    const r = await fetch(url);
    if (!r.ok) throw new TokenfitError('invalid_argument', `tokenfit: ${what}: HTTP ${r.status} for ${url}`);
    return r;
  },
  async read(url, what) {
    return new Uint8Array(await (await this.open(url, what)).arrayBuffer());
  },
  // Downloads take the transport form (27% less gzip); see expandTable.
  tableExt: '.tkp',
};
