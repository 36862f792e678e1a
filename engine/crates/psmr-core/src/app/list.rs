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

/// The end of the chain in `List::next` (no element lives at address 0).
const END: usize = 0;

/// A shard's list: node `i` holds `keys[i]`, and `next[i]` links it to its
/// successor.
///
/// Invariant (the walks' unsafe reads rely on it): every link in `next` is
/// [`END`] or the address of an element of this same `next` buffer, i.e.
/// `next.as_ptr().add(j)` for some `j < next.len()`; `keys.len() ==
/// next.len()`; following the links from `head` visits each of the `len`
/// live nodes once and ends at `tail`. Links are written only by
/// [`List::set_link`], which checks `j` against the length, and the buffer
/// is never reallocated while it holds a link (it grows only from empty).
///
/// Why addresses and not indices: following an index link costs a scale and
/// an add before the load, and in wasm the compiler cannot fold them into
/// the load (the index is an i32 and the vector's base a runtime value), so
/// the chain of dependent loads that is the whole walk got one more
/// instruction a node (docs/benchmarks/wasm.md, "Issue 30 part 3, second
/// pass"). With addresses, one load follows one link on every target.
#[derive(Debug)]
struct List {
    keys: Vec<u32>,
    next: Vec<usize>,
    head: u32,
    tail: u32,
    len: usize,
}

impl List {
    fn new(entries: u32) -> Self {
        let keys: Vec<u32> = (0..entries).map(|i| i * 2).collect();
        let (head, tail) = if entries == 0 {
            (NIL, NIL)
        } else {
            (0, entries - 1)
        };
        let mut list = List {
            keys,
            next: vec![END; entries as usize],
            head,
            tail,
            len: entries as usize,
        };
        for i in 1..entries {
            list.set_link(i - 1, i);
        }
        list
    }

    /// The link to node `j` (`END` for `NIL`); panics if `j` is no node.
    fn link(&self, j: u32) -> usize {
        if j == NIL {
            return END;
        }
        let slot: *const usize = &self.next[j as usize];
        // Exposed, so that the walk may turn the address back into a pointer.
        slot.expose_provenance()
    }

    /// Makes `j` (a node or `NIL`) the successor of node `i`: the one writer
    /// of links, so the invariant holds by construction.
    fn set_link(&mut self, i: u32, j: u32) {
        self.next[i as usize] = self.link(j);
    }

    /// The node a link (not `END`) points at.
    fn node(&self, link: usize) -> u32 {
        ((link - self.next.as_ptr() as usize) / std::mem::size_of::<usize>()) as u32
    }

    /// The successor of node `i` (`NIL` at the tail).
    fn successor(&self, i: u32) -> u32 {
        match self.next[i as usize] {
            END => NIL,
            link => self.node(link),
        }
    }

    /// Calls `f(key)` for the keys in list order until it returns true;
    /// returns the 1-based position where it did, or 0.
    fn walk_until(&self, mut f: impl FnMut(u32) -> bool) -> u64 {
        let mut link = self.link(self.head);
        let mut pos = 1u64;
        while link != END {
            let node = self.node(link) as usize;
            if f(self.keys[node]) {
                return pos;
            }
            debug_assert!(node < self.next.len());
            // SAFETY: by the type's invariant `link` is the address of
            // `self.next[node]` (its provenance exposed by `link()`), an
            // initialized, aligned element of a buffer that `&self` keeps
            // alive and unmodified for this call.
            link = unsafe { *std::ptr::with_exposed_provenance::<usize>(link) };
            pos += 1;
        }
        0
    }

    /// Walk the list; return the position (1-based) of `key` or 0.
    fn position(&self, key: u32) -> u64 {
        self.walk_until(|k| k == key)
    }

    /// Add `key` if absent; returns 1 when it was inserted.
    fn add(&mut self, key: u32) -> u64 {
        if self.position(key) != 0 {
            return 0;
        }
        // Reuse the head's node for the new tail: population stays constant.
        let node = if self.len > 0 {
            let h = self.head;
            self.head = self.successor(h);
            if self.head == NIL {
                self.tail = NIL;
            }
            h
        } else {
            // The only growth, from empty: no link to the old buffer exists.
            self.keys.push(0);
            self.next.push(END);
            self.len = 1;
            (self.keys.len() - 1) as u32
        };
        self.keys[node as usize] = key;
        self.set_link(node, NIL);
        if self.tail == NIL {
            self.head = node;
        } else {
            self.set_link(self.tail, node);
        }
        self.tail = node;
        1
    }

    fn digest(&self, h: u64) -> u64 {
        let mut h = h;
        self.walk_until(|k| {
            h = fnv(h, k as u64);
            false
        });
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

    /// The links' invariant: each is the address of an element of `next`,
    /// and the chain from `head` has `len` nodes ending at `tail`.
    fn check_links(l: &List) {
        let (base, n) = (l.next.as_ptr() as usize, l.next.len());
        let (mut node, mut seen) = (l.head, 0);
        while node != NIL {
            let link = l.next[node as usize];
            if link != END {
                let off = link - base;
                assert!(
                    off.is_multiple_of(std::mem::size_of::<usize>()) && l.node(link) < n as u32
                );
            }
            seen += 1;
            assert!(seen <= l.len, "the chain loops");
            if l.successor(node) == NIL {
                assert_eq!(node, l.tail);
            }
            node = l.successor(node);
        }
        assert_eq!((seen, l.keys.len()), (l.len, n));
    }

    #[test]
    fn links_stay_addresses_of_the_list_through_adds() {
        for entries in [0, 1, 5] {
            let mut l = List::new(entries);
            check_links(&l);
            for key in [1, 3, 0, 8, 3, 11, 13] {
                l.add(key);
                check_links(&l);
            }
            let moved = Box::new(l);
            check_links(&moved);
            assert_eq!(moved.position(13), moved.len as u64);
        }
    }

    #[test]
    #[should_panic]
    fn a_link_to_no_node_is_refused() {
        let mut l = List::new(3);
        l.set_link(0, 3);
    }

    #[test]
    fn digest_depends_on_order_of_adds() {
        let add = |key| Op::ListAdd { shard: 0, key };
        let list = || ShardedList::new(1, 4);
        let (a, b) = digests_after(list, &[add(1), add(3)], &[add(3), add(1)]);
        assert_ne!(a, b);
    }
}
