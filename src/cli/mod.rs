//! Subcommands, one module each. Shared argument groups live in `common`.
pub mod batch;
pub mod check;
pub mod common;
pub mod count;
pub mod gtp;
pub mod replay;
pub mod solve;
pub mod table;
