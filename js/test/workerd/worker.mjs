// A Cloudflare worker (run by workerd in runtimes.test.mjs) that uses the
// package as a deployed worker would: the module imported as a
// WebAssembly.Module (workerd cannot compile bytes at run time), the tables
// as data modules (in their transport form, .tkp, which also keeps a
// worker's upload small). ?module=full|lite picks the module.
//
//   GET  /                 the shared checks: the failures per check; with the
//                          full module, the provider counter's too (its fetch
//                          answered in the worker: workerd here has no network)
//   GET  /hostile          the hostile cases (hostile.mjs) on a fresh instance,
//                          huge ones scaled down 64× (at full size they would
//                          hold hundreds of MB in one isolate): the result
//   POST /call/<op>        the body as the JSON request of <op>, on one
//                          instance shared by every request: its answer, or
//                          {"error": …} with status 400
//   POST /count?encoding=E the body as text, counted on the shared instance:
//                          {"tokens": N}, or {"error": …} with status 400
//   GET  /shipped          the shipped tokenizers' tables, as data modules,
//                          each loaded into a full instance: the counts of
//                          the vectors' texts (shipped-check.mjs)
import { init, providerCounter } from './dist/esm/index.js';
import full from './tokenfit.wasm';
import lite from './tokenfit-lite.wasm';
import o200k_base from './tables/o200k_base.tkp';
import cl100k_base from './tables/cl100k_base.tkp';
import p50k_base from './tables/p50k_base.tkp';
import r50k_base from './tables/r50k_base.tkp';
import vectors from './vectors.json';
import hostile from './hostile.json';
import { runAll } from './test/shared.mjs';
import { setup, runCases } from './test/hostile.mjs';
import { shippedCounts, shippedTexts } from './test/shipped-check.mjs';
import tokenizers from './tokenizers.json';
import * as tables from './shipped-tables.mjs';

const encodings = { o200k_base, cl100k_base, p50k_base, r50k_base };
const modules = { full, lite };
const start = (which) => init({ module: modules[which], encodings });
const shared = {}; // module → the promise of the instance API requests share

async function answer(which, run) {
  const tf = await (shared[which] ??= start(which));
  try {
    return Response.json(run(tf));
  } catch (e) {
    if (e.name !== 'TokenfitError') throw e;
    return Response.json({ error: { code: e.code, message: e.message, field: e.field } }, { status: 400 });
  }
}

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
    const url = new URL(request.url);
    const which = url.searchParams.get('module') || 'full';
    try {
      if (!modules[which]) return Response.json({ error: `no module ${which}` }, { status: 404 });
      if (url.pathname === '/') {
        const tf = await start(which);
        const results = runAll(tf, vectors);
        if (tf.module !== 'lite') results.provider = await provider(tf);
        return Response.json({ module: tf.module, results });
      }
      if (url.pathname === '/hostile') {
        const tf = await start(which);
        setup(tf, hostile);
        return Response.json(await runCases(tf, hostile));
      }
      if (url.pathname === '/shipped') {
        const fresh = () => init({ module: full, encodings });
        return Response.json(await shippedCounts(fresh, tokenizers.tokenizers, (t) => tables[t.file.replace(/\W/g, '_')], shippedTexts(vectors)));
      }
      if (url.pathname.startsWith('/call/') && request.method === 'POST') {
        const body = await request.text();
        return answer(which, (tf) => tf.call(url.pathname.slice(6), body));
      }
      if (url.pathname === '/count' && request.method === 'POST') {
        const text = await request.text();
        return answer(which, (tf) => ({ tokens: tf.countTokens(text, { encoding: url.searchParams.get('encoding') || undefined }) }));
      }
      return Response.json({ error: `no route ${request.method} ${url.pathname}` }, { status: 404 });
    } catch (e) {
      return Response.json({ error: `${e.name} ${e.code}: ${e.message}\n${e.stack}` }, { status: 500 });
    }
  },
};
