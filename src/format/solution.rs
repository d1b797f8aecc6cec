//! A solved position as SGF: the game that led to it, its principal
//! variation as the main line, and the exact value of every root move as a
//! label, so that Sabaki, GoGui or GNU Go open perfect play like a game.
//!
//! Layout: the root carries `SZ`, `RU`, `KM` (so other programs read the
//! rules), `RE` (the perfect-play result) and the setup; the history's moves
//! follow as nodes; the node of the solved position (the root when there is
//! no history) carries a comment `C` with the rules and the value, and an
//! `LB` label on each legal point with that move's exact value (Black −
//! White with komi, as everywhere in gosolve; the pass's value is in the
//! comment); the principal variation follows as the main line, its last node
//! commented with the final score.

use crate::format::numbers::signed;
use crate::format::sgf::{result_text, sgf_point, write_game};
use crate::rules::history::Game;
use crate::rules::position::{result_phrase, value_with_komi, Move};
use crate::search::Solution;

/// SGF text escaping for a property value.
fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace(']', "\\]")
}

/// The SGF of `game` followed by its solution `sol` (see the module documentation).
pub fn solution_sgf(game: &Game, sol: &Solution) -> String {
    let geo = &game.geo;
    let komi = game.rules.komi;
    let value = value_with_komi(sol.value, komi);
    let base = write_game(game, Some(value));
    let mut s = base.trim_end().strip_suffix(')').expect("write_game ends the tree with ')'").to_string();

    let pass = sol.moves.iter().find(|m| m.mv == Move::Pass);
    let mut comment = format!(
        "gosolve: exact solution. Rules: {}. {} to move after {} moves of history. Perfect play: {} ({}).",
        game.rules.describe(),
        game.to_move.title(),
        game.moves.len(),
        result_phrase(value),
        signed(value)
    );
    if game.is_over() {
        comment.push_str(" The game is over (two passes): the value is the score.");
    } else if sol.moves.is_empty() {
        comment.push_str(" Move values not computed (value-only solve).");
    } else {
        comment.push_str(" Labels: the exact value of each move (Black - White with komi)");
        if let Some(p) = pass {
            comment.push_str(&format!("; pass {}", signed(value_with_komi(p.value, komi))));
        }
        comment.push('.');
    }
    if !sol.pv.is_empty() {
        let pv: Vec<String> = sol.pv.iter().map(|m| m.name(geo)).collect();
        comment.push_str(&format!(" Principal variation (main line): {}.", pv.join(" ")));
    }
    s.push_str(&format!("\nC[{}]", escape(&comment)));
    let labels: String = sol
        .moves
        .iter()
        .filter_map(|m| match m.mv {
            Move::Play(p) => Some(format!("[{}:{}]", sgf_point(geo, p), signed(value_with_komi(m.value, komi)))),
            Move::Pass => None,
        })
        .collect();
    if !labels.is_empty() {
        s.push_str(&format!("LB{labels}"));
    }
    let mut g = game.clone();
    for (i, &mv) in sol.pv.iter().enumerate() {
        if i % 10 == 0 {
            s.push('\n');
        }
        let at = match mv {
            Move::Pass => String::new(),
            Move::Play(p) => sgf_point(geo, p),
        };
        s.push_str(&format!(";{}[{}]", g.to_move.letter(), at));
        if g.play(mv).is_err() {
            break; // never: a principal variation is legal
        }
    }
    if !sol.pv.is_empty() {
        let end = value_with_komi(g.score(), komi);
        s.push_str(&format!("C[End of the principal variation: {} ({}).]", result_phrase(end), result_text(end)));
    }
    s.push_str(")\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::sgf::read_game;
    use crate::search::{solve, SolveOptions};
    use crate::{Color, Geometry, Position, Rules};

    #[test]
    fn solution_reads_back_with_the_pv_as_main_line() {
        let geo = Geometry::new(2, 2).unwrap();
        let mut game = Game::new(geo, Rules::default(), Position::EMPTY, Color::Black).unwrap();
        game.play(Move::parse("a1", &geo).unwrap()).unwrap();
        let sol = solve(&game, &SolveOptions { threads: 1, table_mb: 16, ..Default::default() }).unwrap();
        let text = solution_sgf(&game, &sol);
        assert!(text.contains("LB["), "{text}");
        assert!(text.contains("RU[NSTT]KM[0]"), "{text}");
        let back = read_game(&text).unwrap();
        assert_eq!(back.moves.len(), 1 + sol.pv.len());
        let end = back.to_game(None).unwrap();
        assert!(end.is_over());
        assert_eq!(end.score(), sol.value);
    }
}
