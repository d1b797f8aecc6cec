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

const WAYS: usize = 4;

/// A bucketed table of exact-keyed entries with history dependencies.
///
/// The table is shared by the threads of a parallel solve: bucket `i` is only
/// read or written while holding stripe lock `i % STRIPES`, so a bucket is
/// never seen half-written. Entries carry their own dependencies, so sharing
/// them between threads is exactly as sound as reusing them within one.
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
/// Growing never gives a wrong result: every entry is checked against the
/// whole key (`Entry::is_for`), so an entry found in any bucket is the
/// result it claims to be. A look-up that misses an entry (moved, or not yet
/// moved, while the table grows) only costs work, like a replaced entry.
/// So the other threads need not stop: the growing thread publishes the new
/// length first, then moves each entry to the cluster of its key under the
/// new length (see `Table::grow`); a thread still using the old length for
/// one operation reads or writes a bucket that exists either way, under its
/// stripe lock.
pub struct Table {
    buckets: Buckets,
    locks: Vec<Mutex<()>>,
    /// Buckets in use now (any number: see [`Table::bucket`]); at most
    /// `buckets.len`.
    len: AtomicUsize,
    /// Ways filled since the start (stores into a vacant way, flushed by the
    /// searchers in batches: [`Table::add_fills`]), less entries dropped while
    /// growing. Approximate (evictions of a big entry are not counted): it
    /// only decides when to grow.
    filled: AtomicUsize,
    /// Set while one thread grows the table.
    growing: AtomicBool,
    /// Buckets searched for one node: results for the same position under
    /// different histories need room beside each other.
    cluster: usize,
    all: Bits,
    /// The board's symmetries: every position is stored under its canonical
    /// image (see "symmetry" in [`super`]).
    sym: SymmetryTables,
}

/// Buckets per cluster.
const CLUSTER: usize = 4;

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
/// on the entry, under the lock), so a stale or torn-free relaxed read can
/// cost a look-up or miss a result, never give a wrong one. Writes happen
/// under the lock, with the entry.
type TagRow = [AtomicU64; WAYS];

/// A bucket: its entries and the one Bloom slot they share (see [`Entry`]).
/// A big entry (T not listed) owns the slot; storing another big result in
/// the bucket evicts it.
#[repr(C)]
pub(super) struct Bucket {
    entries: [Entry; WAYS],
    slot: BloomSlot,
}

/// The bucket array behind the stripe locks, as raw allocations so that
/// threads holding different stripes never alias one `&mut` to the whole array.
///
/// Beside each bucket of entries sits its row of [`Tag`]s in a separate,
/// dense array: a probe reads the tags of its whole cluster (one or two cache
/// lines) and touches an entry only when its tag matches. Profiling showed
/// the first read of a cluster's entries as the largest single cost of the
/// search (a cache miss per entry).
struct Buckets {
    entries: *mut Bucket,
    tags: *mut TagRow,
    len: usize,
}

impl Buckets {
    fn new(n: usize) -> Buckets {
        let mut e = std::mem::ManuallyDrop::new(zeroed_vec::<Bucket>(n));
        let mut t = std::mem::ManuallyDrop::new(zeroed_vec::<TagRow>(n));
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

/// One result of the table as a checkpoint file keeps it: the entry (its
/// key, value and dependencies, see [`Entry`]), the log2 of the work behind
/// it (its replacement rank) and, for a result whose candidate set T is too
/// large to list, the bucket's Bloom slot that describes T. The encoding is
/// bincode's (`crate::store`); what the fields mean is this module's, so a
/// checkpoint names the program's table format ([`format_fingerprint`]).
#[derive(Clone, Copy, Debug, bincode::Encode, bincode::Decode)]
pub struct SavedEntry {
    entry: Entry,
    work: u8,
    slot: Option<BloomSlot>,
}

impl SavedEntry {
    /// The same result without the mark of where it lay in the table it was
    /// saved from (the way that owned a big result's slot, which `restore`
    /// sets anew): two results are the same result with the same conditions
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
}

/// `n` all-zero elements from zeroed memory, so the OS hands out pages
/// lazily and a small search on a large table costs nothing up front.
///
/// Only used with `T` = [`Bucket`]s, rows of [`Tag`]s, arrays of
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

impl Table {
    /// A table of about `mb` MiB for boards of geometry `geo`, starting at
    /// 32 MiB and growing as it fills on boards of at most 16 points
    /// (`START_BYTES`, `GROWING_POINTS`), at its full size on larger ones.
    pub fn new(mb: usize, geo: &Geometry) -> Table {
        let start = if geo.points() <= GROWING_POINTS { START_BYTES } else { usize::MAX };
        Table::growing_from(mb, start, geo)
    }

    /// A table of about `mb` MiB that starts at about `start` bytes (at
    /// least one cluster) and grows up to its full size.
    fn growing_from(mb: usize, start: usize, geo: &Geometry) -> Table {
        let n = ((mb.max(1) << 20) / BUCKET_BYTES).max(1);
        let first = (start / BUCKET_BYTES).max(CLUSTER).min(n);
        Table {
            buckets: Buckets::new(n),
            locks: (0..STRIPES.min(n.next_power_of_two())).map(|_| Mutex::new(())).collect(),
            len: AtomicUsize::new(first),
            filled: AtomicUsize::new(0),
            growing: AtomicBool::new(false),
            cluster: CLUSTER.min(first),
            all: geo.all(),
            sym: SymmetryTables::new(geo),
        }
    }

    /// Bytes of the buckets in use now (the table's full size once grown).
    pub fn bytes_in_use(&self) -> usize {
        self.len.load(Relaxed) * BUCKET_BYTES
    }

    /// Pass on `n` stores into vacant ways (a searcher's batch); grow the
    /// table if three quarters of its ways are filled and it can grow. The
    /// seconds the growth took, if this call grew it (for the trace).
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

    fn wants_growth(&self, filled: usize, len: usize) -> bool {
        len < self.buckets.len && 4 * filled >= 3 * len * WAYS
    }

    /// Make [`GROWTH`] times the buckets in use (at most all of them):
    /// publish the new length, then move every entry not in the cluster of
    /// its key under the new length there, from the last bucket down (see
    /// "Growth" in [`Table`]). Under the multiply-shift index a key's bucket
    /// never goes down when the length grows, so nearly every move lands in
    /// a bucket already done; one that lands lower is in its cluster when
    /// that bucket's turn comes, and stays. An entry that finds no vacant way
    /// is dropped (the clusters it lands in are 3/16 full on average).
    fn grow(&self) {
        let old = self.len.load(Relaxed);
        // Another thread may have grown the table since this one looked.
        if !self.wants_growth(self.filled.load(Relaxed), old) {
            return;
        }
        let new = (GROWTH * old).min(self.buckets.len);
        self.len.store(new, Relaxed);
        let mut moving: Vec<(usize, u64, Entry, Option<BloomSlot>)> = Vec::with_capacity(WAYS);
        for b in (0..old).rev() {
            self.with_bucket(b, |tags, bucket| {
                for (w, tag) in tags.iter().enumerate() {
                    let e = bucket.entries[w];
                    if e.flags == 0 {
                        continue;
                    }
                    let home = self.bucket(table_hash(e.black, e.white, e.flags), new);
                    if (0..self.cluster).any(|c| self.next(home, c, new) == b) {
                        continue;
                    }
                    let owner = bucket.slot.owner as usize == w + 1;
                    moving.push((home, tag.load(Relaxed), e, owner.then_some(bucket.slot)));
                    if owner {
                        bucket.slot.owner = 0;
                    }
                    tag.store(0, Relaxed);
                    bucket.entries[w] = Entry::VACANT;
                }
            });
            for (home, tag, e, slot) in moving.drain(..) {
                if !self.place(home, tag, e, slot, new) {
                    self.filled.fetch_sub(1, Relaxed);
                }
            }
        }
    }

    /// Put a moved entry into a vacant way of the cluster starting at bucket
    /// `home` under length `len` (a big one where the bucket's Bloom slot is
    /// free).
    fn place(&self, home: usize, tag: u64, e: Entry, slot: Option<BloomSlot>, len: usize) -> bool {
        (0..self.cluster).any(|c| {
            self.with_bucket(self.next(home, c, len), |tags, bucket| {
                if slot.is_some() && bucket.slot.owner != 0 {
                    return false;
                }
                let Some(w) = (0..WAYS).find(|&w| bucket.entries[w].flags == 0) else {
                    return false;
                };
                if let Some(s) = slot {
                    bucket.slot = s;
                    bucket.slot.owner = w as u8 + 1;
                }
                tags[w].store(tag, Relaxed);
                bucket.entries[w] = e;
                true
            })
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

    /// The symmetry that maps the frame of entry `e` onto the node of `key`.
    #[inline(always)]
    fn to_node(&self, e: &Entry, key: &NodeKey) -> usize {
        self.sym.compose(self.sym.inverse(key.orient), e.orient())
    }

    /// The first bucket of key hash `h`: its low 32 bits scaled to the
    /// bucket count (multiply and shift), so the table can have any number
    /// of buckets and fill the memory it is given (a power of two wasted up
    /// to half of it). The fingerprint comes from the high bits.
    #[inline(always)]
    fn bucket(&self, h: u64, len: usize) -> usize {
        (((h & 0xffff_ffff) * len as u64) >> 32) as usize
    }

    /// Bucket `c` of the cluster starting at bucket `i`, of `len` in use.
    #[inline(always)]
    fn next(&self, i: usize, c: usize, len: usize) -> usize {
        let j = i + c;
        if j >= len {
            j - len
        } else {
            j
        }
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
        // reads or writes this bucket's entries until `f` returns (tags are
        // atomics, written only under the lock).
        debug_assert!(i < self.buckets.len);
        let (tags, entries) = unsafe { (&*self.buckets.tags.add(i), &mut *self.buckets.entries.add(i)) };
        f(tags, entries)
    }

    /// The tags of bucket `i`, read without the lock (see [`TagRow`]).
    #[inline(always)]
    fn tags(&self, i: usize) -> [Tag; WAYS] {
        debug_assert!(i < self.buckets.len);
        // SAFETY: `i` is within the tag array; atomics may be shared.
        let row = unsafe { &*self.buckets.tags.add(i) };
        std::array::from_fn(|w| row[w].load(Relaxed))
    }

    /// Run `f` under its stripe lock on each bucket of the cluster of key
    /// hash `h` that has a tag `wanted` accepts (the tags read without the
    /// lock, as a filter), in cluster order, until `f` finds something:
    /// the scan every look-up of an entry makes.
    #[inline(always)]
    fn find_in_cluster<R>(
        &self,
        h: u64,
        wanted: impl Fn(Tag) -> bool,
        mut f: impl FnMut(&TagRow, &mut Bucket) -> Option<R>,
    ) -> Option<R> {
        let len = self.len();
        let i = self.bucket(h, len);
        (0..self.cluster).map(|c| self.next(i, c, len)).find_map(|bi| {
            if !self.tags(bi).into_iter().any(&wanted) {
                return None;
            }
            self.with_bucket(bi, &mut f)
        })
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
        let found = self.find_in_cluster(
            key.h,
            |t| tag_fp(t) == fp,
            |tags, b| {
                for (tag, e) in tags.iter().zip(b.entries.iter()) {
                    if tag_fp(tag.load(Relaxed)) != fp || !e.is_for(&key) {
                        continue;
                    }
                    if e.bound == UNKNOWN && hint.is_some() {
                        continue;
                    }
                    counters.key_matches += 1;
                    let fill = if e.bound == UNKNOWN { None } else { Some(&mut *dep) };
                    let to_node = self.to_node(e, &key);
                    if !reusable(e, &b.slot, path, node, self.all, fill, &self.sym, to_node) {
                        if other_best == 0 {
                            other_best = map_best(e.best, &self.sym, to_node);
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
                        best: decode_best(map_best(e.best, &self.sym, to_node)),
                    };
                    if e.bound == UNKNOWN {
                        hint = Some(probe);
                    } else {
                        counters.hits += 1;
                        return Some(probe);
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
        self.find_in_cluster(
            key.h,
            |t| tag_fp(t) == key.fp,
            |tags, b| {
                tags.iter().zip(b.entries.iter()).find_map(|(tag, e)| {
                    (tag_fp(tag.load(Relaxed)) == key.fp && e.is_for(key) && e.best != 0)
                        .then(|| decode_best(map_best(e.best, &self.sym, self.to_node(e, key))))
                        .flatten()
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
        let len = self.len();
        let i = self.bucket(h, len);
        (0..self.cluster).any(|c| {
            self.tags(self.next(i, c, len)).iter().any(|&tag| tag_fp(tag) == fp && tag_cuts(tag, lower, bound))
        })
    }

    /// Ask the CPU to fetch the tags `node`'s look-ups will read (df-pn
    /// looks up all children of a node at once: their cache misses then
    /// overlap). Reads nothing, so it needs no lock. A cluster's rows of
    /// tags span two or three cache lines; all are fetched.
    #[inline(always)]
    pub fn prefetch(&self, key: &NodeKey) {
        let len = self.len();
        let i = self.bucket(key.h, len);
        let tags = self.buckets.tags as *const TagRow;
        // The cluster's rows: i onwards, round the end of the table if it
        // reaches it.
        let rows = self.cluster.min(len - i);
        prefetch(tags.wrapping_add(i), rows);
        prefetch(tags, self.cluster - rows);
    }

    /// [`Table::may_cut`] for both sides of the null window (b − 1, b) in one
    /// scan of the tags: whether a result may prove `>= b`, and whether one
    /// may prove `<= b − 1`.
    pub fn may_cut_window(&self, key: &NodeKey, b: i32) -> (bool, bool) {
        let NodeKey { h, fp, .. } = *key;
        let len = self.len();
        let i = self.bucket(h, len);
        let (mut lower, mut upper) = (false, false);
        for c in 0..self.cluster {
            for tag in self.tags(self.next(i, c, len)).into_iter().filter(|&t| tag_fp(t) == fp) {
                lower |= tag_cuts(tag, true, b);
                upper |= tag_cuts(tag, false, b - 1);
            }
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
        self.find_in_cluster(
            key.h,
            |t| tag_fp(t) == fp && tag_cuts(t, lower, bound),
            |tags, b| {
                for (tag, e) in tags.iter().zip(b.entries.iter()) {
                    let tag = tag.load(Relaxed);
                    if tag_fp(tag) != fp || !tag_cuts(tag, lower, bound) {
                        continue;
                    }
                    if !e.is_for(&key) {
                        continue;
                    }
                    // The tag mirrors the entry; check the entry itself anyway.
                    if !cuts(e.bound, e.value as i32, lower, bound) {
                        continue;
                    }
                    counters.key_matches += 1;
                    let to_node = self.to_node(e, &key);
                    if reusable(e, &b.slot, path, node, self.all, Some(&mut *dep), &self.sym, to_node) {
                        counters.hits += 1;
                        return Some(e.value as i32);
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
            return;
        };
        let key = self.key(node);
        let Some(code) = bound_code(bound) else {
            // Not a result: nothing to store.
            return;
        };
        let work = (64 - work.leading_zeros()) as u8;
        let new_tag = tag_of(key.h, work, code, value as i8);
        let entry = new_entry(&key, dep, &hits, nhits, code, bound, value, best);
        let big = dep.big();
        let ever = [dep.ever_black, dep.ever_white, dep.ever_empty];
        let new_slot = big.then(|| self.cleared_slot(path, node, dep, ever, &hits[..nhits]));
        // The same result: the same node with the same dependencies.
        let same = |e: &Entry, slot: &BloomSlot| {
            e.is_for(&key)
                && same_dependencies(e, &entry)
                && (!big || (slot.ever == ever && Some(&slot.bloom) == dep.filter()))
        };
        let Some((bi, w)) = self.choose_way(key.h, key.fp, big, code == UNKNOWN, same) else {
            return;
        };
        let filled = self.write_way(bi, w, new_tag, entry, new_slot.as_ref());
        counters.stores += 1;
        counters.fills += filled as usize;
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
            owner: 0,
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

    /// Where a result with fingerprint `fp` in the cluster of hash `h` goes
    /// (bucket, way): over the same result (`same`) if the cluster holds it,
    /// else over the entry with the least work behind it; a big result
    /// replaces the owner of its bucket's Bloom slot, if there is one (it
    /// would be evicted anyway). `None`: the cluster holds the same result
    /// as a proof and this one is only a `hint` (an unknown), which never
    /// replaces it. (Another thread may change the cluster in between; then
    /// one result is lost, never corrupted: each write is one whole entry
    /// under the lock.)
    #[inline(always)]
    fn choose_way(
        &self,
        h: u64,
        fp: u32,
        big: bool,
        hint: bool,
        same: impl Fn(&Entry, &BloomSlot) -> bool,
    ) -> Option<(usize, usize)> {
        let len = self.len();
        let i = self.bucket(h, len);
        let mut target = (i, 0, (true, u8::MAX));
        for c in 0..self.cluster {
            let bi = self.next(i, c, len);
            // Decide under the lock without copying the bucket out.
            let verdict = self.with_bucket(bi, |tags, b| {
                let mut best: Option<(usize, (bool, u8))> = None;
                for (w, (tag, e)) in tags.iter().zip(b.entries.iter()).enumerate() {
                    let tag = tag.load(Relaxed);
                    let owner = b.slot.owner as usize == w + 1;
                    if tag_fp(tag) == fp && same(e, &b.slot) && (!big || owner) {
                        return Err((w, e.bound != UNKNOWN && hint));
                    }
                    if big && b.slot.owner != 0 && !owner {
                        continue;
                    }
                    let rank = (tag != 0, tag as u8);
                    if best.is_none_or(|(_, r)| rank < r) {
                        best = Some((w, rank));
                    }
                }
                Ok(best)
            });
            match verdict {
                Err((_, true)) => return None, // never replace a proof by a hint
                Err((w, false)) => return Some((bi, w)),
                Ok(Some((w, rank))) if rank < target.2 => target = (bi, w, rank),
                Ok(_) => {}
            }
        }
        Some((target.0, target.1))
    }

    /// Write `entry` (tag `new_tag`) into way `w` of bucket `bi`, with its
    /// Bloom slot if it is big (evicting the slot's owner), or freeing the
    /// slot if it replaces that owner; whether the way was vacant.
    #[inline(always)]
    fn write_way(&self, bi: usize, w: usize, new_tag: u64, entry: Entry, new_slot: Option<&BloomSlot>) -> bool {
        self.with_bucket(bi, |tags, b| {
            // The slot may have changed owner since the scan (another
            // thread): a big result then evicts the new owner too.
            let owner = b.slot.owner as usize;
            if let Some(slot) = new_slot {
                if owner != 0 && owner != w + 1 {
                    tags[owner - 1].store(0, Relaxed);
                    b.entries[owner - 1] = Entry::VACANT;
                }
                b.slot = *slot;
                b.slot.owner = w as u8 + 1;
            } else if owner == w + 1 {
                b.slot.owner = 0;
            }
            let vacant = b.entries[w].flags == 0;
            tags[w].store(new_tag, Relaxed);
            b.entries[w] = entry;
            vacant
        })
    }

    /// Every result held now, one at a time, as [`SavedEntry`]s (for a
    /// checkpoint file, `crate::tables::checkpoint`). Each bucket is read
    /// under its stripe lock, so the threads of a solve may go on storing
    /// meanwhile: every entry handed out is one whole result as it was
    /// stored, and a result stays true forever (its dependencies say under
    /// which histories; see [`super`]), so a snapshot taken while the table
    /// changes is as sound as the table itself. Stops at the first error of `f`.
    pub fn for_each_saved<E>(&self, mut f: impl FnMut(&SavedEntry) -> Result<(), E>) -> Result<(), E> {
        let mut batch: Vec<SavedEntry> = Vec::with_capacity(WAYS);
        for b in 0..self.len() {
            self.with_bucket(b, |tags, bucket| {
                for (w, tag) in tags.iter().enumerate() {
                    let e = bucket.entries[w];
                    if e.flags == 0 {
                        continue;
                    }
                    let owner = e.big() && bucket.slot.owner as usize == w + 1;
                    // A big entry whose slot another result took is
                    // unusable (its T is unknown): skip it.
                    if e.big() && !owner {
                        continue;
                    }
                    batch.push(SavedEntry {
                        entry: e,
                        work: tag.load(Relaxed) as u8,
                        slot: owner.then_some(bucket.slot),
                    });
                }
            });
            for s in batch.drain(..) {
                f(&s)?;
            }
        }
        Ok(())
    }

    /// Every stored result whose best move proved it for the player to move
    /// (an exact value, a lower bound with Black to move, an upper bound
    /// with White to move), as (position, player to move, point), in the
    /// stored (canonical) frame: the training data of the move prior
    /// ([`crate::search::ordering::policy`]). Results whose best move is a pass are
    /// left out.
    pub fn for_each_proof_move(&self, mut f: impl FnMut(Position, Color, u8)) {
        for b in 0..self.len() {
            self.with_bucket(b, |_, bucket| {
                for e in bucket.entries.iter() {
                    if e.flags == 0 || e.best < 2 {
                        continue;
                    }
                    let white = e.flags & 1 != 0;
                    let proved = e.bound == EXACT || (e.bound == LOWER && !white) || (e.bound == UPPER && white);
                    if !proved {
                        continue;
                    }
                    // The best move is kept in the frame of the node it was
                    // found at; `meta` maps that frame onto the stored key.
                    let p = self.sym.point((e.meta & 7) as usize, e.best - 2);
                    let me = if white { Color::White } else { Color::Black };
                    f(Position { black: e.black, white: e.white }, me, p);
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
    /// neighbouring buckets onto one cluster, which overflows long before
    /// the table is full enough to grow (4x4: two results in three were
    /// lost so).
    pub fn presize(&self, bytes: usize) {
        let want = (bytes / BUCKET_BYTES).clamp(self.len(), self.buckets.len);
        if self.filled.load(Relaxed) == 0 && want > self.len() {
            self.len.store(want, Relaxed);
        }
    }

    /// Put a result read back from a checkpoint into its cluster, where a
    /// way is vacant (and, for a big one, its bucket's Bloom slot is free);
    /// returns whether it found room. Growing tables grow as they fill. A
    /// result that finds no room only costs the work of finding it again.
    pub fn restore(&self, saved: &SavedEntry) -> bool {
        let e = saved.entry;
        if e.big() != saved.slot.is_some() {
            return false;
        }
        let h = table_hash(e.black, e.white, e.flags);
        let len = self.len();
        let tag = tag_of(h, saved.work, e.bound, e.value);
        let placed = self.place(self.bucket(h, len), tag, e, saved.slot, len);

        if placed {
            self.add_fills(1);
        }
        placed
    }

    /// [`Table::restore`], and where its cluster has no room: in place of
    /// the result with the least work behind it there, when that is less
    /// than this one's (the rank [`Table::store`] replaces by; a big result
    /// only takes the place of another big one, with its slot). For a
    /// merge of checkpoints (one thread), which keeps the deeper result
    /// where both cannot stay; any subset of results is sound. Returns
    /// whether the result is in the table.
    pub fn restore_ranked(&self, saved: &SavedEntry) -> bool {
        if self.restore(saved) {
            return true;
        }
        let e = saved.entry;
        if e.big() != saved.slot.is_some() {
            return false;
        }
        let h = table_hash(e.black, e.white, e.flags);
        let len = self.len();
        let home = self.bucket(h, len);
        let mut least: Option<(usize, usize, u8)> = None;
        for c in 0..self.cluster {
            let bi = self.next(home, c, len);
            let here = self.with_bucket(bi, |tags, b| {
                (0..WAYS)
                    .filter(|&w| b.entries[w].flags != 0 && (b.slot.owner as usize == w + 1) == saved.slot.is_some())
                    .map(|w| (w, tags[w].load(Relaxed) as u8))
                    .min_by_key(|&(_, work)| work)
            });
            if let Some((w, work)) = here {
                if least.is_none_or(|(_, _, l)| work < l) {
                    least = Some((bi, w, work));
                }
            }
        }
        let Some((bi, w, work)) = least.filter(|&(_, _, work)| work < saved.work) else { return false };
        let _ = work;
        self.with_bucket(bi, |tags, b| {
            if let Some(slot) = saved.slot {
                b.slot = slot;
                b.slot.owner = w as u8 + 1;
            }
            tags[w].store(tag_of(h, saved.work, e.bound, e.value), Relaxed);
            b.entries[w] = e;
        });
        true
    }
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
/// T is small, a big T's filter goes in the bucket's Bloom slot).
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
    use crate::search::tt::fixtures::*;

    /// A table that grows (from one cluster) keeps the results stored
    /// before, and gives each stored value back under its own key.
    #[test]
    fn a_growing_table_keeps_its_results() {
        let t = Table::growing_from(4, 0, &geo());
        let start = t.bytes_in_use();
        let mut stored = Vec::new();
        // Every coloring of the six-point strip but the empty one. The
        // value is the same for a coloring and its mirror image, which
        // share a key.
        for code in 1..729u32 {
            let (mut black, mut white, mut c) = (0u64, 0u64, code);
            for i in 0..6 {
                match c % 3 {
                    1 => black |= 1 << i,
                    2 => white |= 1 << i,
                    _ => {}
                }
                c /= 3;
            }
            let pos = Position { black, white };
            let value = black.count_ones() as i32 - white.count_ones() as i32;
            let (path, node) = path_of(&[S0, pos]);
            let mut counters = TableCounters::default();
            t.store(&path, &node, value, Bound::Exact, Some(Move::Pass), &Dep::NONE, 100, &mut counters);
            t.add_fills(counters.fills);
            stored.push((pos, value));
        }
        assert!(t.bytes_in_use() >= 64 * start, "{} bytes from {start}", t.bytes_in_use());
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
