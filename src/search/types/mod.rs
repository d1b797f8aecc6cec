//! What a solve is asked and what it gives back: the caller's
//! [`options::SolveOptions`], the [`outcome::Solution`] or
//! [`outcome::SolveError`], and (`stop`) the limits every search checks
//! and the internal reasons a search inside a solve stops early.

pub mod options;
pub mod outcome;
pub(crate) mod stop;
