//! Search: the plain reference alpha-beta ([`reference`]) and the fast exact
//! solver ([`solver`], with the history-aware transposition table in [`tt`]).
//!
//! Both compute the same thing: the minimax value, from Black's side, of the
//! area difference (Black − White, komi excluded) at the end of the game,
//! under the game's real history. Komi is a constant added to every final
//! score, so it never changes the best play; it is applied only when a value
//! is reported ([`Solution::value_with_komi`]).
//!
//! [`solve`] runs the fast solver through the root driver ([`root`]): the
//! exact value of every legal root move (each by a sequence of null-window
//! tests chosen by the value driver, [`driver`], inside the range the value
//! cannot leave), the root value as their best (or, value only, the root's
//! tests alone), and a principal variation found by testing children with a
//! null window at the known value ([`pv`]). [`prove_claim`] decides one
//! bound with one such test ([`claim`]). [`solve_reference`] runs the plain
//! reference search, which has its own root driver (see [`reference`]), so
//! that the two share only the rules.
//!
//! # Where the code is
//!
//! Imports go one way: the shared types first, then the table and the
//! engines, then the drivers on top.
//!
//! - shared types: [`node`] (the searched node, its legal children),
//!   [`options`] (what a caller asks), [`outcome`] (what it gets back),
//!   [`stop`] (limits, public errors, internal stop reasons), [`path`] (the
//!   history as the solver keeps it), [`hash`] (every hash function);
//! - the table: [`tt`] (the soundness argument, dependencies, entries,
//!   storage);
//! - the engines: [`solver`] (alpha-beta with iterative deepening, and
//!   df-pn), its move order [`ordering`], df-pn's score guess [`guess`]
//!   and move prior [`policy`],
//!   the interface the drivers use
//!   ([`searcher`]), and the independent [`reference`];
//! - the drivers: [`driver`] (the value driver), [`root`] (one root driver
//!   for 1 to N threads), [`spread`] (a value-only solve's tests over N
//!   threads), [`pv`] (principal variations), [`claim`] (with `focus`: a
//!   claim's first moves tried alone), [`probe`] (a value
//!   with a hint when stopped), [`threads`], and [`bench`].

pub mod bench;
pub mod claim;
pub mod driver;
pub(crate) mod focus;
pub(crate) mod guarded;
pub mod guess;
pub mod hash;
pub mod memory;
pub mod node;
pub mod options;
pub mod ordering;
pub mod outcome;
pub mod path;
pub(crate) mod playout;
pub mod policy;
pub mod probe;
pub mod pv;
pub mod reference;
pub mod root;
pub mod searcher;
pub mod solver;
pub mod spread;
pub mod stop;
pub mod threads;
pub mod tt;

pub use claim::{Claim, ClaimResult};
pub use memory::Memory;
pub use node::{Node, INF};
pub use options::{
    machine_table_mb, machine_table_mb_shared, BoundsLog, ClaimMovesLog, Engine, MoveClaim, ProgressFn, RootMoveFn,
    RootMoveLog, SolveOptions, StatsLog,
};
pub use outcome::{MoveValue, Progress, Solution, Stats};
pub use stop::SolveError;

use crate::rules::history::Game;
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
/// alpha-beta, its own history, move loop and root driver: see [`reference`]).
pub fn solve_reference(game: &Game, opts: &SolveOptions) -> Result<Solution, SolveError> {
    with_deep_stack(|| reference::Reference::new(game.geo, game.rules, opts).solve(game, opts))
}
