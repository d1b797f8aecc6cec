//! A move prior for df-pn: how often a move with the same 3x3 surroundings
//! proved its node in the proof of the empty 5x5 board.
//!
//! # Why
//!
//! On the 18- and 20-empty 5x5 positions most of df-pn's nodes go to moves
//! that do not prove their node (session 27: more than half at the root of
//! a test), because its numbers cannot tell the proving move from the
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
//! the scores. The checkpoint was the 5x5 proof's (`results/moonshot.sh`,
//! 24.2 M results, 13.2 M with a proving move, 9,478 codes seen). On a
//! sixteenth of those results held out from the counts, the score ranks
//! the proving move first 55.8 % of the time, among the first three
//! 87.4 % (mean rank 0.93).
//!
//! # Why it cannot change a value
//!
//! The prior only biases which child df-pn expands next
//! ([`crate::search::solver`]'s df-pn, `PRIOR_STEP` and `PRIOR_PERCENT`):
//! like df-pn's starting numbers it decides the order of work, never how a
//! node is resolved.

use crate::rules::geometry::Geometry;
use crate::rules::position::{Color, Position};
use std::sync::OnceLock;

/// The ranks of the codes seen in training (`data/policy-ranks.bin`, written by `examples/policy_train.rs`):
/// a little-endian u16, the rank of an unseen code; then per seen code its
/// u32 code and u16 rank. Higher ranks proved more often.
const RANKS: &[u8] = include_bytes!("../../data/policy-ranks.bin");

/// Codes: 2 bits per neighbour and a capture bit.
pub const CODES: usize = 1 << 17;

/// The rank of every code, decoded once.
fn ranks() -> &'static [u16] {
    static TABLE: OnceLock<Vec<u16>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let unseen = u16::from_le_bytes([RANKS[0], RANKS[1]]);
        let mut t = vec![unseen; CODES];
        for rec in RANKS[2..].chunks_exact(6) {
            let code = u32::from_le_bytes(rec[..4].try_into().expect("four bytes")) as usize;
            t[code] = u16::from_le_bytes([rec[4], rec[5]]);
        }
        t
    })
}

/// Whether `me`'s move from `pos` to `next` captures (the code's bit 16):
/// one definition for the search and for the counts it was trained on.
#[inline]
pub fn captures(pos: &Position, me: Color, next: &Position) -> bool {
    next.stones(me.opponent()) != pos.stones(me.opponent())
}

/// The eight neighbours of every point of one board, for the codes.
pub struct Patterns {
    /// N, NE, E, SE, S, SW, W, NW; 255 off the board.
    around: Vec<[u8; 8]>,
    ranks: &'static [u16],
}

impl Patterns {
    pub fn new(geo: &Geometry) -> Patterns {
        let (w, h) = (geo.width() as i32, geo.height() as i32);
        let d = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)];
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
        Patterns { around, ranks: ranks() }
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

    /// The prior's rank of a move (higher: proved more often).
    #[inline]
    pub fn rank(&self, pos: &Position, me: Color, p: u8, captures: bool) -> u16 {
        self.ranks[self.code(pos, me, p, captures) as usize]
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
        let t = ranks();
        assert_eq!(t.len(), CODES);
        let geo = Geometry::new(5, 5).unwrap();
        let patterns = Patterns::new(&geo);
        // c3 surrounded by Black on all eight sides: an own eye.
        let mut eye = Position::EMPTY;
        for &(x, y) in &[(1, 1), (1, 2), (1, 3), (2, 1), (2, 3), (3, 1), (3, 2), (3, 3)] {
            eye.set(geo.point(x, y), Some(Color::Black));
        }
        let fill = patterns.rank(&eye, Color::Black, geo.point(2, 2), false);
        // A White stone at a1, Black at a2: b1 takes it at its last liberty.
        let mut atari = Position::EMPTY;
        atari.set(geo.point(0, 0), Some(Color::White));
        atari.set(geo.point(0, 1), Some(Color::Black));
        let take = patterns.rank(&atari, Color::Black, geo.point(1, 0), true);
        assert!(take > fill, "capture {take}, own eye {fill}");
    }
}
