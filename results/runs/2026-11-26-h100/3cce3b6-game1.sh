#!/bin/bash
# The second 2026-11-26 call (build 3cce3b6) on the lent 16-core machine (the device time
# left after 3cce3b6-c3-b1-b2.sh): 5x5 game 1 at 20 empty, value-only, 16
# threads (every thread on df-pn), which the run of build 83b0161 did not solve in 70 s.
# usage: results/runs/2026-11-26-h100/3cce3b6-game1.sh BIN LIMIT_S; output under $OUT.
bin=$1; tl=${2:-185}
/usr/bin/time -f "%e s wall, %M KB peak" -o $OUT/time.txt \
  $bin solve 5x5 --moves "a5 d4 c3 c4 b4" --value-only --threads 16 \
  --table-mb 16384 --time-limit $tl --json >$OUT/game1.json 2>$OUT/progress.txt
echo "rc=$?"; cat $OUT/time.txt
grep -E '^  "(value|lower_bound|upper_bound|nodes|seconds|peak_memory_mib|nodes_per_second|limit)"' $OUT/game1.json
tail -2 $OUT/progress.txt
