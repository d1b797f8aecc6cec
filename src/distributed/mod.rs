//! Distributed work: units of work run by worker processes (the same
//! `gosolve` binary, `gosolve worker FILE`) on this machine or a Slurm
//! cluster, exchanged as files in a work dir on a shared filesystem. No
//! network layer of our own: the filesystem carries the work, Slurm places,
//! retries and accounts for it.
//!
//! # The protocol ([`protocol`])
//!
//! - A [`Unit`] (`WORK/units/<id>.json`) names the gosolve version and the
//!   table-format fingerprint it was written for, the worker's threads and
//!   table size, and its [`Work`]: a [`ClaimWork`] ("value ≥ v" or "≤ v" at
//!   a position with its whole history and rules, the position given as a
//!   batch job's fields; a node or time budget; optionally a shared
//!   checkpoint to start from, and a delta to write), a [`ShardWork`]
//!   (shard i of K of a board's table) or a [`BatchWork`] (one job of a
//!   batch manifest).
//! - An [`Answer`] (`WORK/answers/<id>.json`, written atomically by the
//!   worker) says how it ended ([`Outcome`]: proved, refuted, undecided
//!   with the limit hit, done, or failed with a one-line reason and whether
//!   a retry may help), the nodes, seconds, peak memory and host, and what
//!   the worker proved ([`UnitResult`]: a claim's line and, undecided, what
//!   is known after each root move; a shard's table file; a batch job's
//!   record), with a claim's [`Delta`]: a checkpoint of the results the
//!   worker found beyond those it read (`WORK/deltas/<id>.ck`).
//! - Answers are matched to units by [`Unit::hash`], the hash of the work
//!   alone: an answer is reused for the same work whatever the threads,
//!   memory or backend of a later run.
//!
//! # Running units
//!
//! - [`WorkDir`]: the layout, atomic writes, the writable check, and the
//!   manager's lock (a second manager on one work dir is refused in one
//!   line; the lock of a dead manager on this host is taken over).
//! - [`worker`]: `gosolve worker FILE` runs one unit
//!   ([`worker::run_unit_file`]): refuses another version or table format,
//!   resumes from the unit's own checkpoint, writes the answer atomically,
//!   and on a signal saves the checkpoint and leaves no answer.
//!   `gosolve worker --serve WORK --slot NAME` ([`worker::serve`]) is a
//!   long-lived worker that runs unit after unit from its inbox, keeping
//!   its table between the claims of a solve and importing only the deltas
//!   published since its last unit ([`worker::Warm`]);
//!   [`backend::persistent`] keeps N of them (a distributed solve's
//!   workers: local processes, Slurm job steps or Slurm tasks).
//! - [`backend`]: [`BackendKind::Local`] (N processes here) and
//!   [`BackendKind::Slurm`] (job steps inside an allocation, job arrays
//!   outside one), behind one [`Backend`] trait.
//! - [`Scheduler`]: [`Scheduler::submit`] units at any time (an answer
//!   already in the work dir is taken instead of a run, as [`Reuse`]
//!   allows), [`Scheduler::wait`] for answers as they come; a run that ends
//!   without a final answer runs again up to [`RunOptions::retries`]
//!   times; Ctrl-C or a deadline stops every run (each worker saves its
//!   checkpoint). [`Setup::start`] opens all of it from the command
//!   line's options.
//! - [`crate::tables::merge::merge`]: the exact merge of checkpoint deltas
//!   into one shared checkpoint (also `gosolve checkpoint merge`).
//!
//! # Uses
//!
//! - [`batch::run_batch`]: `gosolve batch --workers N`.
//! - [`table::build_sharded`]: `gosolve table build BOARD --shards K`.
//! - [`solve::run_solve`]: `gosolve solve ... --workers N`, one claim or
//!   value by a job-level proof-number search; [`solve::verify()`] checks
//!   its proof (`gosolve verify`).

pub mod backend;
pub mod batch;
mod error;
pub mod protocol;
pub mod scheduler;
pub mod solve;
pub mod table;
pub mod workdir;
pub mod worker;

pub use backend::{Backend, BackendKind, BackendOptions};
pub use error::DistError;
pub use protocol::{Answer, BatchWork, ClaimWork, Delta, Outcome, RootMove, ShardWork, Unit, UnitResult, Work};
pub use scheduler::{Finished, Observer, Reuse, RunOptions, Scheduler, Silent, Wait};
pub use workdir::{ManagerLock, WorkDir};

use std::path::PathBuf;
use std::sync::Arc;

/// Where and how distributed work runs: what `--workers`, `--backend`,
/// `--work-dir` (and `--worker-bin`, `--retries`) give.
#[derive(Clone, Debug)]
pub struct Setup {
    pub work_dir: PathBuf,
    pub backend: BackendOptions,
    pub run: RunOptions,
}

impl Setup {
    /// Open the work dir, take it (the manager's lock), open the backend
    /// (its checks and probes) and give the scheduler. The lock is held
    /// until the returned [`ManagerLock`] is dropped.
    pub fn start(&self, observer: Arc<dyn Observer>) -> Result<(Scheduler, ManagerLock), DistError> {
        let dir = WorkDir::open(&self.work_dir)?;
        let lock = dir.lock()?;
        let backend = backend::open(&self.backend, &dir)?;
        Ok((Scheduler::new(dir, backend, self.run.clone(), observer)?, lock))
    }
}
