# Sample Vulkan apps (C11) used to exercise gpuav-dbg and the Khronos GPU-AV
# reference. Included by the top-level Makefile, which runs from the repo root
# and defines BIN. Everything here is relative to the repo root.
#
#   make examples        build every sample app into $(BIN)/
#
# Shaders are GLSL under examples/<app>/shaders/. Each is compiled with debug
# info (-g) twice from the same flags: once to a .spv that spirv-val checks, and
# once to a C header (--vn <name>_spv) that the app #includes. glslangValidator
# runs from INSIDE the shader directory with a bare file name so that the
# OpString/OpSource file name in the module is exactly e.g. "oob_compute.comp",
# not a path.

EXAMPLES_CC        ?= cc
EXAMPLES_CFLAGS    ?= -O2 -Wall -Wextra -std=c11
EXAMPLES_LDLIBS    ?= -lvulkan -lpthread -lm
# The C apps' shared Vulkan bootstrap (internal/capp; internal/cbuild builds
# the test apps with the same flags).
CAPP_C             := internal/capp/capp.c
CAPP_SRC           := $(CAPP_C) internal/capp/capp.h
CAPP_CFLAGS        := -Iinternal/capp
EXAMPLES_SHADER_OUT := build/shaders
GLSLANG            ?= glslangValidator
SPIRV_VAL          ?= spirv-val
EXAMPLES_GLSL_FLAGS := -g --target-env vulkan1.1

# ---- demo -----------------------------------------------------------------

DEMO_SHADER_DIR := examples/demo/shaders
DEMO_SHADERS    := oob_compute.comp fullscreen.vert oob_fragment.frag
DEMO_SHADER_HDRS := $(addprefix $(EXAMPLES_SHADER_OUT)/,$(addsuffix .h,$(DEMO_SHADERS)))

# build/shaders/oob_compute.comp.h defines `const uint32_t oob_compute_spv[]`.
# The header is written last, so a module that fails spirv-val leaves no header.
$(EXAMPLES_SHADER_OUT)/%.h: $(DEMO_SHADER_DIR)/%
	@mkdir -p $(EXAMPLES_SHADER_OUT)
	cd $(DEMO_SHADER_DIR) && $(GLSLANG) $(EXAMPLES_GLSL_FLAGS) -o $(CURDIR)/$(EXAMPLES_SHADER_OUT)/$*.spv $*
	$(SPIRV_VAL) --target-env vulkan1.1 $(EXAMPLES_SHADER_OUT)/$*.spv
	cd $(DEMO_SHADER_DIR) && $(GLSLANG) $(EXAMPLES_GLSL_FLAGS) --vn $(basename $*)_spv -o $(CURDIR)/$@ $*

$(BIN)/demo: examples/demo/demo.c $(DEMO_SHADER_HDRS) $(CAPP_SRC) examples/examples.mk
	@mkdir -p $(BIN)
	$(EXAMPLES_CC) $(EXAMPLES_CFLAGS) $(CAPP_CFLAGS) -I$(EXAMPLES_SHADER_OUT) -o $@ examples/demo/demo.c $(CAPP_C) $(EXAMPLES_LDLIBS)

examples: $(BIN)/demo
