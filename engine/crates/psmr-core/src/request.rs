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

/// A request field that names no request (an idle wait, a root's parent).
pub const NO_REQUEST: RequestId = RequestId::MAX;

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
    /// Event handler (paper 002): spin `ns` nanoseconds, touch `lines`
    /// cache lines of data set `set` from line `first` (rewriting them when
    /// `fill`, reading them otherwise), then fold `tag` and what it read
    /// into `color`'s state. See [`EventOp`].
    Event(EventOp),
    /// Synthetic: spin for `ns` nanoseconds, reading or writing `shards`.
    Spin {
        ns: u32,
        shards: ShardSet,
        write: bool,
    },
}

/// Where an event goes when its color has no event pending or running on
/// any core (a color with pending events always goes to the core that holds
/// them: that is what keeps one color on one core at a time).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Home {
    /// Core `color mod cores` (Libasync-smp's hashing of colors).
    #[default]
    Hash,
    /// The core that registers it (a delivered root: core 0).
    Near,
    /// Core `k mod cores`.
    Core(u16),
}

impl Home {
    /// The core a free color goes to, among `cores`, when `from` registers
    /// it (`None`: the delivering thread, which is no core).
    pub fn core(self, color: u32, from: Option<usize>, cores: usize) -> usize {
        let cores = cores.max(1);
        match self {
            Home::Hash => color as usize % cores,
            Home::Near => from.unwrap_or(0) % cores,
            Home::Core(k) => k as usize % cores,
        }
    }
}

/// One event of an event stream (paper 002): the work its handler does and
/// the programmer's annotations on that handler.
///
/// * Work: spin `ns`, then touch `lines` 64-byte lines of data set `set`
///   starting at line `first` (`lines == 0`: no data).
/// * `handler` indexes the workload's handler table (for names in views).
/// * `cost_ns`: the handler's annotated average processing time (section
///   III-B: profiled, then written on the handler), which Mely's time-left
///   heuristic adds up per color.
/// * `penalty`: the handler's stealing penalty (section III-C, at least 1):
///   Mely's penalty-aware heuristic counts the event as `cost_ns / penalty`.
/// * `home`: where the event goes if its color is free ([`Home`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventOp {
    pub color: u32,
    pub tag: u32,
    pub ns: u32,
    pub set: u32,
    pub first: u32,
    pub lines: u32,
    pub cost_ns: u32,
    pub penalty: u16,
    pub handler: u8,
    pub fill: bool,
    pub home: Home,
}

impl EventOp {
    /// An event that only spins `ns` and folds `tag` into `color` (no data,
    /// annotated with its own cost, penalty 1, hashed home).
    pub fn spin(color: u32, tag: u32, ns: u32) -> Self {
        EventOp {
            color,
            tag,
            ns,
            set: 0,
            first: 0,
            lines: 0,
            cost_ns: ns,
            penalty: 1,
            handler: 0,
            fill: false,
            home: Home::Hash,
        }
    }
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

    /// Events carry their work and annotations in the request itself; the
    /// operation must stay small (it is stored once per request).
    #[test]
    fn an_operation_fits_in_forty_bytes() {
        assert!(
            std::mem::size_of::<Op>() <= 40,
            "{}",
            std::mem::size_of::<Op>()
        );
    }

    #[test]
    fn a_free_color_goes_home() {
        assert_eq!(Home::Hash.core(7, Some(0), 4), 3);
        assert_eq!(Home::Near.core(7, Some(2), 4), 2);
        assert_eq!(Home::Near.core(7, None, 4), 0);
        assert_eq!(Home::Core(6).core(7, Some(1), 4), 2);
        assert_eq!(Home::Core(6).core(7, Some(1), 0), 0, "no cores: core 0");
    }

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
