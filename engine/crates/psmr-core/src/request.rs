//! Requests as the scheduler receives them from the ordering layer.
//!
//! A request carries its class (a label for routing, display and weights),
//! its operation and its id. What it reads and writes (its footprint over
//! the application's cells) lives in the stream's side tables
//! ([`crate::stream::Stream::footprint`]), so a request stays small.

use serde::{Deserialize, Serialize};

use crate::class::ClassId;

/// Position of a request in its stream. Ids are dense, starting at 0: the
/// delivery order for total streams, commit order (instance by instance)
/// for commit streams, the canonical event-loop order for event streams.
pub type RequestId = u32;

/// A set of shards, at most 64 (the linked list's and spin app's global
/// operations name the shards they visit with it).
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
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }
    pub fn iter(self) -> impl Iterator<Item = usize> {
        (0..64).filter(move |s| self.contains(*s))
    }
    /// The shards as spans of cells (maximal runs of consecutive shards).
    pub fn spans(self, write: bool) -> impl Iterator<Item = crate::cell::Span> {
        let mut rest = self.0;
        std::iter::from_fn(move || {
            if rest == 0 {
                return None;
            }
            let lo = rest.trailing_zeros() as u64;
            let run = (rest >> lo).trailing_ones() as u64;
            let hi = lo + run - 1;
            rest &= if hi >= 63 {
                0
            } else {
                !((1u64 << (hi + 1)) - 1)
            };
            Some(crate::cell::Span { lo, hi, write })
        })
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
    /// Key-value store: read the keys in `start..start + len` that exist.
    KvScan { start: u64, len: u32 },
    /// Event handler: spin `ns` nanoseconds, then fold `tag` into `color`'s
    /// state.
    Event { color: u32, tag: u32, ns: u32 },
    /// Synthetic: spin for `ns` nanoseconds, reading or writing `shards`.
    Spin {
        ns: u32,
        shards: ShardSet,
        write: bool,
    },
}

/// One request of a stream.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Request {
    /// Position in the stream; `requests[i].id == i`.
    pub id: RequestId,
    /// The request's class: routing for the early family, a label for
    /// display and weights for everyone.
    pub class: ClassId,
    pub op: Op,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cell::Span;

    #[test]
    fn shard_sets_become_maximal_spans() {
        let s = ShardSet(0b1101_1000_0111);
        let v: Vec<Span> = s.spans(true).collect();
        assert_eq!(
            v,
            vec![Span::write(0, 2), Span::write(7, 8), Span::write(10, 11)]
        );
        assert_eq!(
            ShardSet::all(64).spans(false).collect::<Vec<_>>(),
            vec![Span::read(0, 63)]
        );
    }
}
