//! A real Slurm for the tests: whether one answers here, and small functions
//! to submit work to it and wait for it, every wait with a timeout.
//! Included with `#[path = "support/slurm.rs"] mod slurm;` by tests/slurm.rs.
//!
//! The tests that need Slurm are marked
//! `#[ignore = "needs a running Slurm (scripts/peers-up as root)"]`, so a
//! plain `cargo test` counts them as ignored; `scripts/test` runs them with
//! `--ignored` only when Slurm answers (`scripts/peers-up` brings up a
//! single-node one as root). A test that runs starts with [`require`], which
//! fails it with the reason when Slurm is not there after all.
//!
//! API:
//! - [`slurm_ready`]` -> Result<(), String>`: the client commands are on the
//!   PATH, `scontrol ping` finds slurmctld up and `sinfo` shows a node that
//!   can take work (idle, mixed or allocated); else why not, in one line.
//! - [`require`]: [`slurm_ready`] or panic with its reason.
//! - [`cpus`]: the CPUs of the usable nodes, to size arrays and allocations
//!   (a request above it waits forever or is refused).
//! - [`shared_tempdir`]: a fresh directory every node sees (for the work
//!   dir, scripts, outputs): under `$GOSOLVE_SHARED_TMP` if set, else under
//!   the build's `target/tmp` (inside the checkout, shared on a cluster
//!   where the checkout is).
//! - [`run`]`(cmd, secs) -> Result<Output, String>`: run a command, killed
//!   after `secs` seconds (an error then); output collected.
//! - [`sbatch`]`(args, script) -> Result<Job, String>`: submit with
//!   `--parsable` (plus `args`, e.g. `--array=0-3`, `--chdir`, `-o`); the
//!   returned [`Job`] cancels itself with `scancel` when dropped, so a test
//!   that fails leaves nothing queued.
//! - [`Job::states`], [`Job::wait_state`]`(pred, secs)`, [`Job::wait_done`]`(secs)`:
//!   the state of each of the job's tasks (`scontrol show job`), polled
//!   until a condition holds or every task has ended (its final states
//!   returned); [`Job::cancel`] runs `scancel`.
#![allow(dead_code)]

use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Run `cmd` with its output collected; kill it and return an error after
/// `secs` seconds.
pub fn run(cmd: &mut Command, secs: u64) -> Result<Output, String> {
    let what = format!("{cmd:?}");
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {what}: {e}"))?;
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let out_reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = out.read_to_end(&mut v);
        v
    });
    let err_reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = err.read_to_end(&mut v);
        v
    });
    let end = Instant::now() + Duration::from_secs(secs);
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if Instant::now() < end => std::thread::sleep(Duration::from_millis(50)),
            Ok(None) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("{what} did not finish within {secs} s"));
            }
            Err(e) => return Err(format!("{what}: {e}")),
        }
    };
    Ok(Output { status, stdout: out_reader.join().unwrap(), stderr: err_reader.join().unwrap() })
}

/// Run a Slurm client command; its stdout when it succeeds, else one line why.
fn client(program: &str, args: &[&str], secs: u64) -> Result<String, String> {
    let out = run(Command::new(program).args(args), secs)?;
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    if out.status.success() {
        Ok(stdout)
    } else {
        let stderr = String::from_utf8_lossy(&out.stderr);
        let why = stderr.lines().chain(stdout.lines()).find(|l| !l.trim().is_empty()).unwrap_or("no output");
        Err(format!("{program} {} failed ({}): {why}", args.join(" "), out.status))
    }
}

fn on_path(program: &str) -> bool {
    std::env::var_os("PATH")
        .map(|paths| std::env::split_paths(&paths).any(|d| d.join(program).is_file()))
        .unwrap_or(false)
}

/// Node states that take work ("planned": the backfill scheduler has set
/// the node aside for a pending job, as another test's may be).
const USABLE: [&str; 5] = ["idle", "mixed", "allocated", "completing", "planned"];

/// Whether a Slurm answers here with a node that can take work; else why
/// not, in one line.
pub fn slurm_ready() -> Result<(), String> {
    for program in ["sbatch", "srun", "salloc", "scancel", "scontrol", "sinfo", "squeue"] {
        if !on_path(program) {
            return Err(format!("{program} is not on the PATH (Slurm's client commands are not installed)"));
        }
    }
    let ping = client("scontrol", &["ping"], 15)?;
    if !ping.contains("is UP") {
        return Err(format!("slurmctld is not up: {}", ping.trim().replace('\n', "; ")));
    }
    let nodes = client("sinfo", &["-h", "-N", "-o", "%N %T"], 15)?;
    if nodes.lines().any(|l| l.split_whitespace().nth(1).is_some_and(|s| USABLE.contains(&s))) {
        Ok(())
    } else if nodes.trim().is_empty() {
        Err("sinfo shows no node".into())
    } else {
        Err(format!("no node takes work: {}", nodes.trim().replace('\n', "; ")))
    }
}

/// [`slurm_ready`], or fail the test with its reason.
pub fn require() {
    if let Err(why) = slurm_ready() {
        panic!("Slurm is not usable here: {why} (scripts/peers-up as root brings up a single-node one)");
    }
}

/// The CPUs of the nodes that take work.
pub fn cpus() -> usize {
    client("sinfo", &["-h", "-N", "-o", "%T %c"], 15)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| {
            let mut f = l.split_whitespace();
            let state = f.next()?;
            let cpus: usize = f.next()?.parse().ok()?;
            USABLE.contains(&state).then_some(cpus)
        })
        .sum()
}

/// A fresh temporary directory on a path every node sees (see the module doc).
pub fn shared_tempdir() -> tempfile::TempDir {
    let base = std::env::var_os("GOSOLVE_SHARED_TMP")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_TARGET_TMPDIR")));
    std::fs::create_dir_all(&base).expect("create the shared temporary directory's parent");
    tempfile::Builder::new().prefix("slurm-test-").tempdir_in(&base).expect("a shared temporary directory")
}

/// A submitted job; dropped, it is cancelled (nothing left queued or running).
pub struct Job {
    pub id: String,
}

/// Submit `script` with `sbatch --parsable` and `args`.
pub fn sbatch(args: &[&str], script: &std::path::Path) -> Result<Job, String> {
    let mut all: Vec<&str> = vec!["--parsable"];
    all.extend_from_slice(args);
    let script = script.to_str().ok_or("a script path that is not UTF-8")?;
    all.push(script);
    let out = client("sbatch", &all, 60)?;
    let id = out.trim().split(';').next().unwrap_or("").to_string();
    if id.is_empty() || !id.chars().all(|c| c.is_ascii_digit()) {
        return Err(format!("sbatch printed no job id: {out:?}"));
    }
    Ok(Job { id })
}

impl Job {
    /// The job's tasks (one, or one per array task) and their states, e.g.
    /// `("12_3", "RUNNING")`; empty once Slurm has forgotten the job
    /// (MinJobAge after its end).
    pub fn states(&self) -> Result<Vec<(String, String)>, String> {
        let out = match client("scontrol", &["-o", "show", "job", &self.id], 15) {
            Ok(out) => out,
            Err(e) if e.contains("Invalid job id") => return Ok(Vec::new()),
            Err(e) => return Err(e),
        };
        let field =
            |line: &str, key: &str| line.split_whitespace().find_map(|f| f.strip_prefix(key)).map(str::to_string);
        Ok(out
            .lines()
            .filter_map(|l| {
                let state = field(l, "JobState=")?;
                let id = match (field(l, "ArrayJobId="), field(l, "ArrayTaskId=")) {
                    (Some(a), Some(t)) => format!("{a}_{t}"),
                    _ => field(l, "JobId=")?,
                };
                Some((id, state))
            })
            .collect())
    }

    /// Poll (every 0.2 s) until `done` holds for the tasks' states; the
    /// states then, or an error after `secs` seconds.
    pub fn wait_state(
        &self,
        done: impl Fn(&[(String, String)]) -> bool,
        secs: u64,
    ) -> Result<Vec<(String, String)>, String> {
        let end = Instant::now() + Duration::from_secs(secs);
        loop {
            let states = self.states()?;
            if done(&states) {
                return Ok(states);
            }
            if Instant::now() >= end {
                return Err(format!("job {} not there within {secs} s: {states:?}", self.id));
            }
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    /// Wait until every task has ended; their final states.
    pub fn wait_done(&self, secs: u64) -> Result<Vec<(String, String)>, String> {
        const ACTIVE: [&str; 6] = ["PENDING", "CONFIGURING", "RUNNING", "COMPLETING", "SUSPENDED", "REQUEUED"];
        self.wait_state(|s| !s.is_empty() && s.iter().all(|(_, st)| !ACTIVE.contains(&st.as_str())), secs)
    }

    /// `scancel` the job (every task).
    pub fn cancel(&self) -> Result<(), String> {
        client("scancel", &[&self.id], 30).map(|_| ())
    }
}

impl Drop for Job {
    fn drop(&mut self) {
        let _ = run(Command::new("scancel").arg(&self.id), 30);
    }
}
