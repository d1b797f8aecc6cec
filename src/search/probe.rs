//! A value-only solve that, when a limit stops it, still names a move: the
//! one the shared table holds as best at the root, i.e. the move of the last
//! null-window test the search finished (for the side to move, usually the
//! move that proved the lower bound reported in [`SolveOptions::value_bounds`]).
//! The GTP engine plays it when the position cannot be solved in time; its
//! value is not proved, so it is offered only as a hint. A symmetric root
//! (mirror moves skipped) stores nothing, so it gets no hint.
//!
//! The threads are organised as in [`super::parallel`] for a value-only
//! solve (one task, helper `k` on thread `k`, one shared table), kept here so
//! that the table outlives the search and can be asked afterwards.

use super::path::Path;
use super::solver::{new_table, Solver};
use super::{first_guess, legal_children, mirror_moves, orbit_representatives, principal_variation};
use super::{Node, Searcher, Solution, SolveError, SolveOptions, Stats, SEARCH_STACK};
use crate::rules::history::Game;
use crate::rules::position::Move;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

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
    if game.is_over() {
        return Probe { result: super::solve(game, &opts), hint: None };
    }
    let threads = match opts.threads {
        0 => std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1),
        n => n,
    };
    let start = Instant::now();
    let (geo, rules) = (game.geo, game.rules);
    let table = Arc::new(new_table(&geo, &opts));
    let path = Path::from_game(game);
    let root = Node::of_game(game);
    let children = legal_children(&geo, &rules, &path, &root);
    let skip = mirror_moves(&children, &orbit_representatives(game, &children));
    let done = Arc::new(AtomicBool::new(false));
    let value: OnceLock<i32> = OnceLock::new();
    let error: Mutex<Option<SolveError>> = Mutex::new(None);
    let mut stats = Stats::default();
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|k| {
                let (table, done, path, opts) = (table.clone(), done.clone(), path.clone(), &opts);
                let (value, error) = (&value, &error);
                std::thread::Builder::new()
                    .name(format!("gosolve-probe-{k}"))
                    .stack_size(SEARCH_STACK)
                    .spawn_scoped(s, move || {
                        let mut solver = Solver::with_table(geo, rules, opts, table);
                        solver.set_root_skip(path.len() - 1, skip);
                        solver.set_helper(k, Some(done.clone()));
                        solver.set_bounds_log(opts.value_bounds.clone());
                        let mut p = path;
                        match solver.exact(&mut p, root, first_guess(&geo, &root)) {
                            Ok(v) => {
                                let _ = value.set(v);
                            }
                            Err(SolveError::Interrupted) if value.get().is_some() => {}
                            Err(e) => {
                                error.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert(e);
                            }
                        }
                        done.store(true, Ordering::Relaxed);
                        solver.stats()
                    })
                    .expect("cannot start a search thread")
            })
            .collect();
        for h in handles {
            match h.join() {
                Ok(st) => stats.add(&st),
                Err(e) => std::panic::resume_unwind(e),
            }
        }
    });
    let mut main = Solver::with_table(geo, rules, &opts, table);
    let result = match value.get() {
        Some(&v) => {
            let mut p = path.clone();
            let pv =
                if opts.no_pv { Ok(Vec::new()) } else { principal_variation(&mut main, &geo, &rules, &mut p, root, v) };
            pv.map(|pv| Solution { value: v, pv, moves: Vec::new(), stats: Stats::default() })
        }
        None => Err(error.into_inner().unwrap_or_else(|e| e.into_inner()).unwrap_or(SolveError::Interrupted)),
    };
    let hint = if result.is_err() { main.hint(&path, &root).filter(|&m| game.try_move(m).is_ok()) } else { None };
    stats.add(&main.stats());
    stats.seconds = start.elapsed().as_secs_f64();
    let result = result.map(|mut sol| {
        sol.stats = stats;
        sol
    });
    Probe { result, hint }
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

    #[test]
    fn a_stopped_solve_names_a_legal_move() {
        // Not symmetric: at a root whose mirror moves are skipped nothing is stored.
        let mut game = empty("3x4");
        game.play(Move::parse("a1", &game.geo).unwrap()).unwrap();
        let mut named = 0;
        for limit in [20_000, 100_000, 400_000] {
            let opts = SolveOptions { threads: 1, table_mb: 16, node_limit: Some(limit), ..Default::default() };
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
