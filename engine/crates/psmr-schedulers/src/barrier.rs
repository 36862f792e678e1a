//! A reusable blocking barrier (generation counting), shared by every
//! scheduler whose threads meet: early scheduling's per-class barriers
//! (paper 003 / 000 Algorithm 2) and conservative and moderate work
//! stealing (000 Algorithm 7). Protocol note: `docs/protocols/barrier-cycle.md`.
//!
//! Invariant: `arrived < parties` between calls; the last arrival of a
//! generation resets `arrived` and bumps `generation` in the same critical
//! section, so a fast thread that re-enters for the next generation counts
//! towards the next one, never the one still being left. The mutex orders
//! every party's work before the barrier before every party's return.

use crate::sync::{Condvar, Mutex};

#[derive(Debug)]
struct State {
    /// Threads arrived in the current generation (`< parties`).
    arrived: u32,
    /// Completed generations; a waiter leaves when it changes.
    generation: u64,
}

/// A reusable barrier for `parties` threads.
#[derive(Debug)]
pub struct GenerationBarrier {
    parties: u32,
    state: Mutex<State>,
    cv: Condvar,
}

impl GenerationBarrier {
    pub fn new(parties: usize) -> Self {
        GenerationBarrier {
            parties: parties.max(1) as u32,
            state: Mutex::new(State {
                arrived: 0,
                generation: 0,
            }),
            cv: Condvar::new(),
        }
    }

    /// Wait until all parties arrived in this generation. The last arrival
    /// returns `true` at once and wakes the others; the rest call `on_block`
    /// once (under the lock, before blocking) and return `false` when
    /// released.
    pub fn wait(&self, on_block: impl FnOnce()) -> bool {
        let mut st = self.state.lock().unwrap_or_else(|p| p.into_inner());
        st.arrived += 1;
        if st.arrived == self.parties {
            st.arrived = 0;
            st.generation = st.generation.wrapping_add(1);
            // Every other party of this generation is blocked below (it
            // arrived earlier and only a generation change lets it go).
            if self.parties > 1 {
                self.cv.notify_all();
            }
            return true;
        }
        let generation = st.generation;
        on_block();
        while st.generation == generation {
            st = self.cv.wait(st).unwrap_or_else(|p| p.into_inner());
        }
        false
    }
}
