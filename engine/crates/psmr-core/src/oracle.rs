//! The correctness oracle, run after every run.
//!
//! A parallel run is correct when (1) every delivered request executed
//! exactly once, (2) each response equals the one sequential execution of
//! the same delivery order gives, (3) the final state digest equals the
//! sequential one, and (4) every pair of conflicting requests executed in
//! delivery order without overlapping. (4) is checked from the execution
//! log's start/end sequence numbers, per shard: a read must start after the
//! previous write of that shard ended; a write must start after the previous
//! write and every read since then ended. That covers every conflicting
//! pair, because conflicts are defined by shared shards.
//!
//! The first violation found is reported with the offending pair.

use std::fmt;
use std::sync::atomic::Ordering;

use serde::{Deserialize, Serialize};

use crate::app::Application;
use crate::class::ClassTable;
use crate::exec::ExecLog;
use crate::request::{Request, RequestId, ShardSet};

/// What sequential execution of the stream gives: the reference.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reference {
    pub responses: Vec<u64>,
    pub digest: u64,
}

impl Reference {
    /// Execute `requests` in delivery order on `app` (a fresh instance).
    pub fn compute(app: &dyn Application, requests: &[Request]) -> Self {
        let responses = requests.iter().map(|r| app.execute(&r.op)).collect();
        Reference {
            responses,
            digest: app.digest(),
        }
    }
}

/// The first thing found wrong with a run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Violation {
    /// A delivered request never executed.
    Missing { req: RequestId },
    /// A request executed more than once.
    Duplicate { req: RequestId, times: u32 },
    /// A request's response differs from the sequential one.
    Response {
        req: RequestId,
        expected: u64,
        got: u64,
    },
    /// The final state differs from the sequential one.
    State { expected: u64, got: u64 },
    /// `second` conflicts with `first` (delivered earlier) but started
    /// before `first` finished.
    Order {
        first: RequestId,
        first_class: String,
        second: RequestId,
        second_class: String,
        shard: u32,
    },
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Violation::Missing { req } => write!(f, "request #{req} was delivered but never executed"),
            Violation::Duplicate { req, times } => write!(f, "request #{req} executed {times} times"),
            Violation::Response { req, expected, got } => {
                write!(f, "request #{req} answered {got}, sequential execution answers {expected}")
            }
            Violation::State { expected, got } => {
                write!(f, "final state digest {got:016x} differs from sequential {expected:016x}")
            }
            Violation::Order { first, first_class, second, second_class, shard } => write!(
                f,
                "conflicting requests reversed: #{second} ({second_class}) started before #{first} ({first_class}) finished, both touch shard {}",
                shard + 1
            ),
        }
    }
}

/// The oracle's verdict on one run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Verdict {
    pub correct: bool,
    pub violation: Option<Violation>,
    /// Requests checked (the delivered prefix when the run was cancelled).
    pub checked: u32,
    /// `false` when the run was cancelled: the final state was not compared.
    pub state_compared: bool,
}

/// Check a finished run. `delivered` is how many requests the scheduler
/// delivered; when it is less than the stream (a cancelled run), only that
/// prefix is checked and the final state is not compared.
pub fn check(
    requests: &[Request],
    classes: &ClassTable,
    log: &ExecLog,
    reference: &Reference,
    delivered: usize,
    digest: u64,
) -> Verdict {
    let complete = delivered >= requests.len();
    let prefix = &requests[..delivered.min(requests.len())];
    let violation = check_counts(prefix, log)
        .or_else(|| check_order(prefix, classes, log))
        .or_else(|| check_responses(prefix, log, reference))
        .or_else(|| {
            (complete && digest != reference.digest).then_some(Violation::State {
                expected: reference.digest,
                got: digest,
            })
        });
    Verdict {
        correct: violation.is_none(),
        violation,
        checked: prefix.len() as u32,
        state_compared: complete,
    }
}

fn check_counts(prefix: &[Request], log: &ExecLog) -> Option<Violation> {
    prefix
        .iter()
        .find_map(|r| match log.slot(r.id).count.load(Ordering::Relaxed) {
            1 => None,
            0 => Some(Violation::Missing { req: r.id }),
            times => Some(Violation::Duplicate { req: r.id, times }),
        })
}

fn check_responses(prefix: &[Request], log: &ExecLog, reference: &Reference) -> Option<Violation> {
    prefix.iter().find_map(|r| {
        let got = log.slot(r.id).response.load(Ordering::Relaxed);
        let expected = reference.responses[r.id as usize];
        (got != expected).then_some(Violation::Response {
            req: r.id,
            expected,
            got,
        })
    })
}

/// Per-shard bookkeeping of the order check.
#[derive(Clone, Copy, Default)]
struct ShardOrder {
    /// Last write so far: (request, its end seq).
    last_write: Option<(RequestId, u64)>,
    /// Among reads since that write, the one that ended last.
    latest_read: Option<(RequestId, u64)>,
}

fn check_order(prefix: &[Request], classes: &ClassTable, log: &ExecLog) -> Option<Violation> {
    let shards = prefix
        .iter()
        .fold(ShardSet::EMPTY, |s, r| s.union(r.access.touched()));
    let mut state = vec![ShardOrder::default(); ShardSet::MAX_SHARDS];
    for r in prefix {
        let slot = log.slot(r.id);
        let start = slot.start_seq.load(Ordering::Relaxed);
        let end = slot.end_seq.load(Ordering::Relaxed);
        for shard in r.access.touched().iter().filter(|s| shards.contains(*s)) {
            let st = &mut state[shard];
            let writes = r.access.writes.contains(shard);
            let mut must_follow = vec![st.last_write];
            if writes {
                must_follow.push(st.latest_read);
            }
            for (first, first_end) in must_follow.into_iter().flatten() {
                if start < first_end {
                    return Some(order_violation(prefix, classes, first, r.id, shard));
                }
            }
            if writes {
                st.last_write = Some((r.id, end));
                st.latest_read = None;
            } else if st.latest_read.is_none_or(|(_, e)| end > e) {
                st.latest_read = Some((r.id, end));
            }
        }
    }
    None
}

fn order_violation(
    prefix: &[Request],
    classes: &ClassTable,
    first: RequestId,
    second: RequestId,
    shard: usize,
) -> Violation {
    let name = |id: RequestId| classes.get(prefix[id as usize].class).name.clone();
    Violation::Order {
        first,
        first_class: name(first),
        second,
        second_class: name(second),
        shard: shard as u32,
    }
}
