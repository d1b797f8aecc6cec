//! The Slurm backend (`--backend slurm`).
//!
//! Inside an allocation (`SLURM_JOB_ID` set) each run is a job step,
//! `srun --exclusive -N1 -n1 -c T <worker-bin> worker FILE`, started by the
//! same process pool as the local backend ([`super::local::ProcessPool`]);
//! before the first, one step probes the nodes (`worker --probe`): the work
//! dir must be shared (the probe's file visible here) and the worker of this
//! version.
//!
//! Outside one, the runs are the tasks of `sbatch` job arrays: a list file
//! and a script in `WORK/slurm/`, `--array=0-(n-1)%N` (at most N tasks at
//! once over all arrays), each task running the unit on its line. The
//! manager watches the tasks with `squeue` (`-t all`, so a task just ended
//! shows its state; accounting is not needed) and the answers in the work
//! dir; a task cancelled, failed or preempted without an answer is run
//! again by the scheduler. A probe job checks, while the work goes on, that
//! the nodes see the work dir and run this version (tasks that end without
//! an answer before it has told are reported after it, so that a work dir
//! the nodes do not share is the error given, not the units' failures). The jobs submitted are
//! kept in `WORK/slurm/jobs.json`, so a manager started again watches the
//! tasks an earlier one left running instead of sending their units twice.
//!
//! A distributed solve's workers live across units instead
//! ([`super::persistent`]): job steps inside an allocation, and outside one
//! a task per worker (`sbatch --array=K`, one task each, so a task
//! cancelled is replaced alone) that serves unit after unit.

use super::local::{check_probe, last_line, probe_file, run_with_timeout, ProcessPool};
use super::slurm_commands::{is_terminal, need, quoted, sbatch, scancel, squeue_states};
use super::{job_name, Backend, BackendOptions, Event, Launch};
use crate::distributed::error::DistError;
use crate::distributed::workdir::WorkDir;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// Open the Slurm backend: job steps inside an allocation, job arrays outside.
pub fn open(opts: &BackendOptions, dir: &WorkDir) -> Result<Box<dyn Backend>, DistError> {
    let name = job_name(dir);
    if std::env::var_os("SLURM_JOB_ID").is_some() {
        need("srun")?;
        probe_step(opts, dir, &name)?;
        if opts.persistent {
            return Ok(Box::new(super::persistent::SlotPool::steps(opts, dir, &name)));
        }
        return Ok(Box::new(ProcessPool::steps(opts, &name)));
    }
    for cmd in ["sbatch", "squeue", "scancel"] {
        need(cmd)?;
    }
    if opts.persistent {
        return Ok(Box::new(super::persistent::SlotPool::tasks(opts, dir, &name)?));
    }
    Ok(Box::new(Arrays::new(opts, dir, name)?))
}

/// Wait up to `grace` for `file` to show (a shared filesystem's cache).
fn visible_within(file: &Path, grace: Duration) -> bool {
    let until = Instant::now() + grace;
    loop {
        if file.exists() {
            return true;
        }
        if Instant::now() >= until {
            return false;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// One job step runs the worker's probe: it must end within the timeout,
/// its file must show here, and its version must be this one.
fn probe_step(opts: &BackendOptions, dir: &WorkDir, name: &str) -> Result<(), DistError> {
    let file = probe_file(dir);
    let bin = &opts.worker_bin;
    let mut cmd = Command::new("srun");
    cmd.args(["-N1", "-n1", "-c1", &format!("--job-name={name}-probe")])
        .arg(bin)
        .arg("worker")
        .arg("--probe")
        .arg(&file);
    let bad = |detail: String| DistError::BadWorker { bin: bin.display().to_string(), detail };
    let out = run_with_timeout(&mut cmd, opts.probe_timeout)
        .map_err(|e| bad(format!("srun: {e}")))?
        .ok_or_else(|| bad(format!("the probe step did not end within {} s", opts.probe_timeout.as_secs())))?;
    if !out.status.success() {
        return Err(bad(format!("the probe step failed: {}", last_line(&out.stderr))));
    }
    if !visible_within(&file, opts.answer_grace) {
        return Err(DistError::NotShared {
            dir: dir.root().display().to_string(),
            detail: format!(
                "a probe step wrote {} on a node and it is not visible here after {} s",
                file.display(),
                opts.answer_grace.as_secs()
            ),
        });
    }
    let seen = check_probe(&file, bin);
    let _ = std::fs::remove_file(&file);
    seen.map(|_| ())
}

/// A submitted array: its job id and the runs of its tasks, in order.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct ArrayJob {
    job_id: String,
    runs: Vec<(String, u32)>,
    #[serde(skip)]
    tasks: Vec<Task>,
}

/// What the manager knows of one task.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Task {
    #[default]
    Waiting,
    Running,
    Ended,
}

/// The probe job of an array backend, until it has told what it had to.
struct ProbeJob {
    job_id: String,
    file: PathBuf,
    log: PathBuf,
    ended: Option<Instant>,
}

/// Job arrays submitted with `sbatch` and watched with `squeue`.
struct Arrays {
    dir: WorkDir,
    bin: PathBuf,
    workers: usize,
    threads: usize,
    name: String,
    grace: Duration,
    poll: Duration,
    jobs: Vec<ArrayJob>,
    queue: Vec<Launch>,
    probe: Option<ProbeJob>,
    squeue_failures: u32,
    events: Vec<Event>,
    /// Tasks that ended without an answer while the probe had not told yet:
    /// reported once it has (a work dir the nodes do not share makes every
    /// task end so, and that is the error to give, not the units' failures).
    held: Vec<Event>,
}

impl Arrays {
    fn new(opts: &BackendOptions, dir: &WorkDir, name: String) -> Result<Arrays, DistError> {
        let mut a = Arrays {
            dir: dir.clone(),
            bin: opts.worker_bin.clone(),
            workers: opts.workers,
            threads: opts.threads,
            name,
            grace: opts.answer_grace,
            poll: opts.poll,
            jobs: Vec::new(),
            queue: Vec::new(),
            probe: None,
            squeue_failures: 0,
            events: Vec::new(),
            held: Vec::new(),
        };
        a.submit_probe()?;
        Ok(a)
    }

    fn jobs_file(&self) -> PathBuf {
        self.dir.slurm_dir().join("jobs.json")
    }

    fn save_jobs(&self) -> Result<(), DistError> {
        let path = self.jobs_file();
        crate::store::write_json_atomic(&path, &self.jobs)
            .map_err(|e| DistError::io(format!("write {}", path.display()), e))
    }

    fn submit_probe(&mut self) -> Result<(), DistError> {
        let file = probe_file(&self.dir);
        let log = self.dir.logs().join(format!("probe-{}.log", file.file_stem().unwrap_or_default().to_string_lossy()));
        let wrap = format!("exec {} worker --probe {}", quoted(&self.bin), quoted(&file));
        let job_id = sbatch(&[
            format!("--job-name={}-probe", self.name),
            "-n1".into(),
            "-c1".into(),
            format!("--output={}", log.display()),
            format!("--wrap={wrap}"),
        ])?;
        self.probe = Some(ProbeJob { job_id, file, log, ended: None });
        Ok(())
    }

    /// Tasks submitted and not over.
    fn live(&self) -> usize {
        self.jobs.iter().flat_map(|j| &j.tasks).filter(|t| **t != Task::Ended).count()
    }

    /// Submit the queued runs as one array, as many at once as the workers
    /// left allow.
    fn submit_queue(&mut self) -> Result<(), DistError> {
        let room = self.workers.saturating_sub(self.live());
        if self.queue.is_empty() || room == 0 {
            return Ok(());
        }
        let runs = std::mem::take(&mut self.queue);
        let n = self.jobs.len() + 1;
        let stamp = format!("{}-{}", std::process::id(), n);
        let list = self.dir.slurm_dir().join(format!("array-{stamp}.list"));
        let script = self.dir.slurm_dir().join(format!("array-{stamp}.sh"));
        let lines: String = runs.iter().map(|l| format!("{}\t{}\n", l.unit.display(), l.log.display())).collect();
        let io = |p: &Path, e: std::io::Error| DistError::io(format!("write {}", p.display()), e);
        crate::store::write_text_atomic(&list, &lines).map_err(|e| io(&list, e))?;
        let text = format!(
            "#!/bin/sh\n\
             # Written by gosolve: task i of this array runs the unit on line i+1 of\n\
             # {list}, its output appended to the unit's log.\n\
             line=$(sed -n \"$((SLURM_ARRAY_TASK_ID + 1))p\" {ql})\n\
             unit=$(printf '%s' \"$line\" | cut -f1)\n\
             log=$(printf '%s' \"$line\" | cut -f2)\n\
             exec {bin} worker \"$unit\" >>\"$log\" 2>&1\n",
            list = list.display(),
            ql = quoted(&list),
            bin = quoted(&self.bin),
        );
        crate::store::write_text_atomic(&script, &text).map_err(|e| io(&script, e))?;
        let job_id = sbatch(&[
            format!("--job-name={}", self.name),
            format!("--array=0-{}%{}", runs.len() - 1, room),
            "-n1".into(),
            format!("-c{}", self.threads),
            format!("--output={}", self.dir.logs().join("slurm-%A_%a.out").display()),
            script.display().to_string(),
        ])?;
        let tasks = vec![Task::Waiting; runs.len()];
        self.jobs.push(ArrayJob { job_id, runs: runs.iter().map(|l| (l.id.clone(), l.attempt)).collect(), tasks });
        self.save_jobs()
    }

    /// `squeue` of this work dir's jobs (those just over included): task
    /// ("123_4", or "123" for the probe) → state. `None`: squeue failed.
    fn squeue(&mut self) -> Result<Option<HashMap<String, String>>, DistError> {
        let names = format!("{n},{n}-probe", n = self.name);
        squeue_states(&names, &mut self.squeue_failures, &mut self.events)
    }

    /// The probe job: once over, its file must show here, of this version.
    fn check_probe_job(&mut self, states: &HashMap<String, String>) -> Result<(), DistError> {
        let Some(p) = &mut self.probe else { return Ok(()) };
        let state = states.get(&p.job_id).cloned();
        if p.file.exists() {
            let seen = check_probe(&p.file, &self.bin);
            let _ = std::fs::remove_file(&p.file);
            self.probe = None;
            return seen.map(|_| ());
        }
        if state.as_deref().is_some_and(|s| !is_terminal(s)) {
            return Ok(());
        }
        let ended = *p.ended.get_or_insert_with(Instant::now);
        if ended.elapsed() < self.grace {
            return Ok(());
        }
        let how = state.unwrap_or_else(|| "over".into());
        let log = std::fs::read(&p.log).ok().map(|b| last_line(&b)).filter(|l| !l.is_empty());
        Err(match log {
            // The node wrote its log here, so the dir is shared: the worker failed.
            Some(line) => DistError::BadWorker {
                bin: self.bin.display().to_string(),
                detail: format!("the probe job {} is {how}: {line}", p.job_id),
            },
            None => DistError::NotShared {
                dir: self.dir.root().display().to_string(),
                detail: format!(
                    "the probe job {} is {how}, and neither its file nor its log is visible here after {} s",
                    p.job_id,
                    self.grace.as_secs()
                ),
            },
        })
    }

    fn cancel(&self, ids: &[String]) {
        if ids.is_empty() {
            return;
        }
        scancel(ids);
    }
}

impl Drop for Arrays {
    /// A probe job still queued when the work is over is not wanted.
    fn drop(&mut self) {
        if let Some(p) = self.probe.take() {
            self.cancel(&[p.job_id]);
        }
    }
}

impl Backend for Arrays {
    fn describe(&self) -> String {
        format!("Slurm job arrays, at most {} task(s) of {} CPU(s) at once ({})", self.workers, self.threads, self.name)
    }

    fn launch(&mut self, runs: Vec<Launch>) -> Result<(), DistError> {
        self.queue.extend(runs);
        self.submit_queue()
    }

    fn poll(&mut self) -> Result<Vec<Event>, DistError> {
        if self.live() > 0 || self.probe.is_some() {
            if let Some(states) = self.squeue()? {
                self.check_probe_job(&states)?;
                let mut events = Vec::new();
                for job in &mut self.jobs {
                    for (i, task) in job.tasks.iter_mut().enumerate() {
                        if *task == Task::Ended {
                            continue;
                        }
                        let (id, attempt) = job.runs[i].clone();
                        match states.get(&format!("{}_{}", job.job_id, i)).map(String::as_str) {
                            Some(s) if is_terminal(s) => {
                                *task = Task::Ended;
                                events.push(Event::Ended {
                                    id,
                                    attempt,
                                    how: format!("Slurm task {}_{i} {s}", job.job_id),
                                });
                            }
                            None => {
                                *task = Task::Ended;
                                events.push(Event::Ended {
                                    id,
                                    attempt,
                                    how: format!("Slurm task {}_{i} left the queue", job.job_id),
                                });
                            }
                            Some("RUNNING") | Some("COMPLETING") if *task == Task::Waiting => {
                                *task = Task::Running;
                                events.push(Event::Started { id, attempt });
                            }
                            Some(_) => {}
                        }
                    }
                }
                for e in events {
                    match &e {
                        Event::Ended { id, .. } if self.probe.is_some() && !self.dir.answer_path(id).exists() => {
                            self.held.push(e)
                        }
                        _ => self.events.push(e),
                    }
                }
            }
        }
        if self.probe.is_none() {
            self.events.append(&mut self.held);
        }
        self.submit_queue()?;
        Ok(std::mem::take(&mut self.events))
    }

    fn in_flight(&self) -> usize {
        self.live() + self.queue.len() + self.held.len()
    }

    fn adopt(&mut self) -> Result<Vec<(String, u32)>, DistError> {
        let Ok(text) = std::fs::read_to_string(self.jobs_file()) else { return Ok(Vec::new()) };
        let Ok(mut jobs) = serde_json::from_str::<Vec<ArrayJob>>(&text) else { return Ok(Vec::new()) };
        let Some(states) = self.squeue()? else { return Ok(Vec::new()) };
        let mut adopted = Vec::new();
        for job in &mut jobs {
            job.tasks = (0..job.runs.len())
                .map(|i| match states.get(&format!("{}_{}", job.job_id, i)) {
                    Some(s) if !is_terminal(s) => {
                        adopted.push(job.runs[i].clone());
                        if s == "RUNNING" {
                            Task::Running
                        } else {
                            Task::Waiting
                        }
                    }
                    _ => Task::Ended,
                })
                .collect();
        }
        jobs.retain(|j| j.tasks.iter().any(|t| *t != Task::Ended));
        self.jobs = jobs;
        self.save_jobs()?;
        Ok(adopted)
    }

    fn stop_all(&mut self) {
        self.queue.clear();
        let mut ids: Vec<String> =
            self.jobs.iter().filter(|j| j.tasks.iter().any(|t| *t != Task::Ended)).map(|j| j.job_id.clone()).collect();
        ids.extend(self.probe.as_ref().map(|p| p.job_id.clone()));
        self.cancel(&ids);
        // Give the workers the time to save their checkpoints, so that a
        // manager started again right away does not run a unit twice.
        let until = Instant::now() + Duration::from_secs(60);
        while Instant::now() < until {
            match self.squeue() {
                Ok(Some(states)) if !states.values().any(|s| !is_terminal(s)) => break,
                _ => std::thread::sleep(Duration::from_millis(500)),
            }
        }
        for job in &mut self.jobs {
            job.tasks.iter_mut().for_each(|t| *t = Task::Ended);
        }
        self.probe = None;
    }

    fn answer_grace(&self) -> Duration {
        self.grace
    }

    fn poll_interval(&self) -> Duration {
        self.poll
    }
}
