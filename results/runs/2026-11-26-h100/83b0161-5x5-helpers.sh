#!/bin/bash
# The 2026-11-26 run on the lent 16-core machine (results/solve.md, the entry
# of commit fdd2aae): 5x5 positions at 20 empty points on 16 threads with 2 or 16 df-pn
# helpers, then the empty board's open line c3 a1 b2 ("value >= 25") with
# what time is left. usage: results/runs/2026-11-26-h100/83b0161-5x5-helpers.sh BIN BUDGET_SECONDS
# BIN reads GOSOLVE_DFPN_HELPERS (a scratch knob of that day's build,
# not in the repository). Results under $OUT: summary.txt and runs.txt.
bin=$1; budget=$2; t0=$SECONDS
sum=$OUT/summary.txt; raw=$OUT/runs.txt
{ echo "nproc $(nproc)"; grep -m1 "model name" /proc/cpuinfo; free -g | sed -n 2p; } | tee -a $sum
one() { # LABEL HELPERS LIMIT ARGS...
  local label=$1 h=$2 tl=$3; shift 3
  local s=$SECONDS
  GOSOLVE_DFPN_HELPERS=$h GOSOLVE_TRACE=1 timeout $((tl + 60)) \
    /usr/bin/time -f "%e s wall, %M KB peak" -o $OUT/t.txt \
    $bin solve 5x5 "$@" --threads 16 --time-limit $tl --json >$OUT/j.txt 2>$OUT/e.txt
  local rc=$?
  { echo "=== $label helpers=$h limit=$tl rc=$rc args: $*"; cat $OUT/j.txt $OUT/e.txt $OUT/t.txt; } >>$raw
  local got=$(grep -E '^  "(value|holds|nodes|seconds|lower_bound|upper_bound|peak_memory_mib)"' $OUT/j.txt | tr -d ' \n')
  echo "$label helpers=$h rc=$rc $got | $(grep -E 'nodes' $OUT/e.txt | grep -v '^test' | tail -1) | $(cat $OUT/t.txt 2>/dev/null | tail -1) | $((SECONDS - s)) s" | tee -a $sum
  rm -f $OUT/j.txt $OUT/e.txt $OUT/t.txt
  last=$((SECONDS - s))
}
one game5at20 2 60 --moves "d5 b4 c3 b3 c4" --value-only --table-mb 8192; a=$last
one game5at20 16 60 --moves "d5 b4 c3 b3 c4" --value-only --table-mb 8192; b=$last
best=16; [ $a -lt $b ] && best=2
echo "faster on game 5: helpers=$best" | tee -a $sum
one game6at20 $best 90 --moves "d4 a3 d2 c4 c3" --value-only --table-mb 8192
left=$((budget - (SECONDS - t0) - 30))
[ $left -gt 60 ] && one c3a1b2 $best $left --moves "c3 a1 b2" --at-least 25 --table-mb 32768
echo "total $((SECONDS - t0)) s" | tee -a $sum
