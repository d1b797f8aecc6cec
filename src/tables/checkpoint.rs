//! A solve's checkpoint: its search [`Memory`] (transposition table and
//! df-pn guide) on disk, so that a long solve stopped by a limit, Ctrl-C or a
//! crash goes on where it was, and later positions of the same board reuse
//! what earlier ones proved.
//!
//! Why a result read back is sound, whatever position and history it is
//! used for: see [`crate::search::memory`]. What this module adds is only
//! that the bytes come back as they were written (checksums, an end marker)
//! and mean what they meant: the header names the board, the rules of play
//! and the fingerprint of the table format
//! ([`crate::search::tt::format_fingerprint`]), and a file whose fingerprint
//! differs from this program's is refused. The one exception is table
//! format 1, from before big results kept their cleared situations: its
//! files are read, each big result with none cleared
//! ([`crate::search::tt::SavedEntryV1`]), so no solved work is lost.
//!
//! # Format (version 3)
//!
//! Little-endian, fixed widths, encoded through [`crate::store`]:
//!
//! | size | field |
//! |-----:|-------|
//! | 16 | magic `GOSOLVE\0CHKPT\r\n\x1a` |
//! | 4  | format version (u32) |
//! | 36 | header: width u8, height u8, suicide u8, superko u8 (0 positional, 1 situational), table format fingerprint u64, table MiB u64 and bytes in use u64 (of the solve that wrote it), guide numbers u64 |
//! | 8  | FNV-1a 64 of the header's bytes |
//! | …  | chunks: kind u8 (1 results, 2 guide numbers, 3 roots' bounds, 0 end), count u32, length u64, that many bytes, FNV-1a 64 of them |
//!
//! A result is a [`SavedEntry`]: its work rank, its length in words and the
//! words of the record the table keeps it as (version 3; versions 1 and 2
//! wrote the fixed fields of [`SavedEntryFixed`], three times the bytes on
//! a 5x5 proof's table, and are still read); a guide number is a (key,
//! numbers) pair of u64s; a root's bounds are a [`SavedRoot`] (version 2 on;
//! a file of version 1, which has none, is read as before). The end chunk (count 0, length 0)
//! closes a whole file, so a file cut short is refused, never half read.
//! The file is written to a temporary name and renamed
//! ([`crate::store::write_large_atomic_with`], which first removes what
//! a save killed mid-write left behind).

use crate::format::numbers::group_digits;
use crate::rules::geometry::Geometry;
use crate::rules::position::{Rules, Superko};
use crate::search::memory::{Memory, SavedRoot};
use crate::search::tt::{format_fingerprint, format_fingerprint_v1, SavedEntry, SavedEntryFixed, SavedEntryV1};
use crate::store::{self, Decode, Encode};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The first 16 bytes of every checkpoint file.
pub const MAGIC: [u8; 16] = *b"GOSOLVE\0CHKPT\r\n\x1a";
/// The format version this build writes (it reads [`OLDEST`] too).
pub const VERSION: u32 = 3;
/// The oldest format version this build reads: version 1 is version 2
/// without the roots' bounds, and version 2 is version 3 with each result
/// in fixed fields ([`SavedEntryFixed`]).
pub const OLDEST: u32 = 1;
/// The first version whose results are records ([`SavedEntry`]).
const RECORDS: u32 = 3;

/// Results per chunk: a few megabytes, so that reading needs little memory
/// and a damaged chunk is found before it is used.
const CHUNK: usize = 16_384;

const RESULTS: u8 = 1;
const NUMBERS: u8 = 2;
const ROOTS: u8 = 3;
const END: u8 = 0;

#[derive(Encode, Decode)]
struct Header {
    width: u8,
    height: u8,
    suicide: u8,
    superko: u8,
    fingerprint: u64,
    table_mb: u64,
    table_bytes: u64,
    numbers: u64,
}

#[derive(Encode, Decode)]
struct ChunkHead {
    kind: u8,
    count: u32,
    len: u64,
}

/// Why a checkpoint file could not be used. Each message is one line, the
/// system's reason included (so the reason is a field, not a `source` that
/// an error chain would print a second time).
#[derive(Debug, thiserror::Error)]
pub enum CheckpointError {
    #[error("cannot read checkpoint {path}: {reason}")]
    Io { path: String, reason: io::Error },
    #[error("cannot write checkpoint {path}: {reason}")]
    Write { path: String, reason: io::Error },
    #[error("{0} is not a gosolve checkpoint (wrong magic bytes)")]
    Foreign(String),
    #[error(
        "{path} is checkpoint format version {found}; this gosolve reads versions {OLDEST} to {VERSION} (remove it to start afresh)"
    )]
    Version { path: String, found: u32 },
    #[error("{0} was written by a gosolve with another table format; remove it to start afresh")]
    OtherFormat(String),
    #[error("{path} is a checkpoint for {found}, not for {wanted}")]
    Mismatch { path: String, found: String, wanted: String },
    #[error("{path} is damaged: {reason}")]
    Damaged { path: String, reason: String },
}

/// What a save or a load moved.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Summary {
    /// Results written, or read back.
    pub results: u64,
    /// Of the results read, those the table had room for.
    pub kept: u64,
    /// Guide numbers written or read.
    pub numbers: u64,
    /// Roots with bounds on their value written or read.
    pub roots: u64,
    /// The file's size.
    pub bytes: u64,
    pub seconds: f64,
}

impl Summary {
    /// "checkpoint F: 19,537,166 results saved (2,123 MiB) in 41.2 s": how a
    /// save is reported, by `solve --checkpoint` and by a batch job alike.
    pub fn saved_line(&self, path: &Path) -> String {
        format!(
            "checkpoint {}: {} results saved ({} MiB) in {:.1} s",
            path.display(),
            group_digits(self.results as u128),
            group_digits((self.bytes >> 20) as u128),
            self.seconds
        )
    }
}

/// "5x5, no suicide, positional superko": what a checkpoint is for.
pub fn describe(geo: &Geometry, suicide: bool, superko: Superko) -> String {
    format!("{}, {}, {} superko", geo.name(), if suicide { "suicide allowed" } else { "no suicide" }, superko.name())
}

fn superko_code(s: Superko) -> u8 {
    match s {
        Superko::Positional => 0,
        Superko::Situational => 1,
    }
}

/// Write `memory` to `path` (atomically; see the module documentation). The
/// solve using it may go on meanwhile (see
/// [`crate::search::tt::Table::for_each_saved`]).
pub fn save(memory: &Memory, path: &Path) -> Result<Summary, CheckpointError> {
    save_filtered(memory, path, |_| true)
}

/// [`save`], writing only the results `keep` accepts (all the guide
/// numbers): a distributed worker's *delta*, its results less those it read
/// from the shared checkpoint ([`result_hash`]). Any subset of a table's
/// results is a sound table: each result carries the conditions under which
/// it holds (see [`crate::search::memory`]).
pub fn save_filtered(
    memory: &Memory,
    path: &Path,
    keep: impl FnMut(&SavedEntry) -> bool,
) -> Result<Summary, CheckpointError> {
    save_delta(memory, path, keep, |_| true)
}

/// [`save_filtered`], writing only the guide numbers `keep_number` accepts
/// too: a long-lived worker's delta, which leaves out the numbers the
/// others have (the guide's numbers only order the search).
pub fn save_delta(
    memory: &Memory,
    path: &Path,
    keep: impl FnMut(&SavedEntry) -> bool,
    keep_number: impl FnMut(&(u64, u64)) -> bool,
) -> Result<Summary, CheckpointError> {
    let mut numbers = memory.saved_numbers();
    numbers.retain(keep_number);
    write(memory, path, 0, keep, numbers, memory.table_bytes() as u64)
}

/// Write the results of `memory` of at least work rank `min_rank`, its
/// roots' bounds and, if `guide_numbers`, its guide numbers: a trim
/// ([`crate::tables::merge::save_trim`]). Its header claims the bytes a
/// table needs for the results kept ([`Memory::bytes_to_hold`]), not
/// `memory`'s, so the table that reads it back is sized to it. The solve
/// may go on meanwhile: what it stores between the count and the write
/// only changes that claim, a hint for the reader.
pub fn save_ranked(
    memory: &Memory,
    path: &Path,
    min_rank: u8,
    guide_numbers: bool,
) -> Result<Summary, CheckpointError> {
    let start = Instant::now();
    let claim = memory.bytes_to_hold(memory.count_saved_from(min_rank)) as u64;
    let numbers = if guide_numbers { memory.saved_numbers() } else { Vec::new() };
    let written = write(memory, path, min_rank, |_| true, numbers, claim)?;
    Ok(Summary { seconds: start.elapsed().as_secs_f64(), ..written })
}

/// Write the results of `memory` of at least work rank `min_rank` that
/// `keep` accepts, the guide's `numbers` and the roots' bounds, under a
/// header that claims `table_bytes` in use (what the table that reads it
/// back is presized to).
fn write(
    memory: &Memory,
    path: &Path,
    min_rank: u8,
    mut keep: impl FnMut(&SavedEntry) -> bool,
    numbers: Vec<(u64, u64)>,
    table_bytes: u64,
) -> Result<Summary, CheckpointError> {
    let start = Instant::now();
    let roots = memory.saved_roots();
    let mut results = 0u64;
    let mut bytes = 0u64;
    let err = |e: io::Error| CheckpointError::Write { path: path.display().to_string(), reason: e };
    store::write_large_atomic_with(path, |w| {
        let mut w = Counting { inner: w, bytes: 0 };
        let header = Header { table_bytes, ..header_of(memory, numbers.len() as u64) };
        let hb = store::to_bytes(&header).map_err(io::Error::other)?;
        w.write_all(&MAGIC)?;
        w.write_all(&VERSION.to_le_bytes())?;
        w.write_all(&hb)?;
        w.write_all(&store::fnv1a64(&hb).to_le_bytes())?;
        let mut buf = Vec::with_capacity(CHUNK * 1_300);
        let mut count = 0u32;
        memory.for_each_saved_from(min_rank, |s: &SavedEntry| -> io::Result<()> {
            if !keep(s) {
                return Ok(());
            }
            store::encode_into(s, &mut buf).map_err(io::Error::other)?;
            count += 1;
            results += 1;
            if count as usize == CHUNK {
                write_chunk(&mut w, RESULTS, count, &buf)?;
                buf.clear();
                count = 0;
            }
            Ok(())
        })?;
        if count > 0 {
            write_chunk(&mut w, RESULTS, count, &buf)?;
        }
        for part in numbers.chunks(CHUNK) {
            buf.clear();
            for &(k, n) in part {
                buf.extend_from_slice(&k.to_le_bytes());
                buf.extend_from_slice(&n.to_le_bytes());
            }
            write_chunk(&mut w, NUMBERS, part.len() as u32, &buf)?;
        }
        if !roots.is_empty() {
            buf.clear();
            for r in &roots {
                store::encode_into(r, &mut buf).map_err(io::Error::other)?;
            }
            write_chunk(&mut w, ROOTS, roots.len() as u32, &buf)?;
        }
        write_chunk(&mut w, END, 0, &[])?;
        bytes = w.bytes;
        Ok(())
    })
    .map_err(err)?;
    Ok(Summary {
        results,
        kept: results,
        numbers: numbers.len() as u64,
        roots: roots.len() as u64,
        bytes,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// A hash of one result's bytes as a checkpoint stores them, less the mark
/// of where it lay in its table ([`SavedEntry::without_place`]): equal for
/// the same result with the same conditions (and the same work rank), so a
/// merge keeps such a duplicate once and a worker tells the results it read
/// from those it found.
pub fn result_hash(s: &SavedEntry) -> u64 {
    store::fnv1a64(&store::to_bytes(&s.without_place()).expect("a result encodes"))
}

/// The header of a checkpoint of `memory` with `numbers` guide numbers.
fn header_of(memory: &Memory, numbers: u64) -> Header {
    let geo = memory.geometry();
    let (suicide, superko) = memory.rules_of_play();
    Header {
        width: geo.width() as u8,
        height: geo.height() as u8,
        suicide: suicide as u8,
        superko: superko_code(superko),
        fingerprint: format_fingerprint(&geo),
        table_mb: memory.table_mb() as u64,
        table_bytes: memory.table_bytes() as u64,
        numbers,
    }
}

fn write_chunk(w: &mut dyn Write, kind: u8, count: u32, bytes: &[u8]) -> io::Result<()> {
    let head = store::to_bytes(&ChunkHead { kind, count, len: bytes.len() as u64 }).map_err(io::Error::other)?;
    w.write_all(&head)?;
    w.write_all(bytes)?;
    w.write_all(&store::fnv1a64(bytes).to_le_bytes())
}

/// A writer that counts the bytes through it.
struct Counting<'a> {
    inner: &'a mut dyn Write,
    bytes: u64,
}

impl Write for Counting<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.bytes += n as u64;
        Ok(n)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// Read the checkpoint at `path` into a new memory for `geo` and `rules` with
/// a table of `table_mb` MiB (0: the default). A file for another board,
/// other rules of play or another table format, or a damaged one, is an
/// error (one line); results the table has no room for are left out (they
/// only cost the work of finding them again).
pub fn load(path: &Path, geo: &Geometry, rules: &Rules, table_mb: usize) -> Result<(Memory, Summary), CheckpointError> {
    load_checked(path, Some((geo, rules)), table_mb)
}

/// Read the checkpoint at `path` for the board and rules of play it names
/// (komi 0 in the rules given back: a memory serves any komi), into a table
/// of `table_mb` MiB: for a reader that serves several boards and takes the
/// memory where it fits ([`Memory::fits`]), as `gosolve check` does.
pub fn load_any(path: &Path, table_mb: usize) -> Result<(Memory, Summary), CheckpointError> {
    load_checked(path, None, table_mb)
}

/// [`load`], the board and rules checked against `wanted` where given.
fn load_checked(
    path: &Path,
    wanted: Option<(&Geometry, &Rules)>,
    table_mb: usize,
) -> Result<(Memory, Summary), CheckpointError> {
    begin(path, wanted)?.finish(table_mb)
}

/// A checkpoint whose header has been read and checked, its results not yet
/// ([`begin_any`]): the cheap half of a read, so that a reader that cannot
/// wait for the rest (the GTP engine, which a GUI expects to answer at once)
/// refuses a foreign, outdated or mismatched file at the start and reads the
/// results on a thread of its own.
pub struct Reading {
    start: Instant,
    name: String,
    bytes: u64,
    r: io::BufReader<std::fs::File>,
    head: Header,
    version: u32,
    geo: Geometry,
    rules: Rules,
    legacy: bool,
}

/// Read and check the header of the checkpoint at `path`, for the board and
/// rules of play it names; [`Reading::finish`] reads the rest. A file that
/// is missing, foreign, of another version or table format, or whose header
/// is damaged, is refused here.
pub fn begin_any(path: &Path) -> Result<Reading, CheckpointError> {
    begin(path, None)
}

/// [`begin_any`] for a reader that wants `geo` and `rules` (their rules of
/// play; komi does not matter): a checkpoint for anything else is refused
/// as [`load`] refuses it.
pub fn begin_for(path: &Path, geo: &Geometry, rules: &Rules) -> Result<Reading, CheckpointError> {
    begin(path, Some((geo, rules)))
}

/// [`begin_any`], the board and rules checked against `wanted` where given.
fn begin(path: &Path, wanted: Option<(&Geometry, &Rules)>) -> Result<Reading, CheckpointError> {
    let start = Instant::now();
    let name = path.display().to_string();
    let io_err = |e: io::Error| CheckpointError::Io { path: name.clone(), reason: e };
    let file = std::fs::File::open(path).map_err(io_err)?;
    let bytes = file.metadata().map_err(io_err)?.len();
    let mut r = io::BufReader::with_capacity(1 << 20, file);
    let mut fixed = [0u8; 16 + 4];
    read_exact_or(&mut r, &mut fixed, &name, || CheckpointError::Foreign(name.clone()))?;
    if fixed[..16] != MAGIC {
        return Err(CheckpointError::Foreign(name.clone()));
    }
    let version = u32::from_le_bytes(fixed[16..20].try_into().expect("four bytes"));
    if !(OLDEST..=VERSION).contains(&version) {
        return Err(CheckpointError::Version { path: name.clone(), found: version });
    }
    let head_len = store::to_bytes(&Header {
        width: 0,
        height: 0,
        suicide: 0,
        superko: 0,
        fingerprint: 0,
        table_mb: 0,
        table_bytes: 0,
        numbers: 0,
    })
    .expect("a header encodes")
    .len();
    let mut hb = vec![0u8; head_len + 8];
    read_exact_or(&mut r, &mut hb, &name, || damaged(&name, "the header is cut short"))?;
    let stored = u64::from_le_bytes(hb[head_len..].try_into().expect("eight bytes"));
    if store::fnv1a64(&hb[..head_len]) != stored {
        return Err(damaged(&name, "header checksum mismatch"));
    }
    let (head, _) = store::from_bytes::<Header>(&hb[..head_len]).map_err(|e| damaged(&name, &e.to_string()))?;
    let superko = match head.superko {
        0 => Superko::Positional,
        1 => Superko::Situational,
        _ => return Err(damaged(&name, "unknown superko rule")),
    };
    let found_geo =
        Geometry::new(head.width as usize, head.height as usize).map_err(|e| damaged(&name, &e.to_string()))?;
    let found_rules = Rules { suicide: head.suicide != 0, superko, ..Rules::default() };
    let (geo, rules) = wanted.unwrap_or((&found_geo, &found_rules));
    if found_geo != *geo || (head.suicide != 0) != rules.suicide || superko != rules.superko {
        return Err(CheckpointError::Mismatch {
            path: name.clone(),
            found: describe(&found_geo, head.suicide != 0, superko),
            wanted: describe(geo, rules.suicide, rules.superko),
        });
    }
    // A checkpoint of table format 1 is read with its big results'
    // cleared situations empty (see `format_fingerprint_v1`).
    let legacy = head.fingerprint == format_fingerprint_v1(geo);
    if head.fingerprint != format_fingerprint(geo) && !legacy {
        return Err(CheckpointError::OtherFormat(name.clone()));
    }
    Ok(Reading { start, name, bytes, r, head, version, geo: *geo, rules: *rules, legacy })
}

impl Reading {
    /// The board the checkpoint is for.
    pub fn geo(&self) -> Geometry {
        self.geo
    }

    /// Its rules of play (komi 0: a memory serves any komi).
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The file's size in bytes.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// The table size (MiB) of the solve that wrote it.
    pub fn table_mb(&self) -> u64 {
        self.head.table_mb
    }

    /// The bytes its writer's table had in use.
    pub fn table_bytes(&self) -> u64 {
        self.head.table_bytes
    }

    /// Read the rest of the file, handing each result to `on_result`
    /// (which says whether it kept it: the summary's `kept`), each chunk
    /// of guide numbers to `on_numbers` and each root's bounds to
    /// `on_root`; a damaged body is an error (one line), found before the
    /// damaged chunk is handed on.
    pub fn for_each(
        mut self,
        mut on_result: impl FnMut(&SavedEntry) -> bool,
        mut on_numbers: impl FnMut(&[(u64, u64)]),
        mut on_root: impl FnMut(&SavedRoot),
    ) -> Result<Summary, CheckpointError> {
        let mut sum = self.read_body(&mut on_result, &mut on_numbers, &mut on_root)?;
        sum.seconds = self.start.elapsed().as_secs_f64();
        Ok(sum)
    }

    /// Read the results and guide numbers into a new memory with a table of
    /// `table_mb` MiB (0: the default); a damaged body is an error (one line).
    pub fn finish(mut self, table_mb: usize) -> Result<(Memory, Summary), CheckpointError> {
        let memory = Memory::new(self.geo, &self.rules, table_mb);
        memory.presize(self.head.table_bytes as usize);
        // The kernel commits the table's pages on a thread of its own
        // while this one puts the results in (see `Table::commit_in_use`).
        let stop = std::sync::atomic::AtomicBool::new(false);
        let table = memory.table.clone();
        let mut sum = std::thread::scope(|s| {
            s.spawn(|| table.commit_in_use(&stop));
            let read =
                self.read_body(&mut |s| memory.restore(s), &mut |pairs| memory.restore_numbers(pairs), &mut |r| {
                    memory.restore_root(r)
                });
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
            read
        })?;
        sum.seconds = self.start.elapsed().as_secs_f64();
        Ok((memory, sum))
    }

    /// The chunks after the header, up to the end marker: each result to
    /// `on_result` (true: kept), each chunk of guide numbers to `on_numbers`.
    fn read_body(
        &mut self,
        on_result: &mut dyn FnMut(&SavedEntry) -> bool,
        on_numbers: &mut NumbersFn,
        on_root: &mut dyn FnMut(&SavedRoot),
    ) -> Result<Summary, CheckpointError> {
        let mut sum = Summary { bytes: self.bytes, ..Summary::default() };
        let mut data = Vec::new();
        while let Some(c) = self.next_chunk(&mut data)? {
            let data = &data[..];
            match c.kind {
                RESULTS => {
                    let mut at = 0;
                    for _ in 0..c.count {
                        let (s, used) = if self.legacy {
                            store::from_bytes::<SavedEntryV1>(&data[at..]).map(|(s, n)| (SavedEntry::from(s), n))
                        } else if self.version < RECORDS {
                            store::from_bytes::<SavedEntryFixed>(&data[at..]).map(|(s, n)| (SavedEntry::from(s), n))
                        } else {
                            store::from_bytes::<SavedEntry>(&data[at..])
                        }
                        .map_err(|e| damaged(&self.name, &e.to_string()))?;
                        at += used;
                        sum.results += 1;
                        sum.kept += (s.is_whole() && on_result(&s)) as u64;
                    }
                    if at != data.len() {
                        return Err(damaged(&self.name, "a chunk's length does not match its results"));
                    }
                }
                NUMBERS => {
                    if data.len() != c.count as usize * 16 {
                        return Err(damaged(&self.name, "a chunk's length does not match its guide numbers"));
                    }
                    let pairs: Vec<(u64, u64)> = data
                        .chunks_exact(16)
                        .map(|p| {
                            (
                                u64::from_le_bytes(p[..8].try_into().expect("eight bytes")),
                                u64::from_le_bytes(p[8..].try_into().expect("eight bytes")),
                            )
                        })
                        .collect();
                    sum.numbers += pairs.len() as u64;
                    on_numbers(&pairs);
                }
                ROOTS => {
                    for r in self.roots_in(c.count, data)? {
                        sum.roots += 1;
                        on_root(&r);
                    }
                }
                _ => return Err(damaged(&self.name, "unknown chunk kind")),
            }
        }
        self.numbers_match(sum.numbers)?;
        Ok(sum)
    }

    /// Whether the file held as many guide numbers as its header says.
    fn numbers_match(&self, numbers: u64) -> Result<(), CheckpointError> {
        if numbers != self.head.numbers {
            return Err(damaged(&self.name, "the guide numbers do not match the header's count"));
        }
        Ok(())
    }

    /// The `count` roots' bounds of a chunk's bytes.
    fn roots_in(&self, count: u32, data: &[u8]) -> Result<Vec<SavedRoot>, CheckpointError> {
        let mut at = 0;
        let mut roots = Vec::with_capacity(count as usize);
        for _ in 0..count {
            let (r, used) =
                store::from_bytes::<SavedRoot>(&data[at..]).map_err(|e| damaged(&self.name, &e.to_string()))?;
            at += used;
            roots.push(r);
        }
        if at != data.len() {
            return Err(damaged(&self.name, "a chunk's length does not match its roots"));
        }
        Ok(roots)
    }

    /// The next chunk's head, its bytes in `data` once their checksum is
    /// checked; `None` at the end marker.
    fn next_chunk(&mut self, data: &mut Vec<u8>) -> Result<Option<ChunkHead>, CheckpointError> {
        let chunk_head_len = store::to_bytes(&ChunkHead { kind: 0, count: 0, len: 0 }).expect("encodes").len();
        let mut ch = vec![0u8; chunk_head_len];
        read_exact_or(&mut self.r, &mut ch, &self.name, || {
            damaged(&self.name, "cut short (no end marker): it was not written to the end")
        })?;
        let (c, _) = store::from_bytes::<ChunkHead>(&ch).map_err(|e| damaged(&self.name, &e.to_string()))?;
        if c.kind == END {
            return Ok(None);
        }
        if c.len > (CHUNK as u64) * 4096 {
            return Err(damaged(&self.name, "a chunk length is implausibly large"));
        }
        data.resize(c.len as usize + 8, 0);
        read_exact_or(&mut self.r, data, &self.name, || damaged(&self.name, "cut short inside a chunk"))?;
        let sum_at = c.len as usize;
        let stored = u64::from_le_bytes(data[sum_at..].try_into().expect("eight bytes"));
        data.truncate(sum_at);
        if store::fnv1a64(data) != stored {
            return Err(damaged(&self.name, "chunk checksum mismatch"));
        }
        Ok(Some(c))
    }

    /// What the file holds, read to its end with every chunk's checksum
    /// checked (a whole file, or an error naming the damage), without a
    /// table: results are counted, not decoded, so a file of many
    /// gigabytes is told in the time it takes to read it.
    pub fn contents(mut self) -> Result<Contents, CheckpointError> {
        let (mut results, mut numbers, mut roots) = (0u64, 0u64, Vec::new());
        let mut data = Vec::new();
        while let Some(c) = self.next_chunk(&mut data)? {
            match c.kind {
                RESULTS => results += c.count as u64,
                NUMBERS => numbers += c.count as u64,
                ROOTS => roots.extend(self.roots_in(c.count, &data)?),
                _ => return Err(damaged(&self.name, "unknown chunk kind")),
            }
        }
        self.numbers_match(numbers)?;
        Ok(Contents {
            version: self.version,
            geo: self.geo,
            rules: self.rules,
            bytes: self.bytes,
            table_mb: self.head.table_mb,
            table_bytes: self.head.table_bytes,
            results,
            numbers,
            roots,
            seconds: self.start.elapsed().as_secs_f64(),
        })
    }
}

/// What a checkpoint holds ([`Reading::contents`]).
#[derive(Clone, Debug)]
pub struct Contents {
    /// Its format version.
    pub version: u32,
    pub geo: Geometry,
    /// Its rules of play (komi 0: the values it holds exclude komi).
    pub rules: Rules,
    /// The file's size.
    pub bytes: u64,
    /// The table size (MiB) of the solve that wrote it, and the bytes of
    /// it in use.
    pub table_mb: u64,
    pub table_bytes: u64,
    pub results: u64,
    pub numbers: u64,
    /// The roots with bounds proved on their value (komi excluded).
    pub roots: Vec<SavedRoot>,
    pub seconds: f64,
}

/// The memory a checkpoint at `path` gives a solve on `geo` under `rules`
/// with a table of `table_mb` MiB: read back (with what was read) when the
/// file exists, else a fresh one (and `None`). A file that exists but cannot
/// be used is an error, as in [`load`]; what to do then is the caller's.
pub fn open(
    path: &Path,
    geo: &Geometry,
    rules: &Rules,
    table_mb: usize,
) -> Result<(Memory, Option<Summary>), CheckpointError> {
    if path.exists() {
        load(path, geo, rules, table_mb).map(|(m, s)| (m, Some(s)))
    } else {
        Ok((Memory::new(*geo, rules, table_mb), None))
    }
}

/// The error for a damaged checkpoint at `path`.
fn damaged(path: &str, reason: &str) -> CheckpointError {
    CheckpointError::Damaged { path: path.to_string(), reason: reason.to_string() }
}

/// Fill `buf` from `r`: the error `short` where the file ends first, an
/// I/O error on `path` otherwise.
fn read_exact_or(
    r: &mut impl Read,
    buf: &mut [u8],
    path: &str,
    short: impl FnOnce() -> CheckpointError,
) -> Result<(), CheckpointError> {
    match r.read_exact(buf) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => Err(short()),
        Err(e) => Err(CheckpointError::Io { path: path.to_string(), reason: e }),
    }
}

/// What a reader does with a chunk of guide numbers.
type NumbersFn<'a> = dyn FnMut(&[(u64, u64)]) + 'a;

/// Saves a memory to its checkpoint file every `every` while a solve runs
/// (on a thread of its own; the solve goes on meanwhile), and once more
/// when [`Autosave::finish`] is called at the end. A save that took long
/// puts the next one off (see [`SAVE_SPACING`]).
pub struct Autosave {
    stop: mpsc::Sender<()>,
    thread: std::thread::JoinHandle<()>,
    memory: Memory,
    path: PathBuf,
}

/// The wait after a periodic save is at least this many times the save's
/// own time. A save encodes the whole table on a core of its own while the
/// search goes on, so on a machine of two cores it takes a core from the
/// search threads, for longer as the table grows (the saves of a 12 GiB
/// table: `results/5x5-openings/README.md`, c1). Spaced this way they take
/// at most a tenth of a core, at the price of more work lost to a crash on
/// the largest tables.
const SAVE_SPACING: u32 = 10;

/// When the next periodic save is due after one that took `took`: every
/// `every`, or later where the save was long ([`SAVE_SPACING`]).
fn next_save_after(every: Duration, took: Duration) -> Duration {
    every.max(took * SAVE_SPACING)
}

impl Autosave {
    /// Start saving `memory` to `path` every `every`; `on_save` is told of
    /// each periodic save (the caller owns the terminal).
    pub fn start(
        memory: Memory,
        path: PathBuf,
        every: Duration,
        on_save: impl Fn(&Result<Summary, CheckpointError>) + Send + 'static,
    ) -> Autosave {
        let (stop, wait) = mpsc::channel::<()>();
        let (m, p) = (memory.clone(), path.clone());
        let thread = std::thread::spawn(move || {
            let mut wait_for = every;
            while let Err(mpsc::RecvTimeoutError::Timeout) = wait.recv_timeout(wait_for) {
                let start = Instant::now();
                on_save(&save(&m, &p));
                wait_for = next_save_after(every, start.elapsed());
            }
        });
        Autosave { stop, thread, memory, path }
    }

    /// The memory it saves.
    pub fn memory(&self) -> &Memory {
        &self.memory
    }

    /// The file it saves to.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Stop the periodic saves without saving again (the work is no longer
    /// wanted: solved, its answer recorded elsewhere).
    pub fn abandon(self) {
        let _ = self.stop.send(());
        let _ = self.thread.join();
    }

    /// Stop the periodic saves and save once more; the final save's summary.
    pub fn finish(self) -> Result<Summary, CheckpointError> {
        let _ = self.stop.send(());
        let _ = self.thread.join();
        save(&self.memory, &self.path)
    }
}

/// Checkpoints written and read back: the same results and numbers, a
/// re-solve answered from them, and every kind of bad file refused with its
/// own one-line error.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::history::Game;
    use crate::rules::position::{Color, Position};
    use crate::search::{solve, SolveOptions};

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("gosolve-ck-{}-{}", name, std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    /// A memory that solved the empty 3x3 board (value +9).
    fn solved_memory() -> (Game, Memory, u64) {
        let geo = Geometry::new(3, 3).unwrap();
        let game = Game::new(geo, Rules::default(), Position::EMPTY, Color::Black).unwrap();
        let memory = Memory::new(geo, &game.rules, 16);
        let opts = SolveOptions { threads: 1, value_only: true, memory: Some(memory.clone()), ..Default::default() };
        let sol = solve(&game, &opts).unwrap();
        assert_eq!(sol.value, 9);
        (game, memory, sol.stats.nodes)
    }

    /// Saves come every `every`, or ten times their own time apart where
    /// they are long.
    #[test]
    fn long_saves_are_spaced_out() {
        let (every, s) = (Duration::from_secs(600), Duration::from_secs);
        assert_eq!(next_save_after(every, s(30)), every);
        assert_eq!(next_save_after(every, s(60)), every);
        assert_eq!(next_save_after(every, s(110)), s(1100));
    }

    #[test]
    fn a_saved_memory_answers_the_solve_again() {
        let d = dir("roundtrip");
        let file = d.join("m.ck");
        let (game, memory, fresh_nodes) = solved_memory();
        let saved = save(&memory, &file).unwrap();
        assert!(saved.results > 0);
        let (back, read) = load(&file, &game.geo, &game.rules, 16).unwrap();
        assert_eq!((read.results, read.kept, read.numbers), (saved.results, saved.results, saved.numbers));
        // Written again from what was read: the same file.
        let again = d.join("again.ck");
        save(&back, &again).unwrap();
        assert_eq!(std::fs::read(&file).unwrap().len(), std::fs::read(&again).unwrap().len());
        let opts = SolveOptions { threads: 1, value_only: true, memory: Some(back), ..Default::default() };
        let sol = solve(&game, &opts).unwrap();
        assert_eq!(sol.value, 9);
        assert!(sol.stats.nodes * 10 < fresh_nodes, "{} nodes again, {} fresh", sol.stats.nodes, fresh_nodes);
        // Komi does not matter: values exclude it.
        let komi = Rules { komi: crate::rules::position::Komi(7), ..Rules::default() };
        assert!(load(&file, &game.geo, &komi, 16).is_ok());
        // Read for the board and rules the file names.
        let (any, read) = load_any(&file, 16).unwrap();
        assert!(any.fits(&game.geo, &game.rules) && !any.fits(&Geometry::new(4, 3).unwrap(), &game.rules));
        assert_eq!(read.results, saved.results);
        std::fs::remove_dir_all(&d).unwrap();
    }

    /// A checkpoint of `version` holding `memory`'s results, each written
    /// by `enc` (as an older gosolve, or a damaged one, wrote them).
    fn write_with(memory: &Memory, path: &Path, version: u32, enc: impl Fn(&SavedEntry) -> Vec<u8>) {
        let numbers = memory.saved_numbers();
        let hb = store::to_bytes(&header_of(memory, numbers.len() as u64)).unwrap();
        let mut out = [&MAGIC[..], &version.to_le_bytes(), &hb, &store::fnv1a64(&hb).to_le_bytes()].concat();
        let (mut buf, mut count) = (Vec::new(), 0u32);
        memory
            .for_each_saved(|s| {
                buf.extend(enc(s));
                count += 1;
                Ok::<(), ()>(())
            })
            .unwrap();
        write_chunk(&mut out, RESULTS, count, &buf).unwrap();
        for part in numbers.chunks(CHUNK) {
            let bytes: Vec<u8> = part.iter().flat_map(|&(k, n)| [k.to_le_bytes(), n.to_le_bytes()].concat()).collect();
            write_chunk(&mut out, NUMBERS, part.len() as u32, &bytes).unwrap();
        }
        write_chunk(&mut out, END, 0, &[]).unwrap();
        std::fs::write(path, out).unwrap();
    }

    /// Files of version 2 (each result's fixed fields) are still read, to
    /// the same results; version 3 keeps them in fewer bytes.
    #[test]
    fn a_file_of_version_2_is_read() {
        let d = dir("v2");
        let (game, memory, _) = solved_memory();
        let (v2, v3) = (d.join("v2.ck"), d.join("v3.ck"));
        write_with(&memory, &v2, 2, |s| store::to_bytes(&SavedEntryFixed::from(*s)).unwrap());
        let saved = save(&memory, &v3).unwrap();
        let (back, read) = load(&v2, &game.geo, &game.rules, 16).unwrap();
        assert_eq!((read.results, read.kept), (saved.results, saved.results));
        // Saved again from what the old file gave: the new file's bytes.
        let again = d.join("again.ck");
        save(&back, &again).unwrap();
        assert_eq!(std::fs::read(&again).unwrap().len(), std::fs::read(&v3).unwrap().len());
        let (old, new) = (std::fs::metadata(&v2).unwrap().len(), saved.bytes);
        assert!(new * 2 < old, "version 3: {new} bytes, version 2: {old}");
        std::fs::remove_dir_all(&d).unwrap();
    }

    /// A result whose record is not one the table writes, behind a good
    /// checksum (a writer's bug, or a file made so), is damage: one line,
    /// never a panic.
    #[test]
    fn a_result_that_is_not_a_record_is_refused() {
        let d = dir("record");
        let (game, memory, _) = solved_memory();
        let file = d.join("m.ck");
        // The hit count (bits 24–31 of the record's fourth word, after the
        // work rank and the length) beyond what an entry holds, or one more.
        for (byte, value) in [(3 + 3 * 8 + 3, 200u8), (3 + 3 * 8 + 3, 1)] {
            write_with(&memory, &file, VERSION, |s| {
                let mut b = store::to_bytes(s).unwrap();
                b[byte] = b[byte].wrapping_add(value);
                b
            });
            let e = load(&file, &game.geo, &game.rules, 16).err().map(|e| e.to_string()).unwrap_or_default();
            assert!(e.contains("damaged") && !e.contains('\n'), "{e}");
        }
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn bad_files_are_refused() {
        let d = dir("bad");
        let file = d.join("m.ck");
        let (game, memory, _) = solved_memory();
        save(&memory, &file).unwrap();
        let bytes = std::fs::read(&file).unwrap();
        let try_bytes = |b: &[u8]| {
            let f = d.join("x.ck");
            std::fs::write(&f, b).unwrap();
            load(&f, &game.geo, &game.rules, 16).expect_err("refused").to_string()
        };
        // Another board, other rules of play.
        let other = Geometry::new(4, 3).unwrap();
        let e = load(&file, &other, &game.rules, 16).err().unwrap().to_string();
        assert!(e.contains("for 3x3, no suicide, positional superko, not for 4x3"), "{e}");
        let suicide = Rules { suicide: true, ..Rules::default() };
        assert!(load(&file, &game.geo, &suicide, 16)
            .err()
            .unwrap()
            .to_string()
            .contains("not for 3x3, suicide allowed"));
        // Not a checkpoint, another version, damaged, cut short.
        assert!(try_bytes(b"hello").contains("not a gosolve checkpoint"));
        let mut v = bytes.clone();
        v[16] = 9;
        assert!(try_bytes(&v).contains("format version 9"));
        let mut d1 = bytes.clone();
        let mid = d1.len() / 2;
        d1[mid] ^= 0x40;
        assert!(try_bytes(&d1).contains("damaged: chunk checksum mismatch"));
        let mut h = bytes.clone();
        h[21] ^= 1;
        assert!(try_bytes(&h).contains("damaged: header checksum"));
        assert!(try_bytes(&bytes[..bytes.len() - 30]).contains("cut short"));
        for e in [try_bytes(b"hello"), try_bytes(&d1), try_bytes(&bytes[..bytes.len() - 30])] {
            assert!(!e.contains('\n'), "one line: {e}");
        }
        std::fs::remove_dir_all(&d).unwrap();
    }
}
