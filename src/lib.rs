//! gosolve: exact perfect-play solving of Go on tiny boards under the
//! Tromp-Taylor rules, with positional (or situational) superko.
//!
//! Layering, one folder per layer; imports go one way, down the list:
//! rules → search, count, format → tables, catalogue, gtp → batch →
//! distributed → the command line (`src/cli/`, in the binary: as in ripgrep it only wires the
//! library together, and owns the terminal: progress display and Ctrl-C).
//! - [`rules`]: the rules core: geometry, position, the one move generator,
//!   history and superko, Benson's life, symmetries.
//! - [`search`]: the plain reference search and the fast exact solver.
//! - [`count`]: legal positions and complete games (the perft of Go).
//! - [`format`](mod@format): text diagrams, SGF, solutions as SGF, signed values.
//! - [`tables`]: solved tables of every position of a board: on-disk format,
//!   building with resume, symmetric images.
//! - [`catalogue`]: documented and published claims: loading, checking with
//!   the solver, the results.
//! - [`gtp`]: the GTP engine (play, exact analysis for GUIs).
//! - [`batch`]: manifests of solve jobs, running them, their records and
//!   summary.
//! - [`distributed`]: units of work run by worker processes here or on a
//!   Slurm cluster, exchanged through a shared work dir: distributed
//!   batches and sharded table builds.
//!
//! Below every layer, plain utilities: [`store`] (bincode and atomic file
//! writes), [`limits`] (checks of user-given seconds, nodes, table memory),
//! [`process`] (peak memory, machine, date for the records).
//! Compiled-in data (the claim catalogue, the default batch manifest) is in
//! `data/`; `results/` only records outputs.

pub mod batch;
pub mod catalogue;
pub mod count;
pub mod distributed;
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
