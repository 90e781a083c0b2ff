// tokenfit's JSON API as a Cloudflare Worker: POST /v1/{operation}, GET /healthz.
// The module comes in as a WebAssembly.Module and the tables as data
// (wrangler.toml's rules), so the worker makes no request of its own.
// js/test/edge.test.mjs runs this file in workerd.
import { createHandler } from 'tokenfit/edge';
import module from 'tokenfit/tokenfit.wasm';
import o200k_base from 'tokenfit/tables/o200k_base.tkp';
import cl100k_base from 'tokenfit/tables/cl100k_base.tkp';
import p50k_base from 'tokenfit/tables/p50k_base.tkp';
import r50k_base from 'tokenfit/tables/r50k_base.tkp';

export default {
  fetch: createHandler({
    init: { module, encodings: { o200k_base, cl100k_base, p50k_base, r50k_base } },
    corsOrigins: [], // the origins whose pages may call it, e.g. ['https://app.example.com']
    maxBodyBytes: 1 << 20,
  }),
};
