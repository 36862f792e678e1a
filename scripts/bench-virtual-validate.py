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

    scripts/bench-virtual-validate.py OUT_DIR [--real-now REPS | --real-now-from FILE]
        [--cost-table FILE]

Writes OUT_DIR/validate.txt (one line per case: set family scenario label
threads seed requests real_ops_s virtual_ops_s ratio real_load) and prints
a markdown table. Env: PSMR (binary; default the release build under
CARGO_TARGET_DIR or engine/target).

--real-now REPS also runs every case on real threads now, with this build
(the same scenario, seed, requests and threads; median of REPS runs; the
1-minute load average before and after each case), and writes
OUT_DIR/validate-real-now.txt with both real sides and both ratios: the
quiet passes above were taken with older builds, so the model is also
checked against the build it runs in. Only meaningful on a quiet machine.
--real-now-from FILE reads those real medians back from an earlier
validate-real-now.txt instead of running them again (to compare cost tables
or model versions against the same real runs).

--cost-table FILE runs the virtual side under that table (`psmr calibrate
--json` writes one) instead of the reference; every row says so.
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
COST_TABLE = None
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
    if COST_TABLE:
        args += ["--cost-table", COST_TABLE]
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout.splitlines()
    for line in out[2:]:
        line = line.strip()
        if line.startswith(label + " "):
            if "virtual" not in line:
                raise SystemExit(f"unlabelled virtual row: {line}")
            return float(line[len(label):].split()[2])
    raise SystemExit(f"no row for {label} in {out}")


def real_now(scenario, label, threads, requests, seed, reps):
    """Median real throughput of `reps` runs now, and the load averages."""
    args = [PSMR, "run", scenario, "--scheduler", label, "--threads", str(threads), "--no-trace",
            "--json", "--requests", str(requests), "--seed", str(seed)]
    before = os.getloadavg()[0]
    got = []
    for _ in range(reps):
        rep = json.loads(subprocess.run(args, check=True, capture_output=True, text=True).stdout)
        if "mode" in rep:
            raise SystemExit(f"a real run reported a mode: {rep['mode']}")
        got.append(rep["runs"][0]["throughput_ops_s"])
    return statistics.median(got), min(got), max(got), f"{before:.2f}-{os.getloadavg()[0]:.2f}"


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
    args = sys.argv[1:]
    reps = 0
    if "--real-now" in args:
        i = args.index("--real-now")
        reps = int(args[i + 1])
        del args[i:i + 2]
    global TABLE, COST_TABLE
    if "--cost-table" in args:
        i = args.index("--cost-table")
        COST_TABLE = args[i + 1]
        TABLE = f"cost table from {os.path.basename(COST_TABLE)}"
        del args[i:i + 2]
    earlier = {}
    if "--real-now-from" in args:
        i = args.index("--real-now-from")
        for line in open(args[i + 1]):
            if line.startswith("#"):
                continue
            c = line.split()
            earlier[(c[2], c[3], c[4])] = (float(c[8]), float(c[9]), float(c[10]), c[-1])
        reps = int(re.search(r"of (\d+)", open(args[i + 1]).readline()).group(1))
        del args[i:i + 2]
    out_dir = args[0] if args else tempfile.mkdtemp()
    os.makedirs(out_dir, exist_ok=True)
    rows = []
    now_rows = []
    for kind, family, sc, label, t, seed, req, real, load in cases():
        v = virtual(sc, label, t, req, seed)
        name = os.path.basename(sc).replace(".scenario", "")
        rows.append((kind, family, name, label, t, seed, req, real, v, v / real, load))
        if reps:
            med, lo, hi, now_load = earlier.get((name, label, str(t))) or real_now(
                sc, label, t, req, seed, reps)
            now_rows.append((kind, family, name, label, t, seed, req, real, med, lo, hi, v,
                             v / real, v / med, now_load))
    if reps:
        with open(os.path.join(out_dir, "validate-real-now.txt"), "w") as f:
            f.write(f"# set family scenario label threads seed requests real_then_ops_s "
                    f"real_now_median_ops_s real_now_min real_now_max(of {reps}) "
                    f"virtual_ops_s(model, {TABLE}) virtual/real_then virtual/real_now "
                    "load1_before-after\n")
            for r in now_rows:
                f.write(" ".join(str(x) if not isinstance(x, float) else f"{x:.4g}" for x in r)
                        + "\n")
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
    if reps:
        print(f"\n| set | family | scenario | scheduler | threads | real then | real now (median of {reps}, "
              f"load) | virtual (model, {TABLE}) | virtual / real now |")
        print("|---|---|---|---|---|---|---|---|---|")
        for kind, family, sc, label, t, _, _, real, med, lo, hi, v, _, rn, nl in now_rows:
            mark = "" if 0.8 <= rn <= 1.25 else " **out**"
            print(f"| {kind} | {family} | {sc} | {label} | {t} | {real:,.0f} | {med:,.0f} "
                  f"({lo:,.0f}-{hi:,.0f}; {nl}) | {v:,.0f} | {rn:.2f}{mark} |")


if __name__ == "__main__":
    main()
