//! The exact merge of checkpoints (`gosolve checkpoint merge A B ... -o C`,
//! and the distributed solve between its rounds): one checkpoint holding
//! every result of every input, each with the history conditions under
//! which it holds.
//!
//! # The rule
//!
//! 1. The inputs must be for one board, the same rules of play (suicide,
//!    superko; komi does not matter) and this program's table format
//!    ([`crate::search::tt::format_fingerprint`]); anything else is refused
//!    in one line before anything is written.
//! 2. Every result of every input is put into one table, as it was stored:
//!    its value, bound and conditions (candidates that must stay absent,
//!    hits that must stay present, patterns, path symmetries, a big
//!    result's filter and cleared situations) are copied, never combined
//!    or rewritten. Results for the same position are *all* kept, side by
//!    side in the position's bucket, where they differ in anything; the
//!    same result with the same conditions (equal bytes, [`result_hash`])
//!    is kept once.
//! 3. The table is sized to hold them all: at least the sum of the inputs'
//!    tables in use, and at least the largest input's table size (or the
//!    size asked for). Only where a bucket overflows (more results fall
//!    into it than its ways and words hold) does a result give way: the
//!    ones with the least work behind them, the rank the table itself
//!    replaces by ([`crate::search::tt::Table::restore_ranked`]);
//!    between equals, the one read first stays, so the inputs are best
//!    listed most valuable first (the distributed solve lists the shared
//!    checkpoint first). The summary counts both.
//! 4. The guide numbers of every input are put back too (later inputs over
//!    earlier ones for the same key).
//! 5. So are the bounds value-only solves proved on their roots
//!    ([`crate::search::memory::Root`]); the bounds of one root from
//!    several inputs meet, since each was proved for that exact root.
//! 6. Unless the merge is asked to keep less ([`Keep`]): only the results
//!    with at least so much work behind them, or no guide numbers. That
//!    is a *trim*: a checkpoint small enough to carry from one machine to
//!    the next (or to commit beside a long proof's record) that keeps the
//!    results of the highest work rank. The rank counts the nodes of the
//!    search call that stored a result and, for df-pn, of its earlier
//!    expansions of the node (as the guide kept them, a rank's least), so
//!    what a trim keeps of a checkpoint's worth is measured, not assumed
//!    (`results/solve.md`, 2026-12-02 and 2026-12-03).
//!
//! # Why the merge is sound
//!
//! A stored result is a self-contained statement: "at this position, under
//! any history that satisfies these conditions, the value is at least /
//! at most / exactly v" (the reuse rule of [`crate::search::tt`], clauses
//! 1–4). It was proved by a derivation whose every dependence on the
//! history is in those conditions, including the conditions of the table
//! results used inside the derivation, which were merged into it when it was
//! stored (the induction at the end of that module's argument). Nothing in
//! a result refers to the table, the solve or the process that stored it
//! (hits are stored as situations, not plies; values exclude komi), which
//! is why a checkpoint is valid for any later solve of the board and rules
//! ([`crate::search::memory`]). So each result of each input stays true
//! when it is moved to another table, whatever else that table holds:
//! - any *subset* of the union of the inputs is a sound table (a result
//!   left out only costs the work of proving it again; so is a trim);
//! - two results for the same position never contradict each other: where
//!   a history satisfies the conditions of both, both statements are true
//!   of the same game, so their bounds are consistent; where it satisfies
//!   one, only that one is used. A probe already meets several results for
//!   one position (stored under different histories by one solve), so
//!   keeping both needs nothing new of the search;
//! - nothing is weakened or strengthened: conditions are copied, so a
//!   result is never used under a history it was not proved for.
//!
//! The guide's numbers only choose which node df-pn expands next, so
//! numbers from any input (or none) cost work, never exactness.

use super::checkpoint::{self, begin_any, begin_for, result_hash, CheckpointError, Reading, Summary};
use crate::limits;
use crate::search::Memory;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// What a merge keeps of its inputs (rule 6 of the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Keep {
    /// The least work rank kept ([`crate::search::tt::SavedEntry::work_rank`]); 0 keeps all.
    pub min_rank: u8,
    /// Whether the guide numbers are kept.
    pub guide_numbers: bool,
}

impl Keep {
    /// Everything: the exact merge.
    pub const ALL: Keep = Keep { min_rank: 0, guide_numbers: true };

    /// Only the results with at least `nodes` nodes of work behind them, as
    /// far as the table's rank tells (`nodes` rounded down to a power of
    /// two; 0 or 1 keeps all).
    pub const fn min_work(nodes: u64) -> Keep {
        Keep { min_rank: crate::search::tt::work_rank(nodes), ..Keep::ALL }
    }
}

/// What one input gave the merge.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct InputSummary {
    pub path: PathBuf,
    /// Results read.
    pub results: u64,
    /// Results kept (not duplicates, and room found).
    pub kept: u64,
    /// Results equal to one already kept.
    pub duplicates: u64,
    /// Results left out because their bucket was full of deeper ones.
    pub dropped: u64,
    /// Results left out for too little work ([`Keep::min_rank`]).
    pub trimmed: u64,
    /// Guide numbers read.
    pub numbers: u64,
}

/// What a merge did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MergeSummary {
    pub inputs: Vec<InputSummary>,
    /// The merged table's size in MiB.
    pub table_mb: usize,
    /// Results kept on reading that a deeper one read later displaced.
    pub displaced: u64,
    /// What was written.
    pub written: Summary,
    pub seconds: f64,
}

impl MergeSummary {
    /// Results left out for lack of room, over all inputs.
    pub fn dropped(&self) -> u64 {
        self.inputs.iter().map(|i| i.dropped).sum()
    }
    /// Duplicates kept once, over all inputs.
    pub fn duplicates(&self) -> u64 {
        self.inputs.iter().map(|i| i.duplicates).sum()
    }
    /// Results left out for too little work, over all inputs.
    pub fn trimmed(&self) -> u64 {
        self.inputs.iter().map(|i| i.trimmed).sum()
    }
}

/// Why a merge could not be done. One line each.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    #[error("give at least one checkpoint to merge")]
    NoInputs,
    #[error("{0}")]
    Checkpoint(#[from] CheckpointError),
    #[error("{0}")]
    Memory(String),
}

/// Merge the checkpoints `inputs` into `out` (written atomically; `out` may
/// be one of the inputs) by the rule of the module documentation, in a
/// table of `table_mb` MiB (`None`: large enough for every input).
pub fn merge(inputs: &[PathBuf], out: &Path, table_mb: Option<usize>) -> Result<MergeSummary, MergeError> {
    merge_keeping(inputs, out, table_mb, Keep::ALL)
}

/// [`merge`], keeping only what `keep` says (rule 6).
pub fn merge_keeping(
    inputs: &[PathBuf],
    out: &Path,
    table_mb: Option<usize>,
    keep: Keep,
) -> Result<MergeSummary, MergeError> {
    let start = Instant::now();
    let Some(first) = inputs.first() else { return Err(MergeError::NoInputs) };
    // Every header first: a mismatch is refused before any work.
    let head = begin_any(first)?;
    let (geo, rules) = (head.geo(), head.rules());
    let mut readings: Vec<Reading> = vec![head];
    for path in &inputs[1..] {
        readings.push(begin_for(path, &geo, &rules)?);
    }
    let in_use: u64 = readings.iter().map(Reading::table_bytes).sum();
    let largest = readings.iter().map(Reading::table_mb).max().unwrap_or(0);
    let mb = match table_mb {
        Some(mb) if mb > 0 => mb,
        _ => (largest.max(in_use.div_ceil(1 << 20)) as usize).max(1),
    };
    limits::check_table_memory("the merged table", mb, 1).map_err(MergeError::Memory)?;
    let memory = Memory::new(geo, &rules, mb);
    // A trim of the results keeps a small part: its table grows as it fills
    // (on the boards whose tables grow), so that its file and the table
    // that loads it do not claim the inputs' size.
    if keep.min_rank == 0 {
        memory.presize(in_use as usize);
    }
    let mut seen: HashSet<u64> = HashSet::new();
    let mut summary = MergeSummary { table_mb: mb, ..Default::default() };
    for (reading, path) in readings.into_iter().zip(inputs) {
        let mut s = InputSummary { path: path.clone(), ..Default::default() };
        let read = reading.for_each(
            |r| {
                if r.work_rank() < keep.min_rank {
                    s.trimmed += 1;
                    return false;
                }
                if !seen.insert(result_hash(r)) {
                    s.duplicates += 1;
                    return false;
                }
                let placed = memory.table.restore_ranked(r);
                s.dropped += !placed as u64;
                placed
            },
            |pairs| {
                if keep.guide_numbers {
                    memory.restore_numbers(pairs)
                }
            },
            |root| memory.restore_root(root),
        )?;
        s.results = read.results;
        s.kept = read.kept;
        s.numbers = read.numbers;
        summary.inputs.push(s);
    }
    summary.written = checkpoint::save(&memory, out)?;
    let kept: u64 = summary.inputs.iter().map(|i| i.kept).sum();
    summary.displaced = kept.saturating_sub(summary.written.results);
    summary.seconds = start.elapsed().as_secs_f64();
    Ok(summary)
}

/// The trim ([`Keep`], rule 6) of `memory` written straight to `out`
/// (atomically; [`checkpoint::save_ranked`]): the results of at least
/// `keep`'s work rank, the roots' bounds, and the guide numbers if `keep`
/// says so, as [`merge_keeping`] would write from `memory`'s checkpoint,
/// without that file's write and read back (a job's seed at each save: the
/// whole table again in memory and on disk). Results are not compared with
/// each other, as the merge does across its inputs: a result twice in one
/// table would cost bytes only.
pub fn save_trim(memory: &Memory, out: &Path, keep: Keep) -> Result<Summary, CheckpointError> {
    checkpoint::save_ranked(memory, out, keep.min_rank, keep.guide_numbers)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::geometry::Geometry;
    use crate::rules::history::Game;
    use crate::rules::position::{Color, Move, Position, Rules};
    use crate::search::{solve, SolveOptions};
    use crate::store;

    fn solved(game: &Game, mb: usize) -> Memory {
        let memory = Memory::new(game.geo, &game.rules, mb);
        let opts = SolveOptions { threads: 1, value_only: true, memory: Some(memory.clone()), ..Default::default() };
        solve(game, &opts).unwrap();
        memory
    }

    /// The empty 3x3 board and the position after Black's b2.
    fn empty_and_after_b2() -> (Geometry, Game, Game) {
        let geo = Geometry::new(3, 3).unwrap();
        let empty = Game::new(geo, Rules::default(), Position::EMPTY, Color::Black).unwrap();
        let mut after = empty.clone();
        after.play(Move::Play(geo.parse_point("b2").unwrap())).unwrap();
        (geo, empty, after)
    }

    /// Two solves' checkpoints merged: every result of both kept (their
    /// duplicates once), and the merged memory answers both solves again
    /// with the same values, far faster.
    #[test]
    fn a_merge_keeps_every_result_and_answers_both() {
        let d = tempfile::tempdir().unwrap();
        let (geo, empty, after) = empty_and_after_b2();
        let (a, b) = (d.path().join("a.ck"), d.path().join("b.ck"));
        let sa = checkpoint::save(&solved(&empty, 16), &a).unwrap();
        let sb = checkpoint::save(&solved(&after, 16), &b).unwrap();
        let out = d.path().join("c.ck");
        let m = merge(&[a.clone(), b.clone()], &out, None).unwrap();
        assert_eq!(m.inputs[0].results, sa.results);
        assert_eq!(m.inputs[0].kept, sa.results, "the first input fits whole");
        // Nearly all kept: only results whose bucket is full of deeper
        // ones give way.
        let all = sa.results + sb.results - m.duplicates();
        assert_eq!(m.written.results, all - m.dropped() - m.displaced);
        assert!(m.written.results * 50 >= all * 49, "{m:?}");
        // A file merged with itself: the same results, each once.
        let again = merge(&[a.clone(), a.clone()], &d.path().join("aa.ck"), None).unwrap();
        assert_eq!((again.written.results, again.duplicates()), (sa.results, sa.results));
        let (memory, read) = checkpoint::load(&out, &geo, &Rules::default(), 0).unwrap();
        assert_eq!(read.results, m.written.results);
        for game in [&empty, &after] {
            let fresh = solve(game, &SolveOptions { threads: 1, value_only: true, ..Default::default() }).unwrap();
            let opts =
                SolveOptions { threads: 1, value_only: true, memory: Some(memory.clone()), ..Default::default() };
            let sol = solve(game, &opts).unwrap();
            assert_eq!(sol.value, fresh.value);
            assert!(sol.stats.nodes * 5 < fresh.stats.nodes, "{} vs {}", sol.stats.nodes, fresh.stats.nodes);
        }
    }

    /// A trim keeps exactly the results of at least the work asked for and
    /// the roots' bounds (no guide numbers when asked), and its checkpoint
    /// still answers the solve with the same value, with less work than a
    /// fresh table.
    #[test]
    fn a_trim_keeps_the_costly_results_and_the_same_value() {
        let d = tempfile::tempdir().unwrap();
        let (geo, empty, after) = empty_and_after_b2();
        let a = d.path().join("a.ck");
        let memory = solved(&empty, 16);
        // A bound on another root (true: the least value), so that the
        // solve below has only the results to go by.
        memory.root_bounds(&after).narrow(Some(-9), None);
        let all = checkpoint::save(&memory, &a).unwrap();
        let mut ranks = Vec::new();
        memory
            .for_each_saved(|s| -> Result<(), ()> {
                ranks.push(s.work_rank());
                Ok(())
            })
            .unwrap();
        let keep = Keep { guide_numbers: false, ..Keep::min_work(64) };
        assert_eq!(keep.min_rank, 7, "64 nodes: rank 7 (64 to 127 nodes)");
        let deep = ranks.iter().filter(|&&r| r >= 7).count() as u64;
        assert!(deep > 0 && deep < all.results, "{deep} of {}", all.results);
        let out = d.path().join("t.ck");
        let m = merge_keeping(std::slice::from_ref(&a), &out, None, keep).unwrap();
        assert_eq!((m.written.results, m.trimmed()), (deep, all.results - deep));
        assert_eq!((m.written.numbers, m.written.roots), (0, 1));
        assert_eq!(Keep::min_work(0), Keep::ALL);
        assert_eq!(Keep::min_work(1).min_rank, 1, "rank 0 is no work, never stored");
        let (trimmed, _) = checkpoint::load(&out, &geo, &Rules::default(), 0).unwrap();
        assert_eq!(trimmed.root_bounds(&after).get(), (Some(-9), None));
        let fresh = solve(&empty, &SolveOptions { threads: 1, value_only: true, ..Default::default() }).unwrap();
        let opts = SolveOptions { threads: 1, value_only: true, memory: Some(trimmed), ..Default::default() };
        let sol = solve(&empty, &opts).unwrap();
        assert_eq!(sol.value, fresh.value);
        assert!(sol.stats.nodes < fresh.stats.nodes, "{} vs {}", sol.stats.nodes, fresh.stats.nodes);
    }

    /// A trim written from memory ([`save_trim`]) holds the same results
    /// and roots' bounds as the trim of the memory's checkpoint, and claims
    /// a table of its own size (the 3x3 table grows), not the memory's.
    #[test]
    fn a_trim_from_memory_is_the_trim_of_its_checkpoint() {
        let d = tempfile::tempdir().unwrap();
        let (_, empty, after) = empty_and_after_b2();
        let memory = solved(&empty, 16);
        memory.root_bounds(&after).narrow(Some(-9), None);
        let whole = d.path().join("whole.ck");
        checkpoint::save(&memory, &whole).unwrap();
        let keep = Keep { guide_numbers: false, ..Keep::min_work(64) };
        let (by_file, by_memory) = (d.path().join("file.ck"), d.path().join("memory.ck"));
        let m = merge_keeping(std::slice::from_ref(&whole), &by_file, None, keep).unwrap();
        let s = save_trim(&memory, &by_memory, keep).unwrap();
        assert_eq!((s.results, s.numbers, s.roots), (m.written.results, 0, 1));
        let read = |path: &Path| {
            let reading = begin_any(path).unwrap();
            let claim = reading.table_bytes();
            let (mut results, mut roots, mut numbers) = (Vec::new(), Vec::new(), 0);
            reading
                .for_each(
                    |r| {
                        results.push(result_hash(r));
                        true
                    },
                    |pairs| numbers += pairs.len(),
                    |root| roots.push(store::to_bytes(root).unwrap()),
                )
                .unwrap();
            results.sort_unstable();
            (results, roots, numbers, claim)
        };
        let (a, b) = (read(&by_file), read(&by_memory));
        assert_eq!((&a.0, &a.1, a.2), (&b.0, &b.1, b.2), "the same results, roots and (no) guide numbers");
        assert!(b.3 <= a.3, "claims {} bytes, the trim of the file {}", b.3, a.3);
        assert!(b.3 * 4 < memory.table_bytes() as u64, "claims {} of {} bytes", b.3, memory.table_bytes());
        let (loaded, _) = checkpoint::load(&by_memory, &empty.geo, &Rules::default(), 0).unwrap();
        assert_eq!(loaded.root_bounds(&after).get(), (Some(-9), None));
    }

    /// The bounds two solves proved on the same root meet in the merge;
    /// another root's are kept as they are.
    #[test]
    fn a_merge_meets_the_bounds_of_each_root() {
        let d = tempfile::tempdir().unwrap();
        let (geo, empty, after) = empty_and_after_b2();
        let (a, b) = (d.path().join("a.ck"), d.path().join("b.ck"));
        let ma = Memory::new(geo, &Rules::default(), 16);
        ma.root_bounds(&empty).narrow(Some(3), None);
        ma.root_bounds(&after).narrow(None, Some(9));
        let mb = Memory::new(geo, &Rules::default(), 16);
        mb.root_bounds(&empty).narrow(Some(1), Some(9));
        assert_eq!(checkpoint::save(&ma, &a).unwrap().roots, 2);
        assert_eq!(checkpoint::save(&mb, &b).unwrap().roots, 1);
        let out = d.path().join("c.ck");
        assert_eq!(merge(&[a, b], &out, None).unwrap().written.roots, 2);
        let (memory, read) = checkpoint::load(&out, &geo, &Rules::default(), 0).unwrap();
        assert_eq!(read.roots, 2);
        assert_eq!(memory.root_bounds(&empty).get(), (Some(3), Some(9)));
        assert_eq!(memory.root_bounds(&after).get(), (None, Some(9)));
    }

    /// Checkpoints of another board or other rules of play are refused in
    /// one line, and nothing is written.
    #[test]
    fn a_merge_refuses_other_boards_and_rules() {
        let d = tempfile::tempdir().unwrap();
        let g33 = Game::new(Geometry::new(3, 3).unwrap(), Rules::default(), Position::EMPTY, Color::Black).unwrap();
        let g23 = Game::new(Geometry::new(2, 3).unwrap(), Rules::default(), Position::EMPTY, Color::Black).unwrap();
        let tt = Rules { suicide: true, ..Rules::default() };
        let g33tt = Game::new(Geometry::new(3, 3).unwrap(), tt, Position::EMPTY, Color::Black).unwrap();
        let (a, b, c) = (d.path().join("a.ck"), d.path().join("b.ck"), d.path().join("c.ck"));
        checkpoint::save(&solved(&g33, 16), &a).unwrap();
        checkpoint::save(&solved(&g23, 16), &b).unwrap();
        checkpoint::save(&solved(&g33tt, 16), &c).unwrap();
        let out = d.path().join("out.ck");
        for other in [&b, &c] {
            let e = merge(&[a.clone(), other.clone()], &out, None).unwrap_err().to_string();
            assert!(e.contains("not for 3x3") && !e.contains('\n'), "{e}");
        }
        assert!(!out.exists());
        assert!(matches!(merge(&[], &out, None), Err(MergeError::NoInputs)));
    }
}
