//! `gosolve worker UNITFILE`: run one unit and write its answer.
//!
//! The worker refuses a unit written by another gosolve version or table
//! format (its answer says so, and it exits with [`EXIT_REFUSED`]); runs the
//! unit; and writes the answer atomically ([`crate::store`]), so that a
//! worker killed at any moment leaves no half answer. Stopped by a signal
//! (Slurm's preemption or `scancel`, Ctrl-C), it saves the unit's own
//! checkpoint and exits with [`EXIT_INTERRUPTED`] without an answer; the
//! next run of the unit resumes from that checkpoint.

use super::protocol::{
    position_game, Answer, BatchWork, ClaimWork, Delta, Outcome, RootMove, ShardWork, Unit, UnitResult, Work,
};
use super::workdir::WorkDir;
use crate::batch::{run_job, BatchObserver, BatchOptions, SOLVED};
use crate::rules::geometry::Geometry;
use crate::rules::position::{Komi, Rules};
use crate::search::{prove_claim, Claim, ClaimMovesLog, Engine, Memory, SolveError, SolveOptions, StatsLog};
use crate::tables::checkpoint::{self, begin_for, result_hash, Autosave};
use crate::tables::shard::{solve_shard, Shard, ShardOptions, ShardOutcome};
use crate::tables::TableSpec;
use std::collections::HashSet;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Exit status of a worker that wrote an answer (any outcome but a refusal).
pub const EXIT_ANSWERED: i32 = 0;
/// Exit status of a worker that refused its unit (another version or table
/// format, a unit it cannot use); its answer says why.
pub const EXIT_REFUSED: i32 = 3;
/// Exit status of a worker stopped by a signal: no answer, the unit's own
/// checkpoint saved.
pub const EXIT_INTERRUPTED: i32 = 75;

/// How a worker's run ended.
#[derive(Debug)]
pub enum WorkerEnd {
    /// The answer was written (its outcome may be a failure to retry).
    Answered(Box<Answer>),
    /// The unit was refused; the answer saying so was written.
    Refused(String),
    /// Stopped by a signal; no answer.
    Interrupted,
}

impl WorkerEnd {
    /// The process exit status for this end.
    pub fn exit_status(&self) -> i32 {
        match self {
            WorkerEnd::Answered(_) => EXIT_ANSWERED,
            WorkerEnd::Refused(_) => EXIT_REFUSED,
            WorkerEnd::Interrupted => EXIT_INTERRUPTED,
        }
    }
}

/// Why a unit could not be run: the reason and whether a retry may help.
struct Fail(String, bool);

/// Run the unit in `path` (`WORK/units/<id>.json`) and write its answer;
/// `abort` is set by a signal. `log` gets a few lines for the unit's log.
/// An error (one line) means the unit file could not be read, or the answer
/// not written.
pub fn run_unit_file(path: &Path, abort: Arc<AtomicBool>, log: &dyn Fn(&str)) -> Result<WorkerEnd, String> {
    let unit = Unit::read(path)?;
    let dir = WorkDir::of_unit(path);
    let hash = unit.hash();
    let answer_path = dir.answer_path(&unit.id);
    let write = |a: &Answer| {
        crate::store::write_json_atomic(&answer_path, a)
            .map_err(|e| format!("cannot write the answer {}: {}", answer_path.display(), e))
    };
    if let Some(why) = unit.refusal() {
        write(&Answer::to(&unit.id, &hash, Outcome::Failed { reason: why.clone(), retry: false }))?;
        return Ok(WorkerEnd::Refused(why));
    }
    log(&format!(
        "gosolve worker {} (pid {} on {}): unit {} ({}), {} thread(s)",
        super::protocol::VERSION,
        std::process::id(),
        crate::process::host_name(),
        unit.id,
        match &unit.work {
            Work::Claim(_) => "claim",
            Work::TableShard(_) => "table shard",
            Work::BatchJob(_) => "batch job",
        },
        unit.threads
    ));
    let start = Instant::now();
    let ran = match &unit.work {
        Work::Claim(w) => run_claim(&dir, &unit, &hash, w, &abort, log),
        Work::TableShard(w) => run_shard(&dir, &unit, &hash, w, &abort),
        Work::BatchJob(w) => run_batch_job(&unit, &hash, w, &abort),
    };
    match ran {
        Ok(Some(mut answer)) => {
            answer.peak_memory_mib = crate::process::peak_memory_mib();
            if answer.seconds == 0.0 {
                answer.seconds = start.elapsed().as_secs_f64();
            }
            write(&answer)?;
            log(&format!("answer: {}, {} nodes in {:.2} s", answer.outcome.name(), answer.nodes, answer.seconds));
            Ok(WorkerEnd::Answered(Box::new(answer)))
        }
        Ok(None) => {
            log("interrupted: the unit's checkpoint is saved; no answer");
            Ok(WorkerEnd::Interrupted)
        }
        Err(Fail(reason, retry)) => {
            let mut a = Answer::to(&unit.id, &hash, Outcome::Failed { reason: reason.clone(), retry });
            a.seconds = start.elapsed().as_secs_f64();
            write(&a)?;
            if retry {
                Ok(WorkerEnd::Answered(Box::new(a)))
            } else {
                Ok(WorkerEnd::Refused(reason))
            }
        }
    }
}

/// A claim: one null-window test with the unit's budget, from the unit's
/// own checkpoint (a preempted run) or the shared one it names; what it
/// proved is written as a delta: its results less those read from the
/// shared checkpoint.
fn run_claim(
    dir: &WorkDir,
    unit: &Unit,
    hash: &str,
    w: &ClaimWork,
    abort: &Arc<AtomicBool>,
    log: &dyn Fn(&str),
) -> Result<Option<Answer>, Fail> {
    let game = position_game(&w.position).map_err(|e| Fail(format!("unit {}: {}", unit.id, e), false))?;
    let (geo, rules) = (game.geo, game.rules);
    let claim = if w.at_least { Claim::AtLeast(w.value) } else { Claim::AtMost(w.value) };
    let own = dir.checkpoint_path(&unit.id, "ck");
    let shared = w.read_checkpoint.as_deref().map(|p| dir.resolve(p));
    let mut read: HashSet<u64> = HashSet::new();
    let ck_err = |e: checkpoint::CheckpointError| Fail(e.to_string(), false);
    let mut memory = None;
    if own.exists() {
        match checkpoint::load(&own, &geo, &rules, unit.table_mb) {
            Ok((m, s)) => {
                log(&format!("resumed from {} ({} results)", own.display(), s.results));
                memory = Some(m);
            }
            Err(e) => log(&format!("{e}; starting afresh")),
        }
    }
    if let Some(shared) = &shared {
        let reading = begin_for(shared, &geo, &rules).map_err(ck_err)?;
        if memory.is_some() {
            // Resumed: the shared results are in the memory already; only
            // which they are is wanted (for the delta).
            reading
                .for_each(
                    |r| {
                        read.insert(result_hash(r));
                        false
                    },
                    |_| {},
                )
                .map_err(ck_err)?;
        } else {
            let m = Memory::new(geo, &rules, unit.table_mb);
            m.presize(reading.table_bytes() as usize);
            let s = reading
                .for_each(
                    |r| {
                        read.insert(result_hash(r));
                        m.restore(r)
                    },
                    |n| m.restore_numbers(n),
                )
                .map_err(ck_err)?;
            log(&format!("read {} ({} results, {} kept)", shared.display(), s.results, s.kept));
            memory = Some(m);
        }
    }
    let memory = memory.unwrap_or_else(|| Memory::new(geo, &rules, unit.table_mb));
    let saver = w.checkpoint_every.map(|s| {
        let every = Duration::from_secs_f64(s.max(1.0));
        Autosave::start(memory.clone(), own.clone(), every, |_| {})
    });
    let moves = ClaimMovesLog::default();
    let stopped = StatsLog::default();
    let opts = SolveOptions {
        threads: unit.threads.max(1),
        node_limit: w.node_limit,
        time_limit: w.time_limit.filter(|t| *t > 0.0).map(Duration::from_secs_f64),
        abort: Some(abort.clone()),
        table_mb: unit.table_mb,
        claim_moves: Some(moves.clone()),
        stopped_stats: Some(stopped.clone()),
        engine: if w.alpha_beta { Engine::AlphaBeta } else { Engine::Portfolio },
        no_path_symmetry: w.no_path_symmetry,
        memory: Some(memory.clone()),
        ..Default::default()
    };
    let result = prove_claim(&game, claim, &opts);
    if let Some(s) = saver {
        s.abandon();
    }
    let mut answer = match result {
        Err(SolveError::Interrupted) => {
            // Preempted: keep what was proved for the next run.
            checkpoint::save(&memory, &own).map_err(|e| Fail(e.to_string(), true))?;
            return Ok(None);
        }
        Err(SolveError::MemoryMismatch(m)) => return Err(Fail(m, false)),
        Err(e) => {
            let mut a = Answer::to(&unit.id, hash, Outcome::Undecided { limit: e.to_string() });
            if let Some(s) = stopped.get() {
                (a.nodes, a.seconds) = (s.nodes, s.seconds);
            }
            let root_moves =
                moves.get().iter().map(|m| RootMove { mv: m.mv.name(&geo), holds: m.holds }).collect::<Vec<_>>();
            a.result = Some(UnitResult::Claim { pv: vec![], root_moves });
            a
        }
        Ok(r) => {
            let mut a = Answer::to(&unit.id, hash, if r.holds { Outcome::Proved } else { Outcome::Refuted });
            (a.nodes, a.seconds) = (r.stats.nodes, r.stats.seconds);
            a.result = Some(UnitResult::Claim { pv: r.pv.iter().map(|m| m.name(&geo)).collect(), root_moves: vec![] });
            a
        }
    };
    if w.write_delta {
        let path = dir.delta_path(&unit.id);
        let s = checkpoint::save_filtered(&memory, &path, |r| !read.contains(&result_hash(r)))
            .map_err(|e| Fail(e.to_string(), true))?;
        answer.delta = Some(Delta { path: dir.relative(&path), results: s.results, whole_table: shared.is_none() });
    }
    // The answer is final: the unit's own checkpoint is no longer needed.
    let _ = std::fs::remove_file(&own);
    Ok(Some(answer))
}

/// A table shard ([`crate::tables::shard`]), resuming from its checkpoint.
fn run_shard(
    dir: &WorkDir,
    unit: &Unit,
    hash: &str,
    w: &ShardWork,
    abort: &Arc<AtomicBool>,
) -> Result<Option<Answer>, Fail> {
    let bad = |e: String| Fail(format!("unit {}: {}", unit.id, e), false);
    let geo: Geometry = w.board.parse().map_err(|e| bad(format!("{e}")))?;
    let komi = Komi::from_f64(w.komi).ok_or_else(|| bad(format!("komi {} is not a multiple of 0.5", w.komi)))?;
    let spec = TableSpec { geo, rules: Rules { suicide: w.suicide, superko: w.superko, komi } };
    let shard = Shard { index: w.index, shards: w.shards, symmetry: w.symmetry };
    let out = dir.output_path(&unit.id, "gtb");
    let ck = dir.checkpoint_path(&unit.id, "gtb");
    let opts = ShardOptions {
        threads: unit.threads.max(1),
        // 0: the worker machine's default for the shard's one shared memory.
        table_mb: unit.table_mb,
        checkpoint_every: Duration::from_secs_f64(w.checkpoint_every.max(0.0)),
        abort: Some(abort.clone()),
    };
    match solve_shard(&spec, &shard, &out, &ck, &opts) {
        Ok(ShardOutcome::Done { entries, solved, nodes, seconds, .. }) => {
            let mut a = Answer::to(&unit.id, hash, Outcome::Done);
            (a.nodes, a.seconds) = (nodes, seconds);
            a.result = Some(UnitResult::TableShard { output: dir.relative(&out), entries, solved });
            Ok(Some(a))
        }
        Ok(ShardOutcome::Stopped { .. }) => Ok(None),
        Err(e) => Err(Fail(e.to_string(), matches!(e, crate::tables::shard::ShardError::Write { .. }))),
    }
}

/// Notes of a batch job go to the worker's log.
struct LogNotes;
impl BatchObserver for LogNotes {
    fn note(&self, line: &str) {
        eprintln!("gosolve: {line}");
    }
}

/// A batch job, run by the batch's own code ([`run_job`]): the same record
/// as in a batch run in one process, its checkpoint in the batch's
/// `<out-dir>/checkpoints/`.
fn run_batch_job(unit: &Unit, hash: &str, w: &BatchWork, abort: &Arc<AtomicBool>) -> Result<Option<Answer>, Fail> {
    let job = w.job.resolve(Path::new(&w.base)).map_err(|e| Fail(format!("job '{}': {}", w.job.id, e), false))?;
    if job.hash != w.spec_hash {
        return Err(Fail(
            format!("job '{}' resolves to another search here (its SGF file changed?); rerun the batch", w.job.id),
            false,
        ));
    }
    let opts = BatchOptions {
        out_dir: w.out_dir.clone().into(),
        jobs: 1,
        threads: unit.threads.max(1),
        table_mb: unit.table_mb,
        force: false,
        time_limit: w.time_limit.filter(|t| *t > 0.0).map(Duration::from_secs_f64),
        node_limit: w.node_limit,
        abort: Some(abort.clone()),
        checkpoints: w.checkpoints,
        checkpoint_every: w.checkpoint_every.map(|s| Duration::from_secs_f64(s.max(1.0))),
        confirm: w.confirm,
        only: Vec::new(),
    };
    let observer: Arc<dyn BatchObserver> = Arc::new(LogNotes);
    let machine = crate::process::machine_description();
    let Some(record) = run_job(&job, &opts, abort, &machine, &observer) else { return Ok(None) };
    let outcome = if record.status == SOLVED {
        Outcome::Done
    } else {
        Outcome::Undecided { limit: record.limit.clone().unwrap_or_default() }
    };
    let mut a = Answer::to(&unit.id, hash, outcome);
    (a.nodes, a.seconds) = (record.nodes, record.seconds);
    a.result = Some(UnitResult::BatchJob { record: Box::new(record) });
    Ok(Some(a))
}

/// What `gosolve worker --probe FILE` writes: who answered, from where.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct ProbeAnswer {
    pub gosolve_version: String,
    pub protocol: u32,
    pub host: String,
    pub pid: u32,
}

/// Write the probe answer to `path` (atomically): the manager checks that
/// it sees the file (the work dir is shared) and that the version is its own.
pub fn probe(path: &Path) -> Result<(), String> {
    let a = ProbeAnswer {
        gosolve_version: super::protocol::VERSION.to_string(),
        protocol: super::protocol::PROTOCOL,
        host: crate::process::host_name(),
        pid: std::process::id(),
    };
    crate::store::write_json_atomic(path, &a).map_err(|e| format!("cannot write the probe {}: {}", path.display(), e))
}
