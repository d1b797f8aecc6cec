//! A guess of a position's final score, fitted to exact values: df-pn's
//! starting numbers come from it ([`crate::search::engines::solver`], `first_numbers`).
//!
//! The guess only chooses which child df-pn expands first, never a value:
//! a child's starting proof and disproof numbers are a hint that the search
//! replaces as soon as it looks below the child, so a bad guess costs work
//! and cannot change an answer (the differential tests hold it to that).
//!
//! # What it is
//!
//! A linear function of eight features of the coloring and the player to
//! move, in points of Black's area minus White's:
//!
//! - the nearer-colour estimate ([`estimate`]): every stone for its colour,
//!   every empty point for the colour whose stones are nearer;
//! - the player to move (+1 Black, −1 White);
//! - stones in atari, split by whether their owner is to move (it can save
//!   them or strike first) or the opponent (it can take them now);
//! - stones in blocks of two liberties, split the same way;
//! - one-point eyes (empty points whose every neighbour is a stone of one
//!   colour);
//! - blocks (more blocks of a colour: weaker, cut apart).
//!
//! Each counts Black's minus White's. Three sets of weights:
//!
//! - [`WEIGHTS`], for every test but the extremes: a logistic regression of
//!   what df-pn asks, "value ≥ b?", on the features and b, over 2,274
//!   positions with exact values that df-pn met for the first time while
//!   solving 5x5, 4x4 and 4x5 positions (how they were drawn, and the
//!   scripts that label them with `gosolve solve` and fit the weights:
//!   `scripts/guess/`). The guess is the b at which that model gives even
//!   odds. On held-out 5x5 positions it predicts "value ≥ b" right in 85 %
//!   of the (position, b) pairs, against 78 % for a least-squares fit of the
//!   values and 64 % for the nearer-colour estimate alone; its mean error is
//!   7.5 points against 10.7 and 17.9.
//! - [`EXTREME_WEIGHTS`], for the tests of a whole-board result ("≥ N" and
//!   "≥ 1 − N" on N points): the least-squares fit of the values (the
//!   guess of every test from 2026-11-25 to 2026-11-26). The logistic guess
//!   spreads about 2.5 times wider and is capped at ±N, so in a test of
//!   "≥ N" more children reach the cap and start alike (our reading of the
//!   loss, not measured directly); the narrower fit still tells them apart:
//!   the logistic weights everywhere doubled the nodes of whole-board
//!   claims.
//!
//! The two sets together took fewer nodes than the least-squares fit alone
//! on the 18- and 20-empty 5x5 positions (`results/tuning.md`, 2026-11-26).
//!
//! - [`STRIP_WEIGHTS`], for every test on a board one point wide: the same
//!   logistic fit over 1,013 positions df-pn met while solving the strips
//!   1x8 to 1x15 (`scripts/guess/README.md`). On held-out strip positions
//!   it predicts "value ≥ b" right in 84–91 % of the pairs, against
//!   72–88 % for the nearer-colour estimate, which the strips took until
//!   2026-11-29 (the 2-D fits cost them nodes).
//!
//! Why these features: df-pn's positions are mostly several plies below a
//! test's root and full of blocks short of liberties, where the
//! nearer-colour estimate counts stones that are about to be taken as
//! points. They need each block's liberties, found by a flood per block;
//! [`Blocks`] finds them once per expanded node for all its children.
//! Richer features (three-by-three patterns, ladders) would need more data
//! than a few thousand exact solves give.

use super::moves::estimate;
use crate::rules::geometry::{Bits, Geometry};
use crate::rules::position::{Color, Move, Position};

/// Feature weights in thousandths of a point, in the order of the module's
/// list (`scripts/guess/fit.py` prints them): the logistic fit of "value ≥
/// b" (see the module's doc). There is no constant term: every feature
/// changes sign when the colours are swapped, and so does the guess.
pub const WEIGHTS: [i32; 8] = [6499, 12724, -13500, -23678, -3871, -4930, 9900, -5005];

/// Weights for the tests of a whole-board result: the least-squares fit of
/// the values, `fit.py`'s comparison line (see the module's doc).
pub const EXTREME_WEIGHTS: [i32; 8] = [1528, 4658, -3415, -4603, -946, -1700, 3143, -1696];

/// Weights for the strips (boards one point wide), in every test: the
/// logistic fit of "value ≥ b" over 1,013 strip positions from 1x8 to 1x15
/// (see the module's doc). The 2-D fits weigh what a strip rarely has
/// (blocks of two liberties are its ordinary blocks) and lost nodes there.
pub const STRIP_WEIGHTS: [i32; 8] = [1050, 1589, -128, -425, 656, 449, 2626, -3599];

/// The guess on a board one point wide by [`STRIP_WEIGHTS`]: [`guess`],
/// through [`strip_features`].
#[inline]
pub fn strip_guess(geo: &Geometry, pos: &Position, to_move: Color) -> i32 {
    points(geo, &strip_features(geo, pos, to_move), &STRIP_WEIGHTS)
}

/// The features of `pos` with `to_move` to play (see the module's list).
pub fn features(geo: &Geometry, pos: &Position, to_move: Color) -> [i32; 8] {
    let mut f = board_features(geo, pos, to_move);
    each_block(geo, pos, |_, size, libs| add_block(&mut f, size, libs, (size > 0) == (to_move == Color::Black)));
    f
}

/// Calls `f(block, size, liberties)` for every block of `pos`, the size
/// signed (negative: White).
fn each_block(geo: &Geometry, pos: &Position, mut f: impl FnMut(Bits, i32, u32)) {
    let empty = geo.all() & !(pos.black | pos.white);
    for (stones, sign) in [(pos.black, 1), (pos.white, -1)] {
        for block in geo.parts(stones) {
            f(block, sign * block.count_ones() as i32, (geo.neighbours(block) & empty).count_ones());
        }
    }
}

/// Adds a block of `size` stones (signed: negative for White) with `libs`
/// liberties to the block features `f[2..=5]` and `f[7]`.
#[inline(always)]
fn add_block(f: &mut [i32; 8], size: i32, libs: u32, owner_to_move: bool) {
    match libs {
        1 => f[if owner_to_move { 2 } else { 3 }] += size,
        2 => f[if owner_to_move { 4 } else { 5 }] += size,
        _ => {}
    }
    f[7] += size.signum();
}

/// The features that need no blocks: the estimate, the player to move, the
/// eyes (`f[2..=5]` and `f[7]` left zero).
fn board_features(geo: &Geometry, pos: &Position, to_move: Color) -> [i32; 8] {
    let all = geo.all();
    let empty = all & !(pos.black | pos.white);
    let mut f = [0i32; 8];
    f[0] = estimate(geo, pos);
    f[1] = if to_move == Color::Black { 1 } else { -1 };
    // An empty point none of whose neighbours is anything but a black stone.
    let black_eyes = empty & !geo.neighbours(all & !pos.black);
    let white_eyes = empty & !geo.neighbours(all & !pos.white);
    f[6] = black_eyes.count_ones() as i32 - white_eyes.count_ones() as i32;
    f
}

/// The guess from the features with `weights`: rounded to the nearest
/// point (halves away from zero), within ±the board's area.
fn points(geo: &Geometry, f: &[i32; 8], weights: &[i32; 8]) -> i32 {
    let milli: i32 = f.iter().zip(weights).map(|(x, w)| x * w).sum();
    let area = geo.all().count_ones() as i32;
    ((milli + milli.signum() * 500) / 1000).clamp(-area, area)
}

/// The blocks of an expanded node's position with their liberties, found
/// once so that the guesses of its children need no floods: a move that
/// captures nothing changes only the blocks next to it (its own merge with
/// the stone, the opponent's lose that liberty), so a child's block
/// features are the node's, less those blocks, plus what they became.
/// Profiled on 5x5 at 18 empty points, the guess with a flood per block
/// per child took 14 % of df-pn's time.
pub struct Blocks {
    n: usize,
    stones: [Bits; 64],
    /// Signed sizes (negative: White) and liberties of the blocks.
    size: [i32; 64],
    libs: [u32; 64],
    /// The block features (`f[2..=5]`, `f[7]`) of all blocks with the
    /// opponent of the node's mover to move, as in every child.
    base: [i32; 8],
}

impl Blocks {
    /// The blocks of `pos`, where `mover` is to play.
    pub fn of(geo: &Geometry, pos: &Position, mover: Color) -> Blocks {
        let mut b = Blocks { n: 0, stones: [0; 64], size: [0; 64], libs: [0; 64], base: [0; 8] };
        // In every child the opponent of `mover` is to move.
        let black_to_move = mover == Color::White;
        each_block(geo, pos, |block, size, libs| {
            add_block(&mut b.base, size, libs, (size > 0) == black_to_move);
            (b.stones[b.n], b.size[b.n], b.libs[b.n]) = (block, size, libs);
            b.n += 1;
        });
        b
    }

    /// [`guess`] of `child` with `weights`, the position after `mover` (the
    /// node's mover) played `mv` in `parent` (whose blocks these are), with
    /// the opponent to move: the same number, found without floods unless
    /// the move captured.
    pub fn guess_after(
        &self,
        geo: &Geometry,
        parent: &Position,
        mover: Color,
        mv: Move,
        child: &Position,
        weights: &[i32; 8],
    ) -> i32 {
        let to_move = mover.opponent();
        let stone = match mv {
            Move::Play(p) => 1u64 << p,
            Move::Pass => 0,
        };
        if parent.stones(to_move) != child.stones(to_move) || parent.stones(mover) | stone != child.stones(mover) {
            // A capture (or a suicide): the liberties of blocks away from
            // the move change.
            return guess(geo, child, to_move, weights);
        }
        let mut f = board_features(geo, child, to_move);
        for (x, y) in f.iter_mut().zip(&self.base) {
            *x += y;
        }
        if stone != 0 {
            let touched = geo.neighbours(stone);
            let mut merged = stone;
            for i in 0..self.n {
                if self.stones[i] & touched == 0 {
                    continue;
                }
                let (size, libs) = (self.size[i], self.libs[i]);
                let owners = (size > 0) == (to_move == Color::Black);
                // Take the block out of the sum, and put back what it became.
                add_block(&mut f, -size, libs, owners);
                if owners {
                    // The stone took one of this block's liberties.
                    add_block(&mut f, size, libs - 1, owners);
                } else {
                    merged |= self.stones[i];
                }
            }
            let empty = geo.all() & !(child.black | child.white);
            let sign = if mover == Color::Black { 1 } else { -1 };
            add_block(&mut f, sign * merged.count_ones() as i32, (geo.neighbours(merged) & empty).count_ones(), false);
        }
        points(geo, &f, weights)
    }
}

/// [`features`] on a board one point wide, where the points follow each
/// other along the strip bit by bit: found with shifts and fills of whole
/// runs, without a flood per block, the nearer-colour flood or a branch
/// per run. df-pn guesses every child on the strips, where a node has few
/// children to share a [`Blocks`] between (what each way cost:
/// `results/solve.md`).
pub fn strip_features(geo: &Geometry, pos: &Position, to_move: Color) -> [i32; 8] {
    debug_assert!(geo.width() == 1 || geo.height() == 1);
    let all = geo.all();
    let (black, white) = (pos.black, pos.white);
    let empty = all & !(black | white);
    // Bit i of `below(x)` is bit i − 1 of x, of `above(x)` bit i + 1: a
    // point's two neighbours along the strip (none beyond its ends).
    let below = |x: u64| (x << 1) & all;
    let above = |x: u64| x >> 1;
    // The whole runs of `mask` whose lowest point is in `seeds` (a carry
    // runs up through each such run and clears it), and those whose
    // highest point is in `seeds` (an occluded fill down the runs).
    let up = |seeds: u64, mask: u64| mask & !mask.wrapping_add(seeds);
    let down = |seeds: u64, mask: u64| {
        let (mut x, mut m) = (seeds & mask, mask);
        for k in [1, 2, 4, 8, 16, 32] {
            x |= m & (x >> k);
            m &= m >> k;
        }
        x
    };
    let black_to_move = to_move == Color::Black;
    let mut f = [0i32; 8];
    f[1] = if black_to_move { 1 } else { -1 };
    let count = |x: u64| x.count_ones() as i32;
    for (stones, sign) in [(black, 1), (white, -1)] {
        let (lowest, highest) = (stones & !below(stones), stones & !above(stones));
        // Stones of blocks with a liberty below, and with one above.
        let lib_below = up(lowest & below(empty), stones);
        let lib_above = down(highest & above(empty), stones);
        let owner_to_move = (sign > 0) == black_to_move;
        f[if owner_to_move { 2 } else { 3 }] += sign * count(lib_below ^ lib_above);
        f[if owner_to_move { 4 } else { 5 }] += sign * count(lib_below & lib_above);
        f[7] += sign * count(lowest);
    }
    // Empty runs by what lies below and above them: a colour, or the end.
    let (lowest, highest) = (empty & !below(empty), empty & !above(empty));
    let end_below = up(lowest & 1, empty);
    let end_above = down(highest & (all ^ (all >> 1)), empty);
    let (black_below, white_below) = (up(lowest & below(black), empty), up(lowest & below(white), empty));
    let (black_above, white_above) = (down(highest & above(black), empty), down(highest & above(white), empty));
    // An empty run between stones of one colour, or a colour and the end,
    // is that colour's; between black and white each takes its nearer half
    // (net nothing).
    let black_area = (black_below | end_below) & (black_above | end_above) & !(end_below & end_above);
    let white_area = (white_below | end_below) & (white_above | end_above) & !(end_below & end_above);
    f[0] = count(black) - count(white) + count(black_area) - count(white_area);
    // One-point eyes: empty points whose every neighbour is a stone of one
    // colour (as `board_features`).
    let eyes = |colour: u64| empty & !(below(all & !colour) | above(all & !colour));
    f[6] = count(eyes(black)) - count(eyes(white));
    f
}

/// The guessed final score of `pos` with `to_move` to play (Black's area
/// minus White's, komi excluded) by the fit `weights` ([`WEIGHTS`] or
/// [`EXTREME_WEIGHTS`]), within ±the board's area.
pub fn guess(geo: &Geometry, pos: &Position, to_move: Color, weights: &[i32; 8]) -> i32 {
    points(geo, &features(geo, pos, to_move), weights)
}

/// The features and the guess on hand-made positions.
#[cfg(test)]
mod tests {
    use super::*;

    fn pos(geo: &Geometry, rows: &str) -> Position {
        crate::format::diagram::parse(geo, rows).expect("valid rows")
    }

    #[test]
    fn the_empty_board_is_worth_the_turn_alone() {
        let geo = Geometry::new(5, 5).unwrap();
        assert_eq!(features(&geo, &Position::EMPTY, Color::Black), [0, 1, 0, 0, 0, 0, 0, 0]);
        for w in [&WEIGHTS, &EXTREME_WEIGHTS] {
            assert_eq!(guess(&geo, &Position::EMPTY, Color::Black, w), (w[1] + 500) / 1000);
            assert_eq!(guess(&geo, &Position::EMPTY, Color::White, w), -guess(&geo, &Position::EMPTY, Color::Black, w));
        }
    }

    #[test]
    fn atari_eyes_and_blocks_are_counted_for_their_colour() {
        let geo = Geometry::new(5, 5).unwrap();
        // A white stone in atari at a5 (its one liberty b5), a black block
        // of two liberties at a4, and a black eye at a1 between the black
        // blocks a2 and b1.
        let p = pos(&geo, "O..../X..../...../X..../.X...");
        let f = features(&geo, &p, Color::White);
        assert_eq!(f[1], -1);
        assert_eq!((f[2], f[3]), (-1, 0), "one white stone in atari, White (its owner) to move");
        assert_eq!((f[4], f[5]), (0, 1), "one black stone with two liberties, White to move");
        assert_eq!(f[6], 1, "a1 is a black eye");
        assert_eq!(f[7], 3 - 1, "three black blocks, one white");
        // With Black to move the white stone can be taken now.
        let f = features(&geo, &p, Color::Black);
        assert_eq!((f[2], f[3], f[4], f[5]), (0, -1, 1, 0));
    }

    /// A small random number generator: `rand(n)` draws from 0..n.
    fn xorshift(mut seed: u64) -> impl FnMut(usize) -> usize {
        move |n| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        }
    }

    /// The children's guesses through [`Blocks`] are [`guess`] itself, on
    /// positions from random games (suicide allowed half the time, so
    /// that captures of both colours and passes occur).
    #[test]
    fn guesses_from_the_blocks_are_the_guess() {
        let mut rand = xorshift(0x2545_f491_4f6c_dd1du64);
        let mut checked = 0;
        for (w, h) in [(5, 5), (4, 4), (5, 4), (3, 7), (8, 8)] {
            let geo = Geometry::new(w, h).unwrap();
            for game in 0..40 {
                let suicide = game % 2 == 0;
                let (mut pos, mut to_move) = (Position::EMPTY, Color::Black);
                for _ in 0..rand(2 * w * h) {
                    let blocks = Blocks::of(&geo, &pos, to_move);
                    let mut moves = vec![(Move::Pass, pos)];
                    for p in 0..(w * h) as u8 {
                        if let Ok(next) = pos.play(&geo, to_move, p, suicide) {
                            moves.push((Move::Play(p), next));
                        }
                    }
                    for &(mv, next) in &moves {
                        for w in [&WEIGHTS, &EXTREME_WEIGHTS] {
                            let want = guess(&geo, &next, to_move.opponent(), w);
                            assert_eq!(
                                blocks.guess_after(&geo, &pos, to_move, mv, &next, w),
                                want,
                                "{mv:?} in {pos:?}"
                            );
                        }
                        checked += 1;
                    }
                    (pos, to_move) = (moves[rand(moves.len())].1, to_move.opponent());
                }
            }
        }
        assert!(checked > 10_000, "{checked}");
    }

    /// The strips' shifts and fills give [`features`] itself, on positions
    /// from random games on strips of both orientations and every length
    /// class (the empty strip, one point, the longest).
    #[test]
    fn strip_features_are_the_features() {
        let mut rand = xorshift(0x9e37_79b9_7f4a_7c15u64);
        let mut checked = 0;
        for (w, h) in [(1, 1), (1, 2), (3, 1), (1, 7), (1, 13), (18, 1), (1, 64), (64, 1)] {
            let geo = Geometry::new(w, h).unwrap();
            for game in 0..30 {
                let suicide = game % 2 == 0;
                let (mut pos, mut to_move) = (Position::EMPTY, Color::Black);
                for _ in 0..rand(3 * w * h + 1) {
                    for c in [Color::Black, Color::White] {
                        assert_eq!(strip_features(&geo, &pos, c), features(&geo, &pos, c), "{w}x{h} {pos:?}");
                        assert_eq!(strip_guess(&geo, &pos, c), guess(&geo, &pos, c, &STRIP_WEIGHTS));
                        checked += 1;
                    }
                    let moves: Vec<Position> =
                        (0..(w * h) as u8).filter_map(|p| pos.play(&geo, to_move, p, suicide).ok()).collect();
                    if !moves.is_empty() {
                        pos = moves[rand(moves.len())];
                    }
                    to_move = to_move.opponent();
                }
            }
        }
        assert!(checked > 5_000, "{checked}");
    }

    #[test]
    fn the_guess_stays_within_the_area() {
        let geo = Geometry::new(2, 2).unwrap();
        let p = pos(&geo, "X./..");
        for w in [&WEIGHTS, &EXTREME_WEIGHTS] {
            assert!(guess(&geo, &p, Color::Black, w).abs() <= 4);
        }
    }
}
