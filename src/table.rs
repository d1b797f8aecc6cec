//! Solved tables: every legal position of a small board, each side to move,
//! solved exactly from that position with no earlier history, stored on disk
//! and queried instantly.
//!
//! # What an entry means
//!
//! An entry is the value of `Game::new(geo, rules, position, to_move)`: the
//! game starting at that position, with only the position itself in the
//! superko history. Values are Black − White area with komi excluded (komi is
//! in the header and added when reporting); the best moves are the root moves
//! whose value equals the position's value (pass included).
//!
//! # Symmetry
//!
//! With no earlier history, a position's value is the same for its images
//! under the board's symmetries, and exchanging the colours (and the player to
//! move) negates it. So by default only one representative of each class is
//! solved and the other entries are derived from it; `--no-symmetry` solves
//! every entry directly, and the tests check that both give byte-identical
//! files.
//!
//! # File format (version 1)
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

use crate::rules::geometry::{Bits, Geometry};
use crate::rules::history::Game;
use crate::rules::position::{Color, Komi, Move, Position, Rules, Superko};
use crate::rules::symmetry::{symmetries, Symmetry};
use crate::search::{solve, SolveError, SolveOptions};
use crate::store::{self, Decode, Encode};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

/// The first 16 bytes of every table file.
pub const MAGIC: [u8; 16] = *b"GOSOLVE\0TABLE\r\n\x1a";
/// The format version this build writes and reads.
pub const VERSION: u32 = 1;
/// Size of the fixed header: magic, version, header fields, checksum.
pub const HEADER_SIZE: usize = 16 + 4 + HEADER_FIELDS_SIZE + 8;
const HEADER_FIELDS_SIZE: usize = 25;
/// Size of one entry on disk.
pub const ENTRY_SIZE: usize = 27;
/// Largest board a table can be built for (3^n colourings are enumerated).
pub const MAX_TABLE_POINTS: usize = 16;

/// A board and its rules: what a table is a table of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableSpec {
    pub geo: Geometry,
    pub rules: Rules,
}

impl TableSpec {
    /// File-name form of the rules: `NSTT` / `TT`, then `-situational`, `-komi6.5` when they apply.
    pub fn rules_slug(&self) -> String {
        let mut s = if self.rules.suicide { "TT".to_string() } else { "NSTT".to_string() };
        if self.rules.superko == Superko::Situational {
            s.push_str("-situational");
        }
        if self.rules.komi.0 != 0 {
            s.push_str(&format!("-komi{}", self.rules.komi));
        }
        s
    }
    /// The default output file: `results/tables/<WxH>-<rules>.gtb`.
    pub fn default_path(&self) -> PathBuf {
        PathBuf::from("results/tables").join(format!("{}-{}.gtb", self.geo.name(), self.rules_slug()))
    }
    /// Board and rules in words.
    pub fn describe(&self) -> String {
        format!("board {}, {}", self.geo.name(), self.rules.describe())
    }
}

/// The checkpoint next to an output file: `<out>.partial`.
pub fn partial_path(out: &Path) -> PathBuf {
    let mut name = out.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    name.push(".partial");
    out.with_file_name(name)
}

/// One solved position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub position: Position,
    pub to_move: Color,
    /// Black − White area under perfect play, komi excluded.
    pub value: i8,
    /// Passing is a best move.
    pub best_pass: bool,
    /// The points where playing is a best move.
    pub best_points: Bits,
}

impl Entry {
    /// The sort key: (black, white, to_move).
    pub fn key(&self) -> Key {
        key(self.position, self.to_move)
    }
    /// The best moves, pass first, then points in order.
    pub fn best_moves(&self) -> Vec<Move> {
        let mut out = Vec::new();
        if self.best_pass {
            out.push(Move::Pass);
        }
        out.extend(Geometry::iter(self.best_points).map(Move::Play));
        out
    }
    /// The value as reported: Black − White − komi.
    pub fn value_with_komi(&self, komi: Komi) -> f64 {
        self.value as f64 - komi.as_f64()
    }
}

/// Entries sort by this: black stones, white stones, player to move (black first).
pub type Key = (Bits, Bits, u8);

fn key(pos: Position, to_move: Color) -> Key {
    (pos.black, pos.white, (to_move == Color::White) as u8)
}

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

/// A table in memory: spec, completeness and the sorted entries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolvedTable {
    pub spec: TableSpec,
    /// Every entry of the board is present.
    pub complete: bool,
    /// Entries a complete table of this board has (2 × legal positions).
    pub total: u64,
    entries: Vec<Entry>,
}

impl SolvedTable {
    /// A table from entries (sorted here; duplicates keep the last).
    pub fn new(spec: TableSpec, total: u64, entries: impl IntoIterator<Item = Entry>) -> SolvedTable {
        let map: BTreeMap<Key, Entry> = entries.into_iter().map(|e| (e.key(), e)).collect();
        let entries: Vec<Entry> = map.into_values().collect();
        SolvedTable { spec, complete: entries.len() as u64 == total, total, entries }
    }

    /// The entries, sorted by key.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The entry of `position` with `to_move` to play.
    pub fn get(&self, position: Position, to_move: Color) -> Option<&Entry> {
        let k = key(position, to_move);
        self.entries.binary_search_by(|e| e.key().cmp(&k)).ok().map(|i| &self.entries[i])
    }

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

/// Every legal coloring of the board, in base-3 enumeration order.
pub fn legal_positions(geo: &Geometry) -> Vec<Position> {
    let n = geo.points();
    assert!(n <= MAX_TABLE_POINTS, "table boards have at most {} points", MAX_TABLE_POINTS);
    let count = 3usize.pow(n as u32);
    let mut out = Vec::new();
    let mut digits = vec![0u8; n];
    for i in 0..count {
        if i > 0 {
            // Increment the base-3 counter.
            let mut d = 0;
            while digits[d] == 2 {
                digits[d] = 0;
                d += 1;
            }
            digits[d] += 1;
        }
        let mut pos = Position::EMPTY;
        for (p, &d) in digits.iter().enumerate() {
            match d {
                1 => pos.black |= 1 << p,
                2 => pos.white |= 1 << p,
                _ => {}
            }
        }
        if pos.is_legal(geo) {
            out.push(pos);
        }
    }
    out
}

/// Solve one entry exactly: a game from `position` with no earlier history.
pub fn solve_entry(
    spec: &TableSpec,
    position: Position,
    to_move: Color,
    opts: &SolveOptions,
) -> Result<Entry, SolveError> {
    let game = Game::new(spec.geo, spec.rules, position, to_move).expect("table positions are legal");
    let sol = solve(&game, opts)?;
    let mut e = Entry {
        position,
        to_move,
        value: i8::try_from(sol.value).expect("a value on at most 64 points fits in i8"),
        best_pass: false,
        best_points: 0,
    };
    for m in sol.moves.iter().filter(|m| m.value == sol.value) {
        match m.mv {
            Move::Pass => e.best_pass = true,
            Move::Play(p) => e.best_points |= 1 << p,
        }
    }
    Ok(e)
}

/// A symmetry of the game with no history: a board symmetry, optionally
/// followed by exchanging the colours (which negates values).
struct Transform {
    sym: Symmetry,
    swap: bool,
}

impl Transform {
    fn all(geo: &Geometry, symmetric: bool) -> Vec<Transform> {
        if !symmetric {
            return vec![Transform { sym: symmetries(geo).swap_remove(0), swap: false }];
        }
        let mut out = Vec::new();
        for swap in [false, true] {
            for sym in symmetries(geo) {
                out.push(Transform { sym, swap });
            }
        }
        out
    }
    fn apply(&self, pos: Position, to_move: Color) -> (Position, Color) {
        let p = self.sym.position(&pos);
        if self.swap {
            (Position { black: p.white, white: p.black }, to_move.opponent())
        } else {
            (p, to_move)
        }
    }
    fn entry(&self, e: &Entry) -> Entry {
        let (position, to_move) = self.apply(e.position, e.to_move);
        Entry {
            position,
            to_move,
            value: if self.swap { -e.value } else { e.value },
            best_pass: e.best_pass,
            best_points: self.sym.bits(e.best_points),
        }
    }
}

/// What the build reports now and then.
#[derive(Clone, Debug, Default)]
pub struct BuildProgress {
    /// Entries known (solved or derived), including those loaded from a checkpoint.
    pub done: u64,
    /// Entries of a complete table.
    pub total: u64,
    /// Entries that were loaded from the checkpoint at the start.
    pub resumed: u64,
    /// Positions solved by the search in this run.
    pub solved: u64,
    /// Positions the search has to solve in this run in all.
    pub to_solve: u64,
    /// Seconds since this run started.
    pub seconds: f64,
    /// Solves running now, and how long the oldest of them has been running.
    pub in_flight: usize,
    pub oldest_in_flight: f64,
}

/// Options of a table build.
#[derive(Clone)]
pub struct BuildOptions {
    /// Positions solved at once (0 = all cores); each solve is single-threaded.
    pub threads: usize,
    /// Transposition table size of each solve, in MiB.
    pub table_mb: usize,
    /// Use board and colour symmetry to solve one position per class.
    pub symmetry: bool,
    /// How often the checkpoint is rewritten.
    pub checkpoint_every: Duration,
    /// Stop (as if interrupted) once this many positions were solved in this run:
    /// exactly the first N of the run's work list are solved.
    pub stop_after: Option<u64>,
    /// Stop (as if interrupted) after this long.
    pub time_limit: Option<Duration>,
    /// Set from outside (Ctrl-C) to stop; the checkpoint is written.
    pub abort: Option<Arc<AtomicBool>>,
    /// Ignore an existing output file and checkpoint; start from scratch.
    pub force: bool,
    /// Called on the calling thread after every result, about ten times a second meanwhile, and at the end.
    pub progress: Option<ProgressFn>,
}

/// A build progress callback.
pub type ProgressFn = Arc<dyn Fn(&BuildProgress) + Send + Sync>;

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions {
            threads: 0,
            table_mb: 16,
            symmetry: true,
            checkpoint_every: Duration::from_secs(10),
            stop_after: None,
            time_limit: None,
            abort: None,
            force: false,
            progress: None,
        }
    }
}

/// Why a build stopped before the table was complete.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    Interrupted,
    TimeLimit,
    StopAfter,
}

/// How a build ended.
#[derive(Debug)]
pub enum BuildOutcome {
    /// The output file was already a complete table of this spec; nothing done.
    AlreadyComplete { entries: u64 },
    /// The table is complete and written; the checkpoint is removed.
    Complete { entries: u64, resumed: u64, solved: u64, seconds: f64 },
    /// Stopped early; everything proven so far is in the checkpoint.
    Stopped { reason: StopReason, done: u64, total: u64, solved: u64, checkpoint: PathBuf, seconds: f64 },
}

/// Why a build could not run.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    #[error(
        "table build supports boards of at most {MAX_TABLE_POINTS} points (3^n colourings are enumerated); {0} has {1}"
    )]
    TooLarge(String, usize),
    #[error("{path} already exists and is not a complete table of {spec} ({reason}); use --force to overwrite it")]
    OutputExists { path: String, spec: String, reason: String },
    #[error("{0} is a directory; give --out a file name (e.g. {0}/table.gtb)")]
    IsDirectory(String),
    #[error("cannot resume from {path}: {reason}; delete it (or use --force) to start over")]
    BadCheckpoint { path: String, reason: String },
    #[error("cannot write {path}: {source}")]
    Write { path: String, source: std::io::Error },
}

/// Build (or resume building) the table of `spec` into `out`.
///
/// Solved work is kept in `<out>.partial` (rewritten atomically every
/// `checkpoint_every` and when stopping), and a later build with the same
/// spec and output resumes from it. The finished file does not depend on the
/// thread count, on symmetry use, or on how often the build was interrupted.
pub fn build(spec: &TableSpec, out: &Path, opts: &BuildOptions) -> Result<BuildOutcome, BuildError> {
    let start = Instant::now();
    let geo = spec.geo;
    if geo.points() > MAX_TABLE_POINTS {
        return Err(BuildError::TooLarge(geo.name(), geo.points()));
    }
    let partial = partial_path(out);
    let out_name = out.display().to_string();
    let partial_name = partial.display().to_string();

    if out.is_dir() {
        return Err(BuildError::IsDirectory(out_name));
    }
    // A destination that cannot be written fails now, not after the solving.
    store::check_writable(out).map_err(|source| BuildError::Write { path: out_name.clone(), source })?;
    if out.exists() && !opts.force {
        match SolvedTable::read(out) {
            Ok(t) if t.spec == *spec && t.complete => {
                return Ok(BuildOutcome::AlreadyComplete { entries: t.entries.len() as u64 });
            }
            Ok(t) => {
                let reason = if t.spec != *spec {
                    format!("it is a table of {}", t.spec.describe())
                } else {
                    "it is incomplete".into()
                };
                return Err(BuildError::OutputExists { path: out_name, spec: spec.describe(), reason });
            }
            Err(e) => {
                return Err(BuildError::OutputExists { path: out_name, spec: spec.describe(), reason: e.to_string() })
            }
        }
    }

    let positions = legal_positions(&geo);
    let total = 2 * positions.len() as u64;
    let transforms = Transform::all(&geo, opts.symmetry);

    // Known entries: from the checkpoint, completed under every transform.
    let mut known: BTreeMap<Key, Entry> = BTreeMap::new();
    if partial.exists() && !opts.force {
        let t = SolvedTable::read(&partial)
            .map_err(|e| BuildError::BadCheckpoint { path: partial_name.clone(), reason: e.to_string() })?;
        if t.spec != *spec || t.total != total {
            return Err(BuildError::BadCheckpoint {
                path: partial_name,
                reason: format!("it is a checkpoint of {}, not {}", t.spec.describe(), spec.describe()),
            });
        }
        for e in t.entries() {
            for tr in &transforms {
                let d = tr.entry(e);
                known.insert(d.key(), d);
            }
        }
    }
    let resumed = known.len() as u64;

    // What is left to solve: one representative per class, most stones first
    // (often the shortest games, so checkpoints fill early), ties by key. This
    // is only a heuristic: on 3x3 a capture can empty the board, so a
    // near-full position can be as hard as the empty one.
    let mut todo: Vec<(Position, Color)> = Vec::new();
    {
        let mut seen = std::collections::HashSet::new();
        for &pos in &positions {
            for to_move in [Color::Black, Color::White] {
                let canon = transforms.iter().map(|t| t.apply(pos, to_move)).min_by_key(|&(p, c)| key(p, c)).unwrap();
                if seen.insert(key(canon.0, canon.1)) && !known.contains_key(&key(canon.0, canon.1)) {
                    todo.push(canon);
                }
            }
        }
    }
    todo.sort_by_key(|&(p, c)| (std::cmp::Reverse(p.stone_count()), key(p, c)));
    let to_solve = todo.len() as u64;

    let threads =
        if opts.threads == 0 { std::thread::available_parallelism().map_or(1, |n| n.get()) } else { opts.threads };
    let stop = Arc::new(AtomicBool::new(false));
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<Result<Entry, SolveError>>();
    let solve_opts = SolveOptions {
        threads: 1,
        table_mb: opts.table_mb,
        no_pv: true,
        abort: Some(stop.clone()),
        ..Default::default()
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("table-{}", i))
        .build()
        .expect("thread pool");

    let mut solved = 0u64;
    let mut reason: Option<StopReason> = None;
    let mut last_checkpoint = Instant::now();
    let mut dirty = false;
    // Start time of the solve each worker is running, if any.
    let running: Vec<std::sync::Mutex<Option<Instant>>> = (0..threads).map(|_| std::sync::Mutex::new(None)).collect();
    let report = |known: &BTreeMap<Key, Entry>, solved: u64| {
        if let Some(p) = &opts.progress {
            let starts: Vec<Instant> =
                running.iter().filter_map(|m| *m.lock().unwrap_or_else(|e| e.into_inner())).collect();
            p(&BuildProgress {
                done: known.len() as u64,
                total,
                resumed,
                solved,
                to_solve,
                seconds: start.elapsed().as_secs_f64(),
                in_flight: starts.len(),
                oldest_in_flight: starts.iter().map(|t| t.elapsed().as_secs_f64()).fold(0.0, f64::max),
            });
        }
    };
    report(&known, 0);
    let mut write_error = None;

    std::thread::scope(|scope| {
        let todo = &todo;
        let next = &next;
        let stop_w = &stop;
        let running = &running;
        let stop_after = opts.stop_after;
        let solve_opts = &solve_opts;
        scope.spawn(move || {
            pool.scope(|s| {
                for slot in running.iter() {
                    let tx = tx.clone();
                    s.spawn(move |_| loop {
                        if stop_w.load(Ordering::Relaxed) {
                            break;
                        }
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if stop_after.is_some_and(|n| i as u64 >= n) {
                            break;
                        }
                        let Some(&(pos, to_move)) = todo.get(i) else { break };
                        *slot.lock().unwrap_or_else(|e| e.into_inner()) = Some(Instant::now());
                        let result = solve_entry(spec, pos, to_move, solve_opts);
                        *slot.lock().unwrap_or_else(|e| e.into_inner()) = None;
                        if tx.send(result).is_err() {
                            break;
                        }
                    });
                }
                drop(tx);
            });
        });

        loop {
            match rx.recv_timeout(Duration::from_millis(100)) {
                Ok(Ok(e)) => {
                    for tr in &transforms {
                        let d = tr.entry(&e);
                        known.insert(d.key(), d);
                    }
                    solved += 1;
                    dirty = true;
                }
                // Only a stop makes a solve fail (no limits are set); its work is lost.
                Ok(Err(_)) => {}
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
            report(&known, solved);
            if reason.is_none() {
                if opts.abort.as_ref().is_some_and(|a| a.load(Ordering::Relaxed)) {
                    reason = Some(StopReason::Interrupted);
                } else if opts.time_limit.is_some_and(|t| start.elapsed() >= t) {
                    reason = Some(StopReason::TimeLimit);
                }
                if reason.is_some() {
                    stop.store(true, Ordering::Relaxed);
                }
            }
            if dirty && last_checkpoint.elapsed() >= opts.checkpoint_every && (known.len() as u64) < total {
                if let Err(e) = SolvedTable::new(*spec, total, known.values().copied()).write(&partial) {
                    write_error = Some(BuildError::Write { path: partial_name.clone(), source: e });
                    stop.store(true, Ordering::Relaxed);
                }
                dirty = false;
                last_checkpoint = Instant::now();
            }
        }
    });
    if let Some(e) = write_error {
        return Err(e);
    }
    report(&known, solved);
    if reason.is_none() && opts.stop_after.is_some_and(|n| n < to_solve) {
        reason = Some(StopReason::StopAfter);
    }
    let seconds = start.elapsed().as_secs_f64();
    let table = SolvedTable::new(*spec, total, known.into_values());
    if table.complete {
        table.write(out).map_err(|e| BuildError::Write { path: out_name, source: e })?;
        if partial.exists() {
            let _ = std::fs::remove_file(&partial);
        }
        return Ok(BuildOutcome::Complete { entries: total, resumed, solved, seconds });
    }
    table.write(&partial).map_err(|e| BuildError::Write { path: partial_name, source: e })?;
    Ok(BuildOutcome::Stopped {
        reason: reason.unwrap_or(StopReason::Interrupted),
        done: table.entries.len() as u64,
        total,
        solved,
        checkpoint: partial,
        seconds,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(w: usize, h: usize) -> TableSpec {
        TableSpec { geo: Geometry::new(w, h).unwrap(), rules: Rules::default() }
    }

    #[test]
    fn legal_position_counts() {
        // Tromp's counts of legal positions.
        let n = |w, h| legal_positions(&Geometry::new(w, h).unwrap()).len();
        assert_eq!(n(1, 1), 1);
        assert_eq!(n(2, 2), 57);
        assert_eq!(n(3, 3), 12675);
        assert_eq!(n(1, 4), 41);
        assert_eq!(n(1, 6), 313);
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

    #[test]
    fn transforms_map_best_moves() {
        let geo = Geometry::new(3, 2).unwrap();
        let mut pos = Position::EMPTY;
        pos.set(geo.parse_point("a1").unwrap(), Some(Color::Black));
        let e = Entry {
            position: pos,
            to_move: Color::White,
            value: 2,
            best_pass: false,
            best_points: 1 << geo.parse_point("b1").unwrap(),
        };
        for t in Transform::all(&geo, true) {
            let d = t.entry(&e);
            assert_eq!(d.position.stone_count(), 1);
            assert_eq!(d.best_points.count_ones(), 1);
            assert_eq!(d.value.abs(), 2);
            assert_eq!(d.best_points & (d.position.black | d.position.white), 0);
        }
    }
}
