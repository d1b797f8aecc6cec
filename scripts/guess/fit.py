#!/usr/bin/env python3
"""Fit the weights of df-pn's score guess (src/search/guess.rs) to exact values.

Usage: scripts/guess/fit.py [SAMPLES]   (default: results/runs/2026-11-25-epyc2/guess-samples.txt)

SAMPLES holds one position per line: width height black white to_move value
(black and white as bit sets, bit x + width*y with y = 0 the bottom row; value
the exact value from `gosolve solve --position ... --value-only`, see
label.py). The features are those of src/search/guess.rs, computed the same
way.

The fit is a logistic regression of what df-pn asks, "value >= b?", over
every sample and every b of its board's range (a step of 3), on the features
and b itself, without a constant term (every feature changes sign when the
colours are swapped): P(value >= b) = 1 / (1 + exp(-(w . f - k b))). The
guess is w . f / k, in points: the b at which the model says even odds, so
df-pn's margin (guess - b) is the model's log-odds over k. Solved by
iteratively reweighted least squares (Newton's method), pure Python: nine
unknowns. On 2026-11-26 (commit a1dba55) it replaced an ordinary least-squares fit of the values,
which was pulled about by the many lopsided samples (most are +-25) and
predicted "value >= b" less often right.

Prints the held-out quality (fit on the first half of each board's samples,
measured on the second half) of the logistic fit, the least-squares fit and
the nearer-colour estimate alone, then the weights fitted on all samples, in
thousandths of a point, ready for `WEIGHTS` (logistic) and `EXTREME_WEIGHTS`
(least squares) in src/search/guess.rs.
"""
import math
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
    """The ordinary least-squares fit of the values (the fit before commit
    a1dba55, printed for comparison): the normal equations."""
    n = len(rows[0][0])
    m = [[sum(a[i] * a[j] for a, _, _ in rows) for j in range(n)] + [sum(a[i] * y for a, y, _ in rows)] for i in range(n)]
    return solve(m, n)


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


def solve(m, n):
    """Solve the n x n system m (each row n coefficients and the right-hand
    side) by Gauss-Jordan elimination."""
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c:
                k = m[r][c] / m[c][c]
                m[r] = [x - k * y for x, y in zip(m[r], m[c])]
    return [m[i][n] / m[i][i] for i in range(n)]


def logistic(rows, iterations=12):
    """The logistic fit of "value >= b" (see the module's doc): the weights
    of the guess in points (w / k)."""
    xs, ts = [], []
    for a, y, area in rows:
        for b in range(-area + 1, area + 1, 3):
            xs.append(list(a) + [-(b - 0.5)])
            ts.append(1 if y >= b else 0)
    n = len(xs[0])
    w = [0.0] * n
    for _ in range(iterations):
        m = [[0.0] * (n + 1) for _ in range(n)]
        for x, t in zip(xs, ts):
            z = max(-30.0, min(30.0, sum(wi * xi for wi, xi in zip(w, x))))
            p = 1 / (1 + math.exp(-z))
            s = max(p * (1 - p), 1e-6)
            for i in range(n):
                si = x[i] * s
                row = m[i]
                for j in range(n):
                    row[j] += si * x[j]
                row[n] += x[i] * (t - p)
        for i in range(n):
            m[i][i] += 1e-3
        w = [wi + di for wi, di in zip(w, solve(m, n))]
    return [wi / w[-1] for wi in w[:-1]]


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "results/runs/2026-11-25-epyc2/guess-samples.txt"
    by_board = {}
    for line in open(path):
        if line.startswith("#") or not line.strip():
            continue
        w, h, black, white, to_move, value = line.split()[:6]
        board = by_board.setdefault((int(w), int(h)), [])
        b = Board(int(w), int(h))
        board.append((b.features(int(black), int(white), to_move), int(value), int(w) * int(h)))
    train = [r for rows in by_board.values() for r in rows[: len(rows) // 2]]
    w = logistic(train)
    w_lsq = least_squares(train)
    estimate_only = [1.0] + [0.0] * 7
    for (bw, bh), rows in sorted(by_board.items()):
        test = rows[len(rows) // 2:]
        e, r = quality(test, w)
        e1, r1 = quality(test, w_lsq)
        e0, r0 = quality(test, estimate_only)
        print(f"{bw}x{bh}: {len(rows)} samples; held out: mean error {e:.1f} (least squares {e1:.1f}, "
              f"estimate {e0:.1f}), 'value >= b' right {100 * r:.1f} % (least squares {100 * r1:.1f} %, "
              f"estimate {100 * r0:.1f} %)")
    every = [r for rows in by_board.values() for r in rows]
    w = logistic(every)
    print("weights (thousandths):", ", ".join(f"{n} {round(1000 * x)}" for n, x in zip(NAMES, w)))
    print("WEIGHTS = [" + ", ".join(str(round(1000 * x)) for x in w) + "]")
    print("EXTREME_WEIGHTS = [" + ", ".join(str(round(1000 * x)) for x in least_squares(every)) + "]")


if __name__ == "__main__":
    main()
