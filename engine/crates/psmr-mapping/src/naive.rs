//! The naive mapping (to be written).
