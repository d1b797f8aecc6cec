//! The root driver: one solve of a position, on 1 to N threads.
//!
//! The work is a list of *tasks*, each an exact value found by the value
//! driver ([`Searcher::exact`]): every root move's value (one task per
//! symmetry orbit, [`Plan::RootMoves`]) or the root's value alone
//! ([`Plan::RootValue`]). Threads take the open task with the fewest
//! threads on it; one thread takes them in order. A value-only solve on
//! several threads instead spreads the value driver's tests over the
//! threads ([`Plan::SpreadTests`], see [`super::spread`]). Every solve ends
//! the same way: the principal variation, the stats, the wall time.
//!
//! # Why helpers
//!
//! A solve needs the exact value of every root move, and their costs are
//! very unequal: on 1x10 three of the six root orbits take 95 % of the nodes.
//! Splitting only at the root leaves most of 16 cores idle behind the
//! hardest move. So every thread takes the unfinished root move with the
//! fewest threads on it: first each move gets one, then the remaining threads
//! join the moves still open (lazy SMP). Threads on the same move share the
//! transposition table: the first two run df-pn (each with its own guide),
//! any others the alpha-beta with different horizon schedules
//! ([`Solver::set_helper`]), so they explore different parts of the tree
//! and feed each other proofs through the table. The first thread to
//! finish gives the move's value and tells the others to stop.
//!
//! # Why the answer does not depend on the threads
//!
//! Each thread computes an exact value by itself; the table only ever holds
//! results valid under the history they are reused under (see
//! [`crate::search::tt`]), whichever thread stored them. So any thread's answer for a
//! root move is that move's exact value, and the solution is the same for any
//! thread count and any timing. Only the node counts vary.

use super::pv::principal_variation;
use super::root_moves::Root;
use super::threads::{pool, Searched};
use crate::rules::history::Game;
use crate::rules::position::Move;
use crate::search::engines::searcher::Searcher;
use crate::search::engines::solver::{table_for, SolveShared, Solver};
use crate::search::engines::value_driver::first_guess;
use crate::search::tree::node::Node;
use crate::search::tree::path::Path;
use crate::search::tt::Table;
use crate::search::types::options::{thread_count, SolveOptions};
use crate::search::types::outcome::{best_value, MoveValue, Solution, SolveError, Stats};
use crate::search::types::stop::Stop;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

/// How the threads share a solve's work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Plan {
    /// Every root move's exact value: one task per symmetry orbit.
    RootMoves,
    /// The root's value alone, as one task: every thread runs the value
    /// driver on the root (helper `k` on its `k`-th thread). With one thread
    /// this is the value-only solve.
    RootValue,
    /// The root's value, the value driver's tests spread over the threads
    /// ([`super::spread`]): a value-only solve on several threads.
    SpreadTests,
}

/// Solve `game` with the fast solver on the threads the options ask for.
pub(crate) fn solve(game: &Game, opts: &SolveOptions) -> Result<Solution, SolveError> {
    let threads = thread_count(opts).max(1);
    let plan = match (opts.value_only, threads) {
        (false, _) => Plan::RootMoves,
        (true, 1) => Plan::RootValue,
        (true, _) => Plan::SpreadTests,
    };
    solve_on(game, opts, threads, plan, table_for(&game.geo, opts))
}

/// Solve `game` on `threads` threads by `plan`, with `table` (which the
/// caller may keep to ask afterwards, see [`super::probe`]).
pub(crate) fn solve_on(
    game: &Game,
    opts: &SolveOptions,
    threads: usize,
    plan: Plan,
    table: Arc<Table>,
) -> Result<Solution, SolveError> {
    let start = Instant::now();
    if game.is_over() {
        let stats = Stats { seconds: start.elapsed().as_secs_f64(), ..Stats::default() };
        return Ok(Solution { value: game.score(), pv: vec![], moves: vec![], stats });
    }
    let root = Root::new(game);
    let (result, solvers) = match plan {
        Plan::SpreadTests => super::decided::watching(game, opts, &table, &root, || {
            let (result, solvers) = super::spread::solve_value(game, opts, threads, &table, &root);
            (result.map(|value| (value, Vec::new())), solvers)
        }),
        Plan::RootValue => {
            super::decided::watching(game, opts, &table, &root, || run_tasks(game, opts, threads, plan, &table, &root))
        }
        Plan::RootMoves => run_tasks(game, opts, threads, plan, &table, &root),
    };
    match result {
        Ok((value, moves)) => finish(game, opts, table, &root, value, moves, solvers, start),
        Err(e) => {
            if plan != Plan::RootMoves {
                // How far the test it stopped in got, root move by root move.
                super::decided::stopped_test(game, opts, &table, &root);
            }
            Err(opts.stopped(threads_stats(&solvers, start), e))
        }
    }
}

/// The counters of a solve's threads, all added up, with the wall time
/// since `start`.
fn threads_stats(solvers: &[Solver], start: Instant) -> Stats {
    let mut stats = Stats::default();
    for s in solvers {
        stats.add(&s.stats());
    }
    stats.seconds = start.elapsed().as_secs_f64();
    stats
}

/// One exact value to find: a root move (a representative of its orbit) or
/// the root itself.
struct Task {
    /// Index into the root's children (`None`: the root itself).
    child: Option<usize>,
    /// The node searched: that child, or the root.
    node: Node,
    value: OnceLock<i32>,
    /// Set when the value is known (or the solve stops): its threads stop.
    done: Arc<AtomicBool>,
}

impl Task {
    fn new(child: Option<usize>, node: Node) -> Task {
        Task { child, node, value: OnceLock::new(), done: Arc::new(AtomicBool::new(false)) }
    }
}

/// Which thread works on which task.
struct Board {
    tasks: Vec<Task>,
    /// Threads on each task, under one lock so that picks are consistent.
    workers: Mutex<Vec<usize>>,
    /// The first error; it ends the solve.
    error: Mutex<Option<SolveError>>,
}

impl Board {
    fn new(tasks: Vec<Task>) -> Board {
        Board { workers: Mutex::new(vec![0; tasks.len()]), tasks, error: Mutex::new(None) }
    }

    /// The open task with the fewest threads (the earliest on ties), and
    /// this thread's helper number on it.
    fn pick(&self) -> Option<(usize, usize)> {
        let mut workers = self.workers.lock().unwrap_or_else(|e| e.into_inner());
        let t = (0..self.tasks.len())
            .filter(|&t| !self.tasks[t].done.load(Ordering::Relaxed))
            .min_by_key(|&t| workers[t])?;
        workers[t] += 1;
        Some((t, workers[t] - 1))
    }

    fn leave(&self, t: usize) {
        self.workers.lock().unwrap_or_else(|e| e.into_inner())[t] -= 1;
    }

    /// End the whole solve with `e` (the first error wins): every task is
    /// marked done, so its threads stop and none is picked again.
    fn fail(&self, e: SolveError) {
        let mut slot = self.error.lock().unwrap_or_else(|e| e.into_inner());
        slot.get_or_insert(e);
        for t in &self.tasks {
            t.done.store(true, Ordering::Relaxed);
        }
    }

    /// The first guess of the value driver on task `t`: for the root the
    /// options' guess, else [`first_guess`]; for a root move, the value of
    /// the nearest earlier task already solved (sibling moves often have
    /// close values; one thread takes the tasks in order, so that is the
    /// previous move, and on several threads usually the pass, the first
    /// task), else the root's area score. Only the work depends on it.
    fn guess(&self, t: usize, game: &Game, opts: &SolveOptions, root: &Root) -> i32 {
        match self.tasks[t].child {
            None => opts.guess.unwrap_or_else(|| first_guess(&game.geo, &root.node)),
            Some(_) => self.tasks[..t]
                .iter()
                .rev()
                .find_map(|t| t.value.get().copied())
                .unwrap_or_else(|| root.node.pos.score(&game.geo)),
        }
    }

    /// Root moves whose value is known (a solved task stands for its orbit),
    /// for progress reports.
    fn moves_done(&self, root: &Root) -> usize {
        let solved = |i: usize| self.tasks.iter().any(|t| t.child == Some(i) && t.value.get().is_some());
        root.reps.iter().filter(|&&r| solved(r)).count()
    }
}

/// The tasks of `plan` run on `threads` threads: the root's value and every
/// root move's (empty for [`Plan::RootValue`]), and the threads' solvers.
fn run_tasks(
    game: &Game,
    opts: &SolveOptions,
    threads: usize,
    plan: Plan,
    table: &Arc<Table>,
    root: &Root,
) -> Searched<(i32, Vec<MoveValue>)> {
    let tasks: Vec<Task> = match plan {
        Plan::RootMoves => root.orbit_firsts().map(|i| Task::new(Some(i), root.children[i].1)).collect(),
        _ => vec![Task::new(None, root.node)],
    };
    // The root's own task skips the mirror moves at the root (see
    // `Searcher::set_root_skip`); root-move tasks search below the root.
    let skip = if plan == Plan::RootMoves { 0 } else { root.mirror_moves() };
    let board = Board::new(tasks);
    let tell = |t: &Task, value: i32| {
        if let (Some(f), Some(child)) = (&opts.on_root_move, t.child) {
            for (&(mv, _), _) in root.children.iter().zip(root.reps.iter()).filter(|&(_, &r)| r == child) {
                f(MoveValue { mv, value });
            }
        }
    };
    let shared = SolveShared::new(opts, threads > 1);
    // A value-only solve's guess, tried first move by move where it is a
    // claim for the player to move (`super::focus::guess_to_focus`).
    let focus = if plan == Plan::RootValue { super::focus::guess_to_focus(game, root, opts) } else { None };
    let worker = || -> Solver {
        let mut s = Solver::with_table(game.geo, game.rules, opts, table.clone());
        s.join(&shared);
        s.set_root_skip(root.ply(), skip);
        while let Some((t, k)) = board.pick() {
            let task = &board.tasks[t];
            s.set_helper(k, Some(task.done.clone()));
            let mut p = root.path.clone();
            if task.child.is_some() {
                s.report_root(board.moves_done(root), root.children.len());
                p.push(task.node.pos, task.node.to_move);
            }
            match task.child {
                None => s.set_root_bounds(opts.value_bounds.clone(), opts.known_bounds),
                Some(_) => s.set_root_bounds(None, (None, None)),
            }
            // The focus works toward the guess's test: the progress line says so.
            if let (Some(b), None, Some(log)) = (focus, task.child, &opts.value_bounds) {
                log.set_testing([b]);
            }
            // What the tries proved stands in the log: the value driver
            // goes on with the guess's other side, and a stop there must
            // not lose it.
            let focused = match focus {
                Some(b) => super::focus::first_move(&mut s, &mut p, game, root, b, threads, opts.focus_after).map(
                    |(lo, hi)| {
                        if let Some(log) = &opts.value_bounds {
                            log.narrow(lo, hi);
                        }
                    },
                ),
                None => Ok(()),
            };
            match focused.and_then(|()| s.exact(&mut p, task.node, board.guess(t, game, opts, root))) {
                Ok(v) => {
                    if task.value.set(v).is_ok() {
                        tell(task, v);
                    }
                    debug_assert_eq!(task.value.get(), Some(&v), "helpers disagree on an exact value");
                    task.done.store(true, Ordering::Relaxed);
                }
                // Another thread finished this task first (or failed).
                Err(Stop::TaskDone) => {}
                Err(e) => board.fail(e.into_error()),
            }
            board.leave(t);
        }
        s
    };
    // One thread searches on this one (the caller's deep stack).
    let solvers: Vec<Solver> = if threads == 1 { vec![worker()] } else { pool(threads).broadcast(|_| worker()) };
    if let Some(e) = board.error.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return (Err(e), solvers);
    }
    let solved = |child: Option<usize>| -> i32 {
        let task = board.tasks.iter().find(|t| t.child == child).expect("every orbit has a task");
        *task.value.get().expect("every task is solved unless the solve failed")
    };
    if plan != Plan::RootMoves {
        return (Ok((solved(None), Vec::new())), solvers);
    }
    let moves: Vec<MoveValue> =
        root.children.iter().zip(&root.reps).map(|(&(mv, _), &r)| MoveValue { mv, value: solved(Some(r)) }).collect();
    (Ok((best_value(&moves, root.node.to_move), moves)), solvers)
}

/// The end of every solve: the principal variation of the solved root
/// (unless `no_pv`), the threads' nodes and the wall time (also when a
/// limit stops the line: see [`SolveOptions::stopped`]).
///
/// With one thread the line is searched by its solver, which goes on with
/// what it learnt (the df-pn guide, the move order); with more, by a fresh
/// solver on the shared table.
#[allow(clippy::too_many_arguments)]
fn finish(
    game: &Game,
    opts: &SolveOptions,
    table: Arc<Table>,
    root: &Root,
    value: i32,
    moves: Vec<MoveValue>,
    mut solvers: Vec<Solver>,
    start: Instant,
) -> Result<Solution, SolveError> {
    let mut main = match solvers.len() {
        1 => solvers.pop().expect("one solver"),
        _ => Solver::with_table(game.geo, game.rules, opts, table),
    };
    // Its task is done: the line must not stop for that.
    main.set_helper(0, None);
    main.report_root(root.children.len(), root.children.len());
    let pv = if opts.no_pv {
        Ok(Vec::new())
    } else {
        let mut p = root.path.clone();
        let cap = opts.pv_moves.unwrap_or(usize::MAX);
        principal_variation(&mut main, &game.geo, &game.rules, &mut p, root.node, value, cap).map_err(Stop::into_error)
    };
    solvers.push(main);
    let stats = threads_stats(&solvers, start);
    match pv {
        Ok(pv) => Ok(Solution { value, pv, moves, stats }),
        Err(e) => Err(opts.stopped(stats, e)),
    }
}

/// The move the table holds as best at the root of `game`, if any (see
/// [`super::probe`]).
pub(crate) fn table_move(game: &Game, opts: &SolveOptions, table: Arc<Table>) -> Option<Move> {
    let mut s = Solver::with_table(game.geo, game.rules, opts, table);
    s.hint(&Path::from_game(game), &Node::of_game(game))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::position::Rules;
    use crate::search::drivers::threads::with_deep_stack;

    fn game(width: usize, height: usize, moves: &str) -> Game {
        Game::after(width, height, Rules::default(), moves)
    }

    /// Every plan on one and on two threads gives the reference's values
    /// (the root's, and every root move's where the plan computes them),
    /// and a principal variation that ends the game.
    #[test]
    fn every_plan_and_thread_count_agrees_with_the_reference() {
        with_deep_stack(|| {
            for g in
                [game(1, 5, ""), game(2, 2, ""), game(2, 2, "a2 b2 a1 b1 a2"), game(1, 4, "a2 a3"), game(1, 5, "a3")]
            {
                let opts = SolveOptions { table_mb: 4, ..Default::default() };
                let want = crate::search::solve_reference(&g, &opts).unwrap();
                for threads in [1, 2] {
                    for plan in [Plan::RootMoves, Plan::RootValue, Plan::SpreadTests] {
                        if plan == Plan::SpreadTests && threads == 1 {
                            continue;
                        }
                        let table = crate::search::engines::solver::table_for(&g.geo, &opts);
                        let sol = solve_on(&g, &opts, threads, plan, table).unwrap();
                        assert_eq!(sol.value, want.value, "{plan:?} on {threads} threads");
                        if plan == Plan::RootMoves {
                            assert_eq!(sol.moves, want.moves, "{plan:?} on {threads} threads");
                        }
                        let mut line = g.clone();
                        for &m in &sol.pv {
                            line.play(m).unwrap();
                        }
                        assert!(line.is_over(), "the principal variation ends the game");
                        assert_eq!(line.score(), want.value, "the principal variation keeps the value");
                    }
                }
            }
        });
    }

    /// A solve stopped by its node limit tells `stopped_stats` the work its
    /// threads did, all added up: at least the limit (every thread checks
    /// the solve's total), its time and its table, whether it stopped on
    /// the values or while reading the principal variation.
    #[test]
    fn a_stopped_solve_tells_its_work() {
        with_deep_stack(|| {
            let run = |g: &Game, threads: usize, plan: Plan, limit: Option<u64>, no_pv: bool| {
                let log = crate::search::StatsLog::default();
                let opts = SolveOptions {
                    table_mb: 4,
                    node_limit: limit,
                    no_pv,
                    stopped_stats: Some(log.clone()),
                    ..Default::default()
                };
                let table = crate::search::engines::solver::table_for(&g.geo, &opts);
                (solve_on(g, &opts, threads, plan, table), log.get())
            };
            for threads in [1, 2] {
                for plan in [Plan::RootMoves, Plan::RootValue, Plan::SpreadTests] {
                    if plan == Plan::SpreadTests && threads == 1 {
                        continue;
                    }
                    let (result, stats) = run(&game(4, 4, ""), threads, plan, Some(2000), false);
                    assert_eq!(result.unwrap_err(), SolveError::NodeLimit(2000), "{plan:?} on {threads} threads");
                    let stats = stats.expect("a stopped solve tells its work");
                    assert!(stats.nodes >= 2000 && stats.seconds > 0.0 && stats.table_bytes > 0, "{stats:?}");
                }
            }
            // One thread: the values take `n` nodes, and the line more.
            let g = game(3, 3, "");
            let (result, stats) = run(&g, 1, Plan::RootValue, None, true);
            assert!(stats.is_none(), "a solve that finished tells nothing");
            let n = result.unwrap().stats.nodes;
            let (result, stats) = run(&g, 1, Plan::RootValue, Some(n + 1), false);
            assert_eq!(result.unwrap_err(), SolveError::NodeLimit(n + 1), "stopped on the line");
            assert_eq!(stats.expect("a stopped line tells its work").nodes, n + 1);
        });
    }
}
