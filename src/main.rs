//! The `gosolve` command line: parses arguments and wires the library together.
//! Every failure is reported as one line on stderr with a non-zero exit.

mod cli;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "gosolve",
    version = gosolve::process::VERSION,
    about = "Exact perfect-play solver for Go on tiny boards (Tromp-Taylor rules, positional superko)"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Replay a game (SGF or a move list) and report the final position and score.
    Replay(cli::replay::ReplayArgs),
    /// Count legal positions or complete games.
    Count(cli::count::CountArgs),
    /// Solve a position exactly: value, principal variation, value of every move.
    Solve(cli::solve::SolveArgs),
    /// Solved tables on disk: build every position of a board, query one.
    Table(cli::table::TableArgs),
    /// Run a manifest of solve jobs in parallel (built-in default: the published set).
    Batch(cli::batch::BatchArgs),
    /// Check the catalogue of published and documented claims against the solver.
    Check(cli::check::CheckArgs),
    /// The solver's node signature over a fixed list of solves (one thread), with speed.
    Bench(cli::bench::BenchArgs),
    /// Play and analyse over GTP (Sabaki, GoGui, Lizzie, other engines): perfect play, exact values.
    Gtp(cli::gtp::GtpArgs),
    /// Search checkpoints: merge several into one, exactly.
    Checkpoint(cli::checkpoint::CheckpointArgs),
    /// Run one unit of distributed work (started by the managers of --workers, here or on Slurm).
    Worker(cli::worker::WorkerArgs),
    /// Check the proof of a distributed solve: its AND/OR logic by the rules, every leaf proved again.
    Verify(cli::verify::VerifyArgs),
}

/// Parse the command line; a usage error is one line on stderr with exit
/// status 2 (clap's own message spans several lines with the usage).
fn parse() -> Cli {
    match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            // --help, --version: clap prints them (a closed pipe is ignored).
            let _ = e.print();
            std::process::exit(0);
        }
        Err(e) => {
            eprintln!("gosolve: error: {}", one_line(&e.render().to_string()));
            std::process::exit(2);
        }
    }
}

/// The first paragraph of a clap error, joined into one line, with a pointer to --help.
fn one_line(text: &str) -> String {
    let mut parts = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() {
            break;
        }
        parts.push(line.strip_prefix("error: ").unwrap_or(line).to_string());
    }
    format!("{} (see --help)", parts.join(" "))
}

/// Stop with one line if this processor lacks an instruction set the build
/// was compiled for: `.cargo/config.toml` builds for x86-64-v2 (POPCNT and
/// SSE4.2; `RUSTFLAGS` may ask for more), and such a binary on an older
/// processor (or a virtual one that hides them, as QEMU's default model
/// does) would otherwise die of an illegal instruction in the middle of a
/// search. The standard library is built for the baseline, so nothing
/// before this check uses them.
fn check_processor() {
    #[cfg(target_arch = "x86_64")]
    {
        let mut missing = Vec::new();
        macro_rules! need {
            ($($f:tt),*) => {$(
                if cfg!(target_feature = $f) && !std::arch::is_x86_feature_detected!($f) {
                    missing.push($f);
                }
            )*};
        }
        need!("sse3", "ssse3", "sse4.1", "sse4.2", "popcnt", "avx", "avx2", "bmi1", "bmi2", "fma", "lzcnt", "movbe");
        if !missing.is_empty() {
            eprintln!(
                "gosolve: error: this build needs processor instructions this machine lacks ({}); \
                 rebuild for any x86-64 with RUSTFLAGS=\"-C target-cpu=x86-64\" cargo build --release",
                missing.join(", ")
            );
            std::process::exit(1);
        }
    }
}

fn main() {
    check_processor();
    let cli = parse();
    let result = match cli.command {
        Command::Replay(a) => cli::replay::run(a),
        Command::Count(a) => cli::count::run(a),
        Command::Solve(a) => cli::solve::run(a),
        Command::Table(a) => cli::table::run(a),
        Command::Batch(a) => cli::batch::run(a),
        Command::Check(a) => cli::check::run(a),
        Command::Bench(a) => cli::bench::run(a),
        Command::Gtp(a) => cli::gtp::run(a),
        Command::Checkpoint(a) => cli::checkpoint::run(a),
        Command::Worker(a) => cli::worker::run(a),
        Command::Verify(a) => cli::verify::run(a),
    };
    if let Err(e) = result {
        eprintln!("gosolve: error: {:#}", e);
        let usage = e.chain().any(|c| c.is::<cli::common::Usage>());
        std::process::exit(if usage { 2 } else { 1 });
    }
}
