//! The Slurm commands as the backends call them (`sbatch`, `squeue`,
//! `scancel`), each bounded by [`COMMAND_TIMEOUT`] so that a controller
//! that does not answer is an error or a note, never a hang. Shared by the
//! job arrays ([`super::slurm`]) and the long-lived workers' tasks
//! ([`super::persistent`]).

use super::local::{last_line, run_with_timeout};
use super::Event;
use crate::distributed::error::DistError;
use std::collections::HashMap;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// How long one `sbatch`, `squeue` or `scancel` may take.
pub(super) const COMMAND_TIMEOUT: Duration = Duration::from_secs(60);

/// `squeue` failures in a row tolerated (a busy controller) before the
/// manager gives up.
const SQUEUE_FAILURES: u32 = 30;

/// `sbatch --parsable ARGS`: the job id.
pub(super) fn sbatch(args: &[String]) -> Result<String, DistError> {
    let out = run_with_timeout(Command::new("sbatch").arg("--parsable").args(args), COMMAND_TIMEOUT)
        .map_err(|e| DistError::Backend(format!("sbatch: {e}")))?
        .ok_or_else(|| DistError::Backend(format!("sbatch did not answer within {} s", COMMAND_TIMEOUT.as_secs())))?;
    if !out.status.success() {
        return Err(DistError::Backend(format!("sbatch refused the job: {}", last_line(&out.stderr))));
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let id = text.trim().split(';').next().unwrap_or("").to_string();
    if id.is_empty() || !id.chars().all(|c| c.is_ascii_digit()) {
        return Err(DistError::Backend(format!("sbatch gave no job id: '{}'", text.trim())));
    }
    Ok(id)
}

/// `squeue` of the jobs named `names` (comma-separated), those just over
/// included: task id ("123_4") → state. `None`: squeue failed, told as a
/// note in `events`; `failures` counts the failures in a row, and
/// [`SQUEUE_FAILURES`] of them are an error.
pub(super) fn squeue_states(
    names: &str,
    failures: &mut u32,
    events: &mut Vec<Event>,
) -> Result<Option<HashMap<String, String>>, DistError> {
    let out = run_with_timeout(
        Command::new("squeue").args(["-h", "-r", "-t", "all", "--name", names, "-o", "%i %T"]),
        COMMAND_TIMEOUT,
    );
    let ok = match out {
        Ok(Some(o)) if o.status.success() => o,
        other => {
            *failures += 1;
            let why = match other {
                Ok(Some(o)) => last_line(&o.stderr),
                Ok(None) => "no answer".into(),
                Err(e) => e.to_string(),
            };
            if *failures >= SQUEUE_FAILURES {
                return Err(DistError::Backend(format!("squeue fails {failures} times in a row: {why}")));
            }
            events.push(Event::Note(format!("squeue failed ({why}); asking again")));
            return Ok(None);
        }
    };
    *failures = 0;
    Ok(Some(
        String::from_utf8_lossy(&ok.stdout)
            .lines()
            .filter_map(|l| l.split_once(' '))
            .map(|(id, state)| (id.trim().to_string(), state.trim().to_string()))
            .collect(),
    ))
}

/// `cmd` must be an executable on the PATH.
pub(super) fn need(cmd: &str) -> Result<(), DistError> {
    let found = std::env::var_os("PATH").is_some_and(|paths| {
        std::env::split_paths(&paths).any(|d| {
            let p = d.join(cmd);
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                p.metadata().is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
            }
            #[cfg(not(unix))]
            p.is_file()
        })
    });
    if found {
        Ok(())
    } else {
        Err(DistError::NoCommand(cmd.to_string()))
    }
}

/// The states of a task that is over.
pub(super) fn is_terminal(state: &str) -> bool {
    matches!(
        state,
        "COMPLETED"
            | "CANCELLED"
            | "FAILED"
            | "TIMEOUT"
            | "NODE_FAIL"
            | "PREEMPTED"
            | "OUT_OF_MEMORY"
            | "BOOT_FAIL"
            | "DEADLINE"
            | "SPECIAL_EXIT"
            | "REVOKED"
    )
}

/// A path in single quotes for sh.
pub(super) fn quoted(p: &Path) -> String {
    format!("'{}'", p.display().to_string().replace('\'', "'\\''"))
}

/// `scancel IDS`, best effort: a task already over, or a controller that
/// does not answer, leaves nothing more to do here.
pub(super) fn scancel<S: AsRef<std::ffi::OsStr>>(ids: &[S]) {
    let _ = run_with_timeout(Command::new("scancel").args(ids), COMMAND_TIMEOUT);
}
