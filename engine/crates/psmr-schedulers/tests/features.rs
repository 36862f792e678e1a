//! The cargo features that compile the families in (issue 30) agree with
//! [`psmr_schedulers::compiled_in`]: psmr-schedulers' Cargo.toml has one
//! feature per family but sequential, named as the family, `full` turns on
//! exactly those, and each turns on the psmr-core workload features
//! `psmr_core::WORKLOAD_GATES` gives its family. psmr-scenario and
//! psmr-wasm forward the same names to the crate below them.

use std::collections::{BTreeMap, BTreeSet};

use psmr_core::Family;
use psmr_schedulers::{compiled_in, families};

/// Features of a crate that are not families (`sync-counters`: early's
/// queue counts, psmr-schedulers and psmr-cli only).
const OTHER: [&str; 4] = ["default", "full", "fault-injection", "sync-counters"];

/// The `[features]` table of the Cargo.toml of crate `dir` (a sibling of
/// this crate): each feature with the quoted items of its list. A simple
/// reading: `name = [ "a", "b" ]`, the list possibly over several lines;
/// comments dropped.
fn features(dir: &str) -> BTreeMap<String, Vec<String>> {
    let path = format!("{}/../{dir}/Cargo.toml", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut out = BTreeMap::new();
    let mut in_features = false;
    let mut pending: Option<(String, String)> = None;
    for line in text.lines() {
        let line = line.split('#').next().unwrap_or("").trim();
        if let Some((name, mut list)) = pending.take() {
            list.push_str(line);
            if line.contains(']') {
                out.insert(name, items(&list));
            } else {
                pending = Some((name, list));
            }
            continue;
        }
        if line.starts_with('[') {
            in_features = line == "[features]";
            continue;
        }
        if !in_features || line.is_empty() {
            continue;
        }
        let (name, list) = line.split_once('=').expect("name = [...]");
        let (name, list) = (name.trim().to_string(), list.trim().to_string());
        if list.contains(']') {
            out.insert(name, items(&list));
        } else {
            pending = Some((name, list));
        }
    }
    out
}

/// The quoted strings of `[ "a", "b" ]`.
fn items(list: &str) -> Vec<String> {
    list.split('"')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

/// The families with a feature: all but sequential, by name.
fn family_names() -> BTreeSet<String> {
    families()
        .into_iter()
        .filter(|f| *f != Family::Sequential)
        .map(|f| f.as_str().to_string())
        .collect()
}

fn feature_names(f: &BTreeMap<String, Vec<String>>) -> BTreeSet<String> {
    f.keys()
        .filter(|k| !OTHER.contains(&k.as_str()))
        .cloned()
        .collect()
}

#[test]
fn every_family_but_sequential_is_a_feature_of_its_name_and_full_has_all() {
    let f = features("psmr-schedulers");
    let names = family_names();
    assert_eq!(feature_names(&f), names, "features other than {OTHER:?}");
    let full: BTreeSet<String> = f["full"].iter().cloned().collect();
    assert_eq!(full, names, "`full` turns on every family");
    assert_eq!(f["default"], ["full"]);
    for family in families() {
        let wanted: BTreeSet<String> = psmr_core::WORKLOAD_GATES
            .iter()
            .filter(|g| g.family == family)
            .map(|g| format!("psmr-core/{}", g.field))
            .collect();
        match f.get(family.as_str()) {
            Some(list) => {
                let got: BTreeSet<String> = list.iter().cloned().collect();
                assert_eq!(got, wanted, "what feature `{}` turns on", family.as_str());
            }
            None => assert!(wanted.is_empty() && family == Family::Sequential),
        }
    }
}

#[test]
fn the_crates_above_forward_the_same_features() {
    let names = family_names();
    for (dir, below) in [
        ("psmr-scenario", "psmr-schedulers"),
        ("psmr-wasm", "psmr-scenario"),
    ] {
        let f = features(dir);
        assert_eq!(feature_names(&f), names, "{dir}'s family features");
        for name in &names {
            assert_eq!(f[name], [format!("{below}/{name}")], "{dir}'s `{name}`");
        }
    }
}

/// In this build (default features unless told otherwise) `compiled_in`
/// agrees with the features on: a literal in `compiled_in` that is not the
/// feature's name would answer false here.
#[test]
fn compiled_in_answers_for_the_features_of_this_build() {
    assert!(compiled_in(Family::Sequential));
    if cfg!(feature = "full") {
        for family in families() {
            assert!(compiled_in(family), "{} is in `full`", family.as_str());
        }
    }
}
