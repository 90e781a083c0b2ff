// tokenfit's esbuild plugin (`import tokenfit from 'tokenfit/esbuild'`,
// `plugins: [tokenfit()]`). esbuild bundles no file that code names with
// new URL('…', import.meta.url), so a bundle would look for the module and
// the tables beside itself, where nothing copied them. The plugin rewrites
// each such URL of the package's files (its built code in dist/esm/ and
// the asset modules of src/assets/ and tokenizers/) that names a module
// or a table into an import of that file with esbuild's file loader, which
// copies it into the output directory under a hashed name and gives its
// path from the bundle: the URL then resolves beside the bundle, as it does
// with other bundlers. Other URLs (the worker's entry) stay as they are. It
// touches nothing outside the package. Needs format 'esm' (the URLs are
// relative to import.meta.url).

import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const dirs = ['./assets/', '../tokenizers/', '../dist/esm/'].map((d) => fileURLToPath(new URL(d, import.meta.url)));
const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const LITERAL_URL = /new URL\((['"])([^'"]+)\1, import\.meta\.url\)/g;
const ASSET = /\.(wasm|tkp|tkh)$/;

/** @returns {{ name: string, setup(build: any): void }} an esbuild plugin */
export default function tokenfit() {
  return {
    name: 'tokenfit',
    setup(build) {
      build.onLoad({ filter: /[\\/](assets|tokenizers|esm)[\\/][^\\/]+\.js$/ }, async ({ path }) => {
        if (!dirs.some((dir) => path.startsWith(dir))) return undefined;
        let n = 0;
        const imports = [];
        const code = (await readFile(path, 'utf8')).replace(LITERAL_URL, (url, q, file) => {
          const target = resolve(dirname(path), file);
          if (!target.startsWith(dist) || !ASSET.test(target)) return url;
          imports.push(`import asset${n} from ${JSON.stringify(file)};`);
          return `new URL(asset${n++}, import.meta.url)`;
        });
        return { contents: `${imports.join('\n')}\n${code}`, loader: 'js', resolveDir: dirname(path) };
      });
      build.onLoad({ filter: /\.(wasm|tkp|tkh)$/ }, async ({ path }) =>
        (path.startsWith(dist) ? { contents: await readFile(path), loader: 'file' } : undefined));
    },
  };
}
