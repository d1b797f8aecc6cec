//! The table size a solve gets when its options give none.

/// The transposition table size (MiB) used when the options give none: an
/// eighth of the memory available now (`MemAvailable` in /proc/meminfo),
/// at most 4 GiB and at least 64 MiB; 512 MiB where the available memory
/// cannot be read. A fixed size either starved the 2-D boards (4x4 needed
/// 4 GiB to solve in 27 s, and was not solved in 60 s with 512 MiB) or
/// would not fit small machines. An eighth since entries shrank from 1.3 KiB
/// to 192 bytes (2026-11-24): a larger table costs more in zeroing pages
/// than it saves on the boards solved in seconds or minutes (4x4 value-only
/// on one thread: 14.5 s with 2 GiB, 20 s with 5.9 GiB, 30 % of it the
/// kernel clearing pages). Only the work depends on it, never a value.
pub fn machine_table_mb() -> usize {
    machine_table_mb_shared(1)
}

/// [`machine_table_mb`] for one of `sharers` solves running at once (a
/// batch): the same eighth of the memory, split between them.
pub fn machine_table_mb_shared(sharers: usize) -> usize {
    match crate::limits::available_mib() {
        Some(mib) => ((mib / 8) as usize / sharers.max(1)).clamp(MIN_TABLE_MB, MAX_DEFAULT_TABLE_MB),
        None => FALLBACK_TABLE_MB,
    }
}

/// Bounds and fallback of [`machine_table_mb`].
const MIN_TABLE_MB: usize = 64;
const MAX_DEFAULT_TABLE_MB: usize = 4096;
const FALLBACK_TABLE_MB: usize = 512;
