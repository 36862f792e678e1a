//! Parsing and validating a scenario, with every error located.
//!
//! Two stages: serde_json reads the text into the typed [`Scenario`]
//! (syntax, types, unknown and missing fields; the field path is recovered
//! from the error's position, `errpath`), then [`validate`] checks what
//! types cannot express (ranges, shares, names that must exist, limits of
//! the engine) and places each error with the [`Locator`]. Before a run,
//! [`check_run`] makes the same checks on the scenario with the run's
//! overrides, in the same pass as the run's own (per-thread pace, selected
//! entries); [`check_pool`] judges the host's thread pool once the run has
//! one. Parameter values are checked by each family
//! (`psmr_schedulers::params::Params`).

use std::collections::BTreeSet;
use std::sync::Arc;

use psmr_core::app::AppSpec;
use psmr_core::exec::Delivery;
use psmr_core::threads::MAX_WORKERS;
use psmr_core::workload::{Skew, WorkloadSpec};
use psmr_core::{Needs, SpaceKind, StreamKind};
use psmr_schedulers::params::ParamEnv;
use psmr_schedulers::spec::{misfits, Misfit};
use psmr_schedulers::SchedulerSpec;

use crate::diag::Diagnostic;
use crate::expectations::known_counter;
use crate::locate::{element, member, Locator};
use crate::options::{entry_needs, select_with, RunOptions, Selected};
pub use crate::scenario::stream_kind_of;
use crate::scenario::{EntryMatch, Scenario, Source};

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
    /// Most auxiliary threads (tracker, partitioner, graph builder) a run
    /// may start beside its workers; the browser's pool is sized for
    /// `max_threads + 1 + max_roles`.
    pub max_roles: usize,
}

impl Limits {
    /// The native CLI: 64 threads, 10 million requests, 2 million events.
    pub fn native() -> Self {
        Limits {
            max_threads: MAX_WORKERS,
            max_requests: 10_000_000,
            max_trace_events: psmr_core::trace::TraceConfig::DEFAULT_MAX_EVENTS,
            max_roles: psmr_core::threads::MAX_ROLES,
        }
    }
    /// The browser: 16 threads and 2 auxiliary threads (the pool is sized
    /// for the largest run), 2 million requests, 2 million events.
    pub fn browser() -> Self {
        Limits {
            max_threads: 16,
            max_requests: 2_000_000,
            max_trace_events: psmr_core::trace::TraceConfig::DEFAULT_MAX_EVENTS,
            max_roles: 2,
        }
    }
}

/// Most shards an application may have (a `ShardSet` is a 64-bit mask).
pub const MAX_SHARDS: usize = 64;
/// Most keys of the key-value store.
pub const MAX_KV_KEYS: u64 = 1 << 24;
/// Most keys of the key-value store under a YCSB workload (YCSB's record
/// count cap, below [`MAX_KV_KEYS`]).
pub const MAX_YCSB_KEYS: u64 = psmr_core::ycsb::MAX_RECORDS;
/// Longest busy time of one spin request (10 ms).
pub const MAX_SPIN_NS: u32 = 10_000_000;
/// Longest pace per request (100 ms).
pub const MAX_PACE_NS: u64 = 100_000_000;
/// Most repetitions of one scheduler.
pub const MAX_REPETITIONS: u32 = 100;
/// Most colors of the handlers app.
pub const MAX_COLORS: u32 = 1 << 20;
/// Most closed-loop clients.
pub const MAX_CLIENTS: u32 = 1_000_000;
/// Highest open-loop rate, deliveries per second.
pub const MAX_RATE_PER_S: f64 = 1e9;
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
    let sc = parse_unvalidated(text, file)?;
    let errors = validate(&sc, limits);
    if errors.is_empty() {
        Ok(sc)
    } else {
        Err(errors)
    }
}

/// Parse `text` as a scenario with its source kept for locating errors,
/// without [`validate`]: for a caller that applies overrides first and then
/// validates the result once (`runner::plan_run`).
pub fn parse_unvalidated(text: &str, file: &str) -> Result<Scenario, Vec<Diagnostic>> {
    let (mut sc, locator) = parse_located::<Scenario>(text, file).map_err(|d| vec![d])?;
    // A struct written as a JSON array (serde takes fields by position) is
    // refused, located at the array.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if let Some(d) = positional(text, file, &sc) {
        return Err(vec![d]);
    }
    sc.source = Some(Source {
        file: file.to_string(),
        locator: Arc::new(locator),
    });
    Ok(sc)
}

/// Parse `text` (named `file` in diagnostics) as any JSON document type
/// `T`, with its syntax, type, unknown-field and missing-field errors
/// located as a scenario's are, and return the [`Locator`] of the text for
/// the checks the caller makes next. Used for scenarios and for the class
/// tables of `psmr map`.
pub fn parse_located<T: serde::de::DeserializeOwned>(
    text: &str,
    file: &str,
) -> Result<(T, Locator), Diagnostic> {
    // Some editors save a UTF-8 byte-order mark; it is not JSON, skip it.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut de = serde_json::Deserializer::from_str(text);
    // A plain parse (issue 30: the tracked one costs the browser ~22 KB);
    // an error's field path is recovered from its position (`errpath`).
    let value = match <T as serde::Deserialize>::deserialize(&mut de) {
        Ok(v) => v,
        Err(e) => {
            let path = error_path::<T>(text, &e);
            return Err(serde_diagnostic(text, file, path, e));
        }
    };
    if let Err(e) = de.end() {
        return Err(serde_diagnostic(text, file, String::new(), e));
    }
    Ok((value, Locator::new(text)))
}

/// The field path of the error `e` of parsing `text` as `T`: from its
/// position, and for a data error by parsing again the texts
/// `errpath::data_path` makes (the same instance of `T`'s deserializer:
/// no code is added for it).
fn error_path<T: serde::de::DeserializeOwned>(text: &str, e: &serde_json::Error) -> String {
    if e.line() == 0 {
        return String::new();
    }
    if !e.is_data() {
        return crate::errpath::path_at(text, e.line(), e.column(), e.is_eof());
    }
    let message = strip_position(&e.to_string());
    let made_again = |t: &str| {
        let mut de = serde_json::Deserializer::from_str(t);
        <T as serde::Deserialize>::deserialize(&mut de)
            .err()
            .is_some_and(|e| e.is_data() && strip_position(&e.to_string()) == message)
    };
    crate::errpath::data_path(text, (e.line(), e.column()), &message, &made_again)
}

/// Turn a serde error at `path` into a located diagnostic.
pub(crate) fn serde_diagnostic(
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
        // Inside the internally tagged `app`, serde loses the field path;
        // a list size error can only come from `app.size`.
        if path == "app" && message.starts_with("expected a list size") {
            path = "app.size".into();
        }
        // Unknown fields: point at the offending key itself.
        if let Some(field) = quoted_after(&message, "unknown field `") {
            if let Some(hint) = moved_parameter(&path, &field).or_else(|| fault_hint(&path, &field))
            {
                message = format!("{message}; {hint}");
            }
            let at = field_path(&path, &field);
            if let Some(p) = locator.key(&at) {
                pos = p;
                path = at;
            }
        } else if let Some(field) = quoted_after(&message, "duplicate field `") {
            // A repeated key: point at its second occurrence.
            let at = field_path(&path, &field);
            if let Some(p) = locator.repeated_key(&at) {
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

/// The path of the key `field` a serde error names at `path`: serde stops
/// at the object for an unknown or repeated key, or already at the key.
fn field_path(path: &str, field: &str) -> String {
    if path.ends_with(field) {
        path.to_string()
    } else {
        member(path, field)
    }
}

/// serde_json appends " at line L column C"; the diagnostic carries those.
fn strip_position(m: &str) -> String {
    match m.rfind(" at line ") {
        Some(i) => m[..i].to_string(),
        None => m.to_string(),
    }
}

/// Field `f` of the scheduler entry at `at`; an entry named only by a run
/// option (`at` = `schedulers`) has no fields in the file, so the
/// diagnostic stays at `schedulers`.
fn entry_field(at: &str, f: &str) -> String {
    if at.ends_with(']') {
        member(at, f)
    } else {
        at.to_string()
    }
}

/// First-wave files put scheduler parameters directly in the entry; say
/// where they go now.
fn moved_parameter(path: &str, field: &str) -> Option<String> {
    let parent = path
        .strip_suffix(field)
        .map_or(path, |p| p.trim_end_matches('.'));
    let entry = parent.starts_with("schedulers[") && !parent.contains('.');
    let moved = ["mapping", "queue_capacity", "spin"].contains(&field);
    (entry && moved).then(|| {
        format!(
            "scheduler parameters go in the family's object, e.g. \"early\": {{\"{field}\": ...}} or \"stealing\": {{\"{field}\": ...}} (scripts/migrate-scheduler-params.py moves them)"
        )
    })
}

/// A scheduler entry's `fault` in a build without fault injection: say
/// which build has it.
fn fault_hint(path: &str, field: &str) -> Option<String> {
    let parent = path
        .strip_suffix(field)
        .map_or(path, |p| p.trim_end_matches('.'));
    let entry = parent.starts_with("schedulers[") && !parent.contains('.');
    (entry && field == "fault").then(|| {
        "`fault` selects a deliberately broken scheduler and needs an engine built with the `fault-injection` feature (cargo build -p psmr-cli --features fault-injection)".to_string()
    })
}

/// serde reads a struct from a JSON array too (its fields by position);
/// a scenario names its fields. The first place of `text` where the typed
/// scenario has an object and the text an array, as a located error.
fn positional(text: &str, file: &str, sc: &Scenario) -> Option<Diagnostic> {
    let given: serde_json::Value = serde_json::from_str(text).ok()?;
    let typed = serde_json::to_value(sc).ok()?;
    let path = first_positional(&typed, &given, "")?;
    let pos = Locator::new(text).nearest(&path);
    let what = if path.is_empty() {
        "a scenario".to_string()
    } else {
        format!("`{path}`")
    };
    Some(Diagnostic::new(
        file,
        pos,
        &path,
        format!("expected {what} as a JSON object with named fields, got an array"),
    ))
}

/// The path of the first value that is an object in `typed` and an array
/// in `given` (members and elements present in both, in order).
fn first_positional(
    typed: &serde_json::Value,
    given: &serde_json::Value,
    path: &str,
) -> Option<String> {
    use serde_json::Value::{Array, Object};
    match (typed, given) {
        (Object(_), Array(_)) => Some(path.to_string()),
        (Object(t), Object(g)) => t.iter().find_map(|(k, tv)| {
            g.get(k)
                .and_then(|gv| first_positional(tv, gv, &member(path, k)))
        }),
        (Array(t), Array(g)) => t
            .iter()
            .zip(g)
            .enumerate()
            .find_map(|(i, (tv, gv))| first_positional(tv, gv, &element(path, i))),
        _ => None,
    }
}

/// The text between `prefix` and the next backquote.
fn quoted_after(m: &str, prefix: &str) -> Option<String> {
    let rest = &m[m.find(prefix)? + prefix.len()..];
    Some(rest[..rest.find('`')?].to_string())
}

/// The fields of the class-share generator (total-order workloads), each
/// with whether `w` sets it: a YCSB or event workload refuses them.
fn class_share_fields(w: &WorkloadSpec) -> [(&'static str, bool); 6] {
    [
        ("writes", w.writes != 0.0),
        ("global", w.global != 0.0),
        ("skew", w.skew != Skew::Balanced),
        ("mix", w.mix.is_some()),
        ("group_mean", w.group_mean.is_some()),
        ("scans", w.scans != 0.0),
    ]
}

/// Check what the types cannot: ranges, shares, names, limits.
pub fn validate(sc: &Scenario, limits: &Limits) -> Vec<Diagnostic> {
    let mut c = Checker::new(sc, limits);
    c.file(&entry_needs(sc));
    c.out
}

/// Everything checked before a run of `sc` (the scenario with `opts`'
/// overrides applied) starts, in one pass: the file's fields, the
/// per-thread pace, the entries `opts` selects (each scheduler's needs asked
/// once: the file's entries here, an id named only by `opts` when it is
/// selected). Stops at the first stage with errors: the file and the pace,
/// then the selection, then the entries named only by `opts`. The host's
/// thread pool is judged when the run has one ([`check_pool`]); the checks
/// that need the stream (covering classes) and each family's own refusals
/// come when the run is built (`runner::build_selected`).
pub fn check_run(
    sc: &Scenario,
    opts: &RunOptions,
    limits: &Limits,
) -> Result<Vec<Selected>, Vec<Diagnostic>> {
    let needs = entry_needs(sc);
    let mut c = Checker::new(sc, limits);
    c.threads_override = opts.threads.is_some();
    c.file(&needs);
    c.thread_pace(opts.thread_pace_ns.as_deref());
    c.stage()?;
    let selected = select_with(sc, opts, &needs)?;
    // Ids named only by `opts` were not validated with the file.
    for s in selected.iter().filter(|s| s.index.is_none()) {
        c.scheduler(&s.path(), &s.spec, s.needs);
    }
    c.stage()?;
    Ok(selected)
}

/// A thread pool of `capacity` threads holds a run of `sc` (checked by
/// [`check_run`]) with the `selected` entries: its workers, the largest
/// entry's auxiliary roles and the driver. Located at `threads`.
pub fn check_pool(
    sc: &Scenario,
    selected: &[Selected],
    capacity: usize,
) -> Result<(), Vec<Diagnostic>> {
    let threads = sc.threads;
    let roles = selected
        .iter()
        .map(|s| s.needs.roles.len())
        .max()
        .unwrap_or(0);
    if threads + 1 + roles <= capacity {
        return Ok(());
    }
    let aux = if roles > 0 {
        format!(" (and {roles} auxiliary)")
    } else {
        String::new()
    };
    Err(vec![sc.diagnostic(
        "threads",
        format!(
            "a run with {threads} worker threads{aux} needs {} pool threads, this engine has {capacity}",
            threads + 1 + roles,
        ),
    )])
}

#[cfg(test)]
thread_local! {
    /// Passes over a scenario's fields made on this thread
    /// ([`validate`], [`check_run`]): the tests count them to show that a
    /// run, a sweep or an exploration judges its scenario once per run.
    pub(crate) static FILE_PASSES: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// The error of `sc`'s worker count when it is out of `limits`, located at
/// `threads`; `overridden`: the count is the run's override (`--threads`),
/// not the file's, and the error says so.
pub(crate) fn threads_error(
    sc: &Scenario,
    limits: &Limits,
    overridden: bool,
) -> Option<Diagnostic> {
    let t = sc.threads;
    let max = limits.max_threads.min(MAX_WORKERS);
    if t != 0 && t <= max {
        return None;
    }
    let from = if overridden {
        " from the run's threads override (--threads)"
    } else {
        ""
    };
    let message =
        format!("expected 1..={max} worker threads (limit max_threads = {max}), got {t}{from}");
    Some(sc.diagnostic("threads", message))
}

/// `names` joined with " or " (the stream or cell kinds a scheduler takes).
fn either<'a>(names: impl Iterator<Item = &'a str>) -> String {
    names.collect::<Vec<_>>().join(" or ")
}

struct Checker<'s> {
    sc: &'s Scenario,
    limits: Limits,
    out: Vec<Diagnostic>,
    /// The worker count is the run's override (`--threads`), not the
    /// file's: an error about it says so.
    threads_override: bool,
}

impl<'s> Checker<'s> {
    fn new(sc: &'s Scenario, limits: &Limits) -> Self {
        Checker {
            sc,
            limits: *limits,
            out: Vec::new(),
            threads_override: false,
        }
    }

    /// The errors so far, if any (taken: the next stage starts empty).
    fn stage(&mut self) -> Result<(), Vec<Diagnostic>> {
        if self.out.is_empty() {
            Ok(())
        } else {
            Err(std::mem::take(&mut self.out))
        }
    }

    /// Every field of the file; `needs` are its entries' schedulers' needs.
    fn file(&mut self, needs: &[&'static Needs]) {
        #[cfg(test)]
        FILE_PASSES.with(|n| n.set(n.get() + 1));
        let limits = self.limits;
        self.top(&limits);
        self.app();
        self.workload(&limits);
        self.delivery();
        self.schedulers(needs);
        self.run(&limits);
        self.expect();
    }

    fn err(&mut self, path: &str, message: String) {
        self.out.push(self.sc.diagnostic(path, message));
    }

    /// An error about a field's presence: located at its key.
    fn err_at_key(&mut self, path: &str, message: String) {
        let pos = self
            .sc
            .source
            .as_ref()
            .and_then(|s| s.locator.key(path))
            .unwrap_or_else(|| self.sc.locate(path));
        self.out
            .push(Diagnostic::new(self.sc.file(), pos, path, message));
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
        if let Some(d) = threads_error(self.sc, limits, self.threads_override) {
            self.out.push(d);
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
        // A YCSB workload caps the record count (the store's keys) lower.
        let (max_keys, cap) = if self.sc.workload.ycsb.is_some() {
            (MAX_YCSB_KEYS, " (YCSB's record count cap)")
        } else {
            (MAX_KV_KEYS, "")
        };
        match self.sc.app {
            AppSpec::KvStore { keys, .. } if keys < shards as u64 || keys > max_keys => self.err(
                "app.keys",
                format!(
                    "expected between {shards} (one per shard) and {max_keys} keys{cap}, got {keys}"
                ),
            ),
            AppSpec::KvStore { value_bytes, .. }
                if !(8..=psmr_core::app::kv::MAX_VALUE_BYTES).contains(&value_bytes) =>
            {
                self.err(
                    "app.value_bytes",
                    format!(
                        "expected 8..={} bytes per value, got {value_bytes}",
                        psmr_core::app::kv::MAX_VALUE_BYTES
                    ),
                )
            }
            AppSpec::Spin { ns, .. } if ns > MAX_SPIN_NS => self.err(
                "app.ns",
                format!("expected at most {MAX_SPIN_NS} ns of work per request, got {ns}"),
            ),
            AppSpec::Handlers { colors, .. } if colors == 0 || colors > MAX_COLORS => self.err(
                "app.colors",
                format!("expected 1..={MAX_COLORS} colors, got {colors}"),
            ),
            AppSpec::Handlers { .. } if self.sc.stream_kind() != StreamKind::Events => self.err(
                "app.kind",
                "the handlers application runs event streams, and this workload makes a total order; give the workload an `events` object (see docs/scenario-format.md)".into(),
            ),
            _ => {}
        }
        self.handlers_data();
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
        if let (true, Some(events)) = (psmr_core::EVENTS, &w.events) {
            self.events(events);
        }
        if let (true, Some(y)) = (psmr_core::YCSB, &w.ycsb) {
            self.ycsb(y);
        }
        if let (true, Some(c)) = (psmr_core::COMMITS, &w.commits) {
            self.commits(c);
        }
    }

    /// A YCSB workload replaces the class-share generator: its fields must be
    /// left out, and the spec must fit the app.
    fn ycsb(&mut self, y: &psmr_core::workload_ycsb::YcsbSpec) {
        let w = &self.sc.workload;
        let set: Vec<&str> = class_share_fields(w)
            .iter()
            .chain(&[("scan_len", w.scan_len != 16)])
            .filter(|p| p.1)
            .map(|p| p.0)
            .collect();
        if !set.is_empty() {
            self.err_at_key(
                "workload.ycsb",
                format!(
                    "with `ycsb`, the YCSB workload decides the operations; remove {}",
                    set.join(", ")
                ),
            );
        }
        if let Err((path, message)) = y.check(&self.sc.app, w.requests) {
            // `app` already reported the store's key count (with YCSB's cap).
            if !(path == "app.keys" && self.out.iter().any(|d| d.path == path)) {
                self.err(&path, message);
            }
        }
    }

    /// The commit workload: its simulation parameters or replayed instances
    /// (paths inside `workload.commits`), on an application whose requests
    /// are commands.
    fn commits(&mut self, c: &psmr_core::workload_commits::CommitsSpec) {
        if matches!(self.sc.app, AppSpec::Handlers { .. }) {
            self.err_at_key(
                "workload.commits",
                "the handlers application runs event streams, not commit streams; remove `commits`"
                    .into(),
            );
            return;
        }
        if let Err(e) = c.check(self.sc.workload.requests) {
            let path = if e.path.is_empty() {
                "workload.commits".to_string()
            } else {
                format!("workload.commits.{}", e.path)
            };
            self.err(&path, e.message);
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

    fn delivery(&mut self) {
        match self.sc.delivery {
            Some(Delivery::Rate { per_s }) if !(per_s > 0.0 && per_s <= MAX_RATE_PER_S) => self
                .err(
                    "delivery.per_s",
                    format!(
                    "expected a rate in (0, {MAX_RATE_PER_S}] deliveries per second, got {per_s}"
                ),
                ),
            Some(Delivery::Closed { clients: Some(c) }) if c == 0 || c > MAX_CLIENTS => self.err(
                "delivery.clients",
                format!("expected 1..={MAX_CLIENTS} clients, got {c}"),
            ),
            _ => {}
        }
    }

    fn schedulers(&mut self, needs: &[&'static Needs]) {
        if self.sc.schedulers.is_empty() {
            self.err("schedulers", "expected at least one scheduler".into());
        }
        let mut seen = BTreeSet::new();
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
            self.scheduler(&at, s, needs[i]);
        }
    }

    /// One entry: its scheduler (which needs `needs`) can run this
    /// scenario's stream and cell space with the engine's roles, and its
    /// parameter objects apply to it ([`misfits`]) with values in range
    /// (each family's `Params::check`).
    fn scheduler(&mut self, at: &str, s: &SchedulerSpec, needs: &Needs) {
        let id = entry_field(at, "id");
        // An engine package of other families (issue 30) knows the id but
        // cannot run it: say so here, before anything is built.
        if !psmr_schedulers::included(s.id) {
            self.err(&id, psmr_schedulers::left_out_message(s.id));
            return;
        }
        if needs.roles.len() > self.limits.max_roles {
            let message = format!(
                "`{}` runs {} auxiliary threads ({}); this engine allows {} (limit max_roles)",
                s.id,
                needs.roles.len(),
                needs.roles.join(", "),
                self.limits.max_roles
            );
            self.err(&id, message);
        }
        let kind = self.sc.stream_kind();
        if !needs.streams.contains(&kind) {
            let runs = either(needs.streams.iter().map(|k| k.as_str()));
            let makes = kind.as_str();
            let message = format!(
                "`{}` runs {runs} streams; this scenario's workload makes a {makes} stream",
                s.id
            );
            self.err(&id, message);
        }
        let space = SpaceKind::of(self.sc.app.cell_space());
        if !needs.spaces.is_empty() && !needs.spaces.contains(&space) {
            let on = either(needs.spaces.iter().map(|k| k.as_str()));
            let (app, cells) = (self.sc.app.kind_name(), space.as_str());
            let message = format!(
                "`{}` works on {on} cells; the {app} application's cells are {cells}",
                s.id
            );
            self.err(&id, message);
        }
        for m in misfits(s, needs) {
            match m {
                Misfit::Field { key, field, takes } => self.err_at_key(
                    &member(&entry_field(at, key), field),
                    format!(
                        "`{field}` does not apply to `{}`; its `{key}` object takes: {}",
                        s.id,
                        takes.join(", ")
                    ),
                ),
                Misfit::Object {
                    key,
                    own: Some(own),
                } => self.err_at_key(
                    &entry_field(at, key),
                    format!(
                        "`{key}` parameters do not apply to `{}`; its parameters go in `{own}`",
                        s.id
                    ),
                ),
                Misfit::Object { key, own: None } => self.err_at_key(
                    &entry_field(at, key),
                    format!("`{}` takes no parameters; remove `{key}`", s.id),
                ),
            }
        }
        let sc = self.sc;
        let env = ParamEnv {
            classes: &|| sc.app.classes(),
            threads: sc.threads,
        };
        for (key, issue) in s.param_issues(&env) {
            self.err(&member(&member(at, key), &issue.path), issue.message);
        }
        self.fault(at, s);
    }

    /// The entry's `fault` (fault-injection builds only) names one of the
    /// broken variants its family declares for its id.
    fn fault(&mut self, at: &str, s: &SchedulerSpec) {
        let Some(name) = s.fault_name() else { return };
        let faults = psmr_schedulers::registration(s.id).faults_of(s.id);
        if faults.iter().any(|f| f.name == name) {
            return;
        }
        let message = if faults.is_empty() {
            format!("unknown fault `{name}`: `{}` has no broken variant", s.id)
        } else {
            format!(
                "unknown fault `{name}` for `{}`; expected one of its faults: {}",
                s.id,
                psmr_schedulers::registry::fault_names(&faults)
            )
        };
        self.err(&entry_field(at, "fault"), message);
    }

    /// The per-thread pace override names existing workers and stays under
    /// the pace limit (located at `run.pace_ns`, the setting it refines).
    fn thread_pace(&mut self, pace: Option<&[u64]>) {
        let Some(p) = pace else { return };
        let threads = self.sc.threads;
        if p.len() > threads {
            self.err(
                "run.pace_ns",
                format!(
                    "thread_pace_ns lists {} threads; the run has {threads}",
                    p.len()
                ),
            );
        }
        if let Some((t, ns)) = p.iter().enumerate().find(|(_, ns)| **ns > MAX_PACE_NS) {
            self.err(
                "run.pace_ns",
                format!("thread_pace_ns[{t}]: expected at most {MAX_PACE_NS} ns, got {ns}"),
            );
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
        if let Some(v) = r.virtual_cores {
            let max = limits.max_threads.min(MAX_WORKERS);
            if v == 0 || v as usize > max {
                self.err(
                    "run.virtual_cores",
                    format!(
                        "expected 1..={max} virtual cores (limit max_threads = {max}), got {v}"
                    ),
                );
            }
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
        if let Some(t) = &r.schedule {
            if let Err(e) = t.parse::<psmr_core::virt::ReplayToken>() {
                self.err("run.schedule", e);
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

    /// `name` must name one of the scenario's schedulers (a label, or an
    /// id no two entries share).
    fn scheduler_ref(&mut self, path: &str, name: &str) {
        if let EntryMatch::Several(entries) = self.sc.match_scheduler(name) {
            let m = self.sc.ambiguous_name(name, &entries);
            self.err(path, m);
        } else if self.sc.find_scheduler(name).is_none() {
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

#[path = "parse_events.rs"]
mod events;
