//! Against a real Slurm (tests/support/slurm.rs says how one is found, and
//! scripts/peers-up brings up a single-node one as root). Every test here is
//! ignored by a plain `cargo test` (counted as ignored, not passed);
//! scripts/test runs them with `--ignored` when Slurm answers.
//!
//! The smoke tests first: the cluster runs job arrays, and job steps inside
//! an allocation, and scancel ends a running job.

#[path = "support/slurm.rs"]
mod slurm;

use gosolve::distributed::backend::job_name;
use gosolve::distributed::workdir::WorkDir;
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

// ---- gosolve's own work on Slurm (the distributed layer, `--backend slurm`)

/// `gosolve ARGS` on Slurm with a short answer grace (a single node's
/// filesystem shows a file at once), killed after `secs`.
fn gosolve_slurm(args: &[&str], secs: u64) -> std::process::Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_gosolve"));
    cmd.args(args).env("GOSOLVE_ANSWER_GRACE", "2").env_remove("SLURM_JOB_ID");
    slurm::run(&mut cmd, secs).unwrap()
}

fn succeeded(out: &std::process::Output) -> String {
    let (o, e) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "gosolve failed: {o}{e}");
    o.to_string()
}

/// A batch as a Slurm job array: every job a task of one array (its script
/// in the work dir), the records as a batch in one process writes them.
#[test]
#[ignore = "needs a running Slurm (scripts/peers-up as root)"]
fn a_batch_runs_as_a_job_array() {
    slurm::require();
    let dir = slurm::shared_tempdir();
    let manifest = dir.path().join("m.toml");
    std::fs::write(
        &manifest,
        "[[job]]\nid = \"a\"\nboard = \"2x2\"\npublished = 1\n\n[[job]]\nid = \"b\"\nboard = \"3x2\"\nmoves = \"b1 a2 b2\"\npublished = 6\n\n\
         [[job]]\nid = \"c\"\nboard = \"1x5\"\n",
    )
    .unwrap();
    let o = dir.path().join("o");
    let m = manifest.to_str().unwrap();
    let out = succeeded(&gosolve_slurm(
        &["batch", m, "--out-dir", o.to_str().unwrap(), "--backend", "slurm", "--workers", "2", "-q"],
        300,
    ));
    assert!(out.contains("3 jobs: 3 solved now"), "{out}");
    let jobs = std::fs::read_to_string(o.join("work/slurm/jobs.json")).unwrap();
    let jobs: serde_json::Value = serde_json::from_str(&jobs).unwrap();
    assert_eq!(jobs.as_array().unwrap().len(), 1, "one array: {jobs}");
    assert_eq!(jobs[0]["runs"].as_array().unwrap().len(), 3, "three tasks: {jobs}");
    for (id, value) in [("a", 1), ("b", 6), ("c", 0)] {
        let r: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(o.join(format!("batch/{id}.json"))).unwrap()).unwrap();
        assert_eq!((r["status"].as_str(), r["value"].as_i64()), (Some("solved"), Some(value)), "{id}: {r}");
    }
}

/// A sharded 2x3 table on Slurm, as job arrays and as job steps inside an
/// allocation: byte-identical to the one-process build.
#[test]
#[ignore = "needs a running Slurm (scripts/peers-up as root)"]
fn a_sharded_table_on_slurm_is_byte_identical() {
    slurm::require();
    let dir = slurm::shared_tempdir();
    let want = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("results/tables/2x3-NSTT.gtb")).unwrap();
    let arrays = dir.path().join("arrays.gtb");
    succeeded(&gosolve_slurm(
        &[
            "table",
            "build",
            "2x3",
            "--shards",
            "3",
            "--backend",
            "slurm",
            "--workers",
            "2",
            "--out",
            arrays.to_str().unwrap(),
            "-q",
        ],
        300,
    ));
    assert_eq!(std::fs::read(&arrays).unwrap(), want, "job arrays");
    // Inside an allocation: each shard a job step (srun --exclusive).
    let steps = dir.path().join("steps.gtb");
    let n = slurm::cpus().clamp(1, 2).to_string();
    let mut cmd = Command::new("salloc");
    cmd.args(["-n1", "-c", &n, "--time=5"])
        .arg(env!("CARGO_BIN_EXE_gosolve"))
        .args(["table", "build", "2x3", "--shards", "2", "--backend", "slurm", "--workers", &n, "--out"])
        .arg(&steps)
        .arg("-q")
        .env("GOSOLVE_ANSWER_GRACE", "2");
    let out = slurm::run(&mut cmd, 300).unwrap();
    assert!(out.status.success(), "salloc: {}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(std::fs::read(&steps).unwrap(), want, "job steps");
}

/// A worker cancelled with `scancel` in the middle of its job: its unit
/// runs again (from the job's checkpoint) and the batch completes; the
/// answer another task gave before is kept.
#[test]
#[ignore = "needs a running Slurm (scripts/peers-up as root)"]
fn a_worker_cancelled_with_scancel_is_run_again() {
    slurm::require();
    let dir = slurm::shared_tempdir();
    let manifest = dir.path().join("m.toml");
    // 2x7, every move's value: about 4 s on one thread.
    std::fs::write(&manifest, "[[job]]\nid = \"quick\"\nboard = \"2x2\"\n\n[[job]]\nid = \"long\"\nboard = \"2x7\"\n")
        .unwrap();
    let o = dir.path().join("o");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_gosolve"));
    cmd.args(["batch", manifest.to_str().unwrap(), "--out-dir", o.to_str().unwrap()])
        .args(["--backend", "slurm", "--workers", "2", "--checkpoints", "--table-mb", "256"])
        .env("GOSOLVE_ANSWER_GRACE", "2")
        .env_remove("SLURM_JOB_ID")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let manager = cmd.spawn().unwrap();
    let log = o.join("work/logs/long.1.log");
    let started = std::time::Instant::now();
    while !std::fs::read_to_string(&log).unwrap_or_default().contains("(pid ") {
        assert!(started.elapsed().as_secs() < 120, "the long job did not start");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    std::thread::sleep(std::time::Duration::from_millis(800));
    let jobs: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(o.join("work/slurm/jobs.json")).unwrap()).unwrap();
    let task = jobs[0]["runs"].as_array().unwrap().iter().position(|r| r[0] == "long").unwrap();
    let id = format!("{}_{}", jobs[0]["job_id"].as_str().unwrap(), task);
    let cancel = slurm::run(Command::new("scancel").arg(&id), 30).unwrap();
    assert!(cancel.status.success(), "scancel {id}");
    let done = manager.wait_with_output().unwrap();
    let (stdout, stderr) = (String::from_utf8_lossy(&done.stdout), String::from_utf8_lossy(&done.stderr));
    assert!(done.status.success(), "{stdout}{stderr}");
    assert!(stderr.contains("long: no answer") && stderr.contains("running it again"), "{stderr}");
    assert!(stdout.contains("2 jobs: 2 solved now"), "{stdout}");
    let second = std::fs::read_to_string(o.join("work/logs/long.2.log")).unwrap();
    assert!(second.contains("resumed from"), "the cancelled job resumes from its checkpoint: {second}");
    let quick = std::fs::read_to_string(o.join("work/answers/quick.json")).unwrap();
    assert!(quick.contains("\"status\": \"done\""), "{quick}");
}

/// A work dir the nodes do not share (here: a worker binary that writes
/// nothing where it is asked, as a node that mounts another directory
/// would) and a worker binary of another version are each refused in one
/// line, and nothing is left queued.
#[test]
#[ignore = "needs a running Slurm (scripts/peers-up as root)"]
fn a_work_dir_not_shared_or_another_version_is_refused() {
    slurm::require();
    let dir = slurm::shared_tempdir();
    let silent = script(dir.path(), "silent-gosolve", "exit 0");
    let old = script(
        dir.path(),
        "old-gosolve",
        r#"printf '{"gosolve_version":"9.9.9","protocol":1,"host":"x","pid":1}' > "$3""#,
    );
    let out_path = dir.path().join("t.gtb");
    let out = out_path.to_str().unwrap();
    for (bin, want) in [(&silent, "is not shared with the workers"), (&old, "is gosolve 9.9.9")] {
        let o = gosolve_slurm(
            &[
                "table",
                "build",
                "2x3",
                "--shards",
                "2",
                "--backend",
                "slurm",
                "--out",
                out,
                "--worker-bin",
                bin.to_str().unwrap(),
                "-q",
                "--force",
            ],
            300,
        );
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "one line: {stderr}");
        assert!(stderr.contains(want), "{stderr}");
    }
    // This test's jobs only (named after its work dir, `<out>.work`, as in
    // tests/slurm_solve.rs): the other tests of this file run beside it and
    // may have jobs queued.
    let work = WorkDir::open(Path::new(&format!("{out}.work"))).unwrap();
    let names = format!("{n},{n}-probe", n = job_name(&work));
    let q = slurm::run(Command::new("squeue").args(["-h", "--name", &names, "-o", "%j %T"]), 30).unwrap();
    let left: Vec<String> = String::from_utf8_lossy(&q.stdout)
        .lines()
        .filter(|l| !l.contains("COMPLET") && !l.contains("CANCELLED"))
        .map(str::to_string)
        .collect();
    assert!(left.is_empty(), "jobs left queued: {left:?}");
    assert!(!out_path.exists());
}

/// The manager killed with `kill -9` while its array task runs: the task
/// goes on (Slurm's jobs outlive their manager), and the same command
/// started again watches it instead of sending its unit twice.
#[test]
#[ignore = "needs a running Slurm (scripts/peers-up as root)"]
fn a_manager_killed_watches_its_tasks_again() {
    slurm::require();
    let dir = slurm::shared_tempdir();
    let manifest = dir.path().join("m.toml");
    // 3x5, every move's value: about 7 s on one thread.
    std::fs::write(&manifest, "[[job]]\nid = \"long\"\nboard = \"3x5\"\n").unwrap();
    let o = dir.path().join("o");
    let args = |cmd: &mut Command| {
        cmd.args(["batch", manifest.to_str().unwrap(), "--out-dir", o.to_str().unwrap()])
            .args(["--backend", "slurm", "--workers", "1", "--table-mb", "256"])
            .env("GOSOLVE_ANSWER_GRACE", "2")
            .env_remove("SLURM_JOB_ID");
    };
    let mut first = Command::new(env!("CARGO_BIN_EXE_gosolve"));
    args(&mut first);
    let mut manager = first.stdout(std::process::Stdio::null()).stderr(std::process::Stdio::null()).spawn().unwrap();
    let log = o.join("work/logs/long.1.log");
    let started = std::time::Instant::now();
    while !std::fs::read_to_string(&log).unwrap_or_default().contains("(pid ") {
        assert!(started.elapsed().as_secs() < 120, "the job did not start");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    manager.kill().unwrap();
    manager.wait().unwrap();
    let mut again = Command::new(env!("CARGO_BIN_EXE_gosolve"));
    args(&mut again);
    let out = slurm::run(&mut again, 300).unwrap();
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(stderr.contains("left by an earlier manager are watched again"), "{stderr}");
    assert!(stdout.contains("1 jobs: 1 solved now"), "{stdout}");
    assert!(!o.join("work/logs/long.2.log").exists(), "the unit ran once");
}
