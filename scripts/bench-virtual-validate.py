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
        [--cost-table FILE] [--scale K] [--real-wrap CMD]

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

--scale K multiplies the request count by K, on the real and the virtual
side alike (same scenario and seed: a longer stream), of every case whose
quiet-pass run lasted under SCALE_UNDER_MS (its requests over its "then"
ops/s): all but the ePaxos rows, whose quiet-pass runs lasted 0.19-0.74 s
(and whose virtual runs are the slowest to make). The requests column says
what ran.
The quiet passes' real numbers ("then") ran the unscaled streams, so with
K > 1 only the real-now columns compare like with like (validate.txt's
"then" ratio is kept for the format, and says so). The late and
work-stealing rows last 30-60 ms unscaled, and their real medians moved by
up to 2.1x between two passes a minute apart (docs/benchmarks/virtual.md,
"A stable real side"); K = 16 makes them last 0.5-1 s. A --real-now-from
file must have been written at the same K (checked).

--real-wrap CMD runs every real run under CMD (split like a shell line),
e.g. "chrt -f 10": SCHED_FIFO, so no other process's thread takes a CPU from
the run's and a woken thread takes a free CPU and never preempts its waker,
as on the model's cores (docs/benchmarks/virtual.md, "A stable real side").
That is the model's machine, not a default run's: the header of
validate-real-now.txt and the printed table say which it was.

The real-now runs go in rounds: each round runs every case once, so a change
of load or placement over the pass falls on every case alike rather than on
the cases that happened to run then; OUT_DIR/validate-real-runs.txt keeps
every run's ops/s.
"""
import io
import json
import os
import re
import shlex
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
# A case's requests are multiplied by this (--scale) if its quiet-pass run
# lasted under SCALE_UNDER_MS.
SCALE = 1
SCALE_UNDER_MS = 150.0
# A command every real run goes under (--real-wrap), e.g. ["chrt", "-f", "10"].
WRAP = []
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


def real_once(scenario, label, threads, requests, seed):
    """One real run's throughput."""
    args = WRAP + [PSMR, "run", scenario, "--scheduler", label, "--threads", str(threads),
                   "--no-trace", "--json", "--requests", str(requests), "--seed", str(seed)]
    rep = json.loads(subprocess.run(args, check=True, capture_output=True, text=True).stdout)
    if "mode" in rep:
        raise SystemExit(f"a real run reported a mode: {rep['mode']}")
    return rep["runs"][0]["throughput_ops_s"]


def real_rounds(todo, reps, out_dir):
    """Real runs of every case in `todo` ((name, label, threads) -> (scenario,
    requests, seed)), in `reps` rounds of one run per case each; per case the
    median, min, max and the 1-minute load average before and after its runs."""
    got = {key: [] for key in todo}
    loads = {key: [] for key in todo}
    with open(os.path.join(out_dir, "validate-real-runs.txt"), "w") as f:
        f.write(f"# round scenario label threads requests ops_s load1_before (scale {SCALE}, "
                f"wrap {' '.join(WRAP) or 'none'})\n")
        for r in range(reps):
            for key, (sc, req, seed) in todo.items():
                load = os.getloadavg()[0]
                ops = real_once(sc, key[1], int(key[2]), req, seed)
                got[key].append(ops)
                loads[key] += [load, os.getloadavg()[0]]
                f.write(f"{r} {key[0]} {key[1]} {key[2]} {req} {ops:.6g} {load:.2f}\n")
                f.flush()
    return {key: (statistics.median(v), min(v), max(v),
                  f"{min(loads[key]):.2f}-{max(loads[key]):.2f}") for key, v in got.items()}


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
    global TABLE, COST_TABLE, SCALE, WRAP
    if "--real-wrap" in args:
        i = args.index("--real-wrap")
        WRAP = shlex.split(args[i + 1])
        del args[i:i + 2]
    if "--scale" in args:
        i = args.index("--scale")
        SCALE = int(args[i + 1])
        if SCALE < 1:
            raise SystemExit("--scale takes a whole number >= 1")
        del args[i:i + 2]
    if "--cost-table" in args:
        i = args.index("--cost-table")
        COST_TABLE = args[i + 1]
        TABLE = f"cost table from {os.path.basename(COST_TABLE)}"
        del args[i:i + 2]
    earlier = {}
    if "--real-now-from" in args:
        i = args.index("--real-now-from")
        first = open(args[i + 1]).readline()
        m = re.search(r"scale (\d+)", first)
        if int(m.group(1) if m else 1) != SCALE:
            raise SystemExit(f"{args[i + 1]} was written at another --scale than {SCALE}")
        # The reused medians keep the wrap they were taken under.
        w = re.search(r"wrap ([^)]*)\)", first)
        WRAP = [] if not w or w.group(1) == "none" else shlex.split(w.group(1))
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
    todo = {}
    all_cases = [c[:6] + (c[6] * (SCALE if c[6] / c[7] * 1000 < SCALE_UNDER_MS else 1),) + c[7:]
                 for c in cases()]
    for kind, family, sc, label, t, seed, req, real, load in all_cases:
        key = (os.path.basename(sc).replace(".scenario", ""), label, str(t))
        if reps and key not in earlier:
            todo[key] = (sc, req, seed)
    # The real runs first, all of them, so no virtual run (one busy CPU)
    # falls between them.
    if todo:
        earlier.update(real_rounds(todo, reps, out_dir))
    for kind, family, sc, label, t, seed, req, real, load in all_cases:
        v = virtual(sc, label, t, req, seed)
        name = os.path.basename(sc).replace(".scenario", "")
        rows.append((kind, family, name, label, t, seed, req, real, v, v / real, load))
        if reps:
            med, lo, hi, now_load = earlier[(name, label, str(t))]
            now_rows.append((kind, family, name, label, t, seed, req, real, med, lo, hi, v,
                             v / real, v / med, now_load))
    if reps:
        with open(os.path.join(out_dir, "validate-real-now.txt"), "w") as f:
            f.write(f"# set family scenario label threads seed requests real_then_ops_s "
                    f"real_now_median_ops_s real_now_min real_now_max(of {reps}, scale {SCALE}, "
                    f"wrap {' '.join(WRAP) or 'none'}) "
                    f"virtual_ops_s(model, {TABLE}) virtual/real_then virtual/real_now "
                    "load1_range_over_its_runs\n")
            for r in now_rows:
                f.write(" ".join(str(x) if not isinstance(x, float) else f"{x:.4g}" for x in r)
                        + "\n")
    with open(os.path.join(out_dir, "validate.txt"), "w") as f:
        then = "" if SCALE == 1 else f" (requests x{SCALE}; real_ops_s is the unscaled quiet pass's)"
        f.write("# set family scenario label threads seed requests real_ops_s "
                f"virtual_ops_s(model, {TABLE}) virtual/real real_load1{then}\n")
        for r in rows:
            f.write(" ".join(str(x) if not isinstance(x, float) else f"{x:.4g}" for x in r) + "\n")
    # The quiet passes ran the unscaled streams: no like-for-like table then.
    if SCALE == 1:
        print(f"| set | family | scenario | scheduler | threads | seed | real ops/s (quiet, load) | "
              f"virtual {MACHINE_CORES} cores (model, {TABLE}) ops/s | virtual / real |")
        print("|---|---|---|---|---|---|---|---|---|")
    for kind, family, sc, label, t, seed, req, real, v, ratio, load in rows if SCALE == 1 else []:
        mark = "" if 0.8 <= ratio <= 1.25 else " **out**"
        print(f"| {kind} | {family} | {sc} | {label} | {t} | {seed} | {real:,.0f} ({load}) | "
              f"{v:,.0f} | {ratio:.2f}{mark} |")
    if reps:
        print(f"\n| set | family | scenario | scheduler | threads | real then | real now (median of {reps}, "
              f"requests x{SCALE}, under {' '.join(WRAP) or 'the default scheduler'}, load) | "
              f"virtual (model, {TABLE}) | virtual / real now |")
        print("|---|---|---|---|---|---|---|---|---|")
        for kind, family, sc, label, t, _, _, real, med, lo, hi, v, _, rn, nl in now_rows:
            mark = "" if 0.8 <= rn <= 1.25 else " **out**"
            print(f"| {kind} | {family} | {sc} | {label} | {t} | {real:,.0f} | {med:,.0f} "
                  f"({lo:,.0f}-{hi:,.0f}; {nl}) | {v:,.0f} | {rn:.2f}{mark} |")


if __name__ == "__main__":
    main()
