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
use super::{
    best_value, legal_children, orbit_representatives, principal_variation, MoveValue, Node, Searcher, Solution,
    SolveError, SolveOptions, Stats, SEARCH_STACK,
};
use crate::history::Game;
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
        let t = (0..self.tasks.len()).filter(|&t| !self.tasks[t].done.load(Ordering::Relaxed)).min_by_key(|&t| workers[t])?;
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

/// Solve `game` on `threads` threads (more than one) sharing one table.
pub(crate) fn solve(game: &Game, opts: &SolveOptions, threads: usize) -> Result<Solution, SolveError> {
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
    let board = Board {
        workers: Mutex::new(vec![0; tasks.len()]),
        tasks,
        error: Mutex::new(None),
    };
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
    let solved = |child: Option<usize>| match board.tasks.iter().find(|t| t.child == child).and_then(|t| t.value.get()) {
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
    let mut main = Solver::with_table(game.geo, game.rules, opts, table);
    let pv = if opts.no_pv {
        Vec::new()
    } else {
        let mut p = path.clone();
        principal_variation(&mut main, &game.geo, &game.rules, &mut p, root, value)?
    };
    stats.add(&main.stats());
    stats.seconds = start.elapsed().as_secs_f64();
    Ok(Solution { value, pv, moves, stats })
}
