//! A value-only solve on several threads: the value driver's null-window
//! tests spread over the threads (see [`TestBoard`]). The root driver
//! ([`super::root`]) runs it for [`super::root::Plan::SpreadTests`] and
//! ends it as every solve.

use super::focus::focus_step;
use super::root_moves::Root;
use super::threads::{pool, Searched};
use crate::rules::history::Game;
use crate::rules::position::Color;
use crate::search::engines::searcher::Searcher;
use crate::search::engines::solver::{fresh_guide, SolveShared, Solver};
use crate::search::engines::value_driver::{first_guess, root_range, Driver};
use crate::search::tt::Table;
use crate::search::tuning::{SPREAD_EXTREME_AFTER, SPREAD_EXTREME_SHARE};
use crate::search::types::options::SolveOptions;
use crate::search::types::outcome::{BoundsLog, SolveError};
use crate::search::types::stop::Stop;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// The null-window tests of a parallel value-only solve: the driver's next
/// test "value ≥ b" runs on every thread, on the shared table, with df-pn
/// (see `Solver::uses_dfpn`; the threads also share the guide's numbers
/// and work marks); every result narrows the range, and a test whose b
/// has left the range is stopped. A step the player to move is expected to
/// win (the first test, and those after a result its way;
/// [`focus_step`]) tries the first moves alone where the root's test is
/// still open after a first budget ([`super::focus::first_move`]).
///
/// The driver's extreme test (a whole-board win or loss, see [`Driver`])
/// is due after [`SPREAD_EXTREME_AFTER`] results in a row one way, and runs the
/// same way, on every thread, once no step runs, with a node
/// budget: the work spent on the tests so far ([`SPREAD_EXTREME_SHARE`]), at least
/// twice the last budget given up on, split between the threads. The first
/// thread out of budget ends it for all, and the steps go on; it is tried
/// again after the next step while the range still holds the extreme. Its
/// df-pn numbers live in a guide of their own, kept from one try to the
/// next: numbers for a bound so far from the steps' misguide them (with one
/// guide, game 1 at 16 empty took 17.4 M nodes against 10.6 M); its proofs
/// and disproofs go to the shared table like any other.
///
/// Why: on 5x5 positions whose value is the whole board a climb one step
/// at a time can take hours where the extreme is one test (game 2 at 20
/// empty points, +25, climbed to only "≥ 8" in 40 minutes, and is solved in
/// 320 s with the extreme). A smaller share does not reach a proof of that
/// size before the climb's next step; where the extreme fails, the tries
/// cost a little (`results/tuning.md`).
///
/// Why one test at a time, on strips too: since df-pn's guide carries the
/// proof tree of "≥ b − 1" into "≥ b" in the same solver, one test with
/// helpers is faster than a test per thread (each its own b) on every
/// board measured (`results/tuning.md`).
///
/// Every thread's result is a true bound whoever proves it, and a test
/// stopped by its budget or its flag proves nothing and records nothing,
/// so the value is exact for any thread count, budget and timing.
struct TestBoard {
    driver: Driver,
    /// Tests running: b, its threads, its stop flag, and whether its threads
    /// try the first moves alone, after how many nodes ([`focus_step`]).
    running: Vec<(i32, usize, Arc<AtomicBool>, Option<u64>)>,
    /// The extreme test running, if any: its b (it is also in `running`)
    /// and its node budget, all threads together.
    extreme: Option<(i32, u64)>,
    /// Nodes spent on all tests so far, all threads.
    spent: u64,
    /// Told the tests running whenever they change (in [`TestBoard::pick`]
    /// and [`TestBoard::leave`]): a solve's progress line names them.
    log: Option<BoundsLog>,
    /// Stopped by a limit or an error: no test starts any more, and the log
    /// keeps the tests it stopped in.
    stopped: bool,
    /// Which step tests try the first moves alone ([`focus_step`]): whether
    /// Black is to move, and the options' guess; `None`: none.
    focus: Option<(bool, Option<i32>)>,
}

/// A test given to a thread: its b, helper number, stop flag, node budget
/// (`None`: a step, run to the end), and whether the first moves are tried
/// alone, after how many nodes of the root's test.
type Pick = (i32, usize, Arc<AtomicBool>, Option<u64>, Option<u64>);

/// How a thread left its test.
#[derive(Clone, Copy, Debug)]
enum Left {
    /// With this fail-soft result.
    Result(i32),
    /// Its budget (an extreme test's) ran out.
    OutOfBudget,
    /// Stopped by its flag: the range left the test, or the solve is over.
    Stopped,
}

impl TestBoard {
    fn new(driver: Driver, log: Option<BoundsLog>) -> TestBoard {
        TestBoard { driver, running: Vec::new(), extreme: None, spent: 0, log, stopped: false, focus: None }
    }

    /// The same board, trying the first moves alone on the step tests
    /// [`focus_step`] chooses (`black`: Black to move; `guess`: the options').
    fn focusing(mut self, black: bool, guess: Option<i32>) -> TestBoard {
        self.focus = Some((black, guess));
        self
    }

    /// The test this thread should run (`None`: the value is known).
    fn pick(&mut self, threads: usize) -> Option<Pick> {
        if self.driver.done() || self.stopped {
            return None;
        }
        let b = match (self.extreme, self.driver.extreme()) {
            (Some((b, _)), _) => b,
            // An extreme test starts once no step runs (the threads of the
            // step that made it due are stopping).
            (None, Some(b)) if self.running.iter().all(|r| r.2.load(Ordering::Relaxed)) => {
                self.extreme = Some((b, self.driver.extreme_budget(self.spent, SPREAD_EXTREME_SHARE)));
                b
            }
            _ => self.driver.next(),
        };
        // Whenever an extreme test is on, b is its b.
        let budget = self.extreme.map(|e| e.1 / threads as u64);
        let pick = match self.running.iter_mut().find(|r| r.0 == b && !r.2.load(Ordering::Relaxed)) {
            Some(r) => {
                r.1 += 1;
                (b, r.1 - 1, r.2.clone(), budget, r.3)
            }
            None => {
                let flag = Arc::new(AtomicBool::new(false));
                let focus = self
                    .focus
                    .filter(|_| budget.is_none())
                    .and_then(|(black, guess)| focus_step(black, b, guess, self.driver.range(), self.driver.last_up()));
                self.running.push((b, 1, flag.clone(), focus));
                (b, 0, flag, budget, focus)
            }
        };
        self.tell();
        Some(pick)
    }

    /// Tell the log (if any) the tests running now: those not stopped. Once
    /// the solve is stopped by a limit, the log keeps what it stopped in.
    fn tell(&self) {
        if let Some(log) = self.log.as_ref().filter(|_| !self.stopped) {
            log.set_testing(self.running.iter().filter(|r| !r.2.load(Ordering::Relaxed)).map(|r| r.0));
        }
    }

    /// A thread left test `b` (its stop flag `flag`) after `nodes` nodes.
    fn leave(&mut self, b: i32, flag: &Arc<AtomicBool>, nodes: u64, left: Left) {
        self.spent += nodes;
        if let Left::Result(g) = left {
            if !self.driver.done() && b > self.driver.range().0 && b <= self.driver.range().1 {
                self.driver.record(b, g);
            }
        }
        if let Some((eb, budget)) = self.extreme.filter(|e| e.0 == b && !matches!(left, Left::Stopped)) {
            // A result ends the extreme test for every thread on it, and so
            // does the first thread out of budget (they started together
            // with the same budget).
            self.extreme = None;
            if matches!(left, Left::OutOfBudget) {
                self.driver.extreme_open(budget);
            }
            for r in self.running.iter().filter(|r| r.0 == eb) {
                r.2.store(true, Ordering::Relaxed);
            }
        }
        if let Some(i) = self.running.iter().position(|r| Arc::ptr_eq(&r.2, flag)) {
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
        if self.extreme.is_some_and(|e| self.driver.done() || e.0 <= lo || e.0 > hi) {
            self.extreme = None;
        }
        self.tell();
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
) -> Searched<i32> {
    let skip = root.mirror_moves();
    let board = Mutex::new(
        TestBoard::new(
            Driver::new(
                root_range(&game.geo, &root.path, &root.node, opts.known_bounds),
                opts.guess.unwrap_or_else(|| first_guess(&game.geo, &root.node)),
            )
            .extreme_after(SPREAD_EXTREME_AFTER),
            opts.value_bounds.clone(),
        )
        .focusing(root.node.to_move == Color::Black, opts.guess),
    );
    // Bounds an earlier run proved stand from the start, so that a stop
    // before the first test keeps them.
    if opts.known_bounds != (None, None) {
        board.lock().unwrap_or_else(|e| e.into_inner()).driver.report(opts.value_bounds.as_ref());
    }
    let error: Mutex<Option<SolveError>> = Mutex::new(None);
    let lock = || board.lock().unwrap_or_else(|e| e.into_inner());
    let shared = SolveShared::new(opts, true);
    let extreme_guide = fresh_guide(opts);
    let worker = || -> Solver {
        let mut s = Solver::with_table(game.geo, game.rules, opts, table.clone());
        s.join(&shared);
        s.set_root_skip(root.ply(), skip);
        // The test this thread last tried first move by first move.
        let mut focused = None;
        loop {
            let Some((b, k, flag, budget, focus)) = lock().pick(threads) else { break };
            s.set_helper(k, Some(flag.clone()));
            let mut p = root.path.clone();
            let n0 = s.stats().nodes;
            let r = match budget {
                Some(budget) => {
                    s.share_guide(Some(&extreme_guide));
                    let r = s.test_within(&mut p, root.node, b, budget);
                    s.share_guide(shared.guide.as_ref());
                    r
                }
                None if focus.is_some() && focused != Some(b) => {
                    focused = Some(b);
                    let after = opts.focus_after.or(focus);
                    super::focus::first_move(&mut s, &mut p, game, root, b, threads, after)
                        .and_then(|_| s.search(&mut p, root.node, b - 1, b).map(Some))
                }
                None => s.search(&mut p, root.node, b - 1, b).map(Some),
            };
            let nodes = s.stats().nodes - n0;
            if let Ok(g) = r {
                s.trace_test(b, g, nodes, budget.is_some());
            }
            match r {
                Ok(g) => {
                    let mut bd = lock();
                    bd.leave(b, &flag, nodes, g.map_or(Left::OutOfBudget, Left::Result));
                    bd.driver.report(opts.value_bounds.as_ref());
                }
                // The range left this test (or the solve is over).
                Err(Stop::TaskDone) => lock().leave(b, &flag, nodes, Left::Stopped),
                Err(e) => {
                    error.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert(e.into_error());
                    let mut bd = lock();
                    // The log keeps the tests it stopped in; make every
                    // thread stop: the range can no longer close. The
                    // driver stays as it is: a thread that finishes its
                    // test after this still records a true bound and
                    // reports the driver's range, which must not be a
                    // placeholder's (a (0, 0) put here once made a
                    // stopped solve log "value ≤ 0" where the value was +2).
                    bd.stopped = true;
                    bd.leave(b, &flag, nodes, Left::Stopped);
                    for r in &bd.running {
                        r.2.store(true, Ordering::Relaxed);
                    }
                    break;
                }
            }
        }
        s
    };
    let solvers = pool(threads).broadcast(|_| worker());
    if let Some(e) = error.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return (Err(e), solvers);
    }
    let value = board.into_inner().unwrap_or_else(|e| e.into_inner()).driver.value();
    (Ok(value), solvers)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Play the board's bookkeeping for two threads: the extreme test is
    /// offered once three results went up, to both threads with one budget;
    /// the first thread out of budget ends it for both, the next extreme's
    /// budget doubles, and steps go on until a result settles the value.
    #[test]
    fn an_extreme_test_runs_on_every_thread_with_one_budget() {
        let mut bd = TestBoard::new(Driver::new((-9, 9), 0).extreme_after(SPREAD_EXTREME_AFTER), None);
        // Three steps upward, each on both threads.
        for _ in 0..SPREAD_EXTREME_AFTER {
            let (b, k, flag, budget, _) = bd.pick(2).unwrap();
            assert_eq!((k, budget), (0, None), "a step, run to its end");
            let (b2, k2, flag2, _, _) = bd.pick(2).unwrap();
            assert_eq!((b2, k2), (b, 1), "the second thread helps on the same step");
            bd.leave(b, &flag, 1_000_000, Left::Result(b));
            assert!(flag2.load(Ordering::Relaxed), "a proved step stops its other thread");
            bd.leave(b2, &flag2, 1_000_000, Left::Stopped);
        }
        let spent = 2_000_000 * SPREAD_EXTREME_AFTER as u64;
        let (b, k, flag, budget, _) = bd.pick(2).unwrap();
        let total = spent / SPREAD_EXTREME_SHARE;
        let per_thread = total / 2;
        assert_eq!((b, k, budget), (9, 0, Some(per_thread)), "the extreme, with its budget");
        let (b2, k2, flag2, budget2, _) = bd.pick(2).unwrap();
        assert_eq!((b2, k2, budget2), (9, 1, Some(per_thread)), "on both threads");
        bd.leave(9, &flag, per_thread, Left::OutOfBudget);
        assert!(flag2.load(Ordering::Relaxed), "out of budget on one thread: over for both");
        bd.leave(9, &flag2, per_thread / 2, Left::Stopped);
        assert_eq!(bd.driver.extreme_budget(0, SPREAD_EXTREME_SHARE), 2 * total, "the next extreme's budget doubles");
        let (b, _, flag, budget, _) = bd.pick(2).unwrap();
        assert!(b < 9 && budget.is_none(), "a step again, not the extreme at once");
        bd.leave(b, &flag, 1_000, Left::Result(9));
        assert!(bd.driver.done(), "a fail-soft 9 settles the range");
        assert!(bd.pick(2).is_none());
        assert_eq!(bd.driver.value(), 9);
    }

    /// The log names the tests running, not those stopped, and none once
    /// the value is known.
    #[test]
    fn the_log_names_the_tests_running() {
        let log = BoundsLog::default();
        let mut bd = TestBoard::new(Driver::new((-9, 9), 2), Some(log.clone()));
        let (b, _, flag, _, _) = bd.pick(2).unwrap();
        let (b2, _, flag2, _, _) = bd.pick(2).unwrap();
        assert_eq!((b, b2, log.testing()), (2, 2, vec![2]), "both threads on the guess");
        bd.leave(b, &flag, 10, Left::Result(1));
        assert!(log.testing().is_empty(), "the refuted test's other thread is stopping");
        bd.leave(b2, &flag2, 10, Left::Stopped);
        let (b, _, flag, _, _) = bd.pick(2).unwrap();
        assert_eq!(log.testing(), vec![b]);
        bd.leave(b, &flag, 10, Left::Result(1));
        assert!(bd.driver.done() && log.testing().is_empty());
        // A stopped board leaves the log with the test it stopped in.
        let mut bd = TestBoard::new(Driver::new((-9, 9), 5), Some(log.clone()));
        let (b, _, flag, _, _) = bd.pick(2).unwrap();
        bd.stopped = true;
        bd.leave(b, &flag, 10, Left::Stopped);
        assert_eq!(log.testing(), vec![5]);
    }
    /// Without a guess the first test and the steps that go the mover's
    /// way are tried first move by first move; a step after a result the
    /// other way is not, nor is an extreme try. With a guess, the guess
    /// decides while the range holds it.
    #[test]
    fn the_board_focuses_the_tests_the_mover_is_expected_to_win() {
        // White to move, no guess: "≥ 3" is White's claim.
        let white = || TestBoard::new(Driver::new((-9, 9), 3), None).focusing(false, None);
        let mut bd = white();
        let (b, _, flag, _, focus) = bd.pick(1).unwrap();
        let step = Some(crate::search::tuning::FOCUS_STEP_AFTER);
        assert_eq!((b, focus), (3, step), "the first test, White's claim");
        bd.leave(b, &flag, 10, Left::Result(0));
        let (b, _, _, _, focus) = bd.pick(1).unwrap();
        assert_eq!((b, focus), (0, step), "down again: White's claim again");
        let mut bd = white();
        let (b, _, flag, _, _) = bd.pick(1).unwrap();
        bd.leave(b, &flag, 10, Left::Result(3));
        let (b, _, _, _, focus) = bd.pick(1).unwrap();
        assert_eq!((b, focus), (4, None), "after a result up, Black's side is expected");
        // Black to move, guess 2: only "≥ 2" while the range holds the guess.
        let mut bd = TestBoard::new(Driver::new((-9, 9), 2), None).focusing(true, Some(2));
        let (b, _, flag, _, focus) = bd.pick(2).unwrap();
        let (_, _, _, _, helper) = bd.pick(2).unwrap();
        let claim = Some(crate::search::tuning::FOCUS_AFTER);
        assert_eq!((b, focus, helper), (2, claim, claim), "the guess's claim, on both threads");
        bd.leave(b, &flag, 10, Left::Result(2));
        let (b, _, _, _, focus) = bd.pick(2).unwrap();
        assert_eq!((b, focus), (3, None), "above the guess: expected to fail");
        // A board made without `focusing` never focuses.
        let mut bd = TestBoard::new(Driver::new((-9, 9), 2), None);
        assert_eq!(bd.pick(1).unwrap().4, None);
    }
}
