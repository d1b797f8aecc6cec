//! Long-lived workers (what a distributed solve uses): each of N slots runs
//! one `<worker-bin> worker --serve WORK --slot NAME` (a child process, a
//! job step `srun --exclusive ...` of it inside a Slurm allocation, or a
//! Slurm task of its own outside one) for as long as there is work, and
//! is given its units one at a time through its inbox,
//! `WORK/workers/NAME/inbox/<id>.json` (written atomically). The worker
//! writes the answer and only then removes the unit from its inbox: that
//! is the run's end here, and the scheduler reads the answer as for any
//! backend. A worker keeps its table between the claims of a solve, which
//! spares each unit the read of the whole shared checkpoint into a cold
//! table (see [`crate::distributed::worker::serve`]).
//!
//! A worker that dies (killed, out of memory, `scancel` of its step or
//! task) ends its unit's run without an answer, so the scheduler sends the unit again;
//! the slot starts a new worker (its inbox and status cleared) when it is
//! next given a unit. Workers are stopped as those of the process pool are
//! ([`super::local`]): asked (the exit file, SIGTERM; a worker in a unit
//! saves its checkpoint), then killed after a grace; and each is told when
//! the manager dies. Slurm tasks outlive their manager: their job ids are
//! kept in `WORK/slurm/slots.json`, and a manager started again stops those
//! an earlier one left (their units are sent again). A task that runs and
//! leaves no status in the work dir within the answer grace (and 30 s)
//! means a work dir the nodes do not share, or a worker that cannot start:
//! one line, as the array backend's probe says it.

use super::local::{describe_status, detach, last_line, terminate};
use super::slurm_commands::{is_terminal, quoted, sbatch, scancel, squeue_states};
use super::{Backend, BackendOptions, Event, Launch};
use crate::distributed::error::DistError;
use crate::distributed::protocol::Assignment;
use crate::distributed::workdir::WorkDir;
use std::collections::VecDeque;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// How long stopped workers get to save their checkpoints before they are killed.
const STOP_GRACE: Duration = Duration::from_secs(60);

/// A slot's worker: a child process (local, or `srun`), or a Slurm task.
enum Worker {
    Process(Child),
    Task {
        /// "JOB_K", as squeue names it.
        id: String,
        /// When squeue first said it runs.
        running: Option<Instant>,
    },
}

/// One slot: its name, its worker (if started) and the run it was given.
struct Slot {
    name: String,
    child: Option<Worker>,
    current: Option<Launch>,
}

/// How slot workers are started: processes, or Slurm tasks.
enum Mode {
    /// The program and the arguments before `--serve WORK --slot NAME`.
    Processes(Vec<OsString>),
    Tasks {
        bin: PathBuf,
        threads: usize,
        job_name: String,
        squeue_failures: u32,
    },
}

/// N long-lived workers fed through their inboxes.
pub struct SlotPool {
    what: String,
    mode: Mode,
    dir: WorkDir,
    slots: Vec<Slot>,
    queue: VecDeque<Launch>,
    events: Vec<Event>,
    grace: Duration,
    poll: Duration,
}

impl SlotPool {
    /// `opts.workers` long-lived local workers.
    pub fn local(opts: &BackendOptions, dir: &WorkDir) -> SlotPool {
        let prefix = vec![opts.worker_bin.clone().into(), "worker".into()];
        let what = format!("{} long-lived local worker(s)", opts.workers);
        // Polled often: a free worker waits for its next unit.
        SlotPool::new(what, Mode::Processes(prefix), opts, dir, opts.poll.min(Duration::from_millis(20)))
    }

    /// `opts.workers` long-lived Slurm job steps inside the allocation,
    /// each `srun --exclusive -N1 -n1 -c T` of the worker.
    pub fn steps(opts: &BackendOptions, dir: &WorkDir, name: &str) -> SlotPool {
        let mut prefix: Vec<OsString> =
            ["srun", "--exclusive", "-N1", "-n1", "-c"].iter().map(|s| OsString::from(*s)).collect();
        prefix.push(opts.threads.to_string().into());
        prefix.push(format!("--job-name={name}").into());
        prefix.push(opts.worker_bin.clone().into());
        prefix.push("worker".into());
        let what = format!(
            "{} long-lived Slurm job step(s) of {} CPU(s) in job {}",
            opts.workers,
            opts.threads,
            std::env::var("SLURM_JOB_ID").unwrap_or_else(|_| "?".into())
        );
        SlotPool::new(what, Mode::Processes(prefix), opts, dir, Duration::from_millis(200))
    }

    /// `opts.workers` long-lived Slurm tasks outside an allocation, each
    /// `sbatch --array=K -n1 -c T` of the worker; the tasks an earlier
    /// manager of this work dir left are stopped first.
    pub fn tasks(opts: &BackendOptions, dir: &WorkDir, name: &str) -> Result<SlotPool, DistError> {
        let what = format!("{} long-lived Slurm task(s) of {} CPU(s) ({name})", opts.workers, opts.threads);
        let mode = Mode::Tasks {
            bin: opts.worker_bin.clone(),
            threads: opts.threads,
            job_name: name.to_string(),
            squeue_failures: 0,
        };
        let pool = SlotPool::new(what, mode, opts, dir, opts.poll);
        let left = pool.slots_file();
        if let Some(old) =
            std::fs::read_to_string(&left).ok().and_then(|t| serde_json::from_str::<Vec<(String, String)>>(&t).ok())
        {
            for (slot, _) in &old {
                let _ = std::fs::write(dir.exit_path(slot), b"");
            }
            let ids: Vec<String> = old.into_iter().map(|(_, id)| id).collect();
            if !ids.is_empty() {
                scancel(&ids);
            }
        }
        pool.save_slots()?;
        Ok(pool)
    }

    fn slots_file(&self) -> PathBuf {
        self.dir.slurm_dir().join("slots.json")
    }

    /// The Slurm tasks of the slots, (slot, task id), for a later manager.
    fn save_slots(&self) -> Result<(), DistError> {
        if !matches!(self.mode, Mode::Tasks { .. }) {
            return Ok(());
        }
        let list: Vec<(String, String)> = self
            .slots
            .iter()
            .filter_map(|s| match &s.child {
                Some(Worker::Task { id, .. }) => Some((s.name.clone(), id.clone())),
                _ => None,
            })
            .collect();
        let path = self.slots_file();
        crate::store::write_json_atomic(&path, &list).map_err(|e| DistError::io(format!("write {}", path.display()), e))
    }

    fn new(what: String, mode: Mode, opts: &BackendOptions, dir: &WorkDir, poll: Duration) -> SlotPool {
        // Slot names unique to this manager: a worker an earlier manager
        // left (still saving its checkpoint) never reads this one's inbox.
        let me = std::process::id();
        let slots =
            (1..=opts.workers).map(|k| Slot { name: format!("m{me}-{k}"), child: None, current: None }).collect();
        SlotPool {
            what,
            mode,
            dir: dir.clone(),
            slots,
            queue: VecDeque::new(),
            events: Vec::new(),
            grace: opts.answer_grace,
            poll,
        }
    }

    fn inbox_file(&self, slot: &str, id: &str) -> PathBuf {
        self.dir.inbox(slot).join(format!("{id}.json"))
    }

    /// Start the worker of slot `i`: its inbox emptied, its status and exit
    /// file removed (a worker it replaces left them).
    fn start(&mut self, i: usize) -> Result<(), DistError> {
        let name = self.slots[i].name.clone();
        let inbox = self.dir.inbox(&name);
        let io = |what: String, e: std::io::Error| DistError::io(what, e);
        if inbox.exists() {
            for e in std::fs::read_dir(&inbox).map_err(|e| io(format!("read {}", inbox.display()), e))?.flatten() {
                let _ = std::fs::remove_file(e.path());
            }
        }
        std::fs::create_dir_all(&inbox).map_err(|e| io(format!("create {}", inbox.display()), e))?;
        let _ = std::fs::remove_file(self.dir.status_path(&name));
        let _ = std::fs::remove_file(self.dir.exit_path(&name));
        let log_path = self.dir.logs().join(format!("worker-{name}.log"));
        let worker = match &self.mode {
            Mode::Processes(prefix) => {
                let log = std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(&log_path)
                    .map_err(|e| io(format!("open the log {}", log_path.display()), e))?;
                let err = log.try_clone().map_err(|e| io("open a log".into(), e))?;
                let mut cmd = Command::new(&prefix[0]);
                cmd.args(&prefix[1..])
                    .arg("--serve")
                    .arg(self.dir.root())
                    .arg("--slot")
                    .arg(&name)
                    .stdin(Stdio::null())
                    .stdout(log)
                    .stderr(err);
                detach(&mut cmd);
                Worker::Process(cmd.spawn().map_err(|e| io(format!("start {}", Path::new(&prefix[0]).display()), e))?)
            }
            Mode::Tasks { bin, threads, job_name, .. } => {
                let wrap = format!(
                    "exec {} worker --serve {} --slot {}",
                    quoted(bin),
                    quoted(self.dir.root()),
                    quoted(Path::new(&name))
                );
                let args = [
                    format!("--job-name={job_name}"),
                    format!("--array={}", i + 1),
                    "-n1".to_string(),
                    format!("-c{threads}"),
                    "--open-mode=append".to_string(),
                    format!("--output={}", log_path.display()),
                    format!("--wrap={wrap}"),
                ];
                let job = sbatch(&args)?;
                Worker::Task { id: format!("{job}_{}", i + 1), running: None }
            }
        };
        self.slots[i].child = Some(worker);
        self.save_slots()
    }

    /// The Slurm tasks' states (task id → state); `None`: squeue failed
    /// (told as a note; an error after many failures in a row).
    fn squeue(&mut self) -> Result<Option<std::collections::HashMap<String, String>>, DistError> {
        let Mode::Tasks { job_name, squeue_failures, .. } = &mut self.mode else { return Ok(None) };
        squeue_states(job_name, squeue_failures, &mut self.events)
    }

    /// Whether the worker of slot `i` has ended (and how), checking a
    /// running task's status in the work dir (see the module documentation).
    fn ended(
        &mut self,
        i: usize,
        states: Option<&std::collections::HashMap<String, String>>,
    ) -> Result<Option<String>, DistError> {
        let name = self.slots[i].name.clone();
        let grace = self.grace.max(Duration::from_secs(30));
        let status = self.dir.status_path(&name);
        let log = self.dir.logs().join(format!("worker-{name}.log"));
        match &mut self.slots[i].child {
            None => Ok(None),
            Some(Worker::Process(child)) => match child.try_wait() {
                Ok(Some(s)) => Ok(Some(format!("worker {name} (pid {}) {}", child.id(), describe_status(&s)))),
                Ok(None) => Ok(None),
                Err(e) => Err(DistError::io("watch a worker", e)),
            },
            Some(Worker::Task { id, running }) => {
                let Some(states) = states else { return Ok(None) };
                match states.get(id.as_str()).map(String::as_str) {
                    None => Ok(Some(format!("worker {name}: Slurm task {id} left the queue"))),
                    Some(s) if is_terminal(s) => Ok(Some(format!("worker {name}: Slurm task {id} {s}"))),
                    Some("RUNNING") => {
                        let since = *running.get_or_insert_with(Instant::now);
                        if since.elapsed() > grace && !status.exists() {
                            let line = std::fs::read(&log).ok().map(|b| last_line(&b)).filter(|l| !l.is_empty());
                            return Err(match line {
                                Some(line) => DistError::BadWorker {
                                    bin: match &self.mode {
                                        Mode::Tasks { bin, .. } => bin.display().to_string(),
                                        Mode::Processes(p) => Path::new(&p[0]).display().to_string(),
                                    },
                                    detail: format!("the worker task {id} runs but serves nothing: {line}"),
                                },
                                None => DistError::NotShared {
                                    dir: self.dir.root().display().to_string(),
                                    detail: format!(
                                        "the worker task {id} runs, and neither its status nor its log is visible here after {} s",
                                        grace.as_secs()
                                    ),
                                },
                            });
                        }
                        Ok(None)
                    }
                    Some(_) => Ok(None),
                }
            }
        }
    }

    /// Give queued runs to the free slots (starting their workers where
    /// none runs).
    fn fill(&mut self) -> Result<(), DistError> {
        for i in 0..self.slots.len() {
            if self.queue.is_empty() {
                break;
            }
            if self.slots[i].current.is_some() {
                continue;
            }
            if self.slots[i].child.is_none() {
                self.start(i)?;
            }
            let l = self.queue.pop_front().expect("a queued run");
            let name = self.slots[i].name.clone();
            let file = self.inbox_file(&name, &l.id);
            let a = Assignment { unit: self.dir.relative(&l.unit), attempt: l.attempt };
            crate::store::write_json_atomic(&file, &a)
                .map_err(|e| DistError::io(format!("write {}", file.display()), e))?;
            self.events.push(Event::Started { id: l.id.clone(), attempt: l.attempt });
            self.slots[i].current = Some(l);
        }
        Ok(())
    }
}

impl Backend for SlotPool {
    fn describe(&self) -> String {
        self.what.clone()
    }

    fn launch(&mut self, runs: Vec<Launch>) -> Result<(), DistError> {
        self.queue.extend(runs);
        self.fill()
    }

    fn poll(&mut self) -> Result<Vec<Event>, DistError> {
        let states =
            if self.slots.iter().any(|s| matches!(s.child, Some(Worker::Task { .. }))) { self.squeue()? } else { None };
        for i in 0..self.slots.len() {
            let name = self.slots[i].name.clone();
            // Answered: the worker removed the unit from its inbox.
            if let Some(l) = &self.slots[i].current {
                if !self.inbox_file(&name, &l.id).exists() {
                    let l = self.slots[i].current.take().expect("a run");
                    self.events.push(Event::Ended { id: l.id, attempt: l.attempt, how: format!("worker {name}") });
                }
            }
            if let Some(how) = self.ended(i, states.as_ref())? {
                let slot = &mut self.slots[i];
                slot.child = None;
                if let Some(l) = slot.current.take() {
                    self.events.push(Event::Ended { id: l.id, attempt: l.attempt, how });
                } else {
                    self.events.push(Event::Note(format!("{how}; started again when next needed")));
                }
            }
        }
        self.fill()?;
        Ok(std::mem::take(&mut self.events))
    }

    fn in_flight(&self) -> usize {
        self.queue.len() + self.slots.iter().filter(|s| s.current.is_some()).count()
    }

    fn keeps_workers(&self) -> bool {
        true
    }

    fn live_workers(&self) -> Vec<String> {
        self.slots.iter().filter(|s| s.child.is_some()).map(|s| s.name.clone()).collect()
    }

    fn stop_all(&mut self) {
        self.queue.clear();
        let mut tasks = Vec::new();
        for s in &self.slots {
            match &s.child {
                Some(Worker::Process(c)) => {
                    let _ = std::fs::write(self.dir.exit_path(&s.name), b"");
                    terminate(c);
                }
                Some(Worker::Task { id, .. }) => {
                    let _ = std::fs::write(self.dir.exit_path(&s.name), b"");
                    tasks.push(id.clone());
                }
                None => {}
            }
        }
        if !tasks.is_empty() {
            // scancel: SIGTERM to the worker, which saves its unit's checkpoint.
            scancel(&tasks);
        }
        let until = Instant::now() + STOP_GRACE;
        loop {
            let states = if tasks.is_empty() { None } else { self.squeue().ok().flatten() };
            for s in &mut self.slots {
                let gone = match &mut s.child {
                    Some(Worker::Process(c)) => matches!(c.try_wait(), Ok(Some(_)) | Err(_)),
                    Some(Worker::Task { id, .. }) => {
                        states.as_ref().is_some_and(|st| st.get(id.as_str()).is_none_or(|x| is_terminal(x)))
                    }
                    None => true,
                };
                if gone {
                    s.child = None;
                }
            }
            if self.slots.iter().all(|s| s.child.is_none()) || Instant::now() >= until {
                break;
            }
            std::thread::sleep(Duration::from_millis(if tasks.is_empty() { 20 } else { 500 }));
        }
        for s in &mut self.slots {
            if let Some(Worker::Process(mut c)) = s.child.take() {
                let _ = c.kill();
                let _ = c.wait();
            }
            s.current = None;
        }
        let _ = self.save_slots();
    }

    fn answer_grace(&self) -> Duration {
        self.grace
    }

    fn poll_interval(&self) -> Duration {
        self.poll
    }
}

impl Drop for SlotPool {
    fn drop(&mut self) {
        if self.slots.iter().any(|s| s.child.is_some()) {
            self.stop_all();
        }
    }
}
