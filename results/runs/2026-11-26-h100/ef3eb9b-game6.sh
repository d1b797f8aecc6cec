#!/bin/bash
# The 2026-11-26 runs (build ef3eb9b) on the lent 16-core machine: 5x5 game 6 at 20 empty
# (d4 a3 d2 c4 c3, White to move, +25), value-only, with THREADS threads
# (16, then 8) and a 16 GiB table.
# usage: results/runs/2026-11-26-h100/ef3eb9b-game6.sh BIN THREADS LIMIT_S; output under $OUT.
bin=$1; threads=${2:-16}; tl=${3:-470}
nproc; free -g | head -2
/usr/bin/time -f "%e s wall, %M KiB peak" $bin solve 5x5 --moves "d4 a3 d2 c4 c3" --value-only \
  --threads $threads --table-mb 16384 --time-limit $tl --json > $OUT/g6.json 2> $OUT/g6.err
tail -c 3000 $OUT/g6.err
python3 -c "import json;j=json.load(open('$OUT/g6.json'));print({k:j.get(k) for k in ['value','nodes','seconds','limit','table_mb']})"
