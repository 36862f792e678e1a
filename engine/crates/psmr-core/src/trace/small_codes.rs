//! The small fields whose values name a choice rather than count
//! something, with the names of their values ([`SMALL_CODES`]); recorders
//! take the codes from [`small_code`] at compile time, the web reads them
//! by name from the JSON table.

/// The small fields whose values name a choice rather than count something:
/// `(kind, field, names)`, the value being the name's index. The recorders
/// write these codes (coloring runtimes: `runtime.rs`, `mely.rs`; a test
/// there checks them); the web reads them by name from the JSON table.
pub const SMALL_CODES: &[(&str, &str, &[&str])] = &[
    // Paper 002: how a free color got its core.
    (
        "color-home",
        "how",
        &["hashed", "registering-core", "fixed-core"],
    ),
    // Mely's color-queues (IV-A).
    ("color-queue", "op", &["joined", "left", "to-tail"]),
    // `coloring::runtime::Refusal`, in its order.
    (
        "steal-refused",
        "heuristic",
        &["two-colors", "half", "time-left", "nothing"],
    ),
    // Mely's stealing queue (IV-B): three intervals of time left, then leaving it.
    (
        "steal-queue",
        "interval",
        &["under-one-unit", "under-eight-units", "above", "left"],
    ),
];

/// `a == b`, at compile time.
const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The code of `name` among the codes of `kind`'s small field `field`
/// ([`SMALL_CODES`]). Meant for constants: a name not in the table stops
/// the build.
pub const fn small_code(kind: &str, field: &str, name: &str) -> u8 {
    let mut e = 0;
    while e < SMALL_CODES.len() {
        let (k, f, names) = SMALL_CODES[e];
        if same(k, kind) && same(f, field) {
            let mut i = 0;
            while i < names.len() {
                if same(names[i], name) {
                    return i as u8;
                }
                i += 1;
            }
        }
        e += 1;
    }
    panic!("no such small code in SMALL_CODES")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::kinds;

    #[test]
    fn small_codes_name_small_fields_of_known_kinds() {
        let kinds = kinds();
        for (kind, field, names) in SMALL_CODES {
            let k = kinds.iter().find(|k| k.name == *kind);
            let f = k.and_then(|k| k.fields.iter().find(|f| f.name == *field));
            assert_eq!(f.map(|f| f.ty), Some("small"), "{kind}.{field}");
            assert!(!names.is_empty() && names.len() <= 256, "{kind}.{field}");
        }
    }
}
