//! ASCII diagrams: `X` black, `O` white, `.` empty; rows top to bottom.
//!
//! Input accepts rows separated by `/`, `|` or newlines; inside a row, spaces are
//! ignored and `X x B #` mean black, `O o W` white, `. - + _` empty. So the
//! documents' `x - o - -` and the compact `XO./.X.` both parse.

use crate::rules::geometry::{column_letter, Geometry};
use crate::rules::position::{Color, Position};

/// Why a diagram could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DiagramError {
    #[error("diagram has {found} rows but the board {board} has {expected}")]
    Rows { found: usize, expected: usize, board: String },
    #[error("diagram row {row} (from the top) has {found} points but the board {board} has {expected} columns")]
    Columns { row: usize, found: usize, expected: usize, board: String },
    #[error("diagram has an unknown character '{0}' (use X, O and .)")]
    Char(char),
}

/// Parse a diagram for board `geo`.
pub fn parse(geo: &Geometry, text: &str) -> Result<Position, DiagramError> {
    let rows: Vec<&str> = text.split(['/', '|', '\n', ';']).map(str::trim).filter(|r| !r.is_empty()).collect();
    if rows.len() != geo.height() {
        return Err(DiagramError::Rows { found: rows.len(), expected: geo.height(), board: geo.name() });
    }
    let mut pos = Position::EMPTY;
    for (i, row) in rows.iter().enumerate() {
        let cells: Vec<char> = row.chars().filter(|c| !c.is_whitespace()).collect();
        if cells.len() != geo.width() {
            return Err(DiagramError::Columns {
                row: i + 1,
                found: cells.len(),
                expected: geo.width(),
                board: geo.name(),
            });
        }
        let y = geo.height() - 1 - i;
        for (x, &c) in cells.iter().enumerate() {
            let color = match c {
                'X' | 'x' | 'B' | '#' | '●' => Some(Color::Black),
                'O' | 'o' | 'W' | '○' => Some(Color::White),
                '.' | '-' | '+' | '_' | '·' => None,
                other => return Err(DiagramError::Char(other)),
            };
            pos.set(geo.point(x, y), color);
        }
    }
    Ok(pos)
}

fn cell(pos: &Position, p: u8) -> char {
    match pos.at(p) {
        Some(Color::Black) => 'X',
        Some(Color::White) => 'O',
        None => '.',
    }
}

/// Compact one-line form, rows top to bottom joined by `/` (the `--position` syntax).
pub fn compact(geo: &Geometry, pos: &Position) -> String {
    (0..geo.height())
        .rev()
        .map(|y| (0..geo.width()).map(|x| cell(pos, geo.point(x, y))).collect::<String>())
        .collect::<Vec<_>>()
        .join("/")
}

/// A labelled diagram: row numbers on the left, column letters below.
pub fn render(geo: &Geometry, pos: &Position) -> String {
    let label_w = geo.height().to_string().len();
    let mut out = String::new();
    for y in (0..geo.height()).rev() {
        out.push_str(&format!("{:>w$} ", y + 1, w = label_w));
        let row: Vec<String> = (0..geo.width()).map(|x| cell(pos, geo.point(x, y)).to_string()).collect();
        out.push_str(&row.join(" "));
        out.push('\n');
    }
    out.push_str(&" ".repeat(label_w + 1));
    let cols: Vec<String> = (0..geo.width()).map(|x| column_letter(x).to_string()).collect();
    out.push_str(&cols.join(" "));
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_render_round_trip() {
        let geo = Geometry::new(3, 2).unwrap();
        let pos = parse(&geo, "O X . / . X .").unwrap();
        assert_eq!(pos.at(geo.parse_point("a2").unwrap()), Some(Color::White));
        assert_eq!(pos.at(geo.parse_point("b1").unwrap()), Some(Color::Black));
        assert_eq!(compact(&geo, &pos), "OX./.X.");
        assert_eq!(parse(&geo, &compact(&geo, &pos)).unwrap(), pos);
        assert_eq!(render(&geo, &pos), "2 O X .\n1 . X .\n  a b c\n");
    }

    #[test]
    fn bad_diagrams_are_errors() {
        let geo = Geometry::new(3, 2).unwrap();
        assert!(matches!(parse(&geo, "..."), Err(DiagramError::Rows { .. })));
        assert!(matches!(parse(&geo, "../..."), Err(DiagramError::Columns { .. })));
        assert!(matches!(parse(&geo, "..Z/..."), Err(DiagramError::Char('Z'))));
    }
}
