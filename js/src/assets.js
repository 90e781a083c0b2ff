// Where the package's own files are, for init() without options in
// browsers and edge runtimes: the modules and the tables, each named by
// its module in assets/ (one literal new URL(…, import.meta.url) each,
// which bundlers copy into the build). An app that imports this file ships
// all seven; tokenfit/explicit ships what the app imports.

import { web } from './web.js';
import { DEFAULT_ENCODING } from './table.js';
import full from './assets/full.js';
import nohf from './assets/nohf.js';
import lite from './assets/lite.js';
import o200k_base from './assets/o200k_base.js';
import cl100k_base from './assets/cl100k_base.js';
import p50k_base from './assets/p50k_base.js';
import r50k_base from './assets/r50k_base.js';

const tables = { o200k_base, cl100k_base, p50k_base, r50k_base };

/** The web platform with the package's files as its defaults. */
export const webPlatform = {
  ...web,
  leanFirst: true, // init() without a module starts the lean one, and moves to the full one when needed (upgrade.js)
  preload: [DEFAULT_ENCODING],
  moduleURL: (kind) => ({ nohf, full, lite })[kind](),
  tableURL: (name) => tables[name](),
};
