//! Symmetries of the board: the 8 of a square (rotations and reflections), the
//! 4 of a rectangle (reflections and the half turn), fewer for strips (a 1×n
//! strip has 2: identity and reversal, as do n×1).
//!
//! Go's rules commute with any of these, so a position's value under a history
//! equals the value of the transformed position under the transformed history.
//! The solver uses that to share table entries between symmetric positions: the
//! history is transformed along with the position (see `search::tt`), which is
//! what makes symmetry sound under superko.

use crate::geometry::{Bits, Geometry};
use crate::position::Position;

/// One symmetry as a permutation of point indices.
#[derive(Clone, Debug)]
pub struct Symmetry {
    map: Vec<u8>,
}

impl Symmetry {
    /// Image of point `p`.
    #[inline(always)]
    pub fn point(&self, p: u8) -> u8 {
        self.map[p as usize]
    }
    /// Image of a set of points.
    #[inline]
    pub fn bits(&self, mut b: Bits) -> Bits {
        let mut out = 0;
        while b != 0 {
            let p = b.trailing_zeros() as usize;
            b &= b - 1;
            out |= 1u64 << self.map[p];
        }
        out
    }
    /// Image of a position.
    #[inline]
    pub fn position(&self, pos: &Position) -> Position {
        Position { black: self.bits(pos.black), white: self.bits(pos.white) }
    }
    /// The inverse permutation.
    pub fn inverse(&self) -> Symmetry {
        let mut map = vec![0u8; self.map.len()];
        for (i, &j) in self.map.iter().enumerate() {
            map[j as usize] = i as u8;
        }
        Symmetry { map }
    }
    pub fn is_identity(&self) -> bool {
        self.map.iter().enumerate().all(|(i, &j)| i == j as usize)
    }
}

/// All distinct symmetries of `geo`, identity first.
pub fn symmetries(geo: &Geometry) -> Vec<Symmetry> {
    let (w, h) = (geo.width(), geo.height());
    let mut out: Vec<Symmetry> = Vec::new();
    // (swap axes, flip x, flip y); swapping axes is only a symmetry of squares.
    for swap in [false, true] {
        if swap && w != h {
            continue;
        }
        for fx in [false, true] {
            for fy in [false, true] {
                let mut map = vec![0u8; geo.points()];
                for y in 0..h {
                    for x in 0..w {
                        let (mut nx, mut ny) = (x, y);
                        if fx {
                            nx = w - 1 - nx;
                        }
                        if fy {
                            ny = h - 1 - ny;
                        }
                        if swap {
                            std::mem::swap(&mut nx, &mut ny);
                        }
                        map[geo.point(x, y) as usize] = geo.point(nx, ny);
                    }
                }
                if !out.iter().any(|s| s.map == map) {
                    out.push(Symmetry { map });
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts() {
        let n = |w, h| symmetries(&Geometry::new(w, h).unwrap()).len();
        assert_eq!(n(3, 3), 8);
        assert_eq!(n(3, 2), 4);
        assert_eq!(n(1, 5), 2);
        assert_eq!(n(1, 1), 1);
    }

    #[test]
    fn symmetries_preserve_adjacency() {
        for (w, h) in [(3, 3), (4, 2), (1, 6), (2, 2)] {
            let geo = Geometry::new(w, h).unwrap();
            for s in symmetries(&geo) {
                assert!(symmetries(&geo)[0].is_identity());
                for p in 0..geo.points() as u8 {
                    let n = geo.neighbours(1 << p);
                    assert_eq!(s.bits(n), geo.neighbours(1 << s.point(p)));
                    assert_eq!(s.inverse().point(s.point(p)), p);
                }
            }
        }
    }
}
