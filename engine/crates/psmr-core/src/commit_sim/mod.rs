//! Commit streams: committed ePaxos instances, and a simulator that makes
//! them.
//!
//! A *commit stream* is what ePaxos execution (paper 004, Algorithm 2)
//! consumes: instances in the order they commit, each a batch of one or more
//! commands, with the instances it depends on and a sequence number. A
//! dependency may name an instance that commits later, and dependencies may
//! form cycles; execution resolves both with SCCs ([`crate::scc`]).
//!
//! [`simulate`] produces such a stream by playing ePaxos's ordering phase
//! among a few replicas in simulated time, deterministically from a seed.
//! The model, its parameters and what it leaves out are described in
//! `docs/epaxos-commit-model.md`; the short version:
//!
//! * clients' commands arrive one after the other (integer gaps drawn around
//!   a mean) and each goes to a replica chosen at random; that replica leads
//!   the command;
//! * a leader's queue becomes one instance at the next tick of its batch
//!   timer, or at once when it holds `batch_max` commands;
//! * the leader computes the instance's dependencies and seq from what it
//!   has seen, records the instance and sends a PreAccept to every other
//!   replica; each replica, when the message arrives, adds the interfering
//!   instances it has seen, records the instance and replies;
//! * after the first `fast quorum - 1` replies, the leader commits on the
//!   fast path if no reply changed the attributes, otherwise it takes the
//!   slow path: dependencies united, seq the largest, one Accept round to a
//!   majority, then commit;
//! * links are FIFO with a delay plus jitter, so replicas see a leader's
//!   instances in the order it proposed them.
//!
//! Dependencies are kept minimal the way ePaxos implementations keep them:
//! per cell and per leader, a replica remembers only the leader's latest
//! write and the leader's reads since that write. A new instance depends on
//! those entries that interfere with it (a read on the latest writes, a
//! write on the latest writes and the reads after them). Older interfering
//! instances are still ordered, through the leader's own chain: a leader
//! always sees its own earlier instances, so its newer write on a cell
//! depends on its previous write and on its reads in between.
//!
//! What holds for every stream [`simulate`] returns (tested in `sim`):
//! * two interfering instances are joined by a dependency path in at least
//!   one direction (the quorums of any two instances share a replica, and
//!   that replica saw one of them first);
//! * for every dependency `a -> b`, `seq(a) > proposed_seq(b)`, the seq
//!   `b`'s leader put in its PreAccept: whoever added `b` to `a`'s
//!   dependencies knew `b` with at least that seq. Hence `seq(a) > seq(b)`
//!   whenever `b` committed on the fast path (its seq did not change).
//!   When `b` took the slow path its committed seq may have grown past
//!   `a`'s, even if `b` does not depend on `a` (different SCCs). Nothing
//!   more holds, which is why execution orders SCCs by their dependencies
//!   and uses seq only inside an SCC.
//!
//! The files: `spec` (the commands' footprints, [`CommitSimSpec`], errors),
//! `sim` (the simulator), `commit_stream` ([`CommitStream`]), `sccs` (SCC
//! histogram, execution order), `json` (the JSON shape), `limits`.

mod commit_stream;
mod json;
mod limits;
mod sccs;
mod sim;
mod spec;

pub use commit_stream::{CommitStream, StreamParts};
pub use json::{CommitStreamJson, InstanceJson, ShapeError};
pub use limits::{
    MAX_BATCH, MAX_COMMANDS, MAX_REPLICAS, MAX_SIM_DEPS, MAX_STREAM_DEPS, MAX_TIME_NS, MAX_TOUCHES,
    MAX_VIEW_ENTRIES,
};
pub use sccs::{execution_order, scc_histogram, SccHistogram};
pub use sim::{simulate, InstanceMeta, Simulation};
pub use spec::{CommitSimError, CommitSimSpec, FlatFootprints, Footprints, Touch};
