//! The gate a thread of a virtual run sleeps on while another holds the
//! token: a one-slot signal of its own, apart from the conductor's state
//! lock.
//!
//! Why apart: when a thread waited for the token on a condition variable
//! of the state lock, the notified thread woke while its notifier still
//! held that lock (the notifier only released it inside its own wait), so
//! every hand-off also paid a contended lock, often a second sleep and
//! wake in the kernel. With a gate, the old holder releases the state
//! lock first, then opens the next thread's gate, then sleeps on its own:
//! the woken thread finds both locks free.

use std::sync::{Condvar, Mutex};
use std::time::Duration;

/// A binary signal: [`Gate::open`] lets one [`Gate::pass`] through (now or
/// later); opening an open gate changes nothing.
#[derive(Debug, Default)]
pub(crate) struct Gate {
    open: Mutex<bool>,
    signal: Condvar,
}

impl Gate {
    /// Open the gate and wake its thread if it sleeps there. The flag is
    /// set under the gate's lock and the notify comes after releasing it:
    /// a thread that checks the flag under the lock either sees it set or
    /// is already waiting (the condition variable releases the lock
    /// atomically with starting to wait), so the notify is never lost, and
    /// the woken thread never finds the lock still held by the opener.
    pub(crate) fn open(&self) {
        *self.flag() = true;
        self.signal.notify_one();
    }

    /// Wait until the gate is open (or a wake-up, or `timeout` of wall
    /// time), then close it. Returns false only if the timeout passed with
    /// the gate closed; a spurious wake-up returns true with nothing let
    /// through, which is why a pass is a hint the caller re-checks.
    ///
    /// One timed wait, no deadline loop: std's `wait_timeout_while` reads
    /// `Instant::now`, which panics on wasm32-unknown-unknown (the browser
    /// build), while `wait_timeout` is a plain futex wait with a timeout
    /// there. This keeps the old condition-variable wait's meaning for the
    /// stall watchdog: a wake-up that is not a timeout is not a stall.
    pub(crate) fn pass(&self, timeout: Duration) -> bool {
        let mut open = self.flag();
        if !*open {
            let (g, waited) = self
                .signal
                .wait_timeout(open, timeout)
                .unwrap_or_else(|p| p.into_inner());
            open = g;
            if waited.timed_out() && !*open {
                return false;
            }
        }
        *open = false;
        true
    }

    fn flag(&self) -> std::sync::MutexGuard<'_, bool> {
        // The flag is a plain bool set or cleared in one statement: a
        // panic cannot leave it half-written, so a poisoned lock is usable.
        self.open.lock().unwrap_or_else(|p| p.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn an_open_before_the_pass_is_kept_and_passes_once() {
        let g = Gate::default();
        g.open();
        g.open();
        assert!(g.pass(Duration::from_millis(1)));
        assert!(!g.pass(Duration::from_millis(1)), "two opens let one pass");
    }

    #[test]
    fn a_pass_waits_for_an_open_from_another_thread() {
        let g = Arc::new(Gate::default());
        let g2 = Arc::clone(&g);
        let t = std::thread::spawn(move || g2.pass(Duration::from_secs(30)));
        std::thread::sleep(Duration::from_millis(20));
        g.open();
        assert!(t.join().unwrap());
    }
}
