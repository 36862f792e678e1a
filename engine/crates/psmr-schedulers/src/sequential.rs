//! Sequential SMR, the baseline: the delivering thread itself executes every
//! request in delivery order. No queues, no hand-off; `threads` is ignored.

use psmr_core::exec::{RunContext, RunOutput};
use psmr_core::trace::SCHEDULER;
use psmr_core::{RunError, Scheduler, SchedulerId};

/// The baseline scheduler.
#[derive(Debug, Clone, Copy, Default)]
pub struct Sequential;

impl Scheduler for Sequential {
    fn id(&self) -> SchedulerId {
        SchedulerId::Sequential
    }

    fn run(&self, ctx: &RunContext<'_>) -> Result<RunOutput, RunError> {
        ctx.host
            .run(
                0,
                |_| {},
                || {
                    let mut rec = ctx.recorder(SCHEDULER);
                    let mut delivered = 0u32;
                    for req in ctx.requests {
                        if !ctx.deliver(&mut rec, req) {
                            break;
                        }
                        delivered += 1;
                        ctx.execute(&mut rec, req);
                    }
                    RunOutput {
                        delivered,
                        ..RunOutput::default()
                    }
                },
            )
            .map_err(RunError::Threads)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use psmr_core::app::{AppSpec, ListCost};
    use psmr_core::cancel::CancelToken;
    use psmr_core::exec::Progress;
    use psmr_core::oracle::Reference;
    use psmr_core::run::{run_checked, RunInput};
    use psmr_core::threads::ThreadHost;
    use psmr_core::trace::{EventKind, TraceConfig};
    use psmr_core::workload::{generate, Skew, WorkloadSpec};

    #[test]
    fn sequential_run_agrees_with_the_oracle_and_traces_every_request() {
        let app = AppSpec::LinkedList {
            shards: 2,
            size: ListCost::Light,
        };
        let classes = app.classes();
        let w = WorkloadSpec {
            seed: 3,
            requests: 500,
            writes: 0.3,
            global: 0.1,
            skew: Skew::Balanced,
            mix: None,
            group_mean: None,
            scans: 0.0,
            scan_len: 16,
        };
        let requests = generate(&app, &classes, &w);
        let reference = Reference::compute(app.build().as_ref(), &requests);
        let host = ThreadHost::with_capacity(2).unwrap();
        let input = RunInput {
            app: &app,
            classes: &classes,
            requests: &requests,
            host: &host,
            trace: TraceConfig::on(),
            pace_ns: 0,
        };
        let r = run_checked(
            &Sequential,
            1,
            &input,
            &reference,
            &CancelToken::default(),
            &Progress::new(2),
        )
        .unwrap();
        assert!(r.verdict.correct, "{:?}", r.verdict);
        assert_eq!(r.metrics.requests, 500);
        let starts = r
            .trace
            .iter()
            .filter(|e| matches!(e.kind, EventKind::ExecStart { .. }))
            .count();
        assert_eq!(starts, 500);
    }
}
