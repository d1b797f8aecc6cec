#!/bin/bash
# usage: children.sh LANE LIMIT MOVE...   claims "<= +1" in 1x18 after a2 a17 MOVE, one thread, nice 10
# (The "rc" of each "=== end" line is that of the date substitution, always 0; the claim line says how each run ended.)
lane=$1; limit=$2; shift 2
BIN=/work/runs/bin/gosolve-a0add26
cd /work/runs/strip
for m in "$@"; do
  ck=ck/1x18-a2-a17-$m.ck
  [ -e $ck ] || cp /work/main/results/strip-openings/seeds/1x18-a2.ck $ck
  log=log/1x18-a2-a17-$m.log
  { echo "=== $(date -u +%FT%TZ) lane $lane limit $limit: $($BIN --version) solve 1x18 --moves 'a2 a17 $m' --at-most 1 --threads 1 --table-mb 3000 --time-limit $limit --checkpoint $ck";
    nice -n 10 /usr/bin/time -f 'wall %e s, peak RSS %M KiB' $BIN solve 1x18 --moves "a2 a17 $m" --at-most 1 --threads 1 --table-mb 3000 --time-limit $limit --checkpoint $ck --quiet;
    echo "=== end $(date -u +%FT%TZ) rc $?"; } >> $log 2>&1
  if grep -q 'DONE-STOP' /work/runs/strip/stop 2>/dev/null; then break; fi
done
