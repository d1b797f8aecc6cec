#!/usr/bin/env python3
"""gosolve plays Black on 5x5 over GTP, from the checkpoint of the empty
board's proof (scripts/moonshot.sh), against White moves drawn at random
(a random legal point, or a pass one time in ten), and prints each Black
move with its time and gosolve's note, and each game's final score.

usage: scripts/play-5x5-gtp.py CHECKPOINT TABLE_MB SEED GAMES [GOSOLVE]
  e.g. scripts/play-5x5-gtp.py moonshot.ck 12288 1 3 target/release/gosolve
  BOARD (default 5) and THREADS (default 2) from the environment.

2026-11-26, commit 946ab6b (results/solve.md): seeds 1-3, Black +25 in every game, the
slowest Black move 3.65 s.
"""
import os
import random
import subprocess
import sys
import threading
import time

ck, mb, seed, games = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
gosolve = sys.argv[5] if len(sys.argv) > 5 else "target/release/gosolve"
n = int(os.environ.get("BOARD", "5"))
threads = os.environ.get("THREADS", "2")

engine = subprocess.Popen(
    [gosolve, "gtp", "--checkpoint", ck, "--table-mb", mb, "--threads", threads, "--time-per-move", "300"],
    stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
notes = []
threading.Thread(target=lambda: [notes.append(line.rstrip()) for line in engine.stderr], daemon=True).start()


def gtp(command):
    """The response to one GTP command, without its closing empty line."""
    engine.stdin.write(command + "\n")
    engine.stdin.flush()
    out = []
    while True:
        line = engine.stdout.readline()
        if line in ("\n", ""):
            return " ".join(out)
        out.append(line.strip())


start = time.time()
gtp(f"boardsize {n}")
points = [c + str(r) for c in "ABCDEFGH"[:n] for r in range(1, n + 1)]
for g in range(games):
    rng = random.Random(seed + g)
    gtp("clear_board")
    moves, passes = [], 0
    while passes < 2:
        seen = len(notes)
        t = time.time()
        black = gtp("genmove b")[2:]
        dt = time.time() - t
        time.sleep(0.05)  # let the note reach the reader thread
        note = next((x for x in reversed(notes[seen:]) if "gosolve: value" in x), "")
        print(f"  B {black:5s} {dt:6.2f} s  {note}", flush=True)
        moves.append("B" + black)
        passes = passes + 1 if black.lower() == "pass" else 0
        if passes == 2:
            break
        white = "pass"
        if rng.random() >= 0.1:
            rng.shuffle(points)
            white = next((p for p in points if gtp(f"play w {p}").startswith("=")), "pass")
        if white == "pass":
            gtp("play w pass")
        moves.append("W" + white)
        passes = passes + 1 if white == "pass" else 0
    print(f"game {g + 1} ({len(moves)} moves): {' '.join(moves)} -> {gtp('final_score')[2:]}", flush=True)
print(f"{time.time() - start:.1f} s in all, the checkpoint read included")
print("\n".join(x for x in notes if "checkpoint" in x or "error" in x))
gtp("quit")
