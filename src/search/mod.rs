//! Search: the plain reference alpha-beta ([`reference`]) and the fast exact
//! solver ([`solver`], with the history-aware transposition table in [`tt`]).
//!
//! Both compute the same thing: the minimax value, from Black's side, of the
//! area difference (Black − White, komi excluded) at the end of the game,
//! under the game's real history. Komi is a constant added to every final
//! score, so it never changes the best play; it is applied only when a value
//! is reported ([`Solution::value_with_komi`]).
//!
//! [`solve`] runs the fast solver: the exact value of every legal root move
//! (each by a sequence of null-window tests chosen by the value driver, `Driver`,
//! inside the range the value cannot leave), the root value as their best
//! (or, value only, the root's tests alone), and a principal variation found
//! by testing children with a null window at the known value.
//! [`prove_claim`] decides one bound with one such test.
//! [`solve_reference`] runs the plain reference search, which has its own
//! root driver (see [`reference`]), so that the two share only the rules.

pub mod bench;
pub mod hash;
pub mod ordering;
pub mod parallel;
pub mod path;
pub mod probe;
pub mod reference;
pub mod solver;
pub mod tt;

use crate::rules::geometry::Geometry;
use crate::rules::history::Game;
use crate::rules::movegen;
use crate::rules::position::{Color, Move, Position, Rules};
use path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Larger than any score on a 64-point board.
pub const INF: i32 = 1000;

/// A node of the game tree: the coloring, the player to move, and how many
/// passes were just played (2 ends the game). The history is the [`Path`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Node {
    pub pos: Position,
    pub to_move: Color,
    pub passes: u8,
}

impl Node {
    pub fn of_game(game: &Game) -> Node {
        Node { pos: game.position, to_move: game.to_move, passes: game.passes }
    }
    #[inline(always)]
    pub fn is_over(&self) -> bool {
        self.passes >= 2
    }
}

/// The child reached by `mv`, or `None` when the move is illegal (occupied,
/// suicide where forbidden, or a superko repeat of a situation on `path`).
/// The second value is the ply of the repeated situation for superko bans.
#[inline]
pub fn child(geo: &Geometry, rules: &Rules, path: &Path, node: &Node, mv: Move) -> Result<Node, Option<u32>> {
    match mv {
        Move::Pass => Ok(Node { pos: node.pos, to_move: node.to_move.opponent(), passes: node.passes + 1 }),
        Move::Play(p) => {
            let next = node.pos.play(geo, node.to_move, p, rules.suicide).map_err(|_| None)?;
            let opp = node.to_move.opponent();
            match path.latest(&path.key(next, opp)) {
                Some(ply) => Err(Some(ply)),
                None => Ok(Node { pos: next, to_move: opp, passes: 0 }),
            }
        }
    }
}

/// The transposition table size (MiB) used when the options give none: a
/// quarter of the memory available now (`MemAvailable` in /proc/meminfo),
/// at most 8 GiB and at least 64 MiB; 512 MiB where the available memory
/// cannot be read. A fixed size either starved the 2-D boards (4x4 needed
/// 4 GiB to solve in 27 s, and was not solved in 60 s with 512 MiB) or
/// would not fit small machines. Only the work depends on it, never a value.
pub fn machine_table_mb() -> usize {
    machine_table_mb_shared(1)
}

/// [`machine_table_mb`] for one of `sharers` solves running at once (a
/// batch): the same quarter of the memory, split between them.
pub fn machine_table_mb_shared(sharers: usize) -> usize {
    match crate::limits::available_mib() {
        Some(mib) => ((mib / 4) as usize / sharers.max(1)).clamp(MIN_TABLE_MB, MAX_DEFAULT_TABLE_MB),
        None => FALLBACK_TABLE_MB,
    }
}

/// Bounds and fallback of [`machine_table_mb`].
const MIN_TABLE_MB: usize = 64;
const MAX_DEFAULT_TABLE_MB: usize = 8192;
const FALLBACK_TABLE_MB: usize = 512;

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
    /// Transposition table size in MiB (0 = [`machine_table_mb`]).
    pub table_mb: usize,
    /// Called now and then with progress.
    pub progress: Option<ProgressFn>,
    /// Skip the principal variation (faster when only values are wanted).
    pub no_pv: bool,
    /// Compute only the value of the position (and its principal
    /// variation), not the exact value of every root move: one MTD(f) search
    /// of the root instead of one per move, far cheaper where the losing
    /// moves lose by ko fights that are hard to value exactly.
    pub value_only: bool,
    /// Told each root move's exact value as soon as it is known, so that a
    /// solve stopped by a limit can still report the moves it solved.
    pub on_root_move: Option<RootMoveFn>,
    /// Told the bounds on the root's value proved so far by a value-only
    /// solve, whenever they narrow: a solve stopped by a limit can still say
    /// what it proved (on 1x12, the lower bound +1 long before the upper).
    pub value_bounds: Option<BoundsLog>,
    /// Which searches the fast solver runs (never changes a value).
    pub engine: Engine,
}

/// The searches behind the fast solver's null-window tests. Both are exact;
/// they differ only in speed, and keeping both lets each check the other.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Engine {
    /// The first thread on each root move runs df-pn (best-first: it does
    /// not re-expand the unresolved region at every horizon, 1x12 in 34 s
    /// on one thread where the alpha-beta did not finish in an hour), other
    /// threads on the same move run the iterative-deepening alpha-beta.
    #[default]
    Portfolio,
    /// Every thread runs the iterative-deepening alpha-beta (the solver of
    /// earlier versions).
    AlphaBeta,
}

/// Bounds on a value proved so far (komi excluded): `lower ≤ value ≤ upper`,
/// `None` where nothing is proved. Shared by the searching threads; each
/// report can only narrow them.
#[derive(Clone, Default, Debug)]
pub struct BoundsLog(Arc<std::sync::Mutex<(Option<i32>, Option<i32>)>>);

impl BoundsLog {
    /// Record that the value is at least `lower` (`None`: nothing new) and
    /// at most `upper`.
    pub fn narrow(&self, lower: Option<i32>, upper: Option<i32>) {
        let mut b = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(l) = lower {
            b.0 = Some(b.0.map_or(l, |x| x.max(l)));
        }
        if let Some(u) = upper {
            b.1 = Some(b.1.map_or(u, |x| x.min(u)));
        }
    }
    /// The bounds proved so far: (lower, upper).
    pub fn get(&self) -> (Option<i32>, Option<i32>) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// A root-move callback, shared by the searching threads.
pub type RootMoveFn = Arc<dyn Fn(MoveValue) + Send + Sync>;

/// A progress callback, shared by the searching threads.
pub type ProgressFn = Arc<dyn Fn(&Progress) + Send + Sync>;

/// What a progress callback sees.
#[derive(Clone, Debug, Default)]
pub struct Progress {
    pub nodes: u64,
    pub seconds: f64,
    pub root_moves_done: usize,
    pub root_moves_total: usize,
    pub max_depth: usize,
}

/// Why a search stopped without an answer.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SolveError {
    #[error("node limit of {0} reached before the position was solved")]
    NodeLimit(u64),
    #[error("time limit of {0:.1} s reached before the position was solved")]
    TimeLimit(f64),
    #[error("search interrupted")]
    Interrupted,
}

/// Counters of a solve.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Stats {
    pub nodes: u64,
    pub table_hits: u64,
    pub table_stores: u64,
    pub key_matches: u64,
    pub seconds: f64,
    pub max_depth: usize,
}

impl Stats {
    /// Add another searcher's counters (parallel solves).
    pub fn add(&mut self, o: &Stats) {
        self.nodes += o.nodes;
        self.table_hits += o.table_hits;
        self.table_stores += o.table_stores;
        self.key_matches += o.key_matches;
        self.max_depth = self.max_depth.max(o.max_depth);
    }
}

/// The value of a node from its root moves' values: the best for the mover.
fn best_value(moves: &[MoveValue], to_move: Color) -> i32 {
    let values = moves.iter().map(|m| m.value);
    match to_move {
        Color::Black => values.max(),
        Color::White => values.min(),
    }
    .expect("pass is always legal")
}

/// The exact value of one root move (komi excluded).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveValue {
    pub mv: Move,
    pub value: i32,
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
    /// The moves reported so far, as a [`Solution`] lists them: pass first,
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

/// The answer of a solve: values are Black − White area, komi excluded.
#[derive(Clone, Debug)]
pub struct Solution {
    pub value: i32,
    pub pv: Vec<Move>,
    pub moves: Vec<MoveValue>,
    pub stats: Stats,
}

impl Solution {
    /// The value as reported: Black − White − komi.
    pub fn value_with_komi(&self, rules: &Rules) -> f64 {
        crate::rules::position::value_with_komi(self.value, rules.komi)
    }
}

/// Shared limit checking for both searchers.
#[derive(Clone)]
pub(crate) struct Limits {
    start: Instant,
    node_limit: Option<u64>,
    time_limit: Option<Duration>,
    abort: Option<Arc<AtomicBool>>,
}

impl Limits {
    pub(crate) fn new(opts: &SolveOptions) -> Limits {
        Limits {
            start: Instant::now(),
            node_limit: opts.node_limit,
            time_limit: opts.time_limit,
            abort: opts.abort.clone(),
        }
    }
    /// Whether [`Limits::check`] is due at this node count: every 4,096
    /// nodes, and exactly at the node limit (small solves need fewer nodes
    /// than the check interval, and a limit below it must still hold).
    #[inline(always)]
    pub(crate) fn due(&self, nodes: u64) -> bool {
        nodes & 0xfff == 0 || self.node_limit == Some(nodes)
    }
    /// Called when [`Limits::due`].
    pub(crate) fn check(&self, nodes: u64) -> Result<(), SolveError> {
        if let Some(n) = self.node_limit {
            if nodes >= n {
                return Err(SolveError::NodeLimit(n));
            }
        }
        if let Some(t) = self.time_limit {
            if self.start.elapsed() >= t {
                return Err(SolveError::TimeLimit(t.as_secs_f64()));
            }
        }
        if let Some(a) = &self.abort {
            if a.load(Ordering::Relaxed) {
                return Err(SolveError::Interrupted);
            }
        }
        Ok(())
    }
    pub(crate) fn seconds(&self) -> f64 {
        self.start.elapsed().as_secs_f64()
    }
}

/// A searcher answers window queries about a node under the path's history.
pub(crate) trait Searcher {
    /// Fail-soft alpha-beta value of `node` (whose situation is the last on
    /// `path`): exact when strictly inside (alpha, beta), else a bound.
    fn search(&mut self, path: &mut Path, node: Node, alpha: i32, beta: i32) -> Result<i32, SolveError>;
    fn stats(&self) -> Stats;
    /// Like [`Searcher::search`], but may give up (`None`) when no answer is
    /// proved within about `horizon` plies below `node`; `usize::MAX` never
    /// gives up.
    fn search_within(
        &mut self,
        path: &mut Path,
        node: Node,
        alpha: i32,
        beta: i32,
        _horizon: usize,
    ) -> Result<Option<i32>, SolveError> {
        self.search(path, node, alpha, beta).map(Some)
    }
    /// A move worth trying first at `node` (e.g. the table's best move).
    fn hint(&mut self, _path: &Path, _node: &Node) -> Option<Move> {
        None
    }
    fn report_root(&mut self, _done: usize, _total: usize) {}
    /// Skip the moves to the points of `mask` at the node at `ply` (the root
    /// of a value-only solve): each is the image of a searched move under a
    /// symmetry of the whole game, so it has the same value
    /// ([`crate::rules::symmetry::game_stabilizer`]). A searcher may ignore it.
    fn set_root_skip(&mut self, _ply: usize, _mask: crate::rules::geometry::Bits) {}
    /// Report the bounds each MTD(f) step of [`Searcher::exact`] proves to
    /// `log` (set for the root of a value-only solve only; `None`: stop).
    fn set_bounds_log(&mut self, _log: Option<BoundsLog>) {}
    /// The exact value of `node`; `guess` may speed it up. The default is one
    /// full-window search; the solver uses MTD(f) null-window searches.
    fn exact(&mut self, path: &mut Path, node: Node, _guess: i32) -> Result<i32, SolveError> {
        self.search(path, node, -INF, INF)
    }
}

/// Legal turns at `node`, pass first.
pub(crate) fn legal_children(geo: &Geometry, rules: &Rules, path: &Path, node: &Node) -> Vec<(Move, Node)> {
    let mut out = Vec::new();
    if node.is_over() {
        return out;
    }
    out.push((Move::Pass, Node { pos: node.pos, to_move: node.to_move.opponent(), passes: node.passes + 1 }));
    let opp = node.to_move.opponent();
    for (p, next) in movegen::all_placements(geo, &node.pos, node.to_move, rules.suicide) {
        if path.latest(&path.key(next, opp)).is_none() {
            out.push((Move::Play(p), Node { pos: next, to_move: opp, passes: 0 }));
        }
    }
    out
}

/// For each root child, the index of the first child in its orbit under the
/// game's symmetries (see [`crate::rules::symmetry::game_stabilizer`]): children
/// with the same representative have the same value.
fn orbit_representatives(game: &Game, children: &[(Move, Node)]) -> Vec<usize> {
    let syms = crate::rules::symmetry::game_stabilizer(game);
    let index = |mv: Move| children.iter().position(|&(m, _)| m == mv);
    children
        .iter()
        .enumerate()
        .map(|(i, &(mv, _))| match mv {
            Move::Pass => i,
            Move::Play(p) => syms.iter().filter_map(|s| index(Move::Play(s.point(p)))).fold(i, usize::min),
        })
        .collect()
}

/// The points of the root moves that are images of earlier root moves under
/// the game's symmetries, from the root's children and their
/// [`orbit_representatives`].
fn mirror_moves(children: &[(Move, Node)], reps: &[usize]) -> crate::rules::geometry::Bits {
    children
        .iter()
        .zip(reps.iter().enumerate())
        .filter_map(|(&(mv, _), (i, &r))| match mv {
            Move::Play(p) if r != i => Some(1u64 << p),
            _ => None,
        })
        .fold(0, |m, b| m | b)
}

/// The values `node` can take under any history: the area difference lies
/// in [−N, N] on an N-point board, and Benson's bounds
/// ([`crate::rules::life::score_bounds`]) hold under any history and either suicide
/// rule.
pub(crate) fn static_range(geo: &Geometry, node: &Node) -> (i32, i32) {
    if node.is_over() {
        let s = node.pos.score(geo);
        return (s, s);
    }
    let n = geo.points() as i32;
    let (lo, hi) = crate::rules::life::score_bounds(geo, &node.pos);
    (lo.max(-n), hi.min(n))
}

/// The value driver: which null-window test ("value ≥ b?") to run next, and
/// what the results prove. Replaces MTD(f)'s climb from ±∞ one point per
/// proof:
/// - the value starts known to lie in the static range ([`static_range`]),
///   and every result narrows it (a fail-soft result may narrow it by more
///   than one point);
/// - the first test is the guess (a claim, or the area score plus one);
/// - once two proofs in a row go one way, the extreme in that direction (a
///   whole-board win, say) is tested once — with a budget, by the caller —
///   since it settles the value in one test where stepping would need one per
///   point;
/// - after two steps the same way the step doubles (galloping), so a value far
///   from the guess costs a logarithmic number of tests.
///
/// Exactness needs only that every test result is a true bound; the order
/// of the tests changes the work, never the value.
#[derive(Clone, Debug)]
pub(crate) struct Driver {
    lo: i32,
    hi: i32,
    /// The next test ("value ≥ next").
    next: i32,
    /// Direction of the last results (true: value ≥ the tests) and how many
    /// in a row went that way.
    dir: Option<bool>,
    run: u32,
    /// Extremes already refuted (or not worth a test) upward and downward.
    no_extreme: [bool; 2],
    /// Whether the extreme test due now was given up on (budget): wait for
    /// another step before retrying it.
    extreme_wait: bool,
}

impl Driver {
    /// A driver for a value in `range` (inclusive), first testing `guess`.
    pub(crate) fn new(range: (i32, i32), guess: i32) -> Driver {
        let (lo, hi) = range;
        Driver {
            lo,
            hi,
            next: guess.clamp(lo + 1, hi.max(lo + 1)),
            dir: None,
            run: 0,
            no_extreme: [false; 2],
            extreme_wait: false,
        }
    }
    pub(crate) fn done(&self) -> bool {
        self.lo >= self.hi
    }
    pub(crate) fn range(&self) -> (i32, i32) {
        (self.lo, self.hi)
    }
    /// The value, once [`Driver::done`].
    pub(crate) fn value(&self) -> i32 {
        self.lo
    }
    /// The next stepwise test: "value ≥ b" with b in (lo, hi].
    pub(crate) fn next(&self) -> i32 {
        self.next.clamp(self.lo + 1, self.hi)
    }
    /// The extreme test due now, if any: after a result upward "value ≥ hi"
    /// (hi more than one above the next step), after one downward "value ≥
    /// lo + 1" (whose refutation proves the value is lo).
    pub(crate) fn extreme(&self) -> Option<i32> {
        if self.extreme_wait || self.done() {
            return None;
        }
        if self.run < 2 {
            return None;
        }
        match self.dir {
            Some(true) if !self.no_extreme[0] && self.hi > self.next() => Some(self.hi),
            Some(false) if !self.no_extreme[1] && self.lo + 1 < self.next() => Some(self.lo + 1),
            _ => None,
        }
    }
    /// The extreme test due now was not resolved within its budget.
    pub(crate) fn extreme_open(&mut self) {
        self.extreme_wait = true;
    }
    /// Record the fail-soft result `g` of the test "value ≥ b".
    pub(crate) fn record(&mut self, b: i32, g: i32) {
        let up = g >= b;
        let extreme = self.extreme() == Some(b);
        if up {
            self.lo = self.lo.max(g.min(self.hi));
        } else {
            self.hi = self.hi.min(g.max(self.lo));
        }
        if extreme {
            // An extreme that failed is not tried again that way.
            self.no_extreme[if b > self.next { 0 } else { 1 }] = true;
            return;
        }
        self.extreme_wait = false;
        self.run = if self.dir == Some(up) { self.run + 1 } else { 1 };
        self.dir = Some(up);
        let step = 1i32 << (self.run.saturating_sub(2)).min(20);
        self.next = if up { self.lo + step } else { self.hi + 1 - step };
    }
}

/// MTD(f)'s first guess for a value-only solve: the area score with one
/// point more for the player to move (the move is worth something on an
/// open board). MTD(f) first tests the guess itself; on the empty strips
/// that is the value or one off (1x9 0, 1x10 +1, 1x11 +2, 1x12 +1), and a
/// test far below the value is expensive: on 1x11 "≥ 0" and "≥ 1" each took
/// 6–12 M nodes where "≥ 2" took 1 M. Only the work depends on it.
fn first_guess(geo: &Geometry, root: &Node) -> i32 {
    root.pos.score(geo) + if root.to_move == Color::Black { 1 } else { -1 }
}

/// Solve the game's current position with `searcher`: every root move's
/// exact value, the best of them, and a principal variation.
pub(crate) fn solve_with(
    searcher: &mut dyn Searcher,
    game: &Game,
    opts: &SolveOptions,
    symmetry: bool,
) -> Result<Solution, SolveError> {
    let tell = |m: MoveValue| {
        if let Some(f) = &opts.on_root_move {
            f(m)
        }
    };
    let geo = game.geo;
    let rules = game.rules;
    let mut path = Path::from_game(game);
    let root = Node::of_game(game);
    if root.is_over() {
        return Ok(Solution { value: game.score(), pv: vec![], moves: vec![], stats: searcher.stats() });
    }
    if opts.value_only {
        if symmetry {
            let children = legal_children(&geo, &rules, &path, &root);
            let skip = mirror_moves(&children, &orbit_representatives(game, &children));
            searcher.set_root_skip(path.len() - 1, skip);
        }
        searcher.set_bounds_log(opts.value_bounds.clone());
        let value = searcher.exact(&mut path, root, first_guess(&geo, &root))?;
        let pv =
            if opts.no_pv { Vec::new() } else { principal_variation(searcher, &geo, &rules, &mut path, root, value)? };
        return Ok(Solution { value, pv, moves: Vec::new(), stats: searcher.stats() });
    }
    let children = legal_children(&geo, &rules, &path, &root);
    let reps = if symmetry { orbit_representatives(game, &children) } else { (0..children.len()).collect() };
    let mut moves: Vec<MoveValue> = Vec::with_capacity(children.len());
    let mut guess = root.pos.score(&geo);
    for (i, &(mv, c)) in children.iter().enumerate() {
        searcher.report_root(i, children.len());
        if reps[i] != i {
            moves.push(MoveValue { mv, value: moves[reps[i]].value });
            tell(moves[i]);
            continue;
        }
        path.push(c.pos, c.to_move);
        let v = searcher.exact(&mut path, c, guess);
        path.pop();
        if let Ok(v) = v {
            guess = v;
        }
        moves.push(MoveValue { mv, value: v? });
        tell(moves[i]);
    }
    searcher.report_root(children.len(), children.len());
    let value = best_value(&moves, root.to_move);
    let pv = if opts.no_pv { Vec::new() } else { principal_variation(searcher, &geo, &rules, &mut path, root, value)? };
    Ok(Solution { value, pv, moves, stats: searcher.stats() })
}

/// Walk down from `node` (exact value `value`), at each step taking a legal
/// move whose child provably has the same value.
///
/// The children are tested in rounds of growing horizon (see
/// [`Searcher::search_within`]), so the move taken is one whose proof is
/// short: testing them one by one to the end may spend millions of nodes
/// proving that a pass also keeps the value after a long ko fight.
fn principal_variation(
    searcher: &mut dyn Searcher,
    geo: &Geometry,
    rules: &Rules,
    path: &mut Path,
    node: Node,
    value: i32,
) -> Result<Vec<Move>, SolveError> {
    walk_line(path, node, usize::MAX, |path, node| pv_step(searcher, geo, rules, path, node, value))
}

/// The line from `node` that `step` chooses at each node until the game ends
/// (or `cap` moves), with `path` restored afterwards whatever happens.
fn walk_line(
    path: &mut Path,
    mut node: Node,
    cap: usize,
    mut step: impl FnMut(&mut Path, &Node) -> Result<(Move, Node), SolveError>,
) -> Result<Vec<Move>, SolveError> {
    let base = path.len();
    let mut pv = Vec::new();
    let result = (|| {
        while !node.is_over() && pv.len() < cap {
            let (mv, c) = step(path, &node)?;
            path.push(c.pos, c.to_move);
            pv.push(mv);
            node = c;
        }
        Ok(())
    })();
    while path.len() > base {
        path.pop();
    }
    result.map(|()| pv)
}

/// One step of [`principal_variation`]: a child of `node` with its value.
fn pv_step(
    searcher: &mut dyn Searcher,
    geo: &Geometry,
    rules: &Rules,
    path: &mut Path,
    node: &Node,
    value: i32,
) -> Result<(Move, Node), SolveError> {
    let mut children = legal_children(geo, rules, path, node);
    // Pass first (it keeps the line short), then the move that proved the
    // node's bound, likely the cheapest to confirm.
    if let Some(h) = searcher.hint(path, node) {
        if let Some(i) = children.iter().position(|&(m, _)| m == h).filter(|&i| i > 0) {
            children[1..=i].rotate_right(1);
        }
    }
    // No child is better for the mover than the node's value, so one null
    // window tells whether a child reaches it.
    let window = match node.to_move {
        Color::Black => (value - 1, value),
        Color::White => (value, value + 1),
    };
    let mut horizon = PV_HORIZON;
    loop {
        let mut i = 0;
        while i < children.len() {
            let (mv, c) = children[i];
            path.push(c.pos, c.to_move);
            let r = searcher.search_within(path, c, window.0, window.1, horizon);
            path.pop();
            match r? {
                Some(v) if reaches(node.to_move, v, value) => return Ok((mv, c)),
                Some(_) => {
                    children.remove(i);
                }
                None => i += 1,
            }
        }
        assert!(!children.is_empty(), "some child of an exactly valued node has its value");
        horizon = horizon.saturating_mul(2);
    }
}

/// Whether a child value `v` (a bound from a null window at `value`) shows
/// the child reaches `value` for the player `mover`.
fn reaches(mover: Color, v: i32, value: i32) -> bool {
    match mover {
        Color::Black => v >= value,
        Color::White => v <= value,
    }
}

/// First horizon of the principal-variation rounds.
const PV_HORIZON: usize = 16;

/// Solve with the fast exact solver.
///
/// With more than one thread the root moves are solved in parallel, and
/// threads left over help on the moves still open, all sharing one
/// transposition table (see [`parallel`]). Each root move's value is exact
/// whoever computes it and whatever the table holds, so the answer is the
/// same for any thread count; only the node counts differ.
pub fn solve(game: &Game, opts: &SolveOptions) -> Result<Solution, SolveError> {
    with_deep_stack(|| solve_on_this_thread(game, opts))
}

/// Stack for searching threads: games under superko can be hundreds of
/// plies long and every ply is a recursion level. Only touched pages are used.
pub(crate) const SEARCH_STACK: usize = 1 << 30;

/// Run `f` on a thread with a stack deep enough for any game.
fn with_deep_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .name("gosolve-search".into())
            .stack_size(SEARCH_STACK)
            .spawn_scoped(s, f)
            .expect("cannot start the search thread")
            .join()
            .unwrap_or_else(|e| std::panic::resume_unwind(e))
    })
}

fn solve_on_this_thread(game: &Game, opts: &SolveOptions) -> Result<Solution, SolveError> {
    let threads = match opts.threads {
        0 => std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1),
        n => n,
    };
    if threads <= 1 || game.is_over() {
        let mut main = solver::Solver::new(game.geo, game.rules, opts);
        let mut sol = solve_with(&mut main, game, opts, true)?;
        sol.stats = main.stats();
        return Ok(sol);
    }
    parallel::solve(game, opts, threads)
}

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
/// or a pass (any of its moves keeps the bound).
#[derive(Clone, Debug)]
pub struct ClaimResult {
    pub claim: Claim,
    pub holds: bool,
    pub pv: Vec<Move>,
    pub stats: Stats,
}

/// Decide a claim about the game's current position with one null-window
/// test of the fast solver (threads beyond the first help on the same test,
/// sharing the table, as on a root move of a parallel solve).
pub fn prove_claim(game: &Game, claim: Claim, opts: &SolveOptions) -> Result<ClaimResult, SolveError> {
    with_deep_stack(|| prove_claim_here(game, claim, opts))
}

fn prove_claim_here(game: &Game, claim: Claim, opts: &SolveOptions) -> Result<ClaimResult, SolveError> {
    let start = Instant::now();
    let (b, at_least) = claim.test();
    let root = Node::of_game(game);
    let path = Path::from_game(game);
    let (lo, hi) = static_range(&game.geo, &root);
    let threads = match opts.threads {
        0 => std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1),
        n => n,
    }
    .max(1);
    let table = Arc::new(solver::new_table(&game.geo, opts));
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
        let worker = |k: usize| -> Stats {
            let mut s = solver::Solver::with_table(game.geo, game.rules, opts, table.clone());
            s.set_helper(k, Some(done.clone()));
            let mut p = path.clone();
            match s.search(&mut p, root, b - 1, b) {
                Ok(g) => {
                    let _ = answer.set(g >= b);
                    done.store(true, Ordering::Relaxed);
                }
                Err(SolveError::Interrupted) if answer.get().is_some() => {}
                Err(e) => {
                    error.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert(e);
                    done.store(true, Ordering::Relaxed);
                }
            }
            s.stats()
        };
        let per_thread: Vec<Stats> = if threads == 1 {
            vec![worker(0)]
        } else {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .stack_size(SEARCH_STACK)
                .build()
                .expect("cannot start the search threads")
                .broadcast(|ctx| worker(ctx.index()))
        };
        for st in &per_thread {
            stats.add(st);
        }
        match answer.get() {
            Some(&ge) => ge,
            None => {
                return Err(error.into_inner().unwrap_or_else(|e| e.into_inner()).unwrap_or(SolveError::Interrupted))
            }
        }
    };
    let holds = ge == at_least;
    let mut main = solver::Solver::with_table(game.geo, game.rules, opts, table);
    let pv = if opts.no_pv || root.is_over() {
        Vec::new()
    } else {
        // "≥ b" proved: Black keeps b; refuted: White keeps b − 1.
        let (prover, bound) = if ge { (Color::Black, b) } else { (Color::White, b - 1) };
        let mut p = path.clone();
        bound_variation(&mut main, &game.geo, &game.rules, &mut p, root, prover, bound)?
    };
    stats.add(&main.stats());
    stats.seconds = start.elapsed().as_secs_f64();
    Ok(ClaimResult { claim, holds, pv, stats })
}

/// Longest line [`bound_variation`] walks (superko makes every line finite,
/// but a line of table moves and replies can be long).
const BOUND_PV_CAP: usize = 400;

/// A line from `node` along which `prover` keeps `bound` (Black: value ≥
/// bound; White: ≤ bound), which `node` is proved to satisfy: at the
/// prover's turns a move whose child provably keeps it, at the opponent's
/// its table move if legal, else a pass (every opponent move keeps it).
#[allow(clippy::too_many_arguments)]
fn bound_variation(
    searcher: &mut dyn Searcher,
    geo: &Geometry,
    rules: &Rules,
    path: &mut Path,
    node: Node,
    prover: Color,
    bound: i32,
) -> Result<Vec<Move>, SolveError> {
    walk_line(path, node, BOUND_PV_CAP, |path, node| {
        if node.to_move == prover {
            pv_step(searcher, geo, rules, path, node, bound)
        } else {
            let children = legal_children(geo, rules, path, node);
            let hint = searcher.hint(path, node);
            Ok(*children.iter().find(|&&(m, _)| Some(m) == hint).unwrap_or(&children[0]))
        }
    })
}

/// Solve with the plain reference search (no table, no pruning beyond
/// alpha-beta, its own history, move loop and root driver: see [`reference`]).
pub fn solve_reference(game: &Game, opts: &SolveOptions) -> Result<Solution, SolveError> {
    with_deep_stack(|| reference::Reference::new(game.geo, game.rules, opts).solve(game, opts))
}
