//! Symmetries of a game with no history, applied to table entries: each
//! position's class representative (its least image by key) and the image
//! of an entry under a symmetry.
//!
//! Images go through the board's lookup tables ([`SymmetryTables`]: one
//! word per byte of a bitboard), not point by point: a 4x4 build
//! canonicalizes all 48.6 M entries to list its 3.05 M classes, and again
//! to write the file; with point-by-point images and a hash set of every
//! key a 4x4 build spent 40 s before its first solve, now about 4 s
//! (2026-11-28, `results/tables.md`).

use super::{key, Entry, Key};
use crate::rules::geometry::Geometry;
use crate::rules::position::{Color, Position};
use crate::rules::symmetry::SymmetryTables;

/// The symmetries of the game with no history: a board symmetry, optionally
/// followed by exchanging the colours (which negates values). Number `t`
/// is board symmetry `t % board`, with the colours exchanged when
/// `t >= board`; 0 is the identity.
pub(super) struct Transforms {
    tables: SymmetryTables,
    /// Board symmetries used: all of them, or the identity alone.
    board: usize,
    /// Whether the colour exchange is used.
    colours: bool,
}

impl Transforms {
    /// Every symmetry of `geo`'s game (`symmetric`), or the identity alone.
    pub(super) fn all(geo: &Geometry, symmetric: bool) -> Transforms {
        let tables = SymmetryTables::new(geo);
        let board = if symmetric { tables.count() } else { 1 };
        Transforms { tables, board, colours: symmetric }
    }

    /// How many there are.
    pub(super) fn len(&self) -> usize {
        self.board * if self.colours { 2 } else { 1 }
    }

    /// The image of (`pos`, `to_move`) under number `t`.
    #[inline]
    pub(super) fn apply(&self, t: usize, pos: Position, to_move: Color) -> (Position, Color) {
        let p = self.tables.position(t % self.board, &pos);
        if t >= self.board {
            (p.colours_swapped(), to_move.opponent())
        } else {
            (p, to_move)
        }
    }

    /// The representative of the class of (`pos`, `to_move`): its image of
    /// least key, with a transform that maps it there.
    #[inline]
    pub(super) fn canonical(&self, pos: Position, to_move: Color) -> (Position, Color, usize) {
        let mover = (to_move == Color::White) as u8;
        let mut best: (Key, usize) = (key(pos, to_move), 0);
        for s in 0..self.board {
            let (b, w) = if s == 0 {
                (pos.black, pos.white)
            } else {
                (self.tables.image(s, pos.black), self.tables.image(s, pos.white))
            };
            if s > 0 && (b, w, mover) < best.0 {
                best = ((b, w, mover), s);
            }
            if self.colours && (w, b, 1 - mover) < best.0 {
                best = ((w, b, 1 - mover), s + self.board);
            }
        }
        let ((black, white, m), t) = best;
        (Position { black, white }, if m == 0 { Color::Black } else { Color::White }, t)
    }

    /// The number of distinct images of (`pos`, `to_move`): the entries its
    /// class has in a table.
    pub(super) fn class_size(&self, pos: Position, to_move: Color) -> u64 {
        let mut keys: Vec<Key> = (0..self.len())
            .map(|t| {
                let (p, c) = self.apply(t, pos, to_move);
                key(p, c)
            })
            .collect();
        keys.sort_unstable();
        keys.dedup();
        keys.len() as u64
    }

    /// The number of the inverse of number `t`.
    pub(super) fn inverse(&self, t: usize) -> usize {
        let s = self.tables.inverse(t % self.board);
        if t >= self.board {
            s + self.board
        } else {
            s
        }
    }

    /// The image of an entry under number `t`: its position, player, value
    /// (negated when the colours are exchanged) and best moves.
    pub(super) fn entry(&self, t: usize, e: &Entry) -> Entry {
        let (position, to_move) = self.apply(t, e.position, e.to_move);
        Entry {
            position,
            to_move,
            value: if t >= self.board { -e.value } else { e.value },
            best_pass: e.best_pass,
            best_points: self.tables.image(t % self.board, e.best_points),
        }
    }

    /// The entry of (`pos`, `to_move`) derived from the entry of its class
    /// representative: `rep` must be that entry, `t` the transform
    /// [`Transforms::canonical`] gave.
    pub(super) fn derive(&self, t: usize, rep: &Entry) -> Entry {
        self.entry(self.inverse(t), rep)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::symmetry::symmetries;

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
        let all = Transforms::all(&geo, true);
        assert_eq!(all.len(), 8);
        for t in 0..all.len() {
            let d = all.entry(t, &e);
            assert_eq!(d.position.stone_count(), 1);
            assert_eq!(d.best_points.count_ones(), 1);
            assert_eq!(d.value.abs(), 2);
            assert_eq!(d.best_points & (d.position.black | d.position.white), 0);
            assert_eq!(all.entry(all.inverse(t), &d), e, "the inverse maps it back");
        }
    }

    /// The representative is the least image by key, the transform maps
    /// the position onto it, and the class size counts the distinct
    /// images, as the point maps of `symmetries` give them.
    #[test]
    fn canonical_is_the_least_image() {
        for (w, h) in [(3, 3), (4, 3), (1, 5)] {
            let geo = Geometry::new(w, h).unwrap();
            let all = Transforms::all(&geo, true);
            let maps = symmetries(&geo);
            crate::count::legal::for_each_legal_position(&geo, |pos| {
                for c in [Color::Black, Color::White] {
                    let mut images: Vec<Key> = Vec::new();
                    for swap in [false, true] {
                        for m in &maps {
                            let p = m.position(&pos);
                            images.push(if swap { key(p.colours_swapped(), c.opponent()) } else { key(p, c) });
                        }
                    }
                    let (rp, rc, t) = all.canonical(pos, c);
                    assert_eq!(key(rp, rc), *images.iter().min().unwrap());
                    assert_eq!(all.apply(t, pos, c), (rp, rc));
                    images.sort_unstable();
                    images.dedup();
                    assert_eq!(all.class_size(pos, c), images.len() as u64);
                }
            })
            .unwrap();
            let none = Transforms::all(&geo, false);
            assert_eq!(none.len(), 1);
            let pos = Position { black: 1, white: 0 };
            assert_eq!(none.canonical(pos, Color::White), (pos, Color::White, 0));
        }
    }
}
