#!/usr/bin/env python3
"""virtual / real-now per validation row: machine-subns (27h) against
machine-subns-late (this directory), the same real medians (27h). Run from
the repository root; writes nothing, prints a markdown table."""
H = "docs/benchmarks/data/virtual-2026-11-27h/validate-machine-subns/validate-real-now.txt"
J = "docs/benchmarks/data/virtual-2026-11-27j/validate-machine-subns-late/validate-real-now.txt"


def rows(path):
    out = []
    for line in open(path):
        if line.startswith("#"):
            continue
        c = line.split()
        out.append((c[0], c[2].replace(".json", ""), c[3], c[4], float(c[8]), float(c[11]), float(c[13])))
    return out


def mark(r):
    return f"**{r:.2f}**" if not 0.8 <= r <= 1.25 else f"{r:.2f}"


print("| set | scenario | scheduler | threads | real now (ops/s) | machine-subns / now | "
      "machine-subns-late / now |")
print("|---|---|---|---|---|---|---|")
n = [0, 0]
for a, b in zip(rows(H), rows(J)):
    assert a[:5] == b[:5], (a, b)
    print(f"| {a[0]} | {a[1]} | {a[2]} | {a[3]} | {a[4]:,.0f} | {mark(a[6])} | {mark(b[6])} |")
    n[0] += 0.8 <= a[6] <= 1.25
    n[1] += 0.8 <= b[6] <= 1.25
print(f"| inside 0.8-1.25 | | | | | {n[0]} of 26 | {n[1]} of 26 |")
