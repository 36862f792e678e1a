//! The machinery both event-coloring runtimes share: cores with a lock, a
//! condition variable and a queue; the color table that keeps each color on
//! one core at a time; registration; termination. What differs between
//! Libasync-smp and Mely (how a core's queue is organized, which event runs
//! next, which color a stealer may take) is a [`Discipline`].
//!
//! ## The color rule (paper 002 section II-A)
//! Events of one color run one at a time, in registration order. Both
//! runtimes get this the same way: every color is *owned* by at most one
//! core ([`ColorSlot::owner`]), all its queued events sit in that core's
//! queue in registration order, and a core runs one event at a time. A color
//! with no event queued or running is *free*; the next event registered for
//! it goes where its handler's home says ([`psmr_core::Home`]), which claims
//! the color (compare-and-swap from [`FREE`]).
//!
//! Invariants, for every color `c`:
//! 1. `owner[c]` changes only (a) from [`FREE`] by a compare-and-swap, (b)
//!    to another core by a steal holding the locks of both cores, (c) to
//!    [`FREE`] by the owner's thread, under its lock, when it stops running
//!    `c` and no event of `c` is queued. So a thread holding core `k`'s lock
//!    and seeing `owner[c] == k` knows it stays `k` until it unlocks.
//! 2. `owner[c] == FREE` implies no event of `c` is queued or running.
//! 3. Every queued event of `c` is in `owner[c]`'s queue, in registration
//!    order; a steal moves all of them at once, keeping their order, and
//!    never moves the color its victim is running.
//!
//! Registration ([`Runtime::register`]) reads the owner (claiming a free
//! color), locks that core, re-checks the owner under the lock (a steal or
//! a release may have moved it: then it tries again), appends the event and
//! calls the probe's `admit` under the lock, which fixes the event's place
//! in its color's order for the oracle.
//!
//! Why no registration is lost and none overtakes another of its color: the
//! append happens under the lock of the core that owns the color at that
//! moment (invariant 1), and a steal moves the whole queued sequence under
//! both locks, so appends before the steal land before the moved sequence's
//! end and appends after it land at the stealer, after the moved events.
//!
//! ## Sleeping without a lost wake-up
//! An idle core sets `sleeping` under its lock after finding its queue
//! empty and no `stop` under that same lock, then waits on its condition
//! variable (which releases the lock atomically). A registrant appends
//! under the lock and notifies when it sees `sleeping`; whoever ends the run
//! sets `stop` under the lock and notifies. Either the change came first
//! (the core sees it) or the core was already waiting (and is notified).
//! Natively the waits also time out (`park_us`), because work to steal
//! appears in other cores' queues without a notification.
//!
//! ## Termination without a global counter
//! Each core counts the events it executed in its own locked state (the
//! count of an event is added at the core's next dequeue, which takes the
//! lock anyway). Once the driver has delivered everything it publishes the
//! number of events the delivered trees hold (`Stream::runnable`) and sets
//! `done`. Then the driver, and every core that runs out of work, sums the
//! counts, taking each core's lock in turn (never two at once), and when
//! the sum reaches that number sets `stop` on every core. The locks order
//! every count before any sum that follows it, so the last core to count
//! sees every count and stops the run: no wake-up depends on a timeout.
//! Nothing shared by all cores is written per event.

use crossbeam_utils::CachePadded;
use psmr_core::trace::{small_code, Counter};
use psmr_core::{EventKind, EventOp, Home, Op, Request, RequestId, NO_REQUEST};

use crate::probe::Probe;
use crate::sync::{AtomicBool, AtomicU32, AtomicU64, Condvar, Mutex, MutexGuard, Ordering};

/// `owner` of a color no core holds.
pub const FREE: u32 = u32::MAX;
/// No color (a core that runs nothing).
pub const NO_COLOR: u32 = u32::MAX;
/// End of a linked list.
pub const NIL: u32 = u32::MAX;

/// The two ends of a list linked through an arena (the events' `next`
/// links, or a discipline's per-color links). Invariant: `head == NIL`
/// exactly when `tail == NIL` (the list is empty). The links live in the
/// arena, so each step takes the closures that write them: one list code
/// for Libasync-smp's event FIFO and Mely's core-queues and stealing queues.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ends {
    pub head: u32,
    pub tail: u32,
}

impl Ends {
    pub const EMPTY: Ends = Ends {
        head: NIL,
        tail: NIL,
    };

    /// Append `x` (whose own forward link the caller has cleared):
    /// `link_after(t)` makes the old tail `t` point to `x` when the list was
    /// not empty.
    pub fn push_back(&mut self, x: u32, link_after: impl FnOnce(u32)) {
        if self.tail == NIL {
            self.head = x;
        } else {
            link_after(self.tail);
        }
        self.tail = x;
    }

    /// The list's elements from the head, `next(x)` reading the link after
    /// `x`; lazily: a link is read only when the walk goes past `x`, so a
    /// search that stops early reads no more links than a loop would.
    pub fn walk(&self, mut next: impl FnMut(u32) -> u32) -> impl Iterator<Item = u32> {
        let head = self.head;
        let mut last: Option<u32> = None;
        std::iter::from_fn(move || {
            let x = last.map_or(head, &mut next);
            (x != NIL).then(|| {
                last = Some(x);
                x
            })
        })
    }

    /// Take out, of a doubly linked list, the element between `prev` and
    /// `next` ([`NIL`] at an end): `set_next(prev)` and `set_prev(next)`
    /// join the neighbours.
    pub fn unlink(
        &mut self,
        (prev, next): (u32, u32),
        set_next: impl FnOnce(u32),
        set_prev: impl FnOnce(u32),
    ) {
        if prev == NIL {
            self.head = next;
        } else {
            set_next(prev);
        }
        if next == NIL {
            self.tail = prev;
        } else {
            set_prev(next);
        }
    }
}

/// Execution and admission of events, and what is worth tracing: the
/// [`Probe`] of event runtimes. A real run uses `CtxProbe` (through
/// `RunContext::execute` and `RunContext::register`); the model checkers
/// implement it over their own logs.
pub trait EventProbe<'s>: Probe {
    /// Execute event `e`; returns the children its handler registers, in
    /// registration order.
    fn run_event(&mut self, e: RequestId) -> &'s [RequestId];
    /// Admit `child` (registered by `parent`, or a delivered root when
    /// `parent` is `NO_REQUEST`) into its color's order. Called under the
    /// lock of the queue that receives it.
    fn admit(&mut self, parent: RequestId, child: RequestId);
    /// [`EventProbe::admit`], saying which core's queue received `child`
    /// (what the trace's `Registered` records); the model checkers' probes
    /// keep the default, which forgets the core.
    fn admit_on(&mut self, parent: RequestId, child: RequestId, _core: usize) {
        self.admit(parent, child);
    }
    /// Nanoseconds since the run started (0 when time is not modelled).
    fn now(&self) -> u64 {
        0
    }
    /// Is the trace on? (Check before building costly events.)
    fn tracing(&self) -> bool {
        false
    }
    /// This thread's queue holds `len` events (a sample for the views).
    fn sample_queue(&mut self, _len: u32) {}
}

/// What a core holds under its lock: its queue, whether its thread is
/// asleep on the condition variable, how many events it executed, and
/// whether the run is over.
#[derive(Debug)]
pub struct Locked<Q> {
    pub q: Q,
    pub sleeping: bool,
    pub executed: u64,
    pub stop: bool,
}

/// One core: its queue under a lock, the condition variable its thread
/// sleeps on, and a lock-free hint of its queue length.
#[derive(Debug)]
pub struct Core<Q> {
    state: Mutex<Locked<Q>>,
    wake: Condvar,
    /// Events queued, written under the lock; read without it as a hint
    /// (victim order, back-pressure), so `Relaxed`.
    len: AtomicU32,
}

/// A color's slot: its owner and, guarded by the owner's lock, the
/// discipline's per-color state.
#[derive(Debug, Default)]
pub struct ColorSlot<C> {
    /// The core that holds the color, or [`FREE`] (see the invariants).
    pub owner: AtomicU32,
    /// Events of the color moved by the last steal and not yet executed
    /// (to measure the stolen processing time); owner's lock.
    pub stolen_left: AtomicU32,
    pub d: C,
}

/// Why a stealer did not take a color from a victim (the `heuristic` of
/// `EventKind::StealRefused`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Refusal {
    /// Fewer than two colors queued: only the running color could go
    /// (Libasync-smp's `can_be_stolen`).
    TwoColors = 0,
    /// No color that is not running holds less than half the queue
    /// (Libasync-smp's `choose_color_to_steal`).
    Half = 1,
    /// The best color's time left is not above the steal cost (Mely's
    /// time-left heuristic).
    TimeLeft = 2,
    /// Nothing stealable at all (Mely's stealing queue is empty).
    Nothing = 3,
}

impl Refusal {
    pub const ALL: [Refusal; 4] = [
        Refusal::TwoColors,
        Refusal::Half,
        Refusal::TimeLeft,
        Refusal::Nothing,
    ];
    /// The metric name of refusals of this kind.
    pub fn metric(self) -> &'static str {
        match self {
            Refusal::TwoColors => "refused_two_colors",
            Refusal::Half => "refused_half",
            Refusal::TimeLeft => "refused_time_left",
            Refusal::Nothing => "refused_nothing",
        }
    }
}

/// A stealer's choice on a victim: a color, or a refusal with the best
/// candidate's numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    Take {
        color: u32,
    },
    Refuse {
        why: Refusal,
        color: u32,
        left_ns: u64,
    },
}

impl Choice {
    /// A refusal `why` with no candidate color (nothing to report).
    pub const fn refuse(why: Refusal) -> Choice {
        Choice::Refuse {
            why,
            color: NO_COLOR,
            left_ns: 0,
        }
    }
}

/// What every discipline counts in a core's queue (under the core's lock).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Census {
    /// Events queued.
    pub len: u32,
    /// Colors with at least one event queued (Libasync-smp's
    /// `can_be_stolen` asks for two).
    pub colors: u32,
    /// The color of the event the core is running, or [`NO_COLOR`].
    pub running: u32,
}

impl Census {
    /// An idle core's empty queue.
    pub const EMPTY: Census = Census {
        len: 0,
        colors: 0,
        running: NO_COLOR,
    };

    /// One color's events queued here went from `had` to `has` (the
    /// caller moves `len` itself): a color counts in `colors` exactly while
    /// it has an event queued, the number Libasync-smp's `can_be_stolen`
    /// (paper 002 section II-B) looks at and Mely's base stealing keeps.
    /// Saturating: only the fault-injection variant can break a count, and
    /// it must fail the oracle, not panic.
    pub fn recount_color(&mut self, had: u32, has: u32) {
        if had == 0 && has > 0 {
            self.colors += 1;
        } else if had > 0 && has == 0 {
            self.colors = self.colors.saturating_sub(1);
        }
    }

    /// Libasync-smp's choice of a color to steal from this queue (paper 002
    /// section II-B), which Mely's base stealing (time-left and penalty
    /// off) keeps unchanged:
    /// * `can_be_stolen`: at least two colors are queued (else a
    ///   [`Refusal::TwoColors`] naming `head`, the color at the queue's
    ///   head, or [`NO_COLOR`]): with one, only the running color could go;
    /// * `choose_color_to_steal`: the first of `candidates` (colors in
    ///   queue order from the head) that is not running and holds less than
    ///   half of the queued events, `queued(c)` being its events queued here
    ///   (else a [`Refusal::Half`]).
    ///
    /// `candidates` is walked lazily, only as far as the color taken, and
    /// `queued` is asked only about colors that are not running: what a
    /// discipline charges per step it visits is what the walk costs.
    pub fn choose_base(
        &self,
        head: u32,
        candidates: impl IntoIterator<Item = u32>,
        queued: impl Fn(u32) -> u32,
    ) -> Choice {
        if self.colors < 2 {
            return Choice::Refuse {
                why: Refusal::TwoColors,
                color: head,
                left_ns: 0,
            };
        }
        candidates
            .into_iter()
            .find(|&c| c != self.running && 2 * queued(c) < self.len)
            .map_or(Choice::refuse(Refusal::Half), |color| Choice::Take {
                color,
            })
    }
}

/// One core's queue of a discipline (guarded by the core's lock): it starts
/// empty ([`Default`]) and keeps its [`Census`].
pub trait CoreQueue: Default + Send {
    /// The queue's counts, kept right by the discipline's steps.
    fn census(&self) -> &Census;
}

/// A runtime's queue discipline: how a core's queue is organized, which
/// event it runs next, which color a stealer may take from it.
pub trait Discipline: Sync + Sized {
    /// One core's queue (guarded by the core's lock).
    type Queue: CoreQueue;
    /// Per-color state (guarded by the lock of the color's owner).
    type Color: Default + Send + Sync;

    /// Append event `e` (its op `ev`) to the held queue of core `at.k`;
    /// `owner[ev.color] == at.k`.
    fn push<P: Probe>(at: Held<'_, Self>, e: RequestId, ev: &EventOp, p: &mut P);
    /// Take the held core's next event, releasing the color it stops
    /// running if nothing of it is queued.
    fn pop<P: Probe>(at: Held<'_, Self>, p: &mut P) -> Option<RequestId>;
    /// The color to steal from victim `v` (caller holds its lock), when
    /// stealing one event is estimated to cost `cost_ns`
    /// ([`Runtime::event_cost`]).
    fn choose(rt: &Runtime<'_, Self>, v: usize, q: &Self::Queue, cost_ns: u64) -> Choice;
    /// What stealing one event is assumed to cost before any steal was
    /// measured, ns (the runtime's estimate starts here; see
    /// [`Runtime::event_cost`]).
    fn initial_event_cost(&self) -> u64 {
        0
    }
    /// Move every queued event of color `c` from victim `v`'s held queue to
    /// stealer `me`'s (the caller holds both locks; `c` is not running on
    /// `v`); sets the owner to `me.k`. Returns the events moved and their
    /// annotated time left.
    fn migrate<P: Probe>(c: u32, v: Held<'_, Self>, me: Held<'_, Self>, p: &mut P) -> (u32, u64);
    /// The order in which stealer `me` visits victims, given the queue
    /// length hints (`loads[v]`).
    fn victims(&self, me: usize, loads: &[u32]) -> Vec<usize>;
}

/// Core `k`'s queue `q` in the hands of the thread that holds `k`'s lock,
/// within runtime `rt`: what a [`Discipline`]'s steps work on. Made only by
/// the runtime, under that lock, for one step.
pub struct Held<'h, D: Discipline> {
    pub rt: &'h Runtime<'h, D>,
    pub k: usize,
    pub q: &'h mut D::Queue,
}

/// Libasync-smp's `construct_core_set` (section II-B): the most loaded core
/// first (lowest index on ties), then the following cores by number,
/// wrapping around; the stealer itself left out.
pub fn most_loaded_first(me: usize, loads: &[u32]) -> Vec<usize> {
    let n = loads.len();
    let start = (0..n)
        .max_by_key(|&c| (loads[c], std::cmp::Reverse(c)))
        .unwrap_or(0);
    (0..n)
        .map(|i| (start + i) % n)
        .filter(|&c| c != me)
        .collect()
}

/// Counters and times of one thread of a run (summed after the run).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Successful steals and the events they moved.
    pub steals: u64,
    pub stolen_events: u64,
    /// Time spent in successful steals (locks taken to migration done).
    pub steal_ns: u64,
    /// Annotated time left of what steals moved.
    pub stolen_left_ns: u64,
    /// Measured execution time of the stolen events, and how many ran.
    pub stolen_exec_ns: u64,
    pub stolen_executed: u64,
    /// Victims looked at, and steal rounds that found nothing anywhere.
    pub tries: u64,
    pub failed: u64,
    /// Refusals by [`Refusal`] code.
    pub refused: [u64; 4],
    /// Time blocked acquiring a contended core lock.
    pub lock_wait_ns: u64,
    /// Time asleep or yielding with nothing to do.
    pub park_ns: u64,
    /// Time executing handlers.
    pub exec_ns: u64,
    /// The thread's lifetime in the run.
    pub life_ns: u64,
}

impl Tally {
    pub fn add(&mut self, o: &Tally) {
        self.steals += o.steals;
        self.stolen_events += o.stolen_events;
        self.steal_ns += o.steal_ns;
        self.stolen_left_ns += o.stolen_left_ns;
        self.stolen_exec_ns += o.stolen_exec_ns;
        self.stolen_executed += o.stolen_executed;
        self.tries += o.tries;
        self.failed += o.failed;
        for (a, b) in self.refused.iter_mut().zip(o.refused) {
            *a += b;
        }
        self.lock_wait_ns += o.lock_wait_ns;
        self.park_ns += o.park_ns;
        self.exec_ns += o.exec_ns;
        self.life_ns += o.life_ns;
    }
}

/// An event runtime's shared state for one run.
pub struct Runtime<'s, D: Discipline> {
    /// The stream's requests (all events), indexed by id.
    pub events: &'s [Request],
    pub cores: Vec<CachePadded<Core<D::Queue>>>,
    pub colors: Vec<ColorSlot<D::Color>>,
    /// Per-event link of the queue lists (guarded by the lock of the core
    /// whose queue holds the event).
    pub next: Vec<AtomicU32>,
    pub d: D,
    /// Fault injection: a stealer may take the color its victim is running.
    pub fault_steal_running: bool,
    /// The runtime's estimate of what stealing one event costs, ns: a
    /// running mean over every core's steals of (steal time / events
    /// moved), from [`Discipline::initial_event_cost`]. Paper 002's
    /// time-left heuristic takes this number from the runtime's own
    /// monitoring. `Relaxed`: a heuristic estimate that publishes nothing;
    /// two steals updating it at once may lose one sample, which only
    /// delays the mean.
    event_cost_ns: AtomicU64,
    done: AtomicBool,
    target: AtomicU64,
}

/// A core's state, locked (poisoning ignored: a panicking thread fails the
/// run anyway, and every critical section leaves the queue consistent).
pub type Guard<'a, Q> = MutexGuard<'a, Locked<Q>>;

impl<'s, D: Discipline> Runtime<'s, D> {
    /// A runtime over `events` with `cores` cores.
    pub fn new(events: &'s [Request], cores: usize, d: D) -> Self {
        let colors = events
            .iter()
            .map(|r| op(r).color)
            .max()
            .map_or(0, |c| c as usize + 1);
        Runtime {
            events,
            cores: (0..cores.max(1))
                .map(|_| {
                    CachePadded::new(Core {
                        state: Mutex::new(Locked {
                            q: D::Queue::default(),
                            sleeping: false,
                            executed: 0,
                            stop: false,
                        }),
                        wake: Condvar::new(),
                        len: AtomicU32::new(0),
                    })
                })
                .collect(),
            colors: (0..colors)
                .map(|_| ColorSlot {
                    owner: AtomicU32::new(FREE),
                    stolen_left: AtomicU32::new(0),
                    d: D::Color::default(),
                })
                .collect(),
            next: (0..events.len()).map(|_| AtomicU32::new(NIL)).collect(),
            event_cost_ns: AtomicU64::new(d.initial_event_cost()),
            d,
            fault_steal_running: false,
            done: AtomicBool::new(false),
            target: AtomicU64::new(0),
        }
    }

    /// The operation of event `e`.
    #[inline]
    pub fn op(&self, e: RequestId) -> EventOp {
        op(&self.events[e as usize])
    }

    #[inline]
    pub fn slot(&self, color: u32) -> &ColorSlot<D::Color> {
        &self.colors[color as usize]
    }

    /// Core `k`'s queue `q`, whose lock the caller holds, for the discipline.
    fn held<'h>(&'h self, k: usize, q: &'h mut D::Queue) -> Held<'h, D> {
        Held { rt: self, k, q }
    }

    /// The fault-injection variant's choice (both disciplines): with
    /// `fault_steal_running`, the color the victim is running goes if
    /// `queued` (called only then) says any of its events are queued.
    /// `None` in every correct run.
    pub fn steal_running_fault(
        &self,
        census: &Census,
        queued: impl FnOnce(u32) -> u32,
    ) -> Option<Choice> {
        let r = census.running;
        (self.fault_steal_running && r != NO_COLOR && queued(r) > 0)
            .then_some(Choice::Take { color: r })
    }

    /// The estimated cost of stealing one event, ns (see the field).
    #[inline]
    pub fn event_cost(&self) -> u64 {
        self.event_cost_ns.load(Ordering::Relaxed)
    }

    /// Fold one steal (`dt` ns, `moved` events) into the per-event cost:
    /// a running mean weighting the latest steal by 1/8.
    fn learn_event_cost(&self, dt: u64, moved: u32) {
        let per_event = dt / u64::from(moved.max(1));
        let old = self.event_cost();
        self.event_cost_ns
            .store((old * 7 + per_event) / 8, Ordering::Relaxed);
    }

    /// Lock core `k`, timing the wait when the lock is contended.
    pub fn lock<P: EventProbe<'s>>(&self, k: usize, p: &P, t: &mut Tally) -> Guard<'_, D::Queue> {
        let m = &self.cores[k].state;
        match m.try_lock() {
            Ok(g) => g,
            Err(crate::sync::TryLockError::Poisoned(e)) => e.into_inner(),
            Err(crate::sync::TryLockError::WouldBlock) => {
                let t0 = p.now();
                let g = m.lock().unwrap_or_else(|e| e.into_inner());
                t.lock_wait_ns += p.now().saturating_sub(t0);
                g
            }
        }
    }

    /// Lock cores `a` and `b` (distinct) in index order, so that two
    /// stealers never wait for each other crosswise; returns `(a's, b's)`.
    pub fn lock_pair<P: EventProbe<'s>>(
        &self,
        a: usize,
        b: usize,
        p: &P,
        t: &mut Tally,
    ) -> (Guard<'_, D::Queue>, Guard<'_, D::Queue>) {
        if a < b {
            let ga = self.lock(a, p, t);
            (ga, self.lock(b, p, t))
        } else {
            let gb = self.lock(b, p, t);
            (self.lock(a, p, t), gb)
        }
    }

    /// Refresh core `k`'s length hint (caller holds its lock).
    pub fn publish(&self, k: usize, q: &D::Queue) {
        // Relaxed: a hint (see the field).
        self.cores[k].len.store(q.census().len, Ordering::Relaxed);
    }

    /// Queue length hints of every core.
    pub fn loads(&self) -> Vec<u32> {
        self.cores
            .iter()
            .map(|c| c.len.load(Ordering::Relaxed))
            .collect()
    }

    /// Register event `e` (by `parent`, from core `from`, or a root from
    /// the driver when `from` is `None`): claim its color if free, append
    /// it to its owner's queue and admit it there (see the module comment).
    /// Returns the core it went to.
    pub fn register<P: EventProbe<'s>>(
        &self,
        p: &mut P,
        t: &mut Tally,
        from: Option<usize>,
        parent: RequestId,
        e: RequestId,
    ) -> usize {
        let ev = self.op(e);
        let slot = self.slot(ev.color);
        loop {
            let k = self.owner_or_claim(p, &ev, from);
            let mut g = self.lock(k, p, t);
            // Relaxed: owner changes under the owner's lock (invariant 1),
            // which we hold if it is still k.
            if slot.owner.load(Ordering::Relaxed) != k as u32 {
                continue;
            }
            D::push(self.held(k, &mut g.q), e, &ev, p);
            // Virtual cores: the registration's own work, under k's lock.
            crate::sync::charge_own(|c| c.event_register);
            p.admit_on(parent, e, k);
            self.publish(k, &g.q);
            if g.sleeping {
                self.cores[k].wake.notify_one();
            }
            return k;
        }
    }

    /// The color's owner, claiming it for its home core if it is free.
    fn owner_or_claim<P: Probe>(&self, p: &mut P, ev: &EventOp, from: Option<usize>) -> usize {
        let slot = self.slot(ev.color);
        loop {
            // Acquire: pairs with the Release of `release`, so events of a
            // reclaimed color start after its earlier events ended.
            let k = slot.owner.load(Ordering::Acquire);
            if k != FREE {
                return k as usize;
            }
            let home = ev.home.core(ev.color, from, self.cores.len()) as u32;
            // AcqRel: as above on success, and Acquire of the winner's
            // claim on failure.
            crate::sync::charge_rmw(&slot.owner);
            match slot
                .owner
                .compare_exchange(FREE, home, Ordering::AcqRel, Ordering::Acquire)
            {
                Ok(_) => {
                    p.record(EventKind::ColorHome {
                        color: ev.color,
                        core: home as u16,
                        how: match ev.home {
                            Home::Hash => small_code("color-home", "how", "hashed"),
                            Home::Near => small_code("color-home", "how", "registering-core"),
                            Home::Core(_) => small_code("color-home", "how", "fixed-core"),
                        },
                    });
                    return home as usize;
                }
                Err(now) if now != FREE => return now as usize,
                Err(_) => {}
            }
        }
    }

    /// Color `c` stops being owned by core `k` (its thread, under its
    /// lock, when it stops running `c` and nothing of `c` is queued). A
    /// color another core owns is left alone (only the fault-injection
    /// variant, which steals running colors, gets there).
    pub fn release_if_owned(&self, c: u32, k: usize) {
        let owner = &self.slot(c).owner;
        // Relaxed load: owner changes need k's lock, which we hold.
        if owner.load(Ordering::Relaxed) == k as u32 {
            // Release: see `owner_or_claim`.
            owner.store(FREE, Ordering::Release);
        }
    }

    /// A steal gives color `c` to core `me` (both cores' locks held).
    pub fn set_owner(&self, c: u32, me: usize) {
        // Relaxed: registrants re-check the owner under the lock of the
        // core they read, and both locks are held here (invariant 1).
        self.slot(c).owner.store(me as u32, Ordering::Relaxed);
    }

    /// Count `ran` events core `k` executed since its last dequeue, and
    /// take its next event; `stolen` says whether a steal moved it here
    /// (for the stolen-time metric).
    pub fn pop<P: EventProbe<'s>>(
        &self,
        k: usize,
        ran: u64,
        p: &mut P,
        t: &mut Tally,
    ) -> Option<(RequestId, bool)> {
        let mut g = self.lock(k, p, t);
        g.executed += ran;
        let e = D::pop(self.held(k, &mut g.q), p)?;
        // Virtual cores: the pop's own work, under the core's lock.
        crate::sync::charge_own(|c| c.event_pop);
        self.publish(k, &g.q);
        let left = &self.slot(self.op(e).color).stolen_left;
        // Relaxed: guarded by the owner's lock, which we hold.
        let stolen = left.load(Ordering::Relaxed) > 0;
        if stolen {
            left.fetch_sub(1, Ordering::Relaxed);
        }
        p.record(EventKind::Dequeued { req: e });
        Some((e, stolen))
    }

    /// One steal round of core `me` (section II-B's loop): visit victims in
    /// the discipline's order, lock victim and self, let the discipline
    /// choose a color, move it. Returns whether a color was taken.
    pub fn steal<P: EventProbe<'s>>(
        &self,
        me: usize,
        p: &mut P,
        t: &mut Tally,
        last: &mut Option<(usize, u8, u32)>,
    ) -> bool {
        let loads = self.loads();
        for v in self.d.victims(me, &loads) {
            if loads[v] == 0 {
                continue;
            }
            t.tries += 1;
            let t0 = p.now();
            let (mut gv, mut gm) = self.lock_pair(v, me, p, t);
            p.record(EventKind::StealTry {
                victim: v as u16,
                queued: gv.q.census().len,
            });
            let cost_ns = self.event_cost();
            let color = match D::choose(self, v, &gv.q, cost_ns) {
                Choice::Take { color } => color,
                Choice::Refuse {
                    why,
                    color,
                    left_ns,
                } => {
                    t.refused[why as usize] += 1;
                    // One trace event per change of mind, not per retry.
                    if *last != Some((v, why as u8, color)) {
                        *last = Some((v, why as u8, color));
                        p.record(EventKind::StealRefused {
                            heuristic: why as u8,
                            color: if color == NO_COLOR { 0 } else { color },
                            left_ns: sat32(left_ns),
                            cost_ns: sat32(cost_ns),
                        });
                    }
                    continue;
                }
            };
            let (victim, stealer) = (self.held(v, &mut gv.q), self.held(me, &mut gm.q));
            let (moved, left_ns) = D::migrate(color, victim, stealer, p);
            self.slot(color).stolen_left.store(moved, Ordering::Relaxed);
            self.publish(v, &gv.q);
            self.publish(me, &gm.q);
            p.record(EventKind::ColorSteal {
                victim: v as u16,
                color,
                count: moved,
            });
            drop(gv);
            drop(gm);
            let dt = p.now().saturating_sub(t0);
            p.record(EventKind::StealCost {
                victim: v as u16,
                steal_ns: sat32(dt),
                left_ns: sat32(left_ns),
            });
            *last = None;
            t.steals += 1;
            t.stolen_events += moved as u64;
            t.steal_ns += dt;
            t.stolen_left_ns += left_ns;
            p.count(Counter::Steals, 1);
            p.count(Counter::StolenRequests, moved as u64);
            self.learn_event_cost(dt, moved);
            return true;
        }
        t.failed += 1;
        p.count(Counter::FailedSteals, 1);
        false
    }

    /// Core `me` has nothing to do: sleep until an event is registered for
    /// it, the run stops, or (natively) `park_us` pass. Returns at once if
    /// its queue is not empty or the run is over.
    pub fn sleep<P: EventProbe<'s>>(&self, me: usize, p: &P, t: &mut Tally, park_us: u32) {
        let core = &self.cores[me];
        let mut g = self.lock(me, p, t);
        if g.q.census().len > 0 || g.stop {
            return;
        }
        g.sleeping = true;
        #[cfg(any(loom, shuttle))]
        let mut g = {
            // Models have no time: wait for a notification (which makes a
            // lost wake-up a deadlock the model checker reports).
            let _ = park_us;
            core.wake.wait(g).unwrap_or_else(|e| e.into_inner())
        };
        #[cfg(not(any(loom, shuttle)))]
        let mut g = {
            let dur = std::time::Duration::from_micros(park_us.max(1) as u64);
            core.wake
                .wait_timeout(g, dur)
                .map(|(g, _)| g)
                .unwrap_or_else(|e| e.into_inner().0)
        };
        g.sleeping = false;
    }

    /// The driver is done: `events` events (those of the delivered trees)
    /// must run. Stops the run if they all have.
    pub fn finish<P: EventProbe<'s>>(&self, events: u64, p: &P, t: &mut Tally) {
        // Relaxed store, then Release on `done`: whoever sees `done`
        // (Acquire) sees the target.
        self.target.store(events, Ordering::Relaxed);
        self.done.store(true, Ordering::Release);
        self.stop_if_finished(p, t);
    }

    /// Has the run ended (as far as core `k` was told)?
    pub fn stopped<P: EventProbe<'s>>(&self, k: usize, p: &P, t: &mut Tally) -> bool {
        self.lock(k, p, t).stop
    }

    /// If every event of the delivered trees executed, stop every core
    /// and return `true`. Takes each core's lock in turn, never two at
    /// once (see the module comment).
    pub fn stop_if_finished<P: EventProbe<'s>>(&self, p: &P, t: &mut Tally) -> bool {
        if !self.done.load(Ordering::Acquire) {
            return false;
        }
        let target = self.target.load(Ordering::Relaxed);
        let mut sum = 0;
        for k in 0..self.cores.len() {
            sum += self.lock(k, p, t).executed;
        }
        if sum < target {
            return false;
        }
        for (k, c) in self.cores.iter().enumerate() {
            self.lock(k, p, t).stop = true;
            c.wake.notify_all();
        }
        true
    }

    /// Events queued at core `k`, a hint.
    pub fn queued(&self, k: usize) -> u32 {
        self.cores[k].len.load(Ordering::Relaxed)
    }

    /// The core event `e` would go to now (its color's owner, or its home
    /// for a free color), for the driver's back-pressure.
    pub fn target_of(&self, e: RequestId) -> usize {
        let ev = self.op(e);
        let k = self.slot(ev.color).owner.load(Ordering::Relaxed);
        if k == FREE {
            ev.home.core(ev.color, None, self.cores.len())
        } else {
            k as usize
        }
    }
}

/// The event op of a request (a non-event request, which validation keeps
/// out of event runtimes, reads as a plain event of color 0).
#[inline]
pub fn op(r: &Request) -> EventOp {
    match r.op {
        Op::Event(e) => e,
        _ => EventOp::spin(0, 0, 0),
    }
}

/// Saturate to 32 bits (trace fields).
pub fn sat32(x: u64) -> u32 {
    x.min(u32::MAX as u64) as u32
}

/// What the parent of a root is.
pub const ROOT: RequestId = NO_REQUEST;
