#!/bin/bash
# one thread, value-only, a guess: nodes of the driver before and after the focus bound is taken in
for c in "1x14 a2 1" "1x14 a2 0" "1x14 a2 2" "1x14 a4 1" "1x14 a7 1" "1x15 a2 2" "1x15 a4 2" "1x13 a3 0" "1x13 a1 -3" "4x4 b2 2" "5x3 b2 15"; do
  set -- $c
  for b in 48056ec focusrange; do
    out=$(/usr/bin/time -f "%e" /work/runs/bin/gosolve-$b solve $1 --moves $2 --value-only --guess=$3 --threads 1 --table-mb 1024 --quiet --json 2>&1)
    v=$(echo "$out" | python3 -c "import sys,json; t=sys.stdin.read(); d=json.loads(t[t.index('{'):t.rindex('}')+1]); print(d.get('value'), d['stats']['nodes'] if 'stats' in d else d.get('nodes'))" 2>&1 | tail -1)
    echo "$1 $2 guess $3 $b: $v wall $(echo "$out" | tail -1)"
  done
done
