//! Fuzzing the parser: no input makes it panic, and every error is located.
//!
//! The quick properties run with the normal tests; the long run is
//! `cargo test -p psmr-scenario --release --test fuzz -- --ignored`.

use proptest::prelude::*;
use psmr_scenario::parse_scenario;

const QUICKSTART: &str = include_str!("../../../../scenarios/quickstart.json");

fn check(text: &str) {
    if let Err(errors) = parse_scenario(text, "f.json") {
        assert!(!errors.is_empty());
        for d in errors {
            assert!(d.line >= 1 && d.col >= 1, "{d:?}");
            assert!(
                d.line <= text.lines().count().max(1) + 1,
                "{d:?} beyond the text"
            );
        }
    }
}

/// An edit of a valid file: delete, insert or replace a span.
fn mutate(base: &str, at: usize, len: usize, insert: &str, kind: u8) -> String {
    let chars: Vec<char> = base.chars().collect();
    let at = at % (chars.len() + 1);
    let end = (at + len).min(chars.len());
    let mut out: String = chars[..at].iter().collect();
    // 0 deletes [at, end), 1 inserts at `at`, 2 replaces [at, end).
    let rest = match kind % 3 {
        0 => end,
        1 => {
            out.push_str(insert);
            at
        }
        _ => {
            out.push_str(insert);
            end
        }
    };
    out.extend(&chars[rest..]);
    out
}

/// JSON punctuation, out-of-range numbers, a stray member and an escaped
/// NUL: what an edit inserts besides random text.
const FRAGMENTS: &[&str] = &[
    "{",
    "}",
    "[",
    "\"",
    ",",
    ":",
    "-1",
    "1e999",
    "18446744073709551616",
    "null",
    "\"x\": 1,",
    "\\u0000",
];

/// One of [`FRAGMENTS`] or a short random text, each fragment as likely
/// as the random text.
fn json_fragment() -> impl Strategy<Value = String> {
    prop_oneof![
        FRAGMENTS.len() as u32 => proptest::sample::select(FRAGMENTS).prop_map(str::to_string),
        1 => "\\PC{0,8}",
    ]
}

proptest! {
    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        check(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn mutated_valid_files_never_panic(at in 0usize..4000, len in 0usize..12, insert in json_fragment(), kind in 0u8..3) {
        check(&mutate(QUICKSTART, at, len, &insert, kind));
    }
}

/// The long fuzz run (a few minutes in release): `PSMR_FUZZ_CASES` cases
/// (default 4,000,000) of mutated files, then half as many random inputs.
#[test]
#[ignore]
fn fuzz_long() {
    let cases: u32 = std::env::var("PSMR_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(4_000_000);
    let config = |cases| ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    };
    proptest::test_runner::TestRunner::new(config(cases))
        .run(
            &(0usize..4000, 0usize..40, json_fragment(), 0u8..3),
            |(at, len, insert, kind)| {
                check(&mutate(QUICKSTART, at, len, &insert, kind));
                Ok(())
            },
        )
        .unwrap();
    proptest::test_runner::TestRunner::new(config(cases / 2))
        .run(&proptest::collection::vec(any::<u8>(), 0..2000), |bytes| {
            check(&String::from_utf8_lossy(&bytes));
            Ok(())
        })
        .unwrap();
}

#[test]
fn quickstart_is_valid() {
    parse_scenario(QUICKSTART, "quickstart.json").unwrap();
}
