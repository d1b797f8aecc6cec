//! Guarded bounds: the static bounds of `rules::life` made stronger by
//! checking the history, and what a result using them depends on.
//!
//! # The bound
//!
//! Let A be a player's pass-alive stones and R = {x, y} a two-point small
//! region of A (`rules::life::Pairs`: both points adjacent to A, every other
//! neighbour in A; so R holds no stone of the owner, and at most one of the
//! opponent, which then has R's other point as its only liberty). The
//! history-free bound counts R as −1 for the owner. Consider the strategy:
//! pass, except when the opponent has a stone on a point y of such a region
//! while x is empty; then play x, capturing it.
//! - After that capture the region is the owner's for good: x is joined to A
//!   (pass-alive, never captured) and y is a one-point eye of it.
//! - If the opponent never plays in R it stays empty and touches only A.
//! - The owner never passes while some region holds an opponent stone, so the
//!   game cannot end then — except at once, when the owner's pass was the
//!   last move: the opponent to move may end the game by passing. So the
//!   bound is used only if then no region holds an opponent stone (the
//!   differential test found this case: 2x3, White to move after Black's
//!   pass with a White stone in Black's region). Each capture settles a
//!   region for good, so there are finitely many.
//!
//! So if every capture is legal, each region is +2 for the owner at the end:
//! 3 points more than the history-free bound. A capture is legal for the
//! suicide rule (it captures). For superko, the coloring C it makes must be
//! new. The owner plays only these captures, so before C (after now) it
//! never had a stone on x, while C has: no position between now and C
//! equals C. A situation S from before now equals C only if S has owner
//! stones on all of A and on a point of some region (x). The guard
//! checks that no situation of the history and the path up to the node is
//! such an S ([`holds`]); then every capture of the strategy is legal, under
//! either superko rule (a coloring never seen is a situation never seen).
//!
//! # Larger regions, played out (without suicide)
//!
//! Without suicide the strategy grows: in every region R of the board
//! without A that holds no owner stone and at most
//! [`region::MAX_POINTS`] points (small or
//! not), the owner answers each opponent move there by a move there, as the
//! local game of [`crate::rules::region`] finds, and never passes while an
//! opponent stone is in one; an opponent move elsewhere is answered in a
//! region still waiting, the most recent first. Such a region is used only
//! when the owner wins its local game from the placement at the node,
//! whoever moves first: then no owner stone in it is ever captured, every A
//! block keeps a liberty in each of its vital regions whenever the opponent
//! is to move (so A stays uncapturable: the opponent could only capture it
//! by filling its last liberties in two regions in one move), and the game
//! cannot end while an opponent stone is in it (except at once, as above).
//! At the end it is the owner's: +|R| where the history-free bound counted
//! 1 − |R| (small) or −|R|. Each owner move adds a stone to the regions
//! that is never removed, so every coloring the owner makes has more owner
//! stones in them than any since the node, and the guard below (no earlier
//! situation with owner stones on all of A and on a point of a used region)
//! makes every such move new for superko, under either superko rule.
//!
//! With suicide allowed only the two-point small regions are used, as above
//! (the local game assumes an opponent stone without liberty is illegal).
//!
//! Played-out regions of up to seven, then eleven points took van der
//! Werf's 13-ply position and 5x5 whole-board tests to a fraction of the
//! nodes (see [`region::MAX_POINTS`] and
//! `results/tuning.md`).
//!
//! # What a result using it depends on
//!
//! The guard is a condition on the history: a result derived with it holds
//! under another history H' only if no situation of H' matches the pattern
//! "owner stones on all of A and on some point of the regions". Such results
//! carry the pattern in their [`Dep`] (the set P of `search::tt`), merged up
//! the tree like the candidates T, and a stored result is reused only where
//! no situation above the node matches one of its patterns.

use crate::rules::geometry::{Bits, Geometry};
use crate::rules::life::Pairs;
use crate::rules::position::{Color, Rules};
use crate::rules::region;
use crate::search::tree::node::Node;
use crate::search::tree::path::Path;
use crate::search::tt::{Dep, Pattern};

/// Whether no situation on `path` (the history and the path to the node,
/// the node included) has stones of the owner (`black` or White) on all of
/// `pairs.alive` and on a point of `pairs.points`.
pub(crate) fn holds(path: &Path, black: bool, pairs: &Pairs) -> bool {
    !pattern(black, pairs).occurs_in(path.steps())
}

fn pattern(black: bool, pairs: &Pairs) -> Pattern {
    Pattern { black, req: pairs.alive, any: pairs.points }
}

/// A guarded bound that decides the window (`alpha`, `beta`) where the
/// history-free `bounds` do not: Black's at least `beta`, or White's at most
/// `alpha`, each 3 points per two-point region better than `bounds`, used
/// only if the guard holds. Returns the bound; its pattern is added to `dep`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn decide(
    path: &Path,
    node: &Node,
    geo: &Geometry,
    rules: Rules,
    (lo, hi): (i32, i32),
    pairs: &[Pairs; 2],
    alpha: i32,
    beta: i32,
    dep: &mut Dep,
) -> Option<i32> {
    let n = geo.points() as i32;
    for (owner, p) in [(Color::Black, &pairs[0]), (Color::White, &pairs[1])] {
        let Some((taken, gain)) = taken(geo, rules, node, owner, p) else { continue };
        // The opponent may end the game now (the owner passed last): not
        // with a stone in a region.
        if node.to_move == owner.opponent() && node.passes > 0 && node.pos.stones(owner.opponent()) & taken != 0 {
            continue;
        }
        let black = owner == Color::Black;
        let (bound, decides) = if black {
            ((lo + gain).min(n), (lo + gain).min(n) >= beta)
        } else {
            ((hi - gain).max(-n), (hi - gain).max(-n) <= alpha)
        };
        let used = Pairs { points: taken, ..*p };
        if decides && holds(path, black, &used) {
            dep.add_pattern(pattern(black, &used));
            return Some(bound);
        }
    }
    None
}

/// The regions `owner` takes whole by the strategy of the module
/// documentation, and what they add to its history-free bound: without
/// suicide, every candidate region whose local game the owner wins
/// ([`crate::rules::region`]); with suicide, the two-point small regions.
fn taken(geo: &Geometry, rules: Rules, node: &Node, owner: Color, p: &Pairs) -> Option<(Bits, i32)> {
    if rules.suicide {
        return (p.points != 0).then(|| (p.points, 3 * p.count() as i32));
    }
    let opp = node.pos.stones(owner.opponent());
    let (mut taken, mut gain) = (0, 0);
    for r in geo.parts(p.regions) {
        if region::owner_takes_all(geo, r, opp) {
            // The history-free bound counted a small region 1 − |R|, any
            // other −|R|; now it is +|R|.
            let size = r.count_ones() as i32;
            let touches_all = r & !geo.neighbours(p.alive) == 0;
            taken |= r;
            gain += if touches_all { 2 * size - 1 } else { 2 * size };
        }
    }
    (taken != 0).then_some((taken, gain))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::diagram;
    use crate::rules::history::Game;
    use crate::rules::life::bounds_and_pairs;

    /// 2x3, Black pass-alive (a1, a2, b3) with the eye a3 and the region
    /// {b1, b2} holding a White stone: history-free +3, guarded +6.
    fn case(earlier: &[&str], passes: u8) -> (Option<i32>, Dep) {
        let geo = Geometry::new(2, 3).unwrap();
        let pos = |d: &str| diagram::parse(&geo, d).unwrap();
        let start = pos(earlier.first().copied().unwrap_or(".X/X./XO"));
        let game = Game::new(geo, Rules::default(), start, Color::Black).unwrap();
        let mut path = Path::from_game(&game);
        for d in earlier.iter().skip(1) {
            path.push(pos(d), Color::Black);
        }
        let node = Node { pos: pos(".X/X./XO"), to_move: Color::White, passes };
        if !earlier.is_empty() {
            path.push(node.pos, node.to_move);
        }
        let (range, pairs) = bounds_and_pairs(&geo, &node.pos);
        assert_eq!(range, (3, 6));
        let mut dep = Dep::NONE;
        (decide(&path, &node, &geo, Rules::default(), range, &pairs, 5, 6, &mut dep), dep)
    }

    #[test]
    fn a_region_counts_whole_when_the_capture_is_new() {
        let (v, dep) = case(&[], 0);
        assert_eq!(v, Some(6));
        assert_ne!(dep, Dep::NONE, "the result depends on the history");
    }

    /// Black's capture at b2 would make a coloring seen before.
    #[test]
    fn an_earlier_situation_with_the_capture_blocks_it() {
        assert_eq!(case(&["../X./X.", ".X/XX/X."], 0).0, None);
        // Black stones on A but none in the region: no block.
        assert_eq!(case(&["../X./X.", ".X/X./X."], 0).0, Some(6));
    }

    /// 3x3, a Black wall across the middle (pass-alive) with a two-point
    /// region above and a three-point one below: history-free +1, guarded
    /// +9 (Black answers any White stone below and captures it) — but not
    /// with suicide allowed, nor with a White stone below just after
    /// Black's pass.
    #[test]
    fn a_three_point_region_counts_whole_without_suicide() {
        let geo = Geometry::new(3, 3).unwrap();
        for (d, passes, suicide, want) in [
            ("X../XXX/...", 0, false, Some(9)),
            ("X../XXX/.O.", 0, false, Some(9)),
            ("X../XXX/OO.", 0, false, Some(9)),
            ("X../XXX/O.O", 0, false, Some(9)),
            ("X../XXX/...", 0, true, Some(4)),
            ("X../XXX/.O.", 1, false, None),
        ] {
            let pos = diagram::parse(&geo, d).unwrap();
            let rules = Rules { suicide, ..Rules::default() };
            let game = Game::new(geo, rules, pos, Color::White).unwrap();
            let path = Path::from_game(&game);
            let node = Node { pos, to_move: Color::White, passes };
            let (range, pairs) = bounds_and_pairs(&geo, &pos);
            assert_ne!(pairs[0].regions, 0, "{d}");
            let mut dep = Dep::NONE;
            let got = decide(&path, &node, &geo, rules, range, &pairs, range.0, range.0 + 1, &mut dep);
            assert_eq!(got, want, "{d} passes {passes} suicide {suicide}");
        }
    }

    /// Black passed last: White may pass and end the game with its stone in
    /// the region (the value is +3 then, not +6).
    #[test]
    fn not_when_the_opponent_may_end_the_game_now() {
        assert_eq!(case(&[], 1).0, None);
    }
}
