//! Replicated applications: real state, real work.
//!
//! An application is shared by all worker threads of a run. Schedulers
//! guarantee that conflicting operations never run at the same time; the
//! applications still guard each shard with an `RwLock` so that a broken
//! scheduler cannot cause undefined behaviour (the oracle reports it
//! instead). Uncontended, those locks cost one atomic operation.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::cell::{CellSpace, Span};
use crate::class::ClassTable;
use crate::request::{Op, ShardSet};

mod application;
mod handlers;
pub mod kv;
mod list;
mod spin;

pub use application::{Application, DataLines, Work};
pub use handlers::{Handlers, LINES_PER_KIB};
pub use kv::KvStore;
pub use list::ShardedList;
pub use spin::SpinApp;

/// Size of each shard's linked list, which sets a request's cost: the
/// shorthands of papers 003/000 (light 1K, moderate 10K, heavy 100K
/// entries) or any number of entries, as paper 004 uses (1, 10K, 100K, 1M).
///
/// In JSON: `"light"`, `"moderate"`, `"heavy"` or an integer in
/// `1..=1000000`. Two sizes are equal when they have the same entries
/// (`"light"` equals `1000`); a size is written back as its shorthand when
/// it has one.
#[derive(Clone, Copy, Debug)]
pub enum ListCost {
    /// 1,000 entries per shard.
    Light,
    /// 10,000 entries per shard.
    Moderate,
    /// 100,000 entries per shard.
    Heavy,
    /// Any number of entries per shard (`1..=`[`ListCost::MAX_ENTRIES`]).
    Entries(u32),
}

impl ListCost {
    /// Largest list a scenario may ask for (paper 004's largest).
    pub const MAX_ENTRIES: u32 = 1_000_000;

    pub fn entries(self) -> u32 {
        match self {
            ListCost::Light => 1_000,
            ListCost::Moderate => 10_000,
            ListCost::Heavy => 100_000,
            ListCost::Entries(n) => n,
        }
    }

    /// The size of `entries` entries, as its shorthand when it has one.
    pub fn of(entries: u32) -> ListCost {
        match entries {
            1_000 => ListCost::Light,
            10_000 => ListCost::Moderate,
            100_000 => ListCost::Heavy,
            n => ListCost::Entries(n),
        }
    }

    fn name(self) -> Option<&'static str> {
        match ListCost::of(self.entries()) {
            ListCost::Light => Some("light"),
            ListCost::Moderate => Some("moderate"),
            ListCost::Heavy => Some("heavy"),
            ListCost::Entries(_) => None,
        }
    }
}

impl PartialEq for ListCost {
    fn eq(&self, o: &Self) -> bool {
        self.entries() == o.entries()
    }
}

impl Eq for ListCost {}

impl Serialize for ListCost {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.name() {
            Some(n) => s.serialize_str(n),
            None => s.serialize_u32(self.entries()),
        }
    }
}

impl<'de> Deserialize<'de> for ListCost {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(ListCostVisitor)
    }
}

struct ListCostVisitor;

const LIST_COST_EXPECTED: &str =
    "a list size: light, moderate, heavy, or a number of entries in 1..=1000000";

impl serde::de::Visitor<'_> for ListCostVisitor {
    type Value = ListCost;
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(LIST_COST_EXPECTED)
    }
    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<ListCost, E> {
        match v {
            "light" => Ok(ListCost::Light),
            "moderate" => Ok(ListCost::Moderate),
            "heavy" => Ok(ListCost::Heavy),
            _ => Err(E::custom(format!(
                "expected {LIST_COST_EXPECTED}, got `{v}`"
            ))),
        }
    }
    fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<ListCost, E> {
        if (1..=ListCost::MAX_ENTRIES as u64).contains(&v) {
            Ok(ListCost::of(v as u32))
        } else {
            Err(E::custom(format!("expected {LIST_COST_EXPECTED}, got {v}")))
        }
    }
    fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<ListCost, E> {
        Err(E::custom(format!("expected {LIST_COST_EXPECTED}, got {v}")))
    }
    fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<ListCost, E> {
        Err(E::custom(format!("expected {LIST_COST_EXPECTED}, got {v}")))
    }
}

impl JsonSchema for ListCost {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "ListCost".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "Entries per list: light (1K), moderate (10K), heavy (100K), or a number of entries (1..=1000000; paper 004 uses 1, 10000, 100000 and 1000000).",
            "oneOf": [
                { "type": "string", "enum": ["light", "moderate", "heavy"] },
                { "type": "integer", "minimum": 1, "maximum": 1000000 }
            ]
        })
    }
}

/// Which application a scenario runs, with its size.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum AppSpec {
    /// One linked list of integers per shard (papers 003, 000, 004).
    LinkedList {
        /// Number of shards (1..=64).
        #[serde(default = "one")]
        #[schemars(range(min = 1, max = 64))]
        shards: usize,
        /// Entries per list: light (1K), moderate (10K), heavy (100K), or a
        /// number of entries (1..=1000000; paper 004: 1, 10K, 100K, 1M).
        size: ListCost,
    },
    /// An ordered key-value store partitioned by key range (papers 001, 000).
    KvStore {
        /// Number of range shards (1..=64): the key ranges the request
        /// classes cover (conflicts are per key).
        #[serde(default = "one")]
        #[schemars(range(min = 1, max = 64))]
        shards: usize,
        /// Keys preloaded (0..keys), at least one per shard.
        #[schemars(range(min = 1, max = 16777216))]
        keys: u64,
        /// Bytes of one value (8..=65536, default 8): a write fills that
        /// many bytes, a read or scan reads them all (paper 001: 4 KB).
        #[serde(default = "kv::default_value_bytes")]
        #[schemars(range(min = 8, max = 65536))]
        value_bytes: u32,
    },
    /// Event handlers over `colors` colors (paper 002): an event spins for
    /// its cost, touches part of a data set, and updates its color's state.
    /// Runs event streams only.
    Handlers {
        /// Number of colors.
        #[schemars(range(min = 1, max = 1048576))]
        colors: u32,
        /// Data sets the handlers walk (0 = none), so that cache effects
        /// can show: `data_sets` arrays of `data_kib` KiB each.
        #[serde(default)]
        data_sets: u32,
        /// Size of one data set, in KiB.
        #[serde(default)]
        data_kib: u32,
    },
    /// Synthetic work: every request spins for `ns` nanoseconds.
    Spin {
        /// Number of shards (1..=64).
        #[serde(default = "one")]
        #[schemars(range(min = 1, max = 64))]
        shards: usize,
        /// Busy time of one request, in nanoseconds (at most 10 ms).
        #[schemars(range(max = 10000000))]
        ns: u32,
    },
}

fn one() -> usize {
    1
}

impl AppSpec {
    pub fn shards(&self) -> usize {
        match *self {
            AppSpec::LinkedList { shards, .. }
            | AppSpec::KvStore { shards, .. }
            | AppSpec::Spin { shards, .. } => shards,
            AppSpec::Handlers { .. } => 1,
        }
    }
    /// The application's `kind` as the scenario file names it.
    pub fn kind_name(&self) -> &'static str {
        match self {
            AppSpec::LinkedList { .. } => "linked-list",
            AppSpec::KvStore { .. } => "kv-store",
            AppSpec::Handlers { .. } => "handlers",
            AppSpec::Spin { .. } => "spin",
        }
    }

    /// What this application's requests conflict on: shards for the list
    /// and the spin app, keys for the key-value store.
    pub fn cell_space(&self) -> CellSpace {
        match *self {
            AppSpec::KvStore { .. } => CellSpace::Keys,
            AppSpec::Handlers { .. } => CellSpace::Colors,
            _ => CellSpace::Shards {
                shards: self.shards() as u32,
            },
        }
    }

    /// The request classes of this application (local read/write per shard,
    /// global read/write). The key-value store's shard `i` is the key range
    /// [`kv::shard_range`] gives; its classes cover keys, not shards.
    pub fn classes(&self) -> ClassTable {
        match *self {
            AppSpec::KvStore { shards, keys, .. } => {
                let ranges: Vec<(u64, u64)> = (0..shards)
                    .map(|s| kv::shard_range(s, keys, shards))
                    .collect();
                ClassTable::sharded_over(&ranges, (0, u64::MAX))
            }
            AppSpec::Handlers { .. } => ClassTable::new(vec![crate::class::ClassDef {
                name: "E".into(),
                footprint: vec![Span::write(0, u64::MAX)],
                weight: 1.0,
                shard: None,
                write: true,
            }]),
            _ => ClassTable::sharded(self.shards()),
        }
    }

    /// The cells `op` reads and writes, appended to `out` (the one
    /// definition of every operation's footprint).
    pub fn footprint(&self, op: &Op, out: &mut Vec<Span>) {
        match *op {
            Op::ListContains { shard, .. } => out.push(Span::one(shard as u64, false)),
            Op::ListAdd { shard, .. } => out.push(Span::one(shard as u64, true)),
            Op::ListContainsAll { .. } | Op::ListAddAll { .. } => {
                let write = matches!(op, Op::ListAddAll { .. });
                out.extend(ShardSet::all(self.shards()).spans(write));
            }
            Op::KvRead { key } => out.push(Span::one(key, false)),
            Op::KvWrite { key, .. } | Op::KvInsert { key, .. } => out.push(Span::one(key, true)),
            Op::KvScan { start, len } => out.push(Span::read(
                start,
                start.saturating_add(len.max(1) as u64 - 1),
            )),
            Op::Spin { shards, write, .. } => out.extend(shards.spans(write)),
            Op::Event(e) => out.push(Span::one(e.color as u64, true)),
        }
    }
    /// A fresh instance with its initial population.
    pub fn build(&self) -> Box<dyn Application> {
        match *self {
            AppSpec::LinkedList { shards, size } => {
                Box::new(ShardedList::new(shards, size.entries()))
            }
            AppSpec::KvStore {
                shards,
                keys,
                value_bytes,
            } => Box::new(KvStore::with_value_bytes(shards, keys, value_bytes)),
            AppSpec::Spin { shards, ns } => Box::new(SpinApp::new(shards, ns)),
            AppSpec::Handlers {
                colors,
                data_sets,
                data_kib,
            } => Box::new(Handlers::new(colors, data_sets, data_kib)),
        }
    }
}

/// The digests of two fresh applications made by `make`, the first after
/// executing `first`, the second after `second`, each in order: what the
/// applications' tests probe a digest with.
#[cfg(test)]
fn digests_after<A: Application>(make: impl Fn() -> A, first: &[Op], second: &[Op]) -> (u64, u64) {
    let (a, b) = (make(), make());
    for op in first {
        a.execute(op);
    }
    for op in second {
        b.execute(op);
    }
    (a.digest(), b.digest())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn size(json: &str) -> Result<ListCost, String> {
        serde_json::from_str::<ListCost>(json).map_err(|e| e.to_string())
    }

    #[test]
    fn list_sizes_are_names_or_numbers_of_entries() {
        assert_eq!(size("\"light\"").unwrap().entries(), 1_000);
        assert_eq!(size("\"heavy\"").unwrap().entries(), 100_000);
        for n in [1u32, 10_000, 100_000, 1_000_000] {
            assert_eq!(size(&n.to_string()).unwrap().entries(), n);
        }
        // A number with a shorthand is that shorthand, and writes back as it.
        assert_eq!(size("10000").unwrap(), ListCost::Moderate);
        assert_eq!(
            serde_json::to_string(&ListCost::of(1000)).unwrap(),
            "\"light\""
        );
        assert_eq!(serde_json::to_string(&ListCost::of(1)).unwrap(), "1");
        for bad in ["0", "1000001", "-3", "2.5", "\"huge\""] {
            let e = size(bad).unwrap_err();
            assert!(e.contains("light, moderate, heavy"), "{bad}: {e}");
        }
    }

    #[test]
    fn a_one_entry_list_costs_one_step() {
        let app = AppSpec::LinkedList {
            shards: 1,
            size: ListCost::of(1),
        }
        .build();
        assert_eq!(app.execute(&Op::ListContains { shard: 0, key: 0 }), 1);
        assert_eq!(app.execute(&Op::ListAdd { shard: 0, key: 1 }), 1);
        assert_eq!(app.execute(&Op::ListContains { shard: 0, key: 1 }), 1);
    }
}
