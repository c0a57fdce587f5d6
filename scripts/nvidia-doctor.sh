#!/bin/bash
# Run from the repo root on the NVIDIA machine (see scripts/nvidia-demo.sh and
# docs/HARDWARE.md): bin/ holds the binaries built here, .gl/ the Debian debs
# (libvulkan1, libglvnd libs; .gl/vvl/ the Khronos layer).
# 1. doctor before the loader is unpacked: must exit 2 with the loader fix line.
# 2. doctor and doctor --json with the NVIDIA driver: must exit 0.
# 3. the demo headless: the report's "capabilities" is the H200's.
echo "== doctor, no Vulkan loader yet"; bin/gpuav-dbg doctor; echo "rc=$?"
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export XDG_RUNTIME_DIR=/tmp/xdg; mkdir -p $XDG_RUNTIME_DIR; chmod 700 $XDG_RUNTIME_DIR
mkdir -p /tmp/vvl && dpkg -x .gl/vvl/*.deb /tmp/vvl
export VK_ADD_LAYER_PATH=/tmp/vvl/usr/share/vulkan/explicit_layer.d
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "== doctor"; bin/gpuav-dbg doctor | tee $OUT/nvidia-doctor.txt; echo "rc=${PIPESTATUS[0]}"
echo "== doctor --json"; bin/gpuav-dbg doctor --json > $OUT/nvidia-doctor.json; echo "rc=$?"
echo "== doctor, no driver"; VK_DRIVER_FILES=/nonexistent.json bin/gpuav-dbg doctor | tail -3; echo "rc=${PIPESTATUS[0]}"
echo "== demo headless"; bin/gpuav-dbg run --headless --json $OUT/nvidia-demo-caps.json -- bin/demo; echo "rc=$?"
python3 -c "import json,sys; c=json.load(open('$OUT/nvidia-demo-caps.json')).get('capabilities'); print(json.dumps(c, indent=1)[:3000])"
