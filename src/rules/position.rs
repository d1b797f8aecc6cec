//! Position and rules: the board coloring (rule 2), clearing (rule 4), a move
//! (rule 7), legality of a position and the area score (rule 9).
//!
//! A [`Position`] is only the coloring: two bitboards in a 16-byte `Copy` value.
//! Whose turn it is, passes and the superko history live outside it
//! ([`crate::rules::history`]), as in KataGo's split of board, history and rules.

use crate::rules::geometry::{Bits, Geometry};
use std::fmt;

/// A player / stone color.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Color {
    Black,
    White,
}

impl Color {
    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }
    /// "black" / "white", as in JSON output.
    pub fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }
    /// "Black" / "White", as in a sentence of text output.
    pub fn title(self) -> &'static str {
        match self {
            Color::Black => "Black",
            Color::White => "White",
        }
    }
    /// SGF property letter.
    pub fn letter(self) -> char {
        match self {
            Color::Black => 'B',
            Color::White => 'W',
        }
    }
    /// Parse "b", "black", "w", "white" (any case).
    pub fn parse(s: &str) -> Option<Color> {
        match s.trim().to_ascii_lowercase().as_str() {
            "b" | "black" | "x" => Some(Color::Black),
            "w" | "white" | "o" => Some(Color::White),
            _ => None,
        }
    }
}

/// A turn (rule 6): pass, or a move at a point.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    Pass,
    Play(u8),
}

impl Move {
    /// "pass" or the point name.
    pub fn name(self, geo: &Geometry) -> String {
        match self {
            Move::Pass => "pass".to_string(),
            Move::Play(p) => geo.point_name(p),
        }
    }
    /// Parse "pass" or a point name on `geo`.
    pub fn parse(s: &str, geo: &Geometry) -> Option<Move> {
        let t = s.trim();
        if t.eq_ignore_ascii_case("pass") {
            Some(Move::Pass)
        } else {
            geo.parse_point(t).map(Move::Play)
        }
    }
}

/// Superko flavour: positional (the coloring alone may not recur) or situational
/// (the coloring together with the player to move may not recur).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Superko {
    Positional,
    Situational,
}

impl Superko {
    pub fn name(self) -> &'static str {
        match self {
            Superko::Positional => "positional",
            Superko::Situational => "situational",
        }
    }
}

/// Komi in half points, so that 6.5 and 7 compare exactly.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, PartialOrd, Ord)]
pub struct Komi(pub i32);

impl Komi {
    pub fn from_f64(k: f64) -> Option<Komi> {
        let h = k * 2.0;
        if h.is_finite() && h.fract() == 0.0 && h.abs() <= 1000.0 {
            Some(Komi(h as i32))
        } else {
            None
        }
    }
    pub fn as_f64(self) -> f64 {
        self.0 as f64 / 2.0
    }
}

impl fmt::Display for Komi {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 % 2 == 0 {
            write!(f, "{}", self.0 / 2)
        } else {
            write!(f, "{}", self.as_f64())
        }
    }
}

/// The rule variant. The default is NSTT: no suicide, positional superko, komi 0.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Rules {
    pub suicide: bool,
    pub superko: Superko,
    pub komi: Komi,
}

impl Default for Rules {
    fn default() -> Self {
        Rules { suicide: false, superko: Superko::Positional, komi: Komi(0) }
    }
}

impl Rules {
    /// Short name: "NSTT" / "TT", plus the superko flavour when situational and komi when non-zero.
    pub fn name(&self) -> String {
        let mut s = if self.suicide { "TT".to_string() } else { "NSTT".to_string() };
        if self.superko == Superko::Situational {
            s.push_str(" situational");
        }
        if self.komi.0 != 0 {
            s.push_str(&format!(" komi {}", self.komi));
        }
        s
    }
    /// Long description for human output: the short name of the rule set
    /// (the one JSON and SGF write), then what it means, e.g. "NSTT
    /// (Tromp-Taylor, no suicide, positional superko, komi 0)".
    pub fn describe(&self) -> String {
        format!(
            "{} (Tromp-Taylor, {}, {} superko, komi {})",
            if self.suicide { "TT" } else { "NSTT" },
            if self.suicide { "suicide allowed" } else { "no suicide" },
            self.superko.name(),
            self.komi
        )
    }
}

/// Why a move cannot be played (before superko, which needs the history).
#[derive(Clone, Copy, PartialEq, Eq, Debug, thiserror::Error)]
pub enum IllegalMove {
    #[error("point is occupied")]
    Occupied,
    #[error("suicide is not allowed under these rules")]
    Suicide,
    #[error("the move recreates an earlier position (superko)")]
    Superko,
    #[error("the game is over (two consecutive passes)")]
    GameOver,
}

/// A board coloring: black and white stones as bitboards (disjoint).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, PartialOrd, Ord)]
pub struct Position {
    pub black: Bits,
    pub white: Bits,
}

impl Position {
    pub const EMPTY: Position = Position { black: 0, white: 0 };

    /// Stones of one color.
    #[inline(always)]
    pub fn stones(&self, c: Color) -> Bits {
        match c {
            Color::Black => self.black,
            Color::White => self.white,
        }
    }
    #[inline(always)]
    fn stones_mut(&mut self, c: Color) -> &mut Bits {
        match c {
            Color::Black => &mut self.black,
            Color::White => &mut self.white,
        }
    }
    /// Empty points of the board.
    #[inline(always)]
    pub fn empty(&self, geo: &Geometry) -> Bits {
        geo.all() & !(self.black | self.white)
    }
    /// Color at a point, `None` when empty.
    pub fn at(&self, p: u8) -> Option<Color> {
        let b = 1u64 << p;
        if self.black & b != 0 {
            Some(Color::Black)
        } else if self.white & b != 0 {
            Some(Color::White)
        } else {
            None
        }
    }
    /// Set a point's color (used by setup and parsing, not by play).
    pub fn set(&mut self, p: u8, c: Option<Color>) {
        let b = 1u64 << p;
        self.black &= !b;
        self.white &= !b;
        if let Some(c) = c {
            *self.stones_mut(c) |= b;
        }
    }

    /// Stones of color `c` that reach empty (rule 3): these survive clearing.
    #[inline(always)]
    pub fn reaching_empty(&self, geo: &Geometry, c: Color) -> Bits {
        let mine = self.stones(c);
        geo.flood(geo.neighbours(self.empty(geo)) & mine, mine)
    }

    /// Rule 4: empty all points of color `c` that don't reach empty.
    pub fn clear(&mut self, geo: &Geometry, c: Color) {
        let alive = self.reaching_empty(geo, c);
        *self.stones_mut(c) = alive;
    }

    /// A position is legal when every block has a liberty (no color needs clearing).
    pub fn is_legal(&self, geo: &Geometry) -> bool {
        self.black & self.white == 0
            && (self.black | self.white) & !geo.all() == 0
            && self.reaching_empty(geo, Color::Black) == self.black
            && self.reaching_empty(geo, Color::White) == self.white
    }

    /// Rule 7: `c` colors the empty point `p`, clears the opponent, then clears
    /// its own color. Suicide (a move whose own clearing removes stones) is an
    /// error unless `suicide` is allowed. Superko is not checked here.
    ///
    /// Only blocks adjacent to `p` can lose their last liberty, so the clearing
    /// is done block by block around `p` rather than over the whole board; the
    /// literal whole-board version in the tests checks that this is the same.
    #[inline]
    pub fn play(&self, geo: &Geometry, c: Color, p: u8, suicide: bool) -> Result<Position, IllegalMove> {
        let bit = 1u64 << p;
        if (self.black | self.white) & bit != 0 {
            return Err(IllegalMove::Occupied);
        }
        let mut next = *self;
        *next.stones_mut(c) |= bit;
        let empty = next.empty(geo);
        let opp = next.stones(c.opponent());
        let mut adjacent_opp = geo.neighbours(bit) & opp;
        let mut captured = 0u64;
        while adjacent_opp != 0 {
            let seed = adjacent_opp & adjacent_opp.wrapping_neg();
            // A stone with an empty neighbour keeps its block: no flood.
            if geo.neighbours(seed) & empty != 0 {
                adjacent_opp &= !seed;
                continue;
            }
            let block = geo.flood(seed, opp);
            adjacent_opp &= !block;
            if geo.neighbours(block) & empty == 0 {
                captured |= block;
            }
        }
        *next.stones_mut(c.opponent()) &= !captured;
        let mine = next.stones(c);
        // The stone's own empty neighbours (captures made some) are
        // liberties of its block: only without one is a flood needed.
        let empty = next.empty(geo);
        if geo.neighbours(bit) & empty != 0 {
            return Ok(next);
        }
        let own_block = geo.flood(bit, mine);
        if geo.neighbours(own_block) & empty == 0 {
            if !suicide {
                return Err(IllegalMove::Suicide);
            }
            *next.stones_mut(c) &= !own_block;
        }
        Ok(next)
    }

    /// Rule 9 area for both players: (black score, white score) — stones plus
    /// empty points that reach only that color.
    pub fn area(&self, geo: &Geometry) -> (u32, u32) {
        let empty = self.empty(geo);
        let black_reach = geo.flood(geo.neighbours(self.black) & empty, empty);
        let white_reach = geo.flood(geo.neighbours(self.white) & empty, empty);
        let black_only = black_reach & !white_reach;
        let white_only = white_reach & !black_reach;
        ((self.black | black_only).count_ones(), (self.white | white_only).count_ones())
    }

    /// Black's area minus White's area (komi not included).
    #[inline]
    pub fn score(&self, geo: &Geometry) -> i32 {
        let (b, w) = self.area(geo);
        b as i32 - w as i32
    }

    /// The same stones with the colours exchanged: with no history, a
    /// position's value negates under this (and the player to move swaps).
    pub fn colours_swapped(&self) -> Position {
        Position { black: self.white, white: self.black }
    }

    /// Number of stones on the board.
    pub fn stone_count(&self) -> u32 {
        (self.black | self.white).count_ones()
    }
}

/// A reported value from Black's side: Black's area minus White's minus komi.
/// Search works on whole-point area differences; komi is a constant shift
/// applied only when values are reported, so it never changes the best play.
pub fn value_with_komi(score: i32, komi: Komi) -> f64 {
    score as f64 - komi.as_f64()
}

/// Human phrase for a value from Black's side.
pub fn result_phrase(value: f64) -> String {
    if value > 0.0 {
        format!("Black wins by {}", fmt_value(value))
    } else if value < 0.0 {
        format!("White wins by {}", fmt_value(-value))
    } else {
        "draw".to_string()
    }
}

/// Format a (possibly half-point) value without a trailing ".0".
pub fn fmt_value(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{}", v as i64)
    } else {
        format!("{}", v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(w: usize, h: usize) -> Geometry {
        Geometry::new(w, h).unwrap()
    }

    #[test]
    fn capture_in_corner() {
        let geo = g(2, 2);
        let a2 = geo.parse_point("a2").unwrap();
        let b2 = geo.parse_point("b2").unwrap();
        let a1 = geo.parse_point("a1").unwrap();
        let b1 = geo.parse_point("b1").unwrap();
        let mut p = Position::EMPTY;
        p = p.play(&geo, Color::Black, a2, false).unwrap();
        p = p.play(&geo, Color::White, b2, false).unwrap();
        p = p.play(&geo, Color::Black, a1, false).unwrap();
        p = p.play(&geo, Color::White, b1, false).unwrap();
        assert_eq!(p.black, 0, "b1 captures a1,a2");
        assert_eq!(p.white, (1 << b1) | (1 << b2));
        assert_eq!(p.area(&geo), (0, 4));
    }

    #[test]
    fn suicide_rule() {
        // 3x2: White a2, Black b1 b2; White a1 is suicide.
        let geo = g(3, 2);
        let mut p = Position::EMPTY;
        p.set(geo.parse_point("a2").unwrap(), Some(Color::White));
        p.set(geo.parse_point("b1").unwrap(), Some(Color::Black));
        p.set(geo.parse_point("b2").unwrap(), Some(Color::Black));
        let a1 = geo.parse_point("a1").unwrap();
        assert_eq!(p.play(&geo, Color::White, a1, false), Err(IllegalMove::Suicide));
        let after = p.play(&geo, Color::White, a1, true).unwrap();
        assert_eq!(after.white, 0);
        assert_eq!(after.black, p.black);
        assert_eq!(p.area(&geo), (4, 1));
    }
}
