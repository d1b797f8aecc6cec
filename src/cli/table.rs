//! `gosolve table`: build the solved table of a board (every legal position,
//! each side to move), query a position in it, or describe a table file.

use super::common::{
    num, parse_color, parse_count, parse_seconds, parse_threads, rules_json, DistArgs, PositionArgs, RuleArgs,
};
use super::interrupt::interrupt_flag;
use super::progress::{Mode, TableBuildProgress, UnitsProgress};
use anyhow::{anyhow, bail, Result};
use gosolve::format::diagram;
use gosolve::rules::position::{fmt_value, result_phrase};
use gosolve::tables::{
    build, partial_path, BuildOptions, BuildOutcome, Entry, StopReason, TableFile, TableSpec, ENTRY_SIZE, HEADER_SIZE,
    VERSION,
};
use gosolve::{Color, Game, Geometry, Position, Rules};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

#[derive(clap::Args)]
pub struct TableArgs {
    #[command(subcommand)]
    pub command: TableCommand,
}

#[derive(clap::Subcommand)]
pub enum TableCommand {
    /// Solve every legal position of a board (each side to move, no earlier history) into a table file.
    Build(BuildArgs),
    /// Look up a position's value and best moves in a table file.
    Query(QueryArgs),
    /// Describe a table file: board, rules, entries, completeness.
    Info(InfoArgs),
}

#[derive(clap::Args)]
pub struct BuildArgs {
    /// Board size WxH (columns x rows), e.g. 2x3; at most 16 points.
    pub board: String,
    #[command(flatten)]
    pub rules: RuleArgs,
    /// Output file (default results/tables/<WxH>-<rules>.gtb); the checkpoint is <out>.partial.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Positions solved at once (0 = one per core; at most 4 per core); each solve uses one thread.
    #[arg(long, default_value_t = 0, value_parser = parse_threads)]
    pub threads: usize,
    /// The transposition table the build's solves share, in MiB (with
    /// --workers: each worker's; 0 or absent: an eighth of the memory
    /// available, split between the local workers; checked against the
    /// memory available).
    #[arg(long, value_name = "MIB", allow_hyphen_values = true, value_parser = parse_count)]
    pub table_mb: Option<usize>,
    /// Stop after this many seconds (more than 0, at most 1e9), keeping the work
    /// done in the checkpoint (resume by running again).
    #[arg(long, value_name = "SECONDS", allow_hyphen_values = true, value_parser = parse_seconds)]
    pub time_limit: Option<Duration>,
    /// Solve every position directly instead of one per symmetry class (board symmetries and colour exchange).
    #[arg(long)]
    pub no_symmetry: bool,
    /// Rebuild from scratch, ignoring an existing output file and checkpoint.
    #[arg(long)]
    pub force: bool,
    /// Rewrite the checkpoint at most this often (seconds).
    #[arg(long, default_value_t = 10.0, hide = true)]
    pub checkpoint_secs: f64,
    /// Stop as if interrupted after solving this many positions (for testing resume).
    #[arg(long, hide = true)]
    pub stop_after: Option<u64>,
    /// Print the outcome as JSON.
    #[arg(long)]
    pub json: bool,
    /// No progress display on stderr.
    #[arg(long, short)]
    pub quiet: bool,
    /// Split the build into K shards (every K-th position of the work list),
    /// each a unit run by a worker, and assemble the table from them (the same
    /// bytes as a one-process build). Default with --workers: one per worker.
    #[arg(long, value_name = "K", value_parser = parse_shards)]
    pub shards: Option<usize>,
    /// Distributed: the shards' workers (default: one per core, at most one
    /// per shard; --threads is then the positions each solves at once,
    /// default 1; default work dir: <out>.work).
    #[command(flatten)]
    pub dist: DistArgs,
}

/// `--shards`: 1 to 65,536.
fn parse_shards(s: &str) -> std::result::Result<usize, String> {
    let n = parse_count(s)?;
    if !(1..=65_536).contains(&n) {
        return Err(format!("{} shards: give 1 to 65536", n));
    }
    Ok(n)
}

#[derive(clap::Args)]
pub struct QueryArgs {
    /// The table file.
    pub file: PathBuf,
    /// The position, rows top to bottom (e.g. "X./.O").
    #[arg(long, value_name = "ROWS")]
    pub position: Option<String>,
    /// Player to move (b or w; default b; with --sgf, overrides its PL).
    #[arg(long, value_name = "b|w")]
    pub to: Option<String>,
    /// Look up the final position of this SGF's main line (its history is not used by the table).
    #[arg(long, value_name = "FILE", conflicts_with = "position")]
    pub sgf: Option<PathBuf>,
    /// Moves played before the lookup (after the SGF's line with --sgf); the
    /// table values the position they reach as if it had no history.
    #[arg(long, value_name = "MOVES", allow_hyphen_values = true)]
    pub moves: Option<String>,
    /// Rules: --komi gives the value under another komi (komi shifts every value
    /// alike, so the best moves stay); --suicide/--no-suicide/--superko must
    /// agree with the table's.
    #[command(flatten)]
    pub rules: RuleArgs,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(clap::Args)]
pub struct InfoArgs {
    /// The table file.
    pub file: PathBuf,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: TableArgs) -> Result<()> {
    match args.command {
        TableCommand::Build(a) => run_build(a),
        TableCommand::Query(a) => run_query(a),
        TableCommand::Info(a) => run_info(a),
    }
}

fn run_build(args: BuildArgs) -> Result<()> {
    let spec = TableSpec { geo: super::common::parse_board(&args.board)?, rules: args.rules.rules()? };
    if spec.geo.points() > gosolve::tables::MAX_TABLE_POINTS {
        bail_usage!(
            "table build supports boards of at most {} points; {} has {}",
            gosolve::tables::MAX_TABLE_POINTS,
            spec.geo.name(),
            spec.geo.points()
        );
    }
    let out = args.out.clone().unwrap_or_else(|| spec.default_path());
    if args.shards.is_some() || args.dist.wanted() {
        return run_sharded(&args, &spec, &out);
    }
    let (threads, table_mb) = build_resources(&args)?;
    let label = format!("table {} {}", spec.geo.name(), spec.rules_slug());
    let mode = if args.quiet { Mode::Quiet } else { Mode::detect() };
    let display = Arc::new(TableBuildProgress::new(&label, mode));
    let shown = display.clone();
    let opts = BuildOptions {
        threads,
        table_mb,
        symmetry: !args.no_symmetry,
        checkpoint_every: Duration::from_secs_f64(args.checkpoint_secs),
        stop_after: args.stop_after,
        time_limit: args.time_limit,
        abort: Some(interrupt_flag()),
        force: args.force,
        progress: Some(Arc::new(move |p| shown.update(p))),
    };
    let outcome = build(&spec, &out, &opts);
    display.finish();
    match outcome? {
        BuildOutcome::AlreadyComplete { entries } => {
            print_already_complete(args.json, &spec, &out, entries);
            Ok(())
        }
        BuildOutcome::Complete { entries, resumed, solved, nodes, seconds } => {
            print_complete(args.json, &spec, &out, (entries, resumed, solved, nodes), seconds)
        }
        BuildOutcome::Stopped { reason, done, total, solved, checkpoint, seconds } => {
            let why = match reason {
                StopReason::Interrupted => "interrupted",
                StopReason::TimeLimit => "time limit reached",
                StopReason::StopAfter => "stopped (--stop-after)",
            };
            bail!(
                "{}: {} of {} entries done ({} solved in {:.1} s) and saved in {}; run the same command again to resume",
                why,
                done,
                total,
                solved,
                seconds,
                checkpoint.display()
            )
        }
    }
}

/// `table build --shards K`: the shards run by workers, then assembled.
fn run_sharded(args: &BuildArgs, spec: &TableSpec, out: &Path) -> Result<()> {
    use gosolve::distributed::table::{build_sharded, ShardedBuild, ShardedOutcome};
    if args.stop_after.is_some() {
        bail!("--stop-after does not apply to a sharded build (stop it with Ctrl-C or --time-limit)");
    }
    if !(args.checkpoint_secs.is_finite() && args.checkpoint_secs >= 0.0) {
        bail!("--checkpoint-secs must be a non-negative number");
    }
    let shards = args.shards.unwrap_or_else(|| args.dist.workers_or_default(super::common::cores()));
    let workers = args.dist.workers_or_default(shards).min(shards);
    let threads = args.threads.max(1);
    let local = args.dist.kind() == gosolve::distributed::BackendKind::Local;
    // Each worker has one table for its shard's solves; local workers
    // split the machine's default between them, a cluster's workers take
    // their own machine's default (0).
    let table_mb = match args.table_mb {
        None | Some(0) if local => gosolve::search::machine_table_mb_shared(workers),
        None | Some(0) => 0,
        Some(mb) => mb,
    };
    if local {
        gosolve::limits::check_table_memory("--table-mb", table_mb, workers).map_err(|e| anyhow!("{}", e))?;
    }
    let mut work = out.as_os_str().to_os_string();
    work.push(".work");
    let mut setup = args.dist.setup(PathBuf::from(work), threads, shards, interrupt_flag());
    setup.backend.workers = workers;
    setup.run.deadline = args.time_limit.map(|t| std::time::Instant::now() + t);
    let b = ShardedBuild {
        shards,
        symmetry: !args.no_symmetry,
        table_mb,
        force: args.force,
        checkpoint_every: Duration::from_secs_f64(args.checkpoint_secs),
    };
    let label = format!("table {} {}", spec.geo.name(), spec.rules_slug());
    let mode = if args.quiet { Mode::Quiet } else { Mode::detect() };
    let display = Arc::new(UnitsProgress::new(&label, shards, mode));
    let outcome = build_sharded(spec, out, &b, &setup, display.clone());
    display.finish();
    match outcome.map_err(|e| anyhow!("{}", e))? {
        ShardedOutcome::AlreadyComplete { entries } => {
            print_already_complete(args.json, spec, out, entries);
            Ok(())
        }
        ShardedOutcome::Complete { entries, reused, solved, nodes, seconds } => {
            if args.json {
                println!(
                    "{}",
                    serde_json::to_string_pretty(&serde_json::json!({
                        "file": out.display().to_string(),
                        "status": "complete",
                        "board": spec.geo.name(),
                        "rules": spec.rules_slug(),
                        "entries": entries,
                        "shards": shards,
                        "shards_reused": reused,
                        "solved": solved,
                        "nodes": nodes,
                        "seconds": seconds,
                        "work_dir": setup.work_dir.display().to_string(),
                    }))?
                );
            } else {
                println!(
                    "wrote {}: {} entries ({} positions x 2 sides); {}",
                    out.display(),
                    entries,
                    entries / 2,
                    spec.describe()
                );
                println!(
                    "{} shards on {} worker(s): {} positions solved ({} nodes) in {:.2} s{}; work dir {}",
                    shards,
                    workers,
                    solved,
                    nodes,
                    seconds,
                    if reused > 0 { format!(", {} shard(s) answered by an earlier run", reused) } else { String::new() },
                    setup.work_dir.display()
                );
            }
            Ok(())
        }
        ShardedOutcome::Stopped { done, shards, time_limit } => bail!(
            "{}: {} of {} shards done, the others saved in their checkpoints in {}; run the same command again to resume",
            if time_limit { "time limit reached" } else { "interrupted" },
            done,
            shards,
            setup.work_dir.display()
        ),
    }
}

/// The build's threads and per-solve table size, checked before any solving:
/// a build that cannot fit in memory fails now with a clear error, not
/// minutes later with an abort.
fn build_resources(args: &BuildArgs) -> Result<(usize, usize)> {
    if !(args.checkpoint_secs.is_finite() && args.checkpoint_secs >= 0.0) {
        bail_usage!("--checkpoint-secs must be a non-negative number");
    }
    let threads = if args.threads == 0 { super::common::cores() } else { args.threads };
    // One table, shared by the build's solves.
    let table_mb = match args.table_mb {
        None | Some(0) => gosolve::search::machine_table_mb(),
        Some(mb) => mb,
    };
    gosolve::limits::check_table_memory("--table-mb", table_mb, 1).map_err(super::common::usage)?;
    Ok((threads, table_mb))
}

/// Report a completed build: the file written, the work done this run
/// (`counts`: entries, resumed, solved, nodes) and the peak memory.
/// The answer of a build whose output is already a complete table.
fn print_already_complete(json: bool, spec: &TableSpec, out: &Path, entries: u64) {
    if json {
        println!(
            "{}",
            serde_json::json!({"file": out.display().to_string(), "status": "already complete", "entries": entries})
        );
    } else {
        println!(
            "{} is already a complete table of {} ({} entries); use --force to rebuild",
            out.display(),
            spec.describe(),
            entries
        );
    }
}

fn print_complete(json: bool, spec: &TableSpec, out: &Path, counts: (u64, u64, u64, u64), seconds: f64) -> Result<()> {
    let (entries, resumed, solved, nodes) = counts;
    let peak = gosolve::process::peak_memory_mib();
    let bytes = std::fs::metadata(out).map(|m| m.len()).unwrap_or(0);
    if json {
        println!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({
                "file": out.display().to_string(),
                "status": "complete",
                "board": spec.geo.name(),
                "rules": spec.rules_slug(),
                "entries": entries,
                "resumed": resumed,
                "solved": solved,
                "nodes": nodes,
                "seconds": seconds,
                "solves_per_second": solved as f64 / seconds.max(1e-9),
                "entries_per_second": (entries - resumed) as f64 / seconds.max(1e-9),
                "bytes": bytes,
                "peak_memory_mib": peak,
            }))?
        );
    } else {
        println!(
            "wrote {}: {} entries ({} positions x 2 sides), {} bytes; {}",
            out.display(),
            entries,
            entries / 2,
            bytes,
            spec.describe()
        );
        println!(
            "solved {} positions ({} nodes) in {:.2} s{}{}",
            solved,
            nodes,
            seconds,
            if resumed > 0 { format!(", {} entries resumed from the checkpoint", resumed) } else { String::new() },
            peak.map(|m| format!(", peak memory {:.1} MiB", m)).unwrap_or_default()
        );
    }
    Ok(())
}

/// Open a table file for look-ups, with a one-line error (for a missing
/// file, the command that builds it: [`missing_table`]).
pub fn open_table(path: &Path) -> Result<TableFile> {
    if !path.exists() {
        bail!("{}", missing_table(path));
    }
    TableFile::open(path).map_err(|e| anyhow!("{}", e))
}

/// The line for a table file that does not exist: the command that builds
/// it, where its name says the board and rules (`<WxH>-<rules>.gtb`, the
/// build's default name), and where to read about its cost. The 4x4
/// table (1.3 GB) is not in the repository: it is built here.
pub fn missing_table(path: &Path) -> String {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    match spec_of_name(name) {
        Some(spec) => {
            let mut cmd = format!("gosolve table build {}", spec.geo.name());
            if spec.rules.suicide {
                cmd.push_str(" --suicide");
            }
            if spec.rules.superko == gosolve::Superko::Situational {
                cmd.push_str(" --superko situational");
            }
            if spec.rules.komi.0 != 0 {
                cmd.push_str(&format!(" --komi {}", spec.rules.komi));
            }
            if path != spec.default_path() {
                cmd.push_str(&format!(" --out {}", path.display()));
            }
            format!(
                "cannot read {}: no such file; build it with `{}` (resumable; times in results/tables.md)",
                path.display(),
                cmd
            )
        }
        None => format!(
            "cannot read {}: no such file; build a table with `gosolve table build WxH --out FILE`",
            path.display()
        ),
    }
}

/// The board and rules a table file's default name (`<WxH>-<rules>.gtb`,
/// [`TableSpec::default_path`]) stands for.
fn spec_of_name(name: &str) -> Option<TableSpec> {
    let stem = name.strip_suffix(".gtb")?;
    let (board, rules) = stem.split_once('-')?;
    let geo: Geometry = board.parse().ok()?;
    let (suicide, rest) = match rules {
        r if r.starts_with("NSTT") => (false, &r[4..]),
        r if r.starts_with("TT") => (true, &r[2..]),
        _ => return None,
    };
    let (superko, rest) = match rest.strip_prefix("-situational") {
        Some(r) => (gosolve::Superko::Situational, r),
        None => (gosolve::Superko::Positional, rest),
    };
    let komi = match rest.strip_prefix("-komi") {
        Some(k) => gosolve::Komi::from_f64(k.parse().ok()?)?,
        None if rest.is_empty() => gosolve::Komi(0),
        None => return None,
    };
    let spec = TableSpec { geo, rules: Rules { suicide, superko, komi } };
    (spec.default_path().file_name()? == name).then_some(spec)
}

fn run_query(args: QueryArgs) -> Result<()> {
    let table = open_table(&args.file)?;
    let spec = table.spec;
    let mut notes: Vec<String> = Vec::new();
    let rules = query_rules(&args, &spec)?;
    let (position, to_move) = if args.sgf.is_some() || args.moves.is_some() {
        position_from_game(&args, &spec, &rules, &mut notes)?
    } else {
        position_from_diagram(&args, &spec.geo)?
    };
    let entry = lookup(&args, &table, position, to_move)?;
    print_query(&args, &spec, &rules, (position, to_move), &entry, &notes)
}

/// The rules in force: the table's, with a given --komi (a constant shift of
/// every value); suicide and superko are what the table was solved under, so
/// asking for others is an error rather than a silently wrong answer.
fn query_rules(args: &QueryArgs, spec: &TableSpec) -> Result<Rules> {
    let rules = args.rules.over(spec.rules);
    if rules.suicide != spec.rules.suicide || rules.superko != spec.rules.superko {
        bail_usage!(
            "{} is a table of {}; it cannot answer under {} (only --komi may differ)",
            args.file.display(),
            spec.rules.name(),
            rules.name()
        );
    }
    Ok(rules)
}

/// The position reached by --sgf and/or --moves, replayed under the table's
/// rules. What the table cannot take into account (the SGF's own rules, the
/// history's superko bans, a finished game) is said in `notes`.
fn position_from_game(
    args: &QueryArgs,
    spec: &TableSpec,
    rules: &Rules,
    notes: &mut Vec<String>,
) -> Result<(Position, Color)> {
    let start = PositionArgs {
        board: if args.sgf.is_some() { None } else { Some(spec.geo.name()) },
        sgf: args.sgf.clone(),
        position: args.position.clone(),
        to: args.to.clone(),
        moves: args.moves.clone(),
    };
    if let Some(path) = &args.sgf {
        check_sgf(args, path, spec, notes)?;
    }
    // Replayed under the table's rules, so its moves are checked as the table's solves were.
    let forced = RuleArgs {
        suicide: spec.rules.suicide,
        no_suicide: !spec.rules.suicide,
        superko: Some(match spec.rules.superko {
            gosolve::Superko::Positional => super::common::SuperkoArg::Positional,
            gosolve::Superko::Situational => super::common::SuperkoArg::Situational,
        }),
        komi: Some(rules.komi),
    };
    let game: Game = start.load(&forced)?.game;
    if !game.moves.is_empty() {
        notes.push(format!(
            "this position is reached after {} moves; the table assumes no earlier history (superko bans from them are ignored)",
            game.moves.len()
        ));
    }
    if game.is_over() {
        notes.push("the game has already ended (two passes); the table gives the value if play went on".into());
    }
    Ok((game.position, game.to_move))
}

/// An SGF must be on the table's board; rules of its own that differ from
/// the table's are overridden, with a note.
fn check_sgf(args: &QueryArgs, path: &Path, spec: &TableSpec, notes: &mut Vec<String>) -> Result<()> {
    let g = super::common::read_sgf(path)?;
    if g.geo != spec.geo {
        bail_usage!(
            "{}: the SGF is on a {} board but {} is a table of {}",
            path.display(),
            g.geo.name(),
            args.file.display(),
            spec.geo.name()
        );
    }
    let sgf_rules = args.rules.over(g.rules);
    if sgf_rules.suicide != spec.rules.suicide || sgf_rules.superko != spec.rules.superko {
        notes.push(format!(
            "the SGF's rules ({}) differ from the table's ({}); the table's are used",
            g.rules.name(),
            spec.rules.name()
        ));
    }
    Ok(())
}

/// The position given as --position (and --to, Black by default); it must be
/// on the table's board and legal, as every table entry is.
fn position_from_diagram(args: &QueryArgs, geo: &Geometry) -> Result<(Position, Color)> {
    let Some(text) = &args.position else {
        bail_usage!("give --position \"ROWS\" (with --to b|w), --moves or --sgf FILE")
    };
    let pos = diagram::parse(geo, text)
        .map_err(|e| super::common::usage(format!("position is not on the table's board: {}", e)))?;
    if !pos.is_legal(geo) {
        bail_usage!("position {} is illegal: a block has no liberties", diagram::compact(geo, &pos));
    }
    Ok((pos, parse_color(args.to.as_deref().unwrap_or("b"))?))
}

/// The table's entry for the position; a missing one means a damaged file
/// or, in a checkpoint, a position not solved yet, and the error says which.
fn lookup(args: &QueryArgs, table: &TableFile, position: Position, to_move: Color) -> Result<Entry> {
    let geo = table.spec.geo;
    let Some(entry) = table.get(position, to_move).map_err(|e| anyhow!("{}", e))? else {
        if table.complete {
            bail!(
                "{} has no entry for {} with {} to move (the file is damaged)",
                args.file.display(),
                diagram::compact(&geo, &position),
                to_move.name()
            );
        }
        bail!(
            "{} is an incomplete table ({} of {} entries) without {} with {} to move yet; finish the build to query it",
            args.file.display(),
            table.count,
            table.total,
            diagram::compact(&geo, &position),
            to_move.name()
        );
    };
    Ok(entry)
}

/// Print a query's answer, as JSON or as text (the terminal is the CLI's).
fn print_query(
    args: &QueryArgs,
    spec: &TableSpec,
    rules: &Rules,
    (position, to_move): (Position, Color),
    entry: &Entry,
    notes: &[String],
) -> Result<()> {
    let geo = spec.geo;
    let komi = rules.komi;
    let v = entry.value_with_komi(komi);
    let best: Vec<String> = entry.best_moves().iter().map(|m| m.name(&geo)).collect();
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({
                "table": args.file.display().to_string(),
                "board": geo.name(),
                "rules": rules_json(rules),
                "position": diagram::compact(&geo, &position),
                "to_move": to_move.name(),
                "value": num(v),
                "value_without_komi": entry.value,
                "result": result_phrase(v),
                "best_moves": best,
                "history": "none (the table assumes no moves before this position)",
                "notes": notes,
            }))?
        );
    } else {
        println!("table {}: {}", args.file.display(), spec.describe());
        if rules.komi != spec.rules.komi {
            println!("komi {} given: values below are under it", rules.komi);
        }
        print!("{}", diagram::render(&geo, &position));
        println!("{} to move, no earlier history", to_move.name());
        println!("value: {} ({})", result_phrase(v), if v > 0.0 { format!("+{}", fmt_value(v)) } else { fmt_value(v) });
        println!("best moves: {}", best.join(" "));
        for n in notes {
            println!("note: {}", n);
        }
    }
    Ok(())
}

fn run_info(args: InfoArgs) -> Result<()> {
    let table = open_table(&args.file)?;
    let spec = table.spec;
    let geo = spec.geo;
    let bytes = HEADER_SIZE as u64 + ENTRY_SIZE as u64 * table.count;
    let empty = |c: Color| -> Result<Option<f64>> {
        Ok(table
            .get(gosolve::Position::EMPTY, c)
            .map_err(|e| anyhow!("{}", e))?
            .map(|e| e.value_with_komi(spec.rules.komi)))
    };
    let (empty_black, empty_white) = (empty(Color::Black)?, empty(Color::White)?);
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({
                "file": args.file.display().to_string(),
                "version": VERSION,
                "board": geo.name(),
                "rules": rules_json(&spec.rules),
                "complete": table.complete,
                "entries": table.count,
                "total": table.total,
                "bytes": bytes,
                "empty_black_to_move": empty_black.map(num),
                "empty_white_to_move": empty_white.map(num),
            }))?
        );
    } else {
        println!("{}: gosolve table, format version {}", args.file.display(), VERSION);
        println!("{}", spec.describe());
        println!(
            "{} of {} entries ({}), {} bytes, checksum ok",
            table.count,
            table.total,
            if table.complete { "complete" } else { "incomplete: a checkpoint, resume the build" },
            bytes
        );
        for (c, v) in [(Color::Black, empty_black), (Color::White, empty_white)] {
            if let Some(v) = v {
                println!("empty board, {} to move: {}", c.name(), result_phrase(v));
            }
        }
        let partial = partial_path(&args.file);
        if table.complete && partial.exists() {
            println!("note: a stale checkpoint {} is beside it", partial.display());
        }
    }
    Ok(())
}
