//! What a solve learns that a later solve can use: its transposition table
//! and df-pn's guide of proof and disproof numbers, kept together as a
//! [`Memory`] that outlives one solve (a checkpoint file, see
//! `crate::tables::checkpoint`, writes and reads one).
//!
//! # Why a result learnt in one solve is sound in another
//!
//! The table's reuse rule ([`crate::search::tt`]) already lets a result found under
//! one history be used under any other: every entry carries what it depends
//! on (the candidates that must stay absent, the hits that must stay
//! present, the patterns, the path symmetries), each checked against the
//! history of the node that probes it. Within a solve that history comes
//! from another line to the same node; in a later solve it comes from
//! another game or another root, and the check is the same. Nothing in an
//! entry refers to the solve that stored it (hits are stored as situations,
//! not plies), values exclude komi, and the results of a root whose mirror
//! moves were skipped are never stored (`Solver::store`). So a memory is
//! valid for every position of the same board under the same rules of play
//! (suicide, superko), whatever the komi and whatever the history: the same
//! position resumed after a limit or Ctrl-C, or the next position of a game.
//! The guide's numbers only choose which node df-pn expands, so stale or
//! foreign ones cost work, never exactness.

pub(crate) mod guide;
mod roots;
mod size;

pub use roots::{Root, SavedRoot};

pub use size::{machine_table_mb, machine_table_mb_shared};

use crate::rules::geometry::Geometry;
use crate::rules::position::{Rules, Superko};
use crate::search::tt::{SavedEntry, Table};
use guide::Guide;
use std::sync::Arc;

/// A transposition table and df-pn guide for one board and rules of play,
/// shared by the solves given it in [`crate::search::SolveOptions::memory`].
#[derive(Clone)]
pub struct Memory {
    geo: Geometry,
    suicide: bool,
    superko: Superko,
    table_mb: usize,
    pub(crate) table: Arc<Table>,
    pub(crate) guide: Arc<Guide>,
    /// The bounds solves proved on their roots' values ([`roots`]).
    roots: roots::Roots,
}

/// The board, rules of play and table size: what tells two memories apart
/// in a report (the table's contents are not printed).
impl std::fmt::Debug for Memory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Memory")
            .field("board", &self.geo.name())
            .field("suicide", &self.suicide)
            .field("superko", &self.superko)
            .field("table_mb", &self.table_mb)
            .finish()
    }
}

impl Memory {
    /// An empty memory for `geo` and `rules`, its table of `table_mb` MiB
    /// (0: [`machine_table_mb`]) and the guide that size of table gets.
    pub fn new(geo: Geometry, rules: &Rules, table_mb: usize) -> Memory {
        let mb = if table_mb == 0 { machine_table_mb() } else { table_mb };
        Memory {
            geo,
            suicide: rules.suicide,
            superko: rules.superko,
            table_mb: mb,
            table: Arc::new(Table::new(mb, &geo)),
            guide: Guide::for_table(mb),
            roots: roots::Roots::default(),
        }
    }

    /// The board it is for.
    pub fn geometry(&self) -> Geometry {
        self.geo
    }

    /// Whether it may serve a solve on `geo` under `rules`: the same board,
    /// suicide rule and superko rule (komi does not matter: values exclude
    /// it).
    pub fn fits(&self, geo: &Geometry, rules: &Rules) -> bool {
        self.geo == *geo && self.suicide == rules.suicide && self.superko == rules.superko
    }

    /// The rules of play it is for: whether suicide is allowed, and the
    /// superko rule.
    pub fn rules_of_play(&self) -> (bool, Superko) {
        (self.suicide, self.superko)
    }

    /// The table's size in MiB.
    pub fn table_mb(&self) -> usize {
        self.table_mb
    }

    /// Bytes of the table in use now.
    pub fn table_bytes(&self) -> usize {
        self.table.bytes_in_use()
    }

    /// The bytes in use of a table that holds `results` (see
    /// [`Table::bytes_to_hold`]), at most this one's now.
    pub fn bytes_to_hold(&self, results: usize) -> usize {
        Table::bytes_to_hold(results).min(self.table_bytes())
    }

    /// Every result of the table (see [`Table::for_each_saved`]).
    pub fn for_each_saved<E>(&self, f: impl FnMut(&SavedEntry) -> Result<(), E>) -> Result<(), E> {
        self.table.for_each_saved(f)
    }

    /// The results of at least work rank `min_rank` (see
    /// [`Table::for_each_saved_from`]).
    pub fn for_each_saved_from<E>(&self, min_rank: u8, f: impl FnMut(&SavedEntry) -> Result<(), E>) -> Result<(), E> {
        self.table.for_each_saved_from(min_rank, f)
    }

    /// How many results of at least work rank `min_rank` the table holds.
    pub fn count_saved_from(&self, min_rank: u8) -> usize {
        self.table.count_saved_from(min_rank)
    }

    /// Make room for the results of a table that had `bytes` in use, before
    /// they are put back (see [`Table::presize`]).
    pub fn presize(&self, bytes: usize) {
        self.table.presize(bytes)
    }

    /// The moves proved best in the table (see [`Table::for_each_proof_move`]).
    pub fn for_each_proof_move(&self, f: impl FnMut(crate::rules::position::Position, crate::Color, u8)) {
        self.table.for_each_proof_move(f)
    }

    /// Put a saved result back (see [`Table::restore`]).
    pub fn restore(&self, saved: &SavedEntry) -> bool {
        self.table.restore(saved)
    }

    /// The guide's numbers, as (key, numbers) pairs.
    pub fn saved_numbers(&self) -> Vec<(u64, u64)> {
        self.guide.saved_numbers()
    }

    /// Put saved guide numbers back.
    pub fn restore_numbers(&self, numbers: &[(u64, u64)]) {
        self.guide.restore_numbers(numbers)
    }

    /// The log of the bounds proved on `game`'s value (komi excluded) by
    /// the solves of this memory: what earlier solves of the same root
    /// proved (read back from a checkpoint), narrowed by each solve given it
    /// as [`crate::search::SolveOptions::value_bounds`], and saved with the
    /// memory ([`roots`]).
    pub fn root_bounds(&self, game: &crate::rules::history::Game) -> crate::search::BoundsLog {
        self.roots.log(Root::of(game))
    }

    /// Every root with a bound proved, for a save.
    pub fn saved_roots(&self) -> Vec<SavedRoot> {
        self.roots.saved()
    }

    /// Put a root's saved bounds back (they meet any it has).
    pub fn restore_root(&self, saved: &SavedRoot) {
        self.roots.restore(saved)
    }
}
