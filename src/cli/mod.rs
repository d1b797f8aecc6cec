//! Subcommands, one module each. Shared argument groups live in `common`.
pub mod batch;
pub mod bench;
pub mod check;
pub mod common;
pub mod count;
pub mod replay;
pub mod solve;
pub mod table;
