//! Depth-first proof-number search (df-pn, Nagai 2002) for the null-window
//! tests of MTD(f): "is the value ≥ b?". Black's nodes are OR nodes (one
//! move reaching b proves it), White's are AND nodes.
//!
//! # Why best-first here
//!
//! The iterative-deepening alpha-beta of [`super`] proves short lines first,
//! but re-expands the whole unresolved region at every horizon: on 1x12 the
//! test "≥ 2" was still open after an hour and a billion nodes, most of them
//! re-expansions of positions left unknown at a smaller horizon. df-pn keeps,
//! for each open node, how many leaves it would take to prove (pn) and to
//! disprove (dn) it, and always works below the node that looks cheapest to
//! settle. Long ko fights are wide for the defending side (every threat and
//! retake is a move to refute), so their proof numbers grow and df-pn leaves
//! them until nothing cheaper is left. 1x12 is solved on one thread in about
//! 34 s with it (value +2).
//!
//! # Why it is exact (the same argument as the alpha-beta's)
//!
//! Proof and disproof numbers only choose which node to expand next. They
//! are kept in a small guide table ([`PnTable`]) whose entries may come from
//! another line, another test or a colliding key (below): a wrong number can
//! only misguide, never decide anything.
//!
//! A node is resolved only by
//! - the end of the game (two passes), or Benson's bounds, which hold under
//!   any history;
//! - a stored proof or disproof that passes the reuse rule of
//!   [`crate::search::tt`] under the current history (the same
//!   [`Table::probe_cut`](crate::search::tt::Table::probe_cut) as the
//!   enhanced transposition cutoffs);
//! - one child resolved in the mover's favour: exactly a cutoff of the
//!   alpha-beta, with the same dependencies (the child's plus its candidate,
//!   [`super::prove_by_child`]);
//! - every legal child resolved against the mover: exactly an alpha-beta node
//!   that searched every move and failed, with the same dependencies (every
//!   child's plus the node's superko bans, and the symmetries by which the
//!   shared generator skipped mirror moves there).
//!
//! So every proof and disproof df-pn stores is one the alpha-beta could have
//! derived, with the dependencies the alpha-beta would give it, and the
//! argument of [`crate::search::tt`] applies unchanged. Both engines share the
//! table: the threads of a parallel solve (df-pn on two of them, the
//! alpha-beta on any others) reuse each other's results.
//!
//! # Fail-soft answers
//!
//! A resolved node also carries a value g: g ≥ b proves value ≥ g, g < b
//! proves value ≤ g. At the leaves g is what resolved them (the final score,
//! Benson's lower or upper bound, the guarded bound, or the stored bound
//! that cut); a node won by a child takes the child's g (its mover can
//! choose that child); a node whose every move fails takes the best g of its
//! children for its mover (Black: their maximum, each an upper bound; White:
//! their minimum). This is the alpha-beta's fail-soft rule on the same
//! derivation, so it holds with the same dependencies, and the table stores
//! g rather than b: a later test of the value driver at another b is then
//! cut by a proof of this one wherever g reaches it, and the driver itself
//! narrows by g.
//!
//! # Which lines share numbers
//!
//! On 2-D boards the guide is keyed on the situation alone (its canonical
//! image under the board's symmetries, the side to move, a pass just
//! played): every line to a situation, whatever its history, reads and
//! writes the same numbers. A node that df-pn left open under one history and
//! meets again by a transposition goes on from where it stopped, instead of
//! starting a new subtree that grows until something in it is proved (with
//! a key that held the history, every move order had its own numbers and
//! df-pn entered several times the nodes: `results/tuning.md`).
//!
//! On strips (one row) the key still holds the history. There the long ko
//! fights reach the same situation under many histories with different
//! superko bans, and summed disproof numbers over shared subtrees count them
//! many times over (Schijf's double counting in DAGs): on 1x12 the test
//! "≥ 2" did not finish in 10 minutes keyed on the situation.
//!
//! What the key cannot change: the recursion follows real lines, which are
//! finite (positional superko; two passes end the game), and a node is
//! resolved only as listed above. Shared numbers can make df-pn slow (the
//! strips above; df-pn is complete on finite acyclic graphs but not on
//! cyclic ones, Kishimoto & Müller 2008, and situations do recur under
//! different histories), never wrong; a test is bounded by the solve's
//! limits like any other.
//!
//! # Parallel threads
//!
//! On a parallel solve every thread of a test runs df-pn
//! ([`Solver::uses_dfpn`](crate::search::engines::solver::Solver)). They share the table (each
//! finds the others' proofs and disproofs), the guide's numbers ([`Guide`])
//! and a set of work marks ([`Guide::busy`]):
//! a thread marks each node while it expands below it, and when the child
//! it would choose is marked by another thread it chooses as if that
//! child's number were twice what it is ([`BUSY_PERCENT`]), so the threads
//! split where two children are close and stay together where one child is
//! clearly best. With their own guides the two threads expanded the same
//! open nodes twice; with shared numbers each continues where the other
//! left a node. Neither numbers nor marks decide anything (a torn read of a
//! guide slot or a colliding mark only misguides), so the argument above
//! holds for any interleaving. (Measured against separate guides, and
//! against alpha-beta threads beside two df-pn ones: `results/tuning.md`.)

mod proof;

use super::{pass_meets, prove_by_child, Solver};
use crate::rules::geometry::Geometry;
use crate::rules::life::Pairs;
use crate::rules::position::{Color, Move, Position};
use crate::search::memory::guide::{guide_bits, Guide, GUIDE_KEY_BITS};
use crate::search::ordering::guess::{Blocks, EXTREME_WEIGHTS, WEIGHTS};
use crate::search::ordering::playout::Playouts;
use crate::search::ordering::policy::Prior;
use crate::search::tree::hash::{coloring_hash, guide_key, mix, situation_hash};
use crate::search::tree::node::Node;
use crate::search::tree::path::Path;
use crate::search::tt::storage::{prefetch, ZeroedLines};
use crate::search::tt::{Bound, Dep, NodeKey};
use crate::search::tuning::{
    BENSON_CACHE, BUSY_PERCENT, EPSILON_PERCENT, EXTREME_GUESS_SCALE, GUESS_SCALE, MARGIN_PERCENT, PLAYOUT_MIN_EMPTY,
    PLAYOUT_MIN_SIDE, PRIOR_PERCENT, PRIOR_STEP, STRIP_GUESS_SCALE,
};
use crate::search::types::options::Trace;
use crate::search::types::stop::Stop;
use std::mem::MaybeUninit;
use std::sync::Arc;

/// What df-pn keeps in a [`Solver`]: the guide (made on first use, so that
/// solvers that never run df-pn pay nothing), the log2 of its entries,
/// whether its keys include the history (on strips only, see "Which lines
/// share numbers" above), and the bound b of the test running ("value ≥
/// b?").
///
/// Beside it, df-pn uses the solver only through the parts both engines
/// share: `enter` (limits and counts), `generate` (the legal moves, ordered),
/// the table look-ups of `tt`, `store` (which applies the root skip), the
/// move buffers of `order`, and the node slices of `meter`.
pub(super) struct DfpnState {
    guide: Option<PnTable>,
    guide_bits: u32,
    /// Slots of the guide's Benson cache ([`benson_slots`]).
    benson_slots: usize,
    by_history: bool,
    b: i32,
    /// The guide numbers shared with the other df-pn threads of a parallel
    /// solve (see "Parallel threads" above); with them, the nodes being
    /// expanded are marked busy, and busy children avoided.
    pub(super) shared: Option<Arc<Guide>>,
    /// With the `roots` trace ([`Trace::Roots`]): per test, the nodes
    /// this thread spent below each move of its root (kept by test, so that
    /// a test run in slices between others goes on with its counts), and
    /// which test runs now.
    root_work: Vec<(RootTest, Vec<(Move, u64)>)>,
    root_now: Option<usize>,
    /// With the `proof` trace ([`Trace::Proof`], see [`proof`]): what the
    /// search counts for the walk of each resolved test's proof.
    proof: Option<proof::Tally>,
    /// Random playouts ranking the moves at a test's first two plies
    /// ([`crate::search::ordering::playout`]), and the least empty points of a node
    /// they rank in the test running now (`u32::MAX`: none). The playouts
    /// are shared by the threads of a parallel solve.
    pub(super) playouts: Arc<Playouts>,
    playout_from: u32,
    /// The most empty points of a test's root this solver has had playouts
    /// for: a test rooted lower (the principal variation's, after the
    /// root's) ranks only nodes with at least this many − 1, so the
    /// playouts stay at the first two plies of the solve's position.
    playout_top: u32,
    /// Sibling refutations (see [`Solver::refuted_sibling_first`]):
    /// `last_win`, the ply and move of the last node df-pn resolved for its
    /// mover by a move of its own; `refuter[p]`, the move that refuted the
    /// last child of the node at ply p − 1 that was expanded and refuted
    /// (cleared when a new node starts at p − 1).
    last_win: Option<(usize, Move)>,
    refuter: Vec<Option<Move>>,
}

/// A test for the roots trace: its root's ply and key hash, and b.
type RootTest = (usize, u64, i32);

impl DfpnState {
    /// The state of a solver on `geo` whose table has `table_mb` MiB (0:
    /// the default), printing `trace`.
    pub(super) fn new(geo: &Geometry, table_mb: usize, trace: Trace) -> DfpnState {
        let by_history = geo.width() == 1 || geo.height() == 1;
        DfpnState {
            guide: None,
            guide_bits: guide_bits(table_mb),
            benson_slots: benson_slots(table_mb),
            by_history,
            b: 0,
            shared: None,
            root_work: Vec::new(),
            root_now: None,
            proof: (trace == Trace::Proof).then(proof::Tally::default),
            playouts: Arc::default(),
            playout_from: u32::MAX,
            playout_top: 0,
            last_win: None,
            refuter: Vec::new(),
        }
    }

    /// Use `guide`'s numbers from now on (see [`Solver::share_guide`]),
    /// also when this solver has run df-pn already.
    pub(super) fn share(&mut self, guide: Option<&Arc<Guide>>) {
        self.shared = guide.cloned();
        if let (Some(g), Some(t)) = (guide, self.guide.as_mut()) {
            t.numbers = g.clone();
        }
    }
}

/// Infinity for proof numbers; sums of open nodes stay below it.
const PINF: u32 = 1 << 30;

/// A child's number `w` for the choice of child, with the prior's bias
/// for its rank `r` (see [`PRIOR_STEP`], [`PRIOR_PERCENT`]).
#[inline(always)]
fn with_prior(w: u32, r: u32) -> u64 {
    (w as u64 + (PRIOR_STEP * r) as u64) * (100 + PRIOR_PERCENT * r as u64) / 100
}

/// The inverse of [`with_prior`]: the number whose biased value is `e`
/// (rounded down; 0 if there is none).
#[inline(always)]
fn without_prior(e: u64, r: u32) -> u64 {
    (e * 100 / (100 + PRIOR_PERCENT * r as u64)).saturating_sub((PRIOR_STEP * r) as u64)
}

/// The guide: proof and disproof numbers of unresolved nodes, and a cache of
/// Benson bounds. Both start all-zero (vacant), so their memory is handed out
/// lazily and a small solve pays nothing for their size (a solve's principal
/// variation runs df-pn tests even on 1x6).
struct PnTable {
    /// The proof and disproof numbers (shared by the df-pn threads of a
    /// parallel solve, see [`Guide`]).
    numbers: Arc<Guide>,
    /// The Benson cache, one [`BensonSlot`] per coloring hash (modulo its
    /// length, a power of two).
    benson: ZeroedLines<BensonSlot>,
}

/// Slots of the Benson cache with a table of `table_mb` MiB: [`BENSON_CACHE`]
/// (32 MiB), or fewer where that would be more than half the table. Every
/// solver makes one, so a small solve on a small table (a test's, a GTP
/// move's) need not zero more cache than table; the cache holds only what
/// `bounds_and_pairs` computes again on a miss, so its size changes the
/// time, never a node count. From 64 MiB tables up (`gosolve bench`'s) it
/// is the full size.
fn benson_slots(table_mb: usize) -> usize {
    let mb = if table_mb == 0 { crate::search::memory::machine_table_mb() } else { table_mb };
    let fit = (mb << 20) / 2 / std::mem::size_of::<BensonSlot>();
    1 << fit.clamp(1 << 10, BENSON_CACHE).ilog2()
}

/// One slot of the Benson cache, a cache line: black, white,
/// `1 | lo << 8 | hi << 24` (16 bits each), both players' pass-alive stones
/// in one set (each player's are its own stones, so the colouring tells
/// them apart), and the two-point and candidate regions, Black's points and
/// regions, then White's. df-pn looks the slot of every child up, a cache
/// miss each time: at nine words a slot spanned two lines, and the second
/// fetch was one of the misses that stall the children's loop (a profile
/// of 2026-11-27, commit 28853de).
#[repr(C, align(64))]
#[derive(Clone, Copy)]
struct BensonSlot([u64; 8]);

/// The static bounds of a coloring and its two-point regions (see
/// [`crate::rules::life::bounds_and_pairs`]).
type Statics = ((i32, i32), [Pairs; 2]);

impl PnTable {
    fn new(numbers: Arc<Guide>, benson_slots: usize) -> PnTable {
        // On huge pages, as the table (see `zeroed_vec`): df-pn looks up
        // every child in both at random.
        PnTable { numbers, benson: ZeroedLines::new(benson_slots) }
    }
    fn get(&self, key: u64) -> Option<(u32, u32)> {
        self.numbers.get(key)
    }
    /// Ask the CPU to fetch the guide slot of `key`.
    #[inline(always)]
    fn prefetch(&self, key: u64) {
        self.numbers.prefetch(key)
    }
    fn work(&self, key: u64) -> u64 {
        self.numbers.work(key)
    }
    fn put(&mut self, key: u64, pn: u32, dn: u32, work: u64) {
        self.numbers.put(key, pn, dn, work)
    }
    /// Ask the CPU to fetch the Benson cache slot of `pos` (one line).
    #[inline(always)]
    fn prefetch_benson(&self, pos: &Position) {
        prefetch(self.benson.as_ptr().wrapping_add(self.benson_slot(pos)), 1);
    }
    fn benson_slot(&self, pos: &Position) -> usize {
        coloring_hash(pos) as usize & (self.benson.len() - 1)
    }
    fn benson_get(&self, pos: &Position) -> Option<Statics> {
        let BensonSlot([black, white, packed, alive, pb, rb, pw, rw]) = self.benson[self.benson_slot(pos)];
        (packed != 0 && black == pos.black && white == pos.white).then_some((
            ((packed >> 8) as u16 as i16 as i32, (packed >> 24) as u16 as i16 as i32),
            [
                Pairs { alive: alive & black, points: pb, regions: rb },
                Pairs { alive: alive & white, points: pw, regions: rw },
            ],
        ))
    }
    fn benson_put(&mut self, pos: &Position, ((lo, hi), [b, w]): Statics) {
        debug_assert!(b.alive & !pos.black == 0 && w.alive & !pos.white == 0, "pass-alive stones are own stones");
        let packed = 1 | (lo as i16 as u16 as u64) << 8 | (hi as i16 as u16 as u64) << 24;
        let slot = self.benson_slot(pos);
        self.benson[slot] =
            BensonSlot([pos.black, pos.white, packed, b.alive | w.alive, b.points, b.regions, w.points, w.regions]);
    }
}

impl Solver {
    /// Whether the value of `node` (the last situation of `path`) is `>= b`.
    #[cfg(test)]
    pub(super) fn dfpn_test(&mut self, path: &mut Path, node: Node, b: i32) -> Result<bool, Stop> {
        Ok(self.dfpn_value(path, node, b)? >= b)
    }

    /// The test "value ≥ b" of `node` (the last situation of `path`), with
    /// a fail-soft answer: g ≥ b proves value ≥ g, g < b proves value ≤ g
    /// (see "Fail-soft answers" above).
    pub(super) fn dfpn_value(&mut self, path: &mut Path, node: Node, b: i32) -> Result<i32, Stop> {
        self.dfpn.b = b;
        // Playouts rank the moves of the test's root and of the ply below
        // it (see `prior_ranks`) on large positions of boards 5 wide and
        // high, and not below the first two plies of the largest such root.
        self.dfpn.playout_from = match self.playout_root(&node) {
            Some(empty) => {
                self.dfpn.playout_top = self.dfpn.playout_top.max(empty);
                self.dfpn.playout_top - 1
            }
            None => u32::MAX,
        };
        self.make_guide();
        let mut dep = Dep::NONE;
        let key = self.tt.key(&node);
        if let Some(g) = self.resolve_at(path, &node, &key, b, &mut dep) {
            return Ok(g);
        }
        let hh = self.history_hash(path);
        // The `roots` trace: every df-pn test also prints, when it is
        // resolved, the nodes its thread spent below each move of the test's
        // root, most first, and the root's ply in the game (a driver's test
        // runs at the solve's root; the principal variation's tests below
        // it). The alpha-beta nodes a test may spend before df-pn are not
        // below any root move here.
        if self.role.trace == Trace::Roots {
            let root = (path.len() - 1, key.hash(), b);
            let work = &mut self.dfpn.root_work;
            self.dfpn.root_now = Some(work.iter().position(|w| w.0 == root).unwrap_or_else(|| {
                work.push((root, Vec::new()));
                work.len() - 1
            }));
        }
        loop {
            let (pn, dn, g) = self.mid(path, node, &key, hh, PINF, PINF, &mut dep)?;
            if pn == 0 || dn == 0 {
                if let Some(i) = self.dfpn.root_now.take() {
                    let ((ply, _, _), mut work) = self.dfpn.root_work.swap_remove(i);
                    work.sort_by_key(|&(_, n)| std::cmp::Reverse(n));
                    let list: Vec<String> = work.iter().map(|(m, n)| format!("{} {n}", m.name(&self.geo))).collect();
                    eprintln!(
                        "root moves of test >= {b} at ply {ply} ({}), nodes below each: {}",
                        g >= b,
                        list.join(", ")
                    );
                }
                if self.dfpn.proof.is_some() {
                    self.report_proof(path, node, b, g);
                }
                return Ok(g);
            }
        }
    }

    /// The guide (and its Benson cache), made on first use.
    fn make_guide(&mut self) {
        if self.dfpn.guide.is_none() {
            let numbers = self.dfpn.shared.clone().unwrap_or_else(|| Arc::new(Guide::new(self.dfpn.guide_bits)));
            self.dfpn.guide = Some(PnTable::new(numbers, self.dfpn.benson_slots));
        }
    }

    /// Whether "value ≥ b" holds at `node` (the last situation of `path`),
    /// as far as it is known without search: the end of the game, Benson's
    /// bounds, guarded territory, or a result in the table that holds under
    /// this history: the look-ups df-pn makes at every node (`None`: not
    /// known). For reading what a stopped or running search has proved.
    pub(crate) fn known(&mut self, path: &Path, node: &Node, b: i32) -> Option<bool> {
        self.make_guide();
        let (key, mut dep) = (self.tt.key(node), Dep::NONE);
        self.resolve_at(path, node, &key, b, &mut dep).map(|g| g >= b)
    }

    /// Benson's bounds of `node`'s coloring, through a small cache (they
    /// depend on the coloring alone, and df-pn asks for the same children
    /// each time it re-enters a node).
    fn benson(&mut self, node: &Node) -> Statics {
        let guide = self.dfpn.guide.as_mut().expect("dfpn_test makes the guide");
        if let Some(b) = guide.benson_get(&node.pos) {
            return b;
        }
        let b = crate::rules::life::bounds_and_pairs(&self.geo, &node.pos);
        guide.benson_put(&node.pos, b);
        b
    }

    /// [`Solver::dfpn_value`] within a budget of `budget` nodes: its
    /// fail-soft answer, or `None` when the budget ran out (the guide keeps
    /// what was learnt).
    pub(super) fn dfpn_within(
        &mut self,
        path: &mut Path,
        node: Node,
        b: i32,
        budget: u64,
    ) -> Result<Option<i32>, Stop> {
        self.meter.start_slice(budget);
        let r = self.dfpn_value(path, node, b);
        self.meter.end_slice();
        match r {
            Ok(g) => Ok(Some(g)),
            Err(Stop::SliceEnd) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// The history hash of `path` where the guide keys hold it (on strips,
    /// see [`DfpnState`]; else 0): the sum of its situations' hashes, so
    /// that a child's is its parent's plus its own.
    fn history_hash(&self, path: &Path) -> u64 {
        if self.dfpn.by_history {
            path.steps().iter().fold(0u64, |h, s| h.wrapping_add(situation_hash(&s.key)))
        } else {
            0
        }
    }

    /// The guide key of a node with table key `key` and history hash `hh`
    /// (see [`DfpnState`]).
    #[inline(always)]
    fn guide_key(&self, key: &NodeKey, hh: u64) -> u64 {
        let g = guide_key(key.hash());
        (if self.dfpn.by_history { mix(g ^ hh) } else { g }) & GUIDE_KEY_BITS
    }

    /// Resolve `node` (the last situation of `path`, table key `key`)
    /// without search: the end of the game, a stored proof or disproof valid
    /// here, or Benson bounds. The answer is fail-soft: g ≥ b proves value
    /// ≥ g, g < b proves value ≤ g.
    fn resolve_at(&mut self, path: &Path, node: &Node, key: &NodeKey, b: i32, dep: &mut Dep) -> Option<i32> {
        if let Some(v) = self.resolve_static(path, node, b, dep) {
            return Some(v);
        }
        let (lower, upper) = self.tt.may_cut_window(key, b);
        if lower {
            if let Some(v) = self.tt.probe_cut_at(path, node, key, true, b, dep) {
                return Some(v);
            }
        }
        if upper {
            if let Some(v) = self.tt.probe_cut_at(path, node, key, false, b - 1, dep) {
                return Some(v);
            }
        }
        None
    }

    /// The part of [`Solver::resolve_at`] that needs no table: the end of
    /// the game, Benson's bounds, or the guarded bound (fail-soft, as there).
    #[inline(always)]
    fn resolve_static(&mut self, path: &Path, node: &Node, b: i32, dep: &mut Dep) -> Option<i32> {
        if node.is_over() {
            return Some(node.pos.score(&self.geo));
        }
        let ((lo, hi), pairs) = self.benson(node);
        if lo >= b {
            return Some(lo);
        }
        if hi < b {
            return Some(hi);
        }
        crate::search::bounds::guarded::decide(path, node, &self.geo, self.rules, (lo, hi), &pairs, b - 1, b, dep)
    }

    /// The empty points of `node` where playouts rank the moves of a test
    /// rooted there (a large position on a board 5 wide and high), `None`
    /// where they do not: one rule for the tests ([`Self::dfpn_value`]) and
    /// the claim's focus ([`Self::root_ranks`]).
    fn playout_root(&self, node: &Node) -> Option<u32> {
        let empty = node.pos.empty(&self.geo).count_ones();
        let wide = self.geo.width().min(self.geo.height()) >= PLAYOUT_MIN_SIDE;
        (wide && empty >= PLAYOUT_MIN_EMPTY).then_some(empty)
    }

    /// Each of `moves`' rank at `node` for "≥ `b`" as df-pn would rank it
    /// at the root of a test of `node` (playouts on large positions, the
    /// prior elsewhere; see [`Self::prior_ranks`]), for the claim's focus on
    /// one first move ([`crate::search::drivers::focus`]); a pass ranks last.
    pub(crate) fn root_ranks(&mut self, node: &Node, b: i32, moves: &[(Move, Position)]) -> Vec<u32> {
        let saved = self.dfpn.playout_from;
        self.dfpn.playout_from = self.playout_root(node).unwrap_or(u32::MAX);
        let mut rank = vec![0; moves.len()];
        self.prior_ranks(node, b, moves, &mut rank);
        self.dfpn.playout_from = saved;
        for (r, &(mv, _)) in rank.iter_mut().zip(moves) {
            if mv == Move::Pass {
                *r = u32::MAX;
            }
        }
        rank
    }

    /// Each move's rank by the move prior at `node` (0 the best; equal
    /// scores in generation order) into `rank`; a pass keeps no bias: it is
    /// tried as if ranked first (its slot is left as it is). At the root of
    /// a test on a large position and the ply below it (`playout_from`),
    /// random playouts rank instead, with ranks spaced wider
    /// ([`crate::search::ordering::playout`]): there the 3x3 prior misses the moves
    /// that cost the most when missed, in whole-board tests as in those
    /// near the value.
    #[inline(always)]
    fn prior_ranks(&mut self, node: &Node, b: i32, moves: &[(Move, Position)], rank: &mut [u32]) {
        let me = node.to_move;
        let whole_board = whole_board_test(&self.geo, b);
        if node.pos.empty(&self.geo).count_ones() >= self.dfpn.playout_from {
            self.dfpn.playouts.ranks(&self.geo, &node.pos, me, b, whole_board, moves, rank);
            return;
        }
        // The prior learned from proofs like this test's: a whole-board
        // result's, or one near the value.
        let prior = if whole_board { Prior::WholeBoard } else { Prior::Tight };
        let mut ranked = [(0u16, 0u8); 66];
        let mut m = 0;
        for (i, &(mv, next)) in moves.iter().enumerate() {
            if let Move::Play(p) = mv {
                let captures = crate::search::ordering::policy::captures(&node.pos, me, &next);
                ranked[m] = (self.patterns.rank(prior, &node.pos, me, p, captures), i as u8);
                m += 1;
            }
        }
        // Best first; equal ranks in generation order.
        ranked[..m].sort_by_key(|&(rank, _)| std::cmp::Reverse(rank));
        for (r, &(_, i)) in ranked[..m].iter().enumerate() {
            rank[i as usize] = r as u32;
        }
    }

    /// Rank first (before the prior's best) the move that refuted the last
    /// expanded and refuted sibling of `node` (at `ply`), if it is one of
    /// `moves`; the other moves keep their order. Not at the plies the
    /// playouts rank (`playout_from`): there the playouts order better.
    ///
    /// Why: the move that refutes one child of a node often refutes its
    /// siblings too (the vital point of a shape, the capture that an
    /// unrelated move does not prevent), the idea of Kawano's simulation in
    /// tsume-shogi solvers (a sibling's proof tried first), here only as a
    /// rank. It saves nodes on every 5x5 set measured (`results/tuning.md`).
    ///
    /// Why it cannot change a value: a rank only biases which child df-pn
    /// expands next (as the prior it adjusts), never resolves one.
    #[inline(always)]
    fn refuted_sibling_first(&self, node: &Node, ply: usize, moves: &[(Move, Position)], rank: &mut [u32]) {
        let Some(r) = self.dfpn.refuter[ply] else { return };
        if node.pos.empty(&self.geo).count_ones() >= self.dfpn.playout_from {
            return;
        }
        let Some(k) = moves.iter().position(|&(m, _)| m == r) else { return };
        let r0 = rank[k];
        for (i, x) in rank[..moves.len()].iter_mut().enumerate() {
            if *x < r0 && moves[i].0 != Move::Pass {
                *x += 1;
            }
        }
        rank[k] = 0;
    }

    /// One df-pn expansion of `node` (the last situation of `path`, table
    /// key `key`, history hash `hh` where the guide uses it) until its
    /// numbers reach the thresholds or it is resolved:
    /// returns its numbers (pn 0: proved ≥ b, dn 0: disproved) and, when
    /// resolved, its fail-soft value (≥ b proved, < b disproved; meaningless
    /// while open). When resolved, its dependencies are merged into `dep_out`
    /// and the result is stored.
    #[allow(clippy::too_many_arguments)]
    fn mid(
        &mut self,
        path: &mut Path,
        node: Node,
        key: &NodeKey,
        hh: u64,
        th_pn: u32,
        th_dn: u32,
        dep_out: &mut Dep,
    ) -> Result<(u32, u32, i32), Stop> {
        let ply = self.enter(path)?;
        let b = self.dfpn.b;
        // A child found open when its parent looked it up may have been
        // resolved since through another line (while its siblings were
        // expanded): one look-up here, when it is chosen.
        if let Some(g) = self.resolve_at(path, &node, key, b, dep_out) {
            return Ok(resolved(g, b));
        }
        let nodes_before = self.nodes();
        if let Some(t) = self.dfpn.proof.as_mut() {
            t.enter(key.hash());
        }
        let black = node.to_move == Color::Black;
        if node.passes == 1 {
            if let Some(g) = self.pass_ends_it(path, &node, black, dep_out, nodes_before) {
                return Ok(g);
            }
        }
        let mut moves = self.order.take_buffer(ply);
        let mut acc = Dep::NONE;
        self.generate(path, &node, None, b - 1, b, &mut moves, &mut acc);
        let gk = self.guide_key(key, hh);
        // The work of its earlier expansions counts as this one's: what a
        // result stored here is worth (see `Guide::work`).
        let nodes_before = nodes_before.saturating_sub(self.dfpn.guide.as_ref().unwrap().work(gk));
        // This node's children start without a sibling's refutation.
        if self.dfpn.refuter.len() < ply + 2 {
            self.dfpn.refuter.resize(ply + 2, None);
        }
        self.dfpn.refuter[ply + 1] = None;
        if let Some(g) = &self.dfpn.shared {
            g.mark_busy(gk, true);
        }
        let r = self.mid_loop(path, &node, gk, hh, th_pn, th_dn, &moves, &mut acc, dep_out, nodes_before, black);
        if let Some(g) = &self.dfpn.shared {
            g.mark_busy(gk, false);
        }
        self.order.put_buffer(ply, moves);
        r
    }

    /// A node just after a pass whose mover can end the game by passing
    /// again with the score meeting its side of the test (Black: score ≥ b,
    /// White: score < b): won by that pass, with the score as its
    /// fail-soft value. Returns the node's numbers and value, or `None`
    /// where the pass does not end it so.
    ///
    /// Why here: df-pn's loop would find the same, but only after making
    /// every child's position, key and prefetches (most of a node's cost),
    /// since `generate` sorts such a pass first
    /// (`tier::PASS_ENDS_WITH_PROOF`) and the loop resolves the children in
    /// that order: the pass child is the game's end, resolved before any
    /// other child is looked at, and wins. So this is the loop's own answer,
    /// the same value, best move, dependencies (none: an ended game depends
    /// on the coloring alone) and stored result, and the same node count;
    /// it only skips the work the loop did before reaching it. Of the nodes
    /// df-pn enters on 5x5, 12–16 % follow a pass and 4–9 % are won so
    /// (`results/tuning.md`, 2026-11-27).
    fn pass_ends_it(
        &mut self,
        path: &Path,
        node: &Node,
        black: bool,
        dep_out: &mut Dep,
        nodes_before: u64,
    ) -> Option<(u32, u32, i32)> {
        let score = node.pos.score(&self.geo);
        let b = self.dfpn.b;
        // The window of `generate` in a test: (b − 1, b).
        if !pass_meets(black, score, b - 1, b) {
            return None;
        }
        let all = self.geo.all();
        let mut ended = Dep::NONE;
        Some(self.win(path, node, Move::Pass, node.pos, score, &mut ended, dep_out, all, nodes_before))
    }

    /// The expansions of `node` below `mid`'s thresholds (see
    /// [`Solver::mid`]): its children keyed and looked up once, then the
    /// most promising child expanded, again and again, until one wins the
    /// node for its mover, every one is refuted, or the node's numbers pass
    /// a threshold.
    #[allow(clippy::too_many_arguments)]
    fn mid_loop(
        &mut self,
        path: &mut Path,
        node: &Node,
        gk: u64,
        hh: u64,
        th_pn: u32,
        th_dn: u32,
        moves: &[(Move, Position)],
        acc: &mut Dep,
        dep_out: &mut Dep,
        nodes_before: u64,
        black: bool,
    ) -> Result<(u32, u32, i32), Stop> {
        let n = moves.len();
        let mut kids = Children::new(n, black);
        // Dependencies of a child resolved through the table (kept clean
        // between uses: a kilobyte to clear per child otherwise).
        let mut cd = Dep::NONE;
        self.key_children(path, node, hh, moves, &mut kids);
        if let Some(won) = self.look_up_children(path, node, moves, &mut kids, acc, &mut cd, dep_out, nodes_before) {
            return Ok(won);
        }
        // Each child's rank among the node's moves by the prior (see
        // `PRIOR_STEP`), for the bias of its number for the mover.
        let mut rank = [0u32; 66];
        if n > 1 {
            self.prior_ranks(node, self.dfpn.b, moves, &mut rank);
            self.refuted_sibling_first(node, path.len() - 1, moves, &mut rank);
        }
        // From the mover's side: the thresholds of the numbers the mover
        // needs (proof for Black) and of the refutation's.
        let (th_w, th_l) = if black { (th_pn, th_dn) } else { (th_dn, th_pn) };
        loop {
            let (w, l) = kids.sides(black);
            let (w1, lsum) = node_numbers(w, l);
            if w1 >= PINF {
                return Ok(self.all_refuted(path, node, kids.refuted, acc, dep_out, nodes_before, black));
            }
            let (npn, ndn) = if black { (w1, lsum) } else { (lsum, w1) };
            if npn >= th_pn || ndn >= th_dn {
                let work = self.nodes() - nodes_before;
                self.dfpn.guide.as_mut().unwrap().put(gk, npn, ndn, work);
                return Ok((npn, ndn, 0));
            }
            // The node's numbers are the true ones (above); only the choice
            // of child adds the prior's bias and avoids those another thread
            // is below.
            let shared = self.dfpn.shared.as_deref();
            let busy = |i: usize| shared.is_some_and(|g| g.busy(kids.gks[i]));
            let (best, w2) = choose_child(w, &rank[..n], busy, th_w);
            let (cw, cl) = child_thresholds((th_w, th_l), w2, lsum, l[best]);
            // SAFETY: written by `key_children` for every i < moves.len().
            let key = unsafe { kids.keys[best].assume_init_ref() };
            let th = if black { (cw, cl) } else { (cl, cw) };
            let r = self.expand_child(path, node, moves[best], key, kids.hhs[best], th, &mut cd, gk, black);
            let (cpn, cdn, g) = r?;
            kids.pn[best] = cpn;
            kids.dn[best] = cdn;
            if settle_child(black, cpn, cdn, acc, &mut cd) {
                let (mv, next) = moves[best];
                return Ok(self.win(path, node, mv, next, g, &mut cd, dep_out, self.geo.all(), nodes_before));
            }
            note_refuted(black, cpn, cdn, g, &mut kids.refuted);
        }
    }

    /// First step of [`Solver::mid_loop`]: the children's keys (table, and
    /// the guide's with the history hash `hh` of `node` where the guide
    /// uses it), with their guide slots, Benson cache slots and table tags
    /// prefetched: the look-ups that follow are cache misses (most of
    /// df-pn's time on 4x4), and this way they overlap. A canonical key
    /// costs the images of the position under every symmetry, so each is
    /// computed once.
    #[inline(always)]
    fn key_children(&mut self, path: &Path, node: &Node, hh: u64, moves: &[(Move, Position)], kids: &mut Children) {
        let images = self.tt.images(&node.pos);
        for (i, &(mv, next)) in moves.iter().enumerate() {
            let child = node.child(mv, next);
            let key = kids.keys[i].write(self.tt.key_near(&images, &child));
            if self.dfpn.by_history {
                kids.hhs[i] = hh.wrapping_add(situation_hash(&path.key(child.pos, child.to_move)));
            }
            kids.gks[i] = self.guide_key(key, kids.hhs[i]);
            let guide = self.dfpn.guide.as_ref().unwrap();
            guide.prefetch(kids.gks[i]);
            guide.prefetch_benson(&child.pos);
            self.tt.prefetch(key);
        }
    }

    /// Second step of [`Solver::mid_loop`]: every child looked up (the end
    /// of the game, Benson, a stored result valid here; see
    /// [`Solver::resolve_at`]), its numbers set from what resolved it, else
    /// from the guide, else from its first numbers. The node's numbers and
    /// value where a child already wins it for its mover (then stored, see
    /// [`Solver::win`]).
    ///
    /// The guide may hold a child's numbers from this test or from an
    /// earlier test of the same driver at another b (the guide key has no
    /// b): the proof tree of "≥ 1" is a good first guess at the one of
    /// "≥ 2". Numbers only choose the child to expand, so stale ones cost
    /// work, never exactness. Skipping the look-up for guided children lost
    /// the transpositions resolved since, and keying the guide by b threw
    /// the earlier test's tree away (`results/tuning.md`, 2026-11-23).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn look_up_children(
        &mut self,
        path: &mut Path,
        node: &Node,
        moves: &[(Move, Position)],
        kids: &mut Children,
        acc: &mut Dep,
        cd: &mut Dep,
        dep_out: &mut Dep,
        nodes_before: u64,
    ) -> Option<(u32, u32, i32)> {
        let b = self.dfpn.b;
        let black = node.to_move == Color::Black;
        // The node's blocks, for the guesses of its children (found at the
        // first child that needs one: see `first_numbers`).
        let mut blocks = None;
        for (i, &(mv, next)) in moves.iter().enumerate() {
            let child = node.child(mv, next);
            path.push(child.pos, child.to_move);
            let guided = self.dfpn.guide.as_ref().unwrap().get(kids.gks[i]).filter(|&(p, d)| p > 0 && d > 0);
            // SAFETY: written by `key_children` for every i < moves.len().
            let key = unsafe { kids.keys[i].assume_init_ref() };
            let mut g = 0;
            (kids.pn[i], kids.dn[i]) = match self.resolve_at(path, &child, key, b, cd) {
                Some(v) => {
                    g = v;
                    let (p, d, _) = resolved(v, b);
                    (p, d)
                }
                None => guided.unwrap_or_else(|| self.first_numbers(node, mv, &child, b, &mut blocks)),
            };
            path.pop();
            if settle_child(black, kids.pn[i], kids.dn[i], acc, cd) {
                return Some(self.win(path, node, mv, next, g, cd, dep_out, self.geo.all(), nodes_before));
            }
            note_refuted(black, kids.pn[i], kids.dn[i], g, &mut kids.refuted);
        }
        None
    }

    /// `node` with every move refuted: bounded by `refuted`, the best of
    /// its refuted children's values for its mover, with the dependencies
    /// of them all (`acc`) and its own; stored, and its numbers and value.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn all_refuted(
        &mut self,
        path: &Path,
        node: &Node,
        refuted: i32,
        acc: &Dep,
        dep_out: &mut Dep,
        nodes_before: u64,
        black: bool,
    ) -> (u32, u32, i32) {
        dep_out.merge(acc);
        dep_out.drop_from(path.len() - 1);
        let bound = if black { Bound::Upper } else { Bound::Lower };
        self.store(path, node, refuted, bound, None, dep_out, nodes_before);
        resolved(refuted, self.dfpn.b)
    }

    /// Expand the child of `node` by `mv` (to `next`; table key `key`,
    /// history hash `hh`) below the thresholds `th` (pn, dn): df-pn's
    /// recursion, with what it leaves for the siblings (the move that
    /// refuted it) and for the traces (the nodes it took).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn expand_child(
        &mut self,
        path: &mut Path,
        node: &Node,
        (mv, next): (Move, Position),
        key: &NodeKey,
        hh: u64,
        (cpn_th, cdn_th): (u32, u32),
        cd: &mut Dep,
        gk: u64,
        black: bool,
    ) -> Result<(u32, u32, i32), Stop> {
        let ply = path.len() - 1;
        let child = node.child(mv, next);
        path.push(child.pos, child.to_move);
        let before = self.nodes();
        self.dfpn.last_win = None;
        let r = self.mid(path, child, key, hh, cpn_th, cdn_th, cd);
        path.pop();
        // A child refuted by a move of its own (not from the table or a
        // static bound): that move is its siblings' first try.
        if let Ok((cpn, cdn, _)) = r {
            if if black { cdn == 0 } else { cpn == 0 } {
                if let Some((_, m)) = self.dfpn.last_win.filter(|&(p, m)| p == ply + 1 && m != Move::Pass) {
                    self.dfpn.refuter[ply + 1] = Some(m);
                }
            }
        }
        self.note_spent(gk, ply, mv, self.nodes() - before);
        r
    }

    /// For the `proof` and `roots` traces: `spent` nodes went below move
    /// `mv` of the node with guide key `gk` at `ply`.
    #[inline(always)]
    fn note_spent(&mut self, gk: u64, ply: usize, mv: Move, spent: u64) {
        if let Some(t) = self.dfpn.proof.as_mut() {
            t.spend(gk, mv, spent);
        }
        if let Some((_, work)) = self.dfpn.root_now.map(|i| &mut self.dfpn.root_work[i]).filter(|w| w.0 .0 == ply) {
            match work.iter_mut().find(|w| w.0 == mv) {
                Some(w) => w.1 += spent,
                None => work.push((mv, spent)),
            }
        }
    }

    /// The numbers of `child`, reached from `node` by `mv`, met for the
    /// first time (neither resolved nor in the guide): from a guess of its
    /// final score against the test's bound b. A child whose guess is d
    /// points above what the test needs starts with pn 1 and dn about 1 +
    /// s·d/2, one d points below with pn 1 + s·d/2 (Nagai's df-pn+ idea of
    /// heuristic starting numbers): df-pn then tries the moves that look won
    /// first, and leaves the ones that look lost to last. Except in the
    /// tests of a whole-board result on 2-D boards, "what the test needs" is
    /// the bound moved by a margin against each side ([`MARGIN_PERCENT`]):
    /// pn 1 only well above b, dn 1 only well below. Numbers only choose
    /// what to expand, so this cannot change an answer. On 2-D boards the
    /// guess is the fitted one of [`crate::search::ordering::guess`]: the logistic fit
    /// with s = [`GUESS_SCALE`], or in a test of a whole-board result the
    /// least-squares fit with s = [`EXTREME_GUESS_SCALE`]; on strips it is
    /// the strips' own fit ([`crate::search::ordering::guess::strip_guess`])
    /// with s = [`STRIP_GUESS_SCALE`] in every test (the 2-D fits cost the
    /// strips nodes; the estimate, their guess until 2026-11-29, more).
    ///
    /// The estimate, then the fitted guess, took df-pn's node counts down by
    /// a third and more on 5x5 and 4x4 (all numbers started at (1, 1)
    /// before); the half number per point was the best scale tried.
    ///
    /// On 2-D boards the side that must refute the child (every move of its
    /// mover) also starts with (empty points + 1) / 2 more (mobility: a
    /// rough count of the moves it must answer), so df-pn prefers the
    /// children with fewer moves left to refute. Not on strips, where the
    /// guide holds the history and it cost nodes. The figures of each step,
    /// and what else was tried, are in `results/tuning.md`.
    fn first_numbers(&self, node: &Node, mv: Move, child: &Node, b: i32, blocks: &mut Option<Blocks>) -> (u32, u32) {
        // The guess's margin over b, and the margin its numbers need (see
        // `MARGIN_PERCENT`) in the same units: on strips the strips' fit's,
        // in every test; on 2-D boards the fit's, and none in a test of a
        // whole-board result.
        let margin = |scale: i32| scale * self.geo.points() as i32 * MARGIN_PERCENT / 100;
        let (d, m) = if self.dfpn.by_history {
            let guess = crate::search::ordering::guess::strip_guess(&self.geo, &child.pos, child.to_move);
            (STRIP_GUESS_SCALE * (guess - b), margin(STRIP_GUESS_SCALE))
        } else {
            let blocks = blocks.get_or_insert_with(|| Blocks::of(&self.geo, &node.pos, node.to_move));
            // A test of a whole-board result takes the narrower fit: see
            // `EXTREME_WEIGHTS`.
            let (weights, scale, m) = if whole_board_test(&self.geo, b) {
                (&EXTREME_WEIGHTS, EXTREME_GUESS_SCALE, 0)
            } else {
                (&WEIGHTS, GUESS_SCALE, margin(GUESS_SCALE))
            };
            (scale * (blocks.guess_after(&self.geo, &node.pos, node.to_move, mv, &child.pos, weights) - b), m)
        };
        let (pn, dn) = (1 + (m - d).max(0) as u32 / 2, 1 + (d + 1 + m).max(0) as u32 / 2);
        if self.dfpn.by_history {
            return (pn, dn);
        }
        let mobility = child.pos.empty(&self.geo).count_ones().div_ceil(2);
        if child.to_move == Color::Black {
            (pn, dn + mobility)
        } else {
            (pn + mobility, dn)
        }
    }

    /// `node` is resolved in its mover's favour by move `mv` (to `next`),
    /// whose child has the fail-soft value `g` and depends on `cd`: record,
    /// store, and return the node's numbers and value (the child's: the
    /// mover can choose it).
    #[allow(clippy::too_many_arguments)]
    fn win(
        &mut self,
        path: &Path,
        node: &Node,
        mv: Move,
        next: crate::rules::position::Position,
        g: i32,
        cd: &mut Dep,
        dep_out: &mut Dep,
        all: crate::rules::geometry::Bits,
        nodes_before: u64,
    ) -> (u32, u32, i32) {
        let ply = path.len() - 1;
        self.dfpn.last_win = Some((ply, mv));
        prove_by_child(path, node, mv, next, all, cd, dep_out);
        dep_out.drop_from(ply);
        let bound = if g >= self.dfpn.b { Bound::Lower } else { Bound::Upper };
        self.store(path, node, g, bound, Some(mv), dep_out, nodes_before);
        resolved(g, self.dfpn.b)
    }
}

/// Whether "≥ `b`" tests a whole-board result on this board: Black's
/// "≥ N" on an N-point board, or "≥ 1 − N", whose refutation is White's.
/// Such tests take the score guess and the move prior fitted to
/// whole-board proofs.
#[inline(always)]
fn whole_board_test(geo: &Geometry, b: i32) -> bool {
    let area = geo.points() as i32;
    b >= area || b <= 1 - area
}

/// The children of a node [`Solver::mid_loop`] expands, by their index in
/// its move list: proof and disproof numbers, table keys, guide keys and
/// history hashes (where the guide uses them), and the best fail-soft
/// value for the mover among those resolved against it (which bounds the
/// node when every move fails).
struct Children {
    n: usize,
    pn: [u32; 66],
    dn: [u32; 66],
    gks: [u64; 66],
    hhs: [u64; 66],
    keys: [MaybeUninit<NodeKey>; 66],
    refuted: i32,
}

impl Children {
    /// `n` children of a node whose mover is Black if `black`, none looked
    /// at yet.
    #[inline(always)]
    fn new(n: usize, black: bool) -> Children {
        Children {
            n,
            pn: [0; 66],
            dn: [0; 66],
            gks: [0; 66],
            hhs: [0; 66],
            keys: [const { MaybeUninit::<NodeKey>::uninit() }; 66],
            refuted: if black { i32::MIN } else { i32::MAX },
        }
    }

    /// The numbers from the mover's side: those the mover needs (proof for
    /// Black), then those of the refutation.
    #[inline(always)]
    fn sides(&self, black: bool) -> (&[u32], &[u32]) {
        let n = self.n;
        if black {
            (&self.pn[..n], &self.dn[..n])
        } else {
            (&self.dn[..n], &self.pn[..n])
        }
    }
}

/// A node's numbers from its mover's side, from its children's (`w` those
/// the mover needs, `l` the refutation's): the least of `w`, and the sum of
/// `l` (kept below [`PINF`]; meaningless when the least of `w` is
/// [`PINF`], every move refuted).
#[inline(always)]
fn node_numbers(w: &[u32], l: &[u32]) -> (u32, u32) {
    let mut w1 = PINF;
    let mut lsum: u64 = 0;
    for i in 0..w.len() {
        w1 = w1.min(w[i]);
        lsum += l[i] as u64;
    }
    (w1, lsum.min(PINF as u64 - 1) as u32)
}

/// The thresholds, from the mover's side, of the child chosen for
/// expansion: `th` the node's (the mover's number, the refutation's), `w2`
/// the number at which the second best child would be chosen instead
/// ([`choose_child`]; with the 1 + ε trick, [`EPSILON_PERCENT`]), `lsum`
/// the node's refutation number and `l` the child's.
#[inline(always)]
fn child_thresholds((th_w, th_l): (u32, u32), w2: u32, lsum: u32, l: u32) -> (u32, u32) {
    let cw = th_w.min((w2 as u64 + 1).max(w2 as u64 * (100 + EPSILON_PERCENT) / 100).min(PINF as u64) as u32);
    let cl = (th_l as u64 - lsum as u64 + l as u64).min(PINF as u64) as u32;
    (cw, cl)
}

/// The child to expand, by the numbers `w` its mover needs with the prior's
/// bias for their `rank` ([`with_prior`]); and the number the chosen child
/// may reach before the second best would be chosen instead (in its own
/// unbiased terms, for its threshold). When the choice is a child another
/// thread is below (`busy`), the choice is made again with the numbers of such children scaled by
/// [`BUSY_PERCENT`] (asked only then: each question is a look-up in the
/// shared guide). A child whose own number has reached the threshold `th`
/// is never chosen: then the best by the true numbers is (the node returns
/// before it expands it). Call only while some child is open.
fn choose_child(w: &[u32], rank: &[u32], busy: impl Fn(usize) -> bool, th: u32) -> (usize, u32) {
    let pick = |scaled: &dyn Fn(usize) -> bool| {
        let (mut best, mut e1, mut e2) = (usize::MAX, u64::MAX, u64::MAX);
        for i in 0..w.len() {
            if w[i] >= PINF {
                continue;
            }
            let mut e = with_prior(w[i], rank[i]);
            if scaled(i) {
                e = e * BUSY_PERCENT / 100;
            }
            if e < e1 {
                (e2, e1, best) = (e1, e, i);
            } else if e < e2 {
                e2 = e;
            }
        }
        (best, e2)
    };
    let (mut best, mut e2) = pick(&|_| false);
    let mut scaled = false;
    if best != usize::MAX && e2 < u64::MAX && busy(best) {
        (best, e2) = pick(&busy);
        scaled = busy(best);
    }
    if best == usize::MAX || w[best] >= th {
        // By the true numbers alone.
        let (mut b, mut w1, mut w2) = (usize::MAX, PINF, PINF);
        for (i, &wi) in w.iter().enumerate() {
            if wi < w1 {
                (w2, w1, b) = (w1, wi, i);
            } else if wi < w2 {
                w2 = wi;
            }
        }
        return (b, w2);
    }
    // The chosen child's number at which its effective number passes the
    // second best's.
    let w2 = if e2 >= PINF as u64 {
        PINF
    } else {
        let e = if scaled { e2 * 100 / BUSY_PERCENT } else { e2 };
        without_prior(e, rank[best]).clamp(w[best] as u64, PINF as u64 - 1) as u32
    };
    (best, w2)
}

/// The numbers and value of a node resolved with the fail-soft value `g`
/// in the test "≥ b".
#[inline(always)]
fn resolved(g: i32, b: i32) -> (u32, u32, i32) {
    if g >= b {
        (0, PINF, g)
    } else {
        (PINF, 0, g)
    }
}

/// A child with numbers `pn`, `dn` and (when resolved) value `g`: if it is
/// resolved against the mover (Black: disproved, White: proved), fold its
/// value into `refuted`, the best such value for the mover so far.
#[inline(always)]
fn note_refuted(black: bool, pn: u32, dn: u32, g: i32, refuted: &mut i32) {
    if black && dn == 0 {
        *refuted = (*refuted).max(g);
    } else if !black && pn == 0 {
        *refuted = (*refuted).min(g);
    }
}

/// A child's numbers are known (`pn`, `dn`; `cd` its dependencies when
/// resolved): whether it wins the node for its mover (`cd` is then the
/// caller's to use); a child resolved against the mover has its
/// dependencies moved into `acc` (all of them count when every move fails).
#[inline(always)]
fn settle_child(black: bool, pn: u32, dn: u32, acc: &mut Dep, cd: &mut Dep) -> bool {
    if (black && pn == 0) || (!black && dn == 0) {
        return true;
    }
    if (pn == 0 || dn == 0) && *cd != Dep::NONE {
        acc.merge(cd);
        *cd = Dep::NONE;
    }
    false
}

/// df-pn on hand-built cases: its answers to "value ≥ b?" against the plain
/// reference search, what it leaves in the table, resolution without search,
/// and a test cut short by its node budget.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::geometry::Geometry;
    use crate::rules::history::Game;
    use crate::rules::position::{Rules, Superko};
    use crate::search::drivers::threads::with_deep_stack;
    use crate::search::types::options::SolveOptions;

    fn opts() -> SolveOptions {
        SolveOptions { table_mb: 4, value_only: true, no_pv: true, ..Default::default() }
    }

    /// The game on a `width`x`height` board after `moves` (point names or `pass`).
    fn game(width: usize, height: usize, rules: Rules, moves: &str) -> Game {
        Game::after(width, height, rules, moves)
    }

    /// df-pn's fail-soft answer to "value ≥ b" at the game's position, by a
    /// fresh solver.
    fn answer(g: &Game, b: i32) -> i32 {
        let mut s = Solver::new(g.geo, g.rules, &opts());
        let mut path = Path::from_game(g);
        s.dfpn_value(&mut path, Node::of_game(g), b).unwrap()
    }

    /// A fail-soft answer `g` to "value ≥ b" is right about b and a true
    /// bound: value ≥ g when g ≥ b, value ≤ g when g < b.
    fn check_answer(value: i32, b: i32, g: i32, what: &str) {
        assert_eq!(g >= b, value >= b, "{what} b = {b}: answer {g}, value {value}");
        if g >= b {
            assert!(value >= g, "{what} b = {b}: claims value >= {g}, value {value}");
        } else {
            assert!(value <= g, "{what} b = {b}: claims value <= {g}, value {value}");
        }
    }

    fn cases() -> Vec<Game> {
        let suicide = Rules { suicide: true, ..Rules::default() };
        let situational = Rules { superko: Superko::Situational, ..Rules::default() };
        vec![
            game(1, 3, Rules::default(), ""),
            game(1, 4, Rules::default(), ""),
            game(2, 2, Rules::default(), ""),
            // The documents' superko game, stopped before White's recapture.
            game(2, 2, Rules::default(), "a2 b2 a1 b1 a2"),
            game(1, 5, suicide, "a3"),
            game(1, 4, situational, "a2 a3"),
        ]
    }

    /// Every test "value ≥ b" across the whole range agrees with the value
    /// of the plain reference search (which shares only the rules with it),
    /// and its fail-soft answer is a true bound.
    #[test]
    fn answers_agree_with_the_reference() {
        with_deep_stack(|| {
            for g in cases() {
                let value = crate::search::solve_reference(&g, &opts()).unwrap().value;
                let n = g.geo.points() as i32;
                for b in -n..=n + 1 {
                    check_answer(value, b, answer(&g, b), &format!("{}x{}", g.geo.width(), g.geo.height()));
                }
            }
        });
    }

    /// One solver answering every b in turn, its table and guide kept
    /// between the tests (as the value driver uses it), answers the same.
    #[test]
    fn a_solver_reused_across_tests_agrees() {
        with_deep_stack(|| {
            for g in cases() {
                let value = crate::search::solve_reference(&g, &opts()).unwrap().value;
                let mut s = Solver::new(g.geo, g.rules, &opts());
                let n = g.geo.points() as i32;
                for b in (-n..=n + 1).rev() {
                    let mut path = Path::from_game(&g);
                    let answer = s.dfpn_value(&mut path, Node::of_game(&g), b).unwrap();
                    check_answer(value, b, answer, "reused");
                    assert_eq!(path.len(), Path::from_game(&g).len(), "the path is restored");
                }
            }
        });
    }

    /// A proof stores a lower bound ≥ b at the root, a disproof an upper
    /// bound ≤ b − 1, each valid under the root's history (the table's reuse
    /// rule), so the next test of the same b is answered without search.
    #[test]
    fn proofs_and_disproofs_are_stored_at_the_root() {
        with_deep_stack(|| {
            let g = game(2, 2, Rules::default(), "");
            let value = crate::search::solve_reference(&g, &opts()).unwrap().value;
            for (b, proved) in [(value, true), (value + 1, false)] {
                let mut s = Solver::new(g.geo, g.rules, &opts());
                let mut path = Path::from_game(&g);
                let root = Node::of_game(&g);
                assert_eq!(s.dfpn_test(&mut path, root, b).unwrap(), proved);
                let mut dep = Dep::NONE;
                let stored = if proved {
                    s.tt.probe_cut(&path, &root, true, b, &mut dep)
                } else {
                    s.tt.probe_cut(&path, &root, false, b - 1, &mut dep)
                };
                let v = stored.expect("the root's result is in the table");
                assert!(if proved { v >= b } else { v < b });
                let before = s.nodes();
                assert_eq!(s.dfpn_test(&mut path, root, b).unwrap(), proved);
                assert_eq!(s.nodes(), before, "answered from the table");
            }
        });
    }

    /// A position Benson's bounds settle (1x3 with Black in the middle: both
    /// empty points are Black's eyes, value +3) is resolved without a node.
    #[test]
    fn benson_resolves_without_search() {
        let geo = Geometry::new(1, 3).unwrap();
        let g = Game::new(geo, Rules::default(), Position { black: 0b010, white: 0 }, Color::White).unwrap();
        let mut s = Solver::new(g.geo, g.rules, &opts());
        let mut path = Path::from_game(&g);
        assert!(s.dfpn_test(&mut path, Node::of_game(&g), 3).unwrap());
        assert!(!s.dfpn_test(&mut path, Node::of_game(&g), 4).unwrap());
        assert_eq!(s.nodes(), 0);
    }

    /// Just after a pass, a mover whose pass back ends the game with the
    /// score on its side of the test wins by it in one node, with the score
    /// as its fail-soft value, and the result is stored: on 2x2, Black
    /// after "a1 pass" (score +4, "≥ 4"), White after "a1 b2 pass" (score
    /// 0, "≥ 1" refuted). Where the score is on the other side, the node is
    /// searched as any other (White after "a1 b2 pass", "≥ 0").
    #[test]
    fn a_pass_that_ends_the_game_wins_at_once() {
        with_deep_stack(|| {
            for (moves, b, g) in [("a1 pass", 4, Some(4)), ("a1 b2 pass", 1, Some(0)), ("a1 b2 pass", 0, None)] {
                let game = game(2, 2, Rules::default(), moves);
                let value = crate::search::solve_reference(&game, &opts()).unwrap().value;
                let mut s = Solver::new(game.geo, game.rules, &opts());
                let mut path = Path::from_game(&game);
                let root = Node::of_game(&game);
                let answer = s.dfpn_value(&mut path, root, b).unwrap();
                check_answer(value, b, answer, moves);
                match g {
                    Some(g) => {
                        assert_eq!((answer, s.nodes()), (g, 1), "{moves}: won by the pass at once");
                        let mut dep = Dep::NONE;
                        let stored = s.tt.probe_cut(&path, &root, g >= b, if g >= b { b } else { b - 1 }, &mut dep);
                        assert_eq!(stored, Some(g), "{moves}: stored");
                    }
                    None => assert!(s.nodes() > 1, "{moves}: searched"),
                }
            }
        });
    }

    /// The move that refuted a sibling goes first; the other moves keep
    /// their order behind it, and the pass keeps its slot. Where the
    /// playouts rank (`playout_from`), or with no refutation known, the
    /// ranks are left as they are.
    #[test]
    fn a_refuted_siblings_move_ranks_first() {
        let g = game(3, 3, Rules::default(), "b2");
        let mut s = Solver::new(g.geo, g.rules, &opts());
        let node = Node::of_game(&g);
        let at = |p: &str| Move::parse(p, &g.geo).unwrap();
        let moves: Vec<(Move, Position)> = ["pass", "a1", "b1", "c1"].iter().map(|&m| (at(m), node.pos)).collect();
        let before = [0, 0, 1, 2];
        let ranked = |s: &Solver| {
            let mut rank = before;
            s.refuted_sibling_first(&node, 1, &moves, &mut rank);
            rank
        };
        s.dfpn.refuter = vec![None, None];
        assert_eq!(ranked(&s), before, "no refutation known");
        s.dfpn.refuter[1] = Some(at("c1"));
        assert_eq!(ranked(&s), [0, 1, 2, 0]);
        s.dfpn.refuter[1] = Some(at("a1"));
        assert_eq!(ranked(&s), before, "first already");
        s.dfpn.refuter[1] = Some(at("c1"));
        s.dfpn.playout_from = 0;
        assert_eq!(ranked(&s), before, "the playouts rank here");
    }

    /// A test cut short by its budget is open (`None`: the `Stop::SliceEnd`
    /// is taken by the test itself; budgets are checked every 4,096 nodes),
    /// the slice is over afterwards, and the test then finishes with the
    /// right answer. 1x10 has the known value +1.
    #[test]
    fn a_budget_leaves_the_test_open() {
        with_deep_stack(|| {
            let g = game(1, 10, Rules::default(), "");
            let mut s = Solver::new(g.geo, g.rules, &opts());
            let root = Node::of_game(&g);
            let mut path = Path::from_game(&g);
            assert_eq!(s.dfpn_within(&mut path, root, 1, 1).unwrap(), None);
            assert_eq!(s.meter.slice_end, u64::MAX, "the slice ends with the test");
            assert_eq!(path.len(), Path::from_game(&g).len(), "the path is restored");
            assert_eq!(s.dfpn_within(&mut path, root, 1, u64::MAX).unwrap(), Some(1));
            assert_eq!(s.dfpn_within(&mut path, root, 2, u64::MAX).unwrap(), Some(1));
        });
    }
}
