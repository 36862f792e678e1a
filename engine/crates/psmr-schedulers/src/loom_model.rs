//! The replicated state the loom models check a protocol against (the
//! early family's, work stealing's, late scheduling's and P-EPaxos's
//! models; compiled for `--cfg loom` tests only).
//!
//! Per cell, the writes applied, in a `loom::cell::UnsafeCell`: loom fails
//! a model in which an execution is not ordered by happens-before after
//! every conflicting access to its cell (a data race), so a weakened
//! Release/Acquire pair in the protocol is caught. Per request, how often
//! it ran and what it saw: a write, the number of writes of its cell
//! applied with it; a read, that number + 1 (0 = never ran).

use loom::cell::UnsafeCell;
use loom::sync::atomic::{AtomicU32, Ordering};
use psmr_core::RequestId;

/// A model checker bounded to `preemptions` preemptions (bugs in
/// protocols like these show within one or two; each more multiplies the
/// state space) and 20 000 branches per execution (spinning and polling
/// threads make long paths; loom's default is 1000). The environment's
/// `LOOM_MAX_PREEMPTIONS` / `LOOM_MAX_BRANCHES` win, to explore deeper.
pub fn builder(preemptions: usize) -> loom::model::Builder {
    let mut b = loom::model::Builder::new();
    if std::env::var_os("LOOM_MAX_PREEMPTIONS").is_none() {
        b.preemption_bound = Some(preemptions);
    }
    if std::env::var_os("LOOM_MAX_BRANCHES").is_none() {
        b.max_branches = 20_000;
    }
    b
}

/// The model's cells and what each request did.
pub struct Replica {
    cells: Vec<UnsafeCell<Vec<RequestId>>>,
    seen: Vec<AtomicU32>,
    executed: Vec<AtomicU32>,
}

impl Replica {
    /// `cells` empty cells for `requests` requests (ids `0..requests`).
    pub fn new(cells: usize, requests: usize) -> Self {
        Replica {
            cells: (0..cells).map(|_| UnsafeCell::new(Vec::new())).collect(),
            seen: (0..requests).map(|_| AtomicU32::new(0)).collect(),
            executed: (0..requests).map(|_| AtomicU32::new(0)).collect(),
        }
    }

    /// Execute `req` on `cell`: a write appends itself, a read looks.
    pub fn execute(&self, req: RequestId, cell: usize, write: bool) {
        // Relaxed (here and below): read only after every thread joined.
        self.executed[req as usize].fetch_add(1, Ordering::Relaxed);
        let seen = if write {
            // SAFETY: loom checks this claim: it fails the model if this
            // write is not ordered by happens-before with every other
            // access to the cell.
            self.cells[cell].with_mut(|w| unsafe {
                (*w).push(req);
                (*w).len() as u32
            })
        } else {
            // SAFETY: as above, checked by loom.
            self.cells[cell].with(|w| unsafe { (*w).len() as u32 + 1 })
        };
        self.seen[req as usize].store(seen, Ordering::Relaxed);
    }

    /// After the threads joined: every request ran exactly once and saw
    /// what `expected` says (see [`expected_seen`]).
    pub fn check(&self, expected: &[u32]) {
        for (i, c) in self.executed.iter().enumerate() {
            assert_eq!(c.load(Ordering::Relaxed), 1, "request {i} executed once");
        }
        let seen: Vec<u32> = self
            .seen
            .iter()
            .map(|s| s.load(Ordering::Relaxed))
            .collect();
        assert_eq!(seen, expected, "each request saw the writes before it");
    }

    /// After the threads joined: the writes applied to `cell`, in order.
    pub fn writes(&self, cell: usize) -> Vec<RequestId> {
        // SAFETY: every thread was joined; loom checks the access.
        self.cells[cell].with(|w| unsafe { (*w).clone() })
    }
}

/// What [`Replica::check`] expects when `ops` — `(request, cell, write)`
/// for each of `requests` requests — run one at a time in that order.
pub fn expected_seen(
    requests: usize,
    ops: impl IntoIterator<Item = (RequestId, usize, bool)>,
) -> Vec<u32> {
    let mut applied: Vec<u32> = Vec::new();
    let mut seen = vec![0; requests];
    for (req, cell, write) in ops {
        if applied.len() <= cell {
            applied.resize(cell + 1, 0);
        }
        applied[cell] += u32::from(write);
        seen[req as usize] = applied[cell] + u32::from(!write);
    }
    seen
}
