//! Text formats: ASCII diagrams, SGF, signed values and digit groups.
pub mod diagram;
pub mod numbers;
pub mod sgf;
pub mod solution;
