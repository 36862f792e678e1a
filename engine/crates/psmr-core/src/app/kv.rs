//! An ordered key-value store partitioned by key range (papers 001, 000).
//!
//! Keys `0..keys` are split into `shards` contiguous ranges; each shard is a
//! `BTreeMap` behind its own lock. A scan reads consecutive keys and may
//! cross shard boundaries (it then touches several shards).

use std::collections::BTreeMap;
use std::sync::RwLock;

use super::{fnv, Application, FNV_OFFSET};
use crate::request::{Op, ShardSet};

#[derive(Debug)]
pub struct KvStore {
    keys: u64,
    shards: Vec<RwLock<BTreeMap<u64, u64>>>,
}

impl KvStore {
    pub fn new(shards: usize, keys: u64) -> Self {
        let store = KvStore {
            keys: keys.max(1),
            shards: (0..shards).map(|_| RwLock::new(BTreeMap::new())).collect(),
        };
        for k in 0..keys {
            let s = store.shard_of(k);
            store.shards[s]
                .write()
                .unwrap_or_else(|p| p.into_inner())
                .insert(k, k.wrapping_mul(2_654_435_761));
        }
        store
    }

    /// The shard holding `key` (contiguous ranges; keys past the preloaded
    /// range go to the last shard).
    pub fn shard_of(&self, key: u64) -> usize {
        shard_of(key, self.keys, self.shards.len())
    }
}

/// Range partitioning shared with the workload generator.
pub fn shard_of(key: u64, keys: u64, shards: usize) -> usize {
    let per = keys.max(1).div_ceil(shards as u64).max(1);
    ((key / per) as usize).min(shards - 1)
}

/// Shards a scan of `len` keys from `start` touches.
pub fn scan_shards(start: u64, len: u32, keys: u64, shards: usize) -> ShardSet {
    let first = shard_of(start, keys, shards);
    let last = shard_of(start.saturating_add(len.max(1) as u64 - 1), keys, shards);
    (first..=last).fold(ShardSet::EMPTY, |s, i| s.union(ShardSet::single(i)))
}

impl Application for KvStore {
    fn execute(&self, op: &Op) -> u64 {
        match *op {
            Op::KvRead { key } => {
                let m = self.shards[self.shard_of(key)]
                    .read()
                    .unwrap_or_else(|p| p.into_inner());
                m.get(&key).copied().unwrap_or(u64::MAX)
            }
            Op::KvWrite { key, value } => {
                let mut m = self.shards[self.shard_of(key)]
                    .write()
                    .unwrap_or_else(|p| p.into_inner());
                m.insert(key, value).unwrap_or(u64::MAX)
            }
            Op::KvInsert { key, value } => {
                let mut m = self.shards[self.shard_of(key)]
                    .write()
                    .unwrap_or_else(|p| p.into_inner());
                match m.entry(key) {
                    std::collections::btree_map::Entry::Occupied(_) => 0,
                    std::collections::btree_map::Entry::Vacant(v) => {
                        v.insert(value);
                        1
                    }
                }
            }
            Op::KvScan { start, len } => {
                let end = start.saturating_add(len as u64);
                let mut h = FNV_OFFSET;
                for s in scan_shards(start, len, self.keys, self.shards.len()).iter() {
                    let m = self.shards[s].read().unwrap_or_else(|p| p.into_inner());
                    for (k, v) in m.range(start..end) {
                        h = fnv(fnv(h, *k), *v);
                    }
                }
                h
            }
            ref other => panic!(
                "key-value store cannot execute {other:?}: the workload generator never builds it"
            ),
        }
    }
    fn digest(&self) -> u64 {
        self.shards.iter().fold(FNV_OFFSET, |h, s| {
            s.read()
                .unwrap_or_else(|p| p.into_inner())
                .iter()
                .fold(h, |h, (k, v)| fnv(fnv(h, *k), *v))
        })
    }
    fn shards(&self) -> usize {
        self.shards.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn range_partitioning_and_scans() {
        assert_eq!(shard_of(0, 100, 4), 0);
        assert_eq!(shard_of(25, 100, 4), 1);
        assert_eq!(shard_of(99, 100, 4), 3);
        assert_eq!(scan_shards(20, 10, 100, 4), ShardSet(0b11));
        let kv = KvStore::new(4, 100);
        assert_eq!(kv.execute(&Op::KvInsert { key: 5, value: 1 }), 0);
        assert_eq!(kv.execute(&Op::KvInsert { key: 500, value: 1 }), 1);
        assert_eq!(
            kv.execute(&Op::KvWrite { key: 5, value: 9 }),
            5u64.wrapping_mul(2_654_435_761)
        );
        assert_eq!(kv.execute(&Op::KvRead { key: 5 }), 9);
    }
}
