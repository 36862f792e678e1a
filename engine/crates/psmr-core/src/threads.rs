//! Where a run's threads come from.
//!
//! Schedulers never spawn OS threads themselves: they ask a [`ThreadHost`]
//! to run one closure per worker, one per *auxiliary role* (a workload
//! tracker, a graph partitioner, a dependency-graph builder...) and the
//! scheduler's own loop, all at the same time. Natively the host owns a
//! rayon pool; in the browser it uses the global pool that
//! wasm-bindgen-rayon started over Web Workers.
//!
//! Invariant: every closure of one [`ThreadHost::run_team`] gets its own
//! pool thread for its whole life, because threads block on each other
//! (barriers, cycles, markers, a partitioner waiting for a snapshot). The
//! host therefore refuses a run that needs more threads than it has
//! (`workers + roles + 1 <= capacity`), instead of letting it deadlock.
//!
//! A host made [`ThreadHost::virtual_cores`] runs every team under a
//! [`Conductor`]: the same closures on the same pool threads, one at a time
//! in virtual time (docs/protocols/virtual-cores.md). Thread indices: the
//! workers, then the roles, then the driver.

use std::sync::Arc;

use crate::pin::{self, Pinned};
use crate::virt::{self, Conductor, ConductorStats, CostTable, Schedule, StallHook};

/// Most worker threads a run may ask for (scenario limit too).
pub const MAX_WORKERS: usize = 64;
/// Most auxiliary roles a scheduler may run beside its workers.
pub const MAX_ROLES: usize = crate::trace::MAX_ROLES;

#[derive(Clone)]
pub struct ThreadHost {
    pool: Option<Arc<rayon::ThreadPool>>,
    /// Virtual cores: every team runs under a conductor with this table.
    virt: Option<CostTable>,
    /// How the conductor of a virtual team chooses (earliest clock unless
    /// a perturbed schedule is set, for exploration).
    schedule: Schedule,
    /// Virtual cores: threads per cache domain (0: all share one).
    cores_per_cache: usize,
    /// Virtual cores: the modelled machine's cores (0: one per thread).
    machine_cores: usize,
    /// The last virtual team's counters (tests, reports).
    last: Arc<std::sync::Mutex<Option<ConductorStats>>>,
    /// Virtual cores: the stall watchdog's wall-time limit (None: the
    /// conductor's default) and what to do when it fires.
    stall: Option<std::time::Duration>,
    on_stall: Option<StallHook>,
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
        Ok(Self::on(Some(Arc::new(pool))))
    }

    /// A host with a pool of its own for `max_workers` workers plus the
    /// scheduler thread, keeping this host's stall watchdog settings.
    pub fn with_pool_of(&self, max_workers: usize) -> Result<Self, String> {
        let mut h = Self::with_capacity(max_workers)?;
        h.stall = self.stall;
        h.on_stall = self.on_stall.clone();
        Ok(h)
    }

    /// The global rayon pool (the browser's wasm-bindgen-rayon pool).
    pub fn global() -> Self {
        Self::on(None)
    }

    /// A host of real threads on `pool` (`None`: the global pool).
    fn on(pool: Option<Arc<rayon::ThreadPool>>) -> Self {
        ThreadHost {
            pool,
            virt: None,
            schedule: Schedule::EARLIEST,
            cores_per_cache: 0,
            machine_cores: 0,
            last: Arc::default(),
            stall: None,
            on_stall: None,
        }
    }

    /// This host, running every team on virtual cores with `costs`.
    pub fn virtual_cores(mut self, costs: CostTable) -> Self {
        self.virt = Some(costs);
        self
    }

    /// Virtual cores: fail a run whose token stays `after` of wall time
    /// with one thread that reaches no synchronization point, and call
    /// `hook` (if any) with the message (see [`Conductor::on_stall`]).
    pub fn on_stall(mut self, after: Option<std::time::Duration>, hook: Option<StallHook>) -> Self {
        self.stall = after.or(self.stall);
        self.on_stall = hook.or(self.on_stall);
        self
    }

    /// This host, its virtual teams choosing by `schedule`.
    pub fn with_schedule(mut self, schedule: Schedule) -> Self {
        self.schedule = schedule;
        self
    }

    /// This host with cache domains of `cores` consecutive threads on
    /// virtual cores (0: one domain for all, the default); nothing changes
    /// on real threads.
    pub fn cores_per_cache(mut self, cores: usize) -> Self {
        self.cores_per_cache = cores;
        self
    }

    /// This host with `cores` modelled cores on virtual cores: a team with
    /// more threads (workers, roles and the driver) time-shares them (0:
    /// a core per thread, the default); nothing changes on real threads.
    pub fn machine_cores(mut self, cores: usize) -> Self {
        self.machine_cores = cores;
        self
    }

    /// The cost table when teams run on virtual cores.
    pub fn virtual_costs(&self) -> Option<&CostTable> {
        self.virt.as_ref()
    }

    /// The counters of the last virtual team this host ran.
    pub fn last_virtual_stats(&self) -> Option<ConductorStats> {
        *self.last.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Threads the host can run at once.
    pub fn capacity(&self) -> usize {
        match &self.pool {
            Some(p) => p.current_num_threads(),
            None => rayon::current_num_threads(),
        }
    }

    /// Largest worker count a run with `roles` auxiliary threads may use.
    pub fn max_workers(&self, roles: usize) -> usize {
        self.capacity().saturating_sub(1 + roles).min(MAX_WORKERS)
    }

    /// Run `worker(i)` for `i in 0..workers` and `driver()` concurrently,
    /// each on its own pool thread; return `driver`'s result once all ended.
    pub fn run<R, W, D>(&self, workers: usize, worker: W, driver: D) -> Result<R, String>
    where
        R: Send,
        W: Fn(usize) + Sync,
        D: FnOnce() -> R + Send,
    {
        self.run_team(workers, 0, worker, |_| {}, driver)
    }

    /// [`ThreadHost::run`] plus `role(k)` for `k in 0..roles`, each on its
    /// own pool thread too. Roles must end on their own once the driver and
    /// the workers are done (see the scheduler's stop signal).
    ///
    /// Only this shell is generic: it hands the closures on as trait
    /// objects, so the team's set-up (the pool's scope, its jobs, the
    /// virtual-core conductor) is compiled once for every scheduler instead
    /// of once per closure type (about 6 KB of wasm each, 65 KB in all:
    /// docs/benchmarks/frontend.md, ninth pass). What that costs
    /// is one indirect call per thread per run (a worker's closure, which
    /// holds its whole loop, is entered once); the loops stay monomorphic.
    pub fn run_team<R, W, A, D>(
        &self,
        workers: usize,
        roles: usize,
        worker: W,
        role: A,
        driver: D,
    ) -> Result<R, String>
    where
        R: Send,
        W: Fn(usize) + Sync,
        A: Fn(usize) + Sync,
        D: FnOnce() -> R + Send,
    {
        // The driver's result comes back through this slot: the erased
        // driver returns nothing. It is filled exactly when the team ran
        // to the end (an error or a resumed panic leaves it empty).
        let mut out: Option<R> = None;
        let mut driver = Some(driver);
        let mut erased_driver = || {
            if let Some(d) = driver.take() {
                out = Some(d());
            }
        };
        self.run_team_erased(workers, roles, &worker, &role, &mut erased_driver)?;
        Ok(out.expect("a team that ran to the end ran its driver"))
    }

    /// [`ThreadHost::run_team`] once its closures are trait objects.
    fn run_team_erased(
        &self,
        workers: usize,
        roles: usize,
        worker: &(dyn Fn(usize) + Sync),
        role: &(dyn Fn(usize) + Sync),
        driver: &mut (dyn FnMut() + Send),
    ) -> Result<(), String> {
        let need = workers + roles + 1;
        if roles > MAX_ROLES {
            return Err(format!(
                "a run may have at most {MAX_ROLES} auxiliary threads, not {roles}"
            ));
        }
        if need > self.capacity() {
            let aux = if roles > 0 {
                format!(" and {roles} auxiliary")
            } else {
                String::new()
            };
            return Err(format!(
                "a run with {workers} worker{aux} threads needs {need} pool threads, this engine has {}",
                self.capacity()
            ));
        }
        let team = Team {
            workers,
            roles,
            worker,
            role,
        };
        match self.virt {
            Some(costs) => team.run_virtual(self, costs, driver),
            None => {
                team.scope(self, driver);
                Ok(())
            }
        }
    }
}

/// The closures of one run, as trait objects (one instance of the team's
/// code for every scheduler).
struct Team<'t> {
    workers: usize,
    roles: usize,
    worker: &'t (dyn Fn(usize) + Sync),
    role: &'t (dyn Fn(usize) + Sync),
}

impl<'t> Team<'t> {
    /// Spawn workers and roles into the scope, then run the driver here.
    fn spawn<'s>(self, s: &rayon::Scope<'s>, driver: &mut (dyn FnMut() + Send))
    where
        't: 's,
    {
        let (worker, role) = (self.worker, self.role);
        for i in 0..self.workers {
            s.spawn(move |_| worker(i));
        }
        for k in 0..self.roles {
            s.spawn(move |_| role(k));
        }
        driver()
    }

    /// Run the team and `driver` on `host`'s pool.
    fn scope(self, host: &ThreadHost, driver: &mut (dyn FnMut() + Send)) {
        match &host.pool {
            Some(p) => p.scope(|s| self.spawn(s, driver)),
            None => rayon::scope(|s| self.spawn(s, driver)),
        }
    }

    /// [`ThreadHost::run_team`] on virtual cores: each closure attaches
    /// its pool thread to one conductor first. A failed run (a watchdog, a
    /// panicking thread) is an error naming why, not a panic.
    fn run_virtual(
        self,
        host: &ThreadHost,
        costs: CostTable,
        driver: &mut (dyn FnMut() + Send),
    ) -> Result<(), String> {
        let Team {
            workers,
            roles,
            worker,
            role,
        } = self;
        let names = (0..workers)
            .map(|i| format!("worker {i}"))
            .chain((0..roles).map(|k| format!("role {k}")))
            .chain(std::iter::once("driver".to_string()))
            .collect();
        let mut conductor = Conductor::new(names, costs)
            .on_stall(host.on_stall.clone())
            .with_schedule(&host.schedule)
            .with_cores_per_cache(host.cores_per_cache)
            .with_cores(host.machine_cores);
        if let Some(after) = host.stall {
            conductor = conductor.with_stall(after);
        }
        let conductor = Arc::new(conductor);
        let c = &conductor;
        // One thread runs at a time, so the whole team shares the caller's
        // CPU: a hand-off is then a switch there, not a wake-up sent to
        // another core (wall time only; `Pinned` restores each pool
        // thread's mask when its closure returns).
        let cpu = pin::current_cpu();
        let attached_worker = move |i: usize| {
            let _pin = Pinned::to(cpu);
            let _on = virt::attach(Arc::clone(c), i);
            worker(i);
        };
        let attached_role = move |k: usize| {
            let _pin = Pinned::to(cpu);
            let _on = virt::attach(Arc::clone(c), workers + k);
            role(k);
        };
        let mut attached_driver = move || {
            let _pin = Pinned::to(cpu);
            let _on = virt::attach(Arc::clone(c), workers + roles);
            driver()
        };
        let team = Team {
            workers,
            roles,
            worker: &attached_worker,
            role: &attached_role,
        };
        let run = std::panic::AssertUnwindSafe(|| team.scope(host, &mut attached_driver));
        let out = std::panic::catch_unwind(run);
        *host.last.lock().unwrap_or_else(|p| p.into_inner()) = Some(conductor.stats());
        match (out, conductor.failure()) {
            (Ok(r), None) => Ok(r),
            (_, Some(why)) => Err(why),
            (Err(panic), None) => std::panic::resume_unwind(panic),
        }
    }
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
        let err = host.run_team(2, 1, |_| {}, |_| {}, || ()).unwrap_err();
        assert!(
            err.contains("2 worker and 1 auxiliary threads needs 4"),
            "{err}"
        );
    }

    #[test]
    fn roles_run_beside_workers_and_driver() {
        // Workers, roles and driver all meet at one barrier: only possible
        // if each has its own thread.
        let host = ThreadHost::with_capacity(4).unwrap();
        assert_eq!(host.max_workers(2), 2);
        let barrier = Barrier::new(5);
        let r = host.run_team(
            2,
            2,
            |_| {
                barrier.wait();
            },
            |_| {
                barrier.wait();
            },
            || {
                barrier.wait();
                9
            },
        );
        assert_eq!(r, Ok(9));
    }

    /// A virtual team runs pinned to one CPU, and every pool thread gets
    /// its whole mask back afterwards: a real run on the same pool then
    /// has all the CPUs again (it would run on one if a pin were left).
    #[cfg(target_os = "linux")]
    #[test]
    fn a_virtual_team_is_pinned_to_one_cpu_and_gives_the_pool_its_cpus_back() {
        use std::sync::Mutex as StdMutex;
        let cpus = pin::allowed();
        if cpus < 2 {
            return; // one CPU: a pin changes nothing to check
        }
        let real = ThreadHost::with_capacity(2).unwrap();
        let virt = real.clone().virtual_cores(CostTable::reference());
        let seen = StdMutex::new(Vec::new());
        let look = || seen.lock().unwrap().push(pin::allowed());
        virt.run(2, |_| look(), look).unwrap();
        assert_eq!(*seen.lock().unwrap(), vec![1, 1, 1], "virtual team");
        seen.lock().unwrap().clear();
        let barrier = Barrier::new(3);
        real.run(
            2,
            |_| {
                look();
                barrier.wait();
            },
            || {
                look();
                barrier.wait();
            },
        )
        .unwrap();
        assert_eq!(*seen.lock().unwrap(), vec![cpus; 3], "real team after it");
    }
}
