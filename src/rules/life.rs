//! Benson's unconditional life, and the static score bounds it gives.
//!
//! A set of one player's blocks is *pass-alive* when the opponent cannot
//! capture any of them even with unlimited consecutive moves while the owner
//! only passes (Benson 1976). Such blocks bound the final score whatever the
//! history, which is what lets the solver stop searching settled positions
//! (van der Werf et al. 2003 call this early win detection).
//!
//! # The bound and why it is exact under superko
//!
//! Let A be the owner's pass-alive stones and E the empty points whose every
//! neighbour is in A (one-point eyes). If the owner passes at every turn (a
//! pass is always legal, under any history), then:
//! - no stone of A is ever captured (Benson: the opponent alone cannot; superko
//!   only removes opponent moves, so it cannot help);
//! - no point of E ever keeps an opponent stone: a stone there has no liberty
//!   (its neighbours are A-stones, each of whose blocks keeps a liberty in a
//!   second vital region), so the move is suicide — illegal without suicide,
//!   and with suicide it leaves the coloring unchanged, which is a repeat under
//!   positional superko and harmless under situational superko.
//!
//! So when the game ends every point of A ∪ E is the owner's area, and the
//! owner's area minus the opponent's is at least `2·|A ∪ E| − N`. The owner
//! can do at least that well, so the value is at least that (Black) or at
//! most its negation (White), under any history and either suicide rule.

use crate::rules::geometry::{Bits, Geometry};
use crate::rules::position::{Color, Position};

/// The pass-alive stones of `owner` (Benson's algorithm).
pub fn pass_alive(geo: &Geometry, pos: &Position, owner: Color) -> Bits {
    let own = pos.stones(owner);
    if own == 0 {
        return 0;
    }
    let empty = pos.empty(geo);
    let not_own = geo.all() & !own;
    let mut chains: Vec<Bits> = Vec::with_capacity(8);
    let mut rest = own;
    while rest != 0 {
        let c = geo.flood(rest & rest.wrapping_neg(), own);
        rest &= !c;
        chains.push(c);
    }
    let mut regions: Vec<Bits> = Vec::with_capacity(8);
    let mut rest = not_own;
    while rest != 0 {
        let r = geo.flood(rest & rest.wrapping_neg(), not_own);
        rest &= !r;
        regions.push(r);
    }
    loop {
        let alive: Bits = chains.iter().fold(0, |a, c| a | c);
        // Regions that border only chains still in the set.
        regions.retain(|&r| geo.neighbours(r) & own & !alive == 0);
        let before = chains.len();
        chains.retain(|&c| {
            let libs = geo.neighbours(c);
            regions.iter().filter(|&&r| libs & r != 0 && (r & empty) & !libs == 0).take(2).count() == 2
        });
        if chains.len() == before {
            return chains.iter().fold(0, |a, c| a | c);
        }
    }
}

/// The points `owner` keeps whatever happens if it only passes: pass-alive
/// stones plus one-point eyes surrounded by them.
pub fn safe_points(geo: &Geometry, pos: &Position, owner: Color) -> Bits {
    let alive = pass_alive(geo, pos, owner);
    if alive == 0 {
        return 0;
    }
    let mut eyes = 0;
    for p in Geometry::iter(pos.empty(geo)) {
        let n = geo.neighbours(1 << p);
        if n & !alive == 0 {
            eyes |= 1 << p;
        }
    }
    alive | eyes
}

/// Bounds `(low, high)` on the final Black − White area under perfect play,
/// valid under any history (see the module documentation).
pub fn score_bounds(geo: &Geometry, pos: &Position) -> (i32, i32) {
    let n = geo.points() as i32;
    let b = safe_points(geo, pos, Color::Black).count_ones() as i32;
    let w = safe_points(geo, pos, Color::White).count_ones() as i32;
    (2 * b - n, n - 2 * w)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::diagram;

    fn bounds(w: usize, h: usize, d: &str) -> (i32, i32) {
        let geo = Geometry::new(w, h).unwrap();
        score_bounds(&geo, &diagram::parse(&geo, d).unwrap())
    }

    #[test]
    fn linear_safe_boards_are_settled() {
        // Hayward's "unconditionally safe whole-board positions".
        assert_eq!(bounds(3, 1, ".X."), (3, 3));
        assert_eq!(bounds(4, 1, ".XX."), (4, 4));
        assert_eq!(bounds(5, 1, ".X.X."), (5, 5));
        assert_eq!(bounds(7, 1, ".X.X.X."), (7, 7));
        // Not safe: one eye only.
        assert_eq!(bounds(2, 1, "X."), (-2, 2));
        assert_eq!(bounds(4, 1, "X.X."), (-4, 4));
    }

    #[test]
    fn two_eyed_group_on_square_board() {
        // Black wall with two one-point eyes in the corner region.
        let geo = Geometry::new(3, 3).unwrap();
        let pos = diagram::parse(&geo, ".X./XXX/.X.").unwrap();
        assert_eq!(pass_alive(&geo, &pos, Color::Black), pos.black);
        assert_eq!(score_bounds(&geo, &pos), (9, 9));
        // A wall across the middle: two vital regions, alive, but no eyes yet.
        let wall = diagram::parse(&geo, "X../XXX/...").unwrap();
        assert_eq!(pass_alive(&geo, &wall, Color::Black), wall.black);
        assert_eq!(score_bounds(&geo, &wall), (-1, 9));
        // Only one region: not alive.
        let edge = diagram::parse(&geo, ".../.../XXX").unwrap();
        assert_eq!(pass_alive(&geo, &edge, Color::Black), 0);
    }
}
