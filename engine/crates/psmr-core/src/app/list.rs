//! The sharded linked list of papers 003/000/004.
//!
//! Each shard is a singly linked list of integers kept in a node arena
//! (`next` indices), so `contains` and `add` really walk the list node by
//! node: the cost of a request grows with the list's size, as in the
//! papers (light 1K, moderate 10K, heavy 100K entries).
//!
//! Population: the list starts with the even numbers `0, 2, .., 2(n-1)` and
//! the workload draws keys from `0..2n`, so roughly half of the adds find
//! their key already there. Adds of a missing key append it; to keep the
//! population (and so the cost) stable, an add that inserts also removes the
//! list's head. (Paper 004 keeps its lists' sizes constant too.)

use std::sync::RwLock;

use super::application::{fnv, Application, Work, FNV_OFFSET};
use crate::request::Op;

const NIL: u32 = u32::MAX;

#[derive(Debug, Clone)]
struct List {
    keys: Vec<u32>,
    next: Vec<u32>,
    head: u32,
    tail: u32,
    len: usize,
}

impl List {
    fn new(entries: u32) -> Self {
        let keys: Vec<u32> = (0..entries).map(|i| i * 2).collect();
        let mut next: Vec<u32> = (1..=entries).collect();
        let (head, tail) = if entries == 0 {
            (NIL, NIL)
        } else {
            (0, entries - 1)
        };
        if let Some(last) = next.last_mut() {
            *last = NIL;
        }
        List {
            keys,
            next,
            head,
            tail,
            len: entries as usize,
        }
    }

    /// Walk the list; return the position (1-based) of `key` or 0.
    fn position(&self, key: u32) -> u64 {
        let mut node = self.head;
        let mut pos = 1u64;
        while node != NIL {
            if self.keys[node as usize] == key {
                return pos;
            }
            node = self.next[node as usize];
            pos += 1;
        }
        0
    }

    /// Add `key` if absent; returns 1 when it was inserted.
    fn add(&mut self, key: u32) -> u64 {
        if self.position(key) != 0 {
            return 0;
        }
        // Reuse the head's node for the new tail: population stays constant.
        let node = if self.len > 0 {
            let h = self.head;
            self.head = self.next[h as usize];
            if self.head == NIL {
                self.tail = NIL;
            }
            h
        } else {
            self.keys.push(0);
            self.next.push(NIL);
            self.len = 1;
            (self.keys.len() - 1) as u32
        };
        self.keys[node as usize] = key;
        self.next[node as usize] = NIL;
        if self.tail == NIL {
            self.head = node;
        } else {
            self.next[self.tail as usize] = node;
        }
        self.tail = node;
        1
    }

    fn digest(&self, mut h: u64) -> u64 {
        let mut node = self.head;
        while node != NIL {
            h = fnv(h, self.keys[node as usize] as u64);
            node = self.next[node as usize];
        }
        h
    }
}

/// One linked list per shard.
#[derive(Debug)]
pub struct ShardedList {
    shards: Vec<RwLock<List>>,
}

impl ShardedList {
    pub fn new(shards: usize, entries: u32) -> Self {
        ShardedList {
            shards: (0..shards)
                .map(|_| RwLock::new(List::new(entries)))
                .collect(),
        }
    }
    fn read<R>(&self, shard: usize, f: impl FnOnce(&List) -> R) -> R {
        f(&self.shards[shard].read().unwrap_or_else(|p| p.into_inner()))
    }
    fn write<R>(&self, shard: usize, f: impl FnOnce(&mut List) -> R) -> R {
        f(&mut self.shards[shard]
            .write()
            .unwrap_or_else(|p| p.into_inner()))
    }
}

impl Application for ShardedList {
    fn execute(&self, op: &Op) -> u64 {
        match *op {
            Op::ListContains { shard, key } => self.read(shard as usize, |l| l.position(key)),
            Op::ListAdd { shard, key } => self.write(shard as usize, |l| l.add(key)),
            // Global operations visit the shards in a fixed order and fold the
            // per-shard answers, so their response is deterministic.
            Op::ListContainsAll { key } => (0..self.shards.len())
                .fold(0, |acc, s| acc * 31 + self.read(s, |l| l.position(key))),
            Op::ListAddAll { key } => {
                (0..self.shards.len()).fold(0, |acc, s| acc * 2 + self.write(s, |l| l.add(key)))
            }
            ref other => panic!(
                "linked list cannot execute {other:?}: the workload generator never builds it"
            ),
        }
    }
    fn digest(&self) -> u64 {
        (0..self.shards.len()).fold(FNV_OFFSET, |h, s| {
            self.read(s, |l| l.digest(fnv(h, s as u64)))
        })
    }
    fn shards(&self) -> usize {
        self.shards.len()
    }
    /// A walk may visit every node of the shards it touches.
    fn work(&self, op: &Op) -> Work {
        let len = |s: usize| self.read(s, |l| l.len as u64);
        let units = match *op {
            Op::ListContains { shard, .. } | Op::ListAdd { shard, .. } => len(shard as usize),
            _ => (0..self.shards.len()).map(len).sum(),
        };
        Work { units, spin_ns: 0 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::digests_after;

    #[test]
    fn add_keeps_population_and_finds_keys() {
        let app = ShardedList::new(2, 10);
        assert_eq!(app.execute(&Op::ListContains { shard: 0, key: 4 }), 3);
        assert_eq!(app.execute(&Op::ListContains { shard: 0, key: 5 }), 0);
        assert_eq!(app.execute(&Op::ListAdd { shard: 0, key: 5 }), 1);
        assert_eq!(
            app.execute(&Op::ListContains { shard: 0, key: 5 }),
            10,
            "appended at the tail"
        );
        assert_eq!(
            app.execute(&Op::ListContains { shard: 0, key: 0 }),
            0,
            "head recycled"
        );
        assert_eq!(
            app.execute(&Op::ListAdd { shard: 0, key: 5 }),
            0,
            "already there"
        );
        assert_eq!(app.execute(&Op::ListAddAll { key: 7 }), 0b11);
    }

    #[test]
    fn digest_depends_on_order_of_adds() {
        let add = |key| Op::ListAdd { shard: 0, key };
        let list = || ShardedList::new(1, 4);
        let (a, b) = digests_after(list, &[add(1), add(3)], &[add(3), add(1)]);
        assert_ne!(a, b);
    }
}
