//! Which families this engine package holds (issue 30): one cargo feature
//! per family, read here and nowhere else in Rust. A leaf module, so the
//! parameter readers and the registry can both ask it without an import
//! circle through lib.rs.

use psmr_core::Family;

/// Whether `family`'s code is compiled into this engine: its cargo feature,
/// named as the family ([`Family::as_str`]), is on. Sequential is always in.
///
/// The one place a family's feature is named in Rust, but for the parameter
/// objects' `cfg_attr` lines in lib.rs's `scheduler_spec!` (an attribute
/// needs the literal; psmr-scenario's `tests/left_out.rs` checks they agree
/// with this): [`FAMILIES`](crate::FAMILIES), the parameter objects' readers
/// and the `Params` checks ask this. The match is exhaustive, so a new
/// [`Family`] does not compile until it has its arm here (then its feature in
/// Cargo.toml, which `tests/features.rs` checks against
/// [`families`](crate::families)).
pub const fn compiled_in(family: Family) -> bool {
    match family {
        Family::Sequential => true,
        Family::Early => cfg!(feature = "early"),
        Family::WorkStealing => cfg!(feature = "work-stealing"),
        Family::Late => cfg!(feature = "late"),
        Family::Epaxos => cfg!(feature = "epaxos"),
        Family::Repartitioning => cfg!(feature = "repartitioning"),
        Family::Coloring => cfg!(feature = "coloring"),
    }
}
