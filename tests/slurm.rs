//! Against a real Slurm (tests/support/slurm.rs says how one is found, and
//! scripts/peers-up brings up a single-node one as root). Every test here is
//! ignored by a plain `cargo test` (counted as ignored, not passed);
//! scripts/test runs them with `--ignored` when Slurm answers.
//!
//! The smoke tests first: the cluster runs job arrays, and job steps inside
//! an allocation, and scancel ends a running job.

#[path = "support/slurm.rs"]
mod slurm;

use std::path::Path;
use std::process::Command;

/// An executable shell script `name` in `dir` with `body`.
fn script(dir: &Path, name: &str, body: &str) -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\nset -e\n{body}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

#[test]
#[ignore = "needs a running Slurm (scripts/peers-up as root)"]
fn job_array_runs_every_task() {
    slurm::require();
    let dir = slurm::shared_tempdir();
    let d = dir.path().to_str().unwrap();
    let job = script(
        dir.path(),
        "task.sh",
        r#"echo "$SLURM_ARRAY_JOB_ID $SLURM_ARRAY_TASK_ID" > "out.$SLURM_ARRAY_TASK_ID.tmp"
mv "out.$SLURM_ARRAY_TASK_ID.tmp" "out.$SLURM_ARRAY_TASK_ID""#,
    );
    let out = slurm::run(
        Command::new("sbatch")
            .args(["--array=0-3", "--wait", "--time=2", "--job-name=gosolve-smoke"])
            .args(["--chdir", d, "--output", &format!("{d}/slurm-%A_%a.out")])
            .arg(&job),
        120,
    )
    .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "sbatch --wait: {}{}", stdout, String::from_utf8_lossy(&out.stderr));
    let id = stdout.trim().rsplit(' ').next().unwrap().to_string();
    for task in 0..4 {
        let text = std::fs::read_to_string(dir.path().join(format!("out.{task}")))
            .unwrap_or_else(|e| panic!("array task {task} left no output: {e}"));
        assert_eq!(text.trim(), format!("{id} {task}"), "task {task}");
    }
}

#[test]
#[ignore = "needs a running Slurm (scripts/peers-up as root)"]
fn exclusive_steps_inside_an_allocation() {
    slurm::require();
    let dir = slurm::shared_tempdir();
    let d = dir.path().to_str().unwrap();
    // Three one-task steps in a two-task allocation: two run at once, the
    // third waits for a free CPU (srun --exclusive), then all have run.
    let n = slurm::cpus().clamp(1, 2).to_string();
    let body = "for i in 1 2 3; do srun --exclusive -n1 -N1 sh -c 'echo \"$SLURM_JOB_ID $SLURM_STEP_ID\" > step.$0' $i & done; wait";
    let out = slurm::run(
        Command::new("salloc").args(["-n", &n, "--time=2", "--chdir", d, "sh", "-c", body]).current_dir(d),
        120,
    )
    .unwrap();
    assert!(out.status.success(), "salloc: {}", String::from_utf8_lossy(&out.stderr));
    let mut steps = Vec::new();
    let mut jobs = Vec::new();
    for i in 1..=3 {
        let text = std::fs::read_to_string(dir.path().join(format!("step.{i}")))
            .unwrap_or_else(|e| panic!("step {i} left no output: {e}"));
        let mut f = text.split_whitespace();
        jobs.push(f.next().unwrap().to_string());
        steps.push(f.next().unwrap().to_string());
    }
    assert!(jobs.iter().all(|j| *j == jobs[0]), "one allocation: {jobs:?}");
    steps.sort();
    steps.dedup();
    assert_eq!(steps.len(), 3, "three job steps: {steps:?}");
}

#[test]
#[ignore = "needs a running Slurm (scripts/peers-up as root)"]
fn scancel_ends_a_running_job() {
    slurm::require();
    let dir = slurm::shared_tempdir();
    let d = dir.path().to_str().unwrap();
    let body = "echo $$ > pid.tmp && mv pid.tmp pid\nexec sleep 600";
    let job =
        slurm::sbatch(&["--time=5", "--chdir", d, "--output", "/dev/null"], &script(dir.path(), "sleep.sh", body))
            .unwrap();
    let pid_file = dir.path().join("pid");
    let started = std::time::Instant::now();
    while !pid_file.exists() {
        assert!(started.elapsed().as_secs() < 60, "the job did not start within 60 s: {:?}", job.states());
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let pid = std::fs::read_to_string(&pid_file).unwrap().trim().to_string();
    job.cancel().unwrap();
    let states = job.wait_done(60).unwrap();
    assert!(states.iter().all(|(_, s)| s == "CANCELLED"), "{states:?}");
    // The job's process is gone too (killed by slurmd, not left behind).
    let gone = slurm::run(
        Command::new("sh").args(["-c", &format!("while kill -0 {pid} 2>/dev/null; do sleep 0.1; done")]),
        30,
    );
    assert!(gone.is_ok(), "process {pid} of the cancelled job still runs");
}
