//! The trace: one compact event vocabulary shared by every scheduler and
//! consumed by every view.
//!
//! Each thread records into its own [`Recorder`] (no sharing on the hot
//! path); events carry a global sequence number taken from one atomic
//! counter, so merging the per-thread buffers and sorting by `seq` gives an
//! order consistent with happens-before (see [`SeqClock`]). Recording can be
//! switched off for benchmark runs; the execution log the oracle needs is
//! kept separately and is always on ([`crate::exec::ExecLog`]).
//!
//! Bound: a run records at most [`TraceConfig::max_events`] events in all;
//! past that, recording stops, `truncated` is set, and the run goes on.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;

use serde::{Deserialize, Serialize};

use crate::class::ClassId;
use crate::clock;
use crate::request::RequestId;

/// A thread of a run: worker `0..threads`, or [`SCHEDULER`].
pub type ThreadRef = u16;
/// The scheduler (delivering) thread.
pub const SCHEDULER: ThreadRef = u16::MAX;

/// Why a thread waits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WaitReason {
    /// Its queue is empty (idle).
    EmptyQueue,
    /// A full queue blocks the scheduler (back-pressure).
    FullQueue,
    /// A per-class barrier (early scheduling, 003 Algorithm 2).
    Barrier,
    /// A busy-wait cycle mark (000 Algorithms 3-4).
    Cycle,
    /// A stealer's marker must clear before a sequential request (000 Alg. 7).
    Marker,
    /// A dependency in a graph (late scheduling, ePaxos).
    Dependency,
    /// A strongly connected component (PePaxos).
    Scc,
    /// A partition-map switch (repartitioning).
    MapSwitch,
}

/// What happened. `thread` on the enclosing [`TraceEvent`] says who did it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "k", rename_all = "kebab-case")]
pub enum EventKind {
    /// The scheduler received request `req` from the ordering layer.
    Delivered { req: RequestId, class: ClassId },
    /// The scheduler put `req` into `to`'s queue.
    Enqueued { req: RequestId, to: ThreadRef },
    /// The thread took `req` from its queue.
    Dequeued { req: RequestId },
    /// The thread began executing `req`.
    ExecStart { req: RequestId },
    /// The thread finished executing `req`.
    ExecEnd { req: RequestId },
    /// The thread started waiting.
    WaitStart { reason: WaitReason, req: RequestId },
    /// The thread stopped waiting; `spins` counts busy-wait iterations
    /// (recorded once, not one event per spin).
    WaitEnd {
        reason: WaitReason,
        req: RequestId,
        spins: u32,
    },
    /// The thread arrived at class `class`'s barrier or cycle for `req`.
    /// `cycle` is the busy-wait cycle index (0/1) or 0 for barriers.
    SyncArrive {
        class: ClassId,
        req: RequestId,
        cycle: u8,
    },
    /// The barrier/cycle of `req` released; `executor` ran the request.
    SyncRelease {
        class: ClassId,
        req: RequestId,
        executor: ThreadRef,
        cycle: u8,
    },
    /// The thread (the stealer) took `count` requests from `victim`'s ready
    /// queue, the first being `first`.
    Steal {
        victim: ThreadRef,
        count: u32,
        first: RequestId,
    },
    /// The stealer finished the requests it stole from `victim` and cleared
    /// its marker there.
    StealDone { victim: ThreadRef },
    /// Ready/exec flag change of the thread (work stealing).
    Flag { ready: bool },
    /// Request inserted into a dependency graph with `deps` edges.
    GraphInsert { req: RequestId, deps: u32 },
    /// Request removed from a dependency graph.
    GraphRemove { req: RequestId },
    /// A strongly connected component of `size` requests, lowest id `first`.
    Scc { first: RequestId, size: u32 },
    /// A new partition map took effect.
    MapSwitch { epoch: u32 },
    /// Sampled length of `of`'s queue.
    QueueLen { of: ThreadRef, len: u32 },
}

/// One recorded event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraceEvent {
    /// Global order: unique per run, consistent with happens-before.
    pub seq: u64,
    /// Nanoseconds since the run started.
    pub t_ns: u64,
    pub thread: ThreadRef,
    #[serde(flatten)]
    pub kind: EventKind,
}

/// The global sequence counter of a run.
///
/// `Relaxed` is enough: all increments hit one atomic, whose modification
/// order is consistent with happens-before (read-read/write-write
/// coherence), so an event that happens before another gets a smaller seq.
#[derive(Debug, Default)]
pub struct SeqClock(AtomicU64);

impl SeqClock {
    pub fn next(&self) -> u64 {
        self.0.fetch_add(1, Ordering::Relaxed)
    }
    pub fn peek(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }
}

/// Trace settings of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraceConfig {
    pub enabled: bool,
    /// Upper bound of recorded events in the whole run.
    pub max_events: usize,
}

impl TraceConfig {
    pub const OFF: TraceConfig = TraceConfig {
        enabled: false,
        max_events: 0,
    };
    /// Default bound: 2 million events (about 64 MB).
    pub const DEFAULT_MAX_EVENTS: usize = 2_000_000;
    pub fn on() -> Self {
        TraceConfig {
            enabled: true,
            max_events: Self::DEFAULT_MAX_EVENTS,
        }
    }
}

/// Counters a thread may bump; reported by name in the run output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(usize)]
pub enum Counter {
    /// Times a thread waited at a barrier.
    BarrierWaits,
    /// Times a thread waited in a busy-wait cycle.
    CycleWaits,
    /// Busy-wait iterations.
    Spins,
    /// Times a spinning thread yielded the CPU.
    Yields,
    /// Times a spinning thread parked.
    Parks,
    /// Successful steals.
    Steals,
    /// Requests moved by steals.
    StolenRequests,
    /// Requests executed that were stolen.
    StolenExecuted,
    /// Times a victim waited on a stealer's marker.
    MarkerWaits,
    /// Steal attempts that found nothing to take.
    FailedSteals,
    /// Times a dependency wait occurred.
    DependencyWaits,
}

impl Counter {
    pub const ALL: [Counter; 11] = [
        Counter::BarrierWaits,
        Counter::CycleWaits,
        Counter::Spins,
        Counter::Yields,
        Counter::Parks,
        Counter::Steals,
        Counter::StolenRequests,
        Counter::StolenExecuted,
        Counter::MarkerWaits,
        Counter::FailedSteals,
        Counter::DependencyWaits,
    ];
    pub fn name(self) -> &'static str {
        match self {
            Counter::BarrierWaits => "barrier_waits",
            Counter::CycleWaits => "cycle_waits",
            Counter::Spins => "spins",
            Counter::Yields => "yields",
            Counter::Parks => "parks",
            Counter::Steals => "steals",
            Counter::StolenRequests => "stolen_requests",
            Counter::StolenExecuted => "stolen_executed",
            Counter::MarkerWaits => "marker_waits",
            Counter::FailedSteals => "failed_steals",
            Counter::DependencyWaits => "dependency_waits",
        }
    }
}

/// Time accounting and counters of one thread.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ThreadStats {
    pub thread: ThreadRef,
    /// Requests this thread executed.
    pub executed: u64,
    /// Time executing requests.
    pub exec_ns: u64,
    /// Time waiting for other threads (barriers, cycles, markers, deps).
    pub wait_ns: u64,
    /// Time with nothing to do (empty queue).
    pub idle_ns: u64,
    #[serde(skip)]
    pub counters: [u64; Counter::ALL.len()],
}

/// Shared state of a run's trace: the seq clock, the run's time origin, the
/// event budget and the buffers of threads that finished.
#[derive(Debug)]
pub struct TraceHub {
    pub seq: SeqClock,
    pub origin_ns: u64,
    config: TraceConfig,
    /// Events still allowed; decremented in chunks by recorders.
    budget: AtomicUsize,
    truncated: AtomicBool,
    done: Mutex<Vec<(Vec<TraceEvent>, ThreadStats)>>,
}

/// Recorders reserve budget in chunks of this many events, so the shared
/// budget counter is touched once per chunk, not once per event.
const BUDGET_CHUNK: usize = 1024;

impl TraceHub {
    pub fn new(config: TraceConfig) -> Self {
        TraceHub {
            seq: SeqClock::default(),
            origin_ns: clock::now_ns(),
            config,
            budget: AtomicUsize::new(if config.enabled { config.max_events } else { 0 }),
            truncated: AtomicBool::new(false),
            done: Mutex::new(Vec::new()),
        }
    }
    pub fn config(&self) -> TraceConfig {
        self.config
    }
    /// Nanoseconds since the run's origin.
    pub fn now(&self) -> u64 {
        clock::now_ns().saturating_sub(self.origin_ns)
    }
    pub fn recorder(&self, thread: ThreadRef) -> Recorder<'_> {
        Recorder {
            hub: self,
            thread,
            events: Vec::new(),
            reserved: 0,
            stats: ThreadStats {
                thread,
                ..Default::default()
            },
            enabled: self.config.enabled,
        }
    }
    fn reserve(&self) -> usize {
        // Relaxed: the budget is only a bound on memory; which thread gets
        // the last chunk does not matter.
        let mut cur = self.budget.load(Ordering::Relaxed);
        loop {
            if cur == 0 {
                self.truncated.store(true, Ordering::Relaxed);
                return 0;
            }
            let take = cur.min(BUDGET_CHUNK);
            match self.budget.compare_exchange_weak(
                cur,
                cur - take,
                Ordering::Relaxed,
                Ordering::Relaxed,
            ) {
                Ok(_) => return take,
                Err(now) => cur = now,
            }
        }
    }
    /// Merge every finished recorder's events in seq order. Call after all
    /// recorders were dropped (the scope join orders their pushes before it).
    pub fn finish(&self) -> (Vec<TraceEvent>, Vec<ThreadStats>, bool) {
        let mut done = std::mem::take(&mut *self.done.lock().unwrap_or_else(|p| p.into_inner()));
        let mut events = Vec::with_capacity(done.iter().map(|d| d.0.len()).sum());
        let mut stats = Vec::with_capacity(done.len());
        for (ev, st) in done.drain(..) {
            events.extend(ev);
            stats.push(st);
        }
        events.sort_unstable_by_key(|e| e.seq);
        stats.sort_by_key(|s| s.thread);
        (events, stats, self.truncated.load(Ordering::Relaxed))
    }
}

/// One thread's recorder. Dropping it hands its buffer and stats to the hub.
pub struct Recorder<'h> {
    hub: &'h TraceHub,
    pub thread: ThreadRef,
    events: Vec<TraceEvent>,
    reserved: usize,
    pub stats: ThreadStats,
    enabled: bool,
}

impl Recorder<'_> {
    /// Is event recording on? Check before building costly events.
    #[inline]
    pub fn tracing(&self) -> bool {
        self.enabled
    }
    /// Record an event stamped now.
    #[inline]
    pub fn record(&mut self, kind: EventKind) {
        if !self.enabled {
            return;
        }
        let t_ns = self.hub.now();
        self.record_at(kind, t_ns);
    }
    /// Record an event with a timestamp the caller already took.
    pub fn record_at(&mut self, kind: EventKind, t_ns: u64) {
        if !self.enabled {
            return;
        }
        if self.reserved == 0 {
            self.reserved = self.hub.reserve();
            if self.reserved == 0 {
                self.enabled = false;
                return;
            }
        }
        self.reserved -= 1;
        let seq = self.hub.seq.next();
        self.events.push(TraceEvent {
            seq,
            t_ns,
            thread: self.thread,
            kind,
        });
    }
    /// Nanoseconds since the run's origin.
    #[inline]
    pub fn now(&self) -> u64 {
        self.hub.now()
    }
    #[inline]
    pub fn count(&mut self, c: Counter, n: u64) {
        self.stats.counters[c as usize] += n;
    }
    /// Account a wait that started at `start_ns` and record its end event.
    pub fn wait_done(&mut self, reason: WaitReason, req: RequestId, start_ns: u64, spins: u32) {
        let now = self.now();
        let dt = now.saturating_sub(start_ns);
        if reason == WaitReason::EmptyQueue {
            self.stats.idle_ns += dt;
        } else {
            self.stats.wait_ns += dt;
        }
        self.record_at(WaitEnd { reason, req, spins }, now);
    }
    /// Start a wait: record its event and return its start time.
    pub fn wait_begin(&mut self, reason: WaitReason, req: RequestId) -> u64 {
        let now = self.now();
        self.record_at(EventKind::WaitStart { reason, req }, now);
        now
    }
}

use EventKind::WaitEnd;

impl Drop for Recorder<'_> {
    fn drop(&mut self) {
        let events = std::mem::take(&mut self.events);
        let stats = std::mem::take(&mut self.stats);
        self.hub
            .done
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push((events, stats));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budget_bounds_recorded_events_and_flags_truncation() {
        let hub = TraceHub::new(TraceConfig {
            enabled: true,
            max_events: 10,
        });
        {
            let mut r = hub.recorder(0);
            for i in 0..25 {
                r.record(EventKind::Dequeued { req: i });
            }
        }
        let (events, stats, truncated) = hub.finish();
        assert_eq!(events.len(), 10);
        assert!(truncated);
        assert_eq!(stats.len(), 1);
    }

    #[test]
    fn merged_events_are_in_seq_order_across_threads() {
        let hub = TraceHub::new(TraceConfig::on());
        std::thread::scope(|s| {
            for t in 0..3u16 {
                let hub = &hub;
                s.spawn(move || {
                    let mut r = hub.recorder(t);
                    for i in 0..100 {
                        r.record(EventKind::Dequeued { req: i });
                    }
                });
            }
        });
        let (events, _, truncated) = hub.finish();
        assert!(!truncated);
        assert_eq!(events.len(), 300);
        assert!(events.windows(2).all(|w| w[0].seq < w[1].seq));
    }

    #[test]
    fn disabled_trace_records_nothing() {
        let hub = TraceHub::new(TraceConfig::OFF);
        {
            let mut r = hub.recorder(0);
            r.record(EventKind::Dequeued { req: 1 });
        }
        assert!(hub.finish().0.is_empty());
    }
}
