// Generated from contract.schema.json by scripts/gen-contract.mjs; do not edit.
// The engine defines these types once (psmr-scenario, psmr-core; `psmr schema --contract`).

/** One measured point of the sweep. */
export interface BenchPoint {
  /** Every repetition passed the oracle. */
  correct: boolean;
  /**
   * The workers' execution time per request they executed, in µs (their
   * execution intervals summed over the workers, over the requests).
   * Against the 1-thread point it says whether workers ran slower side
   * by side (shared cores or memory), apart from waiting. 0 for
   * sequential execution, which runs on the delivering thread (its time
   * is `scheduler_ns_per_request`).
   */
  exec_us_per_request?: number;
  label: string;
  latency_p99_us: number;
  /**
   * On virtual cores, the point's label (`virtual N cores (model, ...)`);
   * absent for real threads.
   */
  mode_label?: string;
  /**
   * The run's threads (workers, the delivering thread and auxiliary
   * threads such as PePaxos's graph builder) exceed the cores: threads
   * time-share and the numbers say little about the scheduler. Never
   * on virtual cores (each thread has its own).
   */
  oversubscribed: boolean;
  scheduler: string;
  /** Delivering thread's busy time per request. */
  scheduler_ns_per_request: number;
  /**
   * Over `epaxos` on the same stream (commit streams whose scenario
   * lists `epaxos`).
   */
  speedup_vs_epaxos?: number;
  /** Over sequential execution of the same stream. */
  speedup_vs_sequential: number;
  threads: number;
  /** Median over the scenario's `run.repetitions`. */
  throughput_ops_s: number;
  violation?: string | null;
  /**
   * Share of the workers' measured time spent waiting (for a request to
   * run, or for another thread), not executing: `(wait + idle) / (exec +
   * wait + idle)` over the workers.
   */
  worker_wait_share?: number;
  writes: number;
}

/** The sweep's result. */
export interface BenchReport {
  cores: number;
  /**
   * Real threads (absent) or virtual cores (`cores`: the sweep's
   * largest count): then every point is a model's number.
   */
  mode?: RunMode;
  points: BenchPoint[];
  repetitions: number;
  scenario: string;
  /** One entry per write share swept. */
  streams?: BenchStream[];
}

/**
 * The stream of one write share (its kind, size and, for commit streams,
 * SCC sizes).
 */
export interface BenchStream {
  stream: StreamInfo;
  writes: number;
}

/** A cell range, named for people (`shard 2`, `keys 10-19`, `color 4`). */
export interface CellName {
  hi: U64;
  lo: U64;
  text: string;
  /** `shard`, `key` or `color`. */
  unit: string;
}

/** One class's place in a classes-to-threads mapping, for the views. */
export interface ClassAssignment {
  class: string;
  sequential: boolean;
  threads: number[];
}

/** One request class, for the views (no more guessing from names). */
export interface ClassInfo {
  /**
   * Ids of the classes it conflicts with (itself included when it has
   * internal conflicts).
   */
  conflicts: number[];
  name: string;
  /** The shard of a local class (0-based), absent for a global one. */
  shard?: number;
  weight: number;
  write: boolean;
}

/** The mapping of one class. */
export interface ClassMapping {
  mode: Mode;
  /** Worker thread ids (0-based), sorted, no duplicates. */
  threads: number[];
}

/**
 * Parameters of the event-coloring runtimes (`libasync`, `mely`): the
 * scenario entry's `coloring` object. `libasync` takes `stealing`,
 * `queue_capacity` and `spin`; `mely` takes every field.
 */
export interface ColoringParams {
  /**
   * `mely`: events of one color run in a row before the core moves to
   * its next color-queue (default 10, as in the paper).
   */
  batch?: number | null;
  /**
   * `mely`: cores per shared cache in the topology the locality
   * heuristic uses (default 2: the paper's Xeon pairs).
   */
  cores_per_cache?: number | null;
  /** `mely`: locality-aware stealing, nearest victims first (default true). */
  locality?: boolean | null;
  /**
   * `mely`: penalty-aware stealing, a handler's penalty divides its
   * events' weight (default true).
   */
  penalty?: boolean | null;
  /**
   * Delivered root events a core may hold before the driver waits
   * (default 1024); events registered by handlers never wait.
   */
  queue_capacity?: number | null;
  /**
   * How an idle core waits between steal attempts: spin, yield, then
   * sleep `park_us` (woken at once by a registration).
   */
  spin?: SpinPolicy | null;
  /**
   * `mely`: the steal cost assumed before any steal was measured, ns,
   * and the unit of the stealing queue's time-left intervals (default
   * 1000).
   */
  steal_cost_ns?: number | null;
  /** Idle cores steal colors from others (default true). */
  stealing?: boolean | null;
  /**
   * `mely`: time-left stealing, only colors whose time left exceeds the
   * cost of a steal (default true).
   */
  time_left?: boolean | null;
}

/** Where a cost table came from: what every label of a virtual run says. */
export type CostSource =
  /** [`CostTable::reference`]: committed, the same on every machine. */
  | {
    kind: 'reference';
  }
  /** Measured by [`crate::calibrate`] on a machine. */
  | {
    kind: 'calibrated';
    /** When, as an ISO 8601 UTC timestamp. */
    when: string;
    /**
     * The machine and the build: host name, architecture, cores,
     * `native` or `wasm`.
     */
    where: string;
  }
  /**
   * Read from a file that does not say where it was measured (a
   * hand-written table).
   */
  | {
    kind: 'file';
    path: string;
  };

/**
 * Modelled cost, in nanoseconds of virtual time, of each synchronization
 * kind and of one unit of application work.
 */
export interface CostTable {
  /** One atomic read-modify-write. */
  atomic_rmw: number;
  /**
   * Reading the clock (`Instant::now`: the vDSO's `clock_gettime`),
   * paid by the reading thread after each reading a virtual run makes
   * where a real run reads the clock (the run's timestamps: execution
   * start and end, waits, steal timing). 0 in the reference table (a
   * reading is free, the model's first versions).
   */
  clock_read?: number;
  /**
   * Putting another thread on a core (its registers, and the caches it
   * refills) when more threads than cores time-share them: paid by the
   * thread that gets a core another thread ran on last.
   */
  context_switch?: number;
  /**
   * The delivering thread's own work per delivery unit outside every
   * synchronization point (making the request, admitting it, its
   * trace event), paid at each `Deliverer::next`. 0 in the reference
   * table.
   */
  deliver?: number;
  /**
   * The coloring runtime's own work to pop one event from a core's
   * queue (the discipline's pop, the published length, the stolen-time
   * count, the `Dequeued` record), paid under the core's lock beyond
   * the lock itself. 0 in the reference table.
   */
  event_pop?: number;
  /**
   * The coloring runtime's own work to register one event (its owner
   * looked up, the discipline's push, its admission), paid by the
   * registering thread under the owner's lock beyond the lock and the
   * claim's RMW. 0 in the reference table.
   */
  event_register?: number;
  /** Fixed part of executing any request (the call, the log's slot). */
  execute_base: number;
  /**
   * CBASE's own work when a worker removes an executed node (its slot
   * freed, the live list's swap, the `GraphRemove` and size records),
   * paid under the graph's lock beyond the lock and the `scan_step` per
   * dependent. 0 in the reference table.
   */
  graph_remove?: number;
  /**
   * CBASE's own work when a worker takes a ready node (the ready FIFO's
   * pop, the `Dequeued` record), paid under the graph's lock beyond the
   * lock itself. 0 in the reference table.
   */
  graph_take?: number;
  /** Moving a cache line written on another core. */
  line_transfer: number;
  /** Finding a lock held (the failed attempt, before blocking). */
  lock_contended: number;
  /** Taking a lock nobody holds. */
  lock_uncontended: number;
  /**
   * Spin iterations (each `spin`) a contended lock makes before it
   * sleeps: a waiter released within them takes the lock without a
   * wake-up (std's futex mutex spins 100 times). 0 in the reference
   * table (every contended waiter sleeps and pays `wake_up`).
   */
  mutex_spins?: number;
  /** Handing an item to another thread through a queue. */
  queue_handoff: number;
  /**
   * The work-stealing deliverer's own work to route one request
   * (Algorithm 6's loop body: its class's threads, the `Enqueued`
   * record, the queue sample) beyond `deliver` and the queues' locks
   * and hand-offs; paid once per request by the delivering thread. 0
   * in the reference table (the model's first versions).
   */
  route?: number;
  /**
   * One step of a scheduler's own search, outside any request: a graph
   * node compared with a new request (CBASE's insert), a queue entry
   * walked (Libasync-smp's steal).
   */
  scan_step?: number;
  /** One busy-wait iteration (`spin_loop`). */
  spin: number;
  /**
   * Not 0: a thread in the spin phase of a wait loop (`spin_loop`, a
   * `Backoff`'s first iterations) keeps its core while another thread
   * waits for one, until it yields to the OS (`yield_now`, the
   * `Backoff`'s next phase) or its `time_slice` is over, as a real
   * spinner keeps its CPU (the OS does not know it spins). 0 in the
   * reference table: a spinner gives its core up at once (the model's
   * first versions). A switch, not a cost.
   */
  spin_keeps_core?: number;
  /**
   * How long a thread keeps a core while another runnable thread waits
   * for one, before the modelled OS preempts it.
   */
  time_slice?: number;
  /**
   * The waker's own part of a wake-up (the notify call: a futex wake
   * system call and the interrupt it sends), paid by the waking thread
   * when it wakes someone. 0 in the reference table (the woken thread
   * pays the whole `wake_up`, the model's first version).
   */
  wake_notify?: number;
  /**
   * Wake-up preemption on time-shared cores (more threads than modelled
   * cores): when a thread is woken (a notify, an unlock) while every
   * core is held, it runs on its waker's core this long after the
   * waker's part of the wake (the switch on a busy core, instead of
   * `wake_up`'s wake of an idle one), and the waker, preempted, waits
   * for a core; a lock the waker holds stays held meanwhile. 0 in the
   * reference table: no preemption (the woken thread waits for a core
   * to be given up, the model's first versions).
   */
  wake_preempt?: number;
  /**
   * From a notify (or unlock) to the woken thread running again: the
   * woken thread's clock becomes at least the waker's plus this.
   */
  wake_up: number;
  /** One unit of application work (a list node walked, a key touched). */
  work_unit: number;
  /**
   * The same in picoseconds, for a machine where a unit costs less than
   * a nanosecond or a fraction of one matters (a list node walked costs
   * about 0.83 ns since the list's links are addresses); when not 0 it
   * replaces `work_unit` ([`CostTable::work_ns`]). 0 in the reference
   * table, whose traces therefore do not move.
   */
  work_unit_ps?: number;
  /** One yield to the OS scheduler. */
  yield_now: number;
}

/** How requests reach the replica: the clients' model. */
export type Delivery =
  /**
   * Open loop at saturation: each request is delivered as soon as the
   * scheduler can take it (bounded queues push back).
   */
  | {
    model: 'saturate';
  }
  /** Open loop at a fixed rate (delivery units per second). */
  | {
    model: 'rate';
    /** Deliveries per second. */
    per_s: number;
  }
  /**
   * Closed loop, as the papers' clients: each of `clients` clients sends
   * a request and waits for its reply before sending the next. Delivery
   * `d + 1` waits until everything that could run after the first
   * `d + 1 - clients` deliveries has executed.
   */
  | {
    /** Number of clients (default: 4 per worker thread). */
    clients?: number | null;
    model: 'closed';
  };

/**
 * One problem with a scenario, located in its source text.
 *
 * Invariant: `line >= 1` and `col >= 1` (both 1-based), also for problems
 * that have no better place than the start of the file.
 */
export interface Diagnostic {
  col: number;
  file: string;
  line: number;
  /** What is wrong, and what was expected. */
  message: string;
  /**
   * Field path in the scenario, e.g. `schedulers[1].id` or
   * `workload.writes`; empty for the whole document.
   */
  path: string;
}

/**
 * Parameters of early scheduling: the `early` object of `early` and
 * `busy-wait` (`spin` applies to `busy-wait` only) and the `stealing`
 * object of work stealing (`ws-*`).
 */
export interface EarlyParams {
  /** How classes map to threads (default: the optimizer). */
  mapping?: MappingSpec | null;
  /**
   * Capacity of each worker's queue (requests; work stealing: its ready
   * queue); the scheduler blocks when a queue is full. Default 1024.
   */
  queue_capacity?: number | null;
  /**
   * The bounded spin policy of busy-wait cycles (`busy-wait`) or of
   * cycles, flags and markers (`ws-*`).
   */
  spin?: SpinPolicy | null;
}

/**
 * Parameters of PePaxos (`pepaxos`): the scenario entry's `epaxos`
 * object. (`epaxos` itself takes none.)
 */
export interface EpaxosParams {
  /**
   * The bounded spin policy of a worker waiting for an instance of
   * another SCC to be executed (paper 004 Algorithm 3 line 30 busy-waits).
   */
  spin?: SpinPolicy | null;
}

/** The outcome of one expectation. */
export interface ExpectationResult {
  /** The measured values, in words. */
  message: string;
  /**
   * What was expected, e.g. `correct(early)` or
   * `ratio(busy-wait / early) >= 1.5`.
   */
  name: string;
  /** It was judged and it held. */
  passed: boolean;
  /**
   * Set when it was not judged (too few cores, scheduler did not run);
   * then `passed` is false but it is not a failure.
   */
  skipped_reason?: string;
}

/** The families of schedulers, one per paper (and the baseline). */
export type Family = 'sequential' | 'early' | 'work-stealing' | 'late' | 'epaxos' | 'repartitioning' | 'coloring';

/**
 * Parameters of late scheduling (`late`): the scenario entry's `late`
 * object.
 */
export interface LateParams {
  /**
   * Most requests in the dependency graph (1..=65536); the scheduler
   * blocks while it is full. Default: 50 when every request of the
   * stream writes, 150 otherwise (paper 003 section 6.1).
   */
  graph_bound?: number | null;
}

/**
 * Latency percentiles in microseconds, from a request's delivery to its
 * completion: the end of its execution, or for an event stream the end of
 * the last event of the delivered root's tree (the reply to its client).
 */
export interface LatencyUs {
  max: number;
  mean: number;
  p50: number;
  p90: number;
  p99: number;
}

/** A thread's live numbers, as sampled. */
export interface LiveSample {
  executed: number;
  queue_len: number;
  state: LiveState;
}

/** What a thread is doing, as the live view samples it. */
export type LiveState = 'idle' | 'executing' | 'waiting' | 'stealing';

/** How a scenario chooses the mapping of an early-family scheduler. */
export type MappingSpec =
  /** Ask the optimizer (paper 003 section 5.1). */
  | {
    kind: 'optimized';
    /**
     * Give up proving optimality after this many seconds and return the
     * best mapping found, with its gap.
     */
    time_limit_s?: number;
  }
  /** The naive mapping of paper 003 section 6.5. */
  | {
    kind: 'naive';
  }
  /** A mapping written out by hand, by class name. */
  | {
    /** Class name (`R1`, `W1`, ..., `Rg`, `Wg`) to its mapping. */
    classes: Record<string, ClassMapping>;
    kind: 'explicit';
  };

/** How the threads of a class treat its requests. */
export type Mode = 'sequential' | 'concurrent';

/** What a poller sees of a scenario run in progress. */
export interface MonitorSnapshot {
  delivered: number;
  /** Time since the scenario run started. */
  elapsed_ms: number;
  /** Requests executed and delivered so far by the current run. */
  executed: number;
  /** Delivery is held back (see [`RunMonitor::pause`]). */
  paused?: boolean;
  /** 0-based index of the current run among `runs_total`. */
  run_index: number;
  runs_total: number;
  /** Label of the scheduler running now (empty before the first). */
  scheduler: string;
  /**
   * Each worker thread of the current run: executed count, sampled queue
   * length and what it is doing.
   */
  workers?: LiveSample[];
}

/**
 * Parameters of the repartitioning family (`repart-rr`, `repart-sw`,
 * `repart-base`, `repart-async`; paper 001): the scenario entry's `repart`
 * object. `delta_p` applies to `repart-base`, `window` to `repart-async`,
 * `queue_bound` to all four.
 */
export interface RepartParams {
  /**
   * `repart-base`: repartition every `delta_p` scheduled requests (the
   * paper's Δp). Default 10,000.
   */
  delta_p?: number | null;
  /**
   * Most requests in each worker queue (the paper's Q): the scheduler
   * waits for room. Default 1,048,576 (the paper's queues are unbounded).
   */
  queue_bound?: number | null;
  /**
   * `repart-async`: build the workload graph from the last `window`
   * requests only (the paper's sliding window W). Default: every request.
   */
  window?: number | null;
}

/** The result of running a scenario: the CLI's `--json` contract. */
export interface Report {
  /** The request classes (labels, shards, the conflict relation). */
  classes?: ClassInfo[];
  /**
   * Cores of the machine (natively `available_parallelism`; the browser
   * side sets `navigator.hardwareConcurrency`).
   */
  cores: number;
  /**
   * Real threads (absent, the default) or virtual cores: then every
   * number of the report is a model's, in virtual time.
   */
  mode?: RunMode;
  runs: RunReport[];
  scenario: string;
  /** The stream every run received. */
  stream?: StreamInfo;
}

/** An auxiliary thread of a run, as the views name its lane. */
export interface RoleLane {
  name: string;
  thread: number;
}

/** Everything measured about one run. */
export interface RunMetrics {
  /** Counters summed over threads, by name (e.g. `steals`). */
  counters: Record<string, number>;
  duration_ms: number;
  extra: Record<string, number>;
  latency_us: LatencyUs;
  queue_len_max: number;
  queue_len_mean: number;
  requests: number;
  /** Delivering thread's busy time per delivered request. */
  scheduler_ns_per_request: number;
  /** Worker threads only (the delivering thread is reported apart). */
  threads: ThreadTimes[];
  throughput_ops_s: number;
  throughput_series: ThroughputPoint[];
}

/**
 * How a report's runs ran. Serialized `"real"` or `{"virtual": {...}}`;
 * a real report omits it.
 */
export type RunMode = 'real' | {
  virtual: VirtualMode;
};

/** One scheduler's run. */
export interface RunReport {
  /** The run was cancelled: only the delivered prefix was checked. */
  cancelled: boolean;
  /** The oracle's verdict. */
  correct: boolean;
  /** The delivery model of the run (defaults resolved). */
  delivery?: Delivery;
  /**
   * The scheduler's family (`sequential`, `early`, `work-stealing`,
   * `late`, `epaxos`, `repartitioning`, `coloring`).
   */
  family?: Family;
  /**
   * The scheduler's configuration: its classes-to-threads mapping (early
   * family) and how it was obtained.
   */
  info?: SchedulerInfo;
  /** Label (the id unless the scenario gives one). */
  label: string;
  latency_us: LatencyUs;
  metrics: RunMetrics;
  /**
   * On virtual cores, the run's label (the report's `mode` label), so a
   * run taken out of its report still says its numbers are a model's;
   * absent for real threads.
   */
  mode_label?: string;
  /** Requests in the stream. */
  requests: number;
  /** Auxiliary threads and their trace lanes. */
  roles?: RoleLane[];
  /** Scheduler id. */
  scheduler: string;
  /**
   * Throughput over the sequential run's on the same stream (present
   * when the scenario ran `sequential`).
   */
  speedup_vs_sequential?: number;
  /** Digest of the final application state, hex. */
  state_digest: string;
  threads: number;
  throughput_ops_s: number;
  /** The trace hit its event bound and was cut (see `trace_window`). */
  trace_truncated?: boolean;
  /** Where the trace was cut, if it was. */
  trace_window?: TraceWindow;
  /** What the oracle found wrong, in words naming the offending pair. */
  violation?: string | null;
  /** The same, structured (request ids, classes, shard) for the views. */
  violation_detail?: Violation;
}

/** How many SCCs of each size (in instances) a stream has. */
export interface SccHistogram {
  /** Number of instances. */
  instances: number;
  /** Size of the largest SCC (0 for an empty stream). */
  largest: number;
  /** Number of SCCs. */
  sccs: number;
  /** `(size, count)`, increasing size. */
  sizes: [number, number][];
}

/** What a scheduler tells the views about its configuration. */
export interface SchedulerInfo {
  /** The classes-to-threads mapping (early family), empty otherwise. */
  mapping: ClassAssignment[];
  /** How the mapping was obtained (e.g. "optimizer, optimal, 3 ms"). */
  mapping_how: string;
}

/**
 * Bounded spinning, for threads that wait on each other (busy-wait cycles,
 * stealing flags and markers) on machines with fewer cores than threads:
 * spin `spins` times, then yield `yields` times, then sleep `park_us`
 * microseconds between checks.
 */
export interface SpinPolicy {
  /** Sleep between checks once parked, in microseconds. */
  park_us?: number;
  /** Busy iterations before the first yield. */
  spins?: number;
  /** Yields before parking. */
  yields?: number;
}

/** What the views need to know about the stream. */
export interface StreamInfo {
  /** The cell space (`shards`, `keys`, `colors`) and its dense cells. */
  cells: string;
  /** Delivery units: requests, instances or root events. */
  deliveries: number;
  dense_cells: number;
  /** `total`, `commits` or `events`. */
  kind: StreamKind;
  requests: number;
  /**
   * Commit streams: how many SCCs of each size the instances' dependency
   * graph has (paper 004's collisions).
   */
  scc?: SccHistogram;
}

/** What kind of order a stream carries. */
export type StreamKind = 'total' | 'commits' | 'events';

/** Time accounting of one thread, in the report's units. */
export interface ThreadTimes {
  exec_ms: number;
  executed: number;
  idle_ms: number;
  thread: number;
  wait_ms: number;
}

/** One point of throughput over time. */
export interface ThroughputPoint {
  ops_s: number;
  /** End of the bucket, milliseconds since the run started. */
  t_ms: number;
}

/**
 * Where a cut trace was cut. Kept events are, in seq order: `head_events`
 * complete ones (every event of the run up to the cut), `gap_events`
 * structural ones from the gap, then `tail_events` complete ones (every
 * event from `gap_to_ns` to the end).
 */
export interface TraceWindow {
  cut: boolean;
  /** Events recorded and then dropped. */
  dropped_events: number;
  gap_events: number;
  /** Run time of the last event before the gap and the first after it. */
  gap_from_ns: number;
  gap_to_ns: number;
  head_events: number;
  tail_events: number;
}

/** A 64-bit value: a number up to 2^53, a decimal string above (so it survives JSON.parse). */
export type U64 = number | string;

/** The first thing found wrong with a run. */
export type Violation =
  /** A request that could run never executed. */
  | {
    kind: 'missing';
    req: number;
  }
  /** A request executed more than once. */
  | {
    kind: 'duplicate';
    req: number;
    times: number;
  }
  /**
   * A request executed that could not run yet (not delivered, or an
   * instance whose dependencies were not all committed).
   */
  | {
    kind: 'unexpected';
    req: number;
  }
  /** A request was admitted (delivered or registered) `times` times. */
  | {
    kind: 'admission';
    req: number;
    times: number;
  }
  /** A request's response differs from sequential execution. */
  | {
    expected: U64;
    got: U64;
    kind: 'response';
    req: number;
  }
  /** The final state differs from sequential execution. */
  | {
    expected: U64;
    got: U64;
    kind: 'state';
  }
  /**
   * `second` conflicts with `first`, comes after it in the order the
   * run must respect, and started before `first` finished.
   */
  | {
    cell: CellName;
    first: number;
    first_class: string;
    kind: 'order';
    second: number;
    second_class: string;
  }
  /**
   * Two events of one color ran in the opposite of their registration
   * order: `second` was registered after `first` but ran before it.
   */
  | {
    cell: CellName;
    first: number;
    kind: 'color-order';
    second: number;
  };

/** A virtual run's cores, cost table and where the table came from. */
export interface VirtualMode {
  /**
   * The modelled machine's cores: the workers (as many, unless the
   * run set its threads), the auxiliary roles and the delivering thread
   * time-share them.
   */
  cores: number;
  cost_table: CostTable;
  /**
   * What every row, chart and CSV line of the run says:
   * `virtual N cores (model, reference cost table)` or
   * `virtual N cores (model, calibrated on <where>, <when>)`.
   */
  label: string;
  source: CostSource;
}

/** Every scheduler family, in the engine's order. */
export const FAMILIES: readonly Family[] = ['sequential', 'early', 'work-stealing', 'late', 'epaxos', 'repartitioning', 'coloring'];
