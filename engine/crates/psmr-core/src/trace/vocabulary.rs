//! The event vocabulary: what a thread of a run can record, defined once.
//!
//! The [`vocabulary!`] table below is the single definition of every event
//! kind: its code, its fields, where each field sits in the packed 24-byte
//! form (`x` = the 8-bit extra, `a`, `b`, `c` = 32-bit words), what the
//! field means (`req`, `thread`, `class`, `count`, `small`, `flag`,
//! `reason`), whether the event is *structural* (kept even when a long
//! trace is cut) and what else the central replay asks of it, as *flags*
//! (see [`FlagInfo`]): a family's own kinds carry the flags, so the web
//! app's trace worker asks the flag and never names a family's kind. The
//! enum, the packing ([`EventKind::words`],
//! [`EventKind::from_words`]) and the JSON table ([`kinds`], which
//! `psmr schema --trace` prints through [`super::vocabulary_json`]) all
//! come from it; the web app's decoder and
//! reducer are checked against that JSON (`web/src/trace/vocabulary.json`).

use serde::{Deserialize, Serialize};

use crate::class::ClassId;
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

    /// What the central replay asks of a wait for this reason, as flags
    /// (the JSON table's `flags`), so the web app's reducer and step
    /// search ask the flag and never name a family's reason:
    /// - [`REASON_SYNC_GROUP`]: the wait of a class's synchronization group
    ///   (barrier, cycle): the thread keeps the request it waits on until
    ///   the group has executed it or released it;
    /// - [`REASON_JOINS_ARRIVAL`]: the wait follows an arrival at a sync
    ///   point of the same request (barrier, cycle, the repartitioning map
    ///   switch): arriving and starting to wait are one step.
    ///
    /// Invariant (tested): every `sync-group` reason also `joins-arrival`.
    pub fn flags(self) -> &'static [&'static str] {
        match self {
            WaitReason::Barrier | WaitReason::Cycle => &[REASON_SYNC_GROUP, REASON_JOINS_ARRIVAL],
            WaitReason::MapSwitch => &[REASON_JOINS_ARRIVAL],
            _ => &[],
        }
    }
}

/// Reason flag: a class's synchronization group holds the waiter's request (see [`WaitReason::flags`]).
pub const REASON_SYNC_GROUP: &str = "sync-group";
/// Reason flag: the wait joins the arrival at a sync point of its request (see [`WaitReason::flags`]).
pub const REASON_JOINS_ARRIVAL: &str = "joins-arrival";

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
    /// What the central replay asks of the kind besides `structural`.
    pub flags: Vec<FlagInfo>,
    pub fields: Vec<FieldInfo>,
}

/// One flag of an event kind: a question the web app's central replay (the
/// trace worker, where no family module is registered) asks of every kind.
/// `fields` maps each role the flag needs to the kind's field that plays it.
///
/// - `steal(victim)`: the thread took work from thread `victim`; the event
///   is a jump target and a timeline mark.
/// - `fills-queue(req, lane)`: request `req` joins the replayed queue of
///   worker `lane`.
/// - `event-stream`: the run delivers root events only and handlers
///   register the rest, so progress counts deliveries, not request ids.
/// - `colors(req, color)`: request `req` has color `color`.
/// - `steals-color(victim, color)`: the thread moved every queued request
///   of `color` (as `colors` named them) from `victim`'s queue to its own.
/// - `takes-queue(victim, count, first)`: the thread took `count` requests
///   of `victim`'s queue, from `first` on, as stolen work of its own.
/// - `ends-steal`: the thread is done with the work it stole.
/// - `ready-flag(up)`: the thread's ready flag is now `up` (1 or 0).
/// - `enters-graph`: a request entered the dependency graph (its size
///   grows by one); `leaves-graph(req)`: `req` left it.
/// - `graph-ready(req)`: `req` has no pending dependency left.
/// - `graph-bound(bound)`: the graph holds at most `bound` requests.
/// - `runs-group(group)`: the thread runs group `group` (an SCC) until a
///   `ends-group` event of its own.
/// - `map-epoch(epoch)`: partition map `epoch` is the scheduler's now.
///
/// Steps (how the classroom groups events, `web/src/replay/steps.ts`):
/// - `starts-step`: every event of the kind starts a step.
/// - `joins-take(req)`: starts one unless the thread's last event took
///   `req` from its queue (taking and starting on it is one step).
/// - `sync-point(req)`: the thread reached or passed the sync of `req`; a
///   sync wait for `req` right after it belongs to its step.
/// - `pauses`: the scheduler stopped delivering; `joins-pause`: starts a
///   step unless the same thread paused just before it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FlagInfo {
    pub name: String,
    /// Role -> field name (each a field of the kind; a unit test checks).
    pub fields: std::collections::BTreeMap<&'static str, &'static str>,
}

/// Whether a kind's flag list holds `structural`.
fn has_structural(flags: &[&str]) -> bool {
    flags.contains(&"structural")
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

/// `snake_case` to `kebab-case` (flag names).
fn kebab_snake(name: &str) -> String {
    name.replace('_', "-")
}

macro_rules! vocabulary {
    ($(
        $(#[doc = $doc:literal])*
        $code:literal $name:ident $([$( $flag:ident $(( $($role:ident = $rf:ident),* ))? ),*])? {
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
                match self {
                    $( EventKind::$name { .. } => has_structural(&[$($(stringify!($flag)),*)?]), )*
                }
            }
        }

        /// The vocabulary as data: every kind with its fields.
        pub fn kinds() -> Vec<KindInfo> {
            vec![ $( KindInfo {
                code: $code,
                name: kebab(stringify!($name)),
                doc: doc(&[$($doc),*]),
                structural: has_structural(&[$($(stringify!($flag)),*)?]),
                flags: vec![ $($( FlagInfo {
                    name: kebab_snake(stringify!($flag)),
                    fields: [ $($( (stringify!($role), stringify!($rf)) ),*)? ].into_iter().collect(),
                } ),*)? ].into_iter().filter(|f: &FlagInfo| f.name != "structural").collect(),
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
    0 Delivered [starts_step] { req: req @ a, class: class @ b }
    /// The scheduler put `req` into `to`'s queue.
    1 Enqueued { req: req @ a, to: thread @ b }
    /// The thread took `req` from its queue.
    2 Dequeued [starts_step] { req: req @ a }
    /// The thread began executing `req`.
    3 ExecStart [joins_take(req = req)] { req: req @ a }
    /// The thread finished executing `req`.
    4 ExecEnd [starts_step] { req: req @ a }
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
    7 SyncArrive [joins_take(req = req), sync_point(req = req)] { class: class @ a, req: req @ b, cycle: small @ x }
    /// The barrier or cycle of `req` released; `executor` ran the request.
    8 SyncRelease [starts_step, sync_point(req = req)] { class: class @ a, req: req @ b, executor: thread @ c, cycle: small @ x }
    /// The thread (the stealer) took `count` requests from `victim`'s ready
    /// queue, the first being `first`.
    9 Steal [structural, steal(victim = victim), starts_step, takes_queue(victim = victim, count = count, first = first)] { victim: thread @ a, count: count @ b, first: req @ c }
    /// The stealer finished what it stole from `victim` and cleared its
    /// marker there.
    10 StealDone [starts_step, ends_steal] { victim: thread @ a }
    /// The thread's ready/exec flag changed (work stealing).
    11 Flag [ready_flag(up = ready)] { ready: flag @ x }
    /// `req` entered a dependency graph with `deps` edges (each a DepEdge).
    12 GraphInsert [starts_step, enters_graph] { req: req @ a, deps: count @ b }
    /// `req` left the dependency graph.
    13 GraphRemove [starts_step, leaves_graph(req = req)] { req: req @ a }
    /// A group of requests (an SCC) was found: `size` members (each a
    /// GroupMember), `position` in the execution order of groups.
    14 GroupFound [structural, starts_step] { group: count @ a, size: count @ b, position: count @ c }
    /// A new partition map took effect; `moved` keys changed partition.
    15 MapSwitch [structural, starts_step, map_epoch(epoch = epoch)] { epoch: count @ a, moved: count @ b }
    /// Sampled length of `of`'s queue.
    16 QueueLen { of: thread @ a, len: count @ b }
    /// Request `from` depends on request `to` (an edge of a dependency graph).
    17 DepEdge { from: req @ a, to: req @ b }
    /// Request `req` belongs to group `group`.
    18 GroupMember [structural] { group: count @ a, req: req @ b }
    /// Event `child`, of color `color`, was registered by `parent`
    /// (no-request: a delivered root) into core `core`'s queue (0 for
    /// runtimes with one queue).
    19 Registered [fills_queue(req = child, lane = core), event_stream, colors(req = child, color = color)] { child: req @ b, parent: req @ a, color: count @ c, core: small @ x }
    /// The thread stole the whole color `color` (`count` events) from `victim`.
    20 ColorSteal [structural, steal(victim = victim), steals_color(victim = victim, color = color), starts_step] { victim: thread @ a, color: count @ b, count: count @ c }
    /// A partition of the workload graph was computed: its edge cut and the
    /// time it took, in microseconds.
    21 Partitioned [structural, starts_step] { epoch: count @ a, cut: count @ b, time_us: count @ c }
    /// Instance `instance` committed with sequence number `seq` (saturated to
    /// 32 bits) and `deps` dependencies (each a DepEdge between commands).
    22 Commit [starts_step] { instance: count @ a, seq: count @ b, deps: count @ c }
    /// Request `req` has no pending dependency left: a worker may take it
    /// (late scheduling).
    23 Ready [graph_ready(req = req)] { req: req @ a }
    /// The dependency graph now holds `size` requests, at most `bound`
    /// (late scheduling; recorded at every insert and removal).
    24 GraphSize [graph_bound(bound = bound)] { size: count @ a, bound: count @ b }
    /// The thread starts executing group `group` (an SCC, see GroupFound)
    /// of `size` instances.
    25 SccStart [structural, runs_group(group = group)] { group: count @ a, size: count @ b }
    /// The thread finished every instance of group `group`.
    26 SccEnd [structural, ends_group] { group: count @ a }
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
    33 PartSyncArrive [joins_take(req = req), sync_point(req = req)] { req: req @ a, parties: count @ b }
    /// Repartitioning: every party reached the sync of `req` (no-request: a
    /// map switch's) and it was executed by `executor`; the parties go on.
    34 PartSyncRelease [starts_step, sync_point(req = req)] { req: req @ a, executor: thread @ b }
    /// Repartitioning: the partitioner started on a workload graph of
    /// `vertices` keys and `edges` edges, for map `epoch`.
    35 PartitionStart [structural, joins_pause] { epoch: count @ a, vertices: count @ b, edges: count @ c }
    /// Repartitioning: the balance of map `epoch`: its heaviest part over the
    /// average, in permille, over `keys` keys of the workload graph.
    36 MapBalance [structural] { epoch: count @ a, imbalance_permille: count @ b, keys: count @ c }
    /// Repartitioning (Base): the scheduler stopped delivering to repartition.
    37 SchedulerPause [structural, starts_step, pauses] { epoch: count @ a }
    /// Repartitioning (Base): the scheduler resumed after `pause_us`.
    38 SchedulerResume [structural, starts_step] { epoch: count @ a, pause_us: count @ b }
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
    43 StealTry [starts_step] { victim: thread @ a, queued: count @ b }
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

/// The requests of `trace` in the order they started executing (its
/// `ExecStart` events, in `seq` order): a run's execution order, for
/// comparing it with the canonical order.
pub fn exec_order(trace: &[TraceEvent]) -> Vec<u32> {
    trace
        .iter()
        .filter_map(|e| match e.kind {
            EventKind::ExecStart { req } => Some(req),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every flag a kind may carry (besides `structural`) with its roles, in
    /// the order [`FlagInfo`] explains them: the table may use no other.
    const FLAGS: &[(&str, &[&str])] = &[
        ("steal", &["victim"]),
        ("fills-queue", &["req", "lane"]),
        ("event-stream", &[]),
        ("colors", &["req", "color"]),
        ("steals-color", &["victim", "color"]),
        ("takes-queue", &["victim", "count", "first"]),
        ("ends-steal", &[]),
        ("ready-flag", &["up"]),
        ("enters-graph", &[]),
        ("leaves-graph", &["req"]),
        ("graph-ready", &["req"]),
        ("graph-bound", &["bound"]),
        ("runs-group", &["group"]),
        ("ends-group", &[]),
        ("map-epoch", &["epoch"]),
        ("starts-step", &[]),
        ("joins-take", &["req"]),
        ("sync-point", &["req"]),
        ("pauses", &[]),
        ("joins-pause", &[]),
    ];

    #[test]
    fn reason_flags_are_known_and_a_sync_group_wait_joins_its_arrival() {
        let mut flagged = 0;
        for r in WaitReason::ALL {
            for f in r.flags() {
                assert!(
                    [REASON_SYNC_GROUP, REASON_JOINS_ARRIVAL].contains(f),
                    "{r:?}: unknown flag {f}"
                );
                flagged += 1;
            }
            if r.flags().contains(&REASON_SYNC_GROUP) {
                assert!(r.flags().contains(&REASON_JOINS_ARRIVAL), "{r:?}");
            }
        }
        // Barrier and cycle carry both, the map switch one: a flag dropped from a reason fails here.
        assert_eq!(flagged, 5);
        assert!(WaitReason::EmptyQueue.flags().is_empty());
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
            for f in &k.flags {
                let (_, roles) = FLAGS
                    .iter()
                    .find(|(n, _)| *n == f.name)
                    .unwrap_or_else(|| panic!("{}: unknown flag {}", k.name, f.name));
                let mut want: Vec<&str> = roles.to_vec();
                want.sort_unstable();
                let given: Vec<&str> = f.fields.keys().copied().collect();
                assert_eq!(given, want, "{}: roles of flag {}", k.name, f.name);
                for (role, field) in &f.fields {
                    assert!(
                        k.fields.iter().any(|x| x.name == *field),
                        "{}: flag {} gives role {role} to {field}, not a field",
                        k.name,
                        f.name
                    );
                }
            }
            let json = serde_json::to_value(e).unwrap();
            assert_eq!(json["k"], k.name, "serde and table agree on the name");
        }
        assert!(EventKind::from_words(200, [0; 4]).is_none());
        assert!(
            EventKind::from_words(5, [99, 0, 0, 0]).is_none(),
            "bad reason"
        );
    }

    /// The web replay gives each kind one action per question (one byte
    /// per code, `trace/state.ts` and `replay/steps.ts`): a kind carries
    /// at most one flag of each group below.
    #[test]
    fn a_kind_has_at_most_one_replay_action_and_one_step_rule() {
        let groups: [&[&str]; 2] = [
            &[
                "takes-queue",
                "ends-steal",
                "ready-flag",
                "enters-graph",
                "leaves-graph",
                "graph-ready",
                "graph-bound",
                "runs-group",
                "ends-group",
                "map-epoch",
                "fills-queue",
                "steals-color",
            ],
            &["starts-step", "joins-take", "joins-pause"],
        ];
        for k in kinds() {
            for group in groups {
                let n = k
                    .flags
                    .iter()
                    .filter(|f| group.contains(&f.name.as_str()))
                    .count();
                assert!(n <= 1, "{}: {n} flags of {group:?}", k.name);
            }
        }
    }

    /// Codes are assigned in ranges per family (docs/adding-a-family.md),
    /// so the table may have gaps: unique and increasing.
    #[test]
    fn codes_are_unique_and_increasing() {
        // Families own code ranges (late/ePaxos 23-31, repartitioning 32-40,
        // coloring 41-49), so a range may have gaps until its owner fills it.
        let codes: Vec<u8> = kinds().iter().map(|k| k.code).collect();
        assert!(codes.windows(2).all(|w| w[0] < w[1]), "{codes:?}");
        assert_eq!(&codes[..23], &(0..23).collect::<Vec<u8>>()[..]);
    }
}
