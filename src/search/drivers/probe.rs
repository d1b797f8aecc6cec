//! A value-only solve that, when a limit stops it, still names a move: the
//! one the shared table holds as best at the root, i.e. the move of the last
//! null-window test the search finished (for the side to move, usually the
//! move that proved the lower bound reported in [`SolveOptions::value_bounds`]).
//! The GTP engine plays it when the position cannot be solved in time; its
//! value is not proved, so it is offered only as a hint. A symmetric root
//! (mirror moves skipped) stores nothing, so it gets no hint.
//!
//! It is the root driver's [`Plan::RootValue`] on any number of threads (one
//! task, the root, with every thread on it as a helper), with the table kept
//! by the caller so that it can be asked afterwards.

use super::root::{solve_on, table_move, Plan};
use super::threads::with_deep_stack;
use crate::rules::history::Game;
use crate::rules::position::Move;
use crate::search::engines::solver::table_for;
use crate::search::types::options::{thread_count, SolveOptions};
use crate::search::types::outcome::{Solution, SolveError};

/// What [`solve_value_or_hint`] found.
pub struct Probe {
    /// The value and principal variation, or why the search stopped.
    pub result: Result<Solution, SolveError>,
    /// When it stopped: the table's best move at the root, if any (legal).
    pub hint: Option<Move>,
}

/// Value-only solve of `game` (`opts.value_only` is implied) on
/// `opts.threads` threads; on a limit, the root's best move from the table.
pub fn solve_value_or_hint(game: &Game, opts: &SolveOptions) -> Probe {
    let opts = SolveOptions { value_only: true, ..opts.clone() };
    with_deep_stack(|| {
        let table = table_for(&game.geo, &opts);
        let result = solve_on(game, &opts, thread_count(&opts).max(1), Plan::RootValue, table.clone());
        let hint =
            if result.is_err() { table_move(game, &opts, table).filter(|&m| game.try_move(m).is_ok()) } else { None };
        Probe { result, hint }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Color, Geometry, Position, Rules};

    fn empty(board: &str) -> Game {
        Game::new(board.parse::<Geometry>().unwrap(), Rules::default(), Position::EMPTY, Color::Black).unwrap()
    }

    #[test]
    fn solves_exactly_like_solve() {
        for threads in [1, 2] {
            let p = solve_value_or_hint(&empty("2x3"), &SolveOptions { threads, table_mb: 16, ..Default::default() });
            let want =
                crate::search::solve(&empty("2x3"), &SolveOptions { threads: 1, table_mb: 16, ..Default::default() })
                    .unwrap();
            let sol = p.result.unwrap();
            assert_eq!(sol.value, want.value);
            assert_eq!(sol.pv.last(), Some(&Move::Pass));
            assert!(p.hint.is_none());
        }
    }

    /// GTP's genmove asks for the line's first move only (`pv_moves`): the
    /// capped line is the start of the whole one.
    #[test]
    fn a_capped_line_is_the_start_of_the_whole_one() {
        for board in ["3x3", "2x4", "1x7"] {
            let opts = SolveOptions { threads: 1, table_mb: 16, ..Default::default() };
            let whole = solve_value_or_hint(&empty(board), &opts).result.unwrap();
            for cap in [1, 2] {
                let capped = SolveOptions { pv_moves: Some(cap), ..opts.clone() };
                let part = solve_value_or_hint(&empty(board), &capped).result.unwrap();
                assert_eq!(part.value, whole.value, "{board}");
                assert_eq!(part.pv[..], whole.pv[..cap], "{board}: {:?} / {:?}", part.pv, whole.pv);
            }
        }
    }

    #[test]
    fn a_stopped_solve_names_a_legal_move() {
        // Not symmetric: at a root whose mirror moves are skipped nothing is stored.
        let mut game = empty("3x4");
        game.play(Move::parse("a1", &game.geo).unwrap()).unwrap();
        let mut named = 0;
        // Limits at fractions of what the whole solve takes, so that some
        // stop after a test has finished whatever the search's speed.
        let full = SolveOptions { threads: 1, table_mb: 16, ..Default::default() };
        let nodes = solve_value_or_hint(&game, &full).result.unwrap().stats.nodes;
        for limit in [nodes / 2, nodes * 3 / 4, nodes * 9 / 10, nodes * 99 / 100] {
            let opts = SolveOptions { node_limit: Some(limit), ..full.clone() };
            let p = solve_value_or_hint(&game, &opts);
            if p.result.is_err() {
                if let Some(m) = p.hint {
                    assert!(game.try_move(m).is_ok());
                    named += 1;
                }
            }
        }
        assert!(named > 0, "no stopped solve named a root move");
    }
}
