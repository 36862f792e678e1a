#!/usr/bin/env python3
"""Per-row virtual / real of the passes in this directory (inside = 0.8-1.25),
against the same real medians (this build's real runs of 2026-11-26 18:05 UTC,
data/virtual-2026-11-26c/validate-machine). Run from the repository root:
    python3 docs/benchmarks/data/virtual-2026-11-26d/compare.py
"""
import os

D = os.path.dirname(os.path.abspath(__file__))
PASSES = [("machine", "validate-machine"), ("machine-clock", "validate-machine-clock"),
          ("machine-exec-window", "validate-machine-exec-window")]


def main():
    rows, order = {}, []
    for _, d in PASSES:
        for line in open(os.path.join(D, d, "validate-real-now.txt")):
            if line.startswith("#"):
                continue
            c = line.split()
            key = (c[1], c[2].replace(".json", ""), c[3], c[4])
            if key not in rows:
                rows[key] = {"now": float(c[8]), "r": []}
                order.append(key)
            rows[key]["r"].append(float(c[13]))
    print("| family | scenario | scheduler | threads | real now (ops/s) | "
          + " | ".join(f"{p[0]} / now" for p in PASSES) + " |")
    print("|" + "---|" * (5 + len(PASSES)))
    inside = [0] * len(PASSES)
    for k in order:
        r = rows[k]
        cells = []
        for i, x in enumerate(r["r"]):
            ok = 0.8 <= x <= 1.25
            inside[i] += ok
            cells.append(f"{x:.2f}" if ok else f"**{x:.2f}**")
        print(f"| {' | '.join(k)} | {r['now']:,.0f} | " + " | ".join(cells) + " |")
    print("| inside 0.8-1.25 | | | | | " + " | ".join(f"{n} of {len(order)}" for n in inside) + " |")


if __name__ == "__main__":
    main()
