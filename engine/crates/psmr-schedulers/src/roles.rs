//! The life of an auxiliary thread (a workload tracker, a graph
//! partitioner, a dependency-graph builder): wait for work, handle it, stop
//! when the run ends.
//!
//! [`RoleSignal`] is a generation counter and a stop flag under one mutex,
//! with a condition variable. The driver (or a worker) calls
//! [`RoleSignal::notify`] when there is new work and [`RoleSignal::stop`]
//! when the run is over; the role loops on [`RoleSignal::wait`].
//!
//! Why nothing is lost at start-up or shutdown: a role may start after the
//! driver already notified, or even stopped (the host starts every closure
//! of a run at once, in no particular order). `wait` compares the
//! generation with the last one the role saw and checks the stop flag
//! under the same lock the driver changes them under, before blocking:
//! work notified before the role started is seen, and a stop set before it
//! started ends its loop at once. Work notified before `stop` is always
//! reported before the stop (`wait` looks at the generation first).
//! Model-checked in `roles_loom_tests.rs`.

use crate::sync::{Condvar, Mutex};

#[derive(Debug, Default)]
struct State {
    generation: u64,
    stopped: bool,
}

/// Work-or-stop signal for one auxiliary role.
#[derive(Debug, Default)]
pub struct RoleSignal {
    state: Mutex<State>,
    cv: Condvar,
}

impl RoleSignal {
    pub fn new() -> Self {
        Self::default()
    }

    /// There is new work for the role.
    pub fn notify(&self) {
        let mut st = self.state.lock().unwrap_or_else(|p| p.into_inner());
        st.generation = st.generation.wrapping_add(1);
        self.cv.notify_all();
    }

    /// The run is over: the role's `wait` returns `None` once it has seen
    /// every notification made before this.
    pub fn stop(&self) {
        let mut st = self.state.lock().unwrap_or_else(|p| p.into_inner());
        st.stopped = true;
        self.cv.notify_all();
    }

    /// Block until there is work the role has not seen (`*seen` is updated
    /// and the new generation returned) or the run stopped (`None`).
    pub fn wait(&self, seen: &mut u64) -> Option<u64> {
        let mut st = self.state.lock().unwrap_or_else(|p| p.into_inner());
        loop {
            if st.generation != *seen {
                *seen = st.generation;
                return Some(st.generation);
            }
            if st.stopped {
                return None;
            }
            st = self.cv.wait(st).unwrap_or_else(|p| p.into_inner());
        }
    }
}

#[cfg(all(test, loom))]
#[path = "roles_loom_tests.rs"]
mod loom_tests;

#[cfg(all(test, not(loom), not(shuttle)))]
mod tests {
    use super::*;

    #[test]
    fn work_before_the_role_starts_is_seen_and_stop_ends_the_loop() {
        let s = RoleSignal::new();
        s.notify();
        s.stop();
        let mut seen = 0;
        assert_eq!(s.wait(&mut seen), Some(1), "work notified before start");
        assert_eq!(s.wait(&mut seen), None, "then the stop");
    }

    #[test]
    fn a_waiting_role_is_woken_by_notify_and_by_stop() {
        let s = RoleSignal::new();
        std::thread::scope(|scope| {
            let role = scope.spawn(|| {
                let (mut seen, mut handled) = (0, 0);
                while s.wait(&mut seen).is_some() {
                    handled += 1;
                }
                handled
            });
            std::thread::sleep(std::time::Duration::from_millis(10));
            s.notify();
            std::thread::sleep(std::time::Duration::from_millis(10));
            s.stop();
            assert!(role.join().unwrap() >= 1);
        });
    }
}
