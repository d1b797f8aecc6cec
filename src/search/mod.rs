//! Search: the plain reference alpha-beta and the fast exact solver.
pub mod reference;
