#!/bin/bash
# 2026-12-04 from 11:25 UTC, binary of 3841a9d's tree (records name 6b8d71a-dirty), the 2-core Intel Xeon.
# Lane A: after 1x18 a2 the only White reply not yet shown to fail "<= +1" is a17 (the direct
#   claim of 04:23 refuted it after pass a3-a6 a8-a16 a18; the batch round of 08:17 after all but
#   a10 a12 a17): the claim "<= +1" after a2 a17, into a2's checkpoint.
# Lane B: the claim 1x18 a4 still needs, by the batch (--needed --only).
cd /work/main
laneA() {
  echo "=== A start $(date -u +%H:%M:%S)"
  /usr/bin/time -v nice -n 10 /work/runs/bin/gosolve-3841a9d solve 1x18 --moves "a2 a17" --at-most 1 \
    --threads 1 --table-mb 4000 --time-limit 7800 --checkpoint results/strip-openings/checkpoints/1x18-a2.ck 2>&1
  echo "=== A end $(date -u +%H:%M:%S)"
}
laneB() {
  echo "=== B start $(date -u +%H:%M:%S)"
  /usr/bin/time -v nice -n 10 /work/runs/bin/gosolve-3841a9d batch strip-openings --needed --only 1x18-a4 \
    --out-dir results/strip-openings --checkpoints --jobs 1 --threads 1 --table-mb 4000 --time-limit 7800 2>&1
  echo "=== B end $(date -u +%H:%M:%S)"
}
laneA > laneA2.out 2>&1 &
laneB > laneB2.out 2>&1 &
wait
