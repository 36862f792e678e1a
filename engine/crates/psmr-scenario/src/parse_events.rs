//! Value checks of event workloads (`workload.events`) and of the handlers
//! application's data sets: what serde's types cannot say.

use psmr_core::app::AppSpec;
use psmr_core::threads::MAX_WORKERS;
use psmr_core::workload_events::EventWorkload;

use super::{class_share_fields, Checker, MAX_SPIN_NS};
use crate::locate::{element, member};

/// Most KiB of data sets the handlers application may allocate (64 MiB,
/// allocated and filled when a run starts, also in the browser).
pub const MAX_DATA_KIB: u64 = 64 * 1024;
/// Most events one round of an event workload may register at once.
pub const MAX_ROUND: u32 = 1_000_000;
/// Most requests one pipeline connection may serve.
pub const MAX_REQUESTS_PER_CONNECTION: u32 = 10_000;

impl Checker<'_> {
    /// The handlers application's data sets fit the bound.
    pub(super) fn handlers_data(&mut self) {
        if let AppSpec::Handlers {
            data_sets,
            data_kib,
            ..
        } = self.sc.app
        {
            let kib = data_sets as u64 * data_kib as u64;
            if kib > MAX_DATA_KIB {
                self.err(
                    "app.data_kib",
                    format!(
                        "data sets take {data_sets} x {data_kib} KiB = {kib} KiB; expected at most {MAX_DATA_KIB} KiB in all"
                    ),
                );
            }
        }
    }

    /// An event workload: it runs on the handlers application, which must
    /// have its colors and data sets; the total-order fields stay unset;
    /// every value is in range.
    pub(super) fn events(&mut self, ev: &EventWorkload) {
        let at = "workload.events";
        let AppSpec::Handlers {
            colors,
            data_sets,
            data_kib,
        } = self.sc.app
        else {
            self.err(
                &member(at, "kind"),
                format!(
                    "event workloads run on the handlers application; this scenario's app is {}",
                    self.sc.app.kind_name()
                ),
            );
            return;
        };
        self.total_order_fields();
        let needs = ev.needs();
        if needs.colors > colors as u64 {
            self.err(
                "app.colors",
                format!(
                    "the {} workload uses colors 0..{}; expected at least {} colors, got {colors}",
                    ev.kind_name(),
                    needs.colors,
                    needs.colors
                ),
            );
        }
        if needs.data_sets > data_sets {
            self.err(
                "app.data_sets",
                format!(
                    "the {} workload walks {} data sets; expected at least that many, got {data_sets}",
                    ev.kind_name(),
                    needs.data_sets
                ),
            );
        }
        if needs.data_sets > 0 && data_kib < needs.data_kib {
            self.err(
                "app.data_kib",
                format!(
                    "the {} workload needs data sets of at least {} KiB, got {data_kib}",
                    ev.kind_name(),
                    needs.data_kib
                ),
            );
        }
        self.event_shape(at, ev, data_kib);
        self.handler_notes(at, ev, data_kib);
    }

    /// Fields of total-order workloads are refused next to `events`.
    fn total_order_fields(&mut self) {
        for (field, present) in class_share_fields(&self.sc.workload) {
            if present {
                self.err_at_key(
                    &member("workload", field),
                    format!("`{field}` does not apply to an event workload; remove it"),
                );
            }
        }
    }

    fn event_shape(&mut self, at: &str, ev: &EventWorkload, data_kib: u32) {
        match ev {
            EventWorkload::Unbalanced {
                round,
                long_share,
                short_ns,
                long_ns,
                colors,
                ..
            } => {
                self.count(&member(at, "round"), *round, MAX_ROUND, "events per round");
                if let Some(c) = colors {
                    let most = (*round).max(1);
                    self.count(&member(at, "colors"), *c, most, "colors (at most `round`)");
                }
                self.share(&member(at, "long_share"), *long_share);
                self.spin_ns(&member(at, "short_ns"), *short_ns);
                for (i, ns) in long_ns.iter().enumerate() {
                    self.spin_ns(&element(&member(at, "long_ns"), i), *ns);
                }
                if long_ns[0] > long_ns[1] {
                    self.err(
                        &member(at, "long_ns"),
                        format!(
                            "expected [low, high] with low <= high, got [{}, {}]",
                            long_ns[0], long_ns[1]
                        ),
                    );
                }
            }
            EventWorkload::Penalty {
                arrays, chunk_kib, ..
            } => {
                self.count(&member(at, "arrays"), *arrays, MAX_ROUND, "arrays");
                if *chunk_kib == 0 || (data_kib > 0 && *chunk_kib > data_kib) {
                    self.err(
                        &member(at, "chunk_kib"),
                        format!(
                            "expected 1..={} KiB per B event (at most app.data_kib), got {chunk_kib}",
                            data_kib.max(1)
                        ),
                    );
                }
            }
            EventWorkload::Locality {
                arrays, a_cores, ..
            } => {
                self.count(&member(at, "arrays"), *arrays, MAX_ROUND, "arrays");
                if a_cores.is_empty() {
                    self.err(&member(at, "a_cores"), "expected at least one core".into());
                }
                for (i, c) in a_cores.iter().enumerate() {
                    if *c as usize >= MAX_WORKERS {
                        self.err(
                            &element(&member(at, "a_cores"), i),
                            format!("expected a core below {MAX_WORKERS}, got {c}"),
                        );
                    }
                }
            }
            EventWorkload::Pipeline {
                connections,
                requests_per_connection,
                files,
                ..
            } => {
                self.count(
                    &member(at, "connections"),
                    *connections,
                    MAX_ROUND,
                    "connections",
                );
                self.count(
                    &member(at, "requests_per_connection"),
                    *requests_per_connection,
                    MAX_REQUESTS_PER_CONNECTION,
                    "requests per connection",
                );
                self.count(&member(at, "files"), *files, MAX_ROUND, "files");
            }
        }
    }

    /// `handlers` names handlers of the shape, with values in range.
    fn handler_notes(&mut self, at: &str, ev: &EventWorkload, data_kib: u32) {
        let names: Vec<&str> = ev.handlers(data_kib).iter().map(|h| h.name).collect();
        let notes = member(at, "handlers");
        for (name, note) in ev.notes() {
            let path = member(&notes, name);
            if !names.contains(&name.as_str()) {
                self.err_at_key(
                    &path,
                    format!(
                        "the {} workload has no handler `{name}`; it has: {}",
                        ev.kind_name(),
                        names.join(", ")
                    ),
                );
                continue;
            }
            if let Some(ns) = note.ns {
                self.spin_ns(&member(&path, "ns"), ns);
            }
            if let Some(ns) = note.cost_ns {
                self.spin_ns(&member(&path, "cost_ns"), ns);
            }
            if note.penalty == Some(0) {
                self.err(
                    &member(&path, "penalty"),
                    "expected a penalty of at least 1 (1: no penalty)".into(),
                );
            }
        }
    }

    fn count(&mut self, path: &str, n: u32, max: u32, what: &str) {
        if n == 0 || n > max {
            self.err(path, format!("expected 1..={max} {what}, got {n}"));
        }
    }

    fn spin_ns(&mut self, path: &str, ns: u32) {
        if ns > MAX_SPIN_NS {
            self.err(
                path,
                format!("expected at most {MAX_SPIN_NS} ns of work per event, got {ns}"),
            );
        }
    }
}
