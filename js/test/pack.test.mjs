// As a user would: npm pack the package, install the tarball in an empty
// directory, and import it by name (the Node entry, the worker helper, the
// lean module and a shipped tokenizer) with nothing but what the tarball
// holds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const js = fileURLToPath(new URL('../', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function run(cmd, args, cwd) {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { cwd, maxBuffer: 16 << 20, timeout: 120000 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${cmd} ${args.join(' ')}: ${err.message}\n${stdout}\n${stderr}`));
      else resolve(stdout);
    });
  });
}

test('npm pack, install the tarball in an empty directory, import tokenfit by name', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tokenfit-pack-'));
  try {
    const packed = JSON.parse(await run(npm, ['pack', '--json', '--pack-destination', dir], js));
    const files = packed[0].files.map((f) => f.path).sort();
    for (const f of ['package.json', 'dist/esm/node.js', 'dist/esm/index.js', 'dist/esm/edge.js', 'dist/esm/worker-entry.js', 'src/esbuild.js',
      'src/assets/lite.js', 'src/index.d.ts', 'src/schema.d.ts', 'src/worker.d.ts', 'dist/tokenfit.wasm',
      'dist/tokenfit-lite.wasm', 'dist/tokenfit-nohf.mem', 'dist/tables/o200k_base.tkt', 'dist/tables/r50k_base.tkt', 'dist/tables/o200k_base.tkp', 'dist/tables/catalog.json',
      'tokenizers/qwen3.js', 'dist/tables/qwen3.tkh', 'dist/tables/qwen3.LICENSE', 'dist/tables/mistral-7b-v0.1.LICENSE',
      'tokenizers/gemini.js', 'dist/tables/gemini.tkh', 'dist/tables/gemini.LICENSE']) {
      assert.ok(files.includes(f), `the tarball lacks ${f}`);
    }
    assert.ok(!files.some((f) => f.startsWith('test/') || f.startsWith('node_modules/') || f.startsWith('scripts/')), `the tarball holds ${files}`);
    // The code ships built (dist/esm); of src/, only what apps import as it
    // is: the asset modules, the esbuild plugin and the types.
    assert.deepEqual(files.filter((f) => /^src\/[^/]+\.js$/.test(f)), ['src/esbuild.js']);
    const app = join(dir, 'app');
    await run(process.execPath, ['-e', `require('fs').mkdirSync(${JSON.stringify(app)})`], dir);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
    await run(npm, ['install', '--no-audit', '--no-fund', '--offline', join(dir, packed[0].filename)], app);
    writeFileSync(join(app, 'main.js'), `
      import { init, countTokens, providerCounter, TokenfitError } from 'tokenfit';
      import * as explicit from 'tokenfit/explicit';
      import { createWorker } from 'tokenfit/worker';
      import { createHandler } from 'tokenfit/edge';
      import mistral from 'tokenfit/tokenizers/mistral-7b-v0.1';
      const tf = await init();
      const lite = await init({ lite: true });
      const w = await createWorker();
      const hf = await init({ tokenizers: true });
      await hf.loadTokenizer('hf:mistralai/Mistral-7B-v0.1', mistral());
      const shipped = hf.call('countTokens', { text: 'Hello world', model: 'mistral-7b-instruct-v0.1' });
      const out = {
        count: countTokens('Hello world'),
        // One state for every entry point: tokenfit/explicit's top-level
        // functions answer with the instance tokenfit's init() made, and
        // its errors are tokenfit's.
        explicit: explicit.countTokens('Hello world'),
        oneError: explicit.TokenfitError === TokenfitError && explicit.init !== init,
        model: tf.countTokens('Hello world', { model: 'gpt-4' }),
        chat: tf.countChat({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }).total,
        lite: lite.countTokens('Hello world', { encoding: 'p50k_base' }),
        worker: await w.countTokens('Hello world'),
        shipped: [shipped.tokens, shipped.exact],
        edge: (await (await createHandler()(new Request('http://x/v1/countTokens', { method: 'POST',
          headers: { 'Content-Type': 'application/json' }, body: '{"text": "Hello world"}' }))).json()).tokens,
        error: (() => { try { tf.countTokens(1); } catch (e) { return e instanceof TokenfitError && e.code; } })(),
        provider: (await providerCounter({ fetch: async () => { throw new Error('offline'); }, apiKey: 'k', tf })
          .countChat({ model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'hi' }] })).fallbackReason.code,
      };
      w.terminate();
      console.log(JSON.stringify(out));
    `);
    const out = JSON.parse(await run(process.execPath, ['main.js'], app));
    assert.deepEqual(out, { count: 2, explicit: 2, oneError: true, model: 2, chat: 8, lite: 2, worker: 2, shipped: [2, true], edge: 2, error: 'invalid_argument', provider: 'network' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
