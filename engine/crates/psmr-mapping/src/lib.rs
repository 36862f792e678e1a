//! Classes-to-threads mappings (filled in by the early-scheduling work).
