// Builds the page into dist/: boot.js (a classic script, the page's first),
// the two module bundles (main.js with main.css, and worker.js; both carry
// the tokenfit package), index.html, and the files the package loads at
// run time, in dist/assets: both modules, the four tables, and o200k_base
// also expanded (.tkt), which the first screen loads without expanding it
// on the main thread. build.mjs also asks the full module for its model
// registry (registry.js), which the page shows before any module starts.
//
//   node build.mjs            (make demo and make test-demo run it)
//
// `tokenfit` is the npm package in ../js (web-demo's dependency
// "file:../js"), with its module and tables in js/dist (make js). The page
// serves the tables in the package's transport form (.tkp, smaller gzipped:
// RATIONALE.md, "How are tables loaded"), which the package's loadEncoding
// fetches in browsers.
//
// The module and tables go to dist/assets/<hash of their bytes>/, a name
// that changes when they do, so the server can let browsers keep them for
// a year (immutable); the bundles find the directory through the
// TOKENFIT_ASSETS define. Every file that compresses gets a .gz and a .br
// beside it, made here once instead of by the server on the first request
// (gzip -9 of the 4.4 MB module took 3.6 s of a first visit). Brotli runs
// at quality 9 (1.02 MB for the module; 11 gives 0.89 MB but takes a
// minute), and the compressed files are kept in node_modules/.cache by
// the hash of their input, so a rebuild of unchanged bytes is free.

import { build } from 'esbuild';
import { copyFile, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { existsSync, realpathSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, 'dist');
const cache = join(here, 'node_modules/.cache/precompressed');
const pkg = join(here, 'node_modules/tokenfit');
const encodings = ['o200k_base', 'cl100k_base', 'p50k_base', 'r50k_base'];

if (!existsSync(join(pkg, 'package.json'))) {
  throw new Error('web-demo/node_modules/tokenfit is not the package: run npm ci in web-demo (make demo does)');
}
if (!existsSync(join(pkg, 'dist/esm/index.js'))) {
  throw new Error(`${join(pkg, 'dist/esm')} is missing: run make js first (make demo does)`);
}
const assets = [
  [join(pkg, 'dist/tokenfit.wasm'), 'tokenfit.wasm'],
  [join(pkg, 'dist/tokenfit-lite.wasm'), 'tokenfit-lite.wasm'],
  ...encodings.map((e) => [join(pkg, `dist/tables/${e}.tkp`), `tables/${e}.tkp`]),
  // The first screen's table, expanded (boot.js).
  [join(pkg, 'dist/tables/o200k_base.tkt'), 'tables/o200k_base.tkt'],
];
for (const [from] of assets) {
  try {
    await stat(from);
  } catch {
    throw new Error(`${from} is missing: run make js first (make demo does)`);
  }
}

const hash = createHash('sha256');
for (const [from, to] of assets) hash.update(to).update(await readFile(from));
const assetDir = `assets/${hash.digest('hex').slice(0, 12)}/`;

await rm(dist, { recursive: true, force: true });
await mkdir(join(dist, assetDir, 'tables'), { recursive: true });

// The model registry, as the full module answers it (tf.models(), and the
// package's version): the page shows the model's window and price, and
// counts with its encoding, before any module has started; the lean module
// that makes the first count knows no models. The rows built into the
// module, not the catalog's thousands of gateway models.
const { init } = await import('tokenfit');
const full = await init();
const listed = full.models();
const registry = { version: full.version(), ...listed, models: listed.models.filter((m) => m.source !== 'models.dev') };

const t0 = performance.now();
const common = {
  outdir: dist,
  bundle: true,
  target: 'es2022',
  platform: 'browser',
  minify: true,
  sourcemap: 'linked',
  legalComments: 'none',
  logLevel: 'warning',
  define: { TOKENFIT_ASSETS: JSON.stringify(assetDir), TOKENFIT_REGISTRY: JSON.stringify(JSON.stringify(registry)) },
};
await build({ ...common, entryPoints: [join(here, 'src/main.js'), join(here, 'src/worker.js')], format: 'esm' });
await build({ ...common, entryPoints: [join(here, 'src/boot.js')], format: 'iife' }); // a classic script: index.html
// index.html preloads what the first count needs, so that the downloads
// start with the page's own, not once main.js has run.
const html = await readFile(join(here, 'src/index.html'), 'utf8');
await writeFile(join(dist, 'index.html'), html.replaceAll('assets/HASH/', assetDir));
for (const [from, to] of assets) await copyFile(from, join(dist, assetDir, to));
await precompress(dist);

console.log(`web-demo: built dist/ on the tokenfit package in ${realpathSync(pkg)} in ${Math.round(performance.now() - t0)} ms`);

// precompress writes file.gz and file.br beside every file of dir that
// compresses (not the source maps: only developer tools read them).
async function precompress(dir) {
  const gz = promisify(gzip);
  const br = promisify(brotliCompress);
  await mkdir(cache, { recursive: true });
  const files = (await readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile() && ['.html', '.js', '.css', '.wasm', '.tkp', '.tkt'].includes(extname(e.name)))
    .map((e) => join(e.parentPath, e.name));
  await Promise.all(files.map(async (file) => {
    const body = await readFile(file);
    const key = createHash('sha256').update(body).digest('hex');
    for (const [ext, make] of [
      ['.gz', () => gz(body, { level: 9 })],
      ['.br', () => br(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } })],
    ]) {
      const kept = join(cache, key + ext);
      let out;
      try {
        out = await readFile(kept);
      } catch {
        out = await make();
        await writeFile(kept, out);
      }
      await writeFile(file + ext, out);
    }
  }));
}
