#!/bin/bash
# The assembly of the proof that the empty 5x5 board is +25 under NSTT (no
# suicide, positional superko, komi 0; no value can exceed the 25 points,
# so "value >= 25" is the value): one claim "--at-least 25" after each line
# below, every run resuming the checkpoint the runs before it left, so that
# a later (shorter) line reads the proofs of the longer ones from the table
# instead of searching them again (results/solve.md, 2026-11-26, commits
# c36ed05-01b2d51). Every line held on 2026-11-26 (commit 01b2d51), the
# last two in 1.7 s and 1.3 s of search.
#
# usage: scripts/moonshot.sh [CHECKPOINT] [TABLE_MB]
#   GOSOLVE=path to the binary (default target/release/gosolve)
#   STEP_LIMIT=seconds per run (default: none); THREADS (default 0: every core)
#
# Interrupt it (Ctrl-C) or let a run reach STEP_LIMIT: the run saves the
# checkpoint (also every 20 minutes), and running the script again goes on
# from there. A line that
# holds is written to CHECKPOINT.done and skipped afterwards. The script
# stops at the first line that does not hold in its time, since the lines
# after it need its proof.
#
# The checkpoint grows to about 12 GB (23 M results); TABLE_MB (default
# 12288) must hold it, and saving needs as much free disk again for the
# temporary copy. On two cores the proof took about 4.1 h of search in all
# (14,800 s over commits c36ed05-01b2d51, the open tries that fed the lines
# included; their order was not this script's, which is a replay). This
# script from an empty checkpoint: 8,695 s of search (2.4 h, 2.68e9 nodes,
# two threads; 2026-11-26, commits 01b2d51-946ab6b), 22.4 M results, 11.6 GB at the end.
set -u
ck=${1:-moonshot.ck}
mb=${2:-12288}
bin=${GOSOLVE:-target/release/gosolve}
limit=${STEP_LIMIT:-}
threads=${THREADS:-0}
done_file=$ck.done
touch "$done_file"

# van der Werf's centre line (2002) from 9 plies back to 2: every White turn
# costs search, every Black turn is answered in a few nodes from the next
# ply's proof. Then a proved Black answer to each other White reply to c3
# (up to the board's symmetry, which the search applies itself: a1 stands
# for the corners, c1 for the edge centres, b1 for the points beside the
# corners, b2 for the diagonals; c2, the pass and their images are
# answered through the 2-ply proof). Then c3 itself and the empty board.
lines=(
  "c3 c2 b2 b3 d2 c4 d3 a2 b1"
  "c3 c2 b2 b3 d2 c4 d3 a2"
  "c3 c2 b2 b3 d2 c4 d3"
  "c3 c2 b2 b3 d2 c4"
  "c3 c2 b2 b3 d2"
  "c3 c2 b2 b3"
  "c3 c2 b2"
  "c3 c2"
  "c3 a1 b2"   # holds (fdd2aae: 1,148 s after about 80 min at a1dba55)
  "c3 c1 c2"   # holds (01b2d51: 1,326 s, 484 M nodes, after 40 min of "c3 c1")
  "c3 b1 b2"   # holds (01b2d51: 81 s, 23.7 M nodes)
  "c3 b2 c2"   # holds (01b2d51: 469 s, 189.6 M nodes)
  "c3"
  ""
)

for line in "${lines[@]}"; do
  if grep -qxF "[$line]" "$done_file"; then
    echo "holds (earlier run): [$line]"
    continue
  fi
  echo "claim >= 25 after [$line]${limit:+ (limit $limit s)}"
  out=$(mktemp)
  "$bin" solve 5x5 ${line:+--moves "$line"} --at-least 25 --threads "$threads" \
    --checkpoint "$ck" --checkpoint-every 1200 --table-mb "$mb" \
    ${limit:+--time-limit "$limit"} --json >"$out"
  rc=$?
  if grep -q '^  "holds": true' "$out"; then
    echo "[$line]" >>"$done_file"
    grep -E '^  "(nodes|seconds)"' "$out"
    rm -f "$out"
  elif grep -q '^  "holds": false' "$out"; then
    # Only a refuted Black answer (a line that ends with Black's move) is
    # no contradiction of the published +25; replace it by another answer.
    echo "REFUTED after [$line]: fewer than 25 there; output kept in $out" >&2
    exit 2
  else
    echo "not decided after [$line] (exit $rc); output kept in $out; run again to resume" >&2
    exit 1
  fi
done
echo "the empty 5x5 board is +25: every line holds"
