// Builds the package's JavaScript as it ships, into dist/esm/ (make js runs
// it; js/src stays the source of truth). Loading src/ as it is costs one
// request or file read per module, 27 of them, and that was 40 % of a
// returning visit in Chromium (RATIONALE.md, "Why does the package ship a
// split build?").
//
// Two esbuild builds with code splitting, one per platform: the browser's
// entry points (package.json's default conditions: index, explicit, edge,
// worker, worker-entry) and Node's (its node conditions: node,
// explicit-node, edge-node, worker-node, worker-entry-node). An app
// resolves every entry with one set of conditions, so it loads the entries
// of one build, and within a build an app importing `tokenfit` and
// `tokenfit/explicit` (or `tokenfit/edge`, a worker entry) loads one copy
// of tokenfit.js and its state: code that two entries share sits in a
// chunk both import, never in each. Entries that start through the
// platform's init() (edge, worker-entry) import the hub entry itself
// (./index.js, ./node.js) rather than a chunk of its code, so that what
// only the hub and they use stays in the hub: a page importing `tokenfit`
// loads 3 files (the entry, the API with the web platform, the errors it
// shares with the worker's client) where one build for all entries gave 6.
//
// What stays source: the asset modules (src/assets/, tokenizers/: apps
// import them one by one, and they hold no state), the types (src/*.d.ts)
// and the esbuild plugin (a build tool, run in Node).
//
//   node scripts/build-esm.mjs [outdir]     (default dist/esm)

import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';
import { basename, dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const js = fileURLToPath(new URL('../', import.meta.url));
const outdir = process.argv[2] || 'dist/esm';

// The entry points of each platform: output name → source, each a file
// of src/ that package.json's exports name; the hub is the one the others
// that start instances import.
const PLATFORMS = [
  { hub: 'index', entries: { index: 'index', explicit: 'explicit', edge: 'edge', worker: 'worker', 'worker-entry': 'worker-entry' } },
  { hub: 'node', entries: { node: 'node', 'explicit-node': 'explicit', 'edge-node': 'edge-node', 'worker-node': 'worker-node', 'worker-entry-node': 'worker-entry-node' } },
];

// The asset modules' literal URLs (new URL('../../dist/…', import.meta.url))
// name their files from src/assets/; in the built code of outdir they name them
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

// An import of the hub from another entry stays an import of the built
// hub (the same file of outdir, so the same specifier).
const hubImport = (hub) => ({
  name: 'hub-import',
  setup(b) {
    const file = `./${hub}.js`;
    b.onResolve({ filter: /^\.\/[a-z-]+\.js$/ }, ({ path, importer }) =>
      (path === file && resolve(dirname(importer)) === resolve(js, 'src') && basename(importer) !== `${hub}.js`
        ? { path: file, external: true } : undefined));
  },
});

rmSync(resolve(js, outdir), { recursive: true, force: true });
for (const { hub, entries } of PLATFORMS) {
  await build({
    absWorkingDir: js,
    entryPoints: Object.fromEntries(Object.entries(entries).map(([out, src]) => [out, `src/${src}.js`])),
    outdir,
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
    plugins: [assetURLs, hubImport(hub)],
    logLevel: 'warning',
  });
}
