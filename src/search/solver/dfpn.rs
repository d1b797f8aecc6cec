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
//! are kept in a small guide table ([`PnTable`]) keyed on the situation *and*
//! a hash of the whole history, so they never mix histories; a collision
//! there can only misguide, never decide anything.
//!
//! A node is resolved only by
//! - the end of the game (two passes), or Benson's bounds, which hold under
//!   any history;
//! - a stored proof or disproof that passes the reuse rule of
//!   [`super::super::tt`] under the current history (the same
//!   [`Table::probe_cut`](super::super::tt::Table::probe_cut) as the
//!   enhanced transposition cutoffs);
//! - one child resolved in the mover's favour: exactly a cutoff of the
//!   alpha-beta, with the same dependencies (the child's plus its candidate,
//!   [`super::prove_by_child`]);
//! - every legal child resolved against the mover: exactly an alpha-beta node
//!   that searched every move and failed, with the same dependencies (every
//!   child's plus the node's superko bans).
//!
//! So every proof and disproof df-pn stores is one the alpha-beta could have
//! derived, with the dependencies the alpha-beta would give it, and the
//! argument of [`super::super::tt`] applies unchanged. Both engines share the
//! table: the alpha-beta helpers of a parallel solve reuse df-pn's results
//! and the other way round.

use super::super::path::Path;
use super::super::tt::{Bound, Dep};
use super::super::{Node, SolveError};
use super::{child_of, prove_by_child, Solver};
use crate::rules::history::SuperkoKey;
use crate::rules::position::{Color, Move, Position};

/// Infinity for proof numbers; sums of open nodes stay below it.
const PINF: u32 = 1 << 30;

/// The 1 + ε trick (Pawlewicz & Lew 2007): the chosen child may work until
/// its number exceeds the second best's by this many percent, not merely by
/// one, so df-pn switches between siblings less often. One thread, 1 GiB
/// table: ε = 0 → 0.5: 1x10 value 1.39 M → 0.89 M nodes, 1x11 5.3 M → 4.8 M,
/// 1x9 every move 260 k → 101 k.
const EPSILON_PERCENT: u64 = 50;

/// The guide: proof and disproof numbers of unresolved nodes, and a cache of
/// Benson bounds. Both start all-zero (vacant), so their memory is handed out
/// lazily and a small solve pays nothing for their size (a solve's principal
/// variation runs df-pn tests even on 1x6).
pub(crate) struct PnTable {
    /// Per slot: the guide key and `pn | dn << 32`.
    entries: Vec<[u64; 2]>,
    mask: usize,
    /// Per slot: black, white, and `1 | lo << 8 | hi << 24` (16 bits each).
    benson: Vec<[u64; 3]>,
}

/// Log2 of the guide entries for a transposition table of `table_mb` MiB
/// (0: the default): a 32nd of the table's memory (64 MiB beside 2 GiB; at
/// least 4,096 entries). The guide only holds open nodes of the current
/// test, far fewer than the results the table keeps.
pub(crate) fn guide_bits(table_mb: usize) -> u32 {
    let mb = if table_mb == 0 { super::super::machine_table_mb() } else { table_mb };
    let entries = (mb << 20) / 32 / std::mem::size_of::<[u64; 2]>();
    entries.max(1 << 12).ilog2()
}

/// Entries of the Benson cache (a power of two).
const BENSON_CACHE: usize = 1 << 16;

impl PnTable {
    pub(crate) fn new(bits: u32) -> PnTable {
        PnTable { entries: vec![[0; 2]; 1 << bits], mask: (1 << bits) - 1, benson: vec![[0; 3]; BENSON_CACHE] }
    }
    fn get(&self, key: u64) -> Option<(u32, u32)> {
        let [k, n] = self.entries[key as usize & self.mask];
        (k == key).then_some((n as u32, (n >> 32) as u32))
    }
    /// Ask the CPU to fetch the slot of `key` (see [`Table::prefetch`](super::super::tt::Table::prefetch)).
    #[inline(always)]
    fn prefetch(&self, key: u64) {
        let i = key as usize & self.mask;
        // SAFETY: `i` is within `entries`; a prefetch only hints the cache.
        #[cfg(target_arch = "x86_64")]
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            _mm_prefetch::<_MM_HINT_T0>(self.entries.as_ptr().add(i) as *const i8);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = i;
    }
    fn put(&mut self, key: u64, pn: u32, dn: u32) {
        self.entries[key as usize & self.mask] = [key, pn as u64 | (dn as u64) << 32];
    }
    fn benson_slot(pos: &Position) -> usize {
        (mix(pos.black ^ pos.white.rotate_left(32).wrapping_mul(0x9E37_79B9_7F4A_7C15)) as usize) & (BENSON_CACHE - 1)
    }
    fn benson_get(&self, pos: &Position) -> Option<(i32, i32)> {
        let [black, white, packed] = self.benson[Self::benson_slot(pos)];
        (packed != 0 && black == pos.black && white == pos.white)
            .then_some(((packed >> 8) as u16 as i16 as i32, (packed >> 24) as u16 as i16 as i32))
    }
    fn benson_put(&mut self, pos: &Position, (lo, hi): (i32, i32)) {
        let packed = 1 | (lo as i16 as u16 as u64) << 8 | (hi as i16 as u16 as u64) << 24;
        self.benson[Self::benson_slot(pos)] = [pos.black, pos.white, packed];
    }
}

#[inline(always)]
fn mix(mut h: u64) -> u64 {
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ (h >> 33)
}

/// Hash of one situation of the history.
#[inline(always)]
fn zob(k: &SuperkoKey) -> u64 {
    mix(k.black.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ k.white.wrapping_mul(0xC2B2_AE3D_27D4_EB4F).rotate_left(29)
        ^ k.side as u64)
}

/// Guide key of `node` whose history hash (the path including it) is `hh`.
/// Not keyed by the test's b: see the children's look-up in [`Solver::mid_loop`].
#[inline(always)]
fn guide_key(node: &Node, hh: u64) -> u64 {
    let s = node.pos.black.wrapping_mul(0x2545_F491_4F6C_DD1D)
        ^ node.pos.white.rotate_left(23).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    mix(s ^ (node.to_move as u64) << 1 ^ (node.passes as u64) << 2 ^ hh.rotate_left(7))
}

impl Solver {
    /// Whether the value of `node` (the last situation of `path`) is `>= b`.
    pub(super) fn dfpn_test(&mut self, path: &mut Path, node: Node, b: i32) -> Result<bool, SolveError> {
        self.dfpn_b = b;
        if self.guide.is_none() {
            self.guide = Some(PnTable::new(self.guide_bits));
        }
        let mut dep = Dep::NONE;
        if let Some(r) = self.resolve(path, &node, b, &mut dep) {
            return Ok(r);
        }
        let hh = path.steps().iter().fold(0u64, |h, s| h.wrapping_add(zob(&s.key)));
        loop {
            let (pn, dn) = self.mid(path, node, hh, PINF, PINF, &mut dep)?;
            if pn == 0 {
                return Ok(true);
            }
            if dn == 0 {
                return Ok(false);
            }
        }
    }

    /// Benson's bounds of `node`'s coloring, through a small cache (they
    /// depend on the coloring alone, and df-pn asks for the same children
    /// each time it re-enters a node).
    fn benson(&mut self, node: &Node) -> (i32, i32) {
        let guide = self.guide.as_mut().expect("dfpn_test makes the guide");
        if let Some(b) = guide.benson_get(&node.pos) {
            return b;
        }
        let b = crate::rules::life::score_bounds(&self.geo, &node.pos);
        guide.benson_put(&node.pos, b);
        b
    }

    /// [`Solver::dfpn_test`] within a budget of `budget` nodes: the fail-hard
    /// value for the window (b − 1, b), or `None` when the budget ran out
    /// (the guide keeps what was learnt).
    pub(super) fn dfpn_within(
        &mut self,
        path: &mut Path,
        node: Node,
        b: i32,
        budget: u64,
    ) -> Result<Option<i32>, SolveError> {
        self.slice_end = self.nodes.saturating_add(budget);
        let r = self.dfpn_test(path, node, b);
        self.slice_end = u64::MAX;
        match r {
            Ok(true) => Ok(Some(b)),
            Ok(false) => Ok(Some(b - 1)),
            Err(SolveError::Interrupted) if self.slice_over => {
                self.slice_over = false;
                Ok(None)
            }
            Err(e) => Err(e),
        }
    }

    /// Resolve `node` (the last situation of `path`) without search: the end
    /// of the game, a stored proof or disproof valid here, or Benson bounds.
    fn resolve(&mut self, path: &Path, node: &Node, b: i32, dep: &mut Dep) -> Option<bool> {
        if node.is_over() {
            return Some(node.pos.score(&self.geo) >= b);
        }
        let (lo, hi) = self.benson(node);
        if lo >= b {
            return Some(true);
        }
        if hi < b {
            return Some(false);
        }
        let (lower, upper) = self.table.may_cut_window(node, b);
        if lower && self.table.probe_cut(path, node, true, b, &mut self.counters, dep).is_some() {
            return Some(true);
        }
        if upper && self.table.probe_cut(path, node, false, b - 1, &mut self.counters, dep).is_some() {
            return Some(false);
        }
        None
    }

    /// One df-pn expansion of `node` (the last situation of `path`, history
    /// hash `hh`) until its numbers reach the thresholds or it is resolved:
    /// returns its numbers (pn 0: proved ≥ b, dn 0: disproved). When resolved,
    /// its dependencies are merged into `dep_out` and the result is stored.
    fn mid(
        &mut self,
        path: &mut Path,
        node: Node,
        hh: u64,
        th_pn: u32,
        th_dn: u32,
        dep_out: &mut Dep,
    ) -> Result<(u32, u32), SolveError> {
        let ply = self.enter(path)?;
        let b = self.dfpn_b;
        // A child found open when its parent looked it up may have been
        // resolved since through another line (while its siblings were
        // expanded): one look-up here, when it is chosen.
        if let Some(r) = self.resolve(path, &node, b, dep_out) {
            return Ok(if r { (0, PINF) } else { (PINF, 0) });
        }
        let nodes_before = self.nodes;
        let black = node.to_move == Color::Black;
        let mut moves = if ply < self.buffers.len() { std::mem::take(&mut self.buffers[ply]) } else { Vec::new() };
        let mut acc = Dep::NONE;
        self.generate(path, &node, None, b - 1, b, &mut moves, &mut acc);
        let r = self.mid_loop(path, &node, hh, th_pn, th_dn, &moves, &mut acc, dep_out, nodes_before, black);
        if ply >= self.buffers.len() {
            self.buffers.resize_with(ply + 1, Vec::new);
        }
        self.buffers[ply] = moves;
        r
    }

    #[allow(clippy::too_many_arguments)]
    fn mid_loop(
        &mut self,
        path: &mut Path,
        node: &Node,
        hh: u64,
        th_pn: u32,
        th_dn: u32,
        moves: &[(Move, crate::rules::position::Position)],
        acc: &mut Dep,
        dep_out: &mut Dep,
        nodes_before: u64,
        black: bool,
    ) -> Result<(u32, u32), SolveError> {
        let b = self.dfpn_b;
        let ply = path.len() - 1;
        let all = self.geo.all();
        let n = moves.len();
        let mut pn = [0u32; 66];
        let mut dn = [0u32; 66];
        let mut hhs = [0u64; 66];
        // Dependencies of a child resolved through the table (kept clean
        // between uses: a kilobyte to clear per child otherwise).
        let mut cd = Dep::NONE;
        // First the children's keys, with their guide slots and table tags
        // prefetched: the look-ups below are cache misses (most of df-pn's
        // time on 4x4), and this way they overlap.
        for (i, &(mv, next)) in moves.iter().enumerate() {
            let child = child_of(node, mv, next);
            hhs[i] = hh.wrapping_add(zob(&path.key(child.pos, child.to_move)));
            self.guide.as_ref().unwrap().prefetch(guide_key(&child, hhs[i]));
            self.table.prefetch(&child);
        }
        for (i, &(mv, next)) in moves.iter().enumerate() {
            let child = child_of(node, mv, next);
            path.push(child.pos, child.to_move);
            let chh = hhs[i];
            // Every child is first looked up (end, Benson, a stored result
            // valid here); one still open takes its numbers from the guide,
            // which may hold them from this test or from an earlier test of
            // the same driver at another b (the guide key has no b): the
            // proof tree of "≥ 1" is a good first guess at the one of "≥ 2".
            // Numbers only choose the child to expand, so stale ones cost
            // work, never exactness. Skipping the look-up for guided children
            // (earlier) lost the transpositions resolved since, and keying the
            // guide by b threw the earlier test's tree away. One thread,
            // 1 GiB: 1x12 value 12.64 M -> 6.44 M nodes ("≥ 2" 9.7 M -> 4.1 M),
            // 1x11 value 1.37 M -> 1.06 M, 4x3 every move 1.69 M -> 1.33 M.
            let guided = self.guide.as_ref().unwrap().get(guide_key(&child, chh)).filter(|&(p, d)| p > 0 && d > 0);
            (pn[i], dn[i]) = match self.resolve(path, &child, b, &mut cd) {
                Some(true) => (0, PINF),
                Some(false) => (PINF, 0),
                None => guided.unwrap_or((1, 1)),
            };
            path.pop();
            if settle_child(black, pn[i], dn[i], acc, &mut cd) {
                return Ok(self.win(path, node, mv, next, &mut cd, dep_out, all, nodes_before, black));
            }
        }
        loop {
            // From the mover's side: `w` numbers the mover needs (proof for
            // Black), `l` those of the refutation.
            let (w, l): (&mut [u32], &mut [u32]) =
                if black { (&mut pn[..n], &mut dn[..n]) } else { (&mut dn[..n], &mut pn[..n]) };
            let mut best = usize::MAX;
            let (mut w1, mut w2) = (PINF, PINF);
            let mut lsum: u64 = 0;
            for i in 0..n {
                if w[i] < w1 {
                    w2 = w1;
                    w1 = w[i];
                    best = i;
                } else if w[i] < w2 {
                    w2 = w[i];
                }
                lsum += l[i] as u64;
            }
            let lsum = if w1 >= PINF { 0 } else { lsum.min(PINF as u64 - 1) as u32 };
            if w1 >= PINF {
                // Every move refuted.
                dep_out.merge(acc);
                dep_out.drop_from(ply);
                let (value, bound) = if black { (b - 1, Bound::Upper) } else { (b, Bound::Lower) };
                if !self.skips(ply) {
                    self.table.store(
                        path,
                        node,
                        value,
                        bound,
                        None,
                        dep_out,
                        self.nodes - nodes_before,
                        &mut self.counters,
                    );
                }
                return Ok(if black { (PINF, 0) } else { (0, PINF) });
            }
            let (npn, ndn) = if black { (w1, lsum) } else { (lsum, w1) };
            if npn >= th_pn || ndn >= th_dn {
                self.guide.as_mut().unwrap().put(guide_key(node, hh), npn, ndn);
                return Ok((npn, ndn));
            }
            // Thresholds of the chosen child, from the mover's side.
            let (th_w, th_l) = if black { (th_pn, th_dn) } else { (th_dn, th_pn) };
            let cw = th_w.min((w2 as u64 + 1).max(w2 as u64 * (100 + EPSILON_PERCENT) / 100).min(PINF as u64) as u32);
            let cl = (th_l as u64 - lsum as u64 + l[best] as u64).min(PINF as u64) as u32;
            let (cpn_th, cdn_th) = if black { (cw, cl) } else { (cl, cw) };
            let (mv, next) = moves[best];
            let child = child_of(node, mv, next);
            path.push(child.pos, child.to_move);
            let r = self.mid(path, child, hhs[best], cpn_th, cdn_th, &mut cd);
            path.pop();
            let (cpn, cdn) = r?;
            pn[best] = cpn;
            dn[best] = cdn;
            if settle_child(black, cpn, cdn, acc, &mut cd) {
                return Ok(self.win(path, node, mv, next, &mut cd, dep_out, all, nodes_before, black));
            }
        }
    }

    /// `node` is resolved in its mover's favour by move `mv` (to `next`),
    /// whose child result depends on `cd`: record, store, and return the
    /// node's numbers.
    #[allow(clippy::too_many_arguments)]
    fn win(
        &mut self,
        path: &Path,
        node: &Node,
        mv: Move,
        next: crate::rules::position::Position,
        cd: &mut Dep,
        dep_out: &mut Dep,
        all: crate::rules::geometry::Bits,
        nodes_before: u64,
        black: bool,
    ) -> (u32, u32) {
        let ply = path.len() - 1;
        let b = self.dfpn_b;
        prove_by_child(path, node, mv, next, all, cd, dep_out);
        dep_out.drop_from(ply);
        let (value, bound) = if black { (b, Bound::Lower) } else { (b - 1, Bound::Upper) };
        if !self.skips(ply) {
            self.table.store(
                path,
                node,
                value,
                bound,
                Some(mv),
                dep_out,
                self.nodes - nodes_before,
                &mut self.counters,
            );
        }
        if black {
            (0, PINF)
        } else {
            (PINF, 0)
        }
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
