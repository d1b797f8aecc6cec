//! Random playouts that rank the moves at the first two plies of a df-pn
//! test on a large 5x5-like position, in place of the 3x3 move prior.
//!
//! # Why
//!
//! Session 43's proof walk found most of a 20-empty test's nodes below
//! moves left open at a few nodes 0–3 plies below the test's root, where
//! the 3x3 prior ([`super::policy`]) ranks the proving move 4th–12th, and a
//! richer pattern model fitted to proofs ranks them no better (session 44:
//! 4–10 points more often first at 12–17 empty points, d5 still 8th at
//! game 3's node after c2). Random playouts see the whole board: at the
//! three detour nodes session 43 named they rank game 1's refutation d3
//! first (the prior: 5th), game 3's refutation c2 first (3rd) and game 3's
//! proving move d5 second after c2 (8th).
//!
//! # What
//!
//! After each legal move, [`PLAYOUTS`] random games until two passes: a
//! player with an opponent's block in atari takes it (one such block at
//! random), and otherwise plays uniformly at random, never on a point all
//! of whose neighbours are its own stones. The histogram of their area
//! scores is kept per position, so every test's bound reads the same
//! playouts. A move's
//! strength for the test "≥ b" is the share of its playouts that meet the
//! bound for its mover (Black: score ≥ b; White: score < b), in a test
//! of a whole-board result plus the share its mover ends ahead in
//! ([`WON_SHARE_PERCENT`]), plus a thousandth of the mover's mean score
//! (which breaks ties). The random
//! numbers are seeded by the position, so a one-thread solve stays
//! deterministic.
//!
//! They cost about 13 µs per playout on the development machine (session
//! 44; somewhat less since session 49's build for x86-64-v2, [`remainder`]
//! and the capture step's skipped floods), so about 0.1 s per node of a
//! 20-empty 5x5 position. So they run:
//! - only at the test's root and the ply below it, and never below the
//!   first two plies of the largest test root the solver has seen (else
//!   the principal variation's later tests pay for every root move's
//!   children);
//! - only where the test's root has at least [`MIN_ROOT_EMPTY`] empty
//!   points, on a board at least [`MIN_SIDE`] wide and high;
//! - in the tests of a whole-board result too (session 45: there df-pn
//!   otherwise takes the prior learned from such proofs);
//! - and a solver keeps at most [`MAX_NODES`] positions' histograms,
//!   shared with the other threads of its solve, so that each position's
//!   playouts run once (session 46: 5x5 game 1 at 19 empty on two threads
//!   ran 44 positions' playouts, 3.3 s of processor time, where the two
//!   threads with a cache each ran 65, 5.2 s).
//!
//! The r-th move gets the rank [`RANK_SPACING`]·r, so df-pn's bias per
//! rank (`PRIOR_STEP`, `PRIOR_PERCENT` in `solver::dfpn`) counts several
//! times over between two playout ranks: they are a stronger signal than
//! the 3x3 prior's ranks, and df-pn otherwise leaves the first-ranked
//! move for its siblings as soon as the first move's proof grows (game 2
//! at 19 empty, "≥ 25": 1.65 M of the test's 4.77 M nodes went beside the
//! root's proving move d3, which the playouts had ranked first).
//!
//! Measured in session 44 (`results/solve.md`), one thread (node counts),
//! against the 3x3 prior at those plies: 5x5 game positions at 20 empty
//! 78.4 M → 73.0 M nodes (games 3 / 5 / 1: −20 / −14 / +6 %), at 19 empty
//! 34.1 M → 26.9 M (−42 / +11 / −14 %). Two threads, value-only: the four
//! 19-empty game positions 219.7 s → 198.2 s in all. With 100 playouts the
//! ranks were too noisy: game 5 at 20 empty took 75.6 M nodes (one test
//! 55 M where it took 7 M).
//!
//! Session 45, in the whole-board tests too and with ranks spaced by
//! [`RANK_SPACING`], one thread: the three 20-empty game positions
//! (value-only) 72.99 M → 59.99 M (games 3 / 5 / 1: 14.67 / 13.86 /
//! 31.46 M), the three 19-empty 26.91 M → 26.58 M; "≥ 25" alone on game
//! 2 at 19 empty 11.06 M → 3.21 M, at 20 empty 47.99 M → 36.62 M, on game
//! 6 at 20 empty 65.82 M → 45.20 M (spacing 1). Two threads, value-only,
//! side by side with session 44's main: game 2 at 19 empty 59.4 → 37.7 s,
//! at 20 empty 356.2 → 253.5 s, game 6 at 20 empty 438.6 → 274.6 s; games
//! 3 and 5 at 20 empty 86.5 → 82.9 s and 100.6 → 82.4 s; the other 19-empty
//! positions within the noise.
//!
//! Session 47, the captures first (before, every move was uniformly
//! random): in a uniformly random game a block in atari is as likely to
//! live as to die, so the share of playouts that meet a bound reads the
//! fights near the root wrong. One thread, `--table-mb 2048`, value-only
//! node counts: 5x5 games 1 / 3 / 5 / 2 at 19 empty 10.83 / 9.04 / 6.71 /
//! 6.01 M → 8.64 / 7.59 / 6.26 / 4.26 M; games 1 / 3 / 5 at 20 empty
//! 31.46 / 14.67 / 13.86 M → 25.51 / 12.55 / 14.45 M (−14 % in all);
//! "≥ 25" alone on game 2 at 20 empty 36.62 → 41.33 M. Also answering a
//! block of one's own in atari (when it then has two liberties or more)
//! did worse: games 1 and 2 at 19 empty 8.91 and 6.74 M; and refusing
//! self-atari of blocks of two stones or more, worse still: game 5 at 20
//! empty 19.27 M.
//!
//! # Why it cannot change a value
//!
//! Like the prior it replaces, the ranks only bias which child df-pn
//! expands next; no node is resolved by them.

use crate::rules::geometry::Geometry;
use crate::rules::position::{Color, Move, Position};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// Random games after each move (100 was too noisy, see above).
pub(crate) const PLAYOUTS: usize = 400;

/// The rank of the r-th move by its playouts: this many times r (see
/// above). One thread, node counts (session 45, playouts also in the
/// whole-board tests): at 3 / 5, 5x5 games 3 and 5 at 20 empty
/// (value-only) 14.67 / 16.33 M and 13.86 / 14.32 M (16.04 M and 20.49 M
/// with session 44's ranks at 1, playouts not in whole-board tests); game
/// 2 at 19 empty, `--at-least 25`, at 1 / 2 / 3 / 5 / 8: 4.83 / 4.28 /
/// 3.21 / 3.73 / 3.92 M.
pub(crate) const RANK_SPACING: u32 = 3;

/// In a test of a whole-board result, the share of a move's playouts that
/// its mover ends ahead in (area difference above 0 for Black, below 0 for
/// White) counts this many percent beside the share that meets the bound.
///
/// Why: random games often take the whole board (after the moves at the
/// first ply of game 2's "≥ 25" below White's c2, 21–39 % of them), but the
/// bound alone tells the moves apart by a few games. There the killing
/// move d4 had 137 of 400 playouts at +25 against d3's 157, and 371 ahead
/// against 330: ranked fourth by the bound, it cost the test three wrong
/// tries of 1.8 M nodes each. Whether the mover keeps the game at all is
/// the steadier signal; the bound still leads where it is clear (van der
/// Werf's line after 6 plies: d3 111 at +25 and 368 ahead, c1 86 and 372).
///
/// Measured in session 57 (`results/solve.md`), one thread, `--table-mb
/// 2048`, `--at-least 25`, nodes at 0 / 25 / 50 / **100** / 200 %: game 2
/// at 20 empty 15.47 / 15.07 / 10.11 / 10.47 / 9.84 M, game 6 at 20 empty
/// 15.20 / 14.74 / 12.47 / 12.79 / 12.74 M, van der Werf's line after 6
/// plies 7.40 / 7.15 / 7.00 / 6.85 / 7.93 M, game 2 at 19 empty 0.70 /
/// 0.83 / 0.83 / 1.03 / 0.80 M, game 6 at 19 empty (after e4) 3.43 / 3.65
/// / 3.03 / 3.62 / 3.77 M: 42.2 M in all against 34.8 M at 100 %. 50 % did
/// a little better (33.4 M) but sits at the edge: game 2's d4 passes d3 only
/// from 49 %. Ranking by the share ahead alone, in place of the bound,
/// was worse on the line (11.75 M; games 2 and 6 at 20 empty 11.42 M and
/// 11.62 M).
///
/// Value-only, the four 19-empty game positions 15.40 M → 14.34 M nodes;
/// two threads, default table, games 2 / 6 / 1 / 5 / 3 at 20 empty 53.5 /
/// 55.3 / 28.9 / 25.6 / 14.4 s → 45.7 / 51.0 / 26.1 / 22.6 / 13.8 s.
pub(crate) const WON_SHARE_PERCENT: f64 = 100.0;

/// Least empty points at a test's root for the playouts to run. At 18
/// they saved 3 % of the four 18-empty game positions' nodes (one thread,
/// value-only) but cost a full solve of game 3 at 18 empty, whose
/// principal variation tests every root move, 21 s of 110 on two threads
/// (25.2 M nodes against 27.6 M, 89 s without them; measured before the
/// limit to the first two plies of the largest root).
pub(crate) const MIN_ROOT_EMPTY: u32 = 19;

/// Least width and height of a board for the playouts to run: measured on
/// 5x5 only; on 3x6 (value-only, one thread) they cost 9 % more nodes
/// (3.82 M → 4.17 M).
pub(crate) const MIN_SIDE: usize = 5;

/// Positions whose histograms a solver keeps (then it forgets them all).
const MAX_NODES: usize = 4096;

/// Moves beyond which a playout stops (a random game on a 64-point board
/// ends long before; superko is not checked in a playout).
const MAX_MOVES: usize = 200;

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
            if cache.len() >= MAX_NODES {
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
            for _ in 0..MAX_MOVES {
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
