//! Recording a run: one [`Recorder`] per thread, one [`TraceHub`] per run.
//!
//! Each thread records into its own [`Recorder`] (no sharing on the hot
//! path); events carry a global sequence number taken from one atomic
//! counter, so merging the per-thread buffers and sorting by `seq` gives an
//! order consistent with happens-before (see [`SeqClock`]). With tracing off
//! nothing is recorded and the counter is never touched; the execution log
//! the oracle needs is kept separately ([`crate::exec::ExecLog`]).
//!
//! ## Bounds and windows
//! A run keeps at most [`TraceConfig::max_events`] events: half for the
//! *head* (the first events, shared budget), a tenth for *structural*
//! events past the head, and the rest split between the lanes as rings that
//! keep each lane's latest events (the *tail*). When a ring wraps, the
//! trace is cut: [`TraceHub::finish`] keeps the complete prefix, the
//! structural events of the gap and the complete suffix, and says so in a
//! [`TraceWindow`].

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;

use crossbeam_utils::CachePadded;
use serde::{Deserialize, Serialize};

use super::vocabulary::{EventKind, ThreadRef, TraceEvent, WaitReason};
use crate::clock;
use crate::request::RequestId;

/// The global sequence counter of a run (touched only when tracing).
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
    /// Upper bound of kept events in the whole run.
    pub max_events: usize,
}

impl TraceConfig {
    pub const OFF: TraceConfig = TraceConfig {
        enabled: false,
        max_events: 0,
    };
    /// Default bound: 2 million events (48 MB packed).
    pub const DEFAULT_MAX_EVENTS: usize = 2_000_000;
    pub fn on() -> Self {
        TraceConfig {
            enabled: true,
            max_events: Self::DEFAULT_MAX_EVENTS,
        }
    }
}

/// Where a cut trace was cut. Kept events are, in seq order: `head_events`
/// complete ones (every event of the run up to the cut), `gap_events`
/// structural ones from the gap, then `tail_events` complete ones (every
/// event from `gap_to_ns` to the end).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
pub struct TraceWindow {
    pub cut: bool,
    pub head_events: u64,
    pub gap_events: u64,
    pub tail_events: u64,
    /// Events recorded and then dropped.
    pub dropped_events: u64,
    /// Run time of the last event before the gap and the first after it.
    pub gap_from_ns: u64,
    pub gap_to_ns: u64,
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
    /// Times the late scheduler found its dependency graph full and waited
    /// for a removal (paper 003's bounded graph).
    FullGraphWaits,
}

impl Counter {
    pub const ALL: [Counter; 12] = [
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
        Counter::FullGraphWaits,
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
            Counter::FullGraphWaits => "full_graph_waits",
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

/// What one recorder hands back when it is dropped.
#[derive(Debug, Default)]
struct Finished {
    head: Vec<TraceEvent>,
    /// Seq of the first event that did not go to the head (`u64::MAX`: all did).
    head_until: u64,
    ring: Vec<TraceEvent>,
    wrapped: bool,
    structural: Vec<TraceEvent>,
    recorded: u64,
    stats: ThreadStats,
}

/// Shared state of a run's trace: the seq clock, the run's time origin, the
/// budgets and the buffers of threads that finished. The seq clock sits on
/// its own cache line, away from the origin every timestamp reads.
#[derive(Debug)]
pub struct TraceHub {
    seq: CachePadded<SeqClock>,
    pub origin_ns: u64,
    config: TraceConfig,
    /// Head events still allowed; taken in chunks by recorders.
    head_budget: CachePadded<AtomicUsize>,
    /// Structural events still allowed past the head.
    structural_budget: AtomicUsize,
    /// Ring capacity of one lane's tail.
    tail_per_lane: usize,
    any_tail: AtomicBool,
    done: Mutex<Vec<Finished>>,
}

/// Recorders reserve head budget in chunks of this many events, so the
/// shared budget is touched once per chunk, not once per event.
const BUDGET_CHUNK: usize = 1024;

impl TraceHub {
    /// A hub for a run with `lanes` recording threads.
    pub fn new(config: TraceConfig, lanes: usize) -> Self {
        let total = if config.enabled { config.max_events } else { 0 };
        let head = total / 2;
        let structural = total / 10;
        let tails = total - head - structural;
        TraceHub {
            seq: CachePadded::new(SeqClock::default()),
            origin_ns: clock::now_ns(),
            config,
            head_budget: CachePadded::new(AtomicUsize::new(head)),
            structural_budget: AtomicUsize::new(structural),
            tail_per_lane: tails / lanes.max(1),
            any_tail: AtomicBool::new(false),
            done: Mutex::new(Vec::new()),
        }
    }
    pub fn config(&self) -> TraceConfig {
        self.config
    }
    /// Nanoseconds since the run's origin; on virtual cores, the calling
    /// thread's virtual clock (which starts at 0 with the run).
    #[inline]
    pub fn now(&self) -> u64 {
        if let Some(t) = crate::virt::now() {
            return t;
        }
        clock::now_ns().saturating_sub(self.origin_ns)
    }
    pub fn seq(&self) -> &SeqClock {
        &self.seq
    }
    pub fn recorder(&self, thread: ThreadRef) -> Recorder<'_> {
        Recorder {
            hub: self,
            thread,
            enabled: self.config.enabled,
            reserved: 0,
            out: Finished {
                head_until: u64::MAX,
                stats: ThreadStats {
                    thread,
                    ..Default::default()
                },
                ..Default::default()
            },
            tail_mode: false,
            ring_at: 0,
            stamp: std::cell::Cell::new(StampShare::new(ADMISSION_STAMP_SHARE)),
        }
    }
    fn reserve(&self) -> usize {
        // Relaxed: the budget only bounds memory; which lane gets the last
        // chunk does not matter.
        let mut cur = self.head_budget.load(Ordering::Relaxed);
        loop {
            if cur == 0 {
                return 0;
            }
            let take = cur.min(BUDGET_CHUNK);
            match self.head_budget.compare_exchange_weak(
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
    fn take_structural(&self) -> bool {
        self.structural_budget
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_sub(1))
            .is_ok()
    }

    /// Merge every finished recorder's events in seq order, cutting where a
    /// lane's ring lost events (see the module comment). Call after all
    /// recorders were dropped (the scope join orders their pushes before it).
    pub fn finish(&self) -> (Vec<TraceEvent>, Vec<ThreadStats>, TraceWindow) {
        let done = std::mem::take(&mut *self.done.lock().unwrap_or_else(|p| p.into_inner()));
        let head_cut = done.iter().map(|d| d.head_until).min().unwrap_or(u64::MAX);
        let tail_from = done
            .iter()
            .filter(|d| d.wrapped)
            .filter_map(|d| d.ring.iter().map(|e| e.seq).min())
            .max()
            .unwrap_or(head_cut)
            .max(head_cut);
        let recorded: u64 = done.iter().map(|d| d.recorded).sum();
        let mut head = Vec::new();
        let mut gap = Vec::new();
        let mut tail = Vec::new();
        let mut stats = Vec::with_capacity(done.len());
        for d in done {
            for e in d.head.into_iter().chain(d.ring) {
                if e.seq < head_cut {
                    head.push(e);
                } else if e.seq >= tail_from {
                    tail.push(e);
                } else if e.kind.is_structural() {
                    gap.push(e);
                }
            }
            gap.extend(
                d.structural
                    .into_iter()
                    .filter(|e| e.seq >= head_cut && e.seq < tail_from),
            );
            stats.push(d.stats);
        }
        for v in [&mut head, &mut gap, &mut tail] {
            v.sort_unstable_by_key(|e| e.seq);
        }
        // A structural event can be both in a ring and in the structural list.
        gap.dedup_by_key(|e| e.seq);
        stats.sort_by_key(|s| s.thread);
        let cut = tail_from > head_cut;
        let kept = (head.len() + gap.len() + tail.len()) as u64;
        let window = TraceWindow {
            cut,
            head_events: head.len() as u64,
            gap_events: gap.len() as u64,
            tail_events: tail.len() as u64,
            dropped_events: recorded.saturating_sub(kept),
            gap_from_ns: if cut {
                head.last().map_or(0, |e| e.t_ns)
            } else {
                0
            },
            gap_to_ns: if cut {
                tail.first().map_or(0, |e| e.t_ns)
            } else {
                0
            },
        };
        let mut events = head;
        events.append(&mut gap);
        events.append(&mut tail);
        (events, stats, window)
    }
}

/// One thread's recorder. Dropping it hands its buffers and stats to the hub.
pub struct Recorder<'h> {
    hub: &'h TraceHub,
    pub thread: ThreadRef,
    enabled: bool,
    reserved: usize,
    out: Finished,
    tail_mode: bool,
    ring_at: usize,
    /// In a `Cell` so that `now` keeps taking `&self`; a recorder belongs
    /// to one thread.
    stamp: std::cell::Cell<StampShare>,
}

/// How many admissions in a row may share one clock reading when a run is
/// not traced: 16 in the browser, 1 (every admission reads the clock)
/// natively. See [`Recorder::admission_now`].
#[cfg(target_arch = "wasm32")]
pub const ADMISSION_STAMP_SHARE: u32 = 16;
#[cfg(not(target_arch = "wasm32"))]
pub const ADMISSION_STAMP_SHARE: u32 = 1;

/// The last clock reading of one thread and how many admissions have
/// reused it. Invariant: `uses < share` means `last_ns` is a reading this
/// thread took, after which it has not waited (every wait reads the clock
/// through [`Recorder::now`], which resets `uses`).
#[derive(Clone, Copy, Debug)]
struct StampShare {
    last_ns: u64,
    uses: u32,
    share: u32,
}

impl StampShare {
    fn new(share: u32) -> Self {
        // `uses == share`: no reading yet, the first admission reads.
        StampShare {
            last_ns: 0,
            uses: share,
            share,
        }
    }
    /// A fresh reading `t`: later admissions may reuse it.
    fn fresh(&mut self, t: u64) -> u64 {
        self.last_ns = t;
        self.uses = 0;
        t
    }
    /// The admission stamp: the last reading while fewer than `share - 1`
    /// admissions have reused it, else a fresh one from `read`.
    fn admit(&mut self, read: impl FnOnce() -> u64) -> u64 {
        if self.uses.saturating_add(1) < self.share {
            self.uses += 1;
            self.last_ns
        } else {
            self.fresh(read())
        }
    }
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
    #[inline]
    pub fn record_at(&mut self, kind: EventKind, t_ns: u64) {
        if !self.enabled {
            return;
        }
        let e = TraceEvent {
            seq: self.hub.seq.next(),
            t_ns,
            thread: self.thread,
            kind,
        };
        self.out.recorded += 1;
        if !self.tail_mode {
            if self.reserved == 0 {
                self.reserved = self.hub.reserve();
            }
            if self.reserved > 0 {
                self.reserved -= 1;
                self.out.head.push(e);
                return;
            }
            self.tail_mode = true;
            self.out.head_until = e.seq;
            self.hub.any_tail.store(true, Ordering::Relaxed);
        }
        self.push_tail(e);
    }

    fn push_tail(&mut self, e: TraceEvent) {
        if e.kind.is_structural() && self.hub.take_structural() {
            self.out.structural.push(e);
        }
        let cap = self.hub.tail_per_lane;
        if cap == 0 {
            self.out.wrapped = true;
            return;
        }
        if self.out.ring.len() < cap {
            self.out.ring.push(e);
        } else {
            self.out.ring[self.ring_at] = e;
            self.ring_at = (self.ring_at + 1) % cap;
            self.out.wrapped = true;
        }
    }

    /// Nanoseconds since the run's origin.
    #[inline]
    pub fn now(&self) -> u64 {
        let t = self.hub.now();
        // Only a shared stamp needs refreshing (compiled out natively).
        if ADMISSION_STAMP_SHARE > 1 {
            let mut st = self.stamp.get();
            st.fresh(t);
            self.stamp.set(st);
        }
        t
    }
    /// The admission time of a request this thread delivers now (latencies
    /// start here). In the browser one clock reading costs about 1 µs (a
    /// call out of wasm into `performance.now()`) and the clock steps in
    /// 5 µs, so in an untraced run up to [`ADMISSION_STAMP_SHARE`]
    /// admissions in a row reuse this thread's last reading: at about
    /// 150 ns per delivery, 16 of them span less than one step of the
    /// clock. Any other reading (the end of a blocked push, a paused or
    /// closed-loop wait) refreshes it, so a wait never leaks into a
    /// stamp. Traced runs read every time: trace timestamps stay monotonic
    /// per thread. Natively the share is 1 (a reading costs ~40 ns).
    #[inline]
    pub fn admission_now(&self) -> u64 {
        if self.enabled {
            return self.now();
        }
        let mut st = self.stamp.get();
        let t = st.admit(|| self.hub.now());
        self.stamp.set(st);
        t
    }
    #[inline]
    pub fn count(&mut self, c: Counter, n: u64) {
        self.out.stats.counters[c as usize] += n;
    }
    pub fn stats(&mut self) -> &mut ThreadStats {
        &mut self.out.stats
    }
    /// Account a wait that started at `start_ns` and record its end event.
    pub fn wait_done(&mut self, reason: WaitReason, req: RequestId, start_ns: u64, spins: u32) {
        let now = self.now();
        let dt = now.saturating_sub(start_ns);
        if reason == WaitReason::EmptyQueue {
            self.out.stats.idle_ns += dt;
        } else {
            self.out.stats.wait_ns += dt;
        }
        self.record_at(EventKind::WaitEnd { reason, req, spins }, now);
    }
    /// Start a wait on `on` (a request, a thread, or
    /// [`NO_REQUEST`](crate::request::NO_REQUEST)): record its event and
    /// return its start time.
    pub fn wait_begin(&mut self, reason: WaitReason, req: RequestId, on: u32) -> u64 {
        let now = self.now();
        self.record_at(EventKind::WaitStart { reason, req, on }, now);
        now
    }
}

impl Drop for Recorder<'_> {
    fn drop(&mut self) {
        let mut out = std::mem::take(&mut self.out);
        // Put the ring in seq order (oldest first) for the merge.
        let at = self.ring_at.min(out.ring.len());
        out.ring.rotate_left(at);
        self.hub
            .done
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_share_of_one_reads_the_clock_at_every_admission() {
        let mut st = StampShare::new(1);
        let mut clock = 0u64;
        for _ in 0..5 {
            clock += 10;
            assert_eq!(st.admit(|| clock), clock);
        }
    }

    #[test]
    fn admissions_reuse_a_reading_share_times_then_read_again() {
        let mut st = StampShare::new(4);
        let mut reads = 0u64;
        let mut read = || {
            reads += 1;
            reads * 100
        };
        // The first admission reads; the next three reuse it; the fifth reads.
        let stamps: Vec<u64> = (0..9).map(|_| st.admit(&mut read)).collect();
        assert_eq!(stamps, [100, 100, 100, 100, 200, 200, 200, 200, 300]);
    }

    #[test]
    fn a_fresh_reading_restarts_the_share() {
        let mut st = StampShare::new(4);
        assert_eq!(st.admit(|| 7), 7);
        assert_eq!(st.admit(|| 99), 7);
        // A wait read the clock: the next admissions reuse that reading.
        st.fresh(50);
        assert_eq!(st.admit(|| 99), 50);
        assert_eq!(st.admit(|| 99), 50);
        assert_eq!(st.admit(|| 99), 50);
        assert_eq!(st.admit(|| 99), 99);
    }

    /// The finished trace of a run whose one thread records `Dequeued` for
    /// requests 0..1000, each followed by `also(i)` if any, into a hub
    /// bounded to 100 events.
    fn thousand_dequeues_kept_in_100(
        also: impl Fn(u32) -> Option<EventKind>,
    ) -> (Vec<TraceEvent>, Vec<ThreadStats>, TraceWindow) {
        let config = TraceConfig {
            enabled: true,
            max_events: 100,
        };
        let hub = TraceHub::new(config, 1);
        {
            let mut r = hub.recorder(0);
            for i in 0..1000 {
                r.record(EventKind::Dequeued { req: i });
                if let Some(e) = also(i) {
                    r.record(e);
                }
            }
        }
        hub.finish()
    }

    #[test]
    fn a_long_run_keeps_a_complete_head_and_tail_and_says_where_it_cut() {
        // The last event, after Dequeued 999, is a map switch.
        let (events, stats, w) = thousand_dequeues_kept_in_100(|i| {
            (i == 999).then_some(EventKind::MapSwitch { epoch: 1, moved: 3 })
        });
        assert!(w.cut);
        assert!(events.len() <= 100);
        assert_eq!(w.head_events, 50);
        let reqs: Vec<u32> = events
            .iter()
            .filter_map(|e| match e.kind {
                EventKind::Dequeued { req } => Some(req),
                _ => None,
            })
            .collect();
        assert_eq!(&reqs[..50], &(0..50).collect::<Vec<_>>()[..], "head");
        assert_eq!(*reqs.last().unwrap(), 999, "the end of the run is kept");
        assert!(matches!(
            events.last().unwrap().kind,
            EventKind::MapSwitch { .. }
        ));
        assert_eq!(w.dropped_events, 1001 - events.len() as u64);
        assert_eq!(stats.len(), 1);
    }

    #[test]
    fn structural_events_of_the_gap_survive() {
        let (events, _, w) = thousand_dequeues_kept_in_100(|i| {
            (i == 500).then_some(EventKind::Steal {
                victim: 1,
                count: 4,
                first: 7,
            })
        });
        assert_eq!(w.gap_events, 1);
        assert!(events
            .iter()
            .any(|e| matches!(e.kind, EventKind::Steal { .. })));
    }

    #[test]
    fn under_the_bound_nothing_is_cut() {
        let hub = TraceHub::new(TraceConfig::on(), 3);
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
        let (events, _, w) = hub.finish();
        assert!(!w.cut);
        assert_eq!(events.len(), 300);
        assert!(events.windows(2).all(|w| w[0].seq < w[1].seq));
    }

    #[test]
    fn disabled_trace_records_nothing_and_never_touches_the_clock() {
        let hub = TraceHub::new(TraceConfig::OFF, 1);
        {
            let mut r = hub.recorder(0);
            r.record(EventKind::Dequeued { req: 1 });
        }
        assert_eq!(hub.seq().peek(), 0);
        assert!(hub.finish().0.is_empty());
    }
}
