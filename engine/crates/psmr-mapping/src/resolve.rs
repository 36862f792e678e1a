//! [`resolve`]: a scenario's [`MappingSpec`] to a rule-abiding [`CtoT`]
//! (naive, optimized through the cache, or explicit and checked).

use crate::cache;
use crate::ctot::{ClassMapping, CtoT, MappingSpec, ResolvedMapping};
use crate::{naive, optimizer, rules};
use psmr_core::ClassTable;
use std::collections::BTreeMap;

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
    use crate::Mode;

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
