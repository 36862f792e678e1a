//! A commit stream: committed ePaxos instances in commit order, stored
//! flat, and its dependency graph.

use crate::scc::Graph;

/// Committed instances in commit order, flat.
///
/// Instance `i` (its position in commit order) holds the input commands
/// `commands[command_start[i]..command_start[i + 1]]` (indices into the
/// client order, in the order its leader queued them), has sequence number
/// `seq[i]` and depends on the instances `deps[dep_start[i]..dep_start[i +
/// 1]]` (positions in commit order, possibly later ones).
///
/// Invariants (checked when read from JSON, established by [`super::simulate`]):
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

    /// Append an instance (the simulator and the JSON reader build streams
    /// this way, in commit order).
    pub(super) fn push(&mut self, commands: &[u32], seq: u64, deps: &[u32]) {
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
