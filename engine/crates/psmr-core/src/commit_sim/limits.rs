//! Bounds on what one simulation or one commit stream may hold: they keep
//! every arena offset in `u32` and the simulator's memory bounded.

/// Most replicas.
pub const MAX_REPLICAS: u32 = 7;
/// Most commands of one simulation, and most instances of a stream.
pub const MAX_COMMANDS: usize = 2_000_000;
/// Most `(cell, write)` entries over all footprints of one simulation.
pub const MAX_TOUCHES: usize = 4_000_000;
/// Most view entries (`replicas² × distinct cells`), 8 bytes each: bounds
/// the simulator's per-cell memory to 128 MiB.
pub const MAX_VIEW_ENTRIES: usize = 1 << 24;
/// Most commands in one batch.
pub const MAX_BATCH: u32 = 100_000;
/// Longest batch period, arrival gap or message delay (1 s).
pub const MAX_TIME_NS: u64 = 1_000_000_000;
/// Most dependency entries a simulation keeps (leaders', replies' and
/// united lists together; 4 bytes each).
pub const MAX_SIM_DEPS: usize = 256_000_000;
/// Most dependencies over a whole stream.
pub const MAX_STREAM_DEPS: usize = 64_000_000;
