# adapters/adapters.mk: included by the top Makefile.
#
# `make wasm` builds the built-in adapters (adapters/bundle/guest: shopify, woocommerce,
# magento, amazon, ebay, headless, jsonld and html in one module) into
# adapters/builtin/builtin.wasm, which adapters/builtin embeds and each built-in manifest
# names. Go's build cache makes a rebuild of an unchanged guest take well under a second.

GO ?= go
BUILTIN_WASM := adapters/builtin/builtin.wasm

.PHONY: wasm
wasm: $(BUILTIN_WASM)
	@# adapters/builtin embeds every file beside it: modules an older build left there
	@# (one per adapter, before they were one) would only make the binary bigger.
	@rm -f $(filter-out $(BUILTIN_WASM),$(wildcard adapters/builtin/*.wasm))

# Always rebuilt (FORCE): the guest's dependencies are Go packages, and go build knows
# better than make whether anything changed.
adapters/builtin/builtin.wasm: FORCE
	GOOS=wasip1 GOARCH=wasm $(GO) build -buildmode=c-shared -trimpath -o $@ ./adapters/bundle/guest

.PHONY: FORCE
FORCE:

# `make score` prints the extraction scorecard (adapters/quality, TestScorecard): every
# development page (the product-extraction-benchmark and retail-pages corpora) extracted
# through the built-in guests, fitted and cross-validated by site, per corpus and field,
# beside Zyte, Diffbot and extruct where their outputs exist; then the benchmark's own
# score.py on the same predictions.
SCORE_CORPUS ?= /work/shared/corpus/product-extraction-benchmark
SCORE_DIR    ?= $(abspath .data/score)

.PHONY: score
score:
	@mkdir -p $(SCORE_DIR)
	$(GO) test -count=1 -run '^TestScorecard$$' ./adapters/quality -args -scorecard=$(SCORE_DIR)
	@cat $(SCORE_DIR)/scorecard.txt
	cd $(SCORE_CORPUS) && python3 score.py ground-truth.json all $(SCORE_DIR)/fitted.json $(SCORE_DIR)/cross-validated.json output-Zyte.json output-Diffbot.json output-extruct.json

# `make train` fits the candidate ranker's weights (adapters/rank/weights.txt, which the
# built-in adapters embed) on the development pages and prints what they reach, fitted
# and cross-validated by site. The same pages always write the same file; a test
# (adapters/rank/learn) checks that the committed file is what training writes.
.PHONY: train
train:
	$(GO) run ./adapters/rank/train -out adapters/rank/weights.txt
