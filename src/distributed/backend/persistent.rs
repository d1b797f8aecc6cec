//! Long-lived workers (what a distributed solve uses on the local backend
//! and in a Slurm allocation): each of N slots runs one
//! `<worker-bin> worker --serve WORK --slot NAME` (a child process, or a
//! job step `srun --exclusive ...` of it) for as long as there is work, and
//! is given its units one at a time through its inbox,
//! `WORK/workers/NAME/inbox/<id>.json` (written atomically). The worker
//! writes the answer and only then removes the unit from its inbox: that
//! is the run's end here, and the scheduler reads the answer as for any
//! backend. A worker keeps its table between the claims of a solve, which
//! spares each unit the read of the whole shared checkpoint into a cold
//! table (see [`crate::distributed::worker::serve`]).
//!
//! A worker that dies (killed, out of memory, `scancel` of its step) ends
//! its unit's run without an answer, so the scheduler sends the unit again;
//! the slot starts a new worker (its inbox and status cleared) when it is
//! next given a unit. Workers are stopped as those of the process pool are
//! ([`super::local`]): asked (the exit file, SIGTERM; a worker in a unit
//! saves its checkpoint), then killed after a grace; and each is told when
//! the manager dies.

use super::local::{describe_status, detach, terminate};
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

/// One slot: its name, its worker (if started) and the run it was given.
struct Slot {
    name: String,
    child: Option<Child>,
    current: Option<Launch>,
}

/// N long-lived workers fed through their inboxes.
pub struct SlotPool {
    what: String,
    /// The program and the arguments before `--serve WORK --slot NAME`.
    prefix: Vec<OsString>,
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
        SlotPool::new(what, prefix, opts, dir, opts.poll.min(Duration::from_millis(20)))
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
        SlotPool::new(what, prefix, opts, dir, Duration::from_millis(200))
    }

    fn new(what: String, prefix: Vec<OsString>, opts: &BackendOptions, dir: &WorkDir, poll: Duration) -> SlotPool {
        // Slot names unique to this manager: a worker an earlier manager
        // left (still saving its checkpoint) never reads this one's inbox.
        let me = std::process::id();
        let slots =
            (1..=opts.workers).map(|k| Slot { name: format!("m{me}-{k}"), child: None, current: None }).collect();
        SlotPool {
            what,
            prefix,
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
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&log_path)
            .map_err(|e| io(format!("open the log {}", log_path.display()), e))?;
        let err = log.try_clone().map_err(|e| io("open a log".into(), e))?;
        let mut cmd = Command::new(&self.prefix[0]);
        cmd.args(&self.prefix[1..])
            .arg("--serve")
            .arg(self.dir.root())
            .arg("--slot")
            .arg(&name)
            .stdin(Stdio::null())
            .stdout(log)
            .stderr(err);
        detach(&mut cmd);
        let child = cmd.spawn().map_err(|e| io(format!("start {}", Path::new(&self.prefix[0]).display()), e))?;
        self.slots[i].child = Some(child);
        Ok(())
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
        for i in 0..self.slots.len() {
            let name = self.slots[i].name.clone();
            // Answered: the worker removed the unit from its inbox.
            if let Some(l) = &self.slots[i].current {
                if !self.inbox_file(&name, &l.id).exists() {
                    let l = self.slots[i].current.take().expect("a run");
                    self.events.push(Event::Ended { id: l.id, attempt: l.attempt, how: format!("worker {name}") });
                }
            }
            let slot = &mut self.slots[i];
            let Some(child) = &mut slot.child else { continue };
            match child.try_wait() {
                Ok(Some(status)) => {
                    let how = format!("worker {name} (pid {}) {}", child.id(), describe_status(&status));
                    slot.child = None;
                    if let Some(l) = slot.current.take() {
                        self.events.push(Event::Ended { id: l.id, attempt: l.attempt, how });
                    } else {
                        self.events.push(Event::Note(format!("{how}; started again when next needed")));
                    }
                }
                Ok(None) => {}
                Err(e) => return Err(DistError::io("watch a worker", e)),
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
        for s in &self.slots {
            if let Some(c) = &s.child {
                let _ = std::fs::write(self.dir.exit_path(&s.name), b"");
                terminate(c);
            }
        }
        let until = Instant::now() + STOP_GRACE;
        loop {
            for s in &mut self.slots {
                if s.child.as_mut().is_some_and(|c| matches!(c.try_wait(), Ok(Some(_)) | Err(_))) {
                    s.child = None;
                }
            }
            if self.slots.iter().all(|s| s.child.is_none()) || Instant::now() >= until {
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        for s in &mut self.slots {
            if let Some(mut c) = s.child.take() {
                let _ = c.kill();
                let _ = c.wait();
            }
            s.current = None;
        }
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
