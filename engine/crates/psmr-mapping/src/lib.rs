//! # psmr-mapping
//!
//! Classes-to-threads mappings (CtoT) for early scheduling (paper 003
//! section 4, paper 000 section 3.3): each class gets a synchronization
//! [`Mode`] and a set of worker threads.
//!
//! * [`rules`]: validation against rules R.1-R.5;
//! * [`naive`]: the naive mapping of paper 003 section 6.5;
//! * [`optimizer`]: the mapping optimizer (paper 003 section 5.1), an exact
//!   branch and bound with a local search for its first incumbent and a
//!   requirement-clique bound on O.3, described in
//!   `docs/mapping-optimizer.md`;
//! * [`resolve`]: what schedulers call to turn a scenario's [`MappingSpec`]
//!   into a rule-abiding [`CtoT`].

mod cache;
mod ctot;
#[cfg(test)]
mod fresh_tests;
#[cfg(test)]
mod instances;
mod mask;
pub mod naive;
mod o3_bound;
pub mod optimizer;
#[cfg(test)]
mod optimizer_tests;
mod resolve;
pub mod rules;
#[cfg(test)]
pub(crate) mod testing;

pub use ctot::{ClassMapping, CtoT, MappingSpec, Mode, ResolvedMapping};
pub use resolve::resolve;
