//! A value-only solve on several threads: the value driver's null-window
//! tests spread over the threads (see [`TestBoard`]). The root driver
//! ([`super::root`]) runs it for [`super::root::Plan::SpreadTests`] and
//! ends it as every solve.

use super::driver::{first_guess, static_range, Driver};
use super::options::SolveOptions;
use super::root::Root;
use super::searcher::Searcher;
use super::solver::{guide_for, Solver};
use super::stop::{SolveError, Stop};
use super::threads::pool;
use super::tt::Table;
use crate::rules::history::Game;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// The null-window tests of a parallel value-only solve: the driver's next
/// test "value ≥ b" runs on every thread, on the shared table: helpers 0
/// and 1 with df-pn (see `Solver::uses_dfpn`; they also share the guide's
/// numbers and work marks), further helpers with the alpha-beta (their
/// proofs feed df-pn); every result narrows the range, and a test whose b
/// has left the range is stopped. The driver's extreme tests are not run
/// here: run beside the steps with a budget they cost more than they saved
/// on the 5x5 positions tried (session 21: game 2 at 18 empty, value +25,
/// 37–42 → 57 s).
///
/// Strips used to run one df-pn test per thread (each thread its own b),
/// because the helpers were wasted there (two threads needed 20 M – 130 M
/// nodes on 1x12 where one needed 7.5 M). Since df-pn's guide carries the
/// proof tree of "≥ b − 1" into "≥ b" in the same solver (session 13), one
/// test with helpers is faster on strips too: 1x12 value-only on 2 idle
/// cores, default table, 16.1–18.1 s (18.3–20.5 M nodes) against 21.1–23.4 s
/// (14.9 M nodes) with a test per thread; 1x11 2.8 s either way. On 2-D
/// boards it was always so (4x4 value: 27 s on two threads, not solved in
/// 150 s with one df-pn test per thread).
///
/// Every thread's result is a true bound whoever proves it, so the value is
/// exact for any thread count and timing.
struct TestBoard {
    driver: Driver,
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
        let b = self.driver.next();
        if !self.running.iter().any(|r| r.0 == b) {
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

/// The root's value on `threads` threads (more than one): see
/// [`TestBoard`]. Also gives back the threads' solvers.
pub(crate) fn solve_value(
    game: &Game,
    opts: &SolveOptions,
    threads: usize,
    table: &Arc<Table>,
    root: &Root,
) -> Result<(i32, Vec<Solver>), SolveError> {
    let skip = root.mirror_moves();
    let board = Mutex::new(TestBoard {
        driver: Driver::new(static_range(&game.geo, &root.node), first_guess(&game.geo, &root.node)),
        running: Vec::new(),
    });
    let error: Mutex<Option<SolveError>> = Mutex::new(None);
    let lock = || board.lock().unwrap_or_else(|e| e.into_inner());
    let guide = guide_for(opts, true).expect("a parallel solve has a guide");
    let node_count = Arc::default();
    let worker = || -> Solver {
        let mut s = Solver::with_table(game.geo, game.rules, opts, table.clone());
        s.share_guide(Some(&guide));
        s.share_node_count(&node_count);
        s.set_root_skip(root.ply(), skip);
        loop {
            let Some((b, k, flag)) = lock().pick() else { break };
            s.set_helper(k, Some(flag.clone()));
            let mut p = root.path.clone();
            let n0 = s.stats().nodes;
            let r = s.search(&mut p, root.node, b - 1, b);
            super::solver::trace(b, r.as_ref().ok().copied(), s.stats().nodes - n0, k, s.stats().seconds, false);
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
                Err(Stop::TaskDone) => lock().leave(b, None),
                Err(e) => {
                    error.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert(e.into_error());
                    let mut bd = lock();
                    // Make every thread stop: the range can no longer close.
                    bd.leave(b, None);
                    for r in &bd.running {
                        r.2.store(true, Ordering::Relaxed);
                    }
                    bd.driver = Driver::new((0, 0), 0);
                    break;
                }
            }
        }
        s
    };
    let solvers = pool(threads).broadcast(|_| worker());
    if let Some(e) = error.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    let value = board.into_inner().unwrap_or_else(|e| e.into_inner()).driver.value();
    Ok((value, solvers))
}
