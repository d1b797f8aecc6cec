#!/usr/bin/env python3
"""The overhead table of results/parallel.md (2026-11-28, and 2026-11-29 from its own folder) from this folder's
NAME-{threads2,workers2}.{out,time,mem} files."""
import json, re, sys, os
d = os.path.dirname(os.path.abspath(__file__))
names = sys.argv[1:] or ["game3", "game3-atleast", "vdw6", "strip14"]
print("| run | how | result | nodes | nodes/s | wall s | CPU s | peak memory (summed) | load before / after | wall ratio |")
print("|---|---|---|---:|---:|---:|---:|---:|---|---:|")
for n in names:
    walls = {}
    for tag in ["threads2", "workers2"]:
        p = f"{d}/{n}-{tag}"
        if not os.path.exists(p + ".out"):
            continue
        try:
            o = json.load(open(p + ".out"))
        except Exception:
            o = {}
        t = open(p + ".time").read()
        user = float(re.search(r"User time \(seconds\): ([\d.]+)", t).group(1))
        sys_ = float(re.search(r"System time \(seconds\): ([\d.]+)", t).group(1))
        loads = re.findall(r"load (?:before|after): ([\d.]+)", t)
        mem = int(open(p + ".mem").read().strip() or 0)
        wall = o.get("seconds", 0.0)
        walls[tag] = wall
        if o.get("status") == "unsolved" or o.get("limit") or o.get("stopped"):
            res = "unsolved (time limit)"
        elif "holds" in o:
            res = "holds" if o["holds"] else "refuted"
        else:
            res = f"{o.get('value')}"
        dist = o.get("distributed")
        how = f"2 workers, {dist['units']} units, {dist['merges']} merges ({dist['merge_seconds']:.0f} s)" if dist else "1 process, 2 threads"
        nodes = o.get("nodes", 0)
        ratio = f"{walls['workers2'] / walls['threads2']:.1f}" if tag == "workers2" and "threads2" in walls else ""
        print(f"| {n} | {how} | {res} | {nodes/1e6:.2f} M | {nodes/max(wall,1e-9)/1e3:.0f} k | {wall:.1f} | {user+sys_:.1f} | {mem/1024:.2f} GiB | {' / '.join(loads)} | {ratio} |")
