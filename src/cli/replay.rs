//! `gosolve replay`: replay a game from SGF or from a move list and report the
//! final position, whose turn it is, the area score if both passed now, whether
//! the game is over and the legal moves.
//!
//! Rules: with `--sgf` the game's own `RU`/`KM` apply (NSTT, komi 0 when
//! absent), and each of `--suicide`/`--no-suicide`, `--superko`, `--komi`
//! overrides that one part only when it is given (the shared
//! [`RuleArgs`](crate::cli::common::RuleArgs)). Without `--sgf` the same flags
//! apply on top of the default NSTT, positional superko, komi 0.

use crate::cli::common::{num, rules_json, PositionArgs, RuleArgs};
use anyhow::{Context, Result};
use gosolve::format::{diagram, sgf};
use gosolve::rules::position::{fmt_value, result_phrase, value_with_komi};
use gosolve::Game;
use serde_json::json;
use std::path::{Path, PathBuf};

#[derive(clap::Args, Debug)]
#[command(after_help = "Rules: with --sgf the game's RU and KM apply (NSTT, komi 0 when absent); each of\n\
    --suicide/--no-suicide, --superko and --komi overrides only that part, and only when given;\n\
    --to overrides the SGF's PL (it must agree with the SGF's first move).\n\n\
    Examples:\n  \
    gosolve replay 2x2 --moves \"a2 b2 a1 b1 a2 a1 pass pass\"\n  \
    gosolve replay 3x2 --position \"OX./.X.\" --to w --moves a1 --suicide\n  \
    gosolve replay --sgf game.sgf --json --sgf-out copy.sgf")]
pub struct ReplayArgs {
    #[command(flatten)]
    pub start: PositionArgs,
    #[command(flatten)]
    pub rules: RuleArgs,
    /// Print one JSON object instead of the report.
    #[arg(long)]
    pub json: bool,
    /// Write the replayed game as SGF to FILE (atomically: a unique temporary file, then a rename).
    #[arg(long, value_name = "FILE")]
    pub sgf_out: Option<PathBuf>,
}

/// The replayed game and, when read from SGF, a remark about its rules.
fn build_game(args: &ReplayArgs) -> Result<(Game, Option<String>)> {
    let loaded = args.start.load(&args.rules)?;
    Ok((loaded.game, loaded.rules_note))
}

/// Write `text` to `path` atomically (see [`gosolve::store::write_atomic`]).
fn write_atomic(path: &Path, text: &str) -> Result<()> {
    gosolve::store::write_text_atomic(path, text).with_context(|| format!("cannot write '{}'", path.display()))
}

pub fn run(args: ReplayArgs) -> Result<()> {
    let (game, note) = build_game(&args)?;
    let geo = game.geo;
    let (black, white) = game.position.area(&geo);
    let score = black as i32 - white as i32;
    let value = value_with_komi(score, game.rules.komi);
    let over = game.is_over();
    let legal: Vec<String> = game.legal_moves().iter().map(|m| m.name(&geo)).collect();
    let moves: Vec<String> = game.moves.iter().map(|&(_, m)| m.name(&geo)).collect();

    if let Some(out) = &args.sgf_out {
        let result = if over { Some(value) } else { None };
        write_atomic(out, &sgf::write_game(&game, result))?;
    }

    if args.json {
        let mut j = json!({
            "board": geo.name(),
            "rules": rules_json(&game.rules),
            "to_move": game.to_move.name(),
            "moves": moves,
            "position": diagram::compact(&geo, &game.position),
            "black": black,
            "white": white,
            "value": num(value),
            "result": result_phrase(value),
            "over": over,
            "legal_moves": legal,
        });
        if game.start != gosolve::Position::EMPTY {
            j["start"] = json!(diagram::compact(&geo, &game.start));
        }
        if let Some(n) = &note {
            j["rules_note"] = json!(n);
        }
        println!("{}", j);
        return Ok(());
    }

    println!("board {}, rules: {}", geo, game.rules.describe());
    if let Some(n) = &note {
        println!("note: {}", n);
    }
    if game.start != gosolve::Position::EMPTY {
        println!("start position: {}", diagram::compact(&geo, &game.start));
    }
    if game.moves.is_empty() {
        println!("moves: none");
    } else {
        let list: Vec<String> = game
            .moves
            .iter()
            .enumerate()
            .map(|(i, &(c, m))| format!("{}.{}[{}]", i + 1, c.letter(), m.name(&geo)))
            .collect();
        println!("moves ({}): {}", game.moves.len(), list.join(" "));
    }
    print!("{}", diagram::render(&geo, &game.position));
    if over {
        println!("game over (two consecutive passes)");
        println!(
            "final score: Black {}, White {}, komi {}: value {} ({})",
            black,
            white,
            game.rules.komi,
            fmt_value(value),
            result_phrase(value)
        );
    } else {
        println!("to move: {} (move {})", game.to_move.name(), game.moves.len() + 1);
        println!(
            "if both pass now: Black {}, White {}, komi {}: value {} ({})",
            black,
            white,
            game.rules.komi,
            fmt_value(value),
            result_phrase(value)
        );
        println!("legal moves: {}", legal.join(" "));
    }
    Ok(())
}
