//! The run context handed to a scheduler, and the single path through which
//! every request is admitted and executed.
//!
//! A request enters a run by *admission*: a delivery
//! ([`Deliverer::next`], for every stream kind) or, for event streams, a
//! registration by the handler of its parent ([`RunContext::register`]).
//! It runs through [`RunContext::execute`], which returns the children an
//! event registers. Both fill the [`ExecLog`], which is always on (also
//! when tracing is off): the oracle and the metrics read it after the run.
//!
//! ## How the log sees order without a global clock
//! Every dense cell of the stream has a *version* ([`CellVersions`]). A
//! request that writes a cell adds 1 to its version just before the
//! application runs and 1 again just after, so the version is odd exactly
//! while a writer runs; a request that reads a cell loads its version
//! before and after. In the canonical execution a request sees, for each of
//! its cells, twice the number of canonically earlier writes of that cell
//! (precomputed: `Stream::expected`). A run in which conflicting requests
//! never overlap and keep the canonical order shows exactly those versions;
//! a reversal or an overlap shows another value, which `execute` notes in
//! the request's slot. Only the cells a request touches are touched: no
//! counter shared by all requests is bumped per execution.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

use crossbeam_utils::CachePadded;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::app::Application;
use crate::cancel::CancelToken;
use crate::cell::WRITE_BIT;
use crate::class::ClassTable;
use crate::clock;
use crate::request::{Request, RequestId, NO_REQUEST};
use crate::stream::{Stream, StreamKind};
use crate::threads::ThreadHost;
use crate::trace::{EventKind, Recorder, ThreadRef, TraceHub, SCHEDULER};
use crate::virt::{self, CostTable};

/// Regions of the cache model holding cells (apart from the application's
/// own data regions, which count from 0).
const CELL_REGION: u64 = 1 << 63;

/// Per-request record of one run, one cache line each so that workers
/// writing neighbouring requests do not share a line.
///
/// Each field is written by one thread during the run (the admitting thread
/// or the executor; `count` and `admissions` by whoever does it, with an
/// atomic add so duplicates are counted) and read only after the run's
/// threads were joined, so `Relaxed` suffices: the join orders every store
/// before the reader.
#[derive(Debug, Default)]
#[repr(align(64))]
pub struct ExecSlot {
    /// When the request was admitted (delivered or registered).
    pub admitted_ns: AtomicU64,
    pub start_ns: AtomicU64,
    pub end_ns: AtomicU64,
    pub response: AtomicU64,
    /// Event streams: the request's place in its color's registration order.
    pub stamp: AtomicU32,
    /// Event streams: the color's version when the event started.
    pub version: AtomicU32,
    /// First footprint entry whose version was not the expected one, plus 1
    /// (0: none), with the version seen and when (0 start, 1 end).
    pub bad_entry: AtomicU32,
    pub bad_seen: AtomicU32,
    pub bad_phase: AtomicU32,
    /// Times the request was executed (must end as 1 or 0).
    pub count: AtomicU32,
    /// Times it was admitted (must end as 1 or 0).
    pub admissions: AtomicU32,
    /// Worker that executed it.
    pub thread: AtomicU32,
}

/// One version per dense cell (see the module comment), and for event
/// streams a registration counter per cell. Cells are few for shard spaces
/// and can be many for keys: each version gets its own cache line while
/// there are at most [`CellVersions::PADDED_CELLS`] cells, and is packed
/// otherwise (then writers of neighbouring keys may share a line; the
/// store's own state is touched anyway).
#[derive(Debug)]
pub struct CellVersions {
    stride: usize,
    versions: Vec<AtomicU32>,
    stamps: Vec<AtomicU32>,
}

impl CellVersions {
    pub const PADDED_CELLS: usize = 1 << 14;

    pub fn new(cells: usize, events: bool) -> Self {
        let stride = if cells <= Self::PADDED_CELLS { 16 } else { 1 };
        CellVersions {
            stride,
            versions: (0..cells * stride).map(|_| AtomicU32::new(0)).collect(),
            stamps: if events {
                (0..cells * stride).map(|_| AtomicU32::new(0)).collect()
            } else {
                Vec::new()
            },
        }
    }

    #[inline]
    fn version(&self, cell: u32) -> &AtomicU32 {
        &self.versions[cell as usize * self.stride]
    }

    /// Enter (`phase` 0) or leave (1) a footprint: bump written cells, load
    /// read ones, and return the first entry whose version differs from
    /// `expect + phase` for writes (`expect` for reads), with what was seen.
    ///
    /// `Relaxed` is enough: in a correct run the scheduler's own
    /// synchronization orders a writer's leave before every later conflicting
    /// enter, so by coherence the later request sees that value or none
    /// newer; the versions carry no other data.
    #[inline]
    fn cross(&self, entries: &[u32], expect: &[u32], phase: u32) -> Option<(u32, u32)> {
        let mut bad = None;
        for (i, (&e, &x)) in entries.iter().zip(expect).enumerate() {
            let cell = e & !WRITE_BIT;
            let (seen, want) = if e & WRITE_BIT != 0 {
                (
                    self.version(cell).fetch_add(1, Ordering::Relaxed),
                    x + phase,
                )
            } else {
                (self.version(cell).load(Ordering::Relaxed), x)
            };
            if seen != want && bad.is_none() {
                bad = Some((i as u32, seen));
            }
        }
        bad
    }
}

/// The execution log of a run, indexed by request id.
#[derive(Debug)]
pub struct ExecLog {
    slots: Vec<ExecSlot>,
    pub cells: CellVersions,
}

impl ExecLog {
    pub fn new(stream: &Stream) -> Self {
        ExecLog {
            slots: (0..stream.len()).map(|_| ExecSlot::default()).collect(),
            cells: CellVersions::new(stream.dense.cells(), stream.kind() == StreamKind::Events),
        }
    }
    pub fn slot(&self, req: RequestId) -> &ExecSlot {
        &self.slots[req as usize]
    }
    pub fn len(&self) -> usize {
        self.slots.len()
    }
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }
}

/// What a thread is doing, as the live view samples it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
#[repr(u32)]
pub enum LiveState {
    Idle = 0,
    Executing = 1,
    Waiting = 2,
    Stealing = 3,
}

/// One thread's live counters, on its own cache line.
#[derive(Debug, Default)]
struct LiveThread {
    executed: AtomicU64,
    state: AtomicU32,
    queue_len: AtomicU32,
}

/// A thread's live numbers, as sampled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct LiveSample {
    pub executed: u64,
    pub queue_len: u32,
    pub state: LiveState,
}

/// Live progress of a run, read by a poller while the run goes on. One
/// cache-padded record per thread keeps workers from contending; all
/// accesses are `Relaxed` because they are display values, and the
/// closed-loop deliverer only needs the sum to grow eventually.
#[derive(Debug)]
pub struct Progress {
    threads: Vec<CachePadded<LiveThread>>,
    delivered: CachePadded<AtomicU64>,
}

impl Progress {
    /// Records for `threads` threads (the workers, then the scheduler's).
    pub fn new(threads: usize) -> Self {
        Progress {
            threads: (0..threads.max(1))
                .map(|_| CachePadded::new(LiveThread::default()))
                .collect(),
            delivered: CachePadded::new(AtomicU64::new(0)),
        }
    }
    fn of(&self, thread: ThreadRef) -> &LiveThread {
        let i = (thread as usize).min(self.threads.len() - 1);
        &self.threads[i]
    }
    /// Requests executed so far, by every thread.
    pub fn executed(&self) -> u64 {
        self.threads
            .iter()
            .map(|t| t.executed.load(Ordering::Relaxed))
            .sum()
    }
    /// Delivery units made so far.
    pub fn delivered(&self) -> u64 {
        self.delivered.load(Ordering::Relaxed)
    }
    pub fn set_state(&self, thread: ThreadRef, s: LiveState) {
        self.of(thread).state.store(s as u32, Ordering::Relaxed);
    }
    pub fn set_queue_len(&self, thread: ThreadRef, len: usize) {
        self.of(thread)
            .queue_len
            .store(len.min(u32::MAX as usize) as u32, Ordering::Relaxed);
    }
    /// The first `workers` threads' numbers.
    pub fn sample(&self, workers: usize) -> Vec<LiveSample> {
        self.threads
            .iter()
            .take(workers)
            .map(|t| LiveSample {
                executed: t.executed.load(Ordering::Relaxed),
                queue_len: t.queue_len.load(Ordering::Relaxed),
                state: match t.state.load(Ordering::Relaxed) {
                    1 => LiveState::Executing,
                    2 => LiveState::Waiting,
                    3 => LiveState::Stealing,
                    _ => LiveState::Idle,
                },
            })
            .collect()
    }
    fn bump(&self, thread: ThreadRef) {
        let t = self.of(thread);
        t.executed.fetch_add(1, Ordering::Relaxed);
    }
}

/// A sampled queue length.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct QueueSample {
    pub t_ns: u64,
    pub thread: ThreadRef,
    pub len: u32,
}

/// What a scheduler reports besides the log and the recorders.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RunOutput {
    /// Delivery units the scheduler made (all, unless cancelled).
    pub delivered: u32,
    /// Time the delivering thread spent scheduling (not waiting for queue
    /// room, clients or pauses), for the "scheduler cost per request" metric.
    pub scheduler_busy_ns: u64,
    /// Queue lengths the scheduler sampled (bounded, see
    /// [`RunOutput::MAX_QUEUE_SAMPLES`]).
    pub queue_samples: Vec<QueueSample>,
    /// Scheduler-specific numbers, by name.
    pub extra: Vec<(String, f64)>,
}

impl RunOutput {
    pub const MAX_QUEUE_SAMPLES: usize = 20_000;
    /// Record a queue sample if under the bound (also the live value).
    pub fn sample_queue(
        &mut self,
        rec: &mut Recorder<'_>,
        progress: &Progress,
        thread: ThreadRef,
        len: usize,
    ) {
        progress.set_queue_len(thread, len);
        if self.queue_samples.len() < Self::MAX_QUEUE_SAMPLES {
            let t_ns = rec.now();
            self.queue_samples.push(QueueSample {
                t_ns,
                thread,
                len: len as u32,
            });
            rec.record_at(
                EventKind::QueueLen {
                    of: thread,
                    len: len as u32,
                },
                t_ns,
            );
        }
    }
}

/// How requests reach the replica: the clients' model.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "model", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Delivery {
    /// Open loop at saturation: each request is delivered as soon as the
    /// scheduler can take it (bounded queues push back).
    #[default]
    Saturate,
    /// Open loop at a fixed rate (delivery units per second).
    Rate {
        /// Deliveries per second.
        per_s: f64,
    },
    /// Closed loop, as the papers' clients: each of `clients` clients sends
    /// a request and waits for its reply before sending the next. Delivery
    /// `d + 1` waits until everything that could run after the first
    /// `d + 1 - clients` deliveries has executed.
    Closed {
        /// Number of clients (default: 4 per worker thread).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        clients: Option<u32>,
    },
}

impl Delivery {
    /// Closed-loop clients when none are given: enough to keep a short
    /// queue at every worker without filling it.
    pub fn default_clients(workers: usize) -> u32 {
        (4 * workers.max(1)) as u32
    }
    /// The model with its defaults resolved for `workers` workers.
    pub fn resolved(self, workers: usize) -> Delivery {
        match self {
            Delivery::Closed { clients: None } => Delivery::Closed {
                clients: Some(Self::default_clients(workers)),
            },
            other => other,
        }
    }
}

/// Everything a scheduler needs for one run.
pub struct RunContext<'a> {
    pub stream: &'a Stream,
    /// `stream.requests`, for convenience; `requests[i].id == i`.
    pub requests: &'a [Request],
    pub classes: &'a ClassTable,
    pub app: &'a dyn Application,
    /// Worker threads to use (the delivering thread is extra).
    pub threads: usize,
    pub host: &'a ThreadHost,
    pub cancel: &'a CancelToken,
    pub log: &'a ExecLog,
    pub trace: &'a TraceHub,
    pub progress: &'a Progress,
    /// Extra busy-spin per executed request, to slow a classroom run down
    /// to watching speed (0 = none).
    pub pace_ns: u64,
    /// Per-worker pace replacing `pace_ns` for the workers it lists (index =
    /// worker id): slows one thread down in a classroom what-if.
    pub thread_pace_ns: &'a [u64],
    /// The clients' model, defaults resolved.
    pub delivery: Delivery,
}

impl<'a> RunContext<'a> {
    /// A recorder for `thread` (worker index, [`SCHEDULER`] or an
    /// auxiliary role's id).
    pub fn recorder(&self, thread: ThreadRef) -> Recorder<'a> {
        self.trace.recorder(thread)
    }

    /// The delivering thread's source of delivery units.
    pub fn deliverer(&self) -> Deliverer<'_, 'a> {
        Deliverer {
            ctx: self,
            next: 0,
            start_ns: self.trace.now(),
            waited_ns: 0,
        }
    }

    /// Execute `req` on the calling thread: the only place where the
    /// application runs. Logs times, response, versions seen and counts;
    /// returns the children the request registers (event streams; empty
    /// otherwise), which the scheduler must pass to [`RunContext::register`].
    pub fn execute(&self, rec: &mut Recorder<'_>, req: &Request) -> &'a [RequestId] {
        let id = req.id;
        let slot = self.log.slot(id);
        let entries = self.stream.dense.of(id);
        let events = self.stream.kind() == StreamKind::Events;
        let start_ns = rec.now();
        rec.record_at(EventKind::ExecStart { req: id }, start_ns);
        let entered = if events {
            self.enter_color(slot, entries)
        } else {
            self.log.cells.cross(entries, self.stream.expected(id), 0)
        };
        let pace = self
            .thread_pace_ns
            .get(rec.thread as usize)
            .copied()
            .unwrap_or(self.pace_ns);
        // Virtual cores: the execution takes its modelled time here, inside
        // the footprint, so a request a broken scheduler overlaps with this
        // one runs between the two crossings and the versions show it.
        virt::with_current(|h| {
            self.move_lines(h, req, entries);
            h.work(self.modelled_ns(h.costs(), req, pace));
        });
        let response = self.app.execute(&req.op);
        if pace > 0 {
            clock::spin_for(pace);
        }
        let left = if events {
            self.leave_color(slot, entries)
        } else {
            self.log.cells.cross(entries, self.stream.expected(id), 1)
        };
        if let Some((i, seen, phase)) = entered
            .map(|(i, s)| (i, s, 0))
            .or(left.map(|(i, s)| (i, s, 1)))
        {
            slot.bad_entry.store(i + 1, Ordering::Relaxed);
            slot.bad_seen.store(seen, Ordering::Relaxed);
            slot.bad_phase.store(phase, Ordering::Relaxed);
        }
        let end_ns = rec.now();
        slot.start_ns.store(start_ns, Ordering::Relaxed);
        slot.end_ns.store(end_ns, Ordering::Relaxed);
        slot.response.store(response, Ordering::Relaxed);
        slot.thread.store(rec.thread as u32, Ordering::Relaxed);
        slot.count.fetch_add(1, Ordering::Relaxed);
        rec.record_at(EventKind::ExecEnd { req: id }, end_ns);
        rec.stats().executed += 1;
        rec.stats().exec_ns += end_ns.saturating_sub(start_ns);
        self.progress.bump(rec.thread);
        self.stream.children(id)
    }

    /// The virtual time executing `req` takes: a fixed part, the
    /// application's work units, its synthetic spin and the pace.
    fn modelled_ns(&self, costs: &CostTable, req: &Request, pace: u64) -> u64 {
        let work = self.app.work(&req.op);
        costs.execute_base + costs.work_ns(work.units) + work.spin_ns + pace
    }

    /// The cache model's part of executing `req` (virtual cores): each cell
    /// of its footprint is one line the request reads or writes, and the
    /// application's data lines (an event's data set) come on top; lines
    /// another cache domain holds cost a transfer each
    /// (docs/protocols/virtual-cores.md, "Cache domains").
    fn move_lines(&self, h: virt::Here<'_>, req: &Request, entries: &[u32]) {
        for &e in entries {
            let cell = u64::from(e & !WRITE_BIT) | CELL_REGION;
            h.conductor.touch_data(h.me, cell, 0, 1, e & WRITE_BIT != 0);
        }
        if let Some(d) = self.app.data_lines(&req.op) {
            h.conductor
                .touch_data(h.me, d.region, d.first, d.count, d.write);
        }
    }

    /// An event writes its color: bump it and keep what was seen (its
    /// place in the color's execution order).
    fn enter_color(&self, slot: &ExecSlot, entries: &[u32]) -> Option<(u32, u32)> {
        let cell = entries[0] & !WRITE_BIT;
        let seen = self.log.cells.version(cell).fetch_add(1, Ordering::Relaxed);
        slot.version.store(seen, Ordering::Relaxed);
        (!seen.is_multiple_of(2)).then_some((0, seen))
    }

    fn leave_color(&self, slot: &ExecSlot, entries: &[u32]) -> Option<(u32, u32)> {
        let cell = entries[0] & !WRITE_BIT;
        let seen = self.log.cells.version(cell).fetch_add(1, Ordering::Relaxed);
        (seen != slot.version.load(Ordering::Relaxed) + 1).then_some((0, seen))
    }

    /// Admit event `child` (registered by `parent`, or a delivered root
    /// when `parent` is [`NO_REQUEST`]) into its color's order. Call it
    /// where the runtime's queue fixes the event's place (under the queue's
    /// lock): the oracle checks that each color runs in this order. `core`
    /// is the core whose queue received it (0 for a one-queue runtime),
    /// recorded with the event's color for the views.
    pub fn register(
        &self,
        rec: &mut Recorder<'_>,
        parent: RequestId,
        child: RequestId,
        core: usize,
    ) {
        let slot = self.log.slot(child);
        let cell = self.stream.dense.of(child)[0] & !WRITE_BIT;
        let stride = self.log.cells.stride;
        // Relaxed: the stamp only needs to be unique and ordered like the
        // queue insertions, which the caller's lock already orders.
        let stamp = self.log.cells.stamps[cell as usize * stride].fetch_add(1, Ordering::Relaxed);
        slot.stamp.store(stamp, Ordering::Relaxed);
        slot.admissions.fetch_add(1, Ordering::Relaxed);
        let now = rec.now();
        if parent != NO_REQUEST {
            slot.admitted_ns.store(now, Ordering::Relaxed);
        }
        if rec.tracing() {
            // Cores are at most `MAX_WORKERS` (64); colors saturate to the
            // trace's 32-bit field.
            let color = self.stream.color(child).min(u32::MAX as u64) as u32;
            let core = core.min(u8::MAX as usize) as u8;
            rec.record_at(
                EventKind::Registered {
                    parent,
                    child,
                    color,
                    core,
                },
                now,
            );
        }
    }
}

/// The delivering thread's view of the delivery model: [`Deliverer::next`]
/// waits as the model says (pause, clients, rate), then admits the next
/// delivery unit.
pub struct Deliverer<'c, 'a> {
    ctx: &'c RunContext<'a>,
    next: u32,
    start_ns: u64,
    waited_ns: u64,
}

impl Deliverer<'_, '_> {
    /// The next delivery unit (a request, an instance or a root event),
    /// admitted now; `None` when the stream is done or the run cancelled.
    pub fn next(&mut self, rec: &mut Recorder<'_>) -> Option<u32> {
        let ctx = self.ctx;
        if self.next as usize >= ctx.stream.deliveries() || !ctx.cancel.allows(self.next as u64) {
            return None;
        }
        // Open loop at saturation with no pause never waits: skip the two
        // clock readings of the wait (a JS call each in the browser).
        let may_wait = ctx.cancel.is_paused() || ctx.delivery != Delivery::Saturate;
        if may_wait {
            let t0 = rec.now();
            let go = ctx.cancel.wait_while_paused() && self.wait_for_clients();
            self.waited_ns += rec.now().saturating_sub(t0);
            if !go {
                return None;
            }
        } else if ctx.cancel.is_cancelled() {
            return None;
        }
        let d = self.next;
        self.next += 1;
        // Virtual cores: the deliverer's own work for this unit (local
        // work, no point; nothing when the table charges 0).
        virt::with_current(|h| {
            let ns = h.costs().deliver;
            if ns > 0 {
                h.advance(ns);
            }
        });
        let now = rec.admission_now();
        let events = ctx.stream.kind() == StreamKind::Events;
        for r in ctx.stream.delivery(d) {
            let slot = ctx.log.slot(r);
            slot.admitted_ns.store(now, Ordering::Relaxed);
            if !events {
                slot.admissions.fetch_add(1, Ordering::Relaxed);
            }
            rec.record_at(
                EventKind::Delivered {
                    req: r,
                    class: ctx.requests[r as usize].class,
                },
                now,
            );
        }
        ctx.progress.delivered.fetch_add(1, Ordering::Relaxed);
        Some(d)
    }

    /// Delivery units made so far.
    pub fn delivered(&self) -> u32 {
        self.next
    }

    /// Time spent waiting for the model (clients, rate, pause), to leave
    /// out of the scheduler's busy time.
    pub fn waited_ns(&self) -> u64 {
        self.waited_ns
    }

    /// The delivering thread's busy time between `start_ns` and `now`
    /// (both from its recorder's clock): the span less `blocked_ns`, the
    /// time it spent blocked on full queues, and less the time the
    /// delivery model made it wait ([`Deliverer::waited_ns`]). Every
    /// scheduler reports this as `RunOutput::scheduler_busy_ns`.
    pub fn busy_ns(&self, start_ns: u64, now: u64, blocked_ns: u64) -> u64 {
        now.saturating_sub(start_ns)
            .saturating_sub(blocked_ns)
            .saturating_sub(self.waited_ns)
    }

    /// Wait until the model lets delivery `self.next` go; `false` if the
    /// run was cancelled meanwhile.
    fn wait_for_clients(&self) -> bool {
        let ctx = self.ctx;
        match ctx.delivery {
            Delivery::Saturate => true,
            Delivery::Closed { clients } => {
                let c = clients.unwrap_or(1).max(1) as usize;
                let d = self.next as usize;
                if d < c {
                    return true;
                }
                let need = ctx.stream.runnable(d + 1 - c) as u64;
                wait_until_polled(ctx.cancel, || ctx.progress.executed() >= need)
            }
            Delivery::Rate { per_s } => {
                let due = self.start_ns + (self.next as f64 * 1e9 / per_s.max(1e-9)) as u64;
                // Virtual cores: sleep until due (nothing else ends it).
                virt::with_current(|h| h.sleep(due.saturating_sub(h.now())));
                wait_until(ctx.cancel, || ctx.trace.now() >= due)
            }
        }
    }
}

/// Wait for `ready`, spinning briefly, then yielding, then sleeping 20 µs
/// between checks; `false` if the run is cancelled first.
fn wait_until(cancel: &CancelToken, mut ready: impl FnMut() -> bool) -> bool {
    let mut tries = 0u32;
    loop {
        if ready() {
            return true;
        }
        if cancel.is_cancelled() {
            return false;
        }
        if virt::with_current(|h| h.spin(h.costs().spin)).is_some() {
            continue;
        }
        tries = tries.saturating_add(1);
        if tries < 64 {
            std::hint::spin_loop();
        } else if tries < 128 {
            std::thread::yield_now();
        } else {
            std::thread::sleep(std::time::Duration::from_micros(20));
        }
    }
}

/// [`wait_until`] for a `ready` that only reads atomics: on virtual cores
/// the conductor makes the wait's spins without waking this thread while
/// neither `ready` nor the cancellation holds (`Conductor::poll`: the same
/// evaluations at the same turns, so the same schedule and trace).
fn wait_until_polled(cancel: &CancelToken, ready: impl Fn() -> bool + Sync) -> bool {
    let stop = || ready() || cancel.is_cancelled();
    let left_to_conductor = || {
        virt::with_current(|h| {
            if stop() {
                return false;
            }
            h.poll(h.costs().spin, u32::MAX, &stop);
            true
        })
    };
    while left_to_conductor() == Some(true) {}
    wait_until(cancel, ready)
}

/// The thread id the delivering thread records under.
pub const DELIVERER: ThreadRef = SCHEDULER;
