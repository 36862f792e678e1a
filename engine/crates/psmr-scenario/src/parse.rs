//! Parsing and validating a scenario, with every error located.
//!
//! Two stages: serde_json reads the text into the typed [`Scenario`]
//! (syntax, types, unknown and missing fields; serde_path_to_error gives the
//! field path), then [`validate`] checks what types cannot express (ranges,
//! shares, names that must exist, limits of the engine) and places each
//! error with the [`Locator`].

use std::collections::BTreeSet;
use std::sync::Arc;

use psmr_core::app::AppSpec;
use psmr_core::threads::MAX_WORKERS;
use psmr_core::workload::Skew;
use psmr_mapping::MappingSpec;
use psmr_schedulers::spec::MAX_QUEUE_CAPACITY;

use crate::expect::known_counter;
use crate::locate::{element, member, Locator};
use crate::scenario::{Scenario, Source};
use crate::Diagnostic;

/// Limits of the engine that runs a scenario. Validation errors name the
/// limit they hit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Most worker threads of one run.
    pub max_threads: usize,
    /// Most requests of one stream.
    pub max_requests: u32,
    /// Most trace events kept per run.
    pub max_trace_events: usize,
}

impl Limits {
    /// The native CLI: 64 threads, 10 million requests, 2 million events.
    pub fn native() -> Self {
        Limits {
            max_threads: MAX_WORKERS,
            max_requests: 10_000_000,
            max_trace_events: psmr_core::trace::TraceConfig::DEFAULT_MAX_EVENTS,
        }
    }
    /// The browser: 16 threads (the pool is sized for the largest run),
    /// 2 million requests, 2 million events.
    pub fn browser() -> Self {
        Limits {
            max_threads: 16,
            max_requests: 2_000_000,
            max_trace_events: psmr_core::trace::TraceConfig::DEFAULT_MAX_EVENTS,
        }
    }
}

/// Most shards an application may have (a `ShardSet` is a 64-bit mask).
pub const MAX_SHARDS: usize = 64;
/// Most keys of the key-value store.
pub const MAX_KV_KEYS: u64 = 1 << 24;
/// Longest busy time of one spin request (10 ms).
pub const MAX_SPIN_NS: u32 = 10_000_000;
/// Longest pace per request (100 ms).
pub const MAX_PACE_NS: u64 = 100_000_000;
/// Most repetitions of one scheduler.
pub const MAX_REPETITIONS: u32 = 100;
/// Tolerance of a class mix summing to 1.
const MIX_SUM_TOLERANCE: f64 = 1e-6;

/// Parse and validate `text` (named `file` in diagnostics) against the
/// native limits.
pub fn parse_scenario(text: &str, file: &str) -> Result<Scenario, Vec<Diagnostic>> {
    parse_scenario_with(text, file, &Limits::native())
}

/// Parse and validate `text` against `limits`. Never panics; every
/// diagnostic has `line >= 1`.
pub fn parse_scenario_with(
    text: &str,
    file: &str,
    limits: &Limits,
) -> Result<Scenario, Vec<Diagnostic>> {
    let mut de = serde_json::Deserializer::from_str(text);
    let parsed: Result<Scenario, _> = serde_path_to_error::deserialize(&mut de);
    let mut sc = match parsed {
        Ok(sc) => sc,
        Err(e) => {
            let path = path_string(e.path());
            return Err(vec![serde_diagnostic(text, file, path, e.into_inner())]);
        }
    };
    if let Err(e) = de.end() {
        return Err(vec![serde_diagnostic(text, file, String::new(), e)]);
    }
    sc.source = Some(Source {
        file: file.to_string(),
        locator: Arc::new(Locator::new(text)),
    });
    let errors = validate(&sc, limits);
    if errors.is_empty() {
        Ok(sc)
    } else {
        Err(errors)
    }
}

/// Turn a serde error at `path` into a located diagnostic.
fn serde_diagnostic(
    text: &str,
    file: &str,
    mut path: String,
    inner: serde_json::Error,
) -> Diagnostic {
    let mut message = strip_position(&inner.to_string());
    let mut pos = (inner.line(), inner.column());
    let syntax = inner.is_syntax() || inner.is_eof();
    if syntax {
        message = format!("invalid JSON: {message}");
    } else {
        let locator = Locator::new(text);
        // Unknown fields: point at the offending key itself.
        if let Some(field) = quoted_after(&message, "unknown field `") {
            let at = if path.ends_with(&field) {
                path.clone()
            } else {
                member(&path, &field)
            };
            if let Some(p) = locator.key(&at) {
                pos = p;
                path = at;
            }
        } else if let Some(p) = locator.value(&path) {
            // serde_json points at the end of the bad value; its start
            // reads better.
            pos = p;
        } else if pos.0 == 0 {
            pos = locator.nearest(&path);
        }
    }
    Diagnostic::new(file, pos, &path, message)
}

fn path_string(p: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    let mut s = String::new();
    for seg in p.iter() {
        match seg {
            Segment::Seq { index } => s = element(&s, *index),
            Segment::Map { key } => s = member(&s, key),
            Segment::Enum { .. } | Segment::Unknown => {}
        }
    }
    s
}

/// serde_json appends " at line L column C"; the diagnostic carries those.
fn strip_position(m: &str) -> String {
    match m.rfind(" at line ") {
        Some(i) => m[..i].to_string(),
        None => m.to_string(),
    }
}

/// The text between `prefix` and the next backquote.
fn quoted_after(m: &str, prefix: &str) -> Option<String> {
    let rest = &m[m.find(prefix)? + prefix.len()..];
    Some(rest[..rest.find('`')?].to_string())
}

/// Check what the types cannot: ranges, shares, names, limits.
pub fn validate(sc: &Scenario, limits: &Limits) -> Vec<Diagnostic> {
    let mut c = Checker {
        sc,
        out: Vec::new(),
    };
    c.top(limits);
    c.app();
    c.workload(limits);
    c.schedulers();
    c.run(limits);
    c.expect();
    c.out
}

struct Checker<'s> {
    sc: &'s Scenario,
    out: Vec<Diagnostic>,
}

impl Checker<'_> {
    fn err(&mut self, path: &str, message: String) {
        self.out.push(self.sc.diagnostic(path, message));
    }

    fn share(&mut self, path: &str, x: f64) {
        if !(0.0..=1.0).contains(&x) {
            self.err(path, format!("expected a share between 0 and 1, got {x}"));
        }
    }

    fn top(&mut self, limits: &Limits) {
        if self.sc.name.trim().is_empty() {
            self.err("name", "expected a non-empty name".into());
        }
        let t = self.sc.threads;
        let max = limits.max_threads.min(MAX_WORKERS);
        if t == 0 || t > max {
            self.err(
                "threads",
                format!("expected 1..={max} worker threads (limit max_threads = {max}), got {t}"),
            );
        }
    }

    fn app(&mut self) {
        let shards = self.sc.app.shards();
        if shards == 0 || shards > MAX_SHARDS {
            self.err(
                "app.shards",
                format!("expected 1..={MAX_SHARDS} shards, got {shards}"),
            );
        }
        match self.sc.app {
            AppSpec::KvStore { keys, .. } if keys < shards as u64 || keys > MAX_KV_KEYS => self
                .err(
                    "app.keys",
                    format!(
                    "expected between {shards} (one per shard) and {MAX_KV_KEYS} keys, got {keys}"
                ),
                ),
            AppSpec::Spin { ns, .. } if ns > MAX_SPIN_NS => self.err(
                "app.ns",
                format!("expected at most {MAX_SPIN_NS} ns of work per request, got {ns}"),
            ),
            _ => {}
        }
    }

    fn workload(&mut self, limits: &Limits) {
        let w = &self.sc.workload;
        let max = limits.max_requests;
        if w.requests == 0 || w.requests > max {
            self.err(
                "workload.requests",
                format!(
                    "expected 1..={max} requests (limit max_requests = {max}), got {}",
                    w.requests
                ),
            );
        }
        self.share("workload.writes", w.writes);
        self.share("workload.global", w.global);
        self.share("workload.scans", w.scans);
        let shards = self.sc.app.shards();
        if let Skew::Skewed { hot, share } = w.skew {
            self.share("workload.skew.share", share);
            if hot >= shards {
                self.err(
                    "workload.skew.hot",
                    format!("expected a shard index below {shards} (0-based), got {hot}"),
                );
            }
        }
        if let Some(g) = w.group_mean {
            if !(g.is_finite() && g > 0.0) {
                self.err(
                    "workload.group_mean",
                    format!("expected a positive mean group length, got {g}"),
                );
            }
        }
        let kv = matches!(self.sc.app, AppSpec::KvStore { .. });
        if !kv && w.scans > 0.0 {
            self.err(
                "workload.scans",
                "scans only apply to the kv-store application; remove it or set 0".into(),
            );
        }
        if w.scan_len == 0 || w.scan_len > 1 << 16 {
            self.err(
                "workload.scan_len",
                format!("expected 1..=65536 keys per scan, got {}", w.scan_len),
            );
        }
        if let Some(mix) = &w.mix {
            self.mix(mix);
        }
    }

    fn mix(&mut self, mix: &std::collections::BTreeMap<String, f64>) {
        let classes = self.sc.app.classes();
        let names: Vec<&str> = classes.classes().iter().map(|c| c.name.as_str()).collect();
        for (name, share) in mix {
            let path = format!("workload.mix.{name}");
            if classes.by_name(name).is_none() {
                self.err(
                    &path,
                    format!(
                        "unknown class `{name}`; this application has: {}",
                        names.join(", ")
                    ),
                );
            }
            self.share(&path, *share);
        }
        let sum: f64 = mix.values().sum();
        if (sum - 1.0).abs() > MIX_SUM_TOLERANCE {
            self.err(
                "workload.mix",
                format!("expected class shares summing to 1, they sum to {sum}"),
            );
        }
        let w = &self.sc.workload;
        if w.writes != 0.0 || w.global != 0.0 || w.skew != Skew::Balanced || w.group_mean.is_some()
        {
            self.err(
                "workload.mix",
                "with `mix`, the fields writes, global, skew and group_mean are ignored; remove them"
                    .into(),
            );
        }
    }

    fn schedulers(&mut self) {
        if self.sc.schedulers.is_empty() {
            self.err("schedulers", "expected at least one scheduler".into());
        }
        let mut seen = BTreeSet::new();
        let classes = self.sc.app.classes();
        for (i, s) in self.sc.schedulers.iter().enumerate() {
            let at = element("schedulers", i);
            let name = s.name();
            if !seen.insert(name.clone()) {
                let field = if s.label.is_some() { "label" } else { "id" };
                self.err(
                    &member(&at, field),
                    format!(
                        "duplicate scheduler name `{name}`; give each entry a distinct `label`"
                    ),
                );
            }
            if let Some(q) = s.queue_capacity {
                if q == 0 || q > MAX_QUEUE_CAPACITY {
                    self.err(
                        &member(&at, "queue_capacity"),
                        format!("expected 1..={MAX_QUEUE_CAPACITY} requests per queue, got {q}"),
                    );
                }
            }
            if let Some(m) = &s.mapping {
                self.mapping(&member(&at, "mapping"), m, &classes);
            }
        }
    }

    fn mapping(&mut self, at: &str, m: &MappingSpec, classes: &psmr_core::ClassTable) {
        match m {
            MappingSpec::Optimized { time_limit_s } => {
                if !(time_limit_s.is_finite() && *time_limit_s > 0.0) {
                    self.err(
                        &member(at, "time_limit_s"),
                        format!("expected a positive time limit in seconds, got {time_limit_s}"),
                    );
                }
            }
            MappingSpec::Naive => {}
            MappingSpec::Explicit { classes: map } => {
                let threads = self.sc.threads;
                for (name, cm) in map {
                    let path = format!("{at}.classes.{name}");
                    if classes.by_name(name).is_none() {
                        self.err(&path, format!("unknown class `{name}`"));
                    }
                    if cm.threads.is_empty() {
                        self.err(
                            &member(&path, "threads"),
                            "expected at least one thread".into(),
                        );
                    }
                    if let Some(t) = cm.threads.iter().find(|t| **t >= threads) {
                        self.err(
                            &member(&path, "threads"),
                            format!(
                                "thread {t} does not exist: the scenario has threads 0..{threads}"
                            ),
                        );
                    }
                }
                for c in classes.classes() {
                    if !map.contains_key(&c.name) {
                        self.err(
                            &member(at, "classes"),
                            format!("class `{}` has no mapping; every class needs one", c.name),
                        );
                    }
                }
                // Rules R.1-R.5, once the shape is right (resolving an
                // explicit mapping is cheap: no search).
                if self.out.iter().all(|d| !d.path.starts_with(at)) {
                    if let Err(m) = psmr_mapping::resolve(
                        &MappingSpec::Explicit {
                            classes: map.clone(),
                        },
                        classes,
                        threads,
                    ) {
                        self.err(at, m);
                    }
                }
            }
        }
    }

    fn run(&mut self, limits: &Limits) {
        let r = &self.sc.run;
        if let Some(p) = r.pace_ns {
            if p > MAX_PACE_NS {
                self.err(
                    "run.pace_ns",
                    format!("expected at most {MAX_PACE_NS} ns of pace per request, got {p}"),
                );
            }
        }
        if let Some(n) = r.repetitions {
            self.repetitions("run.repetitions", n);
        }
        if let Some(m) = r.max_trace_events {
            let max = limits.max_trace_events;
            if m == 0 || m > max {
                self.err(
                    "run.max_trace_events",
                    format!("expected 1..={max} events (limit max_trace_events = {max}), got {m}"),
                );
            }
        }
    }

    fn repetitions(&mut self, path: &str, n: u32) {
        if n == 0 || n > MAX_REPETITIONS {
            self.err(
                path,
                format!("expected 1..={MAX_REPETITIONS} repetitions, got {n}"),
            );
        }
    }

    fn expect(&mut self) {
        let Some(e) = &self.sc.expect else { return };
        if let Some(n) = e.repetitions {
            self.repetitions("expect.repetitions", n);
        }
        for (i, c) in e.counters.iter().enumerate() {
            let at = element("expect.counters", i);
            self.scheduler_ref(&member(&at, "scheduler"), &c.scheduler);
            if !known_counter(&c.counter) {
                self.err(
                    &member(&at, "counter"),
                    format!("unknown counter `{}`", c.counter),
                );
            }
            if !c.value.is_finite() {
                self.err(&member(&at, "value"), "expected a finite number".into());
            }
        }
        for (i, r) in e.ratios.iter().enumerate() {
            let at = element("expect.ratios", i);
            self.scheduler_ref(&member(&at, "of"), &r.of);
            self.scheduler_ref(&member(&at, "over"), &r.over);
            if !(r.at_least.is_finite() && r.at_least > 0.0) {
                self.err(
                    &member(&at, "at_least"),
                    format!("expected a positive ratio, got {}", r.at_least),
                );
            }
            if !(0.0..1.0).contains(&r.tolerance) {
                self.err(
                    &member(&at, "tolerance"),
                    format!(
                        "expected a relative tolerance in [0, 1), got {}",
                        r.tolerance
                    ),
                );
            }
            if r.min_cores == Some(0) {
                self.err(&member(&at, "min_cores"), "expected at least 1 core".into());
            }
        }
    }

    /// `name` must be a label or id of one of the scenario's schedulers.
    fn scheduler_ref(&mut self, path: &str, name: &str) {
        if crate::runner::find_scheduler(self.sc, name).is_none() {
            let known: Vec<String> = self.sc.schedulers.iter().map(|s| s.name()).collect();
            self.err(
                path,
                format!(
                    "no scheduler `{name}` in this scenario; it has: {}",
                    known.join(", ")
                ),
            );
        }
    }
}
