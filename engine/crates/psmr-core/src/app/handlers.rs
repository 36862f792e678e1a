//! Event handlers for event-driven runtimes (paper 002).
//!
//! An event spins for its cost, touches part of a data set, then folds its
//! tag and what it read into its color's state, so the result depends on
//! the order in which one color's events ran and on nothing else. Colors
//! are the cells ([`CellSpace::Colors`]): handlers of different colors
//! share no state that changes.
//!
//! Data sets exist so that cache effects can show natively (section V.B's
//! *penalty* and *locality* benchmarks): `data_sets` arrays of `data_kib`
//! KiB each, allocated and filled when the application is built. A filling
//! handler rewrites its lines with the values they already hold (value `i`
//! of set `s` is a fixed function of `s` and `i`), and a walking handler
//! reads them. So the values never change and no outcome depends on which
//! core touched a data set first or whether two colors touched it at once:
//! only the cache traffic does, which is the point. (Several events may
//! touch one data set at the same time; every access is a relaxed atomic,
//! so that is defined behaviour, and on x86 and wasm it compiles to plain
//! loads and stores.)
//!
//! [`CellSpace::Colors`]: crate::cell::CellSpace::Colors

use std::sync::atomic::{AtomicU64, Ordering};

use super::application::{digest_of, fnv, Application, DataLines, Work};
use crate::clock;
use crate::request::{EventOp, Op};

/// 64-bit words per 64-byte cache line.
pub const WORDS_PER_LINE: usize = 8;
/// Cache lines per KiB.
pub const LINES_PER_KIB: u32 = 16;

#[derive(Debug)]
pub struct Handlers {
    colors: Vec<AtomicU64>,
    /// `sets` data sets of `words_per_set` words, one after the other.
    data: Vec<AtomicU64>,
    words_per_set: usize,
}

/// The value word `i` of data set `set` always holds.
fn data_value(set: usize, i: usize) -> u64 {
    ((set as u64) << 32 | i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

impl Handlers {
    /// `colors` color states, and `data_sets` data sets of `data_kib` KiB
    /// each (filled).
    pub fn new(colors: u32, data_sets: u32, data_kib: u32) -> Self {
        let words_per_set = data_kib as usize * 1024 / 8;
        let words = words_per_set * data_sets as usize;
        let data = (0..words)
            .map(|w| {
                let (set, i) = (w / words_per_set.max(1), w % words_per_set.max(1));
                AtomicU64::new(data_value(set, i))
            })
            .collect();
        Handlers {
            colors: (0..colors.max(1))
                .map(|c| AtomicU64::new(c as u64))
                .collect(),
            data,
            words_per_set,
        }
    }

    /// Touch the event's lines of its data set: rewrite them (`fill`) or
    /// read them; returns a digest of what was read (0 for a fill). Lines
    /// outside the set are ignored (the generator never asks for them).
    fn touch(&self, e: &EventOp) -> u64 {
        if e.lines == 0 || self.words_per_set == 0 {
            return 0;
        }
        let set = e.set as usize;
        if set >= self.data.len() / self.words_per_set {
            return 0;
        }
        let lo = (e.first as usize * WORDS_PER_LINE).min(self.words_per_set);
        let hi = ((e.first as usize + e.lines as usize) * WORDS_PER_LINE).min(self.words_per_set);
        let base = set * self.words_per_set;
        let words = &self.data[base + lo..base + hi];
        // Relaxed: the values never change (see the module comment); the
        // atomics only make concurrent touches defined.
        if e.fill {
            for (i, w) in words.iter().enumerate() {
                w.store(data_value(set, lo + i), Ordering::Relaxed);
            }
            0
        } else {
            words.iter().fold(0u64, |acc, w| {
                acc.rotate_left(5) ^ w.load(Ordering::Relaxed)
            })
        }
    }
}

impl Application for Handlers {
    fn execute(&self, op: &Op) -> u64 {
        let Op::Event(e) = op else {
            panic!(
                "the handlers app cannot execute {op:?}: the workload generator never builds it"
            );
        };
        if e.ns > 0 {
            clock::spin_for(e.ns as u64);
        }
        let read = self.touch(e);
        // Relaxed: the runtime serializes a color's events (and the run's
        // join publishes the final values); the atomics only keep a broken
        // runtime's overlap defined, and the oracle reports it.
        let cell = &self.colors[e.color as usize % self.colors.len()];
        let next = fnv(cell.load(Ordering::Relaxed), e.tag as u64 ^ read);
        cell.store(next, Ordering::Relaxed);
        next
    }
    fn digest(&self) -> u64 {
        digest_of(&self.colors)
    }
    fn shards(&self) -> usize {
        1
    }
    fn work(&self, op: &Op) -> Work {
        match op {
            Op::Event(e) => Work {
                units: 1 + e.lines as u64,
                spin_ns: e.ns as u64,
            },
            _ => Work::default(),
        }
    }
    fn data_lines(&self, op: &Op) -> Option<DataLines> {
        match op {
            Op::Event(e) if e.lines > 0 && self.words_per_set > 0 => Some(DataLines {
                region: e.set as u64,
                first: e.first,
                count: e.lines,
                write: e.fill,
            }),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn walk(set: u32, first: u32, lines: u32, fill: bool) -> EventOp {
        EventOp {
            set,
            first,
            lines,
            fill,
            ..EventOp::spin(1, 5, 0)
        }
    }

    #[test]
    fn a_walk_reads_what_a_fill_writes_and_fills_change_nothing() {
        let a = Handlers::new(4, 2, 1);
        let b = Handlers::new(4, 2, 1);
        // One app fills first, the other does not: the walks agree.
        a.execute(&Op::Event(walk(1, 0, 16, true)));
        let ra = a.execute(&Op::Event(walk(1, 2, 4, false)));
        b.execute(&Op::Event(walk(1, 0, 16, true)));
        let rb = b.execute(&Op::Event(walk(1, 2, 4, false)));
        assert_eq!(ra, rb);
        assert_eq!(a.digest(), b.digest());
        // A walk of another range reads other values.
        let c = Handlers::new(4, 2, 1);
        c.execute(&Op::Event(walk(1, 0, 16, true)));
        let rc = c.execute(&Op::Event(walk(1, 3, 4, false)));
        assert_ne!(ra, rc);
    }

    #[test]
    fn the_state_depends_on_each_colors_order_only() {
        let ops = [
            EventOp::spin(0, 1, 0),
            EventOp::spin(1, 2, 0),
            EventOp::spin(0, 3, 0),
        ];
        let run = |order: &[usize]| {
            let h = Handlers::new(2, 0, 0);
            for &i in order {
                h.execute(&Op::Event(ops[i]));
            }
            h.digest()
        };
        assert_eq!(run(&[0, 1, 2]), run(&[1, 0, 2]), "colors interleave freely");
        assert_ne!(run(&[0, 1, 2]), run(&[2, 1, 0]), "one color's order counts");
    }

    #[test]
    fn ranges_outside_a_set_are_clipped() {
        let h = Handlers::new(1, 1, 1);
        // 16 lines per KiB: lines 10..26 read what lines 10..16 read, and
        // that is more than lines 10..15 read.
        let clipped = h.touch(&walk(0, 10, 16, false));
        assert_eq!(clipped, h.touch(&walk(0, 10, 6, false)));
        assert_ne!(clipped, h.touch(&walk(0, 10, 5, false)));
        // A range that starts past the set's end reads nothing.
        assert_eq!(h.touch(&walk(0, 16, 4, false)), 0);
        // Set 5 does not exist, and an app without data sets has none:
        // nothing is read, and a fill there changes no set.
        assert_eq!(h.touch(&walk(5, 0, 16, false)), 0);
        let before = h.touch(&walk(0, 0, 16, false));
        h.touch(&walk(5, 0, 16, true));
        assert_eq!(h.touch(&walk(0, 0, 16, false)), before);
        let none = Handlers::new(1, 0, 0);
        assert_eq!(none.touch(&walk(0, 0, 16, false)), 0);
    }
}
