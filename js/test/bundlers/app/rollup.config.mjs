// Rollup's usual setup for a browser app with assets: resolve packages from
// node_modules (the browser export condition) and copy what
// new URL(…, import.meta.url) names. Nothing here is about tokenfit.
import { nodeResolve } from '@rollup/plugin-node-resolve';
import { importMetaAssets } from '@web/rollup-plugin-import-meta-assets';

export default {
  input: 'src/index.js',
  output: { dir: 'dist', format: 'es' },
  plugins: [nodeResolve({ browser: true }), importMetaAssets()],
};
