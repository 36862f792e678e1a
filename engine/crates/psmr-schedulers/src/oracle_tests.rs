//! The oracle's one rule, exercised on every stream kind with schedulers
//! that execute a prescribed order through the real execution path:
//!
//! * any valid order passes: for total and commit streams, any linear
//!   extension of "conflicting requests keep the canonical order"; for event
//!   streams, any interleaving of colors that keeps each color's
//!   registration order;
//! * swapping one conflicting pair fails and names that pair and a cell;
//! * a cancel after `k` deliveries expects exactly the runnable prefix, and
//!   executing anything outside it is reported.

use proptest::prelude::*;

use psmr_core::exec::{RunContext, RunOutput};
use psmr_core::oracle::Violation;
use psmr_core::trace::SCHEDULER;
use psmr_core::workload::SplitMix64;
use psmr_core::{RequestId, RunError, Scheduler, SchedulerId, StreamKind, NO_REQUEST};

use crate::testkit::{self, Stream};

/// What the test scheduler executes once it has made its deliveries.
#[derive(Clone, Debug)]
enum Plan {
    /// Exactly these requests, in this order (total and commit streams).
    Order(Vec<RequestId>),
    /// Event streams: a random valid interleaving from this seed, or with
    /// `swap` the first two events of one color run in reverse
    /// registration order.
    Events { seed: u64, swap: bool },
}

/// A single-threaded scheduler that delivers everything it may (all of the
/// stream, or up to a cancel) and then executes its plan.
struct Scripted(Plan);

impl Scheduler for Scripted {
    fn id(&self) -> SchedulerId {
        SchedulerId::Sequential
    }
    /// What the sequential scheduler runs: every stream kind.
    fn run(&self, ctx: &RunContext<'_>) -> Result<RunOutput, RunError> {
        ctx.host
            .run(0, |_| {}, || self.drive(ctx))
            .map_err(RunError::Threads)
    }
}

impl Scripted {
    fn drive(&self, ctx: &RunContext<'_>) -> RunOutput {
        let mut rec = ctx.recorder(SCHEDULER);
        let mut d = ctx.deliverer();
        let mut roots = Vec::new();
        while let Some(u) = d.next(&mut rec) {
            if ctx.stream.kind() == StreamKind::Events {
                roots.push(ctx.stream.delivery(u).start);
            }
        }
        match &self.0 {
            Plan::Order(order) => {
                for &r in order {
                    ctx.execute(&mut rec, &ctx.requests[r as usize]);
                }
            }
            Plan::Events { seed, swap } => run_events(ctx, &mut rec, &roots, *seed, *swap),
        }
        RunOutput {
            delivered: d.delivered(),
            ..RunOutput::default()
        }
    }
}

/// One FIFO of registered events per color.
type ColorQueues = std::collections::BTreeMap<u64, std::collections::VecDeque<RequestId>>;

/// Register `e` (child of `parent`) and queue it behind its color.
fn register(
    ctx: &RunContext<'_>,
    rec: &mut psmr_core::trace::Recorder<'_>,
    queues: &mut ColorQueues,
    parent: RequestId,
    e: RequestId,
) {
    ctx.register(rec, parent, e, 0);
    queues.entry(ctx.stream.color(e)).or_default().push_back(e);
}

/// Register the delivered roots, then repeatedly run the head of a random
/// non-empty color (with `swap`: once, the second event of a color before
/// its first), registering children as they come.
fn run_events(
    ctx: &RunContext<'_>,
    rec: &mut psmr_core::trace::Recorder<'_>,
    roots: &[RequestId],
    seed: u64,
    swap: bool,
) {
    let mut rng = SplitMix64::new(seed);
    let mut queues = ColorQueues::new();
    for &r in roots {
        register(ctx, rec, &mut queues, NO_REQUEST, r);
    }
    let mut swapped = !swap;
    loop {
        let ready: Vec<u64> = queues
            .iter()
            .filter(|(_, q)| !q.is_empty())
            .map(|(c, _)| *c)
            .collect();
        if ready.is_empty() {
            break;
        }
        let color = ready[rng.below(ready.len() as u64) as usize];
        let q = queues.get_mut(&color).expect("ready color");
        let e = if !swapped && q.len() >= 2 {
            swapped = true;
            q.remove(1).expect("second event")
        } else {
            q.pop_front().expect("non-empty")
        };
        for &child in ctx.execute(rec, &ctx.requests[e as usize]) {
            register(ctx, rec, &mut queues, e, child);
        }
    }
}

/// A random linear extension of the conflict order over the canonical
/// prefix of length `upto`: repeatedly pick, among the requests whose
/// canonically earlier conflicting requests have all run, one at random.
fn random_valid_order(s: &Stream, upto: usize, seed: u64) -> Vec<RequestId> {
    let canon = &s.canonical[..upto];
    let mut rng = SplitMix64::new(seed);
    let mut done = vec![false; upto];
    let mut order = Vec::with_capacity(upto);
    while order.len() < upto {
        let ready: Vec<usize> = (0..upto)
            .filter(|&j| !done[j] && (0..j).all(|i| done[i] || !s.conflicts(canon[i], canon[j])))
            .collect();
        let j = ready[rng.below(ready.len() as u64) as usize];
        done[j] = true;
        order.push(canon[j]);
    }
    order
}

/// The canonical order with the request `b` at position `j` moved just
/// before position `i`, where `j` is the first position after `i` that
/// conflicts with it; `None` when nothing after `i` conflicts. Also returns
/// `b` and the requests it now overtakes illegally: those at positions
/// `i..j` that conflict with it (the request at `i` always does).
fn swapped_order(s: &Stream, i: usize) -> Option<(Vec<RequestId>, RequestId, Vec<RequestId>)> {
    let canon = &s.canonical;
    let j = (i + 1..canon.len()).find(|&j| s.conflicts(canon[i], canon[j]))?;
    let b = canon[j];
    let overtaken = canon[i..j]
        .iter()
        .copied()
        .filter(|&x| s.conflicts(x, b))
        .collect();
    let mut order = canon.clone();
    order.remove(j);
    order.insert(i, b);
    Some((order, b, overtaken))
}

fn run(s: &Stream, plan: Plan, cancel_at: Option<usize>) -> psmr_core::run::RunResult {
    let cancel = psmr_core::cancel::CancelToken::default();
    if let Some(k) = cancel_at {
        cancel.cancel_at(k as u64);
    }
    testkit::run_with(
        &Scripted(plan),
        s,
        1,
        psmr_core::trace::TraceConfig::OFF,
        &cancel,
        0,
    )
    .expect("run")
}

/// Streams of every kind from one seed.
fn streams(seed: u64) -> [Stream; 4] {
    [
        Stream::new(testkit::spin(3, 0), &testkit::workload(seed, 60, 0.4, 0.1)),
        Stream::new(
            psmr_core::app::AppSpec::KvStore {
                shards: 2,
                keys: 40,
                value_bytes: 8,
            },
            &psmr_core::workload::WorkloadSpec {
                scans: 0.5,
                scan_len: 6,
                ..testkit::workload(seed, 60, 0.4, 0.1)
            },
        ),
        testkit::commit_stream(seed, 40, 2, 0.5),
        testkit::event_stream(seed, 12, 2, 3),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, .. ProptestConfig::default() })]

    #[test]
    fn any_valid_order_passes(seed in 0u64..10_000) {
        for s in streams(seed) {
            let plan = match s.kind() {
                StreamKind::Events => Plan::Events { seed, swap: false },
                _ => Plan::Order(random_valid_order(&s, s.len(), seed)),
            };
            let r = run(&s, plan, None);
            prop_assert!(r.verdict.correct, "{:?}: {:?}", s.kind(), r.verdict.violation);
            prop_assert!(r.verdict.state_compared);
        }
    }

    #[test]
    fn a_swapped_conflicting_pair_is_named(seed in 0u64..10_000, at in 0usize..40) {
        for s in streams(seed) {
            if s.kind() == StreamKind::Events {
                let r = run(&s, Plan::Events { seed, swap: true }, None);
                // Only a stream with two events of one color queued at once
                // can be swapped; the random forests nearly always have one.
                if let Some(v) = r.verdict.violation {
                    prop_assert!(
                        matches!(v, Violation::ColorOrder { first, second, .. } if first < second),
                        "{v:?}"
                    );
                }
                continue;
            }
            let Some((order, b, overtaken)) = swapped_order(&s, at % s.len()) else { continue };
            let r = run(&s, Plan::Order(order), None);
            // The named pair is `b` and one of the conflicting requests it
            // overtook, in canonical order, with the cell they share.
            match r.verdict.violation {
                Some(Violation::Order { first, second, ref cell, .. }) => {
                    prop_assert_eq!(second, b, "{:?}", s.kind());
                    prop_assert!(overtaken.contains(&first), "{:?}: #{first} not overtaken by #{b}", s.kind());
                    prop_assert!(!cell.text.is_empty());
                }
                ref other => prop_assert!(false, "{:?}: expected #{b} reversed, got {other:?}", s.kind()),
            }
        }
    }

    #[test]
    fn cancel_expects_exactly_the_runnable_prefix(seed in 0u64..10_000, k in 0usize..60) {
        for s in streams(seed) {
            let k = k % (s.deliveries() + 1);
            let upto = s.runnable(k);
            let plan = match s.kind() {
                StreamKind::Events => Plan::Events { seed, swap: false },
                _ => Plan::Order(random_valid_order(&s, upto, seed)),
            };
            let r = run(&s, plan, Some(k));
            prop_assert!(r.verdict.correct, "{:?} k={k}: {:?}", s.kind(), r.verdict.violation);
            prop_assert_eq!(r.verdict.checked as usize, upto);
            prop_assert_eq!(r.metrics.requests as usize, upto);
        }
    }
}

/// After a cancel, running one more request than could run is reported:
/// for a commit stream, an instance whose dependencies were not all
/// committed.
#[test]
fn running_past_the_runnable_prefix_is_unexpected() {
    for seed in 0..20 {
        let s = testkit::commit_stream(seed, 40, 2, 0.6);
        let Some(k) = (1..s.deliveries()).find(|&k| {
            let upto = s.runnable(k);
            // Some committed instance could not run yet.
            s.commits().unwrap().first[k] as usize > upto
        }) else {
            continue;
        };
        let upto = s.runnable(k);
        let mut order = s.canonical[..upto].to_vec();
        let extra = (0..s.commits().unwrap().first[k])
            .find(|r| !order.contains(r))
            .unwrap();
        order.push(extra);
        let r = run(&s, Plan::Order(order), Some(k));
        assert_eq!(
            r.verdict.violation,
            Some(Violation::Unexpected { req: extra }),
            "seed {seed}"
        );
        return;
    }
    panic!("no seed produced a commit waiting for a later one");
}

/// Skipping a request that could run is reported as missing.
#[test]
fn a_request_that_never_ran_is_missing() {
    let s = Stream::new(testkit::list(2), &testkit::workload(3, 50, 0.3, 0.1));
    let mut order = s.canonical.clone();
    let dropped = order.remove(17);
    let r = run(&s, Plan::Order(order), None);
    assert_eq!(
        r.verdict.violation,
        Some(Violation::Missing { req: dropped })
    );
}

/// The event swap really happens and is caught: over 20 forests, nearly
/// every run that swapped reports the color order, and none anything else.
#[test]
fn swapped_events_of_one_color_are_caught() {
    let mut caught = 0;
    for seed in 0..20 {
        let s = testkit::event_stream(seed, 12, 2, 3);
        match run(&s, Plan::Events { seed, swap: true }, None)
            .verdict
            .violation
        {
            Some(Violation::ColorOrder { first, second, .. }) => {
                assert!(first < second);
                caught += 1;
            }
            None => {}
            other => panic!("seed {seed}: {other:?}"),
        }
    }
    assert!(caught >= 15, "only {caught} of 20 swaps caught");
}
