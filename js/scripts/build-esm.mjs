// Builds the package's JavaScript as it ships: every entry point of
// package.json's exports in ONE esbuild build with code splitting, into
// dist/esm/ (make js runs it; js/src stays the source of truth). Loading
// src/ as it is costs one request or file read per module, 27 of them, and
// that was 40 % of a returning visit in Chromium (RATIONALE.md, "Why does
// the package ship a split build?"). One build for all entries, so that
// an app importing `tokenfit` and `tokenfit/edge` (or a worker entry)
// loads one copy of tokenfit.js and its state: code that two entries share
// sits in a chunk both import, never in each.
//
// What stays source: the asset modules (src/assets/, tokenizers/: apps
// import them one by one, and they hold no state), the types (src/*.d.ts)
// and the esbuild plugin (a build tool, run in Node).
//
//   node scripts/build-esm.mjs [outdir]     (default dist/esm)

import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const js = fileURLToPath(new URL('../', import.meta.url));
const outdir = process.argv[2] || 'dist/esm';

// The entry points: each file of src/ that package.json's exports name.
const ENTRIES = ['index', 'node', 'explicit', 'edge', 'edge-node', 'worker', 'worker-node', 'worker-entry', 'worker-entry-node'];

// The asset modules' literal URLs (new URL('../../dist/…', import.meta.url))
// name their files from src/assets/; in a chunk of outdir they name them
// from there ('../tokenfit.wasm'), still literal, so that bundlers see them.
const LITERAL_URL = /new URL\((['"])([^'"]+)\1, import\.meta\.url\)/g;
const assetURLs = {
  name: 'asset-urls',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/]assets[\\/][^\\/]+\.js$/ }, ({ path }) => ({
      contents: readFileSync(path, 'utf8').replace(LITERAL_URL, (_, q, file) =>
        `new URL(${JSON.stringify(relative(resolve(js, outdir), resolve(dirname(path), file)).split('\\').join('/'))}, import.meta.url)`),
      loader: 'js',
    }));
  },
};

rmSync(join(js, outdir), { recursive: true, force: true });
await build({
  absWorkingDir: js,
  entryPoints: ENTRIES.map((e) => `src/${e}.js`),
  outdir,
  outbase: 'src',
  bundle: true,
  splitting: true,
  format: 'esm',
  // Node's modules stay imports (node.js, edge-node.js and the worker
  // thread's files); nothing else is platform-specific.
  platform: 'neutral',
  external: ['node:*'],
  // Top-level await (node.js) and the syntax the sources use as they are.
  target: 'es2022',
  // Not minified: a stack trace or a debugger in an app's node_modules
  // shows the package's code as written, less the comments.
  legalComments: 'none',
  chunkNames: 'chunk-[hash]',
  plugins: [assetURLs],
  logLevel: 'warning',
});
