set -u
echo "=== doctor"; bash scripts/nvidia-doctor.sh > $OUT/doctor.log 2>&1; grep -E "rc=|ready|n/a|^  (yes|no)" $OUT/doctor.log | head -30
echo "=== layer tests"; timeout 420 bash scripts/nvidia-layer-tests.sh 2>&1 | tail -70
