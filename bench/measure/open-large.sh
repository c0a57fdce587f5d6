#!/bin/bash
# Opening large sessions with the real binary (docs/BENCHMARKS.md, "Session
# files: open 1M records"): the CPU time (user + system) and the maximum
# resident set of `gpuav-dbg open --headless FILE` and of the TUI on the
# same file, from its start until the tree has placed every group, in
# tmux at 200×50 (then q). One line per run: what, user s, system s, max
# RSS MB (the headless open exits 1: the sessions hold errors). From the repository root, after make build (bin/gpuav-dbg):
#   bash bench/measure/open-large.sh
#   SHAPES="250k-groups 1M 1-group"  the session files opened (default 250k-groups)
#   RUNS=N                           runs of each (default 5)
#   NO_TUI=1                         headless only
#   BIN=PATH                         the binary (default bin/gpuav-dbg)
set -u
bin=${BIN:-$PWD/bin/gpuav-dbg} # BIN=path: another build
[ -x "$bin" ] || { echo "no $bin: make build first" >&2; exit 2; }
dir=$(mktemp -d /tmp/open-large.XXXXXX)
trap 'tmux kill-session -t "open-large-$$" 2>/dev/null; rm -rf "$dir"' EXIT
GPUAVDBG_BENCH_FILES=$dir go test -count 1 -run '^TestWriteBenchFiles$' ./session >/dev/null || exit 2
fmt='%U %S %M'
# line WHAT FILE: one result line from /usr/bin/time's output FILE.
# (A status line, "Command exited with non-zero status 1", comes first.)
line() { awk -v w="$1" 'NF == 3 {printf "%-22s user %5.2f s  sys %5.2f s  max RSS %4d MB\n", w, $1, $2, $3/1024}' "$2"; }
for shape in ${SHAPES:-250k-groups}; do
  f=$dir/$shape.gvs
  groups=$("$bin" open --headless "$f" 2>&1 >/dev/null | sed -n 's/^gpuav-dbg: \([0-9]*\) error groups.*/\1/p')
  for i in $(seq "${RUNS:-5}"); do
    /usr/bin/time -f "$fmt" -o "$dir/t" "$bin" open --headless "$f" >/dev/null 2>&1
    line "$shape headless" "$dir/t"
    [ -n "${NO_TUI:-}" ] && continue
    rm -f "$dir/t"
    tmux new-session -d -s "open-large-$$" -x 200 -y 50 \
      "/usr/bin/time -f '$fmt' -o $dir/t $bin open $f --theme dark"
    # Wait for the whole tree: the title counts every group, no "% read".
    for _ in $(seq 1200); do
      tmux capture-pane -p -t "open-large-$$" 2>/dev/null | grep -q "($groups groups)" && break
      sleep 0.1
    done
    tmux send-keys -t "open-large-$$" q
    for _ in $(seq 100); do [ -s "$dir/t" ] && break; sleep 0.1; done
    line "$shape tui" "$dir/t"
  done
done
