//! Event workloads (paper 002 section V): seeded generators of event
//! forests for the handlers application.
//!
//! A workload is a sequence of *rounds*; each round is one tree whose root
//! is delivered and whose other events are registered at run time by their
//! parent's handler. Under closed-loop delivery with one client, a round
//! starts when the previous one has finished: the fork/join rounds of the
//! paper's microbenchmarks (a tree has no joins; the next delivery is the
//! join). The stream holds exactly `workload.requests` events: rounds are
//! generated until that budget, and the last round is cut (a breadth-first
//! prefix of a tree is still a tree).
//!
//! The shapes:
//! * `unbalanced` (V.B, Tables III-IV): a `fork` root on core 0 registers
//!   `round` independent events, each of its own color (the paper's), or
//!   in `colors` runs of consecutive events of one color (the lab's knob, so
//!   that a color holds several queued events and a steal moves them
//!   together), placed
//!   on the registering core (so all on core 0); a share `long_share` of
//!   them are long (`long_ns`, drawn uniformly), the rest short
//!   (`short_ns`).
//! * `penalty` (V.B, Table V): a root on core 0 registers `arrays` events A
//!   of distinct colors; A fills its color's data set and registers a chain
//!   of B events of the same color, each walking the next `chunk_kib` of
//!   that data set. B carries a stealing penalty (default 1000).
//! * `locality` (V.B, Table VI, *cache efficient*): a root registers
//!   `arrays` events A spread over the cores of `a_cores` (one core per pair
//!   of an 8-core machine by default); A fills a data set and registers two
//!   B events of new colors that rewrite its first and second half; each B
//!   registers a C event of A's color that reads the whole data set (the
//!   merge step; split over the two C events, which share a color, because a
//!   tree cannot join).
//! * `pipeline` (V.C, the SWS web server): one round is one client
//!   connection: `epoll` (color 0) notices it, `accept` (color 1) takes it,
//!   `register-fd` (color 0) watches the socket, then per request `read`,
//!   `parse`, `cache` (reads the file's data set), `write`, all colored by
//!   the connection's descriptor, then `close` and `dec-accepted` (color 1).
//!
//! Annotations: every handler has a spin time `ns`, an annotated cost
//! `cost_ns` (default: `ns` plus [`LINE_COST_NS`] per data line it touches,
//! standing for the programmer's profile) and a stealing penalty; the
//! scenario may override each by handler name (`handlers`).

use std::collections::{BTreeMap, VecDeque};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::app::{AppSpec, LINES_PER_KIB};
use crate::cell::Span;
use crate::request::{EventOp, Home, Op, RequestId, NO_REQUEST};
use crate::rng::SplitMix64;
use crate::stream::{EventForest, Stream, StreamBuilder};

/// Annotated cost of touching one 64-byte line, for the default `cost_ns`
/// of handlers that walk data (a profile's estimate, not a measurement).
pub const LINE_COST_NS: u32 = 2;

/// A scenario's override of one handler's work and annotations.
#[serde_with_macros::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HandlerNote {
    /// Spin time of each event, in nanoseconds (replaces the shape's).
    pub ns: Option<u32>,
    /// Annotated average processing time, in nanoseconds (Mely's time-left
    /// heuristic adds these up per color).
    pub cost_ns: Option<u32>,
    /// Stealing penalty, at least 1 (Mely's penalty-aware heuristic counts
    /// an event as `cost_ns / penalty`).
    pub penalty: Option<u16>,
}

/// An event workload: the shape of each round and its handlers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum EventWorkload {
    /// Fork/join rounds of independent events registered on core 0, a few
    /// of them long (paper 002 section V.B, *unbalanced*).
    Unbalanced {
        /// Events the fork registers per round (default 5000; the paper's
        /// rounds have 50000).
        #[serde(default = "d_round")]
        round: u32,
        /// Share of long events (default 0.02).
        #[serde(default = "d_long_share")]
        long_share: f64,
        /// Spin time of a short event in ns (default 45, about 100 cycles
        /// at the paper's 2.33 GHz).
        #[serde(default = "d_short_ns")]
        short_ns: u32,
        /// Range of a long event's spin time in ns, drawn uniformly
        /// (default [4300, 21500], 10-50 Kcycles at 2.33 GHz).
        #[serde(default = "d_long_ns")]
        long_ns: [u32; 2],
        /// Colors of a round's events, 1..=`round` (default `round`: each
        /// event its own color, as in the paper). With fewer, the round's
        /// events come in `colors` runs of consecutive events (about
        /// `round / colors` each), one color per run: event `i` gets color
        /// `1 + i * colors / round`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        colors: Option<u32>,
        /// Overrides by handler name (`fork`, `short`, `long`).
        #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
        handlers: BTreeMap<String, HandlerNote>,
    },
    /// A events fill data sets on core 0; chains of B events of the same
    /// color walk them (section V.B, *penalty*).
    Penalty {
        /// A events per round, one color and one data set each (default 16).
        #[serde(default = "d_arrays_penalty")]
        arrays: u32,
        /// KiB of the data set one B event walks (default 4); a chain walks
        /// the whole set (`app.data_kib / chunk_kib` events).
        #[serde(default = "d_chunk_kib")]
        chunk_kib: u32,
        /// Overrides by handler name (`start`, `A`, `B`; B's penalty
        /// defaults to 1000).
        #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
        handlers: BTreeMap<String, HandlerNote>,
    },
    /// A events on one core of each pair fill data sets; B events of new
    /// colors rewrite the halves; C events of A's color read them back
    /// (section V.B, Table VI, *cache efficient*).
    Locality {
        /// A events per round (default 100), one data set each.
        #[serde(default = "d_arrays_locality")]
        arrays: u32,
        /// Cores the A events start on, in turn (taken modulo the run's
        /// cores; default [0, 2, 4, 6]: one core per pair of 8).
        #[serde(default = "d_a_cores")]
        a_cores: Vec<u16>,
        /// Overrides by handler name (`start`, `A`, `B`, `C`).
        #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
        handlers: BTreeMap<String, HandlerNote>,
    },
    /// The SWS web server's handler pipeline, one round per connection
    /// (section V.C).
    Pipeline {
        /// Distinct connection descriptors (colors 2..2+connections),
        /// reused in turn (default 32).
        #[serde(default = "d_connections")]
        connections: u32,
        /// Requests served per connection before it closes (default 3).
        #[serde(default = "d_requests_per_connection")]
        requests_per_connection: u32,
        /// Files served, one data set each (default 16); a request reads
        /// 1 KiB of its file.
        #[serde(default = "d_files")]
        files: u32,
        /// Overrides by handler name (`epoll`, `accept`, `register-fd`,
        /// `read`, `parse`, `cache`, `write`, `close`, `dec-accepted`).
        #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
        handlers: BTreeMap<String, HandlerNote>,
    },
}

fn d_round() -> u32 {
    5000
}
fn d_long_share() -> f64 {
    0.02
}
fn d_short_ns() -> u32 {
    45
}
fn d_long_ns() -> [u32; 2] {
    [4300, 21500]
}
fn d_arrays_penalty() -> u32 {
    16
}
fn d_chunk_kib() -> u32 {
    4
}
fn d_arrays_locality() -> u32 {
    100
}
fn d_a_cores() -> Vec<u16> {
    vec![0, 2, 4, 6]
}
fn d_connections() -> u32 {
    32
}
fn d_requests_per_connection() -> u32 {
    3
}
fn d_files() -> u32 {
    16
}

/// One handler of a shape: its name, spin time, data lines (for the
/// default cost), penalty and where a free color of its events goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HandlerDef {
    pub name: &'static str,
    pub ns: u32,
    pub lines: u32,
    pub penalty: u16,
    pub home: Home,
}

impl HandlerDef {
    const fn new(name: &'static str, ns: u32, home: Home) -> Self {
        HandlerDef {
            name,
            ns,
            lines: 0,
            penalty: 1,
            home,
        }
    }
}

/// A handler with the scenario's overrides applied.
#[derive(Clone, Copy, Debug)]
struct Handler {
    id: u8,
    ns: u32,
    /// The scenario fixed `ns` (else a long event draws its own).
    ns_fixed: bool,
    cost_ns: u32,
    penalty: u16,
    home: Home,
}

/// What a workload needs from the handlers application.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EventNeeds {
    /// Colors `0..colors` are used.
    pub colors: u64,
    /// Data sets `0..data_sets` are touched...
    pub data_sets: u32,
    /// ...and each must hold at least this many KiB.
    pub data_kib: u32,
}

impl EventWorkload {
    /// The shape's name as the scenario file spells it.
    pub fn kind_name(&self) -> &'static str {
        match self {
            EventWorkload::Unbalanced { .. } => "unbalanced",
            EventWorkload::Penalty { .. } => "penalty",
            EventWorkload::Locality { .. } => "locality",
            EventWorkload::Pipeline { .. } => "pipeline",
        }
    }

    /// The scenario's handler overrides.
    pub fn notes(&self) -> &BTreeMap<String, HandlerNote> {
        match self {
            EventWorkload::Unbalanced { handlers, .. }
            | EventWorkload::Penalty { handlers, .. }
            | EventWorkload::Locality { handlers, .. }
            | EventWorkload::Pipeline { handlers, .. } => handlers,
        }
    }

    /// The shape's handlers, in handler-id order (before overrides; data
    /// lines as the application `data_kib` makes them).
    pub fn handlers(&self, data_kib: u32) -> Vec<HandlerDef> {
        let set_lines = data_kib * LINES_PER_KIB;
        match self {
            EventWorkload::Unbalanced {
                short_ns, long_ns, ..
            } => vec![
                HandlerDef::new("fork", *short_ns, Home::Core(0)),
                HandlerDef::new("short", *short_ns, Home::Near),
                // The long handler's spin varies per event; its table entry
                // is the mean, which is also its default annotation.
                HandlerDef::new("long", long_ns[0] / 2 + long_ns[1] / 2, Home::Near),
            ],
            EventWorkload::Penalty { chunk_kib, .. } => vec![
                HandlerDef::new("start", 45, Home::Core(0)),
                HandlerDef {
                    lines: set_lines,
                    ..HandlerDef::new("A", 0, Home::Near)
                },
                HandlerDef {
                    lines: chunk_kib * LINES_PER_KIB,
                    penalty: 1000,
                    ..HandlerDef::new("B", 0, Home::Near)
                },
            ],
            EventWorkload::Locality { .. } => vec![
                HandlerDef::new("start", 45, Home::Core(0)),
                // A's home is set per event from `a_cores`.
                HandlerDef {
                    lines: set_lines,
                    ..HandlerDef::new("A", 0, Home::Core(0))
                },
                HandlerDef {
                    lines: set_lines / 2,
                    ..HandlerDef::new("B", 0, Home::Near)
                },
                HandlerDef {
                    lines: set_lines,
                    ..HandlerDef::new("C", 0, Home::Near)
                },
            ],
            EventWorkload::Pipeline { .. } => vec![
                HandlerDef::new("epoll", 1000, Home::Hash),
                HandlerDef::new("accept", 2000, Home::Hash),
                HandlerDef::new("register-fd", 500, Home::Hash),
                HandlerDef::new("read", 1500, Home::Hash),
                HandlerDef::new("parse", 1000, Home::Hash),
                HandlerDef {
                    lines: LINES_PER_KIB,
                    ..HandlerDef::new("cache", 300, Home::Hash)
                },
                HandlerDef::new("write", 3000, Home::Hash),
                HandlerDef::new("close", 1500, Home::Hash),
                HandlerDef::new("dec-accepted", 200, Home::Hash),
            ],
        }
    }

    /// Colors and data sets the workload uses.
    pub fn needs(&self) -> EventNeeds {
        match self {
            EventWorkload::Unbalanced { round, colors, .. } => EventNeeds {
                colors: 1 + colors.unwrap_or(*round).min(*round) as u64,
                data_sets: 0,
                data_kib: 0,
            },
            // (A chunk must fit a data set: checked with the chunk size.)
            EventWorkload::Penalty { arrays, .. } => EventNeeds {
                colors: 1 + *arrays as u64,
                data_sets: *arrays,
                data_kib: 1,
            },
            EventWorkload::Locality { arrays, .. } => EventNeeds {
                colors: 1 + 3 * *arrays as u64,
                data_sets: *arrays,
                data_kib: 1,
            },
            EventWorkload::Pipeline {
                connections, files, ..
            } => EventNeeds {
                colors: 2 + *connections as u64,
                data_sets: *files,
                data_kib: 1,
            },
        }
    }

    /// The handlers with the scenario's overrides, by id.
    fn resolved(&self, data_kib: u32) -> Vec<Handler> {
        let notes = self.notes();
        self.handlers(data_kib)
            .iter()
            .enumerate()
            .map(|(id, h)| {
                let note = notes.get(h.name).cloned().unwrap_or_default();
                let ns = note.ns.unwrap_or(h.ns);
                Handler {
                    id: id as u8,
                    ns,
                    ns_fixed: note.ns.is_some(),
                    cost_ns: note
                        .cost_ns
                        .unwrap_or_else(|| ns.saturating_add(h.lines * LINE_COST_NS)),
                    penalty: note.penalty.unwrap_or(h.penalty).max(1),
                    home: h.home,
                }
            })
            .collect()
    }
}

/// One event still to be placed in its tree: its operation and the step of
/// its shape it stands for.
#[derive(Clone, Copy, Debug)]
struct Node {
    op: EventOp,
    /// Shape-specific: the chain position, the request number, ...
    step: u32,
}

/// Builds the forest breadth first, round by round, within the budget.
struct Forest {
    builder: StreamBuilder,
    parent: Vec<RequestId>,
    budget: usize,
}

impl Forest {
    fn full(&self) -> bool {
        self.parent.len() >= self.budget
    }

    /// Add one tree: `root`, then (breadth first) the children `expand`
    /// gives each event, until the tree ends or the budget is spent.
    fn tree(&mut self, root: Node, mut expand: impl FnMut(&Node, &mut Vec<Node>)) {
        let mut queue = VecDeque::from([(NO_REQUEST, root)]);
        let mut kids = Vec::new();
        while let Some((parent, node)) = queue.pop_front() {
            if self.full() {
                return;
            }
            let color = node.op.color;
            let id = self
                .builder
                .push(0, Op::Event(node.op), &[Span::one(color as u64, true)]);
            self.parent.push(parent);
            kids.clear();
            expand(&node, &mut kids);
            queue.extend(kids.iter().map(|k| (id, *k)));
        }
    }
}

/// An event of handler `h` with color `color` (data fields unset).
fn event(rng: &mut SplitMix64, h: &Handler, color: u32) -> EventOp {
    EventOp {
        color,
        tag: rng.next_u64() as u32,
        ns: h.ns,
        set: 0,
        first: 0,
        lines: 0,
        cost_ns: h.cost_ns,
        penalty: h.penalty,
        handler: h.id,
        fill: false,
        home: h.home,
    }
}

/// A data touch of `lines` lines of `set` from `first`.
fn touching(op: EventOp, set: u32, first: u32, lines: u32, fill: bool) -> EventOp {
    EventOp {
        set,
        first,
        lines,
        fill,
        ..op
    }
}

/// Generate the event stream of `workload` (`requests` events, drawn from
/// `seed`) on the handlers application `app`.
pub fn generate(app: &AppSpec, workload: &EventWorkload, seed: u64, requests: u32) -> Stream {
    let data_kib = match app {
        AppSpec::Handlers { data_kib, .. } => *data_kib,
        _ => 0,
    };
    let hs = workload.resolved(data_kib);
    let mut rng = SplitMix64::new(seed);
    let mut f = Forest {
        builder: StreamBuilder::new(app.cell_space(), requests as usize),
        parent: Vec::with_capacity(requests as usize),
        budget: requests as usize,
    };
    let mut round = 0u32;
    while !f.full() {
        match workload {
            EventWorkload::Unbalanced {
                round: n,
                long_share,
                long_ns,
                colors,
                ..
            } => {
                let shape = Unbalanced {
                    n: *n,
                    colors: colors.unwrap_or(*n).clamp(1, (*n).max(1)),
                    long_share: *long_share,
                    long_ns: *long_ns,
                };
                unbalanced(&mut f, &mut rng, &hs, shape)
            }
            EventWorkload::Penalty {
                arrays, chunk_kib, ..
            } => penalty(&mut f, &mut rng, &hs, *arrays, *chunk_kib, data_kib),
            EventWorkload::Locality {
                arrays, a_cores, ..
            } => locality(&mut f, &mut rng, &hs, *arrays, a_cores, data_kib),
            EventWorkload::Pipeline {
                connections,
                requests_per_connection,
                files,
                ..
            } => pipeline(
                &mut f,
                &mut rng,
                &hs,
                round,
                *connections,
                *requests_per_connection,
                *files,
            ),
        }
        round = round.wrapping_add(1);
    }
    let Forest {
        builder, parent, ..
    } = f;
    let forest = EventForest::from_parents(parent).expect("trees are built breadth first");
    builder
        .finish_events(forest)
        .expect("every event writes its color")
}

/// One round of the `unbalanced` shape, its fields checked and resolved.
#[derive(Clone, Copy, Debug)]
struct Unbalanced {
    /// Events the fork registers.
    n: u32,
    /// Colors of the events, one per run of consecutive events (1..=n).
    colors: u32,
    long_share: f64,
    long_ns: [u32; 2],
}

/// `fork` (color 0) registers `n` events, event `i` of color
/// `1 + i * colors / n` (runs of consecutive events of one color; with
/// `colors == n`, each its own), each long with probability `long_share`.
fn unbalanced(f: &mut Forest, rng: &mut SplitMix64, hs: &[Handler], shape: Unbalanced) {
    let Unbalanced {
        n,
        colors,
        long_share,
        long_ns,
    } = shape;
    let root = event(rng, &hs[0], 0);
    f.tree(Node { op: root, step: 0 }, |node, kids| {
        if node.op.handler != 0 {
            return;
        }
        for i in 0..n {
            let long = rng.unit() < long_share;
            let color = 1 + (u64::from(i) * u64::from(colors) / u64::from(n)) as u32;
            let mut op = event(rng, &hs[if long { 2 } else { 1 }], color);
            if long && !hs[2].ns_fixed {
                // Each long event draws its own spin time (unless the
                // scenario fixed the handler's `ns`).
                let (lo, hi) = (long_ns[0].min(long_ns[1]), long_ns[0].max(long_ns[1]));
                op.ns = lo + rng.below((hi - lo) as u64 + 1) as u32;
            }
            kids.push(Node { op, step: 0 });
        }
    });
}

/// `start` registers `arrays` A events (color `1 + j`, data set `j`); A
/// fills its set and registers B; each B walks the next chunk and
/// registers the following B until the set is walked.
fn penalty(
    f: &mut Forest,
    rng: &mut SplitMix64,
    hs: &[Handler],
    arrays: u32,
    chunk_kib: u32,
    data_kib: u32,
) {
    let set_lines = data_kib * LINES_PER_KIB;
    let chunk = (chunk_kib * LINES_PER_KIB).clamp(1, set_lines.max(1));
    let root = event(rng, &hs[0], 0);
    f.tree(Node { op: root, step: 0 }, |node, kids| {
        match node.op.handler {
            0 => {
                for j in 0..arrays {
                    let a = event(rng, &hs[1], 1 + j);
                    let op = touching(a, j, 0, set_lines, true);
                    kids.push(Node { op, step: 0 });
                }
            }
            1 | 2 => {
                let next = if node.op.handler == 1 {
                    0
                } else {
                    node.step + 1
                };
                if next * chunk < set_lines {
                    let b = event(rng, &hs[2], node.op.color);
                    let op = touching(b, node.op.set, next * chunk, chunk, false);
                    kids.push(Node { op, step: next });
                }
            }
            _ => {}
        }
    });
}

/// `start` registers `arrays` A events on the cores of `a_cores` in turn;
/// A fills its set and registers B1, B2 (new colors, one half each, which
/// they rewrite); each B registers C (A's color), which reads the set.
fn locality(
    f: &mut Forest,
    rng: &mut SplitMix64,
    hs: &[Handler],
    arrays: u32,
    a_cores: &[u16],
    data_kib: u32,
) {
    let set_lines = data_kib * LINES_PER_KIB;
    let half = set_lines / 2;
    let root = event(rng, &hs[0], 0);
    f.tree(Node { op: root, step: 0 }, |node, kids| {
        let op = node.op;
        match op.handler {
            0 => {
                for j in 0..arrays {
                    let core = a_cores.get(j as usize % a_cores.len().max(1)).copied();
                    let a = EventOp {
                        home: Home::Core(core.unwrap_or(0)),
                        ..event(rng, &hs[1], 1 + j)
                    };
                    kids.push(Node {
                        op: touching(a, j, 0, set_lines, true),
                        step: j,
                    });
                }
            }
            1 => {
                let j = node.step;
                for (k, first) in [(0, 0), (1, half)] {
                    let b = event(rng, &hs[2], 1 + arrays + 2 * j + k);
                    let lines = if k == 0 { half } else { set_lines - half };
                    kids.push(Node {
                        op: touching(b, j, first, lines, true),
                        step: j,
                    });
                }
            }
            2 => {
                let j = node.step;
                let c = event(rng, &hs[3], 1 + j);
                kids.push(Node {
                    op: touching(c, j, 0, set_lines, false),
                    step: j,
                });
            }
            _ => {}
        }
    });
}

/// Handler ids of the pipeline, in [`EventWorkload::handlers`] order.
mod sws {
    pub const EPOLL: u8 = 0;
    pub const ACCEPT: u8 = 1;
    pub const REGISTER_FD: u8 = 2;
    pub const READ: u8 = 3;
    pub const PARSE: u8 = 4;
    pub const CACHE: u8 = 5;
    pub const WRITE: u8 = 6;
    pub const CLOSE: u8 = 7;
    pub const DEC_ACCEPTED: u8 = 8;
}

/// One connection: epoll, accept, register-fd, then `requests` times read,
/// parse, cache, write, then close and dec-accepted.
fn pipeline(
    f: &mut Forest,
    rng: &mut SplitMix64,
    hs: &[Handler],
    round: u32,
    connections: u32,
    requests: u32,
    files: u32,
) {
    let fd = 2 + round % connections.max(1);
    let root = event(rng, &hs[sws::EPOLL as usize], 0);
    f.tree(Node { op: root, step: 0 }, |node, kids| {
        let mut next = |h: u8, color: u32, step: u32| {
            let mut op = event(rng, &hs[h as usize], color);
            if h == sws::CACHE {
                let file = rng.below(files.max(1) as u64) as u32;
                op = touching(op, file, 0, LINES_PER_KIB, false);
            }
            kids.push(Node { op, step });
        };
        let step = node.step;
        match node.op.handler {
            sws::EPOLL => next(sws::ACCEPT, 1, 0),
            sws::ACCEPT => next(sws::REGISTER_FD, 0, 0),
            sws::REGISTER_FD => next(sws::READ, fd, 0),
            sws::READ => next(sws::PARSE, fd, step),
            sws::PARSE => next(sws::CACHE, fd, step),
            sws::CACHE => next(sws::WRITE, fd, step),
            sws::WRITE if step + 1 < requests => next(sws::READ, fd, step + 1),
            sws::WRITE => next(sws::CLOSE, fd, step),
            sws::CLOSE => next(sws::DEC_ACCEPTED, 1, step),
            _ => {}
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workload::WorkloadSpec;

    /// The event stream of `w`'s `requests` events from its seed.
    fn generate_for(app: &AppSpec, events: &EventWorkload, w: &WorkloadSpec) -> Stream {
        generate(app, events, w.seed, w.requests)
    }

    fn spec(requests: u32, events: EventWorkload) -> WorkloadSpec {
        WorkloadSpec {
            seed: 3,
            requests,
            events: Some(events),
            ..serde_json::from_str(r#"{"requests": 1}"#).unwrap()
        }
    }

    fn app(colors: u32, data_sets: u32, data_kib: u32) -> AppSpec {
        AppSpec::Handlers {
            colors,
            data_sets,
            data_kib,
        }
    }

    fn ops(s: &Stream) -> Vec<EventOp> {
        s.requests
            .iter()
            .map(|r| match r.op {
                Op::Event(e) => e,
                _ => panic!("not an event"),
            })
            .collect()
    }

    fn unbalanced(round: u32) -> EventWorkload {
        serde_json::from_value(serde_json::json!({"kind": "unbalanced", "round": round})).unwrap()
    }

    #[test]
    fn unbalanced_rounds_fork_independent_events_with_a_few_long_ones() {
        let w = spec(5 * 1001, unbalanced(1000));
        let s = generate_for(&app(1001, 0, 0), w.events.as_ref().unwrap(), &w);
        assert_eq!(s.len(), 5005);
        let f = s.events().unwrap();
        assert_eq!(f.roots, vec![0, 1001, 2002, 3003, 4004]);
        let ops = ops(&s);
        assert_eq!(f.children(0).len(), 1000);
        let colors: std::collections::BTreeSet<u32> = f
            .children(0)
            .iter()
            .map(|&e| ops[e as usize].color)
            .collect();
        assert_eq!(colors.len(), 1000, "each event its own color");
        let long: Vec<&EventOp> = ops.iter().filter(|o| o.handler == 2).collect();
        let share = long.len() as f64 / 5000.0;
        assert!((0.01..0.03).contains(&share), "{share}");
        assert!(long.iter().all(|o| (4300..=21500).contains(&o.ns)));
        assert!(long.iter().any(|o| o.ns != long[0].ns), "drawn per event");
        assert!(ops.iter().all(|o| o.handler == 2 || o.ns == 45));
        assert_eq!(ops[0].home, Home::Core(0));
        assert_eq!(ops[1].home, Home::Near);
    }

    #[test]
    fn unbalanced_colors_come_in_runs_of_consecutive_events() {
        let ev: EventWorkload = serde_json::from_value(
            serde_json::json!({"kind": "unbalanced", "round": 10, "colors": 4}),
        )
        .unwrap();
        assert_eq!(ev.needs().colors, 5, "fork's color 0 and colors 1..=4");
        let w = spec(2 * 11, ev.clone());
        let s = generate_for(&app(5, 0, 0), &ev, &w);
        let f = s.events().unwrap();
        assert_eq!(f.roots, vec![0, 11]);
        let ops = ops(&s);
        let colors: Vec<u32> = f
            .children(11)
            .iter()
            .map(|&e| ops[e as usize].color)
            .collect();
        assert_eq!(colors, vec![1, 1, 1, 2, 2, 3, 3, 3, 4, 4]);
        // Each event still writes its color's cell: same color, conflicting.
        assert!(s.conflicts(1, 3) && !s.conflicts(3, 4));
    }

    #[test]
    fn the_last_round_is_cut_to_the_budget() {
        let w = spec(1500, unbalanced(1000));
        let s = generate_for(&app(1001, 0, 0), w.events.as_ref().unwrap(), &w);
        assert_eq!(s.len(), 1500);
        let f = s.events().unwrap();
        assert_eq!(f.roots, vec![0, 1001]);
        assert_eq!(f.children(1001).len(), 498);
    }

    #[test]
    fn same_seed_same_stream() {
        let w = spec(3000, unbalanced(1000));
        let a = generate_for(&app(1001, 0, 0), w.events.as_ref().unwrap(), &w);
        let b = generate_for(&app(1001, 0, 0), w.events.as_ref().unwrap(), &w);
        assert_eq!(a, b);
        let w2 = WorkloadSpec { seed: 4, ..w };
        let c = generate_for(&app(1001, 0, 0), w2.events.as_ref().unwrap(), &w2);
        assert_ne!(a, c);
    }

    #[test]
    fn penalty_chains_walk_the_whole_data_set_in_chunks() {
        let ev: EventWorkload = serde_json::from_value(
            serde_json::json!({"kind": "penalty", "arrays": 3, "chunk_kib": 4}),
        )
        .unwrap();
        // One round: start + 3 A + 3 * (16 KiB / 4 KiB) B.
        let w = spec(1 + 3 + 12, ev.clone());
        let s = generate_for(&app(4, 3, 16), &ev, &w);
        let ops = ops(&s);
        let f = s.events().unwrap();
        assert_eq!(f.roots, vec![0]);
        for j in 0..3u32 {
            let chain: Vec<&EventOp> = ops.iter().filter(|o| o.color == 1 + j).collect();
            assert_eq!(chain.len(), 5, "A and four B");
            assert!(chain[0].fill && chain[0].lines == 256 && chain[0].set == j);
            let firsts: Vec<u32> = chain[1..].iter().map(|o| o.first).collect();
            assert_eq!(firsts, vec![0, 64, 128, 192]);
            assert!(chain[1..].iter().all(|o| !o.fill && o.penalty == 1000));
        }
        assert_eq!(ev.needs().data_sets, 3);
    }

    #[test]
    fn locality_rounds_spread_a_over_cores_and_join_on_the_arrays_color() {
        let ev: EventWorkload = serde_json::from_value(
            serde_json::json!({"kind": "locality", "arrays": 4, "a_cores": [0, 2]}),
        )
        .unwrap();
        // start + 4 A + 8 B + 8 C.
        let w = spec(21, ev.clone());
        let s = generate_for(&app(13, 4, 2), &ev, &w);
        let ops = ops(&s);
        let homes: Vec<Home> = ops
            .iter()
            .filter(|o| o.handler == 1)
            .map(|o| o.home)
            .collect();
        assert_eq!(
            homes,
            vec![Home::Core(0), Home::Core(2), Home::Core(0), Home::Core(2)]
        );
        let c: Vec<&EventOp> = ops.iter().filter(|o| o.handler == 3).collect();
        assert_eq!(c.len(), 8);
        for j in 0..4 {
            assert_eq!(
                c.iter().filter(|o| o.color == 1 + j && o.set == j).count(),
                2
            );
        }
        let b: Vec<&EventOp> = ops.iter().filter(|o| o.handler == 2).collect();
        assert!(b.iter().all(|o| o.fill && o.lines == 16));
    }

    #[test]
    fn a_pipeline_round_is_one_connection() {
        let ev: EventWorkload = serde_json::from_value(serde_json::json!({
            "kind": "pipeline", "connections": 4, "requests_per_connection": 2
        }))
        .unwrap();
        let per = 3 + 2 * 4 + 2;
        let w = spec(3 * per, ev.clone());
        let s = generate_for(&app(6, 16, 1), &ev, &w);
        let f = s.events().unwrap();
        assert_eq!(f.roots, vec![0, per, 2 * per]);
        let ops = ops(&s);
        let names: Vec<&str> = ops[..per as usize]
            .iter()
            .map(|o| ev.handlers(1)[o.handler as usize].name)
            .collect();
        assert_eq!(
            names,
            [
                "epoll",
                "accept",
                "register-fd",
                "read",
                "parse",
                "cache",
                "write",
                "read",
                "parse",
                "cache",
                "write",
                "close",
                "dec-accepted"
            ]
        );
        let colors: Vec<u32> = ops[..per as usize].iter().map(|o| o.color).collect();
        assert_eq!(colors, [0, 1, 0, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1]);
        assert_eq!(ops[per as usize + 3].color, 3, "the next connection's fd");
    }

    #[test]
    fn overrides_replace_work_and_annotations() {
        let ev: EventWorkload = serde_json::from_value(serde_json::json!({
            "kind": "unbalanced", "round": 10, "long_share": 1.0,
            "handlers": {"long": {"ns": 7, "cost_ns": 9, "penalty": 3}}
        }))
        .unwrap();
        let w = spec(11, ev.clone());
        let s = generate_for(&app(11, 0, 0), &ev, &w);
        for o in &ops(&s)[1..] {
            assert_eq!((o.ns, o.cost_ns, o.penalty), (7, 9, 3));
        }
    }

    #[test]
    fn default_costs_add_the_data_lines() {
        let ev: EventWorkload =
            serde_json::from_value(serde_json::json!({"kind": "penalty"})).unwrap();
        let hs = ev.resolved(8);
        assert_eq!(hs[1].cost_ns, 8 * 16 * LINE_COST_NS, "A fills 8 KiB");
        assert_eq!(hs[2].penalty, 1000);
    }
}
