#!/bin/bash
# The 2026-11-28 run on the lent 16-core machine (results/parallel.md),
# main f3a7902 (regions of up to 11 points played out):
# games 2 and 6 at 20 empty on 16 threads (value-only, 16 GiB table, as in
# build afc1868), then the empty 5x5 board `--at-least 25` from a fresh 96 GiB
# table until the time limit. usage: results/runs/2026-11-28-h100/f3a7902-empty-board.sh BIN
# [EMPTY_LIMIT_S]; output in $OUT/summary.txt (a line per run) and
# $OUT/runs.txt (every run's JSON and the tail of its progress).
bin=$1; empty_limit=${2:-480}
sum=$OUT/summary.txt; raw=$OUT/runs.txt; SECONDS=0
{ echo "nproc $(nproc)"; grep -m1 "model name" /proc/cpuinfo; free -g | sed -n 2p; } | tee -a $sum
one() { # LABEL TABLE_MB LIMIT ARGS...
  local label=$1 mb=$2 tl=$3; shift 3
  local s=$SECONDS
  timeout $((tl + 60)) /usr/bin/time -f "%e s wall, %U s user, %M KB peak" -o $OUT/t.txt \
    $bin solve 5x5 "$@" --threads 16 --table-mb $mb --time-limit $tl --json -q >$OUT/j.txt 2>$OUT/e.txt
  local rc=$?
  { echo "=== $label table=$mb limit=$tl rc=$rc args: $*"; cat $OUT/j.txt; tail -5 $OUT/e.txt; cat $OUT/t.txt; } >>$raw
  local got=$(grep -E '^  "(value|holds|nodes|seconds|status)"' $OUT/j.txt | tr -d ' \n')
  echo "$label rc=$rc $got | $(tail -1 $OUT/t.txt 2>/dev/null) | $((SECONDS - s)) s" | tee -a $sum
  rm -f $OUT/j.txt $OUT/e.txt $OUT/t.txt
}
one game2-at-20 16384 75 --moves "a2 a3 b3 c3 c4" --value-only
one game6-at-20 16384 75 --moves "d4 a3 d2 c4 c3" --value-only
one empty-at-least-25 98304 $empty_limit --at-least 25
