//! Libasync-smp (paper 002 section II): one FIFO event queue per core,
//! colors hashed to cores, and the work stealing of section II-B.
//!
//! A core's queue is a singly linked list of events (the links live in the
//! runtime's per-event arena, so following one is a dependent load into a
//! large array, like the original's heap-allocated events). A core runs its
//! queue in order. A color's queued events are all in its owner's queue, so
//! one color never runs on two cores, and the FIFO keeps its order.
//!
//! Stealing (Figure 2), for an idle core:
//! 1. `construct_core_set`: the most loaded core first, then the following
//!    core numbers ([`most_loaded_first`]);
//! 2. for each, under its lock (and the stealer's own, taken in index
//!    order; see `Runtime::steal`): `can_be_stolen` if at least two colors
//!    are queued there (the running color cannot go);
//! 3. `choose_color_to_steal`: scanning from the head, the first color that
//!    is not running and holds less than half of the queued events (2 and
//!    3 are [`Census::choose_base`], which Mely's base stealing shares);
//! 4. `construct_event_set`: walk the queue from its head, unlinking that
//!    color's events, and stop once the color's pending count (kept per
//!    color, as the original does: paper 002 section II-B's footnote) says
//!    all of them were found; the walk reaches the tail only when the
//!    color's last event is there. Following one link per queued event up
//!    to that point is the cost this paper measures;
//! 5. `migrate`: append them, in order, to the stealer's queue.

use psmr_core::{EventOp, RequestId};

use super::runtime::{most_loaded_first, Census, Choice, CoreQueue, Discipline, Ends, Held};
use super::runtime::{Runtime, NIL, NO_COLOR};
use crate::probe::Probe;
use crate::sync::{AtomicU32, Ordering};

/// Libasync-smp's configuration (no heuristics).
#[derive(Clone, Copy, Debug, Default)]
pub struct Libasync;

/// One core's FIFO (its fields guarded by the core's lock).
#[derive(Debug)]
pub struct LibQueue {
    /// Queued events, oldest first, linked by the runtime's `next`.
    fifo: Ends,
    census: Census,
}

impl Default for LibQueue {
    fn default() -> Self {
        LibQueue {
            fifo: Ends::EMPTY,
            census: Census::EMPTY,
        }
    }
}

impl CoreQueue for LibQueue {
    fn census(&self) -> &Census {
        &self.census
    }
}

/// Per color: its events queued at its owner (owner's lock).
#[derive(Debug, Default)]
pub struct LibColor {
    pending: AtomicU32,
}

// Relaxed everywhere below: every field is guarded by a core lock (the
// queue's own, or the owner's for per-color and per-event fields), whose
// acquire and release order the accesses.

impl Libasync {
    fn pending(rt: &Runtime<'_, Self>, c: u32) -> u32 {
        rt.slot(c).d.pending.load(Ordering::Relaxed)
    }

    /// Add `n` (may be negative) to color `c`'s pending count on `q`,
    /// keeping `census.colors` right.
    fn add_pending(rt: &Runtime<'_, Self>, q: &mut LibQueue, c: u32, n: i64) {
        let p = &rt.slot(c).d.pending;
        let before = p.load(Ordering::Relaxed);
        let after = (before as i64 + n) as u32;
        p.store(after, Ordering::Relaxed);
        q.census.recount_color(before, after);
    }

    fn link(rt: &Runtime<'_, Self>, q: &mut LibQueue, e: RequestId) {
        rt.next[e as usize].store(NIL, Ordering::Relaxed);
        q.fifo
            .push_back(e, |t| rt.next[t as usize].store(e, Ordering::Relaxed));
        q.census.len += 1;
    }
}

impl Discipline for Libasync {
    type Queue = LibQueue;
    type Color = LibColor;

    fn push<P: Probe>(at: Held<'_, Self>, e: RequestId, ev: &EventOp, _p: &mut P) {
        let Held { rt, q, .. } = at;
        Self::link(rt, q, e);
        Self::add_pending(rt, q, ev.color, 1);
    }

    fn pop<P: Probe>(at: Held<'_, Self>, _p: &mut P) -> Option<RequestId> {
        let Held { rt, k, q } = at;
        let prev = q.census.running;
        let e = q.fifo.head;
        if e == NIL {
            q.census.running = NO_COLOR;
        } else {
            q.fifo.head = rt.next[e as usize].load(Ordering::Relaxed);
            if q.fifo.head == NIL {
                q.fifo.tail = NIL;
            }
            q.census.len -= 1;
            let c = rt.op(e).color;
            Self::add_pending(rt, q, c, -1);
            q.census.running = c;
        }
        if prev != NO_COLOR && prev != q.census.running && Self::pending(rt, prev) == 0 {
            rt.release_if_owned(prev, k);
        }
        (e != NIL).then_some(e)
    }

    fn choose(rt: &Runtime<'_, Self>, _v: usize, q: &LibQueue, _cost_ns: u64) -> Choice {
        if let Some(fault) = rt.steal_running_fault(&q.census, |r| Self::pending(rt, r)) {
            return fault;
        }
        let head = if q.fifo.head == NIL {
            NO_COLOR
        } else {
            rt.op(q.fifo.head).color
        };
        // The walk visits the events from the head, one scan step each,
        // charged once at the end.
        let mut walked = 0u64;
        let colors = q
            .fifo
            .walk(|e| rt.next[e as usize].load(Ordering::Relaxed))
            .map(|e| {
                walked += 1;
                rt.op(e).color
            });
        let choice = q.census.choose_base(head, colors, |c| Self::pending(rt, c));
        crate::sync::charge_scan(walked);
        choice
    }

    fn migrate<P: Probe>(c: u32, v: Held<'_, Self>, me: Held<'_, Self>, _p: &mut P) -> (u32, u64) {
        let (rt, from, to) = (v.rt, v.q, me.q);
        let me = me.k;
        // construct_event_set: walk the queue, unlinking c's events, until
        // the pending count says every one was found. migrate: each is
        // appended to the stealer's queue as it is found, so they keep
        // their order.
        let want = Self::pending(rt, c);
        let (mut prev, mut e) = (NIL, from.fifo.head);
        let (mut moved, mut left_ns) = (0u32, 0u64);
        let mut walked = 0u64;
        while e != NIL && moved < want {
            let next = rt.next[e as usize].load(Ordering::Relaxed);
            let ev = rt.op(e);
            if ev.color == c {
                if prev == NIL {
                    from.fifo.head = next;
                } else {
                    rt.next[prev as usize].store(next, Ordering::Relaxed);
                }
                if from.fifo.tail == e {
                    from.fifo.tail = prev;
                }
                from.census.len -= 1;
                Self::link(rt, to, e);
                moved += 1;
                left_ns += ev.cost_ns as u64;
            } else {
                prev = e;
            }
            walked += 1;
            e = next;
        }
        // Virtual cores: the walk costs a scan step per entry visited.
        crate::sync::charge_scan(walked);
        Self::add_pending(rt, from, c, -(moved as i64));
        rt.set_owner(c, me);
        Self::add_pending(rt, to, c, moved as i64);
        (moved, left_ns)
    }

    fn victims(&self, me: usize, loads: &[u32]) -> Vec<usize> {
        most_loaded_first(me, loads)
    }
}
