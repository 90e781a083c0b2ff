/**
 * tokenfit's esbuild plugin: copies the module and the tables the package
 * names with new URL(…, import.meta.url) into the output directory, which
 * esbuild alone does not do. Format 'esm'.
 *
 * ```js
 * import tokenfit from 'tokenfit/esbuild';
 * await esbuild.build({ entryPoints: ['src/app.js'], bundle: true, format: 'esm', outdir: 'dist', plugins: [tokenfit()] });
 * ```
 */
export default function tokenfit(): { name: string; setup(build: unknown): void };
