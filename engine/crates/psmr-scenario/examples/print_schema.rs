//! Print the scenario JSON Schema (the CLI's `psmr schema` does the same).
fn main() {
    print!("{}", psmr_scenario::Scenario::json_schema());
}
