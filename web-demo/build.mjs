// Builds the page into dist/: the two bundles (main.js with main.css, and
// worker.js, which carries the tokenfit package), index.html, and the files
// the package loads at run time, in dist/assets.
//
//   node build.mjs            (make demo and make test-demo run it)
//
// `tokenfit` is the npm package in ../js (web-demo's dependency
// "file:../js"), with its module and tables in js/dist (make js). Until the
// package's source is on this branch (no js/src/index.js), the page is built
// on src/standin instead, the same API over the GOOS=js module (make wasm).

import { build } from 'esbuild';
import { copyFile, mkdir, rm, stat } from 'node:fs/promises';
import { existsSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const dist = join(here, 'dist');
const pkg = join(here, 'node_modules/tokenfit');
const encodings = ['o200k_base', 'cl100k_base', 'p50k_base', 'r50k_base'];

const usePackage = existsSync(join(pkg, 'src/index.js'));
const assets = usePackage
  ? [[join(pkg, 'dist/tokenfit.wasm'), 'tokenfit.wasm'], ...encodings.map((e) => [join(pkg, `dist/tables/${e}.tkt`), `tables/${e}.tkt`])]
  : [[join(root, 'build/wasm/tokenfit-js.wasm'), 'tokenfit.wasm'], ...encodings.map((e) => [join(root, `core/internal/tables/${e}.tkt`), `tables/${e}.tkt`])];

for (const [from] of assets) {
  try {
    await stat(from);
  } catch {
    throw new Error(`${from} is missing: run ${usePackage ? 'make js' : 'make wasm'} first (make demo does)`);
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
  alias: usePackage ? {} : { tokenfit: join(here, 'src/standin/tokenfit.js') },
});
await copyFile(join(here, 'src/index.html'), join(dist, 'index.html'));
for (const [from, to] of assets) await copyFile(from, join(dist, 'assets', to));

const what = usePackage ? `the tokenfit package (${realpathSync(pkg)})` : 'the interim stand-in (src/standin: ../js has no package source yet)';
console.log(`web-demo: built dist/ on ${what} in ${Math.round(performance.now() - t0)} ms`);
