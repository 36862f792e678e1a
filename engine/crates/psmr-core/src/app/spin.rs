//! Synthetic work for classroom runs: each request spins for a fixed time
//! and reads or bumps a per-shard counter, so that order still matters.

use std::sync::atomic::{AtomicU64, Ordering};

use super::application::{digest_of, fnv, Application, Work, FNV_OFFSET};
use crate::clock;
use crate::request::Op;

#[derive(Debug)]
pub struct SpinApp {
    ns: u32,
    /// Per-shard state: a running hash of the writes applied.
    shards: Vec<AtomicU64>,
}

impl SpinApp {
    pub fn new(shards: usize, ns: u32) -> Self {
        SpinApp {
            ns,
            shards: (0..shards).map(|s| AtomicU64::new(s as u64)).collect(),
        }
    }
}

impl Application for SpinApp {
    fn execute(&self, op: &Op) -> u64 {
        let Op::Spin { ns, shards, write } = *op else {
            panic!("spin app cannot execute {op:?}: the workload generator never builds it");
        };
        clock::spin_for(if ns == 0 { self.ns } else { ns } as u64);
        // Relaxed: the scheduler orders conflicting requests (and the run's
        // join publishes the final values); the atomics only avoid UB if a
        // broken scheduler overlaps them, which the oracle then reports.
        let mut resp = FNV_OFFSET;
        for s in shards.iter() {
            let cell = &self.shards[s];
            let v = if write {
                let next = fnv(cell.load(Ordering::Relaxed), 0x5eed);
                cell.store(next, Ordering::Relaxed);
                next
            } else {
                cell.load(Ordering::Relaxed)
            };
            resp = fnv(resp, v);
        }
        resp
    }
    fn digest(&self) -> u64 {
        digest_of(&self.shards)
    }
    fn shards(&self) -> usize {
        self.shards.len()
    }
    fn work(&self, op: &Op) -> Work {
        let (ns, shards) = match *op {
            Op::Spin { ns, shards, .. } => {
                (if ns == 0 { self.ns } else { ns }, shards.iter().count())
            }
            _ => (0, 1),
        };
        Work {
            units: shards as u64,
            spin_ns: ns as u64,
        }
    }
}
