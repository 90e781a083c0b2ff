# workerd's configuration for the worker.mjs check (a template: the package's
# modules are listed by runtimes.test.mjs, from js/dist/esm itself). runtimes.test.mjs copies
# this directory's files, the package (dist/, with its built code), the shared checks and
# hostile cases (test/), the shipped tokenizers' list (scripts/tokenizers.json),
# and the bundled vectors and hostile cases into a
# temporary directory beside it, and serves on 127.0.0.1 with an ephemeral
# port (--control-fd).
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [(name = "main", worker = .tokenfitWorker)],
  sockets = [(name = "http", address = "127.0.0.1:0", http = (), service = "main")],
);

const tokenfitWorker :Workerd.Worker = (
  modules = [
    (name = "worker.mjs", esModule = embed "worker.mjs"),
    # SRC_MODULES: runtimes.test.mjs writes one line here for every .js file of js/dist/esm/
    (name = "test/shared.mjs", esModule = embed "test/shared.mjs"),
    (name = "test/hostile.mjs", esModule = embed "test/hostile.mjs"),
    (name = "test/hostile-js.mjs", esModule = embed "test/hostile-js.mjs"),
    (name = "test/shipped-check.mjs", esModule = embed "test/shipped-check.mjs"),
    (name = "tokenfit.wasm", wasm = embed "dist/tokenfit.wasm"),
    (name = "tokenfit-lite.wasm", wasm = embed "dist/tokenfit-lite.wasm"),
    (name = "tables/o200k_base.tkp", data = embed "dist/tables/o200k_base.tkp"),
    (name = "tables/cl100k_base.tkp", data = embed "dist/tables/cl100k_base.tkp"),
    (name = "tables/p50k_base.tkp", data = embed "dist/tables/p50k_base.tkp"),
    (name = "tables/r50k_base.tkp", data = embed "dist/tables/r50k_base.tkp"),
    # SHIPPED_MODULES: runtimes.test.mjs writes here the shipped tokenizers' tables (data)
    # and shipped-tables.mjs, which exports each by its file's name
    (name = "tokenizers.json", json = embed "tokenizers.json"),
    (name = "vectors.json", json = embed "vectors.json"),
    (name = "hostile.json", json = embed "hostile.json"),
  ],
  compatibilityDate = "2025-09-01",
);
