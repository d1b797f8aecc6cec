#!/usr/bin/env python3
"""Label drawn positions with their exact values, for fit.py.

Usage: scripts/guess/label.py GOSOLVE POSITIONS OUT [NODE_LIMIT]

POSITIONS: one position per line, "width height black white to_move" (bit
sets as in the samples file, results/runs/2026-11-25-epyc2/guess-samples.txt). Each is solved by `GOSOLVE solve WxH --position ROWS
--to b|w --value-only --threads 1 --table-mb 64 --json` with --node-limit
NODE_LIMIT (default 1,000,000); OUT gets "width height black white to_move
value nodes", or value None for a position not solved within the limit
(fit.py needs those dropped). Two solves run at once.
"""
import concurrent.futures
import json
import subprocess
import sys


def rows(w, h, black, white):
    return "/".join("".join("X" if black >> (x + w * y) & 1 else "O" if white >> (x + w * y) & 1 else "."
                            for x in range(w)) for y in range(h - 1, -1, -1))


def main():
    gosolve, positions, out = sys.argv[1:4]
    limit = sys.argv[4] if len(sys.argv) > 4 else "1000000"
    items = [tuple(line.split()[:5]) for line in open(positions) if line.strip() and not line.startswith("#")]

    def solve(item):
        w, h, black, white, to_move = item
        cmd = [gosolve, "solve", f"{w}x{h}", "--position", rows(int(w), int(h), int(black), int(white)),
               "--to", to_move, "--value-only", "--threads", "1", "--table-mb", "64", "--json", "--quiet",
               "--node-limit", limit]
        r = subprocess.run(cmd, capture_output=True, text=True)
        try:
            d = json.loads(r.stdout)
            return item + (str(d.get("value")), str(d.get("nodes", 0)))
        except json.JSONDecodeError:
            return item + ("None", "0")

    with concurrent.futures.ThreadPoolExecutor(2) as pool, open(out, "w") as f:
        for row in pool.map(solve, items):
            f.write(" ".join(row) + "\n")
            f.flush()


if __name__ == "__main__":
    main()
