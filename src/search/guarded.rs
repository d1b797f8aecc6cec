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
//! # Three-point regions (without suicide)
//!
//! A three-point small region R of A is a path x–m–y (three connected
//! points of a grid), each point adjacent to A; like a pair it holds no
//! stone of the owner. The history-free bound counts it −2 for the owner.
//! The strategy grows by one rule: in R, capture an opponent block whose
//! last liberty is in R; else, if the opponent's only stone in R is m, play
//! x; else pass (or answer in another region). Without suicide, from every
//! opponent placement R can hold at the node ({}, {x}, {m}, {x, m},
//! {x, y}, and mirrored), each opponent move in R gets an owner answer in
//! R that either captures (leaving one or two empty points, each adjacent
//! only to owner stones and to other empty points of R) or, after m,
//! leaves the opponent's stone with its last liberty y, which the owner
//! takes next; an opponent stone on the last empty point of R next to
//! owner stones would have no liberty and capture nothing, since every
//! owner block touching R keeps a liberty in a second vital region (with
//! suicide allowed it could remove its own stones, a case left out). The
//! owner's stones in R join A's blocks (every point of R touches A), so
//! they are never captured either, and R is never wholly filled by the
//! owner. At the end R is the owner's: +3, five points more than the
//! history-free bound. Each owner move in R adds an owner stone that is
//! never removed, so every coloring the owner makes has more owner stones
//! in the regions than any since the node, and the same guard (no earlier
//! situation with owner stones on all of A and on a point of a region)
//! makes every such move new for superko; the game cannot end while a
//! region holds an opponent stone, except at once (the same exception).
//! On the 5x5 game positions this settles lines where the owner's last
//! eye space is a straight or bent three, without filling it: one thread,
//! thirteen positions with 13–15 empty points 11.9 M → 10.1 M nodes.
//!
//! # What a result using it depends on
//!
//! The guard is a condition on the history: a result derived with it holds
//! under another history H' only if no situation of H' matches the pattern
//! "owner stones on all of A and on some point of the regions". Such results
//! carry the pattern in their [`Dep`] (the set P of `search::tt`), merged up
//! the tree like the candidates T, and a stored result is reused only where
//! no situation above the node matches one of its patterns.

use super::node::Node;
use super::path::Path;
use super::tt::{Dep, Pattern};
use crate::rules::geometry::Geometry;
use crate::rules::life::Pairs;
use crate::rules::position::{Color, Rules};

/// Whether no situation on `path` (the history and the path to the node,
/// the node included) has stones of the owner (`black` or White) on all of
/// `pairs.alive` and on a point of `pairs.points`.
pub(crate) fn holds(path: &Path, black: bool, pairs: &Pairs) -> bool {
    !pattern(black, pairs).occurs_in(path.steps())
}

fn pattern(black: bool, pairs: &Pairs) -> Pattern {
    Pattern { black, req: pairs.alive, any: pairs.points | pairs.triples }
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
    // Three-point regions only without suicide (see the module
    // documentation).
    let keep = |p: &Pairs| if rules.suicide { Pairs { triples: 0, ..*p } } else { *p };
    let [black, white] = [keep(&pairs[0]), keep(&pairs[1])];
    // The opponent may end the game now (the owner passed last): not with
    // a stone in a region.
    let may_end = |owner: Color, p: &Pairs| {
        node.to_move == owner.opponent()
            && node.passes > 0
            && node.pos.stones(owner.opponent()) & (p.points | p.triples) != 0
    };
    let gain = |p: &Pairs| (3 * p.count() + 5 * p.triple_count()) as i32;
    if black.points | black.triples != 0 && !may_end(Color::Black, &black) {
        let low = (lo + gain(&black)).min(n);
        if low >= beta && holds(path, true, &black) {
            dep.add_pattern(pattern(true, &black));
            return Some(low);
        }
    }
    if white.points | white.triples != 0 && !may_end(Color::White, &white) {
        let high = (hi - gain(&white)).max(-n);
        if high <= alpha && holds(path, false, &white) {
            dep.add_pattern(pattern(false, &white));
            return Some(high);
        }
    }
    None
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
            assert_eq!(pairs[0].triple_count(), 1, "{d}");
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
