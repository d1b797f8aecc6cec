#!/usr/bin/env python3
"""Fit the weights of df-pn's score guess (src/search/guess.rs) to exact values.

Usage: results/guess/fit.py [SAMPLES]   (default: results/guess/samples.txt)

SAMPLES holds one position per line: width height black white to_move value
(black and white as bit sets, bit x + width*y with y = 0 the bottom row; value
the exact value from `gosolve solve --position ... --value-only`, see
label.py). The features are those of src/search/guess.rs, computed the same
way; the fit is ordinary least squares without a constant term. Pure Python
(no numpy): eight unknowns.

Prints the held-out quality (fit on the first half of each board's samples,
measured on the second half) against the nearer-colour estimate alone, then
the weights fitted on all samples, in thousandths of a point, ready for
`WEIGHTS` in src/search/guess.rs.
"""
import sys

NAMES = ["estimate", "to_move", "atari_owner_to_move", "atari_opponent_to_move",
         "two_libs_owner_to_move", "two_libs_opponent_to_move", "eyes", "blocks"]


class Board:
    def __init__(self, w, h):
        self.w, self.h = w, h
        self.all = (1 << (w * h)) - 1
        self.left = sum(1 << (w * y) for y in range(h))
        self.right = sum(1 << (w * y + w - 1) for y in range(h))

    def nbrs(self, b):
        return (((b << 1) & ~self.left) | ((b >> 1) & ~self.right) | (b << self.w) | (b >> self.w)) & self.all

    def flood(self, seed, within):
        b = seed
        while True:
            n = (b | self.nbrs(b)) & within
            if n == b:
                return b
            b = n

    def estimate(self, black, white):
        free = self.all & ~(black | white)
        while True:
            nb, nw = self.nbrs(black) & free, self.nbrs(white) & free
            if not nb | nw:
                break
            both = nb & nw
            black |= nb & ~both
            white |= nw & ~both
            free &= ~(nb | nw)
        return bin(black).count("1") - bin(white).count("1")

    def features(self, black, white, to_move):
        empty = self.all & ~(black | white)
        f = [self.estimate(black, white), 1 if to_move == "b" else -1, 0, 0, 0, 0, 0, 0]
        for stones, sign, owner in ((black, 1, to_move == "b"), (white, -1, to_move == "w")):
            rest = stones
            while rest:
                block = self.flood(rest & -rest, stones)
                rest &= ~block
                size = sign * bin(block).count("1")
                libs = bin(self.nbrs(block) & empty).count("1")
                if libs == 1:
                    f[2 if owner else 3] += size
                elif libs == 2:
                    f[4 if owner else 5] += size
                f[7] += sign
        black_eyes = empty & ~self.nbrs(self.all & ~black)
        white_eyes = empty & ~self.nbrs(self.all & ~white)
        f[6] = bin(black_eyes).count("1") - bin(white_eyes).count("1")
        return f


def least_squares(rows):
    """Solve the normal equations by Gauss-Jordan elimination."""
    n = len(rows[0][0])
    m = [[sum(a[i] * a[j] for a, _, _ in rows) for j in range(n)] + [sum(a[i] * y for a, y, _ in rows)] for i in range(n)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c:
                k = m[r][c] / m[c][c]
                m[r] = [x - k * y for x, y in zip(m[r], m[c])]
    return [m[i][n] / m[i][i] for i in range(n)]


def quality(rows, w):
    """Mean error, and how often "value >= b" is predicted right (b over the range, step 3)."""
    err = right = total = 0
    for a, y, area in rows:
        g = max(-area, min(area, sum(x * c for x, c in zip(a, w))))
        err += abs(g - y)
        for b in range(-area + 1, area + 1, 3):
            right += (g >= b - 0.5) == (y >= b)
            total += 1
    return err / len(rows), right / total


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "results/guess/samples.txt"
    by_board = {}
    for line in open(path):
        if line.startswith("#") or not line.strip():
            continue
        w, h, black, white, to_move, value = line.split()[:6]
        board = by_board.setdefault((int(w), int(h)), [])
        b = Board(int(w), int(h))
        board.append((b.features(int(black), int(white), to_move), int(value), int(w) * int(h)))
    train = [r for rows in by_board.values() for r in rows[: len(rows) // 2]]
    w = least_squares(train)
    estimate_only = [1.0] + [0.0] * 7
    for (bw, bh), rows in sorted(by_board.items()):
        test = rows[len(rows) // 2:]
        e, r = quality(test, w)
        e0, r0 = quality(test, estimate_only)
        print(f"{bw}x{bh}: {len(rows)} samples; held out: mean error {e:.1f} (estimate {e0:.1f}), "
              f"'value >= b' right {100 * r:.1f} % (estimate {100 * r0:.1f} %)")
    w = least_squares([r for rows in by_board.values() for r in rows])
    print("weights (thousandths):", ", ".join(f"{n} {round(1000 * x)}" for n, x in zip(NAMES, w)))
    print("WEIGHTS = [" + ", ".join(str(round(1000 * x)) for x in w) + "]")


if __name__ == "__main__":
    main()
