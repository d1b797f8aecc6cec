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
//!   filter of the colorings ([`BLOOM_WORDS`] words: its precision decides
//!   how often big results can be reused on long paths);
//! - K, the hits: situations of H (above N) that banned a move at a node whose
//!   every move was searched (tracked as plies of the path, converted to exact
//!   keys when stored).
//!
//! # The reuse rule
//!
//! A stored result for the same node key (coloring, player to move, pass
//! count) is used under a history H' only when
//! 1. every stored hit occurs in H' (so every ban of the derivation holds),
//! 2. no situation of H' is in T: with T listed exactly, no member occurs on
//!    the path; otherwise every situation q of H' — other than the node's own
//!    key — whose coloring is in the box and the filter is one of the stored
//!    hits (members of T were legal, so they are neither hits nor N's own
//!    key; both filters have no false negatives).
//!
//! Then every chosen move of the proof is legal under H', every refuted side
//! has at most the moves it had, and the result holds under H'. Occurrences of
//! the node's own key above N are harmless: any candidate equal to it is
//! banned under both histories by N itself, and the path attributes such bans
//! to the latest occurrence, which is at or below N.
//!
//! [`Table::probe_cut`] (enhanced transposition cutoffs in the solver)
//! applies the same rule, only to the entries whose bound could cut.
//!
//! Results that used table entries inside their derivation inherit those
//! entries' T and K (hits mapped to plies of the current path), so the
//! argument applies by induction: an inner entry validated under `H ∪
//! path(N..M)` stays valid under `H' ∪ path(N..M)`, because its hits above N
//! are hits of N (present in H'), and its T is part of N's T (absent from H').
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

use super::path::{bloom_bits, Path, BLOOM_WORDS};
use super::Node;
use crate::rules::geometry::Bits;
use crate::rules::history::SuperkoKey;
use crate::rules::position::{Color, Move};
use std::sync::Mutex;

/// Most hits a stored entry keeps; results that depend on more situations of
/// the history are not stored.
pub const MAX_HITS: usize = 2;

/// Hit plies a [`Dep`] tracks exactly; more make it "overflowed".
const TRACKED: usize = 4;

/// Candidate keys a [`Dep`] lists exactly; with more, only the box and the
/// Bloom filter describe them.
pub const ABS: usize = 4;

/// What a search result depended on (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dep {
    pub ever_black: Bits,
    pub ever_white: Bits,
    pub ever_empty: Bits,
    /// Plies of path situations that banned a candidate (the smallest ones,
    /// since those stay above the node longest), unordered, `nhits` used.
    hits: [u32; TRACKED],
    nhits: u8,
    /// The smallest ply among hits that did not fit (`u32::MAX`: none).
    overflow: u32,
    /// A Bloom filter of the candidate colorings ([`super::path::BLOOM_HASHES`] bits each of
    /// [`super::path::BLOOM_BITS`]): a second over-approximation of T, much
    /// tighter than the box. A false hit of a path situation forbids reuse,
    /// so the filter is large: proof trees of ko fights have hundreds of
    /// candidates and paths are long.
    pub bloom: [u64; BLOOM_WORDS],
    /// The candidate keys themselves while there are at most [`ABS`]
    /// (`nabs > ABS`: too many, use the box and the filter).
    abs: [SuperkoKey; ABS],
    nabs: u8,
}

impl Default for Dep {
    fn default() -> Self {
        Dep::NONE
    }
}

impl Dep {
    pub const NONE: Dep = Dep {
        ever_black: 0,
        ever_white: 0,
        ever_empty: 0,
        hits: [0; TRACKED],
        nhits: 0,
        overflow: u32::MAX,
        bloom: [0; BLOOM_WORDS],
        abs: [EMPTY_KEY; ABS],
        nabs: 0,
    };

    #[inline(always)]
    pub fn merge(&mut self, o: &Dep) {
        self.merge_candidates(&[o.ever_black, o.ever_white, o.ever_empty], &o.bloom, &o.abs, o.nabs);
        self.overflow = self.overflow.min(o.overflow);
        for &h in &o.hits[..o.nhits as usize] {
            self.add_hit(h);
        }
    }

    /// Add another candidate set T, given by its box, filter and exact list
    /// (`nabs > ABS`: not listed), as a [`Dep`] or a table entry holds it.
    #[inline(always)]
    fn merge_candidates(&mut self, ever: &[Bits; 3], bloom: &[u64; BLOOM_WORDS], abs: &[SuperkoKey; ABS], nabs: u8) {
        self.ever_black |= ever[0];
        self.ever_white |= ever[1];
        self.ever_empty |= ever[2];
        for (d, s) in self.bloom.iter_mut().zip(bloom.iter()) {
            *d |= s;
        }
        if nabs as usize > ABS {
            self.nabs = ABS as u8 + 1;
        } else {
            for k in &abs[..nabs as usize] {
                self.add_abs(k);
            }
        }
    }

    #[inline(always)]
    fn add_abs(&mut self, key: &SuperkoKey) {
        let n = self.nabs as usize;
        if n > ABS || self.abs[..n].contains(key) {
            return;
        }
        if n == ABS {
            self.nabs += 1;
        } else {
            self.abs[n] = *key;
            self.nabs += 1;
        }
    }

    /// Add a candidate (its coloring and superko key) to the set.
    #[inline(always)]
    pub fn add_candidate(&mut self, key: &SuperkoKey, all: Bits) {
        self.add_abs(key);
        self.ever_black |= key.black;
        self.ever_white |= key.white;
        self.ever_empty |= all & !(key.black | key.white);
        for a in bloom_bits(key.black, key.white) {
            self.bloom[a >> 6] |= 1 << (a & 63);
        }
    }

    /// Record a superko ban by the situation at `ply`.
    #[inline(always)]
    pub fn add_hit(&mut self, ply: u32) {
        let n = self.nhits as usize;
        if self.hits[..n].contains(&ply) {
            return;
        }
        if n < TRACKED {
            self.hits[n] = ply;
            self.nhits += 1;
            return;
        }
        // Full: keep the smallest plies, the largest goes to the overflow.
        let (imax, &max) = self.hits.iter().enumerate().max_by_key(|&(_, &h)| h).unwrap();
        if ply < max {
            self.hits[imax] = ply;
            self.overflow = self.overflow.min(max);
        } else {
            self.overflow = self.overflow.min(ply);
        }
    }

    /// Forget hits at or below `ply`: they are inside the subtree of the node
    /// at `ply` and so are the same under any history above it.
    #[inline(always)]
    pub fn drop_from(&mut self, ply: usize) {
        let ply = ply as u32;
        let mut i = 0;
        while i < self.nhits as usize {
            if self.hits[i] >= ply {
                self.nhits -= 1;
                self.hits[i] = self.hits[self.nhits as usize];
            } else {
                i += 1;
            }
        }
        if self.overflow >= ply {
            self.overflow = u32::MAX;
        }
    }

    /// The hit plies, when all are known and there are at most `MAX_HITS`.
    fn storable_hits(&self) -> Option<&[u32]> {
        if self.overflow != u32::MAX || self.nhits as usize > MAX_HITS {
            None
        } else {
            Some(&self.hits[..self.nhits as usize])
        }
    }
}

/// Whether the coloring of `q` may be in the candidate set with box `ever`
/// (black, white, empty) and Bloom filter `bloom` (false only when it
/// certainly is not: both filters have no false negatives).
#[inline(always)]
fn may_contain(ever: &[Bits; 3], bloom: &[u64; BLOOM_WORDS], q: &SuperkoKey, all: Bits) -> bool {
    q.black & !ever[0] == 0
        && q.white & !ever[1] == 0
        && (all & !(q.black | q.white)) & !ever[2] == 0
        && bloom_bits(q.black, q.white).iter().all(|&a| bloom[a >> 6] & (1 << (a & 63)) != 0)
}

/// Kind of bound a stored value is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    /// The true value is at least the stored one.
    Lower,
    /// The true value is at most the stored one.
    Upper,
    /// Neither `value ≥ beta` nor `value < beta` (the stored value is that
    /// beta) could be proved within `depth` plies. Only a hint: it saves
    /// re-searching within and across iterations of the solver's iterative
    /// deepening, and never stands for a value.
    Unknown {
        depth: u16,
    },
    /// No stored result holds under this history, but the node was solved
    /// under another one: only that result's best move, to try first (the
    /// best move rarely depends on the history even when the proof does).
    MoveOnly,
}

/// `Entry::bound` codes.
const EXACT: u8 = 0;
const LOWER: u8 = 1;
const UPPER: u8 = 2;
const UNKNOWN: u8 = 3;

#[derive(Clone, Copy, Debug)]
struct Entry {
    black: Bits,
    white: Bits,
    /// bit 0: white to move; bit 1: one pass just played; bit 2: used.
    flags: u8,
    bound: u8,
    value: i8,
    /// Horizon (plies) of an `Unknown` entry.
    depth: u16,
    /// 0 none, 1 pass, 2 + p the point p (all-zero is a vacant entry).
    best: u8,
    nhits: u8,
    ever: [Bits; 3],
    bloom: [u64; BLOOM_WORDS],
    /// Bits set in `bloom`, counted once when stored (the reuse check
    /// chooses its path scan by it).
    bloom_set: u16,
    hits: [SuperkoKey; MAX_HITS],
    nabs: u8,
    abs: [SuperkoKey; ABS],
}

/// The move an entry's `best` code stands for (see [`Entry`]).
fn decode_best(code: u8) -> Option<Move> {
    match code {
        0 => None,
        1 => Some(Move::Pass),
        p => Some(Move::Play(p - 2)),
    }
}

const EMPTY_KEY: SuperkoKey = SuperkoKey { black: 0, white: 0, side: 0 };

/// Where a node's entries live and how they are recognised: its flags, the
/// hash of its key and the fingerprint its tags carry.
struct NodeKey {
    flags: u8,
    h: u64,
    fp: u32,
}

impl NodeKey {
    #[inline(always)]
    fn of(node: &Node) -> NodeKey {
        let flags = node_flags(node);
        let h = hash(node.pos.black, node.pos.white, flags);
        NodeKey { flags, h, fp: fingerprint(h) }
    }
}

impl Entry {
    /// Whether this entry is keyed on `node` (whose flags are `flags`).
    #[inline(always)]
    fn is_for(&self, flags: u8, node: &Node) -> bool {
        self.flags == flags && self.black == node.pos.black && self.white == node.pos.white
    }
}

fn node_flags(node: &Node) -> u8 {
    (node.to_move == Color::White) as u8 | ((node.passes > 0) as u8) << 1 | 4
}

/// A probe result usable at the current node.
#[derive(Clone, Copy, Debug)]
pub struct Probe {
    pub value: i32,
    pub bound: Bound,
    pub best: Option<Move>,
}

const WAYS: usize = 4;

/// A bucketed table of exact-keyed entries with history dependencies.
///
/// The table is shared by the threads of a parallel solve: bucket `i` is only
/// read or written while holding stripe lock `i % STRIPES`, so a bucket is
/// never seen half-written. Entries carry their own dependencies, so sharing
/// them between threads is exactly as sound as reusing them within one.
pub struct Table {
    buckets: Buckets,
    locks: Vec<Mutex<()>>,
    mask: usize,
    /// Buckets searched for one node: results for the same position under
    /// different histories need room beside each other.
    cluster: usize,
    all: Bits,
}

/// Buckets per cluster.
const CLUSTER: usize = 4;

/// Lock stripes; a power of two.
const STRIPES: usize = 4096;

/// The bucket array behind the stripe locks, as raw allocations so that
/// threads holding different stripes never alias one `&mut` to the whole array.
///
/// Beside each bucket of entries sits its row of [`Tag`]s in a separate,
/// dense array: a probe reads the tags of its whole cluster (one or two cache
/// lines) and touches an entry (about 1.2 KiB) only when its tag matches.
/// Profiling showed the first read of a cluster's entries as the largest
/// single cost of the search (a cache miss per entry).
struct Buckets {
    entries: *mut [Entry; WAYS],
    tags: *mut [Tag; WAYS],
    len: usize,
}

/// Per entry: in bits 8..32 a 24-bit fingerprint of its key (0: vacant), in
/// the low byte the log2 of the work behind it (the replacement rank), in
/// bits 32..34 the bound code and in bits 40..48 the value. A fingerprint only
/// filters: every match is confirmed on the full key. The bound and value let
/// [`Table::probe_cut`] skip entries that cannot give a cutoff without
/// touching them.
type Tag = u64;

impl Buckets {
    fn new(n: usize) -> Buckets {
        let mut e = std::mem::ManuallyDrop::new(zeroed_vec::<[Entry; WAYS]>(n));
        let mut t = std::mem::ManuallyDrop::new(zeroed_vec::<[Tag; WAYS]>(n));
        Buckets { entries: e.as_mut_ptr(), tags: t.as_mut_ptr(), len: n }
    }
}

impl Drop for Buckets {
    fn drop(&mut self) {
        // SAFETY: both pointers come from `Vec`s of exactly `len` elements
        // (capacity `len`) that were never freed.
        unsafe {
            drop(Vec::from_raw_parts(self.entries, self.len, self.len));
            drop(Vec::from_raw_parts(self.tags, self.len, self.len));
        }
    }
}

// SAFETY: every access to a bucket and its tags goes through
// `Table::with_bucket`, which holds the bucket's stripe lock for the whole
// access.
unsafe impl Sync for Buckets {}
unsafe impl Send for Buckets {}

/// Counters one searcher keeps about its table use.
#[derive(Clone, Copy, Debug, Default)]
pub struct TableCounters {
    pub stores: u64,
    pub hits: u64,
    pub key_matches: u64,
}

/// `n` all-zero elements from zeroed memory, so the OS hands out pages
/// lazily and a small search on a large table costs nothing up front.
///
/// Only used with `T` = rows of [`Entry`] or [`Tag`]: plain data (integers and
/// arrays of integers) for which all-zero bytes are a valid value (vacant).
fn zeroed_vec<T>(n: usize) -> Vec<T> {
    let layout = std::alloc::Layout::array::<T>(n).expect("table size overflows");
    // SAFETY: `T` is plain data for which all-zero bytes are valid (see
    // above); the pointer comes from the global allocator with the layout of
    // exactly `n` elements.
    unsafe {
        let ptr = std::alloc::alloc_zeroed(layout) as *mut T;
        if ptr.is_null() {
            std::alloc::handle_alloc_error(layout);
        }
        Vec::from_raw_parts(ptr, n, n)
    }
}

/// The 24-bit fingerprint of key hash `h` (never 0, which marks vacant).
#[inline(always)]
fn fingerprint(h: u64) -> u32 {
    ((h >> 40) as u32 & 0xff_ffff).max(1)
}

/// The tag of an entry with key hash `h`, `work`, bound code and value (see [`Tag`]).
#[inline(always)]
fn tag_of(h: u64, work: u8, code: u8, value: i8) -> Tag {
    (fingerprint(h) as u64) << 8 | work as u64 | (code as u64) << 32 | (value as u8 as u64) << 40
}

/// The fingerprint of a tag.
#[inline(always)]
fn tag_fp(tag: Tag) -> u32 {
    (tag >> 8) as u32 & 0xff_ffff
}

/// Whether a tag's bound and value show a result `>= bound` (`lower`) or
/// `<= bound` (else).
#[inline(always)]
fn tag_cuts(tag: Tag, lower: bool, bound: i32) -> bool {
    cuts((tag >> 32) as u8 & 3, (tag >> 40) as u8 as i8 as i32, lower, bound)
}

/// Whether a result of bound code `code` and `value` proves `>= bound`
/// (`lower`) or `<= bound` (else).
#[inline(always)]
fn cuts(code: u8, value: i32, lower: bool, bound: i32) -> bool {
    if lower {
        (code == EXACT || code == LOWER) && value >= bound
    } else {
        (code == EXACT || code == UPPER) && value <= bound
    }
}

#[inline(always)]
fn hash(black: Bits, white: Bits, flags: u8) -> u64 {
    let mut h = black.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    h ^= white.wrapping_mul(0xC2B2_AE3D_27D4_EB4F).rotate_left(31);
    h ^= flags as u64;
    h ^ (h >> 29)
}

impl Table {
    /// A table of about `mb` MiB for boards whose points are `all`.
    pub fn new(mb: usize, all: Bits) -> Table {
        let bytes = mb.max(1) << 20;
        let n = (bytes / std::mem::size_of::<[Entry; WAYS]>()).max(1);
        let n = if n.is_power_of_two() { n } else { n.next_power_of_two() >> 1 };
        Table {
            buckets: Buckets::new(n),
            locks: (0..STRIPES.min(n)).map(|_| Mutex::new(())).collect(),
            mask: n - 1,
            cluster: CLUSTER.min(n),
            all,
        }
    }

    /// Run `f` on bucket `i` under its stripe lock.
    #[inline(always)]
    fn with_bucket<R>(&self, i: usize, f: impl FnOnce(&mut [Tag; WAYS], &mut [Entry; WAYS]) -> R) -> R {
        let _guard = self.locks[i & (self.locks.len() - 1)].lock().unwrap_or_else(|p| p.into_inner());
        // SAFETY: the stripe lock for bucket `i` is held, so no other thread
        // reads or writes this bucket or its tags until `f` returns.
        debug_assert!(i < self.buckets.len);
        let (tags, entries) = unsafe { (&mut *self.buckets.tags.add(i), &mut *self.buckets.entries.add(i)) };
        f(tags, entries)
    }

    /// Look for a result for `node` that is valid under the current path: a
    /// proved one if there is one, else an `Unknown` hint, else the best move
    /// of a result for the same node under another history (`MoveOnly`: the
    /// solver only tries it first; 11x1 value-only 55 M → 23 M nodes with the
    /// pass order of [`crate::search::solver`]). For a proved one
    /// the entry's dependencies (hits mapped to plies of the current path)
    /// are merged into `dep`.
    pub fn probe(&self, path: &Path, node: &Node, counters: &mut TableCounters, dep: &mut Dep) -> Option<Probe> {
        let NodeKey { flags, h, fp } = NodeKey::of(node);
        let i = h as usize;
        let mut hint = None;
        let mut other_best = 0;
        for c in 0..self.cluster {
            // Validate under the lock: nothing is copied but the result.
            let found = self.with_bucket((i + c) & self.mask, |tags, b| {
                for (tag, e) in tags.iter().zip(b.iter()) {
                    if tag_fp(*tag) != fp || !e.is_for(flags, node) {
                        continue;
                    }
                    if e.bound == UNKNOWN && hint.is_some() {
                        continue;
                    }
                    counters.key_matches += 1;
                    let fill = if e.bound == UNKNOWN { None } else { Some(&mut *dep) };
                    if !self.valid(e, path, node, fill) {
                        if other_best == 0 {
                            other_best = e.best;
                        }
                        continue;
                    }
                    let probe = Probe {
                        value: e.value as i32,
                        bound: match e.bound {
                            EXACT => Bound::Exact,
                            LOWER => Bound::Lower,
                            UPPER => Bound::Upper,
                            _ => Bound::Unknown { depth: e.depth },
                        },
                        best: decode_best(e.best),
                    };
                    if e.bound == UNKNOWN {
                        hint = Some(probe);
                    } else {
                        counters.hits += 1;
                        return Some(probe);
                    }
                }
                None
            });
            if found.is_some() {
                return found;
            }
        }
        if hint.is_none() && other_best != 0 {
            return Some(Probe { value: 0, bound: Bound::MoveOnly, best: decode_best(other_best) });
        }
        hint
    }

    /// Whether the table may hold a result for `node` that proves
    /// `value >= bound` (`lower`) or `value <= bound` (else): looks at the
    /// tags only, never at an entry and never at the history.
    pub fn may_cut(&self, node: &Node, lower: bool, bound: i32) -> bool {
        let NodeKey { h, fp, .. } = NodeKey::of(node);
        let i = h as usize;
        (0..self.cluster).any(|c| {
            self.with_bucket((i + c) & self.mask, |tags, _| {
                tags.iter().any(|&tag| tag_fp(tag) == fp && tag_cuts(tag, lower, bound))
            })
        })
    }

    /// Ask the CPU to fetch the tags `node`'s look-ups will read (df-pn
    /// looks up all children of a node at once: their cache misses then
    /// overlap). Reads nothing, so it needs no lock.
    #[inline(always)]
    pub fn prefetch(&self, node: &Node) {
        let NodeKey { h, .. } = NodeKey::of(node);
        let i = h as usize & self.mask;
        // SAFETY: `i` is within the tag array; a prefetch is only a hint and
        // does not access memory in the language's sense.
        #[cfg(target_arch = "x86_64")]
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            _mm_prefetch::<_MM_HINT_T0>(self.buckets.tags.add(i) as *const i8);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = i;
    }

    /// [`Table::may_cut`] for both sides of the null window (b − 1, b) in one
    /// scan of the tags: whether a result may prove `>= b`, and whether one
    /// may prove `<= b − 1`.
    pub fn may_cut_window(&self, node: &Node, b: i32) -> (bool, bool) {
        let NodeKey { h, fp, .. } = NodeKey::of(node);
        let i = h as usize;
        let (mut lower, mut upper) = (false, false);
        for c in 0..self.cluster {
            self.with_bucket((i + c) & self.mask, |tags, _| {
                for &tag in tags.iter().filter(|&&t| tag_fp(t) == fp) {
                    lower |= tag_cuts(tag, true, b);
                    upper |= tag_cuts(tag, false, b - 1);
                }
            });
        }
        (lower, upper)
    }

    /// Like [`Table::probe`], but only for a proved result of `node` that is
    /// `>= bound` (`lower`: a lower bound or exact value) or `<= bound` (else:
    /// an upper bound or exact value), valid under the current path by the
    /// same reuse rule. On success its value is returned and its
    /// dependencies are merged into `dep` (untouched otherwise).
    pub fn probe_cut(
        &self,
        path: &Path,
        node: &Node,
        lower: bool,
        bound: i32,
        counters: &mut TableCounters,
        dep: &mut Dep,
    ) -> Option<i32> {
        let NodeKey { flags, h, fp } = NodeKey::of(node);
        let i = h as usize;
        for c in 0..self.cluster {
            let found = self.with_bucket((i + c) & self.mask, |tags, b| {
                for (&tag, e) in tags.iter().zip(b.iter()) {
                    if tag_fp(tag) != fp || !tag_cuts(tag, lower, bound) {
                        continue;
                    }
                    if !e.is_for(flags, node) {
                        continue;
                    }
                    // The tag mirrors the entry; check the entry itself anyway.
                    if !cuts(e.bound, e.value as i32, lower, bound) {
                        continue;
                    }
                    counters.key_matches += 1;
                    if self.valid(e, path, node, Some(&mut *dep)) {
                        counters.hits += 1;
                        return Some(e.value as i32);
                    }
                }
                None
            });
            if found.is_some() {
                return found;
            }
        }
        None
    }

    /// The reuse rule of the module documentation. On success the entry's
    /// dependencies, expressed on the current path, are merged into `fill`.
    fn valid(&self, e: &Entry, path: &Path, node: &Node, fill: Option<&mut Dep>) -> bool {
        let here = path.len() - 1;
        // 1. every stored hit occurs above this node
        let mut plies = [0u32; MAX_HITS];
        for (k, ply) in e.hits[..e.nhits as usize].iter().zip(plies.iter_mut()) {
            match path.latest(k) {
                Some(p) if (p as usize) < here => *ply = p,
                _ => return false,
            }
        }
        // 2. no candidate occurs above this node
        if !self.candidates_absent(e, path, node) {
            return false;
        }
        if let Some(dep) = fill {
            dep.merge_candidates(&e.ever, &e.bloom, &e.abs, e.nabs);
            for &p in &plies[..e.nhits as usize] {
                dep.add_hit(p);
            }
        }
        true
    }

    /// Rule 2 of the module documentation for entry `e` at this node.
    fn candidates_absent(&self, e: &Entry, path: &Path, node: &Node) -> bool {
        let here = path.len() - 1;
        // With the candidates listed exactly: none occurs on the path (it
        // cannot be the node itself, nor a hit: candidates were legal).
        if e.nabs as usize <= ABS {
            return e.abs[..e.nabs as usize].iter().all(|k| path.latest(k).is_none());
        }
        // Otherwise every situation above this node in the box and the
        // filter is a stored hit.
        let own = path.key(node.pos, node.to_move);
        let steps = path.steps();
        let conflicts = |q: &SuperkoKey| {
            *q != own && may_contain(&e.ever, &e.bloom, q, self.all) && !e.hits[..e.nhits as usize].contains(q)
        };
        if here <= e.bloom_set as usize {
            // A short path: test its situations directly.
            return !steps[..here].iter().any(|s| conflicts(&s.key));
        }
        // A long path: only situations whose first Bloom bit is in the
        // filter can be in it.
        for (w, &word) in e.bloom.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let bit = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                for &ply in path.plies_with_bloom_bit(bit) {
                    if ply as usize >= here {
                        break;
                    }
                    if conflicts(&steps[ply as usize].key) {
                        return false;
                    }
                }
            }
        }
        true
    }

    /// Store a result for `node` at ply `path.len() - 1` with dependencies
    /// `dep` (hits already restricted to plies above the node). Results with
    /// too many or unknown hits are not stored.
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &self,
        path: &Path,
        node: &Node,
        value: i32,
        bound: Bound,
        best: Option<Move>,
        dep: &Dep,
        work: u64,
        counters: &mut TableCounters,
    ) {
        let here = path.len() - 1;
        let Some(plies) = dep.storable_hits() else {
            return;
        };
        debug_assert!(plies.iter().all(|&p| (p as usize) < here));
        let mut hits = [EMPTY_KEY; MAX_HITS];
        let mut nhits = 0;
        for &ply in plies {
            hits[nhits] = path.steps()[ply as usize].key;
            nhits += 1;
        }
        // Keep the stored hits in a canonical order so equal sets compare equal.
        hits[..nhits].sort_unstable();
        let NodeKey { flags, h, fp } = NodeKey::of(node);
        let code = match bound {
            Bound::Exact => EXACT,
            Bound::Lower => LOWER,
            Bound::Upper => UPPER,
            Bound::Unknown { .. } => UNKNOWN,
            // Not a result: nothing to store.
            Bound::MoveOnly => return,
        };
        let work = (64 - work.leading_zeros()) as u8;
        let ever = [dep.ever_black, dep.ever_white, dep.ever_empty];
        let new_tag = tag_of(h, work, code, value as i8);
        let i = h as usize;
        // Same node with the same dependencies: overwrite. Otherwise replace
        // the entry with the least work behind it in the cluster. (Another
        // thread may change the slot in between; then one result is lost,
        // never corrupted: each write is one whole entry under the lock.)
        let same = |e: &Entry| {
            e.is_for(flags, node)
                && e.nhits as usize == nhits
                && e.hits == hits
                && e.ever == ever
                && e.nabs == dep.nabs
                && e.abs == dep.abs
                && e.bloom == dep.bloom
        };
        let mut target = (i & self.mask, 0, (true, u8::MAX));
        'scan: for c in 0..self.cluster {
            let bi = (i + c) & self.mask;
            // Decide under the lock without copying the bucket out.
            let verdict = self.with_bucket(bi, |tags, b| {
                let mut best: Option<(usize, (bool, u8))> = None;
                for (w, (&tag, e)) in tags.iter().zip(b.iter()).enumerate() {
                    if tag_fp(tag) == fp && same(e) {
                        return Err((w, e.bound != UNKNOWN && code == UNKNOWN));
                    }
                    let rank = (tag != 0, tag as u8);
                    if best.is_none_or(|(_, r)| rank < r) {
                        best = Some((w, rank));
                    }
                }
                Ok(best)
            });
            match verdict {
                Err((_, true)) => return, // never replace a proof by a hint
                Err((w, false)) => {
                    target = (bi, w, (false, 0));
                    break 'scan;
                }
                Ok(Some((w, rank))) if rank < target.2 => target = (bi, w, rank),
                Ok(_) => {}
            }
        }
        // Written field by field in place: an entry is over a kilobyte.
        self.with_bucket(target.0, |tags, b| {
            tags[target.1] = new_tag;
            let e = &mut b[target.1];
            e.black = node.pos.black;
            e.white = node.pos.white;
            e.flags = flags;
            e.bound = code;
            e.depth = match bound {
                Bound::Unknown { depth } => depth,
                _ => 0,
            };
            e.value = value as i8;
            e.best = match best {
                None => 0,
                Some(Move::Pass) => 1,
                Some(Move::Play(p)) => p + 2,
            };
            e.nhits = nhits as u8;
            e.ever = ever;
            e.bloom = dep.bloom;
            e.bloom_set = dep.bloom.iter().map(|w| w.count_ones()).sum::<u32>() as u16;
            e.hits = hits;
            e.nabs = dep.nabs;
            e.abs = dep.abs;
        });
        counters.stores += 1;
    }
}

/// One test per clause of the reuse rule of the module documentation, on
/// hand-built paths of a 1×6 strip (the table does not check that a path is
/// a legal game, so each clause can be isolated).
#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::geometry::Geometry;
    use crate::rules::history::Game;
    use crate::rules::position::{Position, Rules};

    const ALL: Bits = 0b11_1111;

    fn geo() -> Geometry {
        Geometry::new(1, 6).unwrap()
    }

    fn pos(black: Bits, white: Bits) -> Position {
        Position { black, white }
    }

    /// A path through the given colorings (the first is the game's start),
    /// colors to move alternating from Black, and the node at its end.
    fn path_of(colorings: &[Position]) -> (Path, Node) {
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

    fn key(p: Position) -> SuperkoKey {
        SuperkoKey { black: p.black, white: p.white, side: 0 }
    }

    fn table() -> Table {
        Table::new(1, ALL)
    }

    /// Store `value` as `bound` at the end of `path` with `dep`.
    fn put(t: &Table, path: &Path, node: &Node, value: i32, bound: Bound, dep: &Dep) {
        t.store(path, node, value, bound, Some(Move::Pass), dep, 100, &mut TableCounters::default());
    }

    /// The proved result the table gives at the end of `path`, if any.
    fn proved(t: &Table, path: &Path, node: &Node) -> Option<(i32, Bound)> {
        let mut dep = Dep::NONE;
        t.probe(path, node, &mut TableCounters::default(), &mut dep)
            .filter(|p| !matches!(p.bound, Bound::Unknown { .. } | Bound::MoveOnly))
            .map(|p| (p.value, p.bound))
    }

    // Colorings of the strip used below (bit i = point i).
    const S0: Position = Position { black: 0, white: 0 };
    const S1: Position = Position { black: 0b000001, white: 0 };
    const S2: Position = Position { black: 0b000001, white: 0b000010 };
    const S3: Position = Position { black: 0b000101, white: 0b000010 };
    const C1: Position = Position { black: 0b100101, white: 0b000010 };
    const C2: Position = Position { black: 0b000101, white: 0b010010 };

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
        dep.add_candidate(&key(C1), ALL);
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
            dep.add_candidate(&key(c), ALL);
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
            own.add_candidate(&key(*c), ALL);
        }
        let t2 = table();
        let (p2, n2) = path_of(&[S0, S3, S2, S3]);
        put(&t2, &p2, &n2, 4, Bound::Exact, &own);
        assert!(proved(&t2, &p2, &n2).is_some());
    }

    /// Dependencies merge as unions: a merged result is invalid wherever
    /// either part is.
    #[test]
    fn merge_keeps_both_parts() {
        let (mut a, mut b) = (Dep::NONE, Dep::NONE);
        a.add_candidate(&key(C1), ALL);
        a.add_hit(1);
        b.add_candidate(&key(C2), ALL);
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

    /// Hits at or below a node's ply are inside its subtree: forgotten
    /// when its result is stored; an overflowed hit above it blocks storing.
    #[test]
    fn drop_from_forgets_hits_below_the_node() {
        let mut d = Dep::NONE;
        d.add_hit(1);
        d.add_hit(5);
        d.drop_from(3);
        assert_eq!(d.storable_hits(), Some(&[1u32][..]));
        let mut full = Dep::NONE;
        for ply in [9, 8, 7, 6, 2] {
            full.add_hit(ply);
        }
        assert_eq!(full.storable_hits(), None, "an overflow is unknown");
        full.drop_from(5);
        assert_eq!(full.storable_hits(), Some(&[2u32][..]));
    }

    /// An `Unknown` entry is only a hint, and never replaces a proof.
    #[test]
    fn unknown_is_a_hint_and_never_replaces_a_proof() {
        let t = table();
        let (path, node) = path_of(&[S0, S1, S2, S3]);
        put(&t, &path, &node, 1, Bound::Unknown { depth: 8 }, &Dep::NONE);
        assert_eq!(proved(&t, &path, &node), None);
        put(&t, &path, &node, 1, Bound::Lower, &Dep::NONE);
        put(&t, &path, &node, 1, Bound::Unknown { depth: 8 }, &Dep::NONE);
        assert_eq!(proved(&t, &path, &node), Some((1, Bound::Lower)));
    }

    /// Enhanced transposition cutoffs take only bounds on the right side.
    #[test]
    fn probe_cut_takes_only_a_bound_that_cuts() {
        let t = table();
        let (path, node) = path_of(&[S0, S1, S2, S3]);
        put(&t, &path, &node, 3, Bound::Lower, &Dep::NONE);
        let mut c = TableCounters::default();
        let mut d = Dep::NONE;
        assert_eq!(t.probe_cut(&path, &node, true, 3, &mut c, &mut d), Some(3));
        assert_eq!(t.probe_cut(&path, &node, true, 4, &mut c, &mut d), None);
        assert_eq!(t.probe_cut(&path, &node, false, 3, &mut c, &mut d), None);
    }

    /// A result invalid under this history still offers its best move.
    #[test]
    fn invalid_result_still_hints_its_move() {
        let t = table();
        let (path, node) = path_of(&[S0, S1, S2, S3]);
        let mut dep = Dep::NONE;
        dep.add_hit(1);
        put(&t, &path, &node, 3, Bound::Exact, &dep);
        let (other, _) = path_of(&[S0, C2, S2, S3]);
        let mut d = Dep::NONE;
        let p = t.probe(&other, &node, &mut TableCounters::default(), &mut d).unwrap();
        assert_eq!((p.bound, p.best), (Bound::MoveOnly, Some(Move::Pass)));
        assert_eq!(d, Dep::NONE, "a hint adds no dependencies");
    }
}
