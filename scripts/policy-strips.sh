#!/bin/bash
# How the strips' codes in data/policy-ranks.bin and data/policy-ranks-tight.bin
# were made (2026-11-29): every-move solves of the empty strips 1x9 to 1x13
# (one thread, 512 MiB table, each keeping what it proves in a checkpoint),
# the 3x3 codes of their proving moves counted (examples/policy_train.rs;
# on a strip two of the code's slots are the points two away along it, see
# Patterns::new), and those codes added to both priors
# (scripts/policy-merge.py, which replaces strip codes the files have). The
# solves run without time limits, so the counts are the same from run to run
# on one build; the files in data/ were counted with a build whose priors had
# no strip codes yet (every strip move unseen, so in point order), and a build
# with them finds other proofs, so a rerun counts a little differently.
#
# usage: scripts/policy-strips.sh [DIR]
#   GOSOLVE=path to the binary (default target/release/gosolve)
# Needs about 3 GB of memory and 0.5 GB of disk in DIR; a few minutes.
set -eu
dir=${1:-policy-strips}
bin=${GOSOLVE:-target/release/gosolve}
mkdir -p "$dir"
list=""
for n in 9 10 11 12 13; do
  rm -f "$dir/1x$n.ck"
  "$bin" solve "1x$n" --threads 1 --table-mb 512 --checkpoint "$dir/1x$n.ck" --quiet
  list="$list${list:+,}$dir/1x$n.ck"
done
cargo run --release --example policy_train -- "$list" "$dir/strip-ranks.bin" 512
for f in policy-ranks policy-ranks-tight; do
  scripts/policy-merge.py "data/$f.bin" "$dir/strip-ranks.bin" "$dir/$f.bin"
done
echo "written: $dir/policy-ranks.bin, $dir/policy-ranks-tight.bin (copy them to data/ to build them in)"
