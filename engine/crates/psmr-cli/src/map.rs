//! `psmr map FILE.json`: the mapping optimizer (paper 003 section 5.1,
//! `docs/mapping-optimizer.md`) on a class table written by hand, without
//! a scenario. The file names the classes with their weights and either
//! their footprints or their conflicts, the number of worker threads and
//! a time limit; the command prints the mapping, the objective terms
//! O.1a, O.1b, O.2 and O.3, whether the optimum is proven (else the gap)
//! and the verdict of rules R.1-R.5 on the mapping.
//!
//! Errors are located like a scenario's (`FILE:LINE:COL: field.path:
//! message`): the parsing stage is `psmr_scenario::parse_located`, the
//! checks after it use its locator.

use std::path::Path;
use std::process::ExitCode;

use psmr_core::cell::Span;
use psmr_core::ClassTable;
use psmr_mapping::optimizer::{
    check_supported, evaluate, optimize_with, Options, Reading, MAX_CLASSES, MAX_THREADS,
};
use psmr_mapping::{rules, Mode};
use psmr_scenario::locate::{element, member};
use psmr_scenario::{parse_located, Diagnostic};
use serde::Deserialize;
use serde_json::json;

use crate::shared::{emit, print_diagnostics, read, EXIT_BAD_INPUT, EXIT_FAILED};
use crate::table;

/// The file of `psmr map`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct MapFile {
    /// Worker threads, 1..=64.
    threads: usize,
    /// Give up proving optimality after this many seconds (default 10, as
    /// a scenario's `"mapping": {"kind": "optimized"}`).
    #[serde(default = "default_time_limit")]
    time_limit_s: f64,
    classes: Vec<ClassEntry>,
    /// Conflicting pairs of class names; `["X", "X"]` is an internal
    /// conflict of `X`. Added to the conflicts of the footprints.
    #[serde(default)]
    conflicts: Vec<[String; 2]>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ClassEntry {
    name: String,
    /// Share of the workload (any non-negative scale; all zero means
    /// equal weights).
    #[serde(default)]
    weight: f64,
    /// Cells the class's requests may read or write; two classes conflict
    /// when one writes a cell the other touches.
    #[serde(default)]
    footprint: Vec<Span>,
}

fn default_time_limit() -> f64 {
    10.0
}

/// Run `psmr map`; `json` prints the result as JSON instead of text.
pub(crate) fn cmd_map(file: &Path, json: bool) -> ExitCode {
    let (table, threads, limit) = match load(file) {
        Ok(x) => x,
        Err(diags) => {
            print_diagnostics(&diags);
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    };
    let opts = Options {
        time_limit_s: limit,
        reading: Reading::AllClasses,
    };
    let s = match optimize_with(&table, threads, &opts) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("psmr map: {e}");
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    };
    let verdict = rules::validate(&s.ctot, &table);
    let terms = evaluate(&s.ctot, &table, Reading::AllClasses);
    let out = Outcome {
        table: &table,
        solution: &s,
        terms: &terms,
        verdict: &verdict,
        limit,
    };
    let text = if json {
        format!("{:#}\n", out.json())
    } else {
        out.text(&file.display().to_string())
    };
    if let Err(code) = emit(&text) {
        return code;
    }
    if verdict.is_ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_FAILED)
    }
}

/// Read, parse and check `file`: the class table, threads and time limit.
fn load(file: &Path) -> Result<(ClassTable, usize, f64), Vec<Diagnostic>> {
    let (text, name) = read(file)?;
    let (f, locator) = parse_located::<MapFile>(&text, &name).map_err(|d| vec![d])?;
    let at =
        |path: &str, message: String| Diagnostic::new(&name, locator.nearest(path), path, message);
    let mut errors = check(&f, &at);
    if !errors.is_empty() {
        return Err(errors);
    }
    let table = build_table(&f);
    if let Err(e) = check_supported(&table, f.threads) {
        errors.push(at("classes", e));
        return Err(errors);
    }
    Ok((table, f.threads, f.time_limit_s))
}

/// What the types cannot say: ranges, names, the optimizer's limits.
fn check(f: &MapFile, at: &dyn Fn(&str, String) -> Diagnostic) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    if f.threads == 0 || f.threads > MAX_THREADS {
        out.push(at(
            "threads",
            format!("expected 1..={MAX_THREADS} threads, got {}", f.threads),
        ));
    }
    if !(f.time_limit_s.is_finite() && f.time_limit_s > 0.0) {
        out.push(at(
            "time_limit_s",
            format!(
                "expected a positive number of seconds, got {}",
                f.time_limit_s
            ),
        ));
    }
    if f.classes.is_empty() || f.classes.len() > MAX_CLASSES {
        out.push(at(
            "classes",
            format!(
                "expected 1..={MAX_CLASSES} classes, got {}",
                f.classes.len()
            ),
        ));
    }
    for (i, c) in f.classes.iter().enumerate() {
        let path = element("classes", i);
        check_class(f, i, c, &path, at, &mut out);
    }
    for (k, pair) in f.conflicts.iter().enumerate() {
        for (j, nm) in pair.iter().enumerate() {
            if !f.classes.iter().any(|c| &c.name == nm) {
                out.push(at(
                    &element(&element("conflicts", k), j),
                    format!("unknown class `{nm}`; classes: {}", names(f)),
                ));
            }
        }
    }
    out
}

fn check_class(
    f: &MapFile,
    i: usize,
    c: &ClassEntry,
    path: &str,
    at: &dyn Fn(&str, String) -> Diagnostic,
    out: &mut Vec<Diagnostic>,
) {
    if c.name.is_empty() {
        out.push(at(&member(path, "name"), "a class needs a name".into()));
    } else if f.classes[..i].iter().any(|o| o.name == c.name) {
        out.push(at(
            &member(path, "name"),
            format!("class `{}` is defined twice", c.name),
        ));
    }
    if !(c.weight.is_finite() && c.weight >= 0.0) {
        out.push(at(
            &member(path, "weight"),
            format!("expected a non-negative weight, got {}", c.weight),
        ));
    }
    for (j, s) in c.footprint.iter().enumerate() {
        if s.lo > s.hi {
            out.push(at(
                &element(&member(path, "footprint"), j),
                format!("empty range: lo {} > hi {}", s.lo, s.hi),
            ));
        }
    }
}

fn names(f: &MapFile) -> String {
    f.classes
        .iter()
        .map(|c| c.name.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The class table of a checked file: the conflicts of the footprints
/// (`ClassTable::new`) plus the listed pairs, set in the table's JSON form
/// (the table has no other way to take a conflict no footprint implies).
fn build_table(f: &MapFile) -> ClassTable {
    let defs = f
        .classes
        .iter()
        .map(|c| psmr_core::ClassDef {
            name: c.name.clone(),
            footprint: c.footprint.clone(),
            weight: c.weight,
            shard: None,
            write: c.footprint.iter().any(|s| s.write),
        })
        .collect();
    let table = ClassTable::new(defs);
    let n = table.len();
    let mut v = serde_json::to_value(&table).expect("a class table serializes");
    let index = |nm: &str| f.classes.iter().position(|c| c.name == nm);
    for [a, b] in &f.conflicts {
        if let (Some(a), Some(b)) = (index(a), index(b)) {
            v["conflicts"][a * n + b] = json!(true);
            v["conflicts"][b * n + a] = json!(true);
        }
    }
    serde_json::from_value(v).expect("the same table with more conflicts")
}

/// What `psmr map` reports.
struct Outcome<'a> {
    table: &'a ClassTable,
    solution: &'a psmr_mapping::optimizer::Solution,
    terms: &'a psmr_mapping::optimizer::Breakdown,
    verdict: &'a Result<(), Vec<rules::RuleViolation>>,
    limit: f64,
}

impl Outcome<'_> {
    fn mode(&self, c: usize) -> &'static str {
        match self.solution.ctot.classes[c].mode {
            Mode::Concurrent => "conc",
            Mode::Sequential => "seq",
        }
    }

    fn status(&self) -> String {
        let s = self.solution;
        if s.optimal {
            format!(
                "optimal (proven in {:.1} ms, {} nodes)",
                s.solve_ms, s.nodes
            )
        } else {
            format!(
                "not proven within {} s: gap {:.1}% on {} (bound O.3 {}, cost {:.4}; {} nodes)",
                self.limit,
                s.gap * 100.0,
                if s.bound.o3 < s.value.o3 {
                    "O.3"
                } else {
                    "the cost"
                },
                s.bound.o3,
                s.bound.cost,
                s.nodes
            )
        }
    }

    fn rules(&self) -> String {
        match self.verdict {
            Ok(()) => "ok".into(),
            Err(v) => format!("VIOLATED: {}", rules::describe(v)),
        }
    }

    fn text(&self, file: &str) -> String {
        let s = self.solution;
        let rows: Vec<Vec<String>> = self
            .table
            .classes()
            .iter()
            .enumerate()
            .map(|(c, def)| {
                let threads = &s.ctot.classes[c].threads;
                vec![
                    def.name.clone(),
                    format!("{}", def.weight),
                    self.mode(c).into(),
                    threads
                        .iter()
                        .map(|t| t.to_string())
                        .collect::<Vec<_>>()
                        .join(","),
                ]
            })
            .collect();
        let t = self.terms;
        let mut out = format!(
            "{file}: {} classes on {} threads, time limit {} s\n\n",
            self.table.len(),
            s.ctot.threads,
            self.limit
        );
        out.push_str(&table::render(
            &["class", "weight", "mode", "threads"],
            &rows,
        ));
        out.push_str(&format!(
            "\nO.3   {}\nO.1a  {:.4}\nO.1b  {:.4}\nO.2   {:.4}\ncost  {:.4}  (O.1a + O.1b + O.2; O.3 comes first)\n",
            t.o3, t.o1a, t.o1b, t.o2, s.value.cost
        ));
        out.push_str(&format!("result: {}\n", self.status()));
        out.push_str(&format!("rules R.1-R.5: {}\n", self.rules()));
        out
    }

    fn json(&self) -> serde_json::Value {
        let s = self.solution;
        let classes: Vec<_> = self
            .table
            .classes()
            .iter()
            .enumerate()
            .map(|(c, def)| {
                json!({
                    "name": def.name,
                    "weight": def.weight,
                    "mode": self.mode(c),
                    "threads": s.ctot.classes[c].threads,
                })
            })
            .collect();
        json!({
            "threads": s.ctot.threads,
            "time_limit_s": self.limit,
            "classes": classes,
            "o1a": self.terms.o1a,
            "o1b": self.terms.o1b,
            "o2": self.terms.o2,
            "o3": self.terms.o3,
            "cost": s.value.cost,
            "optimal": s.optimal,
            "gap": s.gap,
            "bound": {"o3": s.bound.o3, "cost": s.bound.cost},
            "nodes": s.nodes,
            "solve_ms": s.solve_ms,
            "rules": self.rules(),
        })
    }
}
