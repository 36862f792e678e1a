//! What a family module declares about itself, in one value: its
//! schedulers with their [`Needs`], how to build them, the fault-injection
//! variants it has, the views of the web app that show its runs, and the
//! stream views it computes. `lib.rs` lists one [`Registration`] per family
//! module (`FAMILIES`); `needs`, `build`, the parameter checks and the
//! catalog (`psmr schema --catalog`) all read that list.

use psmr_core::{ClassTable, Needs, RunError, Scheduler, SchedulerId, Stream};
use serde::Serialize;

use crate::spec::SchedulerSpec;

/// What `build` needs to know about the run.
#[derive(Clone, Copy, Debug)]
pub struct BuildEnv<'a> {
    /// Classes with their workload weights filled in.
    pub classes: &'a ClassTable,
    /// Worker threads of the run.
    pub threads: usize,
}

/// Builds one of a family's schedulers for `spec` (whose id is one of the
/// family's), or says why its configuration cannot run.
pub type BuildFn = fn(&SchedulerSpec, &BuildEnv<'_>) -> Result<Box<dyn Scheduler>, RunError>;

/// A deliberately broken variant (feature `fault-injection`, selected by
/// `SchedulerSpec::fault`), so tests can show the oracle catches it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Fault {
    /// The value of `fault` that selects it.
    pub name: &'static str,
    /// The rule it drops, in one line.
    pub rule: &'static str,
    /// The family's schedulers that have it (empty: all of them).
    pub only: &'static [SchedulerId],
}

/// Data a family computes from a stream for one of its views (JSON), e.g.
/// the repartitioning family's workload graph.
#[derive(Clone, Copy, Debug)]
pub struct StreamView {
    /// The name the engine's callers ask for (e.g. `workload-graph`).
    pub name: &'static str,
    /// The view of a stream for `workers` worker threads, as JSON; an error
    /// says why the stream has none (e.g. too large to draw).
    pub make: fn(&Stream, u32) -> Result<String, String>,
}

/// Views of the web app every run gets, whatever its family (ids of
/// `web/src/views/builtin.ts`): first and last in the catalog's list.
pub const COMMON_VIEWS: (&str, &str) = ("threads", "charts");

/// Everything a family module declares about itself.
#[derive(Clone, Copy, Debug)]
pub struct Registration {
    /// Its scheduler ids, each with what it needs (stream kinds, cell
    /// spaces, roles, its parameter object and the fields that apply).
    pub schedulers: &'static [(SchedulerId, &'static Needs)],
    /// Builds any of them.
    pub build: BuildFn,
    /// Its fault-injection variants.
    pub faults: &'static [Fault],
    /// Ids of the web views that show its runs besides [`COMMON_VIEWS`].
    pub views: &'static [&'static str],
    /// Data it computes from a stream for its views.
    pub stream_views: &'static [StreamView],
}

impl Registration {
    /// A family with no faults, no views of its own and no stream views.
    pub const fn new(schedulers: &'static [(SchedulerId, &'static Needs)], build: BuildFn) -> Self {
        Registration {
            schedulers,
            build,
            faults: &[],
            views: &[],
            stream_views: &[],
        }
    }

    /// The faults `id` (one of this family's schedulers) has.
    pub fn faults_of(&self, id: SchedulerId) -> Vec<&'static Fault> {
        self.faults
            .iter()
            .filter(|f| f.only.is_empty() || f.only.contains(&id))
            .collect()
    }

    /// The fault `spec` (one of this family's ids) selects, `None` for the
    /// correct scheduler; a name this family does not declare for the id
    /// is an error that lists the ones it does.
    #[cfg(feature = "fault-injection")]
    pub fn selected_fault(&self, spec: &SchedulerSpec) -> Result<Option<&'static Fault>, RunError> {
        let Some(name) = &spec.fault else {
            return Ok(None);
        };
        let faults = self.faults_of(spec.id);
        match faults.iter().find(|f| f.name == name) {
            Some(f) => Ok(Some(f)),
            None if faults.is_empty() => Err(RunError::InvalidConfig(format!(
                "`{}` has no fault-injection variant; unknown fault `{name}`",
                spec.id
            ))),
            None => Err(RunError::InvalidConfig(format!(
                "unknown fault `{name}`; `{}` knows {}",
                spec.id,
                fault_names(&faults)
            ))),
        }
    }

    /// What `id` needs, if it is one of this family's schedulers.
    pub fn needs_of(&self, id: SchedulerId) -> Option<&'static Needs> {
        self.schedulers
            .iter()
            .find(|(own, _)| *own == id)
            .map(|(_, n)| *n)
    }
}

/// The names of `faults`, for messages: `` `a`, `b` `` (or "none").
pub fn fault_names(faults: &[&Fault]) -> String {
    if faults.is_empty() {
        return "none".into();
    }
    let names: Vec<String> = faults.iter().map(|f| format!("`{}`", f.name)).collect();
    names.join(", ")
}
