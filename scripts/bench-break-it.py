#!/usr/bin/env python3
"""Every fault-injection variant on its family's shipped scenario
(docs/benchmarks/break-it.md), two measurements:

- real threads (default): seeds 1..10, how many runs the oracle catches;
- exploration (--explore): `psmr explore` on virtual cores (a model: the
  reference cost table), exploration seeds 1..10, budget 200 schedules each:
  schedules until the violation (median, max) and wall time.

Build first: (cd engine && cargo build --release -p psmr-cli --features fault-injection)
Run from the repository root: python3 scripts/bench-break-it.py [--explore] [FAULT ...]
PSMR_BIN overrides the binary (default engine/target/release/psmr).
Real threads: one Markdown row per (fault, scheduler entry): caught k/10 and
the exit codes of seeds 1..10 (1 = violation reported, 0 = correct).
Exploration: one row per (fault, entry): the options used, schedules
(median, max), the count per exploration seed ("-" = not found within the
budget), and the median and total wall time.
"""
import json, os, statistics, subprocess, sys, tempfile

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
# `psmr explore` options per scenario: the 20,000-request streams shortened
# (Base switches maps every 2500 requests, so its switch fault needs more),
# and two closed-loop clients for the coloring classroom (with one, no two
# events of one color are ever queued at once: steal-running cannot happen).
EXPLORE_OPTS = {
    "quickstart.json": ["--requests", "300"],
    "skewed-stealing.json": ["--requests", "1000"],
    "repart-classroom.json": ["--requests", "1000"],
    "coloring-classroom.json": ["--requests", "2002", "--delivery", "closed:2"],
}
EXPLORE_OPTS_ROW = {
    ("repart-no-switch-sync", "Base dp=2500"): ["--requests", "6000"],
    ("repart-no-switch-sync", "Async W=500 Q=64"): ["--requests", "650"],
}
BUDGET = 200


def explore_row(fault, scen, label):
    opts = EXPLORE_OPTS_ROW.get((fault, label), EXPLORE_OPTS.get(scen, []))
    counts, secs = [], []
    for e in range(1, 11):
        o = subprocess.run([BIN, "explore", os.path.join(SC, scen), "--scheduler", label,
                            "--fault", fault, "--schedules", str(BUDGET), "--explore-seed", str(e),
                            "--json"] + opts, capture_output=True, text=True, timeout=1800)
        if o.returncode not in (0, 1):
            print("  ERR", fault, label, e, o.stderr[:300], file=sys.stderr)
            counts.append(None)
            continue
        v = json.loads(o.stdout)
        counts.append(v["schedules"] if v["found"] else None)
        secs.append(v["seconds"])
    found = sorted(c for c in counts if c is not None)
    if len(found) == len(counts):
        med = statistics.median(found)
        cell = f"{med:g}, {found[-1]}"
    else:
        cell = f"**{len(counts) - len(found)}/10 not found within {BUDGET}**"
    per_seed = " ".join("-" if c is None else str(c) for c in counts)
    o = " ".join(opts) or "as shipped"
    print(f"| `{fault}` | {scen} | {label} | {o} | {cell} | {per_seed} | "
          f"{statistics.median(secs):.2f} s (total {sum(secs):.1f} s) |", flush=True)


args = sys.argv[1:]
explore = "--explore" in args
only = [a for a in args if a != "--explore"]
for fault, scen, label in ROWS:
    if explore:
        if not only or fault in only:
            explore_row(fault, scen, label)
        continue
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
