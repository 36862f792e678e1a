//! The committed JSON Schema must match the types.

use psmr_scenario::Scenario;

const SCHEMA_PATH: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../../scenarios/scenario.schema.json"
);

/// Whether `committed` is the schema of this build; with the
/// `fault-injection` feature, once the scheduler entry's `fault` is left
/// out (the committed schema is the default build's, which has no such
/// field), compared as JSON values.
fn matches(committed: &str) -> bool {
    let schema = Scenario::json_schema();
    if !cfg!(feature = "fault-injection") {
        return committed == schema;
    }
    fn drop_fault(v: &mut serde_json::Value) {
        match v {
            serde_json::Value::Object(m) => {
                if let Some(serde_json::Value::Object(p)) = m.get_mut("properties") {
                    p.remove("fault");
                }
                m.values_mut().for_each(drop_fault);
            }
            serde_json::Value::Array(a) => a.iter_mut().for_each(drop_fault),
            _ => {}
        }
    }
    let mut v: serde_json::Value = serde_json::from_str(&schema).unwrap();
    drop_fault(&mut v);
    serde_json::from_str::<serde_json::Value>(committed).ok() == Some(v)
}

#[test]
fn committed_schema_matches_the_types() {
    let committed = std::fs::read_to_string(SCHEMA_PATH).unwrap_or_default();
    assert!(
        matches(&committed),
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
