//! Claims: "the value is at least / at most v", decided by one null-window
//! test of the fast solver (threads beyond the first help on it, sharing
//! the table), with the line of the proof. Where the claim is in favour of
//! the player to move and its test is large, the first moves are tried
//! alone before it (`search::drivers::focus`).

use super::decided::{claim_after, decided, root_moves, watched};
use super::pv::bound_variation;
use super::threads::pool;
use crate::rules::history::Game;
use crate::rules::position::{Color, Move, Rules};
use crate::search::engines::searcher::Searcher;
use crate::search::engines::solver::{table_for, SolveShared, Solver};
use crate::search::engines::value_driver::static_range;
use crate::search::tree::node::{Node, INF};
use crate::search::tree::path::Path;
use crate::search::types::options::{thread_count, SolveOptions, Trace};
use crate::search::types::outcome::{SolveError, Stats};
use crate::search::types::stop::Stop;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

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
        // The watcher ends when the test does, even by a panic.
        let watch = (opts.claim_moves.as_ref(), &*done);
        let per_thread: Vec<Stats> =
            watched(game, opts, (&table, &path, &root), &|| Some((b, at_least)), watch, || {
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
