//! The cost model of a virtual run: how much virtual time each
//! synchronization kind and each unit of application work takes.
//!
//! The numbers are modelled nanoseconds. [`CostTable::reference`] is a
//! committed table, the same on every machine, so a virtual run in CI gives
//! the same trace everywhere; a table measured on the machine at hand
//! ([`crate::calibrate`]) says where and when it was measured
//! ([`CostSource`]), and both travel with the run's report ([`Costs`]).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Modelled cost, in nanoseconds of virtual time, of each synchronization
/// kind and of one unit of application work.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
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
    /// From a notify (or unlock) to the woken thread running again: the
    /// woken thread's clock becomes at least the waker's plus this.
    pub wake_up: u64,
    /// The waker's own part of a wake-up (the notify call: a futex wake
    /// system call and the interrupt it sends), paid by the waking thread
    /// when it wakes someone. 0 in the reference table (the woken thread
    /// pays the whole `wake_up`, the model's first version).
    #[serde(default)]
    pub wake_notify: u64,
    /// Wake-up preemption on time-shared cores (more threads than modelled
    /// cores): when a thread is woken (a notify, an unlock) while every
    /// core is held, it runs on its waker's core this long after the
    /// waker's part of the wake (the switch on a busy core, instead of
    /// `wake_up`'s wake of an idle one), and the waker, preempted, waits
    /// for a core; a lock the waker holds stays held meanwhile. 0 in the
    /// reference table: no preemption (the woken thread waits for a core
    /// to be given up, the model's first versions).
    #[serde(default)]
    pub wake_preempt: u64,
    /// The delivering thread's own work per delivery unit outside every
    /// synchronization point (making the request, admitting it, its
    /// trace event), paid at each `Deliverer::next`. 0 in the reference
    /// table.
    #[serde(default)]
    pub deliver: u64,
    /// Spin iterations (each `spin`) a contended lock makes before it
    /// sleeps: a waiter released within them takes the lock without a
    /// wake-up (std's futex mutex spins 100 times). 0 in the reference
    /// table (every contended waiter sleeps and pays `wake_up`).
    #[serde(default)]
    pub mutex_spins: u64,
    /// Reading the clock (`Instant::now`: the vDSO's `clock_gettime`),
    /// paid by the reading thread after each reading a virtual run makes
    /// where a real run reads the clock (the run's timestamps: execution
    /// start and end, waits, steal timing). 0 in the reference table (a
    /// reading is free, the model's first versions).
    #[serde(default)]
    pub clock_read: u64,
    /// The work-stealing deliverer's own work to route one request
    /// (Algorithm 6's loop body: its class's threads, the `Enqueued`
    /// record, the queue sample) beyond `deliver` and the queues' locks
    /// and hand-offs; paid once per request by the delivering thread. 0
    /// in the reference table (the model's first versions).
    #[serde(default)]
    pub route: u64,
    /// The coloring runtime's own work to pop one event from a core's
    /// queue (the discipline's pop, the published length, the stolen-time
    /// count, the `Dequeued` record), paid under the core's lock beyond
    /// the lock itself. 0 in the reference table.
    #[serde(default)]
    pub event_pop: u64,
    /// The coloring runtime's own work to register one event (its owner
    /// looked up, the discipline's push, its admission), paid by the
    /// registering thread under the owner's lock beyond the lock and the
    /// claim's RMW. 0 in the reference table.
    #[serde(default)]
    pub event_register: u64,
    /// CBASE's own work when a worker takes a ready node (the ready FIFO's
    /// pop, the `Dequeued` record), paid under the graph's lock beyond the
    /// lock itself. 0 in the reference table.
    #[serde(default)]
    pub graph_take: u64,
    /// CBASE's own work when a worker removes an executed node (its slot
    /// freed, the live list's swap, the `GraphRemove` and size records),
    /// paid under the graph's lock beyond the lock and the `scan_step` per
    /// dependent. 0 in the reference table.
    #[serde(default)]
    pub graph_remove: u64,
    /// Not 0: a thread in the spin phase of a wait loop (`spin_loop`, a
    /// `Backoff`'s first iterations) keeps its core while another thread
    /// waits for one, until it yields to the OS (`yield_now`, the
    /// `Backoff`'s next phase) or its `time_slice` is over, as a real
    /// spinner keeps its CPU (the OS does not know it spins). 0 in the
    /// reference table: a spinner gives its core up at once (the model's
    /// first versions). A switch, not a cost.
    #[serde(default)]
    pub spin_keeps_core: u64,
    /// One busy-wait iteration (`spin_loop`).
    pub spin: u64,
    /// One yield to the OS scheduler.
    pub yield_now: u64,
    /// One unit of application work (a list node walked, a key touched).
    pub work_unit: u64,
    /// The same in picoseconds, for a machine where a unit costs less than
    /// a nanosecond or a fraction of one matters (a list node walked costs
    /// about 0.83 ns since the list's links are addresses); when not 0 it
    /// replaces `work_unit` ([`CostTable::work_ns`]). 0 in the reference
    /// table, whose traces therefore do not move.
    #[serde(default)]
    pub work_unit_ps: u64,
    /// Fixed part of executing any request (the call, the log's slot).
    pub execute_base: u64,
    /// One step of a scheduler's own search, outside any request: a graph
    /// node compared with a new request (CBASE's insert), a queue entry
    /// walked (Libasync-smp's steal).
    #[serde(default = "default_scan_step")]
    pub scan_step: u64,
    /// Putting another thread on a core (its registers, and the caches it
    /// refills) when more threads than cores time-share them: paid by the
    /// thread that gets a core another thread ran on last.
    #[serde(default = "default_context_switch")]
    pub context_switch: u64,
    /// How long a thread keeps a core while another runnable thread waits
    /// for one, before the modelled OS preempts it.
    #[serde(default = "default_time_slice")]
    pub time_slice: u64,
}

const fn default_scan_step() -> u64 {
    CostTable::reference().scan_step
}

const fn default_context_switch() -> u64 {
    CostTable::reference().context_switch
}

const fn default_time_slice() -> u64 {
    CostTable::reference().time_slice
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
            // Not charged by the reference (the model's first versions);
            // a calibrated table measures them (docs/benchmarks/virtual.md).
            wake_notify: 0,
            wake_preempt: 0,
            deliver: 0,
            mutex_spins: 0,
            clock_read: 0,
            route: 0,
            event_pop: 0,
            event_register: 0,
            graph_take: 0,
            graph_remove: 0,
            spin_keeps_core: 0,
            spin: 10,
            yield_now: 300,
            work_unit: 2,
            work_unit_ps: 0,
            execute_base: 100,
            // Calibrated (docs/benchmarks/virtual.md): late's scheduler
            // cost per request at 1 thread on the read-only moderate list
            // (1,664 ns, quiet pass of 2026-11-23) over the 149 nodes each
            // insert compares in a full graph of 150.
            scan_step: 11,
            // A direct switch between two threads of one process on Linux
            // is 1-3 us with the cache refill; not fitted on any run.
            context_switch: 2_000,
            // Linux's fair scheduler slices 3 ms among a few runnable
            // threads (its latency target divided among them).
            time_slice: 3_000_000,
        }
    }
}

impl CostTable {
    /// Virtual nanoseconds of `units` of application work: `work_unit_ps`
    /// picoseconds each (rounded down over the whole request) when set,
    /// else `work_unit` nanoseconds each.
    pub fn work_ns(&self, units: u64) -> u64 {
        if self.work_unit_ps > 0 {
            units.saturating_mul(self.work_unit_ps) / 1000
        } else {
            units.saturating_mul(self.work_unit)
        }
    }
}

impl Default for CostTable {
    fn default() -> Self {
        Self::reference()
    }
}

/// Where a cost table came from: what every label of a virtual run says.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum CostSource {
    /// [`CostTable::reference`]: committed, the same on every machine.
    #[default]
    Reference,
    /// Measured by [`crate::calibrate`] on a machine.
    Calibrated {
        /// The machine and the build: host name, architecture, cores,
        /// `native` or `wasm`.
        #[serde(rename = "where")]
        where_: String,
        /// When, as an ISO 8601 UTC timestamp.
        when: String,
    },
    /// Read from a file that does not say where it was measured (a
    /// hand-written table).
    File { path: String },
}

/// A cost table and its provenance: what a virtual run runs under and
/// what its report carries.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Costs {
    pub table: CostTable,
    pub source: CostSource,
}

impl Costs {
    /// The committed reference table.
    pub fn reference() -> Self {
        Costs {
            table: CostTable::reference(),
            source: CostSource::Reference,
        }
    }

    /// The honest label of a run on `cores` virtual cores under these
    /// costs: `virtual 8 cores (model, reference cost table)`,
    /// `virtual 8 cores (model, calibrated on <where>, <when>)`.
    pub fn label(&self, cores: usize) -> String {
        let from = match &self.source {
            CostSource::Reference => "reference cost table".to_string(),
            CostSource::Calibrated { where_, when } => format!("calibrated on {where_}, {when}"),
            CostSource::File { path } => format!("cost table from {path}"),
        };
        format!("virtual {cores} cores (model, {from})")
    }

    /// Read a table from JSON: what `psmr calibrate --json` writes (a
    /// table and its source), or a bare table (its source is then the file
    /// `path`). Every field of the table must be present.
    pub fn from_json(text: &str, path: &str) -> Result<Self, String> {
        if let Ok(c) = serde_json::from_str::<Costs>(text) {
            return Ok(c);
        }
        serde_json::from_str::<CostTable>(text)
            .map(|table| Costs {
                table,
                source: CostSource::File { path: path.into() },
            })
            .map_err(|e| {
                format!(
                    "expected a cost table (`psmr calibrate --json` writes one) or its fields: {e}"
                )
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn work_in_picoseconds_replaces_whole_nanoseconds_when_set() {
        let r = CostTable::reference();
        // The reference charges whole nanoseconds (its traces do not move).
        assert_eq!(r.work_ns(1_000), 1_000 * r.work_unit);
        let fine = CostTable {
            work_unit_ps: 831,
            ..r
        };
        assert_eq!(fine.work_ns(1_000), 831);
        assert_eq!(fine.work_ns(100_000), 83_100);
        // Rounded down over the whole request, not per unit.
        assert_eq!(fine.work_ns(3), 2);
        // A table file without the entry reads it as 0: whole nanoseconds.
        let mut v = serde_json::to_value(r).unwrap();
        v.as_object_mut().unwrap().remove("work_unit_ps");
        let read: CostTable = serde_json::from_value(v).unwrap();
        assert_eq!(read.work_unit_ps, 0);
    }

    #[test]
    fn the_label_says_model_and_where_the_table_came_from() {
        assert_eq!(
            Costs::reference().label(8),
            "virtual 8 cores (model, reference cost table)"
        );
        let c = Costs {
            table: CostTable::reference(),
            source: CostSource::Calibrated {
                where_: "lab (x86_64, 2 cores, native)".into(),
                when: "2026-11-26T12:00:00Z".into(),
            },
        };
        assert_eq!(
            c.label(2),
            "virtual 2 cores (model, calibrated on lab (x86_64, 2 cores, native), 2026-11-26T12:00:00Z)"
        );
    }

    #[test]
    fn a_table_file_is_read_with_or_without_its_source() {
        let c = Costs {
            table: CostTable {
                spin: 3,
                ..CostTable::reference()
            },
            source: CostSource::Calibrated {
                where_: "lab".into(),
                when: "today".into(),
            },
        };
        let text = serde_json::to_string(&c).unwrap();
        assert_eq!(Costs::from_json(&text, "t.json").unwrap(), c);
        let bare = serde_json::to_string(&c.table).unwrap();
        let read = Costs::from_json(&bare, "t.json").unwrap();
        assert_eq!(read.table, c.table);
        assert_eq!(
            read.source,
            CostSource::File {
                path: "t.json".into()
            }
        );
        let err = Costs::from_json(r#"{"spin": 3}"#, "t.json").unwrap_err();
        assert!(err.contains("missing field"), "{err}");
    }
}
