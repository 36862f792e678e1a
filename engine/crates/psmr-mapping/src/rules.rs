//! Rules R.1-R.5 (to be written).
use crate::CtoT;
use psmr_core::ClassTable;

/// A broken rule, naming the classes involved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleViolation {
    /// `R.1` .. `R.5`.
    pub rule: &'static str,
    pub classes: Vec<String>,
    pub message: String,
}

/// Check rules R.1-R.5.
pub fn validate(_m: &CtoT, _t: &ClassTable) -> Result<(), Vec<RuleViolation>> {
    Ok(())
}
