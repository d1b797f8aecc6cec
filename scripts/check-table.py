#!/usr/bin/env python3
"""Check a built table against the solver on random positions.

Draws legal positions at random (each point black, white or empty; a
position where some chain has no liberty is drawn again), looks each one up
with `gosolve table query` and solves it again with another engine
configuration: `gosolve solve --alpha-beta --value-only` (iterative-deepening
alpha-beta, no df-pn, a fresh table). (The plain reference search, without a
table, takes minutes on a 3x3 position of six empty points.) Any difference is printed and makes the
exit status 1.

Usage: scripts/check-table.py TABLE WxH COUNT [SEED] [GOSOLVE]
  e.g. scripts/check-table.py results/tables/4x4-NSTT.gtb 4x4 200 1
The table must be NSTT (the default rules).
"""
import json
import random
import subprocess
import sys

table, board, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
seed = int(sys.argv[4]) if len(sys.argv) > 4 else 1
gosolve = sys.argv[5] if len(sys.argv) > 5 else "target/release/gosolve"
w, h = (int(x) for x in board.split("x"))


def legal(rows):
    """Every chain has a liberty."""
    seen = set()
    for y in range(h):
        for x in range(w):
            c = rows[y][x]
            if c == "." or (x, y) in seen:
                continue
            chain, stack, free = {(x, y)}, [(x, y)], False
            while stack:
                px, py = stack.pop()
                for nx, ny in ((px + 1, py), (px - 1, py), (px, py + 1), (px, py - 1)):
                    if 0 <= nx < w and 0 <= ny < h:
                        d = rows[ny][nx]
                        if d == ".":
                            free = True
                        elif d == c and (nx, ny) not in chain:
                            chain.add((nx, ny))
                            stack.append((nx, ny))
            if not free:
                return False
            seen |= chain
    return True


def draw(rng):
    while True:
        empty = rng.random()  # vary how full the board is
        rows = ["".join("." if rng.random() < empty else rng.choice("XO") for _ in range(w)) for _ in range(h)]
        if legal(rows):
            return rows


def run(args):
    r = subprocess.run([gosolve] + args, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"check-table: {' '.join(args)}: {r.stderr.strip()}")
    return json.loads(r.stdout)


rng = random.Random(seed)
bad = 0
for i in range(count):
    rows = draw(rng)
    to = rng.choice("bw")
    pos = "/".join(rows)
    looked = run(["table", "query", table, "--position", pos, "--to", to, "--json"])["value"]
    solved = run(["solve", board, "--position", pos, "--to", to, "--value-only", "--json", "-q", "--threads", "1",
                  "--table-mb", "256", "--alpha-beta"])["value"]
    if looked != solved:
        bad += 1
        print(f"DIFFERENT {pos} {to}: table {looked:+}, alpha-beta {solved:+}", flush=True)
print(f"{count} positions of {board} (seed {seed}): {count - bad} agree, {bad} differ")
sys.exit(1 if bad else 0)
