//! What one slot of the table holds: an [`Entry`] (the node's exact key, the
//! result, and its dependencies as stored keys) and its [`Tag`], the summary
//! a probe reads first.

use super::dep::{Pattern, ABS, MAX_HITS, PATTERNS};
use crate::rules::geometry::Bits;
use crate::rules::history::SuperkoKey;
use crate::rules::position::{Color, Move};
use crate::search::hash::{table_hash, BLOOM_WORDS};
use crate::search::node::Node;

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

#[derive(Clone, Copy, Debug)]
pub(super) struct Entry {
    pub(super) black: Bits,
    pub(super) white: Bits,
    /// bit 0: white to move; bit 1: one pass just played; bit 2: used.
    pub(super) flags: u8,
    pub(super) bound: u8,
    pub(super) value: i8,
    /// Horizon (plies) of an `Unknown` entry.
    pub(super) depth: u16,
    /// 0 none, 1 pass, 2 + p the point p (all-zero is a vacant entry).
    pub(super) best: u8,
    pub(super) nhits: u8,
    pub(super) ever: [Bits; 3],
    pub(super) bloom: [u64; BLOOM_WORDS],
    /// Bits set in `bloom`, counted once when stored (the reuse check
    /// chooses its path scan by it).
    pub(super) bloom_set: u16,
    pub(super) hits: [SuperkoKey; MAX_HITS],
    pub(super) nabs: u8,
    pub(super) abs: [SuperkoKey; ABS],
    /// P: patterns of situations that must stay absent (guarded bounds).
    pub(super) pats: [Pattern; PATTERNS],
    /// S: symmetries the history must keep (clause 4 of the reuse rule).
    pub(super) sym: u8,
}

/// The move an entry's `best` code stands for (see [`Entry`]).
pub(super) fn decode_best(code: u8) -> Option<Move> {
    match code {
        0 => None,
        1 => Some(Move::Pass),
        p => Some(Move::Play(p - 2)),
    }
}

/// Where a node's entries live and how they are recognised: its flags, the
/// hash of its key and the fingerprint its tags carry.
pub(super) struct NodeKey {
    pub(super) flags: u8,
    pub(super) h: u64,
    pub(super) fp: u32,
}

impl NodeKey {
    #[inline(always)]
    pub(super) fn of(node: &Node) -> NodeKey {
        let flags = node_flags(node);
        let h = table_hash(node.pos.black, node.pos.white, flags);
        NodeKey { flags, h, fp: fingerprint(h) }
    }
}

impl Entry {
    /// Whether this entry is keyed on `node` (whose flags are `flags`).
    #[inline(always)]
    pub(super) fn is_for(&self, flags: u8, node: &Node) -> bool {
        self.flags == flags && self.black == node.pos.black && self.white == node.pos.white
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
