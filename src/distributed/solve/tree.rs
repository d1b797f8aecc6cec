//! The manager's AND/OR tree: positions reached from the solve's position by
//! real moves (every node's game is its parent's with one move played
//! through [`Game::play`], so superko legality holds under the whole
//! history), each with the bounds on its value proved so far and what
//! proved them.
//!
//! A node's value is the minimax value of the final area difference (Black
//! − White, komi excluded), as everywhere in gosolve. Its bounds only
//! narrow: `lo ≤ value ≤ hi`, each with its [`Evidence`]: the rules core
//! ([`Evidence::Static`], [`Evidence::Over`]), a worker's proof
//! ([`Evidence::Unit`], [`Evidence::After`]) or the node's children
//! ([`Evidence::Children`]: Black to move takes the best child, White the
//! worst; a node is expanded with every legal move, pass included, so an
//! upper bound for Black, or a lower one for White, covers every reply).

use crate::rules::history::Game;
use crate::rules::life::score_bounds;
use crate::rules::position::Position;
use crate::rules::position::{Color, Move};
use crate::search::ordering::playout::Playouts;
use crate::search::ordering::policy::{captures, Patterns, Prior};
use crate::search::tuning::PLAYOUT_MIN_SIDE as MIN_SIDE;

/// Empty points from which a node's children are ordered by the
/// playouts (below, by the 3x3 prior): they cost about 0.1 s a node at 20
/// empty 5x5 points, once per expansion.
const PLAYOUT_EMPTY: u32 = 12;
use serde::{Deserialize, Serialize};

/// A node's index in the tree.
pub type NodeId = u32;

/// What proved a bound.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "by", rename_all = "snake_case")]
pub enum Evidence {
    /// The board's size and Benson's pass-alive regions
    /// ([`crate::rules::life::score_bounds`]): valid under any history.
    Static,
    /// The game is over (two passes): the value is the score.
    Over,
    /// A worker's answer to a claim at this node.
    Unit { unit: String },
    /// A worker's answer to a claim at the parent, left undecided, that
    /// decided the claim after this node's move.
    After { unit: String },
    /// The children (Black to move: the best; White: the worst, over every
    /// legal move).
    Children,
}

impl Evidence {
    /// Whether it needs no look at the children (a leaf of a proof).
    pub fn is_leaf(&self) -> bool {
        !matches!(self, Evidence::Children)
    }
}

/// One node of the tree.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TreeNode {
    pub parent: Option<NodeId>,
    /// The move from the parent (`pass`, `c3`); none at the root.
    pub mv: Option<String>,
    /// Black to move (an OR node for "value ≥ b").
    pub black: bool,
    pub depth: u32,
    /// Every legal move's node (placements first, the pass last), once
    /// expanded; empty for a leaf.
    pub children: Vec<NodeId>,
    pub lo: i32,
    pub lo_by: Evidence,
    pub hi: i32,
    pub hi_by: Evidence,
    /// Legal moves here (0: the game is over).
    pub legal: u32,
    /// Its move's place among its siblings in the move prior's order (0:
    /// the first); biases the numbers of a fresh leaf as df-pn's do.
    #[serde(default)]
    pub order: u32,
    /// How often its unit came back undecided and was sent again with twice
    /// the budget instead of being expanded.
    pub grown: u32,
    /// The unit in flight for it, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub busy: Option<String>,
}

/// The tree, the solve's game at its root.
#[derive(Clone, Debug)]
pub struct Tree {
    pub root: Game,
    pub nodes: Vec<TreeNode>,
}

/// A contradiction between two proved bounds (a bug or a damaged state):
/// one line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the proved bounds contradict each other at the node after '{path}': {what}")]
pub struct Contradiction {
    pub path: String,
    pub what: String,
}

impl Tree {
    /// A tree of the one node `game`.
    pub fn new(game: Game) -> Tree {
        let node = node_of(&game, None, None, 0);
        Tree { root: game, nodes: vec![node] }
    }

    /// A tree with these nodes (read back from the manager's state).
    pub fn with_nodes(game: Game, nodes: Vec<TreeNode>) -> Tree {
        Tree { root: game, nodes }
    }

    pub fn node(&self, id: NodeId) -> &TreeNode {
        &self.nodes[id as usize]
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The moves from the root to `id`.
    pub fn path(&self, id: NodeId) -> Vec<String> {
        let mut moves = Vec::new();
        let mut at = id;
        while let Some(p) = self.node(at).parent {
            moves.push(self.node(at).mv.clone().unwrap_or_default());
            at = p;
        }
        moves.reverse();
        moves
    }

    /// The moves to `id` as one string ("" at the root).
    pub fn path_text(&self, id: NodeId) -> String {
        self.path(id).join(" ")
    }

    /// The game at `id`: the root's, its path replayed by the rules core.
    pub fn game_of(&self, id: NodeId) -> Game {
        let mut game = self.root.clone();
        for name in self.path(id) {
            let mv = Move::parse(&name, &game.geo).expect("a tree move names a move");
            game.play(mv).expect("a tree move is legal: it was generated by the rules core");
        }
        game
    }

    /// Give `id` a child for every legal move; their ids. A node already
    /// expanded keeps its children. The placements come in the order the
    /// one-process solver would try them at a test's root for the test
    /// "value ≥ `test`" (its playouts' ranks on a large board, else df-pn's
    /// move prior), the pass last: the order of the work, never anything
    /// decided.
    pub fn expand(&mut self, id: NodeId, test: Option<i32>) -> Vec<NodeId> {
        if !self.node(id).children.is_empty() {
            return self.node(id).children.clone();
        }
        let game = self.game_of(id);
        let depth = self.node(id).depth + 1;
        // Every legal move from the rules core, each child's game played by it.
        let mut kids: Vec<(Move, Game, u16)> = game
            .legal_moves()
            .into_iter()
            .map(|mv| {
                let mut child = game.clone();
                child.play(mv).expect("a legal move plays");
                (mv, child, 0)
            })
            .collect();
        let geo = game.geo;
        let empty = geo.points() as u32 - game.position.stone_count();
        let big = geo.width().min(geo.height()) >= MIN_SIDE && empty >= PLAYOUT_EMPTY;
        match test {
            Some(b) if big => {
                // The playouts' ranks (0 the best).
                let moves: Vec<(Move, Position)> = kids.iter().map(|(m, c, _)| (*m, c.position)).collect();
                let mut rank = vec![u32::MAX; moves.len()];
                let n = geo.points() as i32;
                let whole = b == n || b == 1 - n;
                Playouts::default().ranks(&geo, &game.position, game.to_move, b, whole, &moves, &mut rank);
                for ((mv, _, r), &k) in kids.iter_mut().zip(&rank) {
                    *r = if *mv == Move::Pass { 0 } else { u16::MAX - k.min(u16::MAX as u32 - 1) as u16 };
                }
            }
            _ => {
                // df-pn's move prior: higher ranks proved more often.
                let patterns = Patterns::new(&geo);
                for (mv, child, rank) in &mut kids {
                    if let Move::Play(p) = *mv {
                        let takes = captures(&game.position, game.to_move, &child.position);
                        *rank = 1 + patterns.rank(Prior::Tight, &game.position, game.to_move, p, takes);
                    }
                }
            }
        }
        kids.sort_by_key(|k| std::cmp::Reverse(k.2));
        let mut ids = Vec::with_capacity(kids.len());
        for (order, (mv, child, _)) in kids.into_iter().enumerate() {
            let mut node = node_of(&child, Some(id), Some(mv.name(&game.geo)), depth);
            node.order = order as u32;
            ids.push(self.nodes.len() as NodeId);
            self.nodes.push(node);
        }
        self.nodes[id as usize].children = ids.clone();
        ids
    }

    /// `value ≥ v` proved at `id` by `by`; the change carried to the
    /// ancestors.
    pub fn raise(&mut self, id: NodeId, v: i32, by: Evidence) -> Result<(), Contradiction> {
        self.set(id, Some(v), None, by)?;
        self.propagate(id)
    }

    /// `value ≤ v` proved at `id` by `by`; carried to the ancestors.
    pub fn lower(&mut self, id: NodeId, v: i32, by: Evidence) -> Result<(), Contradiction> {
        self.set(id, None, Some(v), by)?;
        self.propagate(id)
    }

    /// Narrow the bounds of `id` (only a stronger bound counts).
    fn set(&mut self, id: NodeId, lo: Option<i32>, hi: Option<i32>, by: Evidence) -> Result<bool, Contradiction> {
        let n = &mut self.nodes[id as usize];
        let mut changed = false;
        if let Some(v) = lo.filter(|&v| v > n.lo) {
            n.lo = v;
            n.lo_by = by.clone();
            changed = true;
        }
        if let Some(v) = hi.filter(|&v| v < n.hi) {
            n.hi = v;
            n.hi_by = by;
            changed = true;
        }
        if n.lo > n.hi {
            let what = format!("value >= {} and value <= {}", n.lo, n.hi);
            return Err(Contradiction { path: self.path_text(id), what });
        }
        Ok(changed)
    }

    /// Recompute the bounds that the children of `id`'s ancestors give, from
    /// `id`'s parent up, while they change.
    pub fn propagate(&mut self, id: NodeId) -> Result<(), Contradiction> {
        let mut at = self.node(id).parent;
        while let Some(p) = at {
            let (lo, hi) = self.children_bounds(p);
            if !self.set(p, Some(lo), Some(hi), Evidence::Children)? {
                break;
            }
            at = self.node(p).parent;
        }
        Ok(())
    }

    /// The bounds the children of an expanded node give it.
    fn children_bounds(&self, id: NodeId) -> (i32, i32) {
        let n = self.node(id);
        let kids = n.children.iter().map(|&c| self.node(c));
        if n.black {
            (kids.clone().map(|c| c.lo).max().unwrap_or(n.lo), kids.map(|c| c.hi).max().unwrap_or(n.hi))
        } else {
            (kids.clone().map(|c| c.lo).min().unwrap_or(n.lo), kids.map(|c| c.hi).min().unwrap_or(n.hi))
        }
    }

    /// The child of `id` reached by the move named `mv`.
    pub fn child_by_move(&self, id: NodeId, mv: &str) -> Option<NodeId> {
        self.node(id).children.iter().copied().find(|&c| self.node(c).mv.as_deref() == Some(mv))
    }

    /// The ids of `id`'s subtree, `id` first (parents before children).
    pub fn subtree(&self, id: NodeId) -> Vec<NodeId> {
        let mut out = vec![id];
        let mut i = 0;
        while i < out.len() {
            out.extend_from_slice(&self.node(out[i]).children);
            i += 1;
        }
        out
    }
}

/// The node of `game`: its bounds from the rules core (the score where the
/// game is over; else Benson's bounds within the board's size).
fn node_of(game: &Game, parent: Option<NodeId>, mv: Option<String>, depth: u32) -> TreeNode {
    let (lo, hi, by, legal) = if game.is_over() {
        let s = game.score();
        (s, s, Evidence::Over, 0)
    } else {
        let n = game.geo.points() as i32;
        let (lo, hi) = score_bounds(&game.geo, &game.position);
        (lo.max(-n), hi.min(n), Evidence::Static, game.legal_moves().len() as u32)
    };
    TreeNode {
        parent,
        mv,
        black: game.to_move == Color::Black,
        depth,
        children: Vec::new(),
        lo,
        lo_by: by.clone(),
        hi,
        hi_by: by,
        legal,
        order: 0,
        grown: 0,
        busy: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::geometry::Geometry;
    use crate::rules::position::{Position, Rules};

    /// 1x2, Black to move: expanded with every move, pass last; a child
    /// proved carries up through Black's choice and White's every reply.
    #[test]
    fn bounds_carry_up_by_and_or() {
        let geo = Geometry::new(1, 2).unwrap();
        let game = Game::new(geo, Rules::default(), Position::EMPTY, Color::Black).unwrap();
        let mut t = Tree::new(game);
        assert_eq!((t.node(0).lo, t.node(0).hi), (-2, 2));
        let kids = t.expand(0, None);
        let mut names: Vec<String> = kids.iter().map(|&k| t.node(k).mv.clone().unwrap()).collect();
        assert_eq!(names.pop().unwrap(), "pass", "the pass last");
        names.sort();
        assert_eq!(names, ["a1", "a2"]);
        let kids: Vec<NodeId> = ["a1", "a2", "pass"].iter().map(|m| t.child_by_move(0, m).unwrap()).collect();
        // Black a1 proved >= 2: the root is >= 2 (Black chooses).
        t.raise(kids[0], 2, Evidence::Unit { unit: "u".into() }).unwrap();
        assert_eq!((t.node(0).lo, t.node(0).lo_by.clone()), (2, Evidence::Children));
        // The upper bound needs every move.
        t.lower(kids[0], 2, Evidence::Unit { unit: "u".into() }).unwrap();
        assert_eq!(t.node(0).hi, 2);
        assert_eq!(t.game_of(kids[2]).passes, 1);
        assert_eq!(t.path_text(kids[1]), "a2");
        let e = t.lower(kids[0], 1, Evidence::Static).unwrap_err();
        assert!(e.to_string().contains("after 'a1'"), "{e}");
    }
}
