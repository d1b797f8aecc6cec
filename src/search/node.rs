//! The game-tree node the fast solver searches, and its legal children.
//! The history a node is reached by is the [`Path`]; superko is checked
//! against it here.

use super::path::Path;
use crate::rules::geometry::Geometry;
use crate::rules::history::Game;
use crate::rules::movegen;
use crate::rules::position::{Color, Move, Position, Rules};

/// Larger than any score on a 64-point board.
pub const INF: i32 = 1000;

/// A node of the game tree: the coloring, the player to move, and how many
/// passes were just played (2 ends the game). The history is the [`Path`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Node {
    pub pos: Position,
    pub to_move: Color,
    pub passes: u8,
}

impl Node {
    pub fn of_game(game: &Game) -> Node {
        Node { pos: game.position, to_move: game.to_move, passes: game.passes }
    }
    #[inline(always)]
    pub fn is_over(&self) -> bool {
        self.passes >= 2
    }
}

/// The child reached by `mv`, or `None` when the move is illegal (occupied,
/// suicide where forbidden, or a superko repeat of a situation on `path`).
/// The second value is the ply of the repeated situation for superko bans.
#[inline]
pub fn child(geo: &Geometry, rules: &Rules, path: &Path, node: &Node, mv: Move) -> Result<Node, Option<u32>> {
    match mv {
        Move::Pass => Ok(Node { pos: node.pos, to_move: node.to_move.opponent(), passes: node.passes + 1 }),
        Move::Play(p) => {
            let next = node.pos.play(geo, node.to_move, p, rules.suicide).map_err(|_| None)?;
            let opp = node.to_move.opponent();
            match path.latest(&path.key(next, opp)) {
                Some(ply) => Err(Some(ply)),
                None => Ok(Node { pos: next, to_move: opp, passes: 0 }),
            }
        }
    }
}

/// Legal turns at `node`, pass first.
pub(crate) fn legal_children(geo: &Geometry, rules: &Rules, path: &Path, node: &Node) -> Vec<(Move, Node)> {
    let mut out = Vec::new();
    if node.is_over() {
        return out;
    }
    out.push((Move::Pass, Node { pos: node.pos, to_move: node.to_move.opponent(), passes: node.passes + 1 }));
    let opp = node.to_move.opponent();
    for (p, next) in movegen::all_placements(geo, &node.pos, node.to_move, rules.suicide) {
        if path.latest(&path.key(next, opp)).is_none() {
            out.push((Move::Play(p), Node { pos: next, to_move: opp, passes: 0 }));
        }
    }
    out
}
