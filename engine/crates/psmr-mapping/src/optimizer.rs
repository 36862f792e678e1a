//! The mapping optimizer: an exact branch and bound for the model of paper
//! 003 section 5.1 (Algorithm 3), written out in `docs/mapping-optimizer.md`.
//!
//! **Model.** Choose a mode per class and a thread set per class so that
//! rules R.1-R.5 hold, minimising lexicographically
//! 1. `O.3` — the number of (pair of independent sequential classes, shared
//!    thread) incidences: `Σ |T_a ∩ T_b|` over sequential `a < b` that do not
//!    conflict;
//! 2. `O.1a + O.1b + O.2` — `Σ_seq α_s·x_s − Σ_conc β_c·x_c +
//!    Σ_conc |ŵ_c − x_c / n|`, where `x_c = |T_c|`, `ŵ_c` is the weight of
//!    `c` normalised over the concurrent classes and `α`, `β` depend on the
//!    [`Reading`] (default: weights normalised over all classes).
//!
//! **Symmetry.** Threads are interchangeable: a mapping is a multiset of
//! thread *columns* (the set of classes a thread serves). The search assigns
//! classes one at a time and keeps the threads grouped into *orbits*, runs of
//! threads whose columns are identical so far. A class only chooses *how
//! many* threads it takes from each orbit (always the first ones), which
//! enumerates every mapping up to a permutation of threads exactly once per
//! ordered split.
//!
//! **Search.** Outer loop over the mode vectors allowed by R.2 and R.3
//! (concurrent classes form a conflict-free set of classes without internal
//! conflicts), best root bound first. Inner depth-first search: concurrent
//! classes first (each placement also adds, by R.4, its conflicting
//! sequential classes to the chosen threads), then each sequential class
//! adds extra threads until it meets every earlier conflicting sequential
//! class (R.5) and has a thread (R.1). Bounds: the cost so far is exact and
//! only grows; the remaining concurrent classes are bounded one by one (best
//! thread count, with the seq cost they force split evenly among the
//! classes that could force it) or, when O.3 is already at the incumbent's
//! value, on the threads where they add no O.3 only, jointly for classes
//! that can never share such a thread (a convex allocation solved greedily);
//! a sequential class without a thread costs at least one thread, or one
//! per partner that cannot share a thread with another when O.3 is tight.
//!
//! **O.3 first.** Passes with a cap of 0, 1, 2, 4, ... on O.3 (a virtual
//! incumbent) come before the ordinary branch and bound from the naive
//! mapping; a completed empty pass proves a floor on O.3.
//!
//! **Time limit.** Past the limit the search stops and returns the
//! incumbent with the proven lower bound (the least bound of the open
//! nodes) and the relative gap.

use crate::o3_bound::Requirements;

mod clique_cover;
mod local_search;
use crate::{ClassMapping, CtoT, Mode};
use psmr_core::{ClassId, ClassTable};
use std::cmp::Ordering;

/// How the O.1 weights and thread counts are normalised (paper 003 lost the
/// formulas; see `docs/mapping-optimizer.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Reading {
    /// O.1 weights normalised over all classes, thread counts unscaled
    /// (the default: reproduces 003 section 6.5 workloads 1-3 and 000 Table 1).
    #[default]
    AllClasses,
    /// O.1 weights normalised within each mode, thread counts unscaled (the
    /// most literal reading of 003's prose).
    PerMode,
    /// O.1 weights normalised within each mode, thread counts divided by the
    /// number of threads.
    ScaledCounts,
}

/// Options of [`optimize_with`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Options {
    pub time_limit_s: f64,
    pub reading: Reading,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            time_limit_s: 10.0,
            reading: Reading::default(),
        }
    }
}

/// A lexicographic objective value: `o3` first, then `cost` (O.1a + O.1b + O.2).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Value {
    pub o3: u32,
    pub cost: f64,
}

/// Tolerance under which two costs count as equal.
const EPS: f64 = 1e-9;

impl Value {
    const INFINITE: Value = Value {
        o3: u32::MAX,
        cost: f64::INFINITY,
    };
    /// Lexicographic comparison with tolerance `EPS` on `cost`.
    pub fn cmp_lex(&self, other: &Value) -> Ordering {
        self.o3.cmp(&other.o3).then_with(|| {
            if (self.cost - other.cost).abs() <= EPS {
                Ordering::Equal
            } else {
                self.cost.total_cmp(&other.cost)
            }
        })
    }
    /// `self` cannot beat `best`: a node with this bound can be pruned.
    /// An infinite cost marks an infeasible node (e.g. a concurrent class
    /// that can no longer get a thread, R.1).
    fn no_better_than(&self, best: &Value) -> bool {
        !self.cost.is_finite() || self.cmp_lex(best) != Ordering::Less
    }
}

/// The terms of the objective of one mapping.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Breakdown {
    pub o1a: f64,
    pub o1b: f64,
    pub o2: f64,
    pub o3: u32,
}

impl Breakdown {
    pub fn value(&self) -> Value {
        Value {
            o3: self.o3,
            cost: self.o1a + self.o1b + self.o2,
        }
    }
}

/// The optimizer's answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    pub ctot: CtoT,
    pub value: Value,
    /// Proven lower bound on the optimum (equal to `value` when optimal).
    pub bound: Value,
    /// Search finished: `value` is optimal.
    pub optimal: bool,
    /// Relative gap between `value` and `bound`: on O.3 when the bound's O.3
    /// is lower, else on the cost (`(value − bound) / max(|value|, 1e-9)`).
    pub gap: f64,
    /// Search nodes visited (class placements).
    pub nodes: u64,
    pub solve_ms: f64,
}

/// Optimize with the default [`Reading`].
pub fn optimize(
    classes: &ClassTable,
    threads: usize,
    time_limit_s: f64,
) -> Result<Solution, String> {
    optimize_with(
        classes,
        threads,
        &Options {
            time_limit_s,
            reading: Reading::default(),
        },
    )
}

/// Largest supported number of classes or threads (bit masks of `u64`).
pub const MAX_CLASSES: usize = 64;
pub const MAX_THREADS: usize = 64;
/// Largest number of mode vectors (sets of concurrent classes allowed by
/// R.2 and R.3) the optimizer searches; 8 shards have 512, 11 shards 4096.
/// Beyond it [`optimize_with`] refuses (each vector is a search root, kept
/// in memory and sorted).
pub const MAX_MODE_VECTORS: usize = 1 << 12;

/// Find a mapping of `classes` onto `threads` workers that satisfies R.1-R.5
/// and is optimal for the model above, or the best one found within the
/// time limit.
pub fn optimize_with(
    classes: &ClassTable,
    threads: usize,
    opts: &Options,
) -> Result<Solution, String> {
    solve(classes, threads, opts, u64::MAX)
}

/// Like [`optimize_with`], but the search also stops after `max_nodes`
/// search nodes (whichever of the time limit and the node limit comes
/// first). With a generous time limit the result then depends only on the
/// instance and `max_nodes`, not on the machine's speed: the quality
/// regression test uses it.
pub fn optimize_with_node_limit(
    classes: &ClassTable,
    threads: usize,
    opts: &Options,
    max_nodes: u64,
) -> Result<Solution, String> {
    solve(classes, threads, opts, max_nodes)
}

/// Local search runs on the mode vectors in root-bound order, at most
/// `LS_STEPS` steps each, until it has taken `LS_TOTAL_STEPS` steps or
/// `LS_SHARE` of the time limit or of the node limit (each step counts as
/// a node).
const LS_STEPS: u64 = 1000;
const LS_TOTAL_STEPS: u64 = 20_000;
const LS_SHARE: f64 = 0.2;

/// Dives (after the local search, once the incumbent's O.3 is proven
/// optimal): a branch and bound of at most `DIVE_NODES` nodes in each mode
/// vector, in root-bound order, until `DIVE_TOTAL_NODES` nodes or
/// `DIVE_SHARE` of the time limit or of the node limit are spent.
const DIVE_NODES: u64 = 2_000;
const DIVE_TOTAL_NODES: u64 = 200_000;
const DIVE_SHARE: f64 = 0.1;

/// The final branch and bound gives each mode vector at most
/// `ROUND_NODES` nodes in its first round, four times more in each next
/// round (see `Search::run_rounds`).
const ROUND_NODES: u64 = 8_000;

/// Whether the exact optimizer takes this instance: 1..=[`MAX_CLASSES`]
/// classes, 1..=[`MAX_THREADS`] threads and at most [`MAX_MODE_VECTORS`]
/// ways to choose the concurrent classes; the error says which limit.
pub fn check_supported(classes: &ClassTable, threads: usize) -> Result<(), String> {
    if threads == 0 || threads > MAX_THREADS {
        return Err(format!(
            "the optimizer supports 1..={MAX_THREADS} threads, got {threads}"
        ));
    }
    if classes.is_empty() || classes.len() > MAX_CLASSES {
        return Err(format!(
            "the optimizer supports 1..={MAX_CLASSES} classes, got {}",
            classes.len()
        ));
    }
    let problem = Problem::new(classes, threads, Reading::default());
    if problem.count_mode_vectors(MAX_MODE_VECTORS + 1) > MAX_MODE_VECTORS {
        return Err(format!(
            "too many classes for the exact optimizer: more than {MAX_MODE_VECTORS} ways to choose \
             the concurrent classes"
        ));
    }
    Ok(())
}

fn solve(
    classes: &ClassTable,
    threads: usize,
    opts: &Options,
    max_nodes: u64,
) -> Result<Solution, String> {
    let start_ns = psmr_core::clock::now_ns();
    check_supported(classes, threads)?;
    let problem = Problem::new(classes, threads, opts.reading);
    let deadline_ns = start_ns.saturating_add((opts.time_limit_s.max(0.0) * 1e9) as u64);
    let mut search = Search {
        problem: &problem,
        best: Value::INFINITE,
        best_map: None,
        nodes: 0,
        deadline_ns,
        node_limit: max_nodes,
        timed_out: false,
        open_bound: Value::INFINITE,
    };
    // Incumbent: the naive mapping (always valid).
    let seed = crate::naive::naive(classes, threads);
    search.offer_ctot(&seed, classes);
    let mut roots: Vec<(Value, ModeModel)> = problem
        .mode_vectors()
        .into_iter()
        .map(|conc| {
            let m = ModeModel::new(&problem, conc);
            let root = Node::root(threads);
            let b = m.node_bound(&root, 0, &Value::INFINITE);
            (b, m)
        })
        .collect();
    roots.sort_by(|a, b| a.0.cmp_lex(&b.0));
    // Every mapping belongs to some root: the least root O.3 bounds every
    // mapping's O.3, and the least root cost (the root cost bound does not
    // depend on O.3) every mapping's cost.
    let root_o3_floor = roots.first().map_or(0, |r| r.0.o3);
    let cost_floor = roots.iter().map(|r| r.0.cost).fold(f64::INFINITY, f64::min);
    // The incumbent before the search: local search on the most promising
    // mode vectors (see `local_search.rs`).
    let ls_deadline_ns =
        start_ns.saturating_add((opts.time_limit_s.max(0.0) * LS_SHARE * 1e9) as u64);
    let ls_steps = LS_TOTAL_STEPS.min((max_nodes as f64 * LS_SHARE) as u64);
    for (k, (b, m)) in roots.iter().enumerate() {
        let left = ls_steps.saturating_sub(search.nodes);
        if left == 0 || psmr_core::clock::now_ns() >= ls_deadline_ns {
            break;
        }
        if b.o3 > search.best.o3 || search.best.o3 <= root_o3_floor {
            // No mapping of the remaining roots has a lower O.3, or the
            // incumbent's O.3 is proven optimal: the branch and bound
            // takes over the cost.
            break;
        }
        let mut ls = local_search::LocalSearch::new(m);
        let (found, steps) = ls.run(LS_STEPS.min(left), 0x15ea_0000 + k as u64, ls_deadline_ns);
        search.nodes += steps;
        if let Some(found) = found {
            let ctot = Node::from_cols(&found.cols).to_ctot(m);
            debug_assert_eq!(ctot.validate(classes), Ok(()));
            search.offer_ctot(&ctot, classes);
        }
    }
    // Greedy clique covers for the all-sequential mode vector (see
    // `clique_cover.rs`), when it can beat the incumbent.
    if let Some((b, m)) = roots.iter().find(|(_, m)| m.conc == 0) {
        if !b.no_better_than(&search.best) {
            if let Some(cols) = clique_cover::all_sequential_cover(m, 0x15ea_c0de) {
                let ctot = Node::from_cols(&cols).to_ctot(m);
                if ctot.validate(classes).is_ok() {
                    search.offer_ctot(&ctot, classes);
                }
            }
        }
    }
    // Dives: a short branch and bound in each mode vector, so that the
    // incumbent comes from every region and not only from the first roots
    // (see `Search::dive_roots`).
    let dive_deadline_ns = psmr_core::clock::now_ns()
        .saturating_add((opts.time_limit_s.max(0.0) * DIVE_SHARE * 1e9) as u64)
        .min(deadline_ns);
    let dive_nodes = DIVE_TOTAL_NODES.min((max_nodes as f64 * DIVE_SHARE) as u64);
    if search.best.o3 <= root_o3_floor {
        search.dive_roots(&roots, dive_nodes, dive_deadline_ns);
    }
    // O.3 first: search with a cap on O.3 (a virtual incumbent of value
    // (cap, +inf)) for caps f, f + 1, 2 f, ... (f the least root O.3, at
    // least 1 after 0) below the incumbent's O.3.
    // A pass that finds a mapping is an ordinary branch and bound from then
    // on and, when it completes, proves optimality; a pass that completes
    // without one proves O.3 > cap. The cap passes prune nothing on cost
    // until they find a mapping, so they get half of the time (and node)
    // limit left;
    // after that an ordinary branch and bound from the best mapping known
    // uses the rest.
    let full_deadline_ns = deadline_ns;
    let now_ns = psmr_core::clock::now_ns();
    search.deadline_ns = now_ns.saturating_add(deadline_ns.saturating_sub(now_ns) / 2);
    search.node_limit = search.nodes + max_nodes.saturating_sub(search.nodes) / 2;
    let mut o3_floor = root_o3_floor;
    let mut cap = root_o3_floor;
    let mut finished = false;
    while cap < search.best.o3 {
        let real = (search.best, search.best_map.take());
        search.best = Value {
            o3: cap,
            cost: f64::INFINITY,
        };
        search.run_roots(&roots);
        if search.best.cost.is_finite() {
            finished = !search.timed_out;
            break;
        }
        (search.best, search.best_map) = real;
        if search.timed_out {
            break;
        }
        o3_floor = cap + 1;
        cap = if cap == 0 { 1 } else { cap * 2 }.max(o3_floor);
    }
    if !finished {
        // Ordinary branch and bound with the real incumbent; it covers the
        // whole space again, so the open nodes of an interrupted cap pass
        // are dropped.
        search.timed_out = false;
        search.open_bound = Value::INFINITE;
        search.deadline_ns = full_deadline_ns;
        search.node_limit = max_nodes;
        search.run_rounds(&roots);
    }
    let solve_ms = (psmr_core::clock::now_ns().saturating_sub(start_ns)) as f64 / 1e6;
    let ctot = search.best_map.clone().expect("the naive incumbent exists");
    let optimal = !search.timed_out;
    let bound = if optimal {
        search.best
    } else {
        let b = min_value(search.open_bound, search.best);
        // Lower bounds proven by earlier passes also hold.
        max_value(
            b,
            Value {
                o3: o3_floor,
                cost: cost_floor,
            },
        )
    };
    let gap = relative_gap(&search.best, &bound);
    Ok(Solution {
        ctot,
        value: search.best,
        bound,
        optimal,
        gap,
        nodes: search.nodes,
        solve_ms,
    })
}

fn max_value(a: Value, b: Value) -> Value {
    if a.cmp_lex(&b) == Ordering::Less {
        b
    } else {
        a
    }
}

fn min_value(a: Value, b: Value) -> Value {
    if a.cmp_lex(&b) == Ordering::Less {
        a
    } else {
        b
    }
}

fn relative_gap(value: &Value, bound: &Value) -> f64 {
    if bound.o3 < value.o3 {
        (value.o3 - bound.o3) as f64 / value.o3 as f64
    } else {
        ((value.cost - bound.cost) / value.cost.abs().max(1e-9)).max(0.0)
    }
}

/// The objective terms of any valid mapping `m` (used by the tests to
/// compare with an exhaustive enumeration, and by the docs).
pub fn evaluate(m: &CtoT, classes: &ClassTable, reading: Reading) -> Breakdown {
    let p = Problem::new(classes, m.threads, reading);
    let conc: u64 = (0..classes.len())
        .filter(|&c| m.classes[c].mode == Mode::Concurrent)
        .fold(0, |acc, c| acc | 1 << c);
    let model = ModeModel::new(&p, conc);
    let mut b = Breakdown {
        o1a: 0.0,
        o1b: 0.0,
        o2: 0.0,
        o3: 0,
    };
    for (c, cm) in m.classes.iter().enumerate() {
        let x = cm.threads.len();
        if conc & 1 << c != 0 {
            b.o1b -= model.beta[c] * x as f64;
            b.o2 += (model.wbar[c] - x as f64 / m.threads as f64).abs();
        } else {
            b.o1a += model.alpha[c] * x as f64;
        }
    }
    for t in 0..m.threads {
        let col: u64 = (0..classes.len())
            .filter(|&c| m.classes[c].threads.contains(&t))
            .fold(0, |acc, c| acc | 1 << c);
        b.o3 += model.pairs(col);
    }
    b
}

// ---------------------------------------------------------------------------
// Problem data

/// Class data as bit masks.
struct Problem {
    n: usize,
    threads: usize,
    /// `conflicts[c]`: classes `c` conflicts with (bit `c` itself when `c`
    /// has internal conflicts).
    conflicts: Vec<u64>,
    weights: Vec<f64>,
    reading: Reading,
}

impl Problem {
    fn new(classes: &ClassTable, threads: usize, reading: Reading) -> Self {
        let n = classes.len();
        let conflicts = (0..n)
            .map(|a| {
                (0..n)
                    .filter(|&b| classes.conflicts(a as ClassId, b as ClassId))
                    .fold(0u64, |m, b| m | 1 << b)
            })
            .collect();
        let raw: Vec<f64> = classes
            .classes()
            .iter()
            .map(|c| {
                if c.weight.is_finite() && c.weight > 0.0 {
                    c.weight
                } else {
                    0.0
                }
            })
            .collect();
        // No weight information at all: equal weights (paper 003 §5.1).
        let weights = if raw.iter().sum::<f64>() > 0.0 {
            raw
        } else {
            vec![1.0; n]
        };
        Problem {
            n,
            threads,
            conflicts,
            weights,
            reading,
        }
    }

    fn self_conflicting(&self, c: usize) -> bool {
        self.conflicts[c] & 1 << c != 0
    }

    /// Every set of concurrent classes allowed by R.2 (no internal
    /// conflict) and R.3 (no two conflicting concurrent classes).
    fn mode_vectors(&self) -> Vec<u64> {
        let mut out = Vec::new();
        self.modes_from(0, 0, &mut out);
        out
    }

    /// Number of mode vectors, counting stops at `cap`.
    fn count_mode_vectors(&self, cap: usize) -> usize {
        let mut count = 0;
        self.count_from(0, 0, cap, &mut count);
        count
    }

    fn count_from(&self, c: usize, conc: u64, cap: usize, count: &mut usize) {
        if *count >= cap {
            return;
        }
        if c == self.n {
            *count += 1;
            return;
        }
        self.count_from(c + 1, conc, cap, count);
        if !self.self_conflicting(c) && self.conflicts[c] & conc == 0 {
            self.count_from(c + 1, conc | 1 << c, cap, count);
        }
    }

    fn modes_from(&self, c: usize, conc: u64, out: &mut Vec<u64>) {
        if c == self.n {
            out.push(conc);
            return;
        }
        self.modes_from(c + 1, conc, out);
        if !self.self_conflicting(c) && self.conflicts[c] & conc == 0 {
            self.modes_from(c + 1, conc | 1 << c, out);
        }
    }
}

/// The objective's coefficients for one mode vector.
struct ModeModel<'a> {
    p: &'a Problem,
    conc: u64,
    seq: u64,
    /// Cost per thread of a sequential class (O.1a).
    alpha: Vec<f64>,
    /// Reward per thread of a concurrent class (O.1b).
    beta: Vec<f64>,
    /// Weight of a concurrent class normalised over the concurrent classes (O.2).
    wbar: Vec<f64>,
    /// For a concurrent class: the sequential classes it conflicts with
    /// (they must contain its threads, R.4).
    forced: Vec<u64>,
    /// For a sequential class: the other sequential classes independent of it.
    indep: Vec<u64>,
    /// Order of placement: concurrent classes (heaviest first), then
    /// sequential classes that have a concurrent neighbour, then the rest.
    order: Vec<usize>,
    /// Concurrent classes grouped greedily into cliques of the relation
    /// "placing both on one thread puts two independent sequential classes
    /// together" (so, with O.3 tight, they never share a thread).
    cliques: Vec<Vec<usize>>,
    /// The requirement clique bounding O.3 (`o3_bound.rs`).
    req: Requirements,
}

impl<'a> ModeModel<'a> {
    fn new(p: &'a Problem, conc: u64) -> Self {
        let n = p.n;
        let all = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        let seq = all & !conc;
        let members = |mask: u64| (0..n).filter(move |&c| mask & 1 << c != 0);
        let sum = |mask: u64| members(mask).map(|c| p.weights[c]).sum::<f64>();
        let (w_all, w_conc, w_seq) = (sum(all), sum(conc), sum(seq));
        let scale = match p.reading {
            Reading::ScaledCounts => 1.0 / p.threads as f64,
            _ => 1.0,
        };
        let norm = |total: f64, w: f64| if total > 0.0 { w / total } else { 0.0 };
        let mut alpha = vec![0.0; n];
        let mut beta = vec![0.0; n];
        let mut wbar = vec![0.0; n];
        let n_conc = conc.count_ones() as f64;
        for c in 0..n {
            let w = p.weights[c];
            let within = if conc & 1 << c != 0 { w_conc } else { w_seq };
            let coef = match p.reading {
                Reading::AllClasses => norm(w_all, w),
                Reading::PerMode | Reading::ScaledCounts => norm(within, w),
            } * scale;
            if conc & 1 << c != 0 {
                beta[c] = coef;
                wbar[c] = if w_conc > 0.0 {
                    w / w_conc
                } else {
                    1.0 / n_conc
                };
            } else {
                alpha[c] = coef;
            }
        }
        let forced: Vec<u64> = (0..n)
            .map(|c| {
                if conc & 1 << c != 0 {
                    p.conflicts[c] & seq
                } else {
                    0
                }
            })
            .collect();
        let indep = (0..n)
            .map(|s| {
                if seq & 1 << s != 0 {
                    seq & !p.conflicts[s] & !(1 << s)
                } else {
                    0
                }
            })
            .collect::<Vec<u64>>();
        let mut conc_order: Vec<usize> = members(conc).collect();
        conc_order.sort_by(|&a, &b| p.weights[b].total_cmp(&p.weights[a]).then(a.cmp(&b)));
        let mut seq_order: Vec<usize> = members(seq).collect();
        seq_order.sort_by_key(|&s| {
            let has_conc = p.conflicts[s] & conc != 0;
            (
                !has_conc,
                std::cmp::Reverse((p.conflicts[s] & seq).count_ones()),
                s,
            )
        });
        let incompatible = |a: usize, b: usize| {
            let (fa, fb) = (forced[a], forced[b]);
            (0..n).any(|s| fa & 1 << s != 0 && indep[s] & fb & !(1 << s) != 0)
        };
        let mut cliques: Vec<Vec<usize>> = Vec::new();
        for &c in &conc_order {
            match cliques
                .iter_mut()
                .find(|k| k.iter().all(|&o| incompatible(c, o)))
            {
                Some(k) => k.push(c),
                None => cliques.push(vec![c]),
            }
        }
        let order = conc_order.into_iter().chain(seq_order).collect();
        let req = Requirements::new(seq, &forced, &indep, &p.conflicts);
        ModeModel {
            p,
            conc,
            seq,
            alpha,
            beta,
            wbar,
            forced,
            indep,
            order,
            cliques,
            req,
        }
    }

    fn is_conc(&self, c: usize) -> bool {
        self.conc & 1 << c != 0
    }

    /// O.3 incidences of one thread column: independent sequential pairs in it.
    fn pairs(&self, col: u64) -> u32 {
        let s = col & self.seq;
        let mut total = 0;
        let mut rest = s;
        while rest != 0 {
            let a = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            total += (self.indep[a] & s).count_ones();
        }
        total / 2
    }

    /// O.1a cost per thread of a column.
    fn seq_cost(&self, col: u64) -> f64 {
        let mut rest = col & self.seq;
        let mut total = 0.0;
        while rest != 0 {
            let a = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            total += self.alpha[a];
        }
        total
    }

    /// O.1b + O.2 of concurrent class `c` on `x` threads.
    fn g(&self, c: usize, x: usize) -> f64 {
        -self.beta[c] * x as f64 + (self.wbar[c] - x as f64 / self.p.threads as f64).abs()
    }

    /// Least `g(c, x)` for integer `x` in `lo..=hi` (`g` is convex, so the
    /// minimum is at an end or next to the kink of the absolute value).
    fn g_min(&self, c: usize, lo: usize, hi: usize) -> f64 {
        if lo > hi {
            return f64::INFINITY;
        }
        let kink = self.wbar[c] * self.p.threads as f64;
        let mut best = self.g(c, lo).min(self.g(c, hi));
        for k in [kink.floor(), kink.ceil()] {
            let k = k.max(lo as f64).min(hi as f64) as usize;
            best = best.min(self.g(c, k));
        }
        best
    }

    /// Lower bound on the cost still to come for the classes
    /// `order[from..]` at `node` (see the module doc). `best` decides whether
    /// O.3 is tight.
    fn rest_bound(&self, node: &Node, from: usize, best: &Value) -> Value {
        self.rest_bound_split(node, from, from, best)
    }

    /// Like [`Self::rest_bound`], summing over `order[sum_from..]` but
    /// splitting forced sequential costs among the concurrent classes of
    /// `order[share_from..]` (`share_from <= sum_from`).
    fn rest_bound_split(
        &self,
        node: &Node,
        share_from: usize,
        sum_from: usize,
        best: &Value,
    ) -> Value {
        let tight = node.o3 >= best.o3;
        let mut o3 = 0u32;
        let mut cost = 0.0;
        let sharers = self.sharers(share_from);
        let mut unassigned_conc_nbrs = 0u64;
        for &c in &self.order[share_from..] {
            if self.is_conc(c) {
                unassigned_conc_nbrs |= self.forced[c];
            }
        }
        let summed: u64 = self.order[sum_from..].iter().fold(0, |m, &c| m | 1 << c);
        // Concurrent classes bounded jointly (see `clique_bound`).
        let mut joint = 0u64;
        if tight {
            for clique in &self.cliques {
                let members: Vec<usize> = clique
                    .iter()
                    .copied()
                    .filter(|&c| summed & 1 << c != 0)
                    .collect();
                if members.len() < 2 {
                    continue;
                }
                if let Some(b) = self.clique_bound(node, &members, &sharers) {
                    match b {
                        Some(v) => cost += v,
                        None => o3 += 1,
                    }
                    joint |= members.iter().fold(0, |m, &c| m | 1 << c);
                }
            }
        }
        for &c in &self.order[sum_from..] {
            if self.is_conc(c) {
                if joint & 1 << c != 0 {
                    continue;
                }
                match self.conc_bound(node, c, &sharers, tight) {
                    Some(v) => cost += v,
                    None => o3 += 1,
                }
            } else if node.covered & 1 << c == 0 && unassigned_conc_nbrs & 1 << c == 0 {
                // R.1: a sequential class with no thread yet takes at least
                // one; with O.3 tight, one per partner that cannot share a
                // thread with another (R.5).
                let need = if tight {
                    let partners = self.p.conflicts[c] & self.seq & !(1 << c);
                    self.separate_partners(partners, &node.orbits).max(1)
                } else {
                    1
                };
                cost += self.alpha[c] * need as f64;
            }
        }
        Value { o3, cost }
    }

    /// How many of `partners` (sequential classes) need pairwise different
    /// threads: a greedy set of partners that are independent of each other
    /// (so, with O.3 tight, may not newly share a thread) and share no
    /// orbit of `orbits` already. A sequential class that must meet all of
    /// them (R.5) needs at least this many threads.
    fn separate_partners(&self, partners: u64, orbits: &[Orbit]) -> usize {
        let mut chosen: Vec<usize> = Vec::new();
        let mut rest = partners;
        while rest != 0 {
            let p = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let apart = chosen.iter().all(|&q| {
                let both = 1u64 << p | 1u64 << q;
                self.indep[p] & 1 << q != 0 && orbits.iter().all(|o| o.col & both != both)
            });
            if apart {
                chosen.push(p);
            }
        }
        chosen.len()
    }

    /// Joint bound of unplaced concurrent classes that pairwise cannot share
    /// a thread without adding O.3 (a clique of the static incompatibility
    /// relation), used when O.3 is tight. `None` when some thread open to
    /// them could host two of them (then they are bounded one by one);
    /// `Some(None)` when they cannot all get a thread without adding O.3.
    /// Otherwise the least `Σ g_c(x_c) + x_c · (least split charge of c)`
    /// with `x_c` at most `c`'s free threads and `Σ x_c` at most the free
    /// threads of any of them: separable convex, so the greedy on marginal
    /// costs below is exact for this relaxation.
    fn clique_bound(&self, node: &Node, members: &[usize], sharers: &[u32]) -> Option<Option<f64>> {
        let mut union_len = 0;
        let mut caps = vec![0usize; members.len()];
        let mut minch = vec![f64::INFINITY; members.len()];
        for o in &node.orbits {
            let mut open = false;
            for (k, &c) in members.iter().enumerate() {
                if self.o3_add(c, o.col) == 0 {
                    open = true;
                    caps[k] += o.len;
                    minch[k] = minch[k].min(self.split_charge(c, o.col, sharers));
                }
            }
            if !open {
                continue;
            }
            union_len += o.len;
            for (k, &a) in members.iter().enumerate() {
                for &b in &members[k + 1..] {
                    let both = o.col | self.forced[a] | self.forced[b];
                    if self.pairs(both) == self.pairs(o.col) {
                        return None; // a and b could share this orbit
                    }
                }
            }
        }
        if caps.contains(&0) || members.len() > union_len {
            return Some(None);
        }
        let mut x = vec![1usize; members.len()];
        let mut used = members.len();
        while used < union_len {
            let step = (0..members.len())
                .filter(|&k| x[k] < caps[k])
                .map(|k| {
                    (
                        k,
                        self.g(members[k], x[k] + 1) - self.g(members[k], x[k]) + minch[k],
                    )
                })
                .min_by(|a, b| a.1.total_cmp(&b.1));
            match step {
                Some((k, d)) if d < 0.0 => {
                    x[k] += 1;
                    used += 1;
                }
                _ => break,
            }
        }
        let total = (0..members.len())
            .map(|k| self.g(members[k], x[k]) + minch[k] * x[k] as f64)
            .sum();
        Some(Some(total))
    }

    /// For each sequential class, how many of the concurrent classes in
    /// `order[from..]` would force it onto their threads.
    fn sharers(&self, from: usize) -> Vec<u32> {
        let mut k = vec![0u32; self.p.n];
        for &c in &self.order[from..] {
            if self.is_conc(c) {
                let mut f = self.forced[c];
                while f != 0 {
                    let s = f.trailing_zeros() as usize;
                    f &= f - 1;
                    k[s] += 1;
                }
            }
        }
        k
    }

    /// Split charge per thread for placing concurrent `c` on a thread with
    /// column `col`: each sequential class it adds costs `alpha / sharers`.
    fn split_charge(&self, c: usize, col: u64, sharers: &[u32]) -> f64 {
        let mut add = self.forced[c] & !col;
        let mut total = 0.0;
        while add != 0 {
            let s = add.trailing_zeros() as usize;
            add &= add - 1;
            total += self.alpha[s] / sharers[s].max(1) as f64;
        }
        total
    }

    /// O.3 incidences added per thread by placing concurrent `c` on `col`.
    fn o3_add(&self, c: usize, col: u64) -> u32 {
        self.pairs(col | self.forced[c]) - self.pairs(col)
    }

    /// Bound on concurrent `c`'s contribution; `None` if, with O.3 tight,
    /// no thread can take it without adding O.3.
    fn conc_bound(&self, node: &Node, c: usize, sharers: &[u32], tight: bool) -> Option<f64> {
        let mut charges: Vec<(f64, usize)> = node
            .orbits
            .iter()
            .filter(|o| !tight || self.o3_add(c, o.col) == 0)
            .map(|o| (self.split_charge(c, o.col, sharers), o.len))
            .collect();
        if charges.is_empty() {
            return None;
        }
        charges.sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut best = f64::INFINITY;
        let mut prefix = 0.0;
        let mut x = 0;
        for (ch, len) in charges {
            for _ in 0..len {
                x += 1;
                prefix += ch;
                best = best.min(self.g(c, x) + prefix);
            }
        }
        Some(best)
    }

    /// Bound of a node at depth `i`: exact cost so far plus the rest bound.
    /// The O.3 part also counts the requirement clique on the columns so
    /// far (valid here, where no placement is under way, unlike the
    /// partial bounds inside `place_conc` and `place_seq`).
    fn node_bound(&self, node: &Node, i: usize, best: &Value) -> Value {
        let r = self.rest_bound(node, i, best);
        let cols: Vec<(usize, u64)> = node.orbits.iter().map(|o| (o.len, o.col)).collect();
        let req = self.req.extra_o3(&cols, node.o3, |col| self.pairs(col));
        Value {
            o3: node.o3.saturating_add(r.o3.max(req)),
            cost: node.cost + r.cost,
        }
    }
}

// ---------------------------------------------------------------------------
// Search state

#[derive(Clone, Debug)]
struct Orbit {
    /// Number of threads in the orbit.
    len: usize,
    /// The classes every thread of the orbit serves.
    col: u64,
}

#[derive(Clone, Debug)]
struct Node {
    orbits: Vec<Orbit>,
    /// Exact O.3 of the columns so far.
    o3: u32,
    /// Exact O.1a of the columns so far plus O.1b + O.2 of the placed
    /// concurrent classes.
    cost: f64,
    /// Classes that have at least one thread.
    covered: u64,
}

impl Node {
    fn root(threads: usize) -> Node {
        Node {
            orbits: vec![Orbit {
                len: threads,
                col: 0,
            }],
            o3: 0,
            cost: 0.0,
            covered: 0,
        }
    }

    /// A node holding complete columns, one orbit per thread (costs are
    /// not filled in: only for [`Node::to_ctot`]).
    fn from_cols(cols: &[u64]) -> Node {
        Node {
            orbits: cols.iter().map(|&col| Orbit { len: 1, col }).collect(),
            o3: 0,
            cost: 0.0,
            covered: 0,
        }
    }

    fn value(&self) -> Value {
        Value {
            o3: self.o3,
            cost: self.cost,
        }
    }

    /// The child where the class set `add` (a class plus the sequential
    /// classes it forces) is added to the first `take[j]` threads of orbit
    /// `j`. Costs are updated exactly.
    fn child(&self, m: &ModeModel, take: &[usize], add: u64) -> Node {
        let mut orbits = Vec::with_capacity(self.orbits.len() * 2);
        let mut o3 = self.o3;
        let mut cost = self.cost;
        let mut covered = self.covered;
        for (o, &k) in self.orbits.iter().zip(take) {
            if k > 0 {
                let col = o.col | add;
                o3 += k as u32 * (m.pairs(col) - m.pairs(o.col));
                cost += k as f64 * (m.seq_cost(col) - m.seq_cost(o.col));
                covered |= col;
                orbits.push(Orbit { len: k, col });
            }
            if k < o.len {
                orbits.push(Orbit {
                    len: o.len - k,
                    col: o.col,
                });
            }
        }
        Node {
            orbits,
            o3,
            cost,
            covered,
        }
    }

    fn to_ctot(&self, m: &ModeModel) -> CtoT {
        let n = m.p.n;
        let mut classes: Vec<ClassMapping> = (0..n)
            .map(|c| ClassMapping {
                mode: if m.is_conc(c) {
                    Mode::Concurrent
                } else {
                    Mode::Sequential
                },
                threads: Vec::new(),
            })
            .collect();
        let mut t = 0;
        for o in &self.orbits {
            for _ in 0..o.len {
                for (c, cm) in classes.iter_mut().enumerate() {
                    if o.col & 1 << c != 0 {
                        cm.threads.push(t);
                    }
                }
                t += 1;
            }
        }
        CtoT {
            threads: m.p.threads,
            classes,
        }
    }
}

struct Search<'a> {
    problem: &'a Problem,
    best: Value,
    best_map: Option<CtoT>,
    nodes: u64,
    deadline_ns: u64,
    /// The search stops when `nodes` reaches this (like the deadline).
    node_limit: u64,
    timed_out: bool,
    /// Least bound of the nodes left unexplored by a timeout.
    open_bound: Value,
}

/// How often (in nodes) the clock is read.
const CLOCK_EVERY: u64 = 256;

impl<'a> Search<'a> {
    fn offer_ctot(&mut self, m: &CtoT, classes: &ClassTable) {
        let v = evaluate(m, classes, self.problem.reading).value();
        if v.cmp_lex(&self.best) == Ordering::Less {
            self.best = v;
            self.best_map = Some(m.clone());
        }
    }

    fn note_open(&mut self, b: Value) {
        self.open_bound = min_value(self.open_bound, b);
    }

    fn out_of_time(&mut self) -> bool {
        if !self.timed_out
            && (self.nodes >= self.node_limit
                || self.nodes.is_multiple_of(CLOCK_EVERY)
                    && psmr_core::clock::now_ns() >= self.deadline_ns)
        {
            self.timed_out = true;
        }
        self.timed_out
    }

    /// Search every mode vector whose root bound may beat the incumbent,
    /// best bound first; on timeout the unexplored roots stay open.
    fn run_roots(&mut self, roots: &[(Value, ModeModel)]) {
        for (k, (root_bound, model)) in roots.iter().enumerate() {
            if self.timed_out {
                for (b, _) in &roots[k..] {
                    self.note_open(*b);
                }
                break;
            }
            if root_bound.no_better_than(&self.best) {
                continue;
            }
            self.run(model);
        }
    }

    /// The final branch and bound, in rounds: each round searches every
    /// mode vector not yet finished, best root bound first, with a node
    /// budget per vector ([`ROUND_NODES`], then four times more each
    /// round), from scratch but with the incumbent improved by every
    /// earlier round. A vector whose search completes, or whose root bound
    /// cannot beat the incumbent, is finished. So a vector with a huge
    /// subtree no longer holds the search while better mappings wait in
    /// later vectors (issue 30), and restarting costs at most a third more
    /// nodes than a single pass. On timeout, `open_bound` is the least
    /// bound left open in an unfinished vector (the open nodes of its last
    /// round, or its root bound if it never ran).
    fn run_rounds(&mut self, roots: &[(Value, ModeModel)]) {
        let (limit, deadline) = (self.node_limit, self.deadline_ns);
        let mut open: Vec<Option<Value>> = roots.iter().map(|r| Some(r.0)).collect();
        let mut budget = ROUND_NODES;
        let mut stopped = false;
        while !stopped && open.iter().any(Option::is_some) {
            for (k, (root_bound, model)) in roots.iter().enumerate() {
                if open[k].is_none() {
                    continue;
                }
                if root_bound.no_better_than(&self.best) {
                    open[k] = None;
                    continue;
                }
                self.node_limit = self.nodes.saturating_add(budget).min(limit);
                self.open_bound = Value::INFINITE;
                self.timed_out = false;
                self.run(model);
                open[k] = self.timed_out.then_some(self.open_bound);
                if self.timed_out && (self.nodes >= limit || psmr_core::clock::now_ns() >= deadline)
                {
                    stopped = true;
                    break;
                }
            }
            budget = budget.saturating_mul(4);
        }
        self.node_limit = limit;
        self.open_bound = Value::INFINITE;
        self.timed_out = false;
        for b in open.into_iter().flatten() {
            if !b.no_better_than(&self.best) {
                self.timed_out = true;
                self.note_open(b);
            }
        }
    }

    /// A short branch and bound (at most [`DIVE_NODES`] nodes) in every
    /// mode vector whose root bound may beat the incumbent, best bound
    /// first, within `total` nodes and `deadline_ns`. Only the incumbent is
    /// kept: the full search afterwards covers every root again. Without
    /// it, a root with a low bound and a huge subtree (issue 30: every class
    /// sequential, bound 1.0, against an optimum of 1.30 in the root where
    /// two independent classes are concurrent) keeps the naive incumbent
    /// and so prunes nothing.
    fn dive_roots(&mut self, roots: &[(Value, ModeModel)], total: u64, deadline_ns: u64) {
        let (limit, deadline) = (self.node_limit, self.deadline_ns);
        let end = self.nodes.saturating_add(total).min(limit);
        self.deadline_ns = deadline_ns.min(deadline);
        for (root_bound, model) in roots {
            if self.nodes >= end || psmr_core::clock::now_ns() >= self.deadline_ns {
                break;
            }
            if root_bound.no_better_than(&self.best) {
                continue;
            }
            self.node_limit = self.nodes.saturating_add(DIVE_NODES).min(end);
            self.run(model);
            self.timed_out = false;
        }
        self.open_bound = Value::INFINITE;
        (self.node_limit, self.deadline_ns) = (limit, deadline);
    }

    fn run(&mut self, m: &ModeModel) {
        let root = Node::root(self.problem.threads);
        self.place(m, &root, 0);
    }

    /// Place class `m.order[i]` in every way that may beat the incumbent.
    fn place(&mut self, m: &ModeModel, node: &Node, i: usize) {
        self.nodes += 1;
        let bound = m.node_bound(node, i, &self.best);
        if bound.no_better_than(&self.best) {
            return;
        }
        if self.out_of_time() {
            self.note_open(bound);
            return;
        }
        if i == m.order.len() {
            let v = node.value();
            if v.cmp_lex(&self.best) == Ordering::Less {
                self.best = v;
                self.best_map = Some(node.to_ctot(m));
            }
            return;
        }
        let c = m.order[i];
        if m.is_conc(c) {
            self.place_conc(m, node, i, c);
        } else {
            self.place_seq(m, node, i, c);
        }
        if self.timed_out {
            self.note_open(bound);
        }
    }

    fn place_conc(&mut self, m: &ModeModel, node: &Node, i: usize, c: usize) {
        let sharers = m.sharers(i);
        let rest = m.rest_bound_split(node, i, i + 1, &self.best);
        let k = node.orbits.len();
        let per: Vec<(u32, f64)> = node
            .orbits
            .iter()
            .map(|o| (m.o3_add(c, o.col), m.split_charge(c, o.col, &sharers)))
            .collect();
        // Visit orbits that add no O.3 and cost least first.
        let mut visit: Vec<usize> = (0..k).collect();
        visit.sort_by(|&a, &b| per[a].0.cmp(&per[b].0).then(per[a].1.total_cmp(&per[b].1)));
        let target = (m.wbar[c] * self.problem.threads as f64).round().max(1.0) as usize;
        let mut ctx = ConcCtx {
            m,
            node,
            i,
            c,
            per,
            visit,
            rest,
            target,
            take: vec![0; k],
            suffix_cap: Vec::new(),
        };
        ctx.suffix_cap = suffix_caps(&ctx.visit, node);
        self.conc_orbits(&mut ctx, 0, 0, 0, 0.0);
    }

    /// Choose how many threads concurrent `ctx.c` takes from the orbit
    /// `ctx.visit[v]`, having taken `x` so far with O.3 `o3` and split
    /// charge `split`.
    fn conc_orbits(&mut self, ctx: &mut ConcCtx, v: usize, x: usize, o3: u32, split: f64) {
        self.nodes += 1;
        if self.out_of_time() {
            return;
        }
        let node = ctx.node;
        let cap = ctx.suffix_cap[v];
        let bound = Value {
            o3: node.o3 + o3 + ctx.rest.o3,
            cost: node.cost + split + ctx.m.g_min(ctx.c, x.max(1), x + cap) + ctx.rest.cost,
        };
        if bound.no_better_than(&self.best) {
            return;
        }
        if v == ctx.visit.len() {
            let add = 1u64 << ctx.c | ctx.m.forced[ctx.c];
            let mut child = node.child(ctx.m, &ctx.take, add);
            child.cost += ctx.m.g(ctx.c, x);
            self.place(ctx.m, &child, ctx.i + 1);
            return;
        }
        let j = ctx.visit[v];
        let len = node.orbits[j].len;
        let (d, ch) = ctx.per[j];
        let want = ctx.target.saturating_sub(x).min(len);
        for k in count_order(want, len) {
            ctx.take[j] = k;
            self.conc_orbits(ctx, v + 1, x + k, o3 + d * k as u32, split + ch * k as f64);
            if self.timed_out {
                break;
            }
        }
        ctx.take[j] = 0;
    }

    fn place_seq(&mut self, m: &ModeModel, node: &Node, i: usize, s: usize) {
        // R.5 partners: sequential classes placed before `s` that conflict with it.
        let earlier: u64 = m.order[..i]
            .iter()
            .filter(|&&o| !m.is_conc(o))
            .fold(0, |acc, &o| acc | 1 << o);
        let partners = m.p.conflicts[s] & earlier & !(1 << s);
        let mut met = 0u64;
        let mut has_thread = false;
        for o in &node.orbits {
            if o.col & 1 << s != 0 {
                met |= o.col & partners;
                has_thread = true;
            }
        }
        let rest = m.rest_bound(node, i + 1, &self.best);
        let k = node.orbits.len();
        let free: Vec<usize> = (0..k)
            .filter(|&j| node.orbits[j].col & 1 << s == 0)
            .collect();
        // Orbits that meet an unmet partner first.
        let mut visit = free;
        visit.sort_by_key(|&j| {
            std::cmp::Reverse((node.orbits[j].col & partners & !met).count_ones())
        });
        let mut reach = vec![0u64; visit.len() + 1];
        for v in (0..visit.len()).rev() {
            reach[v] = reach[v + 1] | node.orbits[visit[v]].col;
        }
        let mut ctx = SeqCtx {
            m,
            node,
            i,
            s,
            partners,
            visit,
            reach,
            rest,
            take: vec![0; k],
        };
        self.seq_orbits(&mut ctx, 0, met, has_thread, 0, 0.0);
    }

    fn seq_orbits(
        &mut self,
        ctx: &mut SeqCtx,
        v: usize,
        met: u64,
        has_thread: bool,
        o3: u32,
        cost: f64,
    ) {
        self.nodes += 1;
        if self.out_of_time() {
            return;
        }
        let unmet = ctx.partners & !met;
        if unmet & !ctx.reach[v] != 0 || (!has_thread && v == ctx.visit.len()) {
            return; // R.5 or R.1 can no longer be met.
        }
        let node = ctx.node;
        // Extra threads still needed: one per partner that cannot share a
        // remaining thread with another when O.3 is tight, else one if any
        // requirement (R.1, R.5) is open.
        let tight = node.o3 + o3 >= self.best.o3;
        let need = if tight && unmet != 0 {
            ctx.m.separate_partners(unmet, &ctx.remaining(v)).max(1)
        } else {
            usize::from(unmet != 0 || !has_thread)
        };
        let need_one = ctx.m.alpha[ctx.s] * need as f64;
        let bound = Value {
            o3: node.o3 + o3 + ctx.rest.o3,
            cost: node.cost + cost + need_one + ctx.rest.cost,
        };
        if bound.no_better_than(&self.best) {
            return;
        }
        if v == ctx.visit.len() {
            let child = node.child(ctx.m, &ctx.take, 1 << ctx.s);
            self.place(ctx.m, &child, ctx.i + 1);
            return;
        }
        let j = ctx.visit[v];
        let o = &node.orbits[j];
        let (len, col) = (o.len, o.col);
        let d = ctx.m.pairs(col | 1 << ctx.s) - ctx.m.pairs(col);
        for k in 0..=len {
            ctx.take[j] = k;
            let (met2, has2) = if k > 0 {
                (met | (col & ctx.partners), true)
            } else {
                (met, has_thread)
            };
            self.seq_orbits(
                ctx,
                v + 1,
                met2,
                has2,
                o3 + d * k as u32,
                cost + ctx.m.alpha[ctx.s] * k as f64,
            );
            if self.timed_out {
                break;
            }
        }
        ctx.take[j] = 0;
    }
}

struct ConcCtx<'n, 'm> {
    m: &'n ModeModel<'m>,
    node: &'n Node,
    i: usize,
    c: usize,
    /// Per orbit: O.3 added per thread, split charge per thread.
    per: Vec<(u32, f64)>,
    visit: Vec<usize>,
    rest: Value,
    target: usize,
    take: Vec<usize>,
    /// Threads in `visit[v..]`.
    suffix_cap: Vec<usize>,
}

impl SeqCtx<'_, '_> {
    /// The orbits still to decide, `visit[v..]`.
    fn remaining(&self, v: usize) -> Vec<Orbit> {
        self.visit[v..]
            .iter()
            .map(|&j| self.node.orbits[j].clone())
            .collect()
    }
}

struct SeqCtx<'n, 'm> {
    m: &'n ModeModel<'m>,
    node: &'n Node,
    i: usize,
    s: usize,
    partners: u64,
    visit: Vec<usize>,
    /// Union of the columns of `visit[v..]`.
    reach: Vec<u64>,
    rest: Value,
    take: Vec<usize>,
}

fn suffix_caps(visit: &[usize], node: &Node) -> Vec<usize> {
    let mut caps = vec![0; visit.len() + 1];
    for v in (0..visit.len()).rev() {
        caps[v] = caps[v + 1] + node.orbits[visit[v]].len;
    }
    caps
}

/// `0..=len` starting at `want` and moving outwards (`want, want-1, want+1,
/// ...`), so the first leaf reached is near the proportional share.
fn count_order(want: usize, len: usize) -> Vec<usize> {
    let mut out = Vec::with_capacity(len + 1);
    out.push(want);
    let mut d = 1;
    while out.len() <= len {
        if want >= d {
            out.push(want - d);
        }
        if want + d <= len {
            out.push(want + d);
        }
        d += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn count_order_covers_every_count_once() {
        for len in 0..6 {
            for want in 0..=len {
                let mut v = count_order(want, len);
                assert_eq!(v[0], want);
                v.sort_unstable();
                assert_eq!(v, (0..=len).collect::<Vec<_>>());
            }
        }
    }
}
