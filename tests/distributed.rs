//! Distributed work on the local backend (worker processes of this build):
//! sharded tables byte-identical to one-process builds, a batch on workers
//! recording what a batch in one process records, a claim unit and its
//! delta, a manager killed (`kill -9`) or interrupted and a worker killed or
//! preempted, each resumed without losing a proved answer, and every kind
//! of bad input refused in one line. Tiny boards, so the file runs in
//! about half a minute. tests/slurm.rs runs the same on a real Slurm.

#[path = "support/cli.rs"]
mod cli;

use cli::{command, fails_one_line, ok};
use gosolve::distributed::protocol::{position_spec, Answer, ClaimWork, Outcome, Unit, UnitResult, Work};
use gosolve::distributed::WorkDir;
use gosolve::{Color, Game, Geometry, Position, Rules};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The committed one-process build of a board (`results/tables/`).
fn committed(name: &str) -> Vec<u8> {
    std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("results/tables").join(name)).unwrap()
}

/// Wait (at most `secs`) until `f` holds.
fn wait_until(secs: u64, what: &str, mut f: impl FnMut() -> bool) {
    let until = Instant::now() + Duration::from_secs(secs);
    while !f() {
        assert!(Instant::now() < until, "{what}: not within {secs} s");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Files in a folder.
fn count(dir: &Path, ext: &str) -> usize {
    std::fs::read_dir(dir)
        .map(|d| d.filter(|e| e.as_ref().unwrap().path().extension().is_some_and(|x| x == ext)).count())
        .unwrap_or(0)
}

/// The pid a worker's log names ("... (pid N on HOST) ...").
fn worker_pid(log: &Path) -> Option<i32> {
    let text = std::fs::read_to_string(log).ok()?;
    let at = text.find("(pid ")? + 5;
    text[at..].split_whitespace().next()?.parse().ok()
}

fn alive(pid: i32) -> bool {
    Path::new(&format!("/proc/{pid}")).exists()
        && !std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default().contains(") Z ")
}

fn signal(pid: u32, sig: &str) {
    let st = Command::new("kill").args([&format!("-{sig}"), &pid.to_string()]).status().unwrap();
    assert!(st.success(), "kill -{sig} {pid}");
}

fn start(args: &[&str]) -> Child {
    command(args).stdout(Stdio::null()).stderr(Stdio::piped()).spawn().unwrap()
}

/// Sharded builds of 2x3 (both rule sets) and 3x3 give the bytes of the
/// committed one-process builds; a second run finds the table complete.
#[test]
fn sharded_tables_are_byte_identical_to_one_process_builds() {
    let d = tempfile::tempdir().unwrap();
    for (board, rules, shards, file) in [
        ("2x3", "--no-suicide", "3", "2x3-NSTT.gtb"),
        ("2x3", "--suicide", "2", "2x3-TT.gtb"),
        ("3x3", "--no-suicide", "4", "3x3-NSTT.gtb"),
    ] {
        let out = d.path().join(file);
        let json = ok(&[
            "table",
            "build",
            board,
            rules,
            "--shards",
            shards,
            "--workers",
            "2",
            "--out",
            s(&out),
            "--json",
            "-q",
        ]);
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(v["status"], "complete", "{json}");
        assert_eq!(
            std::fs::read(&out).unwrap(),
            committed(file),
            "{board} {rules}: sharded and one-process builds differ"
        );
        let work = PathBuf::from(format!("{}.work", out.display()));
        assert_eq!(
            count(&work.join("answers"), "json"),
            shards.parse::<usize>().unwrap(),
            "default work dir <out>.work"
        );
    }
    let out = d.path().join("2x3-NSTT.gtb");
    let again = ok(&["table", "build", "2x3", "--shards", "3", "--out", s(&out), "-q"]);
    assert!(again.contains("already a complete table"), "{again}");
}

/// A batch on two local workers records what a batch in one process
/// records; a rerun skips the solved jobs.
#[test]
fn a_batch_on_workers_records_as_one_process() {
    let d = tempfile::tempdir().unwrap();
    let manifest = d.path().join("m.toml");
    std::fs::write(
        &manifest,
        "[[job]]\nid = \"a\"\nboard = \"2x2\"\npublished = 1\n\n[[job]]\nid = \"b\"\nboard = \"3x2\"\nmoves = \"b1 a2 b2\"\n\n\
         [[job]]\nid = \"c\"\nboard = \"1x5\"\nsuicide = true\n\n[[job]]\nid = \"d\"\nboard = \"2x3\"\nkomi = 0.5\n",
    )
    .unwrap();
    let (one, two) = (d.path().join("one"), d.path().join("two"));
    ok(&["batch", s(&manifest), "--out-dir", s(&one), "-q"]);
    let text = ok(&["batch", s(&manifest), "--out-dir", s(&two), "--workers", "2", "-q"]);
    assert!(text.contains("4 jobs: 4 solved now"), "{text}");
    for id in ["a", "b", "c", "d"] {
        let read = |dir: &Path| -> serde_json::Value {
            serde_json::from_str(&std::fs::read_to_string(dir.join("batch").join(format!("{id}.json"))).unwrap())
                .unwrap()
        };
        let (x, y) = (read(&one), read(&two));
        for field in ["status", "value", "value_with_komi", "pv", "moves", "spec_hash", "history", "rules", "agree"] {
            assert_eq!(x[field], y[field], "job {id}: {field}");
        }
    }
    assert!(two.join("summary.md").exists() && two.join("work/answers/a.json").exists());
    let again = ok(&["batch", s(&manifest), "--out-dir", s(&two), "--workers", "2", "-q"]);
    assert!(again.contains("0 solved now, 4 already solved"), "{again}");
}

/// `batch --needed` on workers: each round's claims are units (a job sent
/// again with its next claim), and the records end with the bounds of a
/// run in one process (1x7 = +2 from its first moves).
#[test]
fn needed_claims_on_workers_bound_as_in_one_process() {
    let d = tempfile::tempdir().unwrap();
    let manifest = d.path().join("m.toml");
    let mut text = String::from("[defaults]\nvalue_only = true\n");
    for mv in ["pass", "a1", "a2", "a3", "a4"] {
        text.push_str(&format!("\n[[job]]\nid = \"{mv}\"\nboard = \"1x7\"\nmoves = \"{mv}\"\n"));
    }
    std::fs::write(&manifest, text).unwrap();
    let (one, two) = (d.path().join("one"), d.path().join("two"));
    for dir in [&one, &two] {
        ok(&["batch", s(&manifest), "--out-dir", s(dir), "--only", "a3", "--table-mb", "64", "-q"]);
    }
    ok(&["batch", s(&manifest), "--out-dir", s(&one), "--needed", "--table-mb", "64", "-q"]);
    let out =
        ok(&["batch", s(&manifest), "--out-dir", s(&two), "--needed", "--workers", "2", "--table-mb", "64", "-q"]);
    assert!(out.contains("| empty, B to move | 1x7 | **+2** |"), "{out}");
    for id in ["pass", "a1", "a2", "a4"] {
        let read = |dir: &Path| -> serde_json::Value {
            serde_json::from_str(&std::fs::read_to_string(dir.join("batch").join(format!("{id}.json"))).unwrap())
                .unwrap()
        };
        let (x, y) = (read(&one), read(&two));
        for field in ["status", "value", "spec_hash"] {
            assert_eq!(x[field], y[field], "job {id}: {field}");
        }
        assert_eq!(x["bounds"]["at_least"], y["bounds"]["at_least"], "job {id}");
        assert_eq!(x["bounds"]["at_most"], y["bounds"]["at_most"], "job {id}");
    }
}

/// A claim unit written with the library and run by `gosolve worker`:
/// proved and refuted with their lines, a delta that holds only what the
/// worker found beyond the shared checkpoint it read, and the delta merged
/// back into the shared checkpoint by `gosolve checkpoint merge`.
#[test]
fn a_claim_unit_answers_with_its_delta() {
    let d = tempfile::tempdir().unwrap();
    let work = WorkDir::open(&d.path().join("w")).unwrap();
    let geo = Geometry::new(3, 3).unwrap();
    let empty = Game::new(geo, Rules::default(), Position::EMPTY, Color::Black).unwrap();
    // The shared checkpoint: what a solve of the position after b2 proved.
    let shared = work.root().join("shared.ck");
    ok(&[
        "solve",
        "3x3",
        "--moves",
        "b2",
        "--value-only",
        "--threads",
        "1",
        "--table-mb",
        "16",
        "--checkpoint",
        s(&shared),
        "-q",
    ]);
    let claim = |id: &str, value: i32| {
        let w = Work::Claim(ClaimWork {
            position: position_spec(id, &empty),
            at_least: true,
            value,
            node_limit: None,
            time_limit: None,
            read_checkpoint: Some("shared.ck".into()),
            write_delta: true,
            checkpoint_every: None,
            alpha_beta: false,
            no_path_symmetry: false,
        });
        let unit = Unit::new(id, &geo, 1, 16, w);
        let path = work.unit_path(id);
        std::fs::write(&path, serde_json::to_string(&unit).unwrap()).unwrap();
        let st = command(&["worker", s(&path)]).stderr(Stdio::null()).status().unwrap();
        assert_eq!(st.code(), Some(0), "{id}");
        let a = Answer::read(&work.answer_path(id)).unwrap();
        assert_eq!(a.unit_hash, unit.hash());
        a
    };
    // The empty 3x3 board is +9 for Black.
    let yes = claim("at-least-9", 9);
    assert_eq!(yes.outcome, Outcome::Proved);
    let no = claim("at-least-10", 10);
    assert_eq!(no.outcome, Outcome::Refuted);
    let Some(UnitResult::Claim { pv, .. }) = &yes.result else { panic!("{yes:?}") };
    assert!(!pv.is_empty());
    let delta = yes.delta.clone().unwrap();
    assert!(!delta.whole_table && delta.results > 0, "{delta:?}");
    let delta = work.resolve(&delta.path);
    let merged = work.root().join("merged.ck");
    let json = ok(&["checkpoint", "merge", s(&shared), s(&delta), "-o", s(&merged), "--json"]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["inputs"][1]["duplicates"], 0, "the delta holds nothing of the shared checkpoint: {json}");
    assert!(v["results"].as_u64().unwrap() > v["inputs"][0]["results"].as_u64().unwrap(), "{json}");
    let merged_bytes = v["bytes"].as_u64().unwrap();
    // The merged checkpoint answers the claim at once.
    let out = ok(&["solve", "3x3", "--at-least", "9", "--checkpoint", s(&merged), "--threads", "1", "--json", "-q"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["holds"], true, "{out}");
    // Trimmed to its costlier results, without guide numbers: smaller, and
    // the claim still holds with it.
    let trimmed = work.root().join("trimmed.ck");
    let json =
        ok(&["checkpoint", "merge", s(&merged), "-o", s(&trimmed), "--min-work", "64", "--no-guide-numbers", "--json"]);
    let t: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(t["guide_numbers"], 0, "{json}");
    assert!(t["trimmed"].as_u64().unwrap() > 0, "{json}");
    assert!(t["bytes"].as_u64().unwrap() < merged_bytes, "{json}");
    let out = ok(&["solve", "3x3", "--at-least", "9", "--checkpoint", s(&trimmed), "--threads", "1", "--json", "-q"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["holds"], true, "{out}");
}

/// A unit written by another gosolve version is refused: exit 3, one
/// line, and an answer saying so (the manager stops on it).
#[test]
fn a_unit_of_another_version_is_refused() {
    let d = tempfile::tempdir().unwrap();
    let work = WorkDir::open(d.path()).unwrap();
    let geo = Geometry::new(2, 2).unwrap();
    let game = Game::new(geo, Rules::default(), Position::EMPTY, Color::Black).unwrap();
    let w = Work::Claim(ClaimWork {
        position: position_spec("old", &game),
        at_least: true,
        value: 1,
        node_limit: None,
        time_limit: None,
        read_checkpoint: None,
        write_delta: false,
        checkpoint_every: None,
        alpha_beta: false,
        no_path_symmetry: false,
    });
    let unit = Unit { gosolve_version: "0.0.1".into(), ..Unit::new("old", &geo, 1, 16, w) };
    let path = work.unit_path("old");
    std::fs::write(&path, serde_json::to_string(&unit).unwrap()).unwrap();
    let out = command(&["worker", s(&path)]).output().unwrap();
    assert_eq!(out.status.code(), Some(3));
    let stderr = String::from_utf8_lossy(&out.stderr);
    let errors: Vec<&str> = stderr.lines().filter(|l| l.starts_with("gosolve: error: ")).collect();
    assert_eq!(errors.len(), 1, "{stderr}");
    assert!(errors[0].contains("gosolve 0.0.1"), "{stderr}");
    let a = Answer::read(&work.answer_path("old")).unwrap();
    assert!(matches!(a.outcome, Outcome::Failed { retry: false, .. }), "{a:?}");
}

/// The manager killed with `kill -9` in the middle of a sharded build: its
/// worker goes with it, and the same command resumes, taking the shards
/// answered before; the table is complete.
#[test]
fn a_manager_killed_loses_no_answer() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("t.gtb");
    let work = d.path().join("t.gtb.work");
    let args = ["table", "build", "2x4", "--shards", "6", "--workers", "1", "--out", s(&out), "-q"];
    let mut manager = start(&args);
    wait_until(60, "a first shard answered", || count(&work.join("answers"), "json") >= 1);
    let logs: Vec<PathBuf> = std::fs::read_dir(work.join("logs")).unwrap().map(|e| e.unwrap().path()).collect();
    signal(manager.id(), "KILL");
    manager.wait().unwrap();
    // Its workers are told (SIGTERM) and end.
    for log in &logs {
        if let Some(pid) = worker_pid(log) {
            wait_until(30, "the worker of a killed manager ended", || !alive(pid));
        }
    }
    let before = count(&work.join("answers"), "json");
    let json = ok(&["table", "build", "2x4", "--shards", "6", "--workers", "1", "--out", s(&out), "-q", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["status"], "complete", "{json}");
    assert!(v["shards_reused"].as_u64().unwrap() as usize >= before.min(1), "{json}");
    let info = ok(&["table", "info", s(&out), "--json"]);
    assert!(info.contains("\"complete\": true"), "{info}");
}

/// Ctrl-C (SIGINT) stops the manager and its workers in order (each
/// saves its checkpoint); the same command then finishes the build.
#[test]
fn an_interrupted_manager_resumes() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("t.gtb");
    let work = d.path().join("t.gtb.work");
    let args =
        ["table", "build", "2x4", "--shards", "4", "--workers", "1", "--out", s(&out), "-q", "--checkpoint-secs", "0"];
    let manager = start(&args);
    wait_until(60, "a first shard answered", || count(&work.join("answers"), "json") >= 1);
    signal(manager.id(), "INT");
    let done = manager.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&done.stderr);
    assert_eq!(done.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("interrupted") && stderr.contains("run the same command again"), "{stderr}");
    let json = ok(&["table", "build", "2x4", "--shards", "4", "--workers", "1", "--out", s(&out), "-q", "--json"]);
    assert!(json.contains("\"status\": \"complete\""), "{json}");
}

/// A batch job's worker killed with `kill -9` is run again; one preempted
/// (SIGTERM, as Slurm's preemption or scancel) saves the job's checkpoint,
/// and its next run resumes from it.
#[test]
fn killed_and_preempted_workers_are_run_again() {
    let d = tempfile::tempdir().unwrap();
    let manifest = d.path().join("m.toml");
    // 2x7, every move's value: about 4 s on one thread.
    std::fs::write(&manifest, "[[job]]\nid = \"long\"\nboard = \"2x7\"\n").unwrap();
    for (sig, checkpoints) in [("KILL", false), ("TERM", true)] {
        let o = d.path().join(format!("o-{sig}"));
        let mut args = vec!["batch", s(&manifest), "--out-dir", s(&o), "--workers", "1", "--table-mb", "256"];
        if checkpoints {
            args.push("--checkpoints");
        }
        let manager = command(&args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
        let log = o.join("work/logs/long.1.log");
        wait_until(60, "the worker started", || worker_pid(&log).is_some());
        std::thread::sleep(Duration::from_millis(800));
        signal(worker_pid(&log).unwrap() as u32, sig);
        let done = manager.wait_with_output().unwrap();
        let (stdout, stderr) = (String::from_utf8_lossy(&done.stdout), String::from_utf8_lossy(&done.stderr));
        assert!(done.status.success(), "{sig}: {stdout}{stderr}");
        assert!(stderr.contains("running it again"), "{sig}: {stderr}");
        assert!(stdout.contains("1 jobs: 1 solved now"), "{sig}: {stdout}");
        let second = std::fs::read_to_string(o.join("work/logs/long.2.log")).unwrap();
        if checkpoints {
            assert!(second.contains("resumed from"), "the preempted job resumes: {second}");
            assert!(!o.join("checkpoints/long.ck").exists(), "a solved job's checkpoint is removed");
        }
    }
}

/// With checkpoints, a job that hits its node limit on a worker is sent
/// again and resumes from its checkpoint until it is solved.
#[test]
fn an_unsolved_job_is_sent_again_from_its_checkpoint() {
    let d = tempfile::tempdir().unwrap();
    let manifest = d.path().join("m.toml");
    // 3x5, every move's value: 1.9 M nodes from scratch.
    std::fs::write(&manifest, "[[job]]\nid = \"j\"\nboard = \"3x5\"\nnode_limit = 1500000\n").unwrap();
    let o = d.path().join("o");
    let args = ["batch", s(&manifest), "--out-dir", s(&o), "--workers", "1", "--checkpoints", "--retries", "4"];
    let out = command(&[&args[..], &["--table-mb", "256"]].concat()).output().unwrap();
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(stderr.contains("node limit of 1500000 reached") && stderr.contains("sent again"), "{stderr}");
    assert!(stdout.contains("1 jobs: 1 solved now"), "{stdout}");
    let second = std::fs::read_to_string(o.join("work/logs/j.2.log")).unwrap();
    assert!(second.contains("resumed from"), "{second}");
}

/// Bad input: one line and a non-zero exit, never a hang.
#[test]
fn bad_input_is_one_line() {
    let d = tempfile::tempdir().unwrap();
    let file = d.path().join("file");
    std::fs::write(&file, "x").unwrap();
    let out = d.path().join("t.gtb");
    let table = |extra: &[&str]| {
        let mut a = vec!["table", "build", "2x3", "--shards", "2", "--out", s(&out), "-q"];
        a.extend_from_slice(extra);
        fails_one_line(&a)
    };
    // A work dir that cannot be made.
    let bad = file.join("work");
    assert!(table(&["--work-dir", s(&bad)]).contains("is not writable"));
    // A second manager on one work dir (this test process holds the lock).
    let w = d.path().join("w");
    std::fs::create_dir_all(&w).unwrap();
    let lock = serde_json::json!({"pid": std::process::id(), "host": gosolve::process::host_name(), "start": null, "since": "now"});
    std::fs::write(w.join("manager.lock"), lock.to_string()).unwrap();
    assert!(table(&["--work-dir", s(&w)]).contains("is in use by a gosolve manager"));
    // Slurm without its commands.
    let o = command(&["table", "build", "2x3", "--shards", "2", "--out", s(&out), "--backend", "slurm", "-q"])
        .env("PATH", "/nonexistent")
        .env_remove("SLURM_JOB_ID")
        .output()
        .unwrap();
    let e = String::from_utf8_lossy(&o.stderr).to_string();
    assert_eq!((o.status.code(), e.lines().count()), (Some(1), 1), "{e}");
    assert!(e.contains("needs `sbatch` on the PATH") || e.contains("needs `srun` on the PATH"), "{e}");
    // A worker binary of another version, and one that does not run.
    let fake = d.path().join("old-gosolve");
    std::fs::write(
        &fake,
        "#!/bin/sh\nprintf '{\"gosolve_version\":\"9.9.9\",\"protocol\":1,\"host\":\"x\",\"pid\":1}' > \"$3\"\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    assert!(table(&["--worker-bin", s(&fake)]).contains("is gosolve 9.9.9, this is gosolve"));
    assert!(table(&["--worker-bin", s(&d.path().join("missing"))]).contains("cannot run here"));
    // Usage errors.
    let e = fails_one_line(&["batch", "--jobs", "2", "--workers", "2"]);
    assert!(e.contains("cannot be used with"), "{e}");
    assert!(fails_one_line(&["table", "build", "2x3", "--shards", "0"]).contains("give 1 to 65536"));
    assert!(fails_one_line(&["worker", s(&d.path().join("nothing.json"))]).contains("cannot read unit"));
    // A checkpoint merge of two boards.
    let (a, b) = (d.path().join("a.ck"), d.path().join("b.ck"));
    cli::solve_checkpoint("2x2", "16", &a);
    cli::solve_checkpoint("2x3", "16", &b);
    let e = fails_one_line(&["checkpoint", "merge", s(&a), s(&b), "-o", s(&d.path().join("c.ck"))]);
    assert!(e.contains("is a checkpoint for 2x3") && e.contains("not for 2x2"), "{e}");
    assert!(!out.exists());
}
