#!/bin/bash
# Run on 2026-12-04 from 15:56 UTC with the release build of a0add26 (the 2-core
# Intel Xeon, a fresh checkout), the machine quiet (the day's 1x18 claims stopped
# between their runs for it). First the one-thread probe of 2026-12-03 that
# compares hosts' node rates, then issue 64's item 6 twice.
G=${GOSOLVE:-gosolve}
echo "== probe $(date -u) load $(cut -d' ' -f1-3 /proc/loadavg)"
$G solve 5x5 --moves "c3 c2 d3 d2 b2 b3" --at-least 25 --threads 1 --table-mb 512 --quiet --json > probe.json 2> probe.err
for i in 1 2; do
  echo "== run $i $(date -u) load $(cut -d' ' -f1-3 /proc/loadavg)"
  /usr/bin/time -v $G solve 5x5 --at-least 25 --threads 2 --time-limit 900 --json > run$i.json 2> run$i.err
  echo "== end $i $(date -u)"
done
