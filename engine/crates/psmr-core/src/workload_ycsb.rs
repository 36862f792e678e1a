//! YCSB streams for the key-value store: the `ycsb` object of a scenario's
//! `workload` turns the core-workload generators of [`crate::ycsb`] into a
//! request stream (paper 001's workloads A, D and E).
//!
//! ## Key space
//! YCSB names a record by its *key number* (0, 1, 2, ... in insert order)
//! and, by default, stores it under a hashed key (`insertorder=hashed`), so
//! key order and insert order differ. The store of this lab preloads the
//! integer keys `0..keys` and its *range shards* (which define the classes
//! early scheduling and `late` route and label by) cut that range into equal
//! contiguous pieces. Two mappings keep the range shards meaningful:
//!
//! * `ordered` (the default): the store key **is** the key number. The
//!   loaded records are exactly the preloaded keys `0..keys`, an insert takes
//!   the next number (YCSB's insert counter, `keys`, `keys + 1`, ...), and a
//!   scan of `len` records from key number `s` reads the keys `s..s + len`
//!   (YCSB's scan under `insertorder=ordered`). Popular keys are scattered
//!   over the range shards anyway, because YCSB's scrambled zipfian hashes
//!   the item it draws; under workload D the newest keys, the popular ones,
//!   all fall in the last range shard (where inserts go).
//! * `hashed`: the store key is the *rank* of the YCSB hashed key among the
//!   loaded records, so key order is YCSB's hashed key order squeezed onto
//!   `0..keys`, and a scan reads the next `len` keys in that order, as YCSB's
//!   scan does. Inserted records would need ranks between existing ones, so
//!   this mapping is only offered for workloads without inserts (A and E as
//!   paper 001 configured it).
//!
//! Operations become key-value requests: read -> `KvRead`, update ->
//! `KvWrite` of a fresh value, insert -> `KvInsert` of a new key, scan ->
//! `KvScan` (footprint: the key range it covers). A request's class is its
//! range shard's local read or write class, and a scan that crosses range
//! shards is a global read, so the classes cover every request and the same
//! stream runs under every family.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::app::kv::shard_of;
use crate::app::AppSpec;
use crate::cell::Span;
use crate::class::{ClassId, ClassTable};
use crate::request::Op;
use crate::rng::SplitMix64;
use crate::stream::{Stream, StreamBuilder};
use crate::ycsb::{
    self, InsertOrder, KeyDistribution, Workload, YcsbConfig, YcsbGenerator, YcsbOp,
};

/// Which YCSB core workload.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum YcsbWorkload {
    /// 50 % reads, 50 % updates, zipfian keys.
    A,
    /// 95 % reads, 5 % inserts of new keys, latest keys.
    D,
    /// YCSB's own E: 95 % scans of 1..=100 keys, 5 % inserts, zipfian keys.
    E,
    /// E as paper 001 ran it: 95 % scans of 2..=8 keys, 5 % updates.
    #[serde(rename = "e-paper-001")]
    EPaper001,
}

impl YcsbWorkload {
    fn core(self) -> Workload {
        match self {
            YcsbWorkload::A => Workload::A,
            YcsbWorkload::D => Workload::D,
            YcsbWorkload::E => Workload::EYcsb,
            YcsbWorkload::EPaper001 => Workload::EPaper001,
        }
    }
    /// Does the workload insert new keys?
    pub fn inserts(self) -> bool {
        matches!(self, YcsbWorkload::D | YcsbWorkload::E)
    }
}

/// How YCSB key numbers become store keys (see the module comment).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum YcsbKeyOrder {
    /// The store key is the key number (YCSB `insertorder=ordered`).
    #[default]
    Ordered,
    /// The store key is the rank of YCSB's hashed key (workloads without
    /// inserts only).
    Hashed,
}

/// YCSB's `requestdistribution`, to override the workload's own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum YcsbDistribution {
    Uniform,
    Zipfian,
    Latest,
}

/// The `ycsb` object of a workload: a YCSB core workload on the kv-store.
/// Its record count is the store's `keys`, its operation count the
/// workload's `requests`, its seed the workload's `seed`; the value size is
/// the store's `value_bytes`.
#[serde_with_macros::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct YcsbSpec {
    /// `a`, `d`, `e` (YCSB's) or `e-paper-001`.
    pub workload: YcsbWorkload,
    /// How key numbers become store keys: `ordered` (default) or `hashed`.
    #[serde(default)]
    pub key_order: YcsbKeyOrder,
    /// Overrides the workload's key distribution.
    pub distribution: Option<YcsbDistribution>,
    /// Overrides the shortest scan (records), `1..=max_scan_len`.
    pub min_scan_len: Option<u32>,
    /// Overrides the longest scan (records), at most 1000.
    pub max_scan_len: Option<u32>,
}

impl YcsbSpec {
    /// The generator configuration for a store of `keys` records and
    /// `requests` operations.
    pub fn config(&self, keys: u64, requests: u32, value_bytes: u32) -> YcsbConfig {
        let mut cfg = YcsbConfig::new(self.workload.core());
        cfg.record_count = keys;
        cfg.operation_count = requests as u64;
        cfg.value_size_bytes = value_bytes;
        cfg.insert_order = match self.key_order {
            YcsbKeyOrder::Ordered => InsertOrder::Ordered,
            YcsbKeyOrder::Hashed => InsertOrder::Hashed,
        };
        if let Some(d) = self.distribution {
            cfg.key_distribution = match d {
                YcsbDistribution::Uniform => KeyDistribution::Uniform,
                YcsbDistribution::Zipfian => KeyDistribution::Zipfian,
                YcsbDistribution::Latest => KeyDistribution::Latest,
            };
        }
        if let Some(m) = self.min_scan_len {
            cfg.min_scan_len = m;
        }
        if let Some(m) = self.max_scan_len {
            cfg.max_scan_len = m;
        }
        cfg
    }

    /// Why this spec cannot run on `app` with `requests` operations: the
    /// field (under `workload.ycsb`, or `app.*`) and what was expected.
    pub fn check(&self, app: &AppSpec, requests: u32) -> Result<(), (String, String)> {
        let AppSpec::KvStore {
            keys, value_bytes, ..
        } = *app
        else {
            return Err((
                "workload.ycsb".into(),
                format!(
                    "YCSB workloads run on the kv-store application, this scenario's is {}",
                    app.kind_name()
                ),
            ));
        };
        if self.key_order == YcsbKeyOrder::Hashed && self.workload.inserts() {
            return Err((
                "workload.ycsb.key_order".into(),
                "`hashed` needs a workload without inserts (a or e-paper-001): inserted keys would need ranks between preloaded ones; use `ordered`".into(),
            ));
        }
        let cfg = self.config(keys, requests, value_bytes);
        YcsbGenerator::new(cfg, SplitMix64::new(0))
            .map(|_| ())
            .map_err(|e| {
                let path = match e.field {
                    "record_count" => "app.keys".to_string(),
                    "operation_count" => "workload.requests".to_string(),
                    "value_size_bytes" => "app.value_bytes".to_string(),
                    f => format!("workload.ycsb.{f}"),
                };
                (path, format!("expected {}", e.expected))
            })
    }
}

/// Seed offset of the written values, so they do not follow the key draws.
const VALUE_SEED: u64 = 0x7661_6c75_6573_0001;

/// Generate the YCSB stream for `app` (a kv-store; `spec.check` passed).
pub fn generate(
    app: &AppSpec,
    classes: &ClassTable,
    spec: &YcsbSpec,
    seed: u64,
    requests: u32,
) -> Stream {
    let (keys, shards, value_bytes) = match *app {
        AppSpec::KvStore {
            keys,
            shards,
            value_bytes,
        } => (keys, shards, value_bytes),
        _ => unreachable!("validation refuses ycsb on other apps"),
    };
    let cfg = spec.config(keys, requests, value_bytes);
    let mut gen = YcsbGenerator::new(cfg, SplitMix64::new(seed))
        .unwrap_or_else(|e| panic!("validation checks the ycsb spec: {e}"));
    let mut values = SplitMix64::new(seed ^ VALUE_SEED);
    let keymap = KeyMap::new(spec.key_order, keys);
    let mut builder = StreamBuilder::new(app.cell_space(), requests as usize);
    let mut footprint: Vec<Span> = Vec::with_capacity(1);
    for _ in 0..requests {
        let op = keymap.op(gen.next_op(), &mut values);
        let class = class_of(classes, &op, keys, shards);
        footprint.clear();
        app.footprint(&op, &mut footprint);
        builder.push(class, op, &footprint);
    }
    builder.finish_total()
}

/// Expected class shares of a YCSB stream (for the mapping optimizer),
/// measured on its first operations (at most 20,000).
pub fn class_weights(
    app: &AppSpec,
    classes: &ClassTable,
    spec: &YcsbSpec,
    seed: u64,
    requests: u32,
) -> Vec<f64> {
    let sample = requests.min(20_000);
    let stream = generate(app, classes, spec, seed, sample);
    let mut w = vec![0.0; classes.len()];
    for r in &stream.requests {
        w[r.class as usize] += 1.0 / sample as f64;
    }
    w
}

/// Key numbers (or hashed keys) to store keys.
enum KeyMap {
    Ordered,
    /// YCSB hashed keys of the loaded records, sorted: a key's rank is its
    /// store key.
    Hashed(Vec<u64>),
}

impl KeyMap {
    fn new(order: YcsbKeyOrder, records: u64) -> Self {
        match order {
            YcsbKeyOrder::Ordered => KeyMap::Ordered,
            YcsbKeyOrder::Hashed => {
                let mut v: Vec<u64> = (0..records)
                    .map(|k| ycsb::key_of(k, InsertOrder::Hashed))
                    .collect();
                v.sort_unstable();
                v.dedup();
                KeyMap::Hashed(v)
            }
        }
    }

    /// The store key of a YCSB key (a loaded record's, under `Hashed`).
    fn key(&self, k: u64) -> u64 {
        match self {
            KeyMap::Ordered => k,
            KeyMap::Hashed(sorted) => sorted.partition_point(|&h| h < k) as u64,
        }
    }

    /// The request for one YCSB operation.
    fn op(&self, op: YcsbOp, values: &mut SplitMix64) -> Op {
        match op {
            YcsbOp::Read { key } => Op::KvRead { key: self.key(key) },
            YcsbOp::Update { key } => Op::KvWrite {
                key: self.key(key),
                value: values.next_u64(),
            },
            YcsbOp::Insert { key } => Op::KvInsert {
                key: self.key(key),
                value: values.next_u64(),
            },
            YcsbOp::Scan { start_key, len } => {
                let start = self.key(start_key);
                // Under `Hashed` the store keys end at the record count: a
                // scan reads at most the keys that follow its start.
                let len = match self {
                    KeyMap::Ordered => len,
                    KeyMap::Hashed(sorted) => (len as u64).min(sorted.len() as u64 - start) as u32,
                };
                Op::KvScan { start, len }
            }
        }
    }
}

/// The class of a key-value request on range shards: the local read or
/// write class of its shard, or the global read for a scan across shards.
fn class_of(classes: &ClassTable, op: &Op, keys: u64, shards: usize) -> ClassId {
    let local = |key: u64, write: bool| classes.local(shard_of(key, keys, shards), write);
    let class = match *op {
        Op::KvRead { key } => local(key, false),
        Op::KvWrite { key, .. } | Op::KvInsert { key, .. } => local(key, true),
        Op::KvScan { start, len } => {
            let end = start.saturating_add(len.max(1) as u64 - 1);
            if shard_of(start, keys, shards) == shard_of(end, keys, shards) {
                local(start, false)
            } else {
                classes.global(false)
            }
        }
        _ => None,
    };
    class.unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kv(keys: u64, shards: usize) -> AppSpec {
        AppSpec::KvStore {
            shards,
            keys,
            value_bytes: 8,
        }
    }

    /// The stream of `requests` requests `s` makes from `seed` on a store of
    /// `keys` keys over `shards` shards.
    fn kv_stream(keys: u64, shards: usize, s: &YcsbSpec, seed: u64, requests: u32) -> Stream {
        let app = kv(keys, shards);
        generate(&app, &app.classes(), s, seed, requests)
    }

    fn spec(workload: YcsbWorkload, key_order: YcsbKeyOrder) -> YcsbSpec {
        YcsbSpec {
            workload,
            key_order,
            distribution: None,
            min_scan_len: None,
            max_scan_len: None,
        }
    }

    /// The stream draws exactly the operations of the YCSB generator with
    /// the same seed, keys mapped as documented.
    #[test]
    fn ordered_keys_are_the_key_numbers() {
        let app = kv(1000, 4);
        let classes = app.classes();
        for w in [
            YcsbWorkload::A,
            YcsbWorkload::D,
            YcsbWorkload::E,
            YcsbWorkload::EPaper001,
        ] {
            let s = spec(w, YcsbKeyOrder::Ordered);
            let stream = generate(&app, &classes, &s, 5, 3000);
            let mut gen = YcsbGenerator::new(s.config(1000, 3000, 8), SplitMix64::new(5)).unwrap();
            for r in &stream.requests {
                match (gen.next_op(), &r.op) {
                    (YcsbOp::Read { key }, Op::KvRead { key: k }) => assert_eq!(key, *k),
                    (YcsbOp::Update { key }, Op::KvWrite { key: k, .. }) => assert_eq!(key, *k),
                    (YcsbOp::Insert { key }, Op::KvInsert { key: k, .. }) => assert_eq!(key, *k),
                    (YcsbOp::Scan { start_key, len }, Op::KvScan { start, len: l }) => {
                        assert_eq!((start_key, len), (*start, *l))
                    }
                    (want, got) => panic!("{w:?}: {want:?} became {got:?}"),
                }
            }
            assert_eq!(classes.check_covers(&stream), Ok(()), "{w:?}");
        }
    }

    /// Inserts of D take the next key numbers, past the preloaded keys, in
    /// the last range shard.
    #[test]
    fn inserts_append_after_the_preloaded_keys() {
        let s = spec(YcsbWorkload::D, YcsbKeyOrder::Ordered);
        let stream = kv_stream(1000, 4, &s, 1, 4000);
        let classes = kv(1000, 4).classes();
        let inserted: Vec<u64> = stream
            .requests
            .iter()
            .filter_map(|r| match r.op {
                Op::KvInsert { key, .. } => Some(key),
                _ => None,
            })
            .collect();
        assert!(inserted.len() > 100);
        assert_eq!(
            inserted,
            (1000..1000 + inserted.len() as u64).collect::<Vec<_>>()
        );
        let w3 = classes.local(3, true).unwrap();
        assert!(stream
            .requests
            .iter()
            .filter(|r| matches!(r.op, Op::KvInsert { .. }))
            .all(|r| r.class == w3));
    }

    /// Under `hashed`, a store key is the rank of YCSB's hashed key, and a
    /// scan covers exactly the keys YCSB's scan reads, as ranks.
    #[test]
    fn hashed_keys_are_ranks_and_scans_match_ycsb() {
        let s = spec(YcsbWorkload::EPaper001, YcsbKeyOrder::Hashed);
        let stream = kv_stream(500, 2, &s, 9, 2000);
        let mut gen = YcsbGenerator::new(s.config(500, 2000, 8), SplitMix64::new(9)).unwrap();
        let mut sorted: Vec<u64> = (0..500)
            .map(|k| ycsb::key_of(k, InsertOrder::Hashed))
            .collect();
        sorted.sort_unstable();
        for r in &stream.requests {
            match (gen.next_op(), &r.op) {
                (YcsbOp::Scan { start_key, len }, Op::KvScan { start, len: l }) => {
                    let ranks: Vec<u64> = gen
                        .scan_keys(start_key, len)
                        .iter()
                        .map(|k| sorted.binary_search(k).unwrap() as u64)
                        .collect();
                    assert_eq!(ranks, (*start..*start + *l as u64).collect::<Vec<_>>());
                }
                (YcsbOp::Update { key }, Op::KvWrite { key: k, .. }) => {
                    assert_eq!(sorted.binary_search(&key).unwrap() as u64, *k)
                }
                (want, got) => panic!("{want:?} became {got:?}"),
            }
        }
        assert!(stream.requests.iter().all(|r| match r.op {
            Op::KvScan { start, len } => start + len as u64 <= 500,
            Op::KvWrite { key, .. } => key < 500,
            _ => false,
        }));
    }

    /// Zipfian shares on a fixed seed: YCSB A's most popular key is
    /// fnvhash64(0) folded into the chooser's range (YCSB sizes it
    /// `0..=recordcount`, one past the last record, `CoreWorkload.java:
    /// 523-528`), with about 1/zeta = 3.8 % of the operations.
    #[test]
    fn workload_a_hot_key_is_ycsbs() {
        let s = spec(YcsbWorkload::A, YcsbKeyOrder::Ordered);
        let stream = kv_stream(10_000, 4, &s, 3, 50_000);
        let mut counts = vec![0u32; 10_000];
        for r in &stream.requests {
            if let Op::KvRead { key } | Op::KvWrite { key, .. } = r.op {
                counts[key as usize] += 1;
            }
        }
        let hot = (0..10_000).max_by_key(|&k| counts[k]).unwrap();
        assert_eq!(hot as i64, ycsb::fnvhash64(0) % 10_001);
        let share = counts[hot] as f64 / 50_000.0;
        assert!((0.034..0.045).contains(&share), "{share}");
    }

    #[test]
    fn bad_specs_are_located() {
        let list = AppSpec::Spin { shards: 1, ns: 0 };
        let s = spec(YcsbWorkload::A, YcsbKeyOrder::Ordered);
        assert_eq!(s.check(&list, 10).unwrap_err().0, "workload.ycsb");
        let d = spec(YcsbWorkload::D, YcsbKeyOrder::Hashed);
        assert_eq!(
            d.check(&kv(100, 1), 10).unwrap_err().0,
            "workload.ycsb.key_order"
        );
        let long = YcsbSpec {
            max_scan_len: Some(5000),
            ..spec(YcsbWorkload::E, YcsbKeyOrder::Ordered)
        };
        assert_eq!(
            long.check(&kv(100, 1), 10).unwrap_err().0,
            "workload.ycsb.max_scan_len"
        );
        assert_eq!(s.check(&kv(1, 1), 10).unwrap_err().0, "app.keys");
        assert_eq!(s.check(&kv(100, 2), 10), Ok(()));
    }

    #[test]
    fn same_seed_same_stream() {
        let app = kv(2000, 4);
        let classes = app.classes();
        let s = spec(YcsbWorkload::E, YcsbKeyOrder::Ordered);
        assert_eq!(
            generate(&app, &classes, &s, 4, 3000),
            generate(&app, &classes, &s, 4, 3000)
        );
        assert_ne!(
            generate(&app, &classes, &s, 4, 3000),
            generate(&app, &classes, &s, 5, 3000)
        );
    }
}
