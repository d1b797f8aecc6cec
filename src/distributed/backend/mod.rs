//! Backends: where a unit's worker runs. Every backend runs the same
//! command, `<worker-bin> worker <unit file>`, and reports when each run
//! started and ended; what the run gave is read from the work dir.
//!
//! - [`local`]: N worker processes on this machine (`--backend local`).
//! - [`slurm`]: inside an allocation (`SLURM_JOB_ID` set), each run is a
//!   job step, `srun --exclusive -N1 -n1 -c T` (the same process pool as
//!   local, with `srun` in front); outside one, the runs are the tasks of
//!   `sbatch` job arrays (`--array=0-(n-1)%N`), watched with `squeue`.
//!   Slurm places, retries and accounts for them.
//! - [`persistent`]: with [`BackendOptions::persistent`] (a distributed
//!   solve), long-lived workers, `<worker-bin> worker --serve WORK --slot
//!   NAME`, each given its units one after another through its inbox: N
//!   local processes, N job steps inside an allocation, or N Slurm tasks
//!   outside one.

pub mod local;
pub mod persistent;
pub mod slurm;
mod slurm_commands;

use super::error::DistError;
use super::workdir::WorkDir;
use std::path::PathBuf;
use std::time::Duration;

/// Which backend.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BackendKind {
    Local,
    Slurm,
}

/// How to start the workers.
#[derive(Clone, Debug)]
pub struct BackendOptions {
    pub kind: BackendKind,
    /// Runs at once (Slurm: the array's throttle, or concurrent steps).
    pub workers: usize,
    /// The gosolve binary the workers run (on a cluster, a path every node
    /// sees); by default this one.
    pub worker_bin: PathBuf,
    /// CPUs per run (`srun`/`sbatch -c`).
    pub threads: usize,
    /// How long the probe of a Slurm step may take (its start included).
    pub probe_timeout: Duration,
    /// How long after a run ended its answer may take to show in the work
    /// dir (a shared filesystem's attribute cache) before the run counts as
    /// lost: none locally, 30 s on Slurm (`GOSOLVE_ANSWER_GRACE`, seconds,
    /// sets it: a cluster with a slower cache, or a test that needs it short).
    pub answer_grace: Duration,
    /// How often a Slurm backend asks `squeue`.
    pub poll: Duration,
    /// Long-lived workers, each given many units ([`persistent`]).
    pub persistent: bool,
}

impl BackendOptions {
    /// Options for `workers` runs of `threads` CPUs with this gosolve as the
    /// worker binary.
    pub fn new(kind: BackendKind, workers: usize, threads: usize) -> BackendOptions {
        let (grace, poll) = match kind {
            BackendKind::Local => (Duration::ZERO, Duration::from_millis(100)),
            BackendKind::Slurm => (Duration::from_secs(30), Duration::from_secs(2)),
        };
        let grace = std::env::var("GOSOLVE_ANSWER_GRACE")
            .ok()
            .and_then(|s| s.trim().parse::<f64>().ok())
            .filter(|s| s.is_finite() && *s >= 0.0)
            .map_or(grace, Duration::from_secs_f64);
        BackendOptions {
            kind,
            workers: workers.max(1),
            worker_bin: std::env::current_exe().unwrap_or_else(|_| PathBuf::from("gosolve")),
            threads: threads.max(1),
            probe_timeout: Duration::from_secs(120),
            answer_grace: grace,
            poll,
            persistent: false,
        }
    }
}

/// One run to start: the unit file, the attempt (from 1), its log.
#[derive(Clone, Debug, PartialEq)]
pub struct Launch {
    pub id: String,
    pub attempt: u32,
    pub unit: PathBuf,
    pub log: PathBuf,
}

/// What a backend saw happen.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    Started {
        id: String,
        attempt: u32,
    },
    /// The run is over (`how`: its exit status or Slurm state, for the log).
    Ended {
        id: String,
        attempt: u32,
        how: String,
    },
    /// A line worth telling the user.
    Note(String),
}

/// A place to run workers.
pub trait Backend: Send {
    /// In words, for the progress display ("2 local workers").
    fn describe(&self) -> String;
    /// Start these runs (or hand them to the scheduler of the cluster,
    /// which starts them as it can).
    fn launch(&mut self, runs: Vec<Launch>) -> Result<(), DistError>;
    /// What happened since the last call.
    fn poll(&mut self) -> Result<Vec<Event>, DistError>;
    /// Runs launched and not ended.
    fn in_flight(&self) -> usize;
    /// Runs an earlier manager of this work dir left going (Slurm's
    /// tasks outlive their manager): (unit, attempt), watched from now on.
    fn adopt(&mut self) -> Result<Vec<(String, u32)>, DistError> {
        Ok(Vec::new())
    }
    /// Stop every run: each worker is asked to stop (it saves its
    /// checkpoint), then ended. Queued runs are dropped.
    fn stop_all(&mut self);
    /// See [`BackendOptions::answer_grace`].
    fn answer_grace(&self) -> Duration;
    /// The slots of the long-lived workers running now (none where each
    /// run is a worker of its own).
    fn live_workers(&self) -> Vec<String> {
        Vec::new()
    }
    /// Whether its workers live across units ([`persistent`]).
    fn keeps_workers(&self) -> bool {
        false
    }
    /// How long to sleep between two polls.
    fn poll_interval(&self) -> Duration;
}

/// Open the backend `opts` names on work dir `dir`: its commands are
/// checked, and the workers probed where that is quick (a custom worker
/// binary run locally; a Slurm step), so that a missing `sbatch`, a work dir
/// the nodes do not share or a worker of another version is one line now,
/// not a hang later.
pub fn open(opts: &BackendOptions, dir: &WorkDir) -> Result<Box<dyn Backend>, DistError> {
    match opts.kind {
        BackendKind::Local => {
            if opts.worker_bin != std::env::current_exe().unwrap_or_default() {
                local::probe(opts, dir)?;
            }
            if opts.persistent {
                return Ok(Box::new(persistent::SlotPool::local(opts, dir)));
            }
            Ok(Box::new(local::ProcessPool::local(opts)))
        }
        BackendKind::Slurm => slurm::open(opts, dir),
    }
}

/// The name the work dir's Slurm jobs carry: `gosolve-` and a hash of the
/// work dir's path, so that a manager started again finds its jobs.
pub fn job_name(dir: &WorkDir) -> String {
    format!("gosolve-{:08x}", crate::store::fnv1a64(dir.root().display().to_string().as_bytes()) as u32)
}
