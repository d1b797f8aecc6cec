//! Subcommands, one module each. Shared argument groups live in `common`.
//!
//! Standard output: `print!` and `println!` below shadow the standard macros
//! in every subcommand. The standard ones panic when stdout is a closed pipe
//! (`gosolve check | head -1`); these exit quietly with status 0 there, as
//! Unix tools do, and report any other write error in one line.
//!
//! Exit status: 2 for a usage error (clap's, and ours: [`common::Usage`],
//! raised with `bail_usage!`), 1 for any other failure.

/// Write to stdout; a closed pipe ends the process quietly (see the module doc).
pub fn write_stdout(args: std::fmt::Arguments) {
    use std::io::Write;
    if let Err(e) = std::io::stdout().lock().write_fmt(args) {
        exit_on_stdout_error(e);
    }
}

/// A write to stdout failed: a closed pipe exits 0, anything else exits 1
/// with one line.
pub fn exit_on_stdout_error(e: std::io::Error) -> ! {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        std::process::exit(0);
    }
    eprintln!("gosolve: error: cannot write to standard output: {}", e);
    std::process::exit(1);
}

macro_rules! print {
    ($($arg:tt)*) => { $crate::cli::write_stdout(format_args!($($arg)*)) };
}

macro_rules! println {
    () => { $crate::cli::write_stdout(format_args!("\n")) };
    ($($arg:tt)*) => { $crate::cli::write_stdout(format_args!("{}\n", format_args!($($arg)*))) };
}

/// Return a usage error ([`common::Usage`]: exit status 2) from a function
/// returning `anyhow::Result`, with `format!` arguments.
macro_rules! bail_usage {
    ($($arg:tt)*) => { return Err($crate::cli::common::Usage(format!($($arg)*)).into()) };
}

pub mod batch;
pub mod bench;
pub mod check;
pub mod checkpoint;
pub mod common;
pub mod count;
pub mod gtp;
pub mod interrupt;
pub mod progress;
pub mod replay;
pub mod solve;
pub mod table;
pub mod verify;
pub mod worker;
