//! `gosolve solve`: the exact value of a position, its principal variation and
//! the value of every legal move, in words or as JSON; with `--workers`, by
//! a distributed solve ([`distributed`]).

mod args;
mod distributed;

use super::common::{checkpoint_read_line, num, rules_json};
use super::progress::{Mode, SolveProgress};
use anyhow::Result;
pub use args::SolveArgs;
use gosolve::format::diagram;
use gosolve::format::numbers::{bounds, group_digits};
use gosolve::process::peak_memory_mib;
use gosolve::rules::position::{fmt_value, result_phrase, value_with_komi};
use gosolve::search::Memory;
use gosolve::search::{
    prove_claim, solve, solve_reference, BoundsLog, Claim, ClaimMovesLog, Engine, MoveClaim, MoveValue, RootMoveLog,
    Solution, SolveOptions, Stats, StatsLog,
};
use gosolve::tables::checkpoint::{self, Autosave};
use gosolve::{Game, Move};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

pub fn run(args: SolveArgs) -> Result<()> {
    let loaded = args.start.load(&args.rules)?;
    if let Some(n) = &loaded.rules_note {
        eprintln!("gosolve: note: {}", n);
    }
    let game = loaded.game;
    if args.dist.wanted() {
        return distributed::run(&args, game);
    }
    if args.unit_nodes.is_some() {
        bail_usage!("--unit-nodes applies to a distributed solve: give --workers N");
    }
    // One table, shared by the threads.
    let table_mb = args.limits.table.checked(1)?;
    let mode = if args.quiet { Mode::Quiet } else { Mode::detect() };
    let shown = Arc::new(SolveProgress::new(&game.geo.name(), mode));
    let solved = RootMoveLog::default();
    let claimed = ClaimMovesLog::default();
    let stopped = StatsLog::default();
    let (shown2, claimed2, geo) = (shown.clone(), claimed.clone(), game.geo);
    let (memory, read) = match &args.checkpoint {
        Some(path) => {
            let (m, read) = open_checkpoint(path, &game, table_mb, &shown)?;
            (Some(m), read)
        }
        None => (None, None),
    };
    // With a checkpoint, the log of the root's bounds is the memory's own:
    // a value-only solve resumed starts from what the earlier runs proved,
    // and every save keeps what this one proves.
    let bounds = memory.as_ref().map_or_else(BoundsLog::default, |m| m.root_bounds(&game));
    let known = if args.value_only { bounds.get() } else { (None, None) };
    if let (Some(path), Some(line)) = (&args.checkpoint, known_line(&game, known)) {
        shown.println(&format!("gosolve: checkpoint {}: {}", path.display(), line));
    }
    let opts = SolveOptions {
        threads: args.threads,
        node_limit: args.limits.node_limit,
        time_limit: args.limits.time_limit,
        table_mb,
        progress: Some(Arc::new(move |p| shown2.update(p, claimed2.seen(&geo).as_ref()))),
        on_root_move: Some(solved.callback()),
        value_only: args.value_only,
        guess: args.guess.map(|v| Claim::guess_with_komi(v, &game.rules)),
        value_bounds: Some(bounds.clone()),
        known_bounds: known,
        claim_moves: Some(claimed.clone()),
        stopped_stats: Some(stopped.clone()),
        engine: if args.alpha_beta { Engine::AlphaBeta } else { Engine::Portfolio },
        no_path_symmetry: args.no_path_symmetry,
        trace: args.trace.unwrap_or_default(),
        // Ctrl-C stops the search and still prints what it proved.
        abort: Some(super::interrupt::interrupt_flag()),
        memory: memory.clone(),
        ..Default::default()
    };
    let Some(memory) = memory else {
        return solve_and_report(
            &game,
            &opts,
            &args,
            &shown,
            (&solved, &bounds, &claimed, &stopped),
            &mut Ending::default(),
        );
    };
    // Saved now and then while the solve runs, and once more at its end,
    // whether it solved or stopped: what it proved is kept either way.
    let path = args.checkpoint.clone().expect("a memory comes from --checkpoint");
    let every = args.checkpoint_every.unwrap_or(DEFAULT_CHECKPOINT_EVERY);
    let shown3 = shown.clone();
    let saver = Autosave::start(memory, path.clone(), every, move |r| match r {
        Ok(s) => shown3.println(&format!("gosolve: {}", s.saved_line(&path))),
        Err(e) => shown3.println(&format!("gosolve: warning: {e}")),
    });
    let komi = |v: Option<i32>| v.map(|v| num(value_with_komi(v, game.rules.komi)));
    let known = (known != (None, None))
        .then(|| serde_json::json!({"lower_bound": komi(known.0), "upper_bound": komi(known.1)}));
    let mut ending = Ending { saver: Some(saver), read, known, quiet: args.quiet, ..Default::default() };
    let outcome = solve_and_report(&game, &opts, &args, &shown, (&solved, &bounds, &claimed, &stopped), &mut ending);
    // Saved when the search ended; here if the command ended before one.
    ending.finish();
    match ending.saved.take().expect("finish saves the checkpoint") {
        // The solve's own error is the one error line; say the save failed too.
        Err(e) if outcome.is_err() => {
            eprintln!("gosolve: warning: {e}");
            outcome
        }
        saved => outcome.and(saved.map(|_| ()).map_err(Into::into)),
    }
}

/// What happens between the end of the search and its report: with
/// `--checkpoint`, the final save ([`Ending::finish`], called once the
/// search is over), so that the report can say what the file now holds (the
/// JSON's `checkpoint` object: what was read at the start and what was saved
/// at the end; `saved` is null when the save failed, whose error then ends
/// the command).
#[derive(Default)]
struct Ending {
    saver: Option<Autosave>,
    /// What was read from the file at the start (none: a new file).
    read: Option<checkpoint::Summary>,
    /// The bounds on the value (komi applied) read with it that the solve
    /// started from (none: it started from the whole range).
    known: Option<serde_json::Value>,
    quiet: bool,
    /// The final save, once done.
    saved: Option<Result<checkpoint::Summary, checkpoint::CheckpointError>>,
    /// The report's `checkpoint` object, once saved.
    json: Option<serde_json::Value>,
}

impl Ending {
    /// Save the checkpoint (if any, and only the first time).
    fn finish(&mut self) {
        let Some(saver) = self.saver.take() else { return };
        let path = saver.path().to_path_buf();
        let saved = saver.finish();
        if let (Ok(s), false) = (&saved, self.quiet) {
            eprintln!("gosolve: {}", s.saved_line(&path));
        }
        let read = self.read.as_ref().map(|s| {
            serde_json::json!({"results": s.results, "kept": s.kept, "guide_numbers": s.numbers, "roots": s.roots, "seconds": s.seconds, "known_bounds": self.known})
        });
        let written = saved.as_ref().ok().map(|s| {
            serde_json::json!({"results": s.results, "guide_numbers": s.numbers, "roots": s.roots, "bytes": s.bytes, "seconds": s.seconds})
        });
        self.saved = Some(saved);
        self.json = Some(serde_json::json!({"path": path.display().to_string(), "read": read, "saved": written}));
    }

    /// Add the `checkpoint` object to a JSON report (none without
    /// `--checkpoint`).
    fn add_to(&self, report: &mut serde_json::Map<String, serde_json::Value>) {
        if let Some(c) = &self.json {
            report.insert("checkpoint".into(), c.clone());
        }
    }
}

/// How often `--checkpoint` saves while the solve runs, unless
/// `--checkpoint-every` says otherwise: ten minutes of search at most are
/// lost to a crash, and a save (a few seconds for a full 3 GiB table) costs
/// little beside them.
const DEFAULT_CHECKPOINT_EVERY: Duration = Duration::from_secs(600);

/// The memory of `--checkpoint FILE`: read back when the file exists (an
/// error if it is for another board or rules, damaged or not a checkpoint),
/// else a fresh one, once the file is known to be writable (so that a bad
/// destination is reported now, not after the work).
fn open_checkpoint(
    path: &Path,
    game: &Game,
    table_mb: usize,
    shown: &SolveProgress,
) -> Result<(Memory, Option<checkpoint::Summary>)> {
    let (memory, read) = checkpoint::open(path, &game.geo, &game.rules, table_mb)?;
    match &read {
        Some(s) => shown.println(&checkpoint_read_line(path, s)),
        None => gosolve::store::check_writable(path)
            .map_err(|e| anyhow::anyhow!("cannot write checkpoint {}: {}", path.display(), e))?,
    }
    Ok((memory, read))
}

/// What a resumed value-only solve already knows of its value, for the
/// line that says so (`None`: nothing).
fn known_line(game: &Game, (lower, upper): (Option<i32>, Option<i32>)) -> Option<String> {
    let komi = |v: i32| value_with_komi(v, game.rules.komi);
    let said = bounds(lower.map(komi), upper.map(komi))?;
    Some(format!("value {said} proved by an earlier solve of this position; the search starts from there"))
}

/// Solve (or decide the claim) and print the outcome.
fn solve_and_report(
    game: &Game,
    opts: &SolveOptions,
    args: &SolveArgs,
    shown: &SolveProgress,
    (solved, bounds, claimed, stopped): (&RootMoveLog, &BoundsLog, &ClaimMovesLog, &StatsLog),
    ending: &mut Ending,
) -> Result<()> {
    if let Some((at_least, v)) = args.at_least.map(|v| (true, v)).or(args.at_most.map(|v| (false, v))) {
        return run_claim(game, (at_least, v), opts, args, (shown, claimed, stopped), ending);
    }
    let result = if args.reference { solve_reference(game, opts) } else { solve(game, opts) };
    shown.finish();
    if let Ok(sol) = &result {
        bounds.narrow(Some(sol.value), Some(sol.value));
    }
    ending.finish();
    let sol = match result {
        Ok(sol) => sol,
        Err(e) => {
            // Stopped by a limit: the root moves solved so far are exact;
            // the work done until then (none told: it stopped before it
            // searched).
            let work = stopped.get().unwrap_or_default();
            let partial = (&solved.sorted()[..], bounds, &claimed.get()[..]);
            print_partial(game, partial, &work, &e.to_string(), args, opts.table_mb, ending)?;
            return Err(e.into());
        }
    };
    if let Some(path) = &args.sgf_out {
        let text = gosolve::format::solution::solution_sgf(game, &sol);
        gosolve::store::write_text_atomic(path, &text)
            .map_err(|e| anyhow::anyhow!("cannot write '{}': {}", path.display(), e))?;
    }
    if args.json {
        let mut report = json_report(game, &sol, args.reference, opts.table_mb);
        ending.add_to(&mut report);
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print!("{}", text_report(game, &sol, args.diagrams, args.reference));
        println!("{}", table_line(&sol.stats, opts.table_mb, args));
    }
    Ok(())
}

/// The `table: ...` line of a solve's text report, finished or stopped:
/// what the table used. On boards of at most 16 points it starts small and
/// grows, so most solves use a small part of the size allowed, and saying
/// only the size allowed (2,800 MiB by default on a 24 GiB machine) would
/// misreport a 1x6 solve; where all of it was used, the limit mattered and
/// the line says where it came from.
fn table_line(s: &Stats, table_mb: usize, args: &SolveArgs) -> String {
    if args.reference {
        return "table: none (the reference search keeps no table)".into();
    }
    format!("table: {}", table_use(s, table_mb, default_table(args)))
}

/// Whether the table's size is the default (no --table-mb, or 0).
fn default_table(args: &SolveArgs) -> bool {
    args.limits.table.table_mb.unwrap_or(0) == 0
}

/// "31 MiB used (of up to 2,800 MiB)", or "2,800 MiB used (the default
/// size: …)" when the table took all it was allowed: what a search's table
/// used, for the text reports.
fn table_use(s: &Stats, table_mb: usize, default: bool) -> String {
    let used = s.table_bytes >> 20;
    let size = group_digits(table_mb as u128);
    // A table allocated whole holds a little under its size (whole buckets).
    let full = used + 1 + table_mb as u64 / 64 >= table_mb as u64;
    if !full {
        format!("{} MiB used (of up to {} MiB)", group_digits(used as u128), size)
    } else if default {
        format!("{size} MiB used (the default size: an eighth of the available memory, at most 4 GiB)")
    } else {
        format!("{size} MiB used (--table-mb)")
    }
}

/// `--at-least V` / `--at-most V`: decide the claim and print its proof's line.
fn run_claim(
    game: &Game,
    (at_least, v): (bool, f64),
    opts: &SolveOptions,
    args: &SolveArgs,
    (shown, claimed, stopped): (&SolveProgress, &ClaimMovesLog, &StatsLog),
    ending: &mut Ending,
) -> Result<()> {
    if !v.is_finite() {
        bail_usage!("the claimed value must be a finite number, not {}", v);
    }
    let claim = Claim::with_komi(at_least, v, &game.rules);
    let result = prove_claim(game, claim, opts);
    shown.finish();
    // A decided claim is a bound on the value: kept with the checkpoint,
    // so that a value-only solve of this position resumed from it starts
    // there.
    if let (Ok(r), Some(memory)) = (&result, &opts.memory) {
        let (lower, upper) = r.bounds();
        memory.root_bounds(game).narrow(lower, upper);
    }
    ending.finish();
    let stated = format!("{} {}", if at_least { ">=" } else { "<=" }, fmt_value(v));
    let r = match result {
        Ok(r) => r,
        Err(e) => {
            // Stopped by a limit: say which claim is still open, what is
            // proved after each move and the work done (none told: it
            // stopped before it searched) on stdout, then the error
            // (stderr, non-zero exit) as every stopped solve.
            let moves = claimed.get();
            let work = stopped.get().unwrap_or_default();
            if args.json {
                let mut report = unsolved_json(game, &e.to_string());
                report.insert("claim".into(), stated.into());
                report.insert("holds".into(), serde_json::Value::Null);
                report.insert("moves".into(), moves_decided_json(game, &moves));
                report.extend(work_json(&work, opts.table_mb));
                ending.add_to(&mut report);
                println!("{}", serde_json::to_string_pretty(&report)?);
            } else {
                println!("board {}  rules: {}", game.geo.name(), game.rules.describe());
                println!("claim: value {}: not decided ({})", stated, e);
                print_moves_decided(game, "the claim", &moves);
                println!("{}", claim_search_line(&work, opts.table_mb, default_table(args)));
            }
            return Err(e.into());
        }
    };
    let pv: Vec<String> = r.pv.iter().map(|m| m.name(&game.geo)).collect();
    let s = &r.stats;
    if args.json {
        let mut report = game_json(game);
        report.insert("claim".into(), stated.into());
        report.insert("holds".into(), r.holds.into());
        report.insert("pv".into(), pv.into());
        report.extend(work_json(s, opts.table_mb));
        ending.add_to(&mut report);
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        println!("board {}  rules: {}", game.geo.name(), game.rules.describe());
        print!("{}", diagram::render(&game.geo, &game.position));
        println!("claim: value {}: {}", stated, if r.holds { "holds (proved)" } else { "false (refuted)" });
        if pv.is_empty() && !game.is_over() {
            println!("line of the proof: not read (a limit was reached while reading it)");
        } else {
            println!("line of the proof: {}", pv.join(" "));
        }
        println!("{}", claim_search_line(s, opts.table_mb, default_table(args)));
    }
    Ok(())
}

/// What a stopped claim or test ("the claim", "the test") knows after each
/// root move, for the text report (nothing where it was not looked at).
fn print_moves_decided(game: &Game, what: &str, moves: &[MoveClaim]) {
    if moves.is_empty() {
        return;
    }
    let list = |h: Option<bool>| {
        let names: Vec<String> = moves.iter().filter(|m| m.holds == h).map(|m| m.mv.name(&game.geo)).collect();
        if names.is_empty() {
            "none".to_string()
        } else {
            format!("{} ({})", names.join(" "), names.len())
        }
    };
    println!("{what} after each of the {} legal moves, as proved before it stopped:", moves.len());
    println!("  holds after: {}", list(Some(true)));
    println!("  fails after: {}", list(Some(false)));
    println!("  not decided after: {}", list(None));
}

/// The JSON of what a stopped claim or test knows after each root move.
fn moves_decided_json(game: &Game, moves: &[MoveClaim]) -> serde_json::Value {
    moves.iter().map(|m| serde_json::json!({"move": m.mv.name(&game.geo), "holds": m.holds})).collect()
}

/// The `search: ...` line of a claim's text report, decided or stopped
/// (then the work done until it stopped).
fn claim_search_line(s: &Stats, table_mb: usize, default: bool) -> String {
    let mut line = format!(
        "search: solver, nodes {}, {:.0} nodes/s, time {:.3} s, table {}",
        s.nodes,
        nodes_per_second(s),
        s.seconds,
        table_use(s, table_mb, default)
    );
    if let Some(m) = peak_memory_mib() {
        line.push_str(&format!(", peak memory {:.1} MiB", m));
    }
    line
}

/// What a solve stopped by a limit still knows: the exact values of the root
/// moves it finished, or for a value-only solve the bounds on the value it
/// proved, and the work it did (`work`, the counters a finished solve
/// reports); the error itself goes to stderr as usual.
fn print_partial(
    game: &Game,
    (done, log, decided): (&[MoveValue], &BoundsLog, &[MoveClaim]),
    work: &Stats,
    why: &str,
    args: &SolveArgs,
    table_mb: usize,
    ending: &Ending,
) -> Result<()> {
    let komi = |v: i32| value_with_komi(v, game.rules.komi);
    let (bounds, testing) = (log.get(), log.testing());
    if args.json {
        let mut report = unsolved_json(game, why);
        report.insert("moves".into(), moves_json(game, done));
        report.insert("lower_bound".into(), bounds.0.map(|v| num(komi(v))).into());
        report.insert("upper_bound".into(), bounds.1.map(|v| num(komi(v))).into());
        if args.value_only {
            // The tests "value >= b" it stopped in.
            report.insert("testing".into(), testing.iter().map(|&b| num(komi(b))).collect::<Vec<_>>().into());
            // What that test knows after each root move (where it was one test).
            if !decided.is_empty() && testing.len() == 1 {
                report.insert("test_moves".into(), moves_decided_json(game, decided));
            }
        }
        report.extend(solve_work_json(work, args.reference, table_mb));
        ending.add_to(&mut report);
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        println!("board {}  rules: {}", game.geo.name(), game.rules.describe());
        println!("unsolved: {}", why);
        if args.value_only {
            let proved: Vec<String> = [(">=", bounds.0), ("<=", bounds.1)]
                .iter()
                .filter_map(|&(op, b)| b.map(|v| format!("value {op} {}", fmt_value(komi(v)))))
                .collect();
            let proved = if proved.is_empty() { "none".to_string() } else { proved.join(", ") };
            println!("bounds proved before it stopped: {proved}");
            if !testing.is_empty() {
                let tests: Vec<String> = testing.iter().map(|&b| format!("value >= {}", fmt_value(komi(b)))).collect();
                println!("stopped in the test {}", tests.join(" and "));
                if testing.len() == 1 {
                    print_moves_decided(game, "the test", decided);
                }
            }
        } else {
            let values = if done.is_empty() { " none".to_string() } else { move_values_text(game, done) };
            println!("root moves solved before it stopped ({}):{}", done.len(), values);
        }
        println!("{}", search_line(work, args.reference));
        println!("{}", table_line(work, table_mb, args));
    }
    Ok(())
}

/// ` a1=+3 b1=-2 …`: root move values as the text reports write them.
fn move_values_text(game: &Game, moves: &[MoveValue]) -> String {
    moves
        .iter()
        .map(|m| format!(" {}={}", m.mv.name(&game.geo), fmt_value(value_with_komi(m.value, game.rules.komi))))
        .collect()
}

/// The JSON fields that say what was solved: board, rules, position.
fn game_json(game: &Game) -> serde_json::Map<String, serde_json::Value> {
    let geo = &game.geo;
    let serde_json::Value::Object(map) = serde_json::json!({
        "board": geo.name(),
        "rules": rules_json(&game.rules),
        "position": diagram::compact(geo, &game.position),
        "to_move": game.to_move.name(),
        "history_moves": game.moves.len(),
    }) else {
        unreachable!("a JSON object literal")
    };
    map
}

/// The JSON of a solve or claim stopped by a limit: what was being solved,
/// `"status": "unsolved"` and the limit that stopped it (`why`).
fn unsolved_json(game: &Game, why: &str) -> serde_json::Map<String, serde_json::Value> {
    let mut report = game_json(game);
    report.insert("status".into(), "unsolved".into());
    report.insert("limit".into(), why.into());
    report
}

/// Root move values as JSON (`value` with komi).
fn moves_json(game: &Game, moves: &[MoveValue]) -> serde_json::Value {
    moves
        .iter()
        .map(|m| {
            serde_json::json!({
                "move": m.mv.name(&game.geo),
                "value": num(value_with_komi(m.value, game.rules.komi)),
            })
        })
        .collect()
}

fn text_report(game: &Game, sol: &Solution, diagrams: bool, reference: bool) -> String {
    let geo = &game.geo;
    let v = sol.value_with_komi(&game.rules);
    let mut out = String::new();
    out.push_str(&format!("board {}  rules: {}\n", geo.name(), game.rules.describe()));
    out.push_str(&diagram::render(geo, &game.position));
    if game.is_over() {
        out.push_str(&format!(
            "the game is over (two passes) after {} moves: the value is the score\n",
            game.moves.len()
        ));
    } else {
        out.push_str(&format!("{} to move, {} moves of history\n", game.to_move.name(), game.moves.len()));
    }
    out.push_str(&format!("value: {} ({:+})\n", result_phrase(v), v));
    let pv: Vec<String> = sol.pv.iter().map(|m| m.name(geo)).collect();
    out.push_str(&format!("principal variation: {}\n", pv.join(" ")));
    if diagrams && !sol.pv.is_empty() {
        let mut g = game.clone();
        for (i, &m) in sol.pv.iter().enumerate() {
            let who = g.to_move;
            g.play(m).expect("principal variation is legal");
            out.push_str(&format!("\n{}. {} {}\n", game.moves.len() + i + 1, who.name(), m.name(geo)));
            if m != Move::Pass {
                out.push_str(&diagram::render(geo, &g.position));
            }
        }
        out.push('\n');
    }
    if sol.moves.is_empty() && !game.is_over() {
        out.push_str("move values: not computed (--value-only)\n");
    } else {
        out.push_str(&format!("move values:{}\n", move_values_text(game, &sol.moves)));
    }
    out.push_str(&search_line(&sol.stats, reference));
    out.push('\n');
    out
}

/// The `search: ...` line of a solve's text report, finished or stopped
/// (then the work done until it stopped).
fn search_line(s: &Stats, reference: bool) -> String {
    let mut line = format!(
        "search: {}, nodes {}, {:.0} nodes/s, table hits {} (key matches {}), time {:.3} s, max depth {}",
        if reference { "reference" } else { "solver" },
        s.nodes,
        nodes_per_second(s),
        s.table_hits,
        s.key_matches,
        s.seconds,
        s.max_depth
    );
    if let Some(m) = peak_memory_mib() {
        line.push_str(&format!(", peak memory {:.1} MiB", m));
    }
    line
}

/// The speed every report gives (an instant solve divides by no zero).
fn nodes_per_second(s: &Stats) -> f64 {
    s.nodes as f64 / s.seconds.max(1e-9)
}

/// The JSON of a finished solve: what was solved, the answer, the work.
fn json_report(
    game: &Game,
    sol: &Solution,
    reference: bool,
    table_mb: usize,
) -> serde_json::Map<String, serde_json::Value> {
    let geo = &game.geo;
    let mut report = game_json(game);
    let serde_json::Value::Object(rest) = serde_json::json!({
        "value": num(sol.value_with_komi(&game.rules)),
        "result": result_phrase(sol.value_with_komi(&game.rules)),
        "pv": sol.pv.iter().map(|m| m.name(geo)).collect::<Vec<_>>(),
        "moves": moves_json(game, &sol.moves),
    }) else {
        unreachable!("a JSON object literal")
    };
    report.extend(rest);
    report.extend(solve_work_json(&sol.stats, reference, table_mb));
    report
}

/// The JSON fields that say how much work a search did, finished or stopped
/// (then until it stopped): nodes, time, speed, memory, the table's size
/// and how much of it is in use; all a claim's report gives.
fn work_json(s: &Stats, table_mb: usize) -> serde_json::Map<String, serde_json::Value> {
    let serde_json::Value::Object(map) = serde_json::json!({
        "nodes": s.nodes,
        "seconds": s.seconds,
        "nodes_per_second": nodes_per_second(s),
        "peak_memory_mib": peak_memory_mib(),
        "table_mb": table_mb,
        "table_mib_in_use": s.table_bytes >> 20,
    }) else {
        unreachable!("a JSON object literal")
    };
    map
}

/// [`work_json`] for a solve, finished or stopped, which also says which
/// search ran, its table hits and its depth.
fn solve_work_json(s: &Stats, reference: bool, table_mb: usize) -> serde_json::Map<String, serde_json::Value> {
    let mut map = work_json(s, table_mb);
    map.insert("search".into(), if reference { "reference" } else { "solver" }.into());
    map.insert("table_hits".into(), s.table_hits.into());
    map.insert("max_depth".into(), s.max_depth.into());
    map
}
