//! Where entries live: the bucketed, lock-striped [`Table`] shared by the
//! threads of a solve, its probes (each applying the reuse rule of
//! [`super`]), its stores and its replacement policy.

use super::dep::{Dep, ABS, EMPTY_KEY, MAX_HITS};
use super::entry::*;
use super::{may_be_candidate, reusable};
use crate::rules::geometry::{Bits, Geometry};
use crate::rules::history::SuperkoKey;
use crate::rules::position::{Color, Move, Position};
use crate::rules::symmetry::{Images, SymmetryTables};
use crate::search::tree::hash::table_hash;
use crate::search::tree::node::Node;
use crate::search::tree::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;

/// Records a bucket holds at most: its row of tags.
const WAYS: usize = 32;

/// Words (of 64 bits) of a bucket's records (see "Records" in
/// [`super::entry`]): 2 KiB, room for the largest record (a big T whose
/// filter is kept whole, about 1.1 KiB) beside others.
const BUCKET_WORDS: usize = 256;

// A tag keeps a record's first word and length in a byte each, and the
// largest record must fit an empty bucket.
const _: () = assert!(MAX_RECORD < 256 && MAX_RECORD <= BUCKET_WORDS && BUCKET_WORDS <= 256);

/// A bucketed table of exact-keyed results with history dependencies.
///
/// The table is shared by the threads of a parallel solve: bucket `i` is only
/// read or written while holding stripe lock `i % STRIPES`, so a bucket is
/// never seen half-written. Entries carry their own dependencies, so sharing
/// them between threads is exactly as sound as reusing them within one.
///
/// # Buckets of records
///
/// A node's results live in one bucket, chosen by its key's hash: 2 KiB of
/// records of any length (each result as few words as its dependencies
/// need, see "Records" in [`super::entry`]) and a row of [`WAYS`] tags,
/// one per record, which also say where in the bucket it lies. Until
/// 2026-11-28 a bucket held four fixed entries of 192 bytes and one Bloom
/// slot of 1,312 bytes that at most one of them could own: 528 bytes a
/// result, and on the 5x5 proofs two stores in five were of big results
/// competing for a quarter of the places (`results/solve.md`).
///
/// A store writes over the same result (the same node with the same
/// dependencies) if the bucket holds it, else makes room by evicting the
/// records with the least work behind them (of equal work, the longest
/// first) until a tag and enough words are free, and moves the others
/// together when the free words are scattered.
///
/// # Growth
///
/// The table's memory is reserved at its full size but used from a small
/// start (32 MiB, `START_BYTES`; on boards of at most 16 points,
/// `GROWING_POINTS`), doubled (`GROWTH`) whenever three quarters of the ways
/// in use are filled, up to the full size. The operating system commits a page only
/// when it is first written, so a short solve commits what it needs instead
/// of the whole table. That first write is not free: on the 2-core test
/// machine (a virtual machine) the kernel's zeroing of a fresh 2.9 GiB table
/// cost up to 7 s of system time, and a 3x3 solve of 4,215 nodes took 1.2 s
/// and 1.1 GiB, its few thousand stores scattered over as many huge pages.
///
/// Growing never gives a wrong result: every record is checked against the
/// whole key, so a record found in any bucket is the result it claims to
/// be. A look-up that misses a record (moved, or not yet moved, while the
/// table grows) only costs work, like a replaced one. So the other threads
/// need not stop: the growing thread publishes the new length first, then
/// moves each record to the bucket of its key under the new length (see
/// `Table::grow`); a thread still using the old length for one operation
/// reads or writes a bucket that exists either way, under its stripe lock.
pub struct Table {
    buckets: Buckets,
    locks: Vec<Mutex<()>>,
    /// Buckets in use now (any number: see [`Table::bucket`]); at most
    /// `buckets.len`.
    len: AtomicUsize,
    /// Records stored without evicting another since the start (flushed by
    /// the searchers in batches: [`Table::add_fills`]), less records dropped
    /// while growing. Approximate: it only decides when to grow.
    filled: AtomicUsize,
    /// Set while one thread grows the table.
    growing: AtomicBool,
    /// The searchers' [`Churn`] since the last census, added up.
    churn: [AtomicU64; Churn::FIELDS],
    /// Whether colorings take one word in a record (boards of at most 32
    /// points) or two.
    narrow: bool,
    all: Bits,
    /// The board's symmetries: every position is stored under its canonical
    /// image (see "symmetry" in [`super`]).
    sym: SymmetryTables,
}

/// The size a table starts at (see "Growth" in [`Table`]); smaller tables
/// do not grow.
const START_BYTES: usize = 32 << 20;

/// The largest boards whose tables grow (see [`Table::new`]). Solves on
/// larger boards run long enough that the first touch of the table is a
/// small part of them, and growing cost more than it saved there: a 5x5
/// position of 16 empty points (game 5 of `scripts/five-by-five.py`,
/// value-only, two threads) took 10.9–13.0 s with the full table from the
/// start and 15.3–19.4 s growing. The alpha-beta helper filled the table
/// to 2 GiB within seconds: six doublings, 3.4 s of one thread, while the
/// other searched on with misses (one thread alone grew only to 322 MiB).
const GROWING_POINTS: usize = 16;

/// How many times larger a table becomes when it grows. Moving the entries
/// is the cost of growing, about the time to read the old table and write
/// the new one (4x4 value-only on two threads: doublings from 32 MiB to
/// 741 MiB, 0.5 to 1.1 s of one thread's time in all); growing 4 times at
/// once moves less but overshoots more: the same solve then often grew from
/// 511 MiB to 2 GiB near its end, 1.0 to 2.5 s, most of it the kernel
/// zeroing the new pages.
const GROWTH: usize = 2;

/// Lock stripes; a power of two.
const STRIPES: usize = 4096;

/// A bucket's row of tags. Tags are atomics so that they can be read
/// without the stripe lock: a tag is only a filter (every match is confirmed
/// on the record, under the lock), so a stale or torn-free relaxed read can
/// cost a look-up or miss a result, never give a wrong one. Writes happen
/// under the lock, with the record.
type TagRow = [AtomicU64; WAYS];

/// A bucket's records (see [`Table`]); where each lies is in its tag.
#[repr(C)]
pub(super) struct Bucket {
    words: [u64; BUCKET_WORDS],
}

/// The bucket array behind the stripe locks, as raw allocations so that
/// threads holding different stripes never alias one `&mut` to the whole array.
///
/// Beside each bucket of records sits its row of [`Tag`]s in a separate,
/// dense array: a probe reads the tags of its bucket (four cache lines)
/// and touches a record only when its tag matches. Profiling showed the
/// first read of the entries as the largest single cost of the search (a
/// cache miss per entry).
struct Buckets {
    entries: *mut Bucket,
    tags: *mut TagRow,
    len: usize,
    /// The two allocations the arrays lie in, each from a cache line
    /// boundary: a bucket's tags then span four lines, not five.
    _blocks: (ZeroedLines<Bucket>, ZeroedLines<TagRow>),
}

impl Buckets {
    fn new(n: usize) -> Buckets {
        let (mut entries, mut tags) = (ZeroedLines::<Bucket>::new(n), ZeroedLines::<TagRow>::new(n));
        Buckets { entries: entries.as_mut_ptr(), tags: tags.as_mut_ptr(), len: n, _blocks: (entries, tags) }
    }
}

// SAFETY: every access to a bucket and its tags goes through
// `Table::with_bucket`, which holds the bucket's stripe lock for the whole
// access.
unsafe impl Sync for Buckets {}
unsafe impl Send for Buckets {}

/// The work rank of a result proved with `nodes` nodes, the table's
/// replacement rank: their bit length (so rank r is 2^(r-1) to 2^r - 1
/// nodes; 0 is no work).
#[inline]
pub const fn work_rank(nodes: u64) -> u8 {
    (64 - nodes.leading_zeros()) as u8
}

/// One result of the table as a checkpoint file keeps it: the entry (its
/// key, value and dependencies, see [`Entry`]), the log2 of the work behind
/// it (its replacement rank) and, for a result whose candidate set T is too
/// large to list, the Bloom slot that describes T. The encoding is
/// bincode's (`crate::store`); what the fields mean is this module's, so a
/// checkpoint names the program's table format ([`format_fingerprint`](super::format_fingerprint)).
#[derive(Clone, Copy, Debug)]
pub struct SavedEntry {
    entry: Entry,
    work: u8,
    slot: Option<BloomSlot>,
}

/// On disk (checkpoint format version 3) a result is its work rank, its
/// length in words (u16) and the words of its record ([`encode`], in the
/// wide form whatever the board): what the table keeps, a few words for a
/// typical 5x5 result and a few hundred bytes for a big one, where the
/// fixed fields of [`SavedEntryFixed`] took 191 bytes and 1,501 with a
/// Bloom slot.
impl bincode::Encode for SavedEntry {
    fn encode<E: bincode::enc::Encoder>(&self, encoder: &mut E) -> Result<(), bincode::error::EncodeError> {
        if self.entry.big() != self.slot.is_some() {
            return Err(bincode::error::EncodeError::Other("a big result without its slot"));
        }
        let mut rec = [0u64; MAX_RECORD];
        let len = encode(&self.entry, self.slot.as_ref(), false, &mut rec);
        self.work.encode(encoder)?;
        (len as u16).encode(encoder)?;
        rec[..len].iter().try_for_each(|w| w.encode(encoder))
    }
}

impl<C> bincode::Decode<C> for SavedEntry {
    fn decode<D: bincode::de::Decoder<Context = C>>(decoder: &mut D) -> Result<Self, bincode::error::DecodeError> {
        let work = u8::decode(decoder)?;
        let len = u16::decode(decoder)? as usize;
        if len > MAX_RECORD {
            return Err(bincode::error::DecodeError::Other("a result longer than any record"));
        }
        let mut rec = [0u64; MAX_RECORD];
        for w in &mut rec[..len] {
            *w = u64::decode(decoder)?;
        }
        let (entry, slot) =
            decode_checked(&rec[..len]).ok_or(bincode::error::DecodeError::Other("a result that is not a record"))?;
        Ok(SavedEntry { entry, work, slot })
    }
}

/// A result as checkpoints of format versions 1 and 2 kept it: the fixed
/// fields of its entry and slot.
#[derive(Clone, Copy, Debug, bincode::Encode, bincode::Decode)]
pub struct SavedEntryFixed {
    entry: Entry,
    work: u8,
    slot: Option<BloomSlot>,
}

impl From<SavedEntryFixed> for SavedEntry {
    fn from(old: SavedEntryFixed) -> SavedEntry {
        SavedEntry { entry: old.entry, work: old.work, slot: old.slot }
    }
}

/// A result as a file of version 2 kept it (to test that such files are
/// still read).
#[cfg(test)]
impl From<SavedEntry> for SavedEntryFixed {
    fn from(s: SavedEntry) -> SavedEntryFixed {
        SavedEntryFixed { entry: s.entry, work: s.work, slot: s.slot }
    }
}

impl SavedEntry {
    /// Whether it is a result a table can hold: a big T's slot with it
    /// exactly when its T is big (a file of format 2 or older could hold
    /// one that is not; it is left out when read).
    pub fn is_whole(&self) -> bool {
        self.entry.big() == self.slot.is_some()
    }

    /// Its work rank ([`work_rank`]).
    pub fn work_rank(&self) -> u8 {
        self.work
    }

    /// The same result without the mark of its Bloom slot's owner (1 now;
    /// the way that owned the slot in checkpoints of the table of four-entry
    /// buckets): two results are the same result with the same conditions
    /// iff these are equal (a checkpoint merge keeps such duplicates once).
    pub fn without_place(&self) -> SavedEntry {
        let mut s = *self;
        if let Some(slot) = &mut s.slot {
            slot.owner = 0;
        }
        s
    }
}

/// A result as checkpoints of table format 1 kept it ([`crate::search::tt::format_fingerprint_v1`]):
/// its Bloom slot had no cleared situations. Read as a [`SavedEntry`] with
/// none cleared, so an old checkpoint's results are not lost.
#[derive(Clone, Copy, Debug, bincode::Decode)]
pub struct SavedEntryV1 {
    entry: Entry,
    work: u8,
    slot: Option<BloomSlotV1>,
}

/// [`BloomSlot`] of table format 1 (its size is part of that format's
/// fingerprint).
#[derive(Clone, Copy, Debug, bincode::Decode)]
#[repr(C)]
pub(super) struct BloomSlotV1 {
    ever: [Bits; 3],
    bloom: [u64; crate::search::tree::hash::BLOOM_WORDS],
    owner: u8,
}

impl From<SavedEntryV1> for SavedEntry {
    fn from(old: SavedEntryV1) -> SavedEntry {
        SavedEntry {
            entry: old.entry,
            work: old.work,
            slot: old.slot.map(|s| BloomSlot {
                ever: s.ever,
                bloom: s.bloom,
                clear: [[0; 2]; CLEAR],
                clear_sides: 0,
                nclear: 0,
                owner: s.owner,
            }),
        }
    }
}

/// Counters one searcher keeps about its table use.
#[derive(Clone, Copy, Debug, Default)]
pub struct TableCounters {
    pub stores: u64,
    pub hits: u64,
    pub key_matches: u64,
    /// Stores into a vacant way not yet passed on to [`Table::add_fills`].
    pub fills: usize,
    /// What the stores replaced, not yet passed on to [`Table::add_churn`]
    /// (the `table` trace's census; see [`Churn`]).
    pub churn: Churn,
}

/// What stores did to the table (counted per searcher, added up in the
/// table for the census of the `table` trace): each is only counted, none
/// changes what is stored.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Churn {
    /// Results written (each of the kinds below, or into a vacant way).
    pub stores: u64,
    /// ... of them with a big T (a Bloom slot).
    pub big_stores: u64,
    /// ... over the same result (same node and dependencies).
    pub same: u64,
    /// ... over another result (an eviction).
    pub evicted: u64,
    /// ... of which the evicted one was a proof (not an unknown).
    pub evicted_proofs: u64,
    /// ... of which the evicted one had a big T.
    pub evicted_big: u64,
    /// Sum of the log2 work of the evicted proofs.
    pub evicted_proof_work: u64,
    /// Hints not stored over a proof of the same node.
    pub refused: u64,
    /// Results not stored: too many hits.
    pub unstorable: u64,
    /// Look-ups answered by a result with a big T, and with a small one.
    pub hits_big: u64,
    pub hits_small: u64,
}

impl Churn {
    const FIELDS: usize = 11;
    fn to_array(self) -> [u64; Churn::FIELDS] {
        [
            self.stores,
            self.big_stores,
            self.same,
            self.evicted,
            self.evicted_proofs,
            self.evicted_big,
            self.evicted_proof_work,
            self.refused,
            self.unstorable,
            self.hits_big,
            self.hits_small,
        ]
    }
    fn from_array(a: [u64; Churn::FIELDS]) -> Churn {
        Churn {
            stores: a[0],
            big_stores: a[1],
            same: a[2],
            evicted: a[3],
            evicted_proofs: a[4],
            evicted_big: a[5],
            evicted_proof_work: a[6],
            refused: a[7],
            unstorable: a[8],
            hits_big: a[9],
            hits_small: a[10],
        }
    }
}

/// What the table holds, by kind (the `table` trace): a scan of every
/// bucket, for measurements only.
#[derive(Clone, Debug, Default)]
pub struct Census {
    pub buckets: usize,
    pub bucket_bytes: usize,
    pub used: usize,
    /// Words of the records of small and of big results.
    pub words_small: usize,
    pub words_big: usize,
    /// By bound code: exact, lower, upper, unknown.
    pub by_bound: [usize; 4],
    /// Proofs of the mover's side (a lower bound with Black to move, an
    /// upper with White, or exact with a move) against refutations (every
    /// move failed).
    pub by_move: usize,
    pub refutations: usize,
    /// Results with a big T.
    pub big: usize,
    /// Listed T sizes 0..=ABS.
    pub nabs: [usize; ABS + 1],
    pub nhits: [usize; MAX_HITS + 1],
    pub with_patterns: usize,
    pub with_symmetries: usize,
    /// Results by the log2 of their work (0..=31), and those with a big T.
    pub work: [usize; 32],
    pub work_big: [usize; 32],
    /// Big results by the bits set in their filter: up to 64, 128, 256,
    /// 512, 1024, 2048, 4096, more.
    pub filter_bits: [usize; 8],
    /// Big results by cleared situations.
    pub nclear: [usize; CLEAR + 1],
    /// Stores since the last census.
    pub churn: Churn,
}

impl std::fmt::Display for Census {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let pct = |n: usize, d: usize| if d == 0 { 0.0 } else { 100.0 * n as f64 / d as f64 };
        let ways = self.buckets * WAYS;
        let words = self.buckets * BUCKET_WORDS;
        writeln!(
            f,
            "table: {} MiB, {} buckets of {} bytes, {} of {} ways used ({:.1} %), words used {:.1} % (small results {} words, {:.1} a result; big {}, {:.1} a result)",
            (self.buckets * self.bucket_bytes) >> 20,
            self.buckets,
            self.bucket_bytes,
            self.used,
            ways,
            pct(self.used, ways),
            pct(self.words_small + self.words_big, words),
            self.words_small,
            self.words_small as f64 / (self.used - self.big).max(1) as f64,
            self.words_big,
            self.words_big as f64 / self.big.max(1) as f64,
        )?;
        let [x, l, u, k] = self.by_bound;
        writeln!(
            f,
            "table: exact {x}, lower {l}, upper {u}, unknown {k}; by a move {}, refutations {}",
            self.by_move, self.refutations
        )?;
        writeln!(
            f,
            "table: listed T {:?}, big {}; hits {:?}; with patterns {}, with symmetries {}",
            self.nabs, self.big, self.nhits, self.with_patterns, self.with_symmetries
        )?;
        let top = self.work.iter().rposition(|&n| n != 0).unwrap_or(0);
        writeln!(f, "table: work log2 0..={top}: {:?}", &self.work[..=top])?;
        writeln!(f, "table: of them big: {:?}", &self.work_big[..=top])?;
        writeln!(
            f,
            "table: big filters by bits set (<=64,128,256,512,1k,2k,4k,more) {:?}; cleared {:?}",
            self.filter_bits, self.nclear
        )?;
        let c = &self.churn;
        write!(
            f,
            "table: stores {} (big {}), same {}, evicted {} (proofs {}, mean work 2^{:.1}; big {}), hints refused {}, too many hits {}; look-ups answered by big {}, by small {}",
            c.stores,
            c.big_stores,
            c.same,
            c.evicted,
            c.evicted_proofs,
            if c.evicted_proofs == 0 { 0.0 } else { c.evicted_proof_work as f64 / c.evicted_proofs as f64 },
            c.evicted_big,
            c.refused,
            c.unstorable,
            c.hits_big,
            c.hits_small
        )
    }
}

/// `n` all-zero elements from zeroed memory, so the OS hands out pages
/// lazily and a small search on a large table costs nothing up front.
///
/// Only used with `T` = words of the table's buckets and tags, arrays of
/// integers or their atomics (the df-pn guide) and the Benson cache's
/// slots of integers: plain data for which all-zero bytes are a valid
/// value (vacant).
pub(crate) fn zeroed_vec<T>(n: usize) -> Vec<T> {
    let layout = std::alloc::Layout::array::<T>(n).expect("table size overflows");
    // SAFETY: `T` is plain data for which all-zero bytes are valid (see
    // above); the pointer comes from the global allocator with the layout of
    // exactly `n` elements.
    unsafe {
        let ptr = std::alloc::alloc_zeroed(layout) as *mut T;
        if ptr.is_null() {
            std::alloc::handle_alloc_error(layout);
        }
        advise_huge_pages(ptr as *mut u8, layout.size());
        Vec::from_raw_parts(ptr, n, n)
    }
}

/// Ask the kernel to back `len` bytes from `ptr` with huge pages (Linux's
/// transparent huge pages in `madvise` mode), when the block is large enough
/// to hold some. A table probe is a random access into gigabytes: with 4 KiB
/// pages nearly every probe also misses the TLB; with 2 MiB pages the page
/// walk mostly hits the cache. Advice only: if it is refused nothing changes
/// but the speed.
fn advise_huge_pages(ptr: *mut u8, len: usize) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let start = (ptr as usize).next_multiple_of(HUGE);
        let end = (ptr as usize + len) & !(HUGE - 1);
        if end > start {
            // SAFETY: [start, end) lies inside the live allocation at `ptr`;
            // madvise with MADV_HUGEPAGE changes no contents.
            unsafe {
                libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (ptr, len);
}

/// Words before the first cache line boundary of an allocation at most.
const LINE_WORDS: usize = 8;

/// `n` all-zero values of `T` from a cache line boundary, from zeroed
/// words aligned by hand: an allocation aligned to more than 16 bytes is
/// zeroed by writing it (Rust's `alloc_zeroed` on Unix), which commits every
/// page at once. For the table's buckets that was the whole table up front;
/// for df-pn's Benson cache, 32 MiB written by every solver a solve made,
/// most of the time of a test's many small solves (`results/tests.md`,
/// 2026-12-03).
///
/// Only for plain data for which all-zero bytes are a valid value, as
/// [`zeroed_vec`].
pub(crate) struct ZeroedLines<T> {
    ptr: *mut T,
    len: usize,
    /// The words `ptr` lies in (their heap block never moves).
    _words: Vec<u64>,
}

impl<T> ZeroedLines<T> {
    pub(crate) fn new(n: usize) -> ZeroedLines<T> {
        const { assert!(std::mem::align_of::<T>() <= 64) };
        let mut words = zeroed_vec::<u64>((n * std::mem::size_of::<T>()).div_ceil(8) + LINE_WORDS);
        let p = words.as_mut_ptr();
        ZeroedLines { ptr: p.wrapping_add(p.align_offset(64)) as *mut T, len: n, _words: words }
    }

    /// The first value, for callers that hand out disjoint parts themselves.
    pub(crate) fn as_mut_ptr(&mut self) -> *mut T {
        self.ptr
    }
}

impl<T> std::ops::Deref for ZeroedLines<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        // SAFETY: `ptr` is aligned and `len` values (all-zero bytes, valid
        // for `T`) lie from it inside `_words`, which lives as long as self.
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }
}

impl<T> std::ops::DerefMut for ZeroedLines<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`, and `&mut self` is the only way in.
        unsafe { std::slice::from_raw_parts_mut(self.ptr, self.len) }
    }
}

// SAFETY: a `ZeroedLines` owns its values as a `Vec` would.
unsafe impl<T: Send> Send for ZeroedLines<T> {}
unsafe impl<T: Sync> Sync for ZeroedLines<T> {}

/// Have the kernel commit (allocate and zero) the pages of `len` bytes from
/// `ptr` now, as a first write would, without writing them: Linux's
/// `MADV_POPULATE_WRITE` (5.14 and later) leaves the contents alone, so it
/// may run beside threads that write there. Returns false where it is not
/// available, and nothing changes but the time. Stops early when `stop` is
/// set (checked every 256 MiB).
fn populate(ptr: *mut u8, len: usize, stop: &AtomicBool) -> bool {
    #[cfg(target_os = "linux")]
    {
        const PAGE: usize = 4096;
        const STEP: usize = 256 << 20;
        let mut at = (ptr as usize).next_multiple_of(PAGE);
        let end = (ptr as usize + len) & !(PAGE - 1);
        while at < end && !stop.load(Relaxed) {
            let n = STEP.min(end - at);
            // SAFETY: [at, at + n) lies inside the live allocation at `ptr`;
            // MADV_POPULATE_WRITE only faults pages in and writes nothing.
            if unsafe { libc::madvise(at as *mut libc::c_void, n, libc::MADV_POPULATE_WRITE) } != 0 {
                return false;
            }
            at += n;
        }
        true
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = (ptr, len, stop);
        false
    }
}

/// Ask the CPU to fetch every cache line of the `count` values of `T` from
/// `start` (df-pn does so for the table tags, guide slot and Benson cache
/// slot of each child before it looks them up, so that their misses
/// overlap). A value of more than one line, or one that straddles a line
/// boundary, needs each of its lines fetched: one prefetch per value left
/// the rest as misses (a profile of 2026-11-26, commit 938f4fb). Only a hint: it reads nothing, and any
/// address is allowed.
#[inline(always)]
pub(crate) fn prefetch<T>(start: *const T, count: usize) {
    if count == 0 {
        return;
    }
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        const LINE: usize = 64;
        let start = start as *const i8;
        let end = start.wrapping_add(count * std::mem::size_of::<T>());
        let mut line = start.wrapping_sub(start as usize % LINE);
        while line < end {
            // SAFETY: a prefetch does not access memory in the language's
            // sense, whatever the address.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(line) };
            line = line.wrapping_add(LINE);
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (start, count);
}

/// Bytes per bucket, tags included.
const BUCKET_BYTES: usize = std::mem::size_of::<Bucket>() + std::mem::size_of::<TagRow>();

/// The words of the record a tag points at.
#[inline(always)]
fn record(b: &Bucket, tag: Tag) -> &[u64] {
    &b.words[tag_off(tag)..tag_off(tag) + tag_len(tag)]
}

impl Table {
    /// A table of about `mb` MiB for boards of geometry `geo`, starting at
    /// 32 MiB and growing as it fills on boards of at most 16 points
    /// (`START_BYTES`, `GROWING_POINTS`), at its full size on larger ones.
    pub fn new(mb: usize, geo: &Geometry) -> Table {
        let start = if geo.points() <= GROWING_POINTS { START_BYTES } else { usize::MAX };
        Table::growing_from(mb, start, geo)
    }

    /// A table of about `mb` MiB that starts at about `start` bytes (at
    /// least one bucket) and grows up to its full size.
    fn growing_from(mb: usize, start: usize, geo: &Geometry) -> Table {
        let n = ((mb.max(1) << 20) / BUCKET_BYTES).max(1);
        let first = (start / BUCKET_BYTES).clamp(1, n);
        Table {
            buckets: Buckets::new(n),
            locks: (0..STRIPES.min(n.next_power_of_two())).map(|_| Mutex::new(())).collect(),
            len: AtomicUsize::new(first),
            filled: AtomicUsize::new(0),
            growing: AtomicBool::new(false),
            churn: Default::default(),
            narrow: geo.points() <= 32,
            all: geo.all(),
            sym: SymmetryTables::new(geo),
        }
    }

    /// Bytes of the buckets in use now (the table's full size once grown).
    pub fn bytes_in_use(&self) -> usize {
        self.len.load(Relaxed) * BUCKET_BYTES
    }

    /// The bytes in use of a growing table that holds `results` below the
    /// fill at which it grows ([`Table::add_fills`]): what a trim of a table
    /// claims in its header, so that the table reading it back
    /// ([`Table::presize`]) is sized to the trim, not to the table it was
    /// cut from.
    pub fn bytes_to_hold(results: usize) -> usize {
        ((4 * results) / (3 * WAYS) + 1) * BUCKET_BYTES
    }

    /// Pass on `n` stores that evicted nothing (a searcher's batch); grow
    /// the table if three quarters of its ways are filled and it can grow.
    /// The seconds the growth took, if this call grew it (for the trace).
    pub fn add_fills(&self, n: usize) -> Option<f64> {
        if n == 0 {
            return None;
        }
        let filled = self.filled.fetch_add(n, Relaxed) + n;
        if self.wants_growth(filled, self.len.load(Relaxed)) && !self.growing.swap(true, Relaxed) {
            let start = std::time::Instant::now();
            self.grow();
            self.growing.store(false, Relaxed);
            return Some(start.elapsed().as_secs_f64());
        }
        None
    }

    /// Pass on a searcher's [`Churn`] (and clear it).
    pub fn add_churn(&self, c: &mut Churn) {
        if *c != Churn::default() {
            for (a, n) in self.churn.iter().zip(std::mem::take(c).to_array()) {
                a.fetch_add(n, Relaxed);
            }
        }
    }

    /// What the table holds now, by kind, and the stores passed on since
    /// the last census (see [`Census`]).
    pub fn census(&self) -> Census {
        let mut c = Census { buckets: self.len(), bucket_bytes: BUCKET_BYTES, ..Census::default() };
        let mut slot = BloomSlot::VACANT;
        for b in 0..self.len() {
            self.with_bucket(b, |tags, bucket| {
                for tag in tags.iter().map(|t| t.load(Relaxed)).filter(|&t| t != 0) {
                    let words = record(bucket, tag);
                    let e = decode(words, self.narrow, Some(&mut slot));
                    c.used += 1;
                    c.by_bound[e.bound as usize & 3] += 1;
                    let white = e.flags & 1 != 0;
                    match e.bound {
                        EXACT if e.best != 0 => c.by_move += 1,
                        LOWER if !white => c.by_move += 1,
                        UPPER if white => c.by_move += 1,
                        UNKNOWN => {}
                        _ => c.refutations += 1,
                    }
                    if e.big() {
                        c.big += 1;
                        c.work_big[(tag as u8 as usize).min(31)] += 1;
                        c.words_big += words.len();
                        let bits: u32 = slot.bloom.iter().map(|w| w.count_ones()).sum();
                        c.filter_bits[(bits.max(1).div_ceil(64).ilog2() as usize).min(7)] += 1;
                        c.nclear[slot.nclear as usize] += 1;
                    } else {
                        c.words_small += words.len();
                        c.nabs[(e.nabs as usize).min(ABS)] += 1;
                    }
                    c.nhits[(e.nhits as usize).min(MAX_HITS)] += 1;
                    c.with_patterns += (e.pats.iter().any(|p| p[1] != 0)) as usize;
                    c.with_symmetries += (e.sym != 0) as usize;
                    c.work[(tag as u8 as usize).min(31)] += 1;
                }
            });
        }
        c.churn = Churn::from_array(std::array::from_fn(|i| self.churn[i].swap(0, Relaxed)));
        c
    }

    fn wants_growth(&self, filled: usize, len: usize) -> bool {
        len < self.buckets.len && 4 * filled >= 3 * len * WAYS
    }

    /// Make [`GROWTH`] times the buckets in use (at most all of them):
    /// publish the new length, then move every record not in the bucket of
    /// its key under the new length there, from the last bucket down (see
    /// "Growth" in [`Table`]). Under the multiply-shift index a key's bucket
    /// never goes down when the length grows, so every move lands in a
    /// bucket already done. A record that finds no room there is dropped.
    fn grow(&self) {
        let old = self.len.load(Relaxed);
        // Another thread may have grown the table since this one looked.
        if !self.wants_growth(self.filled.load(Relaxed), old) {
            return;
        }
        let new = (GROWTH * old).min(self.buckets.len);
        self.len.store(new, Relaxed);
        let mut buf = [0u64; BUCKET_WORDS];
        let mut moving: Vec<(usize, Tag, usize)> = Vec::with_capacity(WAYS);
        for b in (0..old).rev() {
            let mut at = 0;
            self.with_bucket(b, |tags, bucket| {
                for t in tags.iter() {
                    let tag = t.load(Relaxed);
                    if tag == 0 {
                        continue;
                    }
                    let words = record(bucket, tag);
                    let (flags, _, _, _, pos) = record_head(words, self.narrow);
                    let home = self.bucket(table_hash(pos.black, pos.white, flags), new);
                    if home == b {
                        continue;
                    }
                    buf[at..at + words.len()].copy_from_slice(words);
                    moving.push((home, tag, at));
                    at += words.len();
                    t.store(0, Relaxed);
                }
            });
            for (home, tag, at) in moving.drain(..) {
                if !self.place(home, tag, &buf[at..at + tag_len(tag)]) {
                    self.filled.fetch_sub(1, Relaxed);
                }
            }
        }
    }

    /// Put record `rec` (tag `tag`) into bucket `bi` if a tag and its words
    /// are free there, evicting nothing; whether it did.
    fn place(&self, bi: usize, tag: Tag, rec: &[u64]) -> bool {
        self.with_bucket(bi, |tags, bucket| {
            let Some(w) = tags.iter().position(|t| t.load(Relaxed) == 0) else {
                return false;
            };
            let used: usize = tags.iter().map(|t| tag_len(t.load(Relaxed))).sum();
            if BUCKET_WORDS - used < rec.len() {
                return false;
            }
            write_record(tags, bucket, w, tag, rec);
            true
        })
    }

    /// Where `node`'s results are stored: under its canonical image, so
    /// that mirror images share results where their histories allow.
    /// Measured with the key computed at most once per child: 4x4
    /// value-only one thread 12.0 M -> 6.8 M nodes, 40.5 -> 26.7 s; van der
    /// Werf's 5x5 line after 13 plies, `--at-least 25` on 2 threads 72.1 M
    /// -> 47.5 M nodes, 44.0 -> 30.9 s. Limiting it to positions of at most
    /// 4 or 8 stones (4x4) or 12 (5x5) kept less of the gain.
    #[inline(always)]
    pub fn key(&self, node: &Node) -> NodeKey {
        let (pos, orient) = self.sym.canonical(&node.pos);
        NodeKey::of(node, pos, orient)
    }

    /// `pos` with its images under the board's symmetries, for
    /// [`Table::key_near`].
    #[inline(always)]
    pub fn images(&self, pos: &Position) -> Images {
        self.sym.images(pos)
    }

    /// [`Table::key`] of `node`, whose position differs in a few points from
    /// the one of `near` (a child of it): the same key, found from the
    /// parent's images ([`SymmetryTables::canonical_near`]).
    #[inline(always)]
    pub fn key_near(&self, near: &Images, node: &Node) -> NodeKey {
        let (pos, orient) = self.sym.canonical_near(near, &node.pos);
        NodeKey::of(node, pos, orient)
    }

    /// The symmetry that maps the frame of an entry with `meta` onto the
    /// node of `key`.
    #[inline(always)]
    fn to_node(&self, meta: u8, key: &NodeKey) -> usize {
        self.sym.compose(self.sym.inverse(key.orient), (meta & 7) as usize)
    }

    /// The bucket of key hash `h`: its low 32 bits scaled to the bucket
    /// count (multiply and shift), so the table can have any number of
    /// buckets and fill the memory it is given (a power of two wasted up to
    /// half of it). The fingerprint comes from the high bits.
    #[inline(always)]
    fn bucket(&self, h: u64, len: usize) -> usize {
        (((h & 0xffff_ffff) * len as u64) >> 32) as usize
    }

    /// The buckets in use, read once per operation (see "Growth").
    #[inline(always)]
    fn len(&self) -> usize {
        self.len.load(Relaxed)
    }

    /// Run `f` on bucket `i` under its stripe lock.
    #[inline(always)]
    fn with_bucket<R>(&self, i: usize, f: impl FnOnce(&TagRow, &mut Bucket) -> R) -> R {
        let _guard = self.locks[i & (self.locks.len() - 1)].lock().unwrap_or_else(|p| p.into_inner());
        // SAFETY: the stripe lock for bucket `i` is held, so no other thread
        // reads or writes this bucket's records until `f` returns (tags are
        // atomics, written only under the lock).
        debug_assert!(i < self.buckets.len);
        let (tags, bucket) = unsafe { (&*self.buckets.tags.add(i), &mut *self.buckets.entries.add(i)) };
        f(tags, bucket)
    }

    /// Whether a tag of bucket `i`, read without the lock, is one `wanted`
    /// accepts (see [`TagRow`]).
    #[inline(always)]
    fn any_tag(&self, i: usize, wanted: impl Fn(Tag) -> bool) -> bool {
        self.tag_row(i).iter().any(|t| wanted(t.load(Relaxed)))
    }

    /// The tags of bucket `i`, for a read without the lock.
    #[inline(always)]
    fn tag_row(&self, i: usize) -> &TagRow {
        debug_assert!(i < self.buckets.len);
        // SAFETY: `i` is within the tag array; atomics may be shared.
        unsafe { &*self.buckets.tags.add(i) }
    }

    /// Run `f` under its stripe lock on the bucket of key hash `h` if it
    /// has a tag `wanted` accepts (the tags read without the lock, as a
    /// filter): the scan every look-up of a result makes.
    #[inline(always)]
    fn find_in_bucket<R>(
        &self,
        h: u64,
        wanted: impl Fn(Tag) -> bool,
        f: impl FnOnce(&TagRow, &mut Bucket) -> Option<R>,
    ) -> Option<R> {
        let bi = self.bucket(h, self.len());
        if !self.any_tag(bi, wanted) {
            return None;
        }
        self.with_bucket(bi, f)
    }

    /// Run `f` on the entry of record `words` and, for a big T, the view
    /// of its box, filter and cleared situations in the record (the filter
    /// decoded only if `f` asks for it).
    #[inline(always)]
    fn with_entry<R>(&self, words: &[u64], f: impl FnOnce(&Entry, Option<&mut BigView>) -> R) -> R {
        let mut scratch = std::mem::MaybeUninit::uninit();
        let (e, mut view) = decode_view(words, self.narrow, &mut scratch);
        f(&e, view.as_mut())
    }

    /// Look for a result for `node` that is valid under the current path: a
    /// proved one if there is one, else an `Unknown` hint, else the best move
    /// of a result for the same node under another history (`MoveOnly`: the
    /// solver only tries it first; 11x1 value-only 55 M → 23 M nodes with the
    /// pass order of [`crate::search::engines::solver`]). For a proved one
    /// the entry's dependencies (hits mapped to plies of the current path)
    /// are merged into `dep`.
    pub fn probe(&self, path: &Path, node: &Node, counters: &mut TableCounters, dep: &mut Dep) -> Option<Probe> {
        let key = self.key(node);
        let fp = key.fp;
        let mut hint = None;
        let mut other_best = 0;
        // Validate under the lock: nothing is copied but the result.
        let found = self.find_in_bucket(
            key.h,
            |t| tag_fp(t) == fp,
            |tags, b| {
                for tag in tags.iter().rev().map(|t| t.load(Relaxed)) {
                    if tag_fp(tag) != fp {
                        continue;
                    }
                    let words = record(b, tag);
                    if !record_is_for(words, self.narrow, &key) {
                        continue;
                    }
                    let unknown = tag_code(tag) == UNKNOWN;
                    if unknown && hint.is_some() {
                        continue;
                    }
                    counters.key_matches += 1;
                    let fill = if unknown { None } else { Some(&mut *dep) };
                    let probe = self.with_entry(words, |e, big| {
                        let to_node = self.to_node(e.meta, &key);
                        if !reusable(e, big, path, node, self.all, fill, &self.sym, to_node) {
                            if other_best == 0 {
                                other_best = map_best(e.best, &self.sym, to_node);
                            }
                            return None;
                        }
                        if !unknown {
                            if e.big() {
                                counters.churn.hits_big += 1;
                            } else {
                                counters.churn.hits_small += 1;
                            }
                        }
                        Some(Probe {
                            value: e.value as i32,
                            bound: match e.bound {
                                EXACT => Bound::Exact,
                                LOWER => Bound::Lower,
                                UPPER => Bound::Upper,
                                _ => Bound::Unknown { depth: e.depth },
                            },
                            best: decode_best(map_best(e.best, &self.sym, to_node)),
                        })
                    });
                    match probe {
                        Some(p) if unknown => hint = Some(p),
                        Some(p) => {
                            counters.hits += 1;
                            return Some(p);
                        }
                        None => {}
                    }
                }
                None
            },
        );
        if found.is_some() {
            return found;
        }
        if hint.is_none() && other_best != 0 {
            return Some(Probe { value: 0, bound: Bound::MoveOnly, best: decode_best(other_best) });
        }
        hint
    }

    /// The best move of any result stored for the node of `key`, whatever its
    /// bound and whatever history it was found under, in the node's frame:
    /// a move to try first, never a result. [`Table::probe`] gives the first
    /// result valid under the path, and where one test's proof and another's
    /// refutation are both stored for a node that may be the refutation,
    /// which names no move (every move failed). `Solver::hint` then asks
    /// this: without a move to try first, the principal variation tests the
    /// children in point order, each up to its budget.
    pub fn best_move_hint(&self, key: &NodeKey) -> Option<Move> {
        self.find_in_bucket(
            key.h,
            |t| tag_fp(t) == key.fp,
            |tags, b| {
                tags.iter().map(|t| t.load(Relaxed)).find_map(|tag| {
                    if tag_fp(tag) != key.fp || !record_is_for(record(b, tag), self.narrow, key) {
                        return None;
                    }
                    let (_, _, best, meta, _) = record_head(record(b, tag), self.narrow);
                    (best != 0).then(|| decode_best(map_best(best, &self.sym, self.to_node(meta, key)))).flatten()
                })
            },
        )
    }

    /// Whether the table may hold a result for `node` that proves
    /// `value >= bound` (`lower`) or `value <= bound` (else): looks at the
    /// tags only, never at an entry and never at the history.
    pub fn may_cut(&self, node: &Node, lower: bool, bound: i32) -> bool {
        self.may_cut_at(&self.key(node), lower, bound)
    }

    /// [`Table::may_cut`] for a node whose key is known.
    #[inline(always)]
    pub fn may_cut_at(&self, key: &NodeKey, lower: bool, bound: i32) -> bool {
        let NodeKey { h, fp, .. } = *key;
        self.any_tag(self.bucket(h, self.len()), |tag| tag_fp(tag) == fp && tag_cuts(tag, lower, bound))
    }

    /// Ask the CPU to fetch the tags `node`'s look-ups will read (df-pn
    /// looks up all children of a node at once: their cache misses then
    /// overlap). Reads nothing, so it needs no lock. A bucket's row of tags
    /// spans four cache lines; all are fetched.
    #[inline(always)]
    pub fn prefetch(&self, key: &NodeKey) {
        let i = self.bucket(key.h, self.len());
        prefetch((self.buckets.tags as *const TagRow).wrapping_add(i), 1);
    }

    /// [`Table::may_cut`] for both sides of the null window (b − 1, b) in one
    /// scan of the tags: whether a result may prove `>= b`, and whether one
    /// may prove `<= b − 1`.
    pub fn may_cut_window(&self, key: &NodeKey, b: i32) -> (bool, bool) {
        let NodeKey { h, fp, .. } = *key;
        let row = self.tag_row(self.bucket(h, self.len()));
        let (mut lower, mut upper) = (false, false);
        for tag in row.iter().map(|t| t.load(Relaxed)).filter(|&t| tag_fp(t) == fp) {
            lower |= tag_cuts(tag, true, b);
            upper |= tag_cuts(tag, false, b - 1);
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
        self.probe_cut_at(path, node, &self.key(node), lower, bound, counters, dep)
    }

    /// [`Table::probe_cut`] for a node whose key is known.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub fn probe_cut_at(
        &self,
        path: &Path,
        node: &Node,
        key: &NodeKey,
        lower: bool,
        bound: i32,
        counters: &mut TableCounters,
        dep: &mut Dep,
    ) -> Option<i32> {
        let key = *key;
        let fp = key.fp;
        self.find_in_bucket(
            key.h,
            |t| tag_fp(t) == fp && tag_cuts(t, lower, bound),
            |tags, b| {
                for tag in tags.iter().map(|t| t.load(Relaxed)) {
                    if tag_fp(tag) != fp || !tag_cuts(tag, lower, bound) {
                        continue;
                    }
                    let words = record(b, tag);
                    if !record_is_for(words, self.narrow, &key) {
                        continue;
                    }
                    counters.key_matches += 1;
                    let value = self.with_entry(words, |e, big| {
                        // The tag mirrors the entry; check the entry itself anyway.
                        if !cuts(e.bound, e.value as i32, lower, bound) {
                            return None;
                        }
                        let to_node = self.to_node(e.meta, &key);
                        let ok = reusable(e, big, path, node, self.all, Some(&mut *dep), &self.sym, to_node);
                        if ok {
                            if e.big() {
                                counters.churn.hits_big += 1;
                            } else {
                                counters.churn.hits_small += 1;
                            }
                        }
                        ok.then_some(e.value as i32)
                    });
                    if value.is_some() {
                        counters.hits += 1;
                        return value;
                    }
                }
                None
            },
        )
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
        let Some((hits, nhits)) = stored_hits(path, dep) else {
            counters.churn.unstorable += 1;
            return;
        };
        let key = self.key(node);
        let Some(code) = bound_code(bound) else {
            // Not a result: nothing to store.
            return;
        };
        let work = work_rank(work);
        let new_tag = tag_of(key.h, work, code, value as i8);
        let entry = new_entry(&key, dep, &hits, nhits, code, bound, value, best);
        let big = dep.big();
        let ever = [dep.ever_black, dep.ever_white, dep.ever_empty];
        let new_slot = big.then(|| self.cleared_slot(path, node, dep, ever, &hits[..nhits]));
        let mut rec = [0u64; MAX_RECORD];
        let len = encode(&entry, new_slot.as_ref(), self.narrow, &mut rec);
        debug_assert!(self.round_trips(&rec[..len], &entry, new_slot.as_ref()));
        let rec = &rec[..len];
        let churn = &mut counters.churn;
        let stored = self.with_bucket(self.bucket(key.h, self.len()), |tags, b| {
            for t in tags.iter() {
                let tag = t.load(Relaxed);
                if tag_fp(tag) != key.fp || !record_is_for(record(b, tag), self.narrow, &key) {
                    continue;
                }
                // The same result: the same node with the same dependencies.
                if same_dependencies_record(record(b, tag), rec, self.narrow) {
                    if code == UNKNOWN && tag_code(tag) != UNKNOWN {
                        // Never replace a proof by a hint.
                        return None;
                    }
                    churn.same += 1;
                    t.store(0, Relaxed);
                    break;
                }
            }
            Some(self.insert(tags, b, new_tag, rec, churn))
        });
        match stored {
            None => counters.churn.refused += 1,
            Some(evicted_none) => {
                counters.stores += 1;
                counters.churn.stores += 1;
                counters.churn.big_stores += big as u64;
                counters.fills += evicted_none as usize;
            }
        }
    }

    /// Whether record `rec` decodes to `entry` and `slot` (a check of the
    /// encoding in debug builds).
    fn round_trips(&self, rec: &[u64], entry: &Entry, slot: Option<&BloomSlot>) -> bool {
        let mut s = BloomSlot::VACANT;
        let e = decode(rec, self.narrow, Some(&mut s));
        let same_slot = slot.is_none_or(|o| {
            o.ever == s.ever
                && o.bloom == s.bloom
                && o.nclear == s.nclear
                && o.clear_sides == s.clear_sides
                && o.clear[..o.nclear as usize] == s.clear[..s.nclear as usize]
        });
        e == *entry && same_slot
    }

    /// Write record `rec` (tag `tag`) into its bucket, evicting the records
    /// with the least work behind them (of equal work, the longest first)
    /// until a tag and its words are free; whether nothing was evicted.
    fn insert(&self, tags: &TagRow, b: &mut Bucket, tag: Tag, rec: &[u64], churn: &mut Churn) -> bool {
        let mut free = tags.iter().position(|t| t.load(Relaxed) == 0);
        let mut used: usize = tags.iter().map(|t| tag_len(t.load(Relaxed))).sum();
        let mut evicted = false;
        while free.is_none() || BUCKET_WORDS - used < rec.len() {
            let (w, old) = tags
                .iter()
                .map(|t| t.load(Relaxed))
                .enumerate()
                .filter(|&(_, t)| t != 0)
                .min_by_key(|&(_, t)| (t as u8, std::cmp::Reverse(tag_len(t))))
                .expect("a record fits an empty bucket");
            churn.evicted += 1;
            churn.evicted_big += (record_head(record(b, old), self.narrow).3 & BIG != 0) as u64;
            if tag_code(old) != UNKNOWN {
                churn.evicted_proofs += 1;
                churn.evicted_proof_work += old as u8 as u64;
            }
            tags[w].store(0, Relaxed);
            used -= tag_len(old);
            free = Some(free.map_or(w, |f| f.min(w)));
            evicted = true;
        }
        write_record(tags, b, free.expect("a free tag"), tag, rec);
        !evicted
    }

    /// Every result held now, one at a time, as [`SavedEntry`]s (for a
    /// checkpoint file, `crate::tables::checkpoint`). Each bucket is read
    /// under its stripe lock, so the threads of a solve may go on storing
    /// meanwhile: every entry handed out is one whole result as it was
    /// stored, and a result stays true forever (its dependencies say under
    /// which histories; see [`super`]), so a snapshot taken while the table
    /// changes is as sound as the table itself. Stops at the first error of `f`.
    pub fn for_each_saved<E>(&self, f: impl FnMut(&SavedEntry) -> Result<(), E>) -> Result<(), E> {
        self.for_each_saved_from(0, f)
    }

    /// [`Table::for_each_saved`], only the results of at least work rank
    /// `min_rank` (a trim): the others are passed over by their tags,
    /// without reading their records.
    pub fn for_each_saved_from<E>(
        &self,
        min_rank: u8,
        mut f: impl FnMut(&SavedEntry) -> Result<(), E>,
    ) -> Result<(), E> {
        let mut batch: Vec<SavedEntry> = Vec::with_capacity(WAYS);
        for b in 0..self.len() {
            self.with_bucket(b, |tags, bucket| {
                for tag in tags.iter().map(|t| t.load(Relaxed)).filter(|&t| t != 0 && t as u8 >= min_rank) {
                    let mut slot = BloomSlot::VACANT;
                    let entry = decode(record(bucket, tag), self.narrow, Some(&mut slot));
                    batch.push(SavedEntry { entry, work: tag as u8, slot: entry.big().then_some(slot) });
                }
            });
            for s in batch.drain(..) {
                f(&s)?;
            }
        }
        Ok(())
    }

    /// How many results of at least work rank `min_rank` the table holds
    /// now, counted from the tags alone.
    pub fn count_saved_from(&self, min_rank: u8) -> usize {
        (0..self.len())
            .map(|b| self.tag_row(b).iter().map(|t| t.load(Relaxed)).filter(|&t| t != 0 && t as u8 >= min_rank).count())
            .sum()
    }

    /// Every stored result whose best move proved it for the player to move
    /// (an exact value, a lower bound with Black to move, an upper bound
    /// with White to move), as (position, player to move, point), in the
    /// stored (canonical) frame: the training data of the move prior
    /// ([`crate::search::ordering::policy`]). Results whose best move is a pass are
    /// left out.
    pub fn for_each_proof_move(&self, mut f: impl FnMut(Position, Color, u8)) {
        for b in 0..self.len() {
            self.with_bucket(b, |tags, bucket| {
                for tag in tags.iter().map(|t| t.load(Relaxed)).filter(|&t| t != 0) {
                    let (flags, bound, best, meta, pos) = record_head(record(bucket, tag), self.narrow);
                    if best < 2 {
                        continue;
                    }
                    let white = flags & 1 != 0;
                    let proved = bound == EXACT || (bound == LOWER && !white) || (bound == UPPER && white);
                    if !proved {
                        continue;
                    }
                    // The best move is kept in the frame of the node it was
                    // found at; `meta` maps that frame onto the stored key.
                    let p = self.sym.point((meta & 7) as usize, best - 2);
                    let me = if white { Color::White } else { Color::Black };
                    f(pos, me, p);
                }
            });
        }
    }

    /// Commit the memory of the buckets in use now, without writing it
    /// (`populate`): a checkpoint's read does so on a thread of its own
    /// while it puts the results back, because on the 2-core development
    /// machine (a virtual machine) the kernel zeroes fresh pages at about
    /// 0.4 GB/s, and those of the 5x5 proof's 12 GiB table took 56 % of a
    /// 59-s read on the reading thread. It changes no entry, so the reader
    /// may write beside it. Returns false where the kernel cannot do it.
    pub fn commit_in_use(&self, stop: &AtomicBool) -> bool {
        let n = self.len();
        populate(self.buckets.tags as *mut u8, n * std::mem::size_of::<TagRow>(), stop)
            && populate(self.buckets.entries as *mut u8, n * std::mem::size_of::<Bucket>(), stop)
    }

    /// Before results of a table that had `bytes` in use are restored into
    /// this one, still empty: use as many buckets now (at most all), instead
    /// of growing while they come in. They come in bucket order, and under
    /// the multiply-shift index a small table maps the results of many
    /// neighbouring buckets onto one bucket, which overflows long before
    /// the table is full enough to grow (4x4: two results in three were
    /// lost so).
    pub fn presize(&self, bytes: usize) {
        let want = (bytes / BUCKET_BYTES).clamp(self.len(), self.buckets.len);
        if self.filled.load(Relaxed) == 0 && want > self.len() {
            self.len.store(want, Relaxed);
        }
    }

    /// Put a result read back from a checkpoint into its bucket, where a
    /// tag and its words are free (evicting nothing); returns whether it
    /// found room. Growing tables grow as they fill. A result that finds no
    /// room only costs the work of finding it again.
    pub fn restore(&self, saved: &SavedEntry) -> bool {
        let e = saved.entry;
        if e.big() != saved.slot.is_some() {
            return false;
        }
        let mut rec = [0u64; MAX_RECORD];
        let len = encode(&e, saved.slot.as_ref(), self.narrow, &mut rec);
        let h = table_hash(e.black, e.white, e.flags);
        let tag = tag_of(h, saved.work, e.bound, e.value);
        let placed = self.place(self.bucket(h, self.len()), tag, &rec[..len]);
        if placed {
            self.add_fills(1);
        }
        placed
    }

    /// [`Table::restore`], and where its bucket has no room: in place of
    /// the records with the least work behind them there (of equal work,
    /// the longest first, as [`Table::store`] evicts), when each has less
    /// work than this one. For a merge of checkpoints (one thread), which
    /// keeps the deeper result where both cannot stay; any subset of
    /// results is sound. Returns whether the result is in the table.
    pub fn restore_ranked(&self, saved: &SavedEntry) -> bool {
        if self.restore(saved) {
            return true;
        }
        let e = saved.entry;
        if e.big() != saved.slot.is_some() {
            return false;
        }
        let mut rec = [0u64; MAX_RECORD];
        let len = encode(&e, saved.slot.as_ref(), self.narrow, &mut rec);
        let h = table_hash(e.black, e.white, e.flags);
        let tag = tag_of(h, saved.work, e.bound, e.value);
        self.with_bucket(self.bucket(h, self.len()), |tags, b| {
            // The records that would give way, chosen before any does: none
            // is evicted unless the result then fits.
            let mut live: Vec<(usize, Tag)> =
                tags.iter().map(|t| t.load(Relaxed)).enumerate().filter(|&(_, t)| t != 0).collect();
            live.sort_unstable_by_key(|&(_, t)| (t as u8, std::cmp::Reverse(tag_len(t))));
            let mut free = WAYS - live.len();
            let mut words = BUCKET_WORDS - live.iter().map(|&(_, t)| tag_len(t)).sum::<usize>();
            let mut out = 0;
            while free == 0 || words < len {
                match live.get(out) {
                    Some(&(_, t)) if (t as u8) < saved.work => {
                        free += 1;
                        words += tag_len(t);
                        out += 1;
                    }
                    _ => return false,
                }
            }
            for &(w, _) in &live[..out] {
                tags[w].store(0, Relaxed);
            }
            let w = tags.iter().position(|t| t.load(Relaxed) == 0).expect("a free tag");
            write_record(tags, b, w, tag, &rec[..len]);
            true
        })
    }

    /// A big result's Bloom slot: its T's filter, and the situations of this
    /// history (`path`, down to `node`) that it clears, those its box and
    /// filter or a pattern match (oldest first, as many as fit; see "Big
    /// results under their own history" in [`super`]), except its own `hits`.
    #[inline]
    fn cleared_slot(&self, path: &Path, node: &Node, dep: &Dep, ever: [Bits; 3], hits: &[SuperkoKey]) -> BloomSlot {
        let mut slot = BloomSlot {
            ever,
            bloom: *dep.filter().expect("a big T has its filter"),
            clear: [[0; 2]; CLEAR],
            clear_sides: 0,
            nclear: 0,
            owner: 1,
        };
        let own = path.key(node.pos, node.to_move);
        for ply in 0..path.len() - 1 {
            let q = &path.steps()[ply].key;
            let in_t = may_be_candidate(&ever, &slot.bloom, path, ply, &own, self.all) && !hits.contains(q);
            if (in_t || dep.pats.iter().any(|p| p.matches(q))) && !slot.add_cleared(q) {
                break;
            }
        }
        slot
    }
}

/// Write record `rec` with tag `tag` into way `w` (vacant) of bucket `b`,
/// whose free words suffice: after the last record if it fits there, else
/// into the first gap between the records that holds it, or after them once
/// they are moved together. Where a record lies in its bucket changes
/// nothing but this placement (which records a bucket keeps depends only on
/// their count and lengths).
fn write_record(tags: &TagRow, b: &mut Bucket, w: usize, tag: Tag, rec: &[u64]) {
    // Most often the words after the last record are free: no sort needed.
    let end = tags.iter().map(|t| t.load(Relaxed)).map(|t| tag_off(t) + tag_len(t)).max().unwrap_or(0);
    if BUCKET_WORDS - end >= rec.len() {
        b.words[end..end + rec.len()].copy_from_slice(rec);
        tags[w].store(tag_at(tag, end, rec.len()), Relaxed);
        return;
    }
    let mut live: [(usize, usize); WAYS] = [(0, 0); WAYS];
    let mut n = 0;
    for (i, t) in tags.iter().enumerate() {
        let t = t.load(Relaxed);
        if t != 0 {
            live[n] = (tag_off(t), i);
            n += 1;
        }
    }
    let live = &mut live[..n];
    live.sort_unstable();
    let mut at = 0;
    let mut gap = None;
    for &(off, i) in live.iter() {
        if off - at >= rec.len() {
            gap = Some(at);
            break;
        }
        at = off + tag_len(tags[i].load(Relaxed));
    }
    let at = match gap {
        Some(at) => at,
        None if BUCKET_WORDS - at >= rec.len() => at,
        None => {
            // Move the records together, in place order (each only moves
            // towards the start, over words already read).
            let mut at = 0;
            for &(off, i) in live.iter() {
                let t = tags[i].load(Relaxed);
                let len = tag_len(t);
                if off != at {
                    b.words.copy_within(off..off + len, at);
                    tags[i].store(tag_at(t, at, len), Relaxed);
                }
                at += len;
            }
            at
        }
    };
    debug_assert!(at + rec.len() <= BUCKET_WORDS);
    b.words[at..at + rec.len()].copy_from_slice(rec);
    tags[w].store(tag_at(tag, at, rec.len()), Relaxed);
}

/// The hits of `dep` as the situations of `path` at their plies, in a
/// canonical order (so that equal sets compare equal): `None` where `dep`
/// has too many or unknown hits to store.
#[inline(always)]
fn stored_hits(path: &Path, dep: &Dep) -> Option<([SuperkoKey; MAX_HITS], usize)> {
    let plies = dep.storable_hits()?;
    debug_assert!(plies.iter().all(|&p| (p as usize) < path.len() - 1));
    let mut hits = [EMPTY_KEY; MAX_HITS];
    let mut nhits = 0;
    for &ply in plies {
        hits[nhits] = path.steps()[ply as usize].key;
        nhits += 1;
    }
    hits[..nhits].sort_unstable();
    Some((hits, nhits))
}

/// The entry code of `bound` (`None`: a move hint only, not a result).
#[inline(always)]
fn bound_code(bound: Bound) -> Option<u8> {
    match bound {
        Bound::Exact => Some(EXACT),
        Bound::Lower => Some(LOWER),
        Bound::Upper => Some(UPPER),
        Bound::Unknown { .. } => Some(UNKNOWN),
        Bound::MoveOnly => None,
    }
}

/// The entry of a result for the node of `key`: `value` with its `bound`
/// (entry code `code`) and `best` move, and what it depends on (`dep`, its
/// hits as situations in `hits[..nhits]`; the absent candidates only where
/// T is small, a big T's filter goes in its Bloom slot).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn new_entry(
    key: &NodeKey,
    dep: &Dep,
    hits: &[SuperkoKey; MAX_HITS],
    nhits: usize,
    code: u8,
    bound: Bound,
    value: i32,
    best: Option<Move>,
) -> Entry {
    let big = dep.big();
    let mut entry = Entry {
        black: key.pos.black,
        white: key.pos.white,
        hits: std::array::from_fn(|k| [hits[k].black, hits[k].white]),
        abs: [[0; 2]; ABS],
        pats: std::array::from_fn(|k| [dep.pats[k].req, dep.pats[k].any]),
        sides: hits.iter().enumerate().fold(0, |m, (k, h)| m | (h.side as u16) << (2 * k)),
        sym: dep.sym,
        depth: match bound {
            Bound::Unknown { depth } => depth,
            _ => 0,
        },
        flags: key.flags,
        bound: code,
        value: value as i8,
        best: match best {
            None => 0,
            Some(Move::Pass) => 1,
            Some(Move::Play(p)) => p + 2,
        },
        nhits: nhits as u8,
        nabs: dep.nabs,
        pat_black: dep.pats.iter().enumerate().fold(0, |m, (k, p)| m | (p.black as u8) << k),
        meta: key.orient as u8 | if big { BIG } else { 0 },
    };
    if !big {
        for k in 0..dep.nabs as usize {
            entry.abs[k] = [dep.abs[k].black, dep.abs[k].white];
            entry.sides |= (dep.abs[k].side as u16) << (2 * (MAX_HITS + k));
        }
    }
    entry
}

#[cfg(test)]
/// Whether two entries for the same node hold the same dependencies (hits,
/// absent candidates, patterns, symmetries, orientation and bigness).
#[inline(always)]
fn same_dependencies(e: &Entry, new: &Entry) -> bool {
    e.meta == new.meta
        && e.nhits == new.nhits
        && e.hits == new.hits
        && e.sides == new.sides
        && e.sym == new.sym
        && e.nabs == new.nabs
        && e.abs == new.abs
        && e.pats == new.pats
        && e.pat_black == new.pat_black
}

#[cfg(test)]
mod tests {
    use super::WAYS;
    use crate::search::tt::fixtures::*;

    /// A store finds the same result by comparing records word by word
    /// (`same_dependencies_record`): that must say what comparing the
    /// decoded entries and slots says, over random entries, small and big,
    /// narrow and wide, and pairs that differ in one field each (fields that
    /// are no dependency, and the cleared situations, must not count).
    #[test]
    fn records_compare_as_their_entries() {
        use super::super::entry::*;
        use super::same_dependencies;
        use crate::search::tree::hash::{mix, BLOOM_WORDS};
        let mut seed = 7u64;
        let mut rand = move |n: u64| {
            seed = mix(seed.wrapping_add(0x9e37_79b9_7f4a_7c15));
            seed % n
        };
        for narrow in [true, false] {
            let all: u64 = if narrow { (1 << 25) - 1 } else { !0 };
            let pair = |r: &mut dyn FnMut(u64) -> u64| {
                let b = mix(r(1 << 40)) & all;
                [b, mix(r(1 << 40)) & all & !b]
            };
            for _ in 0..3000 {
                let mut e = Entry::VACANT;
                [e.black, e.white] = pair(&mut rand);
                let big = rand(2) == 0;
                e.nhits = rand(MAX_HITS as u64 + 1) as u8;
                for i in 0..e.nhits as usize {
                    e.hits[i] = pair(&mut rand);
                    e.sides |= (rand(3) as u16) << (2 * i);
                }
                if big {
                    e.nabs = ABS as u8 + 1 + rand(3) as u8;
                    e.meta = BIG;
                } else {
                    e.nabs = rand(ABS as u64 + 1) as u8;
                    for i in 0..e.nabs as usize {
                        e.abs[i] = pair(&mut rand);
                        e.sides |= (rand(3) as u16) << (2 * (MAX_HITS + i));
                    }
                }
                for i in 0..PATTERNS {
                    if rand(3) == 0 {
                        e.pats[i] = [pair(&mut rand)[0], pair(&mut rand)[1] | 1];
                        e.pat_black |= (rand(2) as u8) << i;
                    }
                }
                e.sym = rand(4) as u8;
                e.meta |= rand(8) as u8;
                e.flags = 4 | rand(4) as u8;
                let mut slot = BloomSlot::VACANT;
                if big {
                    slot.ever = [pair(&mut rand)[0], pair(&mut rand)[0], pair(&mut rand)[0]];
                    let bits = [3, 40, 300, 2000, 7000][rand(5) as usize];
                    for _ in 0..bits {
                        let i = rand(64 * BLOOM_WORDS as u64) as usize;
                        slot.bloom[i >> 6] |= 1 << (i & 63);
                    }
                    for _ in 0..rand(4) {
                        slot.add_cleared(&crate::rules::history::SuperkoKey {
                            black: pair(&mut rand)[0],
                            white: 0,
                            side: 1,
                        });
                    }
                    slot.owner = 1;
                }
                // One change (or none).
                let (mut f, mut fslot) = (e, slot);
                match rand(12) {
                    0 => f.value = f.value.wrapping_add(1),
                    1 => f.bound = (f.bound + 1) & 3,
                    2 => f.best = f.best.wrapping_add(1),
                    3 => f.depth += 1,
                    4 if f.nhits > 0 => f.hits[0][0] ^= 1,
                    5 if f.nhits > 0 => f.sides ^= 1,
                    6 if !big && f.nabs > 0 => f.abs[f.nabs as usize - 1][1] ^= 2,
                    7 => f.sym ^= 1,
                    8 => f.meta ^= 1,
                    9 if big => fslot.bloom[rand(BLOOM_WORDS as u64) as usize] ^= 1 << rand(64),
                    10 if big => fslot.ever[rand(3) as usize] ^= 1,
                    11 if big => {
                        fslot.add_cleared(&crate::rules::history::SuperkoKey { black: 5, white: 2, side: 0 });
                    }
                    _ => {}
                }
                let (mut ra, mut rb) = ([0; MAX_RECORD], [0; MAX_RECORD]);
                let la = encode(&e, big.then_some(&slot), narrow, &mut ra);
                let lb = encode(&f, big.then_some(&fslot), narrow, &mut rb);
                let (mut sa, mut sb) = (BloomSlot::VACANT, BloomSlot::VACANT);
                let (da, db) = (decode(&ra[..la], narrow, Some(&mut sa)), decode(&rb[..lb], narrow, Some(&mut sb)));
                assert_eq!((da, db), (e, f), "round trip");
                let want = same_dependencies(&da, &db) && (!big || (sa.ever == sb.ever && sa.bloom == sb.bloom));
                assert_eq!(same_dependencies_record(&ra[..la], &rb[..lb], narrow), want, "{e:?} / {f:?}");
            }
        }
    }

    /// A table that grows (from one bucket) keeps the results stored
    /// before, and gives each stored value back under its own key.
    #[test]
    fn a_growing_table_keeps_its_results() {
        let t = Table::growing_from(4, 0, &geo());
        let start = t.bytes_in_use();
        let mut stored = Vec::new();
        // Every coloring of the six-point strip but the empty one. The
        // value is the same for a coloring and its mirror image, which
        // share a key.
        for code in 1..729 {
            let pos = coloring(code);
            let value = pos.black.count_ones() as i32 - pos.white.count_ones() as i32;
            let (path, node) = path_of(&[S0, pos]);
            let mut counters = TableCounters::default();
            t.store(&path, &node, value, Bound::Exact, Some(Move::Pass), &Dep::NONE, 100, &mut counters);
            t.add_fills(counters.fills);
            stored.push((pos, value));
        }
        // About 380 keys (a coloring and its mirror share one), in buckets of 32 ways.
        assert!(t.bytes_in_use() >= 16 * start, "{} bytes from {start}", t.bytes_in_use());
        let mut found = 0;
        for &(pos, value) in &stored {
            let (path, node) = path_of(&[S0, pos]);
            if let Some(got) = proved(&t, &path, &node) {
                assert_eq!(got, (value, Bound::Exact));
                found += 1;
            }
        }
        assert!(found * 10 >= stored.len() * 9, "{found} of {} found", stored.len());
    }

    /// The colorings of the strip with Black on the points of `black` and
    /// White on none: a distinct key for each `black` below 64 whose
    /// mirror image is not smaller.
    fn strip_nodes() -> Vec<Bits> {
        let mirror = |b: Bits| (0..6).filter(|i| b >> i & 1 != 0).fold(0, |a, i| a | 1 << (5 - i));
        (1..64).filter(|&b| mirror(b) >= b).collect()
    }

    /// One bucket (a table that never grows, its fills not passed on)
    /// holds as many results as it has tags; a store into a full bucket
    /// evicts the result with the least work behind it.
    #[test]
    fn a_full_bucket_evicts_the_least_work() {
        let t = Table::growing_from(1, 0, &geo());
        assert_eq!(t.len(), 1);
        let blacks = strip_nodes();
        assert!(blacks.len() > WAYS);
        let mut c = TableCounters::default();
        for (i, &black) in blacks.iter().enumerate() {
            let (path, node) = path_of(&[S0, pos(black, 0)]);
            // Work 2^i: the later, the more.
            t.store(&path, &node, i as i32, Bound::Lower, Some(Move::Pass), &Dep::NONE, 1 << i, &mut c);
        }
        let evicted = blacks.len() - WAYS;
        assert_eq!(c.churn.evicted as usize, evicted);
        for (i, &black) in blacks.iter().enumerate() {
            let (path, node) = path_of(&[S0, pos(black, 0)]);
            let want = (i >= evicted).then_some((i as i32, Bound::Lower));
            assert_eq!(proved(&t, &path, &node), want, "result {i}");
        }
    }

    /// Big results do not compete for one slot a bucket: a bucket holds
    /// several beside small ones, each reused with its own T; a long one
    /// (a filter kept whole) evicts the least work until its words are
    /// free, and the records left are moved together where the free words
    /// are scattered.
    #[test]
    fn big_and_small_results_share_a_bucket() {
        let t = Table::growing_from(1, 0, &geo());
        let blacks = strip_nodes();
        let mut c = TableCounters::default();
        // Small results with work 2^i, and every third a big one whose T
        // holds 150 colorings (a filter of about 600 bits, some 50 words
        // coded): about 230 of the bucket's 256 words in all.
        let member = |i: usize| pos(0, 1 << (i / 3));
        let big_of = |i: usize| {
            let mut d = Dep::NONE;
            for code in 100..250 {
                d.add_candidate(&cand(coloring(code)), ALL);
            }
            d.add_candidate(&cand(member(i)), ALL);
            d
        };
        for (i, &black) in blacks.iter().take(12).enumerate() {
            let (path, node) = path_of(&[S0, pos(black, 0)]);
            let dep = if i % 3 == 0 { big_of(i) } else { Dep::NONE };
            t.store(&path, &node, i as i32, Bound::Lower, Some(Move::Pass), &dep, 1 << (i + 2), &mut c);
        }
        assert_eq!(c.churn.big_stores, 4);
        assert_eq!(c.churn.evicted, 0);
        for (i, &black) in blacks.iter().take(12).enumerate() {
            let (path, node) = path_of(&[S0, pos(black, 0)]);
            assert_eq!(proved(&t, &path, &node), Some((i as i32, Bound::Lower)), "result {i}");
            if i % 3 == 0 {
                // Its own T's member above the node forbids its reuse.
                let (other, _) = path_of(&[member(i), S0, pos(black, 0)]);
                assert_eq!(proved(&t, &other, &node), None, "result {i} under another history");
            }
        }
        // A big T with a full filter (128 words) and the least work but
        // one: it evicts result 0, 1, ... until its words are free.
        let mut full = Dep::NONE;
        full.merge_filter(&[ALL; 3], &[!0; crate::search::tree::hash::BLOOM_WORDS]);
        let black = blacks[20];
        let (path, node) = path_of(&[S0, pos(black, 0)]);
        t.store(&path, &node, 20, Bound::Lower, Some(Move::Pass), &full, 2, &mut c);
        assert!(c.churn.evicted > 0);
        assert_eq!(proved(&t, &path, &node), Some((20, Bound::Lower)));
        let kept = blacks.iter().take(12).enumerate().filter(|&(i, &black)| {
            let (path, node) = path_of(&[S0, pos(black, 0)]);
            match proved(&t, &path, &node) {
                Some(got) => {
                    assert_eq!(got, (i as i32, Bound::Lower));
                    true
                }
                None => false,
            }
        });
        let kept: Vec<usize> = kept.map(|(i, _)| i).collect();
        let first = 12 - kept.len();
        assert_eq!(kept, (first..12).collect::<Vec<_>>(), "the least work went first");
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

    /// A node with a refutation (no move: every move failed) and a proof
    /// (its move) stored: the look-up may give the refutation, the hint
    /// still names the proof's move; a node with no move stored has none.
    #[test]
    fn the_move_hint_passes_over_results_without_a_move() {
        let t = table();
        let (path, node) = path_of(&[S0, S1, S2, S3]);
        let mut c = TableCounters::default();
        t.store(&path, &node, -1, Bound::Upper, None, &Dep::NONE, 100, &mut c);
        let key = t.key(&node);
        assert_eq!(t.best_move_hint(&key), None, "a refutation names no move");
        t.store(&path, &node, -1, Bound::Lower, Some(Move::Pass), &Dep::NONE, 100, &mut c);
        assert_eq!(t.best_move_hint(&key), Some(Move::Pass));
        let (_, other) = path_of(&[S0, S1, S2]);
        assert_eq!(t.best_move_hint(&t.key(&other)), None, "nothing stored there");
    }
}
