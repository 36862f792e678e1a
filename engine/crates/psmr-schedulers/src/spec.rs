//! How a scenario names a scheduler and its parameters, and the one check
//! that a scheduler entry's parameter objects apply to its scheduler
//! ([`misfits`]).
//!
//! Each family module owns its parameter struct and its value checks
//! ([`crate::params::Params`]); `SchedulerSpec` has one optional field per
//! parameter object, declared once in the `scheduler_spec!` list of
//! `lib.rs` (beside `FAMILIES`, so a family registers in one file), from
//! which `new`, [`ParamObjects`], `param_object`, `param_tables` and
//! `param_issues` are generated (no hand-kept list of objects or fields).

use psmr_core::Needs;
use serde::Serialize;

use crate::params::fields_of;
pub use crate::params::{DEFAULT_QUEUE_CAPACITY, MAX_QUEUE_CAPACITY};
pub use crate::spin::SpinPolicy;

/// Declares `SchedulerSpec` with one optional field per parameter object
/// (`key: Type`, in the order of the JSON Schema and of every check).
macro_rules! scheduler_spec {
    ($($(#[$doc:meta])* $key:ident: $ty:ty,)*) => {
        /// One scheduler entry of a scenario: an id, an optional label, and at
        /// most one parameter object, named after the scheduler's family (`early`
        /// for `early` and `busy-wait`, `stealing` for `ws-*`, `late` for `late`,
        /// `epaxos` for `pepaxos`, `repart` for `repart-*`, `coloring` for
        /// `libasync` and `mely`). A parameter object
        /// of another family, or a field that does not apply to the id, is a
        /// located error at validation.
        #[derive(
            Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
        )]
        #[serde(deny_unknown_fields)]
        pub struct SchedulerSpec {
            /// Scheduler id, e.g. `early` or `ws-optimistic`.
            pub id: psmr_core::SchedulerId,
            /// Name shown in reports; defaults to the id. Needed to compare two
            /// configurations of the same scheduler (e.g. optimizer vs naive mapping).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub label: Option<String>,
            $(
                $(#[$doc])*
                #[serde(default, skip_serializing_if = "Option::is_none")]
                pub $key: Option<$ty>,
            )*
            /// Fault injection (feature `fault-injection` only): a deliberately
            /// broken variant, e.g. `ws-ignore-flags` for work stealing or
            /// `steal-running` for `libasync` and `mely`, so tests can check that
            /// the oracle catches it.
            #[cfg(feature = "fault-injection")]
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub fault: Option<String>,
        }

        impl SchedulerSpec {
            pub fn new(id: psmr_core::SchedulerId) -> Self {
                SchedulerSpec {
                    id,
                    label: None,
                    $($key: None,)*
                    #[cfg(feature = "fault-injection")]
                    fault: None,
                }
            }

            /// The fault-injection variant the entry selects, if any
            /// (always `None` without the `fault-injection` feature, where
            /// the entry has no `fault` field).
            pub fn fault_name(&self) -> Option<&str> {
                #[cfg(feature = "fault-injection")]
                return self.fault.as_deref();
                #[cfg(not(feature = "fault-injection"))]
                None
            }

            /// The parameter object named `key`, if present, for
            /// [`crate::registry::BuildArgs::params`].
            pub fn param_object(&self, key: &str) -> Option<&dyn std::any::Any> {
                $(if key == stringify!($key) {
                    return self.$key.as_ref().map(|p| p as &dyn std::any::Any);
                })*
                None
            }

            /// Every parameter object key with all the fields of its struct.
            pub fn param_tables() -> Vec<(&'static str, Vec<&'static str>)> {
                vec![$((stringify!($key), $crate::params::field_names::<$ty>()),)*]
            }

            /// The values out of range in every object present (each
            /// family's `Params::check`), with the object's key.
            pub fn param_issues(
                &self,
                env: &$crate::params::ParamEnv<'_>,
            ) -> Vec<(&'static str, $crate::params::ParamIssue)> {
                use $crate::params::Params;
                let mut out = Vec::new();
                $(if let Some(p) = &self.$key {
                    out.extend(p.check(env).into_iter().map(|i| (stringify!($key), i)));
                })*
                out
            }

            /// The cores per shared cache the entry's parameter object
            /// states (`Params::cores_per_cache`), if any.
            pub fn cores_per_cache(&self) -> Option<u32> {
                use $crate::params::Params;
                None$(.or(self.$key.as_ref().and_then(Params::cores_per_cache)))*
            }
        }

        impl $crate::spec::ParamObjects for SchedulerSpec {
            fn param_objects(&self) -> Vec<&'static str> {
                let mut v = Vec::new();
                $(if self.$key.is_some() {
                    v.push(stringify!($key));
                })*
                v
            }

            fn param_fields(&self, key: &str) -> Vec<&'static str> {
                $(if key == stringify!($key) {
                    return self.$key.as_ref().map_or(Vec::new(), $crate::spec::present_fields);
                })*
                Vec::new()
            }
        }
    };
}
pub(crate) use scheduler_spec;

/// The parameter objects of a scheduler entry (implemented by
/// `SchedulerSpec`, from the `scheduler_spec!` list).
pub trait ParamObjects {
    /// The keys of the parameter objects present (e.g. `["early"]`).
    fn param_objects(&self) -> Vec<&'static str>;
    /// The fields set in the parameter object named `key`, in declaration
    /// order (read from its `Serialize`).
    fn param_fields(&self, key: &str) -> Vec<&'static str>;
}

/// The fields `p` sets.
pub fn present_fields<P: Serialize>(p: &P) -> Vec<&'static str> {
    fields_of(p)
        .iter()
        .filter(|m| m.present())
        .map(|m| m.name)
        .collect()
}

/// A parameter object, or a field of one, in a scheduler entry that does
/// not apply to its scheduler.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Misfit {
    /// The object `key` is another family's; `own` is the scheduler's own
    /// object, if it takes one.
    Object {
        key: &'static str,
        own: Option<&'static str>,
    },
    /// `field` of the scheduler's own object `key` does not apply to its id,
    /// which takes only `takes`.
    Field {
        key: &'static str,
        field: &'static str,
        takes: &'static [&'static str],
    },
}

/// The one check that `spec`'s parameter objects apply to its scheduler
/// (`needs`): at most its own object, with only the fields that apply to
/// the id. Validation reports these with positions; `build` refuses the
/// first for direct callers.
pub fn misfits(spec: &impl ParamObjects, needs: &Needs) -> Vec<Misfit> {
    let mut out = Vec::new();
    for key in spec.param_objects() {
        match needs.params {
            Some((own, takes)) if own == key => out.extend(
                spec.param_fields(key)
                    .into_iter()
                    .filter(|f| !takes.contains(f))
                    .map(|field| Misfit::Field { key, field, takes }),
            ),
            own => out.push(Misfit::Object {
                key,
                own: own.map(|(own, _)| own),
            }),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ColoringParams, EarlyParams, LateParams, SchedulerSpec};
    use psmr_core::SchedulerId;

    #[test]
    fn param_fields_are_read_from_the_structs() {
        let mut s = SchedulerSpec::new(SchedulerId::Mely);
        s.coloring = Some(ColoringParams {
            batch: Some(3),
            spin: Some(SpinPolicy::default()),
            ..ColoringParams::default()
        });
        s.late = Some(LateParams::default());
        assert_eq!(s.param_objects(), ["coloring", "late"]);
        assert_eq!(s.param_fields("coloring"), ["batch", "spin"]);
        assert!(s.param_fields("late").is_empty());
        assert!(s.param_fields("nope").is_empty());
        let tables = SchedulerSpec::param_tables();
        let early = tables.iter().find(|t| t.0 == "early").map(|t| &t.1);
        assert_eq!(early, Some(&vec!["mapping", "queue_capacity", "spin"]));
    }

    #[test]
    fn cache_topology_comes_from_the_family_that_declares_one() {
        let mut s = SchedulerSpec::new(SchedulerId::Mely);
        assert_eq!(s.cores_per_cache(), None);
        s.coloring = Some(ColoringParams::default());
        assert_eq!(s.cores_per_cache(), None);
        s.coloring = Some(ColoringParams {
            cores_per_cache: Some(4),
            ..ColoringParams::default()
        });
        assert_eq!(s.cores_per_cache(), Some(4));
        let mut e = SchedulerSpec::new(SchedulerId::Early);
        e.early = Some(EarlyParams {
            queue_capacity: Some(4),
            ..EarlyParams::default()
        });
        assert_eq!(e.cores_per_cache(), None);
    }

    #[test]
    fn misfits_name_foreign_objects_and_fields() {
        let mut s = SchedulerSpec::new(SchedulerId::Early);
        s.early = Some(EarlyParams {
            spin: Some(SpinPolicy::default()),
            queue_capacity: Some(4),
            ..EarlyParams::default()
        });
        s.late = Some(LateParams::default());
        let m = misfits(&s, &crate::early::NEEDS);
        assert_eq!(
            m,
            [
                Misfit::Field {
                    key: "early",
                    field: "spin",
                    takes: &["mapping", "queue_capacity"]
                },
                Misfit::Object {
                    key: "late",
                    own: Some("early")
                }
            ]
        );
        let m = misfits(&s, &crate::sequential::NEEDS);
        assert!(m
            .iter()
            .all(|m| matches!(m, Misfit::Object { own: None, .. })));
    }
}
