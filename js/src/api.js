// The package's public functions, the same from every entry point (index.js
// for browsers and edge runtimes, node.js for Node, Deno and Bun); each entry
// adds only its own init(). The other files of src/ hold what is not public
// (tokenfit.js lists them).

export {
  TokenfitError,
  ENCODINGS,
  countTokens,
  countChat,
  calculateBudget,
  planInjection,
  encode,
  decode,
  withinLimit,
  truncate,
  chunk,
  calibrate,
  models,
  registerModels,
  encodings,
  version,
  liveCounter,
  loadEncoding,
  loadTokenizer,
  loadCatalog,
  priceUsage,
} from './tokenfit.js';
export { providerCounter } from './provider.js';
