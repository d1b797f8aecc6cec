//! `gosolve solve ... --workers N`: one claim, one value or every move's
//! value spread over workers by a job-level proof-number search.
//!
//! The manager keeps the top of the AND/OR tree ([`tree`]): positions
//! reached by real moves from the solve's position (legality by the rules
//! core, superko under the whole history), each with the bounds on its
//! value proved so far and what proved them. For a test "value ≥ b" Black
//! to move is an OR node and White to move an AND node; the proof and
//! disproof numbers ([`pns`]) choose the most-proving leaves, one per idle
//! worker, and each is sent as a claim unit ([`crate::distributed::ClaimWork`])
//! with a node budget. A leaf that comes back undecided is expanded (every
//! legal move, pass included; the answer's root moves decide some children
//! at once), or, too deep, sent again with twice the budget. Between
//! rounds the workers' checkpoint deltas are merged into one shared
//! checkpoint (the exact merge) that every later unit reads
//! ([`run`]). A value is found by the search's value driver, each test a
//! distributed test; every move's value by one driver a move, all at once
//! ([`manager`]).
//!
//! Exactness: a bound enters the tree only from the rules core (the score,
//! Benson's bounds) or from a worker's exact answer (the worker's solver),
//! and is carried up by AND/OR alone, so the value or claim reported is
//! the one-process solve's. At the end the proof is written as SGF
//! ([`proof`]), checked in pieces by `gosolve verify` ([`verify()`]).
//!
//! The manager's state is on disk ([`state`], written by [`run`]): killed at any moment, the same
//! command goes on without losing a proved claim. [`simulate`] replays a
//! run's recorded answers through the same policy for more workers.

pub mod manager;
pub mod pns;
pub mod proof;
pub mod run;
pub mod simulate;
pub mod state;
pub mod tree;
pub mod verify;

pub use manager::{Bound, Manager, Mode, Policy, Reply};
pub use run::{run_solve, RoundInfo, SolveJob, SolveReport};
pub use state::State;
pub use verify::{verify, VerifyOptions, VerifyReport};

use crate::distributed::scheduler::Observer;

/// Told what a distributed solve does: the scheduler's unit events, and a
/// line of the manager's after every round.
pub trait SolveObserver: Observer {
    fn round(&self, _info: &RoundInfo) {}
}

/// An observer that ignores everything.
pub struct Quiet;
impl Observer for Quiet {}
impl SolveObserver for Quiet {}
