//! The core thread of an event-coloring runtime: take the next event of
//! its queue and run it, registering the events its handler registers;
//! when the queue is empty, steal (if stealing is on); when nothing can be
//! stolen, sleep a little; stop once every event of the delivered trees
//! has run. Driven through an [`EventProbe`], so the model checkers run
//! this very loop.

use psmr_core::{RequestId, WaitReason, NO_REQUEST};

use super::runtime::{Discipline, EventProbe, Runtime, Tally};
use crate::spec::SpinPolicy;
use crate::sync;

/// Sample the core's queue length every this many events.
const SAMPLE_EVERY: u64 = 64;

/// One core's thread.
pub struct Worker<'r, 's, D: Discipline, P: EventProbe<'s>> {
    pub me: usize,
    pub rt: &'r Runtime<'s, D>,
    pub probe: P,
    pub stealing: bool,
    pub spin: SpinPolicy,
    pub tally: Tally,
    /// The last refusal traced: (victim, heuristic, color).
    last_refusal: Option<(usize, u8, u32)>,
    executed: u64,
    /// Events run and not yet counted in the core's locked state (counted
    /// at the next dequeue).
    uncounted: u64,
}

impl<'r, 's, D: Discipline, P: EventProbe<'s>> Worker<'r, 's, D, P> {
    pub fn new(
        me: usize,
        rt: &'r Runtime<'s, D>,
        probe: P,
        stealing: bool,
        spin: SpinPolicy,
    ) -> Self {
        Worker {
            me,
            rt,
            probe,
            stealing,
            spin,
            tally: Tally::default(),
            last_refusal: None,
            executed: 0,
            uncounted: 0,
        }
    }

    /// Run until the run is over; returns the thread's tally and hands the
    /// probe back.
    pub fn run(mut self) -> (Tally, P) {
        let start = self.probe.now();
        let mut idle: Option<(u64, u32)> = None;
        loop {
            let ran = std::mem::take(&mut self.uncounted);
            if let Some((e, stolen)) = self.rt.pop(self.me, ran, &mut self.probe, &mut self.tally) {
                if let Some((t0, spins)) = idle.take() {
                    self.probe
                        .wait_done(WaitReason::EmptyQueue, NO_REQUEST, t0, spins);
                }
                self.execute(e, stolen);
                continue;
            }
            if self.stealing
                && self.rt.steal(
                    self.me,
                    &mut self.probe,
                    &mut self.tally,
                    &mut self.last_refusal,
                )
            {
                continue;
            }
            if self.rt.stopped(self.me, &self.probe, &mut self.tally)
                || self.rt.stop_if_finished(&self.probe, &mut self.tally)
            {
                break;
            }
            let (t0, spins) = idle.get_or_insert_with(|| {
                let t0 = self
                    .probe
                    .wait_begin(WaitReason::EmptyQueue, NO_REQUEST, NO_REQUEST);
                (t0, 0)
            });
            let _ = t0;
            *spins = spins.saturating_add(1);
            let n = *spins;
            self.idle(n);
        }
        if let Some((t0, spins)) = idle.take() {
            self.probe
                .wait_done(WaitReason::EmptyQueue, NO_REQUEST, t0, spins);
        }
        self.tally.life_ns = self.probe.now().saturating_sub(start);
        (self.tally, self.probe)
    }

    /// Run event `e` and register its children.
    fn execute(&mut self, e: RequestId, stolen: bool) {
        let t0 = self.probe.now();
        let children = self.probe.run_event(e);
        let dt = self.probe.now().saturating_sub(t0);
        self.tally.exec_ns += dt;
        if stolen {
            self.tally.stolen_exec_ns += dt;
            self.tally.stolen_executed += 1;
            self.probe
                .count(psmr_core::trace::Counter::StolenExecuted, 1);
        }
        for &c in children {
            self.rt
                .register(&mut self.probe, &mut self.tally, Some(self.me), e, c);
        }
        self.uncounted += 1;
        self.executed += 1;
        if self.executed.is_multiple_of(SAMPLE_EVERY) {
            self.probe.sample_queue(self.rt.queued(self.me));
        }
    }

    /// Nothing to run or steal, for the `n`-th time in a row: spin, then
    /// yield, then sleep on the core's condition variable.
    fn idle(&mut self, n: u32) {
        let t0 = self.probe.now();
        if cfg!(any(loom, shuttle)) {
            // Models: yield, and now and then sleep (a notification wakes
            // the core; a lost one would deadlock the model).
            if self.stealing {
                sync::yield_now();
            } else {
                self.rt
                    .sleep(self.me, &self.probe, &mut self.tally, self.spin.park_us);
            }
        } else if n <= self.spin.spins {
            sync::spin_loop();
        } else if n <= self.spin.spins.saturating_add(self.spin.yields) {
            sync::yield_now();
        } else {
            self.rt
                .sleep(self.me, &self.probe, &mut self.tally, self.spin.park_us);
        }
        self.tally.park_ns += self.probe.now().saturating_sub(t0);
    }
}
