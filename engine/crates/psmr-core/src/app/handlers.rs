//! Event handlers for event-driven runtimes (paper 002): each event spins
//! for its cost, then folds its tag into its color's state, so the result
//! depends on the order in which one color's events ran and on nothing
//! else. Colors are the cells ([`CellSpace::Colors`]): handlers of
//! different colors share no state.
//!
//! [`CellSpace::Colors`]: crate::cell::CellSpace::Colors

use std::sync::atomic::{AtomicU64, Ordering};

use super::{fnv, Application, FNV_OFFSET};
use crate::clock;
use crate::request::Op;

#[derive(Debug)]
pub struct Handlers {
    colors: Vec<AtomicU64>,
}

impl Handlers {
    pub fn new(colors: u32) -> Self {
        Handlers {
            colors: (0..colors.max(1))
                .map(|c| AtomicU64::new(c as u64))
                .collect(),
        }
    }
}

impl Application for Handlers {
    fn execute(&self, op: &Op) -> u64 {
        let Op::Event { color, tag, ns } = *op else {
            panic!(
                "the handlers app cannot execute {op:?}: the workload generator never builds it"
            );
        };
        if ns > 0 {
            clock::spin_for(ns as u64);
        }
        // Relaxed: the runtime serializes a color's events (and the run's
        // join publishes the final values); the atomics only keep a broken
        // runtime's overlap defined, and the oracle reports it.
        let cell = &self.colors[color as usize % self.colors.len()];
        let next = fnv(cell.load(Ordering::Relaxed), tag as u64);
        cell.store(next, Ordering::Relaxed);
        next
    }
    fn digest(&self) -> u64 {
        self.colors
            .iter()
            .fold(FNV_OFFSET, |h, c| fnv(h, c.load(Ordering::Relaxed)))
    }
    fn shards(&self) -> usize {
        1
    }
}
