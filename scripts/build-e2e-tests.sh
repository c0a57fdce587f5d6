#!/bin/bash
# Builds the end-to-end suite (./e2e) into bin/e2e-tests/ so it runs where
# there is no Go toolchain, C compiler or glslang (the NVIDIA machine): the
# compiled test binary and every test app with its SPIR-V
# (GPUAVDBG_TEST_PREBUILD_OUT, see e2e/e2e_test.go). `make build` first:
# the suite runs bin/gpuav-dbg, the layer and bin/demo as they are.
# scripts/nvidia-e2e-tests.sh runs it.
set -euo pipefail
cd "$(dirname "$0")/.."
out=bin/e2e-tests
rm -rf "$out"; mkdir -p "$out"
go test -c -o "$out/e2e.test" ./e2e
( cd e2e && GPUAVDBG_TEST_PREBUILD_OUT="$PWD/../$out" "../$out/e2e.test" )
echo "built $out ($(du -sh "$out" | cut -f1))"
