//! The conductor on toy threads: order, block and wake, the wrappers, the
//! watchdogs.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use super::sync::{Condvar, Mutex};
use super::*;

fn names(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("worker {i}")).collect()
}

/// Run `body(i)` on `n` attached threads; return each thread's panic
/// message, if it panicked.
fn team(c: &Arc<Conductor>, n: usize, body: impl Fn(usize) + Sync) -> Vec<Option<String>> {
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..n)
            .map(|i| {
                let c = Arc::clone(c);
                let body = &body;
                s.spawn(move || {
                    let _a = attach(c, i);
                    body(i);
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join().err().map(|e| {
                    e.downcast_ref::<String>()
                        .cloned()
                        .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                        .unwrap_or_default()
                })
            })
            .collect()
    })
}

/// Each of 4 threads makes 40 points of a thread-specific cost and logs
/// (thread, step, clock) as it passes each.
fn interleaving() -> (Vec<(usize, u32, u64)>, ConductorStats) {
    let c = Arc::new(Conductor::new(names(4), CostTable::reference()));
    let log = std::sync::Mutex::new(Vec::new());
    let r = team(&c, 4, |i| {
        for k in 0..40u32 {
            let t = now().unwrap();
            log.lock().unwrap().push((i, k, t));
            point(|_| 7 + 13 * i as u64 + (k as u64 % 3));
        }
    });
    assert!(r.iter().all(Option::is_none), "{r:?}");
    (log.into_inner().unwrap(), c.stats())
}

#[test]
fn the_order_is_the_same_on_every_repeat_and_follows_the_clocks() {
    let (first, stats) = interleaving();
    assert_eq!(first.len(), 160);
    // The earliest clock always runs: the logged clocks never go back.
    assert!(first.windows(2).all(|w| w[0].2 <= w[1].2), "{first:?}");
    // Cheaper threads get more turns early: not one thread after another.
    assert_ne!(first[1].0, first[0].0);
    for _ in 0..2 {
        let (again, s) = interleaving();
        assert_eq!(again, first);
        assert_eq!(s, stats);
    }
}

/// [`interleaving`]'s threads under `schedule`: the thread order only.
fn order_under(schedule: &Schedule) -> Vec<usize> {
    let c = Arc::new(Conductor::new(names(4), CostTable::reference()).with_schedule(schedule));
    let log = std::sync::Mutex::new(Vec::new());
    let r = team(&c, 4, |i| {
        for k in 0..40u32 {
            log.lock().unwrap().push(i);
            point(|_| 7 + 13 * i as u64 + (k as u64 % 3));
        }
    });
    assert!(r.iter().all(Option::is_none), "{r:?}");
    log.into_inner().unwrap()
}

#[test]
fn a_perturbed_schedule_reorders_the_threads_and_replays_exactly() {
    let earliest = order_under(&Schedule::EARLIEST);
    let (logged, _) = interleaving();
    let plain: Vec<usize> = logged.iter().map(|e| e.0).collect();
    // The earliest-clock schedule is the conductor's default, unchanged.
    assert_eq!(earliest, plain);
    let perturbed: Vec<Vec<usize>> = (1..6)
        .map(|x| order_under(&Schedule::pct(x, 4, 160)))
        .collect();
    // Seeded: the same schedule gives the same order again.
    assert_eq!(order_under(&Schedule::pct(1, 4, 160)), perturbed[0]);
    // Delays move threads: some schedule differs from the earliest clock,
    // and the schedules differ from each other.
    assert!(perturbed.iter().any(|o| *o != earliest));
    assert!(perturbed.windows(2).any(|w| w[0] != w[1]));
    for o in &perturbed {
        assert_eq!(o.len(), 160);
    }
}

#[test]
fn the_earliest_thread_keeps_the_token_without_a_hand_off() {
    let c = Arc::new(Conductor::new(names(2), CostTable::reference()));
    let r = team(&c, 2, |i| {
        if i == 0 {
            // Ties go to the smaller index: thread 0 stays earliest.
            for _ in 0..1000 {
                point(|_| 0);
            }
        }
    });
    assert!(r.iter().all(Option::is_none), "{r:?}");
    let s = c.stats();
    assert_eq!(s.points, 1000);
    // The only hand-off: thread 0's exit gives thread 1 its first turn.
    assert_eq!(s.handoffs, 1);
}

#[test]
fn spinners_jump_to_the_next_working_thread_instead_of_polling_each_other() {
    let go = AtomicBool::new(false);
    let c = Arc::new(Conductor::new(names(3), CostTable::reference()));
    let r = team(&c, 3, |i| {
        if i == 2 {
            // The awaited thread works 100 us before it releases them.
            with_current(|h| h.work(100_000));
            go.store(true, Ordering::Relaxed);
            return;
        }
        while !go.load(Ordering::Relaxed) {
            with_current(|h| h.spin(10));
        }
    });
    assert!(r.iter().all(Option::is_none), "{r:?}");
    // Polling each other, the two spinners would hand the token back and
    // forth every 10 ns of virtual time: about 10,000 hand-offs.
    assert!(c.stats().handoffs < 20, "{:?}", c.stats());
}

/// Two threads wait for a flag that a third sets after 40 steps of work,
/// either spinning themselves or leaving the loop to the conductor
/// (`poll`, with `budget` iterations a call); returns the run's counters,
/// each thread's end time and each waiter's iterations and calls.
fn flag_wait(budget: Option<u32>) -> (ConductorStats, Vec<u64>, Vec<(u32, u32)>) {
    let go = AtomicBool::new(false);
    let c = Arc::new(Conductor::new(names(3), CostTable::reference()));
    let ends = std::sync::Mutex::new(vec![0; 3]);
    let spins = std::sync::Mutex::new(vec![(0, 0); 2]);
    let r = team(&c, 3, |i| {
        with_current(|h| {
            if i == 2 {
                for _ in 0..40 {
                    h.work(1_000);
                }
                go.store(true, Ordering::Relaxed);
            } else {
                let (mut made, mut calls) = (0, 0);
                let done = || go.load(Ordering::Relaxed);
                while !done() {
                    calls += 1;
                    match budget {
                        Some(b) => made += h.poll(10, b, &done),
                        None => {
                            h.spin(10);
                            made += 1;
                        }
                    }
                }
                spins.lock().unwrap()[i] = (made, calls);
            }
            ends.lock().unwrap()[i] = h.now();
        });
    });
    assert!(r.iter().all(Option::is_none), "{r:?}");
    let ends = ends.into_inner().unwrap();
    (c.stats(), ends, spins.into_inner().unwrap())
}

#[test]
fn a_wait_loop_left_to_the_conductor_keeps_the_schedule_without_waking_its_thread() {
    let (stats, ends, spun) = flag_wait(None);
    // Each waiter polls once per step of the worker, each poll a hand-off.
    assert!(spun.iter().all(|&(made, _)| made >= 40), "{spun:?}");
    for budget in [1, 3, 1_000] {
        let (s, e, p) = flag_wait(Some(budget));
        assert_eq!((s, &e), (stats, &ends), "budget {budget}");
        for (w, (&(made, calls), &(alone, _))) in p.iter().zip(&spun).enumerate() {
            assert_eq!(
                made, alone,
                "waiter {w}, budget {budget}: the same iterations"
            );
            // The conductor made the iterations the budget allowed without
            // handing the waiter the token.
            assert!(
                calls <= made.div_ceil(budget) + 1,
                "{calls} calls for {made}"
            );
        }
    }
}

/// Thread 0 blocks on a key; thread 1 makes a point of 1,000 ns and wakes
/// it twice (the second time nobody waits). Thread 0's clock when it
/// resumes, and thread 1's after each wake.
fn wake_times(costs: CostTable) -> (u64, [u64; 2]) {
    let c = Arc::new(Conductor::new(names(2), costs));
    let (resumed, waker) = (std::sync::Mutex::new(0), std::sync::Mutex::new([0; 2]));
    let r = team(&c, 2, |i| {
        with_current(|h| {
            if i == 0 {
                h.block(42, None);
                *resumed.lock().unwrap() = h.now();
            } else {
                h.point(1_000);
                assert_eq!(h.wake(42, false), 1);
                let first = h.now();
                assert_eq!(h.wake(42, false), 0, "nobody else waits");
                *waker.lock().unwrap() = [first, h.now()];
            }
        });
    });
    assert!(r.iter().all(Option::is_none), "{r:?}");
    let t = (*resumed.lock().unwrap(), *waker.lock().unwrap());
    t
}

#[test]
fn a_woken_thread_resumes_at_the_wakers_clock_plus_the_wake_up() {
    let (resumed, waker) = wake_times(CostTable::reference());
    assert_eq!(resumed, 1_000 + CostTable::reference().wake_up);
    assert_eq!(waker, [1_000; 2], "the reference's waker pays nothing");
}

#[test]
fn the_waker_pays_its_part_of_a_wake_up_only_when_someone_wakes() {
    let mut costs = CostTable::reference();
    costs.wake_up = 5_000;
    costs.wake_notify = 700;
    let (resumed, waker) = wake_times(costs);
    // The woken thread's latency counts from the notify's start.
    assert_eq!(resumed, 1_000 + 5_000);
    assert_eq!(
        waker, [1_700; 2],
        "the notify call is the waker's; waking nobody is free"
    );
}

/// One thread reads the clock three times under a table whose readings
/// cost `read`: the three readings it got.
fn three_readings(read: u64) -> Vec<u64> {
    let mut costs = CostTable::reference();
    costs.clock_read = read;
    let c = Arc::new(Conductor::new(names(1), costs));
    let got = std::sync::Mutex::new(Vec::new());
    let r = team(&c, 1, |_| {
        point(|_| 100);
        for _ in 0..3 {
            let t = now().unwrap();
            got.lock().unwrap().push(t);
        }
    });
    assert!(r.iter().all(Option::is_none), "{r:?}");
    got.into_inner().unwrap()
}

#[test]
fn each_clock_reading_costs_the_reader_its_clock_read() {
    // A reading returns the time at its start and then costs `clock_read`.
    assert_eq!(three_readings(40), [100, 140, 180]);
    // The reference table's readings are free (its traces do not move).
    assert_eq!(three_readings(0), [100; 3]);
}

/// Thread 0 takes a mutex at 100 and does its own work at one place under
/// it (`graph_take`, costing `ns` in the table); thread 1 makes a point at
/// 200 and then takes the mutex. Thread 0's clock after its own work, and
/// thread 1's once it holds the mutex.
fn own_work_under_a_lock(ns: u64) -> (u64, u64) {
    let mut costs = CostTable::reference();
    costs.graph_take = ns;
    let c = Arc::new(Conductor::new(names(2), costs));
    let m = Mutex::new(());
    let clocks = std::sync::Mutex::new((0, 0));
    let r = team(&c, 2, |i| {
        point(|_| if i == 0 { 100 } else { 200 });
        let g = m.lock().unwrap();
        if i == 0 {
            own_work(|c| c.graph_take);
            clocks.lock().unwrap().0 = with_current(|h| h.now()).unwrap();
        } else {
            clocks.lock().unwrap().1 = with_current(|h| h.now()).unwrap();
        }
        drop(g);
    });
    assert!(r.iter().all(Option::is_none), "{r:?}");
    clocks.into_inner().unwrap()
}

#[test]
fn a_schedulers_own_work_costs_its_entry_and_holds_the_lock_it_is_done_under() {
    let lock = CostTable::reference().lock_uncontended;
    // Charged: thread 0's clock moves by the entry, and thread 1 (whose
    // attempt comes at 200, inside the section) takes the mutex after it.
    let (holder, taker) = own_work_under_a_lock(5_000);
    assert_eq!(holder, 100 + lock + 5_000);
    assert!(taker >= holder, "{taker} < {holder}");
    // The reference table's entries are 0: free, nothing held longer.
    let (holder, taker) = own_work_under_a_lock(0);
    assert_eq!(holder, 100 + lock);
    assert!(taker < 5_000, "{taker}");
}

/// Thread 1 holds a mutex from 0 until it releases it at `release` (its
/// clock); thread 0 tries at 100 and blocks. When thread 0 resumes.
fn lock_waiter_resumes_at(release: u64, mutex_spins: u64) -> u64 {
    let mut costs = CostTable::reference();
    costs.mutex_spins = mutex_spins;
    costs.spin = 10;
    let c = Arc::new(Conductor::new(names(2), costs));
    let m = Mutex::new(());
    let resumed = std::sync::Mutex::new(0);
    let r = team(&c, 2, |i| {
        if i == 1 {
            let g = m.lock().unwrap();
            // A point inside the critical section: thread 0 (earlier)
            // runs, finds the lock held and blocks on it.
            point(|_| 200);
            with_current(|h| h.advance(release.saturating_sub(h.now())));
            drop(g);
        } else {
            point(|_| 100);
            drop(m.lock().unwrap());
            *resumed.lock().unwrap() = now().unwrap();
        }
    });
    assert!(r.iter().all(Option::is_none), "{r:?}");
    let t = *resumed.lock().unwrap();
    t
}

#[test]
fn a_lock_waiter_released_within_its_spins_takes_the_lock_without_a_wake_up() {
    let r = CostTable::reference();
    // 100 spins of 10 ns: a release 500 ns after the waiter blocked finds
    // it spinning (the lock's line moves, no wake-up).
    let spun = lock_waiter_resumes_at(700, 100);
    assert!(spun < 700 + r.wake_up, "{spun}");
    assert!(spun >= 700 + r.line_transfer, "{spun}");
    // Released 5 us later it had gone to sleep: a wake-up.
    let slept = lock_waiter_resumes_at(5_000, 100);
    assert!(slept >= 5_000 + r.wake_up, "{slept}");
    // The reference table (mutex_spins 0): every contended waiter sleeps.
    let reference = lock_waiter_resumes_at(700, 0);
    assert!(reference >= 700 + r.wake_up, "{reference}");
}

#[test]
fn a_sleeper_runs_at_its_deadline() {
    let c = Arc::new(Conductor::new(names(1), CostTable::reference()));
    let r = team(&c, 1, |_| {
        with_current(|h| {
            h.sleep(5_000);
            assert_eq!(h.now(), 5_000);
        });
    });
    assert!(r.iter().all(Option::is_none), "{r:?}");
}

/// Three consumers and a producer through the wrappers' Mutex and Condvar;
/// each consumer holds the lock across a point, so others contend.
fn queue_run() -> (Vec<(usize, u32)>, ConductorStats) {
    struct Q {
        items: Mutex<(VecDeque<u32>, bool)>,
        ready: Condvar,
    }
    let q = Q {
        items: Mutex::new((VecDeque::new(), false)),
        ready: Condvar::new(),
    };
    let got = std::sync::Mutex::new(Vec::new());
    let c = Arc::new(Conductor::new(names(4), CostTable::reference()));
    let r = team(&c, 4, |i| {
        if i == 3 {
            for x in 0..60 {
                let mut g = q.items.lock().unwrap();
                g.0.push_back(x);
                q.ready.notify_one();
                drop(g);
                point(|c| c.queue_handoff + 100);
            }
            q.items.lock().unwrap().1 = true;
            q.ready.notify_all();
            return;
        }
        loop {
            let mut g = q.items.lock().unwrap();
            while g.0.is_empty() && !g.1 {
                g = q.ready.wait(g).unwrap();
            }
            let Some(x) = g.0.pop_front() else { return };
            // Work while holding the lock: the others find it taken.
            point(|_| 150);
            drop(g);
            got.lock().unwrap().push((i, x));
            point(|_| 500);
        }
    });
    assert!(r.iter().all(Option::is_none), "{r:?}");
    (got.into_inner().unwrap(), c.stats())
}

#[test]
fn mutex_and_condvar_wrappers_hand_every_item_over_once_in_a_repeatable_order() {
    let (first, stats) = queue_run();
    let mut items: Vec<u32> = first.iter().map(|&(_, x)| x).collect();
    items.sort_unstable();
    assert_eq!(items, (0..60).collect::<Vec<_>>());
    let consumers: std::collections::BTreeSet<usize> = first.iter().map(|&(i, _)| i).collect();
    assert!(consumers.len() > 1, "work spread over consumers: {first:?}");
    for _ in 0..2 {
        assert_eq!(queue_run(), (first.clone(), stats));
    }
}

#[test]
fn a_contended_mutex_blocks_and_the_unlock_wakes_the_waiter() {
    let m = Mutex::new(0u32);
    let c = Arc::new(Conductor::new(names(2), CostTable::reference()));
    let r = team(&c, 2, |_| {
        for _ in 0..20 {
            let mut g = m.lock().unwrap();
            let v = *g;
            // Hold the lock across a point: the other thread runs, finds
            // it taken and blocks instead of spinning inside std.
            point(|_| 1_000);
            *g = v + 1;
        }
    });
    assert!(r.iter().all(Option::is_none), "{r:?}");
    assert_eq!(*m.lock().unwrap(), 40);
    // 40 lock points and 40 work points; every further point is an
    // attempt that found the mutex held and blocked.
    assert!(c.stats().points > 80, "{:?}", c.stats());
}

#[test]
fn the_watchdog_names_a_lone_spinner_and_its_line_instead_of_hanging() {
    let never = AtomicBool::new(false);
    let c = Arc::new(Conductor::new(names(2), CostTable::reference()));
    let line = line!() + 4;
    let r = team(&c, 2, |i| {
        if i == 1 {
            while !never.load(Ordering::Relaxed) {
                with_current(|h| h.spin(10));
            }
        }
    });
    assert!(r[0].is_none(), "{r:?}");
    let msg = r[1].as_deref().unwrap();
    assert!(msg.contains("worker 1 spins at"), "{msg}");
    assert!(msg.contains(&format!("tests.rs:{line}")), "{msg}");
    assert!(c.failure().is_some());
}

#[test]
fn the_watchdog_also_names_a_lone_thread_that_keeps_parking() {
    let never = AtomicBool::new(false);
    let c = Arc::new(Conductor::new(names(1), CostTable::reference()));
    let r = team(&c, 1, |_| {
        while !never.load(Ordering::Relaxed) {
            // A lock each round (a point) does not hide the livelock.
            let m = Mutex::new(());
            drop(m.lock().unwrap());
            with_current(|h| h.sleep(50_000));
        }
    });
    let msg = r[0].as_deref().unwrap();
    assert!(msg.contains("worker 0 spins at"), "{msg}");
}

#[test]
fn a_deadlock_fails_the_run_naming_every_thread() {
    let c = Arc::new(Conductor::new(names(2), CostTable::reference()));
    let r = team(&c, 2, |i| {
        with_current(|h| h.block(100 + i, None));
    });
    let msgs: Vec<&str> = r.iter().flatten().map(String::as_str).collect();
    assert_eq!(msgs.len(), 2, "both threads stop: {r:?}");
    let msg = c.failure().unwrap();
    assert!(msg.contains("deadlock"), "{msg}");
    assert!(
        msg.contains("worker 0: blocked") && msg.contains("worker 1: blocked"),
        "{msg}"
    );
}

#[test]
fn outside_a_virtual_run_the_wrappers_are_std() {
    assert!(!is_virtual());
    let m = Mutex::new(1);
    let cv = Condvar::new();
    cv.notify_all();
    let g = m.lock().unwrap();
    let (g, t) = cv
        .wait_timeout(g, std::time::Duration::from_millis(1))
        .unwrap();
    assert!(t.timed_out());
    assert_eq!(*g, 1);
}

#[test]
fn the_stall_watchdog_fails_a_run_stuck_outside_the_facade_naming_the_thread_and_line() {
    // Worker 0 waits for worker 1 in a loop that never meets the
    // conductor, so worker 1 can never run to end it: without the
    // watchdog this hangs. The hook stands in for the CLI's exit (it
    // releases the loop so the test ends).
    let release = Arc::new(AtomicBool::new(false));
    let said = Arc::new(std::sync::Mutex::new(String::new()));
    let hook = {
        let (release, said) = (Arc::clone(&release), Arc::clone(&said));
        StallHook(Arc::new(move |m: &str| {
            *said.lock().unwrap() = m.to_string();
            release.store(true, Ordering::Relaxed);
        }))
    };
    let c = Conductor::new(names(2), CostTable::reference())
        .with_stall(std::time::Duration::from_millis(200))
        .on_stall(Some(hook));
    let c = Arc::new(c);
    let line = line!() + 4;
    let r = team(&c, 2, |i| {
        if i == 0 {
            // The last point before the loop: cost 0 keeps the token here.
            point(|_| 0);
            while !release.load(Ordering::Relaxed) {
                std::hint::spin_loop();
            }
        }
    });
    let msg = said.lock().unwrap().clone();
    assert!(msg.contains("worker 0 has run for"), "{msg}");
    assert!(msg.contains(&format!("tests.rs:{line}")), "{msg}");
    assert!(msg.contains("outside the facade"), "{msg}");
    assert_eq!(c.failure().as_deref(), Some(msg.as_str()));
    // The waiting thread stopped with the message instead of waiting on.
    assert_eq!(r[1].as_deref(), Some(msg.as_str()), "{r:?}");
}

/// The cache model, called directly (no reschedule involved): the clock a
/// thread reaches after each access.
mod cache_model {
    use super::*;

    fn four(cores_per_cache: usize) -> Conductor {
        Conductor::new(names(4), CostTable::reference()).with_cores_per_cache(cores_per_cache)
    }

    #[test]
    fn data_written_in_another_domain_costs_a_transfer_per_line_once() {
        let lt = CostTable::reference().line_transfer;
        // Threads 0-1 share a cache, 2-3 the other.
        let c = four(2);
        assert_eq!(c.touch_data(0, 7, 0, 32, true), 0, "first touch: memory");
        assert_eq!(c.touch_data(1, 7, 0, 32, false), 0, "same domain");
        assert_eq!(c.touch_data(2, 7, 0, 32, false), 32 * lt, "other domain");
        assert_eq!(c.touch_data(3, 7, 0, 32, false), 0, "now shared there");
        // A write from domain 1 invalidates domain 0's copy of the lines
        // it covers (block 0 only), so 0 pays for those 16 lines again.
        assert_eq!(c.touch_data(2, 7, 0, 16, true), 16 * lt);
        assert_eq!(c.touch_data(0, 7, 0, 32, false), 16 * lt);
        assert_eq!(c.now(0), 16 * lt);
        assert_eq!(c.stats().transfers, 64);
    }

    #[test]
    fn one_shared_cache_by_default_moves_nothing() {
        let c = Conductor::new(names(4), CostTable::reference());
        c.touch_data(0, 1, 0, 64, true);
        assert_eq!(c.touch_data(3, 1, 0, 64, true), 0);
        assert_eq!(c.stats().transfers, 0);
    }

    #[test]
    fn a_word_written_by_another_core_costs_a_transfer_whatever_the_domains() {
        let costs = CostTable::reference();
        let c = Conductor::new(names(2), costs);
        assert_eq!(c.write_word(0, 0x40, costs.atomic_rmw), costs.atomic_rmw);
        assert_eq!(c.write_word(0, 0x40, costs.atomic_rmw), costs.atomic_rmw);
        assert_eq!(
            c.write_word(1, 0x40, costs.atomic_rmw),
            costs.atomic_rmw + costs.line_transfer
        );
    }

    #[test]
    fn a_lock_released_later_in_virtual_time_makes_the_next_holder_wait() {
        let costs = CostTable::reference();
        let c = Conductor::new(names(2), costs);
        c.acquire_lock(0, 0x80);
        c.advance(0, 500);
        c.release_lock(0, 0x80);
        // Thread 1 is at 100: the lock was held until 500.
        c.advance(1, 100);
        c.acquire_lock(1, 0x80);
        assert_eq!(c.now(1), 500 + costs.lock_contended + costs.line_transfer);
        c.release_lock(1, 0x80);
        // Thread 0 comes back later than the release: no wait, a transfer.
        c.advance(0, 10_000);
        c.acquire_lock(0, 0x80);
        assert_eq!(c.now(0), 10_500 + costs.line_transfer);
    }
}

/// Three threads of 20 points of 500 us work each (10 ms), on `cores`
/// modelled cores: (makespan, switches, each thread's end clock).
fn three_on(cores: usize) -> (ConductorStats, Vec<u64>) {
    let c = Arc::new(Conductor::new(names(3), CostTable::reference()).with_cores(cores));
    let ends = std::sync::Mutex::new(vec![0; 3]);
    let r = team(&c, 3, |i| {
        for _ in 0..20 {
            point(|_| 500_000);
        }
        ends.lock().unwrap()[i] = now().unwrap();
    });
    assert!(r.iter().all(Option::is_none), "{r:?}");
    (c.stats(), ends.into_inner().unwrap())
}

#[test]
fn threads_beyond_the_cores_time_share_them_by_slices() {
    // A core each: every thread ends at 10 ms, nothing switches.
    let (own, ends) = three_on(3);
    assert_eq!(ends, vec![10_000_000; 3]);
    assert_eq!(own.switches, 0);
    assert_eq!(three_on(0).0, own, "0 cores means a core per thread");
    // Two cores: 30 ms of work needs at least 15 ms; thread 2 starts only
    // when a slice (3 ms) ends, and each hand-over costs a switch.
    let (shared, ends) = three_on(2);
    let slice = CostTable::reference().time_slice;
    let switch = CostTable::reference().context_switch;
    assert!(shared.switches >= 4, "{shared:?}");
    assert!(shared.makespan_ns >= 15_000_000, "{shared:?}");
    assert!(
        shared.makespan_ns <= 15_000_000 + slice + shared.switches * switch,
        "{shared:?} {ends:?}"
    );
    assert!(ends.iter().all(|&e| e > 10_000_000), "{ends:?}");
    assert_eq!(three_on(2), (shared, ends), "the same on a repeat");
    // One core: all 30 ms on it.
    let (one, _) = three_on(1);
    assert!(one.makespan_ns >= 30_000_000, "{one:?}");
}

#[test]
fn a_blocked_thread_gives_its_core_to_a_waiting_one() {
    // Two threads on one core: thread 0 blocks on a condvar until thread
    // 1 notifies. Thread 1 can only run on the core thread 0 left.
    let c = Arc::new(Conductor::new(names(2), CostTable::reference()).with_cores(1));
    let m = Mutex::new(false);
    let cv = Condvar::new();
    let woke_at = std::sync::Mutex::new(0);
    let r = team(&c, 2, |i| {
        if i == 0 {
            point(|_| 1_000);
            let mut g = m.lock().unwrap();
            while !*g {
                g = cv.wait(g).unwrap();
            }
            *woke_at.lock().unwrap() = now().unwrap();
        } else {
            point(|_| 5_000);
            *m.lock().unwrap() = true;
            cv.notify_one();
        }
    });
    assert!(r.iter().all(Option::is_none), "{r:?}");
    let s = c.stats();
    // Thread 1 could not start before thread 0 blocked (after 1 us) and
    // paid a switch for the core; thread 0 then waited for the core again.
    let table = CostTable::reference();
    assert!(s.switches >= 2, "{s:?}");
    assert!(
        *woke_at.lock().unwrap() >= 1_000 + table.context_switch + 5_000 + table.wake_up,
        "{s:?}"
    );
}

/// Two threads on one core. Thread 1 waits on a condvar; thread 0 (after
/// a sleep that lets thread 1 block) notifies it under the mutex, works
/// 2 us more under it, unlocks, then works 50 us. The clocks (notify
/// start, after the notify, after the unlock, thread 0's end, thread 1's
/// return from its wait) under a table whose `wake_preempt` is `preempt`.
fn notify_under_lock_on_one_core(preempt: u64) -> [u64; 5] {
    let mut costs = CostTable::reference();
    costs.wake_preempt = preempt;
    let c = Arc::new(Conductor::new(names(2), costs).with_cores(1));
    let m = Mutex::new(false);
    let cv = Condvar::new();
    let t = std::sync::Mutex::new([0; 5]);
    let r = team(&c, 2, |i| {
        if i == 0 {
            with_current(|h| h.sleep(1_000));
            let mut g = m.lock().unwrap();
            *g = true;
            let notify = now().unwrap();
            cv.notify_one();
            let after = now().unwrap();
            with_current(|h| h.advance(2_000));
            drop(g);
            let unlocked = now().unwrap();
            point(|_| 50_000);
            let mut t = t.lock().unwrap();
            t[..4].copy_from_slice(&[notify, after, unlocked, now().unwrap()]);
        } else {
            let mut g = m.lock().unwrap();
            while !*g {
                g = cv.wait(g).unwrap();
            }
            t.lock().unwrap()[4] = now().unwrap();
        }
    });
    assert!(r.iter().all(Option::is_none), "{r:?}");
    let t = *t.lock().unwrap();
    t
}

#[test]
fn a_thread_woken_with_every_core_held_preempts_its_waker_and_meets_its_lock() {
    let table = CostTable::reference();
    let [notify, after, unlocked, end, woke] = notify_under_lock_on_one_core(500);
    // The woken thread ran on the waker's core during the notify, found
    // the mutex held and blocked on it: the waker got its core back only
    // after that, paying a switch.
    assert!(
        after >= notify + 500 + table.context_switch,
        "{notify} {after}"
    );
    // The unlock woke it again (preempting the waker once more): it
    // returned from its wait after the release, before the waker's 50 us.
    assert!(woke >= after + 2_000 + 500, "{after} {woke}");
    assert!(woke < end - 50_000, "{woke} {end}");
    assert!(
        unlocked >= woke,
        "the waker resumed after it: {unlocked} {woke}"
    );
    // The reference (0): no preemption; the woken thread waits for the
    // core until the waker ends, and the notify costs the waker nothing.
    let [notify, after, _, end, woke] = notify_under_lock_on_one_core(0);
    assert_eq!(after, notify);
    assert!(woke >= end, "{woke} {end}");
}

/// Three stealers make 40 rounds over the other threads' queues (lock,
/// take one if any, else unlock and try the next; a spin between rounds)
/// while thread 3 fills its own, 30 items 2 µs apart. With `scan` the
/// refused attempts go through [`Conductor::lock_scan`]. The stats, every
/// thread's (takes, attempts made itself, end clock).
fn steal_rounds(scan: bool) -> (ConductorStats, Vec<(u32, u32, u64)>) {
    let qs: Vec<Mutex<Vec<u32>>> = (0..4).map(|_| Mutex::new(Vec::new())).collect();
    let c = Arc::new(Conductor::new(names(4), CostTable::reference()));
    let got = std::sync::Mutex::new(vec![(0, 0, 0); 4]);
    let r = team(&c, 4, |i| {
        with_current(|h| {
            if i == 3 {
                for k in 0..30 {
                    qs[3].lock().unwrap().push(k);
                    h.work(2_000);
                }
                got.lock().unwrap()[i].2 = h.now();
            } else {
                let victims: Vec<usize> = (0..4).filter(|&v| v != i).collect();
                let (mut taken, mut own) = (0, 0);
                for _ in 0..40 {
                    let (mut j, mut pointed) = (0, None);
                    while j < victims.len() {
                        if scan && pointed.is_none() {
                            let rest = &victims[j..];
                            let attempt = |k: u32| {
                                let m = &qs[rest[k as usize]];
                                m.peek(Vec::is_empty)?.then(|| m.key())
                            };
                            let ns = h.costs().lock_uncontended;
                            let at = std::panic::Location::caller();
                            let n = rest.len() as u32;
                            j += h.conductor.lock_scan(h.me, ns, n, at, &attempt) as usize;
                            if j == victims.len() {
                                break;
                            }
                            pointed = Some(j);
                        }
                        let m = &qs[victims[j]];
                        let mut g = if pointed.take() == Some(j) {
                            m.lock_after_point()
                        } else {
                            m.lock()
                        }
                        .unwrap();
                        j += 1;
                        own += 1;
                        if g.pop().is_some() {
                            drop(g);
                            taken += 1;
                            h.work(1_000);
                            break;
                        }
                    }
                    h.spin(10);
                }
                got.lock().unwrap()[i] = (taken, own, h.now());
            }
        });
    });
    assert!(r.iter().all(Option::is_none), "{r:?}");
    (c.stats(), got.into_inner().unwrap())
}

#[test]
fn refused_lock_attempts_left_to_the_conductor_keep_the_schedule() {
    let (stats, alone) = steal_rounds(false);
    let (s, scanned) = steal_rounds(true);
    assert_eq!(s, stats);
    let seen = |v: &[(u32, u32, u64)]| v.iter().map(|t| (t.0, t.2)).collect::<Vec<_>>();
    assert_eq!(
        seen(&scanned),
        seen(&alone),
        "the same takes and end clocks"
    );
    let (alone, scanned) = (&alone[..3], &scanned[..3]);
    assert!(alone.iter().map(|t| t.0).sum::<u32>() > 0, "{alone:?}");
    // Without the conductor every attempt is the stealer's own.
    assert!(alone.iter().all(|t| t.1 >= 40), "{alone:?}");
    for (w, (a, b)) in scanned.iter().zip(alone).enumerate() {
        assert!(a.1 < b.1, "stealer {w}: {} own attempts of {}", a.1, b.1);
    }
}

/// The virtual `Mutex::lock` as it was before `Conductor::lock_wait`, made
/// of public conductor calls around a std mutex: the point, then attempts,
/// each failed one charged `lock_contended` and blocked on the mutex; the
/// unlock releases the word and wakes the oldest waiter.
struct ByHand {
    m: std::sync::Mutex<u32>,
}

impl ByHand {
    fn key(&self) -> usize {
        addr_of(&self.m)
    }

    #[track_caller]
    fn lock(&self, h: Here<'_>) -> std::sync::MutexGuard<'_, u32> {
        let (c, at) = (h.conductor, std::panic::Location::caller());
        c.point(h.me, h.costs().lock_uncontended, at);
        loop {
            match self.m.try_lock() {
                Ok(g) => {
                    c.acquire_lock(h.me, self.key());
                    return g;
                }
                Err(_) => {
                    c.advance(h.me, h.costs().lock_contended);
                    c.block(h.me, self.key(), None, at);
                }
            }
        }
    }

    fn unlock(&self, h: Here<'_>, g: std::sync::MutexGuard<'_, u32>) {
        drop(g);
        h.conductor.release_lock(h.me, self.key());
        if h.conductor.has_waiters(self.key()) {
            h.conductor.wake_lock_waiter(h.me, self.key());
        }
    }
}

/// Four threads take one mutex 15 times each, holding it across a point
/// of 1 µs of work, with 300 ns of work between; through the facade
/// (`by_hand` false: failed attempts left to the conductor) or by hand.
/// The stats, each thread's clock at each acquisition, and the failed
/// attempts the conductor made for a waiting thread.
fn contended(by_hand: bool, costs: CostTable) -> (ConductorStats, Vec<Vec<u64>>, u64) {
    let facade = Mutex::new(0u32);
    let manual = ByHand {
        m: std::sync::Mutex::new(0),
    };
    let c = Arc::new(Conductor::new(names(4), costs));
    let seen = std::sync::Mutex::new(vec![Vec::new(); 4]);
    let r = team(&c, 4, |i| {
        with_current(|h| {
            for _ in 0..15 {
                if by_hand {
                    let mut g = manual.lock(h);
                    seen.lock().unwrap()[i].push(h.now());
                    *g += 1;
                    h.work(1_000);
                    manual.unlock(h, g);
                } else {
                    let mut g = facade.lock().unwrap();
                    seen.lock().unwrap()[i].push(h.now());
                    *g += 1;
                    h.work(1_000);
                    drop(g);
                }
                h.work(300);
            }
        });
    });
    assert!(r.iter().all(Option::is_none), "{r:?}");
    let total = if by_hand {
        *manual.m.lock().unwrap()
    } else {
        *facade.lock().unwrap()
    };
    assert_eq!(total, 60);
    let seen = seen.into_inner().unwrap();
    (c.stats(), seen, c.lock_attempts_made())
}

#[test]
fn failed_lock_attempts_left_to_the_conductor_keep_the_schedule() {
    // The reference table (every waiter sleeps); one whose waiters spin
    // first (a waiter's clock when it blocked decides whether the unlock
    // finds it spinning); one whose failed attempt costs more than the
    // holder's whole critical section, so that a waiter's clock after a
    // failed attempt shows in its next acquisition.
    let spinning = CostTable {
        mutex_spins: 100,
        ..CostTable::reference()
    };
    let slow_failure = CostTable {
        lock_contended: 50_000,
        ..CostTable::reference()
    };
    for costs in [CostTable::reference(), spinning, slow_failure] {
        let (stats, clocks, none) = contended(true, costs);
        let (s, cl, made) = contended(false, costs);
        assert_eq!(none, 0, "by hand, every attempt is the thread's own");
        // The same points, hand-offs (each made attempt counted as the
        // one it saves), line transfers and makespan, and every
        // acquisition at the same clock: a skipped charge, point or block
        // would move them.
        assert_eq!(s, stats, "{costs:?}");
        assert_eq!(cl, clocks, "{costs:?}");
        assert!(made > 0, "some waiters were chosen while the lock was held");
    }
}

/// Two threads on one core: thread 0 (on the core) waits for a flag that
/// thread 1 (without a core) sets after 1 us of work: 50 spins, then
/// yields to the OS until it is set. Returns the clock at which thread 1
/// set it.
fn flag_set_at(spin_keeps_core: u64) -> u64 {
    let table = CostTable {
        spin_keeps_core,
        ..CostTable::reference()
    };
    let c = Arc::new(Conductor::new(names(2), table).with_cores(1));
    let flag = AtomicBool::new(false);
    let set_at = std::sync::Mutex::new(0);
    let r = team(&c, 2, |i| {
        if i == 0 {
            let mut n = 0;
            while !flag.load(Ordering::Acquire) {
                n += 1;
                with_current(|h| {
                    let (ns, yielding) = if n <= 50 {
                        (h.costs().spin, false)
                    } else {
                        (h.costs().yield_now, true)
                    };
                    h.conductor
                        .spin(h.me, ns, yielding, std::panic::Location::caller())
                });
            }
        } else {
            point(|_| 1_000);
            flag.store(true, Ordering::Release);
            *set_at.lock().unwrap() = now().unwrap();
        }
    });
    assert!(r.iter().all(Option::is_none), "{r:?}");
    set_at.into_inner().unwrap()
}

#[test]
fn a_spinner_keeps_its_core_until_it_yields_when_the_table_says_so() {
    let t = CostTable::reference();
    // The reference: the spinner gives its core up at its first spin, so
    // thread 1 starts at once (plus the switch).
    let at_once = flag_set_at(0);
    assert!(at_once <= t.spin + t.context_switch + 1_000, "{at_once}");
    // `spin_keeps_core`: thread 1 gets the core only at the spinner's
    // first yield, after its 50 spins.
    let kept = flag_set_at(1);
    assert!(kept >= 50 * t.spin + t.context_switch + 1_000, "{kept}");
    assert!(
        kept <= 50 * t.spin + t.yield_now + t.context_switch + 1_000,
        "{kept}"
    );
    assert_eq!(flag_set_at(1), kept, "the same on a repeat");
}
