#!/usr/bin/env python3
"""Per-row virtual / real of the passes of 2026-11-27f beside the earlier
machine and machine-exec-window columns (inside = 0.8-1.25), all against
the same real medians (real threads, this build's runs of 2026-11-26 18:05
UTC, quiet). The 26c directory's script, pointed at these passes. Run from
the repository root:
    python3 docs/benchmarks/data/virtual-2026-11-27f/compare.py
"""
import importlib.util
import os

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    "compare26c", os.path.join(HERE, "..", "virtual-2026-11-26c", "compare.py"))
compare = importlib.util.module_from_spec(spec)
spec.loader.exec_module(compare)
compare.D = HERE
compare.PASSES = [
    ("machine / now", "../virtual-2026-11-26c/validate-machine", "now"),
    ("machine-exec-window / now", "../virtual-2026-11-26d/validate-machine-exec-window", "now"),
    ("machine-plus-own-work / now", "validate-machine-plus-own-work", "now"),
    ("machine-own-work / now", "validate-machine-own-work", "now"),
    ("machine-own-work-wake25-diagnosis / now", "validate-machine-own-work-wake25-diagnosis", "now"),
]

if __name__ == "__main__":
    compare.main()
