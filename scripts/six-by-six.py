#!/usr/bin/env python3
"""How far back from the end of a 6x6 game exact proofs reach (issue 64, item 8).

GNU Go (Debian package `gnugo`) plays itself on 6x6 under Chinese rules,
komi 0, after the given opening moves (by default Leela's c3 d4 c4 d3 d2, the
start of most of the 784 games of Don Dailey's 6x6 study, computer-go mailing
list, 2008-09-29), seeded. Then the game's
positions are solved value-only with the whole game as history
(`gosolve solve 6x6 --moves ...`), from the end of the game backwards, one
position after each move, until one is not solved within the time limit:
the first position not solved is the frontier of the proofs on this line.

Usage: scripts/six-by-six.py [GOSOLVE] [SEED] [LIMIT_S] [THREADS] [TABLE_MB] [OPENING ...]
(defaults: target/release/gosolve, seed 1, 300 s, 2 threads, the default
table, c3 d4 c4 d3 d2; "-" for none). Prints the game, then one Markdown row per position: ply, empty
points, last moves, value, nodes, seconds, peak MiB.
"""
import importlib.util
import json
import os
import subprocess
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("five_by_five", os.path.join(here, "five-by-five.py"))
fbf = importlib.util.module_from_spec(spec)
spec.loader.exec_module(fbf)

GOSOLVE = sys.argv[1] if len(sys.argv) > 1 else "target/release/gosolve"
SEED = int(sys.argv[2]) if len(sys.argv) > 2 else 1
LIMIT = sys.argv[3] if len(sys.argv) > 3 else "300"
THREADS = sys.argv[4] if len(sys.argv) > 4 else "2"
TABLE_MB = sys.argv[5] if len(sys.argv) > 5 else "0"
OPENING = [m for m in sys.argv[6:] if m != "-"] if len(sys.argv) > 6 else "c3 d4 c4 d3 d2".split()


def game(seed):
    """GNU Go's game against itself: the moves, and the empty points after each."""
    g = fbf.Gtp(seed, size=6)
    moves, empties, passes = [], [], 0
    colours = ["black", "white"]
    for mv in OPENING:
        g.cmd(f"play {colours[len(moves) % 2]} {mv}")
        moves.append(mv)
        empties.append(36 - fbf.stones(g))
    while passes < 2 and len(moves) < 120:
        mv = g.cmd(f"genmove {colours[len(moves) % 2]}").lower()
        passes = passes + 1 if mv == "pass" else 0
        moves.append(mv)
        empties.append(36 - fbf.stones(g))
    score = g.cmd("final_score")
    g.close()
    return moves, empties, score


def solve(moves):
    cmd = ["/usr/bin/time", "-f", "%M", GOSOLVE, "solve", "6x6", "--moves", " ".join(moves), "--value-only",
           "--time-limit", LIMIT, "--threads", THREADS, "--table-mb", TABLE_MB, "--json", "-q"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    peak = int(r.stderr.strip().splitlines()[-1]) / 1024
    if r.returncode != 0:
        err = [line for line in r.stderr.splitlines() if line.startswith("gosolve")]
        return None, err[0] if err else r.stderr.strip(), peak
    return json.loads(r.stdout), None, peak


if __name__ == "__main__":
    moves, empties, score = game(SEED)
    print(f"GNU Go self-play after {' '.join(OPENING) or 'no opening'}, seed {SEED}, {len(moves)} moves, GNU Go's score {score}:")
    print(" ".join(moves))
    print()
    print("| ply | empty | last moves | value | nodes | s | peak MiB |")
    print("|---:|---:|---|---:|---:|---:|---:|")
    # The last two moves are the passes that end the game: start before them.
    for ply in range(len(moves) - 2, 0, -1):
        if moves[ply - 1] == "pass":
            continue
        t = time.time()
        sol, err, peak = solve(moves[:ply])
        last = " ".join(moves[max(0, ply - 3):ply])
        if sol is None:
            print(f"| {ply} | {empties[ply - 1]} | {last} | not solved: {err} | | {time.time() - t:.1f} | {peak:.0f} |",
                  flush=True)
            break
        print(f"| {ply} | {empties[ply - 1]} | {last} | {sol['value']:+} | {sol['nodes']:,} | {sol['seconds']:.1f} | "
              f"{peak:.0f} |", flush=True)
