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
    /// The child reached by `mv`, whose coloring is `next` (for a pass, the
    /// node's own): the legality of `mv` (rules and superko) is the
    /// caller's, which has it from [`movegen`] and the path.
    #[inline(always)]
    pub fn child(&self, mv: Move, next: Position) -> Node {
        match mv {
            Move::Pass => Node { pos: self.pos, to_move: self.to_move.opponent(), passes: self.passes + 1 },
            Move::Play(_) => Node { pos: next, to_move: self.to_move.opponent(), passes: 0 },
        }
    }
}

/// Legal turns at `node`, pass first.
pub(crate) fn legal_children(geo: &Geometry, rules: &Rules, path: &Path, node: &Node) -> Vec<(Move, Node)> {
    let mut out = Vec::new();
    if node.is_over() {
        return out;
    }
    out.push((Move::Pass, node.child(Move::Pass, node.pos)));
    let opp = node.to_move.opponent();
    for (p, next) in movegen::all_placements(geo, &node.pos, node.to_move, rules.suicide) {
        if path.latest(&path.key(next, opp)).is_none() {
            out.push((Move::Play(p), node.child(Move::Play(p), next)));
        }
    }
    out
}
