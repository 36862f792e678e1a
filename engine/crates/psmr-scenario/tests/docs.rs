//! docs/scenario-format.md documents every field of the schema, and its
//! example is a valid scenario.

use psmr_scenario::{parse_scenario, Scenario};

const DOC: &str = include_str!("../../../../docs/scenario-format.md");

/// Every property name under any `properties` object of the schema.
fn property_names(v: &serde_json::Value, out: &mut Vec<String>) {
    match v {
        serde_json::Value::Object(m) => {
            for (k, child) in m {
                if k == "properties" {
                    if let Some(props) = child.as_object() {
                        out.extend(props.keys().cloned());
                    }
                }
                property_names(child, out);
            }
        }
        serde_json::Value::Array(a) => a.iter().for_each(|c| property_names(c, out)),
        _ => {}
    }
}

#[test]
fn every_schema_property_is_documented() {
    let schema: serde_json::Value = serde_json::from_str(&Scenario::json_schema()).unwrap();
    let mut names = Vec::new();
    property_names(&schema, &mut names);
    names.sort();
    names.dedup();
    assert!(names.len() > 40, "{names:?}");
    let missing: Vec<&String> = names
        .iter()
        .filter(|n| !DOC.contains(&format!("`{n}`")))
        .collect();
    assert!(
        missing.is_empty(),
        "docs/scenario-format.md does not mention {missing:?}"
    );
}

#[test]
fn the_documented_example_is_valid() {
    let start = DOC.find("```json\n").expect("an example") + "```json\n".len();
    let end = start + DOC[start..].find("```").unwrap();
    let sc = parse_scenario(&DOC[start..end], "scenario-format.md").unwrap();
    assert_eq!(sc.schedulers.len(), 3);
}
