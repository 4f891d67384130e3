# adapters/adapters.mk: included by the top Makefile.
#
# `make wasm` builds every built-in adapter guest (adapters/NAME/guest) into
# adapters/builtin/NAME.wasm, where adapters/builtin embeds it. Go's build cache makes a
# rebuild of an unchanged guest take well under a second.

GO ?= go
BUILTIN_ADAPTERS := shopify jsonld html
BUILTIN_WASM := $(BUILTIN_ADAPTERS:%=adapters/builtin/%.wasm)

.PHONY: wasm
wasm: $(BUILTIN_WASM)

# Always rebuilt (FORCE): the guest's dependencies are Go packages, and go build knows
# better than make whether anything changed.
adapters/builtin/%.wasm: FORCE
	GOOS=wasip1 GOARCH=wasm $(GO) build -buildmode=c-shared -trimpath -o $@ ./adapters/$*/guest

.PHONY: FORCE
FORCE:
