#!/bin/bash
# usage: scale.sh BIN LABEL TABLE_MB TIMELIMIT BOARD THREADS...
bin=$1; label=$2; mb=$3; tl=$4; board=$5; shift 5
for t in "$@"; do
  out=$($bin solve $board $EXTRA --threads $t --table-mb $mb --time-limit $tl --json --quiet 2>/dev/null)
  echo "$out" | python3 -c "
import json,sys
try: d=json.load(sys.stdin)
except Exception: print('$label $board threads=$t FAILED'); sys.exit()
mv=' '.join('%s=%+g'%(m['move'],m['value']) for m in d.get('moves',[]))
print('$label', '$board', '$EXTRA', 'threads=$t', 'value=%s'%d.get('value'), 'nodes=%s'%d.get('nodes'), 'sec=%.2f'%d.get('seconds',0), 'peakMiB=%.0f'%d.get('peak_memory_mib',0), 'status=%s'%d.get('status','solved'), mv)
" | tee -a $OUT/scale.txt
done
