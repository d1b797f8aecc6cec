//! Exact analysis in the forms GUIs draw: `lz-analyze` / `kata-analyze`
//! info lines (Sabaki, Lizzie, q5Go) and GoGui's `gfx`.
//!
//! Every legal move gets its exact value: `winrate` is 1, 0.5 or 0 for a
//! win, draw or loss of the player to move (`lz-analyze` writes it as
//! 10000, 5000, 0), `scoreLead` is the exact final margin for that player
//! (komi included). `visits` carries no meaning: every solved move gets the
//! same count, so a GUI that hides rarely visited moves hides none. The best
//! move carries the principal variation; other moves carry only themselves.

use super::coords::vertex;
use crate::rules::history::Game;
use crate::rules::position::{fmt_value, value_with_komi, Color, Move};
use crate::search::MoveValue;
use std::time::Duration;

/// The visit count every solved move reports.
pub const VISITS: u32 = 1000;

/// Which dialect of info line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Leela Zero's `lz-analyze`: winrate in 1/10000.
    Lz,
    /// KataGo's `kata-analyze`: winrate in [0, 1], scoreLead.
    Kata,
}

/// An analysis to stream.
#[derive(Debug)]
pub struct Request {
    pub format: Format,
    /// Time between info lines while moves are being solved (`None`: only
    /// the final line).
    pub interval: Option<Duration>,
    /// The game to analyse (with a pass added when the command named the
    /// player not to move).
    pub game: Game,
}

impl Request {
    /// Read `[color] [interval] [key value …]` (interval in centiseconds, as
    /// Leela Zero and KataGo take it; unknown keys are ignored).
    pub fn parse(format: Format, args: &[&str], game: &Game) -> Result<Request, String> {
        let mut game = game.clone();
        let mut rest = args;
        if let Some(c) = rest.first().and_then(|s| super::parse_color(s)) {
            if game.to_move != c && game.play(Move::Pass).is_err() {
                return Err("the game is over (two consecutive passes)".into());
            }
            rest = &rest[1..];
        }
        let mut interval = None;
        let centis = |s: &str| s.parse::<u64>().map_err(|_| "syntax error".to_string());
        if let Some(first) = rest.first() {
            if first.bytes().all(|b| b.is_ascii_digit()) {
                interval = Some(centis(first)?);
                rest = &rest[1..];
            }
        }
        let mut i = 0;
        while i < rest.len() {
            let Some(value) = rest.get(i + 1) else { return Err("syntax error".into()) };
            if rest[i] == "interval" {
                interval = Some(centis(value)?);
            }
            i += 2;
        }
        let interval = interval.filter(|&c| c > 0).map(|c| Duration::from_millis(c * 10));
        Ok(Request { format, interval, game })
    }
}

/// The value of `v` (Black − White, komi excluded) for the player `mover`, komi included.
fn for_mover(game: &Game, v: i32, mover: Color) -> f64 {
    let b = value_with_komi(v, game.rules.komi);
    if mover == Color::Black {
        b
    } else {
        -b
    }
}

fn num(v: f64) -> String {
    fmt_value(v)
}

/// One info line for the moves solved so far, best first (`pv`: the
/// principal variation of the position, given once it is solved).
pub fn info_line(format: Format, game: &Game, moves: &[MoveValue], pv: &[Move]) -> String {
    let mover = game.to_move;
    let mut sorted: Vec<(f64, Move)> = moves.iter().map(|m| (for_mover(game, m.value, mover), m.mv)).collect();
    // Best first; among equals the PV's move, then a pass (it ends the game soonest).
    let rank = |m: Move| {
        if pv.first() == Some(&m) {
            0
        } else if m == Move::Pass {
            1
        } else {
            2
        }
    };
    sorted.sort_by(|a, b| b.0.total_cmp(&a.0).then(rank(a.1).cmp(&rank(b.1))));
    let mut parts = Vec::new();
    for (order, &(score, mv)) in sorted.iter().enumerate() {
        let win = if score > 0.0 {
            1.0
        } else if score < 0.0 {
            0.0
        } else {
            0.5
        };
        let line: Vec<String> = if pv.first() == Some(&mv) {
            pv.iter().map(|&m| vertex(&game.geo, m)).collect()
        } else {
            vec![vertex(&game.geo, mv)]
        };
        let mv = vertex(&game.geo, mv);
        let s = num(score);
        parts.push(match format {
            Format::Lz => {
                let w = (win * 10000.0) as u32;
                format!("info move {mv} visits {VISITS} winrate {w} prior 0 lcb {w} scoreLead {s} order {order} pv {}", line.join(" "))
            }
            Format::Kata => format!(
                "info move {mv} visits {VISITS} utility {win} winrate {win} scoreMean {s} scoreStdev 0 scoreLead {s} prior 0 lcb {win} order {order} pv {}",
                line.join(" ")
            ),
        });
    }
    parts.join(" ")
}

/// GoGui `gfx` for the moves solved: each point labelled with its exact
/// value (Black − White with komi, as everywhere in gosolve), the best
/// moves squared, and a status line with the pass's value.
pub fn gfx(game: &Game, moves: &[MoveValue], pv: &[Move], status: &str) -> String {
    let geo = &game.geo;
    let komi = game.rules.komi;
    let mut labels = Vec::new();
    let mut pass = None;
    for m in moves {
        let v = value_with_komi(m.value, komi);
        let text = if v > 0.0 { format!("+{}", num(v)) } else { num(v) };
        match m.mv {
            Move::Pass => pass = Some(text),
            Move::Play(_) => labels.push(format!("{} {}", vertex(geo, m.mv), text)),
        }
    }
    let best = moves.iter().map(|m| for_mover(game, m.value, game.to_move)).fold(f64::NEG_INFINITY, f64::max);
    let squares: Vec<String> = moves
        .iter()
        .filter(|m| m.mv != Move::Pass && for_mover(game, m.value, game.to_move) == best)
        .map(|m| vertex(geo, m.mv))
        .collect();
    let mut out = String::new();
    if !labels.is_empty() {
        out.push_str(&format!("LABEL {}\n", labels.join(" ")));
    }
    if !squares.is_empty() {
        out.push_str(&format!("SQUARE {}\n", squares.join(" ")));
    }
    let pv: Vec<String> = pv.iter().map(|&m| vertex(geo, m)).collect();
    out.push_str(&format!(
        "TEXT {} to move: {}, pass {}{} (values Black-White with komi)",
        game.to_move.name(),
        status,
        pass.unwrap_or_else(|| "?".into()),
        if pv.is_empty() { String::new() } else { format!(", pv {}", pv.join(" ")) }
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Geometry, Position, Rules};

    #[test]
    fn info_lines_are_exact_and_best_first() {
        let geo = Geometry::new(2, 2).unwrap();
        let game = Game::new(geo, Rules::default(), Position::EMPTY, Color::Black).unwrap();
        let a1 = Move::Play(geo.parse_point("a1").unwrap());
        let moves = [MoveValue { mv: Move::Pass, value: -1 }, MoveValue { mv: a1, value: 1 }];
        let line = info_line(Format::Kata, &game, &moves, &[a1, Move::Pass]);
        assert_eq!(
            line,
            "info move A1 visits 1000 utility 1 winrate 1 scoreMean 1 scoreStdev 0 scoreLead 1 prior 0 lcb 1 order 0 pv A1 pass \
             info move pass visits 1000 utility 0 winrate 0 scoreMean -1 scoreStdev 0 scoreLead -1 prior 0 lcb 0 order 1 pv pass"
        );
        let lz = info_line(Format::Lz, &game, &moves, &[]);
        assert!(lz.starts_with("info move A1 visits 1000 winrate 10000 "), "{lz}");
        let g = gfx(&game, &moves, &[a1], "value 1");
        assert_eq!(
            g,
            "LABEL A1 +1\nSQUARE A1\nTEXT black to move: value 1, pass -1, pv A1 (values Black-White with komi)"
        );
    }

    #[test]
    fn requests_parse() {
        let geo = Geometry::new(2, 2).unwrap();
        let game = Game::new(geo, Rules::default(), Position::EMPTY, Color::Black).unwrap();
        let r = Request::parse(Format::Lz, &["w", "50"], &game).unwrap();
        assert_eq!(r.game.to_move, Color::White);
        assert_eq!(r.interval, Some(Duration::from_millis(500)));
        let r = Request::parse(Format::Kata, &["interval", "10", "ownership", "true"], &game).unwrap();
        assert_eq!(r.interval, Some(Duration::from_millis(100)));
        assert!(Request::parse(Format::Kata, &["interval"], &game).is_err());
        assert!(Request::parse(Format::Kata, &["interval", "x"], &game).is_err());
    }
}
