//! The conductor: one token, one virtual clock per thread, and the
//! deterministic choice of who runs next. Rules and the determinism
//! argument: docs/protocols/virtual-cores.md.
//!
//! Every method taking `me` must be called by thread `me` while it holds
//! the token (the thread host attaches each thread of a team with
//! [`super::attach`], which waits for the token first). Only the token
//! holder runs code of the run, so the conductor's state changes in one
//! total order that depends only on the threads' code and the cost table.

use std::collections::HashMap;
use std::panic::Location;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use super::cores::Cores;
use super::cost::CostTable;
use super::gate::Gate;
use super::schedule::{Perturbation, Schedule};

/// No thread holds the token (all are done, or the run failed).
const NOBODY: usize = usize::MAX;

/// Consecutive spins of a thread that is the only runnable one (and has
/// no timed sleeper to jump to) before the watchdog calls it a livelock.
/// Nothing but the spinner's own clock changes while it spins alone, so a
/// wait that ends has ended long before this.
pub const LONE_SPIN_LIMIT: u32 = 100_000;

/// Called once with the stall watchdog's message when a run stalls (see
/// [`Conductor::on_stall`]); the CLI's prints it and exits, since the
/// stuck thread cannot be stopped from outside.
#[derive(Clone)]
pub struct StallHook(pub Arc<dyn Fn(&str) + Send + Sync>);

impl std::fmt::Debug for StallHook {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("StallHook")
    }
}

/// What a thread is doing, as the conductor sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Status {
    /// May be chosen; its clock says when.
    Runnable,
    /// Waiting for a wake on `key` (0: only the deadline ends it), or
    /// until virtual time `deadline`. `seq` orders waiters (FIFO wakes).
    Blocked {
        key: usize,
        seq: u64,
        deadline: Option<u64>,
    },
    /// Returned from its closure.
    Done,
}

/// The conductor's state, behind one lock that only the token holder and
/// threads waiting for the token take.
#[derive(Debug)]
struct State {
    running: usize,
    clock: Vec<u64>,
    status: Vec<Status>,
    /// Whether a thread's last block ended by its deadline.
    timed_out: Vec<bool>,
    /// Whether a thread is in a wait loop: it spun, and has not since
    /// executed a request, blocked on a key or woken anyone.
    spinning: Vec<bool>,
    /// Where each thread last met the conductor (for the watchdogs).
    site: Vec<&'static Location<'static>>,
    next_seq: u64,
    lone_spins: u32,
    /// Every synchronization point and hand-off, for the stall watchdog
    /// and the tests.
    points: u64,
    handoffs: u64,
    failed: Option<String>,
    /// The delays of a perturbed schedule (`None`: earliest clock only).
    perturb: Option<Perturbation>,
    /// The cache model's memory of who wrote what (see [`Lines`]).
    lines: Lines,
    /// Fewer modelled cores than threads: who is on which (`None`: a
    /// core per thread, nothing shared).
    cores: Option<Cores>,
    /// The wait loop each thread left with the conductor (see
    /// [`Conductor::poll`]).
    polls: Vec<Option<Poll>>,
    /// The failing lock attempts each thread left with the conductor (see
    /// [`Conductor::lock_scan`]).
    scans: Vec<Option<Scan>>,
    /// The mutex each thread waits to lock, left with the conductor (see
    /// [`Conductor::lock_wait`]).
    lock_waits: Vec<Option<LockWait>>,
    /// Failed lock attempts the conductor made for a waiting thread (tests).
    lock_attempts_made: u64,
}

/// A thread inside [`Conductor::lock_wait`]: each time it is chosen, the
/// token holder asks `held()` whether the mutex at `key` is still held,
/// and if so makes the thread's failed attempt for it (the contended
/// charge and the block on `key`, at `here`).
#[derive(Clone, Copy, Debug)]
struct LockWait {
    held: WaitCond,
    key: usize,
    here: &'static Location<'static>,
}

/// A run of lock attempts whose thread waits inside
/// [`Conductor::lock_scan`]: attempt `next`'s point is made; when the
/// thread is chosen, the token holder asks `attempt(next)` whether it
/// would take a free lock and let it go having found nothing, and if so
/// makes its charges and the next attempt's point for the thread.
#[derive(Clone, Copy, Debug)]
struct Scan {
    attempt: ScanAttempt,
    ns: u64,
    here: &'static Location<'static>,
    next: u32,
    n: u32,
}

/// The `attempt` of a [`Scan`], its lifetime erased.
#[derive(Clone, Copy, Debug)]
struct ScanAttempt(*const (dyn Fn(u32) -> Option<usize> + Sync + 'static));

// SAFETY: as for `WaitCond`: the pointee is `Sync`, and it is only called
// by the token holder while its thread waits inside `lock_scan`, where the
// closure lives (the thread takes the registration out before returning).
unsafe impl Send for ScanAttempt {}

/// A wait loop `while !cond() { spin(ns) }` whose thread is waiting for
/// the token inside [`Conductor::poll`]: when the thread is chosen, the
/// token holder evaluates `cond` and, while it is false, makes the spin
/// on the thread's behalf (`left` more at most), without waking it.
#[derive(Clone, Copy, Debug)]
struct Poll {
    cond: WaitCond,
    ns: u64,
    here: &'static Location<'static>,
    /// The loop yields to the OS each iteration (its yield phase), rather
    /// than spinning (see [`Conductor::spin`]).
    yielding: bool,
    /// Iterations the conductor may still make for the thread (0: none,
    /// the thread runs its loop itself next).
    left: u32,
    /// Iterations made so far, the thread's own first one included.
    made: u32,
}

/// A waiting thread's condition (a [`Poll`]'s `cond`, a [`LockWait`]'s
/// `held`), its lifetime erased so the state can hold it.
#[derive(Clone, Copy, Debug)]
struct WaitCond(*const (dyn Fn() -> bool + Sync + 'static));

// SAFETY: the pointee is `Sync`, so calling it from another thread is
// allowed; it is only called under the state lock, while no run failure
// is recorded, and its owner cannot leave `Conductor::poll` or
// `Conductor::lock_wait` (its stack frame, where the closure lives) before
// it holds the token (then nobody else calls it: only the holder chooses;
// it takes its registration out first) or the run failed.
unsafe impl Send for WaitCond {}

impl WaitCond {
    /// Erase `cond`'s lifetime. Only the lifetime changes (the same fat
    /// pointer); the caller keeps `cond` alive while it is registered (see
    /// the `Send` impl for why `poll` and `lock_wait` do).
    fn erase(cond: &(dyn Fn() -> bool + Sync + '_)) -> Self {
        let cond: *const (dyn Fn() -> bool + Sync + '_) = cond;
        // SAFETY: a pointer-to-pointer transmute that changes no bits, only
        // the lifetime bound; dereferencing stays the callers' business
        // (under the conditions above).
        WaitCond(unsafe {
            std::mem::transmute::<
                *const (dyn Fn() -> bool + Sync + '_),
                *const (dyn Fn() -> bool + Sync + 'static),
            >(cond)
        })
    }
}

/// Who last wrote each tracked line, for the cost of moving it.
///
/// Two granularities. A *word* (a lock word, a flag, a counter another
/// thread polls: keyed by its address) lives in one core's private cache:
/// touching a word last written by another core costs a line transfer,
/// whatever the domains. *Application data* (a cell's lines, an event's
/// data set) is tracked per cache domain (`cores_per_cache` consecutive
/// threads share one): reading or writing a line that another domain
/// holds modified costs a transfer; a read leaves a shared copy in the
/// reader's domain, a write takes the line for the writer's domain alone.
/// Only the token holder touches this, so its contents depend only on the
/// run's deterministic sequence of steps.
#[derive(Debug, Default)]
struct Lines {
    /// Each word's last writer (thread index) and, for a lock word, the
    /// virtual time its last holder released it.
    words: HashMap<usize, Word>,
    /// Per block of application data lines (region, block): the domains
    /// holding a copy (bit `d`; domains from 63 on share bit 63). A block
    /// written last is held by its writer's domain alone.
    data: HashMap<(u64, u32), u64>,
    /// Lines moved so far.
    transfers: u64,
}

#[derive(Clone, Copy, Debug)]
struct Word {
    writer: usize,
    free_at: u64,
}

/// Lines of application data tracked as one block (1 KiB).
pub const LINES_PER_BLOCK: u32 = 16;

fn domain_bit(d: u32) -> u64 {
    1u64 << d.min(63)
}

/// Counters of a virtual run (tests and reports).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConductorStats {
    pub points: u64,
    pub handoffs: u64,
    /// Line transfers charged by the cache model.
    pub transfers: u64,
    /// The largest virtual clock reached (the run's virtual makespan).
    pub makespan_ns: u64,
    /// Context switches on time-shared cores (0 with a core per thread).
    pub switches: u64,
}

/// Runs the threads of one team one at a time, in virtual time.
#[derive(Debug)]
pub struct Conductor {
    state: Mutex<State>,
    /// Thread `i` waits for the token at `turns[i]` (see [`Gate`]: apart
    /// from the state lock, so a hand-off never contends for it).
    turns: Vec<Gate>,
    names: Vec<String>,
    costs: CostTable,
    /// Threads per cache domain (thread `i` is in domain `i / cores_per_cache`).
    cores_per_cache: usize,
    /// Wall time a token may stay with one thread without any point before
    /// the run fails naming it (a wait outside the facade).
    stall: Duration,
    on_stall: Option<StallHook>,
}

impl Conductor {
    /// A conductor for threads named `names` (index = thread), all runnable
    /// at virtual time 0; thread 0 holds the token.
    pub fn new(names: Vec<String>, costs: CostTable) -> Self {
        let n = names.len().max(1);
        let here = Location::caller();
        super::ACTIVE.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Conductor {
            state: Mutex::new(State {
                running: 0,
                clock: vec![0; n],
                status: vec![Status::Runnable; n],
                timed_out: vec![false; n],
                spinning: vec![false; n],
                site: vec![here; n],
                next_seq: 0,
                lone_spins: 0,
                points: 0,
                handoffs: 0,
                failed: None,
                perturb: None,
                lines: Lines::default(),
                cores: None,
                polls: vec![None; n],
                scans: vec![None; n],
                lock_waits: vec![None; n],
                lock_attempts_made: 0,
            }),
            turns: (0..n).map(|_| Gate::default()).collect(),
            names,
            costs,
            cores_per_cache: n,
            stall: Duration::from_secs(30),
            on_stall: None,
        }
    }

    /// Group the threads into cache domains of `cores` consecutive threads
    /// (0 or more than the team: one domain for all, the default).
    pub fn with_cores_per_cache(mut self, cores: usize) -> Self {
        let n = self.turns.len();
        self.cores_per_cache = if cores == 0 { n } else { cores.min(n) };
        self
    }

    /// Run the threads on `cores` modelled cores: with fewer cores than
    /// threads they time-share them (see [`Cores`]); 0 or at least one per
    /// thread: a core each, the default. Call before any thread enters.
    pub fn with_cores(self, cores: usize) -> Self {
        self.lock().cores = Cores::new(cores, self.turns.len());
        self
    }

    /// Threads per cache domain.
    pub fn cores_per_cache(&self) -> usize {
        self.cores_per_cache
    }

    fn domain(&self, i: usize) -> u32 {
        (i / self.cores_per_cache.max(1)) as u32
    }

    /// Thread `me` writes (or reads-and-writes) the word at `addr`: adds
    /// `extra` and the line transfer it costs (when another thread wrote
    /// it last) to `me`'s clock, and returns the total. Local work (no
    /// reschedule): the caller makes the point, if any.
    pub fn write_word(&self, me: usize, addr: usize, extra: u64) -> u64 {
        let mut st = self.lock();
        let w = st.lines.words.entry(addr).or_insert(Word {
            writer: me,
            free_at: 0,
        });
        let moved = w.writer != me;
        w.writer = me;
        let ns = extra + if moved { self.costs.line_transfer } else { 0 };
        if moved {
            st.lines.transfers += 1;
        }
        st.clock[me] = st.clock[me].saturating_add(ns);
        ns
    }

    /// Thread `me` took the lock whose word is at `addr`. Its critical
    /// sections have length in virtual time (the work and transfers
    /// charged while it is held), so a lock released at a virtual time
    /// later than `me`'s clock was still held then: `me` waits for the
    /// release and pays the contended cost. Plus the word's line transfer.
    pub fn acquire_lock(&self, me: usize, addr: usize) {
        let mut st = self.lock();
        self.acquire_word(&mut st, me, addr);
    }

    fn acquire_word(&self, st: &mut State, me: usize, addr: usize) {
        let w = *st.lines.words.entry(addr).or_insert(Word {
            writer: me,
            free_at: 0,
        });
        let mut t = st.clock[me];
        if w.writer != me {
            st.lines.transfers += 1;
            if w.free_at > t {
                t = w.free_at.saturating_add(self.costs.lock_contended);
            }
            t = t.saturating_add(self.costs.line_transfer);
        }
        st.clock[me] = t;
        st.lines.words.insert(addr, Word { writer: me, ..w });
    }

    /// Thread `me` released the lock whose word is at `addr`, now.
    pub fn release_lock(&self, me: usize, addr: usize) {
        let mut st = self.lock();
        Self::release_word(&mut st, me, addr);
    }

    fn release_word(st: &mut State, me: usize, addr: usize) {
        let now = st.clock[me];
        st.lines.words.insert(
            addr,
            Word {
                writer: me,
                free_at: now,
            },
        );
    }

    /// Thread `me` touches `count` lines of application data from line
    /// `first` of `region`, writing them or only reading: the transfers it
    /// costs, added to `me`'s clock. Lines are tracked in blocks of
    /// [`LINES_PER_BLOCK`] (a block's lines move together). See [`Lines`].
    pub fn touch_data(&self, me: usize, region: u64, first: u32, count: u32, write: bool) -> u64 {
        let bit = domain_bit(self.domain(me));
        let end = first.saturating_add(count);
        let mut st = self.lock();
        let mut moved = 0u64;
        let mut line = first;
        while line < end {
            let block = line / LINES_PER_BLOCK;
            let next = ((block + 1) * LINES_PER_BLOCK).min(end);
            // A line no one touched yet comes from memory (not modelled).
            let holders = st.lines.data.entry((region, block)).or_insert(bit);
            // A copy modified in another domain (or, for a write, any copy
            // elsewhere, which the write invalidates) has to move.
            let remote = if write {
                *holders & !bit != 0
            } else {
                *holders & bit == 0
            };
            if remote {
                moved += u64::from(next - line);
            }
            *holders = if write { bit } else { *holders | bit };
            line = next;
        }
        st.lines.transfers += moved;
        let ns = moved.saturating_mul(self.costs.line_transfer);
        st.clock[me] = st.clock[me].saturating_add(ns);
        ns
    }

    /// Set the stall watchdog's wall-time limit (tests use a short one).
    pub fn with_stall(mut self, stall: Duration) -> Self {
        self.stall = stall;
        self
    }

    /// Call `hook` with the stall watchdog's message when the run stalls
    /// (after the run is marked failed and the waiting threads released).
    pub fn on_stall(mut self, hook: Option<StallHook>) -> Self {
        self.on_stall = hook;
        self
    }

    /// Choose by `schedule` (docs/protocols/virtual-cores.md, "Exploring
    /// schedules"): the earliest-clock schedule changes nothing; a
    /// perturbed one starts each thread at its offset and delays the
    /// thread at each change point. Call before any thread enters.
    pub fn with_schedule(self, schedule: &Schedule) -> Self {
        let p = schedule.perturbation(self.turns.len());
        {
            let mut st = self.lock();
            if let Some(p) = &p {
                st.clock.clone_from(&p.start);
            }
            st.perturb = p;
        }
        self
    }

    pub fn costs(&self) -> &CostTable {
        &self.costs
    }

    /// Threads of the team.
    pub fn threads(&self) -> usize {
        self.turns.len()
    }

    /// The name of thread `i` (its lane: "worker 3", "driver").
    pub fn name(&self, i: usize) -> &str {
        self.names.get(i).map_or("?", String::as_str)
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic under this lock is a conductor bug or a failed run, and
        // every path after one checks `failed`: the state is still usable.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    pub fn stats(&self) -> ConductorStats {
        let st = self.lock();
        ConductorStats {
            points: st.points,
            handoffs: st.handoffs,
            transfers: st.lines.transfers,
            makespan_ns: st.clock.iter().copied().max().unwrap_or(0),
            switches: st.cores.as_ref().map_or(0, Cores::switches),
        }
    }

    /// Thread `me`'s virtual clock.
    pub fn now(&self, me: usize) -> u64 {
        self.lock().clock[me]
    }

    /// Why the run failed, if it did (a watchdog or a panicking thread).
    pub fn failure(&self) -> Option<String> {
        self.lock().failed.clone()
    }

    /// Wait until thread `me` holds the token (a thread's start).
    pub fn enter(&self, me: usize) {
        let st = self.lock();
        drop(self.wait_turn(st, me));
    }

    /// Advance `me`'s clock by `ns` without giving anyone else a turn: work
    /// local to the thread (no other thread can observe it before `me`'s
    /// next synchronization point, which reschedules).
    pub fn advance(&self, me: usize, ns: u64) {
        let mut st = self.lock();
        st.clock[me] = st.clock[me].saturating_add(ns);
    }

    /// A synchronization point costing `ns`: advance, then run the earliest
    /// runnable thread (`me` again, without a hand-off, if it still is).
    pub fn point(&self, me: usize, ns: u64, at: &'static Location<'static>) {
        self.point_as(me, ns, at, None);
    }

    /// A point that is work others may wait for (executing a request):
    /// `me` leaves its wait loop, if it was in one.
    pub fn work(&self, me: usize, ns: u64, at: &'static Location<'static>) {
        self.point_as(me, ns, at, Some(false));
    }

    fn point_as(&self, me: usize, ns: u64, at: &'static Location<'static>, spinning: Option<bool>) {
        let mut st = self.lock();
        self.point_step(&mut st, me, ns, at, spinning);
        drop(self.reschedule(st, me));
    }

    /// The bookkeeping of a point of `me` (see [`Conductor::point`]), up to
    /// the choice of the next thread.
    fn point_step(
        &self,
        st: &mut State,
        me: usize,
        ns: u64,
        at: &'static Location<'static>,
        spinning: Option<bool>,
    ) {
        if let Some(f) = spinning {
            st.spinning[me] = f;
        }
        st.site[me] = at;
        st.points += 1;
        let points = st.points;
        let ns = match st.perturb.as_mut() {
            Some(p) => p.cost(me, ns).saturating_add(p.delay_at(points, me)),
            None => ns,
        };
        st.clock[me] = st.clock[me].saturating_add(ns);
        let slice_over = st
            .cores
            .as_ref()
            .is_some_and(|c| c.held_for(me, st.clock[me]) >= self.costs.time_slice);
        if slice_over {
            self.yield_core_if_awaited(st, me);
        }
    }

    /// On time-shared cores: if another thread is waiting for a core at
    /// `me`'s clock, `me` gives its core up (the modelled OS preempts it)
    /// and waits for one in turn, after the others at equal times.
    fn yield_core_if_awaited(&self, st: &mut State, me: usize) {
        let now = st.clock[me];
        let Some(cores) = st.cores.as_ref() else {
            return;
        };
        let awaited = (0..st.status.len()).any(|j| {
            j != me && !cores.has_core(j) && Self::ready_base(st, j).is_some_and(|t| t <= now)
        });
        if awaited {
            if let Some(c) = st.cores.as_mut() {
                c.release(me, now, true);
            }
        }
    }

    /// `me` leaves its core (it blocks, sleeps or ends), if cores are shared.
    fn leave_core(st: &mut State, me: usize) {
        let now = st.clock[me];
        if let Some(c) = st.cores.as_mut() {
            c.release(me, now, false);
        }
    }

    /// One iteration of a wait loop costing `ns`. Nothing another thread
    /// does can change what `me` waits for until that thread runs, so the
    /// spinner's clock jumps to the next other thread's time (the
    /// iterations in between would all see the same memory): the next
    /// thread not itself in a wait loop, if there is one (spinners polling
    /// each other would otherwise leapfrog in steps of one spin). When no other
    /// thread can ever run, the spin is a livelock: after
    /// [`LONE_SPIN_LIMIT`] such spins the run fails naming the thread and
    /// the caller's source line. On time-shared cores a spinner gives its
    /// core up when another thread waits for one at its (new) clock; with
    /// `spin_keeps_core` in the table only a `yielding` iteration (a yield
    /// to the OS) does, or one past its time slice, as a real spinner keeps
    /// its CPU until it yields or is preempted (the OS does not know it
    /// spins).
    pub fn spin(&self, me: usize, ns: u64, yielding: bool, here: &'static Location<'static>) {
        let mut st = self.lock();
        if self.spin_step(&mut st, me, ns, yielding, here) {
            st = self.count_lone(st, me, here);
        }
        drop(self.reschedule(st, me));
    }

    /// Up to `budget` iterations of the wait loop `while !cond() {
    /// spin(ns) }`, whose condition the caller has just found false: the
    /// first spin now, then, each time `me` is chosen, `cond` evaluated and
    /// (while false) the next spin made by whichever thread holds the token,
    /// without handing it to `me`. The conductor does exactly what `me`
    /// would (the same evaluations at the same turns, the same [`spin`]
    /// bookkeeping), so the schedule is the same; only the OS hand-offs to
    /// a thread that would find nothing changed are saved. Returns the
    /// iterations made (at least 1 when `budget` is); the caller then holds
    /// the token and evaluates `cond` itself. `yielding`: the loop's
    /// iterations are yields to the OS, not spins (see [`Conductor::spin`]
    /// for what that changes with `spin_keeps_core`).
    ///
    /// `cond` must only read memory (atomics): no point, charge or other
    /// call of this conductor (it runs under the state lock, on another
    /// thread, whose identity a charge would take). A lone spinner (no
    /// other thread can run) is handed the token and spins itself, so the
    /// livelock watchdog fails the run on the spinner's own thread.
    ///
    /// [`spin`]: Conductor::spin
    pub fn poll(
        &self,
        me: usize,
        ns: u64,
        yielding: bool,
        budget: u32,
        here: &'static Location<'static>,
        cond: &(dyn Fn() -> bool + Sync),
    ) -> u32 {
        if budget == 0 {
            return 0;
        }
        let mut st = self.lock();
        if self.spin_step(&mut st, me, ns, yielding, here) {
            st = self.count_lone(st, me, here);
        }
        let cond = WaitCond::erase(cond);
        st.polls[me] = Some(Poll {
            cond,
            ns,
            here,
            yielding,
            left: budget - 1,
            made: 1,
        });
        let mut st = self.reschedule(st, me);
        st.polls[me].take().map_or(1, |p| p.made)
    }

    /// `me` is about to lock `n` mutexes in turn (a steal round over its
    /// victims), each lock being a point costing `ns`: this makes attempt
    /// 0's point now. Each time `me` is chosen after attempt `i`'s point,
    /// the token holder calls `attempt(i)`: `Some(key)` says the mutex at
    /// `key` is free and that `me` would lock it, find nothing to take and
    /// unlock it at once. If so, and no thread is blocked on `key`, it makes
    /// what the facade's lock and unlock would (the lock word's charges)
    /// and attempt `i + 1`'s point, and chooses again, without waking `me`.
    /// Returns the first attempt `me` makes itself, its point already made
    /// (the caller locks without a point: `Mutex::lock_after_point`), or `n`
    /// when all failed (charges made). The same turns, charges and clocks
    /// as the thread's own attempts, so the same schedule and trace.
    ///
    /// `attempt` may only read (a `try_lock` of the std mutex inside the
    /// facade, released before it returns): it runs under the state lock on
    /// the token holder's thread, while `me` is not running.
    pub fn lock_scan(
        &self,
        me: usize,
        ns: u64,
        n: u32,
        here: &'static Location<'static>,
        attempt: &(dyn Fn(u32) -> Option<usize> + Sync),
    ) -> u32 {
        if n == 0 {
            return 0;
        }
        let mut st = self.lock();
        self.point_step(&mut st, me, ns, here, None);
        // SAFETY: a reference and a raw pointer to the same unsized type
        // are the same fat pointer; only the lifetime is erased. See
        // `ScanAttempt` for why the pointee outlives every call.
        let erased = unsafe {
            std::mem::transmute::<
                &(dyn Fn(u32) -> Option<usize> + Sync + '_),
                *const (dyn Fn(u32) -> Option<usize> + Sync + 'static),
            >(attempt)
        };
        st.scans[me] = Some(Scan {
            attempt: ScanAttempt(erased),
            ns,
            here,
            next: 0,
            n,
        });
        let mut st = self.reschedule(st, me);
        st.scans[me].take().map_or(0, |s| s.next)
    }

    /// Thread `s`, just chosen, left lock attempts with the conductor: if
    /// the next one would fail, make it and the following point here and
    /// return true (choose again); false when `s` must run itself.
    fn scan_for(&self, st: &mut State, s: usize) -> bool {
        let Some(sc) = st.scans[s] else {
            return false;
        };
        if sc.next >= sc.n || st.failed.is_some() {
            return false;
        }
        // SAFETY: no failure is recorded and `s` has not taken the token
        // since it registered, so it waits inside `lock_scan`, where the
        // closure lives (see `ScanAttempt`).
        let attempt = unsafe { &*sc.attempt.0 };
        let Some(key) = attempt(sc.next) else {
            return false;
        };
        if Self::waiters_on(st, key) {
            return false;
        }
        self.acquire_word(st, s, key);
        Self::release_word(st, s, key);
        let next = sc.next + 1;
        st.scans[s] = Some(Scan { next, ..sc });
        if next == sc.n {
            return false;
        }
        self.point_step(st, s, sc.ns, sc.here, None);
        true
    }

    /// `me` wants the mutex at `key` (the facade's `Mutex::lock`): with
    /// `point`, first the lock's point of that cost; with `blocked`, first
    /// the failed attempt `me` has just made itself (the contended charge
    /// and the block on `key`; `point` is then `None`). Then, each time
    /// `me` is chosen, the token holder calls `held()`: while the mutex is
    /// still held, it makes the attempt `me` would make and see fail
    /// ([`Conductor::fail_lock_attempt`]: `lock_contended`, then the block
    /// on `key` at `here`) and chooses again, without waking `me`. Returns
    /// once `me` holds the token and the mutex was free when it was chosen
    /// (or the conductor could not judge: the caller's own `try_lock`
    /// decides, as before). The same attempts at the same turns, with the
    /// same charges and bookkeeping, so the same schedule and trace; only
    /// the OS hand-offs to a thread that would fail its attempt are saved.
    ///
    /// `held` may only read (a `try_lock` of the std mutex inside the
    /// facade, released before it returns): it runs under the state lock,
    /// on the token holder's thread, while `me` is not running.
    pub fn lock_wait(
        &self,
        me: usize,
        key: usize,
        point: Option<u64>,
        blocked: bool,
        here: &'static Location<'static>,
        held: &(dyn Fn() -> bool + Sync),
    ) {
        let mut st = self.lock();
        if let Some(ns) = point {
            self.point_step(&mut st, me, ns, here, None);
        }
        if blocked {
            self.fail_lock_attempt(&mut st, me, key, here);
        }
        let held = WaitCond::erase(held);
        st.lock_waits[me] = Some(LockWait { held, key, here });
        let mut st = self.reschedule(st, me);
        st.lock_waits[me] = None;
    }

    /// A lock attempt of `me` on the mutex at `key` that found it held:
    /// what the facade's `lock` does then (`lock_contended` as local work,
    /// then [`Conductor::block`] on `key`), up to the choice of the next
    /// thread.
    fn fail_lock_attempt(
        &self,
        st: &mut State,
        me: usize,
        key: usize,
        here: &'static Location<'static>,
    ) {
        st.clock[me] = st.clock[me].saturating_add(self.costs.lock_contended);
        st.site[me] = here;
        st.points += 1;
        Self::enter_block(st, me, key, None);
    }

    /// Thread `s`, just chosen, waits inside [`Conductor::lock_wait`]: if
    /// its mutex is still held, make its failed attempt here and return
    /// true (choose again); false when `s` must run itself.
    fn lock_wait_for(&self, st: &mut State, s: usize) -> bool {
        let Some(w) = st.lock_waits[s] else {
            return false;
        };
        if st.failed.is_some() || st.status[s] != Status::Runnable {
            return false;
        }
        // SAFETY: no failure is recorded and `s` has not taken the token
        // since it registered (it clears the registration first), so it
        // waits inside `lock_wait`, where the closure lives (see
        // `WaitCond`), or is the caller itself in its reschedule.
        let held = unsafe { &*w.held.0 };
        if !held() {
            return false;
        }
        self.fail_lock_attempt(st, s, w.key, w.here);
        st.lock_attempts_made += 1;
        true
    }

    /// Failed lock attempts made so far by the conductor for threads
    /// waiting inside [`Conductor::lock_wait`] (each an OS hand-off saved).
    #[cfg(test)]
    pub(crate) fn lock_attempts_made(&self) -> u64 {
        self.lock().lock_attempts_made
    }

    /// The bookkeeping of one spin of `me` (see [`Conductor::spin`]);
    /// returns whether it was a lone one (the caller counts it with
    /// [`Conductor::count_lone`]).
    fn spin_step(
        &self,
        st: &mut State,
        me: usize,
        ns: u64,
        yielding: bool,
        here: &'static Location<'static>,
    ) -> bool {
        st.site[me] = here;
        st.points += 1;
        st.spinning[me] = true;
        let stepped = st.clock[me].saturating_add(ns);
        let working = self.earliest_other_where(st, me, |st, i| !st.spinning[i]);
        let lone = match working.or_else(|| self.earliest_other(st, me)) {
            Some((t, _)) => {
                st.lone_spins = 0;
                st.clock[me] = stepped.max(t);
                false
            }
            None => {
                st.clock[me] = stepped;
                true
            }
        };
        // A spinner keeps its core (`spin_keeps_core`) until it yields or
        // its slice is over; otherwise (the reference) it gives it up at
        // once when another thread waits for one.
        let keeps = self.costs.spin_keeps_core != 0 && !yielding;
        let slice_over = || {
            st.cores
                .as_ref()
                .is_some_and(|c| c.held_for(me, st.clock[me]) >= self.costs.time_slice)
        };
        if !keeps || slice_over() {
            self.yield_core_if_awaited(st, me);
        }
        lone
    }

    /// Thread `s`, just chosen, left a wait loop with the conductor: if
    /// its condition is still false, make its next spin here and return
    /// true (choose again); false when `s` must run itself (no loop, its
    /// budget spent, its condition true, the run failed, or `s` would spin
    /// alone).
    fn poll_for(&self, st: &mut State, s: usize) -> bool {
        let Some(p) = st.polls[s] else {
            return false;
        };
        if p.left == 0 || st.failed.is_some() || self.earliest_other(st, s).is_none() {
            return false;
        }
        // SAFETY: no failure is recorded and `s` has not taken the token
        // since it registered (it takes the registration out first), so it
        // is still inside `poll`, where the closure lives: waiting at its
        // gate, or the caller itself in `poll`'s reschedule (see `WaitCond`).
        let cond = unsafe { &*p.cond.0 };
        if cond() {
            return false;
        }
        let lone = self.spin_step(st, s, p.ns, p.yielding, p.here);
        debug_assert!(!lone, "checked above: another thread can run");
        st.polls[s] = Some(Poll {
            left: p.left - 1,
            made: p.made + 1,
            ..p
        });
        true
    }

    /// One more wait-loop iteration (a spin or a sleep) while no other
    /// thread can run; fail the run at [`LONE_SPIN_LIMIT`] in a row. The
    /// count restarts at every hand-off and every such iteration that has
    /// another candidate.
    fn count_lone<'s>(
        &'s self,
        mut st: MutexGuard<'s, State>,
        me: usize,
        here: &'static Location<'static>,
    ) -> MutexGuard<'s, State> {
        st.lone_spins += 1;
        if st.lone_spins < LONE_SPIN_LIMIT {
            return st;
        }
        let msg = format!(
            "virtual run: {} spins at {here} and no other thread can run \
             (a wait nothing will end){}",
            self.name(me),
            self.describe(&st)
        );
        self.fail(st, msg)
    }

    /// Block `me` until a [`Conductor::wake`] on `key` (non-zero) or until
    /// virtual time `deadline`, whichever comes first; then wait for the
    /// token. Returns whether the deadline ended the wait. With no
    /// runnable thread left and no deadline pending, the run is a deadlock:
    /// it fails naming every thread and where it blocked.
    pub fn block(
        &self,
        me: usize,
        key: usize,
        deadline: Option<u64>,
        at: &'static Location<'static>,
    ) -> bool {
        let mut st = self.lock();
        st.site[me] = at;
        st.points += 1;
        // A sleep (timed, no key) with no one else to run is a wait-loop
        // iteration alone, like a spin.
        if key == 0 && deadline.is_some() {
            if self.earliest_other(&st, me).is_none() {
                st = self.count_lone(st, me, at);
            } else {
                st.lone_spins = 0;
            }
        }
        Self::enter_block(&mut st, me, key, deadline);
        let st = self.reschedule(st, me);
        st.timed_out[me]
    }

    /// `me` becomes blocked on `key` (or asleep until `deadline`, key 0):
    /// its place in the wake order, its status, its core given up. The
    /// part of [`Conductor::block`] that a failed lock attempt made for a
    /// waiting thread shares ([`Conductor::fail_lock_attempt`]).
    fn enter_block(st: &mut State, me: usize, key: usize, deadline: Option<u64>) {
        let seq = st.next_seq;
        st.next_seq += 1;
        st.timed_out[me] = false;
        if key != 0 {
            st.spinning[me] = false;
        }
        st.status[me] = Status::Blocked { key, seq, deadline };
        Self::leave_core(st, me);
    }

    /// Sleep `ns` of virtual time (a timed park).
    pub fn sleep(&self, me: usize, ns: u64, at: &'static Location<'static>) {
        let until = self.now(me).saturating_add(ns);
        self.block(me, 0, Some(until), at);
    }

    /// Wake the threads blocked on `key` (the oldest one, or all): each
    /// becomes runnable at the latest of its own clock and `me`'s plus the
    /// wake-up cost; `me` pays `wake_notify` (the notify call) if anyone
    /// woke. No hand-off: the woken are never earlier than `me` (the
    /// woken's time is at least the waker's after its own part), except
    /// under wake-up preemption (`wake_preempt`, [`Conductor::preempt_waker`]):
    /// then the first woken thread takes `me`'s core and `me` stops here.
    /// Returns how many woke.
    pub fn wake(&self, me: usize, key: usize, all: bool) -> usize {
        self.wake_as(me, key, all, false)
    }

    /// An unlock waking the oldest thread blocked on the mutex `key`. A
    /// contended lock spins before it sleeps (`mutex_spins` iterations of
    /// the table; std's futex mutex makes 100): a waiter that blocked at
    /// most that many `spin`s before this release was still spinning, so it
    /// takes the lock at the release plus a `line_transfer`, and nobody
    /// pays a wake-up. Later than that (always, with `mutex_spins` 0) it
    /// was asleep: as [`Conductor::wake`].
    pub fn wake_lock_waiter(&self, me: usize, key: usize) -> usize {
        self.wake_as(me, key, false, true)
    }

    fn wake_as(&self, me: usize, key: usize, all: bool, mutex: bool) -> usize {
        let mut st = self.lock();
        let now = st.clock[me];
        let (woken_part, waker_part) = (self.costs.wake_up, self.costs.wake_notify);
        let slept_at = now.saturating_add(woken_part.max(waker_part));
        let spin_window = self.costs.mutex_spins.saturating_mul(self.costs.spin);
        let mut woken = 0;
        let mut slept = false;
        let mut first = None;
        loop {
            let oldest = (0..st.status.len())
                .filter_map(|i| match st.status[i] {
                    Status::Blocked { key: k, seq, .. } if k == key && key != 0 => Some((seq, i)),
                    _ => None,
                })
                .min();
            let Some((_, i)) = oldest else { break };
            st.status[i] = Status::Runnable;
            let spinning = mutex
                && self.costs.mutex_spins > 0
                && now.saturating_sub(st.clock[i]) <= spin_window;
            let at = if spinning {
                now.saturating_add(self.costs.line_transfer)
            } else {
                slept = true;
                slept_at
            };
            // With wake-up preemption the first woken may instead run on
            // the waker's core (`preempt_waker`): from when it could, its
            // own clock or the waker's after the waker's part.
            if self.costs.wake_preempt > 0 && first.is_none() {
                let ready = if spinning {
                    at
                } else {
                    now.saturating_add(waker_part)
                };
                first = Some((i, st.clock[i].max(ready)));
            }
            st.clock[i] = st.clock[i].max(at);
            woken += 1;
            if !all {
                break;
            }
        }
        if woken > 0 {
            st.spinning[me] = false;
        }
        if slept {
            // Local work of the waker (rule 7): no reschedule.
            st.clock[me] = now.saturating_add(waker_part);
        }
        if let Some((i, ready)) = first {
            if self.preempt_waker(&mut st, me, i, ready) {
                // `me` is off its core: it stops here, inside the notify
                // or the unlock, until a core is free for it again.
                drop(self.reschedule(st, me));
            }
        }
        woken
    }

    /// Wake-up preemption on time-shared cores (`wake_preempt` > 0): the
    /// thread `i` that `me` just woke has no core and every core is held,
    /// so the modelled OS puts it on `me`'s core (as Linux places a woken
    /// thread on its waker's busy CPU and preempts the waker): `i` runs at
    /// `ready` (its own clock or `me`'s after `me`'s part of the wake,
    /// whichever is later) plus `wake_preempt` (the switch there) instead
    /// of `wake_up`; `me` gives its core up (yielded) at its clock and
    /// waits for one (paying `context_switch` to get one back). A
    /// lock `me` still holds (a notify under the lock) stays held while
    /// `i` runs: `i` finds it held and blocks on it, and `me`'s unlock
    /// wakes it again. Returns whether `me` was preempted.
    fn preempt_waker(&self, st: &mut State, me: usize, i: usize, ready: u64) -> bool {
        let now = st.clock[me];
        let Some(c) = st.cores.as_mut() else {
            return false;
        };
        if !c.has_core(me) || c.has_core(i) || c.earliest_free().is_some() {
            return false;
        }
        c.release(me, now, true);
        // The only free core is `me`'s, free from `now`: `i` gets it at
        // `ready` (not before `now`) plus the switch.
        st.clock[i] = c.take(i, ready, self.costs.wake_preempt);
        true
    }

    /// Whether any thread is blocked on `key` (an unlock with nobody
    /// waiting skips the wake).
    pub fn has_waiters(&self, key: usize) -> bool {
        Self::waiters_on(&self.lock(), key)
    }

    fn waiters_on(st: &State, key: usize) -> bool {
        st.status
            .iter()
            .any(|s| matches!(*s, Status::Blocked { key: k, .. } if k == key))
    }

    /// Thread `me` ended: give the token to the earliest runnable thread.
    pub fn exit(&self, me: usize) {
        let mut st = self.lock();
        st.status[me] = Status::Done;
        Self::leave_core(&mut st, me);
        if st.failed.is_some() {
            return;
        }
        match self.next_holder(&mut st) {
            Some(next) => {
                drop(st);
                self.turns[next].open();
            }
            None => {
                st.running = NOBODY;
                if st.status.iter().any(|s| *s != Status::Done) {
                    let msg = format!(
                        "virtual run: {} ended and every other thread is blocked (deadlock){}",
                        self.name(me),
                        self.describe(&st)
                    );
                    st.failed = Some(msg);
                    self.open_all();
                }
            }
        }
    }

    /// Thread `me` panicked: fail the run so every waiting thread stops.
    pub fn abort(&self, me: usize) {
        let mut st = self.lock();
        st.status[me] = Status::Done;
        if st.failed.is_none() {
            st.failed = Some(format!("virtual run: {} panicked", self.name(me)));
        }
        st.running = NOBODY;
        self.open_all();
    }

    /// The earliest candidate other than `me`: a runnable thread at its
    /// clock, or a timed sleeper at its deadline (ties by index).
    fn earliest_other(&self, st: &State, me: usize) -> Option<(u64, usize)> {
        self.earliest_other_where(st, me, |_, _| true)
    }

    fn earliest_other_where(
        &self,
        st: &State,
        me: usize,
        keep: impl Fn(&State, usize) -> bool,
    ) -> Option<(u64, usize)> {
        (0..st.status.len())
            .filter(|&i| i != me && keep(st, i))
            .filter_map(|i| Self::ready_base(st, i).map(|t| (t, i)))
            .min()
    }

    /// When thread `i` could run next, if it can without a wake: on
    /// time-shared cores, once it also has a core (one is free).
    fn ready_at(st: &State, i: usize) -> Option<u64> {
        let t = Self::ready_base(st, i)?;
        match &st.cores {
            Some(c) if !c.has_core(i) => Some(t.max(c.earliest_free()?)),
            _ => Some(t),
        }
    }

    /// When thread `i` wants to run next, if it can without a wake,
    /// whether or not a core is free for it.
    fn ready_base(st: &State, i: usize) -> Option<u64> {
        match st.status[i] {
            Status::Runnable => Some(st.clock[i]),
            Status::Blocked {
                deadline: Some(d), ..
            } => Some(d.max(st.clock[i])),
            _ => None,
        }
    }

    /// The thread to run next (smallest time, then smallest index); a
    /// chosen sleeper wakes at its deadline.
    /// On time-shared cores a thread that gave its core up loses ties, and
    /// the chosen thread takes a core if it has none (see [`Cores::take`]).
    fn choose(&self, st: &mut State) -> Option<usize> {
        let yielded = |st: &State, i: usize| st.cores.as_ref().is_some_and(|c| c.yielded(i));
        let (t, _, i) = (0..st.status.len())
            .filter_map(|i| Self::ready_at(st, i).map(|t| (t, yielded(st, i), i)))
            .min()?;
        if st.status[i] != Status::Runnable {
            st.status[i] = Status::Runnable;
            st.timed_out[i] = true;
            st.clock[i] = t;
        }
        let switch = self.costs.context_switch;
        if let Some(c) = st.cores.as_mut().filter(|c| !c.has_core(i)) {
            st.clock[i] = c.take(i, t, switch);
        }
        Some(i)
    }

    /// Choose who runs next; if not `me`, hand the token over and wait for
    /// it back. Fails the run on a deadlock.
    fn reschedule<'s>(&'s self, mut st: MutexGuard<'s, State>, me: usize) -> MutexGuard<'s, State> {
        match self.next_holder(&mut st) {
            Some(next) if next == me => st,
            Some(next) => {
                let seen = (st.points, st.handoffs);
                // Release the state lock before waking `next`, so it
                // never wakes into a lock still held here; and go straight
                // to our own gate without taking the lock again (the token
                // is `next`'s now, so `running != me` until someone hands
                // it back through our gate): `next` finds the lock free.
                drop(st);
                self.turns[next].open();
                self.wait_at_gate(seen, me)
            }
            None => {
                let msg = format!(
                    "virtual run: {} blocked at {} and no thread can run (deadlock){}",
                    self.name(me),
                    st.site[me],
                    self.describe(&st)
                );
                self.fail(st, msg)
            }
        }
    }

    /// Choose the next holder of the token and give it to it in the state
    /// (the caller opens its gate, after releasing the state lock, unless
    /// it is the caller). Chosen threads whose wait loop the conductor runs
    /// for them ([`Conductor::poll`]) take their turn here, each counted as
    /// the hand-off it would have been.
    fn next_holder(&self, st: &mut State) -> Option<usize> {
        loop {
            let next = self.choose(st)?;
            if next != st.running {
                self.hand(st, next);
            }
            if !self.poll_for(st, next) && !self.scan_for(st, next) && !self.lock_wait_for(st, next)
            {
                return Some(next);
            }
        }
    }

    /// Give the token to `next` (in the state).
    fn hand(&self, st: &mut State, next: usize) {
        st.lone_spins = 0;
        st.running = next;
        st.handoffs += 1;
    }

    /// Open every thread's gate (the run failed: each waiter wakes, finds
    /// `failed` and stops).
    fn open_all(&self) {
        self.turns.iter().for_each(Gate::open);
    }

    /// Wait at `turns[me]` until `me` holds the token. A gate may have been
    /// opened for an earlier turn `me` already took (a thread chosen
    /// before it started finds `running` set without passing its gate), so
    /// a pass is only a hint: `running` under the state lock decides. The stall watchdog:
    /// if neither a point nor a hand-off happens for `stall` of wall time,
    /// the holder is looping outside the facade, where no other thread can
    /// ever run to end its wait. The run fails with a message naming the
    /// holder and its last point (the loop is after that line), every
    /// waiting thread stops, and the hook (if any) is called: the holder
    /// itself cannot be stopped from here.
    fn wait_turn<'s>(&'s self, st: MutexGuard<'s, State>, me: usize) -> MutexGuard<'s, State> {
        match Self::take_turn(st, me) {
            Ok(st) => st,
            Err(seen) => self.wait_at_gate(seen, me),
        }
    }

    /// The loop of [`Conductor::wait_turn`] entered at the gate, without
    /// the state lock: `me` has just handed the token on (or found it
    /// elsewhere), and `seen` are the counters at that moment.
    fn wait_at_gate(&self, mut seen: (u64, u64), me: usize) -> MutexGuard<'_, State> {
        loop {
            let opened = self.turns[me].pass(self.stall);
            let mut st = self.lock();
            let now = (st.points, st.handoffs);
            if !opened && now == seen && st.running != NOBODY && st.failed.is_none() {
                let msg = self.stall_message(&st);
                st.failed = Some(msg.clone());
                self.open_all();
                if let Some(hook) = &self.on_stall {
                    drop(st);
                    (hook.0)(&msg);
                    st = self.lock();
                } else {
                    eprintln!("{msg}");
                }
            }
            match Self::take_turn(st, me) {
                Ok(st) => return st,
                Err(_) => seen = now,
            }
        }
    }

    /// `st` back if `me` holds the token; otherwise the lock released and
    /// the counters (points, hand-offs) seen. Panics if the run failed.
    fn take_turn(
        st: MutexGuard<'_, State>,
        me: usize,
    ) -> Result<MutexGuard<'_, State>, (u64, u64)> {
        if let Some(msg) = &st.failed {
            let msg = msg.clone();
            drop(st);
            panic!("{msg}");
        }
        if st.running == me {
            return Ok(st);
        }
        Err((st.points, st.handoffs))
    }

    /// The stall watchdog's message: who holds the token, since where.
    fn stall_message(&self, st: &State) -> String {
        let holder = st.running;
        format!(
            "virtual run: {} has run for {:?} of wall time without reaching a \
             synchronization point since {} (a wait loop outside the facade: \
             move it onto psmr-schedulers' sync facade){}",
            self.name(holder),
            self.stall,
            st.site[holder],
            self.describe(st)
        )
    }

    /// Record `msg` as the run's failure, wake every waiter, and panic.
    fn fail(&self, mut st: MutexGuard<'_, State>, msg: String) -> ! {
        st.failed.get_or_insert(msg.clone());
        st.running = NOBODY;
        self.open_all();
        drop(st);
        panic!("{msg}");
    }

    /// Every thread's state, one line each, for a watchdog's message.
    fn describe(&self, st: &State) -> String {
        let mut out = String::new();
        for i in 0..st.status.len() {
            let what = match st.status[i] {
                Status::Runnable => "runnable".to_string(),
                Status::Blocked { deadline: None, .. } => "blocked".to_string(),
                Status::Blocked {
                    deadline: Some(d), ..
                } => format!("sleeping until {d} ns"),
                Status::Done => "done".to_string(),
            };
            out.push_str(&format!(
                "\n  {}: {what} at {} ns, last at {}",
                self.name(i),
                st.clock[i],
                st.site[i]
            ));
        }
        out
    }
}

impl Drop for Conductor {
    fn drop(&mut self) {
        super::ACTIVE.fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
    }
}
