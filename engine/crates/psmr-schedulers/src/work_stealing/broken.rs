//! A deliberately broken stealer, for fault injection only: it ignores the
//! victim's ready and exec flags and raises no marker, and takes every
//! concurrent request of the victim's ready queue even when a sequential
//! request waits before them. Those concurrent requests then run before,
//! or during, the sequential request they conflict with: the oracle must
//! report an order violation naming the pair.
//!
//! Compiled only for tests and under the `fault-injection` feature.

use super::shared::{ClassSet, Shared};
use super::worker::Policy;
use psmr_core::RequestId;

/// The broken variant (on top of the aggressive one).
pub const POLICY: Policy = Policy {
    broken: true,
    ..super::aggressive::POLICY
};

/// The name `SchedulerSpec::fault` uses to select this variant.
pub const FAULT_NAME: &str = "ws-ignore-flags";

impl Shared<'_> {
    /// Take all concurrent requests of `v`'s ready queue, flags be damned
    /// (called by `Worker::try_steal` when the policy is `broken`).
    pub fn steal_ignoring_flags(
        &self,
        v: usize,
        into: &mut std::collections::VecDeque<RequestId>,
    ) -> bool {
        let w = &self.workers[v];
        let mut st = w.lock();
        let before = into.len();
        let mut kept = std::collections::VecDeque::with_capacity(st.queue.len());
        let mut classes = ClassSet::default();
        while let Some(id) = st.queue.pop_front() {
            let class = self.requests[id as usize].class;
            if self.plan.class(class).sequential {
                kept.push_back(id);
                classes.insert(class);
            } else {
                into.push_back(id);
            }
        }
        st.queue = kept;
        st.classes = classes;
        w.publish(&st);
        st.wake_producer(&w.space);
        into.len() > before
    }
}
