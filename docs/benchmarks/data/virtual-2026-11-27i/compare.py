#!/usr/bin/env python3
"""The 26 rows under three tables against the same real medians (27h):
machine, machine-subns (27h) and machine-subns-steal (this directory).
Run from docs/benchmarks/data. Bold: outside 0.8-1.25."""
import os

cols = [("machine", "virtual-2026-11-27h/validate-machine"),
        ("machine-subns", "virtual-2026-11-27h/validate-machine-subns"),
        ("machine-subns-steal", "virtual-2026-11-27i/validate-machine-subns-steal")]


def rows(d):
    out = []
    for line in open(os.path.join(d, "validate-real-now.txt")):
        if line.startswith("#"):
            continue
        f = line.split()
        out.append((f[0], f[2].replace(".json", ""), f[3], f[4], float(f[-2])))
    return out


tabs = [rows(d) for _, d in cols]
print("| set | scenario | scheduler | threads | " + " | ".join(f"{n} / now" for n, _ in cols) + " |")
print("|---|---|---|---|" + "---|" * len(cols))
inside = [0] * len(cols)
for i, r in enumerate(tabs[0]):
    cells = []
    for j, t in enumerate(tabs):
        assert t[i][:4] == r[:4], (t[i], r)
        v = t[i][4]
        ok = 0.8 <= v <= 1.25
        inside[j] += ok
        cells.append(f"{v:.2f}" if ok else f"**{v:.2f}**")
    print(f"| {r[0]} | {r[1]} | {r[2]} | {r[3]} | " + " | ".join(cells) + " |")
print("| inside 0.8-1.25 | | | | " + " | ".join(f"{n} of {len(tabs[0])}" for n in inside) + " |")
