//! Text formats: ASCII diagrams and SGF.
pub mod diagram;
pub mod sgf;
pub mod solution;
