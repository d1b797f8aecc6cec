#!/bin/bash
# The second 2026-11-26 call (build 10b0a9d) on the lent 16-core machine, with the move prior
# (1836fad..ebb53f8 search): games 6 and 1 at 20 empty, value-only, 16 threads,
# 16 GiB table, 190-s limit each. usage: from the repository root with the
# stripped binary at .dev/gosolve; output under $OUT.
B=$PWD/.dev/gosolve
nproc
for spec in "g6 d4 a3 d2 c4 c3" "g1 a5 d4 c3 c4 b4"; do
  set -- $spec; name=$1; shift
  /usr/bin/time -f "%e s wall, %M KiB peak" $B solve 5x5 --moves "$*" --value-only --threads 16 --table-mb 16384 --time-limit 190 --json -q > $OUT/$name.json 2> $OUT/$name.err
  tail -1 $OUT/$name.err
  python3 -c "import json;j=json.load(open('$OUT/$name.json'));print('$name',{k:j.get(k) for k in ['value','nodes','seconds','limit']})"
done
