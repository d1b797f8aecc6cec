#!/bin/bash
# Issue 64 item 6: gosolve solve 5x5 --at-least 25 with the default table,
# two threads, on the quiet 2-core Intel Xeon (2026-11-29, build of 048656b).
# Run from the repository root with GOSOLVE set to the release binary.
set -u
D=results/runs/2026-11-29-xeon2
{ date -u; uptime; grep MemAvailable /proc/meminfo; } > $D/5x5-default-table.load
/usr/bin/time -v "$GOSOLVE" solve 5x5 --at-least 25 --threads 2 --time-limit 900 --json \
    > $D/5x5-default-table.out 2> $D/5x5-default-table.err
{ date -u; uptime; } >> $D/5x5-default-table.load
