//! The trace: one event vocabulary, defined once here, that every scheduler
//! emits and every view consumes.
//!
//! The [`vocabulary!`] table below is the single definition of every event
//! kind: its code, its fields, where each field sits in the packed 24-byte
//! form (`x` = the 8-bit extra, `a`, `b`, `c` = 32-bit words), what the
//! field means (`req`, `thread`, `class`, `count`, `small`, `flag`,
//! `reason`) and whether the event is *structural* (kept even when a long
//! trace is cut). The enum, the packing ([`EventKind::words`],
//! [`EventKind::from_words`]) and the JSON table ([`vocabulary_json`],
//! printed by `psmr schema --trace`) all come from it; the web app's
//! decoder and reducer are checked against that JSON
//! (`web/src/trace/vocabulary.json`).
//!
//! Each thread records into its own [`Recorder`] (no sharing on the hot
//! path); events carry a global sequence number taken from one atomic
//! counter, so merging the per-thread buffers and sorting by `seq` gives an
//! order consistent with happens-before (see [`SeqClock`]). With tracing off
//! nothing is recorded and the counter is never touched; the execution log
//! the oracle needs is kept separately ([`crate::exec::ExecLog`]).
//!
//! ## Bounds and windows
//! A run keeps at most [`TraceConfig::max_events`] events: half for the
//! *head* (the first events, shared budget), a tenth for *structural*
//! events past the head, and the rest split between the lanes as rings that
//! keep each lane's latest events (the *tail*). When a ring wraps, the
//! trace is cut: [`TraceHub::finish`] keeps the complete prefix, the
//! structural events of the gap and the complete suffix, and says so in a
//! [`TraceWindow`].

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;

use crossbeam_utils::CachePadded;
use serde::{Deserialize, Serialize};

use crate::class::ClassId;
use crate::clock;
use crate::request::RequestId;

/// A thread of a run: worker `0..threads`, [`SCHEDULER`], or an auxiliary
/// role `AUX_BASE + k`.
pub type ThreadRef = u16;
/// The scheduler (delivering) thread.
pub const SCHEDULER: ThreadRef = u16::MAX;
/// First thread id of auxiliary roles (tracker, partitioner, graph
/// builder...): role `k` records as `AUX_BASE + k`.
pub const AUX_BASE: ThreadRef = 0xFF00;
/// Most auxiliary roles of one run.
pub const MAX_ROLES: usize = 16;
/// A request field that names no request (an idle wait, a root's parent).
pub const NO_REQUEST: RequestId = RequestId::MAX;

/// Why a thread waits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WaitReason {
    /// Its queue is empty (idle).
    EmptyQueue,
    /// A full queue blocks the scheduler (back-pressure).
    FullQueue,
    /// A per-class barrier (early scheduling, 003 Algorithm 2).
    Barrier,
    /// A busy-wait cycle mark (000 Algorithms 3-4).
    Cycle,
    /// A stealer's marker must clear before a sequential request (000 Alg. 7).
    Marker,
    /// A dependency in a graph (late scheduling, ePaxos).
    Dependency,
    /// A strongly connected component (PePaxos).
    Scc,
    /// A partition-map switch (repartitioning).
    MapSwitch,
    /// A full dependency graph blocks the scheduler (late scheduling).
    FullGraph,
    /// A lock held by another thread (the late scheduler's graph lock).
    Lock,
    /// No credit left: as many SCCs as workers are in flight (PePaxos's
    /// counting semaphore, paper 004 Algorithm 3 line 36).
    Semaphore,
}

impl WaitReason {
    /// Every reason with its code (the packed `x` of wait events).
    pub const ALL: [WaitReason; 11] = [
        WaitReason::EmptyQueue,
        WaitReason::FullQueue,
        WaitReason::Barrier,
        WaitReason::Cycle,
        WaitReason::Marker,
        WaitReason::Dependency,
        WaitReason::Scc,
        WaitReason::MapSwitch,
        WaitReason::FullGraph,
        WaitReason::Lock,
        WaitReason::Semaphore,
    ];
    pub fn code(self) -> u32 {
        WaitReason::ALL.iter().position(|r| *r == self).unwrap_or(0) as u32
    }
    pub fn name(self) -> String {
        serde_json::to_value(self)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default()
    }
}

/// A field type that packs into one 32-bit word.
pub trait Word: Copy {
    fn word(self) -> u32;
    fn from_word(w: u32) -> Option<Self>;
}
impl Word for u32 {
    fn word(self) -> u32 {
        self
    }
    fn from_word(w: u32) -> Option<Self> {
        Some(w)
    }
}
impl Word for u16 {
    fn word(self) -> u32 {
        self as u32
    }
    fn from_word(w: u32) -> Option<Self> {
        u16::try_from(w).ok()
    }
}
impl Word for u8 {
    fn word(self) -> u32 {
        self as u32
    }
    fn from_word(w: u32) -> Option<Self> {
        u8::try_from(w).ok()
    }
}
impl Word for bool {
    fn word(self) -> u32 {
        self as u32
    }
    fn from_word(w: u32) -> Option<Self> {
        (w <= 1).then_some(w == 1)
    }
}
impl Word for WaitReason {
    fn word(self) -> u32 {
        self.code()
    }
    fn from_word(w: u32) -> Option<Self> {
        WaitReason::ALL.get(w as usize).copied()
    }
}

/// One field of an event kind, for the JSON table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FieldInfo {
    pub name: &'static str,
    /// `x` (8-bit extra), `a`, `b` or `c`.
    pub slot: &'static str,
    /// `req`, `thread`, `class`, `count`, `small`, `flag` or `reason`.
    #[serde(rename = "type")]
    pub ty: &'static str,
    pub doc: String,
}

/// One event kind, for the JSON table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct KindInfo {
    pub code: u8,
    pub name: String,
    pub doc: String,
    pub structural: bool,
    pub fields: Vec<FieldInfo>,
}

macro_rules! field_ty {
    (req) => {
        RequestId
    };
    (thread) => {
        ThreadRef
    };
    (class) => {
        ClassId
    };
    (count) => {
        u32
    };
    (small) => {
        u8
    };
    (flag) => {
        bool
    };
    (reason) => {
        WaitReason
    };
}

macro_rules! slot_index {
    (x) => {
        0
    };
    (a) => {
        1
    };
    (b) => {
        2
    };
    (c) => {
        3
    };
}

macro_rules! is_structural {
    () => {
        false
    };
    (structural) => {
        true
    };
}

/// Joins doc-comment lines into one paragraph.
fn doc(lines: &[&str]) -> String {
    lines
        .iter()
        .map(|l| l.trim())
        .collect::<Vec<_>>()
        .join(" ")
        .trim()
        .to_string()
}

/// `CamelCase` to `kebab-case` (serde's `rename_all` rule).
fn kebab(name: &str) -> String {
    let mut out = String::new();
    for (i, ch) in name.chars().enumerate() {
        if ch.is_ascii_uppercase() {
            if i > 0 {
                out.push('-');
            }
            out.push(ch.to_ascii_lowercase());
        } else {
            out.push(ch);
        }
    }
    out
}

macro_rules! vocabulary {
    ($(
        $(#[doc = $doc:literal])*
        $code:literal $name:ident $([$flag:ident])? {
            $( $(#[doc = $fdoc:literal])* $field:ident : $fty:ident @ $slot:ident ),* $(,)?
        }
    )*) => {
        /// What happened. `thread` on the enclosing [`TraceEvent`] says who did it.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
        #[serde(tag = "k", rename_all = "kebab-case")]
        pub enum EventKind {
            $( $(#[doc = $doc])* $name { $( $(#[doc = $fdoc])* $field: field_ty!($fty) ),* }, )*
        }

        impl EventKind {
            /// The kind's code in the packed form.
            pub fn code(&self) -> u8 {
                match self { $( EventKind::$name { .. } => $code, )* }
            }
            /// The fields packed as `[x, a, b, c]`.
            pub fn words(&self) -> [u32; 4] {
                match *self {
                    $( EventKind::$name { $($field),* } => {
                        #[allow(unused_mut)]
                        let mut w = [0u32; 4];
                        $( w[slot_index!($slot)] = Word::word($field); )*
                        w
                    } )*
                }
            }
            /// Unpack; `None` for an unknown code or an out-of-range field.
            pub fn from_words(code: u8, w: [u32; 4]) -> Option<EventKind> {
                let _ = w;
                Some(match code {
                    $( $code => EventKind::$name {
                        $( $field: <field_ty!($fty) as Word>::from_word(w[slot_index!($slot)])? ),*
                    }, )*
                    _ => return None,
                })
            }
            /// Kept even when a long trace is cut (map switches, SCCs, steals).
            pub fn is_structural(&self) -> bool {
                match self { $( EventKind::$name { .. } => is_structural!($($flag)?), )* }
            }
        }

        /// The vocabulary as data: every kind with its fields.
        pub fn kinds() -> Vec<KindInfo> {
            vec![ $( KindInfo {
                code: $code,
                name: kebab(stringify!($name)),
                doc: doc(&[$($doc),*]),
                structural: is_structural!($($flag)?),
                fields: vec![ $( FieldInfo {
                    name: stringify!($field),
                    slot: stringify!($slot),
                    ty: stringify!($fty),
                    doc: doc(&[$($fdoc),*]),
                } ),* ],
            }, )* ]
        }
    };
}

vocabulary! {
    /// The scheduler received request `req` from the ordering layer.
    0 Delivered { req: req @ a, class: class @ b }
    /// The scheduler put `req` into `to`'s queue.
    1 Enqueued { req: req @ a, to: thread @ b }
    /// The thread took `req` from its queue.
    2 Dequeued { req: req @ a }
    /// The thread began executing `req`.
    3 ExecStart { req: req @ a }
    /// The thread finished executing `req`.
    4 ExecEnd { req: req @ a }
    /// The thread started waiting, for `reason`, while handling `req`.
    5 WaitStart {
        reason: reason @ x,
        req: req @ a,
        /// What it waits for: a request (dependency, SCC waits), a thread
        /// (a stealer's marker), or no-request when the reason says it all.
        on: count @ b,
    }
    /// The thread stopped waiting; `spins` counts busy-wait iterations
    /// (recorded once, not one event per spin).
    6 WaitEnd { reason: reason @ x, req: req @ a, spins: count @ b }
    /// The thread arrived at class `class`'s barrier or cycle for `req`;
    /// `cycle` is the busy-wait cycle (0/1), 0 for barriers.
    7 SyncArrive { class: class @ a, req: req @ b, cycle: small @ x }
    /// The barrier or cycle of `req` released; `executor` ran the request.
    8 SyncRelease { class: class @ a, req: req @ b, executor: thread @ c, cycle: small @ x }
    /// The thread (the stealer) took `count` requests from `victim`'s ready
    /// queue, the first being `first`.
    9 Steal [structural] { victim: thread @ a, count: count @ b, first: req @ c }
    /// The stealer finished what it stole from `victim` and cleared its
    /// marker there.
    10 StealDone { victim: thread @ a }
    /// The thread's ready/exec flag changed (work stealing).
    11 Flag { ready: flag @ x }
    /// `req` entered a dependency graph with `deps` edges (each a DepEdge).
    12 GraphInsert { req: req @ a, deps: count @ b }
    /// `req` left the dependency graph.
    13 GraphRemove { req: req @ a }
    /// A group of requests (an SCC) was found: `size` members (each a
    /// GroupMember), `position` in the execution order of groups.
    14 GroupFound [structural] { group: count @ a, size: count @ b, position: count @ c }
    /// A new partition map took effect; `moved` keys changed partition.
    15 MapSwitch [structural] { epoch: count @ a, moved: count @ b }
    /// Sampled length of `of`'s queue.
    16 QueueLen { of: thread @ a, len: count @ b }
    /// Request `from` depends on request `to` (an edge of a dependency graph).
    17 DepEdge { from: req @ a, to: req @ b }
    /// Request `req` belongs to group `group`.
    18 GroupMember [structural] { group: count @ a, req: req @ b }
    /// Event `child`, of color `color`, was registered by `parent`
    /// (no-request: a delivered root) into core `core`'s queue (0 for
    /// runtimes with one queue).
    19 Registered { child: req @ b, parent: req @ a, color: count @ c, core: small @ x }
    /// The thread stole the whole color `color` (`count` events) from `victim`.
    20 ColorSteal [structural] { victim: thread @ a, color: count @ b, count: count @ c }
    /// A partition of the workload graph was computed: its edge cut and the
    /// time it took, in microseconds.
    21 Partitioned [structural] { epoch: count @ a, cut: count @ b, time_us: count @ c }
    /// Instance `instance` committed with sequence number `seq` (saturated to
    /// 32 bits) and `deps` dependencies (each a DepEdge between commands).
    22 Commit { instance: count @ a, seq: count @ b, deps: count @ c }
    /// Request `req` has no pending dependency left: a worker may take it
    /// (late scheduling).
    23 Ready { req: req @ a }
    /// The dependency graph now holds `size` requests, at most `bound`
    /// (late scheduling; recorded at every insert and removal).
    24 GraphSize { size: count @ a, bound: count @ b }
    /// The thread starts executing group `group` (an SCC, see GroupFound)
    /// of `size` instances.
    25 SccStart [structural] { group: count @ a, size: count @ b }
    /// The thread finished every instance of group `group`.
    26 SccEnd [structural] { group: count @ a }
    /// The dependency graph of committed instance `instance` reaches
    /// instance `on`, which is not committed yet: `instance` waits for that
    /// commit, and the thread goes on with later commits (ePaxos).
    27 CommitWait { instance: count @ a, on: count @ b }
    /// Repartitioning: the scheduler put a sync for `req` into the queues of
    /// the workers in `lanes` (bit i = worker i, workers 0-31), because `req`
    /// touches keys of several partitions; `executor` runs it.
    32 SyncQueued { req: req @ a, lanes: count @ b, executor: thread @ c }
    /// Repartitioning: the worker reached the sync of `req` (no-request: the
    /// sync after a map switch) that `parties` workers hold.
    33 PartSyncArrive { req: req @ a, parties: count @ b }
    /// Repartitioning: every party reached the sync of `req` (no-request: a
    /// map switch's) and it was executed by `executor`; the parties go on.
    34 PartSyncRelease { req: req @ a, executor: thread @ b }
    /// Repartitioning: the partitioner started on a workload graph of
    /// `vertices` keys and `edges` edges, for map `epoch`.
    35 PartitionStart [structural] { epoch: count @ a, vertices: count @ b, edges: count @ c }
    /// Repartitioning: the balance of map `epoch`: its heaviest part over the
    /// average, in permille, over `keys` keys of the workload graph.
    36 MapBalance [structural] { epoch: count @ a, imbalance_permille: count @ b, keys: count @ c }
    /// Repartitioning (Base): the scheduler stopped delivering to repartition.
    37 SchedulerPause [structural] { epoch: count @ a }
    /// Repartitioning (Base): the scheduler resumed after `pause_us`.
    38 SchedulerResume [structural] { epoch: count @ a, pause_us: count @ b }
    /// Repartitioning: key number `key` (its low 32 bits) moved from partition
    /// `from` to `to` at map switch `epoch`'s (at most 4096 per switch).
    39 KeyMoved { key: count @ a, from: count @ b, to: count @ c }
    /// Color `color`, free (no event pending or running anywhere), was
    /// given core `core` by the registering thread: `how` 0 hashed (color
    /// mod cores), 1 the registering core, 2 a fixed core (paper 002).
    41 ColorHome [structural] { color: count @ a, core: thread @ b, how: small @ x }
    /// A color-queue changed on core `core` (Mely, paper 002 IV-A): `op` 0
    /// joined the core-queue, 1 left it (empty), 2 went to its tail after a
    /// batch; `len` events it holds now.
    42 ColorQueue { color: count @ a, core: thread @ b, len: count @ c, op: small @ x }
    /// The thread looked at `victim`'s queue (`queued` events) for a color
    /// to steal.
    43 StealTry { victim: thread @ a, queued: count @ b }
    /// A steal from the victim of the thread's last steal-try was refused
    /// by `heuristic`: 0 fewer than two colors queued, 1 no color under half
    /// the queue, 2 time left not above the steal cost, 3 no stealable
    /// color; `color` the best candidate, its time left and the steal cost
    /// compared, in ns (saturated).
    44 StealRefused [structural] { heuristic: small @ x, color: count @ a, left_ns: count @ b, cost_ns: count @ c }
    /// The color steal just made took `steal_ns` and moved events of
    /// `left_ns` annotated processing time (ns, saturated).
    45 StealCost [structural] { victim: thread @ a, steal_ns: count @ b, left_ns: count @ c }
    /// Mely's stealing queue on core `core` changed (paper 002 IV-B): color
    /// `color` entered interval `interval` (0: time left under one steal
    /// cost unit, 1: under eight, 2: above) at its tail with `left_ns` of
    /// (penalized) time left, or left the stealing queue (`interval` 3).
    /// A stealer looks at the head of the highest non-empty interval.
    46 StealQueue { color: count @ a, core: thread @ b, left_ns: count @ c, interval: small @ x }
}

/// The small fields whose values name a choice rather than count something:
/// `(kind, field, names)`, the value being the name's index. The recorders
/// write these codes (coloring runtimes: `runtime.rs`, `mely.rs`; a test
/// there checks them); the web reads them by name from the JSON table.
pub const SMALL_CODES: &[(&str, &str, &[&str])] = &[
    // Paper 002: how a free color got its core.
    (
        "color-home",
        "how",
        &["hashed", "registering-core", "fixed-core"],
    ),
    // Mely's color-queues (IV-A).
    ("color-queue", "op", &["joined", "left", "to-tail"]),
    // `coloring::runtime::Refusal`, in its order.
    (
        "steal-refused",
        "heuristic",
        &["two-colors", "half", "time-left", "nothing"],
    ),
    // Mely's stealing queue (IV-B): three intervals of time left, then leaving it.
    (
        "steal-queue",
        "interval",
        &["under-one-unit", "under-eight-units", "above", "left"],
    ),
];

/// `a == b`, at compile time.
const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The code of `name` among the codes of `kind`'s small field `field`
/// ([`SMALL_CODES`]). Meant for constants: a name not in the table stops
/// the build.
pub const fn small_code(kind: &str, field: &str, name: &str) -> u8 {
    let mut e = 0;
    while e < SMALL_CODES.len() {
        let (k, f, names) = SMALL_CODES[e];
        if same(k, kind) && same(f, field) {
            let mut i = 0;
            while i < names.len() {
                if same(names[i], name) {
                    return i as u8;
                }
                i += 1;
            }
        }
        e += 1;
    }
    panic!("no such small code in SMALL_CODES")
}

/// The vocabulary, wait reasons and thread-id conventions as JSON (what
/// `psmr schema --trace` prints and `web/src/trace/vocabulary.json` holds).
pub fn vocabulary_json() -> String {
    let reasons: Vec<serde_json::Value> = WaitReason::ALL
        .iter()
        .map(|r| serde_json::json!({"code": r.code(), "name": r.name()}))
        .collect();
    let v = serde_json::json!({
        "words_per_event": crate::codec::WORDS,
        "layout": "w0,w1 = t_ns low/high; w2 = thread (bits 0-15) | kind code (16-23) | x (24-31); w3..w5 = a, b, c",
        "threads": {"scheduler": SCHEDULER, "aux_base": AUX_BASE, "max_roles": MAX_ROLES},
        "no_request": NO_REQUEST,
        "kinds": kinds(),
        "reasons": reasons,
        "small_codes": SMALL_CODES
            .iter()
            .map(|(kind, field, names)| serde_json::json!({"kind": kind, "field": field, "names": names}))
            .collect::<Vec<_>>(),
    });
    let mut s = serde_json::to_string_pretty(&v).unwrap_or_default();
    s.push('\n');
    s
}

/// One recorded event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraceEvent {
    /// Global order: unique per run, consistent with happens-before.
    pub seq: u64,
    /// Nanoseconds since the run started.
    pub t_ns: u64,
    pub thread: ThreadRef,
    #[serde(flatten)]
    pub kind: EventKind,
}

/// The global sequence counter of a run (touched only when tracing).
///
/// `Relaxed` is enough: all increments hit one atomic, whose modification
/// order is consistent with happens-before (read-read/write-write
/// coherence), so an event that happens before another gets a smaller seq.
#[derive(Debug, Default)]
pub struct SeqClock(AtomicU64);

impl SeqClock {
    pub fn next(&self) -> u64 {
        self.0.fetch_add(1, Ordering::Relaxed)
    }
    pub fn peek(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }
}

/// Trace settings of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraceConfig {
    pub enabled: bool,
    /// Upper bound of kept events in the whole run.
    pub max_events: usize,
}

impl TraceConfig {
    pub const OFF: TraceConfig = TraceConfig {
        enabled: false,
        max_events: 0,
    };
    /// Default bound: 2 million events (48 MB packed).
    pub const DEFAULT_MAX_EVENTS: usize = 2_000_000;
    pub fn on() -> Self {
        TraceConfig {
            enabled: true,
            max_events: Self::DEFAULT_MAX_EVENTS,
        }
    }
}

/// Where a cut trace was cut. Kept events are, in seq order: `head_events`
/// complete ones (every event of the run up to the cut), `gap_events`
/// structural ones from the gap, then `tail_events` complete ones (every
/// event from `gap_to_ns` to the end).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
pub struct TraceWindow {
    pub cut: bool,
    pub head_events: u64,
    pub gap_events: u64,
    pub tail_events: u64,
    /// Events recorded and then dropped.
    pub dropped_events: u64,
    /// Run time of the last event before the gap and the first after it.
    pub gap_from_ns: u64,
    pub gap_to_ns: u64,
}

/// Counters a thread may bump; reported by name in the run output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(usize)]
pub enum Counter {
    /// Times a thread waited at a barrier.
    BarrierWaits,
    /// Times a thread waited in a busy-wait cycle.
    CycleWaits,
    /// Busy-wait iterations.
    Spins,
    /// Times a spinning thread yielded the CPU.
    Yields,
    /// Times a spinning thread parked.
    Parks,
    /// Successful steals.
    Steals,
    /// Requests moved by steals.
    StolenRequests,
    /// Requests executed that were stolen.
    StolenExecuted,
    /// Times a victim waited on a stealer's marker.
    MarkerWaits,
    /// Steal attempts that found nothing to take.
    FailedSteals,
    /// Times a dependency wait occurred.
    DependencyWaits,
    /// Times the late scheduler found its dependency graph full and waited
    /// for a removal (paper 003's bounded graph).
    FullGraphWaits,
}

impl Counter {
    pub const ALL: [Counter; 12] = [
        Counter::BarrierWaits,
        Counter::CycleWaits,
        Counter::Spins,
        Counter::Yields,
        Counter::Parks,
        Counter::Steals,
        Counter::StolenRequests,
        Counter::StolenExecuted,
        Counter::MarkerWaits,
        Counter::FailedSteals,
        Counter::DependencyWaits,
        Counter::FullGraphWaits,
    ];
    pub fn name(self) -> &'static str {
        match self {
            Counter::BarrierWaits => "barrier_waits",
            Counter::CycleWaits => "cycle_waits",
            Counter::Spins => "spins",
            Counter::Yields => "yields",
            Counter::Parks => "parks",
            Counter::Steals => "steals",
            Counter::StolenRequests => "stolen_requests",
            Counter::StolenExecuted => "stolen_executed",
            Counter::MarkerWaits => "marker_waits",
            Counter::FailedSteals => "failed_steals",
            Counter::DependencyWaits => "dependency_waits",
            Counter::FullGraphWaits => "full_graph_waits",
        }
    }
}

/// Time accounting and counters of one thread.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ThreadStats {
    pub thread: ThreadRef,
    /// Requests this thread executed.
    pub executed: u64,
    /// Time executing requests.
    pub exec_ns: u64,
    /// Time waiting for other threads (barriers, cycles, markers, deps).
    pub wait_ns: u64,
    /// Time with nothing to do (empty queue).
    pub idle_ns: u64,
    #[serde(skip)]
    pub counters: [u64; Counter::ALL.len()],
}

/// What one recorder hands back when it is dropped.
#[derive(Debug, Default)]
struct Finished {
    head: Vec<TraceEvent>,
    /// Seq of the first event that did not go to the head (`u64::MAX`: all did).
    head_until: u64,
    ring: Vec<TraceEvent>,
    wrapped: bool,
    structural: Vec<TraceEvent>,
    recorded: u64,
    stats: ThreadStats,
}

/// Shared state of a run's trace: the seq clock, the run's time origin, the
/// budgets and the buffers of threads that finished. The seq clock sits on
/// its own cache line, away from the origin every timestamp reads.
#[derive(Debug)]
pub struct TraceHub {
    seq: CachePadded<SeqClock>,
    pub origin_ns: u64,
    config: TraceConfig,
    /// Head events still allowed; taken in chunks by recorders.
    head_budget: CachePadded<AtomicUsize>,
    /// Structural events still allowed past the head.
    structural_budget: AtomicUsize,
    /// Ring capacity of one lane's tail.
    tail_per_lane: usize,
    any_tail: AtomicBool,
    done: Mutex<Vec<Finished>>,
}

/// Recorders reserve head budget in chunks of this many events, so the
/// shared budget is touched once per chunk, not once per event.
const BUDGET_CHUNK: usize = 1024;

impl TraceHub {
    /// A hub for a run with `lanes` recording threads.
    pub fn new(config: TraceConfig, lanes: usize) -> Self {
        let total = if config.enabled { config.max_events } else { 0 };
        let head = total / 2;
        let structural = total / 10;
        let tails = total - head - structural;
        TraceHub {
            seq: CachePadded::new(SeqClock::default()),
            origin_ns: clock::now_ns(),
            config,
            head_budget: CachePadded::new(AtomicUsize::new(head)),
            structural_budget: AtomicUsize::new(structural),
            tail_per_lane: tails / lanes.max(1),
            any_tail: AtomicBool::new(false),
            done: Mutex::new(Vec::new()),
        }
    }
    pub fn config(&self) -> TraceConfig {
        self.config
    }
    /// Nanoseconds since the run's origin.
    pub fn now(&self) -> u64 {
        clock::now_ns().saturating_sub(self.origin_ns)
    }
    pub fn seq(&self) -> &SeqClock {
        &self.seq
    }
    pub fn recorder(&self, thread: ThreadRef) -> Recorder<'_> {
        Recorder {
            hub: self,
            thread,
            enabled: self.config.enabled,
            reserved: 0,
            out: Finished {
                head_until: u64::MAX,
                stats: ThreadStats {
                    thread,
                    ..Default::default()
                },
                ..Default::default()
            },
            tail_mode: false,
            ring_at: 0,
            stamp: std::cell::Cell::new(StampShare::new(ADMISSION_STAMP_SHARE)),
        }
    }
    fn reserve(&self) -> usize {
        // Relaxed: the budget only bounds memory; which lane gets the last
        // chunk does not matter.
        let mut cur = self.head_budget.load(Ordering::Relaxed);
        loop {
            if cur == 0 {
                return 0;
            }
            let take = cur.min(BUDGET_CHUNK);
            match self.head_budget.compare_exchange_weak(
                cur,
                cur - take,
                Ordering::Relaxed,
                Ordering::Relaxed,
            ) {
                Ok(_) => return take,
                Err(now) => cur = now,
            }
        }
    }
    fn take_structural(&self) -> bool {
        self.structural_budget
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_sub(1))
            .is_ok()
    }

    /// Merge every finished recorder's events in seq order, cutting where a
    /// lane's ring lost events (see the module comment). Call after all
    /// recorders were dropped (the scope join orders their pushes before it).
    pub fn finish(&self) -> (Vec<TraceEvent>, Vec<ThreadStats>, TraceWindow) {
        let done = std::mem::take(&mut *self.done.lock().unwrap_or_else(|p| p.into_inner()));
        let head_cut = done.iter().map(|d| d.head_until).min().unwrap_or(u64::MAX);
        let tail_from = done
            .iter()
            .filter(|d| d.wrapped)
            .filter_map(|d| d.ring.iter().map(|e| e.seq).min())
            .max()
            .unwrap_or(head_cut)
            .max(head_cut);
        let recorded: u64 = done.iter().map(|d| d.recorded).sum();
        let mut head = Vec::new();
        let mut gap = Vec::new();
        let mut tail = Vec::new();
        let mut stats = Vec::with_capacity(done.len());
        for d in done {
            for e in d.head.into_iter().chain(d.ring) {
                if e.seq < head_cut {
                    head.push(e);
                } else if e.seq >= tail_from {
                    tail.push(e);
                } else if e.kind.is_structural() {
                    gap.push(e);
                }
            }
            gap.extend(
                d.structural
                    .into_iter()
                    .filter(|e| e.seq >= head_cut && e.seq < tail_from),
            );
            stats.push(d.stats);
        }
        for v in [&mut head, &mut gap, &mut tail] {
            v.sort_unstable_by_key(|e| e.seq);
        }
        // A structural event can be both in a ring and in the structural list.
        gap.dedup_by_key(|e| e.seq);
        stats.sort_by_key(|s| s.thread);
        let cut = tail_from > head_cut;
        let kept = (head.len() + gap.len() + tail.len()) as u64;
        let window = TraceWindow {
            cut,
            head_events: head.len() as u64,
            gap_events: gap.len() as u64,
            tail_events: tail.len() as u64,
            dropped_events: recorded.saturating_sub(kept),
            gap_from_ns: if cut {
                head.last().map_or(0, |e| e.t_ns)
            } else {
                0
            },
            gap_to_ns: if cut {
                tail.first().map_or(0, |e| e.t_ns)
            } else {
                0
            },
        };
        let mut events = head;
        events.append(&mut gap);
        events.append(&mut tail);
        (events, stats, window)
    }
}

/// One thread's recorder. Dropping it hands its buffers and stats to the hub.
pub struct Recorder<'h> {
    hub: &'h TraceHub,
    pub thread: ThreadRef,
    enabled: bool,
    reserved: usize,
    out: Finished,
    tail_mode: bool,
    ring_at: usize,
    /// In a `Cell` so that `now` keeps taking `&self`; a recorder belongs
    /// to one thread.
    stamp: std::cell::Cell<StampShare>,
}

/// How many admissions in a row may share one clock reading when a run is
/// not traced: 16 in the browser, 1 (every admission reads the clock)
/// natively. See [`Recorder::admission_now`].
#[cfg(target_arch = "wasm32")]
pub const ADMISSION_STAMP_SHARE: u32 = 16;
#[cfg(not(target_arch = "wasm32"))]
pub const ADMISSION_STAMP_SHARE: u32 = 1;

/// The last clock reading of one thread and how many admissions have
/// reused it. Invariant: `uses < share` means `last_ns` is a reading this
/// thread took, after which it has not waited (every wait reads the clock
/// through [`Recorder::now`], which resets `uses`).
#[derive(Clone, Copy, Debug)]
struct StampShare {
    last_ns: u64,
    uses: u32,
    share: u32,
}

impl StampShare {
    fn new(share: u32) -> Self {
        // `uses == share`: no reading yet, the first admission reads.
        StampShare {
            last_ns: 0,
            uses: share,
            share,
        }
    }
    /// A fresh reading `t`: later admissions may reuse it.
    fn fresh(&mut self, t: u64) -> u64 {
        self.last_ns = t;
        self.uses = 0;
        t
    }
    /// The admission stamp: the last reading while fewer than `share - 1`
    /// admissions have reused it, else a fresh one from `read`.
    fn admit(&mut self, read: impl FnOnce() -> u64) -> u64 {
        if self.uses.saturating_add(1) < self.share {
            self.uses += 1;
            self.last_ns
        } else {
            self.fresh(read())
        }
    }
}

impl Recorder<'_> {
    /// Is event recording on? Check before building costly events.
    #[inline]
    pub fn tracing(&self) -> bool {
        self.enabled
    }
    /// Record an event stamped now.
    #[inline]
    pub fn record(&mut self, kind: EventKind) {
        if !self.enabled {
            return;
        }
        let t_ns = self.hub.now();
        self.record_at(kind, t_ns);
    }
    /// Record an event with a timestamp the caller already took.
    #[inline]
    pub fn record_at(&mut self, kind: EventKind, t_ns: u64) {
        if !self.enabled {
            return;
        }
        let e = TraceEvent {
            seq: self.hub.seq.next(),
            t_ns,
            thread: self.thread,
            kind,
        };
        self.out.recorded += 1;
        if !self.tail_mode {
            if self.reserved == 0 {
                self.reserved = self.hub.reserve();
            }
            if self.reserved > 0 {
                self.reserved -= 1;
                self.out.head.push(e);
                return;
            }
            self.tail_mode = true;
            self.out.head_until = e.seq;
            self.hub.any_tail.store(true, Ordering::Relaxed);
        }
        self.push_tail(e);
    }

    fn push_tail(&mut self, e: TraceEvent) {
        if e.kind.is_structural() && self.hub.take_structural() {
            self.out.structural.push(e);
        }
        let cap = self.hub.tail_per_lane;
        if cap == 0 {
            self.out.wrapped = true;
            return;
        }
        if self.out.ring.len() < cap {
            self.out.ring.push(e);
        } else {
            self.out.ring[self.ring_at] = e;
            self.ring_at = (self.ring_at + 1) % cap;
            self.out.wrapped = true;
        }
    }

    /// Nanoseconds since the run's origin.
    #[inline]
    pub fn now(&self) -> u64 {
        let t = self.hub.now();
        // Only a shared stamp needs refreshing (compiled out natively).
        if ADMISSION_STAMP_SHARE > 1 {
            let mut st = self.stamp.get();
            st.fresh(t);
            self.stamp.set(st);
        }
        t
    }
    /// The admission time of a request this thread delivers now (latencies
    /// start here). In the browser one clock reading costs about 1 µs (a
    /// call out of wasm into `performance.now()`) and the clock steps in
    /// 5 µs, so in an untraced run up to [`ADMISSION_STAMP_SHARE`]
    /// admissions in a row reuse this thread's last reading: at about
    /// 150 ns per delivery, 16 of them span less than one step of the
    /// clock. Any other reading (the end of a blocked push, a paused or
    /// closed-loop wait) refreshes it, so a wait never leaks into a
    /// stamp. Traced runs read every time: trace timestamps stay monotonic
    /// per thread. Natively the share is 1 (a reading costs ~40 ns).
    #[inline]
    pub fn admission_now(&self) -> u64 {
        if self.enabled {
            return self.now();
        }
        let mut st = self.stamp.get();
        let t = st.admit(|| self.hub.now());
        self.stamp.set(st);
        t
    }
    #[inline]
    pub fn count(&mut self, c: Counter, n: u64) {
        self.out.stats.counters[c as usize] += n;
    }
    pub fn stats(&mut self) -> &mut ThreadStats {
        &mut self.out.stats
    }
    /// Account a wait that started at `start_ns` and record its end event.
    pub fn wait_done(&mut self, reason: WaitReason, req: RequestId, start_ns: u64, spins: u32) {
        let now = self.now();
        let dt = now.saturating_sub(start_ns);
        if reason == WaitReason::EmptyQueue {
            self.out.stats.idle_ns += dt;
        } else {
            self.out.stats.wait_ns += dt;
        }
        self.record_at(EventKind::WaitEnd { reason, req, spins }, now);
    }
    /// Start a wait on `on` (a request, a thread, or [`NO_REQUEST`]): record
    /// its event and return its start time.
    pub fn wait_begin(&mut self, reason: WaitReason, req: RequestId, on: u32) -> u64 {
        let now = self.now();
        self.record_at(EventKind::WaitStart { reason, req, on }, now);
        now
    }
}

impl Drop for Recorder<'_> {
    fn drop(&mut self) {
        let mut out = std::mem::take(&mut self.out);
        // Put the ring in seq order (oldest first) for the merge.
        let at = self.ring_at.min(out.ring.len());
        out.ring.rotate_left(at);
        self.hub
            .done
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(out);
    }
}

#[cfg(test)]
mod tests {
    use super::StampShare;

    #[test]
    fn a_share_of_one_reads_the_clock_at_every_admission() {
        let mut st = StampShare::new(1);
        let mut clock = 0u64;
        for _ in 0..5 {
            clock += 10;
            assert_eq!(st.admit(|| clock), clock);
        }
    }

    #[test]
    fn admissions_reuse_a_reading_share_times_then_read_again() {
        let mut st = StampShare::new(4);
        let mut reads = 0u64;
        let mut read = || {
            reads += 1;
            reads * 100
        };
        // The first admission reads; the next three reuse it; the fifth reads.
        let stamps: Vec<u64> = (0..9).map(|_| st.admit(&mut read)).collect();
        assert_eq!(stamps, [100, 100, 100, 100, 200, 200, 200, 200, 300]);
    }

    #[test]
    fn a_fresh_reading_restarts_the_share() {
        let mut st = StampShare::new(4);
        assert_eq!(st.admit(|| 7), 7);
        assert_eq!(st.admit(|| 99), 7);
        // A wait read the clock: the next admissions reuse that reading.
        st.fresh(50);
        assert_eq!(st.admit(|| 99), 50);
        assert_eq!(st.admit(|| 99), 50);
        assert_eq!(st.admit(|| 99), 50);
        assert_eq!(st.admit(|| 99), 99);
    }

    use super::*;

    #[test]
    fn a_long_run_keeps_a_complete_head_and_tail_and_says_where_it_cut() {
        let hub = TraceHub::new(
            TraceConfig {
                enabled: true,
                max_events: 100,
            },
            1,
        );
        {
            let mut r = hub.recorder(0);
            for i in 0..1000 {
                r.record(EventKind::Dequeued { req: i });
            }
            r.record(EventKind::MapSwitch { epoch: 1, moved: 3 });
        }
        let (events, stats, w) = hub.finish();
        assert!(w.cut);
        assert!(events.len() <= 100);
        assert_eq!(w.head_events, 50);
        let reqs: Vec<u32> = events
            .iter()
            .filter_map(|e| match e.kind {
                EventKind::Dequeued { req } => Some(req),
                _ => None,
            })
            .collect();
        assert_eq!(&reqs[..50], &(0..50).collect::<Vec<_>>()[..], "head");
        assert_eq!(*reqs.last().unwrap(), 999, "the end of the run is kept");
        assert!(matches!(
            events.last().unwrap().kind,
            EventKind::MapSwitch { .. }
        ));
        assert_eq!(w.dropped_events, 1001 - events.len() as u64);
        assert_eq!(stats.len(), 1);
    }

    #[test]
    fn structural_events_of_the_gap_survive() {
        let hub = TraceHub::new(
            TraceConfig {
                enabled: true,
                max_events: 100,
            },
            1,
        );
        {
            let mut r = hub.recorder(0);
            for i in 0..1000 {
                r.record(EventKind::Dequeued { req: i });
                if i == 500 {
                    r.record(EventKind::Steal {
                        victim: 1,
                        count: 4,
                        first: 7,
                    });
                }
            }
        }
        let (events, _, w) = hub.finish();
        assert_eq!(w.gap_events, 1);
        assert!(events
            .iter()
            .any(|e| matches!(e.kind, EventKind::Steal { .. })));
    }

    #[test]
    fn under_the_bound_nothing_is_cut() {
        let hub = TraceHub::new(TraceConfig::on(), 3);
        std::thread::scope(|s| {
            for t in 0..3u16 {
                let hub = &hub;
                s.spawn(move || {
                    let mut r = hub.recorder(t);
                    for i in 0..100 {
                        r.record(EventKind::Dequeued { req: i });
                    }
                });
            }
        });
        let (events, _, w) = hub.finish();
        assert!(!w.cut);
        assert_eq!(events.len(), 300);
        assert!(events.windows(2).all(|w| w[0].seq < w[1].seq));
    }

    #[test]
    fn disabled_trace_records_nothing_and_never_touches_the_clock() {
        let hub = TraceHub::new(TraceConfig::OFF, 1);
        {
            let mut r = hub.recorder(0);
            r.record(EventKind::Dequeued { req: 1 });
        }
        assert_eq!(hub.seq().peek(), 0);
        assert!(hub.finish().0.is_empty());
    }

    #[test]
    fn every_kind_packs_and_unpacks_through_the_table() {
        for k in kinds() {
            // Set each field to a value that fits its slot and type.
            let mut w = [0u32; 4];
            for (i, f) in k.fields.iter().enumerate() {
                let v = match f.ty {
                    "flag" => 1,
                    "reason" => 3,
                    "small" => 1,
                    "thread" | "class" => 7 + i as u32,
                    _ => 1000 + i as u32,
                };
                let slot = ["x", "a", "b", "c"]
                    .iter()
                    .position(|s| *s == f.slot)
                    .unwrap();
                assert_eq!(w[slot], 0, "{}: two fields in slot {}", k.name, f.slot);
                w[slot] = v;
            }
            let e = EventKind::from_words(k.code, w).expect(&k.name);
            assert_eq!(e.code(), k.code);
            assert_eq!(e.words(), w, "{}", k.name);
            assert_eq!(e.is_structural(), k.structural);
            let json = serde_json::to_value(e).unwrap();
            assert_eq!(json["k"], k.name, "serde and table agree on the name");
        }
        assert!(EventKind::from_words(200, [0; 4]).is_none());
        assert!(
            EventKind::from_words(5, [99, 0, 0, 0]).is_none(),
            "bad reason"
        );
    }

    /// Codes are assigned in ranges per family (docs/adding-a-family.md),
    /// so the table may have gaps: unique and increasing.
    #[test]
    fn small_codes_name_small_fields_of_known_kinds() {
        let kinds = kinds();
        for (kind, field, names) in SMALL_CODES {
            let k = kinds.iter().find(|k| k.name == *kind);
            let f = k.and_then(|k| k.fields.iter().find(|f| f.name == *field));
            assert_eq!(f.map(|f| f.ty), Some("small"), "{kind}.{field}");
            assert!(!names.is_empty() && names.len() <= 256, "{kind}.{field}");
        }
    }

    #[test]
    fn codes_are_unique_and_increasing() {
        // Families own code ranges (late/ePaxos 23-31, repartitioning 32-40,
        // coloring 41-49), so a range may have gaps until its owner fills it.
        let codes: Vec<u8> = kinds().iter().map(|k| k.code).collect();
        assert!(codes.windows(2).all(|w| w[0] < w[1]), "{codes:?}");
        assert_eq!(&codes[..23], &(0..23).collect::<Vec<u8>>()[..]);
    }
}
