#!/usr/bin/env python3
"""An independent MILP of the mapping optimizer's model, solved by HiGHS.

Written from docs/mapping-optimizer.md (the formulation), not from the Rust
code: rules R.1-R.5 as constraints, O.3 first, then O.1a + O.1b + O.2 with
the default reading (weights normalised over all classes, unscaled thread
counts). Used by scripts/bench-optimizer.sh.

    optimizer_milp.py solve INSTANCES.json LIMIT_S OUT.jsonl   # HiGHS on each instance
                                     # (LIMIT_S "cap": each instance's own time_limit_s)
    optimizer_milp.py check INSTANCES.json OURS.jsonl          # rules + score of our mappings
    optimizer_milp.py report INSTANCES.json OURS.jsonl MILP.jsonl  # markdown table

The model (i, j classes; t threads; E the conflict pairs, (i, i) in E for
an internal conflict):
  y_i      1 if class i is concurrent (0 forced when (i, i) in E: R.2)
  z_it     1 if thread t serves class i
  R.1      sum_t z_it >= 1
  R.3      y_i + y_j <= 1                       (i, j) in E, i != j
  R.4      z_jt <= z_it + (1 - y_j) + y_i       and the same with i, j swapped
  R.5      u_ijt <= z_it, u_ijt <= z_jt, sum_t u_ijt >= 1 - y_i - y_j
  O.3      p_ijt >= z_it + z_jt - 1 - y_i - y_j, (i, j) not in E, i < j
  O.1      sum_i a_i (x_i - 2 sum_t v_it), x_i = sum_t z_it, v_it <= z_it,
           v_it <= y_i (v = z AND y), a_i = w_i / sum w
  O.2      sum_i e_i, e_i >= +-(h_i - x_i / n) - (1 - y_i), where h_i is the
           weight of i over the concurrent classes: sum_j w_j q_ij = w_i y_i
           with q_ij = h_i y_j (exact McCormick product, y_j binary)
The lexicographic order is one objective, M * O.3 + cost, with M larger
than the range of the cost: |O.1| <= n and 0 <= O.2 <= 1 + N (each term is at most
h_i + x_i / n, the h_i sum to 1 and there are at most N concurrent classes),
so with M = 2n + N + 2 one more unit of O.3 always outweighs the cost.
"""

import json
import math
import sys
import time


def load(path):
    with open(path) as f:
        return {inst["name"]: inst for inst in json.load(f)}


def data(inst):
    n_cls = len(inst["classes"])
    w = [max(c["weight"], 0.0) for c in inst["classes"]]
    if sum(w) <= 0:
        w = [1.0] * n_cls
    conf = set()
    for a, b in inst["conflicts"]:
        conf.add((a, b))
        conf.add((b, a))
    return n_cls, w, conf


def score(inst, mapping):
    """Check rules R.1-R.5 and compute (O.3, cost) of a mapping, or raise."""
    n_cls, w, conf = data(inst)
    n = inst["threads"]
    conc = [m["mode"] == "conc" for m in mapping]
    ts = [set(m["threads"]) for m in mapping]
    for i in range(n_cls):
        if not ts[i]:
            raise ValueError(f"R.1: class {i} has no thread")
        if any(t < 0 or t >= n for t in ts[i]):
            raise ValueError(f"class {i} uses a thread out of range")
        if conc[i] and (i, i) in conf:
            raise ValueError(f"R.2: class {i}")
    for i in range(n_cls):
        for j in range(i + 1, n_cls):
            if (i, j) not in conf:
                continue
            if conc[i] and conc[j]:
                raise ValueError(f"R.3: {i} {j}")
            if conc[i] and not ts[i] <= ts[j]:
                raise ValueError(f"R.4: {j} must cover {i}")
            if conc[j] and not ts[j] <= ts[i]:
                raise ValueError(f"R.4: {i} must cover {j}")
            if not conc[i] and not conc[j] and not ts[i] & ts[j]:
                raise ValueError(f"R.5: {i} {j}")
    total = sum(w)
    wc = sum(w[i] for i in range(n_cls) if conc[i])
    k = sum(conc)
    o3 = 0
    cost = 0.0
    for i in range(n_cls):
        x = len(ts[i])
        a = w[i] / total
        if conc[i]:
            hat = w[i] / wc if wc > 0 else 1.0 / k
            cost += -a * x + abs(hat - x / n)
        else:
            cost += a * x
            for j in range(i + 1, n_cls):
                if not conc[j] and (i, j) not in conf:
                    o3 += len(ts[i] & ts[j])
    return o3, cost


def solve(inst, limit_s):
    import highspy

    n_cls, w, conf = data(inst)
    n = inst["threads"]
    total = sum(w)
    a = [wi / total for wi in w]
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("time_limit", float(limit_s))
    h.setOptionValue("mip_rel_gap", 0.0)
    h.setOptionValue("mip_abs_gap", 1e-7)
    h.setOptionValue("threads", 1)
    h.setOptionValue("random_seed", 0)
    inf = highspy.kHighsInf
    big_m = 2.0 * n + n_cls + 2.0

    def binary(cost=0.0, ub=1.0):
        return h.addVariable(lb=0.0, ub=ub, obj=cost, type=highspy.HighsVarType.kInteger)

    def cont(cost=0.0, lb=0.0, ub=1.0):
        return h.addVariable(lb=lb, ub=ub, obj=cost)

    y = [binary(ub=0.0 if (i, i) in conf else 1.0) for i in range(n_cls)]
    z = [[binary(cost=a[i]) for _ in range(n)] for i in range(n_cls)]
    pairs = [(i, j) for i in range(n_cls) for j in range(i + 1, n_cls)]
    for i in range(n_cls):
        h.addConstr(sum(z[i]) >= 1)  # R.1
        for t in range(n):  # v = z AND y, rewarded -2a (O.1b replaces O.1a)
            v = cont(cost=-2.0 * a[i])
            h.addConstr(v - z[i][t] <= 0)
            h.addConstr(v - y[i] <= 0)
    for i, j in pairs:
        if (i, j) in conf:
            h.addConstr(y[i] + y[j] <= 1)  # R.3
            for t in range(n):  # R.4 both ways
                h.addConstr(z[j][t] - z[i][t] + y[j] - y[i] <= 1)
                h.addConstr(z[i][t] - z[j][t] + y[i] - y[j] <= 1)
            us = []
            for t in range(n):  # R.5
                u = cont()
                h.addConstr(u - z[i][t] <= 0)
                h.addConstr(u - z[j][t] <= 0)
                us.append(u)
            h.addConstr(sum(us) + y[i] + y[j] >= 1)
        else:
            for t in range(n):  # O.3
                p = cont(cost=big_m, ub=inf)
                h.addConstr(p - z[i][t] - z[j][t] + y[i] + y[j] >= -1)
    # O.2 with the concurrent-normalised weight h_i.
    for i in range(n_cls):
        hi = cont()
        qs = []
        for j in range(n_cls):
            q = cont()
            h.addConstr(q - y[j] <= 0)
            h.addConstr(q - hi <= 0)
            h.addConstr(q - hi - y[j] >= -1)
            qs.append(q)
        h.addConstr(sum(w[j] * qs[j] for j in range(n_cls)) - w[i] * y[i] == 0)
        e = cont(cost=1.0, ub=inf)
        x_over_n = sum(z[i]) * (1.0 / n)
        h.addConstr(e - hi + x_over_n - y[i] >= -1)
        h.addConstr(e + hi - x_over_n - y[i] >= -1)
    t0 = time.monotonic()
    h.run()
    elapsed = time.monotonic() - t0
    status = h.modelStatusToString(h.getModelStatus())
    info = h.getInfo()
    out = {
        "name": inst["name"],
        "threads": n,
        "time_limit_s": limit_s,
        "status": status,
        "optimal": status == "Optimal",
        "solve_ms": elapsed * 1e3,
        "nodes": int(info.mip_node_count),
    }
    if info.primal_solution_status == 0:  # no feasible solution
        out.update(o3=None, cost=None, mapping=None)
        return out
    sol = h.getSolution().col_value
    mapping = []
    for i in range(n_cls):
        mapping.append({
            "mode": "conc" if sol[y[i].index] > 0.5 else "seq",
            "threads": [t for t in range(n) if sol[z[i][t].index] > 0.5],
        })
    o3, cost = score(inst, mapping)
    # A mapping with O.3 = k scores at most M k + n + 1 + N, so a dual bound
    # above that proves O.3 > k.
    bound = info.mip_dual_bound
    bound_o3 = 0
    if bound > -inf:
        bound_o3 = max(0, math.ceil((bound - n - 1 - n_cls) / big_m - 1e-9))
    out.update(o3=o3, cost=cost, mapping=mapping, bound_o3=bound_o3)
    return out


def cmd_solve(inst_path, limit_s, out_path):
    insts = load(inst_path)
    with open(out_path, "w") as f:
        for inst in insts.values():
            r = solve(inst, float(inst["time_limit_s"] if limit_s == "cap" else limit_s))
            print(f"{r['name']}: O.3 {r['o3']} cost {r['cost']} {r['status']} {r['solve_ms']:.0f} ms",
                  file=sys.stderr)
            f.write(json.dumps(r) + "\n")
            f.flush()


def cmd_check(inst_path, ours_path):
    insts = load(inst_path)
    bad = 0
    with open(ours_path) as f:
        for line in f:
            r = json.loads(line)
            o3, cost = score(insts[r["name"]], r["mapping"])
            if o3 != r["o3"] or abs(cost - r["cost"]) > 1e-9:
                print(f"{r['name']}: reported ({r['o3']}, {r['cost']}) but scores ({o3}, {cost})")
                bad += 1
    print(f"check: {bad} mismatches")
    return 1 if bad else 0


def lex_cmp(a, b):
    """-1 if (o3, cost) a is better than b, 0 if equal (1e-7), 1 if worse."""
    if a[0] != b[0]:
        return -1 if a[0] < b[0] else 1
    if abs(a[1] - b[1]) <= 1e-7:
        return 0
    return -1 if a[1] < b[1] else 1


def cmd_report(inst_path, ours_path, milp_path):
    ours = {json.loads(l)["name"]: json.loads(l) for l in open(ours_path)}
    milp = {json.loads(l)["name"]: json.loads(l) for l in open(milp_path)}
    print("| instance | threads | ours O.3 | ours cost | ours proven | ours ms | HiGHS O.3 | HiGHS cost "
          "| HiGHS proven | HiGHS ms | verdict |")
    print("|---|---:|---:|---:|---|---:|---:|---:|---|---:|---|")
    tally = {"better": 0, "same": 0, "worse": 0}
    proven = {"ours": 0, "highs": 0}
    for name in load(inst_path):
        o, m = ours[name], milp.get(name)
        if m is None or m["o3"] is None:
            verdict = "better"
            mo3, mcost = "-", "-"
        else:
            c = lex_cmp((o["o3"], o["cost"]), (m["o3"], m["cost"]))
            verdict = ["better", "same", "worse"][c + 1]
            mo3, mcost = m["o3"], f"{m['cost']:.4f}"
        tally[verdict] += 1
        proven["ours"] += bool(o["optimal"])
        proven["highs"] += bool(m and m["optimal"])
        print(f"| {name} | {o['threads']} | {o['o3']} | {o['cost']:.4f} | {'yes' if o['optimal'] else 'no'} "
              f"| {o['solve_ms']:.1f} | {mo3} | {mcost} | {'yes' if m and m['optimal'] else 'no'} "
              f"| {m['solve_ms']:.0f} | {verdict} |")
    print()
    print(f"ours better: {tally['better']}, same: {tally['same']}, worse: {tally['worse']}")
    print(f"proven optimal: ours {proven['ours']}, HiGHS {proven['highs']} of {len(ours)}")


def main(argv):
    if len(argv) >= 4 and argv[0] == "solve":
        cmd_solve(argv[1], argv[2], argv[3])
        return 0
    if len(argv) == 3 and argv[0] == "check":
        return cmd_check(argv[1], argv[2])
    if len(argv) == 4 and argv[0] == "report":
        cmd_report(argv[1], argv[2], argv[3])
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
