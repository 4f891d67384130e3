# Stockroom. `make run` brings everything up; `make test` runs the whole suite against real
# Postgres and ClickHouse started the same way. See README.md.

GO       ?= go
BIN      := bin/stockroom
VERSION  ?= $(shell git describe --always --dirty 2>/dev/null || echo dev)
LDFLAGS  := -X main.version=$(VERSION)
TESTFLAGS ?= -count=1 -timeout 25m
BENCHFLAGS ?= -run '^$$' -bench . -benchmem -timeout 60m

# The built-in adapters' WebAssembly guests (target `wasm`).
include adapters/adapters.mk

.PHONY: build run test bench bench-observe eval vet clean docs-ui console clients clients-deps

# The documentation page's script: Redoc's standalone bundle from the npm package pinned in
# $(DOCS_UI), copied into the assets the binary embeds (server/openapi). Not committed: a
# clean checkout gets it here, from the lock file.
DOCS_UI     := server/openapi/docs-ui
DOCS_ASSETS := server/openapi/assets
DOCS_SCRIPT := $(DOCS_ASSETS)/redoc.standalone.js

docs-ui: $(DOCS_SCRIPT)

$(DOCS_SCRIPT): $(DOCS_UI)/package.json $(DOCS_UI)/package-lock.json
	cd $(DOCS_UI) && npm ci --ignore-scripts --no-audit --no-fund
	cp $(DOCS_UI)/node_modules/redoc/bundles/redoc.standalone.js $(DOCS_UI)/node_modules/redoc/bundles/redoc.standalone.js.LICENSE.txt $(DOCS_ASSETS)/

# The console at /console: a Preact app built by Vite from $(CONSOLE_UI) (npm packages
# pinned in its lock file) into $(CONSOLE_DIST), which the binary embeds. The build is not
# committed; axe-core, which the console's browser test injects, comes with it.
CONSOLE_UI      := server/console/ui
CONSOLE_DIST    := server/console/dist
CONSOLE_PAGE    := $(CONSOLE_DIST)/index.html
CONSOLE_SOURCES := $(CONSOLE_UI)/package.json $(CONSOLE_UI)/package-lock.json $(CONSOLE_UI)/index.html \
	$(CONSOLE_UI)/vite.config.js $(wildcard $(CONSOLE_UI)/src/*.js $(CONSOLE_UI)/src/*.jsx $(CONSOLE_UI)/src/*.css $(CONSOLE_UI)/src/pages/*.jsx)

console: $(CONSOLE_PAGE)

$(CONSOLE_PAGE): $(CONSOLE_SOURCES)
	cd $(CONSOLE_UI) && npm ci --ignore-scripts --no-audit --no-fund
	rm -rf $(CONSOLE_DIST)/assets $(CONSOLE_PAGE)
	cd $(CONSOLE_UI) && node node_modules/vite/bin/vite.js build --logLevel warn

# The API clients (clients/README.md): the Go client's code and the TypeScript client's
# types, generated from server/openapi/openapi.yaml. Run `make clients` after changing the
# document and commit the result; a test fails while the committed clients differ from a
# fresh generation. The TypeScript tools come from npm, pinned by the lock file.
CLIENTS_TS := clients/typescript

clients-deps: $(CLIENTS_TS)/node_modules/.package-lock.json

$(CLIENTS_TS)/node_modules/.package-lock.json: $(CLIENTS_TS)/package.json $(CLIENTS_TS)/package-lock.json
	cd $(CLIENTS_TS) && npm ci --ignore-scripts --no-audit --no-fund

clients: clients-deps
	$(GO) run ./clients/generate

build: wasm docs-ui console
	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/stockroom

run: build
	./$(BIN) local run

# bench/ is vetted too: it builds against the service's packages, and nothing else that
# `make test` runs would notice a change that breaks it.
vet: wasm
	$(GO) vet ./...
	cd bench && $(GO) vet ./...

test: build vet clients-deps
	./$(BIN) local exec --data .data/test -- $(GO) test $(TESTFLAGS) ./...

# The bench/ module (peers such as Colly, kept out of the service's dependencies) runs each
# whole job once per iteration, hence -benchtime 1x; in BENCH_CRAWLS rounds, each crawling
# every store once with each crawler, so that each store's line (printed in the last
# round) compares the medians of that many crawls of each, made side by side. One crawl of
# each is too noisy to compare, and each side's crawls in a row (-count) meet the
# machine's drift over minutes: bench/README.md has the figures.
BENCH_CRAWLS ?= 5
BENCH_ROUNDS_FILE = $(CURDIR)/.data/bench/rounds.jsonl
#
# BenchmarkVendorJob runs once, after the rounds: it crawls and extracts at a real host's
# politeness (a request a second), which takes minutes and is not compared in rounds.
# BENCH_BASELINE_BIN names another build (main's) to measure beside it; see bench/README.md.
bench: build
	./$(BIN) local exec --data .data/bench -- $(GO) test $(BENCHFLAGS) ./...
	rm -f $(BENCH_ROUNDS_FILE)
	cd bench && for round in $$(seq $(BENCH_CRAWLS)); do \
		BENCH_ROUNDS=$(BENCH_CRAWLS) BENCH_ROUNDS_FILE=$(BENCH_ROUNDS_FILE) \
			../$(BIN) local exec --data ../.data/bench -- $(GO) test $(BENCHFLAGS) -bench 'Benchmark(Crawl|ListPage)$$' -benchtime 1x -count 1 ./... || exit 1; \
	done
	cd bench && ../$(BIN) local exec --data ../.data/bench -- $(GO) test $(BENCHFLAGS) -bench 'BenchmarkVendorJob$$' -benchtime 1x -count 1 ./...

# What metrics and tracing cost the crawl's busiest path: BenchmarkListPage's modes
# (observe=off, metrics, tracing) in BENCH_OBSERVE_ROUNDS runs of one test binary, each
# mode once a run, their order turned run by run so that none always goes first; then
# benchstat compares the modes (cmd/stockroom/app/metrics/RATIONALE.md has the figures).
BENCH_OBSERVE_ROUNDS ?= 10
BENCH_OBSERVE_FILE = $(CURDIR)/.data/bench/observe.txt
bench-observe: wasm
	mkdir -p .data/bench
	cd bench && $(GO) test -c -o ../.data/bench/bench.test .
	rm -f $(BENCH_OBSERVE_FILE)
	for round in $$(seq $(BENCH_OBSERVE_ROUNDS)); do \
		BENCH_ROUND=$$round .data/bench/bench.test -test.run '^$$' -test.bench 'ListPage$$' -test.benchtime 1s \
			-test.benchmem -test.count 1 >> $(BENCH_OBSERVE_FILE) || exit 1; \
	done
	$(GO) run golang.org/x/perf/cmd/benchstat@latest -col /observe $(BENCH_OBSERVE_FILE)

# Search quality: the labelled set of evaluation/queries.json, engine and full-text
# baseline side by side (nDCG@10, MRR, hard-constraint violations).
eval: build
	./$(BIN) local exec --data .data/eval -- $(GO) test -count=1 -timeout 30m -run TestEvalFull -v ./evaluation -args -eval

clean:
	rm -rf bin .data/test .data/bench .data/eval $(DOCS_UI)/node_modules $(DOCS_SCRIPT) $(DOCS_SCRIPT).LICENSE.txt \
		$(CONSOLE_UI)/node_modules $(CONSOLE_DIST)/assets $(CONSOLE_PAGE) \
		$(CLIENTS_TS)/node_modules $(CLIENTS_TS)/dist
