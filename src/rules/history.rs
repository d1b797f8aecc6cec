//! History and games: whose turn it is, consecutive passes (rule 8) and the
//! superko record (rule 6), kept outside the `Copy` position.
//!
//! Superko membership is checked on exact keys (the two bitboards, plus the
//! player to move for situational superko), so a "repeat" is never reported
//! for a position that did not occur.

use crate::rules::geometry::{Bits, Geometry};
use crate::rules::movegen;
use crate::rules::position::{Color, IllegalMove, Move, Position, Rules, Superko};
use std::collections::HashMap;

/// The key superko compares: the coloring, and for situational superko also
/// the player to move in that situation (0 under positional superko).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct SuperkoKey {
    pub black: Bits,
    pub white: Bits,
    pub side: u8,
}

impl SuperkoKey {
    /// The key of `pos` with `to_move` to play, under `superko`.
    #[inline(always)]
    pub fn new(pos: Position, to_move: Color, superko: Superko) -> Self {
        let side = match superko {
            Superko::Positional => 0,
            Superko::Situational => 1 + (to_move == Color::White) as u8,
        };
        SuperkoKey { black: pos.black, white: pos.white, side }
    }
}

/// Every situation a game went through, as a multiset of exact superko keys.
/// Under positional superko a pass repeats the current coloring, hence counts.
#[derive(Clone, Debug)]
pub struct History {
    superko: Superko,
    seen: HashMap<SuperkoKey, u32>,
    /// The situations in order: (position, player to move).
    line: Vec<(Position, Color)>,
}

impl History {
    pub fn new(superko: Superko) -> Self {
        History { superko, seen: HashMap::new(), line: Vec::new() }
    }
    /// Record a situation.
    pub fn push(&mut self, pos: Position, to_move: Color) {
        *self.seen.entry(SuperkoKey::new(pos, to_move, self.superko)).or_insert(0) += 1;
        self.line.push((pos, to_move));
    }
    /// Would reaching `pos` with `to_move` to play repeat an earlier situation?
    pub fn contains(&self, pos: Position, to_move: Color) -> bool {
        self.seen.contains_key(&SuperkoKey::new(pos, to_move, self.superko))
    }
    /// The situations in order, oldest first.
    pub fn line(&self) -> &[(Position, Color)] {
        &self.line
    }
    pub fn superko(&self) -> Superko {
        self.superko
    }
    /// Distinct superko keys recorded, each once.
    pub fn keys(&self) -> impl Iterator<Item = &SuperkoKey> {
        self.seen.keys()
    }
}

/// Why a game could not be set up or continued.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    #[error("setup position is illegal: a block has no liberties")]
    IllegalSetup,
    #[error("move {number} ({color} {mv}): {reason}")]
    IllegalMove { number: usize, color: &'static str, mv: String, reason: IllegalMove },
}

/// A game in progress: geometry, rules, current position, turn, passes, history.
#[derive(Clone, Debug)]
pub struct Game {
    pub geo: Geometry,
    pub rules: Rules,
    pub position: Position,
    pub to_move: Color,
    /// Consecutive passes just played (2 ends the game).
    pub passes: u8,
    pub history: History,
    /// Moves played since the setup, with the player who made each.
    pub moves: Vec<(Color, Move)>,
    /// The position the game started from (setup stones, before any move).
    pub start: Position,
}

impl Game {
    /// Tests' game: the empty `width`x`height` board under `rules`, Black
    /// first, after `moves` (point names or `pass`); panics on bad input.
    #[cfg(test)]
    pub(crate) fn after(width: usize, height: usize, rules: Rules, moves: &str) -> Game {
        let geo = Geometry::new(width, height).unwrap();
        let mut g = Game::new(geo, rules, Position::EMPTY, Color::Black).unwrap();
        for m in moves.split_whitespace() {
            g.play(Move::parse(m, &geo).unwrap()).unwrap();
        }
        g
    }

    /// A game from a setup position; errors if a block has no liberties.
    pub fn new(geo: Geometry, rules: Rules, start: Position, to_move: Color) -> Result<Game, GameError> {
        if !start.is_legal(&geo) {
            return Err(GameError::IllegalSetup);
        }
        let mut history = History::new(rules.superko);
        history.push(start, to_move);
        Ok(Game { geo, rules, position: start, to_move, passes: 0, history, moves: Vec::new(), start })
    }

    /// Whether two consecutive passes have ended the game.
    pub fn is_over(&self) -> bool {
        self.passes >= 2
    }

    /// The position after `mv` by the player to move, or why it is illegal.
    pub fn try_move(&self, mv: Move) -> Result<Position, IllegalMove> {
        if self.is_over() {
            return Err(IllegalMove::GameOver);
        }
        match mv {
            Move::Pass => Ok(self.position),
            Move::Play(p) => {
                let next = self.position.play(&self.geo, self.to_move, p, self.rules.suicide)?;
                if self.history.contains(next, self.to_move.opponent()) {
                    Err(IllegalMove::Superko)
                } else {
                    Ok(next)
                }
            }
        }
    }

    /// Play `mv` for the player to move; on error the game is unchanged.
    pub fn play(&mut self, mv: Move) -> Result<(), GameError> {
        let next = self.try_move(mv).map_err(|reason| GameError::IllegalMove {
            number: self.moves.len() + 1,
            color: self.to_move.name(),
            mv: mv.name(&self.geo),
            reason,
        })?;
        self.moves.push((self.to_move, mv));
        self.passes = if mv == Move::Pass { self.passes + 1 } else { 0 };
        self.position = next;
        self.to_move = self.to_move.opponent();
        self.history.push(next, self.to_move);
        Ok(())
    }

    /// Every legal turn for the player to move, pass first, then points in order.
    pub fn legal_moves(&self) -> Vec<Move> {
        if self.is_over() {
            return Vec::new();
        }
        let mut out = vec![Move::Pass];
        let opp = self.to_move.opponent();
        out.extend(
            movegen::all_placements(&self.geo, &self.position, self.to_move, self.rules.suicide)
                .filter(|&(_, next)| !self.history.contains(next, opp))
                .map(|(p, _)| Move::Play(p)),
        );
        out
    }

    /// Black's area minus White's area now (komi not included).
    pub fn score(&self) -> i32 {
        self.position.score(&self.geo)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The documents' 2×2 superko game: after 6.W[a1], 7.B[a2] repeats move 1's position.
    #[test]
    fn document_superko_game() {
        let geo = Geometry::new(2, 2).unwrap();
        let mut g = Game::new(geo, Rules::default(), Position::EMPTY, Color::Black).unwrap();
        for m in ["a2", "b2", "a1", "b1", "a2", "a1"] {
            g.play(Move::parse(m, &geo).unwrap()).unwrap();
        }
        let a2 = Move::parse("a2", &geo).unwrap();
        assert_eq!(g.try_move(a2), Err(IllegalMove::Superko));
        assert_eq!(g.legal_moves(), vec![Move::Pass]);
        g.play(Move::Pass).unwrap();
        g.play(Move::Pass).unwrap();
        assert!(g.is_over());
        assert_eq!(g.score(), -4);
    }
}
