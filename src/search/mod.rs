//! Search: the plain reference alpha-beta and the fast exact solver (with
//! the history-aware transposition table in [`tt`]).
//!
//! Both compute the same thing: the minimax value, from Black's side, of the
//! area difference (Black − White, komi excluded) at the end of the game,
//! under the game's real history. Komi is a constant added to every final
//! score, so it never changes the best play; it is applied only when a value
//! is reported ([`Solution::value_with_komi`]).
//!
//! [`solve`] runs the fast solver through the root driver: the exact value
//! of every legal root move (each by a sequence of null-window tests chosen
//! by the value driver, inside the range the value cannot leave), the root
//! value as their best (or, value only, the root's tests alone), and a
//! principal variation found by testing children with a null window at the
//! known value. [`prove_claim`] decides one bound with one such test.
//! [`solve_reference`] runs the plain reference search, which has its own
//! root driver, so that the two share only the rules.
//!
//! # Where the code is
//!
//! Each folder is one concern. Imports go one way, from a folder to those
//! listed before it (never back), and no two files import each other (a
//! child file that adds methods to its parent's type, as `solver/dfpn.rs`
//! to the `Solver`, is part of it):
//!
//! - `tuning`: every knob of the search (budgets, schedules, weights, cache
//!   sizes), one line each, and why none of them can change a value.
//! - [`tree`]: the searched game tree — [`tree::node`] (a node and its
//!   legal children), [`tree::path`] (the history as the solver keeps it,
//!   which superko reads), [`tree::hash`] (every hash function).
//! - [`ordering`]: what orders the work and nothing else —
//!   [`ordering::moves`] (the alpha-beta's move tiers, the history
//!   heuristic, the nearer-colour estimate), [`ordering::guess`] (df-pn's
//!   score guess), [`ordering::policy`] (the 3x3 move prior),
//!   `ordering::playout` (random playouts on large positions).
//! - [`tt`]: the transposition table — the soundness argument under
//!   superko ([`tt`] itself), dependencies ([`tt::dep`]), entries
//!   ([`tt::entry`]) and storage ([`tt::storage`]).
//! - `bounds`: exact bounds checked against the history (`bounds::guarded`:
//!   guarded regions; Benson and local games are the rules' own,
//!   [`crate::rules::life`], [`crate::rules::region`]).
//! - [`memory`]: what outlives one solve — the table and df-pn's guide
//!   (`memory::guide`) kept together as a [`Memory`], and the default
//!   table size.
//! - [`types`]: what a solve is asked and gives back —
//!   [`types::options`], [`types::outcome`] (the [`Solution`] or the
//!   [`SolveError`]), and `types::stop` (limits, internal stop reasons).
//! - [`engines`]: the searches — `engines::searcher` (what the drivers ask
//!   of a search), `engines::value_driver` (which null-window test next),
//!   [`engines::solver`] (alpha-beta with iterative deepening, and its
//!   df-pn in `engines::solver::dfpn`) and the independent
//!   [`engines::reference`].
//! - [`drivers`]: the entry points and how threads share a solve —
//!   [`drivers::root`] (one root driver for 1 to N threads),
//!   `drivers::root_moves` (the root and its moves' orbits),
//!   [`drivers::spread`] (a value-only solve's tests over N threads),
//!   [`drivers::claim`] (with `drivers::focus`: a claim's first moves tried
//!   alone), [`drivers::entry`] (a table entry: the value and which root
//!   moves reach it, many positions on one solver), [`drivers::pv`] (principal variations), [`drivers::probe`] (a
//!   value with a hint when stopped), [`drivers::threads`] and
//!   [`drivers::bench`] (the node-count benchmark).

pub(crate) mod bounds;
pub mod drivers;
pub mod engines;
pub mod memory;
pub mod ordering;
pub mod tree;
pub mod tt;
pub(crate) mod tuning;
pub mod types;

pub use drivers::bench;
pub use drivers::claim::{Claim, ClaimResult};
pub use drivers::entry::{EntryResult, EntrySearch, ENTRY_STACK};
pub use drivers::probe::{solve_value_or_hint, Probe};
pub use drivers::{prove_claim, solve, solve_reference};
pub use memory::{machine_table_mb, machine_table_mb_shared, Memory};
pub use tree::node::{Node, INF};
pub use types::options::{
    ClaimMovesLog, ClaimSeen, Engine, MoveClaim, ProgressFn, RootMoveFn, RootMoveLog, SolveOptions, StatsLog, Trace,
};
pub use types::outcome::{meet_bounds, BoundsLog, MoveValue, Progress, Solution, SolveError, Stats};
