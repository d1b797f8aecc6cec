#!/bin/bash
# How data/policy-ranks-tight.bin was made (2026-11-27, commit 56fa3b9): value-only solves
# of 5x5 positions after seven random moves (seeded), one thread, 75 s each,
# two streams (one per core), each keeping what it proves in its own
# checkpoint; then the 3x3 patterns of the proving moves in both
# checkpoints are counted (examples/policy_train.rs). A solve stopped at
# its limit keeps its finished results. Time limits make the counts differ
# a little from run to run; the file in data/ is that of 2026-11-27.
#
# usage: scripts/policy-tight.sh [DIR] [POSITIONS_PER_STREAM]
#   GOSOLVE=path to the binary (default target/release/gosolve)
# Needs about 9 GB of memory (two 4 GiB tables) and 9 GB of disk in DIR.
set -eu
dir=${1:-policy-tight}; n=${2:-8}
bin=${GOSOLVE:-target/release/gosolve}
mkdir -p "$dir"
stream() {
  for i in $(seq 1 "$n"); do
    moves=$(python3 -c "
import random; r = random.Random($1 * 1000 + $i)
print(' '.join(r.sample([c + str(k) for c in 'abcde' for k in range(1, 6)], 7)))")
    echo "stream $1, position $i: $moves"
    "$bin" solve 5x5 --moves "$moves" --value-only --threads 1 --table-mb 4096 \
      --checkpoint "$dir/s$1.ck" --time-limit 75 --json -q > "$dir/s$1-$i.json" 2>&1 || true
  done
}
stream 1 & stream 2 & wait
cargo run --release --example policy_train -- "$dir/s1.ck,$dir/s2.ck" "$dir/policy-ranks-tight.bin" 4096
echo "written: $dir/policy-ranks-tight.bin (copy it to data/ to build it in)"
