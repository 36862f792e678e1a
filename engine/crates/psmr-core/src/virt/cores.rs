//! Core sharing: a virtual run with more threads than modelled cores
//! (docs/protocols/virtual-cores.md, "Cores and time-sharing").
//!
//! A core is held like a lock: a thread runs only on a core, gives it up
//! when it blocks, sleeps or ends, and a runnable thread without one waits
//! until one is free, the way it waits for a held mutex. The modelled OS
//! takes a core from a thread in a wait loop (a spin or a yield) as soon as
//! another thread is waiting for one, and from any thread that has kept it
//! for a time slice while another waits. A thread that gets a core another
//! thread ran on last pays the table's `context_switch`.
//!
//! Only the token holder touches this state (it lives in the conductor's
//! state), so every choice below depends only on the run's deterministic
//! sequence of steps: cores are picked by (time, switch or not, index),
//! never by wall time.

/// Which thread is on which core, and since when each core is free.
#[derive(Debug)]
pub(super) struct Cores {
    /// Per core: the thread on it.
    holder: Vec<Option<usize>>,
    /// Per core: the virtual time its last thread left it.
    free_at: Vec<u64>,
    /// Per core: the thread that ran on it last (at first, its thread).
    last: Vec<usize>,
    /// Per thread: its core.
    on: Vec<Option<usize>>,
    /// Per thread: the virtual time it got its core.
    since: Vec<u64>,
    /// Per thread: it gave its core up to a waiting thread (a yield or
    /// the end of its slice), so it comes after the others at equal times.
    yielded: Vec<bool>,
    /// Cores taken by a thread other than their last one.
    switches: u64,
}

impl Cores {
    /// `cores` cores for `threads` threads, threads `0..cores` on cores
    /// `0..cores` at time 0; `None` when every thread has a core of its own
    /// (then nothing is shared and the conductor behaves as before).
    pub fn new(cores: usize, threads: usize) -> Option<Self> {
        if cores == 0 || cores >= threads {
            return None;
        }
        Some(Cores {
            holder: (0..cores).map(Some).collect(),
            free_at: vec![0; cores],
            last: (0..cores).collect(),
            on: (0..threads).map(|i| (i < cores).then_some(i)).collect(),
            since: vec![0; threads],
            yielded: vec![false; threads],
            switches: 0,
        })
    }

    /// Whether thread `i` is on a core.
    pub fn has_core(&self, i: usize) -> bool {
        self.on[i].is_some()
    }

    /// Whether thread `i` gave its core up to another (ties go to others).
    pub fn yielded(&self, i: usize) -> bool {
        self.yielded[i]
    }

    /// When the earliest free core became free, if any core is free.
    pub fn earliest_free(&self) -> Option<u64> {
        (0..self.holder.len())
            .filter(|&c| self.holder[c].is_none())
            .map(|c| self.free_at[c])
            .min()
    }

    /// Thread `i` leaves its core at virtual time `at` (it blocked, slept,
    /// ended, or `yielded` it to a waiting thread). No-op without a core.
    pub fn release(&mut self, i: usize, at: u64, yielded: bool) {
        if let Some(c) = self.on[i].take() {
            self.holder[c] = None;
            self.free_at[c] = at;
            self.last[c] = i;
            self.yielded[i] = yielded;
        }
    }

    /// Thread `i`, ready at `t`, takes a free core: the one free earliest,
    /// its own last core first among equals, then the smallest index.
    /// Returns `i`'s clock on it: `t` or the core's free time, whichever is
    /// later, plus `switch` if another thread ran on the core last.
    /// The caller checked that a core is free ([`Cores::earliest_free`]).
    pub fn take(&mut self, i: usize, t: u64, switch: u64) -> u64 {
        let c = (0..self.holder.len())
            .filter(|&c| self.holder[c].is_none())
            .min_by_key(|&c| (self.free_at[c].max(t), self.last[c] != i, c))
            .expect("a free core (checked by the caller)");
        let mut at = self.free_at[c].max(t);
        if self.last[c] != i {
            at = at.saturating_add(switch);
            self.switches += 1;
        }
        self.holder[c] = Some(i);
        self.last[c] = i;
        self.on[i] = Some(c);
        self.since[i] = at;
        self.yielded[i] = false;
        at
    }

    /// How long thread `i` has held its core at virtual time `now`.
    pub fn held_for(&self, i: usize, now: u64) -> u64 {
        now.saturating_sub(self.since[i])
    }

    /// Context switches so far.
    pub fn switches(&self) -> u64 {
        self.switches
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enough_cores_means_no_sharing() {
        assert!(Cores::new(3, 3).is_none());
        assert!(Cores::new(0, 3).is_none());
        assert!(Cores::new(2, 3).is_some());
    }

    #[test]
    fn a_core_goes_to_its_last_thread_without_a_switch_and_to_another_with_one() {
        let mut c = Cores::new(1, 2).unwrap();
        assert!(c.has_core(0) && !c.has_core(1));
        assert_eq!(c.earliest_free(), None);
        c.release(0, 500, false);
        assert_eq!(c.earliest_free(), Some(500));
        // Thread 1 was ready at 100: it waited for the core until 500.
        assert_eq!(c.take(1, 100, 2_000), 2_500);
        assert_eq!(c.switches(), 1);
        c.release(1, 3_000, true);
        assert!(c.yielded(1));
        assert_eq!(c.take(1, 3_100, 2_000), 3_100);
        assert!(!c.yielded(1));
        assert_eq!(c.switches(), 1);
        assert_eq!(c.held_for(1, 4_100), 1_000);
    }

    #[test]
    fn the_earliest_free_core_is_taken_and_own_core_wins_ties() {
        let mut c = Cores::new(2, 3).unwrap();
        c.release(1, 300, false);
        c.release(0, 100, false);
        // Both free before 400: thread 1's own core (1) wins the tie.
        assert_eq!(c.take(1, 400, 50), 400);
        assert_eq!(c.on[1], Some(1));
        // Thread 2 gets core 0, last run by thread 0: a switch.
        assert_eq!(c.take(2, 50, 50), 150);
    }
}
