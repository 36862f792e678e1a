//! The vocabulary as JSON, with the packed layout and the thread-id
//! conventions: the one description the web app's decoder is checked
//! against.

use super::codec::WORDS;
use super::small_codes::SMALL_CODES;
use super::vocabulary::{kinds, WaitReason, AUX_BASE, MAX_ROLES, SCHEDULER};
use crate::request::NO_REQUEST;

/// The vocabulary, wait reasons and thread-id conventions as JSON (what
/// `psmr schema --trace` prints and `web/src/trace/vocabulary.json` holds).
pub fn vocabulary_json() -> String {
    let reasons: Vec<serde_json::Value> = WaitReason::ALL
        .iter()
        .map(|r| serde_json::json!({"code": r.code(), "name": r.name(), "flags": r.flags()}))
        .collect();
    let v = serde_json::json!({
        "words_per_event": WORDS,
        "layout": "w0,w1 = t_ns low/high; w2 = thread (bits 0-15) | kind code (16-23) | x (24-31); w3..w5 = a, b, c",
        "threads": {"scheduler": SCHEDULER, "aux_base": AUX_BASE, "max_roles": MAX_ROLES},
        "no_request": NO_REQUEST,
        "kinds": kinds(),
        "reasons": reasons,
        "small_codes": SMALL_CODES
            .iter()
            .map(|(kind, field, names)| serde_json::json!({"kind": kind, "field": field, "names": names}))
            .collect::<Vec<_>>(),
    });
    let mut s = serde_json::to_string_pretty(&v).unwrap_or_default();
    s.push('\n');
    s
}
