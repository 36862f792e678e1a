#!/usr/bin/env python3
"""The validation table of virtual.md's "A stable real side (tenth stop)".

    compare.py --real NAME=FILE... --virt NAME=FILE...

Each FILE is a validate-real-now.txt (scripts/bench-virtual-validate.py):
--real takes its real medians and ranges (one pass), --virt its virtual
column (one cost table; the model's numbers, deterministic). Prints one row
per case: every real pass's median (range), then virtual / real for every
table and pass, bold outside 0.8-1.25, and the count inside per column.
"""
import sys


def read(path):
    rows = {}
    for line in open(path):
        if line.startswith("#"):
            continue
        c = line.split()
        rows[(c[2].replace(".json", ""), c[3], c[4])] = {
            "set": c[0], "med": float(c[8]), "lo": float(c[9]), "hi": float(c[10]),
            "virt": float(c[11])}
    return rows


def k(x):
    return f"{x:,.0f}"


def main():
    reals, virts = [], []
    which = None
    for a in sys.argv[1:]:
        if a in ("--real", "--virt"):
            which = reals if a == "--real" else virts
            continue
        name, path = a.split("=", 1)
        which.append((name, read(path)))
    keys = list(reals[0][1])
    head = ["set", "scenario", "scheduler", "threads"]
    head += [f"real {n} (median, range)" for n, _ in reals]
    head += [f"{v} / {r}" for v, _ in virts for r, _ in reals]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    inside = [0] * (len(virts) * len(reals))
    for key in keys:
        cells = [reals[0][1][key]["set"], key[0], key[1], key[2]]
        for _, r in reals:
            x = r[key]
            cells.append(f"{k(x['med'])} ({k(x['lo'])}-{k(x['hi'])})")
        i = 0
        for _, v in virts:
            for _, r in reals:
                q = v[key]["virt"] / r[key]["med"]
                ok = 0.8 <= q <= 1.25
                inside[i] += ok
                cells.append(f"{q:.2f}" if ok else f"**{q:.2f}**")
                i += 1
        print("| " + " | ".join(cells) + " |")
    tail = ["inside 0.8-1.25", "", "", ""] + [""] * len(reals)
    tail += [f"{n} of {len(keys)}" for n in inside]
    print("| " + " | ".join(tail) + " |")


if __name__ == "__main__":
    main()
