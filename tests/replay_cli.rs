//! `gosolve replay` end to end: SGF fixtures in tests/data/ and inline move lists,
//! the JSON report, SGF output, and one-line errors for every kind of bad input.

use serde_json::Value;
use std::path::{Path, PathBuf};

#[path = "support/cli.rs"]
mod cli;
use cli::gosolve;

fn data(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name).display().to_string()
}

/// Run, expect success, return stdout.
fn ok(args: &[&str]) -> String {
    let out = gosolve(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "gosolve {args:?} failed: {stderr}");
    String::from_utf8(out.stdout).unwrap()
}

/// Run with --json, expect success, parse the object.
fn json(args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.push("--json");
    let text = ok(&all);
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("bad JSON ({e}): {text}"))
}

/// Run, expect a clean failure: non-zero exit code, exactly one stderr line, no
/// panic. Returns that line.
fn fails(args: &[&str]) -> String {
    let out = gosolve(args);
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    let code = out.status.code();
    assert!(code.is_some() && code != Some(0), "gosolve {args:?} should fail cleanly, got {:?}: {stderr}", out.status);
    assert!(!stderr.contains("panicked"), "gosolve {args:?} panicked: {stderr}");
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 1, "gosolve {args:?} should print one stderr line, got: {stderr}");
    assert!(lines[0].starts_with("gosolve: error: "), "{}", lines[0]);
    lines[0].to_string()
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array().unwrap().iter().map(|s| s.as_str().unwrap().to_string()).collect()
}

const SUPERKO_MOVES: &str = "a2 b2 a1 b1 a2 a1";

fn check_superko_game_over(j: &Value) {
    assert_eq!(j["board"], "2x2");
    assert_eq!(strings(&j["moves"]), ["a2", "b2", "a1", "b1", "a2", "a1", "pass", "pass"]);
    assert_eq!(j["position"], ".O/OO");
    assert_eq!(j["black"], 0);
    assert_eq!(j["white"], 4);
    assert_eq!(j["value"], -4);
    assert_eq!(j["over"], true);
    assert_eq!(strings(&j["legal_moves"]), Vec::<String>::new());
    assert_eq!(j["result"], "White wins by 4");
}

#[test]
fn superko_game_from_sgf_with_passes() {
    let j = json(&["replay", "--sgf", &data("superko_2x2.sgf")]);
    check_superko_game_over(&j);
    let text = ok(&["replay", "--sgf", &data("superko_2x2.sgf")]);
    assert!(text.contains("game over"), "{text}");
    assert!(text.contains("White wins by 4"), "{text}");
    assert!(text.contains("2 . O\n1 O O\n  a b\n"), "{text}");
}

#[test]
fn superko_game_from_moves() {
    let moves = format!("{SUPERKO_MOVES} pass pass");
    check_superko_game_over(&json(&["replay", "2x2", "--moves", &moves]));
    // Before the passes: Black's only legal turn is pass.
    let j = json(&["replay", "2x2", "--moves", SUPERKO_MOVES]);
    assert_eq!(j["to_move"], "black");
    assert_eq!(j["over"], false);
    assert_eq!(strings(&j["legal_moves"]), ["pass"]);
    assert_eq!(j["value"], -4);
    // Commas work as separators too.
    let j = json(&["replay", "2x2", "--moves", "a2,b2, a1"]);
    assert_eq!(strings(&j["moves"]), ["a2", "b2", "a1"]);
}

#[test]
fn superko_repeat_is_an_error() {
    let line = fails(&["replay", "2x2", "--moves", "a2 b2 a1 b1 a2 a1 a2"]);
    assert_eq!(line, "gosolve: error: move 7 (black a2): the move recreates an earlier position (superko)");
    let line = fails(&["replay", "--sgf", &data("superko_2x2_repeat.sgf")]);
    assert!(line.ends_with("move 7 (black a2): the move recreates an earlier position (superko)"), "{line}");
}

#[test]
fn document_3x2_json() {
    let j = json(&["replay", "3x2", "--moves", "b1 a2 b2"]);
    let expected: Value = serde_json::from_str(
        r#"{"board":"3x2","rules":{"name":"NSTT","suicide":false,"superko":"positional","komi":0},"to_move":"white",
            "moves":["b1","a2","b2"],"position":"OX./.X.","black":4,"white":1,"value":3,"over":false,
            "legal_moves":["pass","c1","c2"]}"#,
    )
    .unwrap();
    for (k, v) in expected.as_object().unwrap() {
        assert_eq!(&j[k], v, "field {k}");
    }
    // The same from a setup diagram and from an SGF setup.
    let j = json(&["replay", "3x2", "--position", "OX./.X.", "--to", "w"]);
    assert_eq!(j["position"], "OX./.X.");
    assert_eq!(j["start"], "OX./.X.");
    assert_eq!(strings(&j["legal_moves"]), ["pass", "c1", "c2"]);
    assert_eq!(j["value"], 3);
    let j = json(&["replay", "--sgf", &data("setup_3x2.sgf")]);
    assert_eq!(j["to_move"], "white");
    assert_eq!(strings(&j["legal_moves"]), ["pass", "c1", "c2"]);
    // Two passes end it: B+3.
    let j = json(&["replay", "3x2", "--moves", "b1 a2 b2 pass pass"]);
    assert_eq!(j["over"], true);
    assert_eq!((j["black"].as_i64(), j["white"].as_i64(), j["value"].as_i64()), (Some(4), Some(1), Some(3)));
}

#[test]
fn suicide_rules() {
    // NSTT (default): illegal.
    let line = fails(&["replay", "3x2", "--moves", "b1 a2 b2 a1"]);
    assert_eq!(line, "gosolve: error: move 4 (white a1): suicide is not allowed under these rules");
    let line = fails(&["replay", "--sgf", &data("suicide_3x2.sgf")]);
    assert!(line.ends_with("move 4 (white a1): suicide is not allowed under these rules"), "{line}");
    // TT: legal, clears {a1,a2}.
    let j = json(&["replay", "3x2", "--moves", "b1 a2 b2 a1", "--suicide"]);
    assert_eq!(j["position"], ".X./.X.");
    assert_eq!(j["rules"]["suicide"], true);
    // RU[Tromp-Taylor] in the SGF allows it; an explicit --no-suicide overrides.
    let j = json(&["replay", "--sgf", &data("suicide_3x2_tt.sgf")]);
    assert_eq!(j["position"], ".X./.X.");
    assert_eq!(j["rules"]["suicide"], true);
    fails(&["replay", "--sgf", &data("suicide_3x2_tt.sgf"), "--no-suicide"]);
    // --suicide overrides an NSTT SGF.
    let j = json(&["replay", "--sgf", &data("suicide_3x2.sgf"), "--suicide"]);
    assert_eq!(j["position"], ".X./.X.");
}

#[test]
fn rule_overrides_apply_only_when_given() {
    // The SGF's RU[Tromp-Taylor] stays unless overridden part by part.
    let j = json(&["replay", "--sgf", &data("suicide_3x2_tt.sgf"), "--komi", "2.5"]);
    assert_eq!(j["rules"]["suicide"], true);
    assert_eq!(j["rules"]["superko"], "positional");
    assert_eq!(j["rules"]["komi"], 2.5);
    assert_eq!(j["value"], 3.5, "B 6 - W 0 - 2.5");
    let j = json(&["replay", "--sgf", &data("suicide_3x2_tt.sgf"), "--superko", "situational"]);
    assert_eq!(j["rules"]["superko"], "situational");
    assert_eq!(j["rules"]["suicide"], true);
    let j = json(&["replay", "2x2", "--komi", "-1"]);
    assert_eq!(j["value"], 1);
}

#[test]
fn sgf_out_round_trips() {
    let dir = std::env::temp_dir().join(format!("gosolve-replay-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out: PathBuf = dir.join("game.sgf");
    let out_s = out.display().to_string();
    let moves = format!("{SUPERKO_MOVES} pass pass");
    let first = json(&["replay", "2x2", "--moves", &moves, "--sgf-out", &out_s]);
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("SZ[2]") && text.contains("RU[NSTT]") && text.contains("RE[W+4]"), "{text}");
    assert!(text.contains(";B[];W[]"), "{text}");
    assert!(!dir.join("game.sgf.tmp").exists());
    let again = json(&["replay", "--sgf", &out_s]);
    assert_eq!(first, again);

    // A setup game under TT-situational with komi, not over: no RE.
    let first = json(&[
        "replay",
        "3x2",
        "--position",
        "OX./.X.",
        "--to",
        "w",
        "--moves",
        "c1",
        "--suicide",
        "--superko",
        "situational",
        "--komi",
        "0.5",
        "--sgf-out",
        &out_s,
    ]);
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("SZ[3:2]") && text.contains("RU[TT-situational]") && text.contains("PL[W]"), "{text}");
    assert!(!text.contains("RE["), "{text}");
    let again = json(&["replay", "--sgf", &out_s]);
    assert_eq!(first, again);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn illegal_inputs_fail_with_one_line() {
    let cases: Vec<(Vec<String>, &str)> = vec![
        (vec!["replay".into(), "--sgf".into(), data("occupied.sgf")], "move 3 (black a3): point is occupied"),
        (
            vec!["replay".into(), "3x3".into(), "--moves".into(), "b2 a3 b2".into()],
            "move 3 (black b2): point is occupied",
        ),
        (vec!["replay".into(), "--sgf".into(), data("illegal_setup.sgf")], "setup position is illegal"),
        (vec!["replay".into(), "2x2".into(), "--position".into(), "XO/OX".into()], "setup position is illegal"),
        (vec!["replay".into(), "--sgf".into(), data("board_9x9.sgf")], "at most 64"),
        (vec!["replay".into(), "--sgf".into(), data("no_size.sgf")], "19x19"),
        (vec!["replay".into(), "9x9".into()], "at most 64"),
        (vec!["replay".into(), "--sgf".into(), data("malformed.sgf")], "malformed SGF"),
        (vec!["replay".into(), "--sgf".into(), data("not_go.sgf")], "not Go"),
        (vec!["replay".into(), "--sgf".into(), data("no_such_file.sgf")], "cannot read SGF file"),
        (vec!["replay".into(), "--sgf".into(), data("")], "cannot read SGF file"),
        (vec!["replay".into(), "3x2".into(), "--moves".into(), "b1 z9".into()], "move 2 'z9'"),
        (vec!["replay".into(), "3x2".into(), "--komi".into(), "0.3".into()], "komi"),
        (vec!["replay".into(), "3x2".into(), "--to".into(), "red".into()], "side to move"),
        (vec!["replay".into(), "3x2".into(), "--position".into(), "XX".into()], "diagram"),
        (vec!["replay".into()], "board size"),
        (
            vec!["replay".into(), "2x2".into(), "--moves".into(), "pass pass a1".into()],
            "move 3 (black a1): the game is over",
        ),
    ];
    for (args, needle) in cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let line = fails(&args);
        assert!(line.contains(needle), "{args:?}: expected '{needle}' in: {line}");
    }
}

#[test]
fn hostile_sgf_texts_fail_cleanly() {
    let dir = std::env::temp_dir().join(format!("gosolve-replay-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let texts: Vec<String> = vec![
        "".into(),
        "garbage".into(),
        "(;SZ[3];B[a\nb])".into(),
        "(;SZ[3]KM[x\ny])".into(),
        "(;SZ[3]AB[aa]AW[aa])".into(),
        "(;SZ[3];B[aa];B[bb])".into(),
        format!("(;SZ[2]{}(()))", ";".repeat(100_000)),
        ";".repeat(1_000_000),
    ];
    for (i, t) in texts.iter().enumerate() {
        let path = dir.join(format!("h{i}.sgf"));
        std::fs::write(&path, t).unwrap();
        fails(&["replay", "--sgf", &path.display().to_string()]);
    }
    // Not UTF-8 either.
    let path = dir.join("bytes.sgf");
    std::fs::write(&path, b"(;SZ[3]C[\xff\xfe];B[aa])").unwrap();
    let j = json(&["replay", "--sgf", &path.display().to_string()]);
    assert_eq!(strings(&j["moves"]), ["a3"]);
    std::fs::remove_dir_all(&dir).ok();
}

/// A solve stopped by a limit still reports the root moves it finished, with
/// exact values, and exits non-zero with one error line.
#[test]
fn solve_stopped_by_a_limit_reports_solved_root_moves() {
    // Below the whole solve (166 k nodes since the table of records, 256 k
    // before), above its first root moves.
    let out = gosolve(&["solve", "1x9", "--node-limit", "140000", "--threads", "1", "--json", "--quiet"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("node limit"), "{err}");
    let j: Value = serde_json::from_slice(&out.stdout).expect("JSON on stdout");
    assert_eq!(j["status"], "unsolved");
    let moves = j["moves"].as_array().unwrap();
    assert!(!moves.is_empty());
    // 1x9 opening values (known_values::strip_nine).
    for m in moves {
        let want = match m["move"].as_str().unwrap() {
            "pass" | "a2" | "a4" | "a5" | "a6" | "a8" => 0.0,
            "a3" | "a7" => -1.0,
            _ => -4.0,
        };
        assert_eq!(m["value"].as_f64().unwrap(), want, "{m}");
    }
}

/// `--value-only` reports the value and principal variation but no move
/// values, in text and in JSON.
#[test]
fn solve_value_only() {
    let out = gosolve(&["solve", "1x7", "--value-only", "--quiet"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Black wins by 2"), "{text}");
    assert!(text.contains("move values: not computed (--value-only)"), "{text}");
    let out = gosolve(&["solve", "3x3", "--value-only", "--json", "--quiet", "--threads", "2"]);
    assert!(out.status.success());
    let j: Value = serde_json::from_slice(&out.stdout).expect("JSON on stdout");
    assert_eq!(j["value"].as_f64(), Some(9.0));
    assert_eq!(j["moves"].as_array().map(Vec::len), Some(0));
    assert_eq!(j["pv"][0], "b2");
}

/// A value-only solve stopped by a limit reports the bounds on the value it
/// proved before it stopped (1x10 = +1: MTD(f) proves "≥ +1" first).
#[test]
fn value_only_stopped_by_a_limit_reports_bounds() {
    let args = ["solve", "10x1", "--value-only", "--node-limit", "100000", "--threads", "1", "--json", "--quiet"];
    let out = gosolve(&args);
    assert!(!out.status.success());
    let j: Value = serde_json::from_slice(&out.stdout).expect("JSON on stdout");
    assert_eq!(j["status"], "unsolved");
    let (lower, upper) = (j["lower_bound"].as_f64(), j["upper_bound"].as_f64());
    assert!(lower.is_some() || upper.is_some(), "{j}");
    assert!(lower.is_none_or(|l| l <= 1.0) && upper.is_none_or(|u| u >= 1.0), "{j}");
    // And the test "value >= b" it stopped in, inside them.
    let testing: Vec<f64> = j["testing"].as_array().expect("testing").iter().filter_map(Value::as_f64).collect();
    assert_eq!(testing.len(), 1, "one thread, one test: {j}");
    assert!(lower.is_none_or(|l| l < testing[0]) && upper.is_none_or(|u| testing[0] <= u), "{j}");
    let out = gosolve(&args[..args.len() - 2]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("bounds proved before it stopped: value >="), "{text}");
    // Stopped before any test ended: "none", not a bound "not proved".
    let out = gosolve(&["solve", "10x1", "--value-only", "--node-limit", "1", "--threads", "1"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("bounds proved before it stopped: none\n"), "{text}");
    assert!(text.contains("stopped in the test value >= "), "{text}");
}
