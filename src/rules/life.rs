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
//!
//! # Small regions: one point each that the opponent cannot own
//!
//! Let R be a connected set of points not in A whose every neighbour outside
//! R is in A (a region of the board without A), with at least two points,
//! every one of them adjacent to A (Benson's "small" region). The bound above
//! counts all of R as the opponent's. Still with the owner passing at every
//! turn, at the end of the game:
//! - an empty point of R touches A, so it is the owner's area or neutral,
//!   never the opponent's;
//! - not every point of R holds an opponent stone: the liberties of an
//!   opponent block inside R lie in R (its other neighbours are A-stones), and
//!   every block of a position reached by a move has a liberty (a move
//!   removes the captured blocks, then a suicided one).
//!
//! So R adds at least `−(|R| − 1)` to the owner's area minus the opponent's
//! instead of `−|R|`: one point better per small region. Again only passes of
//! the owner and the opponent's own moves are involved, so this holds under
//! any history and either suicide rule. (A one-point region is a one-point
//! eye of E, counted above. A region with a point not adjacent to A gains
//! nothing here: the opponent may have an eye there.) The search counts a
//! two-point small region as wholly the owner's where the history allows
//! the owner's capture inside it (`search::bounds::guarded`; on the empty 4x4 board
//! this halved the one-thread search, 40.6 M nodes to 16.7 M,
//! `results/solve.md`), and without suicide any region of up to
//! [`MAX_POINTS`] points whose local game the owner wins
//! ([`crate::rules::region`]).

use crate::rules::geometry::{Bits, Geometry};
use crate::rules::position::{Color, Position};
use crate::rules::region::MAX_POINTS;

/// The pass-alive stones of `owner` (Benson's algorithm).
pub fn pass_alive(geo: &Geometry, pos: &Position, owner: Color) -> Bits {
    let own = pos.stones(owner);
    if own == 0 {
        return 0;
    }
    let empty = pos.empty(geo);
    let candidates = candidate_regions(geo, own, empty);
    if candidates.count_ones() < 2 {
        return 0;
    }
    let mut regions = [0 as Bits; 32];
    let mut nregions = components(geo, candidates, &mut regions, |_| true);
    if nregions < 2 {
        return 0;
    }
    let mut chains = [0 as Bits; 32];
    let mut nchains = components(geo, own, &mut chains, |_| true);
    loop {
        let alive: Bits = chains[..nchains].iter().fold(0, |a, c| a | c);
        // Regions that border only chains still in the set.
        let mut kept = 0;
        for i in 0..nregions {
            let r = regions[i];
            if geo.neighbours(r) & own & !alive == 0 {
                regions[kept] = r;
                kept += 1;
            }
        }
        nregions = kept;
        let regions = &regions[..nregions];
        let mut kept = 0;
        for i in 0..nchains {
            let c = chains[i];
            let libs = geo.neighbours(c);
            if regions.iter().filter(|&&r| libs & r != 0 && (r & empty) & !libs == 0).take(2).count() == 2 {
                chains[kept] = c;
                kept += 1;
            }
        }
        if kept == nchains {
            return chains[..nchains].iter().fold(0, |a, c| a | c);
        }
        nchains = kept;
    }
}

/// The points of the regions of the board without the stones `own` (of
/// one player; `empty` the empty points) that could be vital to one of its
/// blocks (see [`pass_alive`]).
///
/// Only a region whose every empty point touches an own stone can be vital
/// to a block (a vital region's empty points are all liberties of the
/// block), and a block needs two. Most positions met in a search have fewer
/// than two such regions (the open board is one region), and need no more.
/// The regions with an empty point that touches no own stone are found all
/// at once, by one flood from every such point (on an open board: the whole
/// board, in as many steps as its radius), where flooding them one by one
/// was most of Benson's time: one thread, the first 3 M nodes of a 5x5
/// position with 18 empty points, Benson's share of the samples 16 % →
/// 12 %. What is left are the candidate regions, whole.
#[inline(always)]
fn candidate_regions(geo: &Geometry, own: Bits, empty: Bits) -> Bits {
    let not_own = geo.all() & !own;
    let far = empty & !geo.neighbours(own);
    not_own & !geo.flood(far, not_own)
}

/// The connected components of `set` that `keep` accepts, into the first
/// entries of `out`; returns how many.
///
/// Fixed arrays, not vectors, and not cleared: this runs at nearly every
/// node of the search. It is used for the blocks of one colour and for the
/// regions between them; neither are ever adjacent to one another, and no
/// grid of at most 64 points has more than 32 pairwise non-adjacent points,
/// so 32 suffice.
#[inline(always)]
fn components(geo: &Geometry, set: Bits, out: &mut [Bits; 32], keep: impl Fn(Bits) -> bool) -> usize {
    let mut n = 0;
    for c in geo.parts(set) {
        if keep(c) {
            out[n] = c;
            n += 1;
        }
    }
    n
}

/// The two-point small regions of one player's pass-alive stones: where a
/// capture of the owner would win 3 points over [`guaranteed_and_pairs`]
/// (the whole region, +2, instead of −1) if superko allows it. The search decides that
/// against the history (`search::bounds::guarded`); this only finds them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pairs {
    /// The owner's pass-alive stones A.
    pub alive: Bits,
    /// The points of the two-point small regions.
    pub points: Bits,
    /// The points of the regions of two to [`MAX_POINTS`] points with no
    /// owner stone, small or not (see `search::bounds::guarded` for what the search
    /// makes of them): the candidates for the local game of
    /// [`crate::rules::region`].
    pub regions: Bits,
}

impl Pairs {
    /// How many two-point regions.
    pub fn count(&self) -> u32 {
        self.points.count_ones() / 2
    }
}

/// What `owner` is guaranteed by passing at every turn: a lower bound on its
/// final area minus the opponent's (see the module documentation), from the
/// regions of the board without its pass-alive stones A:
/// - a one-point region (an eye of A): +1;
/// - a small region (two points or more, each adjacent to A): `−(|R| − 1)`;
/// - any other region: `−|R|`.
///
/// With it, the two-point small regions ([`Pairs`]).
pub fn guaranteed_and_pairs(geo: &Geometry, pos: &Position, owner: Color) -> (i32, Pairs) {
    let n = geo.points() as i32;
    let alive = pass_alive(geo, pos, owner);
    if alive == 0 {
        return (-n, Pairs::default());
    }
    let touching = geo.neighbours(alive);
    let outside = geo.all() & !alive;
    let mut total = alive.count_ones() as i32;
    let mut pairs = Pairs { alive, points: 0, regions: 0 };
    let own = pos.stones(owner);
    for region in geo.parts(outside) {
        let size = region.count_ones() as i32;
        total += if size == 1 {
            1
        } else if region & !touching == 0 {
            if size == 2 {
                pairs.points |= region;
            }
            1 - size
        } else {
            -size
        };
        if size >= 2 && size as u32 <= MAX_POINTS && region & own == 0 {
            pairs.regions |= region;
        }
    }
    (total, pairs)
}

/// The static bounds of a position with the two-point regions of each
/// player ([`Pairs`], Black first).
pub fn bounds_and_pairs(geo: &Geometry, pos: &Position) -> ((i32, i32), [Pairs; 2]) {
    let n = geo.points() as i32;
    let (b, pb) = guaranteed_and_pairs(geo, pos, Color::Black);
    let (w, pw) = guaranteed_and_pairs(geo, pos, Color::White);
    let (low, high) = (b.min(n), (-w).max(-n));
    debug_assert!(low <= high, "static bounds cross: {low} > {high}");
    ((low, high), [pb, pw])
}

/// Bounds `(low, high)` on the final Black − White area under perfect play,
/// valid under any history (see the module documentation).
pub fn score_bounds(geo: &Geometry, pos: &Position) -> (i32, i32) {
    bounds_and_pairs(geo, pos).0
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
        // Both regions are small: White keeps at most one of the two points
        // above and two of the three below (+4 −1 −2), not all five.
        assert_eq!(score_bounds(&geo, &wall), (1, 9));
        // Only one region: not alive.
        let edge = diagram::parse(&geo, ".../.../XXX").unwrap();
        assert_eq!(pass_alive(&geo, &edge, Color::Black), 0);
    }

    #[test]
    fn small_regions_keep_one_point_from_the_opponent() {
        // A White stone in the small region above the wall: still +1.
        assert_eq!(bounds(3, 3, "XO./XXX/..."), (1, 9));
        // Above the wall a small region {a4, b4} (−1) and an eye d4 (+1);
        // below, rows 1 and 2 do not all touch the wall: −8. 5 − 1 + 1 − 8.
        assert_eq!(bounds(4, 4, "..X./XXXX/..../...."), (-3, 16));
        // White's mirror image bounds from above.
        assert_eq!(bounds(4, 4, "..O./OOOO/..../...."), (-16, 3));
    }
}
