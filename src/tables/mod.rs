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
//! The files: `format` is the on-disk layout (through [`crate::store`]),
//! `work` lists the positions to solve and solves them on one shared search
//! memory, `build` runs a build (in parallel, resumable from a
//! checkpoint), [`shard`] splits a build into parts solved apart and
//! assembles them, `transform` maps an entry to its symmetric images.
//! Beside the tables, a solve's search memory on disk: [`checkpoint`], and
//! the exact merge of several checkpoints, [`merge`].

mod build;
pub mod checkpoint;
mod format;
pub mod merge;
pub mod shard;
mod transform;
mod work;

pub use build::{
    build, solve_entry, BuildError, BuildOptions, BuildOutcome, BuildProgress, ProgressFn, StopReason, MAX_TABLE_POINTS,
};
pub use format::{TableError, TableFile, ENTRY_SIZE, HEADER_SIZE, MAGIC, VERSION};

use crate::rules::geometry::{Bits, Geometry};
use crate::rules::position::{Color, Komi, Move, Position, Rules, Superko};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

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
}
