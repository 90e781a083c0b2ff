// A Cloudflare worker (run by workerd in runtimes.test.mjs) that runs the
// shared checks as a deployed worker would use the package: the module
// imported as a WebAssembly.Module (workerd cannot compile bytes at run
// time), the tables as data modules (in their transport form, .tkp, which
// also keeps a worker's upload small). GET /?module=full|lite answers the
// failures per check as JSON.
import { init } from './src/index.js';
import full from './tokenfit.wasm';
import lite from './tokenfit-lite.wasm';
import o200k_base from './tables/o200k_base.tkp';
import cl100k_base from './tables/cl100k_base.tkp';
import p50k_base from './tables/p50k_base.tkp';
import r50k_base from './tables/r50k_base.tkp';
import vectors from './vectors.json';
import { runAll } from './test/shared.mjs';

const encodings = { o200k_base, cl100k_base, p50k_base, r50k_base };

export default {
  async fetch(request) {
    const which = new URL(request.url).searchParams.get('module') || 'full';
    try {
      const tf = await init({ module: which === 'lite' ? lite : full, encodings });
      return Response.json({ module: tf.module, results: runAll(tf, vectors) });
    } catch (e) {
      return Response.json({ error: `${e.name} ${e.code}: ${e.message}\n${e.stack}` }, { status: 500 });
    }
  },
};
