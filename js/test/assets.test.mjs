// Where the package's files are (src/assets/, one literal URL per file, for
// bundlers; bundlers/bundlers.test.mjs builds apps with them) and
// tokenfit/explicit, which has no default files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ENCODINGS } from 'tokenfit';
import { init } from 'tokenfit/explicit';

const assets = new URL('../src/assets/', import.meta.url);

test('src/assets: one module per file of the package, each naming a file make js built', async () => {
  const names = readdirSync(assets).map((f) => f.replace(/\.js$/, '')).sort();
  assert.deepEqual(names, ['catalog', 'full', 'nohf', 'lite', ...ENCODINGS].sort());
  for (const name of names) {
    const url = (await import(new URL(`${name}.js`, assets))).default();
    assert.ok(url instanceof URL, name);
    assert.ok(existsSync(fileURLToPath(url)), `${name}: ${url.pathname} (make js)`);
    assert.match(readFileSync(new URL(`${name}.js`, assets), 'utf8'), /new URL\('[^'`$]+', import\.meta\.url\)/, `${name}: a literal path`);
  }
});

test('tokenfit/explicit loads what it is given, and says what to pass for anything else', async () => {
  const file = async (name) => readFileSync((await import(new URL(`${name}.js`, assets))).default());
  await assert.rejects(init(), { name: 'TokenfitError', code: 'invalid_argument', message: /init\(\{ module \}\)/ });
  const tf = await init({ module: await file('lite'), encodings: { o200k_base: await file('o200k_base') } });
  assert.equal(tf.countTokens('Hello world'), 2);
  await assert.rejects(tf.loadEncoding('cl100k_base'), { name: 'TokenfitError', code: 'invalid_argument', message: /loadEncoding\('cl100k_base', source\)/ });
  await tf.loadEncoding('cl100k_base', await file('cl100k_base'));
  assert.equal(tf.countTokens('Hello world', { encoding: 'cl100k_base' }), 2);
});
