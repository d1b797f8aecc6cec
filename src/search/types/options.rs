//! What a caller asks of a solve: [`SolveOptions`] with its engine choice,
//! callbacks and logs, and the diagnostics it prints ([`Trace`]).
//!
//! # Diagnostics
//!
//! [`SolveOptions::trace`] (the command line's `gosolve solve --trace
//! KIND`) makes the fast solver print what it does on stderr, for
//! measurements. It is the only switch for them, and it changes nothing
//! else: not a value, not a node count, not a line on stdout.
//!
//! - `tests` ([`Trace::Tests`]): one line per null-window test of the value
//!   driver (`test >= b: true (g 3) (N nodes, helper k, T s)`, `(extreme)`
//!   for a whole-board try, `open (budget)` when its budget ran out), one
//!   per try of a claim's first moves (`focus ...`), and one per growth of
//!   the table during the search (`table: grown to M MiB in T s`);
//! - `roots` ([`Trace::Roots`]): the `tests` lines, and per resolved df-pn
//!   test the nodes its thread spent below each move of the test's root,
//!   most first (`root moves of test >= b at ply p (true): ...`);
//! - `proof` ([`Trace::Proof`]): the `tests` lines, and per resolved df-pn
//!   test the proof it left in the table, walked and measured against its
//!   search (`proof of test >= b at ply p: ...`, see
//!   `engines::solver::dfpn::proof`);
//! - `table` ([`Trace::Table`]): the `tests` lines, and every 2^24 nodes
//!   of the first thread (and when a claim ends) the table's census: its
//!   results by kind, the size of their dependencies, the Bloom slots in
//!   use, and what the stores since the last census replaced
//!   ([`crate::search::tt::Census`]).

use super::outcome::{BoundsLog, MoveValue, Progress, SolveError, Stats};
use crate::rules::geometry::Geometry;
use crate::rules::position::Move;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// Options for a solve.
#[derive(Clone, Default)]
pub struct SolveOptions {
    /// Worker threads (0 = all cores). The value never depends on it.
    pub threads: usize,
    /// Give up after this many nodes.
    pub node_limit: Option<u64>,
    /// Give up after this much time.
    pub time_limit: Option<Duration>,
    /// Set from outside (e.g. Ctrl-C) to stop the search.
    pub abort: Option<Arc<AtomicBool>>,
    /// Transposition table size in MiB (0 = [`machine_table_mb`](crate::search::memory::machine_table_mb)).
    pub table_mb: usize,
    /// Called now and then with progress.
    pub progress: Option<ProgressFn>,
    /// Skip the principal variation (faster when only values are wanted).
    pub no_pv: bool,
    /// At most this many moves of the principal variation of a solve
    /// (`None`: to the game's end). Each move of the line costs null-window
    /// tests of its own, and a player choosing a move (GTP's genmove) needs
    /// the first. The plain reference search and a claim's proof line do
    /// not read it (`no_pv` is what turns a line off everywhere).
    pub pv_moves: Option<usize>,
    /// Compute only the value of the position (and its principal
    /// variation), not the exact value of every root move: one MTD(f) search
    /// of the root instead of one per move, far cheaper where the losing
    /// moves lose by ko fights that are hard to value exactly.
    pub value_only: bool,
    /// The first test of a value-only solve's value driver, "value ≥ guess"
    /// (without komi; `None`: [`crate::search::engines::value_driver::first_guess`]).
    /// Never changes a value, only the work: where the value is known or
    /// expected (a published figure, a whole-board win) one test settles
    /// it, where a climb from the area score tests every point below, each
    /// nearly a whole proof on 5x5 (`results/5x5-openings/README.md`).
    pub guess: Option<i32>,
    /// Told each root move's exact value as soon as it is known, so that a
    /// solve stopped by a limit can still report the moves it solved.
    pub on_root_move: Option<RootMoveFn>,
    /// Told the bounds on the root's value proved so far by a value-only
    /// solve, whenever they narrow: a solve stopped by a limit can still say
    /// what it proved (on 1x12, the lower bound +1 long before the upper).
    pub value_bounds: Option<BoundsLog>,
    /// Bounds on the root's value (without komi) proved by an earlier run
    /// of this same solve, where the value driver starts instead of the
    /// whole static range: a batch job resumed after its limit goes on from
    /// what its record proved ("+5 to +8") rather than proving it again.
    /// Exact as long as they were proved for this position, history and
    /// rules (the batch takes them only from a record of the same job);
    /// bounds that contradict the static range are not used.
    pub known_bounds: (Option<i32>, Option<i32>),
    /// Told, every minute while a claim's test runs and when it stops
    /// before deciding the claim, what the search already knows about the
    /// claim after each root move ([`ClaimMovesLog`]): on a proof of hours,
    /// which of the opponent's replies are refuted is the progress made.
    pub claim_moves: Option<ClaimMovesLog>,
    /// Told, when a solve or claim stops without an answer (a limit, an
    /// abort), its counters at that moment, all threads added up
    /// ([`StatsLog`]): a stopped run of hours must still say how much work
    /// it did, and the progress reports come too seldom for that (every
    /// 2^20 nodes of a thread) and count only nodes.
    pub stopped_stats: Option<StatsLog>,
    /// Which searches the fast solver runs (never changes a value).
    pub engine: Engine,
    /// What the fast solver prints on stderr while it runs (see
    /// "Diagnostics" above; never changes anything else).
    pub trace: Trace,
    /// Do not skip mirror moves below the root (path symmetry, see
    /// `Solver::generate`): never changes a value, only the work; for
    /// comparisons and cross-checks.
    pub no_path_symmetry: bool,
    /// Nodes a claim's test of the root may spend before the claimant's
    /// first moves are tried alone (`None`: the default, see
    /// `search::drivers::focus`): never changes an answer, only the work; small,
    /// so that tests reach the focus on small boards.
    pub focus_after: Option<u64>,
    /// A table and df-pn guide to use instead of fresh ones, shared with
    /// earlier and later solves of the same board and rules (a checkpoint
    /// file keeps one; see [`crate::search::memory`]). Its size replaces
    /// `table_mb`. Only the work depends on it, never a value.
    pub memory: Option<crate::search::memory::Memory>,
}

/// The searches behind the fast solver's null-window tests. Both are exact;
/// they differ only in speed, and keeping both lets each check the other.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Engine {
    /// Every thread runs df-pn for its null-window tests (best-first: it
    /// does not re-expand the unresolved region at every horizon, 1x12 in
    /// 34 s on one thread where the alpha-beta did not finish in an hour),
    /// after a first short alpha-beta.
    #[default]
    Portfolio,
    /// Every thread runs the iterative-deepening alpha-beta (the solver of
    /// earlier versions).
    AlphaBeta,
}

/// The fast solver's diagnostics on stderr (see "Diagnostics" in the
/// module documentation). Each kind beyond [`Trace::Tests`] prints the
/// `tests` lines too.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Trace {
    /// Nothing.
    #[default]
    Off,
    /// A line per null-window test, per focus try, per growth of the table.
    Tests,
    /// Also where each df-pn test's nodes went, by move of its root.
    Roots,
    /// Also the size of each df-pn test's proof against its search.
    Proof,
    /// Also, every 2^24 nodes of the first thread and at the end of a
    /// claim, what the table holds by kind and what its stores replaced.
    Table,
}

impl Trace {
    /// The kinds as the command line names them, [`Trace::Off`] excepted.
    pub const NAMES: [&'static str; 4] = ["tests", "roots", "proof", "table"];

    /// Whether the `tests` lines are printed (every kind but `Off`).
    pub fn tests(self) -> bool {
        self != Trace::Off
    }
}

impl std::str::FromStr for Trace {
    type Err = String;
    fn from_str(s: &str) -> Result<Trace, String> {
        match s {
            "tests" => Ok(Trace::Tests),
            "roots" => Ok(Trace::Roots),
            "proof" => Ok(Trace::Proof),
            "table" => Ok(Trace::Table),
            _ => Err(format!("unknown trace '{s}' (expected one of: {})", Trace::NAMES.join(", "))),
        }
    }
}

/// A root-move callback, shared by the searching threads.
pub type RootMoveFn = Arc<dyn Fn(MoveValue) + Send + Sync>;

/// A progress callback, shared by the searching threads.
pub type ProgressFn = Arc<dyn Fn(&Progress) + Send + Sync>;

/// The claim after one root move, as far as the search has decided it:
/// for the position after `mv`, `holds` is whether the same claim ("value
/// ≥ v" or "≤ v") is proved to hold there, or `None` where it is not
/// decided (yet).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveClaim {
    pub mv: Move,
    pub holds: Option<bool>,
}

/// Collects what a running or stopped claim knows about its root moves
/// (see [`SolveOptions::claim_moves`]): every legal move, pass first, then
/// the points in order.
#[derive(Clone, Default, Debug)]
pub struct ClaimMovesLog(Arc<std::sync::Mutex<Vec<MoveClaim>>>);

impl ClaimMovesLog {
    pub(crate) fn set(&self, moves: Vec<MoveClaim>) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = moves;
    }
    /// The moves as last set: while the claim runs, what was decided at the
    /// last look (every minute); once it stopped, at its end (empty: not
    /// looked at yet, or no legal move).
    pub fn get(&self) -> Vec<MoveClaim> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// What a progress line says of the claim's root moves, from one look
    /// at the log (`None` before the claim's first look, and for a solve).
    pub fn seen(&self, geo: &Geometry) -> Option<ClaimSeen> {
        let moves = self.get();
        let open: Vec<String> = moves.iter().filter(|m| m.holds.is_none()).map(|m| m.mv.name(geo)).collect();
        (!moves.is_empty()).then(|| ClaimSeen { decided: moves.len() - open.len(), total: moves.len(), open })
    }
}

/// How far a running claim has got at its root ([`ClaimMovesLog::seen`]):
/// how many root moves the claim is decided after, of how many, and the
/// names of the open ones. An hour-long claim's progress line shows it, in
/// `solve` and in a batch's checks alike.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClaimSeen {
    pub decided: usize,
    pub total: usize,
    pub open: Vec<String>,
}

impl SolveOptions {
    /// A solve or claim that stops on `e` after the work `stats` counts:
    /// tells [`SolveOptions::stopped_stats`], and gives `e` back (the one
    /// place every search, the reference's too, reports its stop).
    pub(crate) fn stopped(&self, stats: Stats, e: SolveError) -> SolveError {
        if let Some(log) = &self.stopped_stats {
            log.set(stats);
        }
        e
    }
}

/// Collects the counters of a solve that stopped without an answer (see
/// [`SolveOptions::stopped_stats`]): the [`Stats`] a finished solve gives
/// in its [`crate::search::Solution`], for the work done until it stopped.
#[derive(Clone, Default, Debug)]
pub struct StatsLog(Arc<std::sync::Mutex<Option<Stats>>>);

impl StatsLog {
    pub(crate) fn set(&self, stats: Stats) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = Some(stats);
    }
    /// The counters of the stopped solve (`None`: it has not stopped, or
    /// stopped before it searched, e.g. on a memory for another board).
    pub fn get(&self) -> Option<Stats> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

/// Collects the root moves a solve reports through
/// [`SolveOptions::on_root_move`], so that a solve stopped by a limit can
/// still tell what it finished.
#[derive(Clone, Default)]
pub struct RootMoveLog(Arc<std::sync::Mutex<Vec<MoveValue>>>);

impl RootMoveLog {
    /// The callback to put in [`SolveOptions::on_root_move`].
    pub fn callback(&self) -> RootMoveFn {
        let log = self.0.clone();
        Arc::new(move |m| log.lock().unwrap_or_else(|e| e.into_inner()).push(m))
    }
    /// The moves reported so far, as a [`Solution`](super::outcome::Solution) lists them: pass first,
    /// then the points in order (threads report them in any order).
    pub fn sorted(&self) -> Vec<MoveValue> {
        let mut moves = self.0.lock().unwrap_or_else(|e| e.into_inner()).clone();
        moves.sort_by_key(|m| match m.mv {
            Move::Pass => -1,
            Move::Play(p) => p as i32,
        });
        moves
    }
}

/// The worker threads `opts` asks for (0: one per core).
pub(crate) fn thread_count(opts: &SolveOptions) -> usize {
    match opts.threads {
        0 => std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1),
        n => n,
    }
}
