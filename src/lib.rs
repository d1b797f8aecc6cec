//! gosolve: exact perfect-play solving of Go on tiny boards under the
//! Tromp-Taylor rules, with positional (or situational) superko.
//!
//! Layering (as in ripgrep, the CLI only wires these together):
//! - [`rules`]: the rules core (geometry, position, the one move generator,
//!   history and superko, Benson's life, symmetries).
//! - [`format`]: text diagrams, SGF, solutions as SGF.
//! - [`gtp`]: the GTP engine (play, exact analysis for GUIs).
//! - [`count`]: legal positions and complete games (the perft of Go).
//! - [`search`]: the plain reference search and the fast exact solver.
//! - [`table`], [`store`]: solved tables on disk (bincode behind `store`).
//! - [`limits`]: checks of user-given limits (seconds, nodes, table memory).
//! - [`batch`], [`progress`]: manifests of solve jobs, progress display.
//! - [`catalogue`]: documented and published claims, checked by the solver.

pub mod batch;
pub mod catalogue;
pub mod count;
pub mod format;
pub mod gtp;
pub mod limits;
pub mod process;
pub mod rules;
pub mod search;
pub mod store;
pub mod tables;

pub use rules::geometry::Geometry;
pub use rules::history::{Game, GameError, History};
pub use rules::position::{Color, IllegalMove, Komi, Move, Position, Rules, Superko};
