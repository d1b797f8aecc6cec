//! `gosolve solve ... --workers N [--backend local|slurm] [--work-dir DIR]`:
//! the claim, the value or every move's value by a distributed solve
//! (`gosolve::distributed::solve`), reported as the one-process solve
//! reports it, with the proof's file and the work done.

use super::SolveArgs;
use crate::cli::common::rules_json;
use crate::cli::interrupt::interrupt_flag;
use crate::cli::progress::{human_count, Mode as ShowMode, LINE_INTERVAL};
use anyhow::{anyhow, bail, Result};
use gosolve::distributed::solve::{run_solve, Mode, Policy, RoundInfo, SolveJob, SolveObserver, SolveReport};
use gosolve::distributed::{BackendKind, Finished, Observer};
use gosolve::format::diagram;
use gosolve::rules::position::{fmt_value, result_phrase, value_with_komi};
use gosolve::search::Claim;
use gosolve::Game;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Default node budget of a leaf's first unit: a few seconds of one
/// worker's search, long beside the start of a worker and its read of the
/// shared checkpoint.
const DEFAULT_UNIT_NODES: u64 = 1_000_000;

/// Workers by default on Slurm (locally: one per core).
const DEFAULT_SLURM_WORKERS: usize = 16;

pub fn run(args: &SolveArgs, game: Game) -> Result<()> {
    for (given, flag) in [
        (args.reference, "--reference"),
        (args.checkpoint.is_some(), "--checkpoint"),
        (args.sgf_out.is_some(), "--sgf-out"),
        (args.diagrams, "--diagrams"),
        (args.trace.is_some(), "--trace"),
    ] {
        if given {
            bail_usage!("{flag} does not apply to a distributed solve (--workers, --backend, --work-dir); its proof is WORK/proof.sgf");
        }
    }
    let kind = args.dist.kind();
    let workers = args.dist.workers.unwrap_or(match kind {
        BackendKind::Local => crate::cli::common::cores(),
        BackendKind::Slurm => DEFAULT_SLURM_WORKERS,
    });
    // Threads of each worker: one unless asked (the workers are the parallelism).
    let threads = args.threads.max(1);
    let table_mb = match kind {
        // Each node's own default where the workers run; the manager's
        // merge sizes its table to what it merges.
        BackendKind::Slurm => args.limits.table.table_mb.unwrap_or(0),
        // The workers' tables and the manager's merged one, here.
        BackendKind::Local => args.limits.table.checked(workers + 1)?,
    };
    let mode = match (args.at_least, args.at_most) {
        (Some(v), _) | (_, Some(v)) if !v.is_finite() => {
            bail_usage!("the claimed value must be a finite number, not {}", v)
        }
        (Some(v), _) => match Claim::with_komi(true, v, &game.rules) {
            Claim::AtLeast(raw) | Claim::AtMost(raw) => Mode::Claim { at_least: true, value: raw },
        },
        (_, Some(v)) => match Claim::with_komi(false, v, &game.rules) {
            Claim::AtLeast(raw) | Claim::AtMost(raw) => Mode::Claim { at_least: false, value: raw },
        },
        _ if args.value_only => Mode::Value,
        _ => Mode::EveryMove,
    };
    let policy = Policy { unit_nodes: args.unit_nodes.unwrap_or(DEFAULT_UNIT_NODES), ..Policy::default() };
    let default_dir = PathBuf::from(format!("gosolve-solve-{}.work", problem_hash(&game, &mode)));
    let mut setup = args.dist.setup(default_dir, threads, workers, interrupt_flag());
    setup.backend.workers = workers;
    setup.run.deadline = args.limits.time_limit.map(|t| Instant::now() + t);
    let job = SolveJob {
        game: game.clone(),
        mode: mode.clone(),
        policy,
        threads,
        table_mb,
        alpha_beta: args.alpha_beta,
        no_path_symmetry: args.no_path_symmetry,
        node_limit: args.limits.node_limit,
        guess: args.guess.map(|v| Claim::guess_with_komi(v, &game.rules)),
    };
    let show = if args.quiet { ShowMode::Quiet } else { ShowMode::Lines };
    let observer = Arc::new(Progress { show, last: Mutex::new(None), start: Instant::now() });
    let report = run_solve(&job, &setup, observer).map_err(|e| anyhow!("{}", e))?;
    print_report(&game, &mode, (args.at_least, args.at_most), &report, args.json)?;
    if let Some(why) = &report.stopped {
        bail!("{}: the solve's state is in {}; run the same command again to resume", why, report.work_dir.display());
    }
    Ok(())
}

/// A short hash of the position and the question: the default work dir, so
/// that the same command finds its own again.
fn problem_hash(game: &Game, mode: &Mode) -> String {
    let spec = gosolve::distributed::protocol::position_spec("solve", game);
    let text = serde_json::to_string(&(spec, mode)).expect("serializes");
    format!("{:08x}", gosolve::store::fnv1a64(text.as_bytes()) as u32)
}

/// The report, as text or JSON.
fn print_report(
    game: &Game,
    mode: &Mode,
    (at_least, at_most): (Option<f64>, Option<f64>),
    r: &SolveReport,
    json: bool,
) -> Result<()> {
    let komi = game.rules.komi;
    let with_komi = |v: i32| value_with_komi(v, komi);
    let stated = match (at_least, at_most) {
        (Some(v), _) => Some(format!(">= {}", fmt_value(v))),
        (_, Some(v)) => Some(format!("<= {}", fmt_value(v))),
        _ => None,
    };
    if json {
        let mut o = serde_json::json!({
            "board": game.geo.name(),
            "rules": rules_json(&game.rules),
            "position": diagram::compact(&game.geo, &game.position),
            "to_move": game.to_move.name(),
            "history_moves": game.moves.len(),
            "status": if r.stopped.is_some() { "unsolved" } else { "solved" },
            "limit": r.stopped,
            "distributed": {
                "work_dir": r.work_dir.display().to_string(),
                "backend": r.backend,
                "workers": r.workers,
                "units": r.units,
                "units_this_run": r.units_this_run,
                "units_reused": r.reused_this_run,
                "rounds": r.rounds,
                "tree_nodes": r.tree_nodes,
                "merges": r.merges,
                "merge_seconds": r.merge_seconds,
                "resumed": r.resumed,
                "proof": r.proof.as_ref().map(|p| p.display().to_string()),
                "proof_leaves": r.proof_summary.as_ref().map(|s| s.leaves()),
            },
            "nodes": r.nodes,
            "nodes_this_run": r.nodes_this_run,
            "seconds": r.seconds,
        });
        let map = o.as_object_mut().expect("an object");
        match mode {
            Mode::Claim { .. } => {
                map.insert("claim".into(), stated.clone().into());
                map.insert("holds".into(), r.holds.into());
            }
            _ => {
                map.insert("value".into(), r.value.map(|v| crate::cli::common::num(with_komi(v))).into());
                if matches!(mode, Mode::EveryMove) && r.stopped.is_none() {
                    let moves: Vec<serde_json::Value> = r
                        .moves
                        .iter()
                        .map(|(m, v)| serde_json::json!({"move": m, "value": crate::cli::common::num(with_komi(*v))}))
                        .collect();
                    map.insert("moves".into(), moves.into());
                }
            }
        }
        println!("{}", serde_json::to_string_pretty(&o)?);
        return Ok(());
    }
    println!("board {}  rules: {}", game.geo.name(), game.rules.describe());
    print!("{}", diagram::render(&game.geo, &game.position));
    println!("{} to move, {} moves of history", game.to_move.name(), game.moves.len());
    match (&r.stopped, mode) {
        (Some(why), _) => println!("unsolved: {why}"),
        (None, Mode::Claim { .. }) => println!(
            "claim: value {}: {}",
            stated.unwrap_or_default(),
            if r.holds == Some(true) { "holds (proved)" } else { "false (refuted)" }
        ),
        (None, _) => {
            let v = with_komi(r.value.unwrap_or(0));
            println!("value: {} ({:+})", result_phrase(v), v);
            if matches!(mode, Mode::EveryMove) {
                let each: String =
                    r.moves.iter().map(|(m, v)| format!(" {}={}", m, fmt_value(with_komi(*v)))).collect();
                println!("move values:{}", if each.is_empty() { " none (the game is over)".into() } else { each });
            }
        }
    }
    println!(
        "distributed: {} {} worker(s), {} units ({} this run, {} answered by an earlier run), {} nodes, {} rounds, tree {} nodes, {} merges ({:.1} s), {:.1} s",
        r.workers,
        r.backend,
        r.units,
        r.units_this_run,
        r.reused_this_run,
        r.nodes,
        r.rounds,
        r.tree_nodes,
        r.merges,
        r.merge_seconds,
        r.seconds
    );
    match (&r.proof, &r.proof_summary) {
        (Some(p), Some(s)) => println!(
            "proof: {} ({} statement(s), {} moves, {} leaves: {} by workers, {} over, {} static); check it with: gosolve verify {}",
            p.display(),
            s.statements,
            s.nodes,
            s.leaves(),
            s.unit_leaves + s.after_leaves,
            s.over_leaves,
            s.static_leaves,
            r.work_dir.display()
        ),
        _ => println!("work dir: {} (state {})", r.work_dir.display(), r.state.display()),
    }
    Ok(())
}

/// Progress on stderr: notes and retries at once, a line about the rounds
/// at most every [`LINE_INTERVAL`].
struct Progress {
    show: ShowMode,
    last: Mutex<Option<Instant>>,
    start: Instant,
}

impl Observer for Progress {
    fn unit_finished(&self, _f: &Finished) {}
    fn unit_retried(&self, id: &str, why: &str) {
        if self.show != ShowMode::Quiet {
            eprintln!("gosolve: unit {id}: {why}; running it again");
        }
    }
    fn note(&self, line: &str) {
        if self.show != ShowMode::Quiet {
            eprintln!("gosolve: {line}");
        }
    }
}

impl SolveObserver for Progress {
    fn round(&self, i: &RoundInfo) {
        if self.show == ShowMode::Quiet {
            return;
        }
        let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        if last.is_some_and(|t| t.elapsed() < LINE_INTERVAL) {
            return;
        }
        *last = Some(Instant::now());
        let test = i.test.map(|b| format!(", testing value >= {b}")).unwrap_or_default();
        eprintln!(
            "gosolve: round {}: {} units answered, {} running, tree {} nodes, root {}..{}, goals open {}/{}{}, {} nodes, {:.0} s",
            i.round,
            i.answered,
            i.in_flight,
            i.tree_nodes,
            i.lo,
            i.hi,
            i.open_goals,
            i.goals,
            test,
            human_count(i.nodes as f64),
            self.start.elapsed().as_secs_f64()
        );
    }
}
