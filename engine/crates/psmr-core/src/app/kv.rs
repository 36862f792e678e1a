//! An ordered key-value store (papers 001, 000).
//!
//! Requests conflict per key (the store's cell space is [`CellSpace::Keys`]);
//! a scan reads the key range it covers. The *range shards* (`shards`
//! contiguous key ranges of the preloaded keys, see [`shard_range`]) only
//! define the request classes the early family routes by; they are not how
//! the store is locked.
//!
//! Storage: keys are grouped in blocks of [`BLOCK`] consecutive keys, and
//! block `b` lives in stripe `b % STRIPES`, a `BTreeMap` behind its own
//! `RwLock`. Two workers touching different keys therefore rarely share a
//! lock (and never share one for long), whatever the range shards are; a
//! scan locks the few stripes its blocks map to, one at a time. The locks
//! only guard against undefined behaviour under a broken scheduler: a
//! correct one never runs conflicting requests at once, and the oracle
//! reports it when it does.
//!
//! [`CellSpace::Keys`]: crate::cell::CellSpace::Keys

use std::collections::BTreeMap;
use std::sync::RwLock;

use super::{fnv, Application, FNV_OFFSET};
use crate::request::Op;

/// Consecutive keys per block.
pub const BLOCK: u64 = 64;
/// Lock stripes.
pub const STRIPES: usize = 64;

#[derive(Debug)]
pub struct KvStore {
    shards: usize,
    stripes: Vec<RwLock<BTreeMap<u64, u64>>>,
}

fn stripe_of(key: u64) -> usize {
    ((key / BLOCK) % STRIPES as u64) as usize
}

/// Initial value of a preloaded key.
pub fn initial_value(key: u64) -> u64 {
    key.wrapping_mul(2_654_435_761)
}

impl KvStore {
    /// A store preloaded with keys `0..keys`; `shards` is reported for the
    /// classes (range shards), not used for locking.
    pub fn new(shards: usize, keys: u64) -> Self {
        let store = KvStore {
            shards,
            stripes: (0..STRIPES).map(|_| RwLock::new(BTreeMap::new())).collect(),
        };
        for k in 0..keys {
            store.write(k, |m| m.insert(k, initial_value(k)));
        }
        store
    }

    fn read<R>(&self, key: u64, f: impl FnOnce(&BTreeMap<u64, u64>) -> R) -> R {
        f(&self.stripes[stripe_of(key)]
            .read()
            .unwrap_or_else(|p| p.into_inner()))
    }

    fn write<R>(&self, key: u64, f: impl FnOnce(&mut BTreeMap<u64, u64>) -> R) -> R {
        f(&mut self.stripes[stripe_of(key)]
            .write()
            .unwrap_or_else(|p| p.into_inner()))
    }

    /// Hash of the existing keys in `start..start + len` and their values,
    /// in key order: block by block, each block's stripe locked while read.
    fn scan(&self, start: u64, len: u32) -> u64 {
        let end = start.saturating_add(len as u64);
        let mut h = FNV_OFFSET;
        let mut block = start / BLOCK;
        while block * BLOCK < end {
            let lo = (block * BLOCK).max(start);
            let hi = (block.saturating_add(1) * BLOCK).min(end);
            self.read(lo, |m| {
                for (k, v) in m.range(lo..hi) {
                    h = fnv(fnv(h, *k), *v);
                }
            });
            block += 1;
        }
        h
    }
}

/// The range shard holding `key` (contiguous ranges over the preloaded keys
/// `0..keys`; keys past them belong to the last shard).
pub fn shard_of(key: u64, keys: u64, shards: usize) -> usize {
    let per = keys.max(1).div_ceil(shards as u64).max(1);
    ((key / per) as usize).min(shards - 1)
}

/// The key range of range shard `s`, inclusive (the last one is open ended).
pub fn shard_range(s: usize, keys: u64, shards: usize) -> (u64, u64) {
    let per = keys.max(1).div_ceil(shards as u64).max(1);
    let lo = s as u64 * per;
    let hi = if s + 1 == shards {
        u64::MAX
    } else {
        lo + per - 1
    };
    (lo, hi)
}

impl Application for KvStore {
    fn execute(&self, op: &Op) -> u64 {
        match *op {
            Op::KvRead { key } => self.read(key, |m| m.get(&key).copied().unwrap_or(u64::MAX)),
            Op::KvWrite { key, value } => {
                self.write(key, |m| m.insert(key, value).unwrap_or(u64::MAX))
            }
            Op::KvInsert { key, value } => self.write(key, |m| match m.entry(key) {
                std::collections::btree_map::Entry::Occupied(_) => 0,
                std::collections::btree_map::Entry::Vacant(v) => {
                    v.insert(value);
                    1
                }
            }),
            Op::KvScan { start, len } => self.scan(start, len),
            ref other => panic!(
                "key-value store cannot execute {other:?}: the workload generator never builds it"
            ),
        }
    }
    /// Order-insensitive digest of the key/value pairs (a wrapping sum of
    /// per-pair hashes): equal states give equal digests whatever stripe
    /// holds which key.
    fn digest(&self) -> u64 {
        self.stripes.iter().fold(0u64, |acc, s| {
            s.read()
                .unwrap_or_else(|p| p.into_inner())
                .iter()
                .fold(acc, |acc, (k, v)| {
                    acc.wrapping_add(fnv(fnv(FNV_OFFSET, *k), *v))
                })
        })
    }
    fn shards(&self) -> usize {
        self.shards
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn range_shards() {
        assert_eq!(shard_of(0, 100, 4), 0);
        assert_eq!(shard_of(25, 100, 4), 1);
        assert_eq!(shard_of(99, 100, 4), 3);
        assert_eq!(shard_of(500, 100, 4), 3);
        assert_eq!(shard_range(1, 100, 4), (25, 49));
        assert_eq!(shard_range(3, 100, 4), (75, u64::MAX));
    }

    #[test]
    fn reads_writes_inserts_and_scans_across_blocks() {
        let kv = KvStore::new(4, 200);
        assert_eq!(kv.execute(&Op::KvInsert { key: 5, value: 1 }), 0);
        assert_eq!(kv.execute(&Op::KvInsert { key: 500, value: 1 }), 1);
        assert_eq!(
            kv.execute(&Op::KvWrite { key: 5, value: 9 }),
            initial_value(5)
        );
        assert_eq!(kv.execute(&Op::KvRead { key: 5 }), 9);
        // A scan over a block boundary sees the same pairs, in key order, as
        // a hash over them computed by hand.
        let expected = (60..70u64).fold(FNV_OFFSET, |h, k| fnv(fnv(h, k), initial_value(k)));
        assert_eq!(kv.execute(&Op::KvScan { start: 60, len: 10 }), expected);
    }

    #[test]
    fn digest_depends_on_content_not_on_history() {
        let a = KvStore::new(2, 10);
        let b = KvStore::new(2, 10);
        a.execute(&Op::KvWrite { key: 1, value: 7 });
        a.execute(&Op::KvWrite { key: 2, value: 8 });
        b.execute(&Op::KvWrite { key: 2, value: 8 });
        b.execute(&Op::KvWrite { key: 1, value: 7 });
        assert_eq!(a.digest(), b.digest());
        b.execute(&Op::KvWrite { key: 1, value: 6 });
        assert_ne!(a.digest(), b.digest());
    }
}
