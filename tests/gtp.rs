//! `gosolve gtp` over stdin/stdout: every command of the engine, errors
//! included, byte for byte where the protocol fixes the bytes; matches
//! against GNU Go (a real GTP peer) refereed under Tromp-Taylor with
//! positional superko; `solve --sgf-out` read back by gosolve and GNU Go.

use gosolve::format::sgf::read_game;
use gosolve::gtp::referee::{play_game, GtpClient};
use gosolve::{Geometry, Rules};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_gosolve");

#[path = "support/cli.rs"]
mod cli;

/// A raw GTP session with `gosolve gtp`.
struct Session {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Session {
    fn start(args: &[&str]) -> Session {
        let mut child = Command::new(BIN)
            .arg("gtp")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("gosolve starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Session { child, stdin, stdout }
    }
    fn write(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).unwrap();
        self.stdin.flush().unwrap();
    }
    fn line(&mut self) -> String {
        let mut l = String::new();
        assert!(self.stdout.read_line(&mut l).unwrap() > 0, "gosolve closed its output");
        l
    }
    /// The response to `command`, up to (without) its terminating empty line.
    fn cmd(&mut self, command: &str) -> String {
        self.write(format!("{command}\n").as_bytes());
        self.response()
    }
    fn response(&mut self) -> String {
        let mut out = String::new();
        loop {
            let l = self.line();
            if l == "\n" {
                return out.trim_end_matches('\n').to_string();
            }
            out.push_str(&l);
        }
    }
}

#[test]
fn conformance_every_command() {
    let mut s = Session::start(&["--threads", "1", "--table-mb", "16", "--time-per-move", "0"]);
    // Administrative commands, ids, comments, empty lines, control characters.
    assert_eq!(s.cmd("1 protocol_version"), "=1 2");
    assert_eq!(s.cmd("name"), "= gosolve");
    assert_eq!(s.cmd("version"), format!("= {}", env!("CARGO_PKG_VERSION")));
    s.write(b"\n# a comment line\n   \n");
    assert_eq!(s.cmd("2 known_command\tgenmove # trailing comment"), "=2 true");
    assert_eq!(s.cmd("known_command frobnicate"), "= false");
    assert_eq!(s.cmd("known_command"), "? syntax error");
    let list = s.cmd("list_commands");
    for c in [
        "protocol_version",
        "name",
        "version",
        "known_command",
        "list_commands",
        "quit",
        "boardsize",
        "rectangular_boardsize",
        "clear_board",
        "komi",
        "kata-set-rules",
        "play",
        "genmove",
        "undo",
        "showboard",
        "final_score",
        "final_status_list",
        "loadsgf",
        "printsgf",
        "time_settings",
        "time_left",
        "lz-analyze",
        "kata-analyze",
        "gogui-analyze_commands",
        "gosolve-values",
    ] {
        assert!(list.lines().any(|l| l.trim_start_matches("= ") == c), "{c} missing from list_commands");
    }
    assert_eq!(s.cmd("3 frobnicate"), "?3 unknown command");
    s.write(b"name\xff\xfe\n");
    assert_eq!(s.response(), "? unknown command", "bytes that are not UTF-8 are not a command name, nor fatal");

    // Board sizes.
    assert_eq!(s.cmd("boardsize 9"), "? unacceptable size (board 9x9 has 81 points; at most 64 are supported)");
    assert_eq!(s.cmd("boardsize 0"), "? unacceptable size (board 0x0 has a zero side; both sides must be at least 1)");
    assert_eq!(s.cmd("boardsize x"), "? syntax error");
    assert_eq!(s.cmd("boardsize"), "? syntax error");
    assert_eq!(s.cmd("rectangular_boardsize 30 2"), "? unacceptable size (GTP names at most 25 columns)");
    assert_eq!(s.cmd("rectangular_boardsize 2 4"), "= ");
    assert_eq!(
        s.cmd("showboard"),
        "= \n   A B\n4  . .  4\n3  . .  3\n2  . .  2\n1  . .  1\n   A B\nblack to move, 0 moves, rules nstt komi 0"
    );
    assert_eq!(s.cmd("boardsize 3"), "= ");
    assert_eq!(s.cmd("clear_board"), "= ");

    // Moves: GTP letters, rows from the bottom; errors.
    assert_eq!(s.cmd("play b B2"), "= ");
    assert_eq!(s.cmd("play w c1"), "= ");
    assert_eq!(s.cmd("play b b2"), "? illegal move", "occupied");
    assert_eq!(s.cmd("play b D1"), "? illegal move", "off the board");
    assert_eq!(s.cmd("play b I1"), "? syntax error", "GTP has no column I");
    assert_eq!(s.cmd("play x a1"), "? syntax error");
    assert_eq!(s.cmd("play b"), "? syntax error");
    assert_eq!(
        s.cmd("showboard"),
        "= \n   A B C\n3  . . .  3\n2  . X .  2\n1  . . O  1\n   A B C\nblack to move, 2 moves, rules nstt komi 0"
    );
    assert_eq!(s.cmd("final_score"), "= 0", "the empty points touch both colours: neutral");
    assert_eq!(s.cmd("final_status_list alive"), "= C1 B2");
    assert_eq!(s.cmd("final_status_list dead"), "= ");
    assert_eq!(s.cmd("final_status_list seki"), "= ");
    assert_eq!(s.cmd("final_status_list maybe"), "? syntax error");
    // Two black moves in a row: a white pass is recorded between them, undo takes both back.
    assert_eq!(s.cmd("play b a1"), "= ");
    assert_eq!(s.cmd("play b a3"), "= ");
    assert!(s.cmd("showboard").ends_with("white to move, 5 moves, rules nstt komi 0"));
    assert_eq!(s.cmd("undo"), "= ");
    assert!(s.cmd("showboard").ends_with("white to move, 3 moves, rules nstt komi 0"));
    assert_eq!(s.cmd("undo"), "= ");
    assert_eq!(s.cmd("undo"), "= ");
    assert_eq!(s.cmd("undo"), "= ");
    assert_eq!(s.cmd("undo"), "? cannot undo");

    // Komi and rules.
    assert_eq!(s.cmd("komi 0.3"), "? syntax error (komi must be a multiple of 0.5)");
    assert_eq!(s.cmd("komi abc"), "? syntax error (komi must be a multiple of 0.5)");
    assert_eq!(s.cmd("komi 7.5"), "= ");
    assert_eq!(s.cmd("final_score"), "= W+7.5");
    assert_eq!(s.cmd("komi 0"), "= ");
    assert_eq!(s.cmd("kata-get-rules"), "= nstt");
    assert_eq!(s.cmd("kata-set-rules tromp-taylor"), "= ");
    assert_eq!(s.cmd("kata-get-rules"), "= tromp-taylor");
    assert_eq!(s.cmd("kata-set-rules nz"), "= ");
    assert_eq!(s.cmd("kata-get-rules"), "= tromp-taylor-situational");
    assert!(s.cmd("kata-set-rules japanese").starts_with("? unknown rules"));
    assert_eq!(s.cmd("kata-set-rules"), "? syntax error");
    assert_eq!(s.cmd("kata-set-rules nstt"), "= ");

    // Perfect play on 3x3: Black's first move is B2 (+9), White then has only losing moves and passes.
    assert_eq!(s.cmd("reg_genmove b"), "= B2");
    assert!(s.cmd("showboard").ends_with("black to move, 0 moves, rules nstt komi 0"), "reg_genmove plays nothing");
    assert_eq!(s.cmd("4 genmove b"), "=4 B2");
    assert_eq!(s.cmd("genmove w"), "= pass");
    assert_eq!(s.cmd("genmove b"), "= pass", "pass ends the game at +9");
    assert_eq!(s.cmd("genmove w"), "= pass", "over: pass, not recorded");
    assert_eq!(s.cmd("play b a1"), "? illegal move", "the game is over");
    assert_eq!(s.cmd("final_score"), "= B+9");
    let sgf = s.cmd("printsgf");
    assert!(sgf.starts_with("= (;FF[4]GM[1]"), "{sgf}");
    assert!(sgf.contains("SZ[3]RU[NSTT]KM[0]RE[B+9]") && sgf.contains(";B[bb];W[];B[])"), "{sgf}");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game.sgf");
    assert_eq!(s.cmd(&format!("printsgf {}", file.display())), "= ");
    let back = read_game(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(back.moves.len(), 3);
    // A file cannot hold another file: the write fails and says so.
    let bad = s.cmd(&format!("printsgf {}/x.sgf", file.display()));
    assert!(bad.lines().next().unwrap().starts_with("? cannot write"), "{bad}");

    // loadsgf: whole main line, or the position before move N.
    assert_eq!(s.cmd("clear_board"), "= ");
    assert_eq!(s.cmd(&format!("loadsgf {}", file.display())), "= ");
    assert_eq!(s.cmd("final_score"), "= B+9");
    assert_eq!(s.cmd(&format!("loadsgf {} 2", file.display())), "= ");
    assert!(s.cmd("showboard").ends_with("white to move, 1 moves, rules nstt komi 0"));
    assert!(s.cmd("loadsgf /nonexistent.sgf").starts_with("? cannot load file"));
    assert_eq!(s.cmd(&format!("loadsgf {} 0", file.display())), "? syntax error");

    // Time control.
    assert_eq!(s.cmd("time_settings 300 10 5"), "= ");
    assert_eq!(s.cmd("time_left b 120 0"), "= ");
    assert_eq!(s.cmd("time_left w 8 3"), "= ");
    assert_eq!(s.cmd("time_left q 8 3"), "? syntax error");
    assert_eq!(s.cmd("time_settings 1 x 2"), "? syntax error");

    // Analysis: 2x2 from the empty board, every legal move with its exact value.
    assert_eq!(s.cmd("boardsize 2"), "= ");
    s.write(b"5 kata-analyze 10\n");
    assert_eq!(s.line(), "=5\n");
    let final_line = loop {
        let l = s.line();
        assert!(l.starts_with("info move "), "{l}");
        // The final line gives the best move (order 0) its principal variation, not just the move.
        let best = l.split("info move ").find(|m| m.contains(" order 0 ")).unwrap();
        if best.split(" pv ").nth(1).unwrap().split_whitespace().count() > 1 {
            break l;
        }
    };
    s.write(b"name\n");
    assert_eq!(s.line(), "\n", "the next command ends the analysis with an empty line");
    assert_eq!(s.response(), "= gosolve");
    let moves: Vec<&str> = final_line.split("info move ").filter(|p| !p.is_empty()).collect();
    assert_eq!(moves.len(), 5, "pass and four points: {final_line}");
    assert!(moves[0].contains("winrate 1 ") && moves[0].contains("scoreLead 1 "), "{final_line}");
    let pass = moves.iter().find(|m| m.starts_with("pass ")).unwrap();
    assert!(pass.contains("scoreLead -1 ") && pass.contains("winrate 0 "), "{final_line}");
    s.write(b"lz-analyze b 10\n");
    assert_eq!(s.line(), "=\n");
    loop {
        let l = s.line();
        assert!(l.starts_with("info move "), "{l}");
        if l.contains("winrate 10000 ") {
            break;
        }
    }
    s.write(b"lz-analyze interval x\n");
    assert_eq!(s.line(), "\n");
    assert_eq!(s.response(), "? syntax error");
    assert_eq!(s.cmd("gogui-analyze_commands"), "= gfx/Exact move values/gosolve-values");
    let values = s.cmd("gosolve-values");
    assert!(
        values.starts_with(
            "= LABEL A1 +1 B1 +1 A2 +1 B2 +1\nSQUARE A1 B1 A2 B2\nTEXT black to move: value 1, pass -1, pv "
        ),
        "{values}"
    );
    assert_eq!(s.cmd("9 quit"), "=9 ");
    assert!(s.child.wait().unwrap().success());
}

#[test]
fn end_of_input_ends_the_engine_cleanly() {
    let mut s = Session::start(&[]);
    s.write(b"boardsize 2\nplay b a1\n");
    drop(s.stdin);
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut s.stdout, &mut rest).unwrap();
    assert_eq!(rest, "= \n\n= \n\n");
    assert!(s.child.wait().unwrap().success());
}

#[test]
fn bad_command_line_is_one_line_error() {
    let out = Command::new(BIN).args(["gtp", "--table", "/nonexistent.gtb"]).output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    let out = Command::new(BIN).args(["gtp", "--time-per-move", "-1"]).output().unwrap();
    assert!(!out.status.success());
}

#[test]
fn table_answers_the_empty_board() {
    let table = concat!(env!("CARGO_MANIFEST_DIR"), "/results/tables/3x3-NSTT.gtb");
    if !std::path::Path::new(table).exists() {
        eprintln!("skipped: {table} is not there");
        return;
    }
    let mut s = Session::start(&["--table", table, "--threads", "1", "--table-mb", "16"]);
    assert_eq!(s.cmd("boardsize 3"), "= ");
    assert_eq!(s.cmd("genmove b"), "= B2");
    assert_eq!(s.cmd("genmove w"), "= pass", "after a move the history counts: solved, not looked up");
}

/// `gtp --checkpoint FILE`: genmove on the checkpoint's board answers from
/// what the solve proved (a few nodes where a fresh search needs a
/// thousand), a search on another board replaces the memory with a note,
/// and a file that cannot be read is one line, exit non-zero.
#[test]
fn gtp_starts_from_a_checkpoint() {
    let dir = tempfile::tempdir().unwrap();
    let ck = dir.path().join("3x3.ck");
    let ck_arg = ck.to_str().unwrap();
    cli::solve_checkpoint("3x3", "16", &ck);
    let gtp = |extra: &[&str], input: &str| {
        let mut child = cli::command(&[&["gtp", "--threads", "1", "--table-mb", "16"][..], extra].concat())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        (String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
    };
    // "gosolve: value 9 (exact, N nodes, ...)": N of the first genmove.
    let nodes = |err: &str| -> u64 {
        let l = err.lines().find(|l| l.contains("(exact, ")).unwrap_or_else(|| panic!("{err}"));
        l.split("(exact, ").nth(1).unwrap().split(' ').next().unwrap().replace(',', "").parse().unwrap()
    };
    let (fresh_out, fresh_err) = gtp(&[], "boardsize 3\ngenmove b\n");
    let (out, err) = gtp(&["--checkpoint", ck_arg], "boardsize 3\ngenmove b\nboardsize 2\ngenmove b\n");
    assert!(err.contains("results read") && err.contains(ck_arg), "{err}");
    assert!(out.starts_with(&fresh_out), "the same move: {out} / {fresh_out}");
    assert!(nodes(&err) * 10 < nodes(&fresh_err), "from the checkpoint: {err}\nfresh: {fresh_err}");
    assert!(err.contains(&format!("the memory read from {ck_arg} is replaced")), "{err}");
    let line = cli::fails_one_line(&["gtp", "--checkpoint", "/nonexistent.ck"]);
    assert!(line.contains("cannot read checkpoint /nonexistent.ck"), "{line}");
    // The header is checked before the engine answers; the results are read
    // while it does, and a damaged body ends the session at the next
    // command, with one line and a non-zero exit.
    let foreign = dir.path().join("foreign.ck");
    std::fs::write(&foreign, "not a checkpoint at all").unwrap();
    let line = cli::fails_one_line(&["gtp", "--checkpoint", foreign.to_str().unwrap()]);
    assert!(line.contains("not a gosolve checkpoint"), "{line}");
    let bytes = std::fs::read(&ck).unwrap();
    let cut = dir.path().join("cut.ck");
    std::fs::write(&cut, &bytes[..bytes.len() - 30]).unwrap();
    let mut child = cli::command(&["gtp", "--threads", "1", "--table-mb", "16", "--checkpoint", cut.to_str().unwrap()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"boardsize 3\ngenmove b\nname\n").unwrap();
    let out = child.wait_with_output().unwrap();
    let (stdout, stderr) = (String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap());
    assert!(!out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("? cannot go on: ") && stdout.contains("cut short"), "{stdout}");
    assert!(!stdout.contains("= gosolve"), "the session ended: {stdout}");
    let last = stderr.lines().last().unwrap_or("");
    assert!(last.starts_with("gosolve: error: ") && last.contains("cut short"), "{stderr}");
}

/// The GNU Go binary for the tests that need it. They are ignored by a
/// plain `cargo test` (counted as ignored, not passed); scripts/test runs
/// them with `--ignored` when GNU Go is installed, and run so without it
/// they fail with the reason.
fn gnugo() -> String {
    gosolve::gtp::referee::find_gnugo().unwrap_or_else(|| {
        panic!("GNU Go is not installed (scripts/peers-up as root installs it; or set GNUGO=/path/to/gnugo)")
    })
}

/// The empty board's solved value (NSTT, komi 0) from the batch results.
fn solved_value(board: &str) -> f64 {
    let path = format!("{}/results/batch/{board}.json", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v["value_with_komi"].as_f64().unwrap()
}

#[test]
#[ignore = "needs GNU Go (scripts/peers-up as root, or GNUGO=/path/to/gnugo)"]
fn matches_against_gnugo() {
    let gnugo = gnugo();
    for (board, gosolve_black) in [("2x2", true), ("2x2", false), ("3x3", true), ("3x3", false)] {
        let geo: Geometry = board.parse().unwrap();
        let target = solved_value(board);
        let mut me =
            GtpClient::spawn("gosolve", BIN, &["gtp", "--threads", "1", "--table-mb", "64", "--time-per-move", "0"])
                .unwrap();
        let mut peer = GtpClient::spawn("GNU Go", &gnugo, &["--mode", "gtp", "--chinese-rules"]).unwrap();
        let (b, w) = if gosolve_black { (&mut me, &mut peer) } else { (&mut peer, &mut me) };
        let g = play_game(b, w, geo, Rules::default(), 400).unwrap();
        assert!(g.finished, "{board}: the game reached the move cap");
        eprintln!(
            "{board} gosolve as {}: {} ({} GNU Go moves replaced by a pass)",
            if gosolve_black { "Black" } else { "White" },
            g.value,
            g.replaced.len()
        );
        assert!(
            g.replaced.iter().all(|(_, who, _)| who != "gosolve"),
            "gosolve proposed an illegal move: {:?}",
            g.replaced
        );
        if gosolve_black {
            assert!(g.value >= target, "{board}: gosolve as Black got {} < the solved {target}", g.value);
        } else {
            assert!(g.value <= target, "{board}: gosolve as White let Black get {} > the solved {target}", g.value);
        }
        let score = me.send("final_score").unwrap();
        assert_eq!(score, gosolve::format::sgf::result_text(g.value), "gosolve's board agrees with the referee's");
    }
}

/// `solve 3x3 --sgf-out` into a fresh directory: the directory and the file.
fn solve_sgf_out_3x3() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("3x3.sgf");
    let out =
        Command::new(BIN).args(["solve", "3x3", "--threads", "1", "--quiet", "--sgf-out"]).arg(&file).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    (dir, file)
}

#[test]
fn solve_sgf_out_loads_in_gosolve() {
    let (dir, file) = solve_sgf_out_3x3();
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("RU[NSTT]KM[0]RE[B+9]"), "{text}");
    // Labels on every point: a3 (SGF aa) loses by 9, b2 (bb) wins by 9, b1 (bc) by 3.
    assert!(
        text.contains("LB[ac:-9]") && text.contains("[aa:-9]") && text.contains("[bb:+9]") && text.contains("[bc:+3]"),
        "{text}"
    );
    assert!(
        text.contains("C[gosolve: exact solution. Rules: NSTT (Tromp-Taylor, no suicide, positional superko, komi 0)."),
        "{text}"
    );
    let back = read_game(&text).unwrap();
    let end = back.to_game(None).unwrap();
    assert!(end.is_over() && end.score() == 9, "the main line is the principal variation, ending at +9");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1, "no temporary file left");
}

#[test]
#[ignore = "needs GNU Go (scripts/peers-up as root, or GNUGO=/path/to/gnugo)"]
fn solve_sgf_out_loads_in_gnugo() {
    let gnugo = gnugo();
    let (_dir, file) = solve_sgf_out_3x3();
    // GNU Go loads the file and replays the main line to its end: B2 in the centre.
    let mut peer = GtpClient::spawn("GNU Go", &gnugo, &["--mode", "gtp", "--infile", file.to_str().unwrap()]).unwrap();
    let board = peer.send("showboard").unwrap();
    assert!(board.contains(" 2 . X . 2"), "{board}");
    assert_eq!(peer.send("query_boardsize").unwrap(), "3");
}
