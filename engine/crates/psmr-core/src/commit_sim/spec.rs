//! The simulator's input: commands by footprint, and the parameters of
//! the simulated replicas ([`CommitSimSpec`]), with the errors a bad input
//! or spec gives.

use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::limits::{MAX_BATCH, MAX_COMMANDS, MAX_REPLICAS, MAX_TIME_NS, MAX_TOUCHES};

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
    /// The dependency lists of a simulation outgrew
    /// [`MAX_SIM_DEPS`](super::limits::MAX_SIM_DEPS) (every write depends on
    /// each leader's reads since that leader's last write, so long runs of
    /// reads between rare writes add up).
    TooManyDeps { deps: usize, max: usize },
    /// `replicas² × distinct cells` exceeds
    /// [`MAX_VIEW_ENTRIES`](super::limits::MAX_VIEW_ENTRIES).
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
