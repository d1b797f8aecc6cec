#!/bin/bash
# The claims 1x18's first moves still need (batch --needed), two jobs side by side (second round, 2026-12-04 from 11:2x UTC).
cd /work/main
echo "=== start $(date -u +%H:%M:%S)"
/usr/bin/time -v nice -n 10 /work/runs/bin/gosolve-3841a9d batch strip-openings --needed \
  --out-dir results/strip-openings --checkpoints --jobs 2 --threads 1 --table-mb 4000 --time-limit 7500 2>&1
echo "=== end $(date -u +%H:%M:%S) rc $?"
