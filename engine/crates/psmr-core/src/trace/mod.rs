//! The trace: one event vocabulary, defined once, that every scheduler
//! emits and every view consumes.
//!
//! * `vocabulary`: the event kinds, their fields and packed form, wait
//!   reasons and thread-id conventions;
//! * [`codec`]: the packed form shared with the web app (6 words an event);
//! * `small_codes`: the names of the small fields' values that name a
//!   choice (a color's home, a refused steal's heuristic...);
//! * `json`: that vocabulary as JSON (`psmr schema --trace`);
//! * `recorder`: the per-thread [`Recorder`]s and the run's [`TraceHub`],
//!   which bounds what is kept and merges the buffers in `seq` order.
//!
//! Every public name is re-exported here, so callers write
//! `trace::EventKind`; the codec is also re-exported at the crate root.

pub mod codec;
mod json;
mod recorder;
mod small_codes;
mod vocabulary;

pub use crate::request::NO_REQUEST;
pub use json::vocabulary_json;
pub use recorder::{
    Counter, Recorder, SeqClock, ThreadStats, TraceConfig, TraceHub, TraceWindow,
    ADMISSION_STAMP_SHARE,
};
pub use small_codes::{small_code, SMALL_CODES};
pub use vocabulary::{
    exec_order, kinds, EventKind, FieldInfo, KindInfo, ThreadRef, TraceEvent, WaitReason, Word,
    AUX_BASE, MAX_ROLES, SCHEDULER,
};
