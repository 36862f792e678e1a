//! The committed JSON Schema must match the types.

use psmr_scenario::Scenario;

const SCHEMA_PATH: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../../scenarios/scenario.schema.json"
);

#[test]
fn committed_schema_matches_the_types() {
    let committed = std::fs::read_to_string(SCHEMA_PATH).unwrap_or_default();
    assert!(
        committed == Scenario::json_schema(),
        "scenarios/scenario.schema.json is out of date with the scenario types; regenerate it \
         from /work/main/engine with:\n  cargo run -q -p psmr-cli -- schema > ../scenarios/scenario.schema.json"
    );
}

#[test]
fn schema_refuses_unknown_fields_and_bounds_threads() {
    let schema: serde_json::Value = serde_json::from_str(&Scenario::json_schema()).unwrap();
    assert_eq!(schema["additionalProperties"], false);
    assert_eq!(schema["properties"]["threads"]["maximum"], 64);
    assert!(schema["properties"].get("$schema").is_some());
    assert!(schema["properties"].get("source").is_none());
}
