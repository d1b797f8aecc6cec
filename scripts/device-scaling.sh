#!/bin/bash
# The distributed solve's speedup on a many-core machine (a 16-core device
# machine): 1, 2, 4, 8 and 16 local workers against one process with 1 and
# 16 threads, on a 5x5 game position at 20 empty points (game 3,
# `b3 d4 d3 c3 c4`, value -1; the empty board's `--at-least 25` needs a
# 12 GiB table and 12 minutes on two threads, too long for the 10 minutes
# this script may take) and on 4x4 every move. Everything it measures goes
# under $OUT (default out/device-scaling): one .out/.err per run, the work
# dirs (their answers are the recordings that
# `cargo run --release --example simulate_solve -- DIR` replays), and
# summary.txt: one line per run with its wall seconds.
#
#   OUT=/some/dir scripts/device-scaling.sh [path/to/gosolve]
#
# Each run has a time limit, and none starts after BUDGET seconds (default
# 540), so the whole takes about 10 minutes at most; a run that hits its
# limit or is skipped says so in summary.txt.
set -uo pipefail
G=${1:-target/release/gosolve}
OUT=${OUT:-out/device-scaling}
mkdir -p "$OUT"
SUMMARY="$OUT/summary.txt"
{
    echo "date $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
    echo "binary $("$G" --version)"
    echo "cpus $(nproc): $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
    echo "memory $(free -g | awk '/Mem:/ {print $2}') GiB"
} | tee "$SUMMARY"

# run NAME LIMIT_S COMMAND...: the command's output in NAME.out/.err, its
# wall seconds (and exit status) in the summary.
# Runs that would start after BUDGET seconds are skipped (and say so).
BUDGET=${BUDGET:-540}
run() {
    local name=$1 limit=$2
    shift 2
    local t0 t1 rc
    if [ "$SECONDS" -ge "$BUDGET" ]; then
        printf '%-22s skipped (%s s of the budget spent)\n' "$name" "$SECONDS" | tee -a "$SUMMARY"
        return
    fi
    t0=$(date +%s.%N)
    timeout "$limit" "$@" >"$OUT/$name.out" 2>"$OUT/$name.err"
    rc=$?
    t1=$(date +%s.%N)
    printf '%-22s %8.1f s  exit %s%s\n' "$name" "$(echo "$t1 - $t0" | bc)" "$rc" \
        "$([ "$rc" = 124 ] && echo "  (time limit ${limit} s)")" | tee -a "$SUMMARY"
}

G3="b3 d4 d3 c3 c4"
# The baselines: one process.
run g3-threads1 120 "$G" solve 5x5 --moves "$G3" --value-only --threads 1 --table-mb 4096 -q --json
run g3-threads16 60 "$G" solve 5x5 --moves "$G3" --value-only --threads 16 --table-mb 16384 -q --json
run 4x4-threads1 60 "$G" solve 4x4 --threads 1 --table-mb 2048 -q --json
run 4x4-threads16 60 "$G" solve 4x4 --threads 16 --table-mb 8192 -q --json
# The distributed solve: N local workers of one thread, 2 GiB tables.
for n in 1 2 4 8 16; do
    rm -rf "$OUT/work-g3-$n" "$OUT/work-4x4-$n"
    run "g3-workers$n" 150 "$G" solve 5x5 --moves "$G3" --value-only --workers "$n" --threads 1 \
        --table-mb 2048 --unit-nodes 500000 --work-dir "$OUT/work-g3-$n" -q --json
    run "4x4-workers$n" 60 "$G" solve 4x4 --workers "$n" --threads 1 --table-mb 512 \
        --unit-nodes 50000 --work-dir "$OUT/work-4x4-$n" -q --json
done
# The node counts of the distributed runs, from their reports.
for f in "$OUT"/*-workers*.out; do
    printf '%s: ' "$(basename "$f" .out)"
    grep -E '"(value|nodes|units|seconds)"' "$f" | tr -d ' \n'
    echo
done | tee -a "$SUMMARY"
