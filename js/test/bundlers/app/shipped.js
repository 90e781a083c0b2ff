// The app again, with a tokenizer the package ships: the default entry, and
// Mistral 7B v0.1's table imported from tokenfit/tokenizers, loaded under
// its registry row's name so that the row counts exactly. bundlers.test.mjs
// puts it in place of src/index.js, and holds the build to the package's
// files plus that one table.
import { init } from 'tokenfit';
import mistral from 'tokenfit/tokenizers/mistral-7b-v0.1';

const area = document.querySelector('textarea');
const out = document.querySelector('output');

init().then(async (tf) => {
  const counter = tf.liveCounter({ encoding: 'o200k_base' });
  const show = () => { out.value = String(counter.update(area.value)); };
  area.addEventListener('input', show);
  show();
  await tf.loadTokenizer('hf:mistralai/Mistral-7B-v0.1', mistral());
  const answer = tf.call('countTokens', { text: 'Hello world, in Mistral 7B', model: 'mistral-7b-instruct-v0.1' });
  document.body.dataset.shipped = `${answer.tokens} ${answer.exact}`;
  document.body.dataset.ready = String(tf.countTokens('Hello world'));
}).catch((e) => {
  document.body.dataset.error = String((e && e.message) || e);
});
