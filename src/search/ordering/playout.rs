//! Random playouts that rank the moves at the first two plies of a df-pn
//! test on a large 5x5-like position, in place of the 3x3 move prior.
//!
//! # Why
//!
//! Measured proofs of 20-empty tests (the `proof` trace) spend most of
//! their nodes below moves left open at a few nodes 0–3 plies below the
//! test's root, where the 3x3 prior ([`super::policy`]) ranks the proving
//! move 4th–12th, and a richer pattern model fitted to proofs ranks them no
//! better. Random playouts see the whole board: at those nodes they rank
//! the refutations and proving moves first or second.
//!
//! # What
//!
//! After each legal move, [`PLAYOUTS`] random games until two passes: a
//! player with an opponent's block in atari takes it (one such block at
//! random; in a uniformly random game such a block lives as often as it
//! dies, which reads the fights near the root wrong), and otherwise plays
//! uniformly at random, never on a point all of whose neighbours are its
//! own stones. The histogram of their area scores is kept per position, so
//! every test's bound reads the same playouts. A move's strength for the
//! test "≥ b" is the share of its playouts that meet the bound for its
//! mover (Black: score ≥ b; White: score < b), in a test of a whole-board
//! result plus the share its mover ends ahead in ([`WON_SHARE_PERCENT`]),
//! plus a thousandth of the mover's mean score (which breaks ties). The
//! random numbers are seeded by the position, so a one-thread solve stays
//! deterministic.
//!
//! They cost about 13 µs per playout on the 2-core development machine
//! (2026-11-27; somewhat less since), so about 0.1 s per node of a 20-empty
//! 5x5 position. So they run:
//! - only at the test's root and the ply below it, and never below the
//!   first two plies of the largest test root the solver has seen (else
//!   the principal variation's later tests pay for every root move's
//!   children);
//! - only where the test's root has at least
//!   [`PLAYOUT_MIN_EMPTY`](crate::search::tuning::PLAYOUT_MIN_EMPTY) empty
//!   points, on a board at least
//!   [`PLAYOUT_MIN_SIDE`](crate::search::tuning::PLAYOUT_MIN_SIDE) wide and
//!   high;
//! - in the tests of a whole-board result too (there df-pn otherwise takes
//!   the prior learned from such proofs);
//! - and a solver keeps at most [`PLAYOUT_POSITIONS`] positions'
//!   histograms, shared with the other threads of its solve, so that each
//!   position's playouts run once.
//!
//! The r-th move gets the rank [`RANK_SPACING`]·r, so df-pn's bias per
//! rank (`PRIOR_STEP`, `PRIOR_PERCENT`) counts several times over between
//! two playout ranks: they are a stronger signal than the 3x3 prior's
//! ranks, and df-pn otherwise leaves the first-ranked move for its siblings
//! as soon as the first move's proof grows. What each of these choices
//! saved is in `results/tuning.md`.
//!
//! # Why it cannot change a value
//!
//! Like the prior it replaces, the ranks only bias which child df-pn
//! expands next; no node is resolved by them.

use crate::rules::geometry::Geometry;
use crate::rules::position::{Color, Move, Position};
use crate::search::tuning::{PLAYOUTS, PLAYOUT_MAX_MOVES, PLAYOUT_POSITIONS, RANK_SPACING, WON_SHARE_PERCENT};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// Each legal move (its point) with the histogram of its playouts' scores.
type Histograms = Vec<(u8, Vec<u16>)>;

/// One position's [`Histograms`], run once by whichever thread asks first.
type Shared = Arc<OnceLock<Histograms>>;

/// Per position (black, white stones) and mover, its [`Histograms`]: run
/// once, by the first thread that asks, and then read by every thread of
/// the solve that shares this cache (`Solver::join`). A thread
/// that asks while another runs them waits for them; they are the same
/// whoever runs them (seeded by the position), so sharing changes no rank.
#[derive(Default)]
pub(crate) struct Playouts {
    histograms: Mutex<HashMap<(u64, u64, Color), Shared>>,
}

impl Playouts {
    /// Each move's rank (0 the best) for "≥ `b`" at `pos` with `me` to
    /// move into `rank`, by the share of playouts after it that meet the
    /// bound; in a test of a whole-board result (`whole_board`), by that
    /// share plus the share the mover ends ahead in (see
    /// [`WON_SHARE_PERCENT`]). A pass keeps its slot (tried as if ranked
    /// first, as with the prior).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn ranks(
        &self,
        geo: &Geometry,
        pos: &Position,
        me: Color,
        b: i32,
        whole_board: bool,
        moves: &[(Move, Position)],
        rank: &mut [u32],
    ) {
        let cell = {
            let mut cache = self.histograms.lock().unwrap_or_else(|e| e.into_inner());
            if cache.len() >= PLAYOUT_POSITIONS {
                cache.clear();
            }
            cache.entry((pos.black, pos.white, me)).or_default().clone()
        };
        let hists = cell.get_or_init(|| histograms(geo, pos, me));
        let n = geo.points() as i32;
        let mut strength: Vec<(f64, u8)> =
            hists.iter().map(|(p, h)| (strength(h, n, me, b, whole_board), *p)).collect();
        strength.sort_by(|x, y| y.0.total_cmp(&x.0));
        // Ranks among the moves df-pn searches (the move generator leaves
        // some legal moves out).
        let mut r = 0;
        for &(_, p) in &strength {
            if let Some(i) = moves.iter().position(|&(mv, _)| mv == Move::Play(p)) {
                rank[i] = r * RANK_SPACING;
                r += 1;
            }
        }
    }
}

/// A move's strength for "≥ `b`" with `me` to move (the larger the
/// better), from the histogram `hist` of its playouts' area scores (index
/// score + `n`): the share that meets the bound, in a test of a whole-board
/// result plus [`WON_SHARE_PERCENT`] of the share `me` ends ahead in, and a
/// thousandth of `me`'s mean score, which breaks ties (and near-ties).
fn strength(hist: &[u16], n: i32, me: Color, b: i32, whole_board: bool) -> f64 {
    let (mut meet, mut ahead, mut games, mut sum) = (0u32, 0u32, 0u32, 0i64);
    for (k, &c) in hist.iter().enumerate() {
        let s = k as i32 - n;
        let c = c as u32;
        games += c;
        sum += s as i64 * c as i64;
        if (me == Color::Black && s >= b) || (me == Color::White && s < b) {
            meet += c;
        }
        if (me == Color::Black && s > 0) || (me == Color::White && s < 0) {
            ahead += c;
        }
    }
    let games = games.max(1) as f64;
    let mean = if me == Color::Black { sum as f64 } else { -sum as f64 } / games;
    let won = if whole_board { ahead as f64 * WON_SHARE_PERCENT / 100.0 } else { 0.0 };
    (meet as f64 + won) / games + mean / 1000.0
}

/// Each legal move of `me` at `pos` (superko aside) with the histogram of
/// the area scores (index score + points) of [`PLAYOUTS`] random games
/// after it.
fn histograms(geo: &Geometry, pos: &Position, me: Color) -> Histograms {
    // xorshift64, seeded by the position (never zero).
    let mut state = pos.black.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ pos.white.wrapping_mul(0xC2B2_AE3D_27D4_EB4F) | 1;
    let mut random = move |below: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        remainder(state, below)
    };
    let n = geo.points();
    let mut candidates: Vec<u8> = Vec::with_capacity(n);
    let mut out = Vec::new();
    for p in Geometry::iter(pos.empty(geo)) {
        let Ok(start) = pos.play(geo, me, p, false) else { continue };
        let mut histogram = vec![0u16; 2 * n + 1];
        for _ in 0..PLAYOUTS {
            let (mut now, mut to_move, mut passes) = (start, me.opponent(), 0);
            for _ in 0..PLAYOUT_MAX_MOVES {
                // A block of the opponent's in atari is taken first.
                if let Some(next) = capture(geo, &now, to_move, &mut random) {
                    now = next;
                    passes = 0;
                    to_move = to_move.opponent();
                    continue;
                }
                let own = now.stones(to_move);
                candidates.clear();
                candidates.extend(Geometry::iter(now.empty(geo)).filter(|&q| {
                    let around = geo.neighbours(1u64 << q);
                    around & own != around
                }));
                let mut played = false;
                while !candidates.is_empty() {
                    let q = candidates.swap_remove(random(candidates.len()));
                    if let Ok(next) = now.play(geo, to_move, q, false) {
                        now = next;
                        played = true;
                        break;
                    }
                }
                passes = if played { 0 } else { passes + 1 };
                if passes == 2 {
                    break;
                }
                to_move = to_move.opponent();
            }
            histogram[(now.score(geo) + n as i32) as usize] += 1;
        }
        out.push((p, histogram));
    }
    out
}

/// `x % d` for `d` in 1..=64, exactly, without a division: Lemire, Kaser
/// and Kurz's remainder by direct computation ("Faster remainder by direct
/// computation", 2019) with a 128-bit reciprocal per divisor, made at
/// compile time ([`RECIPROCALS`]). A 64-bit `div` was a sixth of the
/// playouts' time (a random choice per move); this gives the same numbers,
/// so the playouts and every rank stay as they were.
#[inline(always)]
fn remainder(x: u64, d: usize) -> usize {
    debug_assert!((1..=64).contains(&d));
    let low = RECIPROCALS[d].wrapping_mul(x as u128);
    let bottom = ((low as u64) as u128 * d as u128) >> 64;
    let top = (low >> 64) * d as u128;
    ((bottom + top) >> 64) as usize
}

/// Per divisor d (1..=64, the most points a board has), ⌊(2¹²⁸ − 1) / d⌋ + 1
/// modulo 2¹²⁸, for [`remainder`].
const RECIPROCALS: [u128; 65] = {
    let mut m = [0u128; 65];
    let mut d = 1;
    while d <= 64 {
        m[d] = (u128::MAX / d as u128).wrapping_add(1);
        d += 1;
    }
    m
};

/// The position after `me` captures a block of the opponent's in atari at
/// `pos`, the point chosen at random among such blocks' last liberties
/// (`random(k)` picks one of k); `None` if no block is in atari. A capture
/// is always legal (it leaves the capturing stone a liberty), superko
/// aside, which playouts do not check.
fn capture(geo: &Geometry, pos: &Position, me: Color, random: &mut impl FnMut(usize) -> usize) -> Option<Position> {
    let empty = pos.empty(geo);
    let theirs = pos.stones(me.opponent());
    // Only blocks without a stone of two empty neighbours can be in atari;
    // the others are skipped whole, without a flood each.
    let safe = geo.flood(geo.with_two_neighbours_in(theirs, empty), theirs);
    let mut points = 0;
    for block in geo.parts(theirs & !safe) {
        let liberties = geo.neighbours(block) & empty;
        if liberties.count_ones() == 1 {
            points |= liberties;
        }
    }
    if points == 0 {
        return None;
    }
    for _ in 0..random(points.count_ones() as usize) {
        points &= points - 1;
    }
    pos.play(geo, me, points.trailing_zeros() as u8, false).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// In a test of a whole-board result the share the mover ends ahead in
    /// counts beside the share that meets the bound: of two moves on 5x5
    /// for Black's "≥ 25", one with 157 of 400 playouts at +25 and 330
    /// ahead, the other with 137 and 371 (game 2's d3 and d4 below White's
    /// c2), the second ranks first; in any other test the bound alone
    /// (with the mean) decides, and for White the signs turn.
    #[test]
    fn whole_board_tests_count_the_playouts_won() {
        let n = 25i32;
        let hist = |at_25: u16, ahead: u16, behind: u16| {
            let mut h = vec![0u16; 2 * n as usize + 1];
            h[(n + 25) as usize] = at_25;
            h[(n + 5) as usize] = ahead - at_25;
            h[(n - 5) as usize] = behind;
            h
        };
        let d3 = hist(157, 330, 70);
        let d4 = hist(137, 371, 29);
        let s = |h: &[u16], b, whole| strength(h, n, Color::Black, b, whole);
        assert!(s(&d3, 25, false) > s(&d4, 25, false), "the bound alone: d3");
        assert!(s(&d4, 25, true) > s(&d3, 25, true), "with the playouts won: d4");
        // White refuting the same test: every game of both moves meets it
        // (none at +25); the first move's are White's by a point 300 times
        // and Black's by 20 the other 100 (mean +4.25), the second's
        // White's 100 times and Black's by a point 300 (mean +0.5).
        let w = |h: &[u16], b, whole| strength(h, n, Color::White, b, whole);
        let mut often = vec![0u16; 2 * n as usize + 1];
        (often[(n - 1) as usize], often[(n + 20) as usize]) = (300, 100);
        let mut seldom = vec![0u16; 2 * n as usize + 1];
        (seldom[(n - 1) as usize], seldom[(n + 1) as usize]) = (100, 300);
        assert!(w(&seldom, 25, false) > w(&often, 25, false), "the mean alone: the second");
        assert!(w(&often, 25, true) > w(&seldom, 25, true), "with the games won: the first");
    }

    /// The remainder without a division is the remainder, for every
    /// divisor a board can need and numerators over the whole 64-bit range.
    #[test]
    fn remainder_is_the_remainder() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for d in 1..=64usize {
            for k in [0, 1, d as u64 - 1, d as u64, u64::MAX, u64::MAX - 1, u64::MAX / d as u64 * d as u64] {
                assert_eq!(remainder(k, d), (k % d as u64) as usize, "{k} % {d}");
            }
            for _ in 0..10_000 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                assert_eq!(remainder(x, d), (x % d as u64) as usize, "{x} % {d}");
            }
        }
    }

    /// Mutual atari: Black a2 b2 c2 (last liberty d2) over White a1 b1 c1
    /// (last liberty d1), White a3 b3 c3 above. A playout takes a block in
    /// atari first, so Black must capture now or be captured: the capture
    /// d1 ranks first. Each move has its own rank ([`RANK_SPACING`] apart),
    /// and the ranks are the same each time (seeded by the position).
    #[test]
    fn playouts_rank_a_big_capture_first() {
        let geo = Geometry::new(5, 5).unwrap();
        let mut pos = Position { black: 0, white: 0 };
        for p in ["a2", "b2", "c2"] {
            pos.set(geo.parse_point(p).unwrap(), Some(Color::Black));
        }
        for p in ["a1", "b1", "c1", "a3", "b3", "c3"] {
            pos.set(geo.parse_point(p).unwrap(), Some(Color::White));
        }
        // The playouts' own capture: d1, the only block in atari Black can take.
        let taken = capture(&geo, &pos, Color::Black, &mut |_| 0).unwrap();
        assert_eq!(taken, pos.play(&geo, Color::Black, geo.parse_point("d1").unwrap(), false).unwrap());
        assert_eq!(taken.white.count_ones(), 3);
        let moves: Vec<(Move, Position)> = Geometry::iter(pos.empty(&geo))
            .filter_map(|p| pos.play(&geo, Color::Black, p, false).ok().map(|n| (Move::Play(p), n)))
            .collect();
        let mut rank = vec![0u32; moves.len()];
        Playouts::default().ranks(&geo, &pos, Color::Black, 0, false, &moves, &mut rank);
        let mut again = vec![0u32; moves.len()];
        Playouts::default().ranks(&geo, &pos, Color::Black, 0, false, &moves, &mut again);
        assert_eq!(rank, again);
        let mut sorted = rank.clone();
        sorted.sort();
        let spaced: Vec<u32> = (0..moves.len() as u32).map(|r| r * RANK_SPACING).collect();
        assert_eq!(sorted, spaced, "each rank once, spaced");
        let capture = moves.iter().position(|&(mv, _)| mv == Move::Play(geo.parse_point("d1").unwrap())).unwrap();
        assert_eq!(rank[capture], 0);
        // Two threads on one cache: the playouts run once, the ranks the same.
        let shared = Playouts::default();
        let ranks: Vec<Vec<u32>> = std::thread::scope(|s| {
            let ask = || {
                let mut r = vec![0u32; moves.len()];
                shared.ranks(&geo, &pos, Color::Black, 0, false, &moves, &mut r);
                r
            };
            let (a, b) = (s.spawn(ask), s.spawn(ask));
            vec![a.join().unwrap(), b.join().unwrap()]
        });
        assert_eq!(ranks, vec![rank.clone(), rank]);
        assert_eq!(shared.histograms.lock().unwrap().len(), 1, "one position's playouts, run once");
    }
}
