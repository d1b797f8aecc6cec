#!/bin/bash
# The second 2026-11-26 run on the lent 16-core machine: 16 threads with 2
# or 16 df-pn helpers on the smaller boards (does the all-df-pn choice that
# won on 5x5 hold there?), and 5x5 game 3 at 20 empty with 16.
# usage: results/runs/2026-11-26-h100/83b0161-small-boards.sh BIN [games] (BIN reads
# GOSOLVE_DFPN_HELPERS, a scratch knob of that day's build); with
# "games", 5x5 games 1 and 2 at 20 empty instead (the third call, the
# machine still warm). Results under $OUT/summary.txt and $OUT/runs.txt.
bin=$1; sum=$OUT/summary.txt; raw=$OUT/runs.txt
one() { # LABEL HELPERS LIMIT BOARD ARGS...
  local label=$1 h=$2 tl=$3; shift 3
  local s=$SECONDS
  GOSOLVE_DFPN_HELPERS=$h timeout $((tl + 30)) /usr/bin/time -f "%e s wall, %M KB peak" -o $OUT/t.txt \
    $bin solve "$@" --value-only --threads 16 --time-limit $tl --json --quiet >$OUT/j.txt 2>$OUT/e.txt
  local rc=$?
  { echo "=== $label helpers=$h limit=$tl rc=$rc args: $*"; cat $OUT/j.txt $OUT/e.txt $OUT/t.txt; } >>$raw
  echo "$label helpers=$h rc=$rc $(grep -E '^  "(value|nodes|seconds|lower_bound|upper_bound)"' $OUT/j.txt | tr -d ' \n') | $(tail -1 $OUT/t.txt)" | tee -a $sum
}
if [ "$2" = games ]; then
  one game1at20 16 70 5x5 --moves "a5 d4 c3 c4 b4" --table-mb 8192
  one game2at20 16 90 5x5 --moves "a2 a3 b3 c3 c4" --table-mb 8192
  exit
fi
for h in 2 16; do one 4x4 $h 20 4x4 --table-mb 4096; done
for h in 2 16; do one 1x12 $h 30 12x1 --table-mb 4096; done
for h in 2 16; do one 3x5 $h 20 5x3 --table-mb 4096; done
one game3at20 16 60 5x5 --moves "b3 d4 d3 c3 c4" --table-mb 8192
