// Builds the page into dist/: the two bundles (main.js with main.css, and
// worker.js, which carries the tokenfit package), index.html, and the files
// the package loads at run time (src/tokenfit.js lists them).
//
//   node build.mjs            (make demo and make test-demo run it)

import { build } from 'esbuild';
import { copyFile, mkdir, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assets } from './src/tokenfit.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const dist = join(here, 'dist');

await rm(dist, { recursive: true, force: true });
await mkdir(join(dist, 'assets'), { recursive: true });

const t0 = performance.now();
await build({
  entryPoints: [join(here, 'src/main.js'), join(here, 'src/worker.js')],
  outdir: dist,
  bundle: true,
  format: 'esm',
  target: 'es2022',
  minify: true,
  sourcemap: 'linked',
  legalComments: 'none',
  logLevel: 'warning',
});
await copyFile(join(here, 'src/index.html'), join(dist, 'index.html'));

for (const a of assets) {
  const from = join(root, a);
  try {
    await stat(from);
  } catch {
    throw new Error(`${a} is missing: run make wasm (make demo does) first`);
  }
  await copyFile(from, join(dist, 'assets', basename(a)));
}
console.log(`web-demo: built dist/ in ${Math.round(performance.now() - t0)} ms`);
