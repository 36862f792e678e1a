//! The correctness oracle, run after every run.
//!
//! One rule for every stream kind. A run is correct when:
//! 1. every request that could run executed exactly once, and was admitted
//!    exactly once; nothing else executed. "Could run" is the canonical
//!    prefix [`Stream::runnable`] gives for the deliveries made: all of the
//!    stream after a complete run; after a cancel, the delivered requests
//!    (total), the instances whose dependency closure was committed
//!    (commits), the trees of the delivered roots (events);
//! 2. conflicting requests never overlapped and never ran against the
//!    canonical order: read from the per-cell versions each execution saw
//!    (see [`crate::exec`]); for event streams, where the order of one color
//!    is only known at run time, events of one color never overlapped and
//!    ran in the order they were registered;
//! 3. every response, and the final state when the run was complete, equal
//!    sequential execution: of the canonical order, or for event streams
//!    whose colors ran in another (valid) order than the canonical one, of
//!    the observed order replayed on a fresh application.
//!
//! The first violation is reported with the offending pair and the cell.

use std::collections::VecDeque;
use std::fmt;
use std::sync::atomic::Ordering;

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::app::Application;
use crate::cell::WRITE_BIT;
use crate::class::ClassTable;
use crate::exec::ExecLog;
use crate::request::{RequestId, NO_REQUEST};
use crate::stream::{Stream, StreamKind};

/// What sequential execution of the stream in its canonical order gives.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reference {
    /// Indexed by request id.
    pub responses: Vec<u64>,
    pub digest: u64,
}

impl Reference {
    /// Execute `stream` in canonical order on `app` (a fresh instance).
    pub fn compute(app: &dyn Application, stream: &Stream) -> Self {
        Self::replay(app, stream, &stream.canonical)
    }

    /// Execute `stream`'s requests in `order` on `app`.
    pub fn replay(app: &dyn Application, stream: &Stream, order: &[RequestId]) -> Self {
        let mut responses = vec![0u64; stream.len()];
        for &r in order {
            responses[r as usize] = app.execute(&stream.requests[r as usize].op);
        }
        Reference {
            responses,
            digest: app.digest(),
        }
    }
}

/// A 64-bit value that survives JavaScript: a JSON number up to 2^53, a
/// decimal string above.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct JsU64(pub u64);

/// Largest integer a JavaScript number holds exactly.
const JS_SAFE: u64 = (1 << 53) - 1;

impl Serialize for JsU64 {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.0 <= JS_SAFE {
            s.serialize_u64(self.0)
        } else {
            s.serialize_str(&self.0.to_string())
        }
    }
}

impl<'de> Deserialize<'de> for JsU64 {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Either {
            N(u64),
            S(String),
        }
        match Either::deserialize(d)? {
            Either::N(n) => Ok(JsU64(n)),
            Either::S(s) => s.parse().map(JsU64).map_err(serde::de::Error::custom),
        }
    }
}

/// In the web contract: `U64 = number | string`.
impl JsonSchema for JsU64 {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "U64".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "A 64-bit value: a number up to 2^53, a decimal string above (so it survives JSON.parse).",
            "type": ["integer", "string"]
        })
    }
}

impl fmt::Display for JsU64 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// A cell range, named for people (`shard 2`, `keys 10-19`, `color 4`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct CellName {
    /// `shard`, `key` or `color`.
    pub unit: String,
    pub lo: JsU64,
    pub hi: JsU64,
    pub text: String,
}

/// The first thing found wrong with a run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Violation {
    /// A request that could run never executed.
    Missing { req: RequestId },
    /// A request executed more than once.
    Duplicate { req: RequestId, times: u32 },
    /// A request executed that could not run yet (not delivered, or an
    /// instance whose dependencies were not all committed).
    Unexpected { req: RequestId },
    /// A request was admitted (delivered or registered) `times` times.
    Admission { req: RequestId, times: u32 },
    /// A request's response differs from sequential execution.
    Response {
        req: RequestId,
        expected: JsU64,
        got: JsU64,
    },
    /// The final state differs from sequential execution.
    State { expected: JsU64, got: JsU64 },
    /// `second` conflicts with `first`, comes after it in the order the
    /// run must respect, and started before `first` finished.
    Order {
        first: RequestId,
        first_class: String,
        second: RequestId,
        second_class: String,
        cell: CellName,
    },
    /// Two events of one color ran in the opposite of their registration
    /// order: `second` was registered after `first` but ran before it.
    ColorOrder {
        first: RequestId,
        second: RequestId,
        cell: CellName,
    },
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Violation::Missing { req } => write!(f, "request #{req} could run but never executed"),
            Violation::Duplicate { req, times } => write!(f, "request #{req} executed {times} times"),
            Violation::Unexpected { req } => write!(
                f,
                "request #{req} executed although it could not run yet (not delivered, or waiting for an uncommitted dependency)"
            ),
            Violation::Admission { req, times } => {
                write!(f, "request #{req} was delivered or registered {times} times")
            }
            Violation::Response { req, expected, got } => {
                write!(f, "request #{req} answered {got}, sequential execution answers {expected}")
            }
            Violation::State { expected, got } => write!(
                f,
                "final state digest {:016x} differs from sequential {:016x}",
                got.0, expected.0
            ),
            Violation::Order { first, first_class, second, second_class, cell } => write!(
                f,
                "conflicting requests reversed: #{second} ({second_class}) started before #{first} ({first_class}) finished, both touch {}",
                cell.text
            ),
            Violation::ColorOrder { first, second, cell } => write!(
                f,
                "events of {} ran out of registration order: #{second} ran before #{first}, which was registered first",
                cell.text
            ),
        }
    }
}

/// The oracle's verdict on one run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Verdict {
    pub correct: bool,
    pub violation: Option<Violation>,
    /// Requests that had to execute (all, or the runnable prefix after a cancel).
    pub checked: u32,
    /// `false` when the run was cancelled: the final state was not compared.
    pub state_compared: bool,
    /// Responses and state were checked against a sequential replay of the
    /// observed order (event streams whose colors ran in a non-canonical
    /// order), not against the canonical reference.
    #[serde(default)]
    pub replayed: bool,
}

/// Check a finished run that made `delivered` deliveries and ended with
/// state `digest`. `fresh` builds a fresh application, for replays.
pub fn check(
    stream: &Stream,
    classes: &ClassTable,
    log: &ExecLog,
    reference: &Reference,
    delivered: usize,
    digest: u64,
    fresh: &dyn Fn() -> Box<dyn Application>,
) -> Verdict {
    let complete = delivered >= stream.deliveries();
    let runnable = stream.runnable(delivered);
    let prefix = &stream.canonical[..runnable];
    let mut replayed = false;
    let violation = check_counts(stream, log, runnable)
        .or_else(|| match stream.kind() {
            StreamKind::Events => check_colors(stream, classes, log, prefix),
            _ => check_versions(stream, classes, log, prefix),
        })
        .or_else(|| {
            let observed = match stream.kind() {
                StreamKind::Events => observed_order(stream, log, prefix),
                _ => None,
            };
            let replay;
            let expected = match observed {
                Some(order) => {
                    replayed = true;
                    replay = Reference::replay(fresh().as_ref(), stream, &order);
                    &replay
                }
                None => reference,
            };
            check_responses(prefix, log, expected).or_else(|| {
                (complete && digest != expected.digest).then_some(Violation::State {
                    expected: JsU64(expected.digest),
                    got: JsU64(digest),
                })
            })
        });
    Verdict {
        correct: violation.is_none(),
        violation,
        checked: runnable as u32,
        state_compared: complete,
        replayed,
    }
}

/// Exactly once for the runnable prefix, never for the rest; admitted once.
fn check_counts(stream: &Stream, log: &ExecLog, runnable: usize) -> Option<Violation> {
    let mut must = vec![false; stream.len()];
    for &r in &stream.canonical[..runnable] {
        must[r as usize] = true;
    }
    let order = &stream.canonical;
    order.iter().find_map(|&r| {
        let slot = log.slot(r);
        let count = slot.count.load(Ordering::Relaxed);
        let admitted = slot.admissions.load(Ordering::Relaxed);
        match (must[r as usize], count) {
            (true, 0) => Some(Violation::Missing { req: r }),
            (true, 1) if admitted != 1 => Some(Violation::Admission {
                req: r,
                times: admitted,
            }),
            (true, 1) => None,
            (true, times) => Some(Violation::Duplicate { req: r, times }),
            (false, 0) => None,
            (false, _) => Some(Violation::Unexpected { req: r }),
        }
    })
}

/// The first request (in canonical order) that saw an unexpected version,
/// turned into the pair it reveals.
fn check_versions(
    stream: &Stream,
    classes: &ClassTable,
    log: &ExecLog,
    prefix: &[RequestId],
) -> Option<Violation> {
    let r = *prefix
        .iter()
        .find(|&&r| log.slot(r).bad_entry.load(Ordering::Relaxed) != 0)?;
    let slot = log.slot(r);
    let i = slot.bad_entry.load(Ordering::Relaxed) as usize - 1;
    let seen = slot.bad_seen.load(Ordering::Relaxed);
    let phase = slot.bad_phase.load(Ordering::Relaxed);
    let entry = stream.dense.of(r)[i];
    let expect = stream.expected(r)[i];
    let cell = entry & !WRITE_BIT;
    let writes = entry & WRITE_BIT != 0;
    let writers = writers_of(stream, cell);
    let at = |k: u32| writers.get(k as usize).copied().unwrap_or(r);
    // `writers[k]` is the k-th canonical writer of the cell; the request
    // expected `expect / 2` of them to be done.
    let (first, second) = if phase == 0 && seen < expect {
        (at(seen / 2), r)
    } else {
        let next = expect / 2 + u32::from(writes);
        (r, at(next))
    };
    Some(Violation::Order {
        first,
        first_class: class_name(stream, classes, first),
        second,
        second_class: class_name(stream, classes, second),
        cell: cell_name(stream, cell),
    })
}

fn class_name(stream: &Stream, classes: &ClassTable, id: RequestId) -> String {
    let c = stream.requests[id as usize].class;
    if (c as usize) < classes.len() {
        classes.get(c).name.clone()
    } else {
        format!("class {c}")
    }
}

/// Writers of dense cell `cell`, in canonical order.
fn writers_of(stream: &Stream, cell: u32) -> Vec<RequestId> {
    stream
        .canonical
        .iter()
        .copied()
        .filter(|&q| stream.dense.of(q).contains(&(cell | WRITE_BIT)))
        .collect()
}

fn cell_name(stream: &Stream, cell: u32) -> CellName {
    let (lo, hi) = stream.dense.range(cell);
    CellName {
        unit: stream.space.unit().into(),
        lo: JsU64(lo),
        hi: JsU64(hi),
        text: stream.space.name(lo, hi),
    }
}

/// Executed events of the prefix as `(cell, version at start, event)`,
/// sorted: each color's events in the order they ran.
fn color_runs(stream: &Stream, log: &ExecLog, prefix: &[RequestId]) -> Vec<(u32, u32, RequestId)> {
    let mut v: Vec<(u32, u32, RequestId)> = prefix
        .iter()
        .map(|&e| {
            let cell = stream.dense.of(e)[0] & !WRITE_BIT;
            (cell, log.slot(e).version.load(Ordering::Relaxed), e)
        })
        .collect();
    v.sort_unstable();
    v
}

/// Events of one color never overlap (each saw an even version at start,
/// the next one 2 higher, and left it odd-free) and run in registration
/// order.
fn check_colors(
    stream: &Stream,
    classes: &ClassTable,
    log: &ExecLog,
    prefix: &[RequestId],
) -> Option<Violation> {
    let runs = color_runs(stream, log, prefix);
    let mut prev: Option<(u32, u32, RequestId)> = None;
    for &(cell, version, e) in &runs {
        let same = prev.filter(|p| p.0 == cell);
        let expected_version = same.map_or(0, |p| p.1 + 2);
        let bad = log.slot(e).bad_entry.load(Ordering::Relaxed) != 0;
        if version != expected_version || bad {
            // Someone ran on the color while `e` did: the neighbour in the
            // color's run order is the other half of the pair.
            let other = same.map(|p| p.2).unwrap_or_else(|| {
                runs.iter()
                    .find(|x| x.0 == cell && x.2 != e)
                    .map_or(e, |x| x.2)
            });
            // Event ids are the canonical order.
            let (first, second) = (other.min(e), other.max(e));
            return Some(Violation::Order {
                first,
                first_class: class_name(stream, classes, first),
                second,
                second_class: class_name(stream, classes, second),
                cell: cell_name(stream, cell),
            });
        }
        if let Some(p) = same {
            let (a, b) = (log.slot(p.2), log.slot(e));
            if a.stamp.load(Ordering::Relaxed) > b.stamp.load(Ordering::Relaxed) {
                return Some(Violation::ColorOrder {
                    first: e,
                    second: p.2,
                    cell: cell_name(stream, cell),
                });
            }
        }
        prev = Some((cell, version, e));
    }
    None
}

/// The order to replay an event run in, when its colors did not run in
/// canonical order: every color's run order and every parent before its
/// children (any such order gives the same responses, since colors share
/// no cell). `None` when every color ran in canonical (id) order, so the
/// canonical reference applies.
fn observed_order(stream: &Stream, log: &ExecLog, prefix: &[RequestId]) -> Option<Vec<RequestId>> {
    let runs = color_runs(stream, log, prefix);
    let canonical = runs.windows(2).all(|w| w[0].0 != w[1].0 || w[0].2 < w[1].2);
    if canonical {
        return None;
    }
    let forest = stream.events()?;
    let n = stream.len();
    let mut next_in_color = vec![NO_REQUEST; n];
    let mut indegree = vec![0u8; n];
    for w in runs.windows(2) {
        if w[0].0 == w[1].0 {
            next_in_color[w[0].2 as usize] = w[1].2;
            indegree[w[1].2 as usize] += 1;
        }
    }
    for &e in prefix {
        if forest.parent[e as usize] != NO_REQUEST {
            indegree[e as usize] += 1;
        }
    }
    let mut ready: VecDeque<RequestId> = prefix
        .iter()
        .copied()
        .filter(|e| indegree[*e as usize] == 0)
        .collect();
    let mut order = Vec::with_capacity(prefix.len());
    while let Some(e) = ready.pop_front() {
        order.push(e);
        let next = next_in_color[e as usize];
        for &s in forest
            .children(e)
            .iter()
            .chain((next != NO_REQUEST).then_some(&next))
        {
            indegree[s as usize] -= 1;
            if indegree[s as usize] == 0 {
                ready.push_back(s);
            }
        }
    }
    Some(order)
}

fn check_responses(prefix: &[RequestId], log: &ExecLog, expected: &Reference) -> Option<Violation> {
    prefix.iter().find_map(|&r| {
        let got = log.slot(r).response.load(Ordering::Relaxed);
        let want = expected.responses[r as usize];
        (got != want).then_some(Violation::Response {
            req: r,
            expected: JsU64(want),
            got: JsU64(got),
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn big_values_become_strings_for_javascript() {
        let v = Violation::Response {
            req: 1,
            expected: JsU64(7),
            got: JsU64(u64::MAX),
        };
        let json = serde_json::to_string(&v).unwrap();
        assert!(json.contains("\"expected\":7"), "{json}");
        assert!(json.contains("\"got\":\"18446744073709551615\""), "{json}");
        let back: Violation = serde_json::from_str(&json).unwrap();
        assert_eq!(back, v);
    }
}
