//! The catalog of every scheduler, read from the family registrations
//! ([`crate::FAMILIES`]): what `psmr schema --catalog` prints and
//! `web/src/engine/catalog.json` holds, so the web app can learn each
//! scheduler's family, stream kinds, roles, parameters, faults and views
//! from the engine, and each family's engine package and the workload
//! fields that need it (`scripts/build-wasm.sh --families` builds the
//! packages from this list; `web/src/engine/packages.ts` picks one by it).

use psmr_core::{Family, SchedulerId};
use serde::Serialize;

use crate::registry::COMMON_VIEWS;
use crate::{needs, registration};

/// Every scheduler id, in `SchedulerId::ALL` order, and every family.
#[derive(Clone, Debug, Serialize)]
pub struct Catalog {
    pub schedulers: Vec<Entry>,
    /// Every family, in [`crate::families`] order (sequential first).
    pub families: Vec<FamilyEntry>,
}

/// A family and its engine package.
#[derive(Clone, Debug, Serialize)]
pub struct FamilyEntry {
    /// The family name (as `Entry::family`).
    pub name: &'static str,
    /// Its engine package: the cargo feature of psmr-schedulers (and of
    /// psmr-scenario and psmr-wasm) that compiles it in, named as the
    /// family; `None` for sequential, which every package has.
    pub package: Option<&'static str>,
    /// The workload fields only this family's package reads
    /// (`psmr_core::WORKLOAD_GATES`), e.g. `ycsb` for repartitioning.
    pub workload_fields: Vec<&'static str>,
}

/// One scheduler as its family declares it.
#[derive(Clone, Debug, Serialize)]
pub struct Entry {
    pub id: &'static str,
    /// The family name of the run report (`RunReport::family`).
    pub family: &'static str,
    /// Stream kinds it runs (`total`, `commits`, `events`).
    pub streams: Vec<&'static str>,
    /// Cell spaces it works on (empty: any).
    pub spaces: Vec<&'static str>,
    /// It routes by class (the classes must cover the stream).
    pub covering_classes: bool,
    /// Its auxiliary threads, by role name (trace lanes `AUX_BASE + k`).
    pub roles: &'static [&'static str],
    /// Its parameter object, if it takes one.
    pub params: Option<ParamsEntry>,
    /// Its fault-injection variants.
    pub faults: Vec<FaultEntry>,
    /// Ids of the web views that show its runs.
    pub views: Vec<&'static str>,
}

/// A scheduler's parameter object.
#[derive(Clone, Debug, Serialize)]
pub struct ParamsEntry {
    /// The scenario entry's key (e.g. `early`).
    pub key: &'static str,
    /// The fields that apply to this scheduler.
    pub fields: &'static [&'static str],
}

/// A fault-injection variant: the `fault` value, the rule it drops and
/// where that rule stands in the family's pseudo-code
/// (`registry::Fault::guard`).
#[derive(Clone, Debug, Serialize)]
pub struct FaultEntry {
    pub name: &'static str,
    pub rule: &'static str,
    pub guard: &'static [&'static str],
}

/// The catalog of every scheduler id.
pub fn catalog() -> Catalog {
    Catalog {
        schedulers: SchedulerId::ALL.iter().map(|id| entry(*id)).collect(),
        families: crate::families().into_iter().map(family_entry).collect(),
    }
}

fn family_entry(family: Family) -> FamilyEntry {
    FamilyEntry {
        name: family.as_str(),
        package: (family != Family::Sequential).then(|| family.as_str()),
        workload_fields: psmr_core::WORKLOAD_GATES
            .iter()
            .filter(|g| g.family == family)
            .map(|g| g.field)
            .collect(),
    }
}

fn entry(id: SchedulerId) -> Entry {
    let n = needs(id);
    let r = registration(id);
    let mut views = vec![COMMON_VIEWS.0];
    views.extend(r.views);
    views.push(COMMON_VIEWS.1);
    Entry {
        id: id.as_str(),
        family: n.family.as_str(),
        streams: n.streams.iter().map(|k| k.as_str()).collect(),
        spaces: n.spaces.iter().map(|s| s.as_str()).collect(),
        covering_classes: n.covering_classes,
        roles: n.roles,
        params: n.params.map(|(key, fields)| ParamsEntry { key, fields }),
        faults: r
            .faults_of(id)
            .into_iter()
            .map(|f| FaultEntry {
                name: f.name,
                rule: f.rule,
                guard: f.guard,
            })
            .collect(),
        views,
    }
}

/// The catalog as pretty JSON with a final newline (as committed in
/// `web/src/engine/catalog.json`).
pub fn catalog_json() -> String {
    let mut s = serde_json::to_string_pretty(&catalog()).unwrap_or_default();
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SchedulerSpec;

    /// A small stream to build schedulers for.
    fn small_stream() -> crate::testkit::Stream {
        use crate::testkit;
        testkit::Stream::new(testkit::list(2), &testkit::workload(1, 10, 0.5, 0.1))
    }

    /// Two worker threads over `stream`'s classes.
    fn two_threads(stream: &crate::testkit::Stream) -> crate::BuildEnv<'_> {
        stream.build_env(2)
    }

    #[test]
    fn every_id_is_registered_by_exactly_one_family() {
        for id in SchedulerId::ALL {
            let n = crate::FAMILIES
                .iter()
                .filter(|r| r.needs_of(id).is_some())
                .count();
            assert_eq!(n, 1, "{id} is registered {n} times");
        }
        let ids: usize = crate::FAMILIES.iter().map(|r| r.schedulers.len()).sum();
        assert_eq!(ids, SchedulerId::ALL.len(), "no id registered twice");
    }

    /// A registration's schedulers are all of one family (what
    /// `Registration::family`, and so `family!`, reads from the first).
    #[test]
    fn a_registration_is_of_one_family() {
        for r in crate::FAMILIES {
            for (id, n) in r.schedulers {
                assert_eq!(n.family, r.family(), "{id}");
            }
        }
    }

    /// The fields a scheduler says apply exist in its object's struct, and
    /// every field of a struct applies to at least one scheduler.
    #[test]
    fn declared_fields_are_the_structs_fields() {
        let tables = SchedulerSpec::param_tables();
        for (key, all) in &tables {
            let applied: Vec<&str> = SchedulerId::ALL
                .iter()
                .filter_map(|id| needs(*id).params)
                .filter(|(k, _)| k == key)
                .flat_map(|(_, f)| f.iter().copied())
                .collect();
            assert!(!applied.is_empty(), "no scheduler takes `{key}`");
            for f in all {
                assert!(applied.contains(f), "`{key}.{f}` applies to no scheduler");
            }
            for f in &applied {
                assert!(all.contains(f), "`{key}.{f}` is not a field of its struct");
            }
        }
        for id in SchedulerId::ALL {
            if let Some((key, _)) = needs(id).params {
                assert!(
                    tables.iter().any(|(k, _)| *k == key),
                    "{id}: no `{key}` object"
                );
            }
        }
    }

    /// Every id builds with its own parameter object present (empty: the
    /// defaults): the family reads the object the `scheduler_spec!` list
    /// gives it with its own type (`BuildArgs::params` panics otherwise).
    #[test]
    fn every_id_builds_with_its_own_parameter_object() {
        use crate::ParamObjects;
        let stream = small_stream();
        let env = two_threads(&stream);
        for id in SchedulerId::ALL {
            let Some((key, _)) = needs(id).params else {
                continue;
            };
            let entry = format!(r#"{{"id": "{id}", "{key}": {{}}}}"#);
            let spec: SchedulerSpec = serde_json::from_str(&entry).expect("an entry");
            assert_eq!(spec.param_objects(), [key]);
            let built = crate::build(&spec, &env);
            assert!(
                built.is_ok(),
                "{id}: {:?}",
                built.err().map(|e| e.to_string())
            );
        }
    }

    #[test]
    fn the_registered_fault_names_are_the_ones_build_knows() {
        let names =
            |id: SchedulerId| -> Vec<&str> { entry(id).faults.iter().map(|f| f.name).collect() };
        assert_eq!(
            names(SchedulerId::WsOptimistic),
            [crate::work_stealing::broken::FAULT_NAME]
        );
        assert_eq!(
            names(SchedulerId::RepartRr),
            [
                crate::repart::FAULT_NO_SCAN_SYNC,
                crate::repart::FAULT_SWAP_PAIRS
            ]
        );
        assert_eq!(
            names(SchedulerId::RepartSw),
            [crate::repart::FAULT_SWAP_PAIRS]
        );
        assert_eq!(
            names(SchedulerId::RepartAsync),
            [
                crate::repart::FAULT_NAME,
                crate::repart::FAULT_NO_SCAN_SYNC,
                crate::repart::FAULT_SWAP_PAIRS
            ]
        );
        let views = entry(SchedulerId::Mely).views;
        assert_eq!(views, ["threads", "coloring", "charts"]);
    }

    /// Every scheduler id has at least one broken variant, each with its
    /// rule in one line and the pseudo-code line the rule stands on.
    #[test]
    fn every_id_has_a_fault_with_a_one_line_rule() {
        for id in SchedulerId::ALL {
            let faults = entry(id).faults;
            assert!(!faults.is_empty(), "{id} has no fault-injection variant");
            for f in faults {
                assert!(
                    !f.rule.is_empty() && !f.rule.contains('\n'),
                    "{id}: {}",
                    f.name
                );
                assert!(
                    !f.guard.is_empty() && f.guard.iter().all(|g| !g.trim().is_empty()),
                    "{id}: {} names no pseudo-code line",
                    f.name
                );
            }
        }
    }

    /// With the feature, every declared fault builds for its ids, and a
    /// fault of another family is refused with the id's own list.
    #[cfg(feature = "fault-injection")]
    #[test]
    fn build_takes_each_declared_fault_and_refuses_the_others() {
        let stream = small_stream();
        let env = two_threads(&stream);
        for id in SchedulerId::ALL {
            for f in entry(id).faults {
                let mut spec = SchedulerSpec::new(id);
                spec.fault = Some(f.name.into());
                assert!(crate::build(&spec, &env).is_ok(), "{id} {}", f.name);
            }
            let mut spec = SchedulerSpec::new(id);
            spec.fault = Some("no-such-fault".into());
            let err = crate::build(&spec, &env)
                .err()
                .expect("refused")
                .to_string();
            assert!(err.contains("unknown fault `no-such-fault`"), "{id}: {err}");
        }
    }
}
