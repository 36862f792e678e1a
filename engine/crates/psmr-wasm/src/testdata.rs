//! Scenario texts shared by the crate's tests.

/// A short stream (linked list, 2 threads, 2000 requests, sequential
/// only, traces on): line 6 is `threads`, line 8 `run`.
pub const SMALL: &str = r#"{
  "name": "small",
  "description": "a short stream for the session tests",
  "app": { "kind": "linked-list", "shards": 2, "size": "light" },
  "workload": { "seed": 3, "requests": 2000, "writes": 0.1, "global": 0.05 },
  "threads": 2,
  "schedulers": [ { "id": "sequential" } ],
  "run": { "trace": true }
}"#;
