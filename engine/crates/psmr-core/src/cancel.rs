//! Cooperative cancellation of a run.

use std::sync::atomic::{AtomicBool, Ordering};

/// Set once by whoever wants the run to stop; polled by the delivering
/// thread between requests. A cancelled run stops delivering: the requests
/// already queued still execute (so threads waiting at a barrier or cycle
/// are released), and the run reports how many were executed.
#[derive(Debug, Default)]
pub struct CancelToken(AtomicBool);

impl CancelToken {
    pub fn cancel(&self) {
        // Relaxed: the flag carries no data; a late observation only delays
        // the stop by one request.
        self.0.store(true, Ordering::Relaxed);
    }
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
    pub fn reset(&self) {
        self.0.store(false, Ordering::Relaxed);
    }
}
