//!
//! The table file format (version 1).
//!
//! Little-endian, fixed widths (encoded through [`crate::store`]):
//!
//! | offset | size | field |
//! |-------:|-----:|-------|
//! | 0  | 16 | magic `GOSOLVE\0TABLE\r\n\x1a` |
//! | 16 | 4  | format version (u32) |
//! | 20 | 25 | header: width u8, height u8, suicide u8, superko u8 (0 positional, 1 situational), komi in half points i32, complete u8, total entries of the board u64, entries in this file u64 |
//! | 45 | 8  | checksum: FNV-1a 64 over the 25 header bytes and all entry bytes |
//! | 53 | 27 × n | entries sorted by (black, white, to_move): black u64, white u64, to_move u8 (0 black, 1 white), value i8, best pass u8, best points u64 |
//!
//! A file is complete when it holds every entry of the board; a checkpoint
//! (`<out>.partial`) has the same format with `complete = 0`.

use super::{Entry, Key, SolvedTable, TableSpec};
use crate::rules::geometry::Geometry;
use crate::rules::position::{Color, Komi, Position, Rules, Superko};
use crate::store::{self, Decode, Encode};
use std::path::Path;

/// The first 16 bytes of every table file.
pub const MAGIC: [u8; 16] = *b"GOSOLVE\0TABLE\r\n\x1a";
/// The format version this build writes and reads.
pub const VERSION: u32 = 1;
/// Size of the fixed header: magic, version, header fields, checksum.
pub const HEADER_SIZE: usize = 16 + 4 + HEADER_FIELDS_SIZE + 8;
const HEADER_FIELDS_SIZE: usize = 25;
/// Size of one entry on disk.
pub const ENTRY_SIZE: usize = 27;

#[derive(Encode, Decode)]
struct HeaderFields {
    width: u8,
    height: u8,
    suicide: u8,
    superko: u8,
    komi_half: i32,
    complete: u8,
    total: u64,
    count: u64,
}

/// The header fields of a table of `spec`.
fn header_fields(spec: &TableSpec, complete: bool, total: u64, count: u64) -> HeaderFields {
    HeaderFields {
        width: spec.geo.width() as u8,
        height: spec.geo.height() as u8,
        suicide: spec.rules.suicide as u8,
        superko: match spec.rules.superko {
            Superko::Positional => 0,
            Superko::Situational => 1,
        },
        komi_half: spec.rules.komi.0,
        complete: complete as u8,
        total,
        count,
    }
}

/// Append an entry's record to `out`.
fn encode_entry(e: &Entry, out: &mut Vec<u8>) {
    let rec = EntryRecord {
        black: e.position.black,
        white: e.position.white,
        to_move: (e.to_move == Color::White) as u8,
        value: e.value,
        best_pass: e.best_pass as u8,
        best_points: e.best_points,
    };
    store::encode_into(&rec, out).expect("entry encodes");
}

/// Write the complete table of `spec` (`total` entries, every legal
/// position with each side to move) to `path` atomically, the bytes
/// [`SolvedTable::to_bytes`] gives, without holding the entries in memory
/// (4x4: 48.6 M entries, 1.3 GB): `entry_of` gives each entry, asked in key
/// order, twice (once for the checksum, which the header holds, then for
/// the file). `None` from it (an entry missing) is an error, and nothing is
/// written.
pub(super) fn write_complete(
    spec: &TableSpec,
    total: u64,
    path: &Path,
    mut entry_of: impl FnMut(Position, Color) -> Option<Entry>,
) -> std::io::Result<()> {
    let fields = store::to_bytes(&header_fields(spec, true, total, total)).expect("header encodes");
    // Each pass: the entries in key order, a chunk of records at a time.
    let mut pass = |sink: &mut dyn FnMut(&[u8]) -> std::io::Result<()>| -> std::io::Result<()> {
        let mut buf = Vec::with_capacity(ENTRY_SIZE * 65_536);
        let mut count = 0u64;
        let mut failed: Option<std::io::Error> = None;
        crate::count::legal::for_each_legal_position(&spec.geo, |pos| {
            if failed.is_some() {
                return;
            }
            for c in [Color::Black, Color::White] {
                match entry_of(pos, c) {
                    Some(e) => encode_entry(&e, &mut buf),
                    None => {
                        failed = Some(std::io::Error::other(format!(
                            "the table has no entry for a position with {} to move",
                            c.name()
                        )));
                        return;
                    }
                }
                count += 1;
            }
            if buf.len() >= ENTRY_SIZE * 65_536 {
                if let Err(e) = sink(&buf) {
                    failed = Some(e);
                }
                buf.clear();
            }
        })
        .map_err(|e| std::io::Error::other(e.to_string()))?;
        if let Some(e) = failed {
            return Err(e);
        }
        if count != total {
            return Err(std::io::Error::other(format!("{count} entries listed, the header says {total}")));
        }
        sink(&buf)
    };
    let mut hash = store::fnv1a64(&fields);
    pass(&mut |b| {
        hash = store::fnv1a64_from(hash, b);
        Ok(())
    })?;
    store::write_large_atomic_with(path, |w| {
        w.write_all(&MAGIC)?;
        w.write_all(&store::to_bytes(&VERSION).map_err(std::io::Error::other)?)?;
        w.write_all(&fields)?;
        w.write_all(&store::to_bytes(&hash).map_err(std::io::Error::other)?)?;
        pass(&mut |b| w.write_all(b))
    })
}

#[derive(Encode, Decode)]
struct EntryRecord {
    black: u64,
    white: u64,
    to_move: u8,
    value: i8,
    best_pass: u8,
    best_points: u64,
}

/// Why a table file could not be used. Each message is one line.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    #[error("cannot read {path}: {source}")]
    Io { path: String, source: std::io::Error },
    #[error("{0} is not a gosolve table (wrong magic bytes)")]
    Foreign(String),
    #[error("{path} is truncated: {found} bytes, a table of {entries} entries needs {expected}")]
    Truncated { path: String, found: usize, expected: usize, entries: String },
    #[error("{path} is table format version {found}; this gosolve reads version {VERSION} (rebuild the table)")]
    Version { path: String, found: u32 },
    #[error("{path} is damaged: checksum mismatch (stored {stored:016x}, computed {computed:016x})")]
    Checksum { path: String, stored: u64, computed: u64 },
    #[error("{path} is damaged: {reason}")]
    Corrupt { path: String, reason: String },
}

impl SolvedTable {
    /// The file bytes (see the module documentation for the layout).
    pub fn to_bytes(&self) -> Vec<u8> {
        let fields = header_fields(&self.spec, self.complete, self.total, self.entries.len() as u64);
        let mut body = Vec::with_capacity(HEADER_FIELDS_SIZE + ENTRY_SIZE * self.entries.len());
        store::encode_into(&fields, &mut body).expect("header encodes");
        debug_assert_eq!(body.len(), HEADER_FIELDS_SIZE);
        for e in &self.entries {
            encode_entry(e, &mut body);
        }
        debug_assert_eq!(body.len(), HEADER_FIELDS_SIZE + ENTRY_SIZE * self.entries.len());
        let mut out = Vec::with_capacity(HEADER_SIZE + body.len() - HEADER_FIELDS_SIZE);
        out.extend_from_slice(&MAGIC);
        store::encode_into(&VERSION, &mut out).expect("version encodes");
        out.extend_from_slice(&body[..HEADER_FIELDS_SIZE]);
        store::encode_into(&store::fnv1a64(&body), &mut out).expect("checksum encodes");
        out.extend_from_slice(&body[HEADER_FIELDS_SIZE..]);
        out
    }

    /// Parse file bytes; `name` is used in error messages. Never panics.
    pub fn from_bytes(name: &str, bytes: &[u8]) -> Result<SolvedTable, TableError> {
        let head = Head::read(name, &bytes[..bytes.len().min(HEADER_SIZE)], bytes.len() as u64)?;
        let computed = store::fnv1a64_from(store::fnv1a64(&head.fields_bytes), &bytes[HEADER_SIZE..]);
        let (spec, complete) = head.check(name, computed, bytes.len() as u64)?;
        let geo = spec.geo;
        let corrupt = |reason: String| TableError::Corrupt { path: name.to_string(), reason };
        let mut entries = Vec::with_capacity(head.fields.count as usize);
        let mut prev: Option<Key> = None;
        for (i, chunk) in bytes[HEADER_SIZE..].chunks_exact(ENTRY_SIZE).enumerate() {
            let e = decode_entry(&geo, chunk).map_err(|why| corrupt(format!("entry {i} {why}")))?;
            if prev.is_some_and(|p| p >= e.key()) {
                return Err(corrupt(format!("entry {} is out of order", i)));
            }
            prev = Some(e.key());
            entries.push(e);
        }
        Ok(SolvedTable { spec, complete, total: head.fields.total, entries })
    }

    /// Read a table file.
    pub fn read(path: &Path) -> Result<SolvedTable, TableError> {
        let name = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|source| TableError::Io { path: name.clone(), source })?;
        SolvedTable::from_bytes(&name, &bytes)
    }

    /// Write the table atomically (temporary file, then rename).
    pub fn write(&self, path: &Path) -> std::io::Result<()> {
        store::write_large_atomic_with(path, |w| w.write_all(&self.to_bytes()))
    }
}

/// A table file's header, read and checked as far as it can be before the
/// entries' checksum: magic, version, the fields, the size they ask for.
struct Head {
    fields: HeaderFields,
    fields_bytes: Vec<u8>,
    stored: u64,
    /// The file's size its header asks for.
    expected: u128,
}

impl Head {
    /// Read the header from `bytes` (the file's first bytes, at most
    /// [`HEADER_SIZE`]) of a file of `len` bytes; `name` is used in
    /// error messages.
    fn read(name: &str, bytes: &[u8], len: u64) -> Result<Head, TableError> {
        let path = name.to_string();
        let found = usize::try_from(len).unwrap_or(usize::MAX);
        if bytes.len() < MAGIC.len() || bytes[..MAGIC.len()] != MAGIC {
            // A prefix of the magic is a table cut short, anything else is foreign.
            if !bytes.is_empty() && bytes.len() < MAGIC.len() && MAGIC.starts_with(bytes) {
                return Err(TableError::Truncated { path, found, expected: HEADER_SIZE, entries: "0".into() });
            }
            return Err(TableError::Foreign(path));
        }
        let truncated = |expected: usize, entries: String| TableError::Truncated {
            path: name.to_string(),
            found,
            expected,
            entries,
        };
        if bytes.len() < 20 {
            return Err(truncated(HEADER_SIZE, "?".into()));
        }
        let (version, _) = store::from_bytes::<u32>(&bytes[16..20]).map_err(|_| truncated(HEADER_SIZE, "?".into()))?;
        if version != VERSION {
            return Err(TableError::Version { path, found: version });
        }
        if bytes.len() < HEADER_SIZE {
            return Err(truncated(HEADER_SIZE, "?".into()));
        }
        let fields_bytes = bytes[20..20 + HEADER_FIELDS_SIZE].to_vec();
        let corrupt = |reason: String| TableError::Corrupt { path: name.to_string(), reason };
        let (fields, _) = store::from_bytes::<HeaderFields>(&fields_bytes).map_err(|e| corrupt(e.to_string()))?;
        let (stored, _) = store::from_bytes::<u64>(&bytes[20 + HEADER_FIELDS_SIZE..HEADER_SIZE])
            .map_err(|e| corrupt(e.to_string()))?;
        let expected = (fields.count as u128) * ENTRY_SIZE as u128 + HEADER_SIZE as u128;
        if (len as u128) < expected {
            let exp = usize::try_from(expected).unwrap_or(usize::MAX);
            return Err(truncated(exp, fields.count.to_string()));
        }
        Ok(Head { fields, fields_bytes, stored, expected })
    }

    /// The rest of the checks, once the checksum of the fields and entries
    /// (`computed`) is known: the checksum, the file's size, and the
    /// header's meaning. Gives the spec and whether the table is complete.
    fn check(&self, name: &str, computed: u64, len: u64) -> Result<(TableSpec, bool), TableError> {
        let fields = &self.fields;
        if computed != self.stored {
            return Err(TableError::Checksum { path: name.to_string(), stored: self.stored, computed });
        }
        let corrupt = |reason: String| TableError::Corrupt { path: name.to_string(), reason };
        if len as u128 > self.expected {
            return Err(corrupt(format!("{} bytes after the last entry", len as u128 - self.expected)));
        }
        // The checksum matched, so what follows only guards against a file
        // written by something else that happened to use our magic and checksum.
        let geo = Geometry::new(fields.width as usize, fields.height as usize)
            .map_err(|e| corrupt(format!("header board: {}", e)))?;
        let superko = match fields.superko {
            0 => Superko::Positional,
            1 => Superko::Situational,
            n => return Err(corrupt(format!("unknown superko code {}", n))),
        };
        if fields.suicide > 1 || fields.complete > 1 {
            return Err(corrupt("invalid flag byte in the header".into()));
        }
        if fields.komi_half.unsigned_abs() > 1000 {
            return Err(corrupt(format!("komi {} is outside -500..500", fields.komi_half as f64 / 2.0)));
        }
        let rules = Rules { suicide: fields.suicide == 1, superko, komi: Komi(fields.komi_half) };
        if fields.count > fields.total {
            return Err(corrupt(format!("{} entries but the board has {}", fields.count, fields.total)));
        }
        let complete = fields.complete == 1;
        if complete && fields.count != fields.total {
            return Err(corrupt("marked complete but entries are missing".into()));
        }
        Ok((TableSpec { geo, rules }, complete))
    }
}

/// Decode one record of a table of `geo`, checking that it is a legal
/// entry (the error says why not, after "entry N").
fn decode_entry(geo: &Geometry, chunk: &[u8]) -> Result<Entry, String> {
    let (r, _) = store::from_bytes::<EntryRecord>(chunk).map_err(|e| format!("cannot be read: {e}"))?;
    let position = Position { black: r.black, white: r.white };
    if r.to_move > 1 || r.best_pass > 1 || !position.is_legal(geo) || r.best_points & !position.empty(geo) != 0 {
        return Err(format!("is not a legal position of {}", geo.name()));
    }
    // An area difference lies within ±(points of the board).
    if (r.value as i64).unsigned_abs() > geo.points() as u64 {
        return Err(format!("has value {} outside ±{} for {}", r.value, geo.points(), geo.name()));
    }
    Ok(Entry {
        position,
        to_move: if r.to_move == 0 { Color::Black } else { Color::White },
        value: r.value,
        best_pass: r.best_pass == 1,
        best_points: r.best_points,
    })
}

/// A table file opened for look-ups without reading its entries into
/// memory: the 4x4 table is 1.3 GB on disk, 48.6 M entries. Opening reads
/// the header and checks the whole file's checksum as it streams through
/// (so a damaged file answers nothing, as [`SolvedTable::read`] refuses
/// it); a look-up then reads the few records of a binary search.
pub struct TableFile {
    pub spec: TableSpec,
    /// Every entry of the board is present.
    pub complete: bool,
    /// Entries a complete table of this board has.
    pub total: u64,
    /// Entries in the file.
    pub count: u64,
    name: String,
    file: std::sync::Mutex<std::fs::File>,
}

impl TableFile {
    /// Open `path`, checking its header and checksum (one line of error
    /// for every kind of bad file, as [`SolvedTable::read`]).
    pub fn open(path: &Path) -> Result<TableFile, TableError> {
        use std::io::Read;
        let name = path.display().to_string();
        let io = |source: std::io::Error| TableError::Io { path: name.clone(), source };
        let mut file = std::fs::File::open(path).map_err(io)?;
        let len = file.metadata().map_err(io)?.len();
        let mut first = Vec::with_capacity(HEADER_SIZE);
        (&mut file).take(HEADER_SIZE as u64).read_to_end(&mut first).map_err(io)?;
        let head = Head::read(&name, &first, len)?;
        let mut hash = store::fnv1a64(&head.fields_bytes);
        let mut buf = vec![0u8; 1 << 20];
        loop {
            let n = file.read(&mut buf).map_err(io)?;
            if n == 0 {
                break;
            }
            hash = store::fnv1a64_from(hash, &buf[..n]);
        }
        let (spec, complete) = head.check(&name, hash, len)?;
        let (total, count) = (head.fields.total, head.fields.count);
        Ok(TableFile { spec, complete, total, count, name, file: std::sync::Mutex::new(file) })
    }

    /// The entry of `position` with `to_move` to play, if the file has it.
    pub fn get(&self, position: Position, to_move: Color) -> Result<Option<Entry>, TableError> {
        let want = super::key(position, to_move);
        let (mut lo, mut hi) = (0u64, self.count);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            let e = self.entry(mid)?;
            match e.key().cmp(&want) {
                std::cmp::Ordering::Equal => return Ok(Some(e)),
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
            }
        }
        Ok(None)
    }

    /// Entry number `i` of the file.
    fn entry(&self, i: u64) -> Result<Entry, TableError> {
        use std::io::{Read, Seek, SeekFrom};
        let mut rec = [0u8; ENTRY_SIZE];
        {
            let mut f = self.file.lock().unwrap_or_else(|e| e.into_inner());
            f.seek(SeekFrom::Start(HEADER_SIZE as u64 + i * ENTRY_SIZE as u64))
                .and_then(|_| f.read_exact(&mut rec))
                .map_err(|source| TableError::Io { path: self.name.clone(), source })?;
        }
        decode_entry(&self.spec.geo, &rec)
            .map_err(|why| TableError::Corrupt { path: self.name.clone(), reason: format!("entry {i} {why}") })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(w: usize, h: usize) -> TableSpec {
        TableSpec { geo: Geometry::new(w, h).unwrap(), rules: Rules::default() }
    }

    #[test]
    fn header_and_entry_sizes() {
        let t = SolvedTable::new(spec(2, 2), 114, []);
        assert_eq!(t.to_bytes().len(), HEADER_SIZE);
        let e =
            Entry { position: Position::EMPTY, to_move: Color::White, value: -1, best_pass: true, best_points: 0b1001 };
        let t = SolvedTable::new(spec(2, 2), 114, [e]);
        let bytes = t.to_bytes();
        assert_eq!(bytes.len(), HEADER_SIZE + ENTRY_SIZE);
        let back = SolvedTable::from_bytes("t", &bytes).unwrap();
        assert_eq!(back, t);
        assert!(!back.complete);
        assert_eq!(back.get(Position::EMPTY, Color::White), Some(&e));
        assert_eq!(back.get(Position::EMPTY, Color::Black), None);
    }
}
