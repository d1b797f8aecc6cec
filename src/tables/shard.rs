//! Sharded table builds (`gosolve table build BOARD --shards K`): the work
//! list of a build (one position per symmetry class, in the build's own
//! order) is dealt round-robin into K shards, each solved on its own (a
//! distributed worker, possibly on another machine) into a partial table of
//! its positions, and the shards are assembled into the table.
//!
//! The assembled file is byte-identical to a one-process build: every entry
//! is the exact value and best moves of its position with no history, the
//! same whoever solves it; the entries of a class are derived from its
//! solved member by the same transforms as in [`mod@super::build`]; and the file
//! is written by the same [`SolvedTable`] code, sorted by key.
//!
//! Round-robin over the work list (sorted most stones first) gives each
//! shard a like mix of easy and hard positions. A shard keeps its own
//! checkpoint (a partial table of the positions it solved), so a worker
//! stopped at any moment resumes where it was.

use super::build::{
    existing_output, next_checkpoint, partial_table, write_table, BuildError, BuildOutcome, MAX_TABLE_POINTS,
};
use super::transform::Transforms;
use super::work::{add_representatives, work_list, Heard, Solving};
use super::{Entry, Key, SolvedTable, TableSpec};
use crate::rules::position::{Color, Position};
use crate::search::Memory;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Which part of a build a shard is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// 0 ≤ index < shards.
    pub index: usize,
    pub shards: usize,
    /// One position per symmetry class (as the build's default); false: every position.
    pub symmetry: bool,
}

/// Why a shard could not be solved or the shards assembled. One line each.
#[derive(Debug, thiserror::Error)]
pub enum ShardError {
    #[error(
        "table build supports boards of at most {MAX_TABLE_POINTS} points (3^n colourings are enumerated); {0} has {1}"
    )]
    TooLarge(String, usize),
    #[error("shard {index} of {shards} does not exist (give 0 <= index < shards, shards >= 1)")]
    NoSuchShard { index: usize, shards: usize },
    #[error("shard file {path} cannot be used: {reason}")]
    BadFile { path: String, reason: String },
    #[error("the shards leave {missing} of the {total} entries of the table unsolved")]
    Incomplete { missing: u64, total: u64 },
    #[error("cannot write {path}: {source}")]
    Write { path: String, source: std::io::Error },
}

/// Options of one shard's solve.
#[derive(Clone)]
pub struct ShardOptions {
    /// Positions solved at once (each single-threaded, as in a build).
    pub threads: usize,
    /// The search memory the shard's solves share, in MiB (0: the
    /// machine's default).
    pub table_mb: usize,
    /// How often the shard's checkpoint is rewritten.
    pub checkpoint_every: Duration,
    /// Set from outside (a signal) to stop; the checkpoint is written.
    pub abort: Option<Arc<AtomicBool>>,
}

impl Default for ShardOptions {
    fn default() -> Self {
        ShardOptions { threads: 1, table_mb: 0, checkpoint_every: Duration::from_secs(10), abort: None }
    }
}

/// How a shard's solve ended.
#[derive(Clone, Debug, PartialEq)]
pub enum ShardOutcome {
    /// Every position of the shard is solved and in the output file.
    Done { entries: u64, resumed: u64, solved: u64, nodes: u64, seconds: f64 },
    /// Stopped by the abort flag; what was solved is in the checkpoint.
    Stopped { done: u64, of: u64, solved: u64, nodes: u64, seconds: f64 },
}

/// The entries of a complete table of `spec` and the positions of `shard`
/// (representatives of their classes, with the player to move).
pub fn shard_work(spec: &TableSpec, shard: &Shard) -> Result<(u64, Vec<(Position, Color)>), ShardError> {
    let (total, work) = shard_list(spec, shard)?;
    Ok((total, work.iter().map(|w| (w.position, w.to_move)).collect()))
}

/// [`shard_work`] with each position's class size.
fn shard_list(spec: &TableSpec, shard: &Shard) -> Result<(u64, Vec<super::work::Work>), ShardError> {
    let geo = spec.geo;
    if geo.points() > MAX_TABLE_POINTS {
        return Err(ShardError::TooLarge(geo.name(), geo.points()));
    }
    if shard.shards == 0 || shard.index >= shard.shards {
        return Err(ShardError::NoSuchShard { index: shard.index, shards: shard.shards });
    }
    let transforms = Transforms::all(&geo, shard.symmetry);
    let (todo, total) = work_list(&geo, &transforms, &HashMap::new());
    let mine = todo.into_iter().enumerate().filter(|(i, _)| i % shard.shards == shard.index).map(|(_, w)| w).collect();
    Ok((total, mine))
}

/// Read a shard file (or a shard's checkpoint): a partial table of `spec`
/// with `total` entries in all.
fn read_shard(spec: &TableSpec, total: u64, path: &Path) -> Result<SolvedTable, ShardError> {
    let bad = |reason: String| ShardError::BadFile { path: path.display().to_string(), reason };
    let t = SolvedTable::read(path).map_err(|e| bad(e.to_string()))?;
    if t.spec != *spec || t.total != total {
        return Err(bad(format!("it is for {}, not {}", t.spec.describe(), spec.describe())));
    }
    Ok(t)
}

/// Solve the positions of `shard` into `out` (a partial table of exactly
/// those entries, written atomically when all are solved), resuming from
/// and keeping progress in `checkpoint` (removed once `out` is written).
/// The shard's solves share one search memory, as a build's do.
pub fn solve_shard(
    spec: &TableSpec,
    shard: &Shard,
    out: &Path,
    checkpoint: &Path,
    opts: &ShardOptions,
) -> Result<ShardOutcome, ShardError> {
    let start = Instant::now();
    let (total, positions) = shard_list(spec, shard)?;
    let mine: HashMap<Key, ()> = positions.iter().map(|w| (super::key(w.position, w.to_move), ())).collect();
    let mut known: HashMap<Key, Entry> = HashMap::new();
    if checkpoint.exists() {
        for e in read_shard(spec, total, checkpoint)?.entries() {
            if mine.contains_key(&e.key()) {
                known.insert(e.key(), *e);
            }
        }
    }
    let resumed = known.len() as u64;
    let todo: Vec<super::work::Work> =
        positions.iter().copied().filter(|w| !known.contains_key(&super::key(w.position, w.to_move))).collect();
    let stop = Arc::new(AtomicBool::new(false));
    let write = |known: &HashMap<Key, Entry>, path: &Path| {
        partial_table(spec, total, known)
            .write(path)
            .map_err(|source| ShardError::Write { path: path.display().to_string(), source })
    };
    let (mut solved, mut nodes) = (0u64, 0u64);
    let mut error = None;
    let aborted = || opts.abort.as_ref().is_some_and(|a| a.load(Ordering::Relaxed));
    if aborted() {
        stop.store(true, Ordering::Relaxed);
    }
    let running: Vec<Mutex<Option<Instant>>> =
        (0..opts.threads.max(1).min(todo.len().max(1))).map(|_| Mutex::new(None)).collect();
    let solving = Solving {
        spec,
        todo: &todo,
        memory: Memory::new(spec.geo, &spec.rules, opts.table_mb),
        stop: stop.clone(),
        stop_after: None,
        running: &running,
    };
    let mut last = Instant::now();
    let mut wait = opts.checkpoint_every;
    let mut dirty = false;
    solving.run(|heard| {
        if let Heard::Solved { entry, nodes: n, .. } = heard {
            known.insert(entry.key(), entry);
            solved += 1;
            nodes += n;
            dirty = true;
        }
        if aborted() {
            stop.store(true, Ordering::Relaxed);
        }
        if dirty && last.elapsed() >= wait {
            let t = Instant::now();
            if let Err(e) = write(&known, checkpoint) {
                error = Some(e);
                stop.store(true, Ordering::Relaxed);
            }
            wait = next_checkpoint(opts.checkpoint_every, t.elapsed());
            dirty = false;
            last = Instant::now();
        }
    });
    if let Some(e) = error {
        return Err(e);
    }
    let seconds = start.elapsed().as_secs_f64();
    let done = known.len() as u64;
    if done < positions.len() as u64 {
        write(&known, checkpoint)?;
        return Ok(ShardOutcome::Stopped { done, of: positions.len() as u64, solved, nodes, seconds });
    }
    write(&known, out)?;
    let _ = std::fs::remove_file(checkpoint);
    Ok(ShardOutcome::Done { entries: done, resumed, solved, nodes, seconds })
}

/// Assemble the table of `spec` from shard files (each written by
/// [`solve_shard`]; their symmetry use need not agree) into `out`: every
/// entry derived from its solved class member as a one-process build
/// derives it, the file byte-identical to that build's. Returns the
/// entries written.
pub fn assemble(spec: &TableSpec, files: &[PathBuf], out: &Path) -> Result<u64, ShardError> {
    let geo = spec.geo;
    if geo.points() > MAX_TABLE_POINTS {
        return Err(ShardError::TooLarge(geo.name(), geo.points()));
    }
    let transforms = Transforms::all(&geo, true);
    let (classes, total) = work_list(&geo, &transforms, &HashMap::new());
    let mut known: HashMap<Key, Entry> = HashMap::new();
    for f in files {
        add_representatives(&transforms, read_shard(spec, total, f)?.entries().iter().copied(), &mut known);
    }
    let missing: u64 =
        classes.iter().filter(|w| !known.contains_key(&super::key(w.position, w.to_move))).map(|w| w.size).sum();
    if missing > 0 {
        return Err(ShardError::Incomplete { missing, total });
    }
    write_table(spec, total, &transforms, &known, out)
        .map_err(|source| ShardError::Write { path: out.display().to_string(), source })?;
    Ok(total)
}

/// Before a sharded build: `Some(entries)` when `out` already is a complete
/// table of `spec` (nothing to do); an error when it is a directory, cannot
/// be written, or holds something else (unless `force`), as for a build.
pub fn check_output(spec: &TableSpec, out: &Path, force: bool) -> Result<Option<u64>, BuildError> {
    Ok(match existing_output(spec, out, force)? {
        Some(BuildOutcome::AlreadyComplete { entries }) => Some(entries),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::geometry::Geometry;
    use crate::rules::position::Rules;
    use crate::tables::{build, BuildOptions};

    /// The shards of 2x3 (with and without symmetry) assemble into the
    /// bytes of a one-process build; missing shards are refused; a stopped
    /// shard resumes.
    #[test]
    fn shards_assemble_into_the_build() {
        let d = tempfile::tempdir().unwrap();
        let spec = TableSpec { geo: Geometry::new(2, 3).unwrap(), rules: Rules::default() };
        let whole = d.path().join("whole.gtb");
        build(&spec, &whole, &BuildOptions { threads: 2, ..Default::default() }).unwrap();
        let whole = std::fs::read(&whole).unwrap();
        for (shards, symmetry) in [(1, true), (3, true), (2, false)] {
            let mut files = Vec::new();
            let mut count = 0;
            for index in 0..shards {
                let shard = Shard { index, shards, symmetry };
                count += shard_work(&spec, &shard).unwrap().1.len();
                let (out, ck) = (d.path().join(format!("s{index}.gtb")), d.path().join(format!("s{index}.ck")));
                let opts = ShardOptions { threads: 2, ..Default::default() };
                assert!(matches!(solve_shard(&spec, &shard, &out, &ck, &opts).unwrap(), ShardOutcome::Done { .. }));
                assert!(!ck.exists());
                files.push(out);
            }
            assert_eq!(count, if symmetry { 145 } else { 978 });
            let out = d.path().join("t.gtb");
            assemble(&spec, &files, &out).unwrap();
            assert_eq!(std::fs::read(&out).unwrap(), whole, "{shards} shards, symmetry {symmetry}");
            // Without symmetry one shard's entries, copied under the
            // symmetries, may cover the table; with it, none does.
            if symmetry {
                let e = assemble(&spec, &files[1..], &out).unwrap_err().to_string();
                assert!(e.contains("unsolved"), "{e}");
            }
        }
        // Stopped at once: the checkpoint holds nothing yet, and a rerun finishes.
        let shard = Shard { index: 0, shards: 2, symmetry: true };
        let (out, ck) = (d.path().join("r.gtb"), d.path().join("r.ck"));
        let stop = ShardOptions { abort: Some(Arc::new(AtomicBool::new(true))), ..Default::default() };
        assert!(matches!(solve_shard(&spec, &shard, &out, &ck, &stop).unwrap(), ShardOutcome::Stopped { .. }));
        assert!(ck.exists() && !out.exists());
        let done = solve_shard(&spec, &shard, &out, &ck, &ShardOptions::default()).unwrap();
        assert!(matches!(done, ShardOutcome::Done { entries: 73, .. }), "{done:?}");
    }
}
