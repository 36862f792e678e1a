//! The seeded request-stream generator.
//!
//! The stream depends only on the application spec, the workload spec and
//! the seed: every scheduler of a scenario receives the identical stream.
//! Randomness comes from a built-in SplitMix64 generator so that the stream
//! is the same on every platform (native and wasm) and crate version.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::app::kv::shard_of;
use crate::app::AppSpec;
use crate::cell::Span;
use crate::class::{ClassId, ClassTable};
use crate::request::Op;
pub use crate::rng::SplitMix64;
use crate::stream::{Stream, StreamBuilder};
pub use crate::workload_events::EventWorkload;

/// How local requests spread over shards.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Skew {
    /// Every shard receives the same share of local requests.
    #[default]
    Balanced,
    /// Shard `hot` (0-based) receives `share` of the local requests; the rest
    /// is spread evenly over the other shards (paper 000 section 5.3).
    Skewed {
        /// The hot shard, 0-based.
        #[serde(default)]
        hot: usize,
        /// Share of local requests sent to the hot shard (0..=1).
        share: f64,
    },
}

/// Workload parameters of a scenario.
#[serde_with_macros::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WorkloadSpec {
    /// Seed of the request stream.
    #[serde(default = "default_seed")]
    pub seed: u64,
    /// Number of requests delivered.
    pub requests: u32,
    /// Share of write requests (0..=1): the conflict rate.
    #[serde(default)]
    pub writes: f64,
    /// Share of global requests, over all shards (0..=1).
    #[serde(default)]
    pub global: f64,
    /// How local requests spread over shards.
    #[serde(default)]
    pub skew: Skew,
    /// Explicit share of each class by name (e.g. `{"R1": 0.45, "Wg": 0.1}`);
    /// when given, `writes`, `global` and `skew` are ignored.
    pub mix: Option<BTreeMap<String, f64>>,
    /// Mean length of a group of contiguous non-conflicting requests
    /// between writes, drawn from an exponential distribution (paper 000
    /// section 5.3). Absent: each request is a write independently.
    pub group_mean: Option<f64>,
    /// Key-value store only: share of reads that are scans.
    #[serde(default)]
    pub scans: f64,
    /// Key-value store only: keys read by one scan.
    #[serde(default = "default_scan_len")]
    pub scan_len: u32,
    /// Handlers application only: an event workload (paper 002), which
    /// makes an event stream of `requests` events; the fields above about
    /// writes, globals, skew, mix and scans do not apply to it.
    #[cfg_attr(
        not(feature = "events"),
        serde(default, deserialize_with = "de_events")
    )]
    pub events: Option<EventWorkload>,
    /// Key-value store only: a YCSB core workload (A, D, E) instead of the
    /// class-share generator; then leave `writes`, `global`, `skew`, `mix`,
    /// `group_mean`, `scans` and `scan_len` out.
    #[cfg_attr(not(feature = "ycsb"), serde(default, deserialize_with = "de_ycsb"))]
    pub ycsb: Option<crate::workload_ycsb::YcsbSpec>,
    /// Make the stream an ePaxos commit stream (paper 004): the same
    /// commands, ordered by a simulated ePaxos or replayed from a commit
    /// stream in JSON (see `workload_commits`).
    #[cfg_attr(
        not(feature = "commits"),
        serde(default, deserialize_with = "de_commits")
    )]
    pub commits: Option<crate::workload_commits::CommitsSpec>,
}

fn default_seed() -> u64 {
    1
}
fn default_scan_len() -> u32 {
    16
}

impl WorkloadSpec {
    /// `requests` requests drawn from `seed`, of which the shares `writes`
    /// and `global` (0..=1) are writes and global requests, spread evenly
    /// over the shards; every other field at its default.
    pub fn balanced(seed: u64, requests: u32, writes: f64, global: f64) -> Self {
        WorkloadSpec {
            seed,
            requests,
            writes,
            global,
            skew: Skew::Balanced,
            mix: None,
            group_mean: None,
            scans: 0.0,
            scan_len: default_scan_len(),
            events: None,
            ycsb: None,
            commits: None,
        }
    }
}

/// Class weights the workload implies (for the mapping optimizer), indexed
/// by class id of [`AppSpec::classes`].
pub fn class_weights(classes: &ClassTable, w: &WorkloadSpec) -> Vec<f64> {
    class_weights_for(None, classes, w)
}

crate::gated_reader!(
    /// `workload.events` when the `events` feature is in ([`crate::EVENTS`]).
    de_events,
    crate::EVENTS_GATE.on,
    "an event workload (`workload.events`)",
    crate::EVENTS_GATE.family,
    EventWorkload
);
crate::gated_reader!(
    /// `workload.ycsb` when the `ycsb` feature is in ([`crate::YCSB`]).
    de_ycsb,
    crate::YCSB_GATE.on,
    "a YCSB workload (`workload.ycsb`)",
    crate::YCSB_GATE.family,
    crate::workload_ycsb::YcsbSpec
);
crate::gated_reader!(
    /// `workload.commits` when the `commits` feature is in ([`crate::COMMITS`]).
    de_commits,
    crate::COMMITS_GATE.on,
    "an ePaxos commit stream (`workload.commits`)",
    crate::COMMITS_GATE.family,
    crate::workload_commits::CommitsSpec
);

/// [`class_weights`], measured on a sample of the stream for a YCSB
/// workload (which needs the app).
pub fn class_weights_for(
    app: Option<&AppSpec>,
    classes: &ClassTable,
    w: &WorkloadSpec,
) -> Vec<f64> {
    if let (true, Some(app), Some(y)) = (crate::YCSB, app, &w.ycsb) {
        return crate::workload_ycsb::class_weights(app, classes, y, w.seed, w.requests);
    }
    let n = classes.len();
    let shards = classes.shards();
    let mut weights = vec![0.0; n];
    if let Some(mix) = &w.mix {
        let total: f64 = mix.values().sum();
        for (name, share) in mix {
            if let Some(id) = classes.by_name(name) {
                weights[id as usize] = share / total.max(f64::MIN_POSITIVE);
            }
        }
        return weights;
    }
    let mut set = |class: Option<ClassId>, x: f64| {
        if let Some(c) = class {
            weights[c as usize] = x;
        }
    };
    let local = 1.0 - w.global;
    for s in 0..shards {
        let share = shard_share(&w.skew, s, shards);
        set(classes.local(s, false), local * share * (1.0 - w.writes));
        set(classes.local(s, true), local * share * w.writes);
    }
    set(classes.global(false), w.global * (1.0 - w.writes));
    set(classes.global(true), w.global * w.writes);
    weights
}

fn shard_share(skew: &Skew, shard: usize, shards: usize) -> f64 {
    match *skew {
        Skew::Balanced => 1.0 / shards as f64,
        Skew::Skewed { hot, share } if shards > 1 => {
            if shard == hot {
                share
            } else {
                (1.0 - share) / (shards - 1) as f64
            }
        }
        Skew::Skewed { .. } => 1.0,
    }
}

/// Generate the request stream: an event stream for an event workload
/// ([`crate::workload_events`]), a total order otherwise.
pub fn generate(app: &AppSpec, classes: &ClassTable, w: &WorkloadSpec) -> Stream {
    if let (true, Some(events)) = (crate::EVENTS, &w.events) {
        return crate::workload_events::generate(app, events, w.seed, w.requests);
    }
    if let (true, Some(y)) = (crate::YCSB, &w.ycsb) {
        return crate::workload_ycsb::generate(app, classes, y, w.seed, w.requests);
    }
    let mut rng = SplitMix64::new(w.seed);
    let picker = ClassPicker::new(classes, class_weights(classes, w), w);
    let mut builder = StreamBuilder::new(app.cell_space(), w.requests as usize);
    let mut footprint: Vec<Span> = Vec::with_capacity(4);
    for _ in 0..w.requests {
        let class = picker.pick(&mut rng);
        let op = make_op(&mut rng, app, classes, class, w);
        footprint.clear();
        app.footprint(&op, &mut footprint);
        builder.push(class, op, &footprint);
    }
    builder.finish_total()
}

/// Why a stream could not be generated: `path` is the workload field at
/// fault (e.g. `workload.commits.instances[2].deps[0]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StreamError {
    pub path: String,
    pub message: String,
}

/// Generate the stream of any kind the workload asks for: a total order
/// ([`generate`]), or with `commits` the same commands as a commit stream
/// ([`crate::workload_commits`]).
pub fn generate_stream(
    app: &AppSpec,
    classes: &ClassTable,
    w: &WorkloadSpec,
) -> Result<Stream, StreamError> {
    let total = generate(app, classes, w);
    let Some(commits) = w.commits.as_ref().filter(|_| crate::COMMITS) else {
        return Ok(total);
    };
    crate::workload_commits::commit_stream(&total, commits, w.seed).map_err(|e| StreamError {
        path: if e.path.is_empty() {
            "workload.commits".into()
        } else {
            format!("workload.commits.{}", e.path)
        },
        message: e.message,
    })
}

/// Draws classes: by weight, or (grouping, paper 000 section 5.3) a run of
/// reads of exponential length and then one write. The read-only and
/// write-only weight vectors are built once, not per request.
struct ClassPicker {
    weights: Vec<f64>,
    grouping: Option<(f64, Vec<f64>, Vec<f64>)>,
    group_left: std::cell::Cell<u64>,
}

impl ClassPicker {
    fn new(classes: &ClassTable, weights: Vec<f64>, w: &WorkloadSpec) -> Self {
        let grouping = match w.group_mean {
            Some(mean) if w.mix.is_none() && w.writes > 0.0 => {
                let only = |write: bool| -> Vec<f64> {
                    weights
                        .iter()
                        .enumerate()
                        .map(|(i, x)| {
                            if classes.get(i as ClassId).write == write {
                                *x
                            } else {
                                0.0
                            }
                        })
                        .collect()
                };
                Some((mean, only(false), only(true)))
            }
            _ => None,
        };
        ClassPicker {
            weights,
            grouping,
            group_left: std::cell::Cell::new(0),
        }
    }

    fn pick(&self, rng: &mut SplitMix64) -> ClassId {
        let Some((mean, reads, writes)) = &self.grouping else {
            return weighted(rng, &self.weights);
        };
        let mut left = self.group_left.get();
        if left == 0 {
            left = rng.exp(*mean).round() as u64 + 1;
        }
        left -= 1;
        self.group_left.set(left);
        if left == 0 {
            weighted(rng, writes)
        } else {
            weighted(rng, reads)
        }
    }
}

fn weighted(rng: &mut SplitMix64, weights: &[f64]) -> ClassId {
    let total: f64 = weights.iter().sum();
    if total <= 0.0 {
        return 0;
    }
    let mut x = rng.unit() * total;
    for (i, w) in weights.iter().enumerate() {
        if x < *w {
            return i as ClassId;
        }
        x -= w;
    }
    weights.iter().rposition(|w| *w > 0.0).unwrap_or(0) as ClassId
}

/// The operation of one request of `class`; its footprint is the app's
/// ([`AppSpec::footprint`]).
fn make_op(
    rng: &mut SplitMix64,
    app: &AppSpec,
    classes: &ClassTable,
    class: ClassId,
    w: &WorkloadSpec,
) -> Op {
    let def = classes.get(class);
    let write = def.write;
    let global = def.shard.is_none();
    let shard = def.shard.unwrap_or(0) as usize;
    match *app {
        AppSpec::LinkedList { size, .. } => {
            let key = rng.below(2 * size.entries() as u64) as u32;
            match (global, write) {
                (false, false) => Op::ListContains {
                    shard: shard as u16,
                    key,
                },
                (false, true) => Op::ListAdd {
                    shard: shard as u16,
                    key,
                },
                (true, false) => Op::ListContainsAll { key },
                (true, true) => Op::ListAddAll { key },
            }
        }
        AppSpec::KvStore { keys, shards, .. } => kv_op(rng, keys, shards, write, global, shard, w),
        // Handlers run event streams (their own generator); as a total
        // stream each request is one event of a random color.
        AppSpec::Handlers { colors, .. } => Op::Event(crate::request::EventOp::spin(
            rng.below(colors.max(1) as u64) as u32,
            rng.next_u64() as u32,
            0,
        )),
        AppSpec::Spin { ns, shards } => Op::Spin {
            ns,
            shards: if global {
                crate::request::ShardSet::all(shards)
            } else {
                crate::request::ShardSet::single(shard)
            },
            write,
        },
    }
}

fn kv_op(
    rng: &mut SplitMix64,
    keys: u64,
    shards: usize,
    write: bool,
    global: bool,
    shard: usize,
    w: &WorkloadSpec,
) -> Op {
    let keys = keys.max(shards as u64);
    // A key inside `shard`'s range.
    let per = keys.div_ceil(shards as u64);
    let key_in = |rng: &mut SplitMix64, s: usize| {
        let lo = s as u64 * per;
        let hi = ((s as u64 + 1) * per).min(keys);
        lo + rng.below((hi - lo).max(1))
    };
    if global {
        // A global request of the key-value store is a scan from the first
        // shard or a write of one key there. The early family schedules it
        // over every shard, as its class says; its footprint is what it
        // really touches.
        return if write {
            Op::KvWrite {
                key: key_in(rng, 0),
                value: rng.next_u64(),
            }
        } else {
            Op::KvScan {
                start: key_in(rng, 0),
                len: w.scan_len.max(1),
            }
        };
    }
    if write {
        let key = key_in(rng, shard);
        debug_assert_eq!(shard_of(key, keys, shards), shard);
        return Op::KvWrite {
            key,
            value: rng.next_u64(),
        };
    }
    if w.scans > 0.0 && rng.unit() < w.scans {
        // A local scan stays inside the shard.
        let start = key_in(rng, shard);
        let room = ((shard as u64 + 1) * per).min(keys) - start;
        let len = (w.scan_len as u64).min(room).max(1) as u32;
        return Op::KvScan { start, len };
    }
    Op::KvRead {
        key: key_in(rng, shard),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::ListCost;

    fn spec() -> WorkloadSpec {
        WorkloadSpec::balanced(7, 2000, 0.2, 0.1)
    }

    /// The linked list over two shards of 1,000 entries.
    fn two_lists() -> AppSpec {
        AppSpec::LinkedList {
            shards: 2,
            size: ListCost::Light,
        }
    }

    /// `two_lists`' class table and the stream `w` makes on it.
    fn two_lists_stream(w: &WorkloadSpec) -> (ClassTable, Stream) {
        let classes = two_lists().classes();
        let stream = generate(&two_lists(), &classes, w);
        (classes, stream)
    }

    #[test]
    fn same_seed_same_stream_different_seed_different_stream() {
        let (_, a) = two_lists_stream(&spec());
        let (_, b) = two_lists_stream(&spec());
        assert_eq!(a, b);
        let (_, c) = two_lists_stream(&WorkloadSpec { seed: 8, ..spec() });
        assert_ne!(a, c);
    }

    #[test]
    fn classes_cover_every_request() {
        for app in [
            AppSpec::LinkedList {
                shards: 3,
                size: ListCost::Light,
            },
            AppSpec::KvStore {
                shards: 4,
                keys: 1000,
                value_bytes: 8,
            },
            AppSpec::Spin { shards: 2, ns: 10 },
        ] {
            let classes = app.classes();
            let stream = generate(
                &app,
                &classes,
                &WorkloadSpec {
                    scans: 0.5,
                    ..spec()
                },
            );
            assert_eq!(classes.check_covers(&stream), Ok(()), "{app:?}");
        }
    }

    #[test]
    fn shares_match_the_spec() {
        let (_, stream) = two_lists_stream(&WorkloadSpec {
            requests: 20_000,
            ..spec()
        });
        let share = |f: &dyn Fn(&[crate::cell::Span]) -> bool| {
            (0..20_000).filter(|r| f(stream.footprint(*r))).count() as f64 / 20_000.0
        };
        let writes = share(&|fp| fp.iter().any(|s| s.write));
        let global = share(&|fp| fp.iter().any(|s| s.lo != s.hi));
        assert!((writes - 0.2).abs() < 0.02, "{writes}");
        assert!((global - 0.1).abs() < 0.02, "{global}");
    }

    #[test]
    fn grouping_draws_runs_of_reads_between_writes() {
        let (classes, stream) = two_lists_stream(&WorkloadSpec {
            requests: 5_000,
            group_mean: Some(9.0),
            ..spec()
        });
        let writes = stream
            .requests
            .iter()
            .filter(|r| classes.get(r.class).write)
            .count();
        // One write per group of mean length 9 + 1.
        assert!((400..=600).contains(&writes), "{writes}");
    }
}
