//! Real-thread tests of `epaxos` and `pepaxos` against the oracle.

use proptest::prelude::*;
use psmr_core::app::{AppSpec, ListCost};
use psmr_core::cancel::CancelToken;
use psmr_core::cell::Span;
use psmr_core::exec::{Delivery, Progress};
use psmr_core::run::{run_checked, RunInput, RunResult};
use psmr_core::stream::{CommitTable, StreamBuilder};
use psmr_core::threads::ThreadHost;
use psmr_core::trace::TraceConfig;
use psmr_core::workload_commits::CommitsSpec;
use psmr_core::{EventKind, Op, Scheduler, SchedulerId, ShardSet, WaitReason};

use super::parallel::{Pepaxos, Semaphore, WaitRule};
use super::*;
use crate::spec::SpinPolicy;
use crate::testkit::{self, assert_correct, Stream};

fn test_spin() -> SpinPolicy {
    SpinPolicy {
        spins: 64,
        yields: 64,
        park_us: 20,
    }
}

fn pepaxos() -> Pepaxos {
    Pepaxos::new(test_spin())
}

/// A commit stream of one command per instance over the spin app: the
/// command of instance `i` writes one shard per dependency edge at `i`
/// (so two instances conflict exactly when an edge joins them, as ePaxos's
/// interference property asks), spinning `ns` each.
fn graph_stream(deps: &[&[u32]], seqs: &[u64], ns: u32) -> Stream {
    commit_table_stream(deps, seqs, ns, false)
}

/// As [`graph_stream`], or with `one_cell` every command writes shard 0
/// (every pair conflicts, related through some dependency path).
fn commit_table_stream(deps: &[&[u32]], seqs: &[u64], ns: u32, one_cell: bool) -> Stream {
    let mut edges: Vec<(u32, u32)> = Vec::new();
    for (a, ds) in deps.iter().enumerate() {
        for &b in *ds {
            let e = (a.min(b as usize) as u32, a.max(b as usize) as u32);
            if !edges.contains(&e) {
                edges.push(e);
            }
        }
    }
    assert!(edges.len() <= 64, "one shard per edge");
    let app = AppSpec::Spin {
        shards: edges.len().max(1),
        ns,
    };
    let classes = app.classes();
    let mut b = StreamBuilder::new(app.cell_space(), deps.len());
    for i in 0..deps.len() as u32 {
        let mut shards = ShardSet::default();
        for (k, e) in edges.iter().enumerate() {
            if e.0 == i || e.1 == i || one_cell {
                shards = shards.union(ShardSet::single(if one_cell { 0 } else { k }));
            }
        }
        let fp: Vec<Span> = shards.spans(true).collect();
        b.push(
            0,
            Op::Spin {
                ns,
                shards,
                write: true,
            },
            &fp,
        );
    }
    let table = CommitTable::new((0..=deps.len() as u32).collect(), deps, seqs.to_vec());
    let stream = b.finish_commits(table).unwrap();
    Stream::from_parts(app, classes, stream)
}

/// Paper 004 Fig. 1's shape (see `scc.rs`): SCCs A = {0, 1}, B = {2, 3,
/// 4}, C = {5, 6}, D = {7}, E = {8}, F = {9, 10}; A -> B, C; B -> D, E;
/// E -> F. Seqs disagree with commit order inside each SCC.
fn fig1(ns: u32) -> Stream {
    graph_stream(&psmr_core::scc::FIG1_DEPS, &psmr_core::scc::FIG1_SEQS, ns)
}

/// `(group, position, members)` of every SCC found, from the trace.
fn groups(r: &RunResult) -> Vec<(u32, u32, Vec<u32>)> {
    let mut out: Vec<(u32, u32, Vec<u32>)> = Vec::new();
    for e in &r.trace {
        match e.kind {
            EventKind::GroupFound {
                group, position, ..
            } => out.push((group, position, Vec::new())),
            EventKind::GroupMember { group, req } => {
                let g = out.last_mut().unwrap();
                assert_eq!(g.0, group, "members follow their group");
                g.2.push(req);
            }
            _ => {}
        }
    }
    out
}

fn exec_order(r: &RunResult) -> Vec<u32> {
    psmr_core::trace::exec_order(&r.trace)
}

/// The SCCs of Fig. 1 as instances commit in order 0..=10, worked out by
/// hand in the protocol note: C once 6 commits (6 before 5 by seq), D once
/// 7 commits, and when 10 commits the graph of instance 0 holds the rest:
/// F (10, 9), E, B (3, 4, 2), A (1, 0), positions 0-3.
const FIG1_GROUPS: [(u32, u32, &[u32]); 6] = [
    (0, 0, &[6, 5]),
    (1, 0, &[7]),
    (2, 0, &[10, 9]),
    (3, 1, &[8]),
    (4, 2, &[3, 4, 2]),
    (5, 3, &[1, 0]),
];

fn assert_fig1_groups(r: &RunResult) {
    let want: Vec<(u32, u32, Vec<u32>)> = FIG1_GROUPS
        .iter()
        .map(|(g, p, m)| (*g, *p, m.to_vec()))
        .collect();
    assert_eq!(groups(r), want, "{}", r.scheduler);
}

#[test]
fn fig1_epaxos_sccs_order_and_execution_exactly() {
    let s = fig1(0);
    let r = testkit::run(&Epaxos::new(), &s, 1);
    assert_correct(&r);
    assert_fig1_groups(&r);
    assert_eq!(exec_order(&r), vec![6, 5, 7, 10, 9, 8, 3, 4, 2, 1, 0]);
    assert_eq!(exec_order(&r), s.canonical, "epaxos is the canonical order");
    // Instance 0 waited for every later commit of its graph.
    let waits: Vec<u32> = r
        .trace
        .iter()
        .filter_map(|e| match e.kind {
            EventKind::CommitWait { instance: 0, on } => Some(on),
            _ => None,
        })
        .collect();
    assert_eq!(waits, vec![1, 5, 6, 8, 9, 10]);
}

/// PePaxos finds the same SCCs (the builder's choices depend on commit
/// order only); with slow commands and two workers E waits for F, in
/// another SCC, and each instance still runs after its dependencies.
#[test]
fn fig1_pepaxos_same_sccs_and_cross_scc_waits() {
    let s = fig1(2_000_000);
    let mut waited = false;
    for _attempt in 0..3 {
        let r = testkit::run(&pepaxos(), &s, 2);
        assert_correct(&r);
        assert_fig1_groups(&r);
        let order = exec_order(&r);
        let at = |i: u32| order.iter().position(|x| *x == i).unwrap();
        for (a, b) in [(8, 9), (4, 8), (3, 7), (0, 2), (1, 5), (5, 6), (9, 10)] {
            assert!(at(b) < at(a), "{b} runs before {a}: {order:?}");
        }
        waited = r.trace.iter().any(|e| {
            matches!(
                e.kind,
                EventKind::WaitStart {
                    reason: WaitReason::Scc,
                    req: 8,
                    on: 9
                }
            )
        });
        if waited {
            break;
        }
    }
    assert!(waited, "E never waited for F on two workers");
}

#[test]
fn random_commit_streams_epaxos_and_pepaxos_agree() {
    for seed in 0..6 {
        let s = testkit::commit_stream(seed, 300, 3, 0.4);
        let e = testkit::run(&Epaxos::new(), &s, 1);
        assert_correct(&e);
        assert_eq!(exec_order(&e), s.canonical);
        for threads in [1, 2, 4] {
            let p = testkit::run(&pepaxos(), &s, threads);
            assert_correct(&p);
            assert_eq!(p.digest, e.digest, "same final state");
        }
    }
}

/// A simulated commit workload on paper 004's list, from no conflicts to
/// all writes, with and without batching.
fn list_commits(writes: f64, batch_max: u32, requests: u32) -> Stream {
    let app = AppSpec::LinkedList {
        shards: 1,
        size: ListCost::of(200),
    };
    let mut w = testkit::workload(3, requests, writes, 0.0);
    w.commits = Some(CommitsSpec {
        batch_max: Some(batch_max),
        ..Default::default()
    });
    let classes = app.classes();
    let stream = psmr_core::workload::generate_stream(&app, &classes, &w).unwrap();
    Stream::from_parts(app, classes, stream)
}

#[test]
fn simulated_list_workloads_are_correct_at_every_conflict_rate() {
    for writes in [0.0, 0.02, 0.25, 1.0] {
        for batch_max in [1, 1000] {
            let s = list_commits(writes, batch_max, 1500);
            let e = testkit::run(&Epaxos::new(), &s, 1);
            assert_correct(&e);
            for threads in [1, 3] {
                let p = testkit::run(&pepaxos(), &s, threads);
                assert_correct(&p);
                assert_eq!(p.digest, e.digest);
            }
        }
    }
}

/// The counting semaphore: with one worker and slow independent SCCs the
/// builder runs out of credit and says so.
#[test]
fn the_builder_waits_for_credit() {
    let deps: [&[u32]; 6] = [&[], &[], &[], &[], &[], &[]];
    let s = graph_stream(&deps, &[1; 6], 1_000_000);
    let r = testkit::run(&pepaxos(), &s, 1);
    assert_correct(&r);
    let waits = testkit::wait_starts(&r, WaitReason::Semaphore)
        .filter(|e| e.thread == psmr_core::trace::AUX_BASE)
        .count();
    assert!(waits >= 1, "one credit, six SCCs: the builder must wait");
    assert_eq!(r.metrics.extra[EXTRA_SCCS], 6.0);
}

#[test]
fn semaphore_counts_credit() {
    let sem = Semaphore::new(2);
    assert!(!sem.down(|| panic!("credit left")));
    assert!(!sem.down(|| panic!("credit left")));
    std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(std::time::Duration::from_millis(20));
            sem.up();
        });
        let mut blocked = false;
        sem.down(|| blocked = true);
        assert!(blocked, "no credit: down blocks until an up");
    });
}

/// `epaxos` uses one executor thread whatever the scenario's threads.
#[test]
fn epaxos_runs_one_executor() {
    let s = testkit::commit_stream(7, 200, 2, 0.3);
    let r = testkit::run(&Epaxos::new(), &s, 3);
    assert_correct(&r);
    assert_eq!(
        r.metrics.threads.iter().filter(|t| t.executed > 0).count(),
        1
    );
}

#[test]
fn total_streams_are_refused_at_run_time() {
    let s = Stream::new(testkit::list(1), &testkit::workload(1, 10, 0.5, 0.0));
    for sched in [&Epaxos::new() as &dyn Scheduler, &pepaxos()] {
        let err = testkit::try_run(sched, &s, 1).unwrap_err();
        assert!(err.to_string().contains("commit streams"), "{err}");
    }
}

/// Cancel after some commits: what committed with its closure executed,
/// nothing else (the oracle checks exactly that set).
#[test]
fn cancellation_executes_the_committed_closure() {
    let s = list_commits(0.25, 1, 3000);
    for sched in [&Epaxos::new() as &dyn Scheduler, &pepaxos()] {
        let cancel = CancelToken::default();
        let progress = Progress::new(3);
        let r = testkit::run_progress_cancel_after(sched, &s, 700, &cancel, &progress);
        assert_correct(&r);
        assert!(r.cancelled);
        assert_eq!(r.metrics.requests as usize, s.runnable(700));
    }
}

/// Closed-loop clients wait for executions while the builder parks
/// instances on later commits: no deadlock, and correct.
#[test]
fn closed_loop_delivery_does_not_deadlock() {
    let s = testkit::commit_stream(5, 400, 2, 0.6);
    for (sched, threads) in [(&Epaxos::new() as &dyn Scheduler, 1), (&pepaxos(), 2)] {
        let host = ThreadHost::with_capacity(threads + 1).unwrap();
        let input = RunInput {
            app: &s.app,
            classes: &s.classes,
            stream: &s.stream,
            host: &host,
            trace: TraceConfig::OFF,
            pace_ns: 0,
            thread_pace_ns: &[],
            delivery: Delivery::Closed { clients: Some(1) },
        };
        let r = run_checked(
            sched,
            crate::needs(sched.id()).roles,
            threads,
            &input,
            &s.reference,
            &CancelToken::default(),
            &Progress::new(threads + 1),
        )
        .unwrap();
        assert_correct(&r);
        assert!(!r.cancelled);
    }
}

/// Trace of the commit thread: one Commit per instance with its seq and
/// dependencies, each dependency a DepEdge between first commands.
#[test]
fn commits_are_traced_with_seq_and_deps() {
    let s = fig1(0);
    let r = testkit::run(&Epaxos::new(), &s, 1);
    let t = s.commits().unwrap();
    let mut edges = 0;
    let mut commits = 0;
    for e in &r.trace {
        match e.kind {
            EventKind::Commit {
                instance,
                seq,
                deps,
            } => {
                assert_eq!(instance, commits);
                assert_eq!(seq as u64, t.seq[instance as usize]);
                assert_eq!(deps as usize, t.deps(instance).len());
                commits += 1;
            }
            EventKind::DepEdge { .. } => edges += 1,
            _ => {}
        }
    }
    assert_eq!((commits, edges), (11, t.deps.len()));
}

#[test]
fn build_takes_the_epaxos_object_for_pepaxos_only() {
    let s = testkit::commit_stream(1, 50, 2, 0.3);
    let env = s.build_env(2);
    let mut spec = crate::SchedulerSpec::new(SchedulerId::Pepaxos);
    spec.epaxos = Some(crate::EpaxosParams {
        spin: Some(test_spin()),
    });
    let p = crate::build(&spec, &env).unwrap();
    assert_eq!(crate::needs(p.id()).roles, &["graph-builder"]);
    assert_correct(&testkit::run(p.as_ref(), &s, 2));
    spec.id = SchedulerId::Epaxos;
    assert!(
        crate::build(&spec, &env).is_err(),
        "epaxos takes no parameters"
    );
}

/// The broken variants start an SCC before the SCCs it depends on
/// finished: without any wait, or with the paper's per-instance waits on
/// direct dependencies only. On slow conflicting instances with two
/// workers the oracle catches both (a run where one worker happened to do
/// everything is not a counterexample, so up to three runs are tried).
#[test]
fn the_oracle_catches_an_scc_started_before_its_dependency() {
    // A chain: every instance depends on the one before (no wait at all
    // lets two run together).
    let deps: Vec<Vec<u32>> = (0..40u32)
        .map(|i| if i == 0 { vec![] } else { vec![i - 1] })
        .collect();
    let refs: Vec<&[u32]> = deps.iter().map(|d| d.as_slice()).collect();
    let chain = graph_stream(&refs, &[1; 40], 1_000_000);
    assert_only_whole_scc_waits_pass(&chain, WaitRule::None);
}

/// Why PePaxos here waits for whole SCCs, not (as Algorithm 3 lines
/// 29-30) for each instance's direct dependencies: with minimal
/// dependencies an instance can conflict with an earlier SCC only through
/// a member of its own SCC that comes later by seq. Instance 0 writes x
/// (slow); instances 1 and 2 write x and form an SCC (1 -> 2 -> 1), 2 also
/// depends on 0; 1 comes first by seq and has no dependency outside its
/// SCC, so the per-instance rule runs it while 0 still runs.
#[test]
fn per_instance_waits_on_direct_dependencies_are_not_enough() {
    let deps: [&[u32]; 3] = [&[], &[2], &[0, 1]];
    let s = commit_table_stream(&deps, &[1, 2, 3], 20_000_000, true);
    assert_only_whole_scc_waits_pass(&s, WaitRule::PerInstance);
}

/// PePaxos (waiting for whole SCCs) runs `s` correctly on two threads, and
/// the variant that waits by `rule` instead is caught within three runs.
fn assert_only_whole_scc_waits_pass(s: &Stream, rule: WaitRule) {
    assert_correct(&testkit::run(&pepaxos(), s, 2));
    let caught = (0..3).any(|_| {
        !testkit::run(&pepaxos().into_broken(rule), s, 2)
            .verdict
            .correct
    });
    assert!(caught, "waiting by {rule:?} was never caught");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 10, ..ProptestConfig::default() })]
    #[test]
    fn random_streams_and_threads_are_correct(
        seed in 0u64..1000,
        writes in 0.0f64..1.0,
        shards in 1usize..4,
        threads in 1usize..5,
    ) {
        let s = testkit::commit_stream(seed, 150, shards, writes);
        let e = testkit::run(&Epaxos::new(), &s, 1);
        prop_assert!(e.verdict.correct, "{:?}", e.verdict.violation);
        let p = testkit::run(&pepaxos(), &s, threads);
        prop_assert!(p.verdict.correct, "{:?}", p.verdict.violation);
        prop_assert_eq!(p.digest, e.digest);
    }
}

/// The broken `epaxos` (each SCC in reverse seq order) is caught on every
/// run of Figure 1's graph, whose SCCs have conflicting members: one
/// executor thread, so the verdict does not depend on timing.
#[test]
fn epaxos_ignoring_seq_inside_an_scc_is_caught() {
    let s = fig1(0);
    for _ in 0..3 {
        let r = testkit::run(&Epaxos::new().into_broken(), &s, 1);
        assert!(!r.verdict.correct, "reversed SCCs not caught");
    }
}
