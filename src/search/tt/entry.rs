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
use std::mem::MaybeUninit;

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
/// on (see [`super`]). The candidate set T is listed exactly here while it
/// has at most [`ABS`] members; a larger one is described by a box and a
/// Bloom filter of a kilobyte, kept beside it in a [`BloomSlot`] (`big`).
/// This is the form the reuse rule reads and a checkpoint keeps; the table
/// keeps each result as a record of only the words it uses (see "Records"
/// below, [`encode`] and [`decode`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, bincode::Encode, bincode::Decode)]
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
    /// is too large to list, and is described by the entry's [`BloomSlot`].
    pub(super) meta: u8,
}

/// [`Entry::meta`]'s bit for a big T.
pub(super) const BIG: u8 = 0x80;

/// How many situations a [`BloomSlot`] clears (see `clear`).
pub(super) const CLEAR: usize = 16;

/// The box and Bloom filter of an entry whose T is too large to list (see
/// [`Entry`]), and its cleared situations. Until 2026-11-28 the table kept
/// one per bucket of four entries, owned by at most one of them; now each
/// big result's record holds its own (see "Records").
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
    /// 1: the slot describes an entry's T; 0: none (an empty slot). (It was
    /// the owner's way in the table of four-entry buckets; checkpoints keep
    /// the field.)
    pub(super) owner: u8,
}

impl BloomSlot {
    /// No T (all zero).
    pub(super) const VACANT: BloomSlot = BloomSlot {
        ever: [0; 3],
        bloom: [0; BLOOM_WORDS],
        clear: [[0; 2]; CLEAR],
        clear_sides: 0,
        nclear: 0,
        owner: 0,
    };

    /// Cleared situation `i`, in the frame of the entry's dependencies.
    #[inline(always)]
    pub(super) fn cleared(&self, i: usize) -> SuperkoKey {
        SuperkoKey { black: self.clear[i][0], white: self.clear[i][1], side: (self.clear_sides >> (2 * i)) as u8 & 3 }
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

    /// Whether T is not listed but described by a Bloom slot.
    #[inline(always)]
    pub(super) fn big(&self) -> bool {
        self.meta & BIG != 0
    }

    /// This entry with its key, dependencies and best move mapped by
    /// symmetry `s` of `t` (a big T's box is in its slot and mapped
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

/// # Records: how an entry is kept in the table
///
/// The table does not keep [`Entry`]s as they are (192 bytes, and a big
/// T's 1,312-byte [`BloomSlot`] beside them) but as *records*: the same
/// fields, written as 64-bit words, leaving out what is unused. A record is
///
/// - the key (one word on boards of at most 32 points, `narrow`: black in
///   the low half, white in the high half; else two);
/// - a header word (flags, bound, value, best move, meta, symmetries,
///   horizon) and a counts word (sides, pattern colours, number of hits, of
///   listed candidates, which pattern slots are used);
/// - the hits, the listed candidates (a small T) and the used patterns,
///   each one coloring (one word narrow, else two);
/// - for a big T: its box (two words narrow, else three), a word with the
///   filter's form and the cleared situations' count and sides, the filter
///   and the cleared situations. The filter is kept as the gaps between its
///   set bits, Rice-coded ([`rice_param`]) while that is shorter than its
///   128 words, else as the 128 words: a filter of k set bits takes about
///   k (log2(8192 / k) + 1.5) bits, 18 words for 64 bits set instead of 128.
///
/// [`decode`] gives back exactly the entry and slot that were encoded
/// (every field, unused ones zero, as [`Entry`]s are built), so a record
/// means what its entry means and the reuse rule reads the same
/// dependencies: only the memory they take changes. On 5x5 a typical
/// result (one listed candidate, a pattern) takes 5 words instead of 192
/// bytes, and a big one a few hundred bytes instead of 1,312.
pub(super) const MAX_RECORD: usize = 2 + 2 + 2 * MAX_HITS + 2 * ABS + 2 * PATTERNS + 3 + 1 + BLOOM_WORDS + 2 * CLEAR;

/// The filter form code of a filter kept as its words (else the form is
/// the number of its set bits, at most [`BLOOM_WORDS`] · 64).
const DENSE: u64 = 0xffff;

/// The most bits a filter's Rice code may take: a word fewer than the
/// filter's own words, else the filter is kept as its words.
const RICE_LIMIT: usize = (BLOOM_WORDS - 1) * 64;

/// The Rice parameter for the gaps of a filter with `k` set bits: about
/// log2 of their mean times ln 2, the best for geometric gaps.
#[inline(always)]
fn rice_param(k: usize) -> u32 {
    (BLOOM_WORDS * 64 * 7 / 10 / k.max(1)).max(1).ilog2()
}

/// The set bits of `bloom` (`k` of them) Rice-coded into `out` (see
/// [`encode`]), every word written; the words written, or `None` where
/// they would be at least as many as the filter's own. The bits go out
/// through one word of 64 (`acc`), so nothing needs zeroing first. Where
/// the code could pass the limit at all ([`rice_bound`]) its length is
/// counted first ([`rice_bits`]), so a filter kept as its words is never
/// coded until it overflows.
fn rice_encode(bloom: &[u64; BLOOM_WORDS], k: usize, out: &mut [u64]) -> Option<usize> {
    let r = rice_param(k);
    if rice_bound(k) > RICE_LIMIT && rice_bits(bloom, k) > RICE_LIMIT {
        return None;
    }
    let cap = out.len().min(BLOOM_WORDS);
    let (mut acc, mut nacc, mut n) = (0u64, 0u32, 0usize);
    // `value` of `bits` bits (`bits` <= 64, `value` < 2^bits).
    let mut put = |value: u64, bits: u32, out: &mut [u64]| -> bool {
        acc |= value << nacc;
        let total = nacc + bits;
        if total < 64 {
            nacc = total;
            return true;
        }
        if n == cap {
            return false;
        }
        out[n] = acc;
        n += 1;
        acc = if nacc == 0 { 0 } else { value >> (64 - nacc) };
        nacc = total - 64;
        true
    };
    let mut next = 0u64;
    for (i, &x) in bloom.iter().enumerate() {
        let mut m = x;
        while m != 0 {
            let v = (i * 64) as u64 + m.trailing_zeros() as u64;
            m &= m - 1;
            let gap = v - next;
            next = v + 1;
            // The quotient in unary (ones, then a zero), at most 63 at a time,
            // then the remainder's `r` bits.
            let mut q = gap >> r;
            while q >= 63 {
                if !put((1 << 63) - 1, 63, out) {
                    return None;
                }
                q -= 63;
            }
            let low = gap & ((1 << r) - 1);
            let ok = if q as u32 + 1 + r <= 64 {
                put(((1 << q) - 1) | (low << (q + 1)), q as u32 + 1 + r, out)
            } else {
                put((1 << q) - 1, q as u32 + 1, out) && put(low, r, out)
            };
            if !ok {
                return None;
            }
        }
    }
    let bits = n * 64 + nacc as usize;
    if bits > RICE_LIMIT {
        return None;
    }
    if nacc > 0 {
        out[n] = acc;
        n += 1;
    }
    Some(n)
}

/// The most bits [`rice_encode`]'s code of any filter of `k` set bits can
/// take: each gap takes `gap >> r` bits in unary and `r + 1` more, and the
/// gaps add up to at most `BLOOM_WORDS · 64 − k`. Past the limit only for
/// more than 2,688 set bits (`r` of 0 or 1; `results/solve.md`).
fn rice_bound(k: usize) -> usize {
    let r = rice_param(k);
    k * (r as usize + 1) + ((BLOOM_WORDS * 64).saturating_sub(k) >> r)
}

/// The bits of [`rice_encode`]'s code of `bloom` (`k` set bits), without
/// writing it: what tells whether a filter is kept as its words. With
/// `r` = 0 each gap takes itself and one bit, so the code ends one bit
/// past the last set bit, read off the last word.
fn rice_bits(bloom: &[u64; BLOOM_WORDS], k: usize) -> usize {
    let r = rice_param(k);
    if r == 0 {
        return bloom.iter().rposition(|&x| x != 0).map_or(0, |i| i * 64 + 64 - bloom[i].leading_zeros() as usize);
    }
    let (mut bits, mut next) = (0usize, 0usize);
    for (i, &x) in bloom.iter().enumerate() {
        let mut m = x;
        while m != 0 {
            let v = i * 64 + m.trailing_zeros() as usize;
            m &= m - 1;
            bits += ((v - next) >> r) + 1 + r as usize;
            next = v + 1;
        }
    }
    bits
}

/// The filter of `k` set bits Rice-coded in `words` ([`rice_encode`]), set
/// in `bloom` (all zero before); the bits of code read (past the end of
/// `words` where it is cut short: bits there read as zeros), or `None`
/// where a set bit would lie outside the filter.
fn rice_decode(words: &[u64], k: usize, bloom: &mut [u64; BLOOM_WORDS]) -> Option<usize> {
    let r = rice_param(k);
    let mask = (1u64 << r) - 1;
    // The 64 bits from bit `at` on (zeros past the end).
    let peek = |at: usize| -> u64 {
        let (i, o) = (at >> 6, at & 63);
        let lo = words.get(i).map_or(0, |w| w >> o);
        if o == 0 {
            lo
        } else {
            lo | words.get(i + 1).map_or(0, |w| w << (64 - o))
        }
    };
    let mut at = 0usize;
    let mut next = 0u64;
    for _ in 0..k {
        let mut w = peek(at);
        let mut q = 0u64;
        let mut ones = w.trailing_ones();
        while ones == 64 {
            q += 64;
            at += 64;
            w = peek(at);
            ones = w.trailing_ones();
        }
        q += ones as u64;
        at += ones as usize + 1;
        let low = if ones + 1 + r <= 64 { (w >> ones >> 1) & mask } else { peek(at) & mask };
        at += r as usize;
        let v = next + (q << r | low);
        if v as usize >= BLOOM_WORDS * 64 {
            return None;
        }
        bloom[v as usize >> 6] |= 1 << (v & 63);
        next = v + 1;
    }
    Some(at)
}

/// Whether `words` is exactly what [`rice_encode`] writes for a filter of
/// `k` set bits (then decoded into `bloom`, all zero before): every set bit
/// inside the filter, the code within its words, as many words as it
/// needs, zeros after it, and short enough to be coded at all. The code of
/// a set of bits is one stream (the gaps, in order, each in unary and `r`
/// bits), so these checks tell a record's filter apart from any damage as
/// encoding the filter again and comparing would, at the cost of one
/// decode.
fn rice_decode_exact(words: &[u64], k: usize, bloom: &mut [u64; BLOOM_WORDS]) -> bool {
    let Some(bits) = rice_decode(words, k, bloom) else {
        return false;
    };
    let tail = match (bits % 64, words.last()) {
        (0, _) | (_, None) => 0,
        (used, Some(&w)) => w >> used,
    };
    bits <= RICE_LIMIT && words.len() == bits.div_ceil(64) && tail == 0
}

/// Writes a record's words.
struct Writer<'a> {
    out: &'a mut [u64; MAX_RECORD],
    n: usize,
    narrow: bool,
}

impl Writer<'_> {
    #[inline(always)]
    fn word(&mut self, w: u64) {
        self.out[self.n] = w;
        self.n += 1;
    }
    #[inline(always)]
    fn pair(&mut self, [a, b]: [Bits; 2]) {
        if self.narrow {
            self.word(a | b << 32);
        } else {
            self.word(a);
            self.word(b);
        }
    }
}

/// Reads a record's words.
struct Reader<'a> {
    words: &'a [u64],
    n: usize,
    narrow: bool,
}

impl Reader<'_> {
    #[inline(always)]
    fn word(&mut self) -> u64 {
        let w = self.words[self.n];
        self.n += 1;
        w
    }
    #[inline(always)]
    fn pair(&mut self) -> [Bits; 2] {
        if self.narrow {
            let w = self.word();
            [w & 0xffff_ffff, w >> 32]
        } else {
            let a = self.word();
            [a, self.word()]
        }
    }
}

/// Write `e` (with `slot`, its T's box and filter, when big) as a record
/// into `out` (see [`MAX_RECORD`]); returns its length in words.
/// `narrow`: the board has at most 32 points.
pub(super) fn encode(e: &Entry, slot: Option<&BloomSlot>, narrow: bool, out: &mut [u64; MAX_RECORD]) -> usize {
    encode_with(e, slot, narrow, out, |bloom, out| ENCODED.with_borrow_mut(|c| c.encode(bloom, out)))
}

/// [`encode`], a big T's filter written by `code`: [`rice_encode`] into
/// its second argument, with the set bits counted (`Some((set bits,
/// words))`), or `None` where the filter is kept as its words.
#[inline(always)]
fn encode_with(
    e: &Entry,
    slot: Option<&BloomSlot>,
    narrow: bool,
    out: &mut [u64; MAX_RECORD],
    code: impl FnOnce(&[u64; BLOOM_WORDS], &mut [u64]) -> Option<(u64, usize)>,
) -> usize {
    let mut w = Writer { out, n: 0, narrow };
    w.pair([e.black, e.white]);
    w.word(header_word(e));
    let patmask = (0..PATTERNS).fold(0u64, |m, i| m | ((e.pats[i] != [0, 0]) as u64) << i);
    w.word(
        e.sides as u64 | (e.pat_black as u64) << 16 | (e.nhits as u64) << 24 | (e.nabs as u64) << 32 | patmask << 40,
    );
    for h in &e.hits[..e.nhits as usize] {
        w.pair(*h);
    }
    if !e.big() {
        for c in &e.abs[..e.nabs as usize] {
            w.pair(*c);
        }
    }
    for (i, p) in e.pats.iter().enumerate() {
        if patmask >> i & 1 != 0 {
            w.pair(*p);
        }
    }
    if e.big() {
        let s = slot.expect("a big entry is encoded with its slot");
        w.pair([s.ever[0], s.ever[1]]);
        w.word(s.ever[2]);
        let at = w.n;
        let form = match code(&s.bloom, &mut w.out[at + 1..]) {
            Some((bits, n)) => {
                w.n += 1 + n;
                bits
            }
            None => {
                w.out[at + 1..at + 1 + BLOOM_WORDS].copy_from_slice(&s.bloom);
                w.n += 1 + BLOOM_WORDS;
                DENSE
            }
        };
        w.out[at] = form | (s.nclear as u64) << 16 | (s.clear_sides as u64) << 32;
        for c in &s.clear[..s.nclear as usize] {
            w.pair(*c);
        }
    }
    w.n
}

/// The header word of a record (see [`encode`]).
#[inline(always)]
fn header_word(e: &Entry) -> u64 {
    e.flags as u64
        | (e.bound as u64) << 8
        | (e.value as u8 as u64) << 16
        | (e.best as u64) << 24
        | (e.meta as u64) << 32
        | (e.sym as u64) << 40
        | (e.depth as u64) << 48
}

/// The entry a record holds ([`encode`]'s inverse); with `slot`, a big T's
/// box, filter and cleared situations written into it (marked owned).
pub(super) fn decode(words: &[u64], narrow: bool, slot: Option<&mut BloomSlot>) -> Entry {
    let (e, n) = decode_entry(words, narrow);
    if let (true, Some(s)) = (e.big(), slot) {
        let mut scratch = std::mem::MaybeUninit::uninit();
        let v = BigView::at(words, n, narrow, &mut scratch);
        // Decoded here, not through the cache of decoded filters: a result
        // decoded whole is one of a table's results in turn (a checkpoint's
        // save, a census), seen once, where the cache serves look-ups.
        if v.form == DENSE {
            s.bloom.copy_from_slice(v.filter);
        } else {
            s.bloom = [0; BLOOM_WORDS];
            let whole = rice_decode(v.filter, v.form as usize, &mut s.bloom);
            debug_assert!(whole.is_some(), "a filter's Rice code stays within the filter");
        }
        v.fill_all_but_filter(s);
        // It is mostly encoded again next (the save's wide form): its code
        // is the record's.
        ENCODED.with_borrow_mut(|c| c.remember(&s.bloom, v.form, v.filter));
    }
    e
}

/// The entry (and a big T's slot) that `words`, a record in the wide form
/// (`narrow` false) read from a file, holds; `None` where the words are not
/// a record [`encode`] writes. Its counts and lengths are checked before it
/// is decoded, so damage is an error and never a panic, and it is encoded
/// again to the same words, so what is read back is exactly what was saved.
/// A Rice-coded filter is decoded once and checked to be the code
/// [`rice_encode`] writes ([`rice_decode_exact`]), then written back as it
/// was read: coding it afresh would only repeat that check at the cost of
/// a second pass over its bits (a checkpoint of a big proof holds millions
/// of such filters).
pub(super) fn decode_checked(words: &[u64]) -> Option<(Entry, Option<BloomSlot>)> {
    let (h, c) = (*words.get(2)?, *words.get(3)?);
    let big = (h >> 32) as u8 & BIG != 0;
    let (nhits, nabs, patmask) = ((c >> 24) as u8 as usize, (c >> 32) as u8 as usize, c >> 40);
    if nhits > MAX_HITS || (!big && nabs > ABS) || patmask >> PATTERNS != 0 {
        return None;
    }
    let mut n = 4 + 2 * nhits + if big { 0 } else { 2 * nabs } + 2 * patmask.count_ones() as usize;
    let mut slot = BloomSlot::VACANT;
    // A Rice-coded filter's set bits and its code, as read.
    let mut coded: Option<(u64, &[u64])> = None;
    if big {
        // The box (a pair and a word), then the filter's form word.
        let m = *words.get(n + 3)?;
        let (form, nclear) = (m & 0xffff, (m >> 16) as u8 as usize);
        n += 4;
        let filter = &words[n..n + words.len().checked_sub(n + 2 * nclear)?];
        let whole = nclear <= CLEAR
            && match form {
                DENSE => {
                    let dense = filter.len() == BLOOM_WORDS;
                    if dense {
                        slot.bloom.copy_from_slice(filter);
                    }
                    dense
                }
                k => {
                    coded = Some((k, filter));
                    filter.len() <= BLOOM_WORDS
                        && k as usize <= BLOOM_WORDS * 64
                        && rice_decode_exact(filter, k as usize, &mut slot.bloom)
                }
            };
        if !whole {
            return None;
        }
    } else if n != words.len() {
        return None;
    }
    let (e, at) = decode_entry(words, false);
    if e.big() {
        let mut scratch = MaybeUninit::uninit();
        BigView::at(words, at, false, &mut scratch).fill_all_but_filter(&mut slot);
    }
    let slot = e.big().then_some(slot);
    let mut again = [0u64; MAX_RECORD];
    let len = encode_with(&e, slot.as_ref(), false, &mut again, |bloom, out| match coded {
        Some((k, code)) => {
            out[..code.len()].copy_from_slice(code);
            Some((k, code.len()))
        }
        // Kept as its words: a record only where its code would not be
        // shorter (the cache then keeps that for the table the result goes
        // into next); else coded, so the record is not the one read.
        None => ENCODED.with_borrow_mut(|c| c.encode(bloom, out)),
    });
    if again[..len] != *words {
        return None;
    }
    // What is read is put in a table next, which encodes the filter again.
    if let (Some(s), Some((k, code))) = (&slot, coded) {
        ENCODED.with_borrow_mut(|c| c.remember(&s.bloom, k, code));
    }
    Some((e, slot))
}

/// The entry a record holds and, for a big T, a view of the rest of the
/// record (its box, filter and cleared situations, read where they lie):
/// what a look-up reads. The filter is decoded only if the reuse rule gets
/// as far as asking for it ([`BigView::bloom`]), into `scratch`.
#[inline(always)]
pub(super) fn decode_view<'a>(
    words: &'a [u64],
    narrow: bool,
    scratch: &'a mut MaybeUninit<[u64; BLOOM_WORDS]>,
) -> (Entry, Option<BigView<'a>>) {
    let (e, n) = decode_entry(words, narrow);
    let view = e.big().then(|| BigView::at(words, n, narrow, scratch));
    (e, view)
}

/// The entry fields of a record (a big T's slot left out) and the words
/// they took.
#[inline(always)]
fn decode_entry(words: &[u64], narrow: bool) -> (Entry, usize) {
    let mut r = Reader { words, n: 0, narrow };
    let [black, white] = r.pair();
    let h = r.word();
    let c = r.word();
    let mut e = Entry {
        black,
        white,
        flags: h as u8,
        bound: (h >> 8) as u8,
        value: (h >> 16) as u8 as i8,
        best: (h >> 24) as u8,
        meta: (h >> 32) as u8,
        sym: (h >> 40) as u8,
        depth: (h >> 48) as u16,
        sides: c as u16,
        pat_black: (c >> 16) as u8,
        nhits: (c >> 24) as u8,
        nabs: (c >> 32) as u8,
        ..Entry::VACANT
    };
    for i in 0..e.nhits as usize {
        e.hits[i] = r.pair();
    }
    if !e.big() {
        for i in 0..e.nabs as usize {
            e.abs[i] = r.pair();
        }
    }
    let patmask = c >> 40;
    for i in 0..PATTERNS {
        if patmask >> i & 1 != 0 {
            e.pats[i] = r.pair();
        }
    }
    (e, r.n)
}

/// A big T as its record keeps it (see [`decode_view`]): the box, the
/// cleared situations, and the filter, as it lies in the record (its words)
/// or Rice-coded, then decoded on the first [`BigView::bloom`].
pub(super) struct BigView<'a> {
    pub(super) ever: [Bits; 3],
    pub(super) nclear: u8,
    clear_sides: u32,
    /// The filter's words, or its Rice code (`form` set bits).
    filter: &'a [u64],
    form: u64,
    /// The cleared situations' words.
    clear: &'a [u64],
    narrow: bool,
    /// Where a Rice-coded filter is decoded to, until it is.
    scratch: Option<&'a mut MaybeUninit<[u64; BLOOM_WORDS]>>,
    decoded: Option<&'a [u64; BLOOM_WORDS]>,
}

impl<'a> BigView<'a> {
    /// The view of the big part of record `words`, from word `n` on.
    #[inline(always)]
    fn at(words: &'a [u64], n: usize, narrow: bool, scratch: &'a mut MaybeUninit<[u64; BLOOM_WORDS]>) -> BigView<'a> {
        let mut r = Reader { words, n, narrow };
        let [b, w] = r.pair();
        let ever = [b, w, r.word()];
        let m = r.word();
        let nclear = (m >> 16) as u8;
        let form = m & 0xffff;
        let clear_words = nclear as usize * if narrow { 1 } else { 2 };
        let end = if form == DENSE { r.n + BLOOM_WORDS } else { words.len() - clear_words };
        BigView {
            ever,
            nclear,
            clear_sides: (m >> 32) as u32,
            filter: &words[r.n..end],
            form,
            clear: &words[end..end + clear_words],
            narrow,
            scratch: Some(scratch),
            decoded: None,
        }
    }

    /// The filter (decoded the first time it is asked for).
    #[inline(always)]
    pub(super) fn bloom(&mut self) -> &[u64; BLOOM_WORDS] {
        if self.form == DENSE {
            return self.filter.try_into().expect("a filter kept whole has its words");
        }
        if self.decoded.is_none() {
            let b = self.scratch.take().expect("decoded once").write([0; BLOOM_WORDS]);
            FILTERS.with_borrow_mut(|c| c.decode(self.filter, self.form, b));
            self.decoded = Some(b);
        }
        self.decoded.expect("decoded")
    }

    /// Write the box and the cleared situations into `s` (marked owned);
    /// its filter is left as it is.
    fn fill_all_but_filter(&self, s: &mut BloomSlot) {
        s.ever = self.ever;
        s.nclear = self.nclear;
        s.clear_sides = self.clear_sides;
        s.clear = [[0; 2]; CLEAR];
        for i in 0..s.nclear as usize {
            s.clear[i] = self.cleared_pair(i);
        }
        s.owner = 1;
    }

    /// Cleared situation `i` as its two colorings.
    #[inline(always)]
    fn cleared_pair(&self, i: usize) -> [Bits; 2] {
        if self.narrow {
            let w = self.clear[i];
            [w & 0xffff_ffff, w >> 32]
        } else {
            [self.clear[2 * i], self.clear[2 * i + 1]]
        }
    }

    /// Whether the cleared situations of the big T include `q` (as in the
    /// [`BloomSlot`] the record was encoded from), read from the record.
    #[inline]
    pub(super) fn clears(&self, q: &SuperkoKey, t: &SymmetryTables, to_node: usize) -> bool {
        if self.nclear == 0 {
            return false;
        }
        let back = t.inverse(to_node);
        let q = SuperkoKey { black: t.image(back, q.black), white: t.image(back, q.white), side: q.side };
        (0..self.nclear as usize).any(|i| {
            let [black, white] = self.cleared_pair(i);
            SuperkoKey { black, white, side: (self.clear_sides >> (2 * i)) as u8 & 3 } == q
        })
    }
}

/// Filters a thread decoded lately, by their code: a look-up of a big
/// result needs its filter in full (clause 2 of the reuse rule tests every
/// situation of the path against it), and df-pn looks the same children up
/// again and again, so most decodes repeat one made before (counted in
/// `results/solve.md`, commits fcc09c5 and d1d29a0). A hit is checked
/// against the whole code, so a filter taken from here is exactly the one
/// decoded from the record.
///
/// The slots live in one zeroed allocation: a page costs memory only once
/// a slot on it is written, and an all-zero slot is a true entry of both
/// caches (the empty filter, whose code is empty), so none needs filling
/// first.
struct FilterCache {
    /// [`SLOT_WORDS`] words a slot: form, code length, code, filter.
    words: Vec<u64>,
    slots: usize,
}

/// A slot: form, code length, then the code and the filter in
/// [`BLOOM_WORDS`] words each (2,064 bytes).
const SLOT_WORDS: usize = 2 + 2 * BLOOM_WORDS;

/// Slots of a thread's cache of decoded filters (at most 33.8 MB, touched
/// as they fill). The long ko fights of the strips keep coming back to
/// many more filters than the bench does, and with a small cache their
/// searches spent much of their time decoding; the sweep of sizes is in
/// `results/solve.md` (commit d1d29a0).
const DECODED_SLOTS: usize = 16_384;

/// Slots of a thread's cache of encoded filters: a store encodes far less
/// often than a look-up decodes.
const ENCODED_SLOTS: usize = 256;

thread_local! {
    /// Filters decoded, by their code.
    static FILTERS: std::cell::RefCell<FilterCache> = const { std::cell::RefCell::new(FilterCache::new(DECODED_SLOTS)) };
    /// Filters encoded, by the filter ([`FilterCache::encode`]).
    static ENCODED: std::cell::RefCell<FilterCache> = const { std::cell::RefCell::new(FilterCache::new(ENCODED_SLOTS)) };
}

/// A slot's `form` for a filter whose code would not be shorter than its
/// words ([`rice_encode`] gave `None`).
const UNCODED: u64 = u64::MAX;

/// A hash of `words` and `extra` to pick a cache slot by (a word-wise xor,
/// which vectorises, then mixed): slots are checked in full, so it only
/// spreads.
#[inline(always)]
fn slot_hash(words: &[u64], extra: u64) -> usize {
    let x = words.iter().fold(extra ^ words.len() as u64, |a, &w| a ^ w);
    (crate::search::tree::hash::mix(x) >> 32) as usize
}

/// One slot's words as its form, code length, code and filter.
type SlotParts<'a> = (&'a mut u64, &'a mut u64, &'a mut [u64], &'a mut [u64; BLOOM_WORDS]);

impl FilterCache {
    const fn new(slots: usize) -> FilterCache {
        FilterCache { words: Vec::new(), slots }
    }

    /// The slot that `hash` picks (the cache allocated, zeroed, at the first).
    fn slot(&mut self, hash: usize) -> SlotParts<'_> {
        if self.words.is_empty() {
            self.words = vec![0; self.slots * SLOT_WORDS];
        }
        let i = hash % self.slots;
        let (head, rest) = self.words[i * SLOT_WORDS..(i + 1) * SLOT_WORDS].split_at_mut(2);
        let (code, bloom) = rest.split_at_mut(BLOOM_WORDS);
        let [form, len] = head else { unreachable!("a slot's head is two words") };
        (form, len, code, bloom.try_into().expect("a slot's filter is BLOOM_WORDS words"))
    }

    /// Decode the filter of `form` set bits Rice-coded in `code` into
    /// `bloom` (all zero), or copy it from the slot that holds it.
    fn decode(&mut self, code: &[u64], form: u64, bloom: &mut [u64; BLOOM_WORDS]) {
        let cacheable = code.len() <= BLOOM_WORDS;
        let (s_form, s_len, s_code, s_bloom) = self.slot(slot_hash(code, form));
        if cacheable && *s_form == form && *s_len == code.len() as u64 && s_code[..code.len()] == *code {
            *bloom = *s_bloom;
            return;
        }
        let whole = rice_decode(code, form as usize, bloom);
        debug_assert!(whole.is_some(), "a filter's Rice code stays within the filter");
        if cacheable {
            *s_form = form;
            *s_len = code.len() as u64;
            s_code[..code.len()].copy_from_slice(code);
            *s_bloom = *bloom;
        }
    }

    /// Keep how a record holds `bloom` (`form` and `code`: its set bits and
    /// Rice code, or [`DENSE`] and its words), known to be what
    /// [`rice_encode`] gives, for the next [`FilterCache::encode`] of it.
    fn remember(&mut self, bloom: &[u64; BLOOM_WORDS], form: u64, code: &[u64]) {
        let (s_form, s_len, s_code, s_bloom) = self.slot(slot_hash(bloom, 0));
        *s_bloom = *bloom;
        if form == DENSE {
            *s_form = UNCODED;
            *s_len = 0;
        } else {
            *s_form = form;
            *s_len = code.len() as u64;
            s_code[..code.len()].copy_from_slice(code);
        }
    }

    /// [`rice_encode`] of `bloom` into `out` with its set bits counted:
    /// `Some((set bits, words))`, or `None` where it would not be shorter;
    /// copied from the slot that holds the same filter where one does.
    fn encode(&mut self, bloom: &[u64; BLOOM_WORDS], out: &mut [u64]) -> Option<(u64, usize)> {
        let (s_form, s_len, s_code, s_bloom) = self.slot(slot_hash(bloom, 0));
        let len = *s_len as usize;
        if *s_bloom == *bloom {
            if *s_form == UNCODED {
                return None;
            }
            out[..len].copy_from_slice(&s_code[..len]);
            return Some((*s_form, len));
        }
        let bits: usize = bloom.iter().map(|x| x.count_ones() as usize).sum();
        let n = rice_encode(bloom, bits, out);
        *s_bloom = *bloom;
        match n {
            Some(n) => {
                *s_form = bits as u64;
                *s_len = n as u64;
                s_code[..n].copy_from_slice(&out[..n]);
                Some((bits as u64, n))
            }
            None => {
                *s_form = UNCODED;
                *s_len = 0;
                None
            }
        }
    }
}

/// Whether two records of the same node hold the same dependencies: the
/// same hits, listed candidates, patterns, symmetries, orientation and
/// bigness, and for a big T the same box and filter (the cleared
/// situations aside), as [`Entry`]s and their slots compare; read on the
/// words (every field is encoded one way only), so a store decodes nothing.
#[inline(always)]
pub(super) fn same_dependencies_record(a: &[u64], b: &[u64], narrow: bool) -> bool {
    let (kw, pw) = if narrow { (1, 1) } else { (2, 2) };
    // meta (bits 32..40) and symmetries (40..48) of the header word; the
    // counts word whole (sides, pattern colours, counts, patterns used).
    const DEPS: u64 = 0xffff << 32;
    if (a[kw] ^ b[kw]) & DEPS != 0 || a[kw + 1] != b[kw + 1] {
        return false;
    }
    let c = a[kw + 1];
    let big = (a[kw] >> 32) as u8 & BIG != 0;
    let nabs = if big { 0 } else { (c >> 32) as u8 as usize };
    let pairs = (c >> 24) as u8 as usize + nabs + ((c >> 40) as u8).count_ones() as usize;
    let end = kw + 2 + pairs * pw;
    if a[kw + 2..end] != b[kw + 2..end] {
        return false;
    }
    if !big {
        return true;
    }
    let boxw = if narrow { 2 } else { 3 };
    if a[end..end + boxw] != b[end..end + boxw] {
        return false;
    }
    let (ma, mb) = (a[end + boxw], b[end + boxw]);
    if ma & 0xffff != mb & 0xffff {
        return false;
    }
    let from = end + boxw + 1;
    let to = |r: &[u64], m: u64| {
        if m & 0xffff == DENSE {
            from + BLOOM_WORDS
        } else {
            r.len() - (m >> 16) as u8 as usize * pw
        }
    };
    a[from..to(a, ma)] == b[from..to(b, mb)]
}

/// Whether the record `words` is stored under `key` (its key and flags
/// only: a look-up reads no more before it matches).
#[inline(always)]
pub(super) fn record_is_for(words: &[u64], narrow: bool, key: &NodeKey) -> bool {
    if narrow {
        words[0] == key.pos.black | key.pos.white << 32 && words[1] as u8 == key.flags
    } else {
        words[0] == key.pos.black && words[1] == key.pos.white && words[2] as u8 == key.flags
    }
}

/// The header fields of a record, without decoding the rest: (flags,
/// bound, best, meta), and its key.
#[inline(always)]
pub(super) fn record_head(words: &[u64], narrow: bool) -> (u8, u8, u8, u8, Position) {
    let (black, white, h) =
        if narrow { (words[0] & 0xffff_ffff, words[0] >> 32, words[1]) } else { (words[0], words[1], words[2]) };
    (h as u8, (h >> 8) as u8, (h >> 24) as u8, (h >> 32) as u8, Position { black, white })
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

/// Per record: in bits 8..32 a 24-bit fingerprint of its key (0: vacant),
/// in the low byte the log2 of the work behind it (the replacement rank), in
/// bits 32..34 the bound code, in bits 40..48 the value, and where the
/// record lies in its bucket: its first word in bits 48..56, its length in
/// words in bits 56..64. A fingerprint only filters: every match is
/// confirmed on the full key. The bound and value let [`Table::probe_cut`]
/// skip records that cannot give a cutoff without touching them.
///
/// [`Table::probe_cut`]: super::Table::probe_cut
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

/// `tag` pointing at the record of `len` words from word `off`.
#[inline(always)]
pub(super) fn tag_at(tag: Tag, off: usize, len: usize) -> Tag {
    debug_assert!(off < 256 && len < 256 && len > 0);
    tag & ((1 << 48) - 1) | (off as u64) << 48 | (len as u64) << 56
}

/// The first word of a tag's record.
#[inline(always)]
pub(super) fn tag_off(tag: Tag) -> usize {
    (tag >> 48) as u8 as usize
}

/// The length in words of a tag's record (0: vacant).
#[inline(always)]
pub(super) fn tag_len(tag: Tag) -> usize {
    (tag >> 56) as usize
}

/// The bound code of a tag.
#[inline(always)]
pub(super) fn tag_code(tag: Tag) -> u8 {
    (tag >> 32) as u8 & 3
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

    /// A record decodes to the entry and slot it was encoded from, on a
    /// narrow board (one word a coloring) and a wide one, small and big,
    /// with a sparse filter and a dense one.
    #[test]
    fn records_round_trip() {
        for (narrow, all) in [(true, (1u64 << 25) - 1), (false, !0u64)] {
            let mut e = Entry::VACANT;
            let b = |k: u64| crate::search::tree::hash::mix(k) & all;
            e.black = b(1) & !b(2);
            e.white = b(2);
            e.nhits = 2;
            e.hits = [[b(3), b(4) & !b(3)], [b(5), 0]];
            e.nabs = 3;
            e.abs[0] = [b(6), 0];
            e.abs[1] = [0, b(7)];
            e.abs[2] = [b(8) & !b(9), b(9)];
            e.pats[1] = [b(10), b(11)];
            e.pats[3] = [0, b(12)];
            e.pat_black = 0b0010;
            e.sides = 0b10_01_00_10_01;
            e.sym = 0x55;
            e.depth = 300;
            e.flags = 5;
            e.bound = LOWER;
            e.value = -17;
            e.best = 9;
            e.meta = 3;
            let mut out = [0; MAX_RECORD];
            let n = encode(&e, None, narrow, &mut out);
            assert_eq!(n, if narrow { 3 + 2 + 3 + 2 } else { 4 + 4 + 6 + 4 });
            assert_eq!(decode(&out[..n], narrow, None), e);
            if !narrow {
                assert_eq!(decode_checked(&out[..n]).map(|(d, s)| (d, s.is_none())), Some((e, true)));
                assert!(decode_checked(&out[..n - 1]).is_none() && decode_checked(&out[..n + 1]).is_none());
            }
            for bits in [1usize, 37, 200, 508, 1300, 4000, 8192] {
                let mut big = e;
                big.meta |= BIG;
                big.nabs = ABS as u8 + 1;
                big.abs = [[0; 2]; ABS];
                big.sides &= 0b1111;
                let mut slot = BloomSlot::VACANT;
                slot.ever = [b(13), b(14), b(15)];
                for k in 0..bits {
                    let i = (k * 7919) % (64 * BLOOM_WORDS);
                    slot.bloom[i >> 6] |= 1 << (i & 63);
                }
                for q in 0..3 {
                    assert!(slot.add_cleared(&SuperkoKey { black: b(20 + q), white: 0, side: q as u8 }));
                }
                slot.owner = 1;
                let n = encode(&big, Some(&slot), narrow, &mut out);
                let mut back = BloomSlot::VACANT;
                assert_eq!(decode(&out[..n], narrow, Some(&mut back)), big);
                assert_eq!(back.ever, slot.ever);
                assert_eq!(back.bloom, slot.bloom, "{bits} bits");
                assert_eq!((back.nclear, back.clear_sides, back.clear), (slot.nclear, slot.clear_sides, slot.clear));
                if !narrow {
                    // Read back from a file: the same entry and slot, and
                    // a record cut short or with a word too many is none.
                    let (d, s) = decode_checked(&out[..n]).expect("a record");
                    let s = s.expect("a big result's slot");
                    assert_eq!((d, s.bloom, s.clear), (big, slot.bloom, slot.clear), "{bits} bits");
                    assert!(decode_checked(&out[..n - 1]).is_none(), "{bits} bits, cut short");
                    assert!(decode_checked(&out[..n + 1]).is_none(), "{bits} bits, a word too many");
                }
                let pw = if narrow { 1 } else { 2 };
                let filter_words = n - (pw + 2 + pw * 4 + pw + 1 + 1 + pw * 3);
                let k = bits as f64;
                let bound = k * ((8192.0 / k).log2() + 2.0) / 64.0 + 1.0;
                assert!(filter_words as f64 <= bound.min(BLOOM_WORDS as f64), "{bits} bits: {filter_words} words");
            }
        }
    }

    /// A record read from a file is taken only as [`encode`] writes it: for
    /// big results of sparse, dense and in-between filters, every record
    /// with one bit flipped, one word cut or one zero word added is refused
    /// or is the record of what it decodes to (encoded afresh, past every
    /// cache), and the cache of encoded filters gives that record too.
    #[test]
    fn a_damaged_record_is_refused_or_is_what_it_reads() {
        let b = |k: u64| crate::search::tree::hash::mix(k);
        let fresh = |e: &Entry, s: Option<&BloomSlot>, out: &mut [u64; MAX_RECORD]| {
            encode_with(e, s, false, out, |bloom, out| {
                let bits: usize = bloom.iter().map(|x| x.count_ones() as usize).sum();
                rice_encode(bloom, bits, out).map(|n| (bits as u64, n))
            })
        };
        let mut e = Entry::VACANT;
        e.black = b(1) & !b(2);
        e.white = b(2);
        e.nhits = 1;
        e.hits[0] = [b(3), b(4) & !b(3)];
        e.nabs = ABS as u8 + 1;
        e.meta = BIG;
        e.bound = LOWER;
        e.value = 3;
        let (mut taken, mut refused) = (0, 0);
        for bits in [0usize, 1, 37, 508, 1300, 1700, 8192] {
            let mut slot = BloomSlot::VACANT;
            slot.ever = [b(13), b(14), b(15)];
            for k in 0..bits {
                let i = (k * 7919 + 11) % (64 * BLOOM_WORDS);
                slot.bloom[i >> 6] |= 1 << (i & 63);
            }
            assert!(slot.add_cleared(&SuperkoKey { black: b(20), white: 0, side: 1 }));
            slot.owner = 1;
            let mut rec = [0; MAX_RECORD];
            let n = fresh(&e, Some(&slot), &mut rec);
            let mut damaged: Vec<Vec<u64>> = vec![rec[..n - 1].to_vec(), [&rec[..n], &[0][..]].concat()];
            for at in 0..n * 64 {
                let mut w = rec[..n].to_vec();
                w[at / 64] ^= 1 << (at % 64);
                damaged.push(w);
            }
            for w in damaged {
                let Some((d, s)) = decode_checked(&w) else {
                    refused += 1;
                    continue;
                };
                taken += 1;
                let mut again = [0; MAX_RECORD];
                let len = fresh(&d, s.as_ref(), &mut again);
                assert_eq!(again[..len], w[..], "{bits} bits");
                let len = encode(&d, s.as_ref(), false, &mut again);
                assert_eq!(again[..len], w[..], "{bits} bits, through the cache");
            }
        }
        // Flips in the key, the value or a dense filter's words make other
        // records; others break the counts, the lengths or the code.
        assert!(taken > 0 && refused > 0, "{taken} taken, {refused} refused");
    }

    /// A filter whose Rice code is longer than the limit, though within the
    /// filter's 128 words, is kept as its words: the same filter given as
    /// that code is no record.
    #[test]
    fn a_code_past_the_limit_is_no_record() {
        // The gaps' code without the limit: ones, a zero, `r` bits each.
        let code_of = |bloom: &[u64; BLOOM_WORDS], k: usize| -> (Vec<u64>, usize) {
            let r = rice_param(k);
            let mut bits: Vec<bool> = Vec::new();
            let mut next = 0;
            for v in (0..BLOOM_WORDS * 64).filter(|&v| bloom[v >> 6] >> (v & 63) & 1 != 0) {
                let gap = v - next;
                next = v + 1;
                bits.extend(std::iter::repeat_n(true, gap >> r));
                bits.push(false);
                bits.extend((0..r).map(|i| gap >> i & 1 != 0));
            }
            let mut words = vec![0u64; bits.len().div_ceil(64)];
            for (i, _) in bits.iter().enumerate().filter(|(_, &one)| one) {
                words[i / 64] |= 1 << (i % 64);
            }
            (words, bits.len())
        };
        let mut e = Entry::VACANT;
        e.meta = BIG;
        e.nabs = ABS as u8 + 1;
        let mut found = 0;
        for set in (2600..3200).step_by(13) {
            let mut slot = BloomSlot::VACANT;
            for k in 0..set {
                let i = (k * 7919 + 5) % (64 * BLOOM_WORDS);
                slot.bloom[i >> 6] |= 1 << (i & 63);
            }
            slot.owner = 1;
            let (code, bits) = code_of(&slot.bloom, set);
            assert_eq!(rice_bits(&slot.bloom, set), bits, "{set} bits set");
            assert!(rice_bound(set) >= bits, "{set} bits set: the bound holds");
            // The encoder, which counts first near the limit, gives the code
            // or refuses it as the code's own length says.
            let mut out = [0u64; BLOOM_WORDS];
            match rice_encode(&slot.bloom, set, &mut out) {
                Some(n) => assert!(bits <= RICE_LIMIT && out[..n] == code[..], "{set} bits set"),
                None => assert!(bits > RICE_LIMIT, "{set} bits set"),
            }
            if bits <= RICE_LIMIT || bits > BLOOM_WORDS * 64 {
                continue;
            }
            found += 1;
            let mut rec = [0; MAX_RECORD];
            let n = encode(&e, Some(&slot), false, &mut rec);
            let at = n - BLOOM_WORDS - 1;
            assert_eq!(rec[at] & 0xffff, DENSE, "{set} bits: kept as its words");
            let mut coded = rec[..at + 1].to_vec();
            coded[at] = coded[at] & !0xffff | set as u64;
            coded.extend_from_slice(&code);
            assert!(decode_checked(&coded).is_none(), "{set} bits: a code of {bits} bits");
        }
        assert!(found > 0, "no filter with a code just past the limit");
        // Only filters of more than 2,688 set bits may need counting first.
        let first = (0..=BLOOM_WORDS * 64).find(|&k| rice_bound(k) > RICE_LIMIT);
        assert_eq!(first, Some(2689));
        assert!((2689..=BLOOM_WORDS * 64).all(|k| rice_bound(k) > RICE_LIMIT));
    }

    /// A fresh (all-zero) cache slot is a true entry of both caches, and a
    /// cache of few slots, whose filters keep evicting each other, gives
    /// exactly what decoding and encoding give.
    #[test]
    fn filter_caches_give_what_the_code_gives() {
        let zero = [0u64; BLOOM_WORDS];
        let mut out = [0u64; BLOOM_WORDS];
        assert_eq!(rice_encode(&zero, 0, &mut out), Some(0));
        let (mut decoded, mut encoded) = (FilterCache::new(3), FilterCache::new(3));
        let mut b = [1u64; BLOOM_WORDS];
        decoded.decode(&[], 0, &mut b);
        assert_eq!(b, zero);
        assert_eq!(encoded.encode(&zero, &mut out), Some((0, 0)));
        for round in 0..3 {
            for bits in [1usize, 37, 200, 508, 1300, 4000, 8192] {
                let mut bloom = zero;
                for k in 0..bits {
                    let i = (k * 7919 + round) % (64 * BLOOM_WORDS);
                    bloom[i >> 6] |= 1 << (i & 63);
                }
                let set: usize = bloom.iter().map(|w| w.count_ones() as usize).sum();
                let mut code = [0u64; BLOOM_WORDS];
                let want = rice_encode(&bloom, set, &mut code);
                match want {
                    Some(n) => assert_eq!(rice_bits(&bloom, set).div_ceil(64), n, "{bits} bits"),
                    None => assert!(rice_bits(&bloom, set) > RICE_LIMIT, "{bits} bits"),
                }
                let mut got = [0u64; BLOOM_WORDS];
                let gave = encoded.encode(&bloom, &mut got);
                assert_eq!(gave, want.map(|n| (set as u64, n)), "{bits} bits");
                if let Some(n) = want {
                    assert_eq!(got[..n], code[..n]);
                    // A miss, then a hit.
                    for _ in 0..2 {
                        let mut back = zero;
                        decoded.decode(&code[..n], set as u64, &mut back);
                        assert_eq!(back, bloom, "{bits} bits, round {round}");
                    }
                }
            }
        }
    }

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
