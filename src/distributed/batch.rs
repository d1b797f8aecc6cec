//! `gosolve batch --workers N [--backend slurm]`: each pending job of a
//! batch is a unit, run by a worker with the batch's own code
//! ([`crate::batch::run_job`]); the records come back in the answers and go
//! through the batch's own rules and files ([`crate::batch::run_batch_with`]:
//! `<out-dir>/batch/<id>.json`, `summary.md`, a solved record never
//! replaced by an unsolved one). A run that ends without an answer is run
//! again (up to the retries); with checkpoints, a job that hits its limit is
//! sent again too, and resumes from its checkpoint.

use super::protocol::{BatchWork, Outcome, Unit, UnitResult, Work};
use super::scheduler::{Observer, Reuse, RunOptions, Scheduler, Wait};
use super::{backend, DistError, Setup, WorkDir};
use crate::batch::{
    run_batch_with, BatchError, BatchObserver, BatchOptions, BatchReport, Job, JobRecord, JobRunner, SOLVED,
};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

/// Run a batch on workers: `base` is the directory the manifest's SGF
/// paths are relative to. The report is a batch's report; jobs whose units
/// failed after every retry are an error (after the other records and the
/// summary are written).
pub fn run_batch(
    jobs: &[Job],
    base: &Path,
    opts: &BatchOptions,
    observer: Arc<dyn BatchObserver>,
    setup: &Setup,
) -> Result<BatchReport, DistError> {
    let dir = WorkDir::open(&setup.work_dir)?;
    let lock = dir.lock()?;
    let abs = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let runner = Runner {
        dir,
        setup: setup.clone(),
        base: abs(base),
        out_dir: abs(&opts.out_dir),
        failed: Mutex::new(Vec::new()),
        error: Mutex::new(None),
    };
    let report = run_batch_with(jobs, opts, observer, &runner);
    drop(lock);
    if let Some(e) = runner.error.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    let report = report.map_err(|e| DistError::Other(e.to_string()))?;
    let failed = runner.failed.into_inner().unwrap_or_else(|e| e.into_inner());
    if let Some(first) = failed.first() {
        return Err(DistError::Failed {
            count: failed.len(),
            first: first.clone(),
            logs: setup.work_dir.join("logs").display().to_string(),
        });
    }
    Ok(report)
}

struct Runner {
    dir: WorkDir,
    setup: Setup,
    base: PathBuf,
    out_dir: PathBuf,
    failed: Mutex<Vec<String>>,
    error: Mutex<Option<DistError>>,
}

/// The scheduler's events, told to the batch's observer.
struct Tell(Arc<dyn BatchObserver>);
impl Observer for Tell {
    fn unit_started(&self, id: &str, attempt: u32) {
        self.0.job_started(id);
        if attempt > 1 {
            self.0.note(&format!("{id}: run {attempt}"));
        }
    }
    fn unit_retried(&self, id: &str, why: &str) {
        self.0.note(&format!("{id}: {why}; running it again"));
    }
    fn note(&self, line: &str) {
        self.0.note(line);
    }
}

impl Runner {
    fn unit(&self, job: &Job, opts: &BatchOptions) -> Unit {
        let work = Work::BatchJob(BatchWork {
            job: job.spec.clone(),
            base: self.base.display().to_string(),
            spec_hash: job.hash.clone(),
            out_dir: self.out_dir.display().to_string(),
            checkpoints: opts.checkpoints,
            checkpoint_every: opts.checkpoint_every.map(|d| d.as_secs_f64()),
            time_limit: opts.time_limit.map(|d| d.as_secs_f64()),
            node_limit: opts.node_limit,
            confirm: opts.confirm,
            claim: opts.claims.get(&job.spec.id).copied(),
        });
        Unit::new(&job.spec.id, &job.game.geo, self.setup.backend.threads, opts.table_mb, work)
    }

    fn go(
        &self,
        jobs: &[Job],
        pending: &[usize],
        opts: &BatchOptions,
        abort: &Arc<AtomicBool>,
        observer: &Arc<dyn BatchObserver>,
        done: &(dyn Fn(usize, JobRecord) + Sync),
    ) -> Result<bool, DistError> {
        let backend = backend::open(&self.setup.backend, &self.dir)?;
        let run = RunOptions { abort: Some(abort.clone()), ..self.setup.run.clone() };
        let mut s = Scheduler::new(self.dir.clone(), backend, run, Arc::new(Tell(observer.clone())))?;
        let reuse = if opts.force { Reuse::Nothing } else { Reuse::Decided };
        let mut index = HashMap::new();
        for &i in pending {
            index.insert(jobs[i].spec.id.clone(), i);
            s.submit(self.unit(&jobs[i], opts), reuse)?;
        }
        let mut resent: HashMap<String, u32> = HashMap::new();
        loop {
            match s.wait()? {
                Wait::Finished(list) => {
                    for f in list {
                        let id = f.unit.id.clone();
                        let Some(&i) = index.get(&id) else { continue };
                        match (f.answer.outcome, f.answer.result) {
                            (Outcome::Failed { reason, .. }, _) => {
                                observer.note(&format!("{id}: failed: {reason}"));
                                self.failed.lock().unwrap_or_else(|e| e.into_inner()).push(format!("{id}: {reason}"));
                            }
                            (_, Some(UnitResult::BatchJob { record })) => {
                                let n = resent.entry(id.clone()).or_default();
                                if record.status != SOLVED && opts.checkpoints && *n < self.setup.run.retries {
                                    *n += 1;
                                    let limit = record.limit.as_deref().unwrap_or("its limit");
                                    observer.note(&format!("{id}: {limit}; sent again, to resume from its checkpoint"));
                                    s.resend(&id)?;
                                } else {
                                    done(i, *record);
                                }
                            }
                            (o, _) => {
                                let why = format!("{id}: its answer ({}) has no record", o.name());
                                self.failed.lock().unwrap_or_else(|e| e.into_inner()).push(why);
                            }
                        }
                    }
                }
                Wait::Idle => return Ok(false),
                Wait::Interrupted | Wait::Deadline => return Ok(true),
            }
        }
    }
}

impl JobRunner for Runner {
    fn run(
        &self,
        jobs: &[Job],
        pending: &[usize],
        opts: &BatchOptions,
        abort: &Arc<AtomicBool>,
        observer: &Arc<dyn BatchObserver>,
        done: &(dyn Fn(usize, JobRecord) + Sync),
    ) -> Result<bool, BatchError> {
        self.go(jobs, pending, opts, abort, observer, done).map_err(|e| {
            let line = e.to_string();
            *self.error.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
            BatchError::Runner(line)
        })
    }
}
