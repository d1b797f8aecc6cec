//! `gosolve worker UNITFILE`: run one unit and write its answer.
//!
//! The worker refuses a unit written by another gosolve version or table
//! format (its answer says so, and it exits with [`EXIT_REFUSED`]); runs the
//! unit; and writes the answer atomically ([`crate::store`]), so that a
//! worker killed at any moment leaves no half answer. Stopped by a signal
//! (Slurm's preemption or `scancel`, Ctrl-C), it saves the unit's own
//! checkpoint and exits with [`EXIT_INTERRUPTED`] without an answer; the
//! next run of the unit resumes from that checkpoint.
//!
//! `gosolve worker --serve WORK --slot NAME` ([`serve`]) runs many units,
//! one after another, and keeps its table between the claims of a solve
//! ([`Warm`]).

use super::protocol::{
    position_game, Answer, Assignment, BatchWork, ClaimWork, Delta, DeltaIndex, Outcome, RootMove, ShardWork, Unit,
    UnitResult, Work, WorkerStamp, WorkerStatus,
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
    run_unit(path, abort, log, None)
}

/// [`run_unit_file`], by a long-lived worker where `warm` is given: a claim
/// of a solve runs in its table (see [`Warm`]).
fn run_unit(
    path: &Path,
    abort: Arc<AtomicBool>,
    log: &dyn Fn(&str),
    mut warm: Option<&mut Warm>,
) -> Result<WorkerEnd, String> {
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
        Work::Claim(w) => match warm.as_deref_mut() {
            Some(warm) if w.write_delta => run_warm_claim(&dir, &unit, &hash, w, &abort, log, warm),
            _ => run_claim(&dir, &unit, &hash, w, &abort, log),
        },
        Work::TableShard(w) => run_shard(&dir, &unit, &hash, w, &abort),
        Work::BatchJob(w) => run_batch_job(&unit, &hash, w, &abort),
    };
    match ran {
        Ok(Some(mut answer)) => {
            answer.peak_memory_mib = crate::process::peak_memory_mib();
            if let Some(warm) = warm {
                warm.units += 1;
                answer.worker =
                    Some(WorkerStamp { slot: warm.slot.clone(), pid: std::process::id(), units: warm.units });
            }
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
                    |root| m.restore_root(root),
                )
                .map_err(ck_err)?;
            log(&format!("read {} ({} results, {} kept)", shared.display(), s.results, s.kept));
            memory = Some(m);
        }
    }
    let memory = memory.unwrap_or_else(|| Memory::new(geo, &rules, unit.table_mb));
    let Some(mut answer) = search_claim(unit, hash, w, abort, &game, &memory, &own)? else { return Ok(None) };
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

/// The search of a claim unit in `memory`, its own checkpoint `own` saved
/// every `checkpoint_every` and when stopped by a signal (then `None`).
fn search_claim(
    unit: &Unit,
    hash: &str,
    w: &ClaimWork,
    abort: &Arc<AtomicBool>,
    game: &crate::rules::history::Game,
    memory: &Memory,
    own: &Path,
) -> Result<Option<Answer>, Fail> {
    let geo = game.geo;
    let claim = if w.at_least { Claim::AtLeast(w.value) } else { Claim::AtMost(w.value) };
    let saver = w.checkpoint_every.map(|s| {
        let every = Duration::from_secs_f64(s.max(1.0));
        Autosave::start(memory.clone(), own.to_path_buf(), every, |_| {})
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
    let result = prove_claim(game, claim, &opts);
    if let Some(s) = saver {
        s.abandon();
    }
    Ok(Some(match result {
        Err(SolveError::Interrupted) => {
            // Preempted: keep what was proved for the next run.
            checkpoint::save(memory, own).map_err(|e| Fail(e.to_string(), true))?;
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
    }))
}

/// What a long-lived worker keeps between the claims of a solve: its table,
/// the results it knows the others have (read from the shared checkpoint,
/// imported from their deltas, or written in its own earlier deltas: by
/// [`result_hash`]), and the last published delta it imported.
///
/// Exactness is that of the merge ([`crate::tables::merge`]): every result
/// imported keeps the history conditions under which it holds, so any
/// subset of the union of all workers' results is a sound table; a delta a
/// worker misses (deleted before it looked) only costs work.
pub struct Warm {
    slot: String,
    memory: Option<Memory>,
    known: HashSet<u64>,
    /// The guide numbers it knows the others have, by [`number_hash`].
    numbers: HashSet<u64>,
    /// Seconds searched since its last delta, and what that delta's write
    /// took (a walk of the whole table).
    searched: f64,
    last_write: f64,
    last_seq: u64,
    units: u64,
    /// Deltas this worker wrote (not imported back).
    own: HashSet<String>,
}

impl Warm {
    pub fn new(slot: &str) -> Warm {
        Warm {
            slot: slot.to_string(),
            memory: None,
            known: HashSet::new(),
            numbers: HashSet::new(),
            searched: 0.0,
            last_write: 0.0,
            last_seq: 0,
            units: 0,
            own: HashSet::new(),
        }
    }

    /// Forget the results and guide numbers it knows the others have once
    /// their hashes take more memory than half its table: results the table
    /// has since dropped would otherwise keep their hashes for the whole
    /// solve. Forgetting costs only work, never exactness: a forgotten
    /// result may be written again in a delta, or imported again (the
    /// table keeps the deeper of two).
    fn forget_when_full(&mut self, table_bytes: usize, log: &dyn Fn(&str)) {
        // About 16 bytes a hash in a `HashSet<u64>` (the key, its control
        // byte and the free slots).
        let cap = (table_bytes / 2 / 16).max(1 << 16);
        if self.known.len() + self.numbers.len() > cap {
            log(&format!(
                "forgot {} known results and {} guide numbers (more than {cap})",
                self.known.len(),
                self.numbers.len()
            ));
            self.known = HashSet::new();
            self.numbers = HashSet::new();
        }
    }

    /// Put the results of checkpoint `path` it does not know into its
    /// table (the deeper result where a cluster is full); `mark`: count
    /// them as known (not to be written in its deltas). Returns (results
    /// read, results new).
    fn import(&mut self, path: &Path, mark: bool) -> Result<(u64, u64), checkpoint::CheckpointError> {
        let memory = self.memory.as_ref().expect("a table");
        let (geo, (suicide, superko)) = (memory.geometry(), memory.rules_of_play());
        let rules = Rules { suicide, superko, komi: Komi(0) };
        let reading = begin_for(path, &geo, &rules)?;
        let known = &mut self.known;
        let numbers = &mut self.numbers;
        let mut new = 0u64;
        let mut buf = Vec::new();
        let s = reading.for_each(
            |r| {
                let h = quick_result_hash(r, &mut buf);
                if known.contains(&h) {
                    return false;
                }
                if mark {
                    known.insert(h);
                }
                new += 1;
                memory.table.restore_ranked(r)
            },
            |n| {
                if mark {
                    numbers.extend(n.iter().map(number_hash));
                }
                memory.restore_numbers(n)
            },
            |root| memory.restore_root(root),
        )?;
        Ok((s.results, new))
    }

    /// Import the published deltas it has not seen (those of other workers).
    fn import_published(&mut self, dir: &WorkDir, log: &dyn Fn(&str)) {
        if self.memory.is_none() {
            return;
        }
        let Some(index) = read_index(dir) else { return };
        let (mut files, mut results, mut new) = (0, 0, 0);
        let start = Instant::now();
        let from = self.last_seq;
        for p in index.deltas.iter().filter(|p| p.seq > from) {
            if !self.own.contains(&p.path) {
                match self.import(&dir.resolve(&p.path), true) {
                    Ok((r, n)) => (files, results, new) = (files + 1, results + r, new + n),
                    // Deleted meanwhile, or not of this board: only work lost.
                    Err(e) => log(&format!("delta {} not imported: {e}", p.path)),
                }
            }
            self.last_seq = self.last_seq.max(p.seq);
        }
        if files > 0 {
            log(&format!(
                "imported {files} delta(s) up to #{}: {results} results, {new} new, in {:.2} s",
                self.last_seq,
                start.elapsed().as_secs_f64()
            ));
        }
        let bytes = self.memory.as_ref().map_or(0, |m| m.table_bytes());
        self.forget_when_full(bytes, log);
    }

    fn status(&self) -> WorkerStatus {
        WorkerStatus {
            slot: self.slot.clone(),
            pid: std::process::id(),
            host: crate::process::host_name(),
            units: self.units,
            last_seq: self.last_seq,
        }
    }
}

/// A result as a long-lived worker remembers it: a fast hash of its bytes
/// less its place (as [`result_hash`], which is slower; a collision only
/// leaves a result out of a delta, which costs work, never exactness).
fn quick_result_hash(r: &crate::search::tt::SavedEntry, buf: &mut Vec<u8>) -> u64 {
    match crate::store::encode_reusing(&r.without_place(), buf) {
        Ok(()) => crate::store::quick_hash64(buf),
        Err(_) => result_hash(r),
    }
}

/// A guide number (key, numbers) as a long-lived worker remembers it.
fn number_hash(&(key, numbers): &(u64, u64)) -> u64 {
    (key ^ numbers.rotate_left(29)).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// The deltas published in the work dir, if any.
fn read_index(dir: &WorkDir) -> Option<DeltaIndex> {
    let text = std::fs::read_to_string(dir.delta_index_path()).ok()?;
    serde_json::from_str(&text).ok()
}

/// A claim of a solve run by a long-lived worker: in its table (the shared
/// checkpoint read only by its first claim), after importing the deltas
/// published since its last unit; the delta it writes holds the results it
/// found that no one had.
fn run_warm_claim(
    dir: &WorkDir,
    unit: &Unit,
    hash: &str,
    w: &ClaimWork,
    abort: &Arc<AtomicBool>,
    log: &dyn Fn(&str),
    warm: &mut Warm,
) -> Result<Option<Answer>, Fail> {
    let game = position_game(&w.position).map_err(|e| Fail(format!("unit {}: {}", unit.id, e), false))?;
    let (geo, rules) = (game.geo, game.rules);
    let ck_err = |e: checkpoint::CheckpointError| Fail(e.to_string(), false);
    if !warm.memory.as_ref().is_some_and(|m| m.fits(&geo, &rules)) {
        // The first claim (or one of another board or rules): a fresh
        // table from the shared checkpoint, and every delta published.
        warm.memory = Some(Memory::new(geo, &rules, unit.table_mb));
        warm.known.clear();
        warm.numbers.clear();
        warm.last_seq = 0;
        if let Some(shared) = w.read_checkpoint.as_deref().map(|p| dir.resolve(p)) {
            if let Some(size) = begin_for(&shared, &geo, &rules).ok().map(|r| r.table_bytes()) {
                warm.memory.as_ref().expect("a table").presize(size as usize);
            }
            let start = Instant::now();
            let (results, _) = warm.import(&shared, true).map_err(ck_err)?;
            log(&format!("read {} ({results} results) in {:.2} s", shared.display(), start.elapsed().as_secs_f64()));
        }
    }
    warm.import_published(dir, log);
    let own = dir.checkpoint_path(&unit.id, "ck");
    if own.exists() {
        // A run of this unit was stopped: what it had is taken too (and
        // written in this unit's delta, where no one had it).
        match warm.import(&own, false) {
            Ok((results, new)) => log(&format!("resumed from {} ({results} results, {new} new)", own.display())),
            Err(e) => log(&format!("{e}; not resumed from it")),
        }
    }
    let memory = warm.memory.clone().expect("a table");
    let Some(mut answer) = search_claim(unit, hash, w, abort, &game, &memory, &own)? else { return Ok(None) };
    let _ = std::fs::remove_file(&own);
    // A delta walks the whole table: written once the search since the
    // last one took three times as long as that walk, so that writing
    // them costs at most a quarter of the worker's time. The results of
    // the units between go in the next delta.
    warm.searched += answer.seconds;
    if warm.searched < 3.0 * warm.last_write {
        return Ok(Some(answer));
    }
    let path = dir.delta_path(&unit.id);
    let mut found: Vec<u64> = Vec::new();
    let mut found_numbers: Vec<u64> = Vec::new();
    let (known, numbers) = (&warm.known, &warm.numbers);
    let mut buf = Vec::new();
    let s = checkpoint::save_delta(
        &memory,
        &path,
        |r| {
            let h = quick_result_hash(r, &mut buf);
            let new = !known.contains(&h);
            if new {
                found.push(h);
            }
            new
        },
        |n| {
            let h = number_hash(n);
            let new = !numbers.contains(&h);
            if new {
                found_numbers.push(h);
            }
            new
        },
    )
    .map_err(|e| Fail(e.to_string(), true))?;
    log(&format!("delta: {} results, {} guide numbers, {:.2} s", s.results, s.numbers, s.seconds));
    warm.known.extend(found);
    warm.numbers.extend(found_numbers);
    warm.forget_when_full(memory.table_bytes(), log);
    (warm.searched, warm.last_write) = (0.0, s.seconds);
    let rel = dir.relative(&path);
    warm.own.insert(rel.clone());
    answer.delta = Some(Delta { path: rel, results: s.results, whole_table: false });
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
        needed: false,
        claims: w.claim.iter().map(|&c| (w.job.id.clone(), c)).collect(),
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

/// `gosolve worker --serve WORK --slot NAME`: a long-lived worker. It
/// takes the units the manager puts in its inbox (`WORK/workers/NAME/inbox/`)
/// one at a time, oldest first, runs each as `gosolve worker FILE` would
/// (the claims of a solve in the table it keeps, [`Warm`]), writes the
/// answer atomically and only then removes the unit from its inbox (the
/// manager's sign that it is free again). Idle, it imports the deltas
/// published meanwhile. It stops when the exit file appears or a signal
/// comes while it is idle, or once idle when no manager has refreshed the
/// work dir's lock for [`super::workdir::manager_timeout`]
/// ([`EXIT_ANSWERED`]); a signal during a unit saves
/// the unit's checkpoint and stops it without an answer
/// ([`EXIT_INTERRUPTED`]), as a worker of one unit does.
pub fn serve(root: &Path, slot: &str, abort: Arc<AtomicBool>, log: &dyn Fn(&str)) -> Result<i32, String> {
    if !super::protocol::valid_id(slot) {
        return Err(format!("slot '{slot}' cannot name a folder"));
    }
    // A worker serves the work dir its manager made; it never makes one
    // (a mistyped path would wait for units that never come).
    if !root.join("units").is_dir() {
        return Err(format!(
            "{} is not a work dir (no units/ folder): a worker serves the one its manager made",
            root.display()
        ));
    }
    // A worker whose manager is gone (killed: a Slurm task outlives it)
    // exits once idle that long, rather than hold its CPUs.
    let timeout = super::workdir::manager_timeout().map_err(|e| e.to_string())?;
    let dir = WorkDir::open(root).map_err(|e| e.to_string())?;
    let inbox = dir.inbox(slot);
    std::fs::create_dir_all(&inbox).map_err(|e| format!("cannot create {}: {}", inbox.display(), e))?;
    log(&format!(
        "gosolve worker {} (pid {} on {}): serving slot {slot} of {}",
        super::protocol::VERSION,
        std::process::id(),
        crate::process::host_name(),
        dir.root().display()
    ));
    let mut warm = Warm::new(slot);
    let write_status = |warm: &Warm| {
        let path = dir.status_path(slot);
        if let Err(e) = crate::store::write_json_atomic(&path, &warm.status()) {
            log(&format!("cannot write {}: {e}", path.display()));
        }
    };
    write_status(&warm);
    // Polled often right after a unit (the next usually follows at once),
    // less often the longer it is idle.
    let mut nap = Duration::from_millis(2);
    let mut last_import = Instant::now();
    let mut last_check = Instant::now();
    loop {
        if abort.load(std::sync::atomic::Ordering::Relaxed) || dir.exit_path(slot).exists() {
            log("asked to stop; exiting");
            return Ok(EXIT_ANSWERED);
        }
        let mut next: Vec<std::path::PathBuf> = std::fs::read_dir(&inbox)
            .map_err(|e| format!("cannot read {}: {}", inbox.display(), e))?
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        next.sort_by_key(|p| std::fs::metadata(p).and_then(|m| m.modified()).ok());
        let Some(file) = next.first() else {
            if last_check.elapsed() >= Duration::from_secs(1) {
                if !dir.manager_heard_within(timeout) {
                    log(&format!(
                        "no sign of life from a manager for {:.0} s ({} not refreshed); exiting",
                        timeout.as_secs_f64(),
                        dir.lock_path().display()
                    ));
                    return Ok(EXIT_ANSWERED);
                }
                last_check = Instant::now();
            }
            if last_import.elapsed() >= Duration::from_secs(2) {
                let before = warm.last_seq;
                warm.import_published(&dir, log);
                if warm.last_seq != before {
                    write_status(&warm);
                }
                last_import = Instant::now();
            }
            std::thread::sleep(nap);
            nap = (nap * 2).min(Duration::from_millis(50));
            continue;
        };
        let assignment: Option<Assignment> =
            std::fs::read_to_string(file).ok().and_then(|t| serde_json::from_str(&t).ok());
        match assignment {
            Some(a) => {
                let unit = dir.resolve(&a.unit);
                match run_unit(&unit, abort.clone(), log, Some(&mut warm)) {
                    Ok(WorkerEnd::Interrupted) => return Ok(EXIT_INTERRUPTED),
                    Ok(WorkerEnd::Answered(_)) => {}
                    Ok(WorkerEnd::Refused(why)) => log(&format!("refused: {why}")),
                    // No answer: the manager sees the unit gone from the
                    // inbox without one, and sends it again.
                    Err(e) => log(&format!("error: {e}")),
                }
            }
            None => log(&format!("{} cannot be used; dropped", file.display())),
        }
        let _ = std::fs::remove_file(file);
        write_status(&warm);
        last_import = Instant::now();
        nap = Duration::from_millis(2);
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The hashes a long-lived worker keeps of what the others have are
    /// forgotten once they would take more than half its table, and kept
    /// below that.
    #[test]
    fn known_results_are_forgotten_past_half_the_table() {
        let mut warm = Warm::new("w0");
        let table_bytes = 64 << 20; // room for 2^21 hashes
        warm.known.extend(0..(1 << 20));
        warm.numbers.extend(0..(1 << 20));
        warm.forget_when_full(table_bytes, &|_| {});
        assert_eq!(warm.known.len() + warm.numbers.len(), 1 << 21, "at the cap: kept");
        warm.known.insert(u64::MAX);
        let said = std::cell::Cell::new(false);
        warm.forget_when_full(table_bytes, &|line| said.set(line.starts_with("forgot")));
        assert!(warm.known.is_empty() && warm.numbers.is_empty() && said.get());
    }
}
