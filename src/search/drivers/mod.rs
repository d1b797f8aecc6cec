//! The drivers: a solve's entry points ([`solve`], [`prove_claim`],
//! [`solve_reference`]) and how they share the work between threads. A
//! solve goes through the root driver ([`root`]; a value-only solve on
//! several threads spreads the value driver's tests, [`spread`]), a claim
//! through [`claim`] (with `focus`: the claimant's first moves tried
//! alone), and both end with a principal variation ([`pv`]); [`decided`]
//! reads what a test (a claim's, a value-only solve's) already knows after
//! each root move, while it runs and where it stopped. [`probe`] is
//! a value-only solve that still names a move when stopped; [`entry`]
//! a table entry's search (many positions on one solver); [`threads`]
//! holds the stacks and thread pools, [`bench`](mod@bench) the node-count benchmark.

pub mod bench;
pub mod claim;
pub(crate) mod decided;
pub mod entry;
pub(crate) mod focus;
pub mod probe;
pub mod pv;
pub mod root;
pub(crate) mod root_moves;
pub mod spread;
pub mod threads;

use super::types::options::SolveOptions;
use super::types::outcome::{Solution, SolveError};
use crate::rules::history::Game;
use claim::{Claim, ClaimResult};
use threads::with_deep_stack;

/// Solve with the fast exact solver.
///
/// With more than one thread the root moves are solved in parallel, and
/// threads left over help on the moves still open, all sharing one
/// transposition table (see [`root`]). Each root move's value is exact
/// whoever computes it and whatever the table holds, so the answer is the
/// same for any thread count; only the node counts differ.
pub fn solve(game: &Game, opts: &SolveOptions) -> Result<Solution, SolveError> {
    check_memory(game, opts)?;
    with_deep_stack(|| root::solve(game, opts))
}

/// Decide a claim about the game's current position with one null-window
/// test of the fast solver (threads beyond the first help on the same test,
/// sharing the table, as on a root move of a parallel solve).
pub fn prove_claim(game: &Game, claim: Claim, opts: &SolveOptions) -> Result<ClaimResult, SolveError> {
    check_memory(game, opts)?;
    with_deep_stack(|| claim::prove_claim(game, claim, opts))
}

/// A memory given in the options must be for the game's board and rules.
fn check_memory(game: &Game, opts: &SolveOptions) -> Result<(), SolveError> {
    match &opts.memory {
        Some(m) if !m.fits(&game.geo, &game.rules) => Err(SolveError::MemoryMismatch(format!(
            "the search memory is for {}, not for {} under {}",
            m.geometry().name(),
            game.geo.name(),
            game.rules.describe()
        ))),
        _ => Ok(()),
    }
}

/// Solve with the plain reference search (no table, no pruning beyond
/// alpha-beta, its own history, move loop and root driver: see
/// [`crate::search::engines::reference`]).
pub fn solve_reference(game: &Game, opts: &SolveOptions) -> Result<Solution, SolveError> {
    with_deep_stack(|| super::engines::reference::Reference::new(game.geo, game.rules, opts).solve(game, opts))
}
