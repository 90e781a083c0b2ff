// The app as a Cloudflare worker, set up as the README's Workers example
// (wrangler.toml beside it): the lean module imported as a
// WebAssembly.Module, o200k_base's table as data, started in the handler.
// bundlers.test.mjs runs it with wrangler dev and POSTs text to count.
import { init } from 'tokenfit';
import module from 'tokenfit/tokenfit-lite.wasm';
import o200k_base from 'tokenfit/tables/o200k_base.tkp';

let ready;

export default {
  async fetch(request) {
    const tf = await (ready ??= init({ module, encodings: { o200k_base } }));
    return Response.json({ tokens: tf.countTokens(await request.text()) });
  },
};
