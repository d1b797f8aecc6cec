//! Principal variations: the line a solve reports (each move keeps the
//! exact value) and the line of a claim's proof (the prover's moves keep the
//! bound), both walked with null-window tests of a [`Searcher`].

use crate::rules::geometry::Geometry;
use crate::rules::position::{Color, Move, Rules};
use crate::search::engines::searcher::Searcher;
use crate::search::engines::value_driver::at_empty_start;
use crate::search::tree::node::{legal_children, Node};
use crate::search::tree::path::Path;
use crate::search::tuning::{BOUND_PV_CAP, PV_HORIZON};
use crate::search::types::stop::Stop;

/// Walk down from `node` (exact value `value`), at each step taking a legal
/// move whose child provably has the same value, for at most `cap` moves.
/// Each step depends only on the line above it, so a capped line is the
/// start of the whole one.
///
/// The children are tested in rounds of growing horizon (see
/// [`Searcher::search_within`]), so the move taken is one whose proof is
/// short: testing them one by one to the end may spend millions of nodes
/// proving that a pass also keeps the value after a long ko fight. The
/// first round is the smallest ([`PV_HORIZON`]), so that a child the table
/// already settles is taken before any child costs a search.
pub(crate) fn principal_variation(
    searcher: &mut dyn Searcher,
    geo: &Geometry,
    rules: &Rules,
    path: &mut Path,
    node: Node,
    value: i32,
    cap: usize,
) -> Result<Vec<Move>, Stop> {
    walk_line(path, node, cap, |path, node| {
        if value == 0 && at_empty_start(path, node) {
            // An exact 0 at the start: the pass keeps it without a test (see
            // `start_range`; a bound, as in `bound_variation`, would not do).
            return Ok((Move::Pass, node.child(Move::Pass, node.pos)));
        }
        pv_step(searcher, geo, rules, path, node, value)
    })
}

/// The line from `node` that `step` chooses at each node until the game ends
/// (or `cap` moves), with `path` restored afterwards whatever happens.
fn walk_line(
    path: &mut Path,
    mut node: Node,
    cap: usize,
    mut step: impl FnMut(&mut Path, &Node) -> Result<(Move, Node), Stop>,
) -> Result<Vec<Move>, Stop> {
    let base = path.len();
    let mut pv = Vec::new();
    let result = (|| {
        while !node.is_over() && pv.len() < cap {
            let (mv, c) = step(path, &node)?;
            path.push(c.pos, c.to_move);
            pv.push(mv);
            node = c;
        }
        Ok(())
    })();
    while path.len() > base {
        path.pop();
    }
    result.map(|()| pv)
}

/// One step of [`principal_variation`]: a child of `node` with its value.
fn pv_step(
    searcher: &mut dyn Searcher,
    geo: &Geometry,
    rules: &Rules,
    path: &mut Path,
    node: &Node,
    value: i32,
) -> Result<(Move, Node), Stop> {
    let mut children = legal_children(geo, rules, path, node);
    // Pass first (it keeps the line short), then the move that proved the
    // node's bound, likely the cheapest to confirm.
    if let Some(h) = searcher.hint(path, node) {
        if let Some(i) = children.iter().position(|&(m, _)| m == h).filter(|&i| i > 0) {
            children[1..=i].rotate_right(1);
        }
    }
    // No child is better for the mover than the node's value, so one null
    // window tells whether a child reaches it.
    let window = match node.to_move {
        Color::Black => (value - 1, value),
        Color::White => (value, value + 1),
    };
    let mut horizon = PV_HORIZON;
    loop {
        let mut i = 0;
        while i < children.len() {
            let (mv, c) = children[i];
            path.push(c.pos, c.to_move);
            let r = searcher.search_within(path, c, window.0, window.1, horizon);
            path.pop();
            match r? {
                Some(v) if reaches(node.to_move, v, value) => return Ok((mv, c)),
                Some(_) => {
                    children.remove(i);
                }
                None => i += 1,
            }
        }
        assert!(!children.is_empty(), "some child of an exactly valued node has its value");
        horizon = horizon.saturating_mul(2);
    }
}

/// Whether a child value `v` (a bound from a null window at `value`) shows
/// the child reaches `value` for the player `mover`.
fn reaches(mover: Color, v: i32, value: i32) -> bool {
    match mover {
        Color::Black => v >= value,
        Color::White => v <= value,
    }
}

/// A line from `node` along which `prover` keeps `bound` (Black: value ≥
/// bound; White: ≤ bound), which `node` is proved to satisfy: at the
/// prover's turns a move whose child provably keeps it, at the opponent's
/// its table move if legal, else a pass (every opponent move keeps it).
#[allow(clippy::too_many_arguments)]
pub(crate) fn bound_variation(
    searcher: &mut dyn Searcher,
    geo: &Geometry,
    rules: &Rules,
    path: &mut Path,
    node: Node,
    prover: Color,
    bound: i32,
) -> Result<Vec<Move>, Stop> {
    walk_line(path, node, BOUND_PV_CAP, |path, node| {
        if node.to_move == prover {
            pv_step(searcher, geo, rules, path, node, bound)
        } else {
            let children = legal_children(geo, rules, path, node);
            let hint = searcher.hint(path, node);
            Ok(*children.iter().find(|&&(m, _)| Some(m) == hint).unwrap_or(&children[0]))
        }
    })
}
