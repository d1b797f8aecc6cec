//! gosolve: exact perfect-play solving of Go on tiny boards under the
//! Tromp-Taylor rules, with positional (or situational) superko.
//!
//! Layering (as in ripgrep, the CLI only wires these together):
//! - [`geometry`]: board shape, bitboards, neighbours, point names.
//! - [`position`]: the `Copy` coloring and the rules (move, clearing, area score).
//! - [`history`]: turn, passes, superko record; [`history::Game`] ties them together.
//! - [`life`]: Benson's unconditional life and the score bounds it gives.
//! - [`symmetry`]: the board's symmetries.
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
pub mod geometry;
pub mod gtp;
pub mod history;
pub mod life;
pub mod limits;
pub mod position;
pub mod progress;
pub mod search;
pub mod store;
pub mod symmetry;
pub mod table;

pub use geometry::Geometry;
pub use history::{Game, GameError, History};
pub use position::{Color, IllegalMove, Komi, Move, Position, Rules, Superko};
