//! Every hash function of the search, in one place, each with its purpose.
//!
//! None of them can change a value: every look-up they serve compares exact
//! keys (the table, the path's map, the Benson cache), or they only
//! over-approximate (the Bloom filters), or they only guide (df-pn's proof
//! numbers). But they decide which slot and which filter bits a key gets, so
//! they decide node counts: the bench signature depends on every formula
//! here. Move them freely; change one only as a measured search change.

use crate::rules::history::SuperkoKey;
use crate::rules::position::Position;
use crate::rules::symmetry::SymmetryTables;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

// ---------------------------------------------------------------------------
// The path's map from situations to their latest ply.

/// A small multiplicative hasher for exact 128-bit keys (std's SipHash is
/// needlessly slow here and collisions cost only a probe, never correctness:
/// the map compares keys exactly).
#[derive(Default, Clone, Copy)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    #[inline(always)]
    fn finish(&self) -> u64 {
        self.0
    }
    #[inline(always)]
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    #[inline(always)]
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(29) ^ x).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    #[inline(always)]
    fn write_u8(&mut self, x: u8) {
        self.write_u64(x as u64)
    }
}

pub type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<KeyHasher>>;

// ---------------------------------------------------------------------------
// Bloom filters of canonical colorings: the table entries' candidate
// filters, tested with the hash each path situation keeps.

/// Words of the Bloom filter of a [`crate::search::tt::Dep`]'s candidates.
///
/// The filter's precision is what lets big results be reused: a proof tree
/// of a ko fight has hundreds of candidates, and a situation of a long path
/// that falsely hits the filter forbids reuse. On the 1x9 position after
/// Black a1, 256 bits cost 58 M nodes, 1,024 bits 14 M, 4,096 bits 2.6 M and
/// 8,192 bits 2.0 M (see `results/solve.md`); larger filters cost more in
/// copying than they save.
pub const BLOOM_WORDS: usize = 128;
/// Bits of that filter (a power of two).
pub const BLOOM_BITS: usize = BLOOM_WORDS * 64;
const BLOOM_SHIFT: u32 = 64 - BLOOM_BITS.trailing_zeros();

/// Bits each coloring sets in a Bloom filter.
///
/// Deep results of ko fights have hundreds of candidates and are checked
/// against paths of 50 to 80 situations, where a false positive anywhere
/// forbids reuse: with 500 candidates in 8,192 bits, a path of 76 is
/// falsely hit with probability 0.63 at two bits per coloring and 0.15 at
/// four. Measured, one thread: 1x11 every root move 103 M → 40 M nodes,
/// 1x11 value-only 15.1 M → 10.8 M, 1x10 7.1 M → 4.6 M; 3x3, 3x4, 2x5
/// unchanged. Four 13-bit indices use 52 bits of one 64-bit hash.
pub const BLOOM_HASHES: usize = 4;
const _: () = assert!(
    (BLOOM_HASHES as u32 - 1) * BLOOM_BITS.trailing_zeros() <= BLOOM_SHIFT
        && BLOOM_SHIFT - (BLOOM_HASHES as u32 - 1) * BLOOM_BITS.trailing_zeros() >= 1,
    "the Bloom indices of a coloring must fit in one 64-bit hash"
);

/// The Bloom hash of a coloring: one 64-bit hash from which
/// [`bloom_bits_of`] takes the filter bits.
///
/// Filters and path situations hash the *canonical* coloring (the least
/// image under the board's symmetries, [`Path::canon`](super::path::Path::canon)),
/// so that a filter describes its candidates and every symmetric image of
/// them at once: a table result found in one frame can then be reused at
/// a symmetric node without mapping the filter (which keeps no members and
/// cannot be mapped). See "Symmetry" in [`crate::search::tt`].
///
/// Never 0 (bit 0 is set; [`bloom_bits_of`] reads only bits 12 and up), so
/// that 0 can mean "not computed yet" on the path.
#[inline(always)]
pub fn bloom_hash(black: u64, white: u64) -> u64 {
    (black.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ white.wrapping_mul(0xD6E8_FEB8_6659_FD93))
        .wrapping_mul(0xFF51_AFD7_ED55_8CCD)
        | 1
}

/// The Bloom hash of the canonical image of `pos` under the symmetries of
/// `t` (see [`bloom_hash`]): the one function by which path situations
/// ([`Path::canon`](super::path::Path::canon)) and candidates are hashed.
#[inline]
pub fn canonical_bloom_hash(t: &SymmetryTables, pos: &Position) -> u64 {
    let (c, _) = t.canonical(pos);
    bloom_hash(c.black, c.white)
}

/// The Bloom filter bits (0..BLOOM_BITS) of a coloring with Bloom hash `h`
/// ([`bloom_hash`]), shared by the path index (which uses the first) and
/// the table's candidate filters.
#[inline(always)]
pub fn bloom_bits_of(h: u64) -> [usize; BLOOM_HASHES] {
    let width = BLOOM_BITS.trailing_zeros();
    std::array::from_fn(|i| (h >> (BLOOM_SHIFT - i as u32 * width)) as usize & (BLOOM_BITS - 1))
}

// ---------------------------------------------------------------------------
// The transposition table's slots.

/// Hash of a table key (both bitboards and the node flags: side to move, pass
/// played): its low bits choose the bucket, bits 40..64 give the tags'
/// fingerprint (see `tt::entry`).
#[inline(always)]
pub fn table_hash(black: u64, white: u64, flags: u8) -> u64 {
    let mut h = black.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    h ^= white.wrapping_mul(0xC2B2_AE3D_27D4_EB4F).rotate_left(31);
    h ^= flags as u64;
    h ^ (h >> 29)
}

// ---------------------------------------------------------------------------
// df-pn's guide (proof numbers keyed on the situation) and its Benson cache.

/// A 64-bit finaliser (MurmurHash3's fmix64): spreads every input bit over
/// the output, for keys built by xoring products.
#[inline(always)]
pub fn mix(mut h: u64) -> u64 {
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ (h >> 33)
}

/// Hash of one situation of a history; a history's hash is the wrapping
/// sum over its situations, so a child's is its parent's plus one term.
#[inline(always)]
pub fn situation_hash(k: &SuperkoKey) -> u64 {
    mix(k.black.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ k.white.wrapping_mul(0xC2B2_AE3D_27D4_EB4F).rotate_left(29)
        ^ k.side as u64)
}

/// Guide key of a node whose table key has hash `h` (see
/// `tt::NodeKey::hash`): the situation only (its canonical image, side to
/// move, pass), neither the history nor the test's b, so that every line to
/// a situation and every test of the same driver share its numbers (see
/// "Which lines share numbers" in `search::engines::solver::dfpn`; on strips the
/// history hash is mixed in). Mixed again so that its low bits, which choose
/// the guide slot, are not the table's.
#[inline(always)]
pub fn guide_key(h: u64) -> u64 {
    mix(h ^ 0x5851_F42D_4C95_7F2D)
}

/// Hash of a coloring alone, for the Benson cache (Benson's bounds depend
/// on the coloring only).
#[inline(always)]
pub fn coloring_hash(pos: &Position) -> u64 {
    mix(pos.black ^ pos.white.rotate_left(32).wrapping_mul(0x9E37_79B9_7F4A_7C15))
}
