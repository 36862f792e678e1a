//! Rules R.1-R.5 a classes-to-threads mapping must satisfy (paper 003
//! section 4.4, restated as i-v in paper 000 section 3.3).
//!
//! The rules guarantee that whenever two requests may conflict, some worker
//! thread sees both of them in its FIFO queue, in delivery order, and takes
//! part in executing each of them; that thread serializes the two
//! (correctness argument: paper 003 Appendix A).
//!
//! [`validate`] checks all five rules and reports every broken one, naming
//! the classes involved. It also reports a structural defect (a thread id
//! outside `0..threads`, a class count different from the table's) under the
//! pseudo-rule `CtoT`, since the rules cannot be checked on such a mapping.

use crate::ctot::{CtoT, Mode};
use psmr_core::{ClassId, ClassTable};
use std::fmt;

/// A broken rule, naming the classes involved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleViolation {
    /// `R.1` .. `R.5`, or `CtoT` for a malformed mapping.
    pub rule: &'static str,
    /// Names of the classes that break the rule (one or two).
    pub classes: Vec<String>,
    pub message: String,
}

impl fmt::Display for RuleViolation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.rule, self.message)
    }
}

/// Join violations into one human-readable line per violation.
pub fn describe(violations: &[RuleViolation]) -> String {
    violations
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}

/// R.1 — every class has at least one worker thread; otherwise its
/// requests would never be executed.
pub const R1: &str = "R.1";
/// R.2 — a class whose own requests may conflict with each other is
/// sequential: all its threads receive each of its requests and only one
/// executes it after they all synchronized, so its requests run one at a
/// time in delivery order.
pub const R2: &str = "R.2";
/// R.3 — of two different classes that conflict, at least one is
/// sequential; two concurrent classes would run their requests on
/// unsynchronized threads with nothing ordering them.
pub const R3: &str = "R.3";
/// R.4 — when a sequential class conflicts with a concurrent class, every
/// thread of the concurrent class is also a thread of the sequential class.
/// A concurrent request goes to just one of its threads; that thread must
/// also be part of every request of the sequential class, so it orders the
/// two.
pub const R4: &str = "R.4";
/// R.5 — two conflicting sequential classes share at least one thread.
/// Both classes' requests reach that common thread in delivery order and it
/// takes part in executing each of them, which serializes them.
pub const R5: &str = "R.5";

/// Check rules R.1-R.5 of `m` against the classes and conflicts of `t`.
///
/// Returns every violation found (not only the first), in rule order, then
/// class order. A mapping with the wrong number of classes or a thread id
/// `>= m.threads` is reported as malformed (`CtoT`) and the rules are not
/// checked further.
impl CtoT {
    /// Check rules R.1-R.5 against `table`.
    pub fn validate(&self, table: &ClassTable) -> Result<(), Vec<RuleViolation>> {
        validate(self, table)
    }
}

pub fn validate(m: &CtoT, t: &ClassTable) -> Result<(), Vec<RuleViolation>> {
    let structural = check_structure(m, t);
    if !structural.is_empty() {
        return Err(structural);
    }
    let mut out = Vec::new();
    check_r1(m, t, &mut out);
    check_r2(m, t, &mut out);
    check_pairs(m, t, &mut out);
    out.sort_by(|a, b| a.rule.cmp(b.rule));
    if out.is_empty() {
        Ok(())
    } else {
        Err(out)
    }
}

fn name(t: &ClassTable, c: usize) -> String {
    t.get(c as ClassId).name.clone()
}

/// A violation of `rule` by `classes` (named from `t`).
fn violation(
    rule: &'static str,
    t: &ClassTable,
    classes: &[usize],
    message: String,
) -> RuleViolation {
    RuleViolation {
        rule,
        classes: classes.iter().map(|&c| name(t, c)).collect(),
        message,
    }
}

fn check_structure(m: &CtoT, t: &ClassTable) -> Vec<RuleViolation> {
    let mut out = Vec::new();
    if m.classes.len() != t.len() {
        out.push(RuleViolation {
            rule: "CtoT",
            classes: vec![],
            message: format!(
                "the mapping has {} classes, the class table has {}",
                m.classes.len(),
                t.len()
            ),
        });
        return out;
    }
    for (c, cm) in m.classes.iter().enumerate() {
        if let Some(&bad) = cm.threads.iter().find(|&&th| th >= m.threads) {
            let (n, threads) = (name(t, c), m.threads);
            let message = format!(
                "class {n} uses thread {bad}, but there are only {threads} threads (ids 0..{threads})"
            );
            out.push(violation("CtoT", t, &[c], message));
        }
    }
    out
}

fn check_r1(m: &CtoT, t: &ClassTable, out: &mut Vec<RuleViolation>) {
    for (c, cm) in m.classes.iter().enumerate() {
        if cm.threads.is_empty() {
            let message = format!(
                "class {} has no thread, so its requests would never run",
                name(t, c)
            );
            out.push(violation(R1, t, &[c], message));
        }
    }
}

fn check_r2(m: &CtoT, t: &ClassTable, out: &mut Vec<RuleViolation>) {
    for (c, cm) in m.classes.iter().enumerate() {
        if t.conflicts(c as ClassId, c as ClassId) && cm.mode == Mode::Concurrent {
            let message = format!(
                "class {} conflicts with itself, so it must be sequential, not concurrent",
                name(t, c)
            );
            out.push(violation(R2, t, &[c], message));
        }
    }
}

/// R.3, R.4 and R.5: one pass over the unordered pairs of distinct
/// conflicting classes.
fn check_pairs(m: &CtoT, t: &ClassTable, out: &mut Vec<RuleViolation>) {
    let n = t.len();
    for a in 0..n {
        for b in a + 1..n {
            if !t.conflicts(a as ClassId, b as ClassId) {
                continue;
            }
            let (ma, mb) = (&m.classes[a], &m.classes[b]);
            match (ma.mode, mb.mode) {
                (Mode::Concurrent, Mode::Concurrent) => {
                    let message = format!(
                        "classes {} and {} conflict, so at least one of them must be sequential, \
                         but both are concurrent",
                        name(t, a),
                        name(t, b)
                    );
                    out.push(violation(R3, t, &[a, b], message));
                }
                (Mode::Sequential, Mode::Concurrent) => check_r4(t, a, b, m, out),
                (Mode::Concurrent, Mode::Sequential) => check_r4(t, b, a, m, out),
                (Mode::Sequential, Mode::Sequential) => {
                    if !ma.threads.iter().any(|th| mb.threads.contains(th)) {
                        let message = format!(
                            "sequential classes {} {:?} and {} {:?} conflict, so they must \
                             share at least one thread",
                            name(t, a),
                            ma.threads,
                            name(t, b),
                            mb.threads
                        );
                        out.push(violation(R5, t, &[a, b], message));
                    }
                }
            }
        }
    }
}

/// R.4 for sequential `seq` and concurrent `conc`, which conflict.
fn check_r4(t: &ClassTable, seq: usize, conc: usize, m: &CtoT, out: &mut Vec<RuleViolation>) {
    let (ms, mc) = (&m.classes[seq], &m.classes[conc]);
    let missing: Vec<usize> = mc
        .threads
        .iter()
        .copied()
        .filter(|th| !ms.threads.contains(th))
        .collect();
    if !missing.is_empty() {
        let (s, c) = (name(t, seq), name(t, conc));
        let message = format!(
            "sequential class {s} conflicts with concurrent class {c}, so it must include all \
             threads of {c}; it lacks {missing:?}"
        );
        out.push(violation(R4, t, &[seq, conc], message));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ClassMapping;

    fn seq(threads: &[usize]) -> ClassMapping {
        ClassMapping {
            mode: Mode::Sequential,
            threads: threads.to_vec(),
        }
    }
    fn conc(threads: &[usize]) -> ClassMapping {
        ClassMapping {
            mode: Mode::Concurrent,
            threads: threads.to_vec(),
        }
    }

    /// Paper 000 Table 1: 2 shards, 4 threads. Class order R1 W1 R2 W2 Rg Wg.
    fn table1() -> CtoT {
        CtoT {
            threads: 4,
            classes: vec![
                conc(&[0, 2]),
                seq(&[0, 2]),
                conc(&[1, 3]),
                seq(&[1, 3]),
                seq(&[0, 3]),
                seq(&[0, 1, 2, 3]),
            ],
        }
    }

    /// Assert `m` breaks exactly one rule, once, naming `classes`.
    fn assert_breaks_only(m: &CtoT, rule: &str, classes: &[&str]) {
        let t = ClassTable::sharded(2);
        let errs = validate(m, &t).expect_err("mapping should be rejected");
        assert_eq!(errs.len(), 1, "expected one violation, got {errs:?}");
        assert_eq!(errs[0].rule, rule, "{errs:?}");
        assert_eq!(errs[0].classes, classes, "{errs:?}");
        assert!(errs[0].to_string().starts_with(rule));
        for c in classes {
            assert!(errs[0].message.contains(c), "{}", errs[0].message);
        }
    }

    #[test]
    fn paper_000_table_1_is_valid() {
        assert_eq!(validate(&table1(), &ClassTable::sharded(2)), Ok(()));
    }

    #[test]
    fn r1_class_without_threads() {
        let mut m = table1();
        m.classes[2] = conc(&[]); // R2 loses its threads; W2 still includes {} fine.
        assert_breaks_only(&m, R1, &["R2"]);
    }

    #[test]
    fn r2_self_conflicting_class_made_concurrent() {
        // One shard: R1 W1 Rg Wg. W1 concurrent, every class it conflicts
        // with is sequential and covers its threads, so only R.2 breaks.
        let t = ClassTable::sharded(1);
        let m = CtoT {
            threads: 2,
            classes: vec![seq(&[0, 1]), conc(&[0, 1]), seq(&[0, 1]), seq(&[0, 1])],
        };
        let errs = validate(&m, &t).unwrap_err();
        assert_eq!(errs.len(), 1, "{errs:?}");
        assert_eq!(errs[0].rule, R2);
        assert_eq!(errs[0].classes, vec!["W1".to_string()]);
    }

    #[test]
    fn r3_two_conflicting_concurrent_classes() {
        let t = crate::testing::custom_table(&["A", "B"], &[(0, 1)], &[1.0, 1.0]);
        let m = CtoT {
            threads: 2,
            classes: vec![conc(&[0]), conc(&[1])],
        };
        let errs = validate(&m, &t).unwrap_err();
        assert_eq!(errs.len(), 1, "{errs:?}");
        assert_eq!(errs[0].rule, R3);
        assert_eq!(errs[0].classes, vec!["A".to_string(), "B".to_string()]);
        // Making one of them sequential and covering the other's threads fixes it.
        let fixed = CtoT {
            threads: 2,
            classes: vec![seq(&[0, 1]), conc(&[1])],
        };
        assert_eq!(validate(&fixed, &t), Ok(()));
    }

    #[test]
    fn r4_concurrent_thread_missing_from_sequential_class() {
        let mut m = table1();
        m.classes[1] = seq(&[0]); // W1 lacks R1's thread 2.
        assert_breaks_only(&m, R4, &["W1", "R1"]);
    }

    #[test]
    fn r5_conflicting_sequential_classes_share_no_thread() {
        let mut m = table1();
        m.classes[4] = seq(&[0, 2]); // Rg no longer meets W2 = {1, 3}.
        assert_breaks_only(&m, R5, &["W2", "Rg"]);
    }

    #[test]
    fn thread_id_out_of_range_is_malformed() {
        let mut m = table1();
        m.classes[5] = seq(&[0, 1, 2, 4]);
        let errs = validate(&m, &ClassTable::sharded(2)).unwrap_err();
        assert_eq!(errs[0].rule, "CtoT");
        assert!(errs[0].message.contains("Wg"));
    }
}
