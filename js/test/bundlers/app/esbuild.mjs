// esbuild's build of the app, with tokenfit's plugin: esbuild copies no file
// named by new URL(…, import.meta.url), and the plugin makes it copy the
// package's (README: esbuild).
import * as esbuild from 'esbuild';
import tokenfit from 'tokenfit/esbuild';

await esbuild.build({
  entryPoints: ['src/index.js'],
  bundle: true,
  format: 'esm',
  outdir: 'dist',
  logLevel: 'warning',
  plugins: [tokenfit()],
});
