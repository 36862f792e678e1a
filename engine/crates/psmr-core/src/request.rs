//! Requests as the scheduler receives them from the ordering layer.

use serde::{Deserialize, Serialize};

use crate::class::ClassId;

/// Position of a request in the delivery order. Request `i` is the `i`-th
/// request delivered; ids are dense, starting at 0.
pub type RequestId = u32;

/// A set of shards (partitions of the application state), at most 64.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ShardSet(pub u64);

impl ShardSet {
    /// Largest number of shards any application may have.
    pub const MAX_SHARDS: usize = 64;
    pub const EMPTY: ShardSet = ShardSet(0);

    pub fn single(shard: usize) -> Self {
        debug_assert!(shard < Self::MAX_SHARDS);
        ShardSet(1u64 << shard)
    }
    /// Shards `0..n`.
    pub fn all(n: usize) -> Self {
        debug_assert!(n <= Self::MAX_SHARDS);
        if n == 64 {
            ShardSet(u64::MAX)
        } else {
            ShardSet((1u64 << n) - 1)
        }
    }
    pub fn contains(self, shard: usize) -> bool {
        shard < 64 && self.0 & (1u64 << shard) != 0
    }
    pub fn intersects(self, other: ShardSet) -> bool {
        self.0 & other.0 != 0
    }
    pub fn union(self, other: ShardSet) -> ShardSet {
        ShardSet(self.0 | other.0)
    }
    pub fn is_superset(self, other: ShardSet) -> bool {
        other.0 & !self.0 == 0
    }
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }
    pub fn iter(self) -> impl Iterator<Item = usize> {
        (0..64).filter(move |s| self.contains(*s))
    }
}

/// What a request reads and writes, at shard granularity. Two requests
/// conflict when one writes a shard the other reads or writes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Access {
    pub reads: ShardSet,
    pub writes: ShardSet,
}

impl Access {
    /// Shards touched at all.
    pub fn touched(self) -> ShardSet {
        self.reads.union(self.writes)
    }
    /// The read/write conflict test (paper 003, Definition 1): at least one
    /// side writes a shard the other touches.
    pub fn conflicts_with(self, other: Access) -> bool {
        self.writes.intersects(other.touched()) || other.writes.intersects(self.touched())
    }
}

/// The operation a request carries. Each variant is executed by the
/// application named in its comment; cost parameters live in the app.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Op {
    /// Linked list: does `shard`'s list contain `key`?
    ListContains { shard: u16, key: u32 },
    /// Linked list: add `key` to `shard`'s list (no-op if present).
    ListAdd { shard: u16, key: u32 },
    /// Linked list: does every shard's list contain `key`? (global read)
    ListContainsAll { key: u32 },
    /// Linked list: add `key` to every shard's list. (global write)
    ListAddAll { key: u32 },
    /// Key-value store: read `key`.
    KvRead { key: u64 },
    /// Key-value store: overwrite `key` with `value` (upsert).
    KvWrite { key: u64, value: u64 },
    /// Key-value store: insert `key` if absent.
    KvInsert { key: u64, value: u64 },
    /// Key-value store: read `len` consecutive keys from `start`.
    KvScan { start: u64, len: u32 },
    /// Synthetic: spin for `ns` nanoseconds, reading or writing `shards`.
    Spin {
        ns: u32,
        shards: ShardSet,
        write: bool,
    },
}

/// One delivered request.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Request {
    /// Delivery position; `requests[i].id == i`.
    pub id: RequestId,
    /// The request's class. Invariant: the class's access covers `access`
    /// (`class.reads ⊇ access.reads`, `class.writes ⊇ access.writes`).
    pub class: ClassId,
    pub op: Op,
    /// The shards this particular request reads and writes.
    pub access: Access,
}
