//! What every replicated application is: the [`Application`] trait, and
//! the FNV-1a hashing their responses and digests are made of.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::request::Op;

/// A deterministic state machine. Executing the same operations in the same
/// order on fresh instances gives the same responses and the same digest.
pub trait Application: Send + Sync {
    /// Execute one operation and return its response (encoded as a u64).
    fn execute(&self, op: &Op) -> u64;
    /// Digest of the whole state (order-sensitive hash of every shard).
    fn digest(&self) -> u64;
    /// Number of shards.
    fn shards(&self) -> usize;
    /// The work `op` does on the current state, for the virtual-cores cost
    /// model: a deterministic function of the operation and the state (so
    /// a virtual run stays deterministic), read just before it executes.
    fn work(&self, op: &Op) -> Work {
        let _ = op;
        Work {
            units: 1,
            spin_ns: 0,
        }
    }
    /// The cache lines of application data `op` touches beyond its cells
    /// (an event's data set), for the virtual-cores cache model: `None`
    /// when the cells say it all.
    fn data_lines(&self, op: &Op) -> Option<DataLines> {
        let _ = op;
        None
    }
}

/// A run of cache lines of application data: `count` lines from line
/// `first` of `region` (the app's numbering), written or only read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DataLines {
    pub region: u64,
    pub first: u32,
    pub count: u32,
    pub write: bool,
}

/// What executing one operation costs in the virtual-cores model: `units`
/// of application work (list nodes walked, keys touched) and `spin_ns` of
/// synthetic spinning, charged as exactly that much virtual time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Work {
    pub units: u64,
    pub spin_ns: u64,
}

/// FNV-1a step, used by the digests.
pub(crate) fn fnv(h: u64, v: u64) -> u64 {
    let mut h = h;
    for b in v.to_le_bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x100_0000_01b3);
    }
    h
}

pub(crate) const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// Digest of a row of cells: their values folded with FNV-1a in order.
///
/// Relaxed is enough: a digest is taken after the run's threads are
/// joined, and the join publishes every store.
pub(crate) fn digest_of(cells: &[AtomicU64]) -> u64 {
    cells
        .iter()
        .fold(FNV_OFFSET, |h, c| fnv(h, c.load(Ordering::Relaxed)))
}
