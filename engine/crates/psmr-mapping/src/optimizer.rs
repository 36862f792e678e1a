//! The mapping optimizer (to be written).
