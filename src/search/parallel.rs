//! Parallel solve: the root moves are shared out among the threads, and
//! threads left over *help* on moves already being searched (lazy SMP).
//!
//! # Why helpers
//!
//! A solve needs the exact value of every root move, and their costs are
//! very unequal: on 1x10 three of the six root orbits take 95 % of the nodes.
//! Splitting only at the root leaves most of 16 cores idle behind the
//! hardest move. So every thread takes the unfinished root move with the
//! fewest threads on it: first each move gets one, then the remaining threads
//! join the moves still open. Threads on the same move share the
//! transposition table and interleave different horizon schedules
//! ([`Solver::set_helper`]), so they explore different parts of the
//! tree and feed each other proofs through the table. The first thread to
//! finish gives the move's value and tells the others to stop.
//!
//! # Why the answer does not depend on the threads
//!
//! Each thread computes an exact value by itself; the table only ever holds
//! results valid under the history they are reused under (see
//! [`super::tt`]), whichever thread stored them. So any thread's answer for a
//! root move is that move's exact value, and the solution is the same for any
//! thread count and any timing. Only the node counts vary.

use super::path::Path;
use super::solver::{self, Solver};
use super::tt::Table;
use super::{
    best_value, legal_children, orbit_representatives, principal_variation, MoveValue, Node, Searcher, Solution,
    SolveError, SolveOptions, Stats, SEARCH_STACK,
};
use crate::rules::history::Game;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

/// One root move to solve (a representative of its symmetry orbit).
struct Task {
    /// Index into the root's children (`None`: the root itself, for a
    /// value-only solve).
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
    /// The first error other than a helper's stop; it ends the solve.
    error: Mutex<Option<SolveError>>,
}

impl Board {
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
}

/// The null-window tests of a parallel value-only solve: each thread runs
/// its own test "value ≥ b" (df-pn, as the first thread on a root move does
/// in a full solve), the tests nearest to the driver's next one first, and
/// every result narrows the range for all. A test whose b has left the range
/// is stopped. Once each candidate test has a thread, further threads help
/// on the one with the fewest (alpha-beta helpers, as on a root move). On
/// 2-D boards only the driver's next test is run, with helpers (measured
/// there: the alpha-beta helpers' proofs are what makes df-pn fast).
///
/// Before, all threads ran the same test, one df-pn and the others the
/// alpha-beta, whose work on 1x12 was mostly wasted: two threads needed 20 M
/// – 130 M nodes where one needed 7.5 M, and the solve of every root move
/// (one df-pn per move) was faster than the value alone.
///
/// Every thread's result is a true bound whoever proves it, so the value is
/// exact for any thread count and timing.
struct TestBoard {
    driver: super::Driver,
    /// Whether threads take tests of their own (strips) or help on the
    /// driver's next one (2-D boards; see [`TestBoard::pick`]).
    spread: bool,
    /// Tests running: b, its threads, and its stop flag.
    running: Vec<(i32, usize, Arc<AtomicBool>)>,
}

impl TestBoard {
    /// The test this thread should run: its b, helper number and stop flag
    /// (`None`: the value is known).
    fn pick(&mut self) -> Option<(i32, usize, Arc<AtomicBool>)> {
        if self.driver.done() {
            return None;
        }
        let (lo, hi) = self.driver.range();
        let first = self.driver.next();
        // Candidates: the driver's next test, then alternately above and below.
        let mut candidates = vec![first];
        // On 2-D boards the alpha-beta helpers on the driver's test feed the
        // df-pn thread well (4x4 value: 27 s on two threads this way, not
        // solved in 150 s with one df-pn test per thread); on strips they
        // were wasted (1x12 above), so there each thread runs its own test.
        for k in (1..=(hi - lo)).filter(|_| self.spread) {
            for b in [first + k, first - k] {
                if b > lo && b <= hi {
                    candidates.push(b);
                }
            }
        }
        if let Some(&b) = candidates.iter().find(|&&b| !self.running.iter().any(|r| r.0 == b)) {
            let flag = Arc::new(AtomicBool::new(false));
            self.running.push((b, 1, flag.clone()));
            return Some((b, 0, flag));
        }
        let r = self.running.iter_mut().min_by_key(|r| r.1)?;
        r.1 += 1;
        Some((r.0, r.1 - 1, r.2.clone()))
    }

    /// A thread left test `b` (with its result `g`, if it finished).
    fn leave(&mut self, b: i32, g: Option<i32>) {
        if let Some(g) = g {
            if !self.driver.done() && b > self.driver.range().0 && b <= self.driver.range().1 {
                self.driver.record(b, g);
            }
        }
        if let Some(i) = self.running.iter().position(|r| r.0 == b) {
            self.running[i].1 -= 1;
            if self.running[i].1 == 0 {
                self.running.swap_remove(i);
            }
        }
        // Stop the tests the range has left (all of them once it is done).
        let (lo, hi) = self.driver.range();
        for r in &self.running {
            if self.driver.done() || r.0 <= lo || r.0 > hi {
                r.2.store(true, Ordering::Relaxed);
            }
        }
    }
}

/// A value-only solve on `threads` threads (more than one): see [`TestBoard`].
fn solve_value_only(game: &Game, opts: &SolveOptions, threads: usize) -> Result<Solution, SolveError> {
    let start = Instant::now();
    let table = Arc::new(solver::new_table(&game.geo, opts));
    let path = Path::from_game(game);
    let root = Node::of_game(game);
    let children = legal_children(&game.geo, &game.rules, &path, &root);
    let skip = super::mirror_moves(&children, &orbit_representatives(game, &children));
    let board = Mutex::new(TestBoard {
        driver: super::Driver::new(super::static_range(&game.geo, &root), super::first_guess(&game.geo, &root)),
        running: Vec::new(),
        spread: game.geo.width() == 1 || game.geo.height() == 1,
    });
    let error: Mutex<Option<SolveError>> = Mutex::new(None);
    let lock = || board.lock().unwrap_or_else(|e| e.into_inner());
    let worker = || -> Stats {
        let mut s = Solver::with_table(game.geo, game.rules, opts, table.clone());
        s.set_root_skip(path.len() - 1, skip);
        loop {
            let Some((b, k, flag)) = lock().pick() else { break };
            s.set_helper(k, Some(flag.clone()));
            let mut p = path.clone();
            let r = s.search(&mut p, root, b - 1, b);
            match r {
                Ok(g) => {
                    let mut bd = lock();
                    bd.leave(b, Some(g));
                    if let Some(log) = &opts.value_bounds {
                        let (lo, hi) = bd.driver.range();
                        log.narrow(Some(lo), Some(hi));
                    }
                }
                // The range left this test (or the solve is over).
                Err(SolveError::Interrupted) if flag.load(Ordering::Relaxed) => lock().leave(b, None),
                Err(e) => {
                    error.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert(e);
                    let mut bd = lock();
                    // Make every thread stop: the range can no longer close.
                    bd.leave(b, None);
                    for r in &bd.running {
                        r.2.store(true, Ordering::Relaxed);
                    }
                    bd.driver = super::Driver::new((0, 0), 0);
                    break;
                }
            }
        }
        s.stats()
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .stack_size(SEARCH_STACK)
        .build()
        .expect("cannot start the search threads");
    let per_thread = pool.broadcast(|_| worker());
    if let Some(e) = error.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    let mut stats = Stats::default();
    for st in &per_thread {
        stats.add(st);
    }
    let value = board.into_inner().unwrap_or_else(|e| e.into_inner()).driver.value();
    finish(game, opts, table, &path, root, Solution { value, pv: Vec::new(), moves: Vec::new(), stats }, start)
}

/// The end of a parallel solve: the principal variation of the solved root
/// (one solver on the shared table, unless `no_pv`), its nodes added to the
/// threads', and the wall time.
fn finish(
    game: &Game,
    opts: &SolveOptions,
    table: Arc<Table>,
    path: &Path,
    root: Node,
    mut sol: Solution,
    start: Instant,
) -> Result<Solution, SolveError> {
    let mut main = Solver::with_table(game.geo, game.rules, opts, table);
    if !opts.no_pv {
        let mut p = path.clone();
        sol.pv = principal_variation(&mut main, &game.geo, &game.rules, &mut p, root, sol.value)?;
    }
    sol.stats.add(&main.stats());
    sol.stats.seconds = start.elapsed().as_secs_f64();
    Ok(sol)
}

/// Solve `game` on `threads` threads (more than one) sharing one table.
pub(crate) fn solve(game: &Game, opts: &SolveOptions, threads: usize) -> Result<Solution, SolveError> {
    if opts.value_only {
        return solve_value_only(game, opts, threads);
    }
    let start = Instant::now();
    let table = Arc::new(solver::new_table(&game.geo, opts));
    let path = Path::from_game(game);
    let root = Node::of_game(game);
    let children = legal_children(&game.geo, &game.rules, &path, &root);
    let reps = orbit_representatives(game, &children);
    let tasks: Vec<Task> = if opts.value_only {
        vec![Task::new(None, root)]
    } else {
        (0..children.len()).filter(|&i| reps[i] == i).map(|i| Task::new(Some(i), children[i].1)).collect()
    };
    let board = Board { workers: Mutex::new(vec![0; tasks.len()]), tasks, error: Mutex::new(None) };
    let tell = |t: &Task, value: i32| {
        if let (Some(f), Some(child)) = (&opts.on_root_move, t.child) {
            for (&(mv, _), _) in children.iter().zip(reps.iter()).filter(|&(_, &r)| r == child) {
                f(MoveValue { mv, value });
            }
        }
    };
    // MTD(f) guess: for the root of a value-only solve see `first_guess`; for
    // a root move, the pass's value once known (the pass is
    // the first task, so it usually is), else the current area score.
    let guess = || match board.tasks[0].child {
        None => super::first_guess(&game.geo, &root),
        Some(_) => board.tasks[0].value.get().copied().unwrap_or_else(|| root.pos.score(&game.geo)),
    };
    let skip = if opts.value_only { super::mirror_moves(&children, &reps) } else { 0 };
    let worker = || -> Stats {
        let mut s = Solver::with_table(game.geo, game.rules, opts, table.clone());
        s.set_root_skip(path.len() - 1, skip);
        while let Some((t, k)) = board.pick() {
            let task = &board.tasks[t];
            s.set_helper(k, Some(task.done.clone()));
            if task.child.is_some() {
                let done = board.tasks.iter().filter(|t| t.value.get().is_some()).count();
                s.report_root(done, board.tasks.len());
            }
            let mut p = path.clone();
            if task.child.is_some() {
                p.push(task.node.pos, task.node.to_move);
            }
            s.set_bounds_log(if task.child.is_none() { opts.value_bounds.clone() } else { None });
            match s.exact(&mut p, task.node, guess()) {
                Ok(v) => {
                    if task.value.set(v).is_ok() {
                        tell(task, v);
                    }
                    debug_assert_eq!(task.value.get(), Some(&v), "helpers disagree on an exact value");
                    task.done.store(true, Ordering::Relaxed);
                }
                // Another thread finished this move first.
                Err(SolveError::Interrupted) if task.value.get().is_some() => {}
                Err(e) => board.fail(e),
            }
            board.leave(t);
        }
        s.stats()
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .stack_size(SEARCH_STACK)
        .build()
        .expect("cannot start the search threads");
    let per_thread = pool.broadcast(|_| worker());
    if let Some(e) = board.error.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    let mut stats = Stats::default();
    for st in &per_thread {
        stats.add(st);
    }
    let solved = |child: Option<usize>| match board.tasks.iter().find(|t| t.child == child).and_then(|t| t.value.get())
    {
        Some(&v) => Ok(v),
        None => Err(SolveError::Interrupted),
    };
    let mut moves: Vec<MoveValue> = Vec::new();
    let value = if opts.value_only {
        solved(None)?
    } else {
        for (i, &(mv, _)) in children.iter().enumerate() {
            moves.push(MoveValue { mv, value: solved(Some(reps[i]))? });
        }
        best_value(&moves, root.to_move)
    };
    finish(game, opts, table, &path, root, Solution { value, pv: Vec::new(), moves, stats }, start)
}
