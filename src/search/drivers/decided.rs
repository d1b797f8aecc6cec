//! What a test "value ≥ b" already knows after each root move, read from
//! the table without search: how far a long test has got (a claim's, and
//! the one a value-only solve is on), for its progress line and for the
//! report of a run stopped by its limit, where it may even decide the test.
//! On a proof of hours the root moves already settled are the progress
//! made, and the open ones are where the rest of the work lies.

use super::root_moves::Root;
use super::threads::SEARCH_STACK;
use crate::rules::history::Game;
use crate::rules::position::{Color, Move};
use crate::search::engines::solver::Solver;
use crate::search::tree::node::{legal_children, Node};
use crate::search::tree::path::Path;
use crate::search::tt::Table;
use crate::search::types::options::{ClaimMovesLog, MoveClaim, SolveOptions};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The one test a value-only solve is on now (`None`: it runs none, or
/// several at once on different threads, of which no single list of
/// root moves can speak), as [`watch_root_moves`] asks it: "value ≥ b"
/// is the claim looked at.
fn single_test(opts: &SolveOptions) -> Option<(i32, bool)> {
    match opts.value_bounds.as_ref()?.testing()[..] {
        [b] => Some((b, true)),
        _ => None,
    }
}

/// Run a value-only solve (`run`) with a watcher beside it that keeps
/// [`SolveOptions::claim_moves`] set to what is proved after each root
/// move in the test the solve is on (as a claim's watcher does), where
/// the options ask for both that log and the value's (the tests are read
/// from it). The watcher only reads the table; it ends with `run`.
pub(super) fn watching<T>(
    game: &Game,
    opts: &SolveOptions,
    table: &Arc<Table>,
    root: &Root,
    run: impl FnOnce() -> T,
) -> T {
    let Some(log) = opts.claim_moves.as_ref().filter(|_| opts.value_bounds.is_some()) else {
        return run();
    };
    let done = AtomicBool::new(false);
    let at = (table, &root.path, &root.node);
    let out = watched(game, opts, at, &|| single_test(opts), (Some(log), &done), run);
    // The tests are over (the watcher has ended with the scope): their last
    // look no longer speaks of a test, and the progress line of the
    // principal variation's reading would still show it. A stop sets it
    // again ([`stopped_test`]).
    log.set(Vec::new());
    out
}

/// Run `run` with a watcher beside it where there is a `log` to keep: after
/// [`WATCH_FIRST`] and then every [`WATCH_EVERY`] it sets the log to what is
/// proved after each move of the root `at` in the test that `test` names
/// then ([`watch_root_moves`]). `done` is set when `run` ends (even by a
/// panic), which ends the watcher at once; set earlier, it ends it then.
pub(super) fn watched<T>(
    game: &Game,
    opts: &SolveOptions,
    at: (&Arc<Table>, &Path, &Node),
    test: &(dyn Fn() -> Option<(i32, bool)> + Sync),
    (log, done): (Option<&ClaimMovesLog>, &AtomicBool),
    run: impl FnOnce() -> T,
) -> T {
    std::thread::scope(|scope| {
        let watcher = log.map(|log| {
            let watch = move || watch_root_moves(game, opts, at, test, log, done);
            std::thread::Builder::new()
                .name("gosolve-watch".into())
                .stack_size(SEARCH_STACK)
                .spawn_scoped(scope, watch)
                .expect("cannot start the watching thread")
        });
        let _finish = Finish { done, watcher: watcher.as_ref().map(|w| w.thread().clone()) };
        run()
    })
}

/// A value-only solve stopped in one test "value ≥ b": read what is proved
/// after each root move. Where that decides the test (a stored result
/// after a move the solve had not yet combined at the root), the value's
/// log gets the bound, which is exact as every stored result is; else
/// [`SolveOptions::claim_moves`] gets the moves, for the run's report.
pub(super) fn stopped_test(game: &Game, opts: &SolveOptions, table: &Arc<Table>, root: &Root) {
    let (Some(bounds), Some((b, _))) = (opts.value_bounds.as_ref(), single_test(opts)) else {
        return;
    };
    let moves = root_moves(game, opts, table, &root.path, &root.node, b);
    match decided(root.node.to_move, &moves) {
        Some(true) => bounds.narrow(Some(b), None),
        Some(false) => bounds.narrow(None, Some(b - 1)),
        None => {
            if let Some(log) = &opts.claim_moves {
                log.set(claim_after(&moves, true));
            }
        }
    }
}

/// For each legal move of `root`, whether the search has already decided
/// the test "value ≥ b" after it (`None`: not decided), read without
/// search from what df-pn looks up at every node ([`Solver::known`]: the
/// table's results that hold under this history, Benson, guarded
/// territory). Where that leaves a move open, its replies are read the
/// same way and may decide it (one reply that reaches the bound for its
/// player, or every reply missing it): a proof is often stored one ply
/// below the move only, at its answer's position. An open move only means
/// that its proof is not in the table (unfinished, or replaced).
pub(super) fn root_moves(
    game: &Game,
    opts: &SolveOptions,
    table: &Arc<Table>,
    path: &Path,
    root: &Node,
    b: i32,
) -> Vec<(Move, Option<bool>)> {
    let (geo, rules) = (&game.geo, &game.rules);
    let mut s = Solver::with_table(*geo, *rules, &without_limits(opts), table.clone());
    let mut p = path.clone();
    let mut known = |p: &mut Path, node: &Node| {
        p.push(node.pos, node.to_move);
        let r = s.known(p, node, b);
        p.pop();
        r
    };
    legal_children(geo, rules, path, root)
        .into_iter()
        .map(|(mv, child)| {
            let mut ge = known(&mut p, &child);
            if ge.is_none() {
                p.push(child.pos, child.to_move);
                let replies: Vec<(Move, Option<bool>)> = legal_children(geo, rules, &p, &child)
                    .into_iter()
                    .map(|(reply, next)| (reply, known(&mut p, &next)))
                    .collect();
                p.pop();
                ge = decided(child.to_move, &replies);
            }
            (mv, ge)
        })
        .collect()
}

/// `opts` without the limits and the progress reports: for reading what
/// the search proved, also after it stopped.
fn without_limits(opts: &SolveOptions) -> SolveOptions {
    SolveOptions { node_limit: None, time_limit: None, abort: None, progress: None, ..opts.clone() }
}

/// When dropped (the test is over), sets `done` and wakes the watcher, so
/// that it ends at once instead of at its next look.
struct Finish<'a> {
    done: &'a AtomicBool,
    watcher: Option<std::thread::Thread>,
}

impl Drop for Finish<'_> {
    fn drop(&mut self) {
        self.done.store(true, Ordering::Release);
        if let Some(w) = &self.watcher {
            w.unpark();
        }
    }
}

/// The claim after each move, from the moves' answers to "value ≥ b"
/// ([`root_moves`]).
pub(super) fn claim_after(moves: &[(Move, Option<bool>)], at_least: bool) -> Vec<MoveClaim> {
    moves.iter().map(|&(mv, ge)| MoveClaim { mv, holds: ge.map(|ge| ge == at_least) }).collect()
}

/// How often a running claim reads what is decided after each root move
/// (for its progress line, through [`SolveOptions::claim_moves`]): a
/// claim worth watching runs for minutes or hours, and a look is a few
/// hundred look-ups (every move and its replies), no search. The first
/// look comes sooner, so that the line shows the moves to decide early on.
const WATCH_EVERY: Duration = Duration::from_secs(60);
const WATCH_FIRST: Duration = Duration::from_secs(5);

/// While the claim's test runs (until `done`), set `log` after
/// [`WATCH_FIRST`] and then every [`WATCH_EVERY`] to what is proved after
/// each root move, so that the progress of a long proof can be shown: on a
/// third thread, beside the searching ones, reading the table they share
/// (it stores nothing).
fn watch_root_moves(
    game: &Game,
    opts: &SolveOptions,
    (table, path, root): (&Arc<Table>, &Path, &Node),
    test: &dyn Fn() -> Option<(i32, bool)>,
    log: &ClaimMovesLog,
    done: &AtomicBool,
) {
    let mut next = Instant::now() + WATCH_FIRST;
    // Woken early only by [`Finish`] (an unpark before the park makes it
    // return at once), or spuriously, which only checks again.
    while !done.load(Ordering::Acquire) {
        let now = Instant::now();
        if now >= next {
            // A value-only solve between tests has none to look at.
            if let Some((b, at_least)) = test() {
                log.set(claim_after(&root_moves(game, opts, table, path, root, b), at_least));
            }
            next = Instant::now() + WATCH_EVERY;
        } else {
            std::thread::park_timeout(next - now);
        }
    }
}

/// Whether the moves' answers ([`root_moves`]: "value ≥ b" after each legal
/// move, where decided) decide "value ≥ b" at the root, whose player is
/// `to_move`: Black reaches b if one move does and misses it if every move
/// does; White the other way round.
pub(super) fn decided(to_move: Color, moves: &[(Move, Option<bool>)]) -> Option<bool> {
    let good = to_move == Color::Black;
    if moves.iter().any(|&(_, ge)| ge == Some(good)) {
        Some(good)
    } else if !moves.is_empty() && moves.iter().all(|&(_, ge)| ge == Some(!good)) {
        Some(!good)
    } else {
        None
    }
}
