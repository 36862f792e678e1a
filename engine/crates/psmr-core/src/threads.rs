//! Where a run's threads come from.
//!
//! Schedulers never spawn OS threads themselves: they ask a [`ThreadHost`]
//! to run one closure per worker plus the scheduler's own loop, all at the
//! same time. Natively the host owns a rayon pool; in the browser it uses
//! the global pool that wasm-bindgen-rayon started over Web Workers.
//!
//! Invariant: every closure of one [`ThreadHost::run`] gets its own pool
//! thread for its whole life, because workers block on each other
//! (barriers, cycles, markers). The host therefore refuses a run that needs
//! more threads than it has (`workers + 1 <= capacity`), instead of letting
//! it deadlock.

use std::sync::Arc;

/// Most worker threads a run may ask for (scenario limit too).
pub const MAX_WORKERS: usize = 64;

#[derive(Clone)]
pub struct ThreadHost {
    pool: Option<Arc<rayon::ThreadPool>>,
}

impl std::fmt::Debug for ThreadHost {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ThreadHost")
            .field("capacity", &self.capacity())
            .finish()
    }
}

impl ThreadHost {
    /// A host with its own pool able to run `max_workers` workers plus the
    /// scheduler thread.
    pub fn with_capacity(max_workers: usize) -> Result<Self, String> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(max_workers + 1)
            .thread_name(|i| format!("psmr-{i}"))
            .build()
            .map_err(|e| format!("cannot start {} threads: {e}", max_workers + 1))?;
        Ok(ThreadHost {
            pool: Some(Arc::new(pool)),
        })
    }

    /// The global rayon pool (the browser's wasm-bindgen-rayon pool).
    pub fn global() -> Self {
        ThreadHost { pool: None }
    }

    /// Threads the host can run at once.
    pub fn capacity(&self) -> usize {
        match &self.pool {
            Some(p) => p.current_num_threads(),
            None => rayon::current_num_threads(),
        }
    }

    /// Largest worker count a run may use on this host.
    pub fn max_workers(&self) -> usize {
        self.capacity().saturating_sub(1).min(MAX_WORKERS)
    }

    /// Run `worker(i)` for `i in 0..workers` and `driver()` concurrently,
    /// each on its own pool thread; return `driver`'s result once all ended.
    pub fn run<R, W, D>(&self, workers: usize, worker: W, driver: D) -> Result<R, String>
    where
        R: Send,
        W: Fn(usize) + Sync,
        D: FnOnce() -> R + Send,
    {
        if workers + 1 > self.capacity() {
            return Err(format!(
                "a run with {workers} worker threads needs {} pool threads, this engine has {}",
                workers + 1,
                self.capacity()
            ));
        }
        let worker = &worker;
        Ok(match &self.pool {
            Some(p) => p.scope(|s| spawn_all(s, workers, worker, driver)),
            None => rayon::scope(|s| spawn_all(s, workers, worker, driver)),
        })
    }
}

/// Spawn the workers into the scope, then run the driver on this thread.
fn spawn_all<'s, R, W, D>(s: &rayon::Scope<'s>, workers: usize, worker: &'s W, driver: D) -> R
where
    W: Fn(usize) + Sync,
    D: FnOnce() -> R,
{
    for i in 0..workers {
        s.spawn(move |_| worker(i));
    }
    driver()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Barrier;

    #[test]
    fn all_workers_and_driver_run_at_once() {
        // A barrier of workers + driver only releases if every closure has
        // its own thread at the same time.
        let host = ThreadHost::with_capacity(4).unwrap();
        let barrier = Barrier::new(5);
        let r = host.run(
            4,
            |_| {
                barrier.wait();
            },
            || {
                barrier.wait();
                7
            },
        );
        assert_eq!(r, Ok(7));
    }

    #[test]
    fn refuses_runs_larger_than_the_pool() {
        let host = ThreadHost::with_capacity(2).unwrap();
        let err = host.run(3, |_| {}, || ()).unwrap_err();
        assert!(err.contains("needs 4 pool threads"), "{err}");
    }
}
