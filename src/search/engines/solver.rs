//! The fast exact solver: MTD(f) null-window tests, each decided by
//! depth-first proof-number search ([`dfpn`], the first thread on a root
//! move) or by fail-soft alpha-beta with iterative deepening on the game
//! length and three-valued results (helper threads, and `--alpha-beta`);
//! a history-aware transposition table ([`crate::search::tt`]) shared by both, with
//! enhanced transposition cutoffs, Benson bounds, and move ordering
//! (conditional pass, table move, captures, history heuristic).
//!
//! Every node returns, beside its value, the [`Dep`] of that value: what part
//! of the history it depended on. That is what lets the table reuse results
//! across histories exactly when they provably cannot differ.
//!
//! Why iterative deepening matters here: under superko a winning side often
//! has several winning moves, some of which win only after a ko fight
//! hundreds of plies long whose every branch must be refuted. A search
//! without horizon may pick such a move first (1x7 took 23 M nodes, 3x3 did
//! not finish in minutes). With a horizon, nodes beyond it are *unknown*, an
//! unknown never counts as a proof for either side, and the horizon grows
//! until the answer is proved: short proofs are found first (1x7: 28 k nodes,
//! 3x3: 0.3 M). Exactness does not depend on the horizon, only the work.

use super::searcher::Searcher;
use super::value_driver::{root_range, Driver};
use crate::rules::geometry::{Bits, Geometry};
use crate::rules::movegen;
use crate::rules::position::{Color, Move, Position, Rules};
use crate::rules::symmetry::Images;
use crate::search::bounds::guarded;
use crate::search::memory::guide::Guide;
use crate::search::memory::machine_table_mb;
use crate::search::ordering::moves::{quiet, tier, HistoryHeuristic};
use crate::search::tree::node::{Node, INF};
use crate::search::tree::path::Path;
use crate::search::tt::{Bound, Dep, NodeKey, Table, TableCounters};
use crate::search::tuning::{
    AB_BEFORE_DFPN, DFPN_BUDGET_PER_PLY, DRIVER_EXTREME_SHARE, ETC_MIN_REMAINING, FIRST_SLICE, HELPER_STARTS,
    HELPER_STEP, HORIZON_CAP, HORIZON_STEP, SCHEDULES,
};
use crate::search::types::options::{Engine, ProgressFn, SolveOptions, Trace};
use crate::search::types::outcome::BoundsLog;
use crate::search::types::outcome::{Progress, Stats};
use crate::search::types::stop::{Limits, Stop};
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

pub(crate) mod dfpn;

/// The fast solver: one searching thread's state, grouped by concern.
pub struct Solver {
    geo: Geometry,
    /// The move prior's patterns for this board (df-pn's choice of child).
    pub(crate) patterns: crate::search::ordering::policy::Patterns,
    rules: Rules,
    /// Limits, node counts and progress: when to stop, what to report.
    meter: Meter,
    /// Move generation buffers and the move order's state.
    order: Order,
    /// The transposition table (shared) and this solver's use of it.
    tt: TableUse,
    /// The state of [`dfpn`]: its guide and the test running.
    dfpn: dfpn::DfpnState,
    /// This solver's part in a solve (engine, helper number, task, root).
    role: Role,
    /// Ply at which the current iteration stops (see [`Solver::bounded`]).
    horizon: usize,
}

/// When the search must stop, and what it reports while it runs.
struct Meter {
    limits: Limits,
    nodes: u64,
    max_depth: usize,
    progress: Option<ProgressFn>,
    /// The solve's bounds on the value (shared by its threads), for the
    /// progress reports.
    bounds: Option<BoundsLog>,
    /// Root moves done and in all, for the progress reports.
    root_done: usize,
    root_total: usize,
    /// Node count at which the current slice ends (a horizon schedule's
    /// slice, or a df-pn test's budget): the search then stops with
    /// [`Stop::SliceEnd`].
    slice_end: u64,
}

impl Meter {
    /// A slice of `budget` nodes from now.
    fn start_slice(&mut self, budget: u64) {
        self.slice_end = self.nodes.saturating_add(budget);
    }
    fn end_slice(&mut self) {
        self.slice_end = u64::MAX;
    }
}

/// Move generation and ordering (see [`crate::search::ordering::moves`]).
struct Order {
    /// Per-ply move buffers, reused to avoid allocation.
    buffers: Vec<Vec<Candidate>>,
    /// The history heuristic (not the game's history).
    history: HistoryHeuristic,
}

impl Order {
    /// The move buffer of `ply` (empty), taken until [`Order::put_buffer`].
    fn take_buffer(&mut self, ply: usize) -> Vec<Candidate> {
        if ply < self.buffers.len() {
            std::mem::take(&mut self.buffers[ply])
        } else {
            Vec::new()
        }
    }
    fn put_buffer(&mut self, ply: usize, moves: Vec<Candidate>) {
        if ply >= self.buffers.len() {
            self.buffers.resize_with(ply + 1, Vec::new);
        }
        self.buffers[ply] = moves;
    }
}

/// The shared transposition table and this solver's counters of its use:
/// every look-up goes through here so that the counters are kept.
struct TableUse {
    table: Arc<Table>,
    counters: TableCounters,
}

impl TableUse {
    fn probe(&mut self, path: &Path, node: &Node, dep: &mut Dep) -> Option<crate::search::tt::Probe> {
        self.table.probe(path, node, &mut self.counters, dep)
    }
    #[cfg(test)]
    fn probe_cut(&mut self, path: &Path, node: &Node, lower: bool, bound: i32, dep: &mut Dep) -> Option<i32> {
        self.table.probe_cut(path, node, lower, bound, &mut self.counters, dep)
    }
    #[inline(always)]
    fn key(&self, node: &Node) -> NodeKey {
        self.table.key(node)
    }
    #[inline(always)]
    fn images(&self, pos: &Position) -> Images {
        self.table.images(pos)
    }
    #[inline(always)]
    fn key_near(&self, near: &Images, node: &Node) -> NodeKey {
        self.table.key_near(near, node)
    }
    fn may_cut_window(&self, key: &NodeKey, b: i32) -> (bool, bool) {
        self.table.may_cut_window(key, b)
    }
    fn probe_cut_at(
        &mut self,
        path: &Path,
        node: &Node,
        key: &NodeKey,
        lower: bool,
        bound: i32,
        dep: &mut Dep,
    ) -> Option<i32> {
        self.table.probe_cut_at(path, node, key, lower, bound, &mut self.counters, dep)
    }
    #[inline(always)]
    fn prefetch(&self, key: &NodeKey) {
        self.table.prefetch(key)
    }
    /// Pass this solver's stores into vacant ways on to the table, which
    /// may then grow (see "Growth" in [`Table`]): the seconds the growth
    /// took, if this call grew it.
    fn flush_fills(&mut self) -> Option<f64> {
        self.table.add_churn(&mut self.counters.churn);
        self.table.add_fills(std::mem::take(&mut self.counters.fills))
    }
}

/// A solver's part in a solve.
struct Role {
    /// Which searches decide its null-window tests (see [`Solver::uses_dfpn`]).
    engine: Engine,
    /// The first of the horizon schedules this solver interleaves (see
    /// [`Solver::bounded`]): its helper number. Helpers of a parallel solve
    /// start at different ones so that they search different trees.
    first_schedule: usize,
    /// Set when another thread has finished the task this solver works on
    /// (see [`crate::search::drivers::root`]): the search then stops with [`Stop::TaskDone`].
    task_done: Option<Arc<AtomicBool>>,
    /// Ply of the root of a value-only solve, and the points whose moves are
    /// skipped there (see [`Searcher::set_root_skip`]); mask 0: none.
    skip_ply: usize,
    skip_mask: Bits,
    /// Whether [`Solver::generate`] skips the images of generated moves
    /// under the path's symmetries (on by default; off only to measure it).
    path_symmetry: bool,
    /// Where [`Searcher::exact`] reports the bounds it proves (the root of a
    /// value-only solve).
    bounds_log: Option<BoundsLog>,
    /// Bounds an earlier run proved, where [`Searcher::exact`] starts (the
    /// root of a value-only solve; see [`SolveOptions::known_bounds`]).
    known_bounds: (Option<i32>, Option<i32>),
    /// What it prints on stderr ([`SolveOptions::trace`]).
    trace: Trace,
}

/// A table sized by the options.
pub fn new_table(geo: &Geometry, opts: &SolveOptions) -> Table {
    let mb = if opts.table_mb == 0 { machine_table_mb() } else { opts.table_mb };
    Table::new(mb, geo)
}

/// The table of a solve: the memory's where the options give one, else a
/// fresh one.
pub(crate) fn table_for(geo: &Geometry, opts: &SolveOptions) -> Arc<Table> {
    match &opts.memory {
        Some(m) => m.table.clone(),
        None => Arc::new(new_table(geo, opts)),
    }
}

/// The df-pn guide the threads of a solve share: the memory's where the
/// options give one (even on one thread, so that it keeps what df-pn
/// learns), else a fresh one for a parallel solve and none (each solver
/// makes its own) on one thread.
fn guide_for(opts: &SolveOptions, parallel: bool) -> Option<Arc<Guide>> {
    match &opts.memory {
        Some(m) => Some(m.guide.clone()),
        None => parallel.then(|| fresh_guide(opts)),
    }
}

/// A new df-pn guide, sized for `opts`' table.
pub(crate) fn fresh_guide(opts: &SolveOptions) -> Arc<Guide> {
    Guide::for_table(opts.table_mb)
}

/// What the threads of one solve share beside the table, each thread
/// taking it with [`Solver::join`]: the df-pn guide ([`guide_for`]), the
/// node count and the random playouts' cache.
pub(crate) struct SolveShared {
    pub(crate) guide: Option<Arc<Guide>>,
    node_count: Arc<AtomicU64>,
    playouts: Arc<crate::search::ordering::playout::Playouts>,
}

impl SolveShared {
    /// For a solve with `opts`, on several threads if `parallel`.
    pub(crate) fn new(opts: &SolveOptions, parallel: bool) -> SolveShared {
        SolveShared { guide: guide_for(opts, parallel), node_count: Arc::default(), playouts: Arc::default() }
    }
}

/// One candidate at a node: the move and the coloring it produces.
type Candidate = (Move, Position);

impl Solver {
    /// A solver with a table of its own.
    pub fn new(geo: Geometry, rules: Rules, opts: &SolveOptions) -> Solver {
        Solver::with_table(geo, rules, opts, Arc::new(new_table(&geo, opts)))
    }

    /// A solver sharing `table` with others (parallel search).
    pub fn with_table(geo: Geometry, rules: Rules, opts: &SolveOptions, table: Arc<Table>) -> Solver {
        Solver {
            patterns: crate::search::ordering::policy::Patterns::new(&geo),
            geo,
            rules,
            meter: Meter {
                limits: Limits::new(opts),
                nodes: 0,
                max_depth: 0,
                progress: opts.progress.clone(),
                bounds: opts.value_bounds.clone(),
                root_done: 0,
                root_total: 0,
                slice_end: u64::MAX,
            },
            order: Order { buffers: Vec::new(), history: HistoryHeuristic::default() },
            tt: TableUse { table, counters: TableCounters::default() },
            dfpn: dfpn::DfpnState::new(&geo, opts.table_mb, opts.trace),
            role: Role {
                engine: opts.engine,
                first_schedule: 0,
                task_done: None,
                skip_ply: usize::MAX,
                skip_mask: 0,
                path_symmetry: !opts.no_path_symmetry,
                bounds_log: None,
                known_bounds: (None, None),
                trace: opts.trace,
            },
            horizon: usize::MAX,
        }
    }

    /// Make this solver a helper number `k` of a parallel solve: it
    /// interleaves the horizon schedules from number `k` on (k = 0 is the
    /// one-thread choice), and stops when `task_done` is set. Neither changes
    /// any value, only which proofs are found first.
    pub fn set_helper(&mut self, k: usize, task_done: Option<Arc<AtomicBool>>) {
        self.role.first_schedule = k;
        self.role.task_done = task_done;
    }

    /// Make this solver one of the threads of a parallel solve whose df-pn
    /// threads share `guide`: its numbers and work marks (see "Parallel
    /// threads" in [`dfpn`]); `None` (a one-thread solve) leaves the solver
    /// its own guide, made on first use. A guide given between two tests
    /// replaces the one before (the extreme tests of a parallel value-only
    /// solve have a guide of their own, [`crate::search::drivers::spread`]). Changes no
    /// value, only which nodes df-pn expands.
    pub(crate) fn share_guide(&mut self, guide: Option<&Arc<Guide>>) {
        self.dfpn.share(guide);
    }

    /// Make this solver one of the threads of the solve that `shared`
    /// belongs to: its guide ([`Solver::share_guide`]), its node count (the
    /// node limit and the progress reports are the solve's, see [`Limits`])
    /// and its playouts' cache (each position's random playouts run once,
    /// not once per thread, see [`crate::search::ordering::playout`]).
    pub(crate) fn join(&mut self, shared: &SolveShared) {
        self.share_guide(shared.guide.as_ref());
        self.meter.limits.share_count(&shared.node_count);
        self.dfpn.playouts = shared.playouts.clone();
    }

    /// Whether null-window tests use df-pn ([`dfpn`]) rather than the
    /// iterative-deepening alpha-beta: every thread of a solve does, unless
    /// `--alpha-beta` asks for the alpha-beta everywhere. The df-pn threads
    /// on a test share the table, the guide's numbers and the work marks
    /// (see "Parallel threads" in [`dfpn`]). df-pn threads beside each
    /// other beat alpha-beta helpers on every board measured, from two
    /// threads to sixteen (`results/tuning.md`); with their own guides they
    /// expanded the same open nodes twice.
    fn uses_dfpn(&self) -> bool {
        self.role.engine == Engine::Portfolio
    }

    fn tick(&mut self, ply: usize) -> Result<(), Stop> {
        let total = self.meter.limits.check(self.meter.nodes)?;
        if self.role.task_done.as_ref().is_some_and(|d| d.load(Ordering::Relaxed)) {
            return Err(Stop::TaskDone);
        }
        if self.meter.nodes >= self.meter.slice_end {
            return Err(Stop::SliceEnd);
        }
        if self.meter.nodes & 0xfff == 0 {
            if let Some(seconds) = self.tt.flush_fills() {
                if self.role.trace.tests() {
                    eprintln!("table: grown to {} MiB in {seconds:.3} s", self.tt.table.bytes_in_use() >> 20);
                }
            }
        }
        if self.meter.nodes & 0xff_ffff == 0 && self.role.trace == Trace::Table && self.role.first_schedule == 0 {
            eprintln!("{}", self.tt.table.census());
        }
        if self.meter.nodes & 0xfffff == 0 {
            if let Some(p) = &self.meter.progress {
                let komi = self.rules.komi.as_f64();
                let ((lo, hi), tests) =
                    self.meter.bounds.as_ref().map_or(((None, None), Vec::new()), |log| (log.get(), log.testing()));
                let value_bounds = (lo.map(|l| l as f64 - komi), hi.map(|h| h as f64 - komi));
                p(&Progress {
                    value_bounds,
                    value_tests: tests.into_iter().map(|b| b as f64 - komi).collect(),
                    nodes: total,
                    seconds: self.meter.limits.seconds(),
                    root_moves_done: self.meter.root_done,
                    root_moves_total: self.meter.root_total,
                    max_depth: self.meter.max_depth.max(ply),
                });
            }
        }
        Ok(())
    }

    /// Generate the legal turns of `node` into `out`, best first, recording
    /// every superko ban as a hit in `all_dep`. Legal candidates are not
    /// recorded: a result that searched every move only needs the bans to
    /// persist (see "one-sided dependencies" in [`crate::search::tt`]).
    ///
    /// Order (it never changes a value, only the work):
    /// 1. pass, when the opponent just passed and the area score meets the
    ///    bound the mover is after (the pass ends the game with a proof);
    /// 2. the table move, then captures;
    /// 3. other moves by their history score (cutoffs they caused before),
    ///    with a pass whose score meets the bound before the moves that never
    ///    caused a cutoff;
    /// 4. pass, when it does not meet the bound;
    /// 5. moves filling an own eye (every neighbour an own stone).
    ///
    /// Moves to the points of the root skip mask are not generated at the
    /// root (see [`Searcher::set_root_skip`]).
    ///
    /// Path symmetry: where every situation from the game's start down to
    /// `node` is fixed by some symmetries (G, [`Path::symmetric`]), a move
    /// whose point is the image under one of them of a move generated
    /// before it (in point order) is skipped: its child has the same value
    /// (see "Path symmetry" in [`crate::search::tt`]). The symmetries used go into
    /// `all_dep` beside the hits: only a result for which every move counted
    /// depends on them (clause 4 of the reuse rule). At the root of a
    /// value-only solve this skips nothing more than the root skip mask does
    /// (G there is part of the game's stabilizer, whose orbits the mask
    /// leaves one point of). Off with `SolveOptions::no_path_symmetry`.
    /// Measured (one thread, 1 GiB table) in the commit that added it.
    ///
    /// The tiers are named, with their reasons and measurements, in
    /// [`crate::search::ordering::moves`].
    #[allow(clippy::too_many_arguments)]
    fn generate(
        &self,
        path: &Path,
        node: &Node,
        tt_move: Option<Move>,
        alpha: i32,
        beta: i32,
        out: &mut Vec<Candidate>,
        all_dep: &mut Dep,
    ) {
        out.clear();
        let me = node.to_move;
        let opp = me.opponent();
        let black = me == Color::Black;
        let pass_meets = pass_meets(black, node.pos.score(&self.geo), alpha, beta);
        let mut keys: [u32; 66] = [0; 66];
        out.push((Move::Pass, node.pos));
        keys[0] = match (pass_meets, node.passes) {
            (true, 1) => tier::PASS_ENDS_WITH_PROOF,
            (true, _) => tier::PASS_MEETS_BOUND,
            (false, _) => tier::PASS,
        };
        let own = node.pos.stones(me);
        let opp_stones = node.pos.stones(opp).count_ones();
        let hist = self.order.history.scores(me);
        let skip = if path.len() - 1 == self.role.skip_ply { self.role.skip_mask } else { 0 };
        // Path symmetry: G of this node, the points generated so far, and
        // where each is in `out` (read only while G is not empty).
        let sym = if self.role.path_symmetry { path.symmetric() } else { 0 };
        let mut generated: Bits = 0;
        let mut slot = [0u8; 64];
        for (p, next) in movegen::placements(&self.geo, &node.pos, me, self.rules.suicide, !skip) {
            if let Some(ply) = path.latest(&path.key(next, opp)) {
                all_dep.add_hit(ply);
                continue;
            }
            if sym != 0 {
                if let Some((i, q)) = mirror(path, sym, all_dep.symmetries(), p, generated) {
                    // The child of p is the image under symmetry i of the
                    // child of q, generated before: same value. Recorded
                    // for the case where every move counts (a cutoff proves
                    // through one generated child and needs nothing).
                    all_dep.add_symmetry(i);
                    if tt_move == Some(Move::Play(p)) {
                        keys[slot[q as usize] as usize] = tier::TABLE_MOVE;
                    }
                    continue;
                }
                generated |= 1 << p;
                slot[p as usize] = out.len() as u8;
            }
            let key = if tt_move == Some(Move::Play(p)) {
                tier::TABLE_MOVE
            } else if next.stones(opp).count_ones() < opp_stones {
                tier::CAPTURE
            } else if self.geo.neighbours(1 << p) & !own == 0 {
                tier::EYE_FILL
            } else {
                quiet(hist[p as usize])
            };
            keys[out.len()] = key;
            out.push((Move::Play(p), next));
        }
        // Insertion sort: a handful of moves.
        for i in 1..out.len() {
            let mut j = i;
            while j > 0 && keys[j - 1] > keys[j] {
                keys.swap(j - 1, j);
                out.swap(j - 1, j);
                j -= 1;
            }
        }
    }

    /// Store a result for `node` (the last situation of `path`), found with
    /// the work since the node count was `nodes_before`, unless moves are
    /// skipped there (see [`Solver::skips`]).
    #[allow(clippy::too_many_arguments)]
    fn store(
        &mut self,
        path: &Path,
        node: &Node,
        value: i32,
        bound: Bound,
        best: Option<Move>,
        dep: &Dep,
        nodes_before: u64,
    ) {
        if !self.skips(path.len() - 1) {
            let work = self.meter.nodes - nodes_before;
            self.tt.table.store(path, node, value, bound, best, dep, work, &mut self.tt.counters);
        }
    }

    /// Nodes searched so far.
    #[inline(always)]
    fn nodes(&self) -> u64 {
        self.meter.nodes
    }

    /// Count a node entered at the end of `path`: limits, progress, depth.
    /// Returns its ply.
    #[inline(always)]
    fn enter(&mut self, path: &Path) -> Result<usize, Stop> {
        self.meter.nodes += 1;
        let ply = path.len() - 1;
        if self.meter.limits.due(self.meter.nodes) {
            self.tick(ply)?;
        }
        if ply > self.meter.max_depth {
            self.meter.max_depth = ply;
        }
        Ok(ply)
    }

    /// Fail-soft alpha-beta returning the value; its dependencies are merged
    /// into `dep`, which the caller passes empty ([`Dep::NONE`]). Deps are
    /// passed by reference because they are over a kilobyte (the filter).
    ///
    /// The steps: the table ([`Solver::ab_table`]), the static bounds
    /// ([`Solver::ab_static`]), the horizon, the moves in order
    /// ([`Solver::ab_moves`]), and the result stored ([`Solver::ab_result`]).
    fn ab(&mut self, path: &mut Path, node: Node, alpha0: i32, beta0: i32, dep: &mut Dep) -> Result<Option<i32>, Stop> {
        let ply = self.enter(path)?;
        if node.is_over() {
            return Ok(Some(node.pos.score(&self.geo)));
        }
        let mut win = Window { alpha: alpha0, beta: beta0, floor: -INF, ceil: INF, tt_move: None };
        if let ControlFlow::Break(v) = self.ab_table(path, &node, ply, &mut win, dep) {
            return Ok(v);
        }
        let (lo, hi) = match self.ab_static(path, &node, &win, dep) {
            ControlFlow::Break(v) => return Ok(Some(v)),
            ControlFlow::Continue(range) => range,
        };
        // Beyond the horizon of this iteration nothing is known (see `bounded`).
        if ply >= self.horizon {
            return Ok(None);
        }
        win.narrow(lo, hi);
        let nodes_before = self.meter.nodes;
        let mut moves = self.order.take_buffer(ply);
        let mut all_dep = Dep::NONE;
        self.generate(path, &node, win.tt_move, win.alpha, win.beta, &mut moves, &mut all_dep);
        let searched = self.ab_moves(path, &node, ply, &moves, &mut win, &mut all_dep, dep, nodes_before);
        self.order.put_buffer(ply, moves);
        Ok(self.ab_result(path, &node, (alpha0, beta0), &win, searched?, &mut all_dep, dep, nodes_before))
    }

    /// The table's say on `node` at `ply` in [`Solver::ab`]: `Break` with
    /// the answer when a stored result settles the window (or, for a null
    /// window, says the test is unknown within this horizon: `None`); else
    /// the window narrowed by a stored bound, and the stored move to try
    /// first.
    #[inline(always)]
    fn ab_table(
        &mut self,
        path: &Path,
        node: &Node,
        ply: usize,
        win: &mut Window,
        dep: &mut Dep,
    ) -> ControlFlow<Option<i32>> {
        let Some(hit) = self.tt.probe(path, node, dep) else {
            return ControlFlow::Continue(());
        };
        win.tt_move = hit.best;
        match hit.bound {
            Bound::Exact => return ControlFlow::Break(Some(hit.value)),
            Bound::Lower if hit.value >= win.beta => return ControlFlow::Break(Some(hit.value)),
            Bound::Upper if hit.value <= win.alpha => return ControlFlow::Break(Some(hit.value)),
            Bound::Lower => {
                win.alpha = win.alpha.max(hit.value);
                win.floor = hit.value;
            }
            Bound::Upper => {
                win.beta = win.beta.min(hit.value);
                win.ceil = hit.value;
            }
            Bound::MoveOnly => {}
            Bound::Unknown { depth } => {
                let null_window = win.alpha + 1 == win.beta && hit.value == win.beta;
                if null_window && ply + depth as usize >= self.horizon {
                    return ControlFlow::Break(None);
                }
            }
        }
        ControlFlow::Continue(())
    }

    /// The static bounds of `node` in [`Solver::ab`]: `Break` with a value
    /// when they settle the window, else the range (lo, hi) the value lies
    /// in. Those from unconditional life hold under any history; the
    /// guarded ones where the history allows (see
    /// `crate::search::bounds::guarded`), with their dependencies in `dep`.
    #[inline(always)]
    fn ab_static(&mut self, path: &Path, node: &Node, win: &Window, dep: &mut Dep) -> ControlFlow<i32, (i32, i32)> {
        let ((lo, hi), pairs) = crate::rules::life::bounds_and_pairs(&self.geo, &node.pos);
        if lo >= win.beta || lo == hi {
            return ControlFlow::Break(lo);
        }
        if hi <= win.alpha {
            return ControlFlow::Break(hi);
        }
        let by_guard = guarded::decide(path, node, &self.geo, self.rules, (lo, hi), &pairs, win.alpha, win.beta, dep);
        match by_guard {
            Some(v) => ControlFlow::Break(v),
            None => ControlFlow::Continue((lo, hi)),
        }
    }

    /// The moves of `node` at `ply` searched in order (`moves`, best
    /// first), narrowing the window, until one proves the mover's bound (a
    /// cutoff, whose dependencies go into `dep`; an enhanced transposition
    /// cutoff first, where the horizon is far enough). The dependencies of
    /// every move searched go into `all_dep`.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn ab_moves(
        &mut self,
        path: &mut Path,
        node: &Node,
        ply: usize,
        moves: &[Candidate],
        win: &mut Window,
        all_dep: &mut Dep,
        dep: &mut Dep,
        nodes_before: u64,
    ) -> Result<SearchedMoves, Stop> {
        let black = node.to_move == Color::Black;
        let all = self.geo.all();
        let mut out = SearchedMoves {
            best: if black { -INF } else { INF },
            best_move: None,
            best_next: node.pos,
            cutoff: false,
            first_unknown: None,
        };
        let mut child_dep = Dep::NONE;
        if self.horizon.saturating_sub(ply) >= ETC_MIN_REMAINING {
            if let Some((mv, next, v)) = self.etc(path, node, moves, win.alpha, win.beta, &mut child_dep) {
                // Exactly the cutoff below, by a child answered by the table.
                prove_by_child(path, node, mv, next, all, &mut child_dep, dep);
                (out.cutoff, out.best, out.best_move, out.best_next) = (true, v, Some(mv), next);
                return Ok(out);
            }
        }
        for (i, &(mv, next)) in moves.iter().enumerate() {
            let child = node.child(mv, next);
            if i > 0 {
                child_dep = Dep::NONE;
            }
            path.push(child.pos, child.to_move);
            let r = self.ab(path, child, win.alpha, win.beta, &mut child_dep);
            path.pop();
            let Some(v) = r? else {
                out.first_unknown = out.first_unknown.or(Some(mv));
                continue;
            };
            all_dep.merge(&child_dep);
            if (black && v > out.best) || (!black && v < out.best) {
                (out.best, out.best_move, out.best_next) = (v, Some(mv), next);
            }
            if black {
                win.alpha = win.alpha.max(v);
            } else {
                win.beta = win.beta.min(v);
            }
            if win.alpha >= win.beta {
                prove_by_child(path, node, mv, next, all, &mut child_dep, dep);
                out.cutoff = true;
                if let Move::Play(p) = mv {
                    self.order.history.reward(node.to_move, p, self.meter.nodes - nodes_before);
                }
                break;
            }
        }
        Ok(out)
    }

    /// The end of [`Solver::ab`] at `node`, searched with the window
    /// `(alpha0, beta0)`: the value found (clamped into the bounds `win`
    /// knew), stored as exact or as a bound with its dependencies, or
    /// `None` where a move was not resolved within the horizon and none
    /// proved the mover's bound (for a null window, remembered as unknown,
    /// with that move to try first).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn ab_result(
        &mut self,
        path: &Path,
        node: &Node,
        (alpha0, beta0): (i32, i32),
        win: &Window,
        searched: SearchedMoves,
        all_dep: &mut Dep,
        dep: &mut Dep,
        nodes_before: u64,
    ) -> Option<i32> {
        let ply = path.len() - 1;
        if let (Some(first), false) = (searched.first_unknown, searched.cutoff) {
            if alpha0 + 1 == beta0 && self.horizon != usize::MAX {
                all_dep.drop_from(ply);
                let hint = Bound::Unknown { depth: (self.horizon - ply).min(u16::MAX as usize) as u16 };
                self.store(path, node, beta0, hint, Some(first), all_dep, nodes_before);
            }
            return None;
        }
        if !searched.cutoff {
            dep.merge(all_dep);
        }
        let best = searched.best.clamp(win.floor, win.ceil);
        let bound = if best <= alpha0 {
            Bound::Upper
        } else if best >= beta0 {
            Bound::Lower
        } else {
            Bound::Exact
        };
        // An exact value is also a bound in the mover's favour, proved by the
        // best move alone: that move must stay legal.
        if !searched.cutoff && bound == Bound::Exact {
            if let Some(Move::Play(_)) = searched.best_move {
                dep.add_candidate(&path.candidate(searched.best_next, node.to_move.opponent()), self.geo.all());
            }
        }
        dep.drop_from(ply);
        self.store(path, node, best, bound, searched.best_move, dep, nodes_before);
        Some(best)
    }
}

/// The window of a node of [`Solver::ab`] as it narrows: `alpha`, `beta`
/// (what the search asks), `floor`, `ceil` (what the table and the static
/// bounds proved: the value found is clamped into them), and the table's
/// move to try first.
struct Window {
    alpha: i32,
    beta: i32,
    floor: i32,
    ceil: i32,
    tt_move: Option<Move>,
}

impl Window {
    /// The value lies in `[lo, hi]` (static bounds).
    #[inline(always)]
    fn narrow(&mut self, lo: i32, hi: i32) {
        self.alpha = self.alpha.max(lo);
        self.beta = self.beta.min(hi);
        self.floor = self.floor.max(lo);
        self.ceil = self.ceil.min(hi);
    }
}

/// What [`Solver::ab_moves`] found: the best value for the mover, its move
/// and coloring, whether it proved the mover's bound (a cutoff), and the
/// first move not resolved within the horizon, if any.
struct SearchedMoves {
    best: i32,
    best_move: Option<Move>,
    best_next: Position,
    cutoff: bool,
    first_unknown: Option<Move>,
}

/// Path symmetry in [`Solver::generate`]: a symmetry of `sym` (G of the
/// node, see [`Path::symmetric`]; those of `prefer`, already relied on, are
/// tried first) that maps point `p` onto a point `q` of `generated`, as
/// `(symmetry number, q)`. Each s in G fixes the node and its whole history,
/// so the child of p is the image under s⁻¹ of the child of q, under a
/// history s fixes: both have the same value.
#[inline]
fn mirror(path: &Path, sym: u8, prefer: u8, p: u8, generated: Bits) -> Option<(usize, u8)> {
    for mut m in [sym & prefer, sym & !prefer] {
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            let q = path.symmetry(i).point(p);
            if generated & (1 << q) != 0 {
                return Some((i, q));
            }
        }
    }
    None
}

/// Whether passing, with the area score `score` as it stands, meets the
/// mover's side of the window (Black: score ≥ beta; White: score ≤ alpha).
/// Just after a pass, such a pass ends the game with a proof: `generate`
/// then sorts it first, and df-pn's `pass_ends_it` wins by it before making
/// the children; both ask here, so they cannot disagree.
fn pass_meets(black: bool, score: i32, alpha: i32, beta: i32) -> bool {
    if black {
        score >= beta
    } else {
        score <= alpha
    }
}

/// The dependencies of a cutoff at `node` by move `mv` (to coloring `next`):
/// the bound is proved through that child alone, so the node depends on the
/// child's dependencies plus the child's candidate (the move must stay legal;
/// a pass always is). Merged into `dep`.
fn prove_by_child(path: &Path, node: &Node, mv: Move, next: Position, all: Bits, child_dep: &mut Dep, dep: &mut Dep) {
    if let Move::Play(_) = mv {
        child_dep.add_candidate(&path.candidate(next, node.to_move.opponent()), all);
    }
    dep.merge(child_dep);
}

impl Solver {
    /// Whether moves are skipped at `ply` (the root of a value-only solve
    /// with symmetry). Results there are then not stored: they hold under
    /// this history, whose symmetry gives each skipped move the value of its
    /// image, but their dependencies do not cover the skipped moves, so they
    /// could not be reused under another history.
    fn skips(&self, ply: usize) -> bool {
        ply == self.role.skip_ply && self.role.skip_mask != 0
    }

    /// Enhanced transposition cutoffs (van der Werf et al. 2003): before the
    /// moves of `node` are searched one by one, look each non-pass child up
    /// in the table and return the first (in move order) with a stored result
    /// that already proves the mover's bound (Black: a lower bound or exact
    /// value `>= beta`; White: an upper bound or exact value `<= alpha`),
    /// with that value. The child's dependencies (hits mapped to plies of the
    /// path) are then in `child_dep`, which the caller passes empty; without
    /// a cutoff it is left untouched.
    ///
    /// Sound under superko by the same derivation as a cutoff found by
    /// searching that child and answered by the table there: the child is
    /// pushed onto the path and the entry must pass the reuse rule of
    /// [`crate::search::tt`] under the child's real history, so its bound holds for
    /// the child here, with the entry's T and K as the child's dependencies.
    /// The caller adds the child's candidate key (the proving move must stay
    /// legal) and proves its own bound through that child alone, exactly as
    /// after a searched cutoff; the other moves impose nothing (one-sided
    /// dependencies). Only the order in which moves are tried changes, and
    /// [`Table::probe_cut`] may pick a different valid entry than the
    /// child's own probe would, which is as sound as any valid entry.
    fn etc(
        &mut self,
        path: &mut Path,
        node: &Node,
        moves: &[Candidate],
        alpha: i32,
        beta: i32,
        child_dep: &mut Dep,
    ) -> Option<(Move, Position, i32)> {
        let black = node.to_move == Color::Black;
        let opp = node.to_move.opponent();
        let bound = if black { beta } else { alpha };
        for &(mv, next) in moves {
            if mv == Move::Pass {
                continue;
            }
            let child = Node { pos: next, to_move: opp, passes: 0 };
            let key = self.tt.key(&child);
            if !self.tt.table.may_cut_at(&key, black, bound) {
                continue;
            }
            path.push(child.pos, child.to_move);
            let v = self.tt.probe_cut_at(path, &child, &key, black, bound, child_dep);
            path.pop();
            if let Some(v) = v {
                return Some((mv, next, v));
            }
        }
        None
    }

    /// Alpha-beta by iterative deepening on the game length: each iteration
    /// treats nodes more than `d` plies below `node` as unknown, and a result
    /// counts only when it was proved without any unknown (a prover's move
    /// that wins within the horizon, or every move failing within it). So
    /// every answer is exact, and short proofs are found before long ones:
    /// without a horizon, a prover's first choice may be a move that also
    /// wins but only after a ko fight hundreds of plies long, all of whose
    /// branches must then be searched. True results of earlier iterations
    /// stay in the table.
    ///
    /// Which schedule of horizons finds a short proof first varies wildly:
    /// on 3x4 after Black a1, starting at 21 plies needs 4.7 M nodes, at 16
    /// or 12 more than 60 M. So the solver interleaves several schedules
    /// ([`schedule`]) in slices of a node budget that doubles every round,
    /// as restart strategies do for heavy-tailed run times; a schedule
    /// resumes where it stopped, and everything proved stays in the table.
    fn bounded(&mut self, path: &mut Path, node: Node, alpha: i32, beta: i32) -> Result<i32, Stop> {
        if alpha + 1 == beta && self.uses_dfpn() {
            // Small tests are cheaper for the alpha-beta (df-pn spends more per
            // node); what it proves stays in the table for df-pn.
            if let Some(v) = self.schedules(path, node, alpha, beta, self.meter.nodes.saturating_add(AB_BEFORE_DFPN))? {
                return Ok(v);
            }
            return self.dfpn_value(path, node, beta);
        }
        Ok(self.schedules(path, node, alpha, beta, u64::MAX)?.expect("a search without a node budget always resolves"))
    }

    /// The interleaved horizon schedules of [`Solver::bounded`], given up
    /// (`None`) once the node count reaches `stop`.
    fn schedules(
        &mut self,
        path: &mut Path,
        node: Node,
        alpha: i32,
        beta: i32,
        stop: u64,
    ) -> Result<Option<i32>, Stop> {
        let mut horizon: [usize; SCHEDULES] = std::array::from_fn(|i| schedule(self.role.first_schedule + i).0);
        let mut slice = FIRST_SLICE;
        loop {
            for (i, d) in horizon.iter_mut().enumerate() {
                let step = schedule(self.role.first_schedule + i).1;
                self.meter.slice_end = self.meter.nodes.saturating_add(slice).min(stop);
                loop {
                    match self.ab_within(path, node, alpha, beta, *d) {
                        Ok(Some(v)) => {
                            self.meter.end_slice();
                            return Ok(Some(v));
                        }
                        Ok(None) => *d += step,
                        Err(Stop::SliceEnd) => {
                            if self.meter.nodes >= stop {
                                self.meter.end_slice();
                                return Ok(None);
                            }
                            break;
                        }
                        Err(e) => {
                            self.meter.end_slice();
                            return Err(e);
                        }
                    }
                }
            }
            slice = slice.saturating_mul(2);
        }
    }

    /// One alpha-beta iteration with a horizon of `horizon` plies below
    /// `node` (`None`: not resolved within it).
    fn ab_within(
        &mut self,
        path: &mut Path,
        node: Node,
        alpha: i32,
        beta: i32,
        horizon: usize,
    ) -> Result<Option<i32>, Stop> {
        let base = path.len() - 1;
        self.horizon = if horizon > HORIZON_CAP { usize::MAX } else { base + horizon };
        let mut dep = Dep::NONE;
        let r = self.ab(path, node, alpha, beta, &mut dep);
        self.horizon = usize::MAX;
        r
    }
}

impl Solver {
    /// The null-window test "value ≥ b" of `node` within about `budget`
    /// nodes: the fail-soft result, or `None` when not resolved within it.
    pub(crate) fn test_within(
        &mut self,
        path: &mut Path,
        node: Node,
        b: i32,
        budget: u64,
    ) -> Result<Option<i32>, Stop> {
        let stop = self.meter.nodes.saturating_add(budget);
        if self.uses_dfpn() {
            let ab_stop = self.meter.nodes.saturating_add(AB_BEFORE_DFPN.min(budget));
            if let Some(v) = self.schedules(path, node, b - 1, b, ab_stop)? {
                return Ok(Some(v));
            }
            return self.dfpn_within(path, node, b, stop.saturating_sub(self.meter.nodes));
        }
        self.schedules(path, node, b - 1, b, stop)
    }

    /// What this solver prints on stderr ([`SolveOptions::trace`]).
    pub(crate) fn trace(&self) -> Trace {
        self.role.trace
    }

    /// The `tests` trace line of a null-window test "value ≥ b" of the value
    /// driver that took `nodes` nodes: its fail-soft result (`None`: open
    /// when its budget ran out), this solver's helper number, the solve's
    /// seconds so far, and whether it was an extreme try.
    pub(crate) fn trace_test(&self, b: i32, r: Option<i32>, nodes: u64, extreme: bool) {
        if self.role.trace.tests() {
            let what = match r {
                Some(g) => format!("{} (g {g})", g >= b),
                None => "open (budget)".to_string(),
            };
            let (helper, seconds) = (self.role.first_schedule, self.meter.limits.seconds());
            eprintln!(
                "test >= {b}{}: {what} ({nodes} nodes, helper {helper}, {seconds:.1} s)",
                if extreme { " (extreme)" } else { "" }
            );
        }
    }
}

/// Schedule `k`: the first horizon and the increment.
fn schedule(k: usize) -> (usize, usize) {
    let step = if (k / HELPER_STARTS.len()).is_multiple_of(2) { HORIZON_STEP } else { HELPER_STEP };
    (HELPER_STARTS[k % HELPER_STARTS.len()], step)
}

impl Searcher for Solver {
    fn search(&mut self, path: &mut Path, node: Node, alpha: i32, beta: i32) -> Result<i32, Stop> {
        self.bounded(path, node, alpha, beta)
    }
    /// The value driver (see [`Driver`]): null-window tests that close
    /// in on the value from `guess`, inside the range the value can take,
    /// with a budgeted test of the extreme in the direction the proofs go.
    fn exact(&mut self, path: &mut Path, node: Node, guess: i32) -> Result<i32, Stop> {
        let start = self.meter.nodes;
        let mut d = Driver::new(root_range(&self.geo, path, &node, self.role.known_bounds), guess);
        if self.role.known_bounds != (None, None) {
            // They stand from the start: a stop before the first test keeps them.
            d.report(self.role.bounds_log.as_ref());
        }
        let log = self.role.bounds_log.clone();
        let testing = |b: Option<i32>| {
            if let Some(log) = &log {
                log.set_testing(b);
            }
        };
        while !d.done() {
            if let Some(b) = d.extreme() {
                // A whole-board win (or loss) is one test; tried with a budget
                // (see [`DRIVER_EXTREME_SHARE`]).
                let budget = d.extreme_budget(self.meter.nodes - start, DRIVER_EXTREME_SHARE);
                let n0 = self.meter.nodes;
                testing(Some(b));
                let r = self.test_within(path, node, b, budget)?;
                self.trace_test(b, r, self.meter.nodes - n0, true);
                match r {
                    Some(g) => d.record(b, g),
                    None => d.extreme_open(budget),
                }
                d.report(self.role.bounds_log.as_ref());
                continue;
            }
            let b = d.next();
            let n0 = self.meter.nodes;
            testing(Some(b));
            let g = self.bounded(path, node, b - 1, b)?;
            self.trace_test(b, Some(g), self.meter.nodes - n0, false);
            d.record(b, g);
            d.report(self.role.bounds_log.as_ref());
        }
        testing(None);
        Ok(d.value())
    }
    fn stats(&self) -> Stats {
        Stats {
            nodes: self.meter.nodes,
            table_hits: self.tt.counters.hits,
            table_stores: self.tt.counters.stores,
            key_matches: self.tt.counters.key_matches,
            seconds: self.meter.limits.seconds(),
            max_depth: self.meter.max_depth,
            table_bytes: self.tt.table.bytes_in_use() as u64,
        }
    }
    fn search_within(
        &mut self,
        path: &mut Path,
        node: Node,
        alpha: i32,
        beta: i32,
        horizon: usize,
    ) -> Result<Option<i32>, Stop> {
        if self.uses_dfpn() && alpha + 1 == beta {
            return self.dfpn_within(path, node, beta, (horizon as u64).saturating_mul(DFPN_BUDGET_PER_PLY));
        }
        self.ab_within(path, node, alpha, beta, horizon)
    }
    /// The best move of the result valid here, else of any result stored
    /// for the position (see [`Table::best_move_hint`]).
    fn hint(&mut self, path: &Path, node: &Node) -> Option<Move> {
        let mut scratch = Dep::NONE;
        self.tt.probe(path, node, &mut scratch).and_then(|p| p.best).or_else(|| {
            let key = self.tt.key(node);
            self.tt.table.best_move_hint(&key)
        })
    }
    fn set_root_bounds(&mut self, log: Option<BoundsLog>, known: (Option<i32>, Option<i32>)) {
        self.role.bounds_log = log;
        self.role.known_bounds = known;
    }
    fn set_root_skip(&mut self, ply: usize, mask: Bits) {
        self.role.skip_ply = ply;
        self.role.skip_mask = mask;
    }
    fn report_root(&mut self, done: usize, total: usize) {
        self.meter.root_done = done;
        self.meter.root_total = total;
    }
}

/// Path symmetry: which moves the generator skips, and that skipping changes
/// no value, also when the table meets a node under a history with and
/// without the symmetry.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::history::Game;
    use crate::rules::position::Superko;
    use crate::rules::symmetry::{symmetries, Symmetry};
    use crate::search::drivers::threads::with_deep_stack;
    use crate::search::types::options::SolveOptions;

    fn opts() -> SolveOptions {
        SolveOptions { table_mb: 4, value_only: true, no_pv: true, threads: 1, ..Default::default() }
    }

    fn game(width: usize, height: usize, moves: &str) -> Game {
        Game::after(width, height, Rules::default(), moves)
    }

    /// The moves `generate` gives at the end of `g`, as names, and the
    /// symmetries it recorded.
    fn generated(g: &Game) -> (Vec<String>, u8) {
        let s = Solver::new(g.geo, g.rules, &opts());
        let path = Path::from_game(g);
        let mut out = Vec::new();
        let mut dep = Dep::NONE;
        s.generate(&path, &Node::of_game(g), None, -INF, INF, &mut out, &mut dep);
        let mut names: Vec<String> = out.iter().map(|(m, _)| m.name(&g.geo)).collect();
        names.sort();
        (names, dep.symmetries())
    }

    /// One move of each orbit under G, the first in point order (a1, b1, c1,
    /// a2, ...): the empty 3x3 board has three (a1, b1, b2) besides the
    /// pass; after b2 White has two (a1, b1); after a1 only the a1-c3
    /// diagonal is a symmetry, so White's b1 and a2, c1 and a3, c2 and b3
    /// are one orbit each. After an asymmetric history nothing is skipped,
    /// even where the position is symmetric again.
    #[test]
    fn generate_keeps_one_move_per_orbit() {
        let (m, sym) = generated(&game(3, 3, ""));
        assert_eq!(m, ["a1", "b1", "b2", "pass"]);
        assert_ne!(sym, 0);
        assert_eq!(generated(&game(3, 3, "b2")).0, ["a1", "b1", "pass"]);
        let (m, sym) = generated(&game(3, 3, "a1"));
        assert_eq!(m, ["b1", "b2", "c1", "c2", "c3", "pass"]);
        assert_eq!(sym.count_ones(), 1);
        // a1 c3 a3 c1: symmetric now, but not the history (a1 alone was not).
        let (m, sym) = generated(&game(3, 3, "a1 c3 a3 c1"));
        assert_eq!(m.len(), 6);
        assert_eq!(sym, 0);
        // Off: every move.
        let g = game(3, 3, "");
        let mut s = Solver::new(g.geo, g.rules, &SolveOptions { no_path_symmetry: true, ..opts() });
        s.role.path_symmetry = false;
        let mut out = Vec::new();
        let mut dep = Dep::NONE;
        s.generate(&Path::from_game(&g), &Node::of_game(&g), None, -INF, INF, &mut out, &mut dep);
        assert_eq!((out.len(), dep.symmetries()), (10, 0));
    }

    /// A cutoff needs no symmetry; a node whose every move counted does.
    /// The table move, when it is skipped, promotes its orbit's kept move.
    #[test]
    fn a_skipped_table_move_promotes_its_mirror() {
        let g = game(3, 3, "");
        let s = Solver::new(g.geo, g.rules, &opts());
        let mut out = Vec::new();
        let mut dep = Dep::NONE;
        // c3 is skipped (a1 is kept): a1 goes first.
        s.generate(&Path::from_game(&g), &Node::of_game(&g), Some(Move::Play(8)), -INF, INF, &mut out, &mut dep);
        assert_eq!(out[0].0, Move::Play(0));
    }

    /// Values with and without path symmetry agree (every move's, and the
    /// value-only solve). (Whether it saves nodes is for the benchmarks: with
    /// the table's own symmetry it costs a little on 1x7, and saves 42 % on
    /// 4x4 value-only; `results/solve.md`.)
    #[test]
    fn skipping_keeps_values() {
        with_deep_stack(|| {
            for (w, h, value_only) in [(3, 3, false), (3, 3, true), (2, 2, false), (1, 7, false), (3, 2, true)] {
                let g = game(w, h, "");
                let on = SolveOptions { value_only, table_mb: 64, ..opts() };
                let off = SolveOptions { no_path_symmetry: true, ..on.clone() };
                let a = crate::search::solve(&g, &on).unwrap();
                let b = crate::search::solve(&g, &off).unwrap();
                assert_eq!((a.value, &a.moves), (b.value, &b.moves), "{w}x{h}");
            }
        });
    }

    struct Rng(u64);
    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) % n as u64) as usize
        }
    }

    /// A legal coloring fixed by `s` (each orbit of points one colour).
    fn symmetric_position(rng: &mut Rng, geo: &Geometry, s: &Symmetry, percent: usize) -> Position {
        loop {
            let mut pos = Position::EMPTY;
            for p in 0..geo.points() as u8 {
                if rng.below(100) < percent {
                    let c = if rng.below(2) == 0 { Color::Black } else { Color::White };
                    let mut q = p;
                    loop {
                        pos.set(q, Some(c));
                        q = s.point(q);
                        if q == p {
                            break;
                        }
                    }
                }
            }
            if pos.is_legal(geo) {
                return pos;
            }
        }
    }

    /// Clause 4 at work: a node N fixed by a symmetry is solved first under
    /// a history of N alone (so results below it rely on skipped moves and
    /// carry the symmetry), then, with the same table, under a history that
    /// adds situations reachable from N but not their mirror images (so the
    /// tree below N is no longer symmetric, and nothing stored under the
    /// first may be reused unless it holds). Each value must be the one a
    /// fresh solver finds under that history (nothing skipped there).
    #[test]
    fn a_symmetric_result_is_not_reused_under_an_asymmetric_history() {
        with_deep_stack(|| {
            let mut rng = Rng(0x005E_ED0F_5111);
            let boards = [(1, 5), (1, 6), (2, 3), (3, 2), (2, 2), (3, 3), (2, 4)];
            let mut compared = 0;
            for trial in 0..400 {
                let (w, h) = boards[rng.below(boards.len())];
                let geo = Geometry::new(w, h).unwrap();
                let syms = symmetries(&geo);
                let si = 1 + rng.below(syms.len() - 1);
                let s = &syms[si];
                let rules = Rules {
                    suicide: rng.below(2) == 0,
                    superko: if rng.below(2) == 0 { Superko::Positional } else { Superko::Situational },
                    ..Rules::default()
                };
                let pct = if (w, h) == (3, 3) { 30 + rng.below(40) } else { rng.below(60) };
                let start = symmetric_position(&mut rng, &geo, s, pct);
                let to_move = if rng.below(2) == 0 { Color::Black } else { Color::White };
                let node = Node { pos: start, to_move, passes: 0 };
                // Situations a few plies below N, kept when asymmetric.
                let mut extra = Vec::new();
                for _ in 0..1 + rng.below(3) {
                    let (mut pos, mut c) = (start, to_move);
                    for _ in 0..1 + rng.below(4) {
                        let moves: Vec<Position> =
                            movegen::all_placements(&geo, &pos, c, rules.suicide).map(|(_, n)| n).collect();
                        if moves.is_empty() {
                            break;
                        }
                        pos = moves[rng.below(moves.len())];
                        c = c.opponent();
                    }
                    if s.position(&pos) != pos && pos != start {
                        extra.push((pos, c));
                    }
                }
                if extra.is_empty() {
                    continue;
                }
                let g = Game::new(geo, rules, start, to_move).unwrap();
                let symmetric_path = Path::from_game(&g);
                assert_ne!(symmetric_path.symmetric() & 1 << (si - 1), 0);
                let mut asymmetric_path = Path::from_game(&g);
                asymmetric_path.pop();
                for &(p, c) in &extra {
                    asymmetric_path.push(p, c);
                }
                asymmetric_path.push(start, to_move);
                // The path's numbers leave the identity out.
                assert_eq!(asymmetric_path.symmetric() & 1 << (si - 1), 0);
                let o = SolveOptions { node_limit: Some(2_000_000), ..opts() };
                let exact = |s: &mut Solver, path: &Path| {
                    let mut p = path.clone();
                    s.exact(&mut p, node, 0).ok()
                };
                let mut shared = Solver::new(geo, rules, &o);
                let Some(_) = exact(&mut shared, &symmetric_path) else { continue };
                let Some(want) = exact(&mut Solver::new(geo, rules, &o), &asymmetric_path) else { continue };
                let got = exact(&mut shared, &asymmetric_path).unwrap();
                assert_eq!(got, want, "trial {trial}: {w}x{h} {rules:?} {start:?} {to_move:?} after {extra:?}");
                compared += 1;
            }
            assert!(compared > 100, "only {compared} compared");
        });
    }
}
