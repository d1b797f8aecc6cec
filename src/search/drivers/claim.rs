//! Claims: "the value is at least / at most v", decided by one null-window
//! test of the fast solver (threads beyond the first help on it, sharing
//! the table), with the line of the proof. Where the claim is in favour of
//! the player to move and its test is large, the first moves are tried
//! alone before it (`search::drivers::focus`).

use super::pv::bound_variation;
use super::threads::{pool, SEARCH_STACK};
use crate::rules::history::Game;
use crate::rules::position::{Color, Move, Rules};
use crate::search::engines::searcher::Searcher;
use crate::search::engines::solver::{table_for, SolveShared, Solver};
use crate::search::engines::value_driver::static_range;
use crate::search::tree::node::{legal_children, Node, INF};
use crate::search::tree::path::Path;
use crate::search::types::options::{thread_count, ClaimMovesLog, MoveClaim, SolveOptions, Trace};
use crate::search::types::outcome::{SolveError, Stats};
use crate::search::types::stop::Stop;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A claim about the value of a position (Black − White area, komi
/// excluded): one null-window test decides it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Claim {
    /// The value is at least this.
    AtLeast(i32),
    /// The value is at most this.
    AtMost(i32),
}

impl Claim {
    /// The claim as the user states it, with komi: `value − komi ≥ v`
    /// (`at_least`) or `≤ v`. Area values are whole numbers, so a claim
    /// between two of them is rounded to the one it means.
    pub fn with_komi(at_least: bool, v: f64, rules: &Rules) -> Claim {
        let raw = v + rules.komi.as_f64();
        if at_least {
            Claim::AtLeast(raw.ceil().clamp(-(INF as f64), INF as f64) as i32)
        } else {
            Claim::AtMost(raw.floor().clamp(-(INF as f64), INF as f64) as i32)
        }
    }
    /// The first test "value ≥ b" of a value-only solve whose value is
    /// guessed at `v` (with komi, read as the claim "≥ v" is): the b of
    /// `--guess` and of a manifest job's `guess`.
    pub fn guess_with_komi(v: f64, rules: &Rules) -> i32 {
        Claim::with_komi(true, v, rules).test().0
    }
    /// The b of the test "value ≥ b" that decides it (the claim holds iff
    /// the test's answer is `at_least`).
    fn test(&self) -> (i32, bool) {
        match *self {
            Claim::AtLeast(v) => (v, true),
            Claim::AtMost(v) => (v + 1, false),
        }
    }
}

/// The answer to a [`Claim`]: whether it holds, and a principal variation
/// of its proof (of the claim when it holds, else of the opposite bound):
/// the prover's moves keep the bound, the opponent's are its table move
/// or a pass (any of its moves keeps the bound). The line is empty where the
/// game is over, or where a limit was reached while it was read.
#[derive(Clone, Debug)]
pub struct ClaimResult {
    pub claim: Claim,
    pub holds: bool,
    pub pv: Vec<Move>,
    pub stats: Stats,
}

impl ClaimResult {
    /// What the answer proves of the value (komi excluded): "≥ b" where the
    /// test "value ≥ b" held, else "≤ b − 1".
    pub fn bounds(&self) -> (Option<i32>, Option<i32>) {
        let (b, at_least) = self.claim.test();
        if self.holds == at_least {
            (Some(b), None)
        } else {
            (None, Some(b - 1))
        }
    }
}

/// Decide a claim about the game's current position with one null-window
/// test of the fast solver (threads beyond the first help on the same test,
/// sharing the table, as on a root move of a parallel solve).
pub(crate) fn prove_claim(game: &Game, claim: Claim, opts: &SolveOptions) -> Result<ClaimResult, SolveError> {
    let start = Instant::now();
    let (b, at_least) = claim.test();
    let root = Node::of_game(game);
    let path = Path::from_game(game);
    let (lo, hi) = static_range(&game.geo, &root);
    let threads = thread_count(opts).max(1);
    let table = table_for(&game.geo, opts);
    let mut stats = Stats::default();
    // Decided statically (the end of the game, Benson, or outside the board's range)?
    let ge = if lo >= b {
        true
    } else if hi < b {
        false
    } else {
        let done = Arc::new(AtomicBool::new(false));
        let answer: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
        let error: std::sync::Mutex<Option<SolveError>> = std::sync::Mutex::new(None);
        let shared = SolveShared::new(opts, threads > 1);
        // The root's first moves, tried alone first where the claimant is
        // to move (see `super::focus`).
        let first = ((root.to_move == Color::Black) == at_least).then(|| super::root_moves::Root::new(game));
        let worker = |k: usize| -> Stats {
            let mut s = Solver::with_table(game.geo, game.rules, opts, table.clone());
            s.join(&shared);
            s.set_helper(k, Some(done.clone()));
            let mut p = path.clone();
            let focused = match &first {
                Some(first) => {
                    super::focus::first_move(&mut s, &mut p, game, first, b, threads, opts.focus_after).map(|_| ())
                }
                None => Ok(()),
            };
            match focused.and_then(|()| s.search(&mut p, root, b - 1, b)) {
                Ok(g) => {
                    let _ = answer.set(g >= b);
                    done.store(true, Ordering::Relaxed);
                }
                // Another thread answered (or failed) first.
                Err(Stop::TaskDone) => {}
                Err(e) => {
                    error.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert(e.into_error());
                    done.store(true, Ordering::Relaxed);
                }
            }
            s.stats()
        };
        let per_thread: Vec<Stats> = std::thread::scope(|scope| {
            let watcher = opts.claim_moves.as_ref().map(|log| {
                let watch = || watch_root_moves(game, opts, (&table, &path, &root), (b, at_least), log, &done);
                std::thread::Builder::new()
                    .name("gosolve-watch".into())
                    .stack_size(SEARCH_STACK)
                    .spawn_scoped(scope, watch)
                    .expect("cannot start the watching thread")
            });
            // The watcher ends when the test does, even by a panic.
            let _finish = Finish { done: &done, watcher: watcher.as_ref().map(|w| w.thread().clone()) };
            if threads == 1 {
                vec![worker(0)]
            } else {
                pool(threads).broadcast(|ctx| worker(ctx.index()))
            }
        });
        for st in &per_thread {
            stats.add(st);
        }
        if opts.trace == Trace::Table {
            eprintln!("{}", table.census());
        }
        match answer.get() {
            Some(&ge) => ge,
            None => {
                // Stopped: what the search proved may still decide the
                // claim through the root's moves, or says how far it got.
                let moves = root_moves(game, opts, &table, &path, &root, b);
                match decided(root.to_move, &moves) {
                    Some(ge) => ge,
                    None => {
                        if let Some(log) = &opts.claim_moves {
                            log.set(claim_after(&moves, at_least));
                        }
                        stats.seconds = start.elapsed().as_secs_f64();
                        let e = error
                            .into_inner()
                            .unwrap_or_else(|e| e.into_inner())
                            .expect("a test without an answer ended with an error");
                        return Err(opts.stopped(stats, e));
                    }
                }
            }
        }
    };
    let holds = ge == at_least;
    let mut main = Solver::with_table(game.geo, game.rules, opts, table);
    let pv = if opts.no_pv || root.is_over() {
        Vec::new()
    } else {
        // "≥ b" proved: Black keeps b; refuted: White keeps b − 1.
        let (prover, bound) = if ge { (Color::Black, b) } else { (Color::White, b - 1) };
        let mut p = path.clone();
        // The claim is decided: a limit reached while its line is read
        // (the limits count afresh for it) leaves the line out, not the
        // answer.
        bound_variation(&mut main, &game.geo, &game.rules, &mut p, root, prover, bound).unwrap_or_default()
    };
    stats.add(&main.stats());
    stats.seconds = start.elapsed().as_secs_f64();
    Ok(ClaimResult { claim, holds, pv, stats })
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
fn root_moves(
    game: &Game,
    opts: &SolveOptions,
    table: &Arc<crate::search::tt::Table>,
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
fn claim_after(moves: &[(Move, Option<bool>)], at_least: bool) -> Vec<MoveClaim> {
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
    (table, path, root): (&Arc<crate::search::tt::Table>, &Path, &Node),
    (b, at_least): (i32, bool),
    log: &ClaimMovesLog,
    done: &AtomicBool,
) {
    let mut next = Instant::now() + WATCH_FIRST;
    // Woken early only by [`Finish`] (an unpark before the park makes it
    // return at once), or spuriously, which only checks again.
    while !done.load(Ordering::Acquire) {
        let now = Instant::now();
        if now >= next {
            log.set(claim_after(&root_moves(game, opts, table, path, root, b), at_least));
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
fn decided(to_move: Color, moves: &[(Move, Option<bool>)]) -> Option<bool> {
    let good = to_move == Color::Black;
    if moves.iter().any(|&(_, ge)| ge == Some(good)) {
        Some(good)
    } else if !moves.is_empty() && moves.iter().all(|&(_, ge)| ge == Some(!good)) {
        Some(!good)
    } else {
        None
    }
}
