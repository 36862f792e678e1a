#!/usr/bin/env python3
"""Per-row virtual / real of the passes in this directory (inside = 0.8-1.25),
all against the same real medians (this build's real runs of 2026-11-26 18:05
UTC). The 26c directory's script, pointed at this directory's passes. Run from
the repository root:
    python3 docs/benchmarks/data/virtual-2026-11-26d/compare.py
"""
import importlib.util
import os

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    "compare26c", os.path.join(HERE, "..", "virtual-2026-11-26c", "compare.py"))
compare = importlib.util.module_from_spec(spec)
spec.loader.exec_module(compare)
compare.D = HERE
compare.PASSES = [("machine / now", "validate-machine", "now"),
                  ("machine-clock / now", "validate-machine-clock", "now"),
                  ("machine-exec-window / now", "validate-machine-exec-window", "now")]

if __name__ == "__main__":
    compare.main()
