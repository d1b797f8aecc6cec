#!/bin/bash
# The 2026-11-28 run (build afc1868) on the lent 16-core machine
# (results/parallel.md): 5x5 at 20 empty on 16 threads (the five game
# positions, value-only, 16 GiB table, as on 2026-11-26), then thread
# scaling 1..16 on game 5 at 19 empty (one-thread node counts with a 2 GiB
# table repeat exactly). usage: results/runs/2026-11-28-h100/afc1868-20-empty.sh BIN; output in
# $OUT/summary.txt (one line per run) and $OUT/runs.txt (every run's JSON
# and the tail of its progress).
bin=$1
sum=$OUT/summary.txt; raw=$OUT/runs.txt; SECONDS=0
{ echo "nproc $(nproc)"; grep -m1 "model name" /proc/cpuinfo; free -g | sed -n 2p; } | tee -a $sum
one() { # LABEL THREADS TABLE_MB LIMIT ARGS...
  local label=$1 th=$2 mb=$3 tl=$4; shift 4
  local s=$SECONDS
  timeout $((tl + 30)) /usr/bin/time -f "%e s wall, %U s user, %M KB peak" -o $OUT/t.txt \
    $bin solve 5x5 "$@" --value-only --threads $th --table-mb $mb --time-limit $tl --json -q >$OUT/j.txt 2>$OUT/e.txt
  local rc=$?
  { echo "=== $label threads=$th table=$mb limit=$tl rc=$rc args: $*"; cat $OUT/j.txt; tail -5 $OUT/e.txt; cat $OUT/t.txt; } >>$raw
  local got=$(grep -E '^  "(value|nodes|seconds|lower_bound|upper_bound)"' $OUT/j.txt | tr -d ' \n')
  echo "$label threads=$th rc=$rc $got | $(tail -1 $OUT/t.txt 2>/dev/null) | $((SECONDS - s)) s" | tee -a $sum
  rm -f $OUT/j.txt $OUT/e.txt $OUT/t.txt
}
for spec in "game3 b3 d4 d3 c3 c4" "game5 d5 b4 c3 b3 c4" "game1 a5 d4 c3 c4 b4" \
            "game6 d4 a3 d2 c4 c3" "game2 a2 a3 b3 c3 c4"; do
  set -- $spec; name=$1; shift
  one "$name-at-20" 16 16384 75 --moves "$*"
done
for th in 16 8 4 2 1; do
  [ $SECONDS -gt 480 ] && { echo "skipped the rest: $SECONDS s spent" | tee -a $sum; break; }
  one game5-at-19 $th 2048 60 --moves "d5 b4 c3 b3 c4 c2"
done
