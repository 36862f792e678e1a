//! Parsing and validation: every error is located and names its field.

use psmr_scenario::{parse_scenario, parse_scenario_with, Diagnostic, Limits};

const VALID: &str = r#"{
  "name": "t",
  "description": "d",
  "app": { "kind": "linked-list", "shards": 2, "size": "light" },
  "workload": { "requests": 1000, "writes": 0.1, "global": 0.05 },
  "threads": 2,
  "schedulers": [ { "id": "sequential" }, { "id": "early", "label": "e" } ]
}"#;

fn errors(text: &str) -> Vec<Diagnostic> {
    parse_scenario(text, "t.json").expect_err("expected errors")
}

/// The one error of `text`, with its field path.
fn one_error(text: &str) -> Diagnostic {
    let e = errors(text);
    assert_eq!(e.len(), 1, "{e:#?}");
    e.into_iter().next().unwrap()
}

/// The one error of `text`: at `path`, its message containing `says`.
fn one_error_at(text: &str, path: &str, says: &str) -> Diagnostic {
    let d = one_error(text);
    assert_eq!(d.path, path, "{d}");
    assert!(d.message.contains(says), "{d}");
    d
}

/// The field path of each error.
fn paths(e: &[Diagnostic]) -> Vec<&str> {
    e.iter().map(|d| d.path.as_str()).collect()
}

/// 1-based line and column of the first occurrence of `needle` in `text`.
fn pos_of(text: &str, needle: &str) -> (usize, usize) {
    let at = text.find(needle).expect("needle");
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let col = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
    (line, col)
}

#[test]
fn valid_file_parses_with_defaults() {
    let sc = parse_scenario(VALID, "t.json").unwrap();
    assert_eq!(sc.threads, 2);
    assert_eq!(sc.workload.seed, 1);
    assert!(sc.run.trace());
    assert_eq!(sc.run.repetitions(), 1);
    assert_eq!(sc.schedulers[1].name(), "e");
}

#[test]
fn wrong_type_is_located_at_the_value() {
    let text = VALID.replace("\"threads\": 2", "\"threads\": \"2\"");
    let d = one_error_at(&text, "threads", "expected usize");
    assert_eq!(d.line, pos_of(&text, "\"threads\"").0);
    assert!(d.to_string().starts_with(&format!("t.json:{}:", d.line)));
}

/// An edit of a valid scenario (`from` replaced by `to` in `base`) that
/// must give exactly one error: at `path`, its message containing `says`,
/// and with `at`, located where that text first occurs in the edited file.
struct Refused {
    what: &'static str,
    base: &'static str,
    from: &'static str,
    to: &'static str,
    path: &'static str,
    says: &'static str,
    at: Option<&'static str>,
}

const ENTRY_E: &str = "{ \"id\": \"early\", \"label\": \"e\" }";

const REFUSED: &[Refused] = &[
    Refused {
        what: "an unknown top-level field points at its key",
        base: VALID,
        from: "\"threads\": 2",
        to: "\"threads\": 2, \"thraeds\": 3",
        path: "thraeds",
        says: "unknown field `thraeds`",
        at: Some("\"thraeds\""),
    },
    Refused {
        what: "an unknown field inside the tagged app points at its key",
        base: VALID,
        from: "\"size\": \"light\"",
        to: "\"size\": \"light\", \"colour\": 1",
        path: "app.colour",
        says: "unknown field `colour`",
        at: Some("\"colour\""),
    },
    Refused {
        what: "a missing field is named",
        base: VALID,
        from: "\"threads\": 2,",
        to: "",
        path: "",
        says: "missing field `threads`",
        at: None,
    },
    Refused {
        what: "a skewed workload's hot shard must exist",
        base: VALID,
        from: "\"global\": 0.05",
        to: "\"global\": 0.05, \"skew\": {\"kind\": \"skewed\", \"hot\": 2, \"share\": 0.5}",
        path: "workload.skew.hot",
        says: "",
        at: Some("2, \"share\""),
    },
    Refused {
        what: "two schedulers with one name",
        base: VALID,
        from: "\"label\": \"e\"",
        to: "\"label\": \"sequential\"",
        path: "schedulers[1].label",
        says: "",
        at: None,
    },
    Refused {
        what: "late's graph bound of zero",
        base: VALID,
        from: ENTRY_E,
        to: "{ \"id\": \"late\", \"late\": { \"graph_bound\": 0 } }",
        path: "schedulers[1].late.graph_bound",
        says: "",
        at: None,
    },
    Refused {
        what: "late's parameters in another family's object",
        base: VALID,
        from: ENTRY_E,
        to: "{ \"id\": \"late\", \"epaxos\": {} }",
        path: "schedulers[1].epaxos",
        says: "its parameters go in `late`",
        at: None,
    },
    Refused {
        what: "a repeated top-level key, at its second occurrence",
        base: VALID,
        from: "\"threads\": 2,",
        to: "\"threads\": 2,\n  \"name\": \"again\",",
        path: "name",
        says: "duplicate field `name`",
        at: Some("\"name\": \"again\""),
    },
    Refused {
        what: "a repeated nested key, at its second occurrence",
        base: VALID,
        from: "\"writes\": 0.1,",
        to: "\"writes\": 0.1,\n    \"writes\": 0.2,",
        path: "workload.writes",
        says: "",
        at: Some("\"writes\": 0.2"),
    },
    Refused {
        what: "busy-wait's `spin` in early's object, at its key",
        base: VALID,
        from: "\"label\": \"e\"",
        to: "\"label\": \"e\", \"early\": {\"spin\": {\"spins\": 10}}",
        path: "schedulers[1].early.spin",
        says: "does not apply to `early`",
        at: Some("\"spin\""),
    },
    Refused {
        what: "a stealing object on early",
        base: VALID,
        from: "\"label\": \"e\"",
        to: "\"label\": \"e\", \"stealing\": {\"queue_capacity\": 8}",
        path: "schedulers[1].stealing",
        says: "its parameters go in `early`",
        at: None,
    },
    Refused {
        what: "any parameter object on sequential",
        base: VALID,
        from: "{ \"id\": \"sequential\" }",
        to: "{ \"id\": \"sequential\", \"early\": {} }",
        path: "schedulers[0].early",
        says: "takes no parameters",
        at: None,
    },
    Refused {
        what: "a first-wave parameter field says where it went",
        base: VALID,
        from: "\"label\": \"e\"",
        to: "\"label\": \"e\", \"mapping\": {\"kind\": \"naive\"}",
        path: "schedulers[1].mapping",
        says: "\"early\": {\"mapping\"",
        at: Some("\"mapping\""),
    },
    Refused {
        what: "a list size of zero",
        base: VALID,
        from: "\"light\"",
        to: "0",
        path: "app.size",
        says: "1..=1000000",
        at: None,
    },
    Refused {
        what: "an event workload needs a color per handler of a round and one more",
        base: EVENTS,
        from: "\"colors\": 1001",
        to: "\"colors\": 1000",
        path: "app.colors",
        says: "at least 1001 colors",
        at: None,
    },
    Refused {
        what: "long events' spin time as a list",
        base: EVENTS,
        from: "\"round\": 1000 }",
        to: "\"round\": 1000, \"long_ns\": [5000, 10] }",
        path: "workload.events.long_ns",
        says: "",
        at: None,
    },
    Refused {
        what: "a share of long events above 1",
        base: EVENTS,
        from: "\"round\": 1000 }",
        to: "\"round\": 1000, \"long_share\": 1.5 }",
        path: "workload.events.long_share",
        says: "",
        at: None,
    },
    Refused {
        what: "more colors than events in a round: some color would hold none",
        base: EVENTS,
        from: "\"round\": 1000 }",
        to: "\"round\": 1000, \"colors\": 1001 }",
        path: "workload.events.colors",
        says: "at most `round`",
        at: None,
    },
    Refused {
        what: "a handler note of an unknown handler, at its key",
        base: EVENTS,
        from: "\"round\": 1000 }",
        to: "\"round\": 1000, \"handlers\": { \"lng\": { \"penalty\": 3 } } }",
        path: "workload.events.handlers.lng",
        says: "fork, short, long",
        at: Some("\"lng\""),
    },
    Refused {
        what: "a handler's stealing penalty of zero",
        base: EVENTS,
        from: "\"round\": 1000 }",
        to: "\"round\": 1000, \"handlers\": { \"long\": { \"penalty\": 0 } } }",
        path: "workload.events.handlers.long.penalty",
        says: "",
        at: None,
    },
    Refused {
        what: "an event workload refuses a total order's write share",
        base: EVENTS,
        from: "\"requests\": 3000,",
        to: "\"requests\": 3000, \"writes\": 0.5,",
        path: "workload.writes",
        says: "does not apply to an event workload",
        at: None,
    },
    Refused {
        what: "an event workload needs the handlers application",
        base: EVENTS,
        from: "{ \"kind\": \"handlers\", \"colors\": 1001 }",
        to: "{ \"kind\": \"spin\", \"ns\": 10 }",
        path: "workload.events.kind",
        says: "handlers application",
        at: None,
    },
    Refused {
        what: "a total-order scheduler refuses an event stream",
        base: EVENTS,
        from: "{ \"id\": \"sequential\" }",
        to: "{ \"id\": \"early\" }",
        path: "schedulers[0].id",
        says: "events stream",
        at: None,
    },
];

#[test]
fn each_refused_edit_is_one_located_error() {
    for r in REFUSED {
        assert!(r.base.contains(r.from), "{}: nothing to edit", r.what);
        let text = r.base.replace(r.from, r.to);
        let d = one_error(&text);
        assert_eq!(d.path, r.path, "{}: {d}", r.what);
        assert!(d.message.contains(r.says), "{}: {d}", r.what);
        if let Some(at) = r.at {
            assert_eq!((d.line, d.col), pos_of(&text, at), "{}: {d}", r.what);
        }
    }
}

#[test]
fn unknown_scheduler_id_names_the_entry() {
    let text = VALID.replace("\"id\": \"early\"", "\"id\": \"earl\"");
    let d = one_error_at(&text, "schedulers[1].id", "unknown variant `earl`");
    assert_eq!(d.line, pos_of(&text, "earl").0);
}

#[test]
fn malformed_json_is_a_located_syntax_error() {
    let text = VALID.replace("\"threads\": 2,", "\"threads\": 2,,");
    let d = one_error(&text);
    assert!(d.message.starts_with("invalid JSON"), "{d}");
    assert_eq!(d.line, pos_of(&text, ",,").0);
    let d = one_error("");
    assert_eq!((d.line, d.col), (1, 1));
    let d = one_error(&format!("{VALID} x"));
    assert!(d.message.contains("trailing"), "{d}");
}

#[test]
fn threads_out_of_range_name_the_limit() {
    for (t, limit) in [("0", 64), ("1000", 64)] {
        let text = VALID.replace("\"threads\": 2", &format!("\"threads\": {t}"));
        let d = one_error(&text);
        assert_eq!(d.path, "threads");
        assert!(d.message.contains(&format!("max_threads = {limit}")), "{d}");
        let (line, col) = pos_of(&text, &format!("\"threads\": {t}"));
        assert_eq!((d.line, d.col), (line, col + "\"threads\": ".len()));
    }
    let text = VALID.replace("\"threads\": 2", "\"threads\": 17");
    assert!(parse_scenario(&text, "t").is_ok());
    let e = parse_scenario_with(&text, "t", &Limits::browser()).unwrap_err();
    assert!(e[0].message.contains("max_threads = 16"), "{}", e[0]);
}

#[test]
fn semantic_errors_carry_paths_and_positions() {
    let text = VALID
        .replace("\"writes\": 0.1", "\"writes\": 1.5")
        .replace("\"requests\": 1000", "\"requests\": 0");
    let e = errors(&text);
    assert_eq!(
        paths(&e),
        ["workload.requests", "workload.writes"],
        "{e:#?}"
    );
    assert_eq!((e[1].line, e[1].col), pos_of(&text, "1.5"));
    assert!(e[1].message.contains("between 0 and 1"));
}

#[test]
fn mix_names_must_be_classes_and_sum_to_one() {
    let text = VALID.replace(
        "\"writes\": 0.1, \"global\": 0.05",
        "\"mix\": {\"R1\": 0.5, \"W9\": 0.25}",
    );
    let e = errors(&text);
    assert_eq!(paths(&e), ["workload.mix.W9", "workload.mix"], "{e:#?}");
    assert!(e[0].message.contains("R1, W1, R2, W2, Rg, Wg"), "{}", e[0]);
}

#[test]
fn expectations_must_name_scenario_schedulers_and_known_counters() {
    let text = VALID.replace(
        "\"threads\": 2,",
        "\"threads\": 2, \"expect\": {\"counters\": [{\"scheduler\": \"ws-optimistic\", \"counter\": \"stealz\", \"op\": \">\", \"value\": 0}]},",
    );
    let e = errors(&text);
    assert_eq!(
        paths(&e),
        ["expect.counters[0].scheduler", "expect.counters[0].counter"]
    );
}

#[test]
fn explicit_mapping_threads_must_exist() {
    let text = VALID.replace(
        "\"label\": \"e\"",
        "\"label\": \"e\", \"early\": {\"mapping\": {\"kind\": \"explicit\", \"classes\": {\"R1\": {\"mode\": \"concurrent\", \"threads\": [0, 5]}}}}",
    );
    let e = errors(&text);
    assert!(e.iter().any(
        |d| d.path == "schedulers[1].early.mapping.classes.R1.threads"
            && d.message.contains("thread 5")
    ));
    assert!(e
        .iter()
        .any(|d| d.message.contains("class `Wg` has no mapping")));
}

#[test]
fn explicit_mapping_breaking_a_rule_is_reported_at_validation() {
    let all = ["R1", "W1", "R2", "W2", "Rg", "Wg"]
        .iter()
        .map(|c| format!("\"{c}\": {{\"mode\": \"concurrent\", \"threads\": [0]}}"))
        .collect::<Vec<_>>()
        .join(", ");
    let text = VALID.replace(
        "\"label\": \"e\"",
        &format!(
            "\"label\": \"e\", \"early\": {{\"mapping\": {{\"kind\": \"explicit\", \"classes\": {{{all}}}}}}}"
        ),
    );
    let d = one_error_at(&text, "schedulers[1].early.mapping", "R.");
    assert_eq!(d.line, pos_of(&text, "\"mapping\"").0);
}

/// `spin` belongs to busy-wait: refused in early's object (see
/// [`REFUSED`]), accepted in busy-wait's.
#[test]
fn a_familys_parameter_is_accepted_by_its_own_scheduler() {
    let ok = VALID.replace(
        "{ \"id\": \"early\", \"label\": \"e\" }",
        "{ \"id\": \"busy-wait\", \"early\": {\"spin\": {\"spins\": 10}} }",
    );
    parse_scenario(&ok, "t.json").unwrap();
}

#[test]
fn delivery_models_are_checked_and_located() {
    let with = |d: &str| {
        VALID.replace(
            "\"threads\": 2,",
            &format!("\"threads\": 2, \"delivery\": {d},"),
        )
    };
    let sc = parse_scenario(&with("{\"model\": \"closed\", \"clients\": 8}"), "t.json").unwrap();
    assert_eq!(
        sc.delivery(),
        psmr_core::exec::Delivery::Closed { clients: Some(8) }
    );
    let text = with("{\"model\": \"closed\", \"clients\": 0}");
    let d = one_error(&text);
    assert_eq!(d.path, "delivery.clients");
    let text = with("{\"model\": \"rate\", \"per_s\": -3}");
    assert_eq!(one_error(&text).path, "delivery.per_s");
    let text = with("{\"model\": \"closed\", \"client\": 3}");
    let d = one_error(&text);
    assert!(d.message.contains("unknown field `client`"), "{d}");
}

#[test]
fn a_byte_order_mark_is_accepted() {
    let text = format!("\u{feff}{VALID}");
    parse_scenario(&text, "t.json").unwrap();
}

#[test]
fn the_handlers_app_needs_an_event_workload() {
    let text = VALID.replace(
        "{ \"kind\": \"linked-list\", \"shards\": 2, \"size\": \"light\" }",
        "{ \"kind\": \"handlers\", \"colors\": 4 }",
    );
    let e = errors(&text);
    assert!(
        e.iter()
            .any(|d| d.path == "app.kind" && d.message.contains("event streams")),
        "{e:#?}"
    );
}

const EVENTS: &str = r#"{
  "name": "t",
  "description": "d",
  "app": { "kind": "handlers", "colors": 1001 },
  "workload": { "requests": 3000, "events": { "kind": "unbalanced", "round": 1000 } },
  "threads": 2,
  "schedulers": [ { "id": "sequential" } ]
}"#;

#[test]
fn an_event_workload_makes_an_event_stream() {
    let sc = parse_scenario(EVENTS, "t.json").unwrap();
    assert_eq!(sc.stream_kind(), psmr_core::StreamKind::Events);
    let prepared = psmr_scenario::runner::prepare(&sc).unwrap();
    assert_eq!(prepared.stream.len(), 3000);
    assert_eq!(prepared.stream.deliveries(), 3);
}

#[test]
fn an_event_workload_needs_its_data_sets() {
    let penalty = EVENTS.replace(
        "{ \"kind\": \"unbalanced\", \"round\": 1000 }",
        "{ \"kind\": \"penalty\", \"arrays\": 8, \"chunk_kib\": 4 }",
    );
    let e = errors(&penalty);
    assert!(e.iter().any(|d| d.path == "app.data_sets"), "{e:#?}");
    let ok = penalty.replace(
        "\"colors\": 1001",
        "\"colors\": 9, \"data_sets\": 8, \"data_kib\": 16",
    );
    parse_scenario(&ok, "t.json").unwrap();
    let d = one_error(&ok.replace("\"chunk_kib\": 4", "\"chunk_kib\": 32"));
    assert_eq!(d.path, "workload.events.chunk_kib");
    one_error_at(
        &ok.replace("\"data_sets\": 8", "\"data_sets\": 8000"),
        "app.data_kib",
        "at most 65536 KiB",
    );
}

#[test]
fn an_unknown_event_workload_kind_is_an_unknown_variant() {
    let d = one_error(&EVENTS.replace("\"kind\": \"unbalanced\"", "\"kind\": \"unbalance\""));
    assert!(d.message.contains("unknown variant"), "{d}");
}

#[test]
fn event_runtimes_take_the_coloring_object() {
    let text = EVENTS.replace(
        "{ \"id\": \"sequential\" }",
        "{ \"id\": \"libasync\", \"coloring\": { \"stealing\": false } }, { \"id\": \"mely\", \"coloring\": { \"batch\": 5, \"time_left\": false, \"locality\": false, \"cores_per_cache\": 4 } }",
    );
    let sc = parse_scenario(&text, "t.json").unwrap();
    assert_eq!(sc.schedulers.len(), 2);
    one_error_at(
        &text.replace("\"stealing\": false", "\"stealing\": false, \"batch\": 3"),
        "schedulers[0].coloring.batch",
        "does not apply to `libasync`",
    );
    let d = one_error(&text.replace("\"batch\": 5", "\"batch\": 0"));
    assert_eq!(d.path, "schedulers[1].coloring.batch");
    let d = one_error(&text.replace("\"cores_per_cache\": 4", "\"cores_per_cache\": 0"));
    assert_eq!(d.path, "schedulers[1].coloring.cores_per_cache");
    // Issue 28 item 1: with locality on, a topology where every victim is
    // equally distant (one cache for both cores, or one cache per core) is
    // refused, located at the field.
    let local = text.replace("\"locality\": false, ", "");
    one_error_at(
        &local,
        "schedulers[1].coloring.cores_per_cache",
        "equally distant",
    );
    one_error_at(
        &local.replace("\"cores_per_cache\": 4", "\"cores_per_cache\": 1"),
        "schedulers[1].coloring.cores_per_cache",
        "load only",
    );
    let four = local
        .replace("\"threads\": 2", "\"threads\": 4")
        .replace("\"cores_per_cache\": 4", "\"cores_per_cache\": 2");
    assert!(parse_scenario(&four, "t.json").is_ok(), "pairs of 4 cores");
    one_error_at(
        &EVENTS.replace(
            "{ \"id\": \"sequential\" }",
            "{ \"id\": \"mely\", \"stealing\": {} }",
        ),
        "schedulers[0].stealing",
        "go in `coloring`",
    );
}

fn kv_ycsb(app: &str, workload: &str) -> String {
    format!(
        r#"{{
  "name": "y",
  "description": "d",
  "app": {app},
  "workload": {workload},
  "threads": 2,
  "schedulers": [ {{ "id": "sequential" }} ]
}}"#
    )
}

#[test]
fn ycsb_workloads_are_checked_and_located() {
    let kv = r#"{ "kind": "kv-store", "shards": 2, "keys": 1000 }"#;
    let ok = kv_ycsb(
        kv,
        r#"{ "requests": 100, "ycsb": { "workload": "e-paper-001" } }"#,
    );
    let sc = parse_scenario(&ok, "t.json").unwrap();
    assert!(sc.workload.ycsb.is_some());
    // Class-share fields next to ycsb.
    let text = kv_ycsb(
        kv,
        r#"{ "requests": 100, "writes": 0.5, "ycsb": { "workload": "a" } }"#,
    );
    one_error_at(&text, "workload.ycsb", "remove writes");
    // Hashed key order with inserts.
    let text = kv_ycsb(
        kv,
        r#"{ "requests": 100, "ycsb": { "workload": "d", "key_order": "hashed" } }"#,
    );
    assert_eq!(one_error(&text).path, "workload.ycsb.key_order");
    // Another application.
    let text = kv_ycsb(
        r#"{ "kind": "spin", "ns": 1 }"#,
        r#"{ "requests": 100, "ycsb": { "workload": "a" } }"#,
    );
    assert_eq!(one_error(&text).path, "workload.ycsb");
    // A value size out of range.
    let text = kv_ycsb(
        r#"{ "kind": "kv-store", "keys": 1000, "value_bytes": 4 }"#,
        r#"{ "requests": 100, "ycsb": { "workload": "a" } }"#,
    );
    let e = one_error(&text);
    assert_eq!(e.path, "app.value_bytes");
    assert_eq!((e.line, e.col), pos_of(&text, "4 }"));
}

#[test]
fn repartitioning_parameters_are_checked_and_located() {
    let kv = r#"{ "kind": "kv-store", "shards": 2, "keys": 1000 }"#;
    let with = |entry: &str| {
        format!(
            r#"{{
  "name": "r",
  "description": "d",
  "app": {kv},
  "workload": {{ "requests": 100, "ycsb": {{ "workload": "a" }} }},
  "threads": 2,
  "schedulers": [ {entry} ]
}}"#
        )
    };
    parse_scenario(
        &with(r#"{ "id": "repart-async", "repart": { "window": 100, "queue_bound": 10 } }"#),
        "t.json",
    )
    .unwrap();
    let text = with(r#"{ "id": "repart-base", "repart": { "delta_p": 0 } }"#);
    let e = one_error(&text);
    assert_eq!(e.path, "schedulers[0].repart.delta_p");
    let (line, col) = pos_of(&text, r#""delta_p": 0"#);
    assert_eq!((e.line, e.col), (line, col + "\"delta_p\": ".len()));
    one_error_at(
        &with(r#"{ "id": "repart-base", "repart": { "window": 5 } }"#),
        "schedulers[0].repart.window",
        "does not apply",
    );
    // The family runs on keys only.
    let text = VALID.replace(
        "{ \"id\": \"early\", \"label\": \"e\" }",
        "{ \"id\": \"repart-rr\" }",
    );
    let e = one_error(&text);
    assert!(e.message.contains("keys"), "{}", e.message);
}

/// A commit workload: simulation parameters and replayed instances are
/// checked where they are written; schedulers must match the stream kind.
#[test]
fn commit_workloads_are_checked_and_located() {
    let with = |commits: &str, scheds: &str| {
        VALID
            .replace(
                "\"global\": 0.05 }",
                &format!("\"global\": 0.05, \"commits\": {commits} }}"),
            )
            .replace(
                "[ { \"id\": \"sequential\" }, { \"id\": \"early\", \"label\": \"e\" } ]",
                scheds,
            )
    };
    let ok = with(
        "{ \"replicas\": 5 }",
        "[ { \"id\": \"epaxos\" }, { \"id\": \"pepaxos\" } ]",
    );
    let sc = parse_scenario(&ok, "t.json").unwrap();
    assert_eq!(sc.stream_kind(), psmr_core::StreamKind::Commits);

    let text = with("{ \"replicas\": 9 }", "[ { \"id\": \"epaxos\" } ]");
    let d = one_error_at(&text, "workload.commits.replicas", "1..=7");
    assert_eq!((d.line, d.col), pos_of(&text, "9 }"));

    let text = with(
        "{ \"instances\": [ { \"commands\": [0], \"seq\": 1, \"deps\": [4] } ] }",
        "[ { \"id\": \"epaxos\" } ]",
    );
    let e = errors(&text);
    assert_eq!(e[0].path, "workload.commits.instances[0].deps[0]");
    assert_eq!((e[0].line, e[0].col), pos_of(&text, "4] }"));

    // An early-family scheduler cannot run commits; epaxos cannot run a
    // total order.
    let text = with("{}", "[ { \"id\": \"early\" } ]");
    one_error_at(&text, "schedulers[0].id", "commits stream");
    let d = one_error(&VALID.replace("\"id\": \"early\"", "\"id\": \"epaxos\""));
    assert!(d.message.contains("runs commits streams"), "{d}");
}

#[test]
fn list_sizes_take_numbers() {
    let sc = parse_scenario(&VALID.replace("\"light\"", "1000000"), "t.json").unwrap();
    assert_eq!(
        sc.app,
        psmr_core::app::AppSpec::LinkedList {
            shards: 2,
            size: psmr_core::app::ListCost::of(1_000_000)
        }
    );
}

/// serde would read a struct from an array of its fields in order; a
/// scenario, and every object in it, must name its fields.
#[test]
fn a_scenario_or_an_entry_written_as_an_array_is_refused() {
    let app = r#"{ "kind": "linked-list", "shards": 2, "size": "light" }"#;
    let workload = r#"{ "requests": 1000, "writes": 0.1, "global": 0.05 }"#;
    let text =
        format!("[null, \"t\", \"d\", {app}, {workload}, null, 2, [{{ \"id\": \"sequential\" }}]]");
    let d = one_error(&text);
    assert_eq!((d.path.as_str(), d.line, d.col), ("", 1, 1), "{d}");
    assert!(
        d.message
            .contains("JSON object with named fields, got an array"),
        "{d}"
    );
    let text = VALID.replace("{ \"id\": \"sequential\" }", "[\"sequential\"]");
    let d = one_error(&text);
    assert_eq!(d.path, "schedulers[0]", "{d}");
    assert_eq!((d.line, d.col), pos_of(&text, "[\"sequential\"]"));
}

/// With YCSB, the store's key count is capped by YCSB's record count
/// (10^7, below the store's own 2^24): one error, with the tighter bound.
#[test]
fn ycsb_key_cap_is_reported_once() {
    let text = r#"{
  "name": "t", "description": "d",
  "app": { "kind": "kv-store", "shards": 4, "keys": 12000000 },
  "workload": { "requests": 100, "ycsb": { "workload": "a" } },
  "threads": 2,
  "schedulers": [ { "id": "sequential" } ]
}"#;
    let d = one_error(text);
    assert_eq!(d.path, "app.keys");
    assert!(
        d.message
            .contains("10000000 keys (YCSB's record count cap), got 12000000"),
        "{d}"
    );
    // Without YCSB the store's own cap applies.
    let text = text.replace(", \"ycsb\": { \"workload\": \"a\" }", "");
    assert!(parse_scenario(&text, "t.json").is_ok());
}

/// VALID with `"fault": "<fault>"` on entry `e`.
fn with_fault(fault: &str) -> String {
    VALID.replace(
        ENTRY_E,
        &format!("{{ \"id\": \"early\", \"label\": \"e\", \"fault\": \"{fault}\" }}"),
    )
}

/// The one error of entry `e` given `fault`: at `schedulers[1].fault`,
/// located where `at` first occurs in the file.
fn fault_error(fault: &str, at: &str) -> Diagnostic {
    let text = with_fault(fault);
    let d = one_error(&text);
    assert_eq!(d.path, "schedulers[1].fault");
    assert_eq!((d.line, d.col), pos_of(&text, at));
    d
}

/// `fault` names one of the broken variants the scheduler declares; the
/// error is located at the value and lists them.
#[cfg(feature = "fault-injection")]
#[test]
fn a_fault_the_scheduler_does_not_declare_is_refused() {
    let d = fault_error("ws-ignore-flags", "\"ws-ignore-flags\"");
    assert!(
        d.message
            .contains("unknown fault `ws-ignore-flags` for `early`")
            && d.message.contains("`early-no-barrier`"),
        "{d}"
    );
    assert!(parse_scenario(&with_fault("early-no-barrier"), "t.json").is_ok());
}

/// Without the feature, `fault` is an unknown field whose message says
/// which build has it.
#[cfg(not(feature = "fault-injection"))]
#[test]
fn a_fault_without_the_feature_says_the_feature_is_needed() {
    let d = fault_error("early-no-barrier", "\"fault\"");
    assert!(d.message.contains("`fault-injection` feature"), "{d}");
}
