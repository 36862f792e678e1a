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
//! Values: a value is a `u64` *head* plus, when the store was built with
//! `value_bytes > 8`, a *body* of `value_bytes / 8 - 1` more words derived
//! from the head ([`fill_body`]). A write fills the whole body, a read and a
//! scan fold every word of it into their response, so the work of a request
//! grows with the value size as in a store of real values (paper 001 uses
//! 4 KB values). With the default 8 bytes there is no body and the store
//! behaves exactly as before.
//!
//! [`CellSpace::Keys`]: crate::cell::CellSpace::Keys

use std::collections::BTreeMap;
use std::sync::RwLock;

use super::application::{fnv, Application, Work, FNV_OFFSET};
use crate::request::Op;

/// Consecutive keys per block.
pub const BLOCK: u64 = 64;
/// Lock stripes.
pub const STRIPES: usize = 64;

/// Default bytes of a value: the head alone.
pub fn default_value_bytes() -> u32 {
    8
}

/// Largest value size, in bytes.
pub const MAX_VALUE_BYTES: u32 = 1 << 16;

/// One lock stripe: the heads of its keys and, for values longer than 8
/// bytes, their bodies (same keys).
#[derive(Debug, Default)]
struct Stripe {
    heads: BTreeMap<u64, u64>,
    bodies: BTreeMap<u64, Box<[u64]>>,
}

#[derive(Debug)]
pub struct KvStore {
    shards: usize,
    /// Words of a value's body (0 for 8-byte values).
    body_words: usize,
    stripes: Vec<RwLock<Stripe>>,
}

/// Fill a body from its head (a write's real work for long values).
fn fill_body(body: &mut [u64], head: u64) {
    let mut x = head;
    for w in body.iter_mut() {
        x = x.wrapping_mul(0x9e37_79b9_7f4a_7c15).wrapping_add(1);
        *w = x;
    }
}

/// Fold a body into `h` (a read's real work for long values).
fn fold_body(h: u64, body: Option<&[u64]>) -> u64 {
    body.map_or(h, |b| {
        b.iter()
            .fold(h, |h, w| (h ^ w).wrapping_mul(0x0100_0000_01b3))
    })
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
        Self::with_value_bytes(shards, keys, default_value_bytes())
    }

    /// A store whose values are `value_bytes` long (rounded up to whole
    /// 8-byte words, clamped to `8..=MAX_VALUE_BYTES`).
    pub fn with_value_bytes(shards: usize, keys: u64, value_bytes: u32) -> Self {
        let words = value_bytes.clamp(8, MAX_VALUE_BYTES).div_ceil(8) as usize;
        let store = KvStore {
            shards,
            body_words: words - 1,
            stripes: (0..STRIPES)
                .map(|_| RwLock::new(Stripe::default()))
                .collect(),
        };
        for k in 0..keys {
            store.write(k, |m| m.put(k, initial_value(k), store.body_words));
        }
        store
    }

    fn read<R>(&self, key: u64, f: impl FnOnce(&Stripe) -> R) -> R {
        f(&self.stripes[stripe_of(key)]
            .read()
            .unwrap_or_else(|p| p.into_inner()))
    }

    fn write<R>(&self, key: u64, f: impl FnOnce(&mut Stripe) -> R) -> R {
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
                for (k, v) in m.heads.range(lo..hi) {
                    h = fold_body(fnv(fnv(h, *k), *v), m.body(*k));
                }
            });
            block += 1;
        }
        h
    }
}

impl Stripe {
    /// Set `key` to `head` (and its body); the previous head, if any.
    fn put(&mut self, key: u64, head: u64, body_words: usize) -> Option<u64> {
        if body_words > 0 {
            let body = self
                .bodies
                .entry(key)
                .or_insert_with(|| vec![0; body_words].into_boxed_slice());
            fill_body(body, head);
        }
        self.heads.insert(key, head)
    }

    fn body(&self, key: u64) -> Option<&[u64]> {
        self.bodies.get(&key).map(|b| &b[..])
    }

    /// A read's response: the head folded with the body (`u64::MAX` when
    /// absent; just the head for 8-byte values).
    fn get(&self, key: u64) -> u64 {
        match self.heads.get(&key) {
            Some(&v) => match self.body(key) {
                Some(b) => fold_body(v, Some(b)),
                None => v,
            },
            None => u64::MAX,
        }
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
            Op::KvRead { key } => self.read(key, |m| m.get(key)),
            Op::KvWrite { key, value } => self.write(key, |m| {
                m.put(key, value, self.body_words).unwrap_or(u64::MAX)
            }),
            Op::KvInsert { key, value } => self.write(key, |m| {
                if m.heads.contains_key(&key) {
                    0
                } else {
                    m.put(key, value, self.body_words);
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
                .heads
                .iter()
                .fold(acc, |acc, (k, v)| {
                    acc.wrapping_add(fnv(fnv(FNV_OFFSET, *k), *v))
                })
        })
    }
    fn shards(&self) -> usize {
        self.shards
    }
    fn work(&self, op: &Op) -> Work {
        let units = match *op {
            Op::KvScan { len, .. } => len.max(1) as u64,
            _ => 1,
        };
        Work { units, spin_ns: 0 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::digests_after;

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
    fn long_values_are_written_and_read_whole() {
        let kv = KvStore::with_value_bytes(1, 10, 4096);
        let short = KvStore::new(1, 10);
        assert_eq!(kv.body_words, 511);
        // A read folds the 511 body words: differs from the bare head, and
        // equals folding a body filled from that head by hand.
        let mut body = vec![0u64; 511];
        fill_body(&mut body, initial_value(3));
        let want = fold_body(initial_value(3), Some(&body));
        assert_eq!(kv.execute(&Op::KvRead { key: 3 }), want);
        assert_ne!(want, short.execute(&Op::KvRead { key: 3 }));
        // A write refills the body.
        kv.execute(&Op::KvWrite { key: 3, value: 5 });
        fill_body(&mut body, 5);
        assert_eq!(
            kv.execute(&Op::KvRead { key: 3 }),
            fold_body(5, Some(&body))
        );
        assert_eq!(kv.execute(&Op::KvInsert { key: 20, value: 9 }), 1);
        fill_body(&mut body, 9);
        assert_eq!(
            kv.execute(&Op::KvRead { key: 20 }),
            fold_body(9, Some(&body))
        );
    }

    #[test]
    fn digest_depends_on_content_not_on_history() {
        let store = || KvStore::new(2, 10);
        let write = |key, value| Op::KvWrite { key, value };
        let one_two = [write(1, 7), write(2, 8)];
        let (a, b) = digests_after(store, &one_two, &[write(2, 8), write(1, 7)]);
        assert_eq!(a, b);
        let rewritten = [write(2, 8), write(1, 7), write(1, 6)];
        let (a, b) = digests_after(store, &one_two, &rewritten);
        assert_ne!(a, b);
    }
}
