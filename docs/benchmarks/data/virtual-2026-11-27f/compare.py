#!/usr/bin/env python3
"""Per-row virtual / real of the passes of 2026-11-27f beside the earlier
machine and machine-exec-window columns (inside = 0.8-1.25), all against
the same real medians (real threads, this build's runs of 2026-11-26 18:05
UTC, quiet): the 26c directory's `main`, given these passes. Run from the
repository root:
    python3 docs/benchmarks/data/virtual-2026-11-27f/compare.py
"""
import os
import runpy

HERE = os.path.dirname(os.path.abspath(__file__))
# Each column's table, then its pass's directory (all against the real
# medians of 2026-11-26 18:05, "now").
COLUMNS = """
machine ../virtual-2026-11-26c/validate-machine
machine-exec-window ../virtual-2026-11-26d/validate-machine-exec-window
machine-plus-own-work validate-machine-plus-own-work
machine-own-work validate-machine-own-work
machine-own-work-wake25-diagnosis validate-machine-own-work-wake25-diagnosis
machine-own-work-wake4.5-diagnosis validate-machine-own-work-wake4.5-diagnosis
"""
PASSES = [(f"{t} / now", d, "now") for t, d in (c.split() for c in COLUMNS.split("\n") if c)]

if __name__ == "__main__":
    main = runpy.run_path(os.path.join(HERE, "..", "virtual-2026-11-26c", "compare.py"))["main"]
    main.__globals__.update(D=HERE, PASSES=PASSES)
    main()
