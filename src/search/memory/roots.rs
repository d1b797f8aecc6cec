//! The bounds solves proved on their root's value (a value-only solve's
//! tests, a decided claim, a value), kept with the memory so that a
//! value-only solve of the same root resumed from a checkpoint starts from
//! them instead of proving them again (`solve 1x18 --value-only
//! --checkpoint F` stopped at "+1 to +18" goes on from +1, as a batch job
//! does from its record).
//!
//! Unlike the table's results, a root's bounds carry no history
//! conditions, so they are kept only for the exact root they were proved
//! for: the position, the player to move, the passes just played and every
//! situation of its history (as the set of superko keys, which is all the
//! rules ever ask of a history). Komi is not part of it: like every value in
//! the memory, the bounds exclude it. The board and rules of play are the
//! memory's own.

use crate::rules::history::{Game, SuperkoKey};
use crate::search::types::outcome::BoundsLog;
use std::sync::{Arc, Mutex};

/// The situation a solve starts from, exactly: what its value depends on
/// besides the board, the rules of play and komi.
#[derive(Clone, Debug, PartialEq, Eq, bincode::Encode, bincode::Decode)]
pub struct Root {
    black: u64,
    white: u64,
    /// 0: Black to move, 1: White.
    to_move: u8,
    passes: u8,
    /// The history's distinct superko keys (black, white, side), sorted.
    history: Vec<(u64, u64, u8)>,
}

impl Root {
    /// The root of a solve of `game`.
    pub fn of(game: &Game) -> Root {
        let mut history: Vec<SuperkoKey> = game.history.keys().copied().collect();
        history.sort();
        Root {
            black: game.position.black,
            white: game.position.white,
            to_move: (game.to_move == crate::Color::White) as u8,
            passes: game.passes,
            history: history.iter().map(|k| (k.black, k.white, k.side)).collect(),
        }
    }

    /// The position on the board.
    pub fn position(&self) -> crate::Position {
        crate::Position { black: self.black, white: self.white }
    }

    /// The player to move.
    pub fn to_move(&self) -> crate::Color {
        if self.to_move == 0 {
            crate::Color::Black
        } else {
            crate::Color::White
        }
    }

    /// The passes just played (1: the next pass ends the game).
    pub fn passes(&self) -> u8 {
        self.passes
    }

    /// How many distinct situations its history holds (the position
    /// itself among them).
    pub fn situations(&self) -> usize {
        self.history.len()
    }
}

/// A root's bounds as a checkpoint stores them (komi excluded).
#[derive(Clone, Debug, PartialEq, Eq, bincode::Encode, bincode::Decode)]
pub struct SavedRoot {
    pub root: Root,
    pub lower: Option<i32>,
    pub upper: Option<i32>,
}

/// Every root a memory has bounds for, each with the log its solve narrows
/// (read when the memory is saved, so a save made while the solve runs
/// keeps what it has proved so far).
#[derive(Clone, Default)]
pub(super) struct Roots(Arc<Mutex<Vec<(Root, BoundsLog)>>>);

impl Roots {
    /// The log of `root`'s bounds, made empty where it has none yet.
    pub(super) fn log(&self, root: Root) -> BoundsLog {
        let mut all = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, log)) = all.iter().find(|(r, _)| *r == root) {
            return log.clone();
        }
        let log = BoundsLog::default();
        all.push((root, log.clone()));
        log
    }

    /// Every root with a bound proved.
    pub(super) fn saved(&self) -> Vec<SavedRoot> {
        let all = self.0.lock().unwrap_or_else(|e| e.into_inner());
        all.iter()
            .filter_map(|(root, log)| {
                let (lower, upper) = log.get();
                (lower.is_some() || upper.is_some()).then(|| SavedRoot { root: root.clone(), lower, upper })
            })
            .collect()
    }

    /// Put saved bounds back; bounds of the same root from several files (a
    /// merge) meet, as both were proved.
    pub(super) fn restore(&self, saved: &SavedRoot) {
        self.log(saved.root.clone()).narrow(saved.lower, saved.upper);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::position::Rules;

    #[test]
    fn a_root_is_its_situation_and_history() {
        let a = Game::after(3, 3, Rules::default(), "a1 c3 c1");
        assert_eq!(Root::of(&a), Root::of(&Game::after(3, 3, Rules::default(), "a1 c3 c1")));
        // The same position and player to move after another history.
        let b = Game::after(3, 3, Rules::default(), "c1 c3 a1");
        assert_eq!((a.position, a.to_move), (b.position, b.to_move));
        assert_ne!(Root::of(&a), Root::of(&b));
        // A pass pending or none.
        let mut c = a.clone();
        c.passes = 1;
        assert_ne!(Root::of(&a), Root::of(&c));
    }

    #[test]
    fn bounds_of_one_root_meet() {
        let roots = Roots::default();
        let root = Root::of(&Game::after(3, 3, Rules::default(), ""));
        roots.restore(&SavedRoot { root: root.clone(), lower: Some(1), upper: None });
        roots.restore(&SavedRoot { root: root.clone(), lower: Some(0), upper: Some(3) });
        assert_eq!(roots.log(root.clone()).get(), (Some(1), Some(3)));
        let other = Root::of(&Game::after(3, 3, Rules::default(), "b2"));
        assert_eq!(roots.log(other).get(), (None, None));
        assert_eq!(roots.saved(), vec![SavedRoot { root, lower: Some(1), upper: Some(3) }]);
    }
}
