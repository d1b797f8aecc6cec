//! `gosolve batch`: a tiny manifest in a temporary directory writes one JSON
//! per job and a summary, skips finished jobs on a re-run, records limits
//! without failing, and exits non-zero when a published value disagrees.

use gosolve::batch::{
    record_path, run_batch, run_batch_with, BatchError, BatchObserver, BatchOptions, Job, JobRecord, JobRunner,
    Manifest, NoObserver, ThreadPoolRunner, HOLDS, SOLVED, UNCONFIRMED, UNSOLVED,
};
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

#[path = "support/cli.rs"]
mod cli;
use cli::gosolve;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn ok(args: &[&str]) -> String {
    let out = gosolve(args);
    assert!(out.status.success(), "gosolve {args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

fn fails(args: &[&str]) -> (String, String) {
    let out = gosolve(args);
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(out.status.code().is_some_and(|c| c != 0), "gosolve {args:?} should fail: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    let errors: Vec<&str> = stderr.lines().filter(|l| l.starts_with("gosolve: error: ")).collect();
    assert_eq!(errors.len(), 1, "one error line expected: {stderr}");
    (errors[0].to_string(), String::from_utf8(out.stdout).unwrap())
}

const STRIPS: &str = r#"
[defaults]
time_limit = 60

[[job]]
id = "1x1"
board = "1x1"
published = 0
source = "Hayward"

[[job]]
id = "1x2"
board = "1x2"
published = 0
source = "Hayward"

[[job]]
id = "1x3"
board = "1x3"
published = 3
source = "Hayward"

[[job]]
id = "1x4"
board = "1x4"
published = 4
source = "Hayward"
"#;

fn record(dir: &Path, id: &str) -> JobRecord {
    serde_json::from_str(&std::fs::read_to_string(record_path(dir, id)).unwrap()).unwrap()
}

#[test]
fn strips_run_then_skip_then_force() {
    let dir = tempfile::tempdir().unwrap();
    let manifest = dir.path().join("m.toml");
    std::fs::write(&manifest, STRIPS).unwrap();
    let out_dir = dir.path().join("out");
    let text = ok(&["batch", s(&manifest), "--out-dir", s(&out_dir), "--jobs", "2"]);
    assert!(text.contains("4 solved now, 0 already solved"), "{text}");
    for (id, want) in [("1x1", 0.0), ("1x2", 0.0), ("1x3", 3.0), ("1x4", 4.0)] {
        let r = record(&out_dir, id);
        assert_eq!(r.status, SOLVED);
        assert_eq!(r.value_with_komi, Some(want), "{id}");
        assert_eq!(r.agree, Some(true));
        assert!(!r.moves.is_empty() && !r.pv.is_empty() && !r.machine.is_empty() && r.date.ends_with('Z'));
        assert_eq!(r.pv.last().map(String::as_str), Some("pass"));
    }
    let summary = std::fs::read_to_string(out_dir.join("summary.md")).unwrap();
    assert!(summary.contains("| 1x3 | 1x3 | empty, B to move | NSTT | +3 | +3 (Hayward) | yes |"), "{summary}");
    assert_eq!(summary.matches("| yes |").count(), 4);

    // Re-run: everything is skipped, the records are untouched.
    let before = std::fs::read(record_path(&out_dir, "1x4")).unwrap();
    let text = ok(&["batch", s(&manifest), "--out-dir", s(&out_dir)]);
    assert!(text.contains("0 solved now, 4 already solved"), "{text}");
    assert_eq!(std::fs::read(record_path(&out_dir, "1x4")).unwrap(), before);

    // Changing what decides a job's search reruns that job only; a new
    // published value or source does not.
    let changed = STRIPS
        .replace("id = \"1x2\"\nboard = \"1x2\"\n", "id = \"1x2\"\nboard = \"1x2\"\nkomi = 0.5\n")
        .replace("published = 4\nsource = \"Hayward\"", "published = 4\nsource = \"Hayward's notes\"");
    std::fs::write(&manifest, changed).unwrap();
    let (line, stdout) = fails(&["batch", s(&manifest), "--out-dir", s(&out_dir)]);
    assert!(stdout.contains("1 solved now, 3 already solved"), "{stdout}");
    // 1x2 with komi 0.5 is -0.5, which no longer matches the published 0.
    assert!(line.contains("1x2") && line.contains("disagree"), "{line}");
    assert_eq!(record(&out_dir, "1x2").value_with_komi, Some(-0.5));
    let summary = std::fs::read_to_string(out_dir.join("summary.md")).unwrap();
    assert!(summary.contains("**NO**") && summary.contains("Hayward's notes"), "{summary}");

    // --force redoes everything.
    let (_, stdout) = fails(&["batch", s(&manifest), "--out-dir", s(&out_dir), "--force", "--quiet"]);
    assert!(stdout.contains("4 solved now, 0 already solved"), "{stdout}");
    // No temporary files are left.
    for e in std::fs::read_dir(out_dir.join("batch")).unwrap() {
        let name = e.unwrap().file_name().into_string().unwrap();
        assert!(name.ends_with(".json"), "{name}");
    }
}

#[test]
fn disagreement_fails_and_limits_do_not() {
    let dir = tempfile::tempdir().unwrap();
    let manifest = dir.path().join("m.json");
    std::fs::write(
        &manifest,
        r#"{"job": [
            {"id": "wrong", "board": "1x3", "published": 2, "source": "a typo"},
            {"id": "limited", "board": "3x2", "node_limit": 10},
            {"id": "doc", "board": "3x2", "moves": "b1 a2 b2", "published": 6}
        ]}"#,
    )
    .unwrap();
    let out_dir = dir.path().join("o");
    let (line, stdout) = fails(&["batch", s(&manifest), "--out-dir", s(&out_dir)]);
    assert!(line.contains("wrong") && !line.contains("limited"), "{line}");
    assert!(stdout.contains("1 unsolved"), "{stdout}");
    let r = record(&out_dir, "limited");
    assert_eq!(r.status, UNSOLVED);
    assert!(r.limit.as_deref().unwrap().contains("node limit"));
    assert_eq!(r.value, None);
    let doc = record(&out_dir, "doc");
    assert_eq!((doc.value_with_komi, doc.agree), (Some(6.0), Some(true)));
    assert_eq!(doc.history, ["b1", "a2", "b2"]);
    assert_eq!(doc.to_move, "white");
    let summary = std::fs::read_to_string(out_dir.join("summary.md")).unwrap();
    assert!(summary.contains("unsolved (limit)"), "{summary}");
    assert!(summary.contains("empty + 1.B[b1] 2.W[a2] 3.B[b2], W to move"), "{summary}");
}

#[test]
fn limits_on_the_command_line_override_the_manifest() {
    let dir = tempfile::tempdir().unwrap();
    let manifest = dir.path().join("m.toml");
    std::fs::write(&manifest, "[[job]]\nid = \"limited\"\nboard = \"3x2\"\nnode_limit = 10\n").unwrap();
    // A larger limit than the manifest's: the job is solved.
    let out_dir = dir.path().join("o");
    ok(&["batch", s(&manifest), "--out-dir", s(&out_dir), "--node-limit", "100000000", "--quiet"]);
    assert_eq!(record(&out_dir, "limited").status, SOLVED);
    // A smaller one than the (absent) manifest default: the job stops.
    let strips = dir.path().join("s.toml");
    std::fs::write(&strips, "[[job]]\nid = \"1x4\"\nboard = \"1x4\"\n").unwrap();
    let out_dir = dir.path().join("o2");
    let (line, _) = fails(&["batch", s(&strips), "--out-dir", s(&out_dir), "--node-limit", "3", "--quiet"]);
    assert!(line.contains("1 job(s) unsolved (limit): 1x4"), "{line}");
    let r = record(&out_dir, "1x4");
    assert_eq!(r.status, UNSOLVED);
    assert!(r.limit.as_deref().unwrap().contains("node limit"), "{:?}", r.limit);
    let (line, _) = fails(&["batch", s(&strips), "--out-dir", s(&out_dir), "--time-limit", "0"]);
    assert!(line.contains("--time-limit"), "{line}");
}

#[test]
fn bad_manifests_are_one_line_errors() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("a.toml", "[[job]]\nid = \"x\"\nboard = \"9x9\"\n", "64"),
        ("b.toml", "[[job]]\nid = \"x\"\nbord = \"2x2\"\n", "bord"),
        ("c.toml", "[[job]\n", "line"),
        ("d.json", "{\"job\": [{\"id\": \"x\", \"board\": \"2x2\", \"moves\": \"a1 a1\"}]}", "occupied"),
        ("e.toml", "[[job]]\nid = \"x\"\nboard = \"2x2\"\n[[job]]\nid = \"x\"\nboard = \"2x2\"\n", "twice"),
        ("f.toml", "[[job]]\nid = \"x\"\nsgf = \"missing.sgf\"\n", "missing.sgf"),
    ];
    for (name, text, want) in cases {
        let p = dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        let (line, _) = fails(&["batch", s(&p), "--out-dir", s(dir.path())]);
        assert!(line.contains(want), "{name}: {line}");
    }
    let (line, _) = fails(&["batch", s(&dir.path().join("nope.toml"))]);
    assert!(line.contains("cannot read"), "{line}");
}

#[test]
fn sgf_jobs_and_in_process_runs() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("g.sgf"), "(;GM[1]FF[4]SZ[2]RU[NSTT];B[aa];W[bb])").unwrap();
    let m = Manifest::parse("m.toml", "[[job]]\nid = \"g\"\nsgf = \"g.sgf\"\n").unwrap();
    let jobs = m.resolve("m.toml", dir.path()).unwrap();
    assert_eq!(jobs[0].game.moves.len(), 2);
    let opts = BatchOptions { out_dir: dir.path().join("o"), jobs: 1, ..Default::default() };
    let report = run_batch(&jobs, &opts, Arc::new(NoObserver)).unwrap();
    assert_eq!((report.ran, report.skipped), (1, 0));
    assert!(report.disagreements().is_empty());
    let r = report.records[0].1.as_ref().unwrap();
    assert_eq!(r.status, SOLVED);
    let again = run_batch(&jobs, &opts, Arc::new(NoObserver)).unwrap();
    assert_eq!((again.ran, again.skipped), (0, 1));
    // The SGF text is part of the spec hash.
    std::fs::write(dir.path().join("g.sgf"), "(;GM[1]FF[4]SZ[2]RU[NSTT];B[aa])").unwrap();
    let jobs = m.resolve("m.toml", dir.path()).unwrap();
    let third = run_batch(&jobs, &opts, Arc::new(NoObserver)).unwrap();
    assert_eq!((third.ran, third.skipped), (1, 0));
}

/// A job interrupted before it wrote a new record keeps its record on
/// disk, and the summary shows that one (not "not run").
#[test]
fn an_interrupted_job_is_summarised_by_its_record_on_disk() {
    let dir = tempfile::tempdir().unwrap();
    let m = Manifest::parse("m.toml", "[[job]]\nid = \"4x4\"\nboard = \"4x4\"\nvalue_only = true\n").unwrap();
    let jobs = m.resolve("m.toml", dir.path()).unwrap();
    let base = BatchOptions { out_dir: dir.path().join("o"), jobs: 1, threads: 1, table_mb: 64, ..Default::default() };
    let limited = BatchOptions { node_limit: Some(50_000), ..base.clone() };
    let first = run_batch(&jobs, &limited, Arc::new(NoObserver)).unwrap();
    assert_eq!(first.unsolved(), ["4x4"]);
    let interrupted = BatchOptions { abort: Some(Arc::new(AtomicBool::new(true))), ..base };
    let report = run_batch(&jobs, &interrupted, Arc::new(NoObserver)).unwrap();
    assert!(report.interrupted && report.records[0].1.is_none(), "{report:?}");
    let row = report.summary.lines().find(|l| l.starts_with("| 4x4 |")).unwrap();
    assert!(row.contains("| unsolved (limit)"), "{row}");
    assert_eq!(record(&dir.path().join("o"), "4x4").status, UNSOLVED, "the record on disk is unchanged");
}

#[test]
fn built_in_manifest_is_listed() {
    let text = ok(&["batch", "--print-default"]);
    let m = Manifest::parse("default.toml", &text).unwrap();
    let ids: Vec<&str> = m.jobs.iter().map(|j| j.id.as_str()).collect();
    for id in ["1x1", "1x8", "2x2", "2x3", "3x2", "2x4"] {
        assert!(ids.contains(&id), "{id} missing from {ids:?}");
    }
    let published: Vec<Option<f64>> = m.jobs.iter().take(8).map(|j| j.published).collect();
    let want = [0., 0., 3., 4., 0., 1., 2., 3.].map(Some);
    assert_eq!(published, want);
}

/// `--checkpoints`: a job stopped by its limit leaves its search memory in
/// `<out-dir>/checkpoints/<id>.ck`; the next run resumes it (fewer nodes
/// than the job took from scratch) and removes the file once the job is
/// solved; its record counts the earlier run apart from its own. The job
/// is stopped three quarters through: with the search of
/// 2026-11-26 a run of 3x4 resumed from halfway took more nodes than a
/// fresh one, from three quarters fewer; since 2026-11-27 (commit f3c16a8)
/// it takes fewer wherever it stops (figures in `results/solve.md`).
#[test]
fn checkpoints_resume_an_unsolved_job() {
    let dir = tempfile::tempdir().unwrap();
    let manifest = dir.path().join("m.toml");
    std::fs::write(&manifest, "[[job]]\nid = \"3x4\"\nboard = \"3x4\"\npublished = 4\n").unwrap();
    let fresh_dir = dir.path().join("fresh");
    ok(&["batch", s(&manifest), "--out-dir", s(&fresh_dir), "--table-mb", "128", "--quiet"]);
    let fresh = record(&fresh_dir, "3x4").nodes;
    let out_dir = dir.path().join("o");
    let ck = out_dir.join("checkpoints").join("3x4.ck");
    let limit = (fresh * 3 / 4).to_string();
    let base = ["batch", s(&manifest), "--out-dir", s(&out_dir), "--table-mb", "128", "--quiet", "--checkpoints"];
    let stopped: Vec<&str> = base.iter().copied().chain(["--node-limit", limit.as_str()]).collect();
    fails(&stopped);
    let first = record(&out_dir, "3x4");
    assert_eq!(first.status, UNSOLVED);
    assert!(ck.exists(), "the unsolved job left its checkpoint");
    ok(&base);
    let r = record(&out_dir, "3x4");
    assert_eq!((r.status.as_str(), r.value), (SOLVED, Some(4)));
    assert!(r.nodes < fresh, "resumed: {} nodes, from scratch {fresh}", r.nodes);
    // The record counts the run it resumed, apart from its own.
    let e = r.earlier.as_ref().expect("the earlier run counted");
    assert_eq!((e.runs, e.nodes, e.seconds), (1, first.nodes, first.seconds));
    assert!(r.time_text().contains("after 1 earlier run of"), "{}", r.time_text());
    assert!(!ck.exists(), "a solved job's checkpoint is removed");
}

/// A value-only job stopped by its limit keeps the bounds it proved in its
/// record, and the next run starts from them instead of proving them
/// again (an hours-long board resumed: `--checkpoints` keeps the table,
/// the record the bounds). Bounds that contradict the board (at least +30
/// on 12 points: a record edited by hand) are not used, and the value is
/// searched as from scratch.
#[test]
fn a_resumed_value_only_job_starts_from_its_bounds() {
    let dir = tempfile::tempdir().unwrap();
    let manifest = dir.path().join("m.toml");
    std::fs::write(&manifest, "[[job]]\nid = \"3x4\"\nboard = \"3x4\"\nvalue_only = true\npublished = 4\n").unwrap();
    let out_dir = dir.path().join("o");
    let base = ["batch", s(&manifest), "--out-dir", s(&out_dir), "--table-mb", "64", "--quiet"];
    ok(&base);
    let fresh = record(&out_dir, "3x4");
    assert_eq!((fresh.status.as_str(), fresh.value), (SOLVED, Some(4)));
    let path = record_path(&out_dir, "3x4");
    let stopped = |at_least: f64, at_most: f64| {
        let mut r = fresh.clone();
        r.status = UNSOLVED.into();
        (r.value, r.value_with_komi, r.result) = (None, None, None);
        r.bounds = Some(gosolve::batch::BoundsRecord {
            at_least: Some(at_least),
            at_most: Some(at_most),
            ..Default::default()
        });
        std::fs::write(&path, serde_json::to_string(&r).unwrap()).unwrap();
    };
    // Bounds that meet: the value without a test.
    stopped(4.0, 4.0);
    ok(&base);
    let r = record(&out_dir, "3x4");
    assert_eq!((r.status.as_str(), r.value), (SOLVED, Some(4)));
    assert!(r.nodes < fresh.nodes / 10, "from the bounds: {} nodes, from scratch {}", r.nodes, fresh.nodes);
    let e = r.earlier.as_ref().expect("the run that proved the bounds is counted");
    assert_eq!((e.runs, e.nodes), (1, fresh.nodes));
    // A run stopped at once keeps the bounds it started from (one thread,
    // and the tests spread over two).
    for threads in ["1", "2"] {
        let at_once: Vec<&str> = base.iter().copied().chain(["--node-limit", "1", "--threads", threads]).collect();
        stopped(3.0, 6.0);
        fails(&at_once);
        let r = record(&out_dir, "3x4");
        assert_eq!(r.status, UNSOLVED);
        assert_eq!(r.bounds_text().as_deref(), Some("+3 to +6"), "{threads} thread(s)");
    }
    let at_once: Vec<&str> = base.iter().copied().chain(["--node-limit", "1"]).collect();
    // Bounds no position on 12 points can have: not kept, and searched as from scratch.
    stopped(30.0, 40.0);
    fails(&at_once);
    let r = record(&out_dir, "3x4");
    assert!(r.bounds.as_ref().and_then(|b| b.at_least).is_none_or(|l| l <= 4.0), "{:?}", r.bounds);
    ok(&base);
    let r = record(&out_dir, "3x4");
    assert_eq!((r.status.as_str(), r.value), (SOLVED, Some(4)));
    assert!(r.nodes > 0);
}

/// With `--checkpoints` a value-only job's bounds also live in its
/// checkpoint, so a run that wrote no record (interrupted: Ctrl-C saves
/// the checkpoint, not a record) still resumes from them. Here the record
/// of a run stopped by its limit is removed, and the next run, stopped at
/// once, reports the same bounds from the checkpoint alone; the run after
/// it solves the job. So does the checkpoint's seed (its trim in
/// `seeds/`) where the checkpoint itself is gone, as on a fresh clone.
#[test]
fn a_checkpoint_keeps_a_value_only_jobs_bounds() {
    let dir = tempfile::tempdir().unwrap();
    let manifest = dir.path().join("m.toml");
    std::fs::write(&manifest, "[[job]]\nid = \"3x4\"\nboard = \"3x4\"\nvalue_only = true\nguess = 2\n").unwrap();
    let out_dir = dir.path().join("o");
    // One thread: the node limit stops the search at the same place each time.
    let base = ["batch", s(&manifest), "--out-dir", s(&out_dir), "--table-mb", "64", "--quiet", "--checkpoints"];
    let limited =
        |limit| -> Vec<&str> { base.iter().copied().chain(["--threads", "1", "--node-limit", limit]).collect() };
    fails(&limited("75000"));
    let first = record(&out_dir, "3x4");
    assert_eq!(first.status, UNSOLVED);
    let proved = first.bounds_text().expect("the limited run proved a bound");
    // It names the test it stopped in, inside what it proved.
    let testing = first.bounds.as_ref().map(|b| b.testing.clone()).unwrap_or_default();
    assert_eq!(testing.len(), 1, "{:?}", first.bounds);
    let summary = std::fs::read_to_string(out_dir.join("summary.md")).unwrap();
    assert!(summary.contains("; stopped in the test ≥ "), "{summary}");
    std::fs::remove_file(record_path(&out_dir, "3x4")).unwrap();
    fails(&limited("1"));
    let r = record(&out_dir, "3x4");
    assert_eq!(r.bounds_text().as_deref(), Some(proved.as_str()), "the checkpoint's bounds, without a record");
    let (ck, seed) = (out_dir.join("checkpoints/3x4.ck"), out_dir.join("seeds/3x4.ck"));
    let (ck_bytes, seed_bytes) = (std::fs::metadata(&ck).unwrap().len(), std::fs::metadata(&seed).unwrap().len());
    assert!(seed_bytes < ck_bytes / 10, "a seed is a trim: {seed_bytes} bytes, the checkpoint {ck_bytes}");
    std::fs::remove_file(&ck).unwrap();
    std::fs::remove_file(record_path(&out_dir, "3x4")).unwrap();
    fails(&limited("1"));
    let r = record(&out_dir, "3x4");
    assert_eq!(r.bounds_text().as_deref(), Some(proved.as_str()), "the seed's bounds, without checkpoint or record");
    ok(&base);
    let r = record(&out_dir, "3x4");
    assert_eq!((r.status.as_str(), r.value), (SOLVED, Some(4)));
    assert!(!ck.exists() && !seed.exists(), "a solved job's checkpoint and seed are removed");
}

/// `gosolve batch NAME` runs a built-in manifest; `--print-default` prints
/// the one named; `--only` names jobs of the manifest.
#[test]
fn named_manifests() {
    let text = ok(&["batch", "rectangular", "--print-default"]);
    let m = Manifest::parse("rectangular.toml", &text).unwrap();
    assert_eq!(m, Manifest::named("rectangular").unwrap());
    assert_eq!(m.jobs.len(), 58);
    assert_eq!(ok(&["batch", "default", "--print"]), ok(&["batch", "--print-default"]));
    let dir = tempfile::tempdir().unwrap();
    let (line, _) = fails(&["batch", "rectangular", "--out-dir", s(dir.path()), "--only", "3x5"]);
    assert!(line.contains("--only 3x5") && line.contains("rectangular"), "{line}");
    let file = dir.path().join("m.toml");
    std::fs::write(&file, STRIPS).unwrap();
    let (line, _) = fails(&["batch", s(&file), "--print-default"]);
    assert!(line.contains("built-in"), "{line}");
    // One job of the table, run alone: the others are left out of the run.
    let out_dir = dir.path().join("o");
    let text = ok(&["batch", "rectangular", "--out-dir", s(&out_dir), "--only", "1x3", "--quiet", "--table-mb", "64"]);
    assert!(text.contains("57 job(s) left out"), "{text}");
    let r = record(&out_dir, "1x3");
    assert_eq!((r.status.as_str(), r.value_with_komi, r.agree), (SOLVED, Some(3.0), Some(true)));
    assert_eq!(r.best_moves, ["a2"]);
    let c = r.confirmation.as_ref().unwrap();
    assert_eq!(c.confirmed, Some(true));
    assert!(r.commit.as_deref().is_some_and(|c| !c.is_empty()) && r.threads == Some(1) && r.table_mb == Some(64));
    let summary = std::fs::read_to_string(out_dir.join("summary.md")).unwrap();
    assert!(summary.contains("## The empty boards at a glance") && summary.contains("| 3 | +3 |"), "{summary}");
}

/// A confirmation: asked after the solve, only its checks run; a check
/// stopped by its limit leaves the job "solved, confirmation open" (the
/// batch fails, and the next run does only the checks still open); once
/// the three agree the job is solved, and a re-run skips it.
#[test]
fn confirmation_is_recorded_and_resumed() {
    let dir = tempfile::tempdir().unwrap();
    let manifest = dir.path().join("m.toml");
    std::fs::write(&manifest, "[[job]]\nid = \"4x3\"\nboard = \"4x3\"\npublished = 4\n").unwrap();
    let out_dir = dir.path().join("o");
    let base = ["batch", s(&manifest), "--out-dir", s(&out_dir), "--table-mb", "64", "--quiet", "--checkpoints"];
    ok(&base);
    let first = record(&out_dir, "4x3");
    assert_eq!((first.status.as_str(), first.confirmation.is_none()), (SOLVED, true));

    let confirm: Vec<&str> = base.iter().copied().chain(["--confirm"]).collect();
    let limited: Vec<&str> = confirm.iter().copied().chain(["--node-limit", "1"]).collect();
    let (line, stdout) = fails(&limited);
    assert!(line.contains("unsolved (limit): 4x3"), "{line}");
    assert!(stdout.contains("not yet confirmed"), "{stdout}");
    let open = record(&out_dir, "4x3");
    assert_eq!(open.status, UNCONFIRMED);
    // The solve was not run again.
    assert_eq!((open.nodes, &open.date, &open.moves), (first.nodes, &first.date, &first.moves));
    let c = open.confirmation.as_ref().unwrap();
    assert_eq!(c.confirmed, None);
    assert!(c.checks.iter().all(|c| c.outcome == UNSOLVED), "{c:?}");
    assert!(out_dir.join("checkpoints").join("4x3.confirm-at-least.ck").exists());

    let text = ok(&confirm);
    assert!(text.contains("1 solved now"), "{text}");
    let done = record(&out_dir, "4x3");
    assert_eq!(done.status, SOLVED);
    let c = done.confirmation.as_ref().unwrap();
    assert_eq!((c.value, c.confirmed, c.with.as_str()), (4.0, Some(true), "no-path-symmetry"));
    let kinds: Vec<&str> = c.checks.iter().map(|c| c.check.as_str()).collect();
    assert_eq!(kinds, ["at-least", "at-most", "value"]);
    assert!(c.checks.iter().all(|c| c.outcome == HOLDS && c.nodes > 0), "{c:?}");
    // Each check names the machine it ran on, as the job does.
    assert!(c.checks.iter().all(|c| c.machine.as_deref() == Some(done.machine.as_str())), "{c:?}");
    assert_eq!(c.checks[2].value, Some(4.0));
    assert!(!out_dir.join("checkpoints").join("4x3.confirm-at-least.ck").exists());
    let summary = std::fs::read_to_string(out_dir.join("summary.md")).unwrap();
    assert!(summary.contains("| confirmed | b2 c2 |"), "{summary}");

    let text = ok(&confirm);
    assert!(text.contains("0 solved now, 1 already solved"), "{text}");
}

/// Where no symmetry of the game's history fixes an empty point, switching
/// path symmetry off would replay the first solve, so the value check runs
/// the same engine on another thread count instead; a record whose value
/// check may have been such a replay (written before that rule, on the
/// solve's thread count) has that check alone redone.
#[test]
fn value_check_differs_from_the_solve_where_path_symmetry_cannot_act() {
    let dir = tempfile::tempdir().unwrap();
    let manifest = dir.path().join("m.toml");
    let jobs = "[defaults]\nvalue_only = true\nconfirm = true\n\n[[job]]\nid = \"1x5-a2\"\nboard = \"1x5\"\nmoves = \"a2\"\n\n\
                [[job]]\nid = \"1x5-a3\"\nboard = \"1x5\"\nmoves = \"a3\"\n\n[[job]]\nid = \"1x5\"\nboard = \"1x5\"\n";
    std::fs::write(&manifest, jobs).unwrap();
    let out_dir = dir.path().join("o");
    let run = ["batch", s(&manifest), "--out-dir", s(&out_dir), "--table-mb", "64", "--quiet", "--threads", "1"];
    ok(&run);
    let value_check = |id: &str| {
        let r = record(&out_dir, id);
        let c = r.confirmation.clone().unwrap();
        assert_eq!((r.status.as_str(), c.confirmed), (SOLVED, Some(true)), "{id}");
        (c.with.clone(), c.check("value").unwrap().clone(), r)
    };
    // a2: its mirror is a4, so no symmetry fixes the history.
    let (with, check, _) = value_check("1x5-a2");
    assert_eq!((with.as_str(), check.engine.as_str(), check.threads), ("other-threads", "other-threads", 2));
    // a3, the middle: the mirror fixes the history but no empty point, so
    // only a pass keeps the symmetry and path symmetry changes nothing.
    let (with, check, _) = value_check("1x5-a3");
    assert_eq!((with.as_str(), check.threads), ("other-threads", 2));
    // The empty strip: a move on a3 keeps the symmetry, and path symmetry can act.
    let (with, check, _) = value_check("1x5");
    assert_eq!((with.as_str(), check.threads), ("no-path-symmetry", 1));

    // Records of the old rule, value checks without path symmetry: on the
    // solve's one thread it is open again, the claims' checks kept; on
    // another thread count it stands.
    let old_rule = |id: &str, threads: usize| {
        let (_, _, mut old) = value_check(id);
        let conf = old.confirmation.as_mut().unwrap();
        conf.with = "no-path-symmetry".into();
        for c in conf.checks.iter_mut().filter(|c| c.check == "value") {
            c.engine = "no-path-symmetry".into();
            c.threads = threads;
            c.date = "2026-12-01T00:00:00Z".into();
        }
        std::fs::write(record_path(&out_dir, id), serde_json::to_string_pretty(&old).unwrap()).unwrap();
        old
    };
    let old = old_rule("1x5-a2", 1);
    let bounds: Vec<_> =
        old.confirmation.as_ref().unwrap().checks.iter().filter(|c| c.check != "value").cloned().collect();
    old_rule("1x5-a3", 2);
    // Run on two threads now: the check still differs from the solve's one thread.
    let two: Vec<&str> = run.iter().copied().take(run.len() - 1).chain(["2"]).collect();
    let text = ok(&two);
    assert!(text.contains("1 solved now, 2 already solved"), "{text}");
    let (with, check, again) = value_check("1x5-a2");
    assert_eq!((with.as_str(), check.threads), ("other-threads", 2));
    assert_ne!(check.date, "2026-12-01T00:00:00Z");
    let kept: Vec<_> =
        again.confirmation.as_ref().unwrap().checks.iter().filter(|c| c.check != "value").cloned().collect();
    assert_eq!(kept, bounds);
    assert_eq!((again.nodes, &again.date), (old.nodes, &old.date));
    let (with, check, _) = value_check("1x5-a3");
    assert_eq!((with.as_str(), check.threads, check.date.as_str()), ("no-path-symmetry", 2, "2026-12-01T00:00:00Z"));
    let summary = std::fs::read_to_string(out_dir.join("summary.md")).unwrap();
    assert!(!summary.contains("value check again"), "{summary}");
}

/// A value that differs from the published one passes only where the
/// manifest explains that value; the record and the summary show both.
#[test]
fn explained_differences_pass_and_others_fail() {
    let dir = tempfile::tempdir().unwrap();
    let manifest = dir.path().join("m.toml");
    let job = |v: i32| {
        format!(
            "[[job]]\nid = \"1x5\"\nboard = \"1x5\"\npublished = 2\nsource = \"a human table\"\n\
             explained_value = {v}\nexplanation = \"the table's ko rule\"\n"
        )
    };
    std::fs::write(&manifest, job(0)).unwrap();
    let out_dir = dir.path().join("o");
    let text = ok(&["batch", s(&manifest), "--out-dir", s(&out_dir), "--quiet", "--table-mb", "64"]);
    assert!(text.contains("explained in the summary: 1x5"), "{text}");
    let r = record(&out_dir, "1x5");
    assert_eq!((r.agree, r.explanation.as_deref()), (Some(false), Some("the table's ko rule")));
    let summary = std::fs::read_to_string(out_dir.join("summary.md")).unwrap();
    assert!(summary.contains("no (explained)") && summary.contains("**0** (pub. +2)"), "{summary}");
    assert!(
        summary.contains("- **1x5**: 0 here, +2 published (a human table). the table's ko rule. Line:"),
        "{summary}"
    );
    // An explanation of another value explains nothing: the record loses it, the batch fails.
    std::fs::write(&manifest, job(1)).unwrap();
    let (line, _) = fails(&["batch", s(&manifest), "--out-dir", s(&out_dir), "--quiet"]);
    assert!(line.contains("disagree") && line.contains("1x5"), "{line}");
    assert_eq!(record(&out_dir, "1x5").explanation, None);
    let summary = std::fs::read_to_string(out_dir.join("summary.md")).unwrap();
    assert!(summary.contains("**NO**") && summary.contains("**not explained**"), "{summary}");
}

/// A run with `--only` summarises the jobs it leaves out as their records
/// are on disk when it ends: another run on the same out-dir may have
/// written one meanwhile (here the runner writes it, as such a run would).
#[test]
fn the_summary_reads_the_left_out_records_when_it_is_written() {
    struct OtherRunMeanwhile(std::path::PathBuf, JobRecord);
    impl JobRunner for OtherRunMeanwhile {
        fn run(
            &self,
            jobs: &[Job],
            pending: &[usize],
            opts: &BatchOptions,
            abort: &Arc<AtomicBool>,
            observer: &Arc<dyn BatchObserver>,
            done: &(dyn Fn(usize, JobRecord) + Sync),
        ) -> Result<bool, BatchError> {
            std::fs::write(record_path(&self.0, "b"), serde_json::to_string_pretty(&self.1).unwrap()).unwrap();
            ThreadPoolRunner.run(jobs, pending, opts, abort, observer, done)
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let m = Manifest::parse("m.toml", "[[job]]\nid = \"a\"\nboard = \"1x3\"\n\n[[job]]\nid = \"b\"\nboard = \"1x4\"\n")
        .unwrap();
    let jobs = m.resolve("m.toml", dir.path()).unwrap();
    let out = dir.path().join("o");
    let only = |id: &str| BatchOptions {
        out_dir: out.clone(),
        jobs: 1,
        threads: 1,
        table_mb: 64,
        only: vec![id.to_string()],
        ..Default::default()
    };
    // b's record, solved by a run of its own, then moved aside.
    run_batch(&jobs, &only("b"), Arc::new(NoObserver)).unwrap();
    let b = record(&out, "b");
    std::fs::remove_file(record_path(&out, "b")).unwrap();
    let report =
        run_batch_with(&jobs, &only("a"), Arc::new(NoObserver), &OtherRunMeanwhile(out.clone(), b.clone())).unwrap();
    assert_eq!(report.ran, 1);
    let row = report.summary.lines().find(|l| l.starts_with("| b |")).unwrap();
    assert!(row.contains("| +4 |"), "{row}");
}

/// Each periodic save of a job's checkpoint refreshes its seed too, so a
/// run whose machine is lost mid-job (no stop, no final save) still leaves
/// a seed in the working tree. 4x4 value-only, stopped by a node limit
/// after some 300,000 nodes (about half a second here), saved every 20 ms
/// (the saves space themselves out to ten times their own time).
#[test]
fn periodic_saves_refresh_the_seed() {
    #[derive(Default)]
    struct Notes(std::sync::Mutex<Vec<String>>);
    impl BatchObserver for Notes {
        fn note(&self, line: &str) {
            self.0.lock().unwrap().push(line.to_string());
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let m = Manifest::parse("m.toml", "[[job]]\nid = \"4x4\"\nboard = \"4x4\"\nvalue_only = true\n").unwrap();
    let jobs = m.resolve("m.toml", dir.path()).unwrap();
    let opts = BatchOptions {
        out_dir: dir.path().join("o"),
        jobs: 1,
        threads: 1,
        table_mb: 16,
        checkpoints: true,
        checkpoint_every: Some(std::time::Duration::from_millis(20)),
        node_limit: Some(300_000),
        ..Default::default()
    };
    let notes = Arc::new(Notes::default());
    let report = run_batch(&jobs, &opts, notes.clone()).unwrap();
    assert_eq!(report.unsolved(), ["4x4"]);
    let notes = notes.0.lock().unwrap();
    assert!(notes.iter().any(|n| n.starts_with("4x4: seed ")), "a periodic save wrote the seed: {notes:?}");
    assert!(dir.path().join("o/seeds/4x4.ck").exists());
}

const STRIP_1X7: &str = r#"
[defaults]
value_only = true

[[job]]
id = "pass"
board = "1x7"
moves = "pass"

[[job]]
id = "a1"
board = "1x7"
moves = "a1"

[[job]]
id = "a2"
board = "1x7"
moves = "a2"

[[job]]
id = "a3"
board = "1x7"
moves = "a3"

[[job]]
id = "a4"
board = "1x7"
moves = "a4"
"#;

/// `--needed` runs only the claims the first moves' records ask for, round
/// after round (a claim that fails raises the best bound and asks again):
/// from one move's value, 1x7's value (+2, Hayward) follows from its first
/// moves without the other moves' values. A rerun finds nothing to do.
#[test]
fn needed_claims_give_the_value_from_the_first_moves() {
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join("m.toml");
    std::fs::write(&m, STRIP_1X7).unwrap();
    let out = dir.path().join("o");
    let args = |extra: &[&'static str]| {
        let mut a = vec!["batch", s(&m), "--out-dir", s(&out), "--table-mb", "64", "-q"];
        a.extend_from_slice(extra);
        a.into_iter().map(String::from).collect::<Vec<String>>()
    };
    let run = |extra: &[&'static str]| ok(&args(extra).iter().map(String::as_str).collect::<Vec<_>>());
    let none = run(&["--needed"]);
    assert!(none.contains("No claim is needed"), "{none}");
    run(&["--only", "a3"]);
    let text = run(&["--needed", "--checkpoints"]);
    assert!(text.contains("| empty, B to move | 1x7 | **+2** |"), "{text}");
    for line in ["pass: value ≤ -2 holds", "a2: value ≤ -2 fails", "a2: value ≤ +2 holds", "a4: value ≤ +2 holds"]
    {
        assert!(text.contains(line), "{line}: {text}");
    }
    let a2 = record(&out, "a2");
    assert_eq!(a2.status, UNSOLVED);
    let b = a2.bounds.unwrap();
    assert_eq!((b.at_least, b.at_most), (Some(2.0), Some(2.0)));
    assert!(a2.limit.unwrap().contains("only the claim \"value ≤ +2\" was run (--needed): it holds"));
    assert!(a2.earlier.is_some_and(|e| e.runs == 4), "five rounds of claims on a2");
    // The bound went into the checkpoint too, for the job's own solve.
    assert!(out.join("checkpoints/a2.ck").exists());
    let pass = record(&out, "pass").bounds.unwrap();
    assert_eq!((pass.at_least, pass.at_most), (None, Some(-2.0)));
    assert!(run(&["--needed"]).contains("No claim is needed"));
    let (err, _) = fails(&args(&["--needed", "--force"]).iter().map(String::as_str).collect::<Vec<_>>());
    assert!(err.contains("--needed") && err.contains("--force"), "{err}");
}
