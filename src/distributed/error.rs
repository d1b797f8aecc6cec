//! Why distributed work could not be done. Every message is one line.

/// Why distributed work stopped or could not start.
#[derive(Debug, thiserror::Error)]
pub enum DistError {
    #[error("work dir {dir} is not writable: {reason}")]
    NotWritable { dir: String, reason: String },
    #[error(
        "work dir {dir} is in use by a gosolve manager (pid {pid} on {host}, since {since}); wait for it, or remove {dir}/manager.lock if it is gone"
    )]
    Locked { dir: String, pid: u32, host: String, since: String },
    #[error("cannot {what}: {reason}")]
    Io { what: String, reason: String },
    #[error("the slurm backend needs `{0}` on the PATH, and it is not there (is this a Slurm login node?)")]
    NoCommand(String),
    #[error(
        "work dir {dir} is not shared with the workers: {detail}; give --work-dir on a filesystem every node mounts"
    )]
    NotShared { dir: String, detail: String },
    #[error("the worker binary {bin} is gosolve {found}, this is gosolve {ours}: run the same version everywhere")]
    OtherVersion { bin: String, found: String, ours: String },
    #[error("the worker binary {bin} cannot run here: {detail}")]
    BadWorker { bin: String, detail: String },
    #[error("a worker refused unit {unit}: {reason}")]
    Refused { unit: String, reason: String },
    #[error("{0}")]
    Backend(String),
    #[error("{count} unit(s) failed after every retry (first: {first}); their logs are in {logs}")]
    Failed { count: usize, first: String, logs: String },
    #[error("{0}")]
    Other(String),
}

impl DistError {
    /// An I/O failure while doing `what`.
    pub fn io(what: impl Into<String>, e: impl std::fmt::Display) -> DistError {
        DistError::Io { what: what.into(), reason: e.to_string() }
    }
}
