//! Running a batch: jobs not already solved are solved in parallel, each
//! record written as it finishes, then the summary.

use super::record::existing_record;
use super::summary::agreement;
use super::{record_path, summary_markdown, Job, JobRecord, MoveRecord, RulesRecord, SOLVED, UNSOLVED};
use crate::format::diagram;
use crate::limits;
use crate::process::{machine_description, peak_memory_mib, utc_now};
use crate::rules::position::result_phrase;
use crate::search::{solve, Memory, Progress, RootMoveLog, SolveError, SolveOptions, StatsLog};
use crate::store;
use crate::tables::checkpoint::{self, Autosave};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Told about jobs as they run (implemented by the progress display).
pub trait BatchObserver: Send + Sync {
    fn job_started(&self, _id: &str) {}
    fn job_progress(&self, _id: &str, _p: &Progress) {}
    fn job_finished(&self, _id: &str, _record: &JobRecord, _skipped: bool) {}
    /// A line worth telling the user (a checkpoint read or saved, or refused).
    fn note(&self, _line: &str) {}
}

/// An observer that ignores everything.
pub struct NoObserver;
impl BatchObserver for NoObserver {}

/// Options of a batch run.
#[derive(Clone)]
pub struct BatchOptions {
    /// Results go to `<out_dir>/batch/<id>.json` and `<out_dir>/summary.md`.
    pub out_dir: PathBuf,
    /// Jobs run at once (0 = all cores).
    pub jobs: usize,
    /// Search threads per job.
    pub threads: usize,
    /// Transposition table size per job in MiB (0 = the solver's default).
    pub table_mb: usize,
    /// Redo jobs that already have results.
    pub force: bool,
    /// The time limit of every job, in place of the manifest's (the command
    /// line overrides the file); `None` keeps each job's own.
    pub time_limit: Option<Duration>,
    /// The node limit of every job, likewise.
    pub node_limit: Option<u64>,
    /// Set from outside (Ctrl-C) to stop; running jobs are not recorded.
    pub abort: Option<Arc<AtomicBool>>,
    /// Keep each job's search memory in `<out_dir>/checkpoints/<id>.ck`
    /// while it runs and when it stops unsolved (limit, Ctrl-C), so that the
    /// next run resumes it; removed once the job is solved.
    pub checkpoints: bool,
    /// How often a job's checkpoint is saved while it runs (`None`: every
    /// [`CHECKPOINT_EVERY`]).
    pub checkpoint_every: Option<Duration>,
}

impl Default for BatchOptions {
    fn default() -> Self {
        BatchOptions {
            out_dir: PathBuf::from("out"),
            jobs: 0,
            threads: 1,
            table_mb: 0,
            force: false,
            time_limit: None,
            node_limit: None,
            abort: None,
            checkpoints: false,
            checkpoint_every: None,
        }
    }
}

/// What a batch run did.
#[derive(Debug)]
pub struct BatchReport {
    /// Per job in manifest order: its record, if it has one (`None`: interrupted before it finished).
    pub records: Vec<(Job, Option<JobRecord>)>,
    pub ran: usize,
    pub skipped: usize,
    /// Jobs re-run (with force) that hit their limit this time, whose earlier
    /// solved record was kept (and is what `records` holds).
    pub kept_solved: usize,
    pub interrupted: bool,
    pub summary_path: PathBuf,
    pub summary: String,
}

impl BatchReport {
    /// Ids of jobs whose value disagrees with the published one (per the current manifest).
    pub fn disagreements(&self) -> Vec<String> {
        self.records
            .iter()
            .filter(|(job, r)| agreement(job, r.as_ref()) == Some(false))
            .map(|(job, _)| job.spec.id.clone())
            .collect()
    }
    /// Ids of jobs that hit their limit.
    pub fn unsolved(&self) -> Vec<String> {
        self.records
            .iter()
            .filter(|(_, r)| r.as_ref().is_some_and(|r| r.status != SOLVED))
            .map(|(job, _)| job.spec.id.clone())
            .collect()
    }
}

/// Why a batch could not run to the end.
#[derive(Debug, thiserror::Error)]
pub enum BatchError {
    #[error("cannot write {path}: {source}")]
    Write { path: String, source: std::io::Error },
    /// The [`JobRunner`] could not run the jobs (one line).
    #[error("{0}")]
    Runner(String),
}

/// Where the pending jobs of a batch run: in this process ([`run_batch`]: a
/// pool of threads) or elsewhere (`crate::distributed`: worker processes
/// on this machine or a cluster). Either way each job is solved by
/// [`run_job`], and its record goes through the same rules (a solved record
/// never replaced by an unsolved one) and into the same files.
pub trait JobRunner: Sync {
    /// Run the jobs `pending` (indexes into `jobs`) and hand each record
    /// to `done` as it comes; stop early when `abort` is set (a job whose
    /// record has not come is then simply not recorded). True when stopped
    /// before every job was done.
    fn run(
        &self,
        jobs: &[Job],
        pending: &[usize],
        opts: &BatchOptions,
        abort: &Arc<AtomicBool>,
        observer: &Arc<dyn BatchObserver>,
        done: &(dyn Fn(usize, JobRecord) + Sync),
    ) -> Result<bool, BatchError>;
}

/// The jobs run on a pool of threads of this process, `opts.jobs` at once.
pub struct ThreadPoolRunner;

impl JobRunner for ThreadPoolRunner {
    fn run(
        &self,
        jobs: &[Job],
        pending: &[usize],
        opts: &BatchOptions,
        abort: &Arc<AtomicBool>,
        observer: &Arc<dyn BatchObserver>,
        done: &(dyn Fn(usize, JobRecord) + Sync),
    ) -> Result<bool, BatchError> {
        let machine = machine_description();
        let threads =
            if opts.jobs == 0 { std::thread::available_parallelism().map_or(1, |n| n.get()) } else { opts.jobs };
        // Jobs running at once share the machine's default table memory.
        let sized = BatchOptions {
            table_mb: match opts.table_mb {
                0 => crate::search::machine_table_mb_shared(threads.min(pending.len()).max(1)),
                mb => mb,
            },
            ..opts.clone()
        };
        let opts = &sized;
        let next = AtomicUsize::new(0);
        let interrupted = AtomicBool::new(false);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads.min(pending.len()).max(1))
            .thread_name(|i| format!("batch-{}", i))
            .build()
            .expect("thread pool");
        pool.scope(|s| {
            for _ in 0..threads.min(pending.len()) {
                s.spawn(|_| loop {
                    if abort.load(Ordering::Relaxed) {
                        interrupted.store(true, Ordering::Relaxed);
                        break;
                    }
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&i) = pending.get(k) else { break };
                    let job = &jobs[i];
                    observer.job_started(&job.spec.id);
                    match run_job(job, opts, abort, &machine, observer) {
                        Some(record) => done(i, record),
                        None => interrupted.store(true, Ordering::Relaxed),
                    }
                });
            }
        });
        Ok(interrupted.into_inner())
    }
}

/// Run the jobs (skipping finished ones unless `force`), write every result
/// and the summary. Jobs that hit a limit are recorded, not errors.
pub fn run_batch(
    jobs: &[Job],
    opts: &BatchOptions,
    observer: Arc<dyn BatchObserver>,
) -> Result<BatchReport, BatchError> {
    run_batch_with(jobs, opts, observer, &ThreadPoolRunner)
}

/// [`run_batch`] with the pending jobs run by `runner`.
pub fn run_batch_with(
    jobs: &[Job],
    opts: &BatchOptions,
    observer: Arc<dyn BatchObserver>,
    runner: &dyn JobRunner,
) -> Result<BatchReport, BatchError> {
    let mut records: Vec<Option<JobRecord>> = vec![None; jobs.len()];
    let mut pending = Vec::new();
    // Solved records on disk for these specs: never replaced by a worse one.
    let mut solved_before: Vec<Option<JobRecord>> = vec![None; jobs.len()];
    for (i, job) in jobs.iter().enumerate() {
        let existing = existing_record(&opts.out_dir, job).filter(|r| r.status == SOLVED);
        match existing {
            Some(r) if !opts.force => {
                observer.job_finished(&job.spec.id, &r, true);
                records[i] = Some(r);
            }
            // Unsolved jobs (and, with force, every job) run again.
            other => {
                solved_before[i] = other;
                pending.push(i);
            }
        }
    }
    let skipped = jobs.len() - pending.len();
    let abort = opts.abort.clone().unwrap_or_else(|| Arc::new(AtomicBool::new(false)));
    let results: Mutex<Vec<(usize, JobRecord)>> = Mutex::new(Vec::new());
    let errors: Mutex<Vec<BatchError>> = Mutex::new(Vec::new());
    let kept = AtomicUsize::new(0);
    let solved_before = &solved_before;
    let done = |i: usize, record: JobRecord| {
        let job = &jobs[i];
        let path = record_path(&opts.out_dir, &job.spec.id);
        // A limit hit on a busy machine must not replace a solved record.
        if record.status != SOLVED {
            if let Some(old) = &solved_before[i] {
                observer.job_finished(&job.spec.id, &record, false);
                results.lock().unwrap_or_else(|e| e.into_inner()).push((i, old.clone()));
                kept.fetch_add(1, Ordering::Relaxed);
                return;
            }
        }
        if let Err(source) = store::write_json_atomic(&path, &record) {
            errors
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(BatchError::Write { path: path.display().to_string(), source });
            abort.store(true, Ordering::Relaxed);
        }
        observer.job_finished(&job.spec.id, &record, false);
        results.lock().unwrap_or_else(|e| e.into_inner()).push((i, record));
    };
    let interrupted = if pending.is_empty() {
        false
    } else {
        let run = runner.run(jobs, &pending, opts, &abort, &observer, &done);
        let stopped_by_error = !errors.lock().unwrap_or_else(|e| e.into_inner()).is_empty();
        run? || (stopped_by_error && abort.load(Ordering::Relaxed))
    };
    if let Some(e) = errors.into_inner().unwrap_or_else(|e| e.into_inner()).into_iter().next() {
        return Err(e);
    }
    let mut ran = 0;
    for (i, r) in results.into_inner().unwrap_or_else(|e| e.into_inner()) {
        records[i] = Some(r);
        ran += 1;
    }
    let records: Vec<(Job, Option<JobRecord>)> = jobs.iter().cloned().zip(records).collect();
    let summary = summary_markdown(&records);
    let summary_path = opts.out_dir.join("summary.md");
    store::write_text_atomic(&summary_path, &summary)
        .map_err(|source| BatchError::Write { path: summary_path.display().to_string(), source })?;
    Ok(BatchReport { records, ran, skipped, kept_solved: kept.into_inner(), interrupted, summary_path, summary })
}

/// Solve one job as a batch does (its record, and its checkpoint with
/// [`BatchOptions::checkpoints`]); `None` when interrupted. `machine` is
/// what the record says it ran on.
pub fn run_job(
    job: &Job,
    opts: &BatchOptions,
    abort: &Arc<AtomicBool>,
    machine: &str,
    observer: &Arc<dyn BatchObserver>,
) -> Option<JobRecord> {
    let (observer2, id) = (observer.clone(), job.spec.id.clone());
    let solved = RootMoveLog::default();
    let stopped = StatsLog::default();
    let solve_opts = SolveOptions {
        threads: opts.threads.max(1),
        node_limit: opts.node_limit.or(job.spec.node_limit),
        // Checked when the job was resolved (Job::new).
        time_limit: opts.time_limit.or_else(|| job.spec.time_limit.and_then(|t| limits::seconds(t).ok())),
        abort: Some(abort.clone()),
        table_mb: opts.table_mb,
        progress: Some(Arc::new(move |p: &Progress| observer2.job_progress(&id, p))),
        no_pv: false,
        pv_moves: None,
        value_only: false,
        on_root_move: Some(solved.callback()),
        value_bounds: None,
        claim_moves: None,
        stopped_stats: Some(stopped.clone()),
        engine: Default::default(),
        trace: Default::default(),
        no_path_symmetry: false,
        focus_after: None,
        memory: None,
    };
    let checkpoint = opts.checkpoints.then(|| JobCheckpoint::open(job, opts, observer));
    let solve_opts = SolveOptions { memory: checkpoint.as_ref().map(|c| c.saver.memory().clone()), ..solve_opts };
    let start = Instant::now();
    let result = solve(&job.game, &solve_opts);
    let seconds = start.elapsed().as_secs_f64();
    if let Some(c) = checkpoint {
        c.close(result.is_ok(), observer);
    }
    let game = &job.game;
    let geo = &game.geo;
    let komi = game.rules.komi.as_f64();
    let mut rec = JobRecord {
        id: job.spec.id.clone(),
        spec_hash: job.hash.clone(),
        status: SOLVED.into(),
        limit: None,
        board: geo.name(),
        position: diagram::compact(geo, &game.position),
        to_move: game.to_move.name().into(),
        history: game.moves.iter().map(|(_, m)| m.name(geo)).collect(),
        start_position: diagram::compact(geo, &game.start),
        rules: RulesRecord { suicide: game.rules.suicide, superko: game.rules.superko.name().into(), komi },
        rules_source: Some(job.rules_source.clone()),
        value: None,
        value_with_komi: None,
        result: None,
        pv: vec![],
        moves: vec![],
        published: job.spec.published,
        source: job.spec.source.clone(),
        agree: None,
        nodes: 0,
        seconds,
        nodes_per_second: 0.0,
        max_depth: 0,
        peak_memory_mib: peak_memory_mib(),
        machine: machine.to_string(),
        date: utc_now(),
        gosolve_version: env!("CARGO_PKG_VERSION").into(),
    };
    match result {
        Ok(sol) => {
            let v = sol.value_with_komi(&game.rules);
            rec.value = Some(sol.value);
            rec.value_with_komi = Some(v);
            rec.result = Some(result_phrase(v));
            rec.pv = sol.pv.iter().map(|m| m.name(geo)).collect();
            rec.moves =
                sol.moves.iter().map(|m| MoveRecord { mv: m.mv.name(geo), value: m.value as f64 - komi }).collect();
            rec.agree = job.spec.published.map(|p| p == v);
            rec.nodes = sol.stats.nodes;
            rec.seconds = sol.stats.seconds;
            rec.max_depth = sol.stats.max_depth;
        }
        Err(SolveError::Interrupted) => return None,
        Err(e) => {
            rec.status = UNSOLVED.into();
            rec.limit = Some(e.to_string());
            // The work done until the limit, all threads.
            if let Some(stats) = stopped.get() {
                rec.nodes = stats.nodes;
                rec.seconds = stats.seconds;
                rec.max_depth = stats.max_depth;
            }
            // The root moves solved before the limit (exact values).
            rec.moves = solved
                .sorted()
                .iter()
                .map(|m| MoveRecord { mv: m.mv.name(geo), value: m.value as f64 - komi })
                .collect();
        }
    }
    rec.nodes_per_second = rec.nodes as f64 / rec.seconds.max(1e-9);
    Some(rec)
}

/// A job's checkpoint (see [`BatchOptions::checkpoints`]): its memory, read
/// back from `<out_dir>/checkpoints/<id>.ck` where an earlier run left one,
/// and saved there every [`CHECKPOINT_EVERY`] while the job runs.
struct JobCheckpoint {
    saver: Autosave,
}

/// How often a job's checkpoint is saved while it runs, by default.
pub const CHECKPOINT_EVERY: Duration = Duration::from_secs(600);

impl JobCheckpoint {
    /// The job's checkpoint: read back if one is there (a file that cannot
    /// be used is reported and replaced: the job then starts afresh, which
    /// costs only time), else a fresh memory.
    fn open(job: &Job, opts: &BatchOptions, observer: &Arc<dyn BatchObserver>) -> JobCheckpoint {
        let id = &job.spec.id;
        let path = opts.out_dir.join("checkpoints").join(format!("{id}.ck"));
        let game = &job.game;
        let memory = match checkpoint::open(&path, &game.geo, &game.rules, opts.table_mb) {
            Ok((m, read)) => {
                if let Some(s) = read {
                    observer.note(&format!("{id}: resumed from {} ({} results)", path.display(), s.results));
                }
                m
            }
            Err(e) => {
                observer.note(&format!("{id}: {e}; starting afresh"));
                Memory::new(game.geo, &game.rules, opts.table_mb)
            }
        };
        let (o, who) = (observer.clone(), id.clone());
        let every = opts.checkpoint_every.unwrap_or(CHECKPOINT_EVERY);
        let saver = Autosave::start(memory, path, every, move |r| {
            if let Err(e) = r {
                o.note(&format!("{who}: {e}"));
            }
        });
        JobCheckpoint { saver }
    }

    /// The job ended: solved, its checkpoint is removed (its record holds
    /// the answer); else it is saved for the next run.
    fn close(self, solved: bool, observer: &Arc<dyn BatchObserver>) {
        if solved {
            let path = self.saver.path().to_path_buf();
            self.saver.abandon();
            let _ = std::fs::remove_file(path);
        } else if let Err(e) = self.saver.finish() {
            observer.note(&e.to_string());
        }
    }
}
