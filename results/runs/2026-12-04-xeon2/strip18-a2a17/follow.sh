#!/bin/bash
# usage: follow.sh WAITPID LANE LIMIT MOVE...: after WAITPID ends, run the claim
# after each MOVE whose log does not yet say it holds.
wp=$1; shift
while kill -0 $wp 2>/dev/null; do sleep 5; done
lane=$1; limit=$2; shift 2
todo=()
for m in "$@"; do grep -q 'holds (proved)' log/1x18-a2-a17-$m.log 2>/dev/null || todo+=($m); done
[ ${#todo[@]} -gt 0 ] && exec ./children.sh $lane $limit "${todo[@]}"
