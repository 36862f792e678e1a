//! Microbenchmarks behind the virtual-cores cost table (issue 25): what an
//! uncontended lock, an atomic read-modify-write, a cache-line transfer
//! between two cores and a blocking wake-up cost on the machine at hand.
//! Standalone (std only): `rustc -O -o /tmp/vmicro scripts/bench-virtual-micro.rs
//! && /tmp/vmicro`. Prints `name ns` lines, each the median of 7 rounds.
//! Used by scripts/bench-virtual-validate.sh; docs/benchmarks/virtual.md.

use std::hint::black_box;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread;
use std::time::Instant;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

fn rounds(f: impl Fn() -> f64) -> f64 {
    median((0..7).map(|_| f()).collect())
}

/// Lock and unlock a mutex nobody else touches.
fn lock_uncontended() -> f64 {
    let m = Mutex::new(0u64);
    let n = 2_000_000;
    let t = Instant::now();
    for _ in 0..n {
        *m.lock().unwrap() += 1;
    }
    black_box(&m);
    t.elapsed().as_nanos() as f64 / n as f64
}

/// A fetch_add on a word only this thread writes.
fn atomic_rmw() -> f64 {
    let a = AtomicU64::new(0);
    let n = 5_000_000;
    let t = Instant::now();
    for _ in 0..n {
        a.fetch_add(1, Ordering::AcqRel);
    }
    black_box(&a);
    t.elapsed().as_nanos() as f64 / n as f64
}

/// Two threads take turns incrementing one word (each waits, spinning,
/// for the other's increment): one turn moves the line once, so the time
/// per turn is one transfer plus an RMW and a few loads. On a loaded
/// machine the other thread is often descheduled, so this reports the
/// fastest window of 1,000 turns (both threads on a core), not the mean.
fn line_transfer() -> f64 {
    let a = Arc::new(AtomicU64::new(0));
    let n = 200_000u64;
    let b = Arc::clone(&a);
    let other = thread::spawn(move || {
        for i in 0..n {
            while b.load(Ordering::Acquire) != 2 * i + 1 {
                std::hint::spin_loop();
            }
            b.fetch_add(1, Ordering::AcqRel);
        }
    });
    let mut best = f64::MAX;
    let mut t = Instant::now();
    for i in 0..n {
        while a.load(Ordering::Acquire) != 2 * i {
            std::hint::spin_loop();
        }
        a.fetch_add(1, Ordering::AcqRel);
        if i % 1000 == 999 {
            best = best.min(t.elapsed().as_nanos() as f64 / 2000.0);
            t = Instant::now();
        }
    }
    other.join().unwrap();
    best
}

/// Two threads hand a token back and forth through a mutex and condvar,
/// blocking in between: one hand-off is a notify, a wake-up and a switch.
/// The fastest window of 1,000 hand-offs, as for [`line_transfer`].
fn wake_up() -> f64 {
    let s = Arc::new((Mutex::new(0u64), Condvar::new()));
    let n = 20_000u64;
    let s2 = Arc::clone(&s);
    let other = thread::spawn(move || {
        let (m, c) = &*s2;
        let mut g = m.lock().unwrap();
        for i in 0..n {
            while *g != 2 * i + 1 {
                g = c.wait(g).unwrap();
            }
            *g += 1;
            c.notify_one();
        }
    });
    let (m, c) = &*s;
    let mut best = f64::MAX;
    let mut t = Instant::now();
    let mut g = m.lock().unwrap();
    for i in 0..n {
        while *g != 2 * i {
            g = c.wait(g).unwrap();
        }
        *g += 1;
        c.notify_one();
        if i % 500 == 499 {
            best = best.min(t.elapsed().as_nanos() as f64 / 1000.0);
            t = Instant::now();
        }
    }
    drop(g);
    other.join().unwrap();
    best
}

fn main() {
    println!("lock_uncontended {:.1}", rounds(lock_uncontended));
    println!("atomic_rmw {:.1}", rounds(atomic_rmw));
    println!("line_transfer {:.1}", rounds(line_transfer));
    println!("wake_up {:.1}", rounds(wake_up));
}
