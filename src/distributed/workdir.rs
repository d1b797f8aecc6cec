//! The work dir: the one place a manager and its workers exchange units,
//! answers and checkpoints (on a cluster, a directory every node mounts).
//!
//! ```text
//! WORK/
//!   manager.lock            the manager's pid, host and start (one manager per work dir);
//!                           its time of change is the manager's heartbeat
//!   units/<id>.json         what to do (the manager writes it)
//!   answers/<id>.json       how it ended (the worker writes it, atomically)
//!   checkpoints/<id>.*      a unit's own checkpoint while it runs: a preempted
//!                           worker resumes from it
//!   deltas/<id>.ck          what a claim's worker proved (a checkpoint delta)
//!   deltas/index.json       the deltas published to long-lived workers, numbered
//!   workers/<slot>/         a long-lived worker's inbox/ (the unit it is given),
//!                           status.json (its units, the last delta it imported)
//!                           and exit (asks it to stop)
//!   outputs/<id>.gtb        a table shard's entries
//!   logs/<id>.<n>.log       the worker's stderr, one file per attempt
//!   slurm/                  generated sbatch scripts and the jobs submitted
//!   probe/                  files the workers' probes write
//! ```
//!
//! The state of the work is these files: a manager started again on the
//! same work dir reads the answers there and only sends what has none.
//! Every file is written through [`crate::store`] (a unique temporary name,
//! then a rename), so a process killed at any moment leaves the old file or
//! the new one.

use super::error::DistError;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, SystemTime};

/// How long a long-lived worker waits, idle, without a sign of life from a
/// manager before it exits: `GOSOLVE_MANAGER_TIMEOUT` seconds, else 10
/// minutes. A Slurm task outlives a manager killed with `kill -9`; without
/// this it would hold its CPUs until the task's time limit. A value that is
/// not a number of seconds above 0 (and below 10^9, which a `Duration` of
/// seconds as f64 must be) is an error, for the manager (which refuses to
/// start) and the worker alike, never a silent 10 minutes.
pub fn manager_timeout() -> Result<Duration, DistError> {
    let Some(raw) = std::env::var_os("GOSOLVE_MANAGER_TIMEOUT") else {
        return Ok(Duration::from_secs(600));
    };
    let text = raw.to_string_lossy();
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s > 0.0 && *s < 1e9)
        .map(Duration::from_secs_f64)
        .ok_or_else(|| {
            DistError::Other(format!(
                "GOSOLVE_MANAGER_TIMEOUT must be a number of seconds above 0 and below 10^9, not '{text}'"
            ))
        })
}

/// How often a manager refreshes its lock's time of change: a quarter of
/// the timeout, between half a second and 30 s.
fn heartbeat_every() -> Result<Duration, DistError> {
    Ok((manager_timeout()? / 4).clamp(Duration::from_millis(500), Duration::from_secs(30)))
}

/// The folders of a work dir.
const FOLDERS: [&str; 9] =
    ["units", "answers", "checkpoints", "deltas", "outputs", "logs", "slurm", "probe", "workers"];

/// A work dir (its path absolute, so that workers started elsewhere find it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorkDir {
    root: PathBuf,
}

impl WorkDir {
    /// Open (creating it and its folders) the work dir at `root`, and check
    /// that files can be written there.
    pub fn open(root: &Path) -> Result<WorkDir, DistError> {
        let not_writable =
            |e: std::io::Error| DistError::NotWritable { dir: root.display().to_string(), reason: e.to_string() };
        std::fs::create_dir_all(root).map_err(not_writable)?;
        let root = std::path::absolute(root).map_err(not_writable)?;
        let dir = WorkDir { root };
        for f in FOLDERS {
            std::fs::create_dir_all(dir.root.join(f)).map_err(not_writable)?;
        }
        crate::store::check_writable(&dir.root.join("units").join("probe")).map_err(not_writable)?;
        Ok(dir)
    }

    /// The work dir a unit file lies in (`WORK/units/<id>.json`).
    pub fn of_unit(unit: &Path) -> WorkDir {
        let abs = std::path::absolute(unit).unwrap_or_else(|_| unit.to_path_buf());
        let root = abs.parent().and_then(Path::parent).map(Path::to_path_buf).unwrap_or_else(|| PathBuf::from("."));
        WorkDir { root }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }
    pub fn unit_path(&self, id: &str) -> PathBuf {
        self.root.join("units").join(format!("{id}.json"))
    }
    pub fn answer_path(&self, id: &str) -> PathBuf {
        self.root.join("answers").join(format!("{id}.json"))
    }
    /// A unit's own checkpoint, `checkpoints/<id>.<ext>`.
    pub fn checkpoint_path(&self, id: &str, ext: &str) -> PathBuf {
        self.root.join("checkpoints").join(format!("{id}.{ext}"))
    }
    pub fn delta_path(&self, id: &str) -> PathBuf {
        self.root.join("deltas").join(format!("{id}.ck"))
    }
    /// The deltas published to long-lived workers ([`super::protocol::DeltaIndex`]).
    pub fn delta_index_path(&self) -> PathBuf {
        self.root.join("deltas").join("index.json")
    }
    /// A long-lived worker's folder, `workers/<slot>`.
    pub fn slot_dir(&self, slot: &str) -> PathBuf {
        self.root.join("workers").join(slot)
    }
    /// Its inbox: the manager puts the unit it is to run there.
    pub fn inbox(&self, slot: &str) -> PathBuf {
        self.slot_dir(slot).join("inbox")
    }
    pub fn status_path(&self, slot: &str) -> PathBuf {
        self.slot_dir(slot).join("status.json")
    }
    /// Present: the worker of `slot` is asked to stop once idle.
    pub fn exit_path(&self, slot: &str) -> PathBuf {
        self.slot_dir(slot).join("exit")
    }
    pub fn output_path(&self, id: &str, ext: &str) -> PathBuf {
        self.root.join("outputs").join(format!("{id}.{ext}"))
    }
    /// The log of a unit's `attempt`-th run (from 1).
    pub fn log_path(&self, id: &str, attempt: u32) -> PathBuf {
        self.root.join("logs").join(format!("{id}.{attempt}.log"))
    }
    pub fn logs(&self) -> PathBuf {
        self.root.join("logs")
    }
    pub fn slurm_dir(&self) -> PathBuf {
        self.root.join("slurm")
    }
    pub fn probe_dir(&self) -> PathBuf {
        self.root.join("probe")
    }

    /// A path a unit or answer gives: relative to the work dir, or absolute.
    pub fn resolve(&self, path: &str) -> PathBuf {
        let p = Path::new(path);
        if p.is_absolute() {
            p.to_path_buf()
        } else {
            self.root.join(p)
        }
    }

    /// `path` as units and answers give it: relative to the work dir where
    /// it lies inside it (the work dir may be mounted elsewhere on another
    /// node), else absolute.
    pub fn relative(&self, path: &Path) -> String {
        path.strip_prefix(&self.root).unwrap_or(path).display().to_string()
    }

    /// Take the work dir for one manager (see [`ManagerLock`]).
    pub fn lock(&self) -> Result<ManagerLock, DistError> {
        ManagerLock::take(self)
    }

    /// The manager's lock, `manager.lock`: who holds the work dir, and by
    /// its time of change, whether that manager still lives.
    pub fn lock_path(&self) -> PathBuf {
        self.root.join("manager.lock")
    }

    /// Whether a manager of this work dir gave a sign of life within
    /// `within`: its lock is there and was refreshed since (a clock on
    /// another node that runs ahead counts as a sign of life).
    pub fn manager_heard_within(&self, within: Duration) -> bool {
        let Ok(changed) = std::fs::metadata(self.lock_path()).and_then(|m| m.modified()) else {
            return false;
        };
        SystemTime::now().duration_since(changed).map_or(true, |age| age <= within)
    }
}

/// What `manager.lock` holds.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct LockInfo {
    pid: u32,
    host: String,
    /// The process's start time in clock ticks since boot
    /// (`/proc/<pid>/stat`), so that a pid reused by another process is
    /// not mistaken for the manager.
    start: Option<u64>,
    since: String,
}

/// The work dir held by one manager: a second manager on the same work dir
/// is refused in one line; a lock left by a manager that died (same host,
/// its process gone) is taken over. While held, a thread refreshes the
/// lock's time of change ([`heartbeat_every`]), which the long-lived
/// workers watch ([`WorkDir::manager_heard_within`]). Released when dropped.
#[derive(Debug)]
pub struct ManagerLock {
    path: PathBuf,
    pid: u32,
    /// Dropped with the lock, which ends the heartbeat's thread.
    _beating: mpsc::Sender<()>,
}

impl ManagerLock {
    fn take(dir: &WorkDir) -> Result<ManagerLock, DistError> {
        let (root, path) = (dir.root(), dir.lock_path());
        let me = LockInfo {
            pid: std::process::id(),
            host: crate::process::host_name(),
            start: start_ticks(std::process::id()),
            since: crate::process::utc_now(),
        };
        let text = serde_json::to_string(&me).expect("lock serializes");
        let every = heartbeat_every()?;
        let io = |e: std::io::Error| DistError::io(format!("write {}", path.display()), e);
        for _ in 0..3 {
            match std::fs::OpenOptions::new().write(true).create_new(true).open(&path) {
                Ok(mut f) => {
                    use std::io::Write;
                    f.write_all(text.as_bytes()).and_then(|()| f.sync_all()).map_err(io)?;
                    let _beating = heartbeat(path.clone(), every);
                    return Ok(ManagerLock { path, pid: me.pid, _beating });
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
                Err(e) => return Err(io(e)),
            }
            // Held: by a live manager (refused), or stale (taken over).
            let held: Option<LockInfo> =
                std::fs::read_to_string(&path).ok().and_then(|t| serde_json::from_str(&t).ok());
            match held {
                Some(h) if h.host != me.host || alive(h.pid, h.start) => {
                    return Err(DistError::Locked {
                        dir: root.display().to_string(),
                        pid: h.pid,
                        host: h.host,
                        since: h.since,
                    });
                }
                // Stale (or unreadable: a manager killed while writing it).
                _ => {
                    let _ = std::fs::remove_file(&path);
                }
            }
        }
        Err(DistError::Other(format!("cannot take {}: other managers keep taking it", path.display())))
    }
}

/// Refresh `path`'s time of change every `every` ([`heartbeat_every`])
/// until the returned sender is dropped.
fn heartbeat(path: PathBuf, every: Duration) -> mpsc::Sender<()> {
    let (tx, rx) = mpsc::channel::<()>();
    std::thread::spawn(move || {
        while let Err(mpsc::RecvTimeoutError::Timeout) = rx.recv_timeout(every) {
            // Never creates the file: a lock removed is left removed.
            if let Ok(f) = std::fs::OpenOptions::new().write(true).open(&path) {
                let _ = f.set_modified(SystemTime::now());
            }
        }
    });
    tx
}

impl Drop for ManagerLock {
    fn drop(&mut self) {
        let ours = std::fs::read_to_string(&self.path)
            .ok()
            .and_then(|t| serde_json::from_str::<LockInfo>(&t).ok())
            .is_some_and(|h| h.pid == self.pid);
        if ours {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// Process `pid`'s start time in clock ticks since boot, where /proc tells.
fn start_ticks(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the command name (which may hold spaces), from field 3:
    // the start time is field 22.
    stat.rsplit_once(')')?.1.split_whitespace().nth(19)?.parse().ok()
}

/// Whether process `pid` (started at `start`, where known) runs on this host.
/// Without /proc (not Linux) a lock is never taken as stale.
fn alive(pid: u32, start: Option<u64>) -> bool {
    if !crate::process::running_here(pid) {
        return false;
    }
    match (start, start_ticks(pid)) {
        (Some(a), Some(b)) => a == b,
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_manager_is_refused_and_a_dead_ones_lock_taken_over() {
        let d = tempfile::tempdir().unwrap();
        let w = WorkDir::open(&d.path().join("w")).unwrap();
        let lock = w.lock().unwrap();
        let e = w.lock().unwrap_err().to_string();
        assert!(e.contains("in use by a gosolve manager") && !e.contains('\n'), "{e}");
        drop(lock);
        let again = w.lock().unwrap();
        drop(again);
        // A lock left by a process that is gone.
        let dead = LockInfo { pid: u32::MAX - 1, host: crate::process::host_name(), start: Some(1), since: "x".into() };
        std::fs::write(w.root().join("manager.lock"), serde_json::to_string(&dead).unwrap()).unwrap();
        let taken = w.lock().unwrap();
        drop(taken);
        assert!(!w.root().join("manager.lock").exists());
        // Another host's lock is never taken.
        let other = LockInfo { host: "elsewhere".into(), ..dead };
        std::fs::write(w.root().join("manager.lock"), serde_json::to_string(&other).unwrap()).unwrap();
        assert!(w.lock().unwrap_err().to_string().contains("on elsewhere"));
    }

    #[test]
    fn paths_are_relative_to_the_work_dir() {
        let d = tempfile::tempdir().unwrap();
        let w = WorkDir::open(d.path()).unwrap();
        let delta = w.delta_path("u");
        assert_eq!(w.relative(&delta), "deltas/u.ck");
        assert_eq!(w.resolve("deltas/u.ck"), delta);
        assert_eq!(WorkDir::of_unit(&w.unit_path("u")), w);
    }
}
