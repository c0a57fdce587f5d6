#!/bin/bash
# Will gpuav-dbg work on this machine, and does the demo show its two
# errors: `gpuav-dbg doctor` and the demo under our layer and under Khronos
# GPU-AV, from the repository root (scripts/hardware/build.sh apps first;
# on the NVIDIA machine carry bin/ and .gl/: scripts/hardware/env.sh).
# Each step prints what it expects and its exit status; the script exits 1
# when a step did not do what it expects. Files: $OUT/doctor.txt,
# $OUT/doctor.json, $OUT/demo.json and $OUT/demo.gvs (the demo's report
# and session).
set -u
failed=0
# step WANT NAME CMD...: runs CMD, prints its status and counts a status
# other than WANT.
step() {
  local want=$1 name=$2; shift 2
  echo "== $name (want exit $want)"
  "$@"
  local rc=$?
  echo "rc=$rc"
  [ "$rc" = "$want" ] || { echo "UNEXPECTED: $name exited $rc, want $want"; failed=1; }
}
if ! ldconfig -p | grep -q 'libvulkan\.so\.1 '; then
  # Before the loader is unpacked: doctor says so, with the fix.
  step 2 "doctor, no Vulkan loader" bin/gpuav-dbg doctor
fi
. scripts/hardware/env.sh || exit 1
hw_device
step 0 "doctor" bash -c 'VK_ADD_LAYER_PATH=$KHRONOS_LAYER_PATH bin/gpuav-dbg doctor | tee "$OUT/doctor.txt"; exit ${PIPESTATUS[0]}'
step 0 "doctor --json" bash -c 'VK_ADD_LAYER_PATH=$KHRONOS_LAYER_PATH bin/gpuav-dbg doctor --json > "$OUT/doctor.json"'
step 2 "doctor, no driver" bash -c 'VK_DRIVER_FILES=/nonexistent.json bin/gpuav-dbg doctor | tail -3; exit ${PIPESTATUS[0]}'
step 0 "demo --clean, no layer" bin/demo --clean
step 1 "gpuav-dbg run --headless: the demo" \
  bin/gpuav-dbg run --headless --json "$OUT/demo.json" --session "$OUT/demo.gvs" -- bin/demo
step 0 "gpuav-dbg run --headless: the demo --clean" bin/gpuav-dbg run --headless --json "$OUT/demo-clean.json" -- bin/demo --clean
# Khronos GPU-AV reports the first record of each action (docs/HARDWARE.md).
step 0 "Khronos GPU-AV: the demo" bash -c 'hw_khronos bin/demo 2>&1 |
  grep -E "vk error|demo:" | cut -c1-400; exit ${PIPESTATUS[0]}'
python3 - "$OUT/demo.json" <<'PY' 2>/dev/null || echo "(no python3: see $OUT/demo.json)"
import json, sys
r = json.load(open(sys.argv[1]))
for e in r.get("errors", []):
    s = e.get("source", {})
    print(f"{e['check']} x{e['count']} {e.get('stage')} {s.get('file')}:{s.get('line')}")
c = r.get("capabilities")
print(json.dumps(c, indent=1)[:1500] if c else "no capabilities")
PY
exit $failed
