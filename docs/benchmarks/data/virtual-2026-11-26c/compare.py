#!/usr/bin/env python3
"""Per-row ratios of every validation pass in this directory, side by side
(virtual / real; inside = 0.8-1.25). Run from the repository root:
    python3 docs/benchmarks/data/virtual-2026-11-26c/compare.py
"""
import os

D = os.path.dirname(os.path.abspath(__file__))
# (column, directory, which real side: "then" = the 2026-11-23 quiet passes,
# "now" = this build's real runs of 2026-11-26 18:05 UTC)
PASSES = [tuple(p.split(":")) for p in """
reference / then:validate:then
reference / now:validate:now
refit-exec / now:validate-refit-exec:now
machine-first-model / now:validate-machine-first-model:now
machine-split-spins / now:validate-machine-split-spins:now
machine / now:validate-machine:now
""".strip().splitlines()]


def main():
    rows, order = {}, []
    for _, d, side in PASSES:
        for line in open(os.path.join(D, d, "validate-real-now.txt")):
            if line.startswith("#"):
                continue
            c = line.split()
            key = (c[0], c[1], c[2].replace(".json", ""), c[3], c[4])
            if key not in rows:
                rows[key] = {"then": float(c[7]), "now": float(c[8]), "lo": float(c[9]),
                             "hi": float(c[10]), "r": []}
                order.append(key)
            rows[key]["r"].append(float(c[12] if side == "then" else c[13]))
    print("| set | family | scenario | scheduler | threads | real then | real now (median of 5, range) | "
          + " | ".join(p[0] for p in PASSES) + " |")
    print("|" + "---|" * (7 + len(PASSES)))
    inside = [0] * len(PASSES)
    for k in order:
        r = rows[k]
        cells = []
        for i, x in enumerate(r["r"]):
            ok = 0.8 <= x <= 1.25
            inside[i] += ok
            cells.append(f"{x:.2f}" if ok else f"**{x:.2f}**")
        print(f"| {' | '.join(map(str, k))} | {r['then']:,.0f} | {r['now']:,.0f} "
              f"({r['lo']:,.0f}-{r['hi']:,.0f}) | " + " | ".join(cells) + " |")
    print("| inside 0.8-1.25 | | | | | | | " + " | ".join(f"{n} of {len(order)}" for n in inside) + " |")


if __name__ == "__main__":
    main()
