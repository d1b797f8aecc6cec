//! The distributed solve (`gosolve solve --workers N`) against the
//! one-process solve, on local workers: the same values, move values and
//! claim outcomes over random small positions with histories under every
//! rule variant (tiny unit budgets, so the manager's tree really grows);
//! the proof it leaves checked by `gosolve verify`, and tampered proofs
//! refused; a manager killed with kill -9 (and a worker) resumed without
//! losing a proved claim; a second manager on one work dir refused.

use gosolve::distributed::solve::simulate::{simulate, Recording};
use gosolve::distributed::solve::{run_solve, verify, Mode, Policy, Quiet, SolveJob, State, VerifyOptions};
use gosolve::distributed::{BackendKind, BackendOptions, RunOptions, Setup, Silent};
use gosolve::search::{prove_claim, solve, Claim, SolveOptions};
use gosolve::{Color, Game, Geometry, Komi, Position, Rules, Superko};
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

#[path = "support/cli.rs"]
mod cli;
#[path = "support/rng.rs"]
mod rng;
use rng::Rng;

/// Two local workers running this build's binary, polled often (the units
/// here take milliseconds).
fn setup(dir: &Path) -> Setup {
    let mut b = BackendOptions::new(BackendKind::Local, 2, 1);
    b.worker_bin = PathBuf::from(env!("CARGO_BIN_EXE_gosolve"));
    b.poll = Duration::from_millis(5);
    Setup { work_dir: dir.to_path_buf(), backend: b, run: RunOptions::default() }
}

/// A random position: a small board, random rules and komi, a random
/// legal history from the empty board (passes included).
fn random_game(rng: &mut Rng) -> Game {
    let boards = [(2, 2), (3, 2), (2, 3), (1, 5), (1, 6), (4, 1), (3, 3)];
    let (w, h) = boards[rng.below(boards.len())];
    let geo = Geometry::new(w, h).unwrap();
    let komis = [0.0, 0.5, 1.0, -2.5, 3.0];
    let rules = Rules {
        suicide: rng.below(2) == 1,
        superko: if rng.below(2) == 1 { Superko::Situational } else { Superko::Positional },
        komi: Komi::from_f64(komis[rng.below(komis.len())]).unwrap(),
    };
    let first = if rng.below(3) == 0 { Color::White } else { Color::Black };
    let mut game = Game::new(geo, rules, Position::EMPTY, first).unwrap();
    // 3x3 needs a few stones to stay small.
    let plies = if w * h == 9 { 4 + rng.below(3) } else { rng.below(5) };
    for _ in 0..plies {
        let moves = game.legal_moves();
        // A pass now and then (moves[0] is the pass).
        let mv = if rng.below(6) == 0 || moves.len() == 1 { moves[0] } else { moves[1 + rng.below(moves.len() - 1)] };
        game.play(mv).unwrap();
        if game.passes >= 1 && rng.below(2) == 0 {
            break;
        }
    }
    game
}

fn one_process(game: &Game, value_only: bool) -> (i32, BTreeMap<String, i32>) {
    let opts = SolveOptions { threads: 1, value_only, table_mb: 1, ..Default::default() };
    let sol = solve(game, &opts).unwrap();
    (sol.value, sol.moves.iter().map(|m| (m.mv.name(&game.geo), m.value)).collect())
}

fn claim_holds(game: &Game, claim: Claim) -> bool {
    let opts = SolveOptions { threads: 1, table_mb: 1, ..Default::default() };
    prove_claim(game, claim, &opts).unwrap().holds
}

fn job(game: &Game, mode: Mode, unit_nodes: u64) -> SolveJob {
    SolveJob {
        game: game.clone(),
        mode,
        policy: Policy { unit_nodes, ..Policy::default() },
        threads: 1,
        table_mb: 1,
        alpha_beta: false,
        no_path_symmetry: false,
        node_limit: None,
        guess: None,
    }
}

fn describe(game: &Game) -> String {
    let moves: Vec<String> = game.moves.iter().map(|(_, m)| m.name(&game.geo)).collect();
    format!(
        "{} {} first-to-move-after '{}' ({})",
        game.geo.name(),
        game.rules.describe(),
        moves.join(" "),
        game.to_move.name()
    )
}

/// The differential test: distributed == one process, value, every move
/// and claims, on random positions with histories and every rule variant;
/// the proofs of some checked by verify.
#[test]
fn distributed_solves_equal_the_one_process_solve() {
    let mut rng = Rng(0x5eed_0063);
    let mut expanded = 0;
    for case in 0..12 {
        let game = random_game(&mut rng);
        let what = describe(&game);
        let d = tempfile::tempdir().unwrap();
        let points = game.geo.points();
        // Budgets far below the solve's size (a few dozen units each).
        let unit_nodes = if points <= 4 { 8 + rng.below(12) as u64 } else { 40 + rng.below(40) as u64 };
        let (value, moves) = one_process(&game, false);
        // Every move on the boards of up to five points, claims and values on all.
        let mode = match case % 4 {
            0 if points <= 5 => Mode::EveryMove,
            0 | 1 => Mode::Value,
            2 => Mode::Claim { at_least: true, value: value + rng.below(2) as i32 },
            _ => Mode::Claim { at_least: false, value: value - rng.below(2) as i32 },
        };
        // Half the values start from a guess near the value (or on it):
        // the work changes, never the value.
        let mut j = job(&game, mode.clone(), unit_nodes);
        j.guess = (matches!(mode, Mode::Value) && case % 2 == 1).then(|| value + case % 7 - 3);
        let r = run_solve(&j, &setup(d.path()), Arc::new(Quiet)).unwrap_or_else(|e| panic!("case {case} {what}: {e}"));
        assert!(r.stopped.is_none(), "case {case}");
        eprintln!(
            "case {case} {what} {mode:?}: {} units, {} rounds, tree {}, {:.1} s, {} merges {:.2} s",
            r.units, r.rounds, r.tree_nodes, r.seconds, r.merges, r.merge_seconds
        );
        match mode {
            Mode::Claim { at_least, value: v } => {
                let claim = if at_least { Claim::AtLeast(v) } else { Claim::AtMost(v) };
                assert_eq!(r.holds, Some(claim_holds(&game, claim)), "case {case} {what}: {mode:?}");
            }
            Mode::Value => assert_eq!(r.value, Some(value), "case {case} {what}"),
            Mode::EveryMove => {
                assert_eq!(r.value, Some(value), "case {case} {what}");
                let got: BTreeMap<String, i32> = r.moves.iter().cloned().collect();
                assert_eq!(got, moves, "case {case} {what}: every move");
            }
        }
        expanded += usize::from(r.tree_nodes > 1);
        if case % 3 == 0 {
            let opts = VerifyOptions { df_pn: false, threads: 1, table_mb: 1, node_limit: None };
            verify(d.path(), &setup(d.path()), &opts, Arc::new(Silent))
                .unwrap_or_else(|e| panic!("case {case} {what}: verify: {e}"));
        }
    }
    assert!(expanded >= 6, "the tiny budgets grow the tree in most cases ({expanded} of 12)");
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The proof's text with `edit` applied, written back.
fn tamper(dir: &Path, edit: impl Fn(&str) -> String) {
    let file = dir.join("proof.sgf");
    let text = std::fs::read_to_string(&file).unwrap();
    let new = edit(&text);
    assert_ne!(new, text, "the edit changed the proof");
    std::fs::write(&file, new).unwrap();
}

/// The CLI end to end on 2x3 with a history: the value and every move as
/// the one-process solve prints them, verify passes; then every kind of
/// tampering is refused in one line; a work dir of another problem too.
#[test]
fn verify_passes_a_proof_and_refuses_tampered_ones() {
    let d = tempfile::tempdir().unwrap();
    let w = d.path().join("w");
    let base = ["solve", "2x3", "--moves", "b2 a1", "--table-mb", "1", "-q"];
    let dist = [&base[..], &["--workers", "2", "--work-dir", s(&w), "--unit-nodes", "30", "--json"]].concat();
    let out = cli::ok(&dist);
    let one = cli::ok(&[&base[..], &["--json"]].concat());
    let (a, b): (serde_json::Value, serde_json::Value) =
        (serde_json::from_str(&out).unwrap(), serde_json::from_str(&one).unwrap());
    assert_eq!(a["value"], b["value"]);
    let moves = |v: &serde_json::Value| -> BTreeMap<String, String> {
        v["moves"].as_array().unwrap().iter().map(|m| (m["move"].to_string(), m["value"].to_string())).collect()
    };
    assert_eq!(moves(&a), moves(&b));
    assert!(a["distributed"]["tree_nodes"].as_u64().unwrap() > 1);
    // The simulation replays the recorded answers: deterministic, and it
    // reaches the goal on any number of workers.
    let rec = Recording::read(&w).unwrap();
    let two = simulate(&rec, 2);
    assert!(two.done && two.units > 1, "{two:?}");
    assert_eq!(two, simulate(&rec, 2));
    for n in [1, 16] {
        assert!(simulate(&rec, n).done);
    }
    let verified = cli::ok(&["verify", s(&w), "--workers", "2", "--table-mb", "1", "-q"]);
    assert!(verified.contains("proof verified"), "{verified}");
    // Run again: the finished state answers at once, nothing sent.
    let again: serde_json::Value = serde_json::from_str(&cli::ok(&dist)).unwrap();
    assert_eq!(
        (again["value"].clone(), again["distributed"]["units_this_run"].as_u64()),
        (a["value"].clone(), Some(0))
    );
    let original = std::fs::read_to_string(w.join("proof.sgf")).unwrap();
    let check = |why: &str| {
        let e = cli::fails_one_line(&["verify", s(&w), "--workers", "2", "--table-mb", "1", "-q"]);
        assert!(e.contains(why), "{why}: {e}");
        std::fs::write(w.join("proof.sgf"), &original).unwrap();
    };
    // A defender's reply removed: the first variation of an AND node.
    tamper(&w, |t| {
        let at = t.match_indices("\n(;").map(|(i, _)| i).find(|&i| !t[i..].starts_with("\n(;FF")).expect("a variation");
        let end = at + 1 + matching_paren(&t[at + 1..]);
        format!("{}{}", &t[..at], &t[end + 1..])
    });
    check("missing");
    // A leaf's stated position changed.
    tamper(&w, |t| {
        let at = t.find("GSPOS[").unwrap() + 6;
        let c = if &t[at..at + 1] == "." { "X" } else { "." };
        format!("{}{}{}", &t[..at], c, &t[at + 1..])
    });
    check("states the position");
    // The claim made stronger than the truth: a leaf fails somewhere.
    let claimed: i32 = {
        let at = original.find("GSCLAIM[>=").unwrap() + 10;
        original[at..].split(']').next().unwrap().parse().unwrap()
    };
    tamper(&w, |t| t.replacen(&format!("GSCLAIM[>={claimed}]"), &format!("GSCLAIM[>={}]", claimed + 1), 1));
    check("statement 1");
    // Not SGF; no proof at all.
    tamper(&w, |_| "(;GM[1]SZ[2".to_string());
    check("not valid SGF");
    std::fs::remove_file(w.join("proof.sgf")).unwrap();
    check("cannot read the proof");
    // The work dir of another problem.
    let e = cli::fails_one_line(&[
        "solve",
        "2x3",
        "--moves",
        "b2",
        "--table-mb",
        "1",
        "-q",
        "--workers",
        "2",
        "--work-dir",
        s(&w),
    ]);
    assert!(e.contains("holds the solve of another position"), "{e}");
}

/// The byte index of the parenthesis closing the one `s` starts with.
fn matching_paren(s: &str) -> usize {
    let (mut depth, mut in_value, mut escaped) = (0i32, false, false);
    for (i, c) in s.char_indices() {
        match (in_value, escaped, c) {
            (true, true, _) => escaped = false,
            (true, false, '\\') => escaped = true,
            (true, false, ']') => in_value = false,
            (true, ..) => {}
            (false, _, '[') => in_value = true,
            (false, _, '(') => depth += 1,
            (false, _, ')') => {
                depth -= 1;
                if depth == 0 {
                    return i;
                }
            }
            _ => {}
        }
    }
    panic!("unbalanced SGF");
}

/// The state's decided units (proved or refuted), by id.
fn decided(state: &Path) -> HashSet<String> {
    let Ok(Some(st)) = State::read(state) else { return HashSet::new() };
    st.records.iter().filter(|r| r.outcome != "undecided").map(|r| r.id.clone()).collect()
}

fn rounds(state: &Path) -> u64 {
    State::read(state).ok().flatten().map_or(0, |s| s.round)
}

/// A manager killed with kill -9 in the middle of the solve (after one of
/// its workers was killed too): the same command ends with the one-process
/// value, and every claim decided before the kill is still in its state.
/// A second manager started on the same work dir meanwhile is refused.
#[test]
fn a_killed_manager_resumes_and_a_second_one_is_refused() {
    let d = tempfile::tempdir().unwrap();
    let w = d.path().join("w");
    let args = [
        "solve",
        "3x3",
        "--moves",
        "b2 a1 c3",
        "--value-only",
        "--table-mb",
        "1",
        "-q",
        "--workers",
        "2",
        "--work-dir",
        s(&w),
        "--unit-nodes",
        "40",
    ];
    let mut child = cli::command(&args).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
    let state = w.join("solve").join("state.json");
    let until = Instant::now() + Duration::from_secs(120);
    // Four rounds and a decided claim on disk (on a loaded machine the
    // first rounds may all come back undecided).
    while (rounds(&state) < 4 || decided(&state).is_empty()) && Instant::now() < until {
        assert!(child.try_wait().unwrap().is_none(), "the solve ended before it could be killed");
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(rounds(&state) >= 4 && !decided(&state).is_empty(), "no progress within the time allowed");
    // A second manager on the same work dir: one line, at once.
    let e = cli::fails_one_line(&args);
    assert!(e.contains("in use by a gosolve manager"), "{e}");
    // A worker killed with kill -9: its unit runs again.
    let pid = child.id().to_string();
    if let Ok(out) = Command::new("pgrep").args(["-P", &pid]).output() {
        if let Some(worker) = String::from_utf8_lossy(&out.stdout).lines().next() {
            let _ = Command::new("kill").args(["-9", worker.trim()]).status();
        }
    }
    std::thread::sleep(Duration::from_millis(150));
    let before = decided(&state);
    let _ = Command::new("kill").args(["-9", &pid]).status();
    let _ = child.wait();
    let out = cli::ok(&[&args[..], &["--json"]].concat());
    let r: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(r["distributed"]["resumed"], true);
    let one: serde_json::Value = serde_json::from_str(&cli::ok(&[
        "solve",
        "3x3",
        "--moves",
        "b2 a1 c3",
        "--value-only",
        "--table-mb",
        "1",
        "-q",
        "--json",
    ]))
    .unwrap();
    assert_eq!(r["value"], one["value"]);
    let after = decided(&state);
    assert!(!before.is_empty() && before.is_subset(&after), "decided before the kill: {before:?}, after: {after:?}");
}

/// A unit answered while its manager was dead (as a Slurm task goes on
/// after `kill -9` of its manager and may answer before the next manager
/// cancels it): the manager started again finds the answer already
/// written for a unit it had in flight, takes it instead of sending the
/// unit again, and ends with the one-process value.
#[test]
fn an_answer_written_while_the_manager_was_dead_is_taken() {
    let d = tempfile::tempdir().unwrap();
    let w = d.path().join("w");
    // Units big enough to decide their test: the tree stays one leaf, the
    // root, sent test after test, so the unit in flight is all there is to
    // wait for.
    let base = ["solve", "4x3", "--value-only", "--table-mb", "16", "-q"];
    let dist = [&base[..], &["--workers", "2", "--work-dir", s(&w), "--unit-nodes", "100000000"]].concat();
    // The work dir's layout, to find its units and answers (the manager
    // opens the same folders).
    let layout = gosolve::distributed::WorkDir::open(&w).unwrap();
    let mut child = cli::command(&dist).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
    let state = w.join("solve").join("state.json");
    // Units in flight, each written to the work dir (the state names a
    // unit before the scheduler writes its file).
    let sent = || {
        State::read(&state)
            .ok()
            .flatten()
            .is_some_and(|s| !s.flights.is_empty() && s.flights.iter().all(|f| layout.unit_path(&f.unit.id).exists()))
    };
    let until = Instant::now() + Duration::from_secs(120);
    while (rounds(&state) < 1 || !sent()) && Instant::now() < until {
        assert!(child.try_wait().unwrap().is_none(), "the solve ended before it could be killed");
        std::thread::sleep(Duration::from_millis(5));
    }
    let _ = Command::new("kill").args(["-9", &child.id().to_string()]).status();
    let _ = child.wait();
    // What a task left running would do: answer the units in flight.
    let st = State::read(&state).unwrap().expect("a state on disk");
    assert!(!st.flights.is_empty(), "no unit in flight at the kill");
    for f in &st.flights {
        if !layout.answer_path(&f.unit.id).exists() {
            cli::ok(&["worker", s(&layout.unit_path(&f.unit.id))]);
        }
    }
    let r: serde_json::Value = serde_json::from_str(&cli::ok(&[&dist[..], &["--json"]].concat())).unwrap();
    assert_eq!(r["distributed"]["resumed"], true, "{r}");
    assert!(r["distributed"]["units_reused"].as_u64().unwrap() >= 1, "{r}");
    let one: serde_json::Value = serde_json::from_str(&cli::ok(&[&base[..], &["--json"]].concat())).unwrap();
    assert_eq!(r["value"], one["value"]);
}

/// Every answer's worker stamp (slot, pid, units answered by then) and its
/// outcome, by unit.
fn stamps(work: &Path) -> Vec<(String, String, u64, u64)> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(work.join("answers")).unwrap().flatten() {
        let a: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(e.path()).unwrap()).unwrap();
        let w = &a["worker"];
        assert!(w.is_object(), "an answer of a long-lived worker names it: {a}");
        out.push((
            a["unit"].as_str().unwrap().to_string(),
            w["slot"].as_str().unwrap().to_string(),
            w["pid"].as_u64().unwrap(),
            w["units"].as_u64().unwrap(),
        ));
    }
    out
}

/// The workers of a distributed solve live across units: each of the two
/// slots is one process from start to end that answers unit after unit
/// (its count of units rising by one each time), and imports the deltas
/// the other published instead of reading the shared checkpoint again.
#[test]
fn a_long_lived_worker_answers_many_units() {
    let d = tempfile::tempdir().unwrap();
    let w = d.path().join("w");
    let base = ["solve", "3x3", "--moves", "b2 a1", "--value-only", "--table-mb", "1", "-q", "--json"];
    let dist = [&base[..], &["--workers", "2", "--work-dir", s(&w), "--unit-nodes", "60"]].concat();
    let r: serde_json::Value = serde_json::from_str(&cli::ok(&dist)).unwrap();
    let one: serde_json::Value = serde_json::from_str(&cli::ok(&base)).unwrap();
    assert_eq!(r["value"], one["value"]);
    let st = stamps(&w);
    assert!(st.len() >= 4, "{st:?}");
    let mut by_pid: BTreeMap<u64, Vec<u64>> = BTreeMap::new();
    for (_, _, pid, units) in &st {
        by_pid.entry(*pid).or_default().push(*units);
    }
    assert!(by_pid.len() <= 2, "two slots, never restarted: {by_pid:?}");
    for counts in by_pid.values_mut() {
        counts.sort();
        assert_eq!(*counts, (1..=counts.len() as u64).collect::<Vec<_>>(), "one process, units counted: {st:?}");
    }
    assert!(by_pid.values().any(|c| c.len() >= 2), "a worker answered more than one unit: {st:?}");
    // One log per slot, no log per unit; the workers are gone.
    let logs: Vec<String> = std::fs::read_dir(w.join("logs"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().to_string())
        .collect();
    assert!(logs.iter().all(|l| l.starts_with("worker-")) && logs.len() <= 2, "{logs:?}");
    let log = std::fs::read_to_string(w.join("logs").join(&logs[0])).unwrap();
    assert!(log.contains("asked to stop"), "{log}");
    for pid in by_pid.keys() {
        assert!(!Path::new(&format!("/proc/{pid}")).exists(), "worker {pid} outlived its manager");
    }
}

/// A long-lived worker pointed at a folder that is not a work dir (a
/// mistyped path) says so in one line at once, instead of waiting for
/// units that never come, and makes no folder there.
#[test]
fn a_long_lived_worker_refuses_a_folder_that_is_not_a_work_dir() {
    let d = tempfile::tempdir().unwrap();
    let w = d.path().join("no-such-work-dir");
    let e = cli::fails_one_line(&["worker", "--serve", s(&w), "--slot", "a"]);
    assert!(e.contains("is not a work dir"), "{e}");
    assert!(!w.exists(), "the worker made {}", w.display());
}

/// A long-lived worker whose manager is gone (a Slurm task left by a manager
/// killed with kill -9 and never started again) exits once idle without a
/// sign of life for `GOSOLVE_MANAGER_TIMEOUT`: it stays while the work dir's
/// lock is refreshed, and exits cleanly once it is not.
#[test]
fn a_worker_whose_manager_is_gone_exits() {
    let d = tempfile::tempdir().unwrap();
    let w = gosolve::distributed::WorkDir::open(&d.path().join("w")).unwrap();
    let lock = w.root().join("manager.lock");
    std::fs::write(&lock, "{}").unwrap();
    let touch = || std::fs::File::options().write(true).open(&lock).unwrap().set_modified(SystemTime::now()).unwrap();
    let log = d.path().join("worker.log");
    let mut worker = cli::command(&["worker", "--serve", s(w.root()), "--slot", "a"])
        .env("GOSOLVE_MANAGER_TIMEOUT", "1.5")
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .unwrap();
    // Refreshed: the worker waits, idle.
    for _ in 0..20 {
        touch();
        std::thread::sleep(Duration::from_millis(150));
        assert!(worker.try_wait().unwrap().is_none(), "exited while its manager lived");
    }
    // No longer refreshed: it exits, status 0.
    let until = Instant::now() + Duration::from_secs(30);
    let status = loop {
        if let Some(st) = worker.try_wait().unwrap() {
            break st;
        }
        assert!(Instant::now() < until, "still serving 30 s after its manager went quiet");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success(), "{status}");
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(text.contains("no sign of life from a manager"), "{text}");
}

/// A `GOSOLVE_MANAGER_TIMEOUT` that is not a number of seconds above 0 and
/// below 10^9 is refused in one line, by the manager (before it takes the work dir) and
/// by a long-lived worker alike, never taken as the default.
#[test]
fn a_bad_manager_timeout_is_a_one_line_error() {
    let d = tempfile::tempdir().unwrap();
    let w = gosolve::distributed::WorkDir::open(&d.path().join("w")).unwrap();
    for bad in ["ten", "0", "-5", "inf", "", "1e12"] {
        let solve = ["solve", "3x2", "--value-only", "-q", "--workers", "1", "--work-dir", s(w.root())];
        let serve = ["worker", "--serve", s(w.root()), "--slot", "a"];
        for args in [&solve[..], &serve[..]] {
            let out = cli::command(args).env("GOSOLVE_MANAGER_TIMEOUT", bad).output().unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(matches!(out.status.code(), Some(1) | Some(2)), "{args:?} with '{bad}': {:?} {err}", out.status);
            let line = err.lines().find(|l| l.contains("GOSOLVE_MANAGER_TIMEOUT"));
            assert!(line.is_some_and(|l| l.contains(&format!("not '{bad}'"))), "{args:?} with '{bad}': {err}");
        }
        assert!(!w.lock_path().exists(), "a refused manager left its lock");
    }
}

/// A manager refreshes its work dir's lock while it runs (every quarter of
/// `GOSOLVE_MANAGER_TIMEOUT`), so that its workers know it is there.
#[test]
fn a_running_manager_refreshes_its_lock() {
    let d = tempfile::tempdir().unwrap();
    let w = d.path().join("w");
    let args = ["solve", "5x4", "--value-only", "--table-mb", "16", "-q", "--workers", "1", "--work-dir", s(&w)];
    let mut child = cli::command(&args)
        .env("GOSOLVE_MANAGER_TIMEOUT", "1")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let lock = w.join("manager.lock");
    let changed = || std::fs::metadata(&lock).and_then(|m| m.modified()).ok();
    let until = Instant::now() + Duration::from_secs(60);
    while changed().is_none() {
        assert!(Instant::now() < until, "no lock taken");
        std::thread::sleep(Duration::from_millis(20));
    }
    let first = changed().unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    let alive = child.try_wait().unwrap().is_none();
    let later = changed();
    let _ = Command::new("kill").args(["-9", &child.id().to_string()]).status();
    let _ = child.wait();
    assert!(alive, "the solve ended before its lock could be watched");
    assert!(later.is_some_and(|l| l > first), "the lock was not refreshed: {first:?} then {later:?}");
}

/// A long-lived worker killed with kill -9 while it runs a unit: the unit
/// is sent again, the slot gets a new worker, and the value is the
/// one-process value, every claim decided before the kill still decided.
/// 2x5 in units of 500 nodes (about 150 units, 2 s): 3x3 after b2 was two
/// units of a tenth of a second once each unit's solver started quickly,
/// too few to find a worker busy when the machine is loaded.
#[test]
fn a_killed_long_lived_worker_is_replaced_and_nothing_is_lost() {
    let d = tempfile::tempdir().unwrap();
    let w = d.path().join("w");
    let base = ["solve", "2x5", "--value-only", "--table-mb", "1", "-q", "--json"];
    let dist = [&base[..], &["--workers", "2", "--work-dir", s(&w), "--unit-nodes", "500"]].concat();
    let mut child = cli::command(&dist).stdout(Stdio::piped()).stderr(Stdio::null()).spawn().unwrap();
    let state = w.join("solve").join("state.json");
    // A worker with a unit in its inbox, once a claim is decided.
    let until = Instant::now() + Duration::from_secs(120);
    let mut killed = None;
    while killed.is_none() && Instant::now() < until {
        assert!(child.try_wait().unwrap().is_none(), "the solve ended before a worker could be killed");
        if !decided(&state).is_empty() {
            for slot in std::fs::read_dir(w.join("workers")).into_iter().flatten().flatten() {
                let busy = std::fs::read_dir(slot.path().join("inbox")).is_ok_and(|mut i| i.next().is_some());
                let status: Option<serde_json::Value> = std::fs::read_to_string(slot.path().join("status.json"))
                    .ok()
                    .and_then(|t| serde_json::from_str(&t).ok());
                if let (true, Some(st)) = (busy, status) {
                    let pid = st["pid"].as_u64().unwrap();
                    if Command::new("kill").args(["-9", &pid.to_string()]).status().unwrap().success() {
                        killed = Some((slot.file_name().to_string_lossy().to_string(), pid));
                        break;
                    }
                }
            }
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let (slot, pid) = killed.expect("a busy worker to kill");
    let before = decided(&state);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "the solve failed after worker {pid} was killed");
    let r: serde_json::Value = serde_json::from_str(&String::from_utf8_lossy(&out.stdout)).unwrap();
    let one: serde_json::Value = serde_json::from_str(&cli::ok(&base)).unwrap();
    assert_eq!(r["value"], one["value"]);
    assert!(before.is_subset(&decided(&state)), "decided before the kill: {before:?}");
    // The slot's log tells of two workers: the one killed and its replacement.
    let log = std::fs::read_to_string(w.join("logs").join(format!("worker-{slot}.log"))).unwrap();
    assert!(log.matches("serving slot").count() >= 2, "slot {slot} got a new worker: {log}");
}
