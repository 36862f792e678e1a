//! Shuttle helpers shared by the work-stealing, late and ePaxos schedules: a probe that
//! logs the start and end of each execution with a yield in between (so a
//! schedule can put another thread inside an execution), the spawning of
//! a schedule's logged workers, and the check of a finished schedule's log
//! against a stream's canonical order. [`random_and_pct`] serves every
//! family's shuttle tests (the early family keeps its own log).

use std::sync::Mutex as StdMutex;

use psmr_core::{ClassId, RequestId, Stream};
use shuttle::sync::Arc;
use shuttle::thread::JoinHandle;

use crate::probe::Probe;

/// Start (`true`) or end of an execution, in the order they happened. A
/// std mutex is fine: shuttle runs one thread at a time, so it never
/// contends, and it is not a scheduling point the model needs.
#[derive(Default)]
pub struct Log(pub StdMutex<Vec<(bool, RequestId)>>);

pub struct LogProbe {
    pub log: Arc<Log>,
}

impl Probe for LogProbe {
    fn execute(&mut self, req: RequestId, _class: ClassId) {
        self.log.0.lock().unwrap().push((true, req));
        shuttle::thread::yield_now();
        self.log.0.lock().unwrap().push((false, req));
    }
}

/// Every request of `stream` ran exactly once, and every conflicting pair
/// ran one after the other in canonical order.
pub fn check_log(stream: &Stream, log: &[(bool, RequestId)]) {
    let n = stream.len();
    let (mut start, mut end) = (vec![usize::MAX; n], vec![usize::MAX; n]);
    for (i, (is_start, id)) in log.iter().enumerate() {
        let slot = if *is_start { &mut start } else { &mut end };
        assert_eq!(
            slot[*id as usize],
            usize::MAX,
            "request {id} executed twice"
        );
        slot[*id as usize] = i;
    }
    assert!(
        end.iter().all(|e| *e != usize::MAX),
        "a request never executed"
    );
    let order = &stream.canonical;
    for (i, &a) in order.iter().enumerate() {
        for &b in &order[i + 1..] {
            if stream.conflicts(a, b) {
                assert!(
                    end[a as usize] < start[b as usize],
                    "conflicting #{a} and #{b} overlapped or ran against the canonical order"
                );
            }
        }
    }
}

/// Spawn `n` shuttle threads, thread `i` running `work(i, probe)` with its
/// own [`LogProbe`] on `log`: the workers of one schedule, in index order.
pub fn spawn_logged<F>(n: usize, log: &Arc<Log>, work: F) -> Vec<JoinHandle<()>>
where
    F: Fn(usize, LogProbe) + Send + Sync + 'static,
{
    let work = Arc::new(work);
    (0..n)
        .map(|i| {
            let (work, log) = (work.clone(), log.clone());
            shuttle::thread::spawn(move || work(i, LogProbe { log }))
        })
        .collect()
}

/// Join a schedule's threads, then [`check_log`] its log against `stream`.
pub fn join_and_check(handles: Vec<JoinHandle<()>>, stream: &Stream, log: &Log) {
    for h in handles {
        h.join().unwrap();
    }
    check_log(stream, &log.0.lock().unwrap());
}

/// Explore `schedule` under `iterations` schedules of shuttle's random
/// scheduler, then as many of its PCT scheduler (depth 3); a schedule
/// fails by panicking (an assertion of the schedule, or a deadlock).
pub fn random_and_pct<F>(schedule: F, iterations: usize)
where
    F: Fn() + Clone + Send + Sync + 'static,
{
    shuttle::check_random(schedule.clone(), iterations);
    shuttle::check_pct(schedule, iterations, 3);
}
