//! # psmr-mapping
//!
//! Classes-to-threads mappings (CtoT) for early scheduling (paper 003
//! section 4, paper 000 section 3.3): each class gets a synchronization
//! [`Mode`] and a set of worker threads.
//!
//! * [`rules`]: validation against rules R.1-R.5;
//! * [`naive`]: the naive mapping of paper 003 section 6.5;
//! * [`optimizer`]: the mapping optimizer (paper 003 section 5.1), an exact
//!   branch and bound with a local search for its first incumbent and a
//!   requirement-clique bound on O.3, described in
//!   `docs/mapping-optimizer.md`;
//! * [`resolve`]: what schedulers call to turn a scenario's [`MappingSpec`]
//!   into a rule-abiding [`CtoT`].

use psmr_core::ClassTable;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

mod cache;
#[cfg(test)]
mod instances;
pub mod naive;
mod o3_bound;
pub mod optimizer;
#[cfg(test)]
mod optimizer_tests;
pub mod rules;
#[cfg(test)]
pub(crate) mod testing;

/// How the threads of a class treat its requests.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    /// Every thread of the class receives the request; they synchronize and
    /// one of them executes it.
    Sequential,
    /// One thread of the class (round-robin) receives and executes it.
    Concurrent,
}

/// The mapping of one class.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ClassMapping {
    pub mode: Mode,
    /// Worker thread ids (0-based), sorted, no duplicates.
    pub threads: Vec<usize>,
}

/// A complete classes-to-threads mapping: `classes[c]` maps class `c`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CtoT {
    /// Number of worker threads.
    pub threads: usize,
    pub classes: Vec<ClassMapping>,
}

impl CtoT {
    pub fn mode(&self, class: psmr_core::ClassId) -> Mode {
        self.classes[class as usize].mode
    }
    pub fn threads_of(&self, class: psmr_core::ClassId) -> &[usize] {
        &self.classes[class as usize].threads
    }
    /// Check rules R.1-R.5 against `table`.
    pub fn validate(&self, table: &ClassTable) -> Result<(), Vec<rules::RuleViolation>> {
        rules::validate(self, table)
    }
}

/// How a scenario chooses the mapping of an early-family scheduler.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum MappingSpec {
    /// Ask the optimizer (paper 003 section 5.1).
    Optimized {
        /// Give up proving optimality after this many seconds and return the
        /// best mapping found, with its gap.
        #[serde(default = "default_time_limit")]
        time_limit_s: f64,
    },
    /// The naive mapping of paper 003 section 6.5.
    Naive,
    /// A mapping written out by hand, by class name.
    Explicit {
        /// Class name (`R1`, `W1`, ..., `Rg`, `Wg`) to its mapping.
        classes: BTreeMap<String, ClassMapping>,
    },
}

fn default_time_limit() -> f64 {
    10.0
}

impl Default for MappingSpec {
    fn default() -> Self {
        MappingSpec::Optimized {
            time_limit_s: default_time_limit(),
        }
    }
}

/// A mapping chosen for a run, with how it was obtained.
#[derive(Clone, Debug, PartialEq)]
pub struct ResolvedMapping {
    pub ctot: CtoT,
    /// Human-readable origin, e.g. `optimizer (optimal, 12.0 ms)`,
    /// `naive`, `explicit`.
    pub how: String,
    /// Relative optimality gap of an optimizer result stopped by its time
    /// limit (`0.0` when proven optimal); `None` for naive and explicit.
    pub gap: Option<f64>,
    /// Time spent computing the mapping, in milliseconds.
    pub solve_ms: f64,
}

/// Turn a scenario's [`MappingSpec`] into a concrete mapping of `classes`
/// onto `threads` workers that satisfies rules R.1-R.5.
///
/// Errors (as one readable string) for `threads == 0`, an empty class table,
/// and explicit mappings that name unknown classes, omit a class, use a
/// thread id `>= threads`, give a class no thread, or break a rule (the
/// message names the rule and the classes).
pub fn resolve(
    spec: &MappingSpec,
    classes: &ClassTable,
    threads: usize,
) -> Result<ResolvedMapping, String> {
    if threads == 0 {
        return Err("a mapping needs at least one worker thread".into());
    }
    if classes.is_empty() {
        return Err("the class table is empty".into());
    }
    let start_ns = psmr_core::clock::now_ns();
    let elapsed_ms = || (psmr_core::clock::now_ns().saturating_sub(start_ns)) as f64 / 1e6;
    match spec {
        MappingSpec::Naive => {
            let ctot = naive::naive(classes, threads);
            check(&ctot, classes, "naive")?;
            Ok(ResolvedMapping {
                ctot,
                how: "naive".into(),
                gap: None,
                solve_ms: elapsed_ms(),
            })
        }
        MappingSpec::Explicit { classes: by_name } => {
            let ctot = explicit(by_name, classes, threads)?;
            check(&ctot, classes, "explicit")?;
            Ok(ResolvedMapping {
                ctot,
                how: "explicit".into(),
                gap: None,
                solve_ms: elapsed_ms(),
            })
        }
        MappingSpec::Optimized { time_limit_s } => {
            if !(time_limit_s.is_finite() && *time_limit_s > 0.0) {
                return Err(format!(
                    "optimizer time limit must be a positive number of seconds, got {time_limit_s}"
                ));
            }
            if let Some(hit) = cache::lookup(classes, threads, *time_limit_s) {
                return Ok(hit);
            }
            let resolved = optimized(classes, threads, *time_limit_s, elapsed_ms)?;
            cache::store(classes, threads, *time_limit_s, &resolved);
            Ok(resolved)
        }
    }
}

/// Run the optimizer (or fall back to naive beyond its reach).
fn optimized(
    classes: &ClassTable,
    threads: usize,
    time_limit_s: f64,
    elapsed_ms: impl Fn() -> f64,
) -> Result<ResolvedMapping, String> {
    let sol = match optimizer::optimize(classes, threads, time_limit_s) {
        Ok(sol) => sol,
        Err(why) => {
            // Instances beyond the exact optimizer (see
            // `optimizer::MAX_MODE_VECTORS`, `MAX_CLASSES`): say so.
            let ctot = naive::naive(classes, threads);
            check(&ctot, classes, "naive fallback")?;
            return Ok(ResolvedMapping {
                ctot,
                how: format!("naive fallback ({why})"),
                gap: None,
                solve_ms: elapsed_ms(),
            });
        }
    };
    check(&sol.ctot, classes, "optimizer")?;
    let ms = elapsed_ms();
    let how = if sol.optimal {
        format!("optimizer (optimal, {ms:.1} ms)")
    } else {
        let on = if sol.bound.o3 < sol.value.o3 {
            "O.3"
        } else {
            "cost"
        };
        format!(
            "optimizer (time limit {time_limit_s} s reached, best found, gap {:.1}% on {on}, {ms:.1} ms)",
            sol.gap * 100.0
        )
    };
    Ok(ResolvedMapping {
        ctot: sol.ctot,
        how,
        gap: Some(sol.gap),
        solve_ms: ms,
    })
}

fn check(ctot: &CtoT, classes: &ClassTable, what: &str) -> Result<(), String> {
    ctot.validate(classes)
        .map_err(|v| format!("{what} mapping breaks the rules: {}", rules::describe(&v)))
}

/// Build a [`CtoT`] from an explicit mapping by class name. Thread lists are
/// sorted and deduplicated.
fn explicit(
    by_name: &BTreeMap<String, ClassMapping>,
    classes: &ClassTable,
    threads: usize,
) -> Result<CtoT, String> {
    let mut slots: Vec<Option<ClassMapping>> = vec![None; classes.len()];
    let mut errors = Vec::new();
    for (name, cm) in by_name {
        let Some(id) = classes.by_name(name) else {
            let known: Vec<&str> = classes.classes().iter().map(|c| c.name.as_str()).collect();
            errors.push(format!(
                "unknown class {name:?} (the classes are {})",
                known.join(", ")
            ));
            continue;
        };
        if let Some(&bad) = cm.threads.iter().find(|&&t| t >= threads) {
            errors.push(format!(
                "class {name} uses thread {bad}, but there are only {threads} threads (ids 0..{threads})"
            ));
        }
        if cm.threads.is_empty() {
            errors.push(format!(
                "R.1: class {name} has no thread, so its requests would never run"
            ));
        }
        let mut cm = cm.clone();
        cm.threads.sort_unstable();
        cm.threads.dedup();
        slots[id as usize] = Some(cm);
    }
    for (c, slot) in slots.iter().enumerate() {
        if slot.is_none() {
            errors.push(format!(
                "class {} has no mapping",
                classes.get(c as psmr_core::ClassId).name
            ));
        }
    }
    if !errors.is_empty() {
        return Err(format!("explicit mapping: {}", errors.join("; ")));
    }
    Ok(CtoT {
        threads,
        classes: slots.into_iter().flatten().collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table1_spec() -> BTreeMap<String, ClassMapping> {
        let m = |mode, threads: &[usize]| ClassMapping {
            mode,
            threads: threads.to_vec(),
        };
        use Mode::{Concurrent as C, Sequential as S};
        [
            ("R1", m(C, &[0, 2])),
            ("R2", m(C, &[1, 3])),
            ("W1", m(S, &[2, 0])),
            ("W2", m(S, &[1, 3])),
            ("Rg", m(S, &[0, 3])),
            ("Wg", m(S, &[0, 1, 2, 3])),
        ]
        .into_iter()
        .map(|(n, cm)| (n.to_string(), cm))
        .collect()
    }

    #[test]
    fn explicit_table_1_resolves_and_is_normalised() {
        let t = ClassTable::sharded(2);
        let r = resolve(
            &MappingSpec::Explicit {
                classes: table1_spec(),
            },
            &t,
            4,
        )
        .unwrap();
        assert_eq!(r.how, "explicit");
        assert_eq!(r.gap, None);
        assert_eq!(r.ctot.threads_of(1), &[0, 2], "W1 sorted");
        assert_eq!(r.ctot.mode(4), Mode::Sequential);
    }

    #[test]
    fn explicit_errors_name_the_problem() {
        let t = ClassTable::sharded(2);
        let resolve_with = |f: &dyn Fn(&mut BTreeMap<String, ClassMapping>), threads| {
            let mut spec = table1_spec();
            f(&mut spec);
            resolve(&MappingSpec::Explicit { classes: spec }, &t, threads).unwrap_err()
        };
        let e = resolve_with(
            &|s| {
                let cm = s.remove("Rg").unwrap();
                s.insert("Rx".into(), cm);
            },
            4,
        );
        assert!(
            e.contains("unknown class \"Rx\"") && e.contains("Rg has no mapping"),
            "{e}"
        );
        let e = resolve_with(&|_| {}, 3);
        assert!(
            e.contains("thread 3") && e.contains("only 3 threads"),
            "{e}"
        );
        let e = resolve_with(&|s| s.get_mut("W2").unwrap().threads.clear(), 4);
        assert!(e.contains("R.1") && e.contains("W2"), "{e}");
        let e = resolve_with(&|s| s.get_mut("Rg").unwrap().threads = vec![0, 2], 4);
        assert!(
            e.contains("R.5") && e.contains("W2") && e.contains("Rg"),
            "{e}"
        );
        let e = resolve_with(&|s| s.get_mut("W1").unwrap().threads = vec![0], 4);
        assert!(
            e.contains("R.4") && e.contains("W1") && e.contains("R1"),
            "{e}"
        );
    }

    #[test]
    fn oversized_tables_fall_back_to_naive_and_say_so() {
        // 12 shards: 13 classes may be concurrent, 8192 mode vectors.
        let t = ClassTable::sharded(12);
        let r = resolve(&MappingSpec::default(), &t, 24).unwrap();
        assert!(
            r.how.starts_with("naive fallback (too many classes"),
            "{}",
            r.how
        );
        assert_eq!(r.ctot, naive::naive(&t, 24));
        // 8 shards (512 mode vectors) are searched.
        let t = ClassTable::sharded(8);
        let r = resolve(&MappingSpec::default(), &t, 16).unwrap();
        assert!(r.how.starts_with("optimizer"), "{}", r.how);
    }

    #[test]
    fn bad_inputs_are_errors_not_panics() {
        let t = ClassTable::sharded(2);
        assert!(resolve(&MappingSpec::Naive, &t, 0).is_err());
        assert!(resolve(&MappingSpec::Optimized { time_limit_s: -1.0 }, &t, 4).is_err());
        assert!(resolve(
            &MappingSpec::Optimized {
                time_limit_s: f64::NAN
            },
            &t,
            4
        )
        .is_err());
    }

    #[test]
    fn naive_and_optimized_resolve_to_valid_mappings() {
        let t = crate::testing::sharded_with_mix(2, 0.85, 0.05, &[0.5, 0.5], &[0.5, 0.5]);
        for spec in [MappingSpec::Naive, MappingSpec::default()] {
            for threads in 1..=8 {
                let r = resolve(&spec, &t, threads).unwrap();
                assert_eq!(r.ctot.validate(&t), Ok(()), "{spec:?} {threads}");
                assert_eq!(r.ctot.threads, threads);
            }
        }
    }
}
