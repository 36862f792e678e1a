#!/usr/bin/env python3
"""Write the repartitioning scenarios of paper 001 Table 1 (scaled) and at the
paper's sizes: scenarios/repart-table1-{a,d,e}.json, repart-paper-{a,d,e}.json.

Scale of the Table 1 files: 1/100 of the paper in every size (keys, requests,
Δp, W, Q). Run from the repository root: python3 scripts/gen-repart-scenarios.py
"""
import json
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent / "scenarios"

# Paper 001 section 5: 10^6 keys, 8 workers, 4 KB values; A and D 5*10^7
# requests; E 5*10^6 in the text (see docs/benchmarks/repartitioning.md).
PAPER = {"keys": 1_000_000, "requests": {"a": 50_000_000, "d": 50_000_000, "e": 5_000_000}}
WORKLOAD = {"a": "a", "d": "d", "e": "e-paper-001"}
NAME = {"a": "A (50% reads, 50% updates, zipfian)", "d": "D (95% reads, 5% inserts, latest)",
        "e": "E as paper 001 ran it (95% scans of 2-8 keys, 5% updates)"}


def table1(scale):
    """Paper 001 Table 1's configurations, sizes divided by `scale`."""
    s = lambda x: max(1, x // scale)
    rows = [{"id": "repart-async", "label": "Async"}]
    for q in (100_000, 10_000, 1_000):
        rows.append({"id": "repart-async", "label": f"Async Q={s(q)}", "repart": {"queue_bound": s(q)}})
    for w in (100_000, 10_000, 1_000):
        rows.append({"id": "repart-async", "label": f"Async W={s(w)}", "repart": {"window": s(w)}})
    for dp in (100_000, 1_000_000, 10_000_000):
        rows.append({"id": "repart-base", "label": f"Base dp={s(dp)}", "repart": {"delta_p": s(dp)}})
    rows.append({"id": "repart-sw", "label": "SW"})
    rows.append({"id": "repart-rr", "label": "RR"})
    return rows


def scenario(w, scale, paper):
    keys = PAPER["keys"] // scale
    requests = min(PAPER["requests"][w] // scale, 10_000_000)
    value = 4096 if paper else 8
    what = ("at paper 001's sizes (10^6 keys, 4 KB values, 8 workers"
            + ("; requests capped at the engine's 10^7" if PAPER["requests"][w] > 10_000_000 else "")
            + "): for the CLI, hours of runs and about 9 GB of memory"
            if paper else
            f"scaled to 1/{scale} of paper 001 in every size: {keys:,} keys, {requests:,} requests, "
            "and Δp, W and Q divided by 100 too (8-byte values)")
    return {
        "$schema": "./scenario.schema.json",
        "name": f"Repartitioning, YCSB {w.upper()}" + (" (paper sizes)" if paper else " (Table 1, scaled)"),
        "description": f"Paper 001 Table 1, workload {NAME[w]}, {what}. The twelve configurations of the "
                       "table: Async (default, bounded queues Q, sliding windows W), Base every Δp requests, "
                       "a single worker (SW) and round-robin placement (RR), on 8 workers. Compare makespan "
                       "(duration), median throughput and the queue CV in the report's extra numbers; "
                       "docs/benchmarks/repartitioning.md records this machine's results.",
        "app": {"kind": "kv-store", "shards": 8, "keys": keys, **({"value_bytes": value} if paper else {})},
        "workload": {"seed": 1, "requests": requests, "ycsb": {"workload": WORKLOAD[w]}},
        "threads": 8,
        "schedulers": table1(scale),
        "run": {"trace": False},
        "expect": {"correct": True},
        "tags": ["repartitioning", "ycsb", "slow"] + (["paper-size"] if paper else ["table-1"]),
    }


def write(name, doc):
    path = ROOT / name
    path.write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")
    print(path)


for w in ("a", "d", "e"):
    write(f"repart-table1-{w}.json", scenario(w, 100, False))
    write(f"repart-paper-{w}.json", scenario(w, 1, True))
