//! GTP vertices: columns `A, B, … H, J, …` (no `I`), rows `1, 2, …` from the
//! bottom, `pass`.
//!
//! gosolve names points with columns `a, b, c …` from the left (no gap) and
//! rows from the bottom, so only the column letter differs: gosolve `j1`
//! (the 10th column) is GTP `K1`, and both spell the 9th column differently
//! (`i` against `J`). GTP letters stop at `Z`, so a GTP board is at most 25
//! columns wide; its rows are plain numbers.

use crate::rules::geometry::Geometry;
use crate::rules::position::Move;

/// The 25 GTP column letters.
const LETTERS: &[u8; 25] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// Widest board GTP can name.
pub const MAX_GTP_WIDTH: usize = LETTERS.len();

/// Why a vertex could not be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VertexError {
    /// Not of the form letter + number or `pass` (`I` is not a GTP column).
    Syntax,
    /// Well formed but off this board.
    OffBoard,
}

/// The GTP name of a move: `B2`, `pass`.
pub fn vertex(geo: &Geometry, mv: Move) -> String {
    match mv {
        Move::Pass => "pass".to_string(),
        Move::Play(p) => {
            let (x, y) = geo.xy(p);
            format!("{}{}", LETTERS[x] as char, y + 1)
        }
    }
}

/// Read a GTP vertex (any case): `pass` or a column letter and a row number.
pub fn parse_vertex(geo: &Geometry, s: &str) -> Result<Move, VertexError> {
    if s.eq_ignore_ascii_case("pass") {
        return Ok(Move::Pass);
    }
    let bytes = s.as_bytes();
    let Some((&first, rest)) = bytes.split_first() else { return Err(VertexError::Syntax) };
    let letter = first.to_ascii_uppercase();
    let x = LETTERS.iter().position(|&l| l == letter).ok_or(VertexError::Syntax)?;
    if rest.is_empty() || rest.len() > 3 || !rest.iter().all(u8::is_ascii_digit) {
        return Err(VertexError::Syntax);
    }
    let row: usize = std::str::from_utf8(rest).ok().and_then(|r| r.parse().ok()).ok_or(VertexError::Syntax)?;
    if row == 0 {
        return Err(VertexError::Syntax);
    }
    if x >= geo.width() || row > geo.height() {
        return Err(VertexError::OffBoard);
    }
    Ok(Move::Play(geo.point(x, row - 1)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_skip_i_and_rows_count_from_the_bottom() {
        let geo = Geometry::new(8, 8).unwrap();
        // A..H are the same letters in both; GTP skips I after H.
        let h1 = geo.parse_point("h1").unwrap();
        assert_eq!(vertex(&geo, Move::Play(h1)), "H1");
        let strip = Geometry::new(10, 1).unwrap();
        let j1 = strip.parse_point("j1").unwrap();
        assert_eq!(vertex(&strip, Move::Play(j1)), "K1");
        assert_eq!(parse_vertex(&strip, "k1"), Ok(Move::Play(j1)));
        assert_eq!(parse_vertex(&strip, "I1"), Err(VertexError::Syntax));
        let g = Geometry::new(3, 2).unwrap();
        assert_eq!(parse_vertex(&g, "a2"), Ok(Move::Play(g.parse_point("a2").unwrap())));
        assert_eq!(parse_vertex(&g, "C1"), Ok(Move::Play(g.parse_point("c1").unwrap())));
        assert_eq!(parse_vertex(&g, "D1"), Err(VertexError::OffBoard));
        assert_eq!(parse_vertex(&g, "A3"), Err(VertexError::OffBoard));
        assert_eq!(parse_vertex(&g, "A0"), Err(VertexError::Syntax));
        assert_eq!(parse_vertex(&g, "PASS"), Ok(Move::Pass));
        assert_eq!(parse_vertex(&g, "1A"), Err(VertexError::Syntax));
        assert_eq!(parse_vertex(&g, ""), Err(VertexError::Syntax));
        for p in 0..6u8 {
            assert_eq!(parse_vertex(&g, &vertex(&g, Move::Play(p))), Ok(Move::Play(p)));
        }
    }
}
