//! The scenario file format: one JSON object describing an application, a
//! workload, a thread count, the schedulers to compare, run settings and
//! optional expectations. Every struct refuses unknown fields, so a typo is
//! an error, not a silently ignored setting.

use std::sync::Arc;

use psmr_core::app::AppSpec;
use psmr_core::exec::Delivery;
use psmr_core::workload::WorkloadSpec;
use psmr_core::StreamKind;
use psmr_schedulers::SchedulerSpec;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::diag::Diagnostic;
use crate::expectations::Expectations;
use crate::locate::Locator;

/// A scenario: what to run, on which schedulers, and what to expect.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Path or URL of the JSON Schema, for editors; ignored by the engine.
    #[serde(rename = "$schema", default, skip_serializing_if = "Option::is_none")]
    pub schema: Option<String>,
    /// Short name, shown in reports.
    pub name: String,
    /// What the scenario shows and why (the format has no comments: prose
    /// goes here).
    pub description: String,
    /// The replicated application and its size.
    pub app: AppSpec,
    /// The request stream: size, seed, write and global shares, skew.
    pub workload: WorkloadSpec,
    /// How clients deliver requests: `saturate` (open loop, as fast as the
    /// scheduler takes them; the default), `rate` (open loop, `per_s`
    /// deliveries per second) or `closed` (`clients` clients, each waiting
    /// for its reply before sending again, as the papers measure).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delivery: Option<Delivery>,
    /// Worker threads of every parallel scheduler (1..=64; the browser
    /// allows fewer). The delivering thread is extra.
    #[schemars(range(min = 1, max = 64))]
    pub threads: usize,
    /// Schedulers to compare, each on the identical request stream.
    #[schemars(length(min = 1))]
    pub schedulers: Vec<SchedulerSpec>,
    /// Run settings: pace, trace, repetitions.
    #[serde(default)]
    pub run: RunSettings,
    /// Expectations checked by `psmr check` and the lab's Check button.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expect: Option<Expectations>,
    /// Free-form tags, for grouping scenarios in the lab.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
    /// The text the scenario was parsed from, kept to locate errors found
    /// later (e.g. a scheduler refusing its configuration at run time).
    #[serde(skip)]
    #[schemars(skip)]
    pub source: Option<Source>,
}

/// Source text of a parsed scenario, with its locator built once.
#[derive(Clone, Debug)]
pub struct Source {
    pub file: String,
    pub locator: Arc<Locator>,
}

impl PartialEq for Scenario {
    /// Scenarios compare by content; where they were read from does not
    /// matter.
    fn eq(&self, o: &Self) -> bool {
        self.schema == o.schema
            && self.name == o.name
            && self.description == o.description
            && self.app == o.app
            && self.workload == o.workload
            && self.delivery == o.delivery
            && self.threads == o.threads
            && self.schedulers == o.schedulers
            && self.run == o.run
            && self.expect == o.expect
            && self.tags == o.tags
    }
}

/// How the runs of a scenario are carried out.
#[serde_with_macros::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RunSettings {
    /// Extra busy time per executed request, in nanoseconds, to slow a run
    /// down to watching speed in a classroom (0 = full speed).
    pub pace_ns: Option<u64>,
    /// Record the event trace (default true). Off for throughput numbers
    /// with the least overhead.
    pub trace: Option<bool>,
    /// How many times `psmr check` and bench runs repeat each scheduler
    /// (the median counts); default 1.
    #[schemars(range(min = 1, max = 100))]
    pub repetitions: Option<u32>,
    /// Upper bound of trace events kept per run (default and maximum: the
    /// engine's limit, 2,000,000).
    #[schemars(range(min = 1))]
    pub max_trace_events: Option<usize>,
    /// Run on this many virtual cores instead of real threads (1..=64
    /// natively): that many workers, replacing `threads`, on a modelled
    /// machine of that many cores, which the delivering thread and the
    /// roles share with them, run one at a time under a conductor in
    /// virtual time with a cost model (docs/protocols/virtual-cores.md;
    /// `psmr run --threads T` sets the workers apart). The numbers are a model's and
    /// every report says so. Absent: real threads (the default).
    #[schemars(range(min = 1, max = 64))]
    pub virtual_cores: Option<u32>,
    /// Replay one schedule on virtual cores: a token printed by
    /// `psmr explore` (`s<seed>c<cores>`, or with
    /// `d<depth>k<horizon>x<schedule seed>` after it, and `v1` after that
    /// when every delay falls on one slow thread); its seed and cores
    /// replace the workload's seed and the threads. A saved counterexample
    /// pins its violation with it.
    #[schemars(regex(pattern = r"^s[0-9]+c[0-9]+(d[0-9]+k[0-9]+x[0-9]+(v1)?)?$"))]
    pub schedule: Option<String>,
}

impl RunSettings {
    pub fn trace(&self) -> bool {
        self.trace.unwrap_or(true)
    }
    pub fn repetitions(&self) -> u32 {
        self.repetitions.unwrap_or(1)
    }
    pub fn pace_ns(&self) -> u64 {
        self.pace_ns.unwrap_or(0)
    }
}

/// Which of a scenario's scheduler entries a name picks
/// ([`Scenario::match_scheduler`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EntryMatch {
    /// The entry at this index.
    One(usize),
    /// No entry: the name is no label nor id of the file.
    None,
    /// Several entries share this id and none is named by it.
    Several(Vec<usize>),
}

impl Scenario {
    /// The kind of stream the workload makes.
    pub fn stream_kind(&self) -> StreamKind {
        stream_kind_of(&self.workload)
    }

    /// Index of the scheduler named `name` ([`Scenario::match_scheduler`]);
    /// `None` when no entry or several have that name.
    pub fn find_scheduler(&self, name: &str) -> Option<usize> {
        match self.match_scheduler(name) {
            EntryMatch::One(i) => Some(i),
            EntryMatch::None | EntryMatch::Several(_) => None,
        }
    }

    /// The entries `name` picks: the entry it names (its label, or the id
    /// of an entry without a label: names are distinct in a valid file),
    /// else the one entry of that id. An id several labelled entries share
    /// picks none of them by itself: which one runs would be a guess.
    pub fn match_scheduler(&self, name: &str) -> EntryMatch {
        if let Some(i) = self.schedulers.iter().position(|s| s.name() == name) {
            return EntryMatch::One(i);
        }
        let of_id: Vec<usize> = (0..self.schedulers.len())
            .filter(|&i| self.schedulers[i].id.as_str() == name)
            .collect();
        match of_id.as_slice() {
            [] => EntryMatch::None,
            [i] => EntryMatch::One(*i),
            _ => EntryMatch::Several(of_id),
        }
    }

    /// Why `name` picks none of the `entries` it matches (all of its id):
    /// the names to choose from.
    pub fn ambiguous_name(&self, name: &str, entries: &[usize]) -> String {
        let names: Vec<String> = entries.iter().map(|&i| self.schedulers[i].name()).collect();
        format!(
            "`{name}` is the id of {} entries of this scenario ({}); name one by its label",
            entries.len(),
            names.join(", ")
        )
    }

    /// The delivery model (default: saturate).
    pub fn delivery(&self) -> Delivery {
        self.delivery.unwrap_or_default()
    }

    /// The file the scenario came from, or `<scenario>`.
    pub fn file(&self) -> &str {
        self.source
            .as_ref()
            .map(|s| s.file.as_str())
            .unwrap_or("<scenario>")
    }

    /// Line and column of the value at `path` (or its nearest located
    /// ancestor; `(1, 1)` when the scenario has no source text).
    pub fn locate(&self, path: &str) -> (usize, usize) {
        self.source
            .as_ref()
            .map(|s| s.locator.nearest(path))
            .unwrap_or((1, 1))
    }

    /// A diagnostic at `path` of this scenario.
    pub fn diagnostic(&self, path: &str, message: String) -> Diagnostic {
        Diagnostic::new(self.file(), self.locate(path), path, message)
    }

    /// The JSON Schema of the format, pretty-printed (as committed in
    /// `scenarios/scenario.schema.json`).
    pub fn json_schema() -> String {
        let schema = schemars::schema_for!(Scenario);
        let mut s = serde_json::to_string_pretty(&schema).unwrap_or_default();
        s.push('\n');
        s
    }
}

/// The stream kind a workload makes: an event stream for an `events`
/// workload, commits with a `commits` object, a total order otherwise.
pub fn stream_kind_of(workload: &WorkloadSpec) -> StreamKind {
    if workload.events.is_some() {
        StreamKind::Events
    } else if workload.commits.is_some() {
        StreamKind::Commits
    } else {
        StreamKind::Total
    }
}
