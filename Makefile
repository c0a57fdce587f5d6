# gpuav-dbg build. `make` builds everything into bin/; `make demo` runs the
# built-in demo in the TUI; `make test` runs every test. Both install the
# Debian packages the project needs first (scripts/install-deps, as root).
# `make install` (PREFIX=/usr/local, DESTDIR for staging) puts gpuav-dbg in
# PREFIX/bin, the layer in PREFIX/lib and its manifest in
# PREFIX/share/vulkan/explicit_layer.d, where the Vulkan loader and vkconfig
# look for explicit layers.

GO      ?= go
BIN     := bin
LAYER   := $(BIN)/libVkLayer_gpuav_dbg.so
MANIFEST:= $(BIN)/VkLayer_gpuav_dbg.json
export XDG_RUNTIME_DIR ?= /tmp/gpuav-dbg-xdg-$(shell id -u)

PREFIX   ?= /usr/local
DESTDIR  ?=
BINDIR   ?= $(PREFIX)/bin
LIBDIR   ?= $(PREFIX)/lib
LAYERDIR ?= $(PREFIX)/share/vulkan/explicit_layer.d

.PHONY: all deps build demo test tidy-check bench clean layer examples install uninstall

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

test: all tidy-check
	@mkdir -p $(XDG_RUNTIME_DIR) && chmod 700 $(XDG_RUNTIME_DIR)
	$(GO) vet ./...
	$(GO) test -count=1 -timeout 40m ./...

# go.mod and go.sum must be what `go mod tidy` makes of them.
tidy-check:
	@$(GO) mod tidy -diff || { echo "go.mod/go.sum are not tidy: run go mod tidy" >&2; exit 1; }

# The manifest's library_path is the installed library's absolute path
# (without DESTDIR, which only stages the files).
install: build
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(LAYERDIR)
	install -m 755 $(BIN)/gpuav-dbg $(DESTDIR)$(BINDIR)/gpuav-dbg
	install -m 755 $(LAYER) $(DESTDIR)$(LIBDIR)/libVkLayer_gpuav_dbg.so
	sed 's|"library_path": "[^"]*"|"library_path": "$(LIBDIR)/libVkLayer_gpuav_dbg.so"|' $(MANIFEST) \
		> $(DESTDIR)$(LAYERDIR)/VkLayer_gpuav_dbg.json
	chmod 644 $(DESTDIR)$(LAYERDIR)/VkLayer_gpuav_dbg.json

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/gpuav-dbg $(DESTDIR)$(LIBDIR)/libVkLayer_gpuav_dbg.so \
		$(DESTDIR)$(LAYERDIR)/VkLayer_gpuav_dbg.json

clean:
	rm -rf $(BIN) build
