//! What a result depends on ([`Dep`]) and how dependencies combine: the
//! sets T (candidates that must stay absent), K (hits that must stay
//! present), P (patterns that must match nothing) and S (symmetries the
//! history must keep) of the reuse rule in [`super`].

use crate::rules::geometry::Bits;
use crate::rules::history::SuperkoKey;
use crate::search::tree::hash::{bloom_bits_of, BLOOM_WORDS};
use crate::search::tree::path::Step;
use std::mem::MaybeUninit;

/// Most hits a stored entry keeps; results that depend on more situations of
/// the history are not stored.
pub const MAX_HITS: usize = 2;

/// Hit plies a [`Dep`] tracks exactly; more make it "overflowed".
pub(super) const TRACKED: usize = 4;

/// Candidate keys a [`Dep`] lists exactly; with more, only the box and the
/// Bloom filter describe them.
pub const ABS: usize = 4;

/// Patterns a [`Dep`] keeps (two per colour); more are merged into the
/// closest one, which only widens what they match.
pub const PATTERNS: usize = 4;

/// A set of situations that must stay absent from the history (see
/// "guarded bounds" in [`super`]): those in which the `black` (else White)
/// player has a stone on every point of `req` and on some point of `any`.
/// `any == 0`: an unused slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pattern {
    pub black: bool,
    pub req: Bits,
    pub any: Bits,
}

impl Pattern {
    pub const NONE: Pattern = Pattern { black: false, req: 0, any: 0 };

    /// Whether the situation `q` is in the set.
    #[inline(always)]
    pub fn matches(&self, q: &SuperkoKey) -> bool {
        let own = if self.black { q.black } else { q.white };
        own & self.req == self.req && own & self.any != 0
    }

    /// Whether some situation of `steps` is in the set (an unused slot:
    /// never, without reading them). The guard of a guarded bound and the
    /// reuse rule's clause 3 both ask this.
    #[inline(always)]
    pub fn occurs_in(&self, steps: &[Step]) -> bool {
        self.occurs_in_unless(steps, |_| false)
    }

    /// [`Pattern::occurs_in`], passing over the situations `known_clear`
    /// says match no true pattern (a big result's cleared situations).
    #[inline(always)]
    pub fn occurs_in_unless(&self, steps: &[Step], known_clear: impl Fn(&SuperkoKey) -> bool) -> bool {
        self.any != 0 && steps.iter().any(|s| self.matches(&s.key) && !known_clear(&s.key))
    }
}

/// What a search result depended on (see the module documentation).
///
/// The candidate set T is listed exactly while it has at most [`ABS`]
/// members (`nabs`); beyond that (`nabs > ABS`, "big") it is described by the
/// box and a Bloom filter. The filter is a kilobyte and most results never
/// need it, so it is only written when T first outgrows the list: a `Dep` is
/// created and merged at every node, and clearing and OR-ing the kilobyte
/// each time was a measurable part of the search.
#[derive(Clone, Copy)]
pub struct Dep {
    pub ever_black: Bits,
    pub ever_white: Bits,
    pub ever_empty: Bits,
    /// Plies of path situations that banned a candidate (the smallest ones,
    /// since those stay above the node longest), unordered, `nhits` used.
    pub(super) hits: [u32; TRACKED],
    pub(super) nhits: u8,
    /// The smallest ply among hits that did not fit (`u32::MAX`: none).
    pub(super) overflow: u32,
    /// The candidate keys themselves while there are at most [`ABS`]
    /// (`nabs > ABS`: too many, use the box and the filter).
    pub(super) abs: [SuperkoKey; ABS],
    /// Their canonical Bloom hashes ([`crate::search::tree::path::Path::canon`]),
    /// for the filter should T outgrow the list.
    abs_canon: [u64; ABS],
    pub(super) nabs: u8,
    /// P: situations that must stay absent, as patterns (guarded bounds).
    pub(super) pats: [Pattern; PATTERNS],
    /// A Bloom filter of the candidates' canonical colorings
    /// ([`crate::search::tree::hash::BLOOM_HASHES`] bits each of
    /// [`crate::search::tree::hash::BLOOM_BITS`]): a second over-approximation of
    /// T (of T and its symmetric images), much tighter than the box, and the
    /// same in every frame. A false hit of a
    /// path situation forbids reuse, so the filter is large: proof trees of
    /// ko fights have hundreds of candidates and paths are long.
    /// Initialised exactly when `nabs > ABS` (see [`Dep::filter`]).
    bloom: MaybeUninit<[u64; BLOOM_WORDS]>,
    /// S: the symmetries (bits as in [`crate::search::tree::path::Path::symmetric`])
    /// by which moves were skipped at a node whose every move counted, so
    /// the history must stay fixed by each of them (clause 4 of the reuse
    /// rule). Never dropped: it is a condition on the history above the node
    /// where the move was skipped, and so on every ancestor's.
    pub(super) sym: u8,
}

impl Default for Dep {
    fn default() -> Self {
        Dep::NONE
    }
}

impl PartialEq for Dep {
    /// Equal dependencies: the same box, hits, patterns and T (the list, or
    /// the filter when big).
    fn eq(&self, o: &Dep) -> bool {
        self.ever_black == o.ever_black
            && self.ever_white == o.ever_white
            && self.ever_empty == o.ever_empty
            && self.hits[..self.nhits as usize] == o.hits[..o.nhits as usize]
            && self.overflow == o.overflow
            && self.nabs == o.nabs
            && self.listed() == o.listed()
            && self.pats == o.pats
            && self.filter() == o.filter()
    }
}

impl Eq for Dep {}

impl std::fmt::Debug for Dep {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Dep")
            .field("ever", &[self.ever_black, self.ever_white, self.ever_empty])
            .field("hits", &&self.hits[..self.nhits as usize])
            .field("overflow", &self.overflow)
            .field("nabs", &self.nabs)
            .field("abs", &self.listed())
            .field("pats", &self.pats)
            .field("filter_bits", &self.filter().map(|b| b.iter().map(|w| w.count_ones()).sum::<u32>()))
            .finish()
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
        abs: [EMPTY_KEY; ABS],
        abs_canon: [0; ABS],
        nabs: 0,
        pats: [Pattern::NONE; PATTERNS],
        bloom: MaybeUninit::uninit(),
        sym: 0,
    };

    /// T's members when listed (none when big).
    #[inline(always)]
    pub(super) fn listed(&self) -> &[SuperkoKey] {
        if self.big() {
            &self.abs[..0]
        } else {
            &self.abs[..self.nabs as usize]
        }
    }

    /// Whether T is too large to list (described by the box and the filter).
    #[inline(always)]
    pub fn big(&self) -> bool {
        self.nabs as usize > ABS
    }

    /// The Bloom filter of T, when T is big.
    #[inline(always)]
    pub fn filter(&self) -> Option<&[u64; BLOOM_WORDS]> {
        // SAFETY: the filter is written in full when `nabs` first exceeds
        // ABS (`start_filter`), and `nabs` never goes back below.
        self.big().then(|| unsafe { self.bloom.assume_init_ref() })
    }

    /// T outgrows the list: write the filter, from `from` (another filter)
    /// or empty, plus the listed keys.
    #[inline(never)]
    fn start_filter(&mut self, from: Option<&[u64; BLOOM_WORDS]>) {
        debug_assert!(!self.big());
        let f = self.bloom.write(from.copied().unwrap_or([0; BLOOM_WORDS]));
        for &c in &self.abs_canon[..self.nabs as usize] {
            set_bits(f, c);
        }
        self.nabs = ABS as u8 + 1;
    }

    /// Add a key to T, with its canonical Bloom hash (its box bits are the
    /// caller's).
    #[inline(always)]
    fn add_key(&mut self, key: &SuperkoKey, canon: u64) {
        if self.big() {
            // SAFETY: big, so the filter is initialised (see `filter`).
            set_bits(unsafe { self.bloom.assume_init_mut() }, canon);
            return;
        }
        let n = self.nabs as usize;
        if self.abs[..n].contains(key) {
            return;
        }
        if n < ABS {
            self.abs[n] = *key;
            self.abs_canon[n] = canon;
            self.nabs += 1;
        } else {
            self.start_filter(None);
            // SAFETY: just initialised.
            set_bits(unsafe { self.bloom.assume_init_mut() }, canon);
        }
    }

    /// Add another big T, given by its box and filter.
    #[inline(always)]
    pub(super) fn merge_filter(&mut self, ever: &[Bits; 3], filter: &[u64; BLOOM_WORDS]) {
        self.ever_black |= ever[0];
        self.ever_white |= ever[1];
        self.ever_empty |= ever[2];
        if self.big() {
            // SAFETY: big, so the filter is initialised (see `filter`).
            let f = unsafe { self.bloom.assume_init_mut() };
            for (d, s) in f.iter_mut().zip(filter.iter()) {
                *d |= s;
            }
        } else {
            self.start_filter(Some(filter));
        }
    }

    #[inline(always)]
    pub fn merge(&mut self, o: &Dep) {
        match o.filter() {
            Some(f) => self.merge_filter(&[o.ever_black, o.ever_white, o.ever_empty], f),
            None => {
                self.ever_black |= o.ever_black;
                self.ever_white |= o.ever_white;
                self.ever_empty |= o.ever_empty;
                for (k, &c) in o.abs[..o.nabs as usize].iter().zip(&o.abs_canon) {
                    self.add_key(k, c);
                }
            }
        }
        self.overflow = self.overflow.min(o.overflow);
        for &h in &o.hits[..o.nhits as usize] {
            self.add_hit(h);
        }
        self.merge_patterns(&o.pats);
        self.sym |= o.sym;
    }

    /// Add the patterns of another result (see [`Dep::add_pattern`]).
    #[inline(always)]
    pub(super) fn merge_patterns(&mut self, pats: &[Pattern; PATTERNS]) {
        for p in pats.iter().filter(|p| p.any != 0) {
            self.add_pattern(*p);
        }
    }

    /// Require that no situation matching `p` occurs in the history. Two
    /// slots per colour; when both are taken, `p` is merged into the one
    /// sharing the most required points: `req` becomes the intersection and
    /// `any` the union, which matches every situation either matched (and
    /// more), so a merge can only forbid reuse, never allow a wrong one.
    #[inline(always)]
    pub fn add_pattern(&mut self, p: Pattern) {
        let base = if p.black { 0 } else { PATTERNS / 2 };
        let slots = &mut self.pats[base..base + PATTERNS / 2];
        for s in slots.iter_mut() {
            if s.any == 0 {
                *s = p;
                return;
            }
            if s.req == p.req {
                s.any |= p.any;
                return;
            }
        }
        let s = slots.iter_mut().max_by_key(|s| (s.req & p.req).count_ones()).unwrap();
        s.req &= p.req;
        s.any |= p.any;
    }

    /// Add candidates listed exactly (a table entry's small T), with their
    /// canonical Bloom hashes.
    #[inline(always)]
    pub(super) fn merge_listed(&mut self, keys: &[SuperkoKey], canon: impl Fn(&SuperkoKey) -> u64, all: Bits) {
        for k in keys {
            self.add_candidate(&(*k, canon(k)), all);
        }
    }

    /// Add a candidate to the set: its superko key and the Bloom hash of
    /// its canonical coloring ([`crate::search::tree::path::Path::candidate`]).
    #[inline(always)]
    pub fn add_candidate(&mut self, &(key, canon): &(SuperkoKey, u64), all: Bits) {
        self.ever_black |= key.black;
        self.ever_white |= key.white;
        self.ever_empty |= all & !(key.black | key.white);
        self.add_key(&key, canon);
    }

    /// Record that a move was skipped as the image of a generated one under
    /// symmetry number `i` of the path (see [`crate::search::tree::path::Path::symmetric`]).
    #[inline(always)]
    pub fn add_symmetry(&mut self, i: usize) {
        self.sym |= 1 << i;
    }

    /// The symmetries recorded by [`Dep::add_symmetry`] (and merged in).
    #[inline(always)]
    pub fn symmetries(&self) -> u8 {
        self.sym
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
    pub(super) fn storable_hits(&self) -> Option<&[u32]> {
        if self.overflow != u32::MAX || self.nhits as usize > MAX_HITS {
            None
        } else {
            Some(&self.hits[..self.nhits as usize])
        }
    }
}

/// Set the filter bits of a coloring with canonical Bloom hash `canon`.
#[inline(always)]
fn set_bits(filter: &mut [u64; BLOOM_WORDS], canon: u64) {
    for a in bloom_bits_of(canon) {
        filter[a >> 6] |= 1 << (a & 63);
    }
}

/// Whether the coloring of `q` (canonical Bloom hash `canon`) may be in the
/// candidate set with box `ever` (black, white, empty, in `q`'s frame) and
/// Bloom filter `bloom` (false only when it certainly is not: neither has
/// false negatives; the filter also holds every symmetric image).
#[inline(always)]
pub(super) fn may_contain(ever: &[Bits; 3], bloom: &[u64; BLOOM_WORDS], q: &SuperkoKey, canon: u64, all: Bits) -> bool {
    q.black & !ever[0] == 0
        && q.white & !ever[1] == 0
        && (all & !(q.black | q.white)) & !ever[2] == 0
        && bloom_bits_of(canon).iter().all(|&a| bloom[a >> 6] & (1 << (a & 63)) != 0)
}

/// The superko key of no situation (an unused slot of a key list).
pub(crate) const EMPTY_KEY: SuperkoKey = SuperkoKey { black: 0, white: 0, side: 0 };

#[cfg(test)]
mod tests {
    use super::*;

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
}
