# gpuav-dbg build. `make` builds everything into bin/; `make demo` runs the
# built-in demo in the TUI; `make test` runs every test. Both install the
# Debian packages the project needs first (scripts/install-deps, as root).

GO      ?= go
BIN     := bin
LAYER   := $(BIN)/libVkLayer_gpuav_dbg.so
MANIFEST:= $(BIN)/VkLayer_gpuav_dbg.json
export XDG_RUNTIME_DIR ?= /tmp/gpuav-dbg-xdg-$(shell id -u)

.PHONY: all deps build demo test bench clean layer examples

all: deps build

deps:
	@scripts/install-deps

build: $(BIN)/gpuav-dbg layer examples

GO_SOURCES := $(shell find . -name '*.go' -not -path './bin/*') go.mod go.sum

$(BIN)/gpuav-dbg: $(GO_SOURCES) $(wildcard device/*.c device/*.h)
	@mkdir -p $(BIN)
	$(GO) build -o $@ ./cmd/gpuav-dbg

layer: $(LAYER) $(MANIFEST)

$(LAYER): $(GO_SOURCES) $(wildcard layer/*.c layer/*.h) layer/exports.map
	@mkdir -p $(BIN)
	$(GO) build -buildmode=c-shared -ldflags '-extldflags=-Wl,--version-script=$(CURDIR)/layer/exports.map' -o $@ ./layer
	@rm -f $(BIN)/libVkLayer_gpuav_dbg.h

$(MANIFEST): layer/VkLayer_gpuav_dbg.json
	@mkdir -p $(BIN)
	cp $< $@

include examples/examples.mk
include bench/bench.mk

demo: all
	@mkdir -p $(XDG_RUNTIME_DIR) && chmod 700 $(XDG_RUNTIME_DIR)
	$(BIN)/gpuav-dbg demo

test: all
	@mkdir -p $(XDG_RUNTIME_DIR) && chmod 700 $(XDG_RUNTIME_DIR)
	$(GO) vet ./...
	$(GO) test -count=1 -timeout 40m ./...

clean:
	rm -rf $(BIN) build
