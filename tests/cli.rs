//! The command line against issue 13: a flag given on the command line
//! overrides the file, bad numbers are one-line errors (never a panic or an
//! abort), a closed pipe ends quietly, the batch never loses a solved record,
//! and every subcommand takes the same options. Each test failed before the
//! fix it guards.

use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::Stdio;

#[path = "support/cli.rs"]
mod cli;
use cli::{fails_one_line, gosolve, ok};

fn data(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name).display().to_string()
}

fn json(args: &[&str]) -> Value {
    let text = ok(args);
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("bad JSON ({e}): {text}"))
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

// ---------------------------------------------------------------------------
// 1. Flags over the SGF's RU/KM/PL, everywhere.

#[test]
fn solve_sgf_honours_rule_flags() {
    let sgf = data("no_rules_3x2.sgf");
    let j = json(&["solve", "--sgf", &sgf, "--suicide", "--komi", "3", "--json", "-q", "--threads", "1"]);
    assert_eq!(j["rules"]["suicide"], true, "{j}");
    assert_eq!(j["rules"]["komi"], 3, "{j}");
    // The same game typed as moves, under the same rules: the same value.
    let direct = json(&["solve", "3x2", "--moves", "b1", "--suicide", "--komi", "3", "--json", "-q", "--threads", "1"]);
    assert_eq!(j["value"], direct["value"]);
    assert_eq!(j["moves"], direct["moves"]);
    // The header states the rules in force.
    let text = ok(&["solve", "--sgf", &sgf, "--suicide", "--superko", "situational", "--komi", "3", "-q"]);
    assert!(text.contains("suicide allowed, situational superko, komi 3"), "{text}");
    // The file's RU applies unless overridden: TT in the file, --no-suicide here.
    let tt = data("tt_komi_3x2.sgf");
    let j = json(&["solve", "--sgf", &tt, "--json", "-q"]);
    assert_eq!(
        (j["rules"]["suicide"].clone(), j["rules"]["komi"].clone()),
        (Value::Bool(true), serde_json::json!(2.5))
    );
    let j = json(&["solve", "--sgf", &tt, "--no-suicide", "--komi", "0", "--json", "-q"]);
    assert_eq!((j["rules"]["suicide"].clone(), j["rules"]["komi"].clone()), (Value::Bool(false), serde_json::json!(0)));
}

#[test]
fn to_overrides_pl_and_must_agree_with_the_first_move() {
    let setup = data("setup_3x2.sgf");
    let b = json(&["replay", "--sgf", &setup, "--to", "b", "--json"]);
    let w = json(&["replay", "--sgf", &setup, "--to", "w", "--json"]);
    assert!(b["to_move"] == "black" || w["to_move"] == "white", "{b} {w}");
    let line = fails_one_line(&["solve", "--sgf", &data("no_rules_3x2.sgf"), "--to", "w"]);
    assert!(line.contains("--to white conflicts") || line.contains("--to w"), "{line}");
}

#[test]
fn table_query_komi_flag_and_rules_check() {
    let table = Path::new(env!("CARGO_MANIFEST_DIR")).join("results/tables/2x2-NSTT.gtb");
    let t = s(&table);
    let base = json(&["table", "query", t, "--position", "../..", "--json"]);
    let k = json(&["table", "query", t, "--position", "../..", "--komi", "1.5", "--json"]);
    assert_eq!(k["rules"]["komi"], 1.5);
    assert_eq!(k["value"].as_f64().unwrap(), base["value"].as_f64().unwrap() - 1.5);
    assert_eq!(k["best_moves"], base["best_moves"]);
    let line = fails_one_line(&["table", "query", t, "--position", "../..", "--suicide"]);
    assert!(line.contains("only --komi may differ"), "{line}");
    // --moves reaches the position; same as typing it.
    let m = json(&["table", "query", t, "--moves", "a1", "--json"]);
    let p = json(&["table", "query", t, "--position", "../X.", "--to", "w", "--json"]);
    assert_eq!(m["value"], p["value"]);
}

// ---------------------------------------------------------------------------
// 2. Batch jobs from SGF: job fields, else the SGF's, else the defaults.

#[test]
fn batch_sgf_job_takes_the_sgf_rules() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(data("tt_komi_3x2.sgf"), dir.path().join("g.sgf")).unwrap();
    let manifest = dir.path().join("m.toml");
    std::fs::write(
        &manifest,
        "[[job]]\nid = \"file\"\nsgf = \"g.sgf\"\n\n[[job]]\nid = \"mixed\"\nsgf = \"g.sgf\"\nkomi = 0.5\nsuicide = false\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    ok(&["batch", s(&manifest), "--out-dir", s(&out), "-q"]);
    let rec = |id: &str| -> Value {
        serde_json::from_str(&std::fs::read_to_string(out.join("batch").join(format!("{id}.json"))).unwrap()).unwrap()
    };
    let f = rec("file");
    assert_eq!((f["rules"]["suicide"].as_bool(), f["rules"]["komi"].as_f64()), (Some(true), Some(2.5)), "{f}");
    assert_eq!(f["rules_source"], "suicide: sgf, superko: sgf, komi: sgf");
    let m = rec("mixed");
    assert_eq!((m["rules"]["suicide"].as_bool(), m["rules"]["komi"].as_f64()), (Some(false), Some(0.5)), "{m}");
    assert_eq!(m["rules_source"], "suicide: job, superko: sgf, komi: job");
}

// ---------------------------------------------------------------------------
// 3, 9. Numbers: one line, exit 2 (usage) or 1, never a panic.

#[test]
fn bad_limits_are_one_line_errors() {
    for bad in ["NaN", "inf", "1e30", "-0.5", "-1", "0", "abc"] {
        let line = fails_one_line(&["solve", "2x2", "--time-limit", bad]);
        assert!(line.contains("--time-limit"), "{line}");
        let line = fails_one_line(&["table", "build", "2x2", "--out", "/nonexistent/x.gtb", "--time-limit", bad]);
        assert!(line.contains("--time-limit"), "{line}");
    }
    let line = fails_one_line(&["solve", "2x2", "--time-limit=-0.5"]);
    assert!(line.contains("positive"), "{line}");
    let line = fails_one_line(&["solve", "2x2", "--node-limit", "0"]);
    assert!(line.contains("--node-limit"), "{line}");
    let line = fails_one_line(&["solve", "2x2", "--komi", "1000"]);
    assert!(line.contains("-500 to 500"), "{line}");
    let line = fails_one_line(&["solve", "2x2", "--komi", "0.3"]);
    assert!(line.contains("multiple of 0.5"), "{line}");
    let line = fails_one_line(&["solve", "2x2", "--threads", "1000"]);
    assert!(line.contains("allowed here"), "{line}");
    let line = fails_one_line(&["solve", "2x2", "--guess", "1"]);
    assert!(line.contains("--value-only"), "{line}");
    for bad in ["NaN", "inf", "1e9", "x"] {
        let line = fails_one_line(&["solve", "2x2", "--value-only", "--guess", bad]);
        assert!(line.contains("--guess"), "{line}");
    }
}

/// A value-only solve's first guess changes the work, not the value.
#[test]
fn guess_changes_only_the_work() {
    for guess in ["9", "-9", "0", "4.5"] {
        let j = json(&["solve", "3x3", "--value-only", "--guess", guess, "--json", "-q"]);
        assert_eq!(j["value"], 9.0, "guess {guess}: {j}");
    }
    // The distributed solve starts its root's value from the guess too.
    let d = tempfile::tempdir().unwrap();
    let w = d.path().join("w");
    let args = ["solve", "3x3", "--value-only", "--guess", "8", "--workers", "2", "--work-dir"];
    let j = json(&[&args[..], &[w.to_str().unwrap(), "--json", "-q"]].concat());
    assert_eq!(j["value"], 9.0, "{j}");
}

#[test]
fn bad_manifest_limits_are_one_line_errors() {
    let dir = tempfile::tempdir().unwrap();
    for (field, what) in [
        ("time_limit = 1e30", "time_limit"),
        ("time_limit = 0.0", "time_limit"),
        ("node_limit = 0", "node_limit"),
        ("guess = 1", "value_only"),
        ("value_only = true\nguess = 0.5", "guess"),
    ] {
        let manifest = dir.path().join("m.toml");
        std::fs::write(&manifest, format!("[[job]]\nid = \"a\"\nboard = \"1x3\"\n{field}\n")).unwrap();
        let line = fails_one_line(&["batch", s(&manifest), "--out-dir", s(&dir.path().join("out")), "-q"]);
        assert!(line.contains(what), "{line}");
    }
}

// 4. Memory: checked up front.
#[test]
fn table_mb_beyond_memory_is_refused() {
    for mb in ["1000000000", "100000000000000"] {
        for args in [
            vec!["solve", "2x2", "--table-mb", mb],
            vec!["table", "build", "2x2", "--out", "/nonexistent/x.gtb", "--table-mb", mb],
            vec!["check", "--only", "strip-1x3", "--table-mb", mb],
        ] {
            let line = fails_one_line(&args);
            assert!(line.contains("--table-mb") && line.contains("MiB"), "{line}");
        }
    }
}

// 5. A closed pipe ends the output quietly.
#[test]
fn closed_stdout_pipe_exits_quietly() {
    let mut child = cli::command(&[
        "check",
        "--only",
        "strip-1x3",
        "--only",
        "strip-1x4",
        "--only",
        "2x2-value",
        "--only",
        "strip-1x5",
    ])
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    .spawn()
    .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
    // The reader is dropped here: the pipe is closed.
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(first.starts_with("catalogue:"), "{first}");
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(!stderr.contains("panicked") && !stderr.contains("Broken pipe"), "{stderr}");
}

// ---------------------------------------------------------------------------
// 7. A solved record is never replaced by a worse one; unsolved jobs retry.

#[test]
fn batch_keeps_solved_records_and_retries_unsolved() {
    let dir = tempfile::tempdir().unwrap();
    let manifest = dir.path().join("m.toml");
    // Too few nodes to solve 1x5: unsolved every time.
    std::fs::write(&manifest, "[[job]]\nid = \"a\"\nboard = \"1x5\"\nnode_limit = 5\n").unwrap();
    let out = dir.path().join("out");
    let args = ["batch", s(&manifest), "--out-dir", s(&out), "-q"];
    let first = gosolve(&args);
    assert_eq!(first.status.code(), Some(1), "unsolved jobs fail the run");
    assert!(String::from_utf8_lossy(&first.stderr).contains("unsolved"));
    let path = out.join("batch/a.json");
    let mut rec: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(rec["status"], "unsolved (limit)");
    assert!(rec["nodes"].as_u64().is_some_and(|n| n >= 5), "the work until the limit: {rec}");
    // Retried without --force.
    let again = gosolve(&args);
    let text = String::from_utf8_lossy(&again.stdout);
    assert!(text.contains("0 already solved"), "{text}");
    // Pretend an earlier run on a quieter machine solved it (same spec hash).
    rec["status"] = "solved".into();
    rec["value"] = 0.into();
    rec["value_with_komi"] = 0.0.into();
    std::fs::write(&path, serde_json::to_string_pretty(&rec).unwrap()).unwrap();
    // Not rerun without --force; with --force it hits the limit and keeps the solved record.
    assert!(ok(&args).contains("1 already solved"));
    let forced = gosolve(&["batch", s(&manifest), "--out-dir", s(&out), "-q", "--force"]);
    assert!(forced.status.success(), "{}", String::from_utf8_lossy(&forced.stderr));
    assert!(String::from_utf8_lossy(&forced.stdout).contains("earlier solved records were kept"));
    let kept: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(kept["status"], "solved");
}

// `--version` names the commit as the records do: a binary copied away for
// a long run tells what it was built from.
#[test]
fn version_names_the_commit() {
    let v = ok(&["--version"]);
    let line = v.trim();
    assert!(line.starts_with(&format!("gosolve {} (", env!("CARGO_PKG_VERSION"))) && line.ends_with(')'), "{v}");
    let dir = tempfile::tempdir().unwrap();
    let manifest = dir.path().join("m.toml");
    std::fs::write(&manifest, "[[job]]\nid = \"a\"\nboard = \"1x1\"\n").unwrap();
    let j = json(&["batch", s(&manifest), "--out-dir", s(&dir.path().join("o")), "-q", "--json"]);
    let commit = j["records"][0]["commit"].as_str().unwrap_or_else(|| panic!("no commit in {j}"));
    assert!(line.contains(&format!("({commit})")), "{v} vs {commit}");
}

// 6. The default output directory is untracked (out/), and --json works.
#[test]
fn batch_defaults_to_untracked_out_and_prints_json() {
    let help = ok(&["batch", "--help"]);
    assert!(help.contains("[default: out]"), "{help}");
    let gitignore = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(".gitignore")).unwrap();
    assert!(gitignore.lines().any(|l| l.trim() == "/out/"), "{gitignore}");
    let dir = tempfile::tempdir().unwrap();
    let manifest = dir.path().join("m.toml");
    std::fs::write(&manifest, "[[job]]\nid = \"a\"\nboard = \"1x3\"\npublished = 3\n").unwrap();
    let j = json(&["batch", s(&manifest), "--out-dir", s(&dir.path().join("o")), "-q", "--json"]);
    assert_eq!(j["ran"], 1);
    assert_eq!(j["records"][0]["value_with_komi"], 3.0);
    let summary = std::fs::read_to_string(dir.path().join("o/summary.md")).unwrap();
    assert!(summary.contains("| measured |"), "{summary}");
}

// ---------------------------------------------------------------------------
// 11. Small ones.

#[test]
fn solve_reads_non_utf8_sgf() {
    let j = json(&["solve", "--sgf", &data("latin1_3x2.sgf"), "--json", "-q"]);
    assert_eq!(j["board"], "3x2");
}

#[test]
fn replay_sgf_out_directory_leaves_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("d");
    std::fs::create_dir(&target).unwrap();
    let line = fails_one_line(&["replay", "2x2", "--moves", "a1", "--sgf-out", s(&target)]);
    assert!(line.contains("directory"), "{line}");
    let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names, vec![std::ffi::OsString::from("d")]);
}

#[test]
fn table_build_into_a_directory_or_read_only_place() {
    let dir = tempfile::tempdir().unwrap();
    let line = fails_one_line(&["table", "build", "2x2", "--out", s(dir.path()), "-q"]);
    assert!(line.contains("is a directory") && !line.contains("--force"), "{line}");
    let line = fails_one_line(&["table", "build", "2x2", "--out", s(dir.path()), "-q", "--force"]);
    assert!(line.contains("is a directory"), "{line}");
    // A read-only directory: refused before solving (root may write anyway).
    let ro = dir.path().join("ro");
    std::fs::create_dir(&ro).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o555)).unwrap();
    if std::fs::File::create(ro.join("probe")).is_err() {
        let out = gosolve(&["table", "build", "2x3", "--out", s(&ro.join("t.gtb"))]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "the reason once, no progress: {stderr}");
    }
    std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn table_build_progress_ends_on_the_final_state() {
    let dir = tempfile::tempdir().unwrap();
    let out = gosolve(&["table", "build", "2x2", "--out", s(&dir.path().join("t.gtb"))]);
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    let last = stderr.lines().last().unwrap_or("");
    let counts = last.split_whitespace().find(|w| w.contains('/')).unwrap_or("");
    let (done, total) = counts.split_once('/').unwrap();
    assert_eq!(done, total, "{stderr}");
    // --quiet: nothing.
    let out = gosolve(&["table", "build", "2x2", "--out", s(&dir.path().join("u.gtb")), "-q"]);
    assert!(out.status.success() && out.stderr.is_empty());
}

#[test]
fn count_games_help_matches_its_limit() {
    let help = ok(&["count", "games", "--help"]);
    let line = fails_one_line(&["count", "games", "1x5"]);
    assert!(line.contains("at most 4 points"), "{line}");
    assert!(help.contains("4 points") && !help.contains("5 points"), "{help}");
    ok(&["count", "legal", "2x2", "-q"]);
    let line = fails_one_line(&["count", "games", "2x2", "--komi", "1"]);
    assert!(line.contains("komi"), "{line}");
}

/// A header with komi out of range or a value beyond the board, with a valid checksum, is refused.
#[test]
fn table_header_ranges_are_checked() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("results/tables/2x2-NSTT.gtb");
    let bytes = std::fs::read(src).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let reseal = |mut b: Vec<u8>| -> Vec<u8> {
        let mut input = b[20..45].to_vec();
        input.extend_from_slice(&b[53..]);
        let sum = gosolve::store::fnv1a64(&input);
        b[45..53].copy_from_slice(&sum.to_le_bytes());
        b
    };
    let mut komi = bytes.clone();
    komi[24..28].copy_from_slice(&i32::MAX.to_le_bytes());
    let mut value = bytes.clone();
    value[53 + 17] = 127; // the first entry's value
    for (name, b) in [("komi.gtb", komi), ("value.gtb", value)] {
        let p: PathBuf = dir.path().join(name);
        std::fs::write(&p, reseal(b)).unwrap();
        let line = fails_one_line(&["table", "info", s(&p)]);
        assert!(line.contains("outside"), "{line}");
    }
}

// ---------------------------------------------------------------------------
// One vocabulary.

#[test]
fn every_position_subcommand_takes_the_same_options() {
    for sub in [&["solve"][..], &["replay"], &["table", "query"]] {
        let mut args = sub.to_vec();
        args.push("--help");
        let help = ok(&args);
        for flag in
            ["--position", "--to", "--moves", "--sgf", "--suicide", "--no-suicide", "--superko", "--komi", "--json"]
        {
            assert!(help.contains(flag), "{sub:?} lacks {flag}");
        }
    }
    for sub in [&["solve"][..], &["table", "build"], &["batch"], &["count", "legal"], &["count", "games"]] {
        let mut args = sub.to_vec();
        args.push("--help");
        let help = ok(&args);
        assert!(help.contains("-q, --quiet"), "{sub:?} lacks -q");
    }
    // solve --moves: the documents' example, White to move after three moves.
    let j = json(&["solve", "3x2", "--moves", "b1 a2 b2", "--json", "-q"]);
    assert_eq!((j["to_move"].as_str(), j["value"].as_i64()), (Some("white"), Some(6)), "{j}");
}

/// Usage errors are one line too (clap's own are several).
#[test]
fn usage_errors_are_one_line() {
    fails_one_line(&["solve", "2x2", "--no-such-flag"]);
    fails_one_line(&["solve", "2x2", "--suicide", "--no-suicide"]);
    fails_one_line(&["table", "build"]);
}

/// Every usage error exits 2 (the README's promise), clap's and gosolve's
/// own checks of the arguments alike: a missing board, a board over 64
/// points or with a zero side, a diagram of the wrong shape, moves that are
/// not points or not legal, options that cannot go together. What is not
/// the command line's fault (a file that cannot be read) still exits 1.
#[test]
fn usage_errors_exit_2() {
    let table = Path::new(env!("CARGO_MANIFEST_DIR")).join("results/tables/2x2-NSTT.gtb");
    let t = s(&table);
    let sgf = data("no_rules_3x2.sgf");
    for (args, needle) in [
        (vec!["solve"], "give a board size"),
        (vec!["solve", "9x9"], "at most 64"),
        (vec!["solve", "0x3"], "zero side"),
        (vec!["solve", "3x2", "--position", "XO."], "rows"),
        (vec!["solve", "2x2", "--position", "XX/XX"], "--position"),
        (vec!["solve", "2x2", "--to", "red"], "side to move"),
        (vec!["solve", "2x2", "--moves", "z9"], "not a point"),
        (vec!["solve", "2x2", "--moves", "a1 a1"], "move 2 (white a1): point is occupied"),
        (vec!["solve", "3x2", "--sgf", &sgf], "--sgf"),
        (vec!["solve", "--sgf", &sgf, "--to", "w"], "--to"),
        (vec!["solve", "2x2", "--at-least", "NaN"], "finite"),
        (vec!["solve", "2x2", "--table-mb", "1000000000"], "--table-mb"),
        (vec!["solve", "2x2", "--no-such-flag"], "--no-such-flag"),
        (vec!["replay", "9x9"], "at most 64"),
        (vec!["replay", "2x3", "--position", "../.."], "rows"),
        (vec!["count", "legal", "0x3"], "zero side"),
        (vec!["count", "games", "1x5"], "at most 4 points"),
        (vec!["count", "games", "2x2", "--komi", "1"], "komi"),
        (vec!["table", "build", "5x5"], "at most 16 points"),
        (vec!["table", "build", "2x2", "--out", "/nonexistent/x.gtb", "--table-mb", "1000000000"], "--table-mb"),
        (vec!["table", "query", t, "--position", "../..", "--suicide"], "only --komi may differ"),
        (vec!["table", "query", t, "--position", "XO./..."], "table's board"),
        (vec!["table", "query", t], "give --position"),
        (vec!["check", "--only", "no-such-claim"], "no claim"),
        (vec!["gtp", "--time-per-move", "-1"], "--time-per-move"),
    ] {
        let line = cli::usage_error(&args);
        assert!(line.contains(needle), "gosolve {args:?}: {line}");
    }
    let out = gosolve(&["solve", "--sgf", "/nonexistent/game.sgf"]);
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
}

// ---------------------------------------------------------------------------
// Limits and traces: a stopped solve or claim says what it did, and the
// traces only write to stderr.

/// A 5x5 solve with 20 empty points, where random playouts rank df-pn's
/// first plies, stops cleanly at its node limit, and on one thread it
/// searches the same tree each time (the playouts are seeded by the
/// position): the same depth and table hits.
#[test]
fn a_large_5x5_solve_with_playouts_stops_cleanly_and_repeats() {
    let args = [
        "solve",
        "5x5",
        "--moves",
        "b3 d4 d3 c3 c4",
        "--value-only",
        "--threads",
        "1",
        "--table-mb",
        "64",
        "--node-limit",
        "100000",
        "--json",
        "-q",
    ];
    let run = || {
        let out = gosolve(&args);
        assert_eq!(out.status.code(), Some(1));
        let v: Value = serde_json::from_slice(&out.stdout).expect("JSON on stdout");
        assert_eq!(v["status"].as_str(), Some("unsolved"), "{v}");
        (v["nodes"].clone(), v["max_depth"].clone(), v["table_hits"].clone())
    };
    assert_eq!(run(), run());
}

/// A claim stopped by a limit still says which claim is open, then fails.
#[test]
fn a_stopped_claim_names_the_open_claim() {
    let out = gosolve(&["solve", "4x4", "--at-least", "16", "--node-limit", "100", "--json", "-q"]);
    assert_eq!(out.status.code(), Some(1));
    let open: Value = serde_json::from_slice(&out.stdout).expect("JSON on stdout");
    assert_eq!((open["claim"].as_str(), open["status"].as_str()), (Some(">= 16"), Some("unsolved")), "{open}");
    assert!(open["holds"].is_null() && open["limit"].as_str().unwrap().contains("node limit"), "{open}");
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("gosolve: error: node limit"));
}

/// A stopped claim says, for each legal move, whether the claim is already
/// proved or refuted after it (what a proof of hours has done so far), and
/// every such answer agrees with the moves' exact values. When those
/// answers decide the claim, it is decided, not left open (here: after a
/// proof for b2 kept in a checkpoint), and a line it had no nodes left to
/// read is said to be missing.
#[test]
fn a_stopped_claim_says_what_it_proved_after_each_move() {
    let base = ["--threads", "1", "--table-mb", "64", "--json", "-q"];
    let args: Vec<&str> =
        ["solve", "4x3", "--at-most", "4", "--node-limit", "20000"].iter().chain(&base).copied().collect();
    let out = gosolve(&args);
    assert_eq!(out.status.code(), Some(1));
    let open: Value = serde_json::from_slice(&out.stdout).expect("JSON on stdout");
    let moves = open["moves"].as_array().expect("moves");
    assert_eq!(moves.len(), 13, "pass and the 12 points: {open}");
    let exact = json(&["solve", "4x3", "--threads", "1", "--json", "-q"]);
    let value_after = |mv: &Value| {
        exact["moves"].as_array().unwrap().iter().find(|m| m["move"] == *mv).expect("every move valued")["value"]
            .as_i64()
            .unwrap()
    };
    let decided = moves.iter().filter(|m| !m["holds"].is_null()).count();
    assert!(decided > 0 && decided < moves.len(), "{open}");
    for m in moves.iter().filter(|m| !m["holds"].is_null()) {
        assert_eq!(m["holds"].as_bool(), Some(value_after(&m["move"]) <= 4), "{m}");
    }
    let text = String::from_utf8_lossy(&gosolve(&args[..args.len() - 2]).stdout).into_owned();
    assert!(text.contains("the claim after each of the 13 legal moves, as proved before it stopped:"), "{text}");
    assert!(text.contains("  not decided after: "), "{text}");

    let dir = tempfile::tempdir().unwrap();
    let ck = dir.path().join("4x4.ck");
    let with = |extra: &[&str]| -> Vec<String> {
        let fixed = ["solve", "4x4", "--at-least", "2", "--threads", "1", "--table-mb", "64", "--checkpoint", s(&ck)];
        fixed.iter().chain(extra).map(|a| a.to_string()).collect()
    };
    let run = |extra: &[&str]| gosolve(&with(extra).iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(run(&["--moves", "b2", "-q"]).status.code(), Some(0), "after b2, >= 2 holds");
    let late = run(&["--node-limit", "1", "-q"]);
    let text = String::from_utf8_lossy(&late.stdout);
    assert_eq!(late.status.code(), Some(0), "{text}");
    assert!(text.contains("claim: value >= 2: holds (proved)"), "{text}");
    assert!(text.contains("line of the proof: not read (a limit was reached while reading it)"), "{text}");
}

/// A value-only solve stopped in a test says, as a stopped claim does,
/// what is proved after each legal move in that test ("value ≥ b"), in its
/// text and JSON reports: every move once, each answer true.
#[test]
fn a_stopped_value_only_solve_says_what_its_test_proved_after_each_move() {
    let args = ["solve", "4x3", "--value-only", "--threads", "1", "--table-mb", "64", "--node-limit", "20000", "-q"];
    let out = gosolve(&args);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(text.contains("the test after each of the 13 legal moves, as proved before it stopped:"), "{text}");
    let json_args: Vec<&str> = args.iter().chain(&["--json"]).copied().collect();
    let open: Value = serde_json::from_slice(&gosolve(&json_args).stdout).expect("JSON on stdout");
    let b = open["testing"].as_array().expect("one test")[0].as_i64().unwrap();
    let moves = open["test_moves"].as_array().expect("test_moves");
    assert_eq!(moves.len(), 13, "pass and the 12 points: {open}");
    let exact = json(&["solve", "4x3", "--threads", "1", "--json", "-q"]);
    for m in moves.iter().filter(|m| !m["holds"].is_null()) {
        let v = exact["moves"].as_array().unwrap().iter().find(|e| e["move"] == m["move"]).unwrap()["value"].as_i64();
        assert_eq!(m["holds"].as_bool(), Some(v.unwrap() >= b), "{m}");
    }
}

/// A solve or claim stopped by a limit still says how much work it did,
/// with the fields of a finished report: its threads' nodes at the stop
/// (at least the limit, where the progress reports, every 2^20 nodes, had
/// none yet), time, speed, memory and table, in JSON and in its text's
/// `search:` line.
#[test]
fn a_stopped_solve_reports_its_work() {
    for how in [["--value-only"], ["--at-least=16"]] {
        let args: Vec<&str> = ["solve", "4x4", "--node-limit", "5000", "--threads", "2", "--table-mb", "16", "-q"]
            .iter()
            .chain(&how)
            .copied()
            .collect();
        let out = gosolve(&[&args[..], &["--json"]].concat());
        assert_eq!(out.status.code(), Some(1), "stopped by the node limit");
        let j: Value = serde_json::from_slice(&out.stdout).expect("JSON on stdout");
        assert_eq!(j["status"], "unsolved", "{j}");
        assert!(j["nodes"].as_u64().is_some_and(|n| n >= 5000), "{j}");
        assert!(j["seconds"].as_f64().is_some_and(|t| t > 0.0), "{j}");
        assert!(j["nodes_per_second"].as_f64().is_some_and(|v| v > 0.0), "{j}");
        assert!(j.get("peak_memory_mib").is_some() && j["table_mib_in_use"].as_u64().is_some(), "{j}");
        assert_eq!(j["table_mb"], 16, "{j}");
        let text = String::from_utf8_lossy(&gosolve(&args).stdout).into_owned();
        assert!(text.contains("\nsearch: solver, nodes ") && text.contains(" nodes/s, "), "{text}");
    }
}

/// The stderr of a one-thread 4x3 value-only solve with `--trace KIND`,
/// after checking that the trace changed nothing else.
fn traced_4x3(trace: &str) -> String {
    let args = ["solve", "4x3", "--value-only", "--threads", "1", "--table-mb", "16", "-q", "--json"];
    let plain = json(&args);
    let out = cli::command(&[&args[..], &["--trace", trace]].concat()).output().expect("run gosolve");
    assert!(out.status.success());
    let traced: Value = serde_json::from_slice(&out.stdout).expect("JSON on stdout");
    for field in ["value", "pv", "nodes"] {
        assert_eq!(traced[field], plain[field], "the trace changes nothing but stderr");
    }
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn a_trace_kind_is_checked_and_needs_the_fast_solver() {
    let line = fails_one_line(&["solve", "2x2", "--trace", "all"]);
    assert!(line.contains("--trace"), "{line}");
    let line = fails_one_line(&["solve", "2x2", "--trace", "tests", "--reference"]);
    assert!(line.contains("--trace") && line.contains("--reference"), "{line}");
}

#[test]
fn the_roots_trace_names_where_each_test_spent_its_nodes() {
    let err = traced_4x3("roots");
    let line = err
        .lines()
        .find(|l| l.starts_with("root moves of test >= ") && l.contains(" at ply 0 "))
        .unwrap_or_else(|| panic!("{err}"));
    let counts: Vec<u64> = line
        .split(": ")
        .nth(1)
        .expect("a list")
        .split(", ")
        .map(|w| w.rsplit(' ').next().unwrap().parse().expect("a count after each move"))
        .collect();
    assert!(counts.windows(2).all(|w| w[0] >= w[1]), "most first: {line}");
    assert!(err.lines().any(|l| l.starts_with("test >= ")), "the plain trace too: {err}");
}

#[test]
fn the_proof_trace_measures_each_tests_proof_against_its_search() {
    let err = traced_4x3("proof");
    let lines: Vec<&str> = err.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with("proof of test >= ") && l.contains(" at ply 0: "))
        .unwrap_or_else(|| panic!("{err}"));
    let size: u64 =
        lines[at].split(": ").nth(1).and_then(|r| r.split(' ').next()).and_then(|n| n.parse().ok()).expect("a size");
    assert!(size >= 1, "{}", lines[at]);
    assert!(lines[at + 1].starts_with("  the search since the last proof: "), "{err}");
    assert!(lines[at + 2].starts_with("  nodes below the other moves of the proof's prover nodes: "), "{err}");
    assert!(lines[at + 3].starts_with("  the prior ranked a proving move first at "), "{err}");
}

// ---------------------------------------------------------------------------
// The table's memory: a short solve uses a small part of the table it may
// grow to, and says so.

#[test]
fn a_short_solve_uses_a_small_part_of_the_table() {
    let j = json(&["solve", "3x3", "--value-only", "--table-mb", "1024", "--json", "-q"]);
    assert_eq!(j["table_mb"], 1024, "{j}");
    let used = j["table_mib_in_use"].as_u64().expect("table_mib_in_use");
    assert!((1..=64).contains(&used), "{j}");
    let claim = json(&["solve", "3x3", "--at-least", "9", "--table-mb", "1024", "--json", "-q"]);
    assert!(claim["table_mib_in_use"].as_u64().is_some_and(|m| m <= 64), "{claim}");
    // The text says what was used, and of how much, not the size alone.
    let text = ok(&["solve", "3x3", "--value-only", "--table-mb", "1024", "-q"]);
    let line = text.lines().find(|l| l.starts_with("table: ")).expect("a table line");
    assert!(line.ends_with(" MiB used (of up to 1,024 MiB)"), "{text}");
    let used: u64 = line["table: ".len()..].split(' ').next().unwrap().parse().unwrap();
    assert!((1..=64).contains(&used), "{text}");
    let text = ok(&["solve", "1x4", "--reference", "-q"]);
    assert!(text.contains("table: none (the reference search keeps no table)"), "{text}");
}

/// A checkpoint written before big results kept their cleared situations
/// (table format 1: `tests/data/checkpoint_format1_2x2.ck`, a whole 2x2
/// solve by gosolve 145d11a) is still read, every result kept, and answers
/// the solve; the file is then saved in the current format and read again.
#[test]
fn a_checkpoint_of_the_previous_table_format_is_still_read() {
    let dir = tempfile::tempdir().unwrap();
    let ck = dir.path().join("2x2.ck");
    std::fs::copy(data("checkpoint_format1_2x2.ck"), &ck).unwrap();
    let args = ["solve", "2x2", "--threads", "1", "--table-mb", "16", "--checkpoint", s(&ck), "--json", "-q"];
    let old = json(&args);
    assert_eq!(old["value"], 1, "{old}");
    assert_eq!(old["checkpoint"]["read"]["results"], 93, "{old}");
    assert_eq!(old["checkpoint"]["read"]["kept"], 93, "{old}");
    // A fresh solve searches 242 nodes.
    assert!(old["nodes"].as_u64().unwrap() < 121, "answered from the file: {old}");
    let again = json(&args);
    assert_eq!(again["value"], 1, "{again}");
    assert!(again["checkpoint"]["read"]["results"].as_u64().unwrap() >= 93, "{again}");
}

/// `--checkpoint FILE`: a solve stopped by its node limit leaves what it
/// proved in FILE; the same command then resumes from it with fewer nodes
/// than a fresh solve, a third run is answered from the file, and a claim
/// uses it too. A checkpoint for another board is a one-line error, and so
/// are `--checkpoint-every` without `--checkpoint` and `--checkpoint` with
/// the reference search (which has no table).
#[test]
fn a_checkpoint_resumes_a_stopped_solve() {
    let dir = tempfile::tempdir().unwrap();
    let ck = dir.path().join("4x4.ck");
    let base = ["solve", "4x4", "--value-only", "--threads", "1", "--table-mb", "256", "--json", "-q"];
    let fresh = json(&base);
    let with = |extra: &[&str]| -> Vec<String> {
        base.iter().chain(["--checkpoint", s(&ck)].iter()).chain(extra).map(|a| a.to_string()).collect()
    };
    let args = with(&["--node-limit", "300000"]);
    let out = gosolve(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(out.status.code(), Some(1), "stopped by the node limit");
    assert!(ck.exists(), "the stopped solve saved its checkpoint");
    // The report says what the file holds: nothing read, what was saved.
    let stopped: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let saved = stopped["checkpoint"]["saved"]["results"].as_u64().unwrap();
    assert!(stopped["checkpoint"]["read"].is_null() && saved > 0, "{stopped}");
    assert_eq!(stopped["checkpoint"]["path"], s(&ck));
    let args = with(&[]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let resumed = json(&args);
    assert_eq!(resumed["value"], 2, "{resumed}");
    assert_eq!(resumed["checkpoint"]["read"]["results"], saved, "{resumed}");
    assert!(resumed["checkpoint"]["saved"]["results"].as_u64().unwrap() >= saved, "{resumed}");
    let (n_fresh, n_resumed) = (fresh["nodes"].as_u64().unwrap(), resumed["nodes"].as_u64().unwrap());
    assert!(n_resumed < n_fresh, "resumed {n_resumed} nodes, fresh {n_fresh}");
    let again = json(&args);
    assert_eq!(again["value"], 2);
    assert!(again["nodes"].as_u64().unwrap() < n_fresh / 5, "{again}");
    let claim = json(&["solve", "4x4", "--at-least", "2", "--threads", "1", "--checkpoint", s(&ck), "--json", "-q"]);
    assert_eq!(claim["holds"], true, "{claim}");
    assert!(claim["nodes"].as_u64().unwrap() < n_fresh / 5, "{claim}");
    let e = fails_one_line(&["solve", "3x3", "--checkpoint", s(&ck)]);
    assert!(e.contains("is a checkpoint for 4x4, no suicide, positional superko, not for 3x3"), "{e}");
    fails_one_line(&["solve", "3x3", "--checkpoint-every", "5"]);
    fails_one_line(&["solve", "3x3", "--checkpoint", s(&ck), "--reference"]);
    fails_one_line(&["solve", "3x3", "--checkpoint", s(&dir.path().join("x.ck")), "--checkpoint-every", "0"]);
}

/// A value-only solve stopped with bounds proved keeps them in its
/// checkpoint: the same solve resumed starts from them and says so (the
/// JSON's `known_bounds`, komi applied), one finished has them meet,
/// another root (another history, or a move later) gets none, and a
/// decided claim leaves its bound.
#[test]
fn a_checkpoint_keeps_the_bounds_a_value_only_solve_proved() {
    let dir = tempfile::tempdir().unwrap();
    let ck = dir.path().join("4x4.ck");
    let solve = |extra: &[&str]| -> std::process::Output {
        let base =
            ["solve", "4x4", "--value-only", "--threads", "1", "--table-mb", "64", "--json", "-q", "--checkpoint"];
        gosolve(&base.iter().copied().chain([s(&ck)]).chain(extra.iter().copied()).collect::<Vec<_>>())
    };
    let out = solve(&["--node-limit", "300000"]);
    assert_eq!(out.status.code(), Some(1), "stopped by the node limit");
    let stopped: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let (lower, upper) = (stopped["lower_bound"].as_i64(), stopped["upper_bound"].as_i64());
    assert!(lower.is_some() && upper.is_some(), "a bound proved before the limit: {stopped}");
    assert_eq!(stopped["checkpoint"]["saved"]["roots"], 1, "{stopped}");
    // `checkpoint info` tells them, with the file's board and counts.
    let info = json(&["checkpoint", "info", s(&ck), "--json"]);
    assert_eq!(
        (info["board"].as_str(), info["version"].as_u64()),
        (Some("4x4"), Some(gosolve::tables::checkpoint::VERSION as u64)),
        "{info}"
    );
    assert_eq!(info["results"], stopped["checkpoint"]["saved"]["results"], "{info}");
    let root = &info["roots"][0];
    assert_eq!((root["at_least"].as_i64(), root["at_most"].as_i64()), (lower, upper), "{info}");
    assert_eq!((root["position"].as_str(), root["to_move"].as_str()), (Some("..../..../..../...."), Some("black")));
    let text = ok(&["checkpoint", "info", s(&ck)]);
    let bounds = gosolve::format::numbers::bounds(lower.map(|v| v as f64), upper.map(|v| v as f64)).unwrap();
    let said = format!("Black to move, a history of 1 situation: value {bounds} (komi 0)");
    assert!(text.contains(&said) && text.contains("4x4, no suicide, positional superko"), "{text}");
    let cut = dir.path().join("cut.ck");
    let bytes = std::fs::read(&ck).unwrap();
    std::fs::write(&cut, &bytes[..bytes.len() - 20]).unwrap();
    let e = fails_one_line(&["checkpoint", "info", s(&cut)]);
    assert!(e.contains("is damaged"), "{e}");
    // Resumed and stopped at once: it still knows them.
    let out = solve(&["--node-limit", "1"]);
    let again: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((again["lower_bound"].as_i64(), again["upper_bound"].as_i64()), (lower, upper), "{again}");
    let known = &again["checkpoint"]["read"]["known_bounds"];
    assert_eq!((known["lower_bound"].as_i64(), known["upper_bound"].as_i64()), (lower, upper), "{again}");
    // Resumed to the end: the value, and the bounds meet in the file.
    let out = solve(&["--komi", "0.5"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let solved: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(solved["value"], 1.5, "{solved}");
    let known = &solved["checkpoint"]["read"]["known_bounds"];
    assert_eq!(known["lower_bound"].as_f64(), lower.map(|v| v as f64 - 0.5), "{solved}");
    let args = ["solve", "4x4", "--value-only", "--threads", "1", "--table-mb", "64", "--checkpoint", s(&ck)];
    let done = json(&args.iter().copied().chain(["--json", "-q"]).collect::<Vec<_>>());
    assert_eq!(done["value"], 2, "{done}");
    assert_eq!(done["checkpoint"]["read"]["known_bounds"]["upper_bound"], 2, "{done}");
    // In text, the line that says where the search starts.
    let out = gosolve(&args);
    let (text, err) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("value: Black wins by 2"), "{text}");
    assert!(err.contains("value = +2 proved by an earlier solve of this position"), "{err}");
    // Another root: the position after b2, and the empty board with a pass
    // pending.
    for moves in ["b2", "pass"] {
        let out = solve(&["--moves", moves, "--node-limit", "1"]);
        let other: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert!(other["checkpoint"]["read"]["known_bounds"].is_null(), "{moves}: {other}");
    }
    // A decided claim is a bound too: "<= 1" refuted is "value >= +2".
    let ck = dir.path().join("claims.ck");
    let claim =
        ["solve", "4x4", "--at-most", "1", "--threads", "1", "--table-mb", "64", "--json", "-q", "--checkpoint"];
    let refuted = json(&claim.iter().copied().chain([s(&ck)]).collect::<Vec<_>>());
    assert_eq!(refuted["holds"], false, "{refuted}");
    let args = ["solve", "4x4", "--value-only", "--node-limit", "1", "--threads", "1", "--json", "-q", "--checkpoint"];
    let out = gosolve(&args.iter().copied().chain([s(&ck)]).collect::<Vec<_>>());
    let resumed: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let known = &resumed["checkpoint"]["read"]["known_bounds"];
    assert_eq!((known["lower_bound"].as_i64(), known["upper_bound"].as_i64()), (Some(2), None), "{resumed}");
}

// ---------------------------------------------------------------------------
// One name for the default rules: "NSTT" in JSON and SGF, and the same name
// with what it means in text.

#[test]
fn the_default_rules_have_one_name() {
    const TEXT: &str = "NSTT (Tromp-Taylor, no suicide, positional superko, komi 0)";
    let text = ok(&["solve", "2x2", "-q", "--threads", "1"]);
    assert!(text.contains(&format!("rules: {TEXT}")), "{text}");
    let text = ok(&["replay", "2x2", "--moves", "b1"]);
    assert!(text.contains(&format!("rules: {TEXT}")), "{text}");
    let text = ok(&["solve", "2x2", "--at-least", "1", "-q", "--threads", "1"]);
    assert!(text.contains(&format!("rules: {TEXT}")), "{text}");
    for args in [vec!["solve", "2x2", "--json", "-q"], vec!["replay", "2x2", "--json"]] {
        let j = json(&args);
        assert_eq!(j["rules"]["name"], "NSTT", "{j}");
    }
    let table = Path::new(env!("CARGO_MANIFEST_DIR")).join("results/tables/2x2-NSTT.gtb");
    let text = ok(&["table", "info", s(&table)]);
    assert!(text.contains(TEXT), "{text}");
    // Other rules: the short name first, then what it means.
    let text = ok(&["solve", "2x2", "--suicide", "--komi", "0.5", "-q", "--threads", "1"]);
    assert!(text.contains("rules: TT (Tromp-Taylor, suicide allowed, positional superko, komi 0.5)"), "{text}");
}

/// gtp reads no SGF's rules: its help does not say its flags override one.
#[test]
fn gtp_help_says_what_its_rule_flags_do() {
    let help = ok(&["gtp", "--help"]);
    assert!(!help.contains("SGF's RU") && !help.contains("SGF's KM"), "{help}");
    assert!(help.contains("rule flags give the rules games start under"), "{help}");
    for sub in [vec!["count", "games", "--help"], vec!["table", "build", "--help"]] {
        let help = ok(&sub);
        assert!(!help.contains("SGF's RU"), "{sub:?}: {help}");
    }
}
