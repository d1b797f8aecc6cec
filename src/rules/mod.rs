//! The rules core: everything the Tromp-Taylor rules decide, and nothing
//! about searching or storing. Every other layer builds on this one and
//! this one imports none of them.
//!
//! - [`geometry`]: board shape, bitboards, neighbours, point names.
//! - [`position`]: the `Copy` coloring, colours, moves, rule options, area score.
//! - [`movegen`]: the one move generator (placements legal apart from superko).
//! - [`history`]: turn, passes, superko record; [`history::Game`] ties them together.
//! - [`life`]: Benson's unconditional life and the score bounds it gives.
//! - [`region`]: the local game of a small region of pass-alive stones.
//! - [`symmetry`]: the board's symmetries.

pub mod geometry;
pub mod history;
pub mod life;
pub mod movegen;
pub mod position;
pub mod region;
pub mod symmetry;
