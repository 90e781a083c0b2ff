// A Cloudflare worker (run by workerd in runtimes.test.mjs) that runs the
// shared checks as a deployed worker would use the package: the module
// imported as a WebAssembly.Module (workerd cannot compile bytes at run
// time), the tables as data modules (in their transport form, .tkp, which
// also keeps a worker's upload small). GET /?module=full|lite answers the
// failures per check as JSON; with the full module, the provider counter's
// too (its fetch answered in the worker: workerd here has no network).
import { init, providerCounter } from './src/index.js';
import full from './tokenfit.wasm';
import lite from './tokenfit-lite.wasm';
import o200k_base from './tables/o200k_base.tkp';
import cl100k_base from './tables/cl100k_base.tkp';
import p50k_base from './tables/p50k_base.tkp';
import r50k_base from './tables/r50k_base.tkp';
import vectors from './vectors.json';
import { runAll } from './test/shared.mjs';

const encodings = { o200k_base, cl100k_base, p50k_base, r50k_base };

async function provider(tf) {
  const failures = [];
  const request = { model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'Hello' }] };
  const ok = await providerCounter({ fetch: async () => new Response('{"input_tokens": 14}'), apiKey: 'k', tf }).countChat(request);
  if (ok.source !== 'provider' || ok.tokens !== 14) failures.push(`provider: ${JSON.stringify(ok)}`);
  const slow = await providerCounter({ fetch: () => new Promise(() => {}), apiKey: 'k', tf, timeoutMs: 50 }).countChat(request);
  if (slow.fallbackReason?.code !== 'timeout' || !(slow.upperBound > slow.tokens)) failures.push(`timeout: ${JSON.stringify(slow)}`);
  return failures;
}

export default {
  async fetch(request) {
    const which = new URL(request.url).searchParams.get('module') || 'full';
    try {
      const tf = await init({ module: which === 'lite' ? lite : full, encodings });
      const results = runAll(tf, vectors);
      if (tf.module !== 'lite') results.provider = await provider(tf);
      return Response.json({ module: tf.module, results });
    } catch (e) {
      return Response.json({ error: `${e.name} ${e.code}: ${e.message}\n${e.stack}` }, { status: 500 });
    }
  },
};
