//! The search path: every situation from the start of the game down to the
//! node being searched, with exact superko membership and, for each key, the
//! ply of its latest occurrence.
//!
//! The latest ply is what the solver's history-dependence tracking needs: a
//! move banned by superko depends on the history *above* a node only when the
//! repeated situation last occurred above it (see `search::tt`).
//!
//! For each ply the path also keeps G, the board symmetries (identity
//! excluded) that fix *every* situation from the game's start down to that
//! ply, as a bitmask over [`Path::symmetry`] (see [`Path::symmetric`]). Below
//! a node whose G holds s the whole game tree is s-symmetric, so the solver
//! searches one move of each orbit there (`Solver::generate`), and a table
//! result that relied on s is reused only where G holds s (clause 4 of the
//! reuse rule in `search::tt`). G only shrinks down the path, so once it is
//! empty nothing more is computed.

use super::hash::{bloom_bits, FastMap, BLOOM_BITS};
use crate::rules::history::{Game, SuperkoKey};
use crate::rules::position::{Color, Position, Superko};
use crate::rules::symmetry::{symmetries, Symmetry};
use std::sync::Arc;

/// One situation on the path.
#[derive(Clone, Copy, Debug)]
pub struct Step {
    pub key: SuperkoKey,
    /// The ply at which `key` last occurred before this step, if it did.
    prev_latest: Option<u32>,
    /// G at this ply: the symmetries (bit i: [`Path::symmetry`]`(i)`) that
    /// fix this situation and every one before it.
    sym: u8,
}

/// The situations from the game's start to the current node.
#[derive(Clone, Debug)]
pub struct Path {
    superko: Superko,
    steps: Vec<Step>,
    latest: FastMap<SuperkoKey, u32>,
    /// Plies of the path's situations grouped by the first Bloom bit of their
    /// coloring: a table entry whose filter lacks bit `a` cannot contain any
    /// of `by_bloom[a]`, so the reuse check only looks at the lists of set bits.
    by_bloom: Vec<Vec<u32>>,
    /// The board's symmetries other than the identity (at most 7), shared
    /// by the clones of a path.
    syms: Arc<[Symmetry]>,
}

impl Path {
    /// The path of a game: every situation it went through, oldest first.
    pub fn from_game(game: &Game) -> Path {
        let mut path = Path {
            superko: game.rules.superko,
            steps: Vec::new(),
            latest: FastMap::default(),
            by_bloom: vec![Vec::new(); BLOOM_BITS],
            syms: symmetries(&game.geo).into_iter().filter(|s| !s.is_identity()).collect(),
        };
        for &(pos, to_move) in game.history.line() {
            path.push(pos, to_move);
        }
        path
    }

    /// Number of situations (the current node is at ply `len() - 1`).
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.steps.len()
    }
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    #[inline(always)]
    pub fn key(&self, pos: Position, to_move: Color) -> SuperkoKey {
        SuperkoKey::new(pos, to_move, self.superko)
    }

    /// Enter a situation.
    #[inline]
    pub fn push(&mut self, pos: Position, to_move: Color) {
        let key = self.key(pos, to_move);
        let ply = self.steps.len() as u32;
        let prev_latest = self.latest.insert(key, ply);
        // G of the ply above (all symmetries before the game's start).
        let above = self.steps.last().map_or(((1u16 << self.syms.len()) - 1) as u8, |s| s.sym);
        let sym = if above == 0 { 0 } else { self.fixing(above, &pos) };
        self.steps.push(Step { key, prev_latest, sym });
        self.by_bloom[bloom_bits(pos.black, pos.white)[0]].push(ply);
    }

    /// Leave the current situation.
    #[inline]
    pub fn pop(&mut self) {
        let step = self.steps.pop().expect("pop on an empty path");
        self.by_bloom[bloom_bits(step.key.black, step.key.white)[0]].pop();
        match step.prev_latest {
            Some(p) => {
                self.latest.insert(step.key, p);
            }
            None => {
                self.latest.remove(&step.key);
            }
        }
    }

    /// The ply where `key` last occurred on the path, if it did (a superko hit).
    #[inline(always)]
    pub fn latest(&self, key: &SuperkoKey) -> Option<u32> {
        self.latest.get(key).copied()
    }

    /// The situations on the path, oldest first.
    #[inline(always)]
    pub fn steps(&self) -> &[Step] {
        &self.steps
    }

    /// Plies of situations whose coloring has first Bloom bit `bit`.
    #[inline(always)]
    pub fn plies_with_bloom_bit(&self, bit: usize) -> &[u32] {
        &self.by_bloom[bit]
    }

    pub fn superko(&self) -> Superko {
        self.superko
    }

    /// G of the current node: the symmetries (bit i: [`Path::symmetry`]`(i)`)
    /// that map every situation of the path, from the game's start down to
    /// and including the node, onto itself. The game tree below the node is
    /// then s-symmetric for each s in G: superko only asks whether a
    /// situation is in the history, and the rules commute with s.
    #[inline(always)]
    pub fn symmetric(&self) -> u8 {
        self.steps.last().map_or(0, |s| s.sym)
    }

    /// Symmetry number `i` of the masks of [`Path::symmetric`].
    #[inline(always)]
    pub fn symmetry(&self, i: usize) -> &Symmetry {
        &self.syms[i]
    }

    /// The members of `mask` that fix the coloring `pos`.
    fn fixing(&self, mask: u8, pos: &Position) -> u8 {
        let mut out = 0;
        let mut m = mask;
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            if self.syms[i].position(pos) == *pos {
                out |= 1 << i;
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::geometry::Geometry;
    use crate::rules::position::Rules;

    fn empty_game(superko: Superko) -> Game {
        let rules = Rules { superko, ..Rules::default() };
        Game::new(Geometry::new(1, 4).unwrap(), rules, Position::EMPTY, Color::Black).unwrap()
    }

    /// `latest` names the last ply of a situation and is restored by `pop`.
    #[test]
    fn latest_follows_push_and_pop() {
        let mut path = Path::from_game(&empty_game(Superko::Positional));
        let a = Position { black: 1, white: 0 };
        path.push(a, Color::White);
        path.push(Position::EMPTY, Color::Black);
        let empty = path.key(Position::EMPTY, Color::Black);
        assert_eq!(path.latest(&empty), Some(2));
        path.pop();
        assert_eq!(path.latest(&empty), Some(0));
        assert_eq!(path.latest(&path.key(a, Color::White)), Some(1));
        path.pop();
        assert_eq!(path.latest(&path.key(a, Color::White)), None);
        assert_eq!(path.len(), 1);
    }

    /// Positional superko ignores the side to move; situational does not.
    #[test]
    fn superko_keys_by_rule() {
        let a = Position { black: 1, white: 0 };
        let mut pos = Path::from_game(&empty_game(Superko::Positional));
        pos.push(a, Color::White);
        assert_eq!(pos.latest(&pos.key(a, Color::Black)), Some(1));
        let mut sit = Path::from_game(&empty_game(Superko::Situational));
        sit.push(a, Color::White);
        assert_eq!(sit.latest(&sit.key(a, Color::Black)), None);
        assert_eq!(sit.latest(&sit.key(a, Color::White)), Some(1));
    }

    /// G (the symmetries fixing every situation so far) on push and pop:
    /// on the 3x3 board all seven before and after the centre, the a1-c3
    /// diagonal after a1, still after a pass, none after an asymmetric
    /// situation (and none below it even where the coloring is symmetric
    /// again); popping restores each.
    #[test]
    fn symmetry_mask_follows_push_and_pop() {
        let geo = Geometry::new(3, 3).unwrap();
        let game = Game::new(geo, Rules::default(), Position::EMPTY, Color::Black).unwrap();
        let mut path = Path::from_game(&game);
        assert_eq!(path.symmetric(), 0b111_1111);
        let b2 = Position { black: 1 << 4, white: 0 };
        path.push(b2, Color::White);
        assert_eq!(path.symmetric(), 0b111_1111);
        let a1 = Position { black: 1 << 4 | 1, white: 0 };
        path.push(a1, Color::White);
        let g = path.symmetric();
        assert_eq!(g.count_ones(), 1);
        let diagonal = path.symmetry(g.trailing_zeros() as usize);
        assert_eq!((diagonal.point(1), diagonal.point(3), diagonal.point(8)), (3, 1, 8), "b1 <-> a2, c3 fixed");
        path.push(a1, Color::Black); // a pass
        assert_eq!(path.symmetric(), g);
        let c1 = Position { black: a1.black, white: 1 << 2 };
        path.push(c1, Color::Black);
        assert_eq!(path.symmetric(), 0);
        path.push(Position { black: a1.black, white: 1 << 2 | 1 << 6 }, Color::Black);
        assert_eq!(path.symmetric(), 0, "symmetric again, but not the history");
        path.pop();
        path.pop();
        assert_eq!(path.symmetric(), g);
        path.pop();
        path.pop();
        assert_eq!(path.symmetric(), 0b111_1111);
        // One symmetry on a strip, none on a single point.
        assert_eq!(Path::from_game(&empty_game(Superko::Positional)).symmetric(), 1);
        let one = Game::new(Geometry::new(1, 1).unwrap(), Rules::default(), Position::EMPTY, Color::Black).unwrap();
        assert_eq!(Path::from_game(&one).symmetric(), 0);
    }

    /// The Bloom index groups plies by their first bit, in push order.
    #[test]
    fn bloom_index_tracks_plies() {
        let mut path = Path::from_game(&empty_game(Superko::Positional));
        let a = Position { black: 2, white: 0 };
        path.push(a, Color::White);
        let bit = bloom_bits(a.black, a.white)[0];
        assert!(path.plies_with_bloom_bit(bit).contains(&1));
        path.pop();
        assert!(!path.plies_with_bloom_bit(bit).contains(&1));
    }
}
