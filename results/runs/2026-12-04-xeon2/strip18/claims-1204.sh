#!/bin/bash
# Claims "value <= +1" after 1x18 first moves, one lane per argument list.
# usage: claims-1204.sh LANE move...
cd /work/main
B=/work/runs/bin/gosolve-d22b783
lane=$1; shift
for m in "$@"; do
  ck=results/strip-openings/checkpoints/1x18-$m.ck
  mkdir -p results/strip-openings/checkpoints
  if [ ! -e $ck ] && [ -e results/strip-openings/seeds/1x18-$m.ck ]; then cp results/strip-openings/seeds/1x18-$m.ck $ck; fi
  echo "=== $m start $(date -u +%H:%M:%S)"
  /usr/bin/time -v nice -n 10 $B solve 1x18 --moves $m --at-most 1 --threads 1 --table-mb 4000 \
     --time-limit 1500 --checkpoint $ck 2>&1
  echo "=== $m end $(date -u +%H:%M:%S)"
done
