#!/bin/bash
# Run on 2026-12-03 with the release build of 2021426 (the 2-core Intel Xeon),
# the machine quiet (the day's two batch jobs stopped for it).
G=${GOSOLVE:-gosolve}
for i in 1 2; do
  echo "== run $i $(date -u) load $(cut -d' ' -f1-3 /proc/loadavg)"
  /usr/bin/time -v $G solve 5x5 --at-least 25 --threads 2 --time-limit 900 --json > run$i.json 2> run$i.err
  echo "== end $i $(date -u)"
done
