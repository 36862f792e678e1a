//! The cost model of a virtual run: how much virtual time each
//! synchronization kind and each unit of application work takes.
//!
//! The numbers are modelled nanoseconds. [`CostTable::reference`] is a
//! committed table, the same on every machine, so a virtual run in CI gives
//! the same trace everywhere; a table calibrated on the machine at hand
//! comes later (issue 25) and will be stored in the run's report.

use serde::{Deserialize, Serialize};

/// Modelled cost, in nanoseconds of virtual time, of each synchronization
/// kind and of one unit of application work.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CostTable {
    /// Taking a lock nobody holds.
    pub lock_uncontended: u64,
    /// Finding a lock held (the failed attempt, before blocking).
    pub lock_contended: u64,
    /// One atomic read-modify-write.
    pub atomic_rmw: u64,
    /// Moving a cache line written on another core.
    pub line_transfer: u64,
    /// Handing an item to another thread through a queue.
    pub queue_handoff: u64,
    /// From a notify (or unlock) to the woken thread running again.
    pub wake_up: u64,
    /// One busy-wait iteration (`spin_loop`).
    pub spin: u64,
    /// One yield to the OS scheduler.
    pub yield_now: u64,
    /// One unit of application work (a list node walked, a key touched).
    pub work_unit: u64,
    /// Fixed part of executing any request (the call, the log's slot).
    pub execute_base: u64,
    /// One step of a scheduler's own search, outside any request: a graph
    /// node compared with a new request (CBASE's insert), a queue entry
    /// walked (Libasync-smp's steal).
    #[serde(default = "default_scan_step")]
    pub scan_step: u64,
}

const fn default_scan_step() -> u64 {
    CostTable::reference().scan_step
}

impl CostTable {
    /// The committed reference table. Orders of magnitude of a current
    /// x86-64 desktop core (an uncontended lock is one atomic RMW, a futex
    /// wake-up a few microseconds); not measured on the machine at hand.
    pub const fn reference() -> Self {
        CostTable {
            lock_uncontended: 20,
            lock_contended: 100,
            atomic_rmw: 20,
            line_transfer: 80,
            queue_handoff: 50,
            wake_up: 3_000,
            spin: 10,
            yield_now: 300,
            work_unit: 2,
            execute_base: 100,
            // Calibrated (docs/benchmarks/virtual.md): late's scheduler
            // cost per request at 1 thread on the read-only moderate list
            // (1,664 ns, quiet pass of 2026-11-23) over the 149 nodes each
            // insert compares in a full graph of 150.
            scan_step: 11,
        }
    }
}

impl Default for CostTable {
    fn default() -> Self {
        Self::reference()
    }
}
