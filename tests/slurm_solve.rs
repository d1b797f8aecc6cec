//! The distributed solve through a real Slurm (`--backend slurm`: outside
//! an allocation each worker is a long-lived Slurm task, and `verify`'s
//! units are tasks of `sbatch` job arrays): a claim decided as the
//! one-process solve decides it, its proof verified on Slurm too; a value
//! whose running worker task is cancelled with `scancel` comes out the
//! same (the task replaced, its unit sent again); a manager killed with
//! `kill -9` while its tasks run leaves them to the next manager, which
//! cancels them and ends with the same value (never started again, the
//! tasks end on their own once no manager is heard from); and inside an allocation
//! (`salloc`) the workers are long-lived job steps, each answering unit
//! after unit.
//!
//! Marked ignored: a plain `cargo test` has no Slurm. With one up (the
//! single-node Slurm of `scripts/peers-up`, as root), run them with
//! `cargo test --test slurm_solve -- --ignored`; a test that runs without
//! one fails with the reason.

use gosolve::distributed::backend::job_name;
use gosolve::distributed::WorkDir;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[path = "support/cli.rs"]
mod cli;

/// Slurm answers here, or the reason in one line.
fn require_slurm() {
    let ok = Command::new("sinfo").args(["-h", "-o", "%T"]).output();
    match ok {
        Ok(o) if o.status.success() && !String::from_utf8_lossy(&o.stdout).trim().is_empty() => {}
        Ok(o) => panic!("Slurm does not answer: sinfo: {}", String::from_utf8_lossy(&o.stderr).trim()),
        Err(e) => panic!("no Slurm here: sinfo: {e}"),
    }
}

/// A fresh directory every node sees: under the build's target dir (on a
/// cluster, in the checkout every node mounts).
fn shared_dir(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("slurm-solve-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn json(out: &str) -> serde_json::Value {
    serde_json::from_str(out).unwrap_or_else(|e| panic!("{e}: {out}"))
}

/// A claim through Slurm job arrays: the one-process outcome; the proof
/// verified with its leaves proved again as Slurm tasks.
#[test]
#[ignore = "needs a running Slurm (scripts/peers-up as root)"]
fn a_distributed_claim_through_slurm() {
    require_slurm();
    let d = shared_dir("claim");
    let w = d.join("w");
    let base = ["solve", "2x3", "--moves", "b2", "--at-least", "1", "--table-mb", "1", "-q", "--json"];
    let dist =
        [&base[..], &["--workers", "2", "--backend", "slurm", "--work-dir", s(&w), "--unit-nodes", "40"]].concat();
    let r = json(&cli::ok(&dist));
    let one = json(&cli::ok(&base));
    assert_eq!(r["holds"], one["holds"], "{r}");
    assert_eq!(r["distributed"]["backend"], "slurm");
    assert!(r["distributed"]["units"].as_u64().unwrap() > 1, "{r}");
    let v = cli::ok(&["verify", s(&w), "--workers", "2", "--backend", "slurm", "--table-mb", "1", "-q"]);
    assert!(v.contains("proof verified") && v.contains("Slurm"), "{v}");
    let _ = std::fs::remove_dir_all(&d);
}

/// The value of 3x3 after b2 a1 on two Slurm worker tasks (units of 4,000
/// nodes, so the tasks run for a while): the test's shared dir, the work
/// dir's Slurm job name, and the one-process and distributed commands.
struct ValueOnSlurm {
    dir: PathBuf,
    name: String,
    base: Vec<String>,
    dist: Vec<String>,
}

impl ValueOnSlurm {
    fn new(tag: &str) -> ValueOnSlurm {
        require_slurm();
        let dir = shared_dir(tag);
        let w = dir.join("w");
        let name = job_name(&WorkDir::open(&w).unwrap());
        let base = ["solve", "3x3", "--moves", "b2 a1", "--value-only", "--table-mb", "1", "-q", "--json"];
        let extra = ["--workers", "2", "--backend", "slurm", "--work-dir", s(&w), "--unit-nodes", "4000"];
        let own = |a: &[&str]| a.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        ValueOnSlurm { name, base: own(&base), dist: own(&[&base[..], &extra[..]].concat()), dir }
    }

    fn args(v: &[String]) -> Vec<&str> {
        v.iter().map(String::as_str).collect()
    }

    /// The work dir's Slurm tasks (array tasks `JOB_K`), those running
    /// only or in any live state.
    fn tasks(&self, running: bool) -> Vec<String> {
        let mut cmd = Command::new("squeue");
        cmd.args(["-h", "-r", "--name", &self.name, "-o", "%i"]);
        if running {
            cmd.args(["-t", "RUNNING"]);
        }
        let out = cmd.output().unwrap();
        assert!(out.status.success(), "squeue: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).lines().map(|l| l.trim().to_string()).filter(|l| l.contains('_')).collect()
    }

    /// Start the distributed solve (with `env` set), wait until one of its
    /// tasks runs, kill its manager with `kill -9`; the tasks then queued.
    fn kill_the_manager_once_running(&self, env: &[(&str, &str)]) -> Vec<String> {
        let mut cmd = cli::command(&ValueOnSlurm::args(&self.dist));
        cmd.envs(env.iter().copied()).stdout(Stdio::null()).stderr(Stdio::null());
        let mut manager = cmd.spawn().unwrap();
        let until = Instant::now() + Duration::from_secs(120);
        while self.tasks(true).is_empty() {
            assert!(manager.try_wait().unwrap().is_none(), "the solve ended before a task was seen running");
            assert!(Instant::now() < until, "no task of the solve ran within 120 s");
            std::thread::sleep(Duration::from_millis(100));
        }
        let _ = Command::new("kill").args(["-9", &manager.id().to_string()]).status();
        let _ = manager.wait();
        self.tasks(false)
    }

    /// Wait up to `secs` for the queue to hold none of the work dir's tasks;
    /// those still there.
    fn queue_emptied(&self, secs: u64) -> Vec<String> {
        let until = Instant::now() + Duration::from_secs(secs);
        while !self.tasks(false).is_empty() && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(250));
        }
        self.tasks(false)
    }
}

/// A value on Slurm with one of its running worker tasks cancelled
/// (`scancel`): the task is replaced, its unit runs again, and the value is
/// the one-process value.
#[test]
#[ignore = "needs a running Slurm (scripts/peers-up as root)"]
fn a_cancelled_task_runs_again_and_the_value_stands() {
    let v = ValueOnSlurm::new("scancel");
    let child =
        cli::command(&ValueOnSlurm::args(&v.dist)).stdout(Stdio::piped()).stderr(Stdio::null()).spawn().unwrap();
    // Cancel the first task seen running.
    let until = Instant::now() + Duration::from_secs(120);
    let mut cancelled = None;
    while cancelled.is_none() && Instant::now() < until {
        if let Some(task) = v.tasks(true).into_iter().next() {
            assert!(Command::new("scancel").arg(&task).status().unwrap().success());
            cancelled = Some(task);
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "the solve failed after the scancel of {cancelled:?}");
    let r = json(&String::from_utf8_lossy(&out.stdout));
    let one = json(&cli::ok(&ValueOnSlurm::args(&v.base)));
    assert_eq!(r["value"], one["value"], "{r}");
    assert!(cancelled.is_some(), "no task was seen running to cancel");
    let _ = std::fs::remove_dir_all(&v.dir);
}

/// The manager of a value on Slurm killed with `kill -9` while its worker
/// tasks run: the tasks outlive it (Slurm's jobs are not the manager's
/// children), and the same command started again cancels them, resumes
/// from the state on disk and ends with the one-process value, leaving no
/// task of the work dir in the queue.
#[test]
#[ignore = "needs a running Slurm (scripts/peers-up as root)"]
fn a_manager_killed_leaves_its_tasks_to_the_next() {
    let v = ValueOnSlurm::new("kill9");
    let (base, dist) = (ValueOnSlurm::args(&v.base), ValueOnSlurm::args(&v.dist));
    let left = v.kill_the_manager_once_running(&[]);
    assert!(!left.is_empty(), "the killed manager's tasks are gone already");
    let r = json(&cli::ok(&dist));
    assert_eq!(r["distributed"]["resumed"], true, "{r}");
    let one = json(&cli::ok(&base));
    assert_eq!(r["value"], one["value"], "{r}");
    // The earlier manager's tasks were cancelled and the second manager's
    // stopped at its end: none is left behind in the queue.
    assert_eq!(v.queue_emptied(60), Vec::<String>::new(), "tasks left after {left:?}");
    let _ = std::fs::remove_dir_all(&v.dir);
}

/// The same, but the killed manager is never started again: its tasks,
/// idle once their units are answered, see no sign of life from a manager
/// for `GOSOLVE_MANAGER_TIMEOUT` (exported to them by `sbatch`) and end
/// on their own, leaving the queue without an `scancel`.
#[test]
#[ignore = "needs a running Slurm (scripts/peers-up as root)"]
fn the_tasks_of_a_manager_gone_for_good_end_on_their_own() {
    let v = ValueOnSlurm::new("gone");
    let left = v.kill_the_manager_once_running(&[("GOSOLVE_MANAGER_TIMEOUT", "3")]);
    assert_eq!(v.queue_emptied(90), Vec::<String>::new(), "tasks still queued after 90 s: {left:?}");
    let logs: String = std::fs::read_dir(v.dir.join("w").join("logs"))
        .unwrap()
        .flatten()
        .map(|e| std::fs::read_to_string(e.path()).unwrap_or_default())
        .collect();
    assert!(logs.contains("no sign of life from a manager"), "{logs}");
    let _ = std::fs::remove_dir_all(&v.dir);
}

/// A value inside an allocation: the workers are two long-lived job steps
/// (`srun --exclusive ... worker --serve`), each answering unit after unit;
/// the value is the one-process value.
#[test]
#[ignore = "needs a running Slurm (scripts/peers-up as root)"]
fn long_lived_job_steps_inside_an_allocation() {
    require_slurm();
    let d = shared_dir("steps");
    let w = d.join("w");
    let base = ["solve", "3x3", "--moves", "b2 a1", "--value-only", "--table-mb", "1", "-q", "--json"];
    let dist =
        [&base[..], &["--workers", "2", "--backend", "slurm", "--work-dir", s(&w), "--unit-nodes", "60"]].concat();
    let out = Command::new("salloc")
        .args(["-n", "2", "--time=5", env!("CARGO_BIN_EXE_gosolve")])
        .args(&dist)
        .current_dir(&d)
        .output()
        .unwrap();
    assert!(out.status.success(), "salloc: {}", String::from_utf8_lossy(&out.stderr));
    let r = json(&String::from_utf8_lossy(&out.stdout));
    let one = json(&cli::ok(&base));
    assert_eq!(r["value"], one["value"], "{r}");
    let mut units_by_pid: std::collections::BTreeMap<u64, u64> = Default::default();
    for e in std::fs::read_dir(w.join("answers")).unwrap().flatten() {
        let a = json(&std::fs::read_to_string(e.path()).unwrap());
        let (pid, units) = (a["worker"]["pid"].as_u64().unwrap(), a["worker"]["units"].as_u64().unwrap());
        let top = units_by_pid.entry(pid).or_default();
        *top = (*top).max(units);
    }
    assert!(units_by_pid.len() <= 2 && units_by_pid.values().any(|&n| n >= 2), "{units_by_pid:?}");
    let _ = std::fs::remove_dir_all(&d);
}
