//! A guess of a position's final score, fitted to exact values: df-pn's
//! starting numbers come from it ([`crate::search::solver`], `first_numbers`).
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
//! Each counts Black's minus White's. The weights ([`WEIGHTS`]) were fitted
//! by least squares to the exact values of 2,100 positions that df-pn met
//! for the first time while solving 5x5, 4x4 and 4x5 positions (how they were drawn, and the script
//! that labels them with `gosolve solve` and fits the weights:
//! `results/guess/`). On held-out positions the guess predicts "value ≥ b"
//! right in 78 % of the (position, b) pairs where the nearer-colour estimate
//! alone gets 64 %, and its mean error is 11 points against 18.
//!
//! Why these features: df-pn's positions are mostly far from the end of the
//! game and full of blocks short of liberties (a child of a node is met
//! after one move), where the nearer-colour estimate counts stones that are
//! about to be taken. Each feature is found by a flood per block, a few
//! hundred nanoseconds per child on 5x5; richer ones (three-by-three
//! patterns, ladders) need more data than a few thousand exact solves give.

use crate::rules::geometry::Geometry;
use crate::rules::position::{Color, Position};
use crate::search::ordering::estimate;

/// Feature weights in thousandths of a point, in the order of the module's
/// list (`results/guess/fit.py` prints them). There is no constant term:
/// every feature changes sign when the colours are swapped, and so does the
/// guess.
pub const WEIGHTS: [i32; 8] = [1528, 4658, -3415, -4603, -946, -1700, 3143, -1696];

/// The features of `pos` with `to_move` to play (see the module's list).
pub fn features(geo: &Geometry, pos: &Position, to_move: Color) -> [i32; 8] {
    let all = geo.all();
    let empty = all & !(pos.black | pos.white);
    let mut f = [0i32; 8];
    f[0] = estimate(geo, pos);
    f[1] = if to_move == Color::Black { 1 } else { -1 };
    for (stones, sign, owner_to_move) in [(pos.black, 1, to_move == Color::Black), (pos.white, -1, to_move == Color::White)] {
        let mut rest = stones;
        while rest != 0 {
            let block = geo.flood(rest & rest.wrapping_neg(), stones);
            rest &= !block;
            let size = sign * block.count_ones() as i32;
            match (geo.neighbours(block) & empty).count_ones() {
                1 => f[if owner_to_move { 2 } else { 3 }] += size,
                2 => f[if owner_to_move { 4 } else { 5 }] += size,
                _ => {}
            }
            f[7] += sign;
        }
    }
    // An empty point none of whose neighbours is anything but a black stone.
    let black_eyes = empty & !geo.neighbours(all & !pos.black);
    let white_eyes = empty & !geo.neighbours(all & !pos.white);
    f[6] = black_eyes.count_ones() as i32 - white_eyes.count_ones() as i32;
    f
}

/// The guessed final score of `pos` with `to_move` to play (Black's area
/// minus White's, komi excluded), within ±the board's area.
pub fn guess(geo: &Geometry, pos: &Position, to_move: Color) -> i32 {
    let f = features(geo, pos, to_move);
    let milli: i32 = f.iter().zip(&WEIGHTS).map(|(x, w)| x * w).sum();
    let area = geo.all().count_ones() as i32;
    // Rounded to the nearest point (halves away from zero).
    let points = (milli + milli.signum() * 500) / 1000;
    points.clamp(-area, area)
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
        assert_eq!(guess(&geo, &Position::EMPTY, Color::Black), (WEIGHTS[1] + 500) / 1000);
        assert_eq!(guess(&geo, &Position::EMPTY, Color::White), -guess(&geo, &Position::EMPTY, Color::Black));
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

    #[test]
    fn the_guess_stays_within_the_area() {
        let geo = Geometry::new(2, 2).unwrap();
        let p = pos(&geo, "X./..");
        assert!(guess(&geo, &p, Color::Black).abs() <= 4);
    }
}
