//! The `gosolve` command line: parses arguments and wires the library together.
//! Every failure is reported as one line on stderr with a non-zero exit.

mod cli;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "gosolve", version, about = "Exact perfect-play solver for Go on tiny boards (Tromp-Taylor rules, positional superko)")]
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
    /// Play and analyse over GTP (Sabaki, GoGui, Lizzie, other engines): perfect play, exact values.
    Gtp(cli::gtp::GtpArgs),
}

fn main() {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Replay(a) => cli::replay::run(a),
        Command::Count(a) => cli::count::run(a),
        Command::Solve(a) => cli::solve::run(a),
        Command::Table(a) => cli::table::run(a),
        Command::Batch(a) => cli::batch::run(a),
        Command::Check(a) => cli::check::run(a),
        Command::Gtp(a) => cli::gtp::run(a),
    };
    if let Err(e) = result {
        eprintln!("gosolve: error: {:#}", e);
        std::process::exit(1);
    }
}
