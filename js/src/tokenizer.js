// loadTokenizer: a Hugging Face tokenizer.json (an open-weight model's, or
// its compact table from `tokenfit convert`) loaded into an instance under a
// name, which every operation then takes as its encoding. The file goes to
// core's loadTokenizer: bytes as they are, written into the module's memory
// (the load_tokenizer export), or as base64 in a JSON request to a module
// without it (either way a damaged file is core's invalid_table, not a JSON
// syntax error of a request); a parsed tokenizer.json as itself.

import { TokenfitError } from './errors.js';
import { badArg, checkString } from './args.js';
import { checkSource, fetchBytes } from './load.js';

const isPlainJSON = (v) => v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype;

// base64 of bytes: Node's Buffer, the newer Uint8Array.toBase64, or btoa
// over 32 KB slices. Buffer is read from globalThis: a bare `Buffer` makes
// Parcel insert a Node polyfill, which a browser build then fails to resolve.
function base64(bytes) {
  const NodeBuffer = globalThis.Buffer;
  if (typeof NodeBuffer === 'function') return NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
  if (typeof bytes.toBase64 === 'function') return bytes.toBase64();
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

/** core's loadTokenizer request for a file's bytes, for a module without load_tokenizer. */
export const base64Request = (name, bytes) => `{"name":${JSON.stringify(name)},"data":"${base64(bytes)}"}`;

/**
 * @param ops the instance's operations (full.js; lean.js refuses)
 * @param {() => Promise<void>} ready resolves once the instance's module has the loader (upgrade.js)
 * @param platform how the platform reads a URL
 * @param {(fn: () => any) => any} guard the instance's guard
 * @param {boolean} lite the lean module, which has no loader: refused before anything is fetched
 */
export function tokenizerLoader(ops, ready, platform, guard, lite) {
  return async (name, source) => {
    guard(() => {
      if (lite) ops.loadTokenizer();
      checkString('loadTokenizer', 'the tokenizer name', name);
      if (name === '') throw badArg('loadTokenizer', 'the tokenizer name must not be empty', name);
      if (!isPlainJSON(source)) checkSource('loadTokenizer', source);
      if (source === undefined) throw badArg('loadTokenizer', 'give the tokenizer.json: a URL, a Response, bytes or the parsed JSON', source);
    });
    // The module with the loader starts while the file downloads.
    const loader = guard(ready);
    loader.catch(() => {});
    source = await source;
    let request;
    if (isPlainJSON(source)) {
      request = `{"name":${JSON.stringify(name)},"tokenizer":${JSON.stringify(source)}}`;
    } else {
      const bytes = await fetchBytes(platform, source, `the tokenizer ${JSON.stringify(name.slice(0, 40))}`);
      if (bytes.length === 0) throw new TokenfitError('invalid_table', `tokenfit: loadTokenizer: the tokenizer ${JSON.stringify(name.slice(0, 40))} is empty`);
      request = { name, bytes };
    }
    await loader;
    return guard(() => ops.loadTokenizer(request));
  };
}
