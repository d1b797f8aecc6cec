//! Solved tables: building (in-process and through the CLI), agreement with
//! direct solves, byte-identical output whatever the thread count, symmetry
//! use or interruptions, and clean errors for every kind of bad file.

use gosolve::search::{solve, SolveOptions};
use gosolve::tables::{
    build, partial_path, BuildError, BuildOptions, BuildOutcome, SolvedTable, StopReason, TableError, TableSpec,
    ENTRY_SIZE, HEADER_SIZE,
};
use gosolve::{Color, Game, Geometry, Komi, Move, Position, Rules, Superko};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::time::Duration;

#[path = "support/cli.rs"]
mod cli;
use cli::gosolve;

fn spec(w: usize, h: usize) -> TableSpec {
    TableSpec { geo: Geometry::new(w, h).unwrap(), rules: Rules::default() }
}

fn opts(threads: usize) -> BuildOptions {
    BuildOptions { threads, ..Default::default() }
}

/// Build a complete table into a fresh temporary directory; returns the dir guard, the file and its bytes.
fn built(spec: &TableSpec, o: &BuildOptions) -> (tempfile::TempDir, PathBuf, Vec<u8>) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t.gtb");
    match build(spec, &out, o).unwrap() {
        BuildOutcome::Complete { .. } => {}
        other => panic!("build did not complete: {other:?}"),
    }
    let bytes = std::fs::read(&out).unwrap();
    (dir, out, bytes)
}

fn ok(args: &[&str]) -> String {
    let out = gosolve(args);
    assert!(out.status.success(), "gosolve {args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// Expect a clean failure: non-zero exit, no panic, the error on one line.
fn fails(args: &[&str]) -> String {
    let out = gosolve(args);
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(out.status.code().is_some_and(|c| c != 0), "gosolve {args:?} should fail: {:?} {stderr}", out.status);
    assert!(!stderr.contains("panicked"), "gosolve {args:?} panicked: {stderr}");
    let errors: Vec<&str> = stderr.lines().filter(|l| l.starts_with("gosolve: error: ")).collect();
    assert_eq!(errors.len(), 1, "one error line expected: {stderr}");
    errors[0].to_string()
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn two_by_two_agrees_with_direct_solves() {
    let spec = spec(2, 2);
    let (_dir, out, bytes) = built(&spec, &opts(2));
    assert_eq!(bytes.len(), HEADER_SIZE + 114 * ENTRY_SIZE);
    let table = SolvedTable::read(&out).unwrap();
    assert!(table.complete);
    assert_eq!(table.entries().len(), 114, "57 positions x 2 sides");
    assert_eq!(table.spec, spec);
    let empty = table.get(Position::EMPTY, Color::Black).unwrap();
    assert_eq!(empty.value, 1, "Tromp/Taylor: 2x2 is a Black win by 1");
    for e in table.entries() {
        let game = Game::new(spec.geo, spec.rules, e.position, e.to_move).unwrap();
        let sol = solve(&game, &SolveOptions { table_mb: 8, ..Default::default() }).unwrap();
        assert_eq!(e.value as i32, sol.value, "{:?}", e);
        let best: Vec<Move> = sol.moves.iter().filter(|m| m.value == sol.value).map(|m| m.mv).collect();
        assert_eq!(e.best_moves(), best, "{:?}", e);
    }
}

#[test]
fn bytes_do_not_depend_on_threads_or_symmetry() {
    for (w, h) in [(2, 2), (1, 5), (1, 6)] {
        let spec = spec(w, h);
        let (_a, _, one) = built(&spec, &opts(1));
        let (_b, _, two) = built(&spec, &BuildOptions { threads: 2, symmetry: false, ..Default::default() });
        let (_c, _, three) = built(&spec, &opts(3));
        assert_eq!(one, two, "{w}x{h}: symmetric 1 thread vs direct 2 threads");
        assert_eq!(one, three, "{w}x{h}");
    }
}

#[test]
fn rules_are_in_the_header_and_the_file_name() {
    let rules = Rules { suicide: true, superko: Superko::Situational, komi: Komi(-1) };
    let spec = TableSpec { geo: Geometry::new(2, 2).unwrap(), rules };
    assert_eq!(spec.default_path(), Path::new("results/tables/2x2-TT-situational-komi-0.5.gtb"));
    let (_d, out, _) = built(&spec, &opts(2));
    let t = SolvedTable::read(&out).unwrap();
    assert_eq!(t.spec.rules, rules);
    let e = t.get(Position::EMPTY, Color::Black).unwrap();
    assert_eq!(e.value_with_komi(rules.komi), e.value as f64 + 0.5);
}

#[test]
fn resume_gives_the_same_file_as_an_uninterrupted_build() {
    let spec = spec(2, 2);
    let (_d, _, whole) = built(&spec, &opts(2));
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r.gtb");
    let partial = partial_path(&out);
    let mut stops = 0;
    loop {
        let o =
            BuildOptions { threads: 2, stop_after: Some(3), checkpoint_every: Duration::ZERO, ..Default::default() };
        match build(&spec, &out, &o).unwrap() {
            BuildOutcome::Stopped { reason, done, total, checkpoint, .. } => {
                assert_eq!(reason, StopReason::StopAfter);
                assert!(done < total);
                assert_eq!(checkpoint, partial);
                let t = SolvedTable::read(&partial).unwrap();
                assert!(!t.complete);
                // The checkpoint holds the class representatives solved;
                // `done` counts the entries they stand for.
                assert!(t.entries().len() as u64 <= done && !t.entries().is_empty());
                assert!(!out.exists());
                stops += 1;
            }
            BuildOutcome::Complete { resumed, .. } => {
                assert!(resumed > 0);
                break;
            }
            other => panic!("{other:?}"),
        }
        assert!(stops < 20);
    }
    assert!(stops >= 2, "13 classes in 3s: several stops");
    assert!(!partial.exists(), "the checkpoint is removed when done");
    assert_eq!(std::fs::read(&out).unwrap(), whole);
    // A further build finds it complete and does nothing.
    assert!(matches!(build(&spec, &out, &opts(2)).unwrap(), BuildOutcome::AlreadyComplete { entries: 114 }));
    // No temporary files are left behind.
    let names: Vec<String> =
        std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    assert_eq!(names, ["r.gtb"]);
}

#[test]
fn time_limit_and_abort_stop_with_a_checkpoint() {
    let spec = spec(3, 2);
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t.gtb");
    let abort = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let o = BuildOptions { abort: Some(abort), ..opts(2) };
    match build(&spec, &out, &o).unwrap() {
        BuildOutcome::Stopped { reason: StopReason::Interrupted, .. } => {}
        other => panic!("{other:?}"),
    }
    assert!(partial_path(&out).exists());
    let o = BuildOptions { time_limit: Some(Duration::from_millis(1)), ..opts(2) };
    assert!(matches!(build(&spec, &out, &o).unwrap(), BuildOutcome::Stopped { reason: StopReason::TimeLimit, .. }));
}

#[test]
fn mismatched_checkpoint_or_output_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t.gtb");
    let o = BuildOptions { stop_after: Some(1), ..opts(1) };
    assert!(matches!(build(&spec(2, 2), &out, &o).unwrap(), BuildOutcome::Stopped { .. }));
    let e = build(&spec(1, 4), &out, &opts(1)).unwrap_err();
    assert!(matches!(e, BuildError::BadCheckpoint { .. }), "{e}");
    assert!(e.to_string().contains("delete it"), "{e}");
    // --force starts over.
    let o = BuildOptions { force: true, ..opts(1) };
    assert!(matches!(build(&spec(1, 4), &out, &o).unwrap(), BuildOutcome::Complete { resumed: 0, .. }));
    let e = build(&spec(2, 2), &out, &opts(1)).unwrap_err();
    assert!(matches!(e, BuildError::OutputExists { .. }), "{e}");
    let e = build(&spec(5, 4), &out, &opts(1)).unwrap_err();
    assert!(matches!(e, BuildError::TooLarge(..)), "{e}");
}

/// Every kind of bad file is an error with a clear one-line message, never a panic.
#[test]
fn bad_files_are_clear_errors() {
    let (_d, _, good) = built(&spec(2, 2), &opts(2));
    let check = |bytes: &[u8], want: &str| {
        let e = SolvedTable::from_bytes("f.gtb", bytes).unwrap_err();
        let msg = e.to_string();
        assert!(!msg.contains('\n'));
        assert!(msg.contains(want), "expected '{want}' in: {msg}");
        e
    };
    // Damage anywhere after the version: entries and header fields are checksummed.
    for at in [HEADER_SIZE + 3, HEADER_SIZE + 50 * ENTRY_SIZE + 20, good.len() - 1, 21, 30, 46] {
        let mut b = good.clone();
        b[at] ^= 0x10;
        assert!(matches!(check(&b, "damaged"), TableError::Checksum { .. } | TableError::Corrupt { .. }), "byte {at}");
    }
    for len in [0, 5, 16, 30, HEADER_SIZE, HEADER_SIZE + 1, good.len() - 1] {
        let e = SolvedTable::from_bytes("f.gtb", &good[..len]).unwrap_err();
        assert!(matches!(e, TableError::Truncated { .. } | TableError::Foreign(_)), "length {len}: {e}");
        if len >= 16 {
            assert!(e.to_string().contains("truncated"), "length {len}: {e}");
        }
    }
    let mut longer = good.clone();
    longer.push(0);
    check(&longer, "damaged");
    check(b"{\"board\": \"2x2\", \"entries\": []}", "not a gosolve table");
    let noise: Vec<u8> = (0..5000u32).map(|i| (i.wrapping_mul(2654435761) >> 13) as u8).collect();
    check(&noise, "not a gosolve table");
    let mut v2 = good.clone();
    v2[16] = 2;
    check(&v2, "version 2");
    let mut magic = good.clone();
    magic[0] = b'g';
    check(&magic, "not a gosolve table");
}

#[test]
fn cli_build_query_info() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("two.gtb");
    let text = ok(&["table", "build", "2x2", "--out", s(&out), "--threads", "2"]);
    assert!(text.contains("114 entries"), "{text}");
    let again = ok(&["table", "build", "2x2", "--out", s(&out)]);
    assert!(again.contains("already"), "{again}");

    let q = |pos: &str, to: &str| -> Value {
        serde_json::from_str(&ok(&["table", "query", s(&out), "--position", pos, "--to", to, "--json"])).unwrap()
    };
    let v = q("../..", "b");
    assert_eq!(v["value"], 1.0);
    assert_eq!(v["best_moves"], serde_json::json!(["a1", "b1", "a2", "b2"]));
    assert_eq!(q("../..", "w")["value"], -1.0);
    assert_eq!(q("X./..", "w")["position"], "X./..");

    let text = ok(&["table", "query", s(&out), "--position", "../..", "--to", "b"]);
    assert!(text.contains("Black wins by 1") && text.contains("no earlier history"), "{text}");
    let info = ok(&["table", "info", s(&out)]);
    assert!(info.contains("114 of 114 entries (complete)"), "{info}");

    // An SGF with history: the final position is looked up, with a note.
    let sgf = dir.path().join("g.sgf");
    std::fs::write(&sgf, "(;GM[1]FF[4]SZ[2]RU[NSTT];B[ab];W[bb])").unwrap();
    let v: Value = serde_json::from_str(&ok(&["table", "query", s(&out), "--sgf", s(&sgf), "--json"])).unwrap();
    assert_eq!(v["to_move"], "black");
    let notes = v["notes"].as_array().unwrap();
    assert!(notes.iter().any(|n| n.as_str().unwrap().contains("no earlier history")), "{v}");

    // Wrong board, illegal position, wrong side: clear errors.
    assert!(fails(&["table", "query", s(&out), "--position", ".../...", "--to", "b"]).contains("board"));
    assert!(fails(&["table", "query", s(&out), "--position", "XO/O.", "--to", "b"]).contains("illegal"));
    assert!(fails(&["table", "query", s(&out), "--position", "../..", "--to", "q"]).contains("'q'"));
    let big = dir.path().join("big.sgf");
    std::fs::write(&big, "(;GM[1]FF[4]SZ[3];B[aa])").unwrap();
    assert!(fails(&["table", "query", s(&out), "--sgf", s(&big)]).contains("3x3"));
}

#[test]
fn cli_bad_files() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t.gtb");
    ok(&["table", "build", "1x4", "--out", s(&out)]);
    let good = std::fs::read(&out).unwrap();
    let write = |name: &str, bytes: &[u8]| {
        let p = dir.path().join(name);
        std::fs::write(&p, bytes).unwrap();
        p
    };
    let mut flipped = good.clone();
    let n = flipped.len();
    flipped[n - 5] ^= 1;
    let cases = [
        (write("flip.gtb", &flipped), "checksum"),
        (write("short.gtb", &good[..good.len() - 7]), "truncated"),
        (write("json.gtb", b"{\"a\": 1}\n"), "not a gosolve table"),
        (write("empty.gtb", b""), "not a gosolve table"),
        (dir.path().join("missing.gtb"), "cannot read"),
    ];
    for (path, want) in &cases {
        for sub in ["query", "info"] {
            let mut args = vec!["table", sub, s(path)];
            if sub == "query" {
                args.extend(["--position", "..../"]);
            }
            let line = fails(&args);
            assert!(line.contains(want), "{sub} {}: {line}", path.display());
        }
    }
}

#[test]
fn cli_interrupted_build_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole.gtb");
    ok(&["table", "build", "2x2", "--out", s(&whole), "--threads", "1"]);
    let out = dir.path().join("r.gtb");
    let line = fails(&["table", "build", "2x2", "--out", s(&out), "--stop-after", "4", "--checkpoint-secs", "0"]);
    assert!(line.contains("resume") && line.contains("r.gtb.partial"), "{line}");
    assert!(partial_path(&out).exists() && !out.exists());
    let info = ok(&["table", "info", s(&partial_path(&out))]);
    assert!(info.contains("incomplete"), "{info}");
    let q = fails(&["table", "query", s(&partial_path(&out)), "--position", "../.."]);
    assert!(q.contains("incomplete") || q.contains("value"), "{q}");
    let text = ok(&["table", "build", "2x2", "--out", s(&out), "--threads", "2"]);
    assert!(text.contains("resumed"), "{text}");
    assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(&whole).unwrap());
    assert!(!partial_path(&out).exists());
}

/// 2x3 and 3x2 are the same game transposed: their tables must agree entry
/// for entry (values and best moves), a check of the solver as much as of the table.
#[test]
fn transposed_boards_agree() {
    let (_d1, tall_path, _) = built(&spec(2, 3), &opts(2));
    let (_d2, wide_path, _) = built(&spec(3, 2), &opts(2));
    let tall = SolvedTable::read(&tall_path).unwrap();
    let wide = SolvedTable::read(&wide_path).unwrap();
    let (tg, wg) = (tall.spec.geo, wide.spec.geo);
    let transpose = |b: u64| -> u64 {
        Geometry::iter(b)
            .map(|p| {
                let (x, y) = tg.xy(p);
                1u64 << wg.point(y, x)
            })
            .sum()
    };
    assert_eq!(tall.entries().len(), 978);
    for e in tall.entries() {
        let pos = Position { black: transpose(e.position.black), white: transpose(e.position.white) };
        let w = wide.get(pos, e.to_move).unwrap();
        assert_eq!(w.value, e.value, "{:?}", e);
        assert_eq!((w.best_pass, w.best_points), (e.best_pass, transpose(e.best_points)), "{:?}", e);
    }
}
