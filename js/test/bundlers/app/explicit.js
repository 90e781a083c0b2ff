// The app again, shipping only what it loads (README: what a deploy
// ships): tokenfit/explicit with the lean module and o200k_base's table.
// bundlers.test.mjs puts it in place of src/index.js.
import { init } from 'tokenfit/explicit';
import lite from 'tokenfit/assets/lite';
import o200k_base from 'tokenfit/assets/o200k_base';

const area = document.querySelector('textarea');
const out = document.querySelector('output');

init({ module: lite(), encodings: { o200k_base: o200k_base() } }).then((tf) => {
  const counter = tf.liveCounter({ encoding: 'o200k_base' });
  const show = () => { out.value = String(counter.update(area.value)); };
  area.addEventListener('input', show);
  show();
  document.body.dataset.ready = String(tf.countTokens('Hello world'));
}, (e) => {
  document.body.dataset.error = String((e && e.message) || e);
});
