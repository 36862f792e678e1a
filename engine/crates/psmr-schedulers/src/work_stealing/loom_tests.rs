//! Loom models of the stealing protocol (written next).
