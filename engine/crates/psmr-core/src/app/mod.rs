//! Replicated applications: real state, real work.
//!
//! An application is shared by all worker threads of a run. Schedulers
//! guarantee that conflicting operations never run at the same time; the
//! applications still guard each shard with an `RwLock` so that a broken
//! scheduler cannot cause undefined behaviour (the oracle reports it
//! instead). Uncontended, those locks cost one atomic operation.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::class::ClassTable;
use crate::request::Op;

pub(crate) mod kv;
mod list;
mod spin;

pub use kv::KvStore;
pub use list::ShardedList;
pub use spin::SpinApp;

/// A deterministic state machine. Executing the same operations in the same
/// order on fresh instances gives the same responses and the same digest.
pub trait Application: Send + Sync {
    /// Execute one operation and return its response (encoded as a u64).
    fn execute(&self, op: &Op) -> u64;
    /// Digest of the whole state (order-sensitive hash of every shard).
    fn digest(&self) -> u64;
    /// Number of shards.
    fn shards(&self) -> usize;
}

/// Cost level of the linked list (papers 003/000: 1K, 10K, 100K entries).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ListCost {
    /// 1,000 entries per shard.
    Light,
    /// 10,000 entries per shard.
    Moderate,
    /// 100,000 entries per shard.
    Heavy,
}

impl ListCost {
    pub fn entries(self) -> u32 {
        match self {
            ListCost::Light => 1_000,
            ListCost::Moderate => 10_000,
            ListCost::Heavy => 100_000,
        }
    }
}

/// Which application a scenario runs, with its size.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum AppSpec {
    /// One linked list of integers per shard (papers 003, 000, 004).
    LinkedList {
        /// Number of shards (1..=64).
        #[serde(default = "one")]
        shards: usize,
        /// Entries per list: light (1K), moderate (10K) or heavy (100K).
        size: ListCost,
    },
    /// An ordered key-value store partitioned by key range (papers 001, 000).
    KvStore {
        /// Number of shards (1..=64).
        #[serde(default = "one")]
        shards: usize,
        /// Keys preloaded (0..keys).
        keys: u64,
    },
    /// Synthetic work: every request spins for `ns` nanoseconds.
    Spin {
        /// Number of shards (1..=64).
        #[serde(default = "one")]
        shards: usize,
        /// Busy time of one request, in nanoseconds.
        ns: u32,
    },
}

fn one() -> usize {
    1
}

impl AppSpec {
    pub fn shards(&self) -> usize {
        match *self {
            AppSpec::LinkedList { shards, .. }
            | AppSpec::KvStore { shards, .. }
            | AppSpec::Spin { shards, .. } => shards,
        }
    }
    /// The request classes of this application (local read/write per shard,
    /// global read/write).
    pub fn classes(&self) -> ClassTable {
        ClassTable::sharded(self.shards())
    }
    /// A fresh instance with its initial population.
    pub fn build(&self) -> Box<dyn Application> {
        match *self {
            AppSpec::LinkedList { shards, size } => {
                Box::new(ShardedList::new(shards, size.entries()))
            }
            AppSpec::KvStore { shards, keys } => Box::new(KvStore::new(shards, keys)),
            AppSpec::Spin { shards, ns } => Box::new(SpinApp::new(shards, ns)),
        }
    }
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
