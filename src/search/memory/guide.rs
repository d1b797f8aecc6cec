//! df-pn's guide: the proof and disproof numbers of the nodes a test left
//! open, kept from one test to the next, shared by the df-pn threads of a
//! solve, and saved with the table in a checkpoint ([`crate::search::memory::Memory`]).
//! Numbers only choose which node df-pn expands, never decide anything (see
//! `crate::search::engines::solver::dfpn`).

use super::size::machine_table_mb;
use crate::search::tt::storage::{prefetch, work_rank, zeroed_vec};
use crate::search::tuning::{BUSY_SLOTS, MAX_GUIDE_ENTRIES};
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};
use std::sync::Arc;

/// Where a slot's key word holds the work rank of the node's earlier
/// expansions: its six top bits (see [`Guide`]).
const WORK_SHIFT: u32 = 58;

/// The bits of a guide key, below its slot's work rank.
pub(crate) const GUIDE_KEY_BITS: u64 = (1 << WORK_SHIFT) - 1;

/// Proof and disproof numbers of unresolved nodes by guide key. Per slot:
/// the key (its top six bits: the work rank of the nodes df-pn spent below
/// the node so far, see [`Guide::work`]) and `pn | dn << 32`, as two relaxed atomics, so that the df-pn
/// threads of a solve can share it: a slot read while another thread writes
/// it may pair one node's key with another's numbers, which only misguides
/// (numbers never decide anything). Beside them, the threads' work marks
/// (see "Parallel threads" in df-pn's module doc).
///
/// One slot per key, always overwritten: the newest numbers win. Buckets
/// that keep the numbers of the nodes with the most work below them (as
/// the table does for results) cost nodes where the guide is full: the
/// numbers of an expensive node from an earlier test, or from a part of the
/// tree df-pn has left, then stay and misguide, as in the larger guides of
/// [`guide_bits`] (`results/tuning.md`).
pub(crate) struct Guide {
    entries: Vec<[AtomicU64; 2]>,
    mask: usize,
    /// Per slot (by guide key): how many df-pn threads expand below a node
    /// with that key now. Only used when the guide is shared.
    busy: Vec<AtomicU8>,
}

impl Guide {
    /// The guide shared by the df-pn threads of a solve whose table has
    /// `table_mb` MiB (0: the default).
    pub(crate) fn for_table(table_mb: usize) -> Arc<Guide> {
        Arc::new(Guide::new(guide_bits(table_mb)))
    }
    /// A guide of 2^`bits` entries.
    pub(crate) fn new(bits: u32) -> Guide {
        Guide { entries: zeroed_vec(1 << bits), mask: (1 << bits) - 1, busy: zeroed_vec(BUSY_SLOTS) }
    }
    /// The numbers held now, as (key, `pn | dn << 32`) pairs (for a
    /// checkpoint; read while threads may write, which only misguides).
    pub(crate) fn saved_numbers(&self) -> Vec<(u64, u64)> {
        self.entries
            .iter()
            .map(|[k, n]| (k.load(Relaxed), n.load(Relaxed)))
            .filter(|&(k, n)| k != 0 && n != 0)
            .collect()
    }
    /// Put numbers read back from a checkpoint into their slots (by key,
    /// whatever the guide's size): guidance only, like every number here.
    /// Their work is not restored (a file of an older build has other bits
    /// there): work counts from this run.
    pub(crate) fn restore_numbers(&self, numbers: &[(u64, u64)]) {
        for &(key, n) in numbers {
            let [k, v] = &self.entries[key as usize & self.mask];
            k.store(key & GUIDE_KEY_BITS, Relaxed);
            v.store(n, Relaxed);
        }
    }
    /// The numbers (pn, dn) held for `key`, if its slot holds that key.
    #[inline(always)]
    pub(crate) fn get(&self, key: u64) -> Option<(u32, u32)> {
        let [k, n] = &self.entries[key as usize & self.mask];
        let (k, n) = (k.load(Relaxed), n.load(Relaxed));
        (k & GUIDE_KEY_BITS == key).then_some((n as u32, (n >> 32) as u32))
    }
    /// About the nodes df-pn spent below the node of `key` in its earlier
    /// expansions (the least of its work rank's range; 0 if its slot holds
    /// another key): added to the work a result of the node is stored with,
    /// so that the table's replacement and a seed's trim weigh the whole
    /// work behind a result, not only the last expansion's.
    #[inline(always)]
    pub(crate) fn work(&self, key: u64) -> u64 {
        let k = self.entries[key as usize & self.mask][0].load(Relaxed);
        match (k & GUIDE_KEY_BITS == key, (k >> WORK_SHIFT) as u32) {
            (true, rank) if rank > 0 => 1 << (rank - 1),
            _ => 0,
        }
    }
    /// Ask the CPU to fetch the slot of `key` (see
    /// [`Table::prefetch`](crate::search::tt::Table::prefetch)).
    #[inline(always)]
    pub(crate) fn prefetch(&self, key: u64) {
        prefetch(self.entries.as_ptr().wrapping_add(key as usize & self.mask), 1);
    }
    /// Set the numbers of `key` and the work spent below its node so far
    /// (its slot's previous ones are lost).
    #[inline(always)]
    pub(crate) fn put(&self, key: u64, pn: u32, dn: u32, work: u64) {
        let [k, n] = &self.entries[key as usize & self.mask];
        k.store(key | (work_rank(work).min(63) as u64) << WORK_SHIFT, Relaxed);
        n.store(pn as u64 | (dn as u64) << 32, Relaxed);
    }
    /// Whether a df-pn thread works below the node with guide key `gk` now
    /// (or below one whose key shares its slot). Only steers which child a
    /// thread expands; never decides anything.
    #[inline(always)]
    pub(crate) fn busy(&self, gk: u64) -> bool {
        self.busy[gk as usize & (BUSY_SLOTS - 1)].load(Relaxed) != 0
    }
    /// A df-pn thread starts (`enter`) or stops working below the node with
    /// guide key `gk`.
    #[inline(always)]
    pub(crate) fn mark_busy(&self, gk: u64, enter: bool) {
        let slot = &self.busy[gk as usize & (BUSY_SLOTS - 1)];
        if enter {
            slot.fetch_add(1, Relaxed);
        } else {
            slot.fetch_sub(1, Relaxed);
        }
    }
}

/// Log2 of the guide entries for a transposition table of `table_mb` MiB
/// (0: the default): a 32nd of the table's memory (32 MiB beside 1 GiB),
/// from 4,096 to 2^21 entries (32 MiB). The guide only holds open nodes of
/// the current test, far fewer than the results the table keeps; a larger
/// one only spreads them over more memory, and keeps old numbers that
/// misguide longer: even where 5x5 positions fill all 2^21 slots, more
/// slots cost nodes ([`MAX_GUIDE_ENTRIES`], `results/tuning.md`).
pub(crate) fn guide_bits(table_mb: usize) -> u32 {
    let mb = if table_mb == 0 { machine_table_mb() } else { table_mb };
    let entries = (mb << 20) / 32 / std::mem::size_of::<[u64; 2]>();
    entries.clamp(1 << 12, MAX_GUIDE_ENTRIES).ilog2()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A slot keeps its node's work beside its numbers: read back as the
    /// least of its rank's range, never for another key, and not restored
    /// from a checkpoint (whose keys may carry another build's bits).
    #[test]
    fn a_slot_keeps_the_work_below_its_node() {
        let g = Guide::new(12);
        let key = 0x0123_4567_89ab_cdef & GUIDE_KEY_BITS;
        assert_eq!((g.get(key), g.work(key)), (None, 0));
        g.put(key, 3, 5, 1000);
        assert_eq!((g.get(key), g.work(key)), (Some((3, 5)), 512));
        let other = key ^ 1 << 40;
        assert_eq!((g.get(other), g.work(other)), (None, 0));
        g.put(key, 3, 5, 0);
        assert_eq!(g.work(key), 0);
        g.put(key, 7, 9, u64::MAX);
        assert_eq!(g.work(key), 1 << 62);
        let saved = g.saved_numbers();
        let h = Guide::new(12);
        h.restore_numbers(&saved);
        assert_eq!((h.get(key), h.work(key)), (Some((7, 9)), 0));
    }
}
