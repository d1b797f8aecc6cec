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
//! history. So the derivation, with its legality decisions and its terminal
//! scores (which depend on the coloring only), goes through verbatim under any
//! other history H' with `H ∩ T = H' ∩ T`, where T is the set of candidates
//! whose legality the derivation used.
//!
//! We cannot store T, so each result carries a [`Dep`]:
//! - `box`: for every point, which of black / white / empty it is in *some*
//!   candidate of T. A coloring q with q.black ⊆ box.black, q.white ⊆ box.white,
//!   q.empty ⊆ box.empty is "in the box"; every member of T is in the box (the box
//!   over-approximates T). Boxes of subtrees combine by OR.
//! - `hits`: the situations of H (above N) that actually banned a candidate,
//!   i.e. `K = H ∩ T` exactly (tracked as plies of the path, converted to exact
//!   keys when stored).
//!
//! # The reuse rule
//!
//! A stored result for the same node key (coloring, player to move, pass
//! count) is used under a history H' only when
//! 1. every stored hit occurs in H' (so `K ⊆ H' ∩ T`), and
//! 2. every situation q of H' — other than the node's own key — whose
//!    coloring is in the box, is one of the stored hits (so `H' ∩ T ⊆ K`).
//!
//! Together: `H' ∩ T = K = H ∩ T`, hence every legality decision of the
//! derivation is the same under H', and the result holds for H' too.
//! Occurrences of the node's own key above N are harmless: any candidate equal
//! to it is banned under both histories by N itself, and the path attributes
//! such bans to the latest occurrence, which is at or below N.
//!
//! Results that used table entries inside their derivation inherit those
//! entries' boxes and hits (mapped to plies of the current path), so the
//! argument applies by induction: an inner entry validated under `H ∪
//! path(N..M)` stays valid under `H' ∪ path(N..M)`, because any situation of
//! H' in its box is in N's box, hence a hit of N, hence in H, hence (by the
//! inner validation) one of the inner entry's hits.
//!
//! Alpha-beta makes T small: a cutoff result depends only on the child that
//! caused the cutoff, so only that child's candidate and subtree are added;
//! only results that searched every move include every candidate.
//!
//! The table keys are exact (both bitboards, side to move, pass count): a hash
//! collision costs a probe, never a wrong answer.

use super::path::{bloom_bits, Path};
use super::Node;
use crate::geometry::Bits;
use crate::history::SuperkoKey;
use crate::position::{Color, Move, Position};
use std::sync::Mutex;

/// Most hits a stored entry keeps; results that depend on more situations of
/// the history are not stored.
pub const MAX_HITS: usize = 2;

/// Hit plies a [`Dep`] tracks exactly; more make it "overflowed".
const TRACKED: usize = 4;

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
    /// A Bloom filter of the candidate colorings (two bits each of 256): a
    /// second over-approximation of T, much tighter than the box for the
    /// small subtrees where most reuse happens.
    pub bloom: [u64; 4],
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
        bloom: [0; 4],
    };

    #[inline(always)]
    pub fn merge(&mut self, o: &Dep) {
        self.ever_black |= o.ever_black;
        self.ever_white |= o.ever_white;
        self.ever_empty |= o.ever_empty;
        for i in 0..4 {
            self.bloom[i] |= o.bloom[i];
        }
        self.overflow = self.overflow.min(o.overflow);
        for &h in &o.hits[..o.nhits as usize] {
            self.add_hit(h);
        }
    }

    /// Add a candidate coloring to the box.
    #[inline(always)]
    pub fn add_candidate(&mut self, pos: &Position, all: Bits) {
        self.ever_black |= pos.black;
        self.ever_white |= pos.white;
        self.ever_empty |= all & !(pos.black | pos.white);
        let (a, b) = bloom_bits(pos.black, pos.white);
        self.bloom[a >> 6] |= 1 << (a & 63);
        self.bloom[b >> 6] |= 1 << (b & 63);
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

    /// Whether the coloring of `q` may be one of the candidates (false only
    /// when it certainly is not: both filters have no false negatives).
    #[inline(always)]
    pub fn may_contain(&self, q: &SuperkoKey, all: Bits) -> bool {
        let (a, b) = bloom_bits(q.black, q.white);
        q.black & !self.ever_black == 0
            && q.white & !self.ever_white == 0
            && (all & !(q.black | q.white)) & !self.ever_empty == 0
            && self.bloom[a >> 6] & (1 << (a & 63)) != 0
            && self.bloom[b >> 6] & (1 << (b & 63)) != 0
    }
}



/// Kind of bound a stored value is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    /// The true value is at least the stored one.
    Lower,
    /// The true value is at most the stored one.
    Upper,
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    black: Bits,
    white: Bits,
    /// bit 0: white to move; bit 1: one pass just played; bit 2: used.
    flags: u8,
    bound: u8,
    value: i8,
    /// 0 none, 1 pass, 2 + p the point p (all-zero is a vacant entry).
    best: u8,
    work: u8,
    nhits: u8,
    ever: [Bits; 3],
    bloom: [u64; 4],
    hits: [SuperkoKey; MAX_HITS],
}

const EMPTY_KEY: SuperkoKey = SuperkoKey { black: 0, white: 0, side: 0 };

fn node_flags(node: &Node) -> u8 {
    (node.to_move == Color::White) as u8 | ((node.passes > 0) as u8) << 1 | 4
}

/// A probe result usable at the current node.
#[derive(Clone, Copy, Debug)]
pub struct Probe {
    pub value: i32,
    pub bound: Bound,
    pub best: Option<Move>,
    /// The entry's dependencies, hits mapped to plies of the current path.
    pub dep: Dep,
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
const CLUSTER: usize = 8;

/// Lock stripes; a power of two.
const STRIPES: usize = 4096;

/// The bucket array behind the stripe locks, as a raw allocation so that
/// threads holding different stripes never alias one `&mut` to the whole array.
struct Buckets {
    ptr: *mut [Entry; WAYS],
    len: usize,
}

impl Buckets {
    fn new(n: usize) -> Buckets {
        let mut v = std::mem::ManuallyDrop::new(zeroed_buckets(n));
        Buckets { ptr: v.as_mut_ptr(), len: n }
    }
}

impl Drop for Buckets {
    fn drop(&mut self) {
        // SAFETY: `ptr` and `len` come from a `Vec` of exactly `len` elements
        // (capacity `len`) that was never freed.
        unsafe { drop(Vec::from_raw_parts(self.ptr, self.len, self.len)) }
    }
}

// SAFETY: every access to a bucket goes through `Table::with_bucket`, which
// holds the bucket's stripe lock for the whole access.
unsafe impl Sync for Buckets {}
unsafe impl Send for Buckets {}

/// Counters one searcher keeps about its table use.
#[derive(Clone, Copy, Debug, Default)]
pub struct TableCounters {
    pub stores: u64,
    pub hits: u64,
    pub key_matches: u64,
}

/// `n` vacant buckets from zeroed memory, so the OS hands out pages lazily and
/// a small search on a large table costs nothing up front.
fn zeroed_buckets(n: usize) -> Vec<[Entry; WAYS]> {
    let layout = std::alloc::Layout::array::<[Entry; WAYS]>(n).expect("table size overflows");
    // SAFETY: `Entry` is plain data (integers and arrays of integers) for which
    // all-zero bytes are a valid value (the vacant entry); the pointer comes from
    // the global allocator with the layout of exactly `n` buckets.
    unsafe {
        let ptr = std::alloc::alloc_zeroed(layout) as *mut [Entry; WAYS];
        if ptr.is_null() {
            std::alloc::handle_alloc_error(layout);
        }
        Vec::from_raw_parts(ptr, n, n)
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
    fn with_bucket<R>(&self, i: usize, f: impl FnOnce(&mut [Entry; WAYS]) -> R) -> R {
        let _guard = self.locks[i & (self.locks.len() - 1)].lock().unwrap_or_else(|p| p.into_inner());
        // SAFETY: the stripe lock for bucket `i` is held, so no other thread
        // reads or writes this bucket until `f` returns.
        debug_assert!(i < self.buckets.len);
        let bucket = unsafe { &mut *self.buckets.ptr.add(i) };
        f(bucket)
    }

    /// Look for a result for `node` that is valid under the current path.
    pub fn probe(&self, path: &Path, node: &Node, counters: &mut TableCounters) -> Option<Probe> {
        let flags = node_flags(node);
        let i = hash(node.pos.black, node.pos.white, flags) as usize;
        for c in 0..self.cluster {
            let b = self.with_bucket((i + c) & self.mask, |b| *b);
            for e in b.iter() {
            if e.flags == flags && e.black == node.pos.black && e.white == node.pos.white {
                counters.key_matches += 1;
                if let Some(dep) = self.valid(e, path, node) {
                    counters.hits += 1;
                    return Some(Probe {
                        value: e.value as i32,
                        bound: match e.bound {
                            0 => Bound::Exact,
                            1 => Bound::Lower,
                            _ => Bound::Upper,
                        },
                        best: match e.best {
                            0 => None,
                            1 => Some(Move::Pass),
                            p => Some(Move::Play(p - 2)),
                        },
                        dep,
                    });
                }
            }
            }
        }
        None
    }

    /// The reuse rule of the module documentation; on success the entry's
    /// dependencies expressed on the current path.
    fn valid(&self, e: &Entry, path: &Path, node: &Node) -> Option<Dep> {
        let here = path.len() - 1;
        let own = path.key(node.pos, node.to_move);
        let mut dep = Dep {
            ever_black: e.ever[0],
            ever_white: e.ever[1],
            ever_empty: e.ever[2],
            bloom: e.bloom,
            ..Dep::NONE
        };
        // 1. every stored hit occurs above this node
        for k in &e.hits[..e.nhits as usize] {
            let ply = path.latest(k)? as usize;
            if ply >= here {
                return None;
            }
            dep.add_hit(ply as u32);
        }
        // 2. every situation above this node in the box is a stored hit; only
        //    situations whose first Bloom bit is in the filter can be in it.
        let steps = path.steps();
        for (w, &word) in e.bloom.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let bit = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                for &ply in path.plies_with_bloom_bit(bit) {
                    if ply as usize >= here {
                        break;
                    }
                    let q = &steps[ply as usize].key;
                    if *q != own && dep.may_contain(q, self.all) && !e.hits[..e.nhits as usize].contains(q) {
                        return None;
                    }
                }
            }
        }
        Some(dep)
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
        if std::env::var_os("GOSOLVE_DEBUG").is_some() {
            use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
            static H: [AtomicU64; 10] = [const { AtomicU64::new(0) }; 10];
            let k = if dep.overflow != u32::MAX { 9 } else { dep.nhits as usize };
            let n = H[k].fetch_add(1, Relaxed);
            if n % 1000000 == 0 { eprintln!("store hits hist {:?}", H.iter().map(|a| a.load(Relaxed)).collect::<Vec<_>>()); }
        }
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
        let flags = node_flags(node);
        let new = Entry {
            black: node.pos.black,
            white: node.pos.white,
            flags,
            bound: match bound {
                Bound::Exact => 0,
                Bound::Lower => 1,
                Bound::Upper => 2,
            },
            value: value as i8,
            best: match best {
                None => 0,
                Some(Move::Pass) => 1,
                Some(Move::Play(p)) => p + 2,
            },
            work: (64 - work.leading_zeros()) as u8,
            nhits: nhits as u8,
            ever: [dep.ever_black, dep.ever_white, dep.ever_empty],
            bloom: dep.bloom,
            hits,
        };
        let i = hash(node.pos.black, node.pos.white, flags) as usize;
        // Same node with the same dependencies: overwrite. Otherwise replace
        // the entry with the least work behind it in the cluster. (Another
        // thread may change the slot in between; then one result is lost,
        // never corrupted: each write is one whole entry under the lock.)
        let same = |e: &Entry| {
            e.flags == flags
                && e.black == new.black
                && e.white == new.white
                && e.nhits == new.nhits
                && e.hits == new.hits
                && e.ever == new.ever
                && e.bloom == new.bloom
        };
        let mut target = (i & self.mask, 0, (true, u8::MAX));
        'scan: for c in 0..self.cluster {
            let bi = (i + c) & self.mask;
            let b = self.with_bucket(bi, |b| *b);
            for (w, e) in b.iter().enumerate() {
                if same(e) {
                    target = (bi, w, (false, 0));
                    break 'scan;
                }
                let rank = (e.flags & 4 != 0, e.work);
                if rank < target.2 {
                    target = (bi, w, rank);
                }
            }
        }
        self.with_bucket(target.0, |b| b[target.1] = new);
        counters.stores += 1;
    }
}
