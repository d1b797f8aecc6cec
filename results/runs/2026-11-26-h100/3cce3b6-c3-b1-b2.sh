#!/bin/bash
# The 2026-11-26 run (build 3cce3b6) on the lent 16-core machine: one line of the empty
# 5x5 board's proof, White's b1 reply to c3 answered by b2, tested
# "value >= 25" from a fresh table with every core.
# usage: results/runs/2026-11-26-h100/3cce3b6-c3-b1-b2.sh BIN LIMIT_S; output under $OUT.
bin=$1; tl=${2:-520}
nproc; free -g | head -2
/usr/bin/time -f "%e s wall, %M KB peak" -o $OUT/time.txt \
  $bin solve 5x5 --moves "c3 b1 b2" --at-least 25 --threads 16 \
  --table-mb 65536 --time-limit $tl --json >$OUT/claim.json 2>$OUT/progress.txt
echo "rc=$?"; cat $OUT/time.txt
grep -E '"(holds|nodes|seconds|peak_memory_mib|nodes_per_second)"' $OUT/claim.json | head -8
grep -c '"holds": true' $OUT/claim.json; grep -c '"holds": false' $OUT/claim.json
tail -3 $OUT/progress.txt
