//! What one slot of the table holds: an [`Entry`] (the node's exact key, the
//! result, and its dependencies as stored keys) and its [`Tag`], the summary
//! a probe reads first.

use super::dep::{Pattern, ABS, MAX_HITS, PATTERNS};
use crate::rules::geometry::Bits;
use crate::rules::history::SuperkoKey;
use crate::rules::position::{Color, Move, Position};
use crate::rules::symmetry::SymmetryTables;
use crate::search::tree::hash::{table_hash, BLOOM_WORDS};
use crate::search::tree::node::Node;

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
pub(super) const EXACT: u8 = 0;
pub(super) const LOWER: u8 = 1;
pub(super) const UPPER: u8 = 2;
pub(super) const UNKNOWN: u8 = 3;

/// One stored result: the node's exact key, the result, and what it depends
/// on (see [`super`]), packed into three cache lines. The candidate set T is
/// listed exactly here while it has at most [`ABS`] members; a larger one is
/// described by a box and a Bloom filter of about a kilobyte, which lives in
/// its bucket's [`BloomSlot`] (`big`): most results have small T (about three
/// in four on 4x4), and before the split every entry carried the kilobyte.
#[derive(Clone, Copy, Debug, bincode::Encode, bincode::Decode)]
#[repr(C)]
pub(super) struct Entry {
    pub(super) black: Bits,
    pub(super) white: Bits,
    /// K: the colorings of the stored hits (`nhits` used) ...
    pub(super) hits: [[Bits; 2]; MAX_HITS],
    /// T listed exactly (`nabs` used, when `nabs <= ABS`) ...
    pub(super) abs: [[Bits; 2]; ABS],
    /// P: per pattern its required points and the points of which one
    /// must be occupied (`any == 0`: unused).
    pub(super) pats: [[Bits; 2]; PATTERNS],
    /// ... and their superko sides ([`SuperkoKey::side`], 0 to 2): two bits
    /// each, hit i at bits 2i, listed candidate i at bits 2(MAX_HITS + i).
    pub(super) sides: u16,
    /// S: the path symmetries the history must keep (clause 4 of the reuse
    /// rule; bits as in [`crate::search::tree::path::Path::symmetric`]).
    pub(super) sym: u8,
    /// Horizon (plies) of an `Unknown` entry.
    pub(super) depth: u16,
    /// bit 0: white to move; bit 1: one pass just played; bit 2: used.
    pub(super) flags: u8,
    pub(super) bound: u8,
    pub(super) value: i8,
    /// 0 none, 1 pass, 2 + p the point p (all-zero is a vacant entry).
    pub(super) best: u8,
    pub(super) nhits: u8,
    /// Members of T (more than [`ABS`]: not listed, see `big`).
    pub(super) nabs: u8,
    /// Bit i: pattern i is Black's.
    pub(super) pat_black: u8,
    /// Bits 0–2: the symmetry that maps the position the result was found
    /// at onto the stored (canonical) key: its dependencies are kept in the
    /// frame of that position (see [`crate::search::tt::Table`]'s symmetry). Bit 7: T
    /// is too large to list, and is described by the bucket's
    /// [`BloomSlot`], which this entry owns.
    pub(super) meta: u8,
}

/// [`Entry::meta`]'s bit for a big T.
pub(super) const BIG: u8 = 0x80;

/// How many situations a [`BloomSlot`] clears (see `clear`).
pub(super) const CLEAR: usize = 16;

/// The box and Bloom filter of one entry of a bucket whose T is too large to
/// list (see [`Entry`]): one per bucket, owned by at most one of its entries.
#[derive(Clone, Copy, Debug, bincode::Encode, bincode::Decode)]
#[repr(C)]
pub(super) struct BloomSlot {
    /// For every point, whether it is black / white / empty in some member of T.
    pub(super) ever: [Bits; 3],
    pub(super) bloom: [u64; BLOOM_WORDS],
    /// Situations known to be neither in T nor matched by a true pattern
    /// although the box and the filter, or a stored (merged) pattern, match
    /// them (`nclear` used; colorings, in the frame of the entry's
    /// dependencies): the situations of the history the result was stored
    /// under that would otherwise forbid its reuse there (see "Big results
    /// under their own history" in [`super`]). Without them a big proof
    /// near the root, whose filter is nearly full, was never reused, not
    /// even under its own history.
    pub(super) clear: [[Bits; 2]; CLEAR],
    /// Their superko sides, two bits each (cleared situation i at bits 2i).
    pub(super) clear_sides: u32,
    pub(super) nclear: u8,
    /// 1 + the way of the entry that owns the slot; 0: free.
    pub(super) owner: u8,
}

impl BloomSlot {
    /// Cleared situation `i`, in the frame of the entry's dependencies.
    #[inline(always)]
    pub(super) fn cleared(&self, i: usize) -> SuperkoKey {
        SuperkoKey { black: self.clear[i][0], white: self.clear[i][1], side: (self.clear_sides >> (2 * i)) as u8 & 3 }
    }

    /// Whether situation `q` of a node's path (in the node's frame) is one
    /// of the cleared situations mapped onto the node by `to_node` (the
    /// symmetry from the entry's frame to the node's, as for the box): `q`
    /// is mapped back once instead.
    #[inline]
    pub(super) fn clears(&self, q: &SuperkoKey, t: &SymmetryTables, to_node: usize) -> bool {
        if self.nclear == 0 {
            return false;
        }
        let back = t.inverse(to_node);
        let q = SuperkoKey { black: t.image(back, q.black), white: t.image(back, q.white), side: q.side };
        (0..self.nclear as usize).any(|i| self.cleared(i) == q)
    }

    /// Add situation `q` (in the entry's frame) to the cleared ones, if
    /// there is room; returns whether it is cleared now.
    pub(super) fn add_cleared(&mut self, q: &SuperkoKey) -> bool {
        let n = self.nclear as usize;
        if (0..n).any(|i| self.cleared(i) == *q) {
            return true;
        }
        if n == CLEAR {
            return false;
        }
        self.clear[n] = [q.black, q.white];
        self.clear_sides = self.clear_sides & !(3 << (2 * n)) | (q.side as u32 & 3) << (2 * n);
        self.nclear += 1;
        true
    }
}

impl Entry {
    /// An unused entry (all zero, as the table starts).
    pub(super) const VACANT: Entry = Entry {
        black: 0,
        white: 0,
        hits: [[0; 2]; MAX_HITS],
        abs: [[0; 2]; ABS],
        pats: [[0; 2]; PATTERNS],
        sides: 0,
        sym: 0,
        depth: 0,
        flags: 0,
        bound: 0,
        value: 0,
        best: 0,
        nhits: 0,
        nabs: 0,
        pat_black: 0,
        meta: 0,
    };

    /// Whether T is not listed but in the bucket's Bloom slot.
    #[inline(always)]
    pub(super) fn big(&self) -> bool {
        self.meta & BIG != 0
    }

    /// The symmetry from the frame of the dependencies to the stored key.
    #[inline(always)]
    pub(super) fn orient(&self) -> usize {
        (self.meta & 7) as usize
    }

    /// This entry with its key, dependencies and best move mapped by
    /// symmetry `s` of `t` (a big T's box is in the bucket's slot and mapped
    /// by the caller; its filter holds canonical colorings, the same in
    /// every frame).
    pub(super) fn mapped(&self, t: &SymmetryTables, s: usize) -> Entry {
        let pair = |[b, w]: [Bits; 2]| [t.image(s, b), t.image(s, w)];
        let mut e = *self;
        e.black = t.image(s, self.black);
        e.white = t.image(s, self.white);
        e.hits = self.hits.map(pair);
        e.abs = self.abs.map(pair);
        e.pats = self.pats.map(pair);
        e.best = map_best(self.best, t, s);
        // A history fixed by r is mapped onto one fixed by s r s⁻¹. Path
        // symmetry bit i is symmetry i + 1 of the tables (0 is the identity).
        e.sym = 0;
        let mut m = self.sym;
        while m != 0 {
            let r = m.trailing_zeros() as usize + 1;
            m &= m - 1;
            e.sym |= 1 << (t.compose(s, t.compose(r, t.inverse(s))) - 1);
        }
        e
    }

    /// Stored hit `i`.
    #[inline(always)]
    pub(super) fn hit(&self, i: usize) -> SuperkoKey {
        SuperkoKey { black: self.hits[i][0], white: self.hits[i][1], side: (self.sides >> (2 * i)) as u8 & 3 }
    }
    /// Listed candidate `i`.
    #[inline(always)]
    pub(super) fn cand(&self, i: usize) -> SuperkoKey {
        SuperkoKey {
            black: self.abs[i][0],
            white: self.abs[i][1],
            side: (self.sides >> (2 * (MAX_HITS + i))) as u8 & 3,
        }
    }
    /// Pattern `i`.
    #[inline(always)]
    pub(super) fn pattern(&self, i: usize) -> Pattern {
        Pattern { black: self.pat_black >> i & 1 != 0, req: self.pats[i][0], any: self.pats[i][1] }
    }
    /// The patterns, as a [`Dep`](crate::search::tt::Dep) holds them.
    #[inline(always)]
    pub(super) fn patterns(&self) -> [Pattern; PATTERNS] {
        std::array::from_fn(|i| self.pattern(i))
    }
    /// The listed candidates, as a [`Dep`](crate::search::tt::Dep) holds them.
    #[inline(always)]
    pub(super) fn cands(&self) -> [SuperkoKey; ABS] {
        std::array::from_fn(|i| self.cand(i))
    }
}

/// The move an entry's `best` code stands for (see [`Entry`]).
pub(super) fn decode_best(code: u8) -> Option<Move> {
    match code {
        0 => None,
        1 => Some(Move::Pass),
        p => Some(Move::Play(p - 2)),
    }
}

/// A best-move code mapped by symmetry `s`.
#[inline(always)]
pub(super) fn map_best(code: u8, t: &SymmetryTables, s: usize) -> u8 {
    if code >= 2 {
        t.point(s, code - 2) + 2
    } else {
        code
    }
}

/// Where a node's entries live and how they are recognised: its flags, its
/// stored key (the position, or its canonical image, see [`crate::search::tt::Table`]),
/// the symmetry `orient` that maps the node onto that key, the key's hash
/// and the fingerprint its tags carry.
#[derive(Clone, Copy, Debug)]
pub struct NodeKey {
    pub(super) flags: u8,
    pub(super) pos: Position,
    pub(super) orient: usize,
    pub(super) h: u64,
    pub(super) fp: u32,
}

impl NodeKey {
    /// The key of `node` stored as `pos`, its image under `orient`.
    #[inline(always)]
    pub(super) fn of(node: &Node, pos: Position, orient: usize) -> NodeKey {
        let flags = node_flags(node);
        let h = table_hash(pos.black, pos.white, flags);
        NodeKey { flags, pos, orient, h, fp: fingerprint(h) }
    }
    /// The key's hash: the same for every image of the node under the
    /// symmetries the table folds (df-pn keys its guide on it).
    #[inline(always)]
    pub(crate) fn hash(&self) -> u64 {
        self.h
    }
}

impl Entry {
    /// Whether this entry is stored under `key`.
    #[inline(always)]
    pub(super) fn is_for(&self, key: &NodeKey) -> bool {
        self.flags == key.flags && self.black == key.pos.black && self.white == key.pos.white
    }
}

pub(super) fn node_flags(node: &Node) -> u8 {
    (node.to_move == Color::White) as u8 | ((node.passes > 0) as u8) << 1 | 4
}

/// A probe result usable at the current node.
#[derive(Clone, Copy, Debug)]
pub struct Probe {
    pub value: i32,
    pub bound: Bound,
    pub best: Option<Move>,
}

/// Per entry: in bits 8..32 a 24-bit fingerprint of its key (0: vacant), in
/// the low byte the log2 of the work behind it (the replacement rank), in
/// bits 32..34 the bound code and in bits 40..48 the value. A fingerprint only
/// filters: every match is confirmed on the full key. The bound and value let
/// [`Table::probe_cut`] skip entries that cannot give a cutoff without
/// touching them.
pub(super) type Tag = u64;

/// The 24-bit fingerprint of key hash `h` (never 0, which marks vacant).
#[inline(always)]
pub(super) fn fingerprint(h: u64) -> u32 {
    ((h >> 40) as u32 & 0xff_ffff).max(1)
}

/// The tag of an entry with key hash `h`, `work`, bound code and value (see [`Tag`]).
#[inline(always)]
pub(super) fn tag_of(h: u64, work: u8, code: u8, value: i8) -> Tag {
    (fingerprint(h) as u64) << 8 | work as u64 | (code as u64) << 32 | (value as u8 as u64) << 40
}

/// The fingerprint of a tag.
#[inline(always)]
pub(super) fn tag_fp(tag: Tag) -> u32 {
    (tag >> 8) as u32 & 0xff_ffff
}

/// Whether a tag's bound and value show a result `>= bound` (`lower`) or
/// `<= bound` (else).
#[inline(always)]
pub(super) fn tag_cuts(tag: Tag, lower: bool, bound: i32) -> bool {
    cuts((tag >> 32) as u8 & 3, (tag >> 40) as u8 as i8 as i32, lower, bound)
}

/// Whether a result of bound code `code` and `value` proves `>= bound`
/// (`lower`) or `<= bound` (else).
#[inline(always)]
pub(super) fn cuts(code: u8, value: i32, lower: bool, bound: i32) -> bool {
    if lower {
        (code == EXACT || code == LOWER) && value >= bound
    } else {
        (code == EXACT || code == UPPER) && value <= bound
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::geometry::Geometry;
    use crate::rules::symmetry::symmetries;

    /// Mapping an entry by s maps every part by s; a path symmetry r it
    /// relied on becomes s r s⁻¹: whatever r fixes, s r s⁻¹ fixes the image
    /// of by s (checked on positions fixed by a single reflection).
    #[test]
    fn mapping_moves_keys_and_conjugates_symmetries() {
        let geo = Geometry::new(4, 4).unwrap();
        let t = SymmetryTables::new(&geo);
        let maps = symmetries(&geo);
        let a1 = 0u8;
        let b1 = 1u8;
        // Stones on a1 and b2 (the a1-d4 diagonal), and on b1 and a2: fixed
        // by the diagonal reflection only.
        let pos = Position { black: 1 << a1 | 1 << 5, white: 1 << b1 | 1 << 4 };
        let fixing: Vec<usize> = (1..t.count()).filter(|&r| t.position(r, &pos) == pos).collect();
        assert_eq!(fixing.len(), 1);
        let r = fixing[0];
        let mut e = Entry::VACANT;
        e.black = pos.black;
        e.white = pos.white;
        e.hits[0] = [pos.black, 0];
        e.abs[1] = [0, pos.white];
        e.pats[2] = [pos.black, pos.white];
        e.best = a1 + 2;
        e.sym = 1 << (r - 1);
        for (s, map) in maps.iter().enumerate().take(t.count()) {
            let m = e.mapped(&t, s);
            let img = t.position(s, &pos);
            assert_eq!((m.black, m.white), (img.black, img.white));
            assert_eq!(m.hits[0], [img.black, 0]);
            assert_eq!(m.abs[1], [0, img.white]);
            assert_eq!(m.pats[2], [img.black, img.white]);
            assert_eq!(m.best, map.point(a1) + 2);
            assert_eq!(m.sym.count_ones(), 1);
            let conj = m.sym.trailing_zeros() as usize + 1;
            assert_eq!(t.position(conj, &img), img, "s = {s}: the conjugate fixes the image");
        }
    }
}
