// Builds the page into dist/: the two bundles (main.js with main.css, and
// worker.js, which carries the tokenfit package), index.html, and the files
// the package loads at run time, in dist/assets.
//
//   node build.mjs            (make demo and make test-demo run it)
//
// `tokenfit` is the npm package in ../js (web-demo's dependency
// "file:../js"), with its module and tables in js/dist (make js). The page
// serves the tables in the package's transport form (.tkp: 0.72 MB gzip
// for o200k_base instead of 0.99), which the package's loadEncoding fetches
// in browsers.

import { build } from 'esbuild';
import { copyFile, mkdir, rm, stat } from 'node:fs/promises';
import { existsSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, 'dist');
const pkg = join(here, 'node_modules/tokenfit');
const encodings = ['o200k_base', 'cl100k_base', 'p50k_base', 'r50k_base'];

if (!existsSync(join(pkg, 'src/index.js'))) {
  throw new Error('web-demo/node_modules/tokenfit is not the package: run npm ci in web-demo (make demo does)');
}
const assets = [
  [join(pkg, 'dist/tokenfit.wasm'), 'tokenfit.wasm'],
  ...encodings.map((e) => [join(pkg, `dist/tables/${e}.tkp`), `tables/${e}.tkp`]),
];
for (const [from] of assets) {
  try {
    await stat(from);
  } catch {
    throw new Error(`${from} is missing: run make js first (make demo does)`);
  }
}

await rm(dist, { recursive: true, force: true });
await mkdir(join(dist, 'assets/tables'), { recursive: true });

const t0 = performance.now();
await build({
  entryPoints: [join(here, 'src/main.js'), join(here, 'src/worker.js')],
  outdir: dist,
  bundle: true,
  format: 'esm',
  target: 'es2022',
  platform: 'browser',
  minify: true,
  sourcemap: 'linked',
  legalComments: 'none',
  logLevel: 'warning',
});
await copyFile(join(here, 'src/index.html'), join(dist, 'index.html'));
for (const [from, to] of assets) await copyFile(from, join(dist, 'assets', to));

console.log(`web-demo: built dist/ on the tokenfit package in ${realpathSync(pkg)} in ${Math.round(performance.now() - t0)} ms`);
