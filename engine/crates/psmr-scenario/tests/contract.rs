//! The web app's engine fixtures must be what the engine makes.

use psmr_scenario::contract::sharded_classes_json;

const CLASSES_PATH: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../../web/src/engine/fixtures/sharded-classes.json"
);

/// `PSMR_BLESS=1 cargo test -p psmr-scenario --test contract` rewrites it.
#[test]
fn committed_sharded_classes_are_the_engines() {
    let fresh = sharded_classes_json();
    if std::env::var_os("PSMR_BLESS").is_some() {
        std::fs::write(CLASSES_PATH, &fresh).unwrap();
    }
    let committed = std::fs::read_to_string(CLASSES_PATH).unwrap_or_default();
    assert!(
        committed == fresh,
        "web/src/engine/fixtures/sharded-classes.json is out of date with the engine's class \
         tables; regenerate it with:\n  PSMR_BLESS=1 cargo test -p psmr-scenario --test contract"
    );
}
