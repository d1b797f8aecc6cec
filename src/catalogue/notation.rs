//! Moves as the documents write them: `a2`, `pass`, `7.B[a2]`, numbered lines.

use crate::rules::geometry::Geometry;
use crate::rules::history::Game;
use crate::rules::position::{IllegalMove, Move};

/// A move token: a point name, `pass`, or the documents' `7.B[a2]` notation.
pub(super) fn parse_move_token(tok: &str, geo: &Geometry) -> Option<Move> {
    let t = tok.trim();
    let inner = match (t.find('['), t.ends_with(']')) {
        (Some(i), true) => &t[i + 1..t.len() - 1],
        _ => t,
    };
    if inner.is_empty() {
        return Some(Move::Pass);
    }
    Move::parse(inner, geo)
}

pub(super) fn reason_name(r: IllegalMove) -> &'static str {
    match r {
        IllegalMove::Occupied => "occupied",
        IllegalMove::Suicide => "suicide",
        IllegalMove::Superko => "superko",
        IllegalMove::GameOver => "game over",
    }
}

/// The game's moves from index `from` on, numbered as the documents write them: `1.B[a2] 2.W[b2]`.
pub(super) fn numbered(g: &Game, from: usize) -> String {
    g.moves
        .iter()
        .enumerate()
        .skip(from)
        .map(|(i, &(c, m))| format!("{}.{}[{}]", i + 1, c.letter(), m.name(&g.geo)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// "B+6" → 6, "W+4" → −4, "draw" → 0, "+3" / "-4" / "0" as numbers.
pub(super) fn parse_result(s: &str) -> Option<f64> {
    let t = s.trim();
    if t.eq_ignore_ascii_case("draw") || t == "0" {
        return Some(0.0);
    }
    let upper = t.to_ascii_uppercase();
    if let Some(rest) = upper.strip_prefix("B+") {
        return rest.parse::<f64>().ok();
    }
    if let Some(rest) = upper.strip_prefix("W+") {
        return rest.parse::<f64>().ok().map(|x| -x);
    }
    t.parse::<f64>().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_parse() {
        assert_eq!(parse_result("W+4"), Some(-4.0));
        assert_eq!(parse_result("b+6"), Some(6.0));
        assert_eq!(parse_result("W+4.5"), Some(-4.5));
        assert_eq!(parse_result("draw"), Some(0.0));
        assert_eq!(parse_result("-5"), Some(-5.0));
        assert_eq!(parse_result("lots"), None);
    }

    #[test]
    fn move_tokens_parse_in_both_notations() {
        let geo = Geometry::new(2, 2).unwrap();
        assert_eq!(parse_move_token("a2", &geo), Move::parse("a2", &geo));
        assert_eq!(parse_move_token("7.B[a2]", &geo), Move::parse("a2", &geo));
        assert_eq!(parse_move_token("W[]", &geo), Some(Move::Pass));
        assert_eq!(parse_move_token("B[pass]", &geo), Some(Move::Pass));
        assert_eq!(parse_move_token("c3", &geo), None);
    }
}
