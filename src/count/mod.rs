//! Counting: legal positions and complete games, the "perft" of Go.
pub mod games;
pub mod legal;
pub use legal::CountError;
