//! Move priors for df-pn: how often a move with the same 3x3 surroundings
//! proved its node in the proofs of 5x5 solves (one prior learned from the
//! proof of the empty board, for the tests of a whole-board result; one
//! from value-only solves, for the others).
//!
//! # Why
//!
//! On the 18- and 20-empty 5x5 positions most of df-pn's nodes go to moves
//! that do not prove their node (more than half at the root of a test,
//! measured 2026-11-25), because its numbers cannot tell the proving move from the
//! others until that proof is nearly done. A hand-weighted move score
//! ranked the proving move first at 43 % of the won nodes and saved a tenth
//! of the nodes, but its flood fills cost more time than that. What is here
//! costs a table look-up per move: the move's 3x3 surroundings (each of the
//! eight neighbours empty, the mover's, the opponent's or off the board)
//! and whether it captures, 2^17 codes.
//!
//! # Where the numbers come from
//!
//! `examples/policy_train.rs` reads a checkpoint and counts, over every
//! stored result whose best move proved it for the player to move (an exact
//! value, a lower bound with Black to move, an upper bound with White to
//! move), for each code how often a move of that code was legal (t) and
//! how often it was the proving move (w). The score is (w + 1) / (t + 10);
//! only its order matters, so the file keeps each seen code's rank among
//! the scores.
//! - [`Prior::WholeBoard`]: the checkpoint of the 5x5 proof
//!   (`scripts/moonshot.sh`, 24.2 M results, 13.2 M with a proving move,
//!   9,478 codes seen). On a sixteenth of those results held out from the
//!   counts, the score ranks the proving move first 55.8 % of the time,
//!   among the first three 87.4 % (mean rank 0.93).
//! - [`Prior::Tight`]: two checkpoints of value-only solves (one thread,
//!   75 s each) of 16 5x5 positions after 7 random moves, 6 of them solved
//!   in the time (`scripts/policy-tight.sh`; 2026-11-27, commit 56fa3b9,
//!   `results/solve.md`): 9.2 M results with a proving move, 9,404 codes seen. Such
//!   a solve's tests ask for a bound near the value, and their proofs
//!   differ: on the held-out sixteenth the score ranks the proving move
//!   first 58.1 % of the time (among three 90.7 %, mean rank 0.78), the
//!   whole-board prior 51.6 % (87.2 %, 0.97). The positions were drawn at
//!   random so that none of the benchmark positions (from GNU Go's games)
//!   is in the counts.
//! - Both files also hold the codes of the strips (boards one point wide,
//!   whose codes no wider board has, see [`Patterns::new`]), counted from
//!   every-move solves of 1x9 to 1x13 (`scripts/policy-strips.sh`; how
//!   well they rank and what they save: `results/solve.md`, 2026-11-29).
//!   Without them every strip move was an unseen code, and df-pn took the
//!   moves in point order, the end point first.
//!
//! # Why it cannot change a value
//!
//! The prior only biases which child df-pn expands next
//! ([`crate::search::engines::solver`]'s df-pn, `PRIOR_STEP` and `PRIOR_PERCENT`):
//! like df-pn's starting numbers it decides the order of work, never how a
//! node is resolved.

use crate::rules::geometry::Geometry;
use crate::rules::position::{Color, Position};
use std::sync::OnceLock;

/// Which proofs a prior was learned from, and so which tests it serves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Prior {
    /// From the proof of the empty 5x5 board (`data/policy-ranks.bin`):
    /// for the tests of a whole-board result ("≥ N" on an N-point board,
    /// or its mirror "≥ 1 − N"), where one side must take every point.
    WholeBoard,
    /// From value-only solves of 5x5 positions after random openings
    /// (`data/policy-ranks-tight.bin`): for every other test, whose
    /// bound lies near the value.
    Tight,
}

/// The ranks of the codes seen in training (written by
/// `examples/policy_train.rs`): a little-endian u16, the rank of an unseen
/// code; then per seen code its u32 code and u16 rank. Higher ranks proved
/// more often.
const WHOLE_BOARD_RANKS: &[u8] = include_bytes!("../../../data/policy-ranks.bin");
const TIGHT_RANKS: &[u8] = include_bytes!("../../../data/policy-ranks-tight.bin");

/// Codes: 2 bits per neighbour and a capture bit.
pub const CODES: usize = 1 << 17;

/// The rank of every code under `prior`, decoded once.
fn ranks(prior: Prior) -> &'static [u16] {
    static WHOLE_BOARD: OnceLock<Vec<u16>> = OnceLock::new();
    static TIGHT: OnceLock<Vec<u16>> = OnceLock::new();
    let (cell, bytes) = match prior {
        Prior::WholeBoard => (&WHOLE_BOARD, WHOLE_BOARD_RANKS),
        Prior::Tight => (&TIGHT, TIGHT_RANKS),
    };
    cell.get_or_init(|| {
        let unseen = u16::from_le_bytes([bytes[0], bytes[1]]);
        let mut t = vec![unseen; CODES];
        for rec in bytes[2..].chunks_exact(6) {
            let code = u32::from_le_bytes(rec[..4].try_into().expect("four bytes")) as usize;
            t[code] = u16::from_le_bytes([rec[4], rec[5]]);
        }
        t
    })
}

/// The rank of a code (see [`Patterns::code`]) under `prior`, on any board.
pub fn rank_of_code(prior: Prior, code: u32) -> u16 {
    ranks(prior)[code as usize]
}

/// Whether `me`'s move from `pos` to `next` captures (the code's bit 16):
/// one definition for the search and for the counts it was trained on.
#[inline]
pub fn captures(pos: &Position, me: Color, next: &Position) -> bool {
    next.stones(me.opponent()) != pos.stones(me.opponent())
}

/// The eight neighbours of every point of one board, for the codes.
pub struct Patterns {
    /// N, NE, E, SE, S, SW, W, NW; 255 off the board. On a strip two of
    /// them are the points two away along it (see [`Patterns::new`]).
    around: Vec<[u8; 8]>,
    whole_board: &'static [u16],
    tight: &'static [u16],
}

impl Patterns {
    pub fn new(geo: &Geometry) -> Patterns {
        let (w, h) = (geo.width() as i32, geo.height() as i32);
        let mut d = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)];
        // On a strip one point wide, the neighbours across it are off the
        // board at every point, and the code could not tell a2 from a3. Two
        // of those slots hold the points two away along the strip instead.
        // The four diagonals stay off the board, which no point of a board
        // two or more wide has, so a strip's codes are its own.
        if w == 1 {
            (d[2], d[6]) = ((0, 2), (0, -2));
        } else if h == 1 {
            (d[0], d[4]) = ((2, 0), (-2, 0));
        }
        let around = (0..geo.points() as u8)
            .map(|p| {
                let (x, y) = geo.xy(p);
                std::array::from_fn(|k| {
                    let (nx, ny) = (x as i32 + d[k].0, y as i32 + d[k].1);
                    if nx < 0 || ny < 0 || nx >= w || ny >= h {
                        255
                    } else {
                        geo.point(nx as usize, ny as usize)
                    }
                })
            })
            .collect();
        Patterns { around, whole_board: ranks(Prior::WholeBoard), tight: ranks(Prior::Tight) }
    }

    /// The code of a move at `p` by `me` in `pos`: two bits per neighbour
    /// (0 empty, 1 the mover's, 2 the opponent's, 3 off the board), bit 16
    /// whether it captures.
    #[inline]
    pub fn code(&self, pos: &Position, me: Color, p: u8, captures: bool) -> u32 {
        let (own, opp) = (pos.stones(me), pos.stones(me.opponent()));
        let mut c = 0u32;
        for (k, &q) in self.around[p as usize].iter().enumerate() {
            let v = if q == 255 { 3 } else { ((own >> q) & 1) as u32 | (((opp >> q) & 1) as u32) << 1 };
            c |= v << (2 * k);
        }
        c | (captures as u32) << 16
    }

    /// The rank of a move under `prior` (higher: proved more often; the
    /// rank of its code, see [`rank_of_code`]).
    #[inline]
    pub fn rank(&self, prior: Prior, pos: &Position, me: Color, p: u8, captures: bool) -> u16 {
        let ranks = match prior {
            Prior::WholeBoard => self.whole_board,
            Prior::Tight => self.tight,
        };
        ranks[self.code(pos, me, p, captures) as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_corner_move_sees_the_edges_and_its_neighbours() {
        let geo = Geometry::new(3, 3).unwrap();
        let patterns = Patterns::new(&geo);
        let a1 = geo.point(0, 0);
        let mut pos = Position::EMPTY;
        pos.set(geo.point(0, 1), Some(Color::Black)); // a2, north of a1
        pos.set(geo.point(1, 0), Some(Color::White)); // b1, east of a1
        let code = patterns.code(&pos, Color::Black, a1, false);
        // N own, NE empty, E the opponent's, SE, S, SW, W, NW off the board.
        let want = 1 | 2 << 4 | 3 << 6 | 3 << 8 | 3 << 10 | 3 << 12 | 3 << 14; // NE: 0
        assert_eq!(code, want);
        // The same from White's side swaps own and opponent's; a capture sets bit 16.
        assert_eq!(patterns.code(&pos, Color::White, a1, true), (want ^ 0b11 ^ 0b11 << 4) | 1 << 16);
    }

    #[test]
    fn a_strip_move_sees_two_points_along_the_strip() {
        let geo = Geometry::new(1, 9).unwrap();
        let patterns = Patterns::new(&geo);
        let at = |y| geo.point(0, y);
        let mut pos = Position::EMPTY;
        // White at a5, two above a3.
        pos.set(at(4), Some(Color::White));
        // a3: N a4 empty, E a5 the opponent's (two up), S a2 empty, W a1
        // empty (two down); the four diagonals off the board.
        let diagonals = 3 << 2 | 3 << 6 | 3 << 10 | 3 << 14;
        assert_eq!(patterns.code(&pos, Color::Black, at(2), false), diagonals | 2 << 4);
        // a2 and a3 differ on the empty strip: a2's point two down is off the board.
        let empty = Position::EMPTY;
        assert_eq!(patterns.code(&empty, Color::Black, at(1), false), diagonals | 3 << 12);
        assert_eq!(patterns.code(&empty, Color::Black, at(2), false), diagonals);
        // What the strips' proofs taught: the end point is the worst first move.
        for prior in [Prior::WholeBoard, Prior::Tight] {
            let rank = |y| patterns.rank(prior, &empty, Color::Black, at(y), false);
            assert!(rank(0) < rank(1), "{prior:?}");
        }
    }

    #[test]
    fn the_training_data_are_legal_moves_of_solved_positions() {
        // The proving moves a solve leaves in its memory (the prior's
        // training data): each on an empty point of its position, where the
        // player to move may play, mirror images and all.
        let geo = Geometry::new(4, 3).unwrap();
        let rules = crate::Rules::default();
        let game = crate::Game::new(geo, rules, Position::EMPTY, Color::Black).unwrap();
        let memory = crate::search::Memory::new(geo, &rules, 16);
        let opts = crate::search::SolveOptions { threads: 1, memory: Some(memory.clone()), ..Default::default() };
        crate::search::solve(&game, &opts).unwrap();
        let mut seen = 0;
        memory.for_each_proof_move(|pos, me, p| {
            assert!(pos.at(p).is_none(), "{pos:?} {p}");
            assert!(pos.play(&geo, me, p, rules.suicide).is_ok(), "{pos:?} {me:?} {p}");
            seen += 1;
        });
        assert!(seen > 100, "{seen}");
    }

    #[test]
    fn every_code_has_a_rank_and_captures_rank_above_filling_own_eyes() {
        for prior in [Prior::WholeBoard, Prior::Tight] {
            assert_eq!(ranks(prior).len(), CODES);
        }
        let geo = Geometry::new(5, 5).unwrap();
        let patterns = Patterns::new(&geo);
        // c3 surrounded by Black on all eight sides: an own eye.
        let mut eye = Position::EMPTY;
        for &(x, y) in &[(1, 1), (1, 2), (1, 3), (2, 1), (2, 3), (3, 1), (3, 2), (3, 3)] {
            eye.set(geo.point(x, y), Some(Color::Black));
        }
        // A White stone at a1, Black at a2: b1 takes it at its last liberty.
        let mut atari = Position::EMPTY;
        atari.set(geo.point(0, 0), Some(Color::White));
        atari.set(geo.point(0, 1), Some(Color::Black));
        for prior in [Prior::WholeBoard, Prior::Tight] {
            let fill = patterns.rank(prior, &eye, Color::Black, geo.point(2, 2), false);
            let take = patterns.rank(prior, &atari, Color::Black, geo.point(1, 0), true);
            assert!(take > fill, "{prior:?}: capture {take}, own eye {fill}");
        }
    }
}
