//! Dump the optimizer's benchmark instances and solve them, for
//! `scripts/bench-optimizer.sh` (which compares the answers with an
//! independent MILP solved by HiGHS, `scripts/optimizer_milp.py`).
//!
//! ```text
//! optimizer_bench dump FAMILY [SCENARIO.json ...]     # instances as JSON on stdout
//! optimizer_bench solve FAMILY LIMIT_S [SCENARIO.json ...]  # one JSON line per instance
//! ```
//!
//! FAMILY is `comparison` (the 60 seeded instances), `hard` (the hard
//! shapes of the regression test), `fresh` (`PSMR_FRESH_COUNT`, default
//! 40, instances drawn by `instances::fresh_family` from the seed in
//! `PSMR_FRESH_SEED`, required so that `dump` and `solve` agree: 3-18
//! classes, 2-32 threads), `reproducer` (issue 30's two 7-class tables) or
//! `shipped` (the class tables and
//! thread counts of the given scenario files, with their weights computed
//! as a run computes them). LIMIT_S is the optimizer's time limit in
//! seconds; `cap` uses each shipped scenario's own cap (10 s when it sets
//! none). `PSMR_BENCH_ONLY=TEXT` keeps the instances whose name contains
//! TEXT.

#[path = "../src/instances.rs"]
#[allow(dead_code)]
mod instances;

use instances::Instance;
use psmr_core::app::AppSpec;
use psmr_core::workload::{class_weights, WorkloadSpec};
use psmr_mapping::optimizer::{check_supported, optimize_with, Options, Reading};
use psmr_mapping::Mode;
use serde_json::{json, Value};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Err(e) = run(&args) {
        eprintln!("optimizer_bench: {e}");
        std::process::exit(2);
    }
}

fn run(args: &[String]) -> Result<(), String> {
    let usage = "usage: optimizer_bench dump FAMILY [SCENARIO ...] | solve FAMILY LIMIT_S|cap [SCENARIO ...]";
    let (cmd, family) = match args {
        [c, f, ..] => (c.as_str(), f.as_str()),
        _ => return Err(usage.into()),
    };
    match cmd {
        "dump" => {
            let list = family_instances(family, &args[2..])?;
            let out: Vec<Value> = list.iter().map(|(i, cap)| instance_json(i, *cap)).collect();
            println!(
                "{}",
                serde_json::to_string_pretty(&out).map_err(|e| e.to_string())?
            );
            Ok(())
        }
        "solve" => {
            let limit = args.get(2).ok_or(usage)?;
            let list = family_instances(family, &args[3..])?;
            for (inst, cap) in &list {
                let time_limit_s = if limit == "cap" {
                    *cap
                } else {
                    limit
                        .parse::<f64>()
                        .map_err(|e| format!("bad time limit {limit:?}: {e}"))?
                };
                println!("{}", solve_json(inst, time_limit_s)?);
            }
            Ok(())
        }
        _ => Err(usage.into()),
    }
}

/// The instances of a family, each with the time limit its scenario sets
/// (10 s, the default, outside the shipped family).
fn family_instances(family: &str, files: &[String]) -> Result<Vec<(Instance, f64)>, String> {
    let only = std::env::var("PSMR_BENCH_ONLY").unwrap_or_default();
    let mut list = all_instances(family, files)?;
    list.retain(|(i, _)| i.name.contains(&only));
    Ok(list)
}

fn all_instances(family: &str, files: &[String]) -> Result<Vec<(Instance, f64)>, String> {
    let plain = |v: Vec<Instance>| v.into_iter().map(|i| (i, 10.0)).collect();
    match family {
        "comparison" => Ok(plain(instances::comparison_family())),
        "hard" => Ok(plain(instances::hard_family())),
        "fresh" => Ok(plain(fresh()?)),
        "reproducer" => Ok(plain(vec![
            instances::issue30_reproducer(false),
            instances::issue30_reproducer(true),
        ])),
        "shipped" => files.iter().map(|f| shipped(f)).collect(),
        other => Err(format!(
            "unknown family {other:?} (comparison, hard, fresh, reproducer, shipped)"
        )),
    }
}

/// The `fresh` family: `PSMR_FRESH_COUNT` (default 40) instances of
/// `instances::fresh_family` from `PSMR_FRESH_SEED`, skipping tables the
/// exact optimizer refuses (too many mode vectors).
fn fresh() -> Result<Vec<Instance>, String> {
    let seed = std::env::var("PSMR_FRESH_SEED")
        .map_err(|_| "the fresh family needs PSMR_FRESH_SEED".to_string())?;
    let seed: u64 = seed
        .trim()
        .parse()
        .map_err(|e| format!("PSMR_FRESH_SEED={seed:?}: {e}"))?;
    let count = match std::env::var("PSMR_FRESH_COUNT") {
        Ok(c) => c
            .trim()
            .parse()
            .map_err(|e| format!("PSMR_FRESH_COUNT={c:?}: {e}"))?,
        Err(_) => 40,
    };
    Ok(instances::fresh_family(seed, count, 18, 32, |t, n| {
        check_supported(t, n).is_ok()
    }))
}

/// The class table, thread count and optimizer cap of a scenario file.
fn shipped(path: &str) -> Result<(Instance, f64), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let v: Value = serde_json::from_str(&text).map_err(|e| format!("{path}: {e}"))?;
    let app: AppSpec =
        serde_json::from_value(v["app"].clone()).map_err(|e| format!("{path}: app: {e}"))?;
    let workload: WorkloadSpec = serde_json::from_value(v["workload"].clone())
        .map_err(|e| format!("{path}: workload: {e}"))?;
    let threads = v["threads"].as_u64().ok_or(format!("{path}: no threads"))? as usize;
    let mut table = app.classes();
    let w = class_weights(&table, &workload);
    table.set_weights(&w);
    // The smallest cap any scheduler of the file sets (wherever its
    // mapping sits in the scheduler's object).
    let cap = time_limits(&v["schedulers"])
        .into_iter()
        .fold(10.0, f64::min);
    let name = std::path::Path::new(path)
        .file_stem()
        .map_or(path.to_string(), |s| s.to_string_lossy().into_owned());
    Ok((
        Instance {
            name,
            table,
            threads,
        },
        cap,
    ))
}

/// Every `time_limit_s` number inside `v`.
fn time_limits(v: &Value) -> Vec<f64> {
    match v {
        Value::Object(map) => map
            .iter()
            .flat_map(|(k, x)| match (k.as_str(), x.as_f64()) {
                ("time_limit_s", Some(s)) => vec![s],
                _ => time_limits(x),
            })
            .collect(),
        Value::Array(items) => items.iter().flat_map(time_limits).collect(),
        _ => Vec::new(),
    }
}

/// An instance as JSON, with the time limit its scenario sets (`cap`).
fn instance_json(i: &Instance, cap: f64) -> Value {
    let t = &i.table;
    let n = t.len();
    let mut conflicts = Vec::new();
    for a in 0..n {
        for b in a..n {
            if t.conflicts(a as u16, b as u16) {
                conflicts.push(json!([a, b]));
            }
        }
    }
    json!({
        "name": i.name,
        "threads": i.threads,
        "time_limit_s": cap,
        "classes": t.classes().iter().map(|c| json!({"name": c.name, "weight": c.weight})).collect::<Vec<_>>(),
        "conflicts": conflicts,
    })
}

fn solve_json(i: &Instance, time_limit_s: f64) -> Result<Value, String> {
    let s = optimize_with(
        &i.table,
        i.threads,
        &Options {
            time_limit_s,
            reading: Reading::AllClasses,
        },
    )?;
    s.ctot
        .validate(&i.table)
        .map_err(|v| format!("{}: invalid mapping {v:?}", i.name))?;
    let mapping: Vec<Value> = s
        .ctot
        .classes
        .iter()
        .map(|cm| {
            json!({
                "mode": if cm.mode == Mode::Concurrent { "conc" } else { "seq" },
                "threads": cm.threads,
            })
        })
        .collect();
    Ok(json!({
        "name": i.name,
        "threads": i.threads,
        "time_limit_s": time_limit_s,
        "o3": s.value.o3,
        "cost": s.value.cost,
        "bound_o3": s.bound.o3,
        "bound_cost": s.bound.cost,
        "optimal": s.optimal,
        "gap": s.gap,
        "nodes": s.nodes,
        "solve_ms": s.solve_ms,
        "mapping": mapping,
    }))
}
