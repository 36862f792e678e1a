//! Commit streams: committed ePaxos instances, and a simulator that makes
//! them.
//!
//! A *commit stream* is what ePaxos execution (paper 004, Algorithm 2)
//! consumes: instances in the order they commit, each a batch of one or more
//! commands, with the instances it depends on and a sequence number. A
//! dependency may name an instance that commits later, and dependencies may
//! form cycles; execution resolves both with SCCs ([`crate::scc`]).
//!
//! [`simulate`] produces such a stream by playing ePaxos's ordering phase
//! among a few replicas in simulated time, deterministically from a seed.
//! The model, its parameters and what it leaves out are described in
//! `docs/epaxos-commit-model.md`; the short version:
//!
//! * clients' commands arrive one after the other (integer gaps drawn around
//!   a mean) and each goes to a replica chosen at random; that replica leads
//!   the command;
//! * a leader's queue becomes one instance at the next tick of its batch
//!   timer, or at once when it holds `batch_max` commands;
//! * the leader computes the instance's dependencies and seq from what it
//!   has seen, records the instance and sends a PreAccept to every other
//!   replica; each replica, when the message arrives, adds the interfering
//!   instances it has seen, records the instance and replies;
//! * after the first `fast quorum - 1` replies, the leader commits on the
//!   fast path if no reply changed the attributes, otherwise it takes the
//!   slow path: dependencies united, seq the largest, one Accept round to a
//!   majority, then commit;
//! * links are FIFO with a delay plus jitter, so replicas see a leader's
//!   instances in the order it proposed them.
//!
//! Dependencies are kept minimal the way ePaxos implementations keep them:
//! per cell and per leader, a replica remembers only the leader's latest
//! write and the leader's reads since that write. A new instance depends on
//! those entries that interfere with it (a read on the latest writes, a
//! write on the latest writes and the reads after them). Older interfering
//! instances are still ordered, through the leader's own chain: a leader
//! always sees its own earlier instances, so its newer write on a cell
//! depends on its previous write and on its reads in between.
//!
//! What holds for every stream [`simulate`] returns (tested below):
//! * two interfering instances are joined by a dependency path in at least
//!   one direction (the quorums of any two instances share a replica, and
//!   that replica saw one of them first);
//! * for every dependency `a -> b`, `seq(a) > proposed_seq(b)`, the seq
//!   `b`'s leader put in its PreAccept: whoever added `b` to `a`'s
//!   dependencies knew `b` with at least that seq. Hence `seq(a) > seq(b)`
//!   whenever `b` committed on the fast path (its seq did not change).
//!   When `b` took the slow path its committed seq may have grown past
//!   `a`'s, even if `b` does not depend on `a` (different SCCs). Nothing
//!   more holds, which is why execution orders SCCs by their dependencies
//!   and uses seq only inside an SCC.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};
use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::rng::SplitMix64;
use crate::scc::{Admit, Graph, Tarjan, TarjanError};

/// Most replicas.
pub const MAX_REPLICAS: u32 = 7;
/// Most commands of one simulation, and most instances of a stream.
pub const MAX_COMMANDS: usize = 2_000_000;
/// Most `(cell, write)` entries over all footprints of one simulation.
pub const MAX_TOUCHES: usize = 4_000_000;
/// Most view entries (`replicas² × distinct cells`), 8 bytes each: bounds
/// the simulator's per-cell memory to 128 MiB.
pub const MAX_VIEW_ENTRIES: usize = 1 << 24;
/// Most commands in one batch.
pub const MAX_BATCH: u32 = 100_000;
/// Longest batch period, arrival gap or message delay (1 s).
pub const MAX_TIME_NS: u64 = 1_000_000_000;
/// Most dependency entries a simulation keeps (leaders', replies' and
/// united lists together; 4 bytes each).
pub const MAX_SIM_DEPS: usize = 256_000_000;
/// Most dependencies over a whole stream.
pub const MAX_STREAM_DEPS: usize = 64_000_000;

/// One entry of a command's footprint: a cell and whether the command
/// writes it. Two commands interfere when one writes a cell the other
/// touches (paper 004, Definition 1, with read and write sets as cells).
pub type Touch = (u64, bool);

/// The commands of a simulation, in client order, by footprint.
pub trait Footprints {
    /// Number of commands.
    fn command_count(&self) -> usize;
    /// Footprint of command `c` (`c < command_count()`); a cell may repeat.
    fn footprint(&self, c: usize) -> &[Touch];
}

impl<T: AsRef<[Touch]>> Footprints for [T] {
    fn command_count(&self) -> usize {
        self.len()
    }
    fn footprint(&self, c: usize) -> &[Touch] {
        self[c].as_ref()
    }
}

/// Footprints stored flat: command `c` is `touches[start[c]..start[c + 1]]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FlatFootprints {
    start: Vec<u32>,
    touches: Vec<Touch>,
}

impl Default for FlatFootprints {
    fn default() -> Self {
        FlatFootprints {
            start: vec![0],
            touches: Vec::new(),
        }
    }
}

impl FlatFootprints {
    /// No command yet.
    pub fn new() -> Self {
        FlatFootprints::default()
    }
    /// Append a command with footprint `touches`. Fails past
    /// [`MAX_COMMANDS`] commands or [`MAX_TOUCHES`] entries.
    pub fn push(&mut self, touches: &[Touch]) -> Result<(), CommitSimError> {
        let commands = self.start.len();
        if commands > MAX_COMMANDS {
            return Err(CommitSimError::TooManyCommands {
                commands,
                max: MAX_COMMANDS,
            });
        }
        let total = self.touches.len() + touches.len();
        if total > MAX_TOUCHES {
            return Err(CommitSimError::TooManyTouches {
                touches: total,
                max: MAX_TOUCHES,
            });
        }
        self.touches.extend_from_slice(touches);
        self.start.push(total as u32);
        Ok(())
    }
    /// Paper 004's application: one linked list (cell 0); a write
    /// (add/remove) touches it for writing, a read (contains) for reading.
    pub fn single_list(writes: &[bool]) -> Result<Self, CommitSimError> {
        let mut out = FlatFootprints::new();
        for &w in writes {
            out.push(&[(0, w)])?;
        }
        Ok(out)
    }
}

impl Footprints for FlatFootprints {
    fn command_count(&self) -> usize {
        self.start.len() - 1
    }
    fn footprint(&self, c: usize) -> &[Touch] {
        &self.touches[self.start[c] as usize..self.start[c + 1] as usize]
    }
}

/// Parameters of the ordering simulation. Times are simulated nanoseconds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct CommitSimSpec {
    /// Seed of every random choice.
    pub seed: u64,
    /// Replicas, each a command leader (1..=7; paper 004 uses 3).
    pub replicas: u32,
    /// Period of a leader's batch timer; 0 proposes every command on
    /// arrival. Paper 004 section IV-C: 5 ms.
    pub batch_ns: u64,
    /// Each tick lands up to this much after its nominal time (drawn per
    /// tick; at most half of `batch_ns`), so leaders' ticks drift apart.
    pub batch_jitter_ns: u64,
    /// A queue this long is proposed at once (paper 004: 1000).
    pub batch_max: u32,
    /// Mean gap between two client commands (gaps are drawn uniformly in
    /// `0..=2 * mean`). Default 50 µs: 20,000 commands per second, about
    /// what paper 004 measured for ePaxos with the 10K-entry list.
    pub arrival_gap_ns: u64,
    /// One-way message delay (paper 004's LAN: 0.1 ms round trip).
    pub delay_ns: u64,
    /// Extra delay drawn uniformly in `0..=delay_jitter_ns` per message.
    pub delay_jitter_ns: u64,
}

impl Default for CommitSimSpec {
    fn default() -> Self {
        CommitSimSpec {
            seed: 1,
            replicas: 3,
            batch_ns: 5_000_000,
            batch_jitter_ns: 1_000_000,
            batch_max: 1000,
            arrival_gap_ns: 50_000,
            delay_ns: 50_000,
            delay_jitter_ns: 20_000,
        }
    }
}

impl CommitSimSpec {
    /// Check every parameter against its range.
    pub fn validate(&self) -> Result<(), CommitSimError> {
        let range = |field, value: u64, lo: u64, hi: u64, expected| {
            if (lo..=hi).contains(&value) {
                Ok(())
            } else {
                Err(CommitSimError::Spec {
                    field,
                    expected,
                    found: value,
                })
            }
        };
        range(
            "replicas",
            self.replicas.into(),
            1,
            MAX_REPLICAS.into(),
            "1..=7",
        )?;
        range(
            "batch_ns",
            self.batch_ns,
            0,
            MAX_TIME_NS,
            "0..=1000000000 (1 s)",
        )?;
        range(
            "batch_jitter_ns",
            self.batch_jitter_ns,
            0,
            self.batch_ns / 2,
            "at most half of batch_ns",
        )?;
        range(
            "batch_max",
            self.batch_max.into(),
            1,
            MAX_BATCH.into(),
            "1..=100000",
        )?;
        range(
            "arrival_gap_ns",
            self.arrival_gap_ns,
            0,
            MAX_TIME_NS,
            "0..=1000000000 (1 s)",
        )?;
        range(
            "delay_ns",
            self.delay_ns,
            0,
            MAX_TIME_NS,
            "0..=1000000000 (1 s)",
        )?;
        range(
            "delay_jitter_ns",
            self.delay_jitter_ns,
            0,
            MAX_TIME_NS,
            "0..=1000000000 (1 s)",
        )?;
        Ok(())
    }

    /// Replies a leader waits for before deciding between the fast and the
    /// slow path: its fast quorum minus itself. With `F = (n - 1) / 2`
    /// tolerated failures, ePaxos's fast quorum is `F + (F + 1) / 2`
    /// replicas, never less than a majority (2 of 3, 3 of 5, 5 of 7).
    pub fn preaccept_replies(&self) -> usize {
        let n = self.replicas as usize;
        let f = n.saturating_sub(1) / 2;
        (f + f.div_ceil(2)).max(majority(n)) - 1
    }

    /// Accept replies the slow path waits for: a majority minus the leader.
    pub fn accept_replies(&self) -> usize {
        majority(self.replicas as usize) - 1
    }
}

fn majority(n: usize) -> usize {
    n / 2 + 1
}

/// Why a simulation or a stream was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommitSimError {
    /// A parameter is out of range.
    Spec {
        field: &'static str,
        expected: &'static str,
        found: u64,
    },
    /// More commands than [`MAX_COMMANDS`].
    TooManyCommands { commands: usize, max: usize },
    /// More footprint entries than [`MAX_TOUCHES`].
    TooManyTouches { touches: usize, max: usize },
    /// The dependency lists of a simulation outgrew [`MAX_SIM_DEPS`]
    /// (every write depends on each leader's reads since that leader's last
    /// write, so long runs of reads between rare writes add up).
    TooManyDeps { deps: usize, max: usize },
    /// `replicas² × distinct cells` exceeds [`MAX_VIEW_ENTRIES`].
    TooManyCells {
        cells: usize,
        replicas: u32,
        max_entries: usize,
    },
}

impl fmt::Display for CommitSimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommitSimError::Spec {
                field,
                expected,
                found,
            } => {
                write!(f, "{field}: expected {expected}, found {found}")
            }
            CommitSimError::TooManyCommands { commands, max } => {
                write!(f, "{commands} commands exceed the limit of {max}")
            }
            CommitSimError::TooManyTouches { touches, max } => {
                write!(f, "{touches} footprint entries exceed the limit of {max}")
            }
            CommitSimError::TooManyDeps { deps, max } => write!(
                f,
                "{deps} dependency entries exceed the simulator's limit of {max}"
            ),
            CommitSimError::TooManyCells {
                cells,
                replicas,
                max_entries,
            } => write!(
                f,
                "{cells} distinct cells with {replicas} replicas need {} view entries, \
                 more than the limit of {max_entries}",
                cells.saturating_mul((*replicas as usize).pow(2))
            ),
        }
    }
}

impl std::error::Error for CommitSimError {}

/// Committed instances in commit order, flat.
///
/// Instance `i` (its position in commit order) holds the input commands
/// `commands[command_start[i]..command_start[i + 1]]` (indices into the
/// client order, in the order its leader queued them), has sequence number
/// `seq[i]` and depends on the instances `deps[dep_start[i]..dep_start[i +
/// 1]]` (positions in commit order, possibly later ones).
///
/// Invariants (checked when read from JSON, established by [`simulate`]):
/// every batch is non-empty; the command lists together are a permutation
/// of `0..command_count()`; every dependency names another existing
/// instance, at most once per instance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommitStream {
    command_start: Vec<u32>,
    commands: Vec<u32>,
    seq: Vec<u64>,
    dep_start: Vec<u32>,
    deps: Vec<u32>,
}

impl Default for CommitStream {
    fn default() -> Self {
        CommitStream {
            command_start: vec![0],
            commands: Vec::new(),
            seq: Vec::new(),
            dep_start: vec![0],
            deps: Vec::new(),
        }
    }
}

impl CommitStream {
    /// Number of instances.
    pub fn len(&self) -> usize {
        self.seq.len()
    }
    /// No instance.
    pub fn is_empty(&self) -> bool {
        self.seq.is_empty()
    }
    /// Number of commands over all instances.
    pub fn command_count(&self) -> usize {
        self.commands.len()
    }
    /// Commands of instance `i` (client-order indices).
    pub fn commands(&self, i: usize) -> &[u32] {
        &self.commands[self.command_start[i] as usize..self.command_start[i + 1] as usize]
    }
    /// Sequence number of instance `i`.
    pub fn seq(&self, i: usize) -> u64 {
        self.seq[i]
    }
    /// Instances `i` depends on (commit-order positions).
    pub fn deps(&self, i: usize) -> &[u32] {
        &self.deps[self.dep_start[i] as usize..self.dep_start[i + 1] as usize]
    }
    /// The stream as the engine's side table: requests are the commands in
    /// commit order (instance by instance), so instance `i` holds requests
    /// `first[i]..first[i+1]`; request `r` is input command
    /// `self.parts().commands[r]`.
    pub fn table(&self) -> crate::stream::CommitTable {
        crate::stream::CommitTable {
            first: self.command_start.clone(),
            dep_start: self.dep_start.clone(),
            deps: self.deps.clone(),
            seq: self.seq.clone(),
        }
    }

    /// The flat arrays, for handing the stream on without copying.
    pub fn parts(&self) -> StreamParts<'_> {
        StreamParts {
            command_start: &self.command_start,
            commands: &self.commands,
            seq: &self.seq,
            dep_start: &self.dep_start,
            deps: &self.deps,
        }
    }

    fn push(&mut self, commands: &[u32], seq: u64, deps: &[u32]) {
        self.commands.extend_from_slice(commands);
        self.command_start.push(self.commands.len() as u32);
        self.seq.push(seq);
        self.deps.extend_from_slice(deps);
        self.dep_start.push(self.deps.len() as u32);
    }
}

/// A [`CommitStream`]'s flat arrays (see its invariants).
#[derive(Clone, Copy, Debug)]
pub struct StreamParts<'s> {
    /// `len() + 1` offsets into `commands`.
    pub command_start: &'s [u32],
    /// Client-order command indices, instance after instance.
    pub commands: &'s [u32],
    /// Seq per instance.
    pub seq: &'s [u64],
    /// `len() + 1` offsets into `deps`.
    pub dep_start: &'s [u32],
    /// Dependencies (commit positions), instance after instance.
    pub deps: &'s [u32],
}

/// The dependency graph of a stream: node `i` is instance `i`, its
/// successors are its dependencies.
impl Graph for CommitStream {
    fn node_count(&self) -> usize {
        self.len()
    }
    fn successors(&self, v: u32) -> &[u32] {
        self.deps(v as usize)
    }
}

/// What the simulation knows about an instance beyond the stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InstanceMeta {
    /// Replica that led the instance.
    pub leader: u8,
    /// Seq in the leader's PreAccept (the committed seq is never smaller).
    pub proposed_seq: u64,
    /// Committed after an Accept round.
    pub slow_path: bool,
    /// Simulated time of the proposal.
    pub propose_ns: u64,
    /// Simulated time the leader committed it.
    pub commit_ns: u64,
}

/// A simulated commit stream and, per instance in the same order, its
/// simulation metadata.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Simulation {
    pub stream: CommitStream,
    pub meta: Vec<InstanceMeta>,
}

/// Simulate ePaxos ordering of `commands` under `spec`.
///
/// Deterministic: the same footprints and spec give the same stream, on
/// every platform (integer time, SplitMix64, no hash-map iteration).
/// Memory is linear in commands, footprint entries and instances, plus
/// `replicas² × distinct cells` view entries (bounded by the limits).
pub fn simulate<F: Footprints + ?Sized>(
    commands: &F,
    spec: &CommitSimSpec,
) -> Result<Simulation, CommitSimError> {
    spec.validate()?;
    let input = Input::new(commands, spec.replicas)?;
    let mut sim = Sim::new(spec, input);
    sim.run()?;
    Ok(sim.finish())
}

/// Footprints with cells renamed to dense ids `0..cells`.
struct Input {
    start: Vec<u32>,
    touches: Vec<(u32, bool)>,
    cells: usize,
}

impl Input {
    fn new<F: Footprints + ?Sized>(commands: &F, replicas: u32) -> Result<Self, CommitSimError> {
        let n = commands.command_count();
        if n > MAX_COMMANDS {
            return Err(CommitSimError::TooManyCommands {
                commands: n,
                max: MAX_COMMANDS,
            });
        }
        let total: usize = (0..n).map(|c| commands.footprint(c).len()).sum();
        if total > MAX_TOUCHES {
            return Err(CommitSimError::TooManyTouches {
                touches: total,
                max: MAX_TOUCHES,
            });
        }
        let mut names: Vec<u64> = (0..n)
            .flat_map(|c| commands.footprint(c).iter().map(|t| t.0))
            .collect();
        names.sort_unstable();
        names.dedup();
        let r = replicas as usize;
        if names.len().saturating_mul(r * r) > MAX_VIEW_ENTRIES {
            return Err(CommitSimError::TooManyCells {
                cells: names.len(),
                replicas,
                max_entries: MAX_VIEW_ENTRIES,
            });
        }
        let mut start = Vec::with_capacity(n + 1);
        let mut touches = Vec::with_capacity(total);
        start.push(0);
        for c in 0..n {
            for &(cell, write) in commands.footprint(c) {
                // `names` holds every cell of every footprint.
                let id = names.binary_search(&cell).unwrap_or_default();
                touches.push((id as u32, write));
            }
            start.push(touches.len() as u32);
        }
        Ok(Input {
            start,
            touches,
            cells: names.len(),
        })
    }

    fn len(&self) -> usize {
        self.start.len() - 1
    }

    fn footprint(&self, c: u32) -> &[(u32, bool)] {
        &self.touches[self.start[c as usize] as usize..self.start[c as usize + 1] as usize]
    }
}

/// No instance (in view slots).
const NONE: u32 = u32::MAX;

/// What one replica has seen, per cell and per leader: the leader's latest
/// write, and the leader's reads since that write (a linked list in
/// `nodes`, newest first).
struct View {
    /// Slot `cell * replicas + leader`.
    last_write: Vec<u32>,
    read_head: Vec<u32>,
    /// `(instance, next)`; bounded by the reads this replica recorded.
    nodes: Vec<(u32, u32)>,
}

/// A simulated event. Ordered by (time, insertion order) in the queue, so
/// ties resolve in the order events were scheduled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Event {
    /// Client command `c` reaches its leader.
    Arrive {
        c: u32,
    },
    /// Batch timer of `replica`.
    Tick {
        replica: u8,
    },
    PreAccept {
        inst: u32,
        to: u8,
    },
    /// `extras` (a range of `reply_deps`) are the dependencies the replica
    /// added to the leader's; `seq` its seq.
    PreAcceptReply {
        inst: u32,
        extras: (u32, u32),
        seq: u32,
    },
    Accept {
        inst: u32,
        to: u8,
    },
    AcceptReply {
        inst: u32,
    },
    Commit {
        inst: u32,
        to: u8,
    },
}

/// An instance during the simulation (indexed in proposal order).
#[derive(Clone, Debug)]
struct Inst {
    leader: u8,
    commands: (u32, u32),
    touches: (u32, u32),
    /// The leader's dependencies (range of `deps0`).
    deps0: (u32, u32),
    seq0: u32,
    /// Final seq once decided, running max before.
    seq: u32,
    /// Replies counted so far and their extra dependencies.
    replies: u8,
    extras: [(u32, u32); MAX_REPLICAS as usize - 1],
    changed: bool,
    accept_replies: u8,
    slow: bool,
    /// Final dependencies (range of `final_deps`), set when decided.
    deps: (u32, u32),
    propose_ns: u64,
    commit_ns: u64,
}

struct Sim<'s> {
    spec: &'s CommitSimSpec,
    r: usize,
    input: Input,
    rng: SplitMix64,
    now_ns: u64,
    /// Pending events; at most one arrival, one tick per replica and
    /// `2 × (replicas - 1)` messages per undecided instance.
    events: BinaryHeap<Reverse<(u64, u64, Event)>>,
    scheduled: u64,
    /// Arrival time of the last message on each link (FIFO links).
    link_ns: Vec<u64>,
    arrived: u32,
    /// Per replica, commands waiting for the next batch (< `batch_max`).
    queues: Vec<Vec<u32>>,
    tick_pending: Vec<bool>,
    insts: Vec<Inst>,
    inst_commands: Vec<u32>,
    inst_touches: Vec<(u32, bool)>,
    deps0: Vec<u32>,
    reply_deps: Vec<u32>,
    final_deps: Vec<u32>,
    /// Seq each replica knows for each instance: `inst * r + replica`.
    known_seq: Vec<u32>,
    views: Vec<View>,
    committed: Vec<u32>,
    scratch: Vec<u32>,
    scratch_touch: Vec<(u32, bool)>,
}

impl<'s> Sim<'s> {
    fn new(spec: &'s CommitSimSpec, input: Input) -> Self {
        let r = spec.replicas as usize;
        let slots = input.cells * r;
        let views = (0..r)
            .map(|_| View {
                last_write: vec![NONE; slots],
                read_head: vec![NONE; slots],
                nodes: Vec::new(),
            })
            .collect();
        Sim {
            spec,
            r,
            input,
            rng: SplitMix64::new(spec.seed),
            now_ns: 0,
            events: BinaryHeap::new(),
            scheduled: 0,
            link_ns: vec![0; r * r],
            arrived: 0,
            queues: vec![Vec::new(); r],
            tick_pending: vec![false; r],
            insts: Vec::new(),
            inst_commands: Vec::new(),
            inst_touches: Vec::new(),
            deps0: Vec::new(),
            reply_deps: Vec::new(),
            final_deps: Vec::new(),
            known_seq: Vec::new(),
            views,
            committed: Vec::new(),
            scratch: Vec::new(),
            scratch_touch: Vec::new(),
        }
    }

    fn schedule(&mut self, at_ns: u64, ev: Event) {
        self.scheduled += 1;
        self.events.push(Reverse((at_ns, self.scheduled, ev)));
    }

    /// Send over the FIFO link `from -> to`.
    fn send(&mut self, from: usize, to: usize, ev: Event) {
        let jitter = self.rng.below(self.spec.delay_jitter_ns + 1);
        let link = from * self.r + to;
        let at = (self.now_ns + self.spec.delay_ns + jitter).max(self.link_ns[link]);
        self.link_ns[link] = at;
        self.schedule(at, ev);
    }

    /// Play every event; fails only when the dependency lists outgrow
    /// [`MAX_SIM_DEPS`] (checked after each event, which adds fewer than
    /// `2 × MAX_COMMANDS` entries, so arena offsets always fit in `u32`).
    fn run(&mut self) -> Result<(), CommitSimError> {
        if self.input.len() > 0 {
            self.schedule(0, Event::Arrive { c: 0 });
        }
        while let Some(Reverse((at, _, ev))) = self.events.pop() {
            let deps = self.deps0.len() + self.reply_deps.len() + self.final_deps.len();
            if deps > MAX_SIM_DEPS {
                return Err(CommitSimError::TooManyDeps {
                    deps,
                    max: MAX_SIM_DEPS,
                });
            }
            self.now_ns = at;
            match ev {
                Event::Arrive { c } => self.arrive(c),
                Event::Tick { replica } => self.tick(replica as usize),
                Event::PreAccept { inst, to } => self.preaccept(inst, to as usize),
                Event::PreAcceptReply { inst, extras, seq } => {
                    self.preaccept_reply(inst, extras, seq)
                }
                Event::Accept { inst, to } => self.accept(inst, to as usize),
                Event::AcceptReply { inst } => self.accept_reply(inst),
                Event::Commit { inst, to } => self.learn_commit(inst, to as usize),
            }
        }
        Ok(())
    }

    /// A client command reaches a leader chosen at random.
    fn arrive(&mut self, c: u32) {
        self.arrived = c + 1;
        if (self.arrived as usize) < self.input.len() {
            let gap = self.rng.below(2 * self.spec.arrival_gap_ns + 1);
            self.schedule(self.now_ns + gap, Event::Arrive { c: c + 1 });
        }
        let p = self.rng.below(self.r as u64) as usize;
        self.queues[p].push(c);
        if self.spec.batch_ns == 0 || self.queues[p].len() >= self.spec.batch_max as usize {
            self.propose(p);
        } else if !self.tick_pending[p] {
            let at = self.next_tick_ns(p, self.now_ns);
            self.tick_pending[p] = true;
            self.schedule(at, Event::Tick { replica: p as u8 });
        }
    }

    /// Nominal tick `k` of replica `p` is `phase + k * batch`; each tick
    /// lands up to `batch_jitter_ns` later, drawn from (seed, p, k) so a
    /// tick's time does not depend on whether earlier ticks were simulated
    /// (an idle leader's timer is not simulated).
    /// Only called with `batch_ns > 0`.
    fn tick_ns(&self, p: usize, k: u64) -> u64 {
        let jitter = hash(self.spec.seed ^ hash(((p as u64 + 1) << 48) ^ k))
            % (self.spec.batch_jitter_ns + 1);
        self.phase_ns(p) + k * self.spec.batch_ns + jitter
    }

    /// Fixed random phase of `p`'s timer, below the period.
    fn phase_ns(&self, p: usize) -> u64 {
        hash(self.spec.seed ^ hash(p as u64 + 1)) % self.spec.batch_ns
    }

    /// Time of `p`'s first tick strictly after `t`. Tick `k` lies in
    /// `[phase + k·batch, phase + k·batch + batch/2]`, so ticks increase
    /// with `k`, every tick before number `⌊(t − phase)/batch⌋` is at or
    /// before `t`, and the answer is that tick or the next.
    fn next_tick_ns(&self, p: usize, t: u64) -> u64 {
        let k = t.saturating_sub(self.phase_ns(p)) / self.spec.batch_ns;
        let at = self.tick_ns(p, k);
        if at > t {
            at
        } else {
            self.tick_ns(p, k + 1)
        }
    }

    fn tick(&mut self, p: usize) {
        self.tick_pending[p] = false;
        if !self.queues[p].is_empty() {
            self.propose(p);
        }
    }

    /// Leader `p` turns its queue into an instance: dependencies and seq
    /// from its own view, recorded at once, PreAccept to everyone else.
    fn propose(&mut self, p: usize) {
        let id = self.insts.len() as u32;
        let mut queue = std::mem::take(&mut self.queues[p]);
        let commands = append(&mut self.inst_commands, &queue);
        self.merge_footprint(&queue);
        queue.clear();
        self.queues[p] = queue; // keeps its capacity
        let touches = append(&mut self.inst_touches, &self.scratch_touch);
        self.known_seq.extend(std::iter::repeat_n(0, self.r));
        self.local_deps(p, touches);
        let seq0 = self.seq_over_scratch(p);
        let deps0 = append(&mut self.deps0, &self.scratch);
        self.insts.push(Inst {
            leader: p as u8,
            commands,
            touches,
            deps0,
            seq0,
            seq: seq0,
            replies: 0,
            extras: [(0, 0); MAX_REPLICAS as usize - 1],
            changed: false,
            accept_replies: 0,
            slow: false,
            deps: deps0,
            propose_ns: self.now_ns,
            commit_ns: 0,
        });
        self.record(p, id);
        self.known_seq[id as usize * self.r + p] = seq0;
        if self.spec.preaccept_replies() == 0 {
            self.commit(id);
            return;
        }
        for s in (0..self.r).filter(|&s| s != p) {
            self.send(
                p,
                s,
                Event::PreAccept {
                    inst: id,
                    to: s as u8,
                },
            );
        }
    }

    /// The batch's footprint into `scratch_touch`: cells sorted, once
    /// each, written if any command writes them.
    fn merge_footprint(&mut self, commands: &[u32]) {
        self.scratch_touch.clear();
        for &c in commands {
            self.scratch_touch
                .extend_from_slice(self.input.footprint(c));
        }
        self.scratch_touch.sort_unstable();
        // Sorted by (cell, write): the last entry of a cell has its write
        // flag set if any entry has.
        self.scratch_touch.dedup_by(|later, kept| {
            if later.0 == kept.0 {
                kept.1 |= later.1;
                true
            } else {
                false
            }
        });
    }

    /// The interfering instances replica `s` has seen, minimal per cell and
    /// leader, into `scratch` (sorted, once each).
    fn local_deps(&mut self, s: usize, touches: (u32, u32)) {
        self.scratch.clear();
        let view = &self.views[s];
        for &(cell, write) in &self.inst_touches[touches.0 as usize..touches.1 as usize] {
            for q in 0..self.r {
                let slot = cell as usize * self.r + q;
                if view.last_write[slot] != NONE {
                    self.scratch.push(view.last_write[slot]);
                }
                if write {
                    let mut node = view.read_head[slot];
                    while node != NONE {
                        let (inst, next) = view.nodes[node as usize];
                        self.scratch.push(inst);
                        node = next;
                    }
                }
            }
        }
        self.scratch.sort_unstable();
        self.scratch.dedup();
    }

    /// `1 +` the largest seq replica `s` knows among `scratch`.
    fn seq_over_scratch(&self, s: usize) -> u32 {
        let known = |d: &u32| self.known_seq[*d as usize * self.r + s];
        1 + self.scratch.iter().map(known).max().unwrap_or(0)
    }

    /// Replica `s` records instance `id` in its view.
    fn record(&mut self, s: usize, id: u32) {
        let inst = &self.insts[id as usize];
        let (leader, (from, to)) = (inst.leader as usize, inst.touches);
        let view = &mut self.views[s];
        for &(cell, write) in &self.inst_touches[from as usize..to as usize] {
            let slot = cell as usize * self.r + leader;
            if write {
                // The leader's write depends on its reads since its last
                // write (it saw them), so they are no longer needed here.
                view.last_write[slot] = id;
                view.read_head[slot] = NONE;
            } else {
                view.nodes.push((id, view.read_head[slot]));
                view.read_head[slot] = (view.nodes.len() - 1) as u32;
            }
        }
    }

    /// Replica `s` pre-accepts: adds the interfering instances it has seen,
    /// raises seq past theirs, records the instance and replies.
    fn preaccept(&mut self, id: u32, s: usize) {
        let touches = self.insts[id as usize].touches;
        self.local_deps(s, touches);
        let inst = &self.insts[id as usize];
        let seq = self.seq_over_scratch(s).max(inst.seq0);
        let (leader, (d0, d1)) = (inst.leader as usize, inst.deps0);
        let from = self.reply_deps.len() as u32;
        let leader_deps = &self.deps0[d0 as usize..d1 as usize];
        // Both sorted: keep what the leader did not have.
        let mut k = 0;
        for &d in &self.scratch {
            while k < leader_deps.len() && leader_deps[k] < d {
                k += 1;
            }
            if leader_deps.get(k) != Some(&d) {
                self.reply_deps.push(d);
            }
        }
        let extras = (from, self.reply_deps.len() as u32);
        self.record(s, id);
        self.known_seq[id as usize * self.r + s] = seq;
        let reply = Event::PreAcceptReply {
            inst: id,
            extras,
            seq,
        };
        self.send(s, leader, reply);
    }

    /// The leader counts a reply; with a fast quorum it commits, or starts
    /// the Accept round if some reply changed the attributes.
    fn preaccept_reply(&mut self, id: u32, extras: (u32, u32), seq: u32) {
        let needed = self.spec.preaccept_replies();
        let inst = &mut self.insts[id as usize];
        if inst.replies as usize >= needed {
            return; // decided already; a late reply changes nothing
        }
        inst.extras[inst.replies as usize] = extras;
        inst.replies += 1;
        inst.changed |= extras.0 != extras.1 || seq != inst.seq0;
        inst.seq = inst.seq.max(seq);
        if (inst.replies as usize) < needed {
            return;
        }
        if !inst.changed {
            self.commit(id);
            return;
        }
        self.unite_deps(id);
        let inst = &mut self.insts[id as usize];
        inst.slow = true;
        let (leader, seq) = (inst.leader as usize, inst.seq);
        self.known_seq[id as usize * self.r + leader] = seq;
        for s in (0..self.r).filter(|&s| s != leader) {
            self.send(
                leader,
                s,
                Event::Accept {
                    inst: id,
                    to: s as u8,
                },
            );
        }
    }

    /// Slow path: the instance's dependencies become the union of the
    /// leader's and every counted reply's.
    fn unite_deps(&mut self, id: u32) {
        let inst = &self.insts[id as usize];
        self.scratch.clear();
        self.scratch
            .extend_from_slice(&self.deps0[inst.deps0.0 as usize..inst.deps0.1 as usize]);
        for &(a, b) in &inst.extras[..inst.replies as usize] {
            self.scratch
                .extend_from_slice(&self.reply_deps[a as usize..b as usize]);
        }
        self.scratch.sort_unstable();
        self.scratch.dedup();
        let from = self.final_deps.len() as u32;
        self.final_deps.extend_from_slice(&self.scratch);
        self.insts[id as usize].deps = (from, self.final_deps.len() as u32);
    }

    fn accept(&mut self, id: u32, s: usize) {
        let inst = &self.insts[id as usize];
        self.known_seq[id as usize * self.r + s] = inst.seq;
        let leader = inst.leader as usize;
        self.send(s, leader, Event::AcceptReply { inst: id });
    }

    fn accept_reply(&mut self, id: u32) {
        let inst = &mut self.insts[id as usize];
        inst.accept_replies += 1;
        if inst.accept_replies as usize == self.spec.accept_replies() {
            self.commit(id);
        }
    }

    /// The leader commits `id` now (commit order is the order of these
    /// calls) and tells everyone.
    fn commit(&mut self, id: u32) {
        self.committed.push(id);
        let inst = &mut self.insts[id as usize];
        inst.commit_ns = self.now_ns;
        let (leader, seq) = (inst.leader as usize, inst.seq);
        self.known_seq[id as usize * self.r + leader] = seq;
        for s in (0..self.r).filter(|&s| s != leader) {
            self.send(
                leader,
                s,
                Event::Commit {
                    inst: id,
                    to: s as u8,
                },
            );
        }
    }

    fn learn_commit(&mut self, id: u32, s: usize) {
        self.known_seq[id as usize * self.r + s] = self.insts[id as usize].seq;
    }

    /// The stream in commit order, dependencies renamed to commit
    /// positions and sorted.
    fn finish(self) -> Simulation {
        let n = self.committed.len();
        // No failures: every instance gets every reply, so all commit.
        debug_assert_eq!(n, self.insts.len());
        let mut pos = vec![NONE; self.insts.len()];
        for (k, &id) in self.committed.iter().enumerate() {
            pos[id as usize] = k as u32;
        }
        let mut stream = CommitStream::default();
        let mut meta = Vec::with_capacity(n);
        let mut deps = Vec::new();
        for &id in &self.committed {
            let inst = &self.insts[id as usize];
            let arena = if inst.slow {
                &self.final_deps
            } else {
                &self.deps0
            };
            deps.clear();
            deps.extend(
                arena[inst.deps.0 as usize..inst.deps.1 as usize]
                    .iter()
                    .map(|&d| pos[d as usize]),
            );
            deps.sort_unstable();
            let commands = &self.inst_commands[inst.commands.0 as usize..inst.commands.1 as usize];
            stream.push(commands, inst.seq.into(), &deps);
            meta.push(InstanceMeta {
                leader: inst.leader,
                proposed_seq: inst.seq0.into(),
                slow_path: inst.slow,
                propose_ns: inst.propose_ns,
                commit_ns: inst.commit_ns,
            });
        }
        Simulation { stream, meta }
    }
}

/// Append `items` to `arena`; their range in it. Arenas stay below
/// `u32::MAX` entries: commands and touches by the input limits, dependency
/// lists by [`MAX_SIM_DEPS`] (see [`Sim::run`]).
fn append<T: Copy>(arena: &mut Vec<T>, items: &[T]) -> (u32, u32) {
    let from = arena.len() as u32;
    arena.extend_from_slice(items);
    (from, arena.len() as u32)
}

/// SplitMix64's output for state `x`: a well-mixed hash of `x`.
fn hash(x: u64) -> u64 {
    SplitMix64::new(x).next_u64()
}

/// How many SCCs of each size (in instances) a stream has.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct SccHistogram {
    /// `(size, count)`, increasing size.
    pub sizes: Vec<(u32, u32)>,
    /// Number of SCCs.
    pub sccs: u32,
    /// Number of instances.
    pub instances: u32,
    /// Size of the largest SCC (0 for an empty stream).
    pub largest: u32,
}

impl SccHistogram {
    /// Instances that belong to an SCC of more than one instance.
    pub fn in_cycles(&self) -> u32 {
        self.sizes
            .iter()
            .filter(|(s, _)| *s > 1)
            .map(|(s, c)| s * c)
            .sum()
    }
}

/// SCC size distribution of a dependency graph over instances (a
/// [`CommitStream`] or a stream's [`crate::stream::CommitTable`]).
pub fn scc_histogram<G: Graph + ?Sized>(stream: &G) -> Result<SccHistogram, TarjanError> {
    let mut tarjan = Tarjan::new();
    let list = tarjan.run_all(stream, |_| Admit::Visit)?;
    let mut sizes = BTreeMap::new();
    for comp in list.iter() {
        *sizes.entry(comp.len() as u32).or_insert(0u32) += 1;
    }
    Ok(SccHistogram {
        largest: sizes.keys().next_back().copied().unwrap_or(0),
        sizes: sizes.into_iter().collect(),
        sccs: list.len() as u32,
        instances: stream.node_count() as u32,
    })
}

/// The canonical execution order of a complete stream, as instance
/// positions: the engine's one definition
/// ([`crate::stream::commits_canonical`]), run on this stream's table.
pub fn execution_order(stream: &CommitStream) -> Vec<u32> {
    let table = stream.table();
    let (requests, _) = crate::stream::commits_canonical(&table);
    let mut order: Vec<u32> = Vec::with_capacity(stream.len());
    for r in requests {
        let i = table.instance_of(r);
        if order.last() != Some(&i) {
            order.push(i);
        }
    }
    order
}

/// JSON shape of a commit stream: instances in commit order. Written by
/// [`CommitStream::to_json_shape`]; read back (from this lab or from
/// another ePaxos implementation's log) with
/// [`CommitStream::from_json_shape`], which checks what types cannot.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CommitStreamJson {
    /// Committed instances, in commit order.
    pub instances: Vec<InstanceJson>,
}

/// One committed instance.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct InstanceJson {
    /// Its batch: indices of requests in client order (at least one; over
    /// the stream, each index of `0..total` exactly once).
    pub commands: Vec<u32>,
    /// Its sequence number (orders instances inside an SCC).
    pub seq: u64,
    /// Instances it depends on, by position in `instances` (earlier or
    /// later, never itself, each once).
    #[serde(default)]
    pub deps: Vec<u32>,
}

/// A commit stream read from JSON broke an invariant; `path` names the
/// offending value (`instances[3].deps[1]`), as the scenario diagnostics
/// do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShapeError {
    pub path: String,
    pub message: String,
}

impl fmt::Display for ShapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

impl std::error::Error for ShapeError {}

fn shape_err(path: String, message: String) -> ShapeError {
    ShapeError { path, message }
}

impl CommitStream {
    /// The JSON shape of this stream.
    pub fn to_json_shape(&self) -> CommitStreamJson {
        CommitStreamJson {
            instances: (0..self.len())
                .map(|i| InstanceJson {
                    commands: self.commands(i).to_vec(),
                    seq: self.seq(i),
                    deps: self.deps(i).to_vec(),
                })
                .collect(),
        }
    }

    /// Check `json` and build the stream. Dependencies keep their listed
    /// order (it decides the search order, hence the order of independent
    /// SCCs).
    pub fn from_json_shape(json: &CommitStreamJson) -> Result<Self, ShapeError> {
        let n = json.instances.len();
        if n > MAX_COMMANDS {
            return Err(shape_err(
                "instances".into(),
                format!("{n} instances exceed the limit of {MAX_COMMANDS}"),
            ));
        }
        let total: usize = json.instances.iter().map(|i| i.commands.len()).sum();
        if total > MAX_COMMANDS {
            return Err(shape_err(
                "instances".into(),
                format!("{total} commands exceed the limit of {MAX_COMMANDS}"),
            ));
        }
        let deps: usize = json.instances.iter().map(|i| i.deps.len()).sum();
        if deps > MAX_STREAM_DEPS {
            return Err(shape_err(
                "instances".into(),
                format!("{deps} dependencies exceed the limit of {MAX_STREAM_DEPS}"),
            ));
        }
        // Where each command and each dependency was first seen.
        let mut command_at = vec![(NONE, NONE); total];
        let mut dep_at = vec![(NONE, NONE); n];
        let mut stream = CommitStream::default();
        for (i, inst) in json.instances.iter().enumerate() {
            let here = format!("instances[{i}]");
            if inst.commands.is_empty() {
                return Err(shape_err(
                    format!("{here}.commands"),
                    "expected at least one command (an instance is a non-empty batch)".into(),
                ));
            }
            for (k, &c) in inst.commands.iter().enumerate() {
                let path = format!("{here}.commands[{k}]");
                let Some(seen) = command_at.get_mut(c as usize) else {
                    return Err(shape_err(
                        path,
                        format!(
                            "command {c} out of range: the stream holds {total} commands, \
                             numbered 0..{total}"
                        ),
                    ));
                };
                if seen.0 != NONE {
                    let (a, b) = *seen;
                    return Err(shape_err(
                        path,
                        format!("command {c} already in instances[{a}].commands[{b}]"),
                    ));
                }
                *seen = (i as u32, k as u32);
            }
            for (k, &d) in inst.deps.iter().enumerate() {
                let path = format!("{here}.deps[{k}]");
                let Some(seen) = dep_at.get_mut(d as usize) else {
                    return Err(shape_err(
                        path,
                        format!("instance {d} does not exist: the stream has {n} instances"),
                    ));
                };
                if d as usize == i {
                    return Err(shape_err(
                        path,
                        "an instance cannot depend on itself".into(),
                    ));
                }
                if seen.0 == i as u32 {
                    return Err(shape_err(
                        path,
                        format!("instance {d} listed twice (also at deps[{}])", seen.1),
                    ));
                }
                *seen = (i as u32, k as u32);
            }
            stream.push(&inst.commands, inst.seq, &inst.deps);
        }
        Ok(stream)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Paper 004's list: each command writes the list with probability
    /// `write_pct` percent, else reads it.
    fn list_workload(seed: u64, n: usize, write_pct: u64) -> FlatFootprints {
        let mut rng = SplitMix64::new(seed);
        let writes: Vec<bool> = (0..n).map(|_| rng.below(100) < write_pct).collect();
        FlatFootprints::single_list(&writes).unwrap()
    }

    /// Key-value commands: each touches 1-3 of `keys` cells, each touch a
    /// write with probability `write_pct` percent.
    fn kv_workload(seed: u64, n: usize, keys: u64, write_pct: u64) -> FlatFootprints {
        let mut rng = SplitMix64::new(seed);
        let mut out = FlatFootprints::new();
        let mut fp = Vec::new();
        for _ in 0..n {
            fp.clear();
            for _ in 0..1 + rng.below(3) {
                fp.push((rng.below(keys) * 1_000_003, rng.below(100) < write_pct));
            }
            out.push(&fp).unwrap();
        }
        out
    }

    /// A spec where replicas propose concurrently often: no batching
    /// timer, commands every 2 µs, messages 50-70 µs.
    fn busy_spec(seed: u64, replicas: u32) -> CommitSimSpec {
        CommitSimSpec {
            seed,
            replicas,
            batch_ns: 0,
            batch_jitter_ns: 0,
            batch_max: 1,
            arrival_gap_ns: 2_000,
            ..CommitSimSpec::default()
        }
    }

    /// Batch footprint of instance `i`: cell -> written.
    fn batch_footprint(fp: &FlatFootprints, s: &CommitStream, i: usize) -> BTreeMap<u64, bool> {
        let mut out = BTreeMap::new();
        for &c in s.commands(i) {
            for &(cell, w) in fp.footprint(c as usize) {
                *out.entry(cell).or_insert(false) |= w;
            }
        }
        out
    }

    fn interfere(a: &BTreeMap<u64, bool>, b: &BTreeMap<u64, bool>) -> bool {
        a.iter()
            .any(|(cell, &wa)| b.get(cell).is_some_and(|&wb| wa || wb))
    }

    /// Reachability closure over the dependency graph.
    fn closure(s: &CommitStream) -> Vec<Vec<bool>> {
        let n = s.len();
        let mut out = vec![vec![false; n]; n];
        for (root, row) in out.iter_mut().enumerate() {
            let mut todo = vec![root];
            while let Some(v) = todo.pop() {
                for &w in s.deps(v) {
                    if !row[w as usize] {
                        row[w as usize] = true;
                        todo.push(w as usize);
                    }
                }
            }
        }
        out
    }

    /// The first interfering pair with no dependency path either way.
    fn unordered_pair(fp: &FlatFootprints, s: &CommitStream) -> Option<(usize, usize)> {
        let reach = closure(s);
        let prints: Vec<_> = (0..s.len()).map(|i| batch_footprint(fp, s, i)).collect();
        for (a, row) in reach.iter().enumerate() {
            for (b, back) in reach.iter().enumerate().skip(a + 1) {
                if interfere(&prints[a], &prints[b]) && !row[b] && !back[a] {
                    return Some((a, b));
                }
            }
        }
        None
    }

    fn assert_well_formed(s: &CommitStream, commands: usize) {
        let back = CommitStream::from_json_shape(&s.to_json_shape()).unwrap();
        assert_eq!(&back, s);
        assert_eq!(s.command_count(), commands);
    }

    #[test]
    fn defaults_validate_and_bad_parameters_are_named() {
        CommitSimSpec::default().validate().unwrap();
        let bad = |f: fn(&mut CommitSimSpec)| {
            let mut s = CommitSimSpec::default();
            f(&mut s);
            match s.validate().unwrap_err() {
                CommitSimError::Spec { field, .. } => field,
                e => panic!("unexpected {e}"),
            }
        };
        assert_eq!(bad(|s| s.replicas = 0), "replicas");
        assert_eq!(bad(|s| s.replicas = 8), "replicas");
        assert_eq!(bad(|s| s.batch_max = 0), "batch_max");
        assert_eq!(bad(|s| s.batch_jitter_ns = 3_000_000), "batch_jitter_ns");
        assert_eq!(bad(|s| s.delay_ns = 2 * MAX_TIME_NS), "delay_ns");
        assert_eq!(bad(|s| s.arrival_gap_ns = u64::MAX), "arrival_gap_ns");
        let e = simulate(
            &list_workload(1, 10, 0),
            &CommitSimSpec {
                replicas: 9,
                ..Default::default()
            },
        )
        .unwrap_err();
        assert_eq!(e.to_string(), "replicas: expected 1..=7, found 9");
    }

    #[test]
    fn quorum_sizes_follow_epaxos() {
        let replies = |n| {
            CommitSimSpec {
                replicas: n,
                ..Default::default()
            }
            .preaccept_replies()
        };
        let accepts = |n| {
            CommitSimSpec {
                replicas: n,
                ..Default::default()
            }
            .accept_replies()
        };
        assert_eq!(
            (1..=7).map(replies).collect::<Vec<_>>(),
            vec![0, 1, 1, 2, 2, 3, 4]
        );
        assert_eq!(
            (1..=7).map(accepts).collect::<Vec<_>>(),
            vec![0, 1, 1, 2, 2, 3, 3]
        );
    }

    #[test]
    fn too_many_cells_is_an_error() {
        let cells: Vec<Vec<Touch>> = vec![(0..(MAX_VIEW_ENTRIES as u64 / 49 + 1))
            .map(|c| (c, true))
            .collect()];
        let spec = CommitSimSpec {
            replicas: 7,
            ..Default::default()
        };
        assert!(matches!(
            simulate(&cells[..], &spec),
            Err(CommitSimError::TooManyCells { .. })
        ));
    }

    #[test]
    fn same_seed_same_stream() {
        let fp = kv_workload(3, 3000, 50, 20);
        for spec in [CommitSimSpec::default(), busy_spec(9, 5)] {
            let a = simulate(&fp, &spec).unwrap();
            let b = simulate(&fp, &spec).unwrap();
            assert_eq!(a, b);
            assert_well_formed(&a.stream, 3000);
        }
    }

    #[test]
    fn no_writes_no_deps() {
        let fp = list_workload(1, 5000, 0);
        for spec in [CommitSimSpec::default(), busy_spec(2, 3), busy_spec(3, 7)] {
            let sim = simulate(&fp, &spec).unwrap();
            assert!(!sim.stream.is_empty());
            assert!((0..sim.stream.len()).all(|i| sim.stream.deps(i).is_empty()));
            assert!(sim.meta.iter().all(|m| !m.slow_path));
        }
    }

    #[test]
    fn all_writes_connect_every_pair() {
        let fp = list_workload(1, 600, 100);
        for spec in [busy_spec(4, 3), busy_spec(5, 5), CommitSimSpec::default()] {
            let s = simulate(&fp, &spec).unwrap().stream;
            let reach = closure(&s);
            for (a, row) in reach.iter().enumerate() {
                for (b, back) in reach.iter().enumerate().skip(a + 1) {
                    assert!(row[b] || back[a], "instances {a} and {b} unordered");
                }
            }
        }
    }

    #[test]
    fn collisions_make_cycles() {
        let fp = list_workload(1, 2000, 100);
        let sim = simulate(&fp, &busy_spec(6, 3)).unwrap();
        let h = scc_histogram(&sim.stream).unwrap();
        assert!(h.largest > 1, "no cycle in {h:?}");
        assert!(sim.meta.iter().any(|m| m.slow_path));
        // Some dependency names an instance committed later.
        let s = &sim.stream;
        assert!((0..s.len()).any(|i| s.deps(i).iter().any(|&d| d as usize > i)));
    }

    #[test]
    fn one_replica_never_cycles() {
        let fp = kv_workload(2, 2000, 10, 50);
        let sim = simulate(&fp, &busy_spec(1, 1)).unwrap();
        assert_eq!(scc_histogram(&sim.stream).unwrap().largest, 1);
        // A single leader commits in proposal order, each dependency earlier.
        let s = &sim.stream;
        assert!((0..s.len()).all(|i| s.deps(i).iter().all(|&d| (d as usize) < i)));
        assert_eq!(unordered_pair(&fp, s), None);
    }

    #[test]
    fn batching_reduces_instances() {
        let fp = list_workload(1, 10_000, 2);
        let single = simulate(
            &fp,
            &CommitSimSpec {
                batch_max: 1,
                ..Default::default()
            },
        )
        .unwrap();
        let batched = simulate(&fp, &CommitSimSpec::default()).unwrap();
        assert_eq!(single.stream.len(), 10_000);
        assert!(
            batched.stream.len() * 10 < single.stream.len(),
            "{}",
            batched.stream.len()
        );
        assert_well_formed(&batched.stream, 10_000);
        // batch_max caps a batch.
        let capped = simulate(
            &fp,
            &CommitSimSpec {
                batch_max: 40,
                ..Default::default()
            },
        )
        .unwrap();
        assert!((0..capped.stream.len()).all(|i| capped.stream.commands(i).len() <= 40));
    }

    #[test]
    fn commands_keep_client_order_within_a_leader() {
        let fp = list_workload(1, 4000, 10);
        let sim = simulate(&fp, &CommitSimSpec::default()).unwrap();
        for leader in 0..3u8 {
            let mut mine: Vec<(u64, u32)> = Vec::new();
            for (i, m) in sim.meta.iter().enumerate() {
                if m.leader == leader {
                    mine.extend(sim.stream.commands(i).iter().map(|&c| (m.propose_ns, c)));
                }
            }
            mine.sort();
            assert!(mine.windows(2).all(|w| w[0].1 < w[1].1));
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

        /// Interfering instances are always joined by a path; for every
        /// dependency a -> b, seq(a) > proposed_seq(b), hence seq(a) >
        /// seq(b) when b was fast; committed seq never below proposed.
        #[test]
        fn interference_and_seq_properties(
            seed in any::<u64>(),
            replicas in 1u32..=7,
            keys in 1u64..6,
            write_pct in 0u64..=100,
            batch_max in 1u32..4,
            gap_ns in 0u64..40_000,
        ) {
            let fp = kv_workload(seed, 150, keys, write_pct);
            let spec = CommitSimSpec {
                seed,
                replicas,
                batch_ns: 100_000,
                batch_jitter_ns: 50_000,
                batch_max,
                arrival_gap_ns: gap_ns,
                ..CommitSimSpec::default()
            };
            let sim = simulate(&fp, &spec).unwrap();
            let s = &sim.stream;
            assert_well_formed(s, 150);
            prop_assert_eq!(unordered_pair(&fp, s), None);
            for a in 0..s.len() {
                prop_assert!(s.seq(a) >= sim.meta[a].proposed_seq);
                if !sim.meta[a].slow_path {
                    prop_assert_eq!(s.seq(a), sim.meta[a].proposed_seq, "fast path changed seq");
                }
                for &b in s.deps(a) {
                    let b = b as usize;
                    prop_assert!(s.seq(a) > sim.meta[b].proposed_seq, "{} -> {}", a, b);
                    if !sim.meta[b].slow_path {
                        prop_assert!(s.seq(a) > s.seq(b));
                    }
                }
            }
            let order = execution_order(s);
            let mut sorted = order.clone();
            sorted.sort_unstable();
            prop_assert!(sorted.iter().copied().eq(0..s.len() as u32));
        }
    }

    /// The seq property above is as strong as it gets: with slow paths,
    /// some dependency between different SCCs has `seq(a) <= seq(b)`, so
    /// seq alone cannot order SCCs.
    #[test]
    fn seq_alone_does_not_order_sccs() {
        let fp = list_workload(1, 10_000, 25);
        let spec = CommitSimSpec {
            batch_max: 1,
            ..CommitSimSpec::default()
        };
        let sim = simulate(&fp, &spec).unwrap();
        let s = &sim.stream;
        let mut tarjan = Tarjan::new();
        let list = tarjan.run_all(s, |_| Admit::Visit).unwrap();
        let mut comp = vec![0; s.len()];
        for (k, members) in list.iter().enumerate() {
            members.iter().for_each(|&v| comp[v as usize] = k);
        }
        let inverted = (0..s.len()).find_map(|a| {
            s.deps(a)
                .iter()
                .map(|&b| b as usize)
                .find(|&b| comp[a] != comp[b] && s.seq(a) <= s.seq(b))
                .map(|b| (a, b))
        });
        let (a, b) = inverted.expect("no cross-SCC dependency with seq(a) <= seq(b)");
        assert!(
            sim.meta[b].slow_path,
            "{b} was fast, so seq({a}) > seq({b}) must hold"
        );
    }

    /// Paper 004 Fig. 1's shape as a commit stream (see the SCC test of
    /// the same name in `scc.rs`): SCCs A = {0, 1}, B = {2, 3, 4}, C = {5,
    /// 6}, D = {7}, E = {8}, F = {9, 10}; A -> B, C; B -> D, E; E -> F.
    fn fig1_stream() -> CommitStream {
        let (deps, seqs) = (crate::scc::FIG1_DEPS, crate::scc::FIG1_SEQS);
        let json = CommitStreamJson {
            instances: (0..11)
                .map(|i| InstanceJson {
                    commands: vec![i as u32],
                    seq: seqs[i],
                    deps: deps[i].to_vec(),
                })
                .collect(),
        };
        CommitStream::from_json_shape(&json).unwrap()
    }

    #[test]
    fn fig1_histogram_and_execution_order() {
        let s = fig1_stream();
        let h = scc_histogram(&s).unwrap();
        assert_eq!(h.sizes, vec![(1, 2), (2, 3), (3, 1)]);
        assert_eq!(
            (h.sccs, h.instances, h.largest, h.in_cycles()),
            (6, 11, 3, 9)
        );
        // Instances commit in order 0..=10. C runs once 6 commits (by seq:
        // 6 before 5); E (7, no dependencies) as soon as it commits; F once
        // 10 commits (10 before 9), then D (8) which waited for it, then B
        // (3, 4, 2) and A (1, 0), which waited for D.
        assert_eq!(execution_order(&s), vec![6, 5, 7, 10, 9, 8, 3, 4, 2, 1, 0]);
    }

    #[test]
    fn algorithm2_respects_deps_across_sccs_and_executes_each_once() {
        let fp = kv_workload(11, 1500, 4, 60);
        let s = simulate(&fp, &busy_spec(12, 3)).unwrap().stream;
        let order = execution_order(&s);
        let mut at = vec![usize::MAX; s.len()];
        for (k, &v) in order.iter().enumerate() {
            assert_eq!(at[v as usize], usize::MAX, "{v} executed twice");
            at[v as usize] = k;
        }
        let reach = closure(&s);
        for a in 0..s.len() {
            for &b in s.deps(a) {
                let b = b as usize;
                if !reach[b][a] {
                    assert!(
                        at[b] < at[a],
                        "{b} (a dependency of {a}, other SCC) ran after it"
                    );
                }
            }
        }
    }

    #[test]
    fn json_round_trip_through_text() {
        let fp = kv_workload(5, 400, 3, 30);
        let s = simulate(&fp, &busy_spec(5, 3)).unwrap().stream;
        let text = serde_json::to_string(&s.to_json_shape()).unwrap();
        let json: CommitStreamJson = serde_json::from_str(&text).unwrap();
        assert_eq!(CommitStream::from_json_shape(&json).unwrap(), s);
        // Omitted deps mean none; unknown fields are refused.
        let json: CommitStreamJson =
            serde_json::from_str(r#"{"instances":[{"commands":[0],"seq":1}]}"#).unwrap();
        assert_eq!(
            CommitStream::from_json_shape(&json).unwrap().deps(0),
            &[] as &[u32]
        );
        assert!(serde_json::from_str::<CommitStreamJson>(
            r#"{"instances":[{"commands":[0],"seq":1,"dep":[]}]}"#
        )
        .is_err());
    }

    #[test]
    fn json_errors_name_the_path() {
        let err = |text: &str| {
            let json: CommitStreamJson = serde_json::from_str(text).unwrap();
            CommitStream::from_json_shape(&json)
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            err(r#"{"instances":[{"commands":[0],"seq":1},{"commands":[],"seq":2}]}"#),
            "instances[1].commands: expected at least one command (an instance is a non-empty batch)"
        );
        assert_eq!(
            err(r#"{"instances":[{"commands":[0,2],"seq":1}]}"#),
            "instances[0].commands[1]: command 2 out of range: the stream holds 2 commands, numbered 0..2"
        );
        assert_eq!(
            err(r#"{"instances":[{"commands":[1,0],"seq":1},{"commands":[1],"seq":1}]}"#),
            "instances[1].commands[0]: command 1 already in instances[0].commands[0]"
        );
        assert_eq!(
            err(r#"{"instances":[{"commands":[1,0],"seq":1},{"commands":[0,2],"seq":1}]}"#),
            "instances[1].commands[0]: command 0 already in instances[0].commands[1]"
        );
        assert_eq!(
            err(r#"{"instances":[{"commands":[0],"seq":1,"deps":[1]}]}"#),
            "instances[0].deps[0]: instance 1 does not exist: the stream has 1 instances"
        );
        assert_eq!(
            err(r#"{"instances":[{"commands":[0],"seq":1,"deps":[0]}]}"#),
            "instances[0].deps[0]: an instance cannot depend on itself"
        );
        assert_eq!(
            err(
                r#"{"instances":[{"commands":[0],"seq":1,"deps":[1,1]},{"commands":[1],"seq":1}]}"#
            ),
            "instances[0].deps[1]: instance 1 listed twice (also at deps[0])"
        );
        // The same dependency in two different instances is fine.
        let json: CommitStreamJson = serde_json::from_str(
            r#"{"instances":[{"commands":[0],"seq":1,"deps":[2]},{"commands":[1],"seq":1,"deps":[2]},{"commands":[2],"seq":1}]}"#,
        )
        .unwrap();
        assert!(CommitStream::from_json_shape(&json).is_ok());
    }
}
