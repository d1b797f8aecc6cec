#!/bin/bash
# The overhead of 2 local (long-lived) workers against one process of 2 threads, on the
# 2-core Intel Xeon machine (issue 63 item 7). Each pair runs under the
# exclusive quiet lock; the load average is recorded before and after.
#   results/runs/2026-11-29-xeon2/overhead.sh NAME LIMIT_S ARGS...
# writes NAME-threads2.{out,time,mem} and NAME-workers2.{out,time,mem} next to
# this script; the work dir (the recording the simulation replays) goes to
# out/xeon2-29/NAME.work.
set -uo pipefail
G=${G:-target/release/gosolve}
D=$(dirname "$0")
name=$1 limit=$2
shift 2
mkdir -p out/xeon2-29
# peak of the summed resident memory of PID and its descendants, in MiB
sample() {
    local pid=$1 peak=0 sum pids
    while kill -0 "$pid" 2>/dev/null; do
        pids=$(pstree -p "$pid" 2>/dev/null | grep -o '([0-9]*)' | tr -d '()' | paste -sd,)
        sum=$(ps -o rss= -p "${pids:-$pid}" 2>/dev/null | awk '{s+=$1} END {print int(s/1024)}')
        [ "${sum:-0}" -gt "$peak" ] && peak=$sum
        sleep 0.5
    done
    echo "$peak"
}
one() {
    local tag=$1
    shift
    echo "load before: $(cat /proc/loadavg)" >"$D/$name-$tag.time"
    /usr/bin/time -v timeout "$((limit + 30))" "$@" >"$D/$name-$tag.out" 2>>"$D/$name-$tag.time" &
    local pid=$!
    sample "$pid" >"$D/$name-$tag.mem"
    wait "$pid"
    echo "load after: $(cat /proc/loadavg)" >>"$D/$name-$tag.time"
}
rm -rf "out/xeon2-29/$name.work"
one threads2 "$G" solve "$@" --threads 2 --table-mb 2048 --time-limit "$limit" -q --json
one workers2 "$G" solve "$@" --workers 2 --backend local --threads 1 --table-mb 1024 \
    --work-dir "out/xeon2-29/$name.work" --time-limit "$limit" -q --json
