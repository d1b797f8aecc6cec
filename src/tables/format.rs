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
        let fields = HeaderFields {
            width: self.spec.geo.width() as u8,
            height: self.spec.geo.height() as u8,
            suicide: self.spec.rules.suicide as u8,
            superko: match self.spec.rules.superko {
                Superko::Positional => 0,
                Superko::Situational => 1,
            },
            komi_half: self.spec.rules.komi.0,
            complete: self.complete as u8,
            total: self.total,
            count: self.entries.len() as u64,
        };
        let mut body = Vec::with_capacity(HEADER_FIELDS_SIZE + ENTRY_SIZE * self.entries.len());
        store::encode_into(&fields, &mut body).expect("header encodes");
        debug_assert_eq!(body.len(), HEADER_FIELDS_SIZE);
        for e in &self.entries {
            let rec = EntryRecord {
                black: e.position.black,
                white: e.position.white,
                to_move: (e.to_move == Color::White) as u8,
                value: e.value,
                best_pass: e.best_pass as u8,
                best_points: e.best_points,
            };
            store::encode_into(&rec, &mut body).expect("entry encodes");
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
        let path = name.to_string();
        if bytes.len() < MAGIC.len() || bytes[..MAGIC.len()] != MAGIC {
            // A prefix of the magic is a table cut short, anything else is foreign.
            if !bytes.is_empty() && bytes.len() < MAGIC.len() && MAGIC.starts_with(bytes) {
                return Err(TableError::Truncated {
                    path,
                    found: bytes.len(),
                    expected: HEADER_SIZE,
                    entries: "0".into(),
                });
            }
            return Err(TableError::Foreign(path));
        }
        let truncated = |expected: usize, entries: String| TableError::Truncated {
            path: name.to_string(),
            found: bytes.len(),
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
        let fields_bytes = &bytes[20..20 + HEADER_FIELDS_SIZE];
        let corrupt = |reason: String| TableError::Corrupt { path: name.to_string(), reason };
        let (fields, _) = store::from_bytes::<HeaderFields>(fields_bytes).map_err(|e| corrupt(e.to_string()))?;
        let (stored, _) = store::from_bytes::<u64>(&bytes[20 + HEADER_FIELDS_SIZE..HEADER_SIZE])
            .map_err(|e| corrupt(e.to_string()))?;
        let expected = (fields.count as u128) * ENTRY_SIZE as u128 + HEADER_SIZE as u128;
        if (bytes.len() as u128) < expected {
            let exp = usize::try_from(expected).unwrap_or(usize::MAX);
            return Err(truncated(exp, fields.count.to_string()));
        }
        let mut hasher_input = Vec::with_capacity(bytes.len() - HEADER_SIZE + HEADER_FIELDS_SIZE);
        hasher_input.extend_from_slice(fields_bytes);
        hasher_input.extend_from_slice(&bytes[HEADER_SIZE..]);
        let computed = store::fnv1a64(&hasher_input);
        if computed != stored {
            return Err(TableError::Checksum { path, stored, computed });
        }
        if bytes.len() as u128 > expected {
            return Err(corrupt(format!("{} bytes after the last entry", bytes.len() as u128 - expected)));
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
        let mut entries = Vec::with_capacity(fields.count as usize);
        let mut prev: Option<Key> = None;
        for (i, chunk) in bytes[HEADER_SIZE..].chunks_exact(ENTRY_SIZE).enumerate() {
            let (r, _) = store::from_bytes::<EntryRecord>(chunk).map_err(|e| corrupt(e.to_string()))?;
            let position = Position { black: r.black, white: r.white };
            if r.to_move > 1
                || r.best_pass > 1
                || !position.is_legal(&geo)
                || r.best_points & !position.empty(&geo) != 0
            {
                return Err(corrupt(format!("entry {} is not a legal position of {}", i, geo.name())));
            }
            // An area difference lies within ±(points of the board).
            if (r.value as i64).unsigned_abs() > geo.points() as u64 {
                return Err(corrupt(format!(
                    "entry {} has value {} outside ±{} for {}",
                    i,
                    r.value,
                    geo.points(),
                    geo.name()
                )));
            }
            let e = Entry {
                position,
                to_move: if r.to_move == 0 { Color::Black } else { Color::White },
                value: r.value,
                best_pass: r.best_pass == 1,
                best_points: r.best_points,
            };
            if prev.is_some_and(|p| p >= e.key()) {
                return Err(corrupt(format!("entry {} is out of order", i)));
            }
            prev = Some(e.key());
            entries.push(e);
        }
        let complete = fields.complete == 1;
        if complete && fields.count != fields.total {
            return Err(corrupt("marked complete but entries are missing".into()));
        }
        Ok(SolvedTable { spec: TableSpec { geo, rules }, complete, total: fields.total, entries })
    }

    /// Read a table file.
    pub fn read(path: &Path) -> Result<SolvedTable, TableError> {
        let name = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|source| TableError::Io { path: name.clone(), source })?;
        SolvedTable::from_bytes(&name, &bytes)
    }

    /// Write the table atomically (temporary file, then rename).
    pub fn write(&self, path: &Path) -> std::io::Result<()> {
        store::write_atomic(path, &self.to_bytes())
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
