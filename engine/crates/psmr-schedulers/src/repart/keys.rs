//! Keys as dense indices, and the partition map over them.
//!
//! The partitioned store of paper 001 owns *keys*: the partition map says
//! which worker holds each key, and the workload graph has a vertex per key.
//! [`KeyIndex`] numbers every key a stream's footprints cover `0..keys`, in
//! key order (a scan's range `[lo, hi]` becomes the contiguous index range
//! of its keys), so the map and the graph are flat vectors. Numbering the
//! keys before the run is what a hash map from key to partition does at run
//! time; it is not part of the measured scheduling.
//!
//! [`PartitionMap`] is the map itself: the owner of each key index, keys
//! placed round-robin the first time a request names them (paper 001
//! section 3), replaced key by key when a new partition arrives.

use psmr_core::{CellSpace, RequestId, Stream};

/// Most distinct keys a run may track (vertices of the workload graph).
pub const MAX_KEYS: u64 = 1 << 25;

/// A key index range `[start, end)` one footprint span covers.
pub type KeyRange = (u32, u32);

/// Dense numbering of the keys a stream touches, and each request's key
/// ranges.
///
/// Invariants: `lo`/`hi` are disjoint, non-adjacent inclusive intervals in
/// increasing order; `base[i]` is the index of key `lo[i]`; request `r`'s
/// ranges are `ranges[start[r]..start[r+1]]`.
#[derive(Clone, Debug, Default)]
pub struct KeyIndex {
    lo: Vec<u64>,
    hi: Vec<u64>,
    base: Vec<u32>,
    keys: u32,
    start: Vec<u32>,
    ranges: Vec<KeyRange>,
}

impl KeyIndex {
    /// Number the keys of `stream` (a key-value stream). Errors when it
    /// covers more than [`MAX_KEYS`] keys.
    pub fn new(stream: &Stream) -> Result<Self, String> {
        if stream.space != CellSpace::Keys {
            return Err("the repartitioning schedulers run on key-value streams".into());
        }
        let mut spans: Vec<(u64, u64)> = (0..stream.len() as RequestId)
            .flat_map(|r| stream.footprint(r).iter().map(|s| (s.lo, s.hi)))
            .collect();
        spans.sort_unstable();
        let mut idx = KeyIndex::default();
        let mut total: u64 = 0;
        for (lo, hi) in spans {
            match idx.hi.last_mut() {
                Some(last) if lo <= last.saturating_add(1) => {
                    if hi > *last {
                        total += hi - *last;
                        *last = hi;
                    }
                }
                _ => {
                    idx.base.push(total as u32);
                    idx.lo.push(lo);
                    idx.hi.push(hi);
                    total += hi - lo + 1;
                }
            }
            if total > MAX_KEYS {
                return Err(format!(
                    "the stream touches more than {MAX_KEYS} distinct keys; the partition map tracks at most that many"
                ));
            }
        }
        idx.keys = total as u32;
        idx.start.push(0);
        for r in 0..stream.len() as RequestId {
            for s in stream.footprint(r) {
                let a = idx.index(s.lo).expect("every span key is indexed");
                let z = idx.index(s.hi).expect("every span key is indexed");
                idx.ranges.push((a, z + 1));
            }
            idx.start.push(idx.ranges.len() as u32);
        }
        Ok(idx)
    }

    /// Distinct keys.
    pub fn keys(&self) -> u32 {
        self.keys
    }

    /// The index of `key`, if some footprint covers it.
    pub fn index(&self, key: u64) -> Option<u32> {
        let i = self.lo.partition_point(|&l| l <= key).checked_sub(1)?;
        (key <= self.hi[i]).then(|| self.base[i] + (key - self.lo[i]) as u32)
    }

    /// The key of index `i`.
    pub fn key(&self, i: u32) -> u64 {
        let j = self.base.partition_point(|&b| b <= i) - 1;
        self.lo[j] + (i - self.base[j]) as u64
    }

    /// The key ranges of request `r`.
    pub fn of(&self, r: RequestId) -> &[KeyRange] {
        &self.ranges[self.start[r as usize] as usize..self.start[r as usize + 1] as usize]
    }
}

/// A key without an owner yet.
pub const UNOWNED: u32 = u32::MAX;

/// The partition map: an owner per key index.
#[derive(Clone, Debug)]
pub struct PartitionMap {
    owner: Vec<u32>,
    parts: u32,
    next_rr: u32,
    /// Map switches so far.
    pub epoch: u32,
}

impl PartitionMap {
    /// `keys` keys, none owned yet, over `parts` partitions (`1..=64`).
    pub fn new(keys: u32, parts: u32) -> Self {
        debug_assert!((1..=64).contains(&parts));
        PartitionMap {
            owner: vec![UNOWNED; keys as usize],
            parts,
            next_rr: 0,
            epoch: 0,
        }
    }

    pub fn parts(&self) -> u32 {
        self.parts
    }

    /// Owner of key index `k` (or [`UNOWNED`]).
    pub fn owner(&self, k: u32) -> u32 {
        self.owner[k as usize]
    }

    pub fn owners(&self) -> &[u32] {
        &self.owner
    }

    /// The partitions owning the keys of `ranges`, as a bit set; a key seen
    /// for the first time is placed round-robin (paper 001 section 3).
    pub fn route(&mut self, ranges: &[KeyRange]) -> u64 {
        let mut mask = 0u64;
        for &(a, z) in ranges {
            for k in a..z {
                let o = &mut self.owner[k as usize];
                if *o == UNOWNED {
                    *o = self.next_rr;
                    self.next_rr = (self.next_rr + 1) % self.parts;
                }
                mask |= 1 << *o;
            }
        }
        mask
    }

    /// Give key index `k` to partition `p`; returns its previous owner.
    pub fn set(&mut self, k: u32, p: u32) -> u32 {
        std::mem::replace(&mut self.owner[k as usize], p)
    }
}

/// A key stream of one scan per key range of `spans` (a test fixture).
#[cfg(test)]
pub(super) fn scan_stream(spans: &[(u64, u64)]) -> Stream {
    use psmr_core::stream::StreamBuilder;
    use psmr_core::{Op, Span};
    let mut b = StreamBuilder::new(CellSpace::Keys, spans.len());
    for &(lo, hi) in spans {
        let op = Op::KvScan {
            start: lo,
            len: (hi - lo + 1) as u32,
        };
        b.push(0, op, &[Span::read(lo, hi)]);
    }
    b.finish_total()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stream(spans: &[(u64, u64)]) -> Stream {
        scan_stream(spans)
    }

    #[test]
    fn keys_are_numbered_in_key_order_and_scans_stay_contiguous() {
        let s = stream(&[(10, 12), (100, 100), (11, 14), (7, 7), (u64::MAX, u64::MAX)]);
        let idx = KeyIndex::new(&s).unwrap();
        // Keys 7, 10..=14, 100, MAX.
        assert_eq!(idx.keys(), 8);
        assert_eq!(idx.index(7), Some(0));
        assert_eq!(idx.index(8), None);
        assert_eq!(idx.index(10), Some(1));
        assert_eq!(idx.index(14), Some(5));
        assert_eq!(idx.index(u64::MAX), Some(7));
        assert_eq!(idx.of(0), &[(1, 4)]);
        assert_eq!(idx.of(2), &[(2, 6)]);
        for i in 0..8 {
            assert_eq!(idx.index(idx.key(i)), Some(i));
        }
    }

    #[test]
    fn too_many_keys_is_an_error_not_a_panic() {
        let s = stream(&[(0, MAX_KEYS)]);
        assert!(KeyIndex::new(&s).unwrap_err().contains("distinct keys"));
    }

    #[test]
    fn new_keys_are_placed_round_robin() {
        // Ranges are [start, end) key indices.
        let mut m = PartitionMap::new(6, 4);
        assert_eq!(m.route(&[(0, 4)]), 0b1111);
        assert_eq!(m.route(&[(1, 3)]), 0b0110);
        assert_eq!(m.route(&[(4, 6)]), 0b0011, "keys 4, 5 go to 0, 1");
        assert_eq!(m.set(4, 3), 0);
        assert_eq!(m.route(&[(4, 6)]), 0b1010);
    }
}
