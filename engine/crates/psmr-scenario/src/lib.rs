//! Scenario files (filled in by the skeleton work).
