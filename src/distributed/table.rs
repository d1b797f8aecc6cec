//! `gosolve table build BOARD --shards K [--workers N] [--backend ...]`:
//! the build split into K shards ([`crate::tables::shard`]), each a unit;
//! once every shard has answered, the table is assembled, byte-identical
//! to a one-process build.

use super::protocol::{Outcome, ShardWork, Unit, UnitResult, Work};
use super::scheduler::{wait_all, Finished, Observer, Reuse, Scheduler, Wait};
use super::{backend, DistError, Setup, WorkDir};
use crate::tables::shard::{assemble, check_output};
use crate::tables::{TableSpec, MAX_TABLE_POINTS};
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What a sharded build is asked.
#[derive(Clone, Debug)]
pub struct ShardedBuild {
    pub shards: usize,
    /// One position per symmetry class (the default), or every position.
    pub symmetry: bool,
    /// Transposition table of each solve, MiB.
    pub table_mb: usize,
    /// Ignore the output file and every shard's answer and checkpoint.
    pub force: bool,
    /// How often each shard saves its checkpoint.
    pub checkpoint_every: Duration,
}

/// How a sharded build ended.
#[derive(Clone, Debug, PartialEq)]
pub enum ShardedOutcome {
    /// The output was already the complete table.
    AlreadyComplete { entries: u64 },
    /// Every shard answered and the table is written.
    Complete {
        entries: u64,
        /// Shards answered by an earlier manager of this work dir.
        reused: usize,
        /// Positions the shards solved, and their nodes (this manager's runs).
        solved: u64,
        nodes: u64,
        seconds: f64,
    },
    /// Stopped (Ctrl-C, the time limit) with `done` of the shards answered;
    /// the rest resume from their checkpoints on the next run.
    Stopped { done: usize, shards: usize, time_limit: bool },
}

/// The unit id of shard `index` of `shards`.
pub fn shard_id(index: usize, shards: usize) -> String {
    format!("shard-{index}-of-{shards}")
}

/// Build the table of `spec` into `out` from `b.shards` shards run on the
/// workers of `setup`.
pub fn build_sharded(
    spec: &TableSpec,
    out: &Path,
    b: &ShardedBuild,
    setup: &Setup,
    observer: Arc<dyn Observer>,
) -> Result<ShardedOutcome, DistError> {
    let start = Instant::now();
    let geo = spec.geo;
    if geo.points() > MAX_TABLE_POINTS {
        return Err(DistError::Other(format!(
            "table build supports boards of at most {MAX_TABLE_POINTS} points; {} has {}",
            geo.name(),
            geo.points()
        )));
    }
    if b.shards == 0 {
        return Err(DistError::Other("--shards must be at least 1".into()));
    }
    if let Some(entries) = check_output(spec, out, b.force).map_err(|e| DistError::Other(e.to_string()))? {
        return Ok(ShardedOutcome::AlreadyComplete { entries });
    }
    let dir = WorkDir::open(&setup.work_dir)?;
    let lock = dir.lock()?;
    let ids: Vec<String> = (0..b.shards).map(|i| shard_id(i, b.shards)).collect();
    if b.force {
        for id in &ids {
            for p in [dir.answer_path(id), dir.output_path(id, "gtb"), dir.checkpoint_path(id, "gtb")] {
                let _ = std::fs::remove_file(p);
            }
        }
    }
    let backend = backend::open(&setup.backend, &dir)?;
    let mut s = Scheduler::new(dir.clone(), backend, setup.run.clone(), observer)?;
    for (index, id) in ids.iter().enumerate() {
        let work = Work::TableShard(ShardWork {
            board: geo.name(),
            suicide: spec.rules.suicide,
            superko: spec.rules.superko,
            komi: spec.rules.komi.as_f64(),
            index,
            shards: b.shards,
            symmetry: b.symmetry,
            checkpoint_every: b.checkpoint_every.as_secs_f64(),
        });
        s.submit(Unit::new(id, &geo, setup.backend.threads, b.table_mb, work), Reuse::Final)?;
    }
    let mut finished: Vec<Finished> = Vec::new();
    let end = wait_all(&mut s, |f| finished.push(f))?;
    drop(s);
    drop(lock);
    if matches!(end, Wait::Interrupted | Wait::Deadline) {
        let done = finished.iter().filter(|f| f.answer.is_final()).count();
        return Ok(ShardedOutcome::Stopped { done, shards: b.shards, time_limit: matches!(end, Wait::Deadline) });
    }
    let failed: Vec<String> = finished
        .iter()
        .filter_map(|f| match &f.answer.outcome {
            Outcome::Failed { reason, .. } => Some(format!("{}: {}", f.unit.id, reason)),
            _ => None,
        })
        .collect();
    if let Some(first) = failed.first() {
        return Err(DistError::Failed {
            count: failed.len(),
            first: first.clone(),
            logs: dir.logs().display().to_string(),
        });
    }
    let mut files = Vec::new();
    let (mut solved, mut nodes, mut reused) = (0, 0, 0);
    for f in &finished {
        match &f.answer.result {
            Some(UnitResult::TableShard { output, solved: n, .. }) => {
                files.push(dir.resolve(output));
                if f.reused {
                    reused += 1;
                } else {
                    solved += n;
                    nodes += f.answer.nodes;
                }
            }
            _ => return Err(DistError::Other(format!("the answer of {} names no shard file", f.unit.id))),
        }
    }
    let entries = assemble(spec, &files, out).map_err(|e| DistError::Other(e.to_string()))?;
    Ok(ShardedOutcome::Complete { entries, reused, solved, nodes, seconds: start.elapsed().as_secs_f64() })
}
