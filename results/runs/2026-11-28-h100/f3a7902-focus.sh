#!/bin/bash
# 2026-11-28, second call on the lent 16-core machine: the empty 5x5 board
# `--at-least 25` from a fresh 32 GiB table with the claim's focus on one
# first move (src/search/focus.rs). usage: results/runs/2026-11-28-h100/f3a7902-focus.sh BIN
# LIMIT_S; output in $OUT/summary.txt and $OUT/runs.txt.
bin=$1; limit=${2:-170}
{ echo "nproc $(nproc)"; grep -m1 "model name" /proc/cpuinfo; free -g | sed -n 2p; } | tee -a $OUT/summary.txt
timeout $((limit + 30)) /usr/bin/time -f "%e s wall, %U s user, %M KB peak" -o $OUT/t.txt \
  $bin solve 5x5 --at-least 25 --threads 16 --table-mb 32768 --time-limit $limit --json -q >$OUT/j.txt 2>$OUT/e.txt
rc=$?
{ echo "=== empty-at-least-25 threads=16 table=32768 limit=$limit rc=$rc"; cat $OUT/j.txt; tail -5 $OUT/e.txt; cat $OUT/t.txt; } >>$OUT/runs.txt
echo "empty-at-least-25 rc=$rc $(grep -E '^  "(holds|nodes|seconds|status)"' $OUT/j.txt | tr -d ' \n') | $(tail -1 $OUT/t.txt)" | tee -a $OUT/summary.txt
