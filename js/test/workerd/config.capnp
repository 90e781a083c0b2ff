# workerd's configuration for the worker.mjs check. runtimes.test.mjs copies
# this directory's files, the package (src/, dist/), the shared checks and
# hostile cases (test/), and the bundled vectors and hostile cases into a
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
    (name = "src/index.js", esModule = embed "src/index.js"),
    (name = "src/api.js", esModule = embed "src/api.js"),
    (name = "src/tokenfit.js", esModule = embed "src/tokenfit.js"),
    (name = "src/assets/full.js", esModule = embed "src/assets/full.js"),
    (name = "src/assets/lite.js", esModule = embed "src/assets/lite.js"),
    (name = "src/assets/o200k_base.js", esModule = embed "src/assets/o200k_base.js"),
    (name = "src/assets/cl100k_base.js", esModule = embed "src/assets/cl100k_base.js"),
    (name = "src/assets/p50k_base.js", esModule = embed "src/assets/p50k_base.js"),
    (name = "src/assets/r50k_base.js", esModule = embed "src/assets/r50k_base.js"),
    (name = "src/provider.js", esModule = embed "src/provider.js"),
    (name = "src/wasi.js", esModule = embed "src/wasi.js"),
    (name = "src/args.js", esModule = embed "src/args.js"),
    (name = "src/assets.js", esModule = embed "src/assets.js"),
    (name = "src/web.js", esModule = embed "src/web.js"),
    (name = "src/encodings.js", esModule = embed "src/encodings.js"),
    (name = "src/errors.js", esModule = embed "src/errors.js"),
    (name = "src/full.js", esModule = embed "src/full.js"),
    (name = "src/gojs.js", esModule = embed "src/gojs.js"),
    (name = "src/instance.js", esModule = embed "src/instance.js"),
    (name = "src/lean.js", esModule = embed "src/lean.js"),
    (name = "src/live.js", esModule = embed "src/live.js"),
    (name = "src/load.js", esModule = embed "src/load.js"),
    (name = "src/table.js", esModule = embed "src/table.js"),
    (name = "src/wasip1.js", esModule = embed "src/wasip1.js"),
    (name = "test/shared.mjs", esModule = embed "test/shared.mjs"),
    (name = "test/hostile.mjs", esModule = embed "test/hostile.mjs"),
    (name = "test/hostile-js.mjs", esModule = embed "test/hostile-js.mjs"),
    (name = "tokenfit.wasm", wasm = embed "dist/tokenfit.wasm"),
    (name = "tokenfit-lite.wasm", wasm = embed "dist/tokenfit-lite.wasm"),
    (name = "tables/o200k_base.tkp", data = embed "dist/tables/o200k_base.tkp"),
    (name = "tables/cl100k_base.tkp", data = embed "dist/tables/cl100k_base.tkp"),
    (name = "tables/p50k_base.tkp", data = embed "dist/tables/p50k_base.tkp"),
    (name = "tables/r50k_base.tkp", data = embed "dist/tables/r50k_base.tkp"),
    (name = "vectors.json", json = embed "vectors.json"),
    (name = "hostile.json", json = embed "hostile.json"),
  ],
  compatibilityDate = "2025-09-01",
);
