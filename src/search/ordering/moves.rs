//! Move ordering of the fast solver: the tiers a candidate move falls in, and
//! the history heuristic that orders the quiet moves among themselves.
//!
//! Order never changes a value, only the work: every move of a node is
//! searched unless an earlier one proves the mover's bound. A candidate's
//! sort key is its tier (smaller first); quiet moves get a key inside their
//! band from their history score. Keys are compared as plain `u32`s, so the
//! numeric values below *are* the order (and the bench signature depends on
//! them): a pass that meets the bound sits just before the quiet moves that
//! never caused a cutoff, after every quiet move that did.
//!
//! Why the pass is not simply first whenever it meets the bound (Tromp's
//! order): the opponent must then be refuted everywhere in the position
//! after the pass, and on open boards that tree is huge, while a move that
//! meets the bound usually settles the board quickly. With this order, one
//! thread, 1 GiB table: 11x1 value-only 55 M → 23 M nodes (with the
//! move-only table hints), 3x4 5.0 M → 1.8 M, 2x5 467 k → 209 k, 1x10 9.7 M →
//! 7.1 M, 3x3 65 k → 49 k; 1x9 545 k → 847 k.

use crate::rules::geometry::Geometry;
use crate::rules::position::{Color, Position};

/// The sort key tiers, smallest first.
pub mod tier {
    /// A pass when the opponent just passed and the area score meets the
    /// bound the mover is after: it ends the game with a proof, at once.
    pub const PASS_ENDS_WITH_PROOF: u32 = 0;
    /// The best move the table holds for this node (under this history or
    /// another): it proved a bound here before, so it likely does again.
    pub const TABLE_MOVE: u32 = 1;
    /// A capture: on tiny boards captures decide most fights.
    pub const CAPTURE: u32 = 2;
    /// Quiet moves: `QUIET - score` for a history score up to
    /// [`MAX_QUIET_SCORE`], so the moves that saved the most work come
    /// first (keys 6 ..= `QUIET`); a move that never caused a cutoff has key
    /// `QUIET`.
    pub const QUIET: u32 = u32::MAX - 2;
    /// The largest history score that still orders (keeps quiet keys above
    /// the fixed tiers).
    pub const MAX_QUIET_SCORE: u32 = u32::MAX - 8;
    /// A pass that meets the bound (the opponent has not just passed): after
    /// the quiet moves that caused cutoffs, before those that never did.
    pub const PASS_MEETS_BOUND: u32 = u32::MAX - 3;
    /// A pass that does not meet the bound: it only hands the move over.
    pub const PASS: u32 = u32::MAX - 1;
    /// A move filling an own eye (every neighbour an own stone): almost
    /// never good, kept only because it can matter in ko fights.
    pub const EYE_FILL: u32 = u32::MAX;
}

/// The sort key of a quiet move whose history score is `score`.
#[inline(always)]
pub fn quiet(score: u32) -> u32 {
    tier::QUIET - score.min(tier::MAX_QUIET_SCORE)
}

/// The history heuristic: per colour and point, how much cutoff work moves
/// there saved. Only orders moves (not to be confused with the game's
/// history, which superko reads).
#[derive(Clone, Debug)]
pub struct HistoryHeuristic([[u32; 64]; 2]);

impl Default for HistoryHeuristic {
    fn default() -> Self {
        HistoryHeuristic([[0; 64]; 2])
    }
}

impl HistoryHeuristic {
    /// The scores of `color`'s moves, by point.
    #[inline(always)]
    pub fn scores(&self, color: Color) -> &[u32; 64] {
        &self.0[color as usize]
    }
    /// A move of `color` to `point` caused a cutoff after `work` nodes below
    /// its node: one point for the cutoff and one per node it saved (at
    /// most 2^20, so that one huge subtree does not freeze the order).
    #[inline(always)]
    pub fn reward(&mut self, color: Color, point: u8, work: u64) {
        let h = &mut self.0[color as usize][point as usize];
        *h = h.saturating_add(1 + (work as u32).min(1 << 20));
    }
}

/// A cheap estimate of the final area difference (Black's minus White's) of
/// `pos`: every stone counts for its colour, and every empty point for the
/// colour whose stones are nearer (by steps through empty points; a tie is
/// neutral). It ignores life and death entirely, so it only ever orders
/// work (the starting proof numbers of df-pn), never decides anything.
pub fn estimate(geo: &Geometry, pos: &Position) -> i32 {
    let (mut black, mut white) = (pos.black, pos.white);
    let mut free = geo.all() & !(black | white);
    loop {
        let nb = geo.neighbours(black) & free;
        let nw = geo.neighbours(white) & free;
        if nb | nw == 0 {
            break;
        }
        let both = nb & nw;
        black |= nb & !both;
        white |= nw & !both;
        free &= !(nb | nw);
    }
    black.count_ones() as i32 - white.count_ones() as i32
}

/// The score estimate on hand-made positions.
#[cfg(test)]
mod tests {
    use super::estimate;
    use crate::rules::geometry::Geometry;
    use crate::rules::position::Position;

    /// Empty points go to the nearer colour; equidistant ones to neither.
    #[test]
    fn empty_points_go_to_the_nearer_colour() {
        let strip = Geometry::new(1, 5).unwrap();
        assert_eq!(estimate(&strip, &Position::EMPTY), 0);
        // B . W . . : the point between is neutral, White's side is White's.
        assert_eq!(estimate(&strip, &Position { black: 1 << 0, white: 1 << 2 }), 1 - 3);
        // B . . . W : two each, the middle point neutral.
        assert_eq!(estimate(&strip, &Position { black: 1 << 0, white: 1 << 4 }), 0);
        let square = Geometry::new(3, 3).unwrap();
        assert_eq!(estimate(&square, &Position { black: 1 << 4, white: 0 }), 9);
    }
}
