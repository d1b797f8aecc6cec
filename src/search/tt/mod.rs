//! The transposition table, and why it is sound under superko.
//!
//! # The problem (graph history interaction)
//!
//! Under superko the legal moves at a node depend on every situation that
//! occurred before it, so the value of a position depends on its history. A
//! table keyed on the position alone is wrong: a result proven under one
//! history can be false under another, because a move that was legal there is
//! banned here, or the other way round (Kishimoto & Müller 2004).
//!
//! # What a result depends on
//!
//! A result at node N (a bound or an exact value, from a window search under
//! history H, the situations strictly above N on the path) is derived from a
//! proof tree below N. The only way H enters that derivation is through the
//! superko test of each *candidate*: the coloring produced by playing a point
//! (occupied points and forbidden suicides produce none; a pass is never
//! tested). A candidate `t` generated at a node M below N is banned iff its key
//! occurs in `H ∪ path(N..M)`. The part `path(N..M)` is the same under any
//! history; terminal scores depend on the coloring only.
//!
//! ## One-sided dependencies
//!
//! Not every legality decision matters, and not in both directions. Take a
//! result "value ≥ b" (the argument for "≤" is the mirror image):
//! - at a Black node it was proved by one move (a cutoff, or the best move
//!   of an exact value). That move must still be legal under H': its
//!   candidate must be *absent* from H'. Black's other moves do not matter.
//! - at a White node every legal White move was refuted. If under H' some
//!   of them are banned, White chooses among fewer moves and the minimum can
//!   only rise: still ≥ b. What must not happen is a move banned under H
//!   becoming legal: its ban (a *hit*, a situation of H) must be *present*
//!   in H'. White's legal candidates impose nothing.
//!
//! An exact value is both bounds, so it needs both: the best move's candidate
//! absent, and the mover's bans present. A fail-soft value stays a valid bound
//! under H' for the same reasons (a max over a superset, a min over a subset).
//!
//! So each result carries a [`Dep`] describing
//! - T, the candidates that must stay absent (the provers' chosen moves in the
//!   proof tree), listed exactly while there are at most [`ABS`], and always
//!   over-approximated by a `box` (for every point, which of black / white /
//!   empty it is in *some* member of T; boxes combine by OR) and a Bloom
//!   filter of the colorings ([`BLOOM_WORDS`](crate::search::tree::hash::BLOOM_WORDS) words: its precision decides
//!   how often big results can be reused on long paths);
//! - K, the hits: situations of H (above N) that banned a move at a node whose
//!   every move was searched (tracked as plies of the path, converted to exact
//!   keys when stored).
//!
//! ## Guarded bounds: patterns
//!
//! A static bound may also depend on the history: [`crate::search::bounds::guarded`] counts
//! the two-point regions of a player's pass-alive stones A as its own only if
//! no situation of the history (and the path) has that player's stones on all
//! of A and on a point of the regions: a capture the bound relies on would
//! repeat such a situation. A result derived with it carries that condition as
//! a *pattern* (P: the colour, the required points A, the points of which one
//! must be occupied); under H' the same derivation is valid if no situation
//! of H' matches a pattern (the path below N was checked where the bound was
//! used, and is the same under any history). Patterns merge like T: up to two
//! per colour, and a third is merged into the closest one by intersecting the
//! required points and joining the others, which matches every situation
//! either matched, so merging only forbids reuse.
//!
//! # Symmetry
//!
//! Go's rules commute with the board's symmetries: if a result holds at N
//! under history H with dependencies (T, K, P), then for a symmetry s the
//! same value holds at s(N) under s(H) with dependencies (s(T), s(K), s(P)),
//! by the image of the same derivation. So the table stores every node under
//! the canonical image of its position, with the symmetry that maps the node
//! onto it (its *orientation*), and keeps the dependencies in the frame of
//! the node where the result was found. A node N' with the same canonical
//! key is the image of that node under a symmetry u (composed from the two
//! orientations), and the stored result holds at N' if the reuse rule below
//! holds for (u(T), u(K), u(P)) under N''s history; what a probe merges into
//! its caller's dependencies is those images too. A listed T, K and P are
//! mapped point by point, and so is the box of a big T. Its Bloom filter
//! cannot be (it keeps no members), so it is made not to need it: the filter
//! holds the *canonical* colorings of T's members (the least image under the
//! board's symmetries, [`Path::canon`]), and a situation q of the path is
//! tested by its canonical coloring. Since canon(u(t)) = canon(t), the same
//! filter over-approximates u(T) for every u (with the other images of T as
//! extra false positives, which can only forbid reuse); the box, mapped by
//! u, over-approximates u(T) too, and a situation conflicts only if it is in
//! both. So a big T is reused in any frame, and what a probe passes on (the
//! mapped box and the filter as it is) describes u(T) in the node's frame.
//! Before this, a result with a big T was reused only in its own frame:
//! on the empty 4x4 board nine rejections in ten were of that kind (1.3 M of
//! 1.45 M, one thread), and two threads took 14.4 s for the value where
//! they took 4.6–6.9 s after (2026-11-24, `results/solve.md`).
//! The best move a result suggests is mapped by u as well, and so is the
//! set S of path symmetries (below): a history fixed by s is mapped onto one
//! fixed by u s u⁻¹, so each member of S is conjugated by u.
//! # Path symmetry: S
//!
//! The solver skips mirror moves at every node whose whole history is
//! symmetric (`Solver::generate`). Let G(M) be the board symmetries s (identity
//! excluded) that fix *every* situation of the path from the game's start
//! down to and including M, one by one ([`Path::symmetric`]; it only shrinks
//! down the path). For s in G(M) the game tree below M is s-symmetric: the
//! rules commute with s, s fixes M (its coloring; player and passes are
//! untouched), and a situation t is banned below M iff it is in `H ∪
//! path(..M)`, iff s(t) is (that set is fixed by s member by member). So the
//! child reached by s(q) is the image of the child reached by q, under the
//! same history, and has the same value: at M the generator keeps the first
//! move of each orbit (in point order) and skips the others. A skipped move
//! is also banned exactly when its kept mirror is (its child is the image of
//! the mirror's child, and the history is fixed by s), so banned moves are
//! never skipped, only recorded as hits.
//!
//! Which derivations rely on it is one-sided, as for the hits: a cutoff (a
//! bound proved by one move, in df-pn a child resolved in the mover's
//! favour) goes through one generated child and needs nothing of the
//! skipped ones. A node where every move counted (every move refuted, or an
//! exact value) relied on each skipped move having its mirror's value: it
//! records the symmetries it skipped by in S (a bitmask over the board's
//! symmetries, in the order of [`crate::rules::symmetry::symmetries`], the
//! same for every path on the board; merged by OR). S is never dropped when
//! a result is stored (unlike hits, which [`Dep::drop_from`] forgets below
//! the node): a symmetry used at a node M is a condition on every situation
//! above M, and so on the history above every ancestor of M.
//!
//! Why clause 4 below is the right condition. Let a result at N be derived
//! under history H and let s in S come from a node M of its proof tree (M is
//! N or below it, reached by the moves path(N..M) of the proof; or s came
//! with a table entry used at M, whose own clause 4 held there). Then s was
//! in G(M) under H: s fixes every situation of `H ∪ path(N..M)`, in
//! particular of path(N..M), which is determined by the proof tree alone and
//! is the same under any history. Under H', clause 4 asks s in G(N): s fixes
//! every situation of H' and N itself. Together s fixes every situation of
//! `H' ∪ path(N..M)`, so s is in G(M) under H' as well: the tree below M is
//! s-symmetric there too, each skipped move still has its kept mirror's
//! value (the mirror's own result is valid under H' by the other clauses,
//! applied to its subtree by induction), and if the mirror is banned under
//! H' so is the skipped move (the refuted side then only has fewer moves).
//! An entry reused at M inside the derivation is valid under H' by the same
//! argument, its S being part of N's. The clause cannot be dropped: a
//! history with a situation t above N but not s(t) can ban a move below M
//! and leave its mirror legal (the test
//! `a_symmetric_result_is_not_reused_under_an_asymmetric_history` in
//! `search::engines::solver` fails without clause 4). A weaker one would do: that s
//! map the *set* of situations of H' onto itself (as the root's
//! [`crate::rules::symmetry::game_stabilizer`] asks); G asks it member by
//! member, which is a group that only shrinks down the path and costs one
//! mask test.
//!
//! The price: a result derived with skipped moves on a symmetric line does
//! not serve the same node reached by an asymmetric history; the node is
//! searched again there, its skipped children included.
//!
//! # The reuse rule
//!
//! A stored result for the same node key (coloring, player to move, pass
//! count) is used under a history H' only when
//! 1. every stored hit occurs in H' (so every ban of the derivation holds),
//! 2. no situation of H' is in T: with T listed exactly, no member occurs on
//!    the path; otherwise every situation q of H' — other than the node's own
//!    key — whose coloring is in the box and the filter is one of the stored
//!    hits or one of the cleared situations (below), mapped onto the node
//!    (members of T were legal, so they are neither hits nor N's own key;
//!    both filters have no false negatives);
//! 3. no situation of H' matches a stored pattern (P above), other than a
//!    big result's cleared situations (below);
//! 4. every stored symmetry (S above) is in G(N) under H': it fixes every
//!    situation of H' and N itself.
//!
//! Then every chosen move of the proof is legal under H', every refuted side
//! has at most the moves it had (each skipped move counted through its
//! mirror), and the result holds under H'. Occurrences of
//! the node's own key above N are harmless: any candidate equal to it is
//! banned under both histories by N itself, and the path attributes such bans
//! to the latest occurrence, which is at or below N.
//!
//! [`Table::probe_cut`] (enhanced transposition cutoffs in the solver)
//! applies the same rule, only to the entries whose bound could cut.
//!
//! # Big results under their own history: cleared situations
//!
//! The filter of a big proof near the root fills up: the root result of
//! van der Werf's 5x5 line after 13 plies had 8,144 of its 8,192 bits set,
//! so nearly every situation of any path was falsely "in T", and the
//! result was rejected even under the history it was proved under. A
//! proof could then not be resumed from a checkpoint, nor serve as a step
//! of a longer one (2026-11-26, `results/solve.md`).
//!
//! Merged patterns do the same on a smaller scale: a merge keeps the
//! points both patterns require and joins the others, so the merged
//! pattern can match a situation of H that neither part matched. The
//! 9-ply root result of that line was rejected so under its own history
//! (clause 3, two patterns), and so were nearly all the big results just
//! below it.
//!
//! So a big result also keeps, in its slot, the situations of the history
//! H it is stored under that would otherwise forbid its reuse there: those
//! the box and the filter match (other than the node's own key and the
//! stored hits) and those a stored pattern matches (the oldest first, up
//! to [`entry::CLEAR`]): the *cleared* situations. No situation of H is in
//! T or matches a pattern of the derivation:
//! - every member of T is a candidate of the proof tree that was legal
//!   there: one generated at a node M below N, so absent from
//!   `H ∪ path(N..M)`, or one of an entry used at M, which by clause 2 held
//!   there under `H ∪ path(N..M)` (by induction, clause 2 as given here
//!   only lets through situations that are not in that entry's T);
//! - every pattern comes from a guarded bound used at a node M, which
//!   checked that no situation of `H ∪ path(..M)` matches it, or from an
//!   entry used at M, which by clause 3 held there (again by induction).
//!
//! The stored T and P only over-approximate these, so a situation of H
//! that they match is a false match. So under H' a situation q that is a
//! cleared situation is neither in T nor matches a true pattern, and
//! clauses 2 and 3 need the filter and the stored patterns only for the
//! others; under H itself there are none left (as long as all fit). Small
//! results have no slot and keep clause 3 as it was.
//!
//! The cleared situations are kept exactly and in the frame of the
//! result's dependencies, and a node reached through symmetry u tests its
//! path against their images under u (it maps q back by u⁻¹). Comparing
//! canonical colorings, as the filter does, would not be sound: a
//! situation of H' that is another image v(h) of a cleared h, with v ≠ u,
//! may well be a member of u(T) (the test
//! `a_full_filter_is_reused_under_its_own_history` checks that such a
//! path is rejected).
//!
//! Results that used table entries inside their derivation inherit those
//! entries' T, K, P and S (hits mapped to plies of the current path), so the
//! argument applies by induction: an inner entry validated under `H ∪
//! path(N..M)` stays valid under `H' ∪ path(N..M)`, because its hits above N
//! are hits of N (present in H'), its T is part of N's T (absent from H'),
//! its P is part of N's P, and its S is part of N's S (so clause 4 at N gives
//! clause 4 at M, as shown under "Path symmetry").
//!
//! # Hints
//!
//! The solver's iterative deepening also stores `Unknown` entries: "within
//! d plies neither side of this null window could be proved". They only
//! save work and suggest a move to try first; they never stand for a value,
//! so they need no soundness argument (the last iteration has no horizon and
//! ignores them).
//!
//! # Precision is speed, never soundness
//!
//! The box and the Bloom filter only ever over-approximate T, so a coarser
//! filter can only forbid reuse, never allow a wrong one. But how coarse it
//! is decides the speed: proof trees of ko fights have hundreds of
//! candidates, the paths above them are long, and with a 256-bit filter
//! almost every path had a situation falsely in it (1x9 took 1.6 G nodes;
//! with 8,192 bits, 0.9 M; see `results/solve.md`).
//!
//! The table keys are exact (both bitboards, side to move, pass count): a hash
//! collision (or a tag collision, see [`Table`]) costs a probe, never a wrong
//! answer.
//!
//! # What is stored is what is reused
//!
//! The table keeps each result as a record ("Records" in [`entry`]): the
//! entry's words without the unused ones, and a big T's filter as the
//! Rice-coded gaps between its set bits (or as its words). Decoding gives
//! back exactly the entry and slot that were stored (every key, side,
//! pattern, symmetry, box bit, filter bit and cleared situation; the
//! tests `records_round_trip` and, in debug builds, every store check it),
//! so every clause above reads the same dependencies as before the records
//! (2026-11-28): no reuse condition is looser or stricter, only more
//! results fit in the same memory. Which results the table keeps (its
//! replacement) decides only what is searched again, never a value.
//!
//! # Where the code is
//!
//! - [`dep`]: what a result depends on ([`Dep`]: T as list, box and Bloom
//!   filter; K as plies; P; S as a mask), and how dependencies combine
//!   (merge, drop below a node);
//! - [`entry`]: what one result holds (an [`entry::Entry`] with K, P, S and
//!   a small T as stored keys; a large T's box, filter and cleared
//!   situations in an [`entry::BloomSlot`]), the record it is kept as in
//!   the table, and its tag;
//! - [`storage`]: the bucketed, lock-striped [`Table`] of records, its
//!   probes, stores and replacement;
//! - here: the reuse rule itself ([`reusable`]), which every probe applies.

pub mod dep;
pub mod entry;
pub mod storage;

pub use dep::{Dep, Pattern, ABS, MAX_HITS, PATTERNS};
pub use entry::{Bound, NodeKey, Probe};
pub use storage::{work_rank, Census, Churn, SavedEntry, SavedEntryFixed, SavedEntryV1, Table, TableCounters};

use crate::rules::geometry::Bits;
use crate::rules::history::SuperkoKey;
use crate::rules::position::Position;
use crate::rules::symmetry::SymmetryTables;
use crate::search::tree::hash::{bloom_bits_of, canonical_bloom_hash};
use crate::search::tree::node::Node;
use crate::search::tree::path::Path;
use dep::may_contain;
use entry::{BigView, BloomSlot, Entry};

/// The version of what a [`SavedEntry`] means. Raise it whenever an entry's
/// fields change meaning (a new kind of dependency, another bound code,
/// another reuse rule): a checkpoint written before is then refused rather
/// than read as if it meant the same, unless it is converted on reading
/// (format 1: [`format_fingerprint_v1`]). Format 2 added the cleared
/// situations of a big result's slot.
const FORMAT_VERSION: u64 = 2;

/// A fingerprint of everything a saved entry's meaning rests on, on board
/// `geo`: [`FORMAT_VERSION`], the sizes of the entry's lists, the Bloom
/// filter's hash functions (a filter built by other functions could miss a
/// member of T, and a result would be reused where it does not hold) and
/// the numbering of the board's symmetries (an entry's orientation and its
/// path symmetries are numbers). A checkpoint records it and is only read
/// back by a program that computes the same fingerprint.
pub fn format_fingerprint(geo: &crate::rules::geometry::Geometry) -> u64 {
    fingerprint_of(geo, FORMAT_VERSION, std::mem::size_of::<BloomSlot>())
}

/// The [`format_fingerprint`] of table format 1, whose big results kept no
/// cleared situations: its checkpoints are still read
/// ([`SavedEntryV1`]), their big results with none cleared, which is as
/// sound as it was then.
pub fn format_fingerprint_v1(geo: &crate::rules::geometry::Geometry) -> u64 {
    fingerprint_of(geo, 1, std::mem::size_of::<storage::BloomSlotV1>())
}

fn fingerprint_of(geo: &crate::rules::geometry::Geometry, version: u64, slot_bytes: usize) -> u64 {
    let t = SymmetryTables::new(geo);
    let mut words = vec![
        version,
        std::mem::size_of::<Entry>() as u64,
        slot_bytes as u64,
        ABS as u64,
        MAX_HITS as u64,
        PATTERNS as u64,
        crate::search::tree::hash::BLOOM_WORDS as u64,
        t.count() as u64,
    ];
    for s in 0..t.count() {
        words.extend((0..geo.points() as u8).map(|p| t.point(s, p) as u64));
    }
    // Sample colorings: their canonical Bloom hashes and filter bits.
    let all = geo.all();
    for k in 0..16u64 {
        let black = crate::search::tree::hash::mix(k.wrapping_mul(0x9e37_79b9_7f4a_7c15)) & all;
        let white = crate::search::tree::hash::mix(!k) & all & !black;
        let h = canonical_bloom_hash(&t, &Position { black, white });
        words.push(h);
        words.extend(bloom_bits_of(h).iter().map(|&b| b as u64));
    }
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    crate::store::fnv1a64(&bytes)
}

/// The reuse rule of the module documentation: whether entry `e` (keyed on
/// `node`; `big` is a big T's box, filter and cleared situations, as its
/// record keeps them) holds at the end of `path` on a board whose points
/// are `all`. On success the entry's dependencies, expressed on the current
/// path, are merged into `fill`.
///
/// `to_node` is the symmetry that maps the frame of the entry's dependencies
/// onto the node (0: the same frame; see "symmetry" in the module
/// documentation): the dependencies are then mapped by it first (for a big
/// T its box; the filter holds canonical colorings and needs no mapping).
///
/// The clauses are tested cheapest first (the result is their conjunction,
/// so the order changes nothing else), and a big T's filter, Rice-coded in
/// its record, is decoded only when clause 2 or the merge needs it.
#[allow(clippy::too_many_arguments)]
fn reusable(
    e: &Entry,
    mut big: Option<&mut BigView>,
    path: &Path,
    node: &Node,
    all: Bits,
    fill: Option<&mut Dep>,
    sym: &SymmetryTables,
    to_node: usize,
) -> bool {
    debug_assert_eq!(e.big(), big.is_some(), "a big entry comes with its view");
    let here = path.len() - 1;
    // The entry in the node's frame (copied only when another frame needs
    // the mapping).
    let mapped = (to_node != 0).then(|| e.mapped(sym, to_node));
    let e = mapped.as_ref().unwrap_or(e);
    // 4. (first: one mask test) every situation down to this node is fixed
    // by every stored symmetry
    if e.sym & !path.symmetric() != 0 {
        return false;
    }
    // 1. every stored hit occurs above this node
    let mut plies = [0u32; MAX_HITS];
    for (i, ply) in plies.iter_mut().enumerate().take(e.nhits as usize) {
        match path.latest(&e.hit(i)) {
            Some(p) if (p as usize) < here => *ply = p,
            _ => return false,
        }
    }
    // The box of a big T in the node's frame.
    let ever = big.as_ref().map(|v| if to_node == 0 { v.ever } else { v.ever.map(|b| sym.image(to_node, b)) });
    // 3. no situation above this node matches a pattern (a big result's
    // cleared situations excepted)
    {
        let view = big.as_deref();
        let cleared = |q: &SuperkoKey| view.is_some_and(|v| v.clears(q, sym, to_node));
        if (0..PATTERNS).any(|i| e.pattern(i).occurs_in_unless(&path.steps()[..here], cleared)) {
            return false;
        }
    }
    // 2. no candidate occurs above this node
    let absent = match (&mut big, &ever) {
        (Some(v), Some(ever)) => big_candidates_absent(e, ever, v, path, node, all, sym, to_node),
        _ => (0..e.nabs as usize).all(|i| path.latest(&e.cand(i)).is_none()),
    };
    if !absent {
        return false;
    }
    if let Some(dep) = fill {
        match (big, &ever) {
            (Some(v), Some(ever)) => dep.merge_filter(ever, v.bloom()),
            _ => {
                let canon = |k: &SuperkoKey| canonical_bloom_hash(sym, &Position { black: k.black, white: k.white });
                dep.merge_listed(&e.cands()[..e.nabs as usize], canon, all);
            }
        }
        dep.merge_patterns(&e.patterns());
        dep.sym |= e.sym;
        for &p in &plies[..e.nhits as usize] {
            dep.add_hit(p);
        }
    }
    true
}

/// Rule 2 of the module documentation for entry `e` with a big T (`ever`:
/// its box in the node's frame; `big`: its filter and cleared situations;
/// `to_node` as for [`reusable`]): every situation above this node in the
/// box and the filter is a stored hit or a cleared situation. The box is
/// tested first, so the filter is decoded only when a situation is in it.
#[allow(clippy::too_many_arguments)]
fn big_candidates_absent(
    e: &Entry,
    ever: &[Bits; 3],
    big: &mut BigView,
    path: &Path,
    node: &Node,
    all: Bits,
    sym: &SymmetryTables,
    to_node: usize,
) -> bool {
    let here = path.len() - 1;
    let own = path.key(node.pos, node.to_move);
    !(0..here).any(|ply| {
        let q = &path.steps()[ply].key;
        in_box(ever, q, all)
            && *q != own
            && in_filter(big.bloom(), path.step_canon(ply))
            && !(0..e.nhits as usize).any(|i| e.hit(i) == *q)
            && !big.clears(q, sym, to_node)
    })
}

/// Whether situation `q` is in the box `ever` (see [`dep::may_contain`]).
#[inline(always)]
fn in_box(ever: &[Bits; 3], q: &SuperkoKey, all: Bits) -> bool {
    q.black & !ever[0] == 0 && q.white & !ever[1] == 0 && (all & !(q.black | q.white)) & !ever[2] == 0
}

/// Whether every filter bit of the canonical Bloom hash `canon` is set in
/// `bloom` (see [`dep::may_contain`]).
#[inline(always)]
fn in_filter(bloom: &[u64; crate::search::tree::hash::BLOOM_WORDS], canon: u64) -> bool {
    bloom_bits_of(canon).iter().all(|&a| bloom[a >> 6] & (1 << (a & 63)) != 0)
}

/// Whether the situation at `ply` of `path` may be in a big T with box
/// `ever` and filter `bloom` (in the node's frame), other than the node's
/// own key `own`: rule 2 must then find it among the stored hits or the
/// cleared situations.
#[inline(always)]
fn may_be_candidate(
    ever: &[Bits; 3],
    bloom: &[u64; crate::search::tree::hash::BLOOM_WORDS],
    path: &Path,
    ply: usize,
    own: &SuperkoKey,
    all: Bits,
) -> bool {
    let q = &path.steps()[ply].key;
    // A situation whose first filter bit is not set cannot be in the
    // filter: one bit test before the full test.
    let canon = path.step_canon(ply);
    let b0 = bloom_bits_of(canon)[0];
    bloom[b0 >> 6] >> (b0 & 63) & 1 != 0 && q != own && may_contain(ever, bloom, q, canon, all)
}

/// Hand-built paths and table helpers shared by the tests of the table's
/// modules.
#[cfg(test)]
pub(crate) mod fixtures {
    pub(crate) use super::*;
    use crate::rules::geometry::Geometry;
    use crate::rules::history::Game;
    use crate::rules::position::Rules;
    pub(crate) use crate::rules::position::{Color, Move, Position};

    pub(crate) const ALL: Bits = 0b11_1111;

    pub(crate) fn geo() -> Geometry {
        Geometry::new(1, 6).unwrap()
    }

    pub(crate) fn pos(black: Bits, white: Bits) -> Position {
        Position { black, white }
    }

    /// The `code`-th coloring of the six-point strip: point i's color is
    /// the i-th base-3 digit of `code` (1 black, 2 white, 0 empty).
    pub(crate) fn coloring(code: usize) -> Position {
        let (mut black, mut white, mut c) = (0, 0, code);
        for p in 0..6 {
            match c % 3 {
                1 => black |= 1 << p,
                2 => white |= 1 << p,
                _ => {}
            }
            c /= 3;
        }
        pos(black, white)
    }

    /// A path through the given colorings (the first is the game's start),
    /// colors to move alternating from Black, and the node at its end.
    pub(crate) fn path_of(colorings: &[Position]) -> (Path, Node) {
        let game = Game::new(geo(), Rules::default(), colorings[0], Color::Black).unwrap();
        let mut path = Path::from_game(&game);
        let mut to_move = Color::Black;
        for &p in &colorings[1..] {
            to_move = to_move.opponent();
            path.push(p, to_move);
        }
        let last = *colorings.last().unwrap();
        (path, Node { pos: last, to_move, passes: 0 })
    }

    pub(crate) fn key(p: Position) -> SuperkoKey {
        SuperkoKey { black: p.black, white: p.white, side: 0 }
    }

    /// `p` as a candidate (its key and canonical Bloom hash, as
    /// [`Path::candidate`] gives them).
    pub(crate) fn cand(p: Position) -> (SuperkoKey, u64) {
        let game = Game::new(geo(), Rules::default(), Position::EMPTY, Color::Black).unwrap();
        (key(p), Path::from_game(&game).canon(&p))
    }

    pub(crate) fn table() -> Table {
        Table::new(1, &geo())
    }

    /// Store `value` as `bound` at the end of `path` with `dep`.
    pub(crate) fn put(t: &Table, path: &Path, node: &Node, value: i32, bound: Bound, dep: &Dep) {
        t.store(path, node, value, bound, Some(Move::Pass), dep, 100, &mut TableCounters::default());
    }

    /// The proved result the table gives at the end of `path`, if any.
    pub(crate) fn proved(t: &Table, path: &Path, node: &Node) -> Option<(i32, Bound)> {
        let mut dep = Dep::NONE;
        t.probe(path, node, &mut TableCounters::default(), &mut dep)
            .filter(|p| !matches!(p.bound, Bound::Unknown { .. } | Bound::MoveOnly))
            .map(|p| (p.value, p.bound))
    }

    // Colorings of the strip used below (bit i = point i).
    pub(crate) const S0: Position = Position { black: 0, white: 0 };
    pub(crate) const S1: Position = Position { black: 0b000001, white: 0 };
    pub(crate) const S2: Position = Position { black: 0b000001, white: 0b000010 };
    pub(crate) const S3: Position = Position { black: 0b000101, white: 0b000010 };
    pub(crate) const C1: Position = Position { black: 0b100101, white: 0b000010 };
    pub(crate) const C2: Position = Position { black: 0b000101, white: 0b010010 };
}

/// One test per clause of the reuse rule of the module documentation, on
/// hand-built paths of a 1×6 strip (the table does not check that a path is
/// a legal game, so each clause can be isolated).
#[cfg(test)]
mod tests {
    use super::fixtures::*;

    #[test]
    fn same_path_reuses_a_result() {
        let t = table();
        let (path, node) = path_of(&[S0, S1, S2, S3]);
        put(&t, &path, &node, 3, Bound::Exact, &Dep::NONE);
        assert_eq!(proved(&t, &path, &node), Some((3, Bound::Exact)));
    }

    /// Clause 2, candidates listed exactly: a chosen move's candidate that
    /// occurs on the new path would be banned there, so no reuse.
    #[test]
    fn listed_candidate_on_the_path_forbids_reuse() {
        let t = table();
        let (path, node) = path_of(&[S0, S1, S2, S3]);
        let mut dep = Dep::NONE;
        dep.add_candidate(&cand(C1), ALL);
        put(&t, &path, &node, 3, Bound::Lower, &dep);
        assert_eq!(proved(&t, &path, &node), Some((3, Bound::Lower)));
        // Same node, reached through C1: the proof's move to C1 is illegal here.
        let (other, node2) = path_of(&[S0, C1, S2, S3]);
        assert_eq!(node2, node);
        assert_eq!(proved(&t, &other, &node), None);
        // Reached through another situation that is no candidate: reusable.
        let (third, _) = path_of(&[S0, C2, S2, S3]);
        assert_eq!(proved(&t, &third, &node), Some((3, Bound::Lower)));
    }

    /// Clause 3: a guarded bound's pattern (Black stones on every point of
    /// `req` and on one of `any`) must match no situation above the node.
    #[test]
    fn pattern_matching_a_situation_above_forbids_reuse() {
        let t = table();
        let (path, node) = path_of(&[S0, S1, S2, S3]);
        let mut dep = Dep::NONE;
        // Black on point 0 and on point 5: no situation of this path.
        dep.add_pattern(Pattern { black: true, req: 0b000001, any: 0b100000 });
        put(&t, &path, &node, 4, Bound::Lower, &dep);
        assert_eq!(proved(&t, &path, &node), Some((4, Bound::Lower)));
        // C1 (Black on 0, 2 and 5) above the node matches: no reuse.
        let (other, node2) = path_of(&[S0, C1, S2, S3]);
        assert_eq!(node2, node);
        assert_eq!(proved(&t, &other, &node), None);
        // C2 (White on 4) does not: reusable.
        let (third, _) = path_of(&[S0, C2, S2, S3]);
        assert_eq!(proved(&t, &third, &node), Some((4, Bound::Lower)));
    }

    /// Merged patterns match every situation either matched.
    #[test]
    fn merged_patterns_only_widen() {
        let a = Pattern { black: true, req: 0b0011, any: 0b0100 };
        let b = Pattern { black: true, req: 0b0110, any: 0b1000 };
        let c = Pattern { black: true, req: 0b1100, any: 0b0001 };
        let mut dep = Dep::NONE;
        for p in [a, b, c] {
            dep.add_pattern(p);
        }
        let q = |black: Bits| SuperkoKey { black, white: 0, side: 0 };
        for black in 0..16u64 {
            let k = q(black);
            if [a, b, c].iter().any(|p| p.matches(&k)) {
                assert!(dep.pats.iter().any(|p| p.matches(&k)), "{black:04b} lost");
            }
        }
        // White's slots are apart: a White pattern does not widen Black's.
        dep.add_pattern(Pattern { black: false, req: 0, any: 0b1 });
        assert!(!dep.pats.iter().any(|p| p.matches(&q(0))));
    }

    /// Symmetry: a result is reused at the mirror image of its node, under
    /// the mirror image of its history, with its listed T, K and P mirrored
    /// (so a mirrored candidate on the new path forbids reuse, and an
    /// unmirrored one does not); a big T too, its box mirrored and its
    /// filter (of canonical colorings) as it is.
    #[test]
    fn mirrored_results_are_reused_with_mirrored_dependencies() {
        let m = |p: Position| {
            let r = |b: Bits| (0..6).filter(|i| b >> i & 1 != 0).fold(0, |a, i| a | 1 << (5 - i));
            pos(r(p.black), r(p.white))
        };
        let t = table();
        let (path, node) = path_of(&[S0, S1, S2, S3]);
        let mut dep = Dep::NONE;
        dep.add_candidate(&cand(C1), ALL);
        dep.add_hit(1);
        put(&t, &path, &node, 3, Bound::Lower, &dep);
        // The mirrored line: reusable.
        let (mirror, mnode) = path_of(&[m(S0), m(S1), m(S2), m(S3)]);
        assert_eq!(mnode.pos, m(node.pos));
        assert_eq!(proved(&t, &mirror, &mnode), Some((3, Bound::Lower)));
        // Without the mirrored hit above: the ban it stood for is gone.
        let (no_hit, _) = path_of(&[m(S0), m(C2), m(S2), m(S3)]);
        assert_eq!(proved(&t, &no_hit, &mnode), None);
        // The mirrored candidate above: its move is banned there.
        let (with_cand, _) = path_of(&[m(S1), m(C1), m(S2), m(S3)]);
        assert_eq!(proved(&t, &with_cand, &mnode), None);
        // The unmirrored candidate is no member of the mirrored T.
        let (other, _) = path_of(&[m(S1), C1, m(S2), m(S3)]);
        assert_eq!(proved(&t, &other, &mnode), Some((3, Bound::Lower)));
        // A big T: reused in its own frame and in the mirrored one, but not
        // under the mirrored line with a mirrored candidate above.
        let mut big = Dep::NONE;
        for c in [C1, C2, pos(0b001001, 0b000010), pos(0b000001, 0b100010), pos(0b010001, 0b000010)] {
            big.add_candidate(&cand(c), ALL);
        }
        assert!(big.big());
        let t2 = table();
        put(&t2, &path, &node, 4, Bound::Lower, &big);
        assert_eq!(proved(&t2, &path, &node), Some((4, Bound::Lower)));
        assert_eq!(proved(&t2, &mirror, &mnode), Some((4, Bound::Lower)));
        assert_eq!(proved(&t2, &with_cand, &mnode), None);
        // What the probe passes on is in the node's frame: the mirrored
        // candidates' box, and a filter that holds the mirrored candidate.
        let mut fill = Dep::NONE;
        assert!(t2.probe(&mirror, &mnode, &mut TableCounters::default(), &mut fill).is_some());
        assert!(fill.big());
        let f = fill.filter().unwrap();
        let (k, canon) = cand(m(C1));
        assert!(dep::may_contain(&[fill.ever_black, fill.ever_white, fill.ever_empty], f, &k, canon, ALL));
    }

    /// Clause 4: a result that skipped mirror moves under the strip's
    /// reversal (symmetry 0 of the path) holds only where every situation
    /// down to the node is fixed by it. A probe that takes it passes the
    /// symmetry on to the result being derived.
    #[test]
    fn stored_symmetry_must_fix_the_whole_path() {
        // Black on both ends, then White on the middle two: each fixed by the reversal.
        let y1 = pos(0b100001, 0);
        let y2 = pos(0b100001, 0b001100);
        let t = table();
        let (path, node) = path_of(&[S0, y1, y2]);
        assert_eq!(path.symmetric(), 1);
        let mut dep = Dep::NONE;
        dep.add_symmetry(0);
        put(&t, &path, &node, 2, Bound::Exact, &dep);
        assert_eq!(proved(&t, &path, &node), Some((2, Bound::Exact)));
        let mut fill = Dep::NONE;
        assert!(t.probe(&path, &node, &mut TableCounters::default(), &mut fill).is_some());
        assert_eq!(fill.symmetries(), 1, "the symmetry is inherited");
        // Another symmetric history: reusable.
        let (short, node2) = path_of(&[y1, y1, y2]);
        assert_eq!(node2, node);
        assert_eq!(proved(&t, &short, &node), Some((2, Bound::Exact)));
        // Black on one end only above the node: the tree below is not
        // symmetric any more, so the skipped moves may differ.
        let (other, node3) = path_of(&[S0, S1, y2]);
        assert_eq!(node3, node);
        assert_eq!(other.symmetric(), 0);
        assert_eq!(proved(&t, &other, &node), None);
        // A result without the dependency holds there.
        put(&t, &path, &node, 1, Bound::Lower, &Dep::NONE);
        assert_eq!(proved(&t, &other, &node), Some((1, Bound::Lower)));
    }

    /// Clause 1: a ban the derivation relied on (a hit) must still be in the history.
    #[test]
    fn stored_hit_must_occur_above_the_node() {
        let t = table();
        let (path, node) = path_of(&[S0, S1, S2, S3]);
        let mut dep = Dep::NONE;
        dep.add_hit(1); // S1 banned a refuted move somewhere below
        put(&t, &path, &node, -2, Bound::Upper, &dep);
        assert_eq!(proved(&t, &path, &node), Some((-2, Bound::Upper)));
        // Without S1 above, that move would be legal: no reuse.
        let (other, _) = path_of(&[S0, C2, S2, S3]);
        assert_eq!(proved(&t, &other, &node), None);
        // S1 earlier or later above the node is as good.
        let (moved, _) = path_of(&[S1, S0, S2, S3]);
        assert_eq!(proved(&t, &moved, &node), Some((-2, Bound::Upper)));
    }

    /// Clause 1: the hit must be strictly above the node. A hit with the
    /// node's own key is found at the node itself (the path names the latest
    /// ply), so such an entry is never reused; real derivations never store
    /// one, since a ban by the node's own key is attributed to the node and
    /// dropped as inside its subtree.
    #[test]
    fn hit_at_the_node_itself_does_not_count() {
        let t = table();
        let (path, node) = path_of(&[S0, S3, S1, S3]);
        let mut dep = Dep::NONE;
        dep.add_hit(1); // S3, the node's own coloring
        put(&t, &path, &node, 0, Bound::Exact, &dep);
        assert_eq!(proved(&t, &path, &node), None);
        let (other, _) = path_of(&[S0, S2, S1, S3]);
        assert_eq!(proved(&t, &other, &node), None);
    }

    /// A derivation with more hits than an entry keeps is not stored at all.
    #[test]
    fn too_many_hits_are_not_stored() {
        let t = table();
        let (path, node) = path_of(&[S0, S1, S2, C1, C2, S3]);
        let mut dep = Dep::NONE;
        for ply in 1..=(MAX_HITS as u32 + 1) {
            dep.add_hit(ply);
        }
        put(&t, &path, &node, 1, Bound::Exact, &dep);
        assert_eq!(proved(&t, &path, &node), None);
    }

    /// Clause 2 with more candidates than listed: the box and the Bloom
    /// filter stand for them; a path situation in both forbids reuse, unless
    /// it is a stored hit or the node's own key.
    #[test]
    fn box_and_filter_stand_for_many_candidates() {
        let cands = [C1, C2, pos(0b001001, 0b000010), pos(0b000001, 0b100010), pos(0b010001, 0b000010)];
        let mut dep = Dep::NONE;
        for c in cands {
            dep.add_candidate(&cand(c), ALL);
        }
        assert!(dep.nabs as usize > ABS, "the exact list overflowed");
        let t = table();
        let (path, node) = path_of(&[S0, S1, S2, S3]);
        put(&t, &path, &node, 4, Bound::Exact, &dep);
        assert!(proved(&t, &path, &node).is_some());
        // A candidate above the node: no reuse.
        let (with_cand, _) = path_of(&[S0, cands[3], S2, S3]);
        assert_eq!(proved(&t, &with_cand, &node), None);
        // The node's own coloring above it: harmless (a candidate equal to
        // it is banned under both histories by the node itself).
        let mut own = Dep::NONE;
        for c in cands.iter().chain([&S3]) {
            own.add_candidate(&cand(*c), ALL);
        }
        let t2 = table();
        let (p2, n2) = path_of(&[S0, S3, S2, S3]);
        put(&t2, &p2, &n2, 4, Bound::Exact, &own);
        assert!(proved(&t2, &p2, &n2).is_some());
    }

    /// Clause 2 for a big T whose filter matches everything (as a big
    /// proof's near the root nearly does): the situations of the history it
    /// was stored under are cleared, so it is reused under that history and
    /// under its mirror image, but not where another situation stands
    /// above the node, nor another image of a cleared one.
    #[test]
    fn a_full_filter_is_reused_under_its_own_history() {
        let m = |p: Position| {
            let r = |b: Bits| (0..6).filter(|i| b >> i & 1 != 0).fold(0, |a, i| a | 1 << (5 - i));
            pos(r(p.black), r(p.white))
        };
        let mut full = Dep::NONE;
        full.merge_filter(&[ALL; 3], &[!0; crate::search::tree::hash::BLOOM_WORDS]);
        assert!(full.big());
        let t = table();
        let (path, node) = path_of(&[S0, S1, S2, S3]);
        put(&t, &path, &node, 5, Bound::Lower, &full);
        assert_eq!(proved(&t, &path, &node), Some((5, Bound::Lower)));
        let (mirror, mnode) = path_of(&[m(S0), m(S1), m(S2), m(S3)]);
        assert_eq!(proved(&t, &mirror, &mnode), Some((5, Bound::Lower)));
        // C2 was not on the history: it may be in T.
        let (other, _) = path_of(&[S0, C2, S2, S3]);
        assert_eq!(proved(&t, &other, &node), None);
        // S1 is an image of a cleared situation, but above the mirrored
        // node only m(S1) is known not to be in the mirrored T.
        assert_ne!(m(S1), S1);
        let (wrong_image, _) = path_of(&[m(S0), S1, m(S2), m(S3)]);
        assert_eq!(proved(&t, &wrong_image, &mnode), None);
        // A history longer than the slot clears: its oldest situations are
        // cleared, and one beyond them still forbids reuse.
        let line: Vec<Position> = (0..entry::CLEAR as u64 + 2).map(|i| pos(i & ALL, 0)).collect();
        let mut long = line.clone();
        long.push(S3);
        let (lpath, lnode) = path_of(&long);
        let t2 = table();
        put(&t2, &lpath, &lnode, 5, Bound::Lower, &full);
        assert_eq!(proved(&t2, &lpath, &lnode), None);
        let short: Vec<Position> = line[..entry::CLEAR].iter().copied().chain([S3]).collect();
        let (spath, snode) = path_of(&short);
        assert_eq!(proved(&t2, &spath, &snode), Some((5, Bound::Lower)));
    }

    /// Clause 3 for a big result: a stored pattern that matches a situation
    /// of the history it was stored under (as a merged pattern can) matched
    /// it falsely, so that situation is cleared; a situation it matches
    /// under another history still forbids reuse. A small result (no slot)
    /// keeps clause 3 as it was.
    #[test]
    fn a_merged_pattern_does_not_forbid_reuse_under_its_own_history() {
        // Black on point 0 and on point 2: S3 above the node matches.
        let pattern = Pattern { black: true, req: 0b000001, any: 0b000100 };
        let mut big = Dep::NONE;
        for c in [C1, C2, pos(0b001001, 0b000010), pos(0b000001, 0b100010), pos(0b010001, 0b000010)] {
            big.add_candidate(&cand(c), ALL);
        }
        big.add_pattern(pattern);
        assert!(big.big());
        let t = table();
        let (path, node) = path_of(&[S0, S3, S2, S1]);
        put(&t, &path, &node, 2, Bound::Lower, &big);
        assert_eq!(proved(&t, &path, &node), Some((2, Bound::Lower)));
        // Black on points 0, 1 and 2 matches it too, and is outside T's box
        // (no candidate has Black on point 1): only clause 3 can refuse it.
        let other_match = pos(0b000111, 0);
        assert_eq!(big.ever_black & 0b10, 0);
        let (other, _) = path_of(&[S0, other_match, S2, S1]);
        assert_eq!(proved(&t, &other, &node), None);
        let mut small = Dep::NONE;
        small.add_pattern(pattern);
        let t2 = table();
        put(&t2, &path, &node, 2, Bound::Lower, &small);
        assert_eq!(proved(&t2, &path, &node), None);
    }

    /// Dependencies merge as unions: a merged result is invalid wherever
    /// either part is.
    #[test]
    fn merge_keeps_both_parts() {
        let (mut a, mut b) = (Dep::NONE, Dep::NONE);
        a.add_candidate(&cand(C1), ALL);
        a.add_hit(1);
        b.add_candidate(&cand(C2), ALL);
        b.add_hit(2);
        a.merge(&b);
        assert_eq!(a.storable_hits().map(|h| h.len()), Some(2));
        let t = table();
        let (path, node) = path_of(&[S0, S1, S2, S3]);
        put(&t, &path, &node, 2, Bound::Exact, &a);
        assert!(proved(&t, &path, &node).is_some());
        let (via_c2, _) = path_of(&[S0, S1, C2, S2, S1, S2, S3]);
        assert_eq!(proved(&t, &via_c2, &node), None);
    }
}
