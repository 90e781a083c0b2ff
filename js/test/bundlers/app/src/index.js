// The app every bundler builds (bundlers.test.mjs): the package imported by
// name, as a user writes it, with no options and no bundler configuration.
// It counts the text area live; the test types into it.
import { init } from 'tokenfit';

const area = document.querySelector('textarea');
const out = document.querySelector('output');

init().then((tf) => {
  const counter = tf.liveCounter({ encoding: 'o200k_base' });
  const show = () => { out.value = String(counter.update(area.value)); };
  area.addEventListener('input', show);
  show();
  document.body.dataset.ready = String(tf.countTokens('Hello world'));
}, (e) => {
  document.body.dataset.error = String((e && e.message) || e);
});
