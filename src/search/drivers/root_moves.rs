//! The root of a solve: its path, node and legal children, and their orbits
//! under the game's symmetries (one root move searched per orbit, the
//! others given its value).

use crate::rules::geometry::Bits;
use crate::rules::history::Game;
use crate::rules::position::Move;
use crate::search::tree::node::{legal_children, Node};
use crate::search::tree::path::Path;

/// The root of a solve: its path, node, legal children and their orbits
/// under the game's symmetries.
pub(crate) struct Root {
    pub path: Path,
    pub node: Node,
    pub children: Vec<(Move, Node)>,
    /// For each child, its orbit's first child ([`orbit_representatives`]).
    pub reps: Vec<usize>,
}

impl Root {
    pub(crate) fn new(game: &Game) -> Root {
        let path = Path::from_game(game);
        let node = Node::of_game(game);
        let children = legal_children(&game.geo, &game.rules, &path, &node);
        let reps = orbit_representatives(game, &children);
        Root { path, node, children, reps }
    }
    /// The ply of the root on its path.
    pub fn ply(&self) -> usize {
        self.path.len() - 1
    }
    /// The index of each orbit's first child: one root move per orbit.
    pub fn orbit_firsts(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.children.len()).filter(|&i| self.reps[i] == i)
    }
    /// The points of the root moves a value-only solve skips ([`mirror_moves`]).
    pub fn mirror_moves(&self) -> Bits {
        mirror_moves(&self.children, &self.reps)
    }
}

/// For each root child, the index of the first child in its orbit under the
/// game's symmetries (see [`crate::rules::symmetry::game_stabilizer`]): children
/// with the same representative have the same value.
fn orbit_representatives(game: &Game, children: &[(Move, Node)]) -> Vec<usize> {
    let syms = crate::rules::symmetry::game_stabilizer(game);
    let index = |mv: Move| children.iter().position(|&(m, _)| m == mv);
    children
        .iter()
        .enumerate()
        .map(|(i, &(mv, _))| match mv {
            Move::Pass => i,
            Move::Play(p) => syms.iter().filter_map(|s| index(Move::Play(s.point(p)))).fold(i, usize::min),
        })
        .collect()
}

/// The points of the root moves that are images of earlier root moves under
/// the game's symmetries, from the root's children and their
/// [`orbit_representatives`].
fn mirror_moves(children: &[(Move, Node)], reps: &[usize]) -> Bits {
    children
        .iter()
        .zip(reps.iter().enumerate())
        .filter_map(|(&(mv, _), (i, &r))| match mv {
            Move::Play(p) if r != i => Some(1u64 << p),
            _ => None,
        })
        .fold(0, |m, b| m | b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::position::Rules;

    fn game(width: usize, height: usize, moves: &str) -> Game {
        Game::after(width, height, Rules::default(), moves)
    }

    /// Children in the same orbit under the game's symmetries share a
    /// representative; the skipped mirror moves are exactly the others.
    #[test]
    fn orbits_of_the_empty_strip() {
        let root = Root::new(&game(1, 5, ""));
        // Pass, then a1..a5: a5 mirrors a1, a4 mirrors a2.
        assert_eq!(root.reps, vec![0, 1, 2, 3, 2, 1]);
        let skipped: Vec<u8> = (0..5).filter(|p| root.mirror_moves() & (1 << p) != 0).collect();
        assert_eq!(skipped, vec![3, 4]);
    }
}
