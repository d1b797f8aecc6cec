#!/usr/bin/env python3
"""5x5 positions from real games, solved value-only: the issue-14 benchmark.

Games: GNU Go (Debian package `gnugo`) plays itself on 5x5 under Chinese
rules, komi 0, after two opening moves drawn at random (seeded), so that the
games differ. From each game the positions when at most 20, 18 and 16 points
are left empty are taken, with the whole game as history, and solved by
`gosolve solve 5x5 --moves ... --value-only` with a time limit.

Usage: scripts/five-by-five.py [GOSOLVE] [GAMES] [LIMIT_S] [EMPTY ...]
(defaults: target/release/gosolve, 6 games, 60 s, 20 18 16 empty points). Prints one Markdown row
per position: game, empty points, moves, value, nodes, seconds, peak MiB.
"""
import json, random, subprocess, sys, time

GOSOLVE, GAMES, LIMIT, TARGETS = "target/release/gosolve", 6, "60", [20, 18, 16]
POINTS = [c + str(r) for c in "abcde" for r in range(1, 6)]


class Gtp:
    def __init__(self, seed, size=5):
        self.p = subprocess.Popen(
            ["/usr/games/gnugo" if __import__("os").path.exists("/usr/games/gnugo") else "gnugo", "--mode", "gtp", "--boardsize", str(size), "--komi", "0", "--chinese-rules", "--seed", str(seed)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def cmd(self, c):
        self.p.stdin.write(c + "\n")
        self.p.stdin.flush()
        out = []
        while True:
            line = self.p.stdout.readline()
            if line.strip() == "" and out:
                break
            if line.strip():
                out.append(line.strip())
        reply = " ".join(out)
        if not reply.startswith("="):
            raise RuntimeError(f"gnugo: {c}: {reply}")
        return reply[1:].strip()

    def close(self):
        self.cmd("quit")
        self.p.wait()


def stones(g):
    return len(g.cmd("list_stones black").split()) + len(g.cmd("list_stones white").split())


def game(seed):
    rng = random.Random(seed)
    g = Gtp(seed)
    moves, snaps, passes = [], {}, 0
    colours = ["black", "white"]
    for first in rng.sample(POINTS, 2):
        g.cmd(f"play {colours[len(moves) % 2]} {first}")
        moves.append(first)
    while passes < 2 and len(moves) < 60:
        mv = g.cmd(f"genmove {colours[len(moves) % 2]}").lower()
        passes = passes + 1 if mv == "pass" else 0
        moves.append(mv)
        empty = 25 - stones(g)
        for target in TARGETS:
            if empty <= target and target not in snaps:
                snaps[target] = (empty, list(moves))
    g.close()
    return snaps


def solve(moves):
    cmd = ["/usr/bin/time", "-f", "%M", GOSOLVE, "solve", "5x5", "--moves", " ".join(moves),
           "--value-only", "--time-limit", LIMIT, "--json", "-q"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    peak = int(r.stderr.strip().splitlines()[-1]) / 1024
    if r.returncode != 0:
        err = [l for l in r.stderr.splitlines() if l.startswith("gosolve")]
        return None, err[0] if err else r.stderr.strip(), peak
    return json.loads(r.stdout), None, peak


if __name__ == "__main__":
    GOSOLVE = sys.argv[1] if len(sys.argv) > 1 else GOSOLVE
    GAMES = int(sys.argv[2]) if len(sys.argv) > 2 else GAMES
    LIMIT = sys.argv[3] if len(sys.argv) > 3 else LIMIT
    TARGETS = [int(a) for a in sys.argv[4:]] or TARGETS
    print("| game | empty | moves | value | nodes | s | peak MiB |")
    print("|---|---|---|---|---|---|---|")
    for seed in range(1, GAMES + 1):
        for target, (empty, moves) in sorted(game(seed).items(), reverse=True):
            t = time.time()
            sol, err, peak = solve(moves)
            if sol is None:
                print(f"| {seed} | {empty} | {' '.join(moves)} | not solved: {err} | | {time.time() - t:.1f} | {peak:.0f} |", flush=True)
            else:
                print(f"| {seed} | {empty} | {' '.join(moves)} | {sol['value']:+} | {sol['nodes']:,} | {sol['seconds']:.1f} | {peak:.0f} |", flush=True)
