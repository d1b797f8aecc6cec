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

use super::hash::{canonical_bloom_hash, mix};
use crate::rules::history::{Game, SuperkoKey};
use crate::rules::position::{Color, Position, Superko};
use crate::rules::symmetry::{Symmetry, SymmetryTables};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Arc;

/// One situation on the path.
#[derive(Debug)]
pub struct Step {
    pub key: SuperkoKey,
    /// The Bloom hash of its canonical coloring ([`Path::canon`]), for the
    /// table's candidate filters; 0 until first asked for
    /// ([`Path::step_canon`]): most situations are pushed only to look a
    /// child up and popped again, and a canonical image costs the images
    /// under every symmetry (computing it at every push cost 8 % of the
    /// search on 4x4).
    /// (Atomic only so that a path can be shared by reference between
    /// threads, as the root's is before each clones it; every writer writes
    /// the same value.)
    canon: AtomicU64,
    /// The ply at which `key` last occurred before this step, if it did.
    prev_latest: Option<u32>,
    /// G at this ply: the symmetries (bit i: [`Path::symmetry`]`(i)`) that
    /// fix this situation and every one before it.
    sym: u8,
}

impl Clone for Step {
    fn clone(&self) -> Step {
        Step {
            key: self.key,
            canon: AtomicU64::new(self.canon.load(Relaxed)),
            prev_latest: self.prev_latest,
            sym: self.sym,
        }
    }
}

/// The situations from the game's start to the current node.
#[derive(Clone, Debug)]
pub struct Path {
    superko: Superko,
    steps: Vec<Step>,
    latest: LatestMap,
    /// The board's symmetries as tables (number 0 the identity; path
    /// symmetry bit i is number i + 1), for G and for canonical colorings
    /// ([`Path::canon`]), shared by the clones of a path.
    tables: Arc<SymmetryTables>,
}

impl Path {
    /// The path of a game: every situation it went through, oldest first.
    pub fn from_game(game: &Game) -> Path {
        let mut path = Path {
            superko: game.rules.superko,
            steps: Vec::new(),
            latest: LatestMap::with_slots(1 << 10),
            tables: Arc::new(SymmetryTables::new(&game.geo)),
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

    /// The Bloom hash ([`super::hash::bloom_hash`]) of the canonical image of `pos` (the
    /// least image under the board's symmetries): the same for `pos` and
    /// every image of it, which is what lets a candidate filter be used in
    /// any frame (see "Symmetry" in `search::tt`).
    #[inline]
    pub fn canon(&self, pos: &Position) -> u64 {
        canonical_bloom_hash(&self.tables, pos)
    }

    /// [`Path::canon`] of the coloring of the situation at `ply`, computed
    /// on first use and kept while the situation stays on the path.
    #[inline]
    pub fn step_canon(&self, ply: usize) -> u64 {
        let s = &self.steps[ply];
        match s.canon.load(Relaxed) {
            0 => {
                let c = self.canon(&Position { black: s.key.black, white: s.key.white });
                s.canon.store(c, Relaxed);
                c
            }
            c => c,
        }
    }

    /// A candidate (the situation `pos` with `to_move` to play, made by a
    /// move): its superko key and the Bloom hash of its canonical coloring,
    /// as [`crate::search::tt::Dep::add_candidate`] takes them.
    #[inline]
    pub fn candidate(&self, pos: Position, to_move: Color) -> (SuperkoKey, u64) {
        (self.key(pos, to_move), self.canon(&pos))
    }

    /// Enter a situation.
    #[inline]
    pub fn push(&mut self, pos: Position, to_move: Color) {
        let key = self.key(pos, to_move);
        let ply = self.steps.len() as u32;
        if self.latest.full() {
            // Rebuilt in path order, so that keys sit where stack order put them.
            self.latest = LatestMap::with_slots(self.latest.slots.len() * 2);
            for (i, s) in self.steps.iter().enumerate() {
                self.latest.insert(s.key, i as u32);
            }
        }
        let prev_latest = self.latest.insert(key, ply);
        // G of the ply above (all symmetries before the game's start).
        let above = self.steps.last().map_or(((1u16 << (self.tables.count() - 1)) - 1) as u8, |s| s.sym);
        let sym = if above == 0 { 0 } else { self.fixing(above, &pos) };
        self.steps.push(Step { key, canon: AtomicU64::new(0), prev_latest, sym });
    }

    /// Leave the current situation.
    #[inline]
    pub fn pop(&mut self) {
        let step = self.steps.pop().expect("pop on an empty path");
        self.latest.restore(&step.key, step.prev_latest);
    }

    /// The ply where `key` last occurred on the path, if it did (a superko hit).
    #[inline(always)]
    pub fn latest(&self, key: &SuperkoKey) -> Option<u32> {
        self.latest.get(key)
    }

    /// The situations on the path, oldest first.
    #[inline(always)]
    pub fn steps(&self) -> &[Step] {
        &self.steps
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
        self.tables.map(i + 1)
    }

    /// The members of `mask` that fix the coloring `pos`.
    fn fixing(&self, mask: u8, pos: &Position) -> u8 {
        let mut out = 0;
        let mut m = mask;
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            if self.tables.position(i + 1, pos) == *pos {
                out |= 1 << i;
            }
        }
        out
    }
}

/// The path's map from a situation to the ply of its latest occurrence: open
/// addressing with linear probing, changed only in stack order (a push
/// inserts or updates a key, the matching pop restores or removes it).
///
/// Stack order is what makes removal trivial: a key is removed by the pop of
/// the push that inserted it, when every key inserted after it has already
/// been removed, so no probe sequence still runs through its slot and the
/// slot can simply be cleared (no tombstones, no shifting). A general hash
/// map cost 4–8 % of the search in profiles.
#[derive(Clone, Debug)]
struct LatestMap {
    /// Per slot: the key and 1 + its latest ply (0: vacant).
    slots: Vec<(SuperkoKey, u32)>,
    len: usize,
}

impl LatestMap {
    fn with_slots(n: usize) -> LatestMap {
        LatestMap { slots: vec![(EMPTY, 0); n], len: 0 }
    }

    /// Whether one more key would fill more than half the slots.
    #[inline(always)]
    fn full(&self) -> bool {
        2 * (self.len + 1) > self.slots.len()
    }

    #[inline(always)]
    fn home(&self, key: &SuperkoKey) -> usize {
        let h = mix(key.black ^ mix(key.white ^ (key.side as u64) << 7));
        h as usize & (self.slots.len() - 1)
    }

    /// The slot of `key`, or the vacant slot where it would go.
    #[inline(always)]
    fn find(&self, key: &SuperkoKey) -> usize {
        let mask = self.slots.len() - 1;
        let mut i = self.home(key);
        loop {
            let (k, v) = &self.slots[i];
            if *v == 0 || k == key {
                return i;
            }
            i = (i + 1) & mask;
        }
    }

    #[inline(always)]
    fn get(&self, key: &SuperkoKey) -> Option<u32> {
        let v = self.slots[self.find(key)].1;
        v.checked_sub(1)
    }

    /// Set `key`'s latest ply; returns the previous one.
    #[inline(always)]
    fn insert(&mut self, key: SuperkoKey, ply: u32) -> Option<u32> {
        debug_assert!(!self.full() || self.len < self.slots.len());
        let i = self.find(&key);
        let prev = self.slots[i].1.checked_sub(1);
        if prev.is_none() {
            self.len += 1;
        }
        self.slots[i] = (key, ply + 1);
        prev
    }

    /// Undo the latest insert of `key`: back to `prev`, or removed.
    #[inline(always)]
    fn restore(&mut self, key: &SuperkoKey, prev: Option<u32>) {
        let i = self.find(key);
        debug_assert!(self.slots[i].1 != 0, "restore of a key not in the map");
        match prev {
            Some(p) => self.slots[i].1 = p + 1,
            None => {
                self.slots[i] = (EMPTY, 0);
                self.len -= 1;
            }
        }
    }
}

const EMPTY: SuperkoKey = SuperkoKey { black: 0, white: 0, side: 0 };

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::geometry::Geometry;
    use crate::rules::position::Rules;
    use crate::rules::symmetry::symmetries;

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

    /// The canonical Bloom hash is the same for a coloring and each of its
    /// images (on 3x3: the eight images of a1 + White b1), differs for a
    /// coloring that is no image, and a step's (computed on first use) is
    /// its coloring's.
    #[test]
    fn canonical_hash_is_the_same_for_every_image() {
        let geo = Geometry::new(3, 3).unwrap();
        let game = Game::new(geo, Rules::default(), Position::EMPTY, Color::Black).unwrap();
        let mut path = Path::from_game(&game);
        let p = Position { black: 1, white: 1 << 1 };
        let h = path.canon(&p);
        for s in symmetries(&geo) {
            assert_eq!(path.canon(&s.position(&p)), h);
        }
        assert_ne!(path.canon(&Position { black: 1, white: 1 << 4 }), h);
        path.push(p, Color::Black);
        assert_eq!(path.step_canon(1), h);
        assert_eq!(path.step_canon(1), h, "kept");
        assert_eq!(path.step_canon(0), path.canon(&Position::EMPTY));
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
}
