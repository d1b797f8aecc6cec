//! Board geometry: a W×H rectangle of at most 64 points packed into one `u64`.
//!
//! Point `x + y*W` is column `x` (a, b, c … left to right) and row `y` (1, 2, 3 …
//! bottom to top), exactly as the documents and SGF name them. Neighbour sets are
//! computed with shifts and two column masks, so a flood fill ("reach") is a few
//! word operations per step instead of a walk over points.

use std::fmt;
use std::str::FromStr;

/// A set of points, one bit per point.
pub type Bits = u64;

/// Largest board the packed representation allows.
pub const MAX_POINTS: usize = 64;

/// Why a board size is rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SizeError {
    #[error("board size '{0}' is not of the form WxH (e.g. 3x3, 1x9) or N")]
    Syntax(String),
    #[error("board {0}x{1} has a zero side; both sides must be at least 1")]
    Zero(usize, usize),
    #[error("board {0}x{1} has {2} points; at most 64 are supported")]
    TooLarge(usize, usize, usize),
}

/// The shape of the board: width (columns), height (rows) and derived masks.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Geometry {
    width: u8,
    height: u8,
    all: Bits,
    /// Points not in the leftmost column (may shift right by one… i.e. have a left neighbour).
    not_left: Bits,
    /// Points not in the rightmost column.
    not_right: Bits,
}

impl Geometry {
    /// A W×H board; errors when a side is zero or the board exceeds 64 points.
    pub fn new(width: usize, height: usize) -> Result<Self, SizeError> {
        if width == 0 || height == 0 {
            return Err(SizeError::Zero(width, height));
        }
        let n = width.saturating_mul(height);
        if n > MAX_POINTS {
            return Err(SizeError::TooLarge(width, height, n));
        }
        let all = if n == 64 { !0 } else { (1u64 << n) - 1 };
        let mut left_col = 0u64;
        for y in 0..height {
            left_col |= 1u64 << (y * width);
        }
        let right_col = left_col << (width - 1);
        Ok(Geometry {
            width: width as u8,
            height: height as u8,
            all,
            not_left: all & !left_col,
            not_right: all & !right_col,
        })
    }

    pub fn width(&self) -> usize {
        self.width as usize
    }
    pub fn height(&self) -> usize {
        self.height as usize
    }
    /// Number of points.
    pub fn points(&self) -> usize {
        self.width as usize * self.height as usize
    }
    /// The set of all points.
    pub fn all(&self) -> Bits {
        self.all
    }

    /// Point index of column `x`, row `y` (both from 0).
    pub fn point(&self, x: usize, y: usize) -> u8 {
        (x + y * self.width as usize) as u8
    }
    /// Column and row (from 0) of a point.
    pub fn xy(&self, p: u8) -> (usize, usize) {
        let w = self.width as usize;
        (p as usize % w, p as usize / w)
    }

    /// All points adjacent to some point of `b` (not including `b` itself unless adjacent).
    #[inline(always)]
    pub fn neighbours(&self, b: Bits) -> Bits {
        let w = self.width as u32;
        (((b & self.not_right) << 1)
            | ((b & self.not_left) >> 1)
            | b.checked_shl(w).unwrap_or(0)
            | b.checked_shr(w).unwrap_or(0))
            & self.all
    }

    /// The points of `b` with at least two neighbours in `set`: a stone with
    /// two empty neighbours gives its block two liberties, whatever the
    /// rest of the block.
    #[inline(always)]
    pub fn with_two_neighbours_in(&self, b: Bits, set: Bits) -> Bits {
        let w = self.width as u32;
        // Points whose right / left / upper / lower neighbour is in `set`.
        let right = (set >> 1) & self.not_right;
        let left = (set << 1) & self.not_left;
        let up = set.checked_shr(w).unwrap_or(0);
        let down = set.checked_shl(w).unwrap_or(0) & self.all;
        b & ((right & left) | (up & down) | ((right | left) & (up | down)))
    }

    /// The points of `within` connected to `seed` through `within` (the block of `seed`).
    #[inline(always)]
    pub fn flood(&self, seed: Bits, within: Bits) -> Bits {
        let mut fill = seed & within;
        loop {
            let next = fill | (self.neighbours(fill) & within);
            if next == fill {
                return fill;
            }
            fill = next;
        }
    }

    /// The connected parts of `set`, each as a set, in the order of their
    /// lowest points: the blocks of one colour's stones, the regions of the
    /// points without them. (The one walk over parts that the rules, the
    /// life bounds and the score guess share.)
    #[inline(always)]
    pub fn parts(&self, set: Bits) -> Parts<'_> {
        Parts { geo: self, set, rest: set }
    }

    /// Name of a point as in the documents: column letter, row number ("a1", "c2").
    /// Columns skip nothing (no 'i' gap): the documents use a, b, c … directly.
    pub fn point_name(&self, p: u8) -> String {
        let (x, y) = self.xy(p);
        format!("{}{}", column_letter(x), y + 1)
    }

    /// Parse a point name ("a1", "B3"); `None` when malformed or off this board.
    pub fn parse_point(&self, s: &str) -> Option<u8> {
        let s = s.trim();
        let mut chars = s.chars();
        let c = chars.next()?.to_ascii_lowercase();
        if !c.is_ascii_lowercase() {
            return None;
        }
        let x = (c as u8 - b'a') as usize;
        let rest: String = chars.collect();
        if rest.is_empty() || !rest.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let row: usize = rest.parse().ok()?;
        if row == 0 || x >= self.width() || row > self.height() {
            return None;
        }
        Some(self.point(x, row - 1))
    }

    /// `WxH`, the canonical spelling used everywhere (columns x rows).
    pub fn name(&self) -> String {
        format!("{}x{}", self.width, self.height)
    }

    /// Iterate over the points of `b` in increasing index order.
    pub fn iter(b: Bits) -> BitIter {
        BitIter(b)
    }
}

/// The connected parts of a set (see [`Geometry::parts`]): each step floods
/// from the lowest point not yet met.
pub struct Parts<'a> {
    geo: &'a Geometry,
    set: Bits,
    rest: Bits,
}

impl Iterator for Parts<'_> {
    type Item = Bits;
    #[inline(always)]
    fn next(&mut self) -> Option<Bits> {
        if self.rest == 0 {
            return None;
        }
        let part = self.geo.flood(self.rest & self.rest.wrapping_neg(), self.set);
        self.rest &= !part;
        Some(part)
    }
}

/// Column letter for column `x` (0 → 'a'); boards are at most 64 wide, so
/// columns past 'z' continue with 'A'.. as SGF does.
pub fn column_letter(x: usize) -> char {
    if x < 26 {
        (b'a' + x as u8) as char
    } else {
        (b'A' + (x - 26) as u8) as char
    }
}

impl fmt::Debug for Geometry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Geometry({})", self.name())
    }
}

impl fmt::Display for Geometry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.name())
    }
}

impl FromStr for Geometry {
    type Err = SizeError;
    /// Accepts `WxH` (also `W×H`, `W:H`) or a single `N` for a square board.
    fn from_str(s: &str) -> Result<Self, SizeError> {
        let t = s.trim().to_ascii_lowercase().replace(['×', ':'], "x");
        let parts: Vec<&str> = t.split('x').collect();
        let num = |p: &str| p.trim().parse::<usize>().map_err(|_| SizeError::Syntax(s.to_string()));
        match parts.as_slice() {
            [n] => {
                let n = num(n)?;
                Geometry::new(n, n)
            }
            [w, h] => Geometry::new(num(w)?, num(h)?),
            _ => Err(SizeError::Syntax(s.to_string())),
        }
    }
}

/// Iterator over set bits (point indices).
pub struct BitIter(Bits);

impl Iterator for BitIter {
    type Item = u8;
    #[inline(always)]
    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            None
        } else {
            let p = self.0.trailing_zeros() as u8;
            self.0 &= self.0 - 1;
            Some(p)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_and_reject() {
        assert_eq!("3x2".parse::<Geometry>().unwrap().points(), 6);
        assert_eq!("5".parse::<Geometry>().unwrap().name(), "5x5");
        assert_eq!("8x8".parse::<Geometry>().unwrap().all(), !0);
        assert!(matches!("9x9".parse::<Geometry>(), Err(SizeError::TooLarge(..))));
        assert!(matches!("0x3".parse::<Geometry>(), Err(SizeError::Zero(..))));
        assert!(matches!("abc".parse::<Geometry>(), Err(SizeError::Syntax(..))));
    }

    #[test]
    fn neighbours_do_not_wrap() {
        let g = Geometry::new(3, 2).unwrap();
        let c1 = g.parse_point("c1").unwrap();
        let n = g.neighbours(1 << c1);
        let names: Vec<String> = Geometry::iter(n).map(|p| g.point_name(p)).collect();
        assert_eq!(names, vec!["b1", "c2"]);
        let one = Geometry::new(1, 5).unwrap();
        assert_eq!(one.neighbours(1 << 2), (1 << 1) | (1 << 3));
    }

    /// The points with two neighbours or more in a set, against counting
    /// each point's neighbours one by one, on strips, rectangles and the
    /// full 64-point board.
    #[test]
    fn two_neighbours_match_a_count() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for (w, h) in [(1, 1), (1, 7), (7, 1), (2, 2), (3, 5), (5, 5), (7, 9), (8, 8)] {
            let g = Geometry::new(w, h).unwrap();
            for _ in 0..500 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let (b, set) = (x & g.all(), x.rotate_left(23) & g.all());
                let counted = Geometry::iter(b)
                    .filter(|&p| (g.neighbours(1 << p) & set).count_ones() >= 2)
                    .fold(0, |a, p| a | 1 << p);
                assert_eq!(g.with_two_neighbours_in(b, set), counted, "{w}x{h}");
            }
        }
    }

    #[test]
    fn point_names_round_trip() {
        let g = Geometry::new(4, 3).unwrap();
        for p in 0..12u8 {
            assert_eq!(g.parse_point(&g.point_name(p)), Some(p));
        }
        assert_eq!(g.parse_point("e1"), None);
        assert_eq!(g.parse_point("a4"), None);
        assert_eq!(g.parse_point("a0"), None);
    }
}
