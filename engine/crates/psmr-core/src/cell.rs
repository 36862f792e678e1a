//! Cells: the units of application state that requests conflict on.
//!
//! An application declares one [`CellSpace`]: the linked list and the spin
//! app conflict per shard, the key-value store per key, event handlers per
//! color. A request's *footprint* is a short list of [`Span`]s, inclusive
//! ranges of cells it reads or writes: a list request reads or writes one
//! shard (`[s, s]`) or all of them (`[0, n-1]`), a key-value write one key, a
//! scan the key range it covers, an event its color.
//!
//! Two footprints conflict when a span of one overlaps a span of the other
//! and at least one of the two writes (read/write sets, paper 003
//! Definition 1; paper 004 Definition 1).
//!
//! For checking, a stream's spans are coordinate-compressed into *dense
//! cells* ([`DenseCells`]): the span bounds cut the space into elementary
//! intervals, and every span covers a contiguous run of them. Cells that no
//! footprint tells apart are merged, which changes nothing about which
//! requests conflict, and a scan over a wide key range costs one dense cell
//! per distinct bound inside it, not one per key.

use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// What an application's cells are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum CellSpace {
    /// `shards` partitions, cells `0..shards` (linked list, spin).
    Shards { shards: u32 },
    /// Keys of a key-value store, any `u64`.
    Keys,
    /// Event colors (event-driven runtimes), any `u64`.
    Colors,
}

impl CellSpace {
    /// A span of this space in words, for violation messages: `shard 3`,
    /// `shards 1-4`, `key 17`, `keys 10-25`, `color 2`.
    pub fn name(self, lo: u64, hi: u64) -> String {
        let (one, many, base) = match self {
            CellSpace::Shards { .. } => ("shard", "shards", 1),
            CellSpace::Keys => ("key", "keys", 0),
            CellSpace::Colors => ("color", "colors", 0),
        };
        let lo = lo.saturating_add(base);
        let hi = hi.saturating_add(base);
        if lo == hi {
            format!("{one} {lo}")
        } else {
            format!("{many} {lo}-{hi}")
        }
    }

    /// The word for one cell (`shard`, `key`, `color`).
    pub fn unit(self) -> &'static str {
        match self {
            CellSpace::Shards { .. } => "shard",
            CellSpace::Keys => "key",
            CellSpace::Colors => "color",
        }
    }
}

/// An inclusive range of cells that a request reads, or writes (a write
/// also reads).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Span {
    pub lo: u64,
    pub hi: u64,
    pub write: bool,
}

impl Span {
    pub const fn read(lo: u64, hi: u64) -> Span {
        Span {
            lo,
            hi,
            write: false,
        }
    }
    pub const fn write(lo: u64, hi: u64) -> Span {
        Span {
            lo,
            hi,
            write: true,
        }
    }
    /// One cell, read or written.
    pub const fn one(cell: u64, write: bool) -> Span {
        Span {
            lo: cell,
            hi: cell,
            write,
        }
    }
    pub fn overlaps(self, o: Span) -> bool {
        self.lo <= o.hi && o.lo <= self.hi
    }
    /// Does `self` include every cell of `o`?
    pub fn contains(self, o: Span) -> bool {
        self.lo <= o.lo && o.hi <= self.hi
    }
}

impl fmt::Display for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rw = if self.write { "w" } else { "r" };
        if self.lo == self.hi {
            write!(f, "{rw}[{}]", self.lo)
        } else {
            write!(f, "{rw}[{}..={}]", self.lo, self.hi)
        }
    }
}

/// Do two footprints conflict? Some span of one overlaps some span of the
/// other, and at least one of those two spans writes.
pub fn conflicts(a: &[Span], b: &[Span]) -> bool {
    a.iter()
        .any(|x| b.iter().any(|y| (x.write || y.write) && x.overlaps(*y)))
}

/// Does the footprint `outer` (a class's) cover `inner` (a request's)? Every
/// cell `inner` reads lies in some span of `outer`, and every cell it writes
/// in some writing span of `outer`. Spans of one footprint are few, so
/// "lies in some span" is tested per span after merging adjacent ones.
pub fn covers(outer: &[Span], inner: &[Span]) -> bool {
    let all = merged(outer.iter().copied());
    let writes = merged(outer.iter().copied().filter(|s| s.write));
    inner.iter().all(|s| {
        let pool = if s.write { &writes } else { &all };
        pool.iter().any(|o| o.contains(*s))
    })
}

/// Sort spans by `lo` and merge overlapping or adjacent ones (ignoring the
/// write bit, which the caller filtered on).
fn merged(spans: impl Iterator<Item = Span>) -> Vec<Span> {
    let mut v: Vec<Span> = spans.collect();
    v.sort_unstable_by_key(|s| (s.lo, s.hi));
    let mut out: Vec<Span> = Vec::with_capacity(v.len());
    for s in v {
        match out.last_mut() {
            Some(last) if s.lo <= last.hi.saturating_add(1) => last.hi = last.hi.max(s.hi),
            _ => out.push(s),
        }
    }
    out
}

/// Flag of a dense entry that writes its cell.
pub const WRITE_BIT: u32 = 1 << 31;

/// A stream's footprints, compressed into dense cells.
///
/// Invariants: `start.len() == requests + 1`, non-decreasing; request `r`'s
/// entries are `entries[start[r]..start[r+1]]`, each a dense cell index
/// (`< bounds.len()`) with [`WRITE_BIT`] set when it writes; dense cell `i`
/// is the cell range `bounds[i] ..= next_bound - 1` of the space.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DenseCells {
    /// Low end of each dense cell, strictly increasing.
    pub bounds: Vec<u64>,
    /// High end (inclusive) of each dense cell.
    pub highs: Vec<u64>,
    pub start: Vec<u32>,
    pub entries: Vec<u32>,
}

impl DenseCells {
    /// Compress `spans` (request `r` owns `spans[span_start[r]..span_start[r+1]]`).
    pub fn build(span_start: &[u32], spans: &[Span]) -> DenseCells {
        let (bounds, highs) = elementary(spans);
        let mut start = Vec::with_capacity(span_start.len());
        let mut entries = Vec::with_capacity(spans.len());
        let mut scratch: Vec<u32> = Vec::new();
        start.push(0);
        for w in span_start.windows(2) {
            scratch.clear();
            for s in &spans[w[0] as usize..w[1] as usize] {
                let a = bounds.partition_point(|b| *b < s.lo);
                let z = bounds.partition_point(|b| *b <= s.hi);
                let flag = if s.write { WRITE_BIT } else { 0 };
                scratch.extend((a..z).map(|c| c as u32 | flag));
            }
            push_one_per_cell(&mut scratch, &mut entries);
            start.push(entries.len() as u32);
        }
        DenseCells {
            bounds,
            highs,
            start,
            entries,
        }
    }

    /// Dense cells in all.
    pub fn cells(&self) -> usize {
        self.bounds.len()
    }

    /// The entries of request `r`.
    #[inline]
    pub fn of(&self, r: u32) -> &[u32] {
        &self.entries[self.start[r as usize] as usize..self.start[r as usize + 1] as usize]
    }

    /// The cell range of dense cell `c`, `(lo, hi)`.
    pub fn range(&self, c: u32) -> (u64, u64) {
        (self.bounds[c as usize], self.highs[c as usize])
    }
}

/// Append `scratch`'s entries to `out` sorted by cell, one per cell (the
/// writing one when any span of the request writes that cell).
fn push_one_per_cell(scratch: &mut [u32], out: &mut Vec<u32>) {
    // Writing entries sort first within a cell.
    scratch.sort_unstable_by_key(|x| (x & !WRITE_BIT, x & WRITE_BIT == 0));
    let mut last = None;
    for &x in scratch.iter() {
        if last != Some(x & !WRITE_BIT) {
            last = Some(x & !WRITE_BIT);
            out.push(x);
        }
    }
}

/// Elementary intervals of a set of spans: the sorted distinct low bounds
/// (every `lo` and every `hi + 1`), each interval ending where the next
/// begins; intervals covered by no span are dropped.
fn elementary(spans: &[Span]) -> (Vec<u64>, Vec<u64>) {
    let mut cuts: Vec<u128> = Vec::with_capacity(spans.len() * 2);
    for s in spans {
        cuts.push(s.lo as u128);
        cuts.push(s.hi as u128 + 1);
    }
    cuts.sort_unstable();
    cuts.dedup();
    // Keep an interval [cuts[i], cuts[i+1]) only if some span covers it:
    // mark coverage with a difference array over the cut indices.
    let mut diff = vec![0i64; cuts.len() + 1];
    for s in spans {
        let a = cuts.partition_point(|c| *c < s.lo as u128);
        let z = cuts.partition_point(|c| *c < s.hi as u128 + 1);
        diff[a] += 1;
        diff[z] -= 1;
    }
    let mut bounds = Vec::new();
    let mut highs = Vec::new();
    let mut depth = 0i64;
    for i in 0..cuts.len().saturating_sub(1) {
        depth += diff[i];
        if depth > 0 {
            bounds.push(cuts[i] as u64);
            highs.push((cuts[i + 1] - 1) as u64);
        }
    }
    (bounds, highs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conflicts_need_an_overlap_and_a_write() {
        let r = |lo, hi| Span::read(lo, hi);
        let w = |lo, hi| Span::write(lo, hi);
        assert!(!conflicts(&[r(0, 9)], &[r(5, 5)]), "reads never conflict");
        assert!(conflicts(&[r(0, 9)], &[w(9, 9)]));
        assert!(!conflicts(&[w(0, 4)], &[w(5, 9)]), "disjoint writes");
        assert!(conflicts(&[w(3, 3)], &[r(0, 1), r(3, 7)]));
    }

    #[test]
    fn covering_respects_writes() {
        let class = [Span::read(0, 99), Span::write(10, 19)];
        assert!(covers(&class, &[Span::read(50, 60)]));
        assert!(covers(&class, &[Span::write(12, 12)]));
        assert!(!covers(&class, &[Span::write(50, 50)]), "read-only there");
        assert!(!covers(&class, &[Span::read(90, 100)]));
        let pieces = [Span::read(0, 4), Span::read(5, 9)];
        assert!(covers(&pieces, &[Span::read(3, 7)]), "adjacent spans merge");
    }

    #[test]
    fn dense_cells_split_at_every_bound() {
        // r0 writes key 5, r1 scans 0..=9, r2 reads all shards 0..=3.
        let spans = [Span::write(5, 5), Span::read(0, 9), Span::read(20, 20)];
        let d = DenseCells::build(&[0, 1, 2, 3], &spans);
        assert_eq!(d.bounds, vec![0, 5, 6, 20]);
        assert_eq!(d.highs, vec![4, 5, 9, 20]);
        assert_eq!(d.of(0), &[1 | WRITE_BIT]);
        assert_eq!(d.of(1), &[0, 1, 2]);
        assert_eq!(d.of(2), &[3]);
        assert_eq!(d.range(2), (6, 9));
    }

    #[test]
    fn overlapping_spans_of_one_request_keep_one_entry_per_cell() {
        let spans = [Span::read(0, 9), Span::write(5, 5)];
        let d = DenseCells::build(&[0, 2], &spans);
        assert_eq!(d.of(0), &[0, 1 | WRITE_BIT, 2]);
    }

    #[test]
    fn top_of_the_space_does_not_overflow() {
        let d = DenseCells::build(&[0, 1], &[Span::read(u64::MAX - 1, u64::MAX)]);
        assert_eq!(d.range(0), (u64::MAX - 1, u64::MAX));
    }

    #[test]
    fn names_are_one_based_for_shards_only() {
        let s = CellSpace::Shards { shards: 4 };
        assert_eq!(s.name(0, 0), "shard 1");
        assert_eq!(s.name(0, 3), "shards 1-4");
        assert_eq!(CellSpace::Keys.name(7, 7), "key 7");
        assert_eq!(CellSpace::Colors.name(2, 2), "color 2");
    }
}
