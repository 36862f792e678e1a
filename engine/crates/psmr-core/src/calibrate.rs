//! Calibrating the virtual-cores cost table on the machine at hand (issue
//! 25): a short microbenchmark of each [`CostTable`] kind, natively or in
//! the browser (the wasm engine calls [`calibrate`] with the browser's pool).
//!
//! Portable: time comes from [`crate::clock::now_ns`] (natively `Instant`,
//! in the browser `performance.now()`), and the two-thread measurements run
//! on a [`ThreadHost`] team of one worker and the driver, so no thread is
//! spawned directly. Each kind is measured in batches for about
//! [`Calibration::per_kind_ms`]; the fastest batch counts (on a shared
//! machine the slower batches measured other processes' interference, not
//! the hardware). The loops here are real spin and wait loops on purpose:
//! calibration never runs on virtual cores.

use crate::pin;
use std::collections::VecDeque;
use std::hint::black_box;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use crate::app::{Application, ShardedList};
use crate::clock::now_ns;
use crate::request::Op;
use crate::threads::ThreadHost;
use crate::virt::sync::{Condvar, Mutex};
use crate::virt::CostTable;

/// Spins of std's futex mutex before it sleeps
/// (`library/std/src/sys/sync/mutex/futex.rs`, `spin`).
pub const STD_MUTEX_SPINS: u64 = 100;

/// How long to measure.
#[derive(Clone, Copy, Debug)]
pub struct Calibration {
    /// Wall time spent on each measurement, in ms (the whole calibration
    /// takes about ten times this; the time slice at least 50 ms).
    pub per_kind_ms: u64,
}

impl Default for Calibration {
    /// About 2.3 s in all.
    fn default() -> Self {
        Calibration { per_kind_ms: 200 }
    }
}

/// Every measured kind: nanoseconds per operation, fractional; `NAN` for a
/// kind that could not be measured (the two threads never ran side by
/// side: a loaded machine).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Measured {
    pub lock_uncontended: f64,
    pub lock_contended: f64,
    pub atomic_rmw: f64,
    pub line_transfer: f64,
    pub queue_handoff: f64,
    pub wake_up: f64,
    /// The waker's part of `wake_up`: the notify call itself (measured
    /// in the same ping-pong as `wake_up`).
    pub wake_notify: f64,
    /// One reading of the run's clock ([`now_ns`]).
    pub clock_read: f64,
    pub spin: f64,
    pub yield_now: f64,
    pub work_unit: f64,
    pub execute_base: f64,
    /// Handing one core from a thread to another (Linux only: the two
    /// threads are pinned to one CPU; `NAN` elsewhere, e.g. in wasm).
    pub context_switch: f64,
    /// How long the OS lets a thread keep a core another thread waits
    /// for (Linux only, as `context_switch`).
    pub time_slice: f64,
}

impl Measured {
    /// The table: each cost rounded to whole nanoseconds, at least 1 (a
    /// free point would let a wait loop spin without its clock moving); a
    /// kind not measured (and `scan_step`, never measured) keeps the
    /// reference table's value.
    pub fn table(&self) -> CostTable {
        let r = CostTable::reference();
        let ns = |x: f64, reference: u64| {
            if x.is_finite() {
                (x.round() as u64).max(1)
            } else {
                reference
            }
        };
        // In picoseconds, at least 1; 0 (the charge then uses the whole
        // nanoseconds) when not measured.
        let ps = |x: f64| {
            if x.is_finite() && x > 0.0 {
                ((x * 1000.0).round() as u64).max(1)
            } else {
                0
            }
        };
        CostTable {
            lock_uncontended: ns(self.lock_uncontended, r.lock_uncontended),
            lock_contended: ns(self.lock_contended, r.lock_contended),
            atomic_rmw: ns(self.atomic_rmw, r.atomic_rmw),
            line_transfer: ns(self.line_transfer, r.line_transfer),
            queue_handoff: ns(self.queue_handoff, r.queue_handoff),
            wake_up: ns(self.wake_up, r.wake_up),
            wake_notify: ns(self.wake_notify, r.wake_notify),
            // Not measured here: it needs a run's delivery loop
            // (docs/benchmarks/virtual.md measures it on real runs).
            deliver: r.deliver,
            // std's futex mutex (natively and in wasm with atomics) spins
            // 100 times before it sleeps: its constant, not measured.
            mutex_spins: STD_MUTEX_SPINS,
            clock_read: ns(self.clock_read, r.clock_read),
            // Not measured here: a scheduler's own work at one place of
            // its protocol needs that scheduler's runs
            // (docs/benchmarks/virtual.md measures them on real runs).
            route: r.route,
            event_pop: r.event_pop,
            event_register: r.event_register,
            graph_take: r.graph_take,
            graph_remove: r.graph_remove,
            // Not measured: a switch of the model's rule (a real spinner
            // keeps its CPU until it yields), set by a table that wants it
            // (docs/benchmarks/virtual.md).
            spin_keeps_core: r.spin_keeps_core,
            // Not measured here: a switch on a busy core after a wake, read
            // from real runs' timing (docs/benchmarks/virtual.md).
            wake_preempt: r.wake_preempt,
            spin: ns(self.spin, r.spin),
            yield_now: ns(self.yield_now, r.yield_now),
            work_unit: ns(self.work_unit, r.work_unit),
            // The same measurement to the picosecond, which the charge
            // uses: a list node costs under a nanosecond here.
            work_unit_ps: ps(self.work_unit),
            execute_base: ns(self.execute_base, r.execute_base),
            // Not measured here: a step of a scheduler's own search is
            // fitted on CBASE's scheduler cost (see `CostTable::reference`).
            scan_step: r.scan_step,
            context_switch: ns(self.context_switch, r.context_switch),
            time_slice: ns(self.time_slice, r.time_slice),
        }
    }
}

/// Measure every kind of the cost table on this machine. `host` must run
/// a team of one worker beside the driver (two threads at once).
pub fn calibrate(host: &ThreadHost, cal: Calibration) -> Result<Measured, String> {
    if host.capacity() < 2 {
        return Err("calibration needs two threads at once; the pool has one".into());
    }
    let ms = cal.per_kind_ms.max(1);
    let (work_unit, execute_base) = list_walk(ms);
    let yield_now = yield_now(ms);
    let (wake_up, wake_notify) = wake_up_and_notify(host, ms)?;
    Ok(Measured {
        lock_uncontended: lock_uncontended(ms),
        lock_contended: lock_contended(host, ms)?,
        atomic_rmw: atomic_rmw(ms),
        line_transfer: line_transfer(host, ms)?,
        queue_handoff: queue_handoff(host, ms)?,
        wake_up,
        wake_notify,
        clock_read: clock_read(ms),
        spin: spin(ms),
        yield_now,
        work_unit,
        execute_base,
        context_switch: context_switch(host, ms, yield_now)?,
        time_slice: time_slice(host, ms)?,
    })
}

/// The fastest of repeated batches of `op` (ns per call), batches sized to
/// last at least 1 ms each, for about `ms` of wall time.
fn fastest(ms: u64, mut op: impl FnMut(u64)) -> f64 {
    let mut iters = 64u64;
    // Grow the batch until it lasts 1 ms (coarse clocks, e.g. 5 us in a
    // browser, then err by at most 0.5 %).
    loop {
        let t = now_ns();
        op(iters);
        if now_ns() - t >= 1_000_000 || iters >= 1 << 30 {
            break;
        }
        iters *= 2;
    }
    let end = now_ns() + ms * 1_000_000;
    let mut best = f64::INFINITY;
    for batch in 0.. {
        let t = now_ns();
        op(iters);
        best = best.min((now_ns() - t) as f64 / iters as f64);
        if batch >= 2 && now_ns() >= end {
            break;
        }
    }
    best
}

fn lock_uncontended(ms: u64) -> f64 {
    let m = Mutex::new(0u64);
    fastest(ms, |n| {
        for _ in 0..n {
            *m.lock().unwrap_or_else(|p| p.into_inner()) += 1;
        }
    })
}

fn atomic_rmw(ms: u64) -> f64 {
    let a = AtomicU64::new(0);
    fastest(ms, |n| {
        for _ in 0..n {
            // SeqCst: the strongest (and on x86 the same) RMW a scheduler
            // uses; the measured cost is what matters, not the ordering.
            black_box(a.fetch_add(1, Ordering::SeqCst));
        }
    })
}

/// The clock every timestamp of a run reads (natively `Instant`, in the
/// browser `performance.now()`).
fn clock_read(ms: u64) -> f64 {
    fastest(ms, |n| {
        for _ in 0..n {
            black_box(now_ns());
        }
    })
}

fn spin(ms: u64) -> f64 {
    fastest(ms, |n| {
        for _ in 0..n {
            std::hint::spin_loop();
        }
    })
}

fn yield_now(ms: u64) -> f64 {
    // A yield is slow: fewer, shorter batches are enough.
    fastest(ms, |n| {
        for _ in 0..n {
            std::thread::yield_now();
        }
    })
}

/// The app's own list walk: `ListContains` on a 16-node and a 4,096-node
/// list, timed per request against the units [`Application::work`]
/// charges; the slope is one unit, the intercept the fixed part (the
/// application call; the run's own bookkeeping around it is not in it).
fn list_walk(ms: u64) -> (f64, f64) {
    let per_op = |entries: u32| {
        let app = ShardedList::new(1, entries);
        let ops: Vec<Op> = (0..64u32)
            .map(|i| Op::ListContains {
                shard: 0,
                // Keys are the even numbers below 2 * entries: half the
                // probes hit somewhere along the list, half walk it all.
                key: i * 2 * entries / 64 + i % 2,
            })
            .collect();
        let units = ops.iter().map(|o| app.work(o).units).sum::<u64>() as f64 / 64.0;
        let ns = fastest(ms / 2, |n| {
            for k in 0..n {
                black_box(app.execute(&ops[(k % 64) as usize]));
            }
        });
        (units, ns)
    };
    let (u0, t0) = per_op(16);
    let (u1, t1) = per_op(4_096);
    let unit = ((t1 - t0) / (u1 - u0)).max(0.0);
    (unit, (t0 - unit * u0).max(0.0))
}

/// Wait (spinning, yielding after a while) until `done()`; `false` if
/// `stop` was raised first.
fn spin_until(stop: &AtomicBool, mut done: impl FnMut() -> bool) -> bool {
    let mut spins = 0u32;
    while !done() {
        // Relaxed: `stop` only ends the loop; no data comes with it.
        if stop.load(Ordering::Relaxed) {
            return false;
        }
        spins += 1;
        if spins < 1 << 14 {
            std::hint::spin_loop();
        } else {
            std::thread::yield_now();
        }
    }
    true
}

/// Run `partner` on a pool thread beside `driver` (which returns the
/// measurement and raises `stop` when it has enough); the partner must end
/// once `stop` is raised.
fn pair(
    host: &ThreadHost,
    stop: &AtomicBool,
    partner: impl Fn() + Sync,
    driver: impl FnOnce() -> f64 + Send,
) -> Result<f64, String> {
    host.run(
        1,
        |_| partner(),
        || {
            let r = driver();
            stop.store(true, Ordering::Relaxed);
            r
        },
    )
}

/// Batches of `rounds` timed by the driver for about `ms`: each batch's
/// time per round, sorted. `round(i)` runs round `i` (from 0, growing
/// across batches) and returns `false` if the partner stopped.
fn timed_rounds(ms: u64, rounds: u64, mut round: impl FnMut(u64) -> bool) -> Vec<f64> {
    let end = now_ns() + ms * 1_000_000;
    let mut batches = Vec::new();
    let mut i = 0;
    'batches: for batch in 0.. {
        let t = now_ns();
        for _ in 0..rounds {
            if !round(i) {
                break 'batches;
            }
            i += 1;
        }
        batches.push((now_ns() - t) as f64 / rounds as f64);
        if batch >= 2 && now_ns() >= end {
            break;
        }
    }
    batches.sort_by(f64::total_cmp);
    batches
}

/// Longest a spinning hand-over between two running cores may take: no
/// hardware moves a cache line or a queue item in 20 us. A fastest batch
/// slower than that measured the OS scheduler (the two threads never ran
/// side by side: a loaded machine) and counts as not measured.
const SIDE_BY_SIDE_NS: f64 = 20_000.0;

/// The fastest batch: right where interference (the partner descheduled)
/// only slows a round down; `NAN` if even that one was not side by side.
fn fastest_batch(b: &[f64]) -> f64 {
    match b.first() {
        Some(&x) if x <= SIDE_BY_SIDE_NS => x,
        _ => f64::NAN,
    }
}

/// Two threads ping-pong one cache line: each round the driver writes
/// it and waits for the partner's write, so a round moves the line twice.
fn line_transfer(host: &ThreadHost, ms: u64) -> Result<f64, String> {
    let turn = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    // Acquire/Release: each side reads the other's write of the line; the
    // values themselves carry the protocol.
    let partner = || {
        let mut want = 1;
        while spin_until(&stop, || turn.load(Ordering::Acquire) == want) {
            turn.store(want + 1, Ordering::Release);
            want += 2;
        }
    };
    let driver = || {
        fastest_batch(&timed_rounds(ms, 10, |i| {
            turn.store(2 * i + 1, Ordering::Release);
            spin_until(&stop, || turn.load(Ordering::Acquire) == 2 * i + 2)
        })) / 2.0
    };
    pair(host, &stop, partner, driver)
}

/// Both threads take and release one lock as fast as they can, so each
/// acquisition finds the lock's line (often the lock) with the other core.
/// Only batches in which the partner made at least a quarter as many
/// acquisitions as the driver count (on a loaded machine the partner is
/// often descheduled, and the lock is then uncontended); `NAN` if none did.
fn lock_contended(host: &ThreadHost, ms: u64) -> Result<f64, String> {
    let m = Mutex::new(0u64);
    let stop = AtomicBool::new(false);
    let take = || {
        let mut g = m.lock().unwrap_or_else(|p| p.into_inner());
        *g += 1;
        *g
    };
    let partner = || {
        // Relaxed: `stop` only ends the loop.
        while !stop.load(Ordering::Relaxed) {
            take();
        }
    };
    let driver = || {
        const ROUNDS: u64 = 200;
        let end = now_ns() + ms * 1_000_000;
        let mut best = f64::NAN;
        for batch in 0.. {
            let (t, first) = (now_ns(), take());
            let last = (1..ROUNDS).fold(first, |_, _| take());
            let elapsed = (now_ns() - t) as f64;
            let all = last - first + 1;
            if all >= ROUNDS + ROUNDS / 4 {
                best = best.min(elapsed / all as f64);
            }
            if batch >= 2 && now_ns() >= end {
                break;
            }
        }
        best
    };
    pair(host, &stop, partner, driver)
}

/// The driver pushes items into a locked queue, the partner pops them;
/// per item, the time for it to be taken on the other core.
fn queue_handoff(host: &ThreadHost, ms: u64) -> Result<f64, String> {
    let q = Mutex::new(VecDeque::<u64>::new());
    let taken = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let partner = || {
        loop {
            let item = q.lock().unwrap_or_else(|p| p.into_inner()).pop_front();
            match item {
                // Release: the driver's Acquire sees the count after the pop.
                Some(_) => {
                    taken.fetch_add(1, Ordering::Release);
                }
                None if stop.load(Ordering::Relaxed) => return,
                None => std::hint::spin_loop(),
            }
        }
    };
    let driver = || {
        fastest_batch(&timed_rounds(ms, 20, |i| {
            q.lock().unwrap_or_else(|p| p.into_inner()).push_back(i);
            spin_until(&stop, || taken.load(Ordering::Acquire) > i)
        }))
    };
    pair(host, &stop, partner, driver)
}

/// The partner of a condition-variable ping-pong: wait until `turn` is
/// odd (the driver's move), make it even and notify back; until `stop`.
fn answer_wakes(turn: &Mutex<u64>, cv: &Condvar, stop: &AtomicBool) {
    let mut want = 1;
    let mut g = turn.lock().unwrap_or_else(|p| p.into_inner());
    loop {
        while *g != want {
            // Relaxed: `stop` only ends the loop; a timed wait sees it
            // within 10 ms even if no notify follows.
            if stop.load(Ordering::Relaxed) {
                return;
            }
            let (ng, _) = cv
                .wait_timeout(g, std::time::Duration::from_millis(10))
                .unwrap_or_else(|p| p.into_inner());
            g = ng;
        }
        *g += 1;
        want += 2;
        cv.notify_all();
    }
}

/// Condition-variable ping-pong: each round wakes the partner and is woken
/// back, two wake-ups (a futex wake and a switch to the woken thread).
/// Returns the wake-up (half the fastest batch's round: a wake-up goes
/// through the OS scheduler by nature, so no batch is discarded as too
/// slow) and the waker's part of it, the driver's notify calls alone,
/// each made while the partner waits (the median batch's mean: a notify
/// racing with the partner's going to sleep finds no one to wake and is
/// cheap, so the fastest batch would under-read it).
fn wake_up_and_notify(host: &ThreadHost, ms: u64) -> Result<(f64, f64), String> {
    const ROUNDS: u64 = 200;
    let turn = Mutex::new(0u64);
    let cv = Condvar::new();
    let stop = AtomicBool::new(false);
    // The notify's result, as f64 bits (the driver returns the wake-up).
    let notify = AtomicU64::new(f64::NAN.to_bits());
    let partner = || answer_wakes(&turn, &cv, &stop);
    let driver = || {
        let end = now_ns() + (ms / 2).max(1) * 1_000_000;
        let (mut rounds, mut notifies) = (Vec::new(), Vec::new());
        let mut i = 0u64;
        while rounds.len() < 3 || now_ns() < end {
            let (start, mut notify_ns) = (now_ns(), 0u64);
            for _ in 0..ROUNDS {
                // Notify under the lock, as the schedulers do: the woken
                // thread then also waits for the lock (a wake-up in the
                // model is followed by its re-lock, see `Condvar::wait`).
                let mut g = turn.lock().unwrap_or_else(|p| p.into_inner());
                *g = 2 * i + 1;
                let t = now_ns();
                cv.notify_all();
                notify_ns += now_ns() - t;
                while *g != 2 * i + 2 {
                    g = cv.wait(g).unwrap_or_else(|p| p.into_inner());
                }
                i += 1;
            }
            rounds.push((now_ns() - start) as f64 / ROUNDS as f64);
            notifies.push(notify_ns as f64 / ROUNDS as f64);
        }
        rounds.sort_by(f64::total_cmp);
        notifies.sort_by(f64::total_cmp);
        // Relaxed: read after `pair` returns, which joined this thread.
        notify.store(notifies[notifies.len() / 2].to_bits(), Ordering::Relaxed);
        rounds[0] / 2.0
    };
    let up = pair(host, &stop, partner, driver)?;
    Ok((up, f64::from_bits(notify.load(Ordering::Relaxed))))
}

/// Run `partner` and `driver` as [`pair`] does, both pinned to one CPU
/// (the first the driver may run on), so that they time-share one core;
/// each thread's affinity is restored before it returns (the pool's
/// threads run later work). `NAN` where threads cannot be pinned (not
/// Linux, or the OS refused).
fn pinned_pair<P, D>(
    host: &ThreadHost,
    stop: &AtomicBool,
    partner: P,
    driver: D,
) -> Result<f64, String>
where
    P: Fn() + Sync,
    D: FnOnce() -> f64 + Send,
{
    let Some(cpu) = pin::first_cpu() else {
        return Ok(f64::NAN);
    };
    let ready = AtomicBool::new(false);
    pair(
        host,
        stop,
        || {
            let old = pin::pin_to(cpu);
            // Release/Acquire: the driver starts timing only once the
            // partner is pinned (it then shares the driver's core).
            ready.store(true, Ordering::Release);
            if old.is_some() {
                partner();
            }
            pin::restore(old);
        },
        || {
            let old = pin::pin_to(cpu);
            let partner_pinned = spin_until(stop, || ready.load(Ordering::Acquire));
            let r = if old.is_some() && partner_pinned {
                driver()
            } else {
                f64::NAN
            };
            pin::restore(old);
            r
        },
    )
}

/// Two threads on one core, each yielding in a loop: every yield of the
/// driver's switches to the partner, whose yield switches back. One
/// driver yield is then two yields and two switches; less the yield alone
/// (`yield_now`, nobody else runnable), half of it is one switch.
fn context_switch(host: &ThreadHost, ms: u64, yield_alone: f64) -> Result<f64, String> {
    let stop = AtomicBool::new(false);
    let partner = || {
        // Relaxed: `stop` only ends the loop.
        while !stop.load(Ordering::Relaxed) {
            std::thread::yield_now();
        }
    };
    let driver = || {
        let both = fastest(ms, |n| {
            for _ in 0..n {
                std::thread::yield_now();
            }
        });
        (both / 2.0 - yield_alone).max(1.0)
    };
    pinned_pair(host, &stop, partner, driver)
}

/// A wall-clock gap this long in a thread's tight loop of clock readings
/// is a time it did not run: no interrupt handler takes 50 us.
const OFF_CORE_NS: u64 = 50_000;

/// Two busy threads on one core: the driver reads the clock in a tight
/// loop and cuts its time into the stretches it ran between gaps
/// ([`OFF_CORE_NS`]) when the partner had the core. The median stretch is
/// the OS's slice (the first stretch, begun before the partner was
/// there, and the last, cut by the end, do not count); `NAN` if fewer
/// than three whole stretches fit in `ms` (a slice longer than a third
/// of it).
fn time_slice(host: &ThreadHost, ms: u64) -> Result<f64, String> {
    let stop = AtomicBool::new(false);
    let partner = || {
        // Relaxed: `stop` only ends the loop.
        while !stop.load(Ordering::Relaxed) {
            std::hint::spin_loop();
        }
    };
    let driver = || {
        let end = now_ns() + ms.max(50) * 1_000_000;
        let (mut start, mut last) = (now_ns(), now_ns());
        let mut stretches = Vec::new();
        while last < end {
            let t = now_ns();
            if t - last > OFF_CORE_NS {
                stretches.push((last - start) as f64);
                start = t;
            }
            last = t;
        }
        if stretches.len() < 4 {
            return f64::NAN;
        }
        let mut whole = stretches.split_off(1);
        whole.sort_by(f64::total_cmp);
        whole[whole.len() / 2]
    };
    pinned_pair(host, &stop, partner, driver)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_calibration_measures_every_kind_in_a_sane_order() {
        let host = ThreadHost::with_capacity(2).unwrap();
        let m = calibrate(&host, Calibration { per_kind_ms: 5 }).unwrap();
        let t = m.table();
        // The contended lock and the hand-overs need both threads running
        // side by side, which a loaded machine may not give them (then they
        // are NAN and the table keeps the reference value).
        assert!(m.lock_contended.is_nan() || m.lock_contended > 0.0, "{m:?}");
        for (name, v) in [
            ("line_transfer", m.line_transfer),
            ("queue_handoff", m.queue_handoff),
        ] {
            assert!(
                v.is_nan() || (v > 0.0 && v <= SIDE_BY_SIDE_NS),
                "{name}: {v}"
            );
        }
        for (name, v) in [
            ("lock_uncontended", m.lock_uncontended),
            ("atomic_rmw", m.atomic_rmw),
            ("wake_up", m.wake_up),
            ("wake_notify", m.wake_notify),
            ("clock_read", m.clock_read),
            ("spin", m.spin),
            ("yield_now", m.yield_now),
        ] {
            // No bound above: on a loaded machine a partner thread may be
            // descheduled for milliseconds in every short batch.
            assert!(v.is_finite() && v > 0.0, "{name}: {v}");
        }
        assert!(
            m.work_unit.is_finite() && m.execute_base.is_finite(),
            "{m:?}"
        );
        // Pinned kinds: measured on Linux (NAN elsewhere). No bound on the
        // slice: other processes on the pinned CPU cut the driver's
        // stretches short on a loaded machine.
        if cfg!(target_os = "linux") {
            assert!(
                m.context_switch.is_nan() || m.context_switch >= 1.0,
                "{m:?}"
            );
            assert!(m.time_slice.is_nan() || m.time_slice > 0.0, "{m:?}");
        } else {
            assert!(m.context_switch.is_nan() && m.time_slice.is_nan());
        }
        // A wake-up (a switch between threads) costs more than one atomic.
        assert!(t.wake_up > t.atomic_rmw, "{t:?}");
        assert!(t.spin >= 1 && t.work_unit >= 1, "{t:?}");
    }

    #[test]
    fn a_single_thread_pool_is_refused() {
        let host = ThreadHost::with_capacity(0).unwrap();
        assert!(calibrate(&host, Calibration::default()).is_err());
    }
}
