//! The JSON shape of a commit stream, and reading one back with its
//! invariants checked (each broken one named by its path).

use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::commit_stream::CommitStream;
use super::limits::{MAX_COMMANDS, MAX_STREAM_DEPS};

/// No instance, no position: a command or dependency not seen yet.
const NONE: u32 = u32::MAX;

/// JSON shape of a commit stream: instances in commit order. Written by
/// [`CommitStream::to_json_shape`]; read back (from this lab or from
/// another ePaxos implementation's log) with
/// [`CommitStream::from_json_shape`], which checks what types cannot.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CommitStreamJson {
    /// Committed instances, in commit order.
    pub instances: Vec<InstanceJson>,
}

/// One committed instance.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct InstanceJson {
    /// Its batch: indices of requests in client order (at least one; over
    /// the stream, each index of `0..total` exactly once).
    pub commands: Vec<u32>,
    /// Its sequence number (orders instances inside an SCC).
    pub seq: u64,
    /// Instances it depends on, by position in `instances` (earlier or
    /// later, never itself, each once).
    #[serde(default)]
    pub deps: Vec<u32>,
}

/// A commit stream read from JSON broke an invariant; `path` names the
/// offending value (`instances[3].deps[1]`), as the scenario diagnostics
/// do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShapeError {
    pub path: String,
    pub message: String,
}

impl fmt::Display for ShapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

impl std::error::Error for ShapeError {}

fn shape_err(path: String, message: String) -> ShapeError {
    ShapeError { path, message }
}

impl CommitStream {
    /// The JSON shape of this stream.
    pub fn to_json_shape(&self) -> CommitStreamJson {
        CommitStreamJson {
            instances: (0..self.len())
                .map(|i| InstanceJson {
                    commands: self.commands(i).to_vec(),
                    seq: self.seq(i),
                    deps: self.deps(i).to_vec(),
                })
                .collect(),
        }
    }

    /// Check `json` and build the stream. Dependencies keep their listed
    /// order (it decides the search order, hence the order of independent
    /// SCCs).
    pub fn from_json_shape(json: &CommitStreamJson) -> Result<Self, ShapeError> {
        let n = json.instances.len();
        if n > MAX_COMMANDS {
            return Err(shape_err(
                "instances".into(),
                format!("{n} instances exceed the limit of {MAX_COMMANDS}"),
            ));
        }
        let total: usize = json.instances.iter().map(|i| i.commands.len()).sum();
        if total > MAX_COMMANDS {
            return Err(shape_err(
                "instances".into(),
                format!("{total} commands exceed the limit of {MAX_COMMANDS}"),
            ));
        }
        let deps: usize = json.instances.iter().map(|i| i.deps.len()).sum();
        if deps > MAX_STREAM_DEPS {
            return Err(shape_err(
                "instances".into(),
                format!("{deps} dependencies exceed the limit of {MAX_STREAM_DEPS}"),
            ));
        }
        // Where each command and each dependency was first seen.
        let mut command_at = vec![(NONE, NONE); total];
        let mut dep_at = vec![(NONE, NONE); n];
        let mut stream = CommitStream::default();
        for (i, inst) in json.instances.iter().enumerate() {
            let here = format!("instances[{i}]");
            if inst.commands.is_empty() {
                return Err(shape_err(
                    format!("{here}.commands"),
                    "expected at least one command (an instance is a non-empty batch)".into(),
                ));
            }
            for (k, &c) in inst.commands.iter().enumerate() {
                let path = format!("{here}.commands[{k}]");
                let Some(seen) = command_at.get_mut(c as usize) else {
                    return Err(shape_err(
                        path,
                        format!(
                            "command {c} out of range: the stream holds {total} commands, \
                             numbered 0..{total}"
                        ),
                    ));
                };
                if seen.0 != NONE {
                    let (a, b) = *seen;
                    return Err(shape_err(
                        path,
                        format!("command {c} already in instances[{a}].commands[{b}]"),
                    ));
                }
                *seen = (i as u32, k as u32);
            }
            for (k, &d) in inst.deps.iter().enumerate() {
                let path = format!("{here}.deps[{k}]");
                let Some(seen) = dep_at.get_mut(d as usize) else {
                    return Err(shape_err(
                        path,
                        format!("instance {d} does not exist: the stream has {n} instances"),
                    ));
                };
                if d as usize == i {
                    return Err(shape_err(
                        path,
                        "an instance cannot depend on itself".into(),
                    ));
                }
                if seen.0 == i as u32 {
                    return Err(shape_err(
                        path,
                        format!("instance {d} listed twice (also at deps[{}])", seen.1),
                    ));
                }
                *seen = (i as u32, k as u32);
            }
            stream.push(&inst.commands, inst.seq, &inst.deps);
        }
        Ok(stream)
    }
}

#[cfg(test)]
mod tests {
    use super::super::sim::simulate;
    use super::super::sim::tests::{busy_spec, kv_workload};
    use super::*;

    #[test]
    fn json_round_trip_through_text() {
        let fp = kv_workload(5, 400, 3, 30);
        let s = simulate(&fp, &busy_spec(5, 3)).unwrap().stream;
        let text = serde_json::to_string(&s.to_json_shape()).unwrap();
        let json: CommitStreamJson = serde_json::from_str(&text).unwrap();
        assert_eq!(CommitStream::from_json_shape(&json).unwrap(), s);
        // Omitted deps mean none; unknown fields are refused.
        let json: CommitStreamJson =
            serde_json::from_str(r#"{"instances":[{"commands":[0],"seq":1}]}"#).unwrap();
        assert_eq!(
            CommitStream::from_json_shape(&json).unwrap().deps(0),
            &[] as &[u32]
        );
        assert!(serde_json::from_str::<CommitStreamJson>(
            r#"{"instances":[{"commands":[0],"seq":1,"dep":[]}]}"#
        )
        .is_err());
    }

    #[test]
    fn json_errors_name_the_path() {
        let err = |text: &str| {
            let json: CommitStreamJson = serde_json::from_str(text).unwrap();
            CommitStream::from_json_shape(&json)
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            err(r#"{"instances":[{"commands":[0],"seq":1},{"commands":[],"seq":2}]}"#),
            "instances[1].commands: expected at least one command (an instance is a non-empty batch)"
        );
        assert_eq!(
            err(r#"{"instances":[{"commands":[0,2],"seq":1}]}"#),
            "instances[0].commands[1]: command 2 out of range: the stream holds 2 commands, numbered 0..2"
        );
        assert_eq!(
            err(r#"{"instances":[{"commands":[1,0],"seq":1},{"commands":[1],"seq":1}]}"#),
            "instances[1].commands[0]: command 1 already in instances[0].commands[0]"
        );
        assert_eq!(
            err(r#"{"instances":[{"commands":[1,0],"seq":1},{"commands":[0,2],"seq":1}]}"#),
            "instances[1].commands[0]: command 0 already in instances[0].commands[1]"
        );
        assert_eq!(
            err(r#"{"instances":[{"commands":[0],"seq":1,"deps":[1]}]}"#),
            "instances[0].deps[0]: instance 1 does not exist: the stream has 1 instances"
        );
        assert_eq!(
            err(r#"{"instances":[{"commands":[0],"seq":1,"deps":[0]}]}"#),
            "instances[0].deps[0]: an instance cannot depend on itself"
        );
        assert_eq!(
            err(
                r#"{"instances":[{"commands":[0],"seq":1,"deps":[1,1]},{"commands":[1],"seq":1}]}"#
            ),
            "instances[0].deps[1]: instance 1 listed twice (also at deps[0])"
        );
        // The same dependency in two different instances is fine.
        let json: CommitStreamJson = serde_json::from_str(
            r#"{"instances":[{"commands":[0],"seq":1,"deps":[2]},{"commands":[1],"seq":1,"deps":[2]},{"commands":[2],"seq":1}]}"#,
        )
        .unwrap();
        assert!(CommitStream::from_json_shape(&json).is_ok());
    }
}
