//! The one harness for running the `gosolve` binary in tests. Included with
//! `#[path = "support/cli.rs"] mod cli;` by every test file that runs it.
#![allow(dead_code)]

use std::process::{Command, Output};

/// A `gosolve` command run from the package root (where `results/` is).
pub fn command(args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_gosolve"));
    c.args(args).current_dir(env!("CARGO_MANIFEST_DIR"));
    c
}

/// Run `gosolve` with `args` and collect its output.
pub fn gosolve(args: &[&str]) -> Output {
    command(args).output().expect("run gosolve")
}

/// Run, expect a clean failure: exit status 1 or 2 (never a panic's 101 or an
/// abort), exactly one line on stderr, starting "gosolve: error: ". Returns it.
pub fn fails_one_line(args: &[&str]) -> String {
    let out = gosolve(args);
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(
        matches!(out.status.code(), Some(1) | Some(2)),
        "gosolve {args:?}: expected exit 1 or 2, got {:?}: {stderr}",
        out.status
    );
    assert!(!stderr.contains("panicked"), "gosolve {args:?} panicked: {stderr}");
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 1, "gosolve {args:?}: one stderr line expected: {stderr}");
    assert!(lines[0].starts_with("gosolve: error: "), "gosolve {args:?}: {stderr}");
    lines[0].to_string()
}

/// Run, expect a usage error: [`fails_one_line`] with exit status 2, as the
/// README promises for every usage error. Returns the line.
pub fn usage_error(args: &[&str]) -> String {
    let line = fails_one_line(args);
    let code = gosolve(args).status.code();
    assert_eq!(code, Some(2), "gosolve {args:?}: a usage error exits 2: {line}");
    line
}

/// Run, expect success, return stdout.
pub fn ok(args: &[&str]) -> String {
    let out = gosolve(args);
    assert!(out.status.success(), "gosolve {args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("UTF-8 stdout")
}

/// A value-only solve of the empty `board` (one thread, a table of
/// `table_mb` MiB) that leaves its checkpoint at `path`, for the tests of
/// `--checkpoint` in the other subcommands.
pub fn solve_checkpoint(board: &str, table_mb: &str, path: &std::path::Path) {
    let ck = path.to_str().expect("a UTF-8 path");
    ok(&["solve", board, "--value-only", "--threads", "1", "--table-mb", table_mb, "--checkpoint", ck, "-q"]);
}
