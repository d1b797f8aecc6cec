//! `gosolve bench`: a fixed list of solves whose total node count is the
//! solver's *signature*, as Stockfish's `bench` is its engine's.
//!
//! Every solve runs on one thread with a fixed table size, so the node
//! count depends only on the search's code: a change meant to leave the
//! search alone (a refactoring, a move of files) must leave the signature
//! unchanged, and a change to the search shows its effect in one number.
//! The positions cover empty boards, histories (superko at the root), both
//! suicide rules, situational superko and komi, and both the full solve
//! (every root move) and the value-only solve.

use super::solve;
use crate::rules::geometry::Geometry;
use crate::rules::history::Game;
use crate::rules::position::{Color, Komi, Move, Position, Rules, Superko};
use crate::search::types::options::SolveOptions;
use crate::search::types::outcome::{Solution, SolveError};
use std::time::Instant;

/// Table size of every bench solve, in MiB: small enough for any machine,
/// fixed because the node counts depend on it.
pub const BENCH_TABLE_MB: usize = 64;

/// One bench solve: a game from the empty board after `moves`.
#[derive(Clone, Copy, Debug)]
pub struct BenchCase {
    pub name: &'static str,
    pub width: usize,
    pub height: usize,
    /// Moves from the empty board, Black first, as point names or `pass`.
    pub moves: &'static str,
    pub suicide: bool,
    pub superko: Superko,
    /// Komi in half points.
    pub half_komi: i32,
    pub value_only: bool,
}

const fn case(name: &'static str, width: usize, height: usize, moves: &'static str, value_only: bool) -> BenchCase {
    BenchCase { name, width, height, moves, suicide: false, superko: Superko::Positional, half_komi: 0, value_only }
}

/// The bench list. Append only with care: the signature is the sum over all
/// of them, so a new case changes it (record the new signature).
pub const CASES: &[BenchCase] = &[
    case("1x7 empty", 1, 7, "", false),
    case("1x9 empty, value", 1, 9, "", true),
    case("2x2 empty", 2, 2, "", false),
    // The documents' superko game, stopped before White's a1 recapture.
    case("2x2 superko game", 2, 2, "a2 b2 a1 b1 a2", false),
    case("2x3 empty", 2, 3, "", false),
    case("3x2 empty", 3, 2, "", false),
    case("2x4 empty, value", 2, 4, "", true),
    case("3x3 empty", 3, 3, "", false),
    case("3x3 after b2 a2", 3, 3, "b2 a2", false),
    case("4x3 empty, value", 4, 3, "", true),
    case("4x4 late", 4, 4, "b2 c3 c2 b3 d3 d4 a3 c4 a4 b1 c1 a2", false),
    BenchCase { suicide: true, ..case("2x3 suicide", 2, 3, "", false) },
    BenchCase { superko: Superko::Situational, ..case("3x3 situational", 3, 3, "b2", false) },
    BenchCase { half_komi: 7, ..case("1x8 komi 3.5", 1, 8, "", false) },
    BenchCase { suicide: true, superko: Superko::Situational, ..case("1x6 suicide situational", 1, 6, "a3 a4", false) },
];

impl BenchCase {
    pub fn rules(&self) -> Rules {
        Rules { suicide: self.suicide, superko: self.superko, komi: Komi(self.half_komi) }
    }

    /// The case's game: the empty board after its moves.
    pub fn game(&self) -> Game {
        let geo = Geometry::new(self.width, self.height).expect("bench board sizes are valid");
        let mut game = Game::new(geo, self.rules(), Position::EMPTY, Color::Black).expect("the empty board is legal");
        for m in self.moves.split_whitespace() {
            let mv = Move::parse(m, &geo).unwrap_or_else(|| panic!("bench case {}: bad move {m}", self.name));
            game.play(mv).unwrap_or_else(|e| panic!("bench case {}: {e}", self.name));
        }
        game
    }

    /// The options of its solve: one thread, the bench table.
    pub fn options(&self) -> SolveOptions {
        SolveOptions { threads: 1, table_mb: BENCH_TABLE_MB, value_only: self.value_only, ..Default::default() }
    }
}

/// One case's outcome.
#[derive(Clone, Debug)]
pub struct BenchRow {
    pub case: BenchCase,
    pub solution: Solution,
    pub seconds: f64,
}

/// Run every case in order, telling `each` its row as it finishes.
pub fn run(mut each: impl FnMut(&BenchRow)) -> Result<Vec<BenchRow>, SolveError> {
    let mut rows = Vec::new();
    for case in CASES {
        let game = case.game();
        let start = Instant::now();
        let solution = solve(&game, &case.options())?;
        let row = BenchRow { case: *case, solution, seconds: start.elapsed().as_secs_f64() };
        each(&row);
        rows.push(row);
    }
    Ok(rows)
}

/// The signature: the total node count of the rows.
pub fn signature(rows: &[BenchRow]) -> u64 {
    rows.iter().map(|r| r.solution.stats.nodes).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_case_sets_up() {
        for case in CASES {
            let game = case.game();
            assert!(!game.is_over(), "{}", case.name);
        }
    }
}
