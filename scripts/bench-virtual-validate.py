#!/usr/bin/env python3
"""Virtual cores against real threads (issue 25, docs/benchmarks/virtual.md).

The real side is the quiet passes already in docs/benchmarks/data (load
average 0.9-2.6 on this 2-core machine, 2026-11-23): the same scenario file,
seed and request count, at 1 and 2 worker threads, median of its
repetitions. The virtual side runs each of them now with the same workers on
a modelled machine of 2 virtual cores, like the real one (`--virtual-cores 2
--threads T`: the driver and roles share the cores; the model, reference
cost table; deterministic, one run, so the build and the load do not
matter). Cases are split
into the calibration set (the cost table's execution costs were fitted on
them) and the validation set (never used for fitting: other scenarios, other
workloads, other seeds).

    scripts/bench-virtual-validate.py OUT_DIR

Writes OUT_DIR/validate.txt (one line per case: set family scenario label
threads seed requests real_ops_s virtual_ops_s ratio real_load) and prints
a markdown table. Env: PSMR (binary; default the release build under
CARGO_TARGET_DIR or engine/target).
"""
import io
import json
import os
import re
import statistics
import subprocess
import sys
import tarfile
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "docs/benchmarks/data")
TARGET = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "engine/target"))
PSMR = os.environ.get("PSMR", os.path.join(TARGET, "release/psmr"))
TABLE = "reference cost table"
# The real passes ran on this 2-core machine: the model gets as many cores.
MACHINE_CORES = 2
QUIET = "late-epaxos-2026-11-23-quiet"

# (set, family, quiet report, labels): the late/epaxos quiet pass.
LATE_EPAXOS = [
    ("calibration", "sequential", "late-read-light", ["sequential"]),
    ("calibration", "sequential", "late-read-moderate", ["sequential"]),
    ("calibration", "sequential", "late-read-heavy", ["sequential"]),
    ("validation", "early", "late-mixed-light", ["early"]),
    ("validation", "early", "late-mixed-moderate", ["sequential", "early"]),
    ("validation", "late", "late-mixed-light", ["late"]),
    ("validation", "late", "late-mixed-moderate", ["late"]),
    ("validation", "epaxos", "fig4-list-10k", ["epaxos", "pepaxos"]),
    ("validation", "epaxos", "fig5-list-100k", ["sequential", "epaxos", "pepaxos"]),
]


def load_of(path):
    for line in open(path):
        if line.startswith("load average"):
            return line.split(":")[1].split()[0]
    return "?"


def virtual(scenario, label, threads, requests=None, seed=None):
    args = [PSMR, "run", scenario, "--scheduler", label, "--virtual-cores", str(MACHINE_CORES),
            "--threads", str(threads), "--no-trace"]
    if requests:
        args += ["--requests", str(requests)]
    if seed is not None:
        args += ["--seed", str(seed)]
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout.splitlines()
    for line in out[2:]:
        line = line.strip()
        if line.startswith(label + " "):
            if "virtual" not in line:
                raise SystemExit(f"unlabelled virtual row: {line}")
            return float(line[len(label):].split()[2])
    raise SystemExit(f"no row for {label} in {out}")


def cases():
    """(set, family, scenario_file, label, threads, seed, requests, real, load)."""
    load = load_of(os.path.join(DATA, QUIET, "machine-before.txt"))
    for kind, family, name, labels in LATE_EPAXOS:
        rep = json.load(open(os.path.join(DATA, QUIET, f"{name}.json")))
        sc_path = os.path.join(DATA, QUIET, f"{name}.scenario.json")
        sc = json.load(open(sc_path))
        writes = sc["workload"].get("writes", 0.0)
        for p in rep["points"]:
            # A sweep's points at other write shares ran other streams.
            if p.get("writes", writes) != writes:
                continue
            if p["label"] in labels and p["threads"] in (1, 2):
                yield (kind, family, sc_path, p["label"], p["threads"], sc["workload"]["seed"],
                       sc["workload"]["requests"], p["throughput_ops_s"], load)
    # Work stealing: the quiet before/after pass, "after" medians.
    summ = os.path.join(DATA, "early-2026-11-23/stealing-before-after-quiet/summary.md")
    wl = re.search(r"load ([0-9.]+-[0-9.]+)", open(summ).read()).group(1)
    sc_path = os.path.join(ROOT, "scenarios/ws-skewed-shards.json")
    seed = json.load(open(sc_path))["workload"]["seed"]
    for line in open(summ):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 5 or cells[0] != "ws-skewed-shards" or cells[2] not in ("1", "2"):
            continue
        if cells[1] not in ("ws-optimistic", "ws-conservative"):
            continue
        real = float(cells[4].split()[0].rstrip("k")) * 1000
        yield ("validation", "work-stealing", sc_path, cells[1], int(cells[2]), seed, 20000, real, wl)
    # Event coloring: the quiet pass, median of its 5 repetitions, 2 cores.
    tgz = os.path.join(DATA, "coloring-2026-11-23-quiet/reports.tar.gz")
    cl = load_of(os.path.join(DATA, "coloring-2026-11-23-quiet/table.txt"))
    runs = {}
    with tarfile.open(tgz) as t:
        for m in t.getmembers():
            if not m.name.startswith("coloring-unbalanced-"):
                continue
            r = json.load(io.TextIOWrapper(t.extractfile(m)))
            for x in r["runs"]:
                runs.setdefault(x["label"], []).append(x["throughput_ops_s"])
    sc_path = os.path.join(ROOT, "scenarios/coloring-unbalanced.json")
    seed = json.load(open(sc_path))["workload"]["seed"]
    for label in ("libasync-no-steal", "libasync-steal", "mely-time-left"):
        yield ("validation", "coloring", sc_path, label, 2, seed, 20020,
               statistics.median(runs[label]), cl)


def main():
    out_dir = sys.argv[1] if len(sys.argv) > 1 else tempfile.mkdtemp()
    os.makedirs(out_dir, exist_ok=True)
    rows = []
    for kind, family, sc, label, t, seed, req, real, load in cases():
        v = virtual(sc, label, t, req, seed)
        rows.append((kind, family, os.path.basename(sc).replace(".scenario", ""), label, t, seed, req,
                     real, v, v / real, load))
    with open(os.path.join(out_dir, "validate.txt"), "w") as f:
        f.write("# set family scenario label threads seed requests real_ops_s "
                f"virtual_ops_s(model, {TABLE}) virtual/real real_load1\n")
        for r in rows:
            f.write(" ".join(str(x) if not isinstance(x, float) else f"{x:.4g}" for x in r) + "\n")
    print(f"| set | family | scenario | scheduler | threads | seed | real ops/s (quiet, load) | "
          f"virtual {MACHINE_CORES} cores (model, {TABLE}) ops/s | virtual / real |")
    print("|---|---|---|---|---|---|---|---|---|")
    for kind, family, sc, label, t, seed, req, real, v, ratio, load in rows:
        mark = "" if 0.8 <= ratio <= 1.25 else " **out**"
        print(f"| {kind} | {family} | {sc} | {label} | {t} | {seed} | {real:,.0f} ({load}) | "
              f"{v:,.0f} | {ratio:.2f}{mark} |")


if __name__ == "__main__":
    main()
