//! The fast exact solver: fail-soft alpha-beta with pass-first ordering, a
//! history-aware transposition table ([`super::tt`]) and table-move ordering.
//!
//! Every node returns, beside its value, the [`Dep`] of that value: what part
//! of the history it depended on. That is what lets the table reuse results
//! across histories exactly when they provably cannot differ.

use super::path::Path;
use super::tt::{Bound, Dep, Table, TableCounters};
use super::{Limits, Node, Progress, ProgressFn, SolveError, SolveOptions, Searcher, Stats, INF};
use crate::geometry::Geometry;
use crate::position::{Color, Move, Position, Rules};
use std::sync::Arc;

/// Default table size when the options give none.
pub const DEFAULT_TABLE_MB: usize = 256;

pub struct Solver {
    geo: Geometry,
    rules: Rules,
    limits: Limits,
    table: Arc<Table>,
    counters: TableCounters,
    nodes: u64,
    max_depth: usize,
    progress: Option<ProgressFn>,
    root_done: usize,
    root_total: usize,
    /// Per-ply move buffers, reused to avoid allocation.
    buffers: Vec<Vec<(Move, Position)>>,
}

/// A table sized by the options.
pub fn new_table(geo: &Geometry, opts: &SolveOptions) -> Table {
    let mb = if opts.table_mb == 0 { DEFAULT_TABLE_MB } else { opts.table_mb };
    Table::new(mb, geo.all())
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
            geo,
            rules,
            limits: Limits::new(opts),
            table,
            counters: TableCounters::default(),
            nodes: 0,
            max_depth: 0,
            progress: opts.progress.clone(),
            root_done: 0,
            root_total: 0,
            buffers: Vec::new(),
        }
    }

    fn tick(&mut self, ply: usize) -> Result<(), SolveError> {
        self.limits.check(self.nodes)?;
        if self.nodes & 0xfffff == 0 {
            if let Some(p) = &self.progress {
                p(&Progress {
                    nodes: self.nodes,
                    seconds: self.limits.seconds(),
                    root_moves_done: self.root_done,
                    root_moves_total: self.root_total,
                    max_depth: self.max_depth.max(ply),
                });
            }
        }
        Ok(())
    }

    /// Generate the legal turns of `node` into `out` (pass first, then
    /// captures, then the table move, then points in order), recording every
    /// superko ban as a hit in `all_dep`. Legal candidates are not recorded:
    /// a result that searched every move only needs the bans to persist (see
    /// "one-sided dependencies" in [`super::tt`]).
    fn generate(&self, path: &Path, node: &Node, tt_move: Option<Move>, out: &mut Vec<Candidate>, all_dep: &mut Dep) {
        out.clear();
        out.push((Move::Pass, node.pos));
        let opp = node.to_move.opponent();
        for p in Geometry::iter(node.pos.empty(&self.geo)) {
            let Ok(next) = node.pos.play(&self.geo, node.to_move, p, self.rules.suicide) else { continue };
            match path.latest(&path.key(next, opp)) {
                Some(ply) => all_dep.add_hit(ply),
                None => out.push((Move::Play(p), next)),
            }
        }
        // Captures first (after pass): they settle ko fights and shorten games.
        let opp_stones = node.pos.stones(opp).count_ones();
        let mut front = 1;
        for i in 1..out.len() {
            if out[i].1.stones(opp).count_ones() < opp_stones {
                out.swap(front, i);
                front += 1;
            }
        }
        if let Some(Move::Play(t)) = tt_move {
            if let Some(i) = out.iter().position(|&(m, _)| m == Move::Play(t)) {
                out[1..=i].rotate_right(1);
            }
        }
    }

    /// Fail-soft alpha-beta returning the value and its dependencies.
    fn ab(&mut self, path: &mut Path, node: Node, alpha0: i32, beta0: i32) -> Result<(i32, Dep), SolveError> {
        self.nodes += 1;
        let ply = path.len() - 1;
        if self.nodes & 0xfff == 0 {
            self.tick(ply)?;
        }
        if ply > self.max_depth {
            self.max_depth = ply;
        }
        if node.is_over() {
            return Ok((node.pos.score(&self.geo), Dep::NONE));
        }
        let (mut alpha, mut beta) = (alpha0, beta0);
        let mut dep = Dep::NONE;
        let mut tt_move = None;
        let (mut floor, mut ceil) = (-INF, INF);
        if let Some(hit) = self.table.probe(path, &node, &mut self.counters) {
            tt_move = hit.best;
            match hit.bound {
                Bound::Exact => return Ok((hit.value, hit.dep)),
                Bound::Lower if hit.value >= beta => return Ok((hit.value, hit.dep)),
                Bound::Upper if hit.value <= alpha => return Ok((hit.value, hit.dep)),
                Bound::Lower => {
                    alpha = alpha.max(hit.value);
                    floor = hit.value;
                    dep.merge(&hit.dep);
                }
                Bound::Upper => {
                    beta = beta.min(hit.value);
                    ceil = hit.value;
                    dep.merge(&hit.dep);
                }
            }
        }
        // Static bounds from unconditional life hold under any history.
        let (lo, hi) = crate::life::score_bounds(&self.geo, &node.pos);
        if lo >= beta || lo == hi {
            return Ok((lo, dep));
        }
        if hi <= alpha {
            return Ok((hi, dep));
        }
        alpha = alpha.max(lo);
        beta = beta.min(hi);
        floor = floor.max(lo);
        ceil = ceil.min(hi);
        let nodes_before = self.nodes;
        let black = node.to_move == Color::Black;
        let mut moves = if ply < self.buffers.len() { std::mem::take(&mut self.buffers[ply]) } else { Vec::new() };
        let mut all_dep = Dep::NONE;
        self.generate(path, &node, tt_move, &mut moves, &mut all_dep);

        let mut best = if black { -INF } else { INF };
        let mut best_move = None;
        let mut best_next = node.pos;
        let mut cutoff: Option<Dep> = None;
        let all = self.geo.all();
        let mut result = Ok(());
        for &(mv, next) in moves.iter() {
            let child = match mv {
                Move::Pass => Node { pos: node.pos, to_move: node.to_move.opponent(), passes: node.passes + 1 },
                Move::Play(_) => Node { pos: next, to_move: node.to_move.opponent(), passes: 0 },
            };
            path.push(child.pos, child.to_move);
            let r = self.ab(path, child, alpha, beta);
            path.pop();
            let (v, mut child_dep) = match r {
                Ok(x) => x,
                Err(e) => {
                    result = Err(e);
                    break;
                }
            };
            all_dep.merge(&child_dep);
            if (black && v > best) || (!black && v < best) {
                best = v;
                best_move = Some(mv);
                best_next = next;
            }
            if black {
                alpha = alpha.max(v);
            } else {
                beta = beta.min(v);
            }
            if alpha >= beta {
                // A cutoff proves its bound through this child alone.
                if let Move::Play(_) = mv {
                    child_dep.add_candidate(&next, all);
                }
                cutoff = Some(child_dep);
                break;
            }
        }
        if ply >= self.buffers.len() {
            self.buffers.resize_with(ply + 1, Vec::new);
        }
        self.buffers[ply] = moves;
        result?;
        dep.merge(&cutoff.unwrap_or(all_dep));
        let best = best.clamp(floor, ceil);
        let bound = if best <= alpha0 {
            Bound::Upper
        } else if best >= beta0 {
            Bound::Lower
        } else {
            Bound::Exact
        };
        // An exact value is also a bound in the mover's favour, proved by the
        // best move alone: that move must stay legal.
        if cutoff.is_none() && bound == Bound::Exact {
            if let Some(Move::Play(_)) = best_move {
                dep.add_candidate(&best_next, all);
            }
        }
        dep.drop_from(ply);
        self.table.store(path, &node, best, bound, best_move, &dep, self.nodes - nodes_before, &mut self.counters);
        Ok((best, dep))
    }
}

impl Searcher for Solver {
    fn search(&mut self, path: &mut Path, node: Node, alpha: i32, beta: i32) -> Result<i32, SolveError> {
        self.ab(path, node, alpha, beta).map(|(v, _)| v)
    }
    /// MTD(f): null-window searches that close in on the value from `guess`.
    fn exact(&mut self, path: &mut Path, node: Node, guess: i32) -> Result<i32, SolveError> {
        let (mut lo, mut hi) = (-INF, INF);
        let mut g = guess;
        while lo < hi {
            let beta = if g == lo { g + 1 } else { g };
            g = self.ab(path, node, beta - 1, beta)?.0;
            if g < beta {
                hi = g;
            } else {
                lo = g;
            }
        }
        Ok(g)
    }
    fn stats(&self) -> Stats {
        Stats {
            nodes: self.nodes,
            table_hits: self.counters.hits,
            table_stores: self.counters.stores,
            key_matches: self.counters.key_matches,
            seconds: self.limits.seconds(),
            max_depth: self.max_depth,
        }
    }
    fn report_root(&mut self, done: usize, total: usize) {
        self.root_done = done;
        self.root_total = total;
    }
}
