//! Real-run cost of the virtual-aware `Mutex`/`Condvar` against std's:
//! uncontended lock/unlock, and blocking round trips between two threads
//! (the hand-off the schedulers' queues and barriers make). Interleaved
//! rounds, medians. `cargo run --release -p psmr-core --example handoff_bench`

use std::time::Instant;

macro_rules! bench {
    ($m:ident, $cv:ident) => {{
        let lock_ns = {
            let m = $m::Mutex::new(0u64);
            let n = 5_000_000u64;
            let t = Instant::now();
            for i in 0..n {
                *m.lock().unwrap() += i;
            }
            std::hint::black_box(&m);
            t.elapsed().as_nanos() as f64 / n as f64
        };
        let trip_us = {
            let state = $m::Mutex::new((0u64, false));
            let cv = $cv::Condvar::new();
            let trips = 10_000u64;
            let t = Instant::now();
            std::thread::scope(|s| {
                s.spawn(|| {
                    for _ in 0..trips {
                        let mut g = state.lock().unwrap();
                        while !g.1 {
                            g = cv.wait(g).unwrap();
                        }
                        g.1 = false;
                        g.0 += 1;
                        cv.notify_one();
                    }
                });
                for _ in 0..trips {
                    let mut g = state.lock().unwrap();
                    g.1 = true;
                    cv.notify_one();
                    while g.1 {
                        g = cv.wait(g).unwrap();
                    }
                }
            });
            t.elapsed().as_nanos() as f64 / trips as f64 / 1e3
        };
        (lock_ns, trip_us)
    }};
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    use psmr_core::virt::sync as virt;
    use std::sync as stdsync;
    let rounds = 9;
    let (mut sl, mut st, mut vl, mut vt) = (vec![], vec![], vec![], vec![]);
    for _ in 0..rounds {
        let (l, t) = bench!(stdsync, stdsync);
        sl.push(l);
        st.push(t);
        let (l, t) = bench!(virt, virt);
        vl.push(l);
        vt.push(t);
    }
    let (sl, st, vl, vt) = (
        median(&mut sl),
        median(&mut st),
        median(&mut vl),
        median(&mut vt),
    );
    println!(
        "uncontended lock+unlock: std {sl:.2} ns, facade {vl:.2} ns ({:.3}x)",
        vl / sl
    );
    println!(
        "blocking round trip:     std {st:.2} us, facade {vt:.2} us ({:.3}x)",
        vt / st
    );
}
