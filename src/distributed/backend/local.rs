//! Worker processes started by this manager: `--backend local` (the
//! worker binary itself) and Slurm job steps inside an allocation (`srun`
//! in front of it). At most `workers` run at once; the rest wait in order.
//!
//! Each worker runs in a process group of its own (a Ctrl-C at the
//! terminal reaches the manager, which stops the workers in order: each
//! saves its checkpoint) and, on Linux, is sent SIGTERM when the manager
//! dies (`PR_SET_PDEATHSIG`), so that a manager killed with `kill -9`
//! leaves no worker behind to race the next manager's run of its unit.

use super::{Backend, BackendOptions, Event, Launch};
use crate::distributed::error::DistError;
use crate::distributed::workdir::WorkDir;
use crate::distributed::worker::ProbeAnswer;
use std::collections::VecDeque;
use std::ffi::OsString;
use std::io::Read;
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::time::{Duration, Instant};

/// How long stopped workers get to save their checkpoints before they are killed.
const STOP_GRACE: Duration = Duration::from_secs(60);

/// A pool of worker processes.
pub struct ProcessPool {
    what: String,
    /// The program and the arguments before the unit file.
    prefix: Vec<OsString>,
    workers: usize,
    queue: VecDeque<Launch>,
    running: Vec<(Launch, Child)>,
    events: Vec<Event>,
    grace: Duration,
    poll: Duration,
}

impl ProcessPool {
    /// `opts.workers` local worker processes.
    pub fn local(opts: &BackendOptions) -> ProcessPool {
        ProcessPool {
            what: format!("{} local worker(s)", opts.workers),
            prefix: vec![opts.worker_bin.clone().into(), "worker".into()],
            workers: opts.workers,
            queue: VecDeque::new(),
            running: Vec::new(),
            events: Vec::new(),
            grace: opts.answer_grace,
            poll: opts.poll,
        }
    }

    /// `opts.workers` Slurm job steps at once inside the allocation, each
    /// `srun --exclusive -N1 -n1 -c T` of the worker.
    pub fn steps(opts: &BackendOptions, name: &str) -> ProcessPool {
        let mut prefix: Vec<OsString> =
            ["srun", "--exclusive", "-N1", "-n1", "-c"].iter().map(|s| OsString::from(*s)).collect();
        prefix.push(opts.threads.to_string().into());
        prefix.push(format!("--job-name={name}").into());
        prefix.push(opts.worker_bin.clone().into());
        prefix.push("worker".into());
        ProcessPool {
            what: format!("{} Slurm job step(s) of {} CPU(s) in job {}", opts.workers, opts.threads, allocation()),
            prefix,
            workers: opts.workers,
            queue: VecDeque::new(),
            running: Vec::new(),
            events: Vec::new(),
            grace: opts.answer_grace,
            poll: Duration::from_millis(200),
        }
    }

    fn fill(&mut self) -> Result<(), DistError> {
        while self.running.len() < self.workers {
            let Some(l) = self.queue.pop_front() else { break };
            let child = spawn(&self.prefix, &l)?;
            self.events.push(Event::Started { id: l.id.clone(), attempt: l.attempt });
            self.running.push((l, child));
        }
        Ok(())
    }
}

/// The allocation this process runs in.
fn allocation() -> String {
    std::env::var("SLURM_JOB_ID").unwrap_or_else(|_| "?".into())
}

/// Start `prefix` + the unit file, its output appended to the run's log.
fn spawn(prefix: &[OsString], l: &Launch) -> Result<Child, DistError> {
    let log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&l.log)
        .map_err(|e| DistError::io(format!("open the log {}", l.log.display()), e))?;
    let err = log.try_clone().map_err(|e| DistError::io("open a log", e))?;
    let mut cmd = Command::new(&prefix[0]);
    cmd.args(&prefix[1..]).arg(&l.unit).stdin(Stdio::null()).stdout(log).stderr(err);
    detach(&mut cmd);
    cmd.spawn().map_err(|e| DistError::io(format!("start {}", Path::new(&prefix[0]).display()), e))
}

/// The worker in a process group of its own, told (SIGTERM) when the
/// manager dies (see the module documentation).
pub(super) fn detach(cmd: &mut Command) {
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        cmd.process_group(0);
        #[cfg(target_os = "linux")]
        // SAFETY: prctl with PR_SET_PDEATHSIG only sets a flag of the new
        // process; it allocates nothing and is async-signal-safe.
        unsafe {
            cmd.pre_exec(|| {
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGTERM);
                Ok(())
            });
        }
    }
}

/// Send SIGTERM to a child (a worker saves its checkpoint and stops).
pub(super) fn terminate(child: &Child) {
    #[cfg(unix)]
    // SAFETY: kill(2) on the pid of our own child, not yet reaped.
    unsafe {
        libc::kill(child.id() as libc::pid_t, libc::SIGTERM);
    }
    #[cfg(not(unix))]
    let _ = child;
}

/// An exit status in words.
pub fn describe_status(s: &ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = s.signal() {
            return format!("killed by signal {sig}");
        }
    }
    match s.code() {
        Some(c) => format!("exit status {c}"),
        None => "ended".into(),
    }
}

impl Backend for ProcessPool {
    fn describe(&self) -> String {
        self.what.clone()
    }

    fn launch(&mut self, runs: Vec<Launch>) -> Result<(), DistError> {
        self.queue.extend(runs);
        self.fill()
    }

    fn poll(&mut self) -> Result<Vec<Event>, DistError> {
        let mut i = 0;
        while i < self.running.len() {
            match self.running[i].1.try_wait() {
                Ok(Some(status)) => {
                    let (l, _) = self.running.swap_remove(i);
                    self.events.push(Event::Ended { id: l.id, attempt: l.attempt, how: describe_status(&status) });
                }
                Ok(None) => i += 1,
                Err(e) => return Err(DistError::io("watch a worker", e)),
            }
        }
        self.fill()?;
        Ok(std::mem::take(&mut self.events))
    }

    fn in_flight(&self) -> usize {
        self.queue.len() + self.running.len()
    }

    fn stop_all(&mut self) {
        self.queue.clear();
        for (_, c) in &self.running {
            terminate(c);
        }
        let until = Instant::now() + STOP_GRACE;
        while !self.running.is_empty() && Instant::now() < until {
            self.running.retain_mut(|(_, c)| !matches!(c.try_wait(), Ok(Some(_)) | Err(_)));
            std::thread::sleep(Duration::from_millis(50));
        }
        for (_, c) in &mut self.running {
            let _ = c.kill();
            let _ = c.wait();
        }
        self.running.clear();
    }

    fn answer_grace(&self) -> Duration {
        self.grace
    }

    fn poll_interval(&self) -> Duration {
        self.poll
    }
}

impl Drop for ProcessPool {
    fn drop(&mut self) {
        if !self.running.is_empty() {
            self.stop_all();
        }
    }
}

/// Run `cmd` (its output captured) for at most `timeout`; `None` when it
/// ran out of time (it is killed then).
pub fn run_with_timeout(cmd: &mut Command, timeout: Duration) -> std::io::Result<Option<Output>> {
    let mut child = cmd.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn()?;
    let (out, err) = (child.stdout.take().expect("piped"), child.stderr.take().expect("piped"));
    fn drain(mut r: impl Read + Send + 'static) -> std::thread::JoinHandle<Vec<u8>> {
        std::thread::spawn(move || {
            let mut v = Vec::new();
            let _ = r.read_to_end(&mut v);
            v
        })
    }
    let (o, e) = (drain(out), drain(err));
    let until = Instant::now() + timeout;
    let status = loop {
        if let Some(s) = child.try_wait()? {
            break Some(s);
        }
        if Instant::now() >= until {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let (stdout, stderr) = (o.join().unwrap_or_default(), e.join().unwrap_or_default());
    Ok(status.map(|status| Output { status, stdout, stderr }))
}

/// The last non-empty line of a command's output, for a one-line reason.
pub fn last_line(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("").trim().to_string()
}

/// Check the probe file `file` a worker binary `bin` was asked to write:
/// there, and of this version.
pub fn check_probe(file: &Path, bin: &Path) -> Result<bool, DistError> {
    let Ok(text) = std::fs::read_to_string(file) else { return Ok(false) };
    let a: ProbeAnswer = serde_json::from_str(&text)
        .map_err(|e| DistError::BadWorker { bin: bin.display().to_string(), detail: format!("its probe: {e}") })?;
    if a.gosolve_version != crate::distributed::protocol::VERSION
        || a.protocol != crate::distributed::protocol::PROTOCOL
    {
        return Err(DistError::OtherVersion {
            bin: bin.display().to_string(),
            found: a.gosolve_version,
            ours: crate::distributed::protocol::VERSION.to_string(),
        });
    }
    Ok(true)
}

/// A probe file's path in the work dir, unique to this call.
pub fn probe_file(dir: &WorkDir) -> std::path::PathBuf {
    let n = crate::store::temp_path(Path::new("probe"));
    dir.probe_dir().join(format!("{}.json", n.display()))
}

/// Run the worker binary of `opts` here with `--probe`: it must answer,
/// and be of this version.
pub fn probe(opts: &BackendOptions, dir: &WorkDir) -> Result<(), DistError> {
    let bin = &opts.worker_bin;
    let file = probe_file(dir);
    let bad = |detail: String| DistError::BadWorker { bin: bin.display().to_string(), detail };
    let out = run_with_timeout(Command::new(bin).arg("worker").arg("--probe").arg(&file), opts.probe_timeout)
        .map_err(|e| bad(e.to_string()))?
        .ok_or_else(|| bad(format!("its probe did not end within {} s", opts.probe_timeout.as_secs())))?;
    let seen = check_probe(&file, bin);
    let _ = std::fs::remove_file(&file);
    if seen? {
        return Ok(());
    }
    Err(bad(format!("its probe wrote nothing ({}: {})", describe_status(&out.status), last_line(&out.stderr))))
}
