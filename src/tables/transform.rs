//! Symmetries of a game with no history, applied to table entries.

use super::Entry;
use crate::rules::geometry::Geometry;
use crate::rules::position::{Color, Position};
use crate::rules::symmetry::{symmetries, Symmetry};

/// A symmetry of the game with no history: a board symmetry, optionally
/// followed by exchanging the colours (which negates values).
pub(super) struct Transform {
    sym: Symmetry,
    swap: bool,
}

impl Transform {
    pub(super) fn all(geo: &Geometry, symmetric: bool) -> Vec<Transform> {
        if !symmetric {
            return vec![Transform { sym: symmetries(geo).swap_remove(0), swap: false }];
        }
        let mut out = Vec::new();
        for swap in [false, true] {
            for sym in symmetries(geo) {
                out.push(Transform { sym, swap });
            }
        }
        out
    }
    pub(super) fn apply(&self, pos: Position, to_move: Color) -> (Position, Color) {
        let p = self.sym.position(&pos);
        if self.swap {
            (p.colours_swapped(), to_move.opponent())
        } else {
            (p, to_move)
        }
    }
    pub(super) fn entry(&self, e: &Entry) -> Entry {
        let (position, to_move) = self.apply(e.position, e.to_move);
        Entry {
            position,
            to_move,
            value: if self.swap { -e.value } else { e.value },
            best_pass: e.best_pass,
            best_points: self.sym.bits(e.best_points),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transforms_map_best_moves() {
        let geo = Geometry::new(3, 2).unwrap();
        let mut pos = Position::EMPTY;
        pos.set(geo.parse_point("a1").unwrap(), Some(Color::Black));
        let e = Entry {
            position: pos,
            to_move: Color::White,
            value: 2,
            best_pass: false,
            best_points: 1 << geo.parse_point("b1").unwrap(),
        };
        for t in Transform::all(&geo, true) {
            let d = t.entry(&e);
            assert_eq!(d.position.stone_count(), 1);
            assert_eq!(d.best_points.count_ones(), 1);
            assert_eq!(d.value.abs(), 2);
            assert_eq!(d.best_points & (d.position.black | d.position.white), 0);
        }
    }
}
