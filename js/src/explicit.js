// tokenfit/explicit: the browser and edge API with no default files. init()
// loads the module and the encodings its options name, and nothing else, so
// that a bundled app ships only those (tokenfit's default entry makes every
// bundler copy both modules and every table). The package's files are
// tokenfit/assets/<name> (nohf, full, lite and each encoding): functions
// that return their URL.
//
//   import { init } from 'tokenfit/explicit';
//   import lite from 'tokenfit/assets/lite';
//   import o200k_base from 'tokenfit/assets/o200k_base';
//   const tf = await init({ module: lite(), encodings: { o200k_base: o200k_base() } });

import { makeInit } from './tokenfit.js';
import { web } from './web.js';
import { TokenfitError } from './errors.js';

export * from './api.js';

const needs = (what, how) => () => {
  throw new TokenfitError('invalid_argument', `tokenfit/explicit: ${what} was not given: ${how} (tokenfit/explicit has no default files)`);
};

/** Starts tokenfit with the module and the encodings given: see index.d.ts. */
export const init = makeInit({
  ...web,
  preload: [],
  moduleURL: (kind) => (kind === 'full'
    ? needs('the module with the tokenizer.json loader', "to load tokenizer.json files, start with init({ module: full() }) from 'tokenfit/assets/full'")
    : needs('the module', "pass init({ module }), e.g. module: lite() from 'tokenfit/assets/lite'"))(),
  tableURL: (name) => needs(`the table of ${name}`, `pass it to init({ encodings: { ${name}: … } }) or loadEncoding('${name}', source)`)(),
});
