# Benchmark scenes (docs/BENCHMARKS.md). Included by the top-level Makefile.
#
#   make bench-apps   bin/bench/scene, its shaders in bin/bench/spv/ and the
#                     pipeline corpus in bin/bench/spv/corpus/, the harness
#                     as a static binary, bin/bench/harness, and
#                     bin/bench/record (per-draw recording cost) with its
#                     shaders in bin/bench/spv/record/
#   make bench        runs the harness on this machine's Vulkan device with the
#                     lavapipe sizes and writes its section of docs/BENCHMARKS.md
#
# Shaders are compiled with -g from inside their directory (as examples.mk
# does) and each module is checked with spirv-val.

BENCH_BIN     := $(BIN)/bench
BENCH_SPV     := $(BENCH_BIN)/spv
BENCH_SHADERS := $(notdir $(wildcard bench/scenes/shaders/*.comp bench/scenes/shaders/*.vert bench/scenes/shaders/*.frag))
BENCH_CORPUS  := $(notdir $(wildcard bench/corpus/*.comp bench/corpus/*.vert bench/corpus/*.frag))
BENCH_SPVS    := $(addprefix $(BENCH_SPV)/,$(addsuffix .spv,$(BENCH_SHADERS))) \
                 $(addprefix $(BENCH_SPV)/corpus/,$(addsuffix .spv,$(BENCH_CORPUS))) \
                 $(BENCH_SPV)/corpus/corpus.txt

RECORD_SPVS := $(BENCH_SPV)/record/oob_compute.comp.spv $(BENCH_SPV)/record/fullscreen.vert.spv \
               $(BENCH_SPV)/record/oob_store.frag.spv

.PHONY: bench-apps bench

$(BENCH_SPV)/%.spv: bench/scenes/shaders/% $(wildcard bench/scenes/shaders/*.glsl)
	@mkdir -p $(BENCH_SPV)
	cd bench/scenes/shaders && $(GLSLANG) $(EXAMPLES_GLSL_FLAGS) -o $(CURDIR)/$@.tmp $* >/dev/null
	$(SPIRV_VAL) --target-env vulkan1.1 $@.tmp
	mv $@.tmp $@

$(BENCH_SPV)/corpus/%.spv: bench/corpus/%
	@mkdir -p $(BENCH_SPV)/corpus
	cd bench/corpus && $(GLSLANG) $(EXAMPLES_GLSL_FLAGS) -o $(CURDIR)/$@.tmp $* >/dev/null
	$(SPIRV_VAL) --target-env vulkan1.1 $@.tmp
	mv $@.tmp $@

$(BENCH_SPV)/corpus/corpus.txt: bench/corpus/corpus.txt
	@mkdir -p $(BENCH_SPV)/corpus
	cp $< $@

# The record app's shaders are the layer tests' (bench/record_test.go).
define record-spv
@mkdir -p $(BENCH_SPV)/record
$(GLSLANG) -g --target-env vulkan1.2 -o $@.tmp $< >/dev/null
$(SPIRV_VAL) --target-env vulkan1.2 $@.tmp
mv $@.tmp $@
endef

$(BENCH_SPV)/record/oob_compute.comp.spv: examples/demo/shaders/oob_compute.comp
	$(record-spv)

$(BENCH_SPV)/record/%.spv: layer/testdata/shaders/%
	$(record-spv)

$(BENCH_BIN)/scene: bench/scenes/scene.c $(CAPP_SRC) bench/bench.mk
	@mkdir -p $(BENCH_BIN)
	$(EXAMPLES_CC) $(EXAMPLES_CFLAGS) $(CAPP_CFLAGS) -o $@ bench/scenes/scene.c $(CAPP_C) $(EXAMPLES_LDLIBS)

$(BENCH_BIN)/record: bench/record/record.c $(CAPP_SRC) bench/bench.mk
	@mkdir -p $(BENCH_BIN)
	$(EXAMPLES_CC) $(EXAMPLES_CFLAGS) $(CAPP_CFLAGS) -o $@ bench/record/record.c $(CAPP_C) $(EXAMPLES_LDLIBS)

# Rebuilt every time: it stamps the commit it measures into the tables.
$(BENCH_BIN)/harness: $(wildcard bench/*.go) go.mod FORCE
	@mkdir -p build
	@mkdir -p $(BENCH_BIN)
	CGO_ENABLED=0 $(GO) build -ldflags "-X main.commit=$$(git rev-parse --short HEAD 2>/dev/null)$$(git status --porcelain --untracked-files=no 2>/dev/null | grep -q . && echo +dirty)" -o $@ ./bench

FORCE:

bench-apps: $(BENCH_BIN)/scene $(BENCH_BIN)/harness $(BENCH_SPVS) $(BENCH_BIN)/record $(RECORD_SPVS)

bench: build bench-apps
	@mkdir -p $(XDG_RUNTIME_DIR) && chmod 700 $(XDG_RUNTIME_DIR)
	$(BENCH_BIN)/harness -preset lavapipe -command "make bench" -json build/bench-lavapipe.json -write docs/BENCHMARKS.md
