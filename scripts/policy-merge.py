#!/usr/bin/env python3
"""Add a strip prior's codes (examples/policy_train.rs on strip checkpoints)
to a prior file of data/ (scripts/policy-strips.sh).

usage: policy-merge.py BASE.bin STRIPS.bin OUT.bin

A strip's codes have the four diagonals off the board, which no code of a
board two or more wide has (see Patterns::new), so the base's other codes
stay as they are; strip codes the base has already are replaced. The strip
ranks are shifted so that a strip code unseen in training ranks where the
base's unseen codes rank (the base's unseen rank is the file's first
field); only the order of ranks among one node's moves matters, so the
shift keeps the strip prior's order.
"""
import struct, sys
def read(p):
    b = open(p, 'rb').read()
    unseen = struct.unpack('<H', b[:2])[0]
    recs = {}
    for i in range(2, len(b), 6):
        c, r = struct.unpack('<IH', b[i:i+6]); recs[c] = r
    return unseen, recs
def strip_code(c):
    # NE, SE, SW, NW (slots 1, 3, 5, 7) all off the board (3).
    return all((c >> (2 * k)) & 3 == 3 for k in (1, 3, 5, 7))
base, strips, out = sys.argv[1:4]
u5, r5 = read(base)
us, rs = read(strips)
assert all(strip_code(c) for c in rs), 'a code of a wider board among the strips'
# A base that has strip codes already (an earlier merge) has them replaced.
r5 = {c: r for c, r in r5.items() if not strip_code(c)}
assert us <= u5
merged = dict(r5)
for c, r in rs.items():
    merged[c] = r - us + u5
    assert 0 <= merged[c] < 65536
data = struct.pack('<H', u5) + b''.join(struct.pack('<IH', c, merged[c]) for c in sorted(merged))
open(out, 'wb').write(data)
print(out, len(r5), '+', len(rs), 'codes; unseen', u5, 'strip unseen', us)
