//! What a family module declares about itself, in one value: its
//! schedulers with their [`Needs`], how to build them, the fault-injection
//! variants it has, the views of the web app that show its runs, and the
//! stream views it computes. `lib.rs` lists one [`Registration`] per family
//! module (`FAMILIES`); `needs`, `build`, the parameter checks and the
//! catalog (`psmr schema --catalog`) all read that list.

use std::any::Any;

use psmr_core::{ClassTable, Family, Needs, RunError, Scheduler, SchedulerId, Stream};
use serde::Serialize;

/// What `build` needs to know about the run.
#[derive(Clone, Copy, Debug)]
pub struct BuildEnv<'a> {
    /// Classes with their workload weights filled in.
    pub classes: &'a ClassTable,
    /// Worker threads of the run.
    pub threads: usize,
}

/// What a family's build function gets from a scheduler entry, once
/// `crate::build` has checked it: the id (one of the family's), the run,
/// the entry's parameter object (of the family's own type, read with
/// [`BuildArgs::params`]) and the fault it selects.
#[derive(Clone, Copy)]
pub struct BuildArgs<'a> {
    /// The scheduler to build.
    pub id: SchedulerId,
    /// The run it is built for.
    pub env: &'a BuildEnv<'a>,
    params: Option<&'a dyn Any>,
    fault: Option<&'static Fault>,
}

impl<'a> BuildArgs<'a> {
    /// `params` is the entry's parameter object for `id` (the one its
    /// `Needs::params` names), `fault` the variant it selects, already
    /// checked against the family's faults for `id`.
    pub fn new(
        id: SchedulerId,
        env: &'a BuildEnv<'a>,
        params: Option<&'a dyn Any>,
        fault: Option<&'static Fault>,
    ) -> Self {
        BuildArgs {
            id,
            env,
            params,
            fault,
        }
    }

    /// The entry's parameter object, or the defaults when it has none.
    ///
    /// # Panics
    /// If the object is not a `P`: the `scheduler_spec!` list in `lib.rs`
    /// and the family's `NEEDS` name the object, the family reads it with
    /// its type (`catalog::tests` builds every id with its object).
    pub fn params<P: Clone + Default + 'static>(&self) -> P {
        self.params.map_or_else(P::default, |p| {
            p.downcast_ref::<P>()
                .expect("a family reads its own parameter object")
                .clone()
        })
    }

    /// The fault-injection variant the entry selects (always `None`
    /// without the `fault-injection` feature).
    pub fn fault(&self) -> Option<&'static Fault> {
        self.fault
    }
}

/// `Ok(Box::new(scheduler))`, or, with the `fault-injection` feature and a
/// fault selected in `args` (bound to the pattern), `Ok(Box::new(broken))`
/// returned at once: the end of every family's build. A macro because the
/// broken variants exist only under that feature (and in tests), so the
/// expression that makes one must vanish without it.
macro_rules! boxed_or_broken {
    ($args:expr, $scheduler:ident, |$fault:pat_param| $broken:expr) => {{
        #[cfg(feature = "fault-injection")]
        if let Some($fault) = $args.fault() {
            return Ok(Box::new($broken));
        }
        let _ = &$args;
        Ok(Box::new($scheduler))
    }};
}
pub(crate) use boxed_or_broken;

/// Builds one of a family's schedulers, or says why its configuration
/// cannot run.
pub type BuildFn = fn(&BuildArgs<'_>) -> Result<Box<dyn Scheduler>, RunError>;

/// A deliberately broken variant (feature `fault-injection`, selected by
/// `SchedulerSpec::fault`), so tests can show the oracle catches it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Fault {
    /// The value of `fault` that selects it.
    pub name: &'static str,
    /// The rule it drops, in one line.
    pub rule: &'static str,
    /// Where the dropped rule is enforced: how the line of the family's
    /// pseudo-code (the web app's classroom panel, docs/teaching) that a
    /// correct scheduler obeys at that point begins. One entry per listing
    /// variant when the family's schedulers word it differently; each of
    /// the fault's schedulers has exactly one of them (checked by the web
    /// app's tests against its listings).
    pub guard: &'static [&'static str],
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

    /// The family of its schedulers (all of one family, tested; a
    /// registration has at least one scheduler).
    pub const fn family(&self) -> Family {
        self.schedulers[0].1.family
    }

    /// The faults `id` (one of this family's schedulers) has.
    pub fn faults_of(&self, id: SchedulerId) -> Vec<&'static Fault> {
        self.faults
            .iter()
            .filter(|f| f.only.is_empty() || f.only.contains(&id))
            .collect()
    }

    /// The fault `name` selects for `id` (one of this family's ids),
    /// `None` for the correct scheduler; a name this family does not
    /// declare for the id is an error that lists the ones it does.
    pub fn selected_fault(
        &self,
        id: SchedulerId,
        name: Option<&str>,
    ) -> Result<Option<&'static Fault>, RunError> {
        let Some(name) = name else {
            return Ok(None);
        };
        let faults = self.faults_of(id);
        match faults.iter().find(|f| f.name == name) {
            Some(f) => Ok(Some(f)),
            None if faults.is_empty() => Err(RunError::InvalidConfig(format!(
                "`{id}` has no fault-injection variant; unknown fault `{name}`"
            ))),
            None => Err(RunError::InvalidConfig(format!(
                "unknown fault `{name}`; `{id}` knows {}",
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
