//! A reusable blocking barrier per class (conservative and moderate work
//! stealing, 000 Algorithm 7 lines 17-22). Generation counting makes it
//! reusable: a thread released from generation `g` that arrives again
//! counts toward `g + 1`, never toward `g`.

use crate::sync::{Condvar, Mutex};

#[derive(Debug)]
struct State {
    arrived: usize,
    generation: u64,
}

/// Blocks until `parties` threads called [`Barrier::wait`].
#[derive(Debug)]
pub struct Barrier {
    parties: usize,
    state: Mutex<State>,
    cv: Condvar,
}

impl Barrier {
    pub fn new(parties: usize) -> Self {
        Barrier {
            parties: parties.max(1),
            state: Mutex::new(State {
                arrived: 0,
                generation: 0,
            }),
            cv: Condvar::new(),
        }
    }

    /// Wait for all parties; returns `true` for the one that arrived last.
    /// The mutex orders every party's earlier work before every party's
    /// return (each arrival unlocks after writing, each waiter relocks).
    pub fn wait(&self) -> bool {
        let mut st = self.state.lock().unwrap_or_else(|p| p.into_inner());
        let generation = st.generation;
        st.arrived += 1;
        if st.arrived == self.parties {
            st.arrived = 0;
            st.generation = st.generation.wrapping_add(1);
            self.cv.notify_all();
            return true;
        }
        while st.generation == generation {
            st = self.cv.wait(st).unwrap_or_else(|p| p.into_inner());
        }
        false
    }
}
