//! `gosolve replay`: replay a game from SGF or from a move list and report the
//! final position, whose turn it is, the area score if both passed now, whether
//! the game is over and the legal moves.
//!
//! Rules: with `--sgf` the game's own `RU`/`KM` apply (NSTT, komi 0 when
//! absent), and each of `--suicide`/`--no-suicide`, `--superko`, `--komi`
//! overrides that one part only when it is given. Without `--sgf` the same flags
//! apply on top of the default NSTT, positional superko, komi 0.

use crate::cli::common::{game_from_diagram, parse_board, parse_color, RuleArgs, SuperkoArg};
use anyhow::{bail, Context, Result};
use gosolve::format::{diagram, sgf};
use gosolve::position::{fmt_value, result_phrase, value_with_komi};
use gosolve::{Game, Move, Rules};
use serde_json::json;
use std::path::{Path, PathBuf};

#[derive(clap::Args, Debug)]
#[command(after_help = "Rules: with --sgf the game's RU and KM apply (NSTT, komi 0 when absent); each of\n\
    --suicide/--no-suicide, --superko and --komi overrides only that part, and only when given.\n\n\
    Examples:\n  \
    gosolve replay 2x2 --moves \"a2 b2 a1 b1 a2 a1 pass pass\"\n  \
    gosolve replay 3x2 --position \"OX./.X.\" --to w --moves a1 --suicide\n  \
    gosolve replay --sgf game.sgf --json --sgf-out copy.sgf")]
pub struct ReplayArgs {
    /// Board size WxH (e.g. 3x2); required unless --sgf is given.
    pub board: Option<String>,
    /// Read the game (size, rules, setup, main line) from this SGF file.
    #[arg(long, value_name = "FILE")]
    pub sgf: Option<PathBuf>,
    /// Moves to play, separated by spaces or commas: point names (b2) or "pass".
    /// With --sgf they continue the SGF's game.
    #[arg(long, value_name = "MOVES", allow_hyphen_values = true)]
    pub moves: Option<String>,
    /// Starting position, rows top to bottom separated by '/' (X black, O white, . empty).
    #[arg(long, value_name = "ROWS")]
    pub position: Option<String>,
    /// Side to move first: b or w (default b).
    #[arg(long, value_name = "b|w")]
    pub to: Option<String>,
    /// Allow suicide (true Tromp-Taylor). Overrides the SGF's RU.
    #[arg(long, conflicts_with = "no_suicide")]
    pub suicide: bool,
    /// Forbid suicide (NSTT). Overrides the SGF's RU.
    #[arg(long)]
    pub no_suicide: bool,
    /// Superko flavour. Overrides the SGF's RU.
    #[arg(long, value_enum)]
    pub superko: Option<SuperkoArg>,
    /// Komi added to White's score (a multiple of 0.5). Overrides the SGF's KM.
    #[arg(long, allow_hyphen_values = true)]
    pub komi: Option<f64>,
    /// Print one JSON object instead of the report.
    #[arg(long)]
    pub json: bool,
    /// Write the replayed game as SGF to FILE (atomically, via FILE.tmp).
    #[arg(long, value_name = "FILE")]
    pub sgf_out: Option<PathBuf>,
}

impl ReplayArgs {
    /// Rules: `base` with every explicitly given flag applied.
    fn rules_over(&self, base: Rules) -> Result<Rules> {
        let args = RuleArgs {
            suicide: if self.suicide {
                true
            } else if self.no_suicide {
                false
            } else {
                base.suicide
            },
            superko: self.superko.unwrap_or(match base.superko {
                gosolve::Superko::Positional => SuperkoArg::Positional,
                gosolve::Superko::Situational => SuperkoArg::Situational,
            }),
            komi: self.komi.unwrap_or(base.komi.as_f64()),
        };
        args.rules()
    }
}

/// Parse a move list: tokens separated by whitespace or commas.
fn parse_moves(text: &str, game: &Game) -> Result<Vec<Move>> {
    let mut out = Vec::new();
    for tok in text.split(|c: char| c.is_whitespace() || c == ',').filter(|t| !t.is_empty()) {
        match Move::parse(tok, &game.geo) {
            Some(m) => out.push(m),
            None => bail!(
                "move {} '{}' is not a point of the {} board or 'pass'",
                game.moves.len() + out.len() + 1,
                tok.escape_debug(),
                game.geo
            ),
        }
    }
    Ok(out)
}

/// The replayed game and, when read from SGF, a remark about its rules.
fn build_game(args: &ReplayArgs) -> Result<(Game, Option<String>)> {
    let mut note = None;
    let mut game = if let Some(path) = &args.sgf {
        if args.board.is_some() || args.position.is_some() || args.to.is_some() {
            bail!("--sgf gives the board and the setup; do not combine it with a board size, --position or --to");
        }
        let text = std::fs::read(path).with_context(|| format!("cannot read SGF file '{}'", path.display()))?;
        let text = String::from_utf8_lossy(&text);
        let sg = sgf::read_game(&text).with_context(|| format!("{}", path.display()))?;
        let rules = args.rules_over(sg.rules)?;
        note = sg.rules_note.clone();
        sg.to_game(Some(rules)).with_context(|| format!("{}", path.display()))?
    } else {
        let Some(board) = &args.board else {
            bail!("give a board size (e.g. 3x2) or --sgf FILE");
        };
        let geo = parse_board(board)?;
        let rules = args.rules_over(Rules::default())?;
        let to_move = match &args.to {
            Some(t) => parse_color(t)?,
            None => gosolve::Color::Black,
        };
        game_from_diagram(geo, rules, args.position.as_deref(), to_move)?
    };
    if let Some(text) = &args.moves {
        for mv in parse_moves(text, &game)? {
            game.play(mv)?;
        }
    }
    Ok((game, note))
}

/// A JSON number without a trailing `.0` for whole values.
fn num(v: f64) -> serde_json::Value {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        json!(v as i64)
    } else {
        json!(v)
    }
}

/// Write `text` to `path` through `path.tmp` and a rename.
fn write_atomic(path: &Path, text: &str) -> Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    std::fs::write(&tmp, text).with_context(|| format!("cannot write '{}'", tmp.display()))?;
    std::fs::rename(&tmp, path)
        .with_context(|| format!("cannot rename '{}' to '{}'", tmp.display(), path.display()))?;
    Ok(())
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
            "rules": {
                "suicide": game.rules.suicide,
                "superko": game.rules.superko.name(),
                "komi": num(game.rules.komi.as_f64()),
            },
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
