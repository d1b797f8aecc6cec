//! The local game of a small region of a player's pass-alive stones: can
//! the owner, answering every opponent stone inside the region there, take
//! the whole region, without ever losing a stone there and without suicide
//! rules? The search uses the answer for its guarded bounds
//! (`search::bounds::guarded`, which holds the whole argument); this module only
//! plays the local game out.
//!
//! # The local game
//!
//! R is a region of the board without A, the owner's pass-alive stones (a
//! connected set of points whose every neighbour outside R is in A), with no
//! stone of the owner and at most [`MAX_POINTS`] points. A point of R with a
//! neighbour outside R touches A; an owner stone there joins an A block and
//! is never captured. The opponent moves first or the owner does; then:
//! - the opponent may play any point of R where its block keeps a liberty
//!   (suicide is not allowed), or play elsewhere (pass, as far as R goes);
//! - the owner answers every opponent move in R with a move in R, and while
//!   opponent stones are in R it never passes (it answers even an opponent
//!   pass); otherwise it passes.
//!
//! The owner wins the local game when it has a way of answering such that:
//! - no owner stone in R is ever captured (an owner block in R that does not
//!   touch A can be; the strategy must avoid it);
//! - an A block that has R as a vital region at the start (its liberties
//!   include every empty point of R; the worst case, assumed: exactly those)
//!   has a liberty in R whenever the opponent is to move. Then no opponent
//!   move can capture it (it keeps a liberty in its other vital region too,
//!   the opponent filling one at a time), which is what keeps A alive while
//!   the owner plays inside its own regions.
//!
//! Every opponent move in R is answered and every owner move adds a stone
//! that stays, so the local game is finite, and it ends with no opponent
//! stone in R: R is then the owner's area.
//!
//! Nothing in this argument depends on the region's size; only the cost of
//! playing the game out does ([`MAX_POINTS`]). On the grid of a 5x5 board
//! this takes every two- and three-point region whatever the opponent holds
//! in it, most four- to seven-point ones (also in the corner, where a point
//! does not touch A), the empty 3x3 centre and 2x5 edge strip, but not, for
//! example, the T-shaped four with two opponent stones already on its arms,
//! or the strip with three opponent stones on its second line.

use crate::rules::geometry::{Bits, Geometry};
use std::cell::RefCell;
use std::collections::HashMap;

/// The largest region played out (3^11 placements, each with either side
/// to move). The local game's answer does not depend on the region's size
/// (see the module documentation); the limit is only the cost of playing
/// it out: up to eleven points the local games save more nodes than they
/// cost; at thirteen they cost more time than they saved
/// (`results/tuning.md`, 2026-11-28).
pub const MAX_POINTS: u32 = 11;

/// Whether the owner wins the local game of `region` (see the module
/// documentation) with the opponent's stones `opp` in it, whoever moves
/// first. `region` must be a region of the board without the owner's
/// pass-alive stones, holding no owner stone, of at most [`MAX_POINTS`]
/// points.
pub fn owner_takes_all(geo: &Geometry, region: Bits, opp: Bits) -> bool {
    debug_assert!(region.count_ones() <= MAX_POINTS);
    let key = (geo.width() as u8, geo.height() as u8, region, opp & region);
    if let Some(v) = MEMO.with(|m| m.borrow().get(&key).copied()) {
        return v;
    }
    let mut local = Local::new(geo, region, opp & region);
    let game = (key.0, key.1, region, local.vital);
    local.memo = GAMES.with(|g| g.borrow_mut().take(&game)).unwrap_or_default();
    let v = local.owner_wins();
    GAMES.with(|g| g.borrow_mut().keep(game, std::mem::take(&mut local.memo)));
    MEMO.with(|m| m.borrow_mut().insert(key, v));
    v
}

thread_local! {
    /// Answers already played out, per board size, region and opponent
    /// stones (a solve meets the same few regions again and again).
    static MEMO: RefCell<HashMap<(u8, u8, Bits, Bits), bool>> = RefCell::new(HashMap::new());
    /// The placements' answers of the local games played out, per board
    /// size, region and vital points: a game asked again from another start
    /// picks up where the last left off.
    static GAMES: RefCell<Games> = RefCell::new(Games::default());
}

/// A local game's answers depend on the board, the region and its vital
/// points ([`Local::vital`]), not on the start: the placements' answers of
/// one start serve every later start in the same region. Before they were
/// kept, a solve played the same region out again for each new opponent
/// placement in it; at 11 points that was a quarter of a whole-board
/// test's time.
#[derive(Default)]
struct Games {
    memos: HashMap<GameKey, Vec<u8>>,
    bytes: usize,
}

/// What a local game's answers depend on: board width and height, region,
/// vital points.
type GameKey = (u8, u8, Bits, Option<Bits>);

/// The most bytes of answers [`Games`] keeps a thread (at 11 points a game
/// takes 354 KB): beyond it, all are dropped and played out afresh.
const GAMES_BYTES: usize = 64 << 20;

impl Games {
    fn take(&mut self, game: &GameKey) -> Option<Vec<u8>> {
        let memo = self.memos.remove(game)?;
        self.bytes -= memo.len();
        Some(memo)
    }
    fn keep(&mut self, game: GameKey, memo: Vec<u8>) {
        if self.bytes + memo.len() > GAMES_BYTES {
            self.memos.clear();
            self.bytes = 0;
        }
        self.bytes += memo.len();
        self.memos.insert(game, memo);
    }
}

/// One local game: the region, its points touching A, and the start.
struct Local<'a> {
    geo: &'a Geometry,
    region: Bits,
    /// Points of R with a neighbour outside R (so touching A).
    near: Bits,
    /// The empty points at the start, if every one touches A: the
    /// liberties in R of an A block that has R as a vital region (none
    /// can if an empty point does not touch A).
    vital: Option<Bits>,
    start: Bits,
    /// The region's points, lowest first: a placement's index is its base-3
    /// number over them (0 empty, 1 owner, 2 opponent).
    points: Vec<Bits>,
    /// Each placement's answer with either side to move (0 not yet known,
    /// 1 lost, 2 won), at [`Local::slot`]: a direct index, where a hash
    /// map of the placements spent most of the local game's time hashing.
    /// Empty until [`Local::owner_wins`] needs it.
    memo: Vec<u8>,
}

impl<'a> Local<'a> {
    fn new(geo: &'a Geometry, region: Bits, opp: Bits) -> Local<'a> {
        let outside = geo.all() & !region;
        let near = region & geo.neighbours(outside);
        let empty = region & !opp;
        let vital = (empty & !near == 0).then_some(empty);
        let points = Geometry::iter(region).map(|p| 1 << p).collect();
        Local { geo, region, near, vital, start: opp, points, memo: Vec::new() }
    }

    fn owner_wins(&mut self) -> bool {
        if self.memo.is_empty() {
            self.memo = vec![0; 2 * 3usize.pow(self.points.len() as u32)];
        }
        self.opponent_to_move(0, self.start) && self.owner_to_move(0, self.start)
    }

    /// The memo slot of a placement, the owner or the opponent to move.
    #[inline(always)]
    fn slot(&self, own: Bits, opp: Bits, owner_to_move: bool) -> usize {
        // Owner and opponent stones never share a point: the digit is 0, 1
        // or 2.
        let i = self.points.iter().rev().fold(0, |i, &p| 3 * i + (own & p != 0) as usize + 2 * (opp & p != 0) as usize);
        2 * i + owner_to_move as usize
    }

    /// Whether block `b` has an empty point of R next to it.
    fn has_liberty(&self, b: Bits, own: Bits, opp: Bits) -> bool {
        self.geo.neighbours(b) & self.region & !own & !opp != 0
    }

    /// The opponent plays `p`: the new opponent stones, or `None` when the
    /// move is illegal (suicide) or captures an owner stone (which the
    /// owner's strategy must never allow: returned as `Some(None)`).
    fn opponent_plays(&self, own: Bits, opp: Bits, p: Bits) -> Option<Option<Bits>> {
        let opp = opp | p;
        if self.geo.parts(own).any(|b| b & self.near == 0 && !self.has_liberty(b, own, opp)) {
            return Some(None);
        }
        let block = self.geo.flood(p, opp);
        if !self.has_liberty(block, own, opp) {
            return None;
        }
        Some(Some(opp))
    }

    /// The owner plays `p`: the new (own, opp), or `None` if suicide.
    fn owner_plays(&self, own: Bits, opp: Bits, p: Bits) -> Option<(Bits, Bits)> {
        let own = own | p;
        let left = self.geo.parts(opp).filter(|&b| self.has_liberty(b, own, opp)).fold(0, |l, b| l | b);
        let block = self.geo.flood(p, own);
        if block & self.near == 0 && !self.has_liberty(block, own, left) {
            return None;
        }
        Some((own, left))
    }

    /// Whether an A block with R as a vital region keeps a liberty in R.
    fn vital_block_breathes(&self, own: Bits, opp: Bits) -> bool {
        let Some(vital) = self.vital else { return true };
        let reach = self.geo.parts(own).filter(|&b| b & vital != 0).fold(vital, |r, b| r | self.geo.neighbours(b));
        reach & self.region & !own & !opp != 0
    }

    fn opponent_to_move(&mut self, own: Bits, opp: Bits) -> bool {
        let slot = self.slot(own, opp, false);
        if self.memo[slot] != 0 {
            return self.memo[slot] == 2;
        }
        let v = self.opponent_to_move_uncached(own, opp);
        self.memo[slot] = 1 + v as u8;
        v
    }

    fn opponent_to_move_uncached(&mut self, own: Bits, opp: Bits) -> bool {
        if !self.vital_block_breathes(own, opp) {
            return false;
        }
        // The opponent passes (or plays elsewhere): the owner must answer
        // while opponent stones are in R.
        if opp != 0 && !self.owner_to_move(own, opp) {
            return false;
        }
        let mut empty = self.region & !own & !opp;
        while empty != 0 {
            let p = empty & empty.wrapping_neg();
            empty &= empty - 1;
            match self.opponent_plays(own, opp, p) {
                None => {}
                Some(None) => return false,
                Some(Some(next)) if !self.owner_to_move(own, next) => return false,
                Some(Some(_)) => {}
            }
        }
        true
    }

    fn owner_to_move(&mut self, own: Bits, opp: Bits) -> bool {
        if opp == 0 {
            return self.opponent_to_move(own, opp);
        }
        let slot = self.slot(own, opp, true);
        if self.memo[slot] != 0 {
            return self.memo[slot] == 2;
        }
        let mut empty = self.region & !own & !opp;
        let mut v = false;
        while empty != 0 {
            let p = empty & empty.wrapping_neg();
            empty &= empty - 1;
            if let Some((own2, opp2)) = self.owner_plays(own, opp, p) {
                if self.opponent_to_move(own2, opp2) {
                    v = true;
                    break;
                }
            }
        }
        self.memo[slot] = 1 + v as u8;
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn region(geo: &Geometry, points: &str) -> Bits {
        points.split_whitespace().map(|p| 1 << geo.parse_point(p).unwrap()).fold(0, |a, b| a | b)
    }

    /// Every two- and three-point region of the open board, whatever the
    /// opponent holds in it (as long as its stones have a liberty there).
    #[test]
    fn pairs_and_threes_are_always_taken() {
        let geo = Geometry::new(5, 5).unwrap();
        for points in ["b2 b3", "a1 a2", "b2 b3 b4", "b2 b3 c3", "a1 a2 b1", "a1 a2 a3"] {
            let r = region(&geo, points);
            let mut sub = r;
            loop {
                sub = (sub.wrapping_sub(1)) & r;
                let legal = geo.parts(sub).all(|b| geo.neighbours(b) & r & !sub != 0);
                if legal {
                    assert!(owner_takes_all(&geo, r, sub), "{points} with {sub:b}");
                }
                if sub == 0 {
                    break;
                }
            }
        }
    }

    /// The T-shaped four (b2 b3 b4 c3): taken from empty, not with two
    /// opponent stones on its arms (b2 and b4: the A block that needs the
    /// region breathes only through b3 and c3, and the owner cannot answer
    /// an opponent stone on b3 or c3 without filling the other).
    #[test]
    fn a_t_four_with_stones_on_its_arms_is_not() {
        let geo = Geometry::new(5, 5).unwrap();
        let r = region(&geo, "b2 b3 b4 c3");
        assert!(owner_takes_all(&geo, r, 0));
        assert!(!owner_takes_all(&geo, r, region(&geo, "b2 b4")));
    }

    /// Regions of eight to eleven points: the opponent cannot live in the
    /// 3x3 centre, in a 2x5 strip along the edge or in the 11 points of a
    /// corner, even from a stone already placed, but it lives in the strip
    /// from three stones or more on its second line (two eyes on the first
    /// line are then one move away).
    #[test]
    fn larger_regions() {
        let geo = Geometry::new(5, 5).unwrap();
        let centre = region(&geo, "b2 c2 d2 b3 c3 d3 b4 c4 d4");
        assert!(owner_takes_all(&geo, centre, 0));
        assert!(owner_takes_all(&geo, centre, region(&geo, "c3")));
        let strip = region(&geo, "a1 b1 c1 d1 e1 a2 b2 c2 d2 e2");
        assert!(owner_takes_all(&geo, strip, 0));
        assert!(owner_takes_all(&geo, strip, region(&geo, "c2")));
        assert!(owner_takes_all(&geo, strip, region(&geo, "b1 d1")));
        assert!(!owner_takes_all(&geo, strip, region(&geo, "b2 c2 d2")));
        assert!(!owner_takes_all(&geo, strip, region(&geo, "a2 b2 c2 d2 e2")));
        assert!(owner_takes_all(&geo, region(&geo, "a1 b1 c1 d1 a2 b2 c2 d2 a3 b3 c3"), 0));
    }

    /// A start's answer does not depend on the starts asked before it in
    /// the same region (whose placements' answers [`Games`] keeps): every
    /// start of the 2x5 strip with each opponent block keeping a liberty
    /// (all with the same vital points, none, so all continue one game),
    /// asked in turn, against the game played out afresh for each.
    #[test]
    fn answers_do_not_depend_on_the_starts_asked_before() {
        let geo = Geometry::new(5, 5).unwrap();
        let strip = region(&geo, "a1 b1 c1 d1 e1 a2 b2 c2 d2 e2");
        // Every subset of the strip, from the strip itself down to none.
        let subsets = std::iter::successors(Some(strip), |&s| (s != 0).then(|| (s - 1) & strip));
        let starts: Vec<Bits> =
            subsets.filter(|&s| geo.parts(s).all(|b| geo.neighbours(b) & strip & !s != 0)).collect();
        assert!(starts.len() > 100);
        for s in starts {
            assert_eq!(owner_takes_all(&geo, strip, s), Local::new(&geo, strip, s).owner_wins(), "start {s:b}");
        }
    }

    /// The bent three in the corner (a1 a2 b1: a1 does not touch A) and the
    /// square four in the corner.
    #[test]
    fn corner_shapes() {
        let geo = Geometry::new(5, 5).unwrap();
        assert!(owner_takes_all(&geo, region(&geo, "a1 a2 b1"), 0));
        assert!(owner_takes_all(&geo, region(&geo, "a1 a2 b1"), region(&geo, "a1")));
        assert!(owner_takes_all(&geo, region(&geo, "a1 a2 b1 b2"), 0));
    }
}
