//! The repartitioning family (paper 001): a partitioned key-value store
//! whose partition map follows the workload.
//!
//! Four schedulers share one worker loop ([`worker`]) and one driver:
//!
//! * `repart-rr`: `n` workers; a key is placed round-robin the first time a
//!   request names it and never moves (the paper's RR);
//! * `repart-sw`: a single worker owns every key, so nothing ever syncs (SW);
//! * `repart-base`: as RR, plus a *workload tracker* thread that keeps the
//!   workload graph ([`graph`]); every Δp scheduled requests the scheduler
//!   stops, waits for the tracker to catch up, partitions the graph itself
//!   (the balanced min-cut partitioner of `psmr-partition`, METIS's role),
//!   installs the new map and puts a sync into every queue (section 3);
//! * `repart-async`: the tracker hands a copy of the graph to a
//!   *partitioner* thread whenever none is being partitioned, and keeps
//!   tracking; the scheduler never stops: before each request it checks
//!   whether a new map is ready and, if so, installs it (section 4). Its
//!   options are the sliding window W (the graph of the last W requests) and
//!   the queue bound Q (section 4.1).
//!
//! A new partition's part numbers are arbitrary, so before installing it the
//! scheduler renames its parts to keep as many keys as possible where they
//! are (a greedy matching on the parts' overlap): the map changes only where
//! the partition really differs.
//!
//! Metrics (`extra` of the run): repartitions, partitions computed, time
//! between map switches, scheduler pause time, partitioning time, edge cut
//! and balance of the maps, moved keys, the median coefficient of variation
//! of the worker queue lengths sampled on a clock (by whichever worker or
//! the scheduler passes a tick, so sampling goes on while Base's scheduler
//! is stopped), the median throughput over the run's 100 time buckets, and
//! the share of requests that needed a sync.

use psmr_core::exec::{RunContext, RunOutput};
use psmr_core::scheduler::SchedulerInfo;
use psmr_core::trace::{EventKind, Recorder, AUX_BASE, SCHEDULER};
use psmr_core::{ClassId, Family, Needs, RequestId, RunError, Scheduler, SchedulerId, SpaceKind};
use psmr_core::{StreamKind, ThreadRef, WaitReason, NO_REQUEST};
use psmr_partition::PartitionConfig;

use crate::params::MAX_QUEUE_CAPACITY;
use crate::probe::CtxProbe;
use crate::queue::BoundedFifo;
use crate::registry::{BuildArgs, Fault, Registration, StreamView};
use crate::roles::RoleSignal;
use crate::spin::Backoff;
// The facade's Mutex: the tracker holds the graph's lock across a point
// (the partitioner's wake), so on virtual cores std's would block the
// token holder inside std when the scheduler takes it (a hang).
use crate::sync::{AtomicBool, AtomicU64, Mutex, MutexGuard, Ordering};

pub mod graph;
pub mod keys;
mod metrics;
pub mod params;
pub mod view;
pub mod worker;

use graph::{Snapshot, WorkloadGraph};
use keys::{KeyIndex, PartitionMap};
pub use metrics::IMBALANCE_PERMILLE;
use metrics::{RepartStats, Sampler};
pub use params::{RepartParams, Strategy};
use worker::{worker_loop, Cmd, Router};

/// Default Δp of `repart-base` (scheduled requests between repartitions).
pub const DEFAULT_DELTA_P: u32 = 10_000;
/// Default worker queue bound: the paper's queues are unbounded; ours hold
/// at most the engine's largest queue.
pub const DEFAULT_QUEUE_BOUND: usize = MAX_QUEUE_CAPACITY;
/// Requests waiting for the tracker, at most (the scheduler waits beyond).
pub const TRACKER_QUEUE: usize = 1 << 20;
/// Moved keys traced per map switch, at most.
pub const MAX_TRACED_MOVES: u32 = 4096;

/// Virtual cores: scan steps charged per vertex and per edge of a
/// partitioned snapshot. A multilevel partitioner visits each vertex and
/// edge a few times per level, over levels that shrink geometrically (about
/// twice the graph in all), with up to `max_passes` refinement passes per
/// level that usually stop after a few: 2 x 4. An estimate, not measured.
const PARTITION_STEPS: u64 = 8;
/// Name of the fault-injection variant: map switches without the sync.
pub const FAULT_NAME: &str = "repart-no-switch-sync";
/// Name of the fault-injection variant: scans without their sync.
pub const FAULT_NO_SCAN_SYNC: &str = "repart-no-scan-sync";
/// Name of the fault-injection variant: each two requests routed swapped.
pub const FAULT_SWAP_PAIRS: &str = "repart-swap-pairs";

const fn needs(roles: &'static [&'static str], fields: &'static [&'static str]) -> Needs {
    Needs {
        spaces: &[SpaceKind::Keys],
        roles,
        params: Some(("repart", fields)),
        ..Needs::new(Family::Repartitioning, &[StreamKind::Total])
    }
}

pub const NEEDS_RR: Needs = needs(&[], &["queue_bound"]);
pub const NEEDS_SW: Needs = needs(&[], &["queue_bound"]);
pub const NEEDS_BASE: Needs = needs(&["tracker"], &["delta_p", "queue_bound"]);
pub const NEEDS_ASYNC: Needs = needs(&["tracker", "partitioner"], &["window", "queue_bound"]);

/// The four `repart-*` ids, their faults (the switch sync: Base and Async
/// only; the scan sync: all but SW, which never syncs; the order: all), the
/// Partitions view and the workload graph it draws.
pub const REGISTRATION: Registration = Registration {
    faults: &[
        Fault {
            name: FAULT_NAME,
            rule: "a new partition map is installed without the sync command in every worker queue",
            guard: &[
                "install the new map; put a map-switch sync",
                "install it; put a map-switch sync",
            ],
            only: &[SchedulerId::RepartBase, SchedulerId::RepartAsync],
        },
        Fault {
            name: FAULT_NO_SCAN_SYNC,
            rule:
                "a request over several partitions runs on the lowest one alone, without the sync",
            guard: &["else: put sync(r, executor"],
            only: &[
                SchedulerId::RepartRr,
                SchedulerId::RepartBase,
                SchedulerId::RepartAsync,
            ],
        },
        Fault {
            name: FAULT_SWAP_PAIRS,
            rule: "the scheduler routes each two consecutive requests in reverse delivery order",
            guard: &["if |P| = 1: queue[the one worker of P].put(r)"],
            only: &[],
        },
    ],
    views: &["partitions"],
    stream_views: &[StreamView {
        name: "workload-graph",
        make: |stream, workers| {
            let v = view::graph_view(stream, workers)?;
            serde_json::to_string(&v).map_err(|e| e.to_string())
        },
    }],
    ..Registration::new(
        &[
            (SchedulerId::RepartRr, &NEEDS_RR),
            (SchedulerId::RepartSw, &NEEDS_SW),
            (SchedulerId::RepartBase, &NEEDS_BASE),
            (SchedulerId::RepartAsync, &NEEDS_ASYNC),
        ],
        build,
    )
};

/// A scheduler of the repartitioning family.
#[derive(Clone, Debug)]
pub struct Repart {
    pub strategy: Strategy,
    pub queue_bound: usize,
    /// Fault injection: install maps without the sync in every queue.
    pub no_switch_sync: bool,
    /// Fault injection: a scan runs on its lowest partition, no sync.
    pub no_scan_sync: bool,
    /// Fault injection: each two consecutive requests routed swapped.
    pub swap_pairs: bool,
}

impl Repart {
    pub fn new(strategy: Strategy) -> Self {
        Repart {
            strategy,
            queue_bound: DEFAULT_QUEUE_BOUND,
            no_switch_sync: false,
            no_scan_sync: false,
            swap_pairs: false,
        }
    }

    /// From a scenario entry's `repart` object.
    pub fn from_params(id: SchedulerId, p: &RepartParams) -> Result<Self, RunError> {
        let bad = |m: String| Err(RunError::InvalidConfig(m));
        let strategy = match id {
            SchedulerId::RepartRr => Strategy::RoundRobin,
            SchedulerId::RepartSw => Strategy::SingleWorker,
            SchedulerId::RepartBase => Strategy::Base {
                delta_p: p.delta_p.unwrap_or(DEFAULT_DELTA_P),
            },
            SchedulerId::RepartAsync => Strategy::Async { window: p.window },
            other => return bad(format!("`{other}` is not a repartitioning scheduler")),
        };
        if let Strategy::Base { delta_p: 0 } = strategy {
            return bad("delta_p must be at least 1".into());
        }
        if p.window == Some(0) {
            return bad("window must be at least 1 request".into());
        }
        let queue_bound = p.queue_bound.unwrap_or(DEFAULT_QUEUE_BOUND);
        if queue_bound == 0 || queue_bound > MAX_QUEUE_CAPACITY {
            return bad(format!(
                "queue_bound must be in 1..={MAX_QUEUE_CAPACITY}, got {queue_bound}"
            ));
        }
        Ok(Repart {
            strategy,
            queue_bound,
            no_switch_sync: false,
            no_scan_sync: false,
            swap_pairs: false,
        })
    }

    fn tracks(&self) -> bool {
        matches!(
            self.strategy,
            Strategy::Base { .. } | Strategy::Async { .. }
        )
    }
}

/// `build` for the four `repart-*` ids.
pub fn build(args: &BuildArgs<'_>) -> Result<Box<dyn Scheduler>, RunError> {
    #[allow(unused_mut)]
    let mut r = Repart::from_params(args.id, &args.params())?;
    #[cfg(feature = "fault-injection")]
    match args.fault().map(|f| f.name) {
        Some(FAULT_NAME) => r.no_switch_sync = true,
        Some(FAULT_NO_SCAN_SYNC) => r.no_scan_sync = true,
        Some(_) => r.swap_pairs = true,
        None => {}
    }
    Ok(Box::new(r))
}

impl Scheduler for Repart {
    fn id(&self) -> SchedulerId {
        match self.strategy {
            Strategy::RoundRobin => SchedulerId::RepartRr,
            Strategy::SingleWorker => SchedulerId::RepartSw,
            Strategy::Base { .. } => SchedulerId::RepartBase,
            Strategy::Async { .. } => SchedulerId::RepartAsync,
        }
    }
    fn info(&self) -> SchedulerInfo {
        let how = match self.strategy {
            Strategy::RoundRobin => "keys placed round-robin, never moved".to_string(),
            Strategy::SingleWorker => "one worker owns every key".to_string(),
            Strategy::Base { delta_p } => format!("stop and repartition every {delta_p} requests"),
            Strategy::Async { window } => match window {
                Some(w) => format!("partitioner thread, graph of the last {w} requests"),
                None => "partitioner thread, graph of every request".to_string(),
            },
        };
        SchedulerInfo {
            mapping: Vec::new(),
            mapping_how: format!("{how}; queues of at most {}", self.queue_bound),
        }
    }
    fn run(&self, ctx: &RunContext<'_>) -> Result<RunOutput, RunError> {
        let index = KeyIndex::new(ctx.stream).map_err(RunError::InvalidConfig)?;
        let workers = match self.strategy {
            Strategy::SingleWorker => 1,
            _ => ctx.threads,
        };
        if workers == 0 || workers > 64 {
            return Err(RunError::InvalidConfig(format!(
                "the partition map has 1..=64 partitions, the run asks for {workers}"
            )));
        }
        let sh = Shared::new(self, ctx, &index, workers);
        // Its own registration declares the roles (tracker, partitioner).
        let roles = REGISTRATION
            .needs_of(self.id())
            .map_or(0, |n| n.roles.len());
        let mut out = ctx
            .host
            .run_team(
                workers,
                roles,
                |i| sh.worker(i as ThreadRef),
                |k| match k {
                    0 => sh.tracker(),
                    _ => sh.partitioner(),
                },
                || sh.drive(),
            )
            .map_err(RunError::Threads)?;
        let stats = sh.stats.into_inner().unwrap_or_else(|p| p.into_inner());
        stats.report(
            self.strategy,
            self.queue_bound,
            ctx,
            &sh.sampler,
            &mut out,
            index.keys(),
        );
        Ok(out)
    }
}

/// A computed partition, waiting to be installed.
#[derive(Debug)]
struct NewMap {
    /// Key index of each vertex and its part.
    keys: Vec<u32>,
    part: Vec<u32>,
    cut: u64,
    imbalance_permille: u64,
}

/// Everything the threads of one run share.
struct Shared<'s, 'c, 'a> {
    r: &'s Repart,
    ctx: &'c RunContext<'a>,
    index: &'s KeyIndex,
    workers: usize,
    queues: Vec<BoundedFifo<Cmd>>,
    tracker_q: BoundedFifo<RequestId>,
    graph: Mutex<WorkloadGraph>,
    /// Requests the tracker has added to the graph.
    tracked: AtomicU64,
    /// Async: a snapshot is being partitioned (or waits to be installed).
    partitioning: AtomicBool,
    snapshot: Mutex<Option<Snapshot>>,
    partitioner: RoleSignal,
    /// Async: a new map is ready for the scheduler.
    available: AtomicBool,
    ready: Mutex<Option<NewMap>>,
    sampler: Sampler,
    stats: Mutex<RepartStats>,
}

impl<'s, 'c, 'a> Shared<'s, 'c, 'a> {
    fn new(r: &'s Repart, ctx: &'c RunContext<'a>, index: &'s KeyIndex, workers: usize) -> Self {
        let window = match r.strategy {
            Strategy::Async { window } => window,
            _ => None,
        };
        let graph_keys = if r.tracks() { index.keys() } else { 0 };
        Shared {
            r,
            ctx,
            index,
            workers,
            queues: (0..workers)
                .map(|_| BoundedFifo::new(r.queue_bound))
                .collect(),
            tracker_q: BoundedFifo::new(TRACKER_QUEUE),
            graph: Mutex::new(WorkloadGraph::new(graph_keys, window)),
            tracked: AtomicU64::new(0),
            partitioning: AtomicBool::new(false),
            snapshot: Mutex::new(None),
            partitioner: RoleSignal::new(),
            available: AtomicBool::new(false),
            ready: Mutex::new(None),
            sampler: Sampler::new(workers),
            stats: Mutex::new(RepartStats::default()),
        }
    }

    fn lock_stats(&self) -> MutexGuard<'_, RepartStats> {
        self.stats.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Worker `me`: the partitioned worker loop, sampling queues on the
    /// clock after each command.
    fn worker(&self, me: ThreadRef) {
        let mut probe = CtxProbe::new(self.ctx, me);
        worker_loop(me, &self.queues[me as usize], &mut probe, |p| {
            self.sampler
                .maybe_sample(&mut p.rec, self.ctx, &self.queues);
        });
    }

    /// Role 0, the workload tracker: add each scheduled request to the
    /// graph; for Async, hand a copy to the partitioner whenever none is
    /// being partitioned.
    fn tracker(&self) {
        let mut rec = self.ctx.recorder(AUX_BASE);
        let is_async = matches!(self.r.strategy, Strategy::Async { .. });
        loop {
            let mut idle: Option<u64> = None;
            let next = self.tracker_q.pop(|| {
                idle = Some(rec.wait_begin(WaitReason::EmptyQueue, NO_REQUEST, NO_REQUEST))
            });
            if let Some(since) = idle {
                rec.wait_done(WaitReason::EmptyQueue, next.unwrap_or(NO_REQUEST), since, 0);
            }
            let Some(r) = next else { break };
            let mut g = self.graph.lock().unwrap_or_else(|p| p.into_inner());
            g.add(self.index, r);
            // Release: Base's scheduler reads the graph after seeing the
            // count (it also takes the graph's lock, which would suffice).
            self.tracked.store(g.added, Ordering::Release);
            // Acquire pairs with the scheduler's Release after installing a
            // map: the previous round is over before a new snapshot starts.
            if is_async && !self.partitioning.load(Ordering::Acquire) {
                if let Ok(s) = g.snapshot() {
                    self.partitioning.store(true, Ordering::Relaxed);
                    *self.snapshot.lock().unwrap_or_else(|p| p.into_inner()) = Some(s);
                    self.partitioner.notify();
                }
            }
        }
        self.partitioner.stop();
    }

    /// Role 1 (Async), the partitioner: partition each snapshot it is
    /// handed and offer the map to the scheduler.
    fn partitioner(&self) {
        let mut rec = self.ctx.recorder(AUX_BASE + 1);
        let mut seen = 0;
        while self.partitioner.wait(&mut seen).is_some() {
            let Some(s) = self
                .snapshot
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .take()
            else {
                continue;
            };
            let epoch = self.lock_stats().computed + 1;
            match self.partition(&s, epoch, &mut rec) {
                Some(m) => {
                    *self.ready.lock().unwrap_or_else(|p| p.into_inner()) = Some(m);
                    // Release: the scheduler's Acquire load sees the map
                    // stored above (the mutex orders it too).
                    self.available.store(true, Ordering::Release);
                }
                // Too few keys to split: let the tracker try again later.
                None => self.partitioning.store(false, Ordering::Release),
            }
        }
    }

    /// Partition a snapshot into one part per worker (None: fewer keys than
    /// workers). Records the start and the result with its cut and time.
    fn partition(&self, s: &Snapshot, epoch: u32, rec: &mut Recorder<'_>) -> Option<NewMap> {
        let n = s.graph.vertex_count();
        if n < self.workers || self.workers < 2 {
            return None;
        }
        rec.record(EventKind::PartitionStart {
            epoch,
            vertices: n as u32,
            edges: s.graph.edge_count().min(u32::MAX as usize) as u32,
        });
        let t0 = rec.now();
        let cfg = PartitionConfig {
            parts: self.workers as u32,
            imbalance_permille: IMBALANCE_PERMILLE,
            seed: epoch as u64,
            ..PartitionConfig::default()
        };
        let p = psmr_partition::partition(&s.graph, &cfg).ok()?;
        // Virtual cores: the partitioner's work, `PARTITION_STEPS` scan
        // steps per vertex and edge of the snapshot.
        crate::sync::charge_scan(PARTITION_STEPS.saturating_mul((n + s.graph.edge_count()) as u64));
        let time_us = (rec.now().saturating_sub(t0) / 1000).min(u32::MAX as u64) as u32;
        rec.record(EventKind::Partitioned {
            epoch,
            cut: p.cut.min(u32::MAX as u64) as u32,
            time_us,
        });
        let imbalance_permille = p.imbalance_permille();
        let floor = metrics::imbalance_floor_permille(
            s.graph.max_vertex_weight(),
            s.graph.total_vertex_weight(),
            self.workers as u32,
        );
        self.lock_stats()
            .partitioned(time_us as u64, p.cut, imbalance_permille, n, floor);
        Some(NewMap {
            keys: s.keys.clone(),
            part: p.part,
            cut: p.cut,
            imbalance_permille,
        })
    }

    /// Install `m`: rename its parts to keep keys in place, move the keys
    /// that change owner, and put a sync into every queue.
    /// Timed: the scheduler routes nothing meanwhile (for Async too, whose
    /// scheduler never stops to partition but does stop to install; the
    /// time grows with the keys of the map, see `install_ms`).
    fn install(&self, router: &mut Router, m: NewMap, rec: &mut Recorder<'_>) {
        let t0 = rec.now();
        let rename = rename_parts(&m, router.map.owners(), self.workers);
        router.map.epoch += 1;
        let epoch = router.map.epoch;
        let mut moved = 0u32;
        // Virtual cores: a `scan_step` per key of the map set.
        crate::sync::charge_scan(m.keys.len() as u64);
        for (&k, &p) in m.keys.iter().zip(&m.part) {
            let to = rename[p as usize];
            let from = router.map.set(k, to);
            if from != to && from != keys::UNOWNED {
                if moved < MAX_TRACED_MOVES {
                    rec.record(EventKind::KeyMoved {
                        key: self.index.key(k) as u32,
                        from,
                        to,
                    });
                }
                moved += 1;
            }
        }
        rec.record(EventKind::MapSwitch { epoch, moved });
        rec.record(EventKind::MapBalance {
            epoch,
            imbalance_permille: m.imbalance_permille.min(u32::MAX as u64) as u32,
            keys: m.keys.len() as u32,
        });
        let now = rec.now();
        self.lock_stats().switched(now, moved, m.cut);
        router.switch(epoch, |to, cmd| {
            self.queues[to as usize].push(cmd, |_| {});
        });
        let dt = rec.now().saturating_sub(t0);
        self.lock_stats().installed(dt);
    }

    /// Base: stop, wait for the tracker, partition, install.
    fn base_repartition(&self, router: &mut Router, scheduled: u64, rec: &mut Recorder<'_>) {
        let epoch = router.map.epoch + 1;
        rec.record(EventKind::SchedulerPause { epoch });
        let t0 = rec.now();
        let mut backoff = Backoff::new(Default::default());
        // Acquire pairs with the tracker's Release of its count.
        backoff.wait_until(|| self.tracked.load(Ordering::Acquire) >= scheduled);
        let snap = self
            .graph
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .snapshot();
        if let Some(m) = snap.ok().and_then(|s| self.partition(&s, epoch, rec)) {
            self.install(router, m, rec);
        }
        let pause_ns = rec.now().saturating_sub(t0);
        rec.record(EventKind::SchedulerResume {
            epoch,
            pause_us: (pause_ns / 1000).min(u32::MAX as u64) as u32,
        });
        self.lock_stats().paused(pause_ns);
    }

    /// The scheduler: deliver, route by the partition map, feed the
    /// tracker, repartition as the strategy says.
    fn drive(&self) -> RunOutput {
        let ctx = self.ctx;
        let mut rec = ctx.recorder(SCHEDULER);
        let mut out = RunOutput::default();
        let mut router = Router::new(PartitionMap::new(self.index.keys(), self.workers as u32));
        router.sync_on_switch = !self.r.no_switch_sync;
        router.sync_scans = !self.r.no_scan_sync;
        let mut held: Option<RequestId> = None;
        let start_ns = rec.now();
        let mut blocked_ns = 0u64;
        let mut d = ctx.deliverer();
        while let Some(u) = d.next(&mut rec) {
            let req = &ctx.requests[u as usize];
            out.delivered += 1;
            if self.available.load(Ordering::Acquire) {
                let m = self.ready.lock().unwrap_or_else(|p| p.into_inner()).take();
                self.available.store(false, Ordering::Relaxed);
                if let Some(m) = m {
                    self.install(&mut router, m, &mut rec);
                }
                // Release: the map is installed; the tracker may start the
                // next round.
                self.partitioning.store(false, Ordering::Release);
            }
            // The broken variant holds every other request back and routes
            // it after the next one.
            match (self.r.swap_pairs, held.take()) {
                (true, None) => held = Some(req.id),
                (_, h) => {
                    blocked_ns += self.route(&mut router, &mut rec, req.id, req.class);
                    if let Some(h) = h {
                        let class = ctx.requests[h as usize].class;
                        blocked_ns += self.route(&mut router, &mut rec, h, class);
                    }
                }
            }
            if self.r.tracks() {
                blocked_ns += self.push_tracker(&mut rec, req.id);
            }
            self.sampler.maybe_sample(&mut rec, ctx, &self.queues);
            if let Strategy::Base { delta_p } = self.r.strategy {
                if out.delivered % delta_p == 0 {
                    self.base_repartition(&mut router, out.delivered as u64, &mut rec);
                }
            }
        }
        if let Some(h) = held {
            let class = ctx.requests[h as usize].class;
            blocked_ns += self.route(&mut router, &mut rec, h, class);
        }
        for q in &self.queues {
            q.close();
        }
        self.tracker_q.close();
        self.lock_stats().cross = router.cross;
        out.scheduler_busy_ns = d.busy_ns(start_ns, rec.now(), blocked_ns);
        out
    }

    /// Route request `req` of class `class` by the map in force: push it
    /// to its partition's queue, or a sync to each queue it spans.
    /// Returns the time blocked on full queues.
    fn route(
        &self,
        router: &mut Router,
        rec: &mut Recorder<'_>,
        req: RequestId,
        class: ClassId,
    ) -> u64 {
        let mut blocked = 0;
        let ranges = self.index.of(req);
        router.dispatch(req, class, ranges, |to, cmd| {
            // Recorded before the first push, so before any party's
            // arrival in seq order.
            if let Cmd::Sync {
                executor, lanes, ..
            } = &cmd
            {
                if *executor == to {
                    rec.record(EventKind::SyncQueued {
                        req,
                        lanes: *lanes as u32,
                        executor: *executor,
                    });
                }
            }
            blocked += self.push(rec, to, cmd, req);
        });
        blocked
    }

    /// Push a command to worker `to`'s queue; returns the time blocked on
    /// a full queue.
    fn push(&self, rec: &mut Recorder<'_>, to: ThreadRef, cmd: Cmd, req: RequestId) -> u64 {
        self.queues[to as usize].push_recorded(cmd, rec, req, to as u32, Some(to))
    }

    /// Hand a scheduled request to the tracker; returns the time blocked.
    fn push_tracker(&self, rec: &mut Recorder<'_>, req: RequestId) -> u64 {
        self.tracker_q
            .push_recorded(req, rec, req, AUX_BASE as u32, None)
    }
}

/// New part `p` becomes worker `rename[p]`: pairs (new part, old owner)
/// taken greedily by the number of keys they share, largest first, so the
/// map changes where the partition does and not because its part numbers
/// are arbitrary.
fn rename_parts(m: &NewMap, owners: &[u32], parts: usize) -> Vec<u32> {
    let mut overlap = vec![0u64; parts * parts];
    for (&k, &p) in m.keys.iter().zip(&m.part) {
        let o = owners[k as usize];
        if o != keys::UNOWNED {
            overlap[p as usize * parts + o as usize] += 1;
        }
    }
    let mut pairs: Vec<(u64, usize, usize)> = (0..parts)
        .flat_map(|p| (0..parts).map(move |o| (p, o)))
        .map(|(p, o)| (overlap[p * parts + o], p, o))
        .collect();
    // Largest overlap first; ties by part then owner (deterministic).
    pairs.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
    let mut rename = vec![u32::MAX; parts];
    let mut taken = vec![false; parts];
    for (_, p, o) in pairs {
        if rename[p] == u32::MAX && !taken[o] {
            rename[p] = o as u32;
            taken[o] = true;
        }
    }
    rename
}

#[cfg(all(test, loom))]
mod loom_tests;

#[cfg(all(test, not(loom), not(shuttle)))]
mod tests;
