//! The simulator: ePaxos's ordering phase played among a few replicas in
//! simulated time (the model is the one described in [`super`]).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::commit_stream::CommitStream;
use super::limits::{MAX_COMMANDS, MAX_REPLICAS, MAX_SIM_DEPS, MAX_TOUCHES, MAX_VIEW_ENTRIES};
use super::spec::{CommitSimError, CommitSimSpec, Footprints};
use crate::rng::SplitMix64;

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
        self.insts[id as usize].slow = true;
        self.leader_sends(id, |inst, to| Event::Accept { inst, to });
    }

    /// The leader of `id` knows the instance's current seq and sends
    /// `message(id, to)` to every other replica `to` (an Accept or a Commit
    /// round), in replica order.
    fn leader_sends(&mut self, id: u32, message: fn(u32, u8) -> Event) {
        let inst = &self.insts[id as usize];
        let (leader, seq) = (inst.leader as usize, inst.seq);
        self.known_seq[id as usize * self.r + leader] = seq;
        for s in (0..self.r).filter(|&s| s != leader) {
            self.send(leader, s, message(id, s as u8));
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
        self.insts[id as usize].commit_ns = self.now_ns;
        self.leader_sends(id, |inst, to| Event::Commit { inst, to });
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

#[cfg(test)]
pub(crate) mod tests {
    use std::collections::BTreeMap;

    use super::super::commit_stream::CommitStream;
    use super::super::limits::{MAX_TIME_NS, MAX_VIEW_ENTRIES};
    use super::super::sccs::{execution_order, scc_histogram};
    use super::super::spec::{FlatFootprints, Touch};
    use super::*;
    use crate::scc::{Admit, Tarjan};
    use proptest::prelude::*;

    /// Paper 004's list: each command writes the list with probability
    /// `write_pct` percent, else reads it.
    pub(crate) fn list_workload(seed: u64, n: usize, write_pct: u64) -> FlatFootprints {
        let mut rng = SplitMix64::new(seed);
        let writes: Vec<bool> = (0..n).map(|_| rng.below(100) < write_pct).collect();
        FlatFootprints::single_list(&writes).unwrap()
    }

    /// Key-value commands: each touches 1-3 of `keys` cells, each touch a
    /// write with probability `write_pct` percent.
    pub(crate) fn kv_workload(seed: u64, n: usize, keys: u64, write_pct: u64) -> FlatFootprints {
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
    pub(crate) fn busy_spec(seed: u64, replicas: u32) -> CommitSimSpec {
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
    pub(crate) fn closure(s: &CommitStream) -> Vec<Vec<bool>> {
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
        let with_batch_max = |batch_max| {
            let spec = CommitSimSpec {
                batch_max,
                ..Default::default()
            };
            simulate(&fp, &spec).unwrap()
        };
        let single = with_batch_max(1);
        let batched = simulate(&fp, &CommitSimSpec::default()).unwrap();
        assert_eq!(single.stream.len(), 10_000);
        assert!(
            batched.stream.len() * 10 < single.stream.len(),
            "{}",
            batched.stream.len()
        );
        assert_well_formed(&batched.stream, 10_000);
        // batch_max caps a batch.
        let capped = with_batch_max(40);
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
}
