//! Running a batch: jobs not already solved are solved in parallel, each
//! record written as it finishes, then the summary.

use super::openings::{needed_claims, Needed};
use super::record::existing_record;
use super::summary::{agreement, explained};
use super::{
    record_path, summary_markdown, BoundsRecord, CheckRecord, ConfirmWith, Confirmation, EarlierRuns, Job, JobRecord,
    MoveRecord, RulesRecord, TestMoves, CONTRADICTED, FAILS, HOLDS, SOLVED, UNCONFIRMED, UNSOLVED,
};
use crate::format::diagram;
use crate::format::numbers::{self, signed};
use crate::limits;
use crate::process::{load_average, machine_description, peak_memory_mib, utc_now, COMMIT};
use crate::rules::position::result_phrase;
use crate::search::{
    meet_bounds, prove_claim, solve, BoundsLog, Claim, ClaimMovesLog, ClaimSeen, Engine, Memory, Progress, RootMoveLog,
    SolveError, SolveOptions, Stats, StatsLog,
};
use crate::store;
use crate::tables::checkpoint::{self, Autosave};
use crate::tables::merge::{self, Keep};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Told about jobs as they run (implemented by the progress display).
pub trait BatchObserver: Send + Sync {
    fn job_started(&self, _id: &str) {}
    /// The jobs of a round of `--needed` claims: this many run now.
    fn jobs_planned(&self, _n: usize) {}
    /// `claim`: how far a claim (a confirmation's bound) has got at its
    /// root moves, once it has looked.
    fn job_progress(&self, _id: &str, _p: &Progress, _claim: Option<&ClaimSeen>) {}
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
    /// next run resumes it, and its trim in `<out_dir>/seeds/<id>.ck` for a
    /// run without it; both removed once the job is solved.
    pub checkpoints: bool,
    /// Confirm every job's value (as a job's `confirm = true` does).
    pub confirm: bool,
    /// Run only these jobs (by id; empty: all). The others' records on disk
    /// still go into the summary.
    pub only: Vec<String>,
    /// How often a job's checkpoint is saved while it runs (`None`: every
    /// [`CHECKPOINT_EVERY`]).
    pub checkpoint_every: Option<Duration>,
    /// Run only the claims that the first moves' records still need
    /// ([`needed_claims`]), each on its job's game in place of the job's
    /// solve: the strip's value asks much less than each move's value.
    /// The record keeps the bound a claim proves; the other jobs are left
    /// as they are.
    pub needed: bool,
    /// The claims to run in place of these jobs' solves, by job id: set by
    /// [`run_batch_with`] under `needed`, and by a worker from its unit.
    pub claims: BTreeMap<String, Needed>,
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
            confirm: false,
            only: Vec::new(),
            checkpoint_every: None,
            needed: false,
            claims: BTreeMap::new(),
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
    /// Jobs left out by [`BatchOptions::only`].
    pub left_out: usize,
    /// Jobs re-run (with force) that hit their limit this time, whose earlier
    /// solved record was kept (and is what `records` holds).
    pub kept_solved: usize,
    pub interrupted: bool,
    pub summary_path: PathBuf,
    pub summary: String,
    /// [`BatchOptions::only`].
    pub only: Vec<String>,
    /// Under [`BatchOptions::needed`]: each claim run, on which job, and
    /// what the job's record now says of it (`None`: still open).
    pub claims: Vec<(String, Needed, Option<bool>)>,
}

impl BatchReport {
    /// Ids of jobs whose value disagrees with the published one with no
    /// explanation for it (per the current manifest).
    pub fn disagreements(&self) -> Vec<String> {
        self.records
            .iter()
            .filter(|(job, r)| agreement(job, r.as_ref()) == Some(false) && !explained(job, r.as_ref()))
            .filter(|(job, _)| self.selected(job))
            .map(|(job, _)| job.spec.id.clone())
            .collect()
    }
    /// Ids of jobs whose value differs from the published one, explained.
    pub fn explained_differences(&self) -> Vec<String> {
        self.records
            .iter()
            .filter(|(job, r)| agreement(job, r.as_ref()) == Some(false) && explained(job, r.as_ref()))
            .map(|(job, _)| job.spec.id.clone())
            .collect()
    }
    /// Ids of jobs whose confirmation contradicts their value.
    pub fn contradicted(&self) -> Vec<String> {
        self.records
            .iter()
            .filter(|(_, r)| r.as_ref().is_some_and(|r| r.status == CONTRADICTED))
            .map(|(job, _)| job.spec.id.clone())
            .collect()
    }
    /// Ids of jobs run this time (not left out) that hit their limit, in
    /// the solve or (with `unconfirmed`: only) in a check of its value.
    pub fn unsolved(&self) -> Vec<String> {
        self.with_status(&[UNSOLVED, UNCONFIRMED])
    }
    /// Ids of jobs run this time whose value is found but not yet confirmed.
    pub fn unconfirmed(&self) -> Vec<String> {
        self.with_status(&[UNCONFIRMED])
    }
    fn with_status(&self, status: &[&str]) -> Vec<String> {
        self.records
            .iter()
            .filter(|(_, r)| r.as_ref().is_some_and(|r| status.contains(&r.status.as_str())))
            .filter(|(job, _)| self.selected(job))
            .map(|(job, _)| job.spec.id.clone())
            .collect()
    }
    fn selected(&self, job: &Job) -> bool {
        selected(&self.only, job)
    }
}

/// Whether `--only` (the ids `only`; none: every job) selects `job`.
fn selected(only: &[String], job: &Job) -> bool {
    only.is_empty() || only.contains(&job.spec.id)
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

/// Whether a record on disk finishes its job: solved, and confirmed where
/// the job asks for it.
fn finished(job: &Job, opts: &BatchOptions, r: &JobRecord) -> bool {
    r.status == SOLVED
        && (!confirms(job, opts)
            || r.confirmation.as_ref().is_some_and(|c| c.confirmed == Some(true)) && r.value_check_differs(job))
}

fn confirms(job: &Job, opts: &BatchOptions) -> bool {
    opts.confirm || job.spec.confirms()
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
///
/// Under [`BatchOptions::needed`] it runs in rounds: the claims the records
/// need now, then those the new records need (a claim that fails raises
/// the best bound, and so asks the others again), until none is needed or
/// one stays open at its limit.
pub fn run_batch_with(
    jobs: &[Job],
    opts: &BatchOptions,
    observer: Arc<dyn BatchObserver>,
    runner: &dyn JobRunner,
) -> Result<BatchReport, BatchError> {
    if !opts.needed {
        return run_round(jobs, opts, observer, runner);
    }
    let mut claims = Vec::new();
    loop {
        let now: Vec<(Job, Option<JobRecord>)> =
            jobs.iter().map(|job| (job.clone(), existing_record(&opts.out_dir, job))).collect();
        let round = BatchOptions { claims: needed_claims(&now).into_iter().collect(), ..opts.clone() };
        let mut report = run_round(jobs, &round, observer.clone(), runner)?;
        let decided = report.claims.iter().filter(|c| c.2.is_some()).count();
        let stop = report.interrupted || decided == 0 || decided < report.claims.len();
        claims.append(&mut report.claims);
        if stop {
            report.claims = claims;
            return Ok(report);
        }
    }
}

/// One run of the jobs to run (a round of claims under `needed`).
fn run_round(
    jobs: &[Job],
    opts: &BatchOptions,
    observer: Arc<dyn BatchObserver>,
    runner: &dyn JobRunner,
) -> Result<BatchReport, BatchError> {
    let mut records: Vec<Option<JobRecord>> = vec![None; jobs.len()];
    // Each job to run (one whose value is found only has its confirmation to
    // do: see `run_job`).
    let mut pending: Vec<usize> = Vec::new();
    // Solved records on disk for these specs: never replaced by a worse one.
    let mut solved_before: Vec<Option<JobRecord>> = vec![None; jobs.len()];
    // The records on disk of the jobs to run: what the summary shows of
    // one interrupted before it wrote a new record (its file is unchanged).
    let mut on_disk: Vec<Option<JobRecord>> = vec![None; jobs.len()];
    // The jobs --only leaves out are not run; their records, whatever they
    // say, are summarised (read when the summary is written, below).
    let left_out = jobs.iter().filter(|job| !selected(&opts.only, job)).count();
    for (i, job) in jobs.iter().enumerate().filter(|(_, job)| selected(&opts.only, job)) {
        let claimed = opts.claims.contains_key(&job.spec.id);
        match existing_record(&opts.out_dir, job) {
            // Under `needed`, only the jobs with a claim run.
            r if opts.needed && !claimed => records[i] = r,
            r if claimed => {
                on_disk[i] = r;
                pending.push(i);
            }
            Some(r) if !opts.force && finished(job, opts, &r) => {
                // The manifest's published value or explanation may be new: the
                // record says what the summary says (no search).
                let r = match compared(job, &r) {
                    Some(new) => {
                        let path = record_path(&opts.out_dir, &job.spec.id);
                        store::write_json_atomic(&path, &new)
                            .map_err(|source| BatchError::Write { path: path.display().to_string(), source })?;
                        new
                    }
                    None => r,
                };
                observer.job_finished(&job.spec.id, &r, true);
                records[i] = Some(r);
            }
            // Its value is found: only the checks still open are run.
            Some(r) if resumes(job, opts, &r) => {
                on_disk[i] = Some(r);
                pending.push(i);
            }
            // Unsolved jobs (and, with force, every job) run again.
            other => {
                solved_before[i] = other.clone().filter(|r| r.status == SOLVED);
                on_disk[i] = other;
                pending.push(i);
            }
        }
    }
    let skipped = jobs.len() - pending.len() - left_out;
    if opts.needed {
        observer.jobs_planned(pending.len());
        let said: Vec<String> =
            pending.iter().map(|&i| format!("{}: {}", jobs[i].spec.id, opts.claims[&jobs[i].spec.id].text())).collect();
        if !said.is_empty() {
            observer.note(&format!("the claims the first moves need now: {}", said.join(", ")));
        }
    }
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
    // The jobs left out by --only are summarised as their records are on
    // disk now: another run on the same out-dir may have written them
    // since this one started.
    for (i, job) in jobs.iter().enumerate().filter(|(_, job)| !selected(&opts.only, job)) {
        records[i] = existing_record(&opts.out_dir, job);
    }
    let claims = pending
        .iter()
        .filter_map(|&i| {
            let id = &jobs[i].spec.id;
            let n = *opts.claims.get(id)?;
            let r = records[i].as_ref();
            let (lo, hi) = match (r.and_then(|r| r.value_with_komi), r.and_then(|r| r.bounds.as_ref())) {
                (Some(v), _) => (Some(v), Some(v)),
                (None, Some(b)) => (b.at_least, b.at_most),
                (None, None) => (None, None),
            };
            Some((id.clone(), n, n.decided(lo, hi)))
        })
        .collect();
    let records: Vec<(Job, Option<JobRecord>)> = jobs.iter().cloned().zip(records).collect();
    let shown: Vec<(Job, Option<JobRecord>)> =
        records.iter().zip(on_disk).map(|((job, r), disk)| (job.clone(), r.clone().or(disk))).collect();
    let summary = summary_markdown(&shown);
    let summary_path = opts.out_dir.join("summary.md");
    store::write_text_atomic(&summary_path, &summary)
        .map_err(|source| BatchError::Write { path: summary_path.display().to_string(), source })?;
    Ok(BatchReport {
        records,
        ran,
        skipped,
        left_out,
        kept_solved: kept.into_inner(),
        interrupted,
        summary_path,
        summary,
        only: opts.only.clone(),
        claims,
    })
}

/// The options of every search of a job: its limits, threads and table.
fn search_options(
    job: &Job,
    opts: &BatchOptions,
    abort: &Arc<AtomicBool>,
    observer: &Arc<dyn BatchObserver>,
) -> SolveOptions {
    let (observer, id) = (observer.clone(), job.spec.id.clone());
    // What a claim (or a value-only solve's test) knows after each root move, for
    // the progress line and the record of a stopped job.
    let (claimed, geo) = (ClaimMovesLog::default(), job.game.geo);
    let seen = claimed.clone();
    SolveOptions {
        threads: opts.threads.max(1),
        node_limit: opts.node_limit.or(job.spec.node_limit),
        // Checked when the job was resolved (Job::new).
        time_limit: opts.time_limit.or_else(|| job.spec.time_limit.and_then(|t| limits::seconds(t).ok())),
        abort: Some(abort.clone()),
        table_mb: opts.table_mb,
        progress: Some(Arc::new(move |p: &Progress| observer.job_progress(&id, p, seen.seen(&geo).as_ref()))),
        no_pv: false,
        pv_moves: None,
        value_only: false,
        // Checked when the job was resolved: an integer once the komi is added.
        guess: job.spec.guess.map(|g| Claim::guess_with_komi(g, &job.game.rules)),
        on_root_move: None,
        value_bounds: None,
        known_bounds: (None, None),
        claim_moves: Some(claimed),
        stopped_stats: None,
        engine: Default::default(),
        trace: Default::default(),
        no_path_symmetry: false,
        focus_after: None,
        memory: None,
    }
}

/// Whether a job's record on disk has its value found, so that a run only
/// confirms it (the checks still open).
fn resumes(job: &Job, opts: &BatchOptions, r: &JobRecord) -> bool {
    !opts.force && r.value.is_some() && confirms(job, opts)
}

/// Solve one job as a batch does (its record, and its checkpoint with
/// [`BatchOptions::checkpoints`]), or, where its record in `opts.out_dir`
/// has the value already, only confirm it; `None` when interrupted before
/// the value was found (interrupted during the checks: the record with the
/// checks done). `machine` is what the record says it ran on.
pub fn run_job(
    job: &Job,
    opts: &BatchOptions,
    abort: &Arc<AtomicBool>,
    machine: &str,
    observer: &Arc<dyn BatchObserver>,
) -> Option<JobRecord> {
    let existing = existing_record(&opts.out_dir, job);
    if let Some(&needed) = opts.claims.get(&job.spec.id) {
        return claim_job(job, opts, abort, machine, observer, existing.as_ref(), needed);
    }
    let earlier = existing.clone().filter(|r| resumes(job, opts, r));
    // A solved record is never replaced by a worse one (see `run_batch_with`),
    // so the interim records below are not written over it.
    let keep_solved = earlier.is_none() && existing.as_ref().is_some_and(|r| r.status == SOLVED);
    let rec = match earlier {
        Some(r) => r,
        None => solve_job(job, opts, abort, machine, observer, existing.as_ref())?,
    };
    let mut rec = compared(job, &rec).unwrap_or(rec);
    if rec.value.is_some() && confirms(job, opts) {
        // While its checks run, a job's record says how far they got.
        let interim = |r: &JobRecord| {
            if !keep_solved {
                let path = record_path(&opts.out_dir, &job.spec.id);
                if let Err(e) = store::write_json_atomic(&path, r) {
                    observer.note(&format!("{}: cannot write {}: {}", job.spec.id, path.display(), e));
                }
            }
        };
        confirm(job, opts, abort, machine, observer, &mut rec, &interim);
    }
    Some(rec)
}

/// The record with the manifest's published value, source and
/// explanation, and whether they agree; `None` where it has them already.
fn compared(job: &Job, r: &JobRecord) -> Option<JobRecord> {
    let mut new = r.clone();
    new.published = job.spec.published;
    new.source = job.spec.source.clone();
    new.agree = job.spec.published.zip(r.value_with_komi).map(|(p, v)| p == v);
    new.explanation = match (new.agree, job.spec.explained_value) {
        (Some(false), Some(e)) if Some(e) == r.value_with_komi => job.spec.explanation.clone(),
        _ => None,
    };
    (new != *r).then_some(new)
}

/// The job's solve; `None` when interrupted. `existing`: its record in
/// `opts.out_dir` before this run, if any.
fn solve_job(
    job: &Job,
    opts: &BatchOptions,
    abort: &Arc<AtomicBool>,
    machine: &str,
    observer: &Arc<dyn BatchObserver>,
    existing: Option<&JobRecord>,
) -> Option<JobRecord> {
    let solved = RootMoveLog::default();
    let stopped = StatsLog::default();
    let value_only = job.spec.value_only == Some(true);
    let checkpoint = opts.checkpoints.then(|| JobCheckpoint::open(job, opts, observer, None));
    // The root's bounds come from two places, as a run may have ended
    // either way: an unsolved record's (a limit reached), and the
    // checkpoint's own log (any save, an interrupted run's too, which
    // writes no record). Both were proved for this position, so the solve
    // starts from where they meet; with a checkpoint its log is the one the
    // solve narrows, so that every save keeps what this run proves (as
    // `solve --checkpoint` does). A limit reached again keeps them: the
    // solver reports them as it starts.
    let komi = job.game.rules.komi.as_f64();
    let bounds = checkpoint.as_ref().map_or_else(BoundsLog::default, |c| c.saver.memory().root_bounds(&job.game));
    let known = if value_only {
        let logged = bounds.get();
        if let Some(said) = bounds_said(logged, komi) {
            observer.note(&format!("{}: the checkpoint holds value {said}, proved by an earlier run", job.spec.id));
        }
        let recorded = existing.filter(|r| r.status == UNSOLVED).map_or((None, None), |r| known_bounds(r, komi));
        meet_bounds(logged, recorded)
    } else {
        (None, None)
    };
    let solve_opts = SolveOptions {
        value_only,
        on_root_move: Some(solved.callback()),
        value_bounds: Some(bounds.clone()),
        known_bounds: known,
        stopped_stats: Some(stopped.clone()),
        ..search_options(job, opts, abort, observer)
    };
    // A run that resumes the checkpoint or the bounds of an unsolved record
    // goes on from its work: the record counts it.
    let earlier = existing
        .filter(|r| {
            r.status == UNSOLVED
                && (checkpoint.as_ref().is_some_and(|c| c.resumed) || known.0.is_some() || known.1.is_some())
        })
        .map(|r| r.earlier_with_this());
    let solve_opts = SolveOptions { memory: checkpoint.as_ref().map(|c| c.saver.memory().clone()), ..solve_opts };
    let load_start = load_average();
    let start = Instant::now();
    let result = solve(&job.game, &solve_opts);
    let seconds = start.elapsed().as_secs_f64();
    if let Some(c) = checkpoint {
        c.close(result.is_ok(), observer);
    }
    let game = &job.game;
    let geo = &game.geo;
    let mut rec = new_record(job, opts, machine, value_only, earlier);
    rec.seconds = seconds;
    rec.load_average = load_span(load_start);
    match result {
        Ok(sol) => {
            let v = sol.value_with_komi(&game.rules);
            rec.value = Some(sol.value);
            rec.value_with_komi = Some(v);
            rec.result = Some(result_phrase(v));
            rec.pv = sol.pv.iter().map(|m| m.name(geo)).collect();
            rec.moves =
                sol.moves.iter().map(|m| MoveRecord { mv: m.mv.name(geo), value: m.value as f64 - komi }).collect();
            rec.best_moves = if rec.moves.is_empty() {
                rec.pv.first().cloned().into_iter().collect()
            } else {
                rec.moves.iter().filter(|m| m.value == v).map(|m| m.mv.clone()).collect()
            };
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
            if value_only {
                let (lo, hi) = bounds.get();
                let testing = bounds.testing();
                // The solve tells the root moves of the one test it stopped in.
                let decided = solve_opts.claim_moves.as_ref().map(|l| l.get()).unwrap_or_default();
                let after_moves = (testing.len() == 1 && !decided.is_empty()).then(|| {
                    let names =
                        |h: Option<bool>| decided.iter().filter(|m| m.holds == h).map(|m| m.mv.name(geo)).collect();
                    TestMoves { holds: names(Some(true)), fails: names(Some(false)), open: names(None) }
                });
                rec.bounds = Some(BoundsRecord {
                    at_least: lo.map(|l| l as f64 - komi),
                    at_most: hi.map(|h| h as f64 - komi),
                    testing: testing.into_iter().map(|b| b as f64 - komi).collect(),
                    after_moves,
                });
            }
        }
    }
    rec.nodes_per_second = rec.nodes as f64 / rec.seconds.max(1e-9);
    Some(rec)
}

/// A record of `job` as a run of it starts: no value, no work yet (the
/// caller fills them in); `earlier`: the runs it resumes.
fn new_record(
    job: &Job,
    opts: &BatchOptions,
    machine: &str,
    value_only: bool,
    earlier: Option<EarlierRuns>,
) -> JobRecord {
    let game = &job.game;
    let geo = &game.geo;
    let komi = game.rules.komi.as_f64();
    JobRecord {
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
        best_moves: vec![],
        value_only,
        bounds: None,
        earlier,
        published: job.spec.published,
        source: job.spec.source.clone(),
        agree: None,
        explanation: None,
        confirmation: None,
        nodes: 0,
        seconds: 0.0,
        nodes_per_second: 0.0,
        max_depth: 0,
        peak_memory_mib: peak_memory_mib(),
        machine: machine.to_string(),
        load_average: None,
        threads: Some(opts.threads.max(1)),
        table_mb: Some(opts.table_mb),
        date: utc_now(),
        gosolve_version: env!("CARGO_PKG_VERSION").into(),
        commit: Some(COMMIT.into()),
    }
}

/// A job under [`BatchOptions::needed`]: only the claim `needed` its
/// parent's value asks of it, in its checkpoint's memory (where there is
/// one), as `gosolve solve --at-most V --checkpoint` would run it. The
/// record (its earlier one where it has one) keeps what the claim proves as
/// a bound and stays unsolved: a job's value is more than a bound. `None`
/// when interrupted.
fn claim_job(
    job: &Job,
    opts: &BatchOptions,
    abort: &Arc<AtomicBool>,
    machine: &str,
    observer: &Arc<dyn BatchObserver>,
    existing: Option<&JobRecord>,
    needed: Needed,
) -> Option<JobRecord> {
    let game = &job.game;
    let komi = game.rules.komi.as_f64();
    let stopped = StatsLog::default();
    let checkpoint = opts.checkpoints.then(|| JobCheckpoint::open(job, opts, observer, None));
    let base = SolveOptions {
        stopped_stats: Some(stopped.clone()),
        memory: checkpoint.as_ref().map(|c| c.saver.memory().clone()),
        ..search_options(job, opts, abort, observer)
    };
    let claim = Claim::with_komi(needed.at_least, needed.value, &game.rules);
    let load_start = load_average();
    let start = Instant::now();
    let result = prove_claim(game, claim, &base);
    let seconds = start.elapsed().as_secs_f64();
    if let Some(c) = checkpoint {
        // The bound goes with the checkpoint too, so that the job's own
        // value-only solve resumed from it starts there.
        if let Ok(r) = &result {
            let (lo, hi) = r.bounds();
            c.saver.memory().root_bounds(game).narrow(lo, hi);
        }
        c.close(false, observer);
    }
    let earlier = existing.filter(|r| r.status == UNSOLVED).map(|r| r.earlier_with_this());
    let value_only = existing.map_or(job.spec.value_only == Some(true), |r| r.value_only);
    let mut rec = match existing.filter(|r| r.status == UNSOLVED) {
        Some(r) => JobRecord {
            earlier,
            machine: machine.to_string(),
            threads: Some(opts.threads.max(1)),
            table_mb: Some(opts.table_mb),
            date: utc_now(),
            gosolve_version: env!("CARGO_PKG_VERSION").into(),
            commit: Some(COMMIT.into()),
            peak_memory_mib: peak_memory_mib(),
            ..r.clone()
        },
        None => new_record(job, opts, machine, value_only, None),
    };
    rec.status = UNSOLVED.into();
    rec.load_average = load_span(load_start);
    let old = rec.bounds.take().unwrap_or_default();
    // The null-window test it is ("value ≤ v" is "value ≥ v + 1" refuted).
    let test = if needed.at_least { needed.value } else { needed.value + 1.0 };
    let mut bounds = BoundsRecord { at_least: old.at_least, at_most: old.at_most, testing: vec![], after_moves: None };
    let geo = &game.geo;
    let stats = match result {
        Ok(r) => {
            let (lo, hi) = r.bounds();
            bounds.at_least = max_bound(bounds.at_least, lo.map(|l| l as f64 - komi));
            bounds.at_most = min_bound(bounds.at_most, hi.map(|h| h as f64 - komi));
            let line: Vec<String> = r.pv.iter().map(|m| m.name(geo)).collect();
            rec.limit = Some(format!(
                "only the claim \"{}\" was run (--needed): it {} (line {})",
                needed.text(),
                if r.holds { "holds" } else { "fails" },
                line.join(" ")
            ));
            r.stats
        }
        Err(SolveError::Interrupted) => return None,
        Err(e) => {
            rec.limit = Some(format!("the claim \"{}\" (--needed): {}", needed.text(), e));
            bounds.testing = vec![test];
            let decided = base.claim_moves.as_ref().map(|l| l.get()).unwrap_or_default();
            if !decided.is_empty() {
                let names = |h: Option<bool>| decided.iter().filter(|m| m.holds == h).map(|m| m.mv.name(geo)).collect();
                bounds.after_moves =
                    Some(TestMoves { holds: names(Some(true)), fails: names(Some(false)), open: names(None) });
            }
            stopped.get().unwrap_or_default()
        }
    };
    rec.bounds = Some(bounds);
    rec.nodes = stats.nodes;
    rec.seconds = if stats.seconds > 0.0 { stats.seconds } else { seconds };
    rec.max_depth = stats.max_depth;
    rec.nodes_per_second = rec.nodes as f64 / rec.seconds.max(1e-9);
    Some(rec)
}

/// The larger of two lower bounds where both are known, else the one known.
fn max_bound(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    a.zip(b).map(|(a, b)| a.max(b)).or(a).or(b)
}

/// The smaller of two upper bounds where both are known, else the one known.
fn min_bound(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    a.zip(b).map(|(a, b)| a.min(b)).or(a).or(b)
}

/// An unsolved record's bounds without komi, as the solver keeps them;
/// a bound that is not a whole number once the komi is taken off (a
/// record edited by hand) is left out.
fn known_bounds(r: &JobRecord, komi: f64) -> (Option<i32>, Option<i32>) {
    let whole = |b: Option<f64>| b.map(|x| x + komi).filter(|x| x.fract() == 0.0 && x.abs() <= 64.0).map(|x| x as i32);
    r.bounds.as_ref().map_or((None, None), |b| (whole(b.at_least), whole(b.at_most)))
}

/// Bounds without komi, in the record's words with it (`+1 to +18`).
fn bounds_said((lo, hi): (Option<i32>, Option<i32>), komi: f64) -> Option<String> {
    numbers::bounds(lo.map(|l| l as f64 - komi), hi.map(|h| h as f64 - komi))
}

/// The load average at the start (if read) and now.
fn load_span(start: Option<f64>) -> Option<Vec<f64>> {
    Some(vec![start?, load_average()?])
}

/// The kinds of check of a confirmation, in the order they run.
const CHECKS: [&str; 3] = ["at-least", "at-most", "value"];

/// Confirm the record's value: run each check not yet passed (see the
/// module `batch`), store them in the record and set its status. An
/// interrupted run keeps the checks done. `machine`: what each check says
/// it ran on.
fn confirm(
    job: &Job,
    opts: &BatchOptions,
    abort: &Arc<AtomicBool>,
    machine: &str,
    observer: &Arc<dyn BatchObserver>,
    rec: &mut JobRecord,
    interim: &dyn Fn(&JobRecord),
) {
    let v = rec.value_with_komi.expect("a value to confirm");
    let with = job.second_configuration();
    // The threads of the first solve, from which `OtherThreads` differs.
    let solve_threads = rec.threads.unwrap_or(opts.threads).max(1);
    // Checks of another value no longer count, nor a value check that may
    // have searched as the solve did (the claims' checks do not depend on it).
    let differs = rec.value_check_differs(job);
    let mut conf = match rec.confirmation.take().filter(|c| c.value == v) {
        Some(mut c) if !differs => {
            c.checks.retain(|k| k.check != "value");
            Confirmation { with: with.name().into(), ..c }
        }
        Some(c) => c,
        None => Confirmation { value: v, with: with.name().into(), checks: vec![], confirmed: None },
    };
    // The value is kept before the checks, whose hours a crash would otherwise take with it.
    settle(rec, conf.clone());
    interim(rec);
    for kind in CHECKS {
        if conf.check(kind).is_some_and(|c| c.outcome == HOLDS) {
            continue;
        }
        if abort.load(Ordering::Relaxed) {
            break;
        }
        observer.note(&format!("{}: confirming {}: {}", job.spec.id, signed(v), check_claim(kind, v, with)));
        let Some(check) = run_check(job, opts, abort, observer, kind, v, with, solve_threads) else {
            break;
        };
        let check = CheckRecord { machine: Some(machine.into()), ..check };
        observer.note(&format!(
            "{}: {}: {} ({} nodes, {:.1} s)",
            job.spec.id, check.claim, check.outcome, check.nodes, check.seconds
        ));
        conf.checks.retain(|c| c.check != kind);
        conf.checks.push(check);
        settle(rec, conf.clone());
        interim(rec);
    }
    settle(rec, conf);
}

/// Put the confirmation in the record, with its verdict and the record's status.
fn settle(rec: &mut JobRecord, mut conf: Confirmation) {
    conf.checks.sort_by_key(|c| CHECKS.iter().position(|k| *k == c.check));
    conf.confirmed = if conf.checks.iter().any(|c| c.outcome == FAILS) {
        Some(false)
    } else if CHECKS.iter().all(|k| conf.check(k).is_some_and(|c| c.outcome == HOLDS)) {
        Some(true)
    } else {
        None
    };
    rec.status = match conf.confirmed {
        Some(true) => SOLVED,
        Some(false) => CONTRADICTED,
        None => UNCONFIRMED,
    }
    .into();
    rec.confirmation = Some(conf);
}

fn check_claim(kind: &str, v: f64, with: ConfirmWith) -> String {
    match kind {
        "at-least" => format!("value >= {}", signed(v)),
        "at-most" => format!("value <= {}", signed(v)),
        _ => format!("value = {} ({}, value only)", signed(v), with.name()),
    }
}

/// What a decided check found: whether it agrees with the value, the value
/// (a `value` check), the line and the work.
type CheckFound = (bool, Option<f64>, Vec<String>, Stats);

/// One check, on a fresh table (or its own checkpoint); `None` when interrupted.
/// `solve_threads`: the first solve's threads, which an `OtherThreads` value check avoids.
#[allow(clippy::too_many_arguments)]
fn run_check(
    job: &Job,
    opts: &BatchOptions,
    abort: &Arc<AtomicBool>,
    observer: &Arc<dyn BatchObserver>,
    kind: &str,
    v: f64,
    with: ConfirmWith,
    solve_threads: usize,
) -> Option<CheckRecord> {
    let game = &job.game;
    let geo = &game.geo;
    let stopped = StatsLog::default();
    let base = SolveOptions { stopped_stats: Some(stopped.clone()), ..search_options(job, opts, abort, observer) };
    let checkpoint = opts.checkpoints.then(|| JobCheckpoint::open(job, opts, observer, Some(kind)));
    let base = SolveOptions { memory: checkpoint.as_ref().map(|c| c.saver.memory().clone()), ..base };
    let load_start = load_average();
    let threads = match (kind, with) {
        ("value", ConfirmWith::OtherThreads) => ConfirmWith::other_threads(solve_threads),
        _ => base.threads,
    };
    let (result, engine): (Result<CheckFound, SolveError>, &str) = if kind == "value" {
        // The first test is the value it confirms ("≥ v", then "≥ v + 1"):
        // a guess only orders the tests, so the check still proves its
        // value both ways, without the climb from the job's own guess that
        // the first solve needed (4x6 from Drange's +1 to +8).
        // Resumed, it starts from what its earlier runs proved (its own
        // checkpoint's log: the same configuration, its own table).
        let log = checkpoint.as_ref().map(|c| c.saver.memory().root_bounds(game));
        let so = SolveOptions {
            guess: Some(Claim::guess_with_komi(v, &game.rules)),
            known_bounds: log.as_ref().map_or((None, None), |l| l.get()),
            value_bounds: log,
            value_only: true,
            engine: if with == ConfirmWith::AlphaBeta { Engine::AlphaBeta } else { Engine::Portfolio },
            no_path_symmetry: with == ConfirmWith::NoPathSymmetry,
            threads,
            ..base
        };
        let r = solve(game, &so).map(|sol| {
            let w = sol.value_with_komi(&game.rules);
            (w == v, Some(w), sol.pv.iter().map(|m| m.name(geo)).collect(), sol.stats)
        });
        (r, with.name())
    } else {
        let claim = Claim::with_komi(kind == "at-least", v, &game.rules);
        let r = prove_claim(game, claim, &base)
            .map(|c| (c.holds, None, c.pv.iter().map(|m| m.name(geo)).collect(), c.stats));
        (r, "solver")
    };
    if let Some(c) = checkpoint {
        c.close(result.is_ok(), observer);
    }
    let (outcome, value, pv, stats) = match result {
        Ok((agrees, value, pv, stats)) => (if agrees { HOLDS } else { FAILS }, value, pv, stats),
        Err(SolveError::Interrupted) => return None,
        Err(_) => (UNSOLVED, None, vec![], stopped.get().unwrap_or_default()),
    };
    Some(CheckRecord {
        check: kind.into(),
        claim: check_claim(kind, v, with),
        engine: engine.into(),
        outcome: outcome.into(),
        value,
        pv,
        nodes: stats.nodes,
        seconds: stats.seconds,
        threads,
        table_mb: opts.table_mb,
        date: utc_now(),
        commit: COMMIT.into(),
        machine: None, // `confirm` names it
        load_average: load_span(load_start),
    })
}

/// A job's checkpoint (see [`BatchOptions::checkpoints`]): its memory, read
/// back from `<out_dir>/checkpoints/<id>.ck` where an earlier run left one,
/// and saved there every [`CHECKPOINT_EVERY`] while the job runs.
struct JobCheckpoint {
    saver: Autosave,
    /// Whether it was read back (an earlier run's), not fresh.
    resumed: bool,
    /// `<out_dir>/seeds/<id>.ck`: the trim ([`SEED_KEEP`]) of the
    /// checkpoint, written at each save (periodic, and when the job stops),
    /// small enough to commit beside its record; a run with no checkpoint
    /// of the job's own (a fresh clone) resumes from it. A whole checkpoint is hundreds of MB on a long job,
    /// and fresh checkouts lost every one until the seeds were kept.
    seed: PathBuf,
}

/// What a seed keeps of a job's checkpoint: the results with at least
/// 4,096 nodes behind them and the bounds proved on the root, no guide
/// numbers: the trim that kept the most of a stopped job's worth for its
/// size (`results/solve.md`, 2026-12-02).
pub const SEED_KEEP: Keep = Keep { guide_numbers: false, ..Keep::min_work(4096) };

/// How often a job's checkpoint is saved while it runs, by default.
pub const CHECKPOINT_EVERY: Duration = Duration::from_secs(600);

impl JobCheckpoint {
    /// The job's checkpoint: read back if one is there (a file that cannot
    /// be used is reported and replaced: the job then starts afresh, which
    /// costs only time), else a fresh memory.
    /// `check`: the checkpoint of a confirmation's check, `<id>.confirm-<check>.ck`.
    fn open(job: &Job, opts: &BatchOptions, observer: &Arc<dyn BatchObserver>, check: Option<&str>) -> JobCheckpoint {
        let id = &job.spec.id;
        let name = match check {
            Some(c) => format!("{id}.confirm-{c}.ck"),
            None => format!("{id}.ck"),
        };
        let path = opts.out_dir.join("checkpoints").join(&name);
        let seed = opts.out_dir.join("seeds").join(&name);
        let game = &job.game;
        // No checkpoint of its own (a fresh clone): its seed, if one was kept.
        let from = if !path.exists() && seed.exists() { &seed } else { &path };
        let (memory, resumed) = match checkpoint::open(from, &game.geo, &game.rules, opts.table_mb) {
            Ok((m, read)) => {
                if let Some(s) = &read {
                    observer.note(&format!("{id}: resumed from {} ({} results)", from.display(), s.results));
                }
                (m, read.is_some())
            }
            Err(e) => {
                observer.note(&format!("{id}: {e}; starting afresh"));
                (Memory::new(game.geo, &game.rules, opts.table_mb), false)
            }
        };
        let (o, who, p, sp, m) = (observer.clone(), id.clone(), path.clone(), seed.clone(), memory.clone());
        let every = opts.checkpoint_every.unwrap_or(CHECKPOINT_EVERY);
        // Each periodic save refreshes the seed too (on the saver's thread,
        // so the saves' spacing counts its time): a run cut off by the loss
        // of its machine then leaves a seed in the working tree, not just
        // the checkpoint nobody keeps.
        let saver = Autosave::start(memory, path, every, move |r| match r {
            Ok(s) => {
                o.note(&format!("{who}: {}", s.saved_line(&p)));
                o.note(&format!("{who}: {}", write_seed(&m, &sp)));
            }
            Err(e) => o.note(&format!("{who}: {e}")),
        });
        JobCheckpoint { saver, resumed, seed }
    }

    /// The job ended: solved, its checkpoint and seed are removed (its
    /// record holds the answer); else it is saved for the next run, and its
    /// trim kept as the seed.
    fn close(self, solved: bool, observer: &Arc<dyn BatchObserver>) {
        let path = self.saver.path().to_path_buf();
        let memory = self.saver.memory().clone();
        if solved {
            self.saver.abandon();
            let _ = std::fs::remove_file(path);
            let _ = std::fs::remove_file(&self.seed);
            return;
        }
        match self.saver.finish() {
            Ok(s) => observer.note(&s.saved_line(&path)),
            Err(e) => return observer.note(&e.to_string()),
        }
        observer.note(&write_seed(&memory, &self.seed));
    }
}

/// Write `seed`, the trim ([`SEED_KEEP`]) of the job's `memory`, straight
/// from memory (a trim of the checkpoint just saved would read the whole
/// file back); what it did, as a line to note.
fn write_seed(memory: &Memory, seed: &Path) -> String {
    // The store's atomic writer makes `seeds/` where it is missing.
    match merge::save_trim(memory, seed, SEED_KEEP) {
        Ok(s) => format!(
            "seed {}: {} results kept ({} bytes) in {:.1} s",
            seed.display(),
            numbers::group_digits(s.results as u128),
            numbers::group_digits(s.bytes as u128),
            s.seconds
        ),
        Err(e) => format!("seed {}: {e}", seed.display()),
    }
}
