// worker.js with a tokenizer the package ships: the full module (the one
// with the tokenizer.json loader) and Mistral 7B v0.1's table, imported as
// data through the .tkh rule of wrangler.toml, loaded under its registry
// row's name. bundlers.test.mjs runs it with wrangler dev and POSTs text.
import { init } from 'tokenfit';
import module from 'tokenfit/tokenfit.wasm';
import o200k_base from 'tokenfit/tables/o200k_base.tkp';
import mistral from 'tokenfit/tables/mistral-7b-v0.1.tkh';

let ready;

async function start() {
  const tf = await init({ module, encodings: { o200k_base } });
  await tf.loadTokenizer('hf:mistralai/Mistral-7B-v0.1', mistral);
  return tf;
}

export default {
  async fetch(request) {
    const tf = await (ready ??= start());
    const answer = tf.call('countTokens', { text: await request.text(), model: 'mistral-7b-instruct-v0.1' });
    return Response.json({ tokens: answer.tokens, exact: answer.exact });
  },
};
