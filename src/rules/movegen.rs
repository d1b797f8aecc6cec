//! The one move generator: every placement the rules allow apart from
//! superko.
//!
//! Tromp-Taylor rules 1–7 decide a placement from the coloring alone (the
//! point must be empty; captures are cleared; under no suicide the player's
//! own stones must keep a path to an empty point). Superko (rules 8–9) needs a
//! history, and each user keeps its own: [`crate::rules::history::Game`]
//! (the game record), the solver's `Path`, the reference search's plain
//! line and the game counter's situation sets. So this module stops at
//! the coloring, and every user filters its output against its history.
//! Keeping one generator means a rules change (e.g. the suicide option)
//! reaches the game, both searches and the counter at once.

use crate::rules::geometry::{Bits, Geometry};
use crate::rules::position::{Color, Position};

/// The placements by `color` on the points of `candidates` (a subset of the
/// board) that rules 1–7 allow, in increasing point order, each with the
/// coloring it leads to. Occupied points and, where `suicide` is false,
/// suicides are skipped.
#[inline]
pub fn placements<'a>(
    geo: &'a Geometry,
    pos: &'a Position,
    color: Color,
    suicide: bool,
    candidates: Bits,
) -> impl Iterator<Item = (u8, Position)> + 'a {
    Geometry::iter(pos.empty(geo) & candidates)
        .filter_map(move |p| pos.play(geo, color, p, suicide).ok().map(|n| (p, n)))
}

/// [`placements`] on every point of the board.
#[inline]
pub fn all_placements<'a>(
    geo: &'a Geometry,
    pos: &'a Position,
    color: Color,
    suicide: bool,
) -> impl Iterator<Item = (u8, Position)> + 'a {
    placements(geo, pos, color, suicide, geo.all())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::position::Move;

    /// On the empty 2×2 board every point is a placement; in a corner eye
    /// the suicide is one only where suicide is allowed.
    #[test]
    fn empty_board_and_suicide() {
        let geo = Geometry::new(2, 2).unwrap();
        let empty = Position::EMPTY;
        assert_eq!(all_placements(&geo, &empty, Color::Black, false).count(), 4);
        // White a2 and b1 around the empty a1: a Black stone there has no
        // liberty and captures nothing (White keeps b2).
        let point = |name: &str| match Move::parse(name, &geo) {
            Some(Move::Play(q)) => q,
            _ => unreachable!("{name} is a point of 2x2"),
        };
        let mut pos = Position::EMPTY;
        for p in ["a2", "b1"] {
            pos.set(point(p), Some(Color::White));
        }
        let a1 = point("a1");
        assert!(all_placements(&geo, &pos, Color::Black, false).all(|(p, _)| p != a1));
        let with_suicide: Vec<_> = all_placements(&geo, &pos, Color::Black, true).collect();
        assert!(with_suicide.iter().any(|&(p, n)| p == a1 && n.at(a1).is_none()));
        // White may fill its own eye there (its stones keep b2 as a liberty).
        assert!(all_placements(&geo, &pos, Color::White, false).any(|(p, _)| p == a1));
    }
}
