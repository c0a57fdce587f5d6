#!/bin/bash
# Lavapipe's compile time of the computeraytracing sample's compute shader
# (github.com/SaschaWillems/Vulkan, shaders/glsl/computeraytracing/
# raytracing.comp.spv) as the app gives it and instrumented by
# `bin/gpuav-dbg instrument` (the precise variant) with no check, each check
# that changes it alone, and the default checks. One run each, in order,
# with the load before each; bounded by LIMIT seconds (default 200).
#
#   SPV=.../raytracing.comp.spv bash bench/measure/shader-compile.sh
#
# Lavapipe compiles a compute pipeline at its first dispatch
# (shader-compile.c times creation plus one dispatch); the Mesa shader
# cache is off so that every run compiles.
set -u
SPV=${SPV:-/work/sw-build/src/shaders/glsl/computeraytracing/raytracing.comp.spv}
LIMIT=${LIMIT:-200}
DEFAULT=descriptor_index_oob,descriptor_uninitialized,descriptor_destroyed,buffer_oob,texel_buffer_oob,bda_oob,sanitizer_divide,sanitizer_atan2,loop_budget,shared_memory_race,barrier_divergence
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -O2 -std=c11 -I internal/capp -o "$tmp/shader-compile" bench/measure/shader-compile.c internal/capp/capp.c \
	-lvulkan -lpthread -lm || exit 1
export MESA_SHADER_CACHE_DISABLE=1
echo "variant labels calls seconds(load)"
for v in app none loop_budget sanitizer_pow sanitizer_minmax buffer_oob descriptor_uninitialized default; do
	f=$tmp/$v.spv
	case $v in
	app) cp "$SPV" "$f" ;;
	default) bin/gpuav-dbg instrument --set 1 --checks "$DEFAULT" -o "$f" "$SPV" || exit 1 ;;
	*) bin/gpuav-dbg instrument --set 1 --checks "$v" -o "$f" "$SPV" || exit 1 ;;
	esac
	labels=$(spirv-dis "$f" | grep -c OpLabel)
	calls=$(spirv-dis "$f" | grep -c OpFunctionCall)
	load=$(cut -d' ' -f1 /proc/loadavg)
	t=$(timeout "$LIMIT" "$tmp/shader-compile" "$f" | sed -n 's/.* total=\([0-9.]*\)s/\1/p')
	echo "$v $labels $calls ${t:-over-${LIMIT}}($load)"
done
