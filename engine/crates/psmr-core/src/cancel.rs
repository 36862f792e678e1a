//! Cooperative cancellation and pausing of a run.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Set by whoever controls the run (a CLI signal, the web page); polled by
/// the delivering thread before each delivery ([`crate::exec::RunContext::deliver`]).
///
/// * Cancel: the run stops delivering. The requests already queued still
///   execute (so threads waiting at a barrier or cycle are released), and
///   the run reports how many were executed.
/// * Pause: the delivering thread holds the next request back until resume
///   (or cancel). Workers finish what is queued and then wait for work, so a
///   paused classroom run shows its threads idle, as a real replica would be
///   with no requests arriving. Pausing never interrupts a synchronization
///   in progress: every request already delivered can complete.
///
/// A cancel can also be set in advance at a delivery count
/// ([`CancelToken::cancel_at`]): the run then stops before that delivery,
/// deterministically (tests, reproducible partial runs).
#[derive(Debug)]
pub struct CancelToken {
    cancelled: AtomicBool,
    paused: AtomicBool,
    /// Deliveries allowed (`u64::MAX`: no limit).
    limit: AtomicU64,
}

impl Default for CancelToken {
    fn default() -> Self {
        CancelToken {
            cancelled: AtomicBool::new(false),
            paused: AtomicBool::new(false),
            limit: AtomicU64::new(u64::MAX),
        }
    }
}

/// How long a paused deliverer sleeps between checks.
const PAUSE_POLL_US: u64 = 1_000;

impl CancelToken {
    pub fn cancel(&self) {
        // Relaxed: the flags carry no data; a late observation only delays
        // the stop (or the pause) by one request.
        self.cancelled.store(true, Ordering::Relaxed);
    }
    pub fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::Relaxed)
    }
    pub fn pause(&self) {
        self.paused.store(true, Ordering::Relaxed);
    }
    pub fn resume(&self) {
        self.paused.store(false, Ordering::Relaxed);
    }
    pub fn is_paused(&self) -> bool {
        self.paused.load(Ordering::Relaxed)
    }
    /// Stop delivering once `deliveries` deliveries were made.
    pub fn cancel_at(&self, deliveries: u64) {
        self.limit.store(deliveries, Ordering::Relaxed);
    }
    /// May delivery number `d` (0-based) still be made?
    pub fn allows(&self, d: u64) -> bool {
        d < self.limit.load(Ordering::Relaxed) && !self.is_cancelled()
    }
    /// Clear the flags and the limit, to reuse the token for another run.
    pub fn reset(&self) {
        self.cancelled.store(false, Ordering::Relaxed);
        self.paused.store(false, Ordering::Relaxed);
        self.limit.store(u64::MAX, Ordering::Relaxed);
    }
    /// Block while paused; return `false` if the run was cancelled.
    /// Bounded: each wait is one short sleep, and cancel ends the loop.
    pub fn wait_while_paused(&self) -> bool {
        while self.is_paused() && !self.is_cancelled() {
            std::thread::sleep(std::time::Duration::from_micros(PAUSE_POLL_US));
            // Virtual cores: the paused deliverer holds no one up; the
            // others finish what is queued (virtual time does not pass
            // for it while paused).
            crate::virt::point(|_| 0);
        }
        !self.is_cancelled()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn a_paused_token_blocks_until_resumed_and_cancel_ends_the_wait() {
        let t = Arc::new(CancelToken::default());
        t.pause();
        let waiter = {
            let t = Arc::clone(&t);
            std::thread::spawn(move || t.wait_while_paused())
        };
        std::thread::sleep(std::time::Duration::from_millis(20));
        assert!(!waiter.is_finished(), "paused: the deliverer must wait");
        t.resume();
        assert!(waiter.join().unwrap(), "resumed, not cancelled");

        t.pause();
        let waiter = {
            let t = Arc::clone(&t);
            std::thread::spawn(move || t.wait_while_paused())
        };
        t.cancel();
        assert!(!waiter.join().unwrap(), "cancel ends a pause");
        t.reset();
        assert!(!t.is_paused() && !t.is_cancelled());
    }
}
