//! The engine's JSON contract with the web app, as JSON Schema: every type
//! the engine hands the browser (the run [`Report`] and everything in it,
//! the live [`MonitorSnapshot`], the [`BenchReport`], located
//! [`Diagnostic`]s and judged expectations), the scheduler
//! [`Family`] list and the scenario's parameter objects. `psmr schema
//! --contract` prints it; it is committed as
//! `web/src/engine/contract.schema.json`, from which
//! `web/scripts/gen-contract.mjs` writes `web/src/engine/contract.gen.ts`
//! (a cargo test and a vitest test fail when either is stale).

use psmr_core::scheduler::Family;
use psmr_schedulers::{ColoringParams, EarlyParams, EpaxosParams, LateParams, RepartParams};
use schemars::generate::SchemaSettings;
use schemars::JsonSchema;

use crate::bench::BenchReport;
use crate::expect::ExpectationResult;
use crate::runner::{class_infos, MonitorSnapshot, Report};
use crate::Diagnostic;

/// Adds `T` and everything it names to the generator's definitions.
fn add<T: JsonSchema>(g: &mut schemars::SchemaGenerator) {
    g.subschema_for::<T>();
}

/// The contract: `{"$defs": {name: schema}}`, names sorted, pretty-printed.
pub fn contract_schema() -> String {
    let mut g = SchemaSettings::draft2020_12().into_generator();
    add::<Report>(&mut g);
    add::<MonitorSnapshot>(&mut g);
    add::<BenchReport>(&mut g);
    add::<Diagnostic>(&mut g);
    add::<ExpectationResult>(&mut g);
    add::<Family>(&mut g);
    add::<EarlyParams>(&mut g);
    add::<LateParams>(&mut g);
    add::<EpaxosParams>(&mut g);
    add::<RepartParams>(&mut g);
    add::<ColoringParams>(&mut g);
    let defs: std::collections::BTreeMap<_, _> = g.take_definitions(true).into_iter().collect();
    let v = serde_json::json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "P-SMR Lab engine contract",
        "$defs": defs,
    });
    let mut s = serde_json::to_string_pretty(&v).unwrap_or_default();
    s.push('\n');
    s
}

/// Most shards of the sharded class tables in [`sharded_classes_json`].
pub const FIXTURE_SHARDS: usize = 8;

/// The report's `classes` of a sharded app (`ClassTable::sharded`) for 1 to
/// [`FIXTURE_SHARDS`] shards, by shard count: the web app's tests and its
/// trace simulator take class names and conflicts from here instead of
/// rebuilding the class layout (committed as
/// `web/src/engine/fixtures/sharded-classes.json`).
pub fn sharded_classes_json() -> String {
    let tables: std::collections::BTreeMap<String, _> = (1..=FIXTURE_SHARDS)
        .map(|s| {
            (
                s.to_string(),
                class_infos(&psmr_core::ClassTable::sharded(s)),
            )
        })
        .collect();
    let mut s = serde_json::to_string_pretty(&tables).unwrap_or_default();
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_contract_names_the_report_and_the_families() {
        let v: serde_json::Value = serde_json::from_str(&contract_schema()).unwrap();
        let defs = v["$defs"].as_object().unwrap();
        for name in [
            "Report",
            "RunReport",
            "ClassInfo",
            "Family",
            "EarlyParams",
            "U64",
        ] {
            assert!(defs.contains_key(name), "{name} missing");
        }
    }
}
