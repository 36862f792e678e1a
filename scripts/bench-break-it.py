#!/usr/bin/env python3
"""Every fault-injection variant on its family's shipped scenario, seeds 1..10,
real threads: how many runs the oracle catches (docs/benchmarks/break-it.md).

Build first: (cd engine && cargo build --release -p psmr-cli --features fault-injection)
Run from the repository root: python3 scripts/bench-break-it.py [FAULT ...]
PSMR_BIN overrides the binary (default engine/target/release/psmr).
Prints one Markdown row per (fault, scheduler entry): caught k/10 and the
exit codes of seeds 1..10 (1 = violation reported, 0 = correct).
"""
import json, os, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("PSMR_BIN", os.path.join(ROOT, "engine/target/release/psmr"))
SC = os.path.join(ROOT, "scenarios")
TMP = tempfile.mkdtemp(prefix="psmr-break-it-")
ROWS = [
    ("seq-swap-pairs", "quickstart.json", "sequential"),
    ("early-no-barrier", "classroom-spin.json", "early"),
    ("busy-wait-early-release", "classroom-spin.json", "busy-wait"),
    ("ws-ignore-flags", "ws-classroom.json", "ws-conservative"),
    ("ws-ignore-flags", "ws-classroom.json", "ws-aggressive"),
    ("ws-ignore-flags", "skewed-stealing.json", "ws-moderate"),
    ("ws-ignore-flags", "skewed-stealing.json", "ws-optimistic"),
    ("late-ignore-conflicts", "classroom-late.json", "late"),
    ("epaxos-ignore-seq", "classroom-epaxos.json", "epaxos"),
    ("pepaxos-skip-scc-wait", "classroom-epaxos.json", "pepaxos"),
    ("pepaxos-per-instance-wait", "classroom-epaxos.json", "pepaxos"),
    ("repart-no-scan-sync", "repart-classroom.json", "RR"),
    ("repart-swap-pairs", "repart-classroom.json", "RR"),
    ("repart-swap-pairs", "repart-classroom.json", "SW"),
    ("repart-no-switch-sync", "repart-classroom.json", "Base dp=2500"),
    ("repart-no-scan-sync", "repart-classroom.json", "Base dp=2500"),
    ("repart-swap-pairs", "repart-classroom.json", "Base dp=2500"),
    ("repart-no-switch-sync", "repart-classroom.json", "Async W=500 Q=64"),
    ("repart-no-scan-sync", "repart-classroom.json", "Async W=500 Q=64"),
    ("repart-swap-pairs", "repart-classroom.json", "Async W=500 Q=64"),
    ("steal-running", "coloring-classroom.json", "libasync-steal"),
    ("steal-running", "coloring-classroom.json", "mely-time-left"),
]
only = sys.argv[1:]
for fault, scen, label in ROWS:
    if only and fault not in only:
        continue
    d = json.load(open(os.path.join(SC, scen)))
    for s in d["schedulers"]:
        if s.get("label", s["id"]) == label:
            s["fault"] = fault
    path = os.path.join(TMP, f"{fault}-{label.split()[0]}-{scen}")
    json.dump(d, open(path, "w"), indent=1)
    codes = []
    for seed in range(1, 11):
        o = subprocess.run([BIN, "run", path, "--scheduler", label, "--seed", str(seed)],
                           capture_output=True, text=True, timeout=600)
        codes.append(o.returncode)
        if o.returncode not in (0, 1):
            print("  ERR", fault, label, seed, o.stderr[:300], file=sys.stderr)
    k = sum(1 for c in codes if c == 1)
    print(f"| `{fault}` | {scen} | {label} | {k}/10 | {' '.join(map(str, codes))} |", flush=True)
