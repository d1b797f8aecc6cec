//! The `proof` trace ([`Trace::Proof`](crate::search::Trace::Proof), `gosolve
//! solve --trace proof`): after each resolved df-pn test, the proof (or
//! disproof) it leaves in the table, walked and measured against the search
//! that found it. A measurement aid; it never changes what a solve finds.
//!
//! # Why
//!
//! A proof is the part of the search a perfect move order would have needed:
//! at the prover's nodes (Black's in a proof of "≥ b", White's in a
//! refutation) one move whose child keeps the bound, at the opponent's every
//! move. Its size against the nodes the test entered says how much search
//! control can still win, and where the rest of the nodes went says where
//! to look (on 5x5 game 3 at 20 empty: 12.3 M nodes for a refutation of
//! about 0.44 M, most of the rest below moves the prover left open near the
//! test's root; 2026-11-27, `results/solve.md`).
//!
//! # What is counted
//!
//! The walk starts at the test's root and follows, at the prover's nodes,
//! the move the table names as best when its child keeps the bound (else
//! the first child that does), and at the opponent's nodes every child the
//! shared generator gives (mirror moves skipped as in the search). A child
//! keeps the bound as [`Solver::resolve_at`] says: the end of the game,
//! Benson's or the guarded bounds (a leaf decided without search), or a
//! stored result valid under this history (an inner node, walked on). Each
//! situation is walked once (by table key), so transpositions count once.
//! A child with no such answer (its result replaced in the table since, or
//! one only valid under another history) is counted as without a result
//! and not walked: the sizes are then lower bounds.
//!
//! Beside the walk, the search keeps while tracing the distinct nodes each
//! test entered and the nodes it spent below each (node, move) pair, both
//! counted since the last resolved test (so a budgeted test interleaved
//! with others is counted with the next test to be resolved).

use super::Solver;
use crate::rules::position::{Color, Move};
use crate::search::tree::node::Node;
use crate::search::tree::path::Path;
use crate::search::tt::Dep;
use std::collections::{HashMap, HashSet};

/// What the search counts for the trace, since the last resolved test.
#[derive(Default)]
pub(super) struct Tally {
    /// The table key hashes of the nodes entered.
    entered: HashSet<u64>,
    /// Nodes spent below each move of each node, by the node's guide key.
    spent: HashMap<(u64, Move), u64>,
    /// Nodes entered (each entry of df-pn's recursion).
    entries: u64,
}

impl Tally {
    pub(super) fn enter(&mut self, key_hash: u64) {
        self.entries += 1;
        self.entered.insert(key_hash);
    }
    pub(super) fn spend(&mut self, guide_key: u64, mv: Move, nodes: u64) {
        *self.spent.entry((guide_key, mv)).or_default() += nodes;
    }
}

/// The counts of one walk.
#[derive(Default)]
struct Walk {
    seen: HashSet<u64>,
    prover: u64,
    opponent: u64,
    leaves: u64,
    missing: u64,
    /// Nodes spent below the moves of the proof's prover nodes that the
    /// proof does not take: moves left open, refuted, or also proving.
    /// They are counted by situation, over every line that reached it, so
    /// a subtree met again by a transposition counts at each place and the
    /// sums can pass the nodes entered (game 3 at 20 empty, "≥ 0": 12.6 M
    /// left open of 12.3 M entered): shares, not a partition.
    open: u64,
    refuted: u64,
    other: u64,
    /// Prover's nodes where a proving move was the prior's first choice.
    prior_first: u64,
    /// The costliest detours: nodes spent beside the proof's move, and a
    /// line describing the node.
    detours: Vec<(u64, String)>,
}

/// How many detours the report names.
const DETOURS: usize = 3;

impl Solver {
    /// Print the proof of the resolved test "≥ b" at `node` (the last
    /// situation of `path`), whose fail-soft answer is `g`, and clear the
    /// tally for the next test.
    pub(super) fn report_proof(&mut self, path: &mut Path, node: Node, b: i32, g: i32) {
        let holds = g >= b;
        let mut w = Walk::default();
        let base = path.len() - 1;
        self.walk_proof(path, node, b, holds, base, &mut w);
        let tally = self.dfpn.proof.take().unwrap_or_default();
        let in_proof = w.seen.iter().filter(|k| tally.entered.contains(k)).count();
        let entries = tally.entries;
        eprintln!(
            "proof of test >= {b} ({holds}) at ply {base}: {} nodes ({} the prover's, {} the opponent's), \
             {} leaves decided without search, {} children without a result",
            w.prover + w.opponent,
            w.prover,
            w.opponent,
            w.leaves,
            w.missing
        );
        eprintln!(
            "  the search since the last proof: {entries} nodes entered, {} of them distinct, {in_proof} of those in the proof",
            tally.entered.len()
        );
        eprintln!(
            "  nodes below the other moves of the proof's prover nodes: left open {}, refuted {}, also proving {}",
            w.open, w.refuted, w.other
        );
        eprintln!("  the prior ranked a proving move first at {} of {} prover's nodes", w.prior_first, w.prover);
        w.detours.sort_by_key(|d| std::cmp::Reverse(d.0));
        for (_, line) in w.detours.iter().take(DETOURS) {
            eprintln!("  detour: {line}");
        }
        self.dfpn.proof = Some(Tally::default());
    }

    /// Walk the proof (`holds`) or refutation of "≥ b" below `node`.
    fn walk_proof(&mut self, path: &mut Path, node: Node, b: i32, holds: bool, base: usize, w: &mut Walk) {
        let keeps = |g: i32| if holds { g >= b } else { g < b };
        let mut dep = Dep::NONE;
        if self.resolve_static(path, &node, b, &mut dep).is_some() {
            w.leaves += 1;
            return;
        }
        let key = self.tt.key(&node);
        if !w.seen.insert(key.hash()) {
            return;
        }
        let ply = path.len() - 1;
        let mut moves = self.order.take_buffer(ply);
        let mut acc = Dep::NONE;
        self.generate(path, &node, None, b - 1, b, &mut moves, &mut acc);
        // Each child's answer: Some(true) keeps the bound, Some(false) does
        // not, None unknown here.
        let mut answers = Vec::with_capacity(moves.len());
        for &(mv, next) in moves.iter() {
            let child = node.child(mv, next);
            path.push(child.pos, child.to_move);
            let ck = self.tt.key(&child);
            let mut cd = Dep::NONE;
            answers.push(self.resolve_at(path, &child, &ck, b, &mut cd).map(keeps));
            path.pop();
        }
        let prover = if holds { Color::Black } else { Color::White };
        if node.to_move == prover {
            w.prover += 1;
            let mut scratch = Dep::NONE;
            let hint = self.tt.probe(path, &node, &mut scratch).and_then(|p| p.best);
            let keeping = |i: usize| answers[i] == Some(true);
            let chosen = (0..moves.len())
                .find(|&i| keeping(i) && Some(moves[i].0) == hint)
                .or_else(|| (0..moves.len()).find(|&i| keeping(i)));
            let mut ranks = vec![0; moves.len()];
            self.prior_ranks(&node, b, &moves, &mut ranks);
            if (0..moves.len()).any(|i| keeping(i) && ranks[i] == 0) {
                w.prior_first += 1;
            }
            match chosen {
                None => w.missing += 1,
                Some(c) => {
                    self.tally_detour(path, &key, &moves, &answers, &ranks, c, base, w);
                    let (mv, next) = moves[c];
                    let child = node.child(mv, next);
                    path.push(child.pos, child.to_move);
                    self.walk_proof(path, child, b, holds, base, w);
                    path.pop();
                }
            }
        } else {
            w.opponent += 1;
            for (i, &(mv, next)) in moves.iter().enumerate() {
                if answers[i] != Some(true) {
                    w.missing += 1;
                    continue;
                }
                let child = node.child(mv, next);
                path.push(child.pos, child.to_move);
                self.walk_proof(path, child, b, holds, base, w);
                path.pop();
            }
        }
        self.order.put_buffer(ply, moves);
    }

    /// Add the nodes spent below each move of the prover's node (the last
    /// of `path`, table key `key`; the proof takes move `c`) to the walk's
    /// sums, and note the node as a detour when moves beside `c` cost
    /// anything.
    #[allow(clippy::too_many_arguments)]
    fn tally_detour(
        &self,
        path: &Path,
        key: &crate::search::tt::NodeKey,
        moves: &[(Move, crate::rules::position::Position)],
        answers: &[Option<bool>],
        ranks: &[u32],
        c: usize,
        base: usize,
        w: &mut Walk,
    ) {
        let Some(tally) = self.dfpn.proof.as_ref() else { return };
        // The node's guide key as df-pn made it (on strips with the hash of
        // the history: see `DfpnState`).
        let gk = self.guide_key(key, self.history_hash(path));
        let mut beside = 0;
        let mut items = Vec::new();
        for (i, &(mv, _)) in moves.iter().enumerate() {
            let n = tally.spent.get(&(gk, mv)).copied().unwrap_or(0);
            if n == 0 {
                continue;
            }
            let what = match answers[i] {
                _ if i == c => "proof's move",
                Some(true) => {
                    w.other += n;
                    "also proving"
                }
                Some(false) => {
                    w.refuted += n;
                    "refuted"
                }
                None => {
                    w.open += n;
                    "open"
                }
            };
            if i != c {
                beside += n;
            }
            items.push((n, format!("{} (rank {}, {what}) {n}", mv.name(&self.geo), ranks[i])));
        }
        if beside > 0 {
            items.sort_by_key(|it| std::cmp::Reverse(it.0));
            let list: Vec<&str> = items.iter().take(5).map(|it| it.1.as_str()).collect();
            let line = format!(
                "{beside} nodes beside the proof's move at ply {} ({} below the test's root): {}",
                path.len() - 1,
                path.len() - 1 - base,
                list.join(", ")
            );
            w.detours.push((beside, line));
            // Keep only the costliest few.
            if w.detours.len() > 4 * DETOURS {
                w.detours.sort_by_key(|d| std::cmp::Reverse(d.0));
                w.detours.truncate(DETOURS);
            }
        }
    }
}
