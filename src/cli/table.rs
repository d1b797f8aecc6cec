//! `gosolve table`: build the solved table of a board (every legal position,
//! each side to move), query a position in it, or describe a table file.

use super::batch::interrupt_flag;
use super::common::{parse_board, parse_color, RuleArgs};
use anyhow::{anyhow, bail, Context, Result};
use gosolve::format::{diagram, sgf};
use gosolve::position::{fmt_value, result_phrase};
use gosolve::progress::{Mode, TableBuildProgress};
use gosolve::table::{build, partial_path, BuildOptions, BuildOutcome, SolvedTable, StopReason, TableSpec, ENTRY_SIZE, HEADER_SIZE, VERSION};
use gosolve::{Color, Game};
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
    /// Positions solved at once (0 = all cores); each solve uses one thread.
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Transposition table of each solve, in MiB.
    #[arg(long, default_value_t = 16)]
    pub table_mb: usize,
    /// Stop after this many seconds, keeping the work done in the checkpoint (resume by running again).
    #[arg(long)]
    pub time_limit: Option<f64>,
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
}

#[derive(clap::Args)]
pub struct QueryArgs {
    /// The table file.
    pub file: PathBuf,
    /// The position, rows top to bottom (e.g. "X./.O").
    #[arg(long)]
    pub position: Option<String>,
    /// Player to move (b or w).
    #[arg(long, default_value = "b")]
    pub to: String,
    /// Look up the final position of this SGF's main line (its history is not used by the table).
    #[arg(long, conflicts_with = "position")]
    pub sgf: Option<String>,
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
    let spec = TableSpec { geo: parse_board(&args.board)?, rules: args.rules.rules()? };
    let out = args.out.clone().unwrap_or_else(|| spec.default_path());
    if !(args.checkpoint_secs.is_finite() && args.checkpoint_secs >= 0.0) {
        bail!("--checkpoint-secs must be a non-negative number");
    }
    let time_limit = match args.time_limit {
        Some(t) if !(t.is_finite() && t > 0.0) => bail!("--time-limit must be a positive number of seconds"),
        t => t.map(Duration::from_secs_f64),
    };
    let label = format!("table {} {}", spec.geo.name(), spec.rules_slug());
    let display = Arc::new(TableBuildProgress::new(&label, Mode::detect()));
    let shown = display.clone();
    let opts = BuildOptions {
        threads: args.threads,
        table_mb: args.table_mb,
        symmetry: !args.no_symmetry,
        checkpoint_every: Duration::from_secs_f64(args.checkpoint_secs),
        stop_after: args.stop_after,
        time_limit,
        abort: Some(interrupt_flag()),
        force: args.force,
        progress: Some(Arc::new(move |p| shown.update(p))),
    };
    let outcome = build(&spec, &out, &opts);
    display.finish();
    let outcome = outcome?;
    let peak = gosolve::batch::peak_memory_mib();
    match outcome {
        BuildOutcome::AlreadyComplete { entries } => {
            if args.json {
                println!("{}", serde_json::json!({"file": out.display().to_string(), "status": "already complete", "entries": entries}));
            } else {
                println!("{} is already a complete table of {} ({} entries); use --force to rebuild", out.display(), spec.describe(), entries);
            }
            Ok(())
        }
        BuildOutcome::Complete { entries, resumed, solved, seconds } => {
            let bytes = std::fs::metadata(&out).map(|m| m.len()).unwrap_or(0);
            if args.json {
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
                        "seconds": seconds,
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
                    "solved {} positions in {:.2} s{}{}",
                    solved,
                    seconds,
                    if resumed > 0 { format!(", {} entries resumed from the checkpoint", resumed) } else { String::new() },
                    peak.map(|m| format!(", peak memory {:.1} MiB", m)).unwrap_or_default()
                );
            }
            Ok(())
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

/// Read a table file, with a one-line error.
fn read_table(path: &Path) -> Result<SolvedTable> {
    SolvedTable::read(path).map_err(|e| anyhow!("{}", e))
}

fn run_query(args: QueryArgs) -> Result<()> {
    let table = read_table(&args.file)?;
    let spec = table.spec;
    let geo = spec.geo;
    let mut notes: Vec<String> = Vec::new();
    let (position, to_move) = if let Some(path) = &args.sgf {
        let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path))?;
        let g = sgf::read_game(&text).map_err(|e| anyhow!("{}: {}", path, e))?;
        if g.geo != geo {
            bail!("{}: the SGF is on a {} board but {} is a table of {}", path, g.geo.name(), args.file.display(), geo.name());
        }
        let game: Game = g.to_game(None).map_err(|e| anyhow!("{}: {}", path, e))?;
        if game.rules.suicide != spec.rules.suicide || game.rules.superko != spec.rules.superko || game.rules.komi != spec.rules.komi {
            notes.push(format!(
                "the SGF's rules ({}) differ from the table's ({}); the table's are used",
                game.rules.name(),
                spec.rules.name()
            ));
        }
        if !game.moves.is_empty() {
            notes.push(format!(
                "the SGF reaches this position after {} moves; the table assumes no earlier history (superko bans from them are ignored)",
                game.moves.len()
            ));
        }
        if game.is_over() {
            notes.push("the SGF's game has already ended (two passes); the table gives the value if play went on".into());
        }
        (game.position, game.to_move)
    } else {
        let Some(text) = &args.position else { bail!("give --position \"ROWS\" (with --to b|w) or --sgf FILE") };
        let pos = diagram::parse(&geo, text).map_err(|e| anyhow!("position is not on the table's board: {}", e))?;
        if !pos.is_legal(&geo) {
            bail!("position {} is illegal: a block has no liberties", diagram::compact(&geo, &pos));
        }
        (pos, parse_color(&args.to)?)
    };
    let Some(entry) = table.get(position, to_move) else {
        if table.complete {
            bail!("{} has no entry for {} with {} to move (the file is damaged)", args.file.display(), diagram::compact(&geo, &position), to_move.name());
        }
        bail!(
            "{} is an incomplete table ({} of {} entries) without {} with {} to move yet; finish the build to query it",
            args.file.display(),
            table.entries().len(),
            table.total,
            diagram::compact(&geo, &position),
            to_move.name()
        );
    };
    let komi = spec.rules.komi;
    let v = entry.value_with_komi(komi);
    let best: Vec<String> = entry.best_moves().iter().map(|m| m.name(&geo)).collect();
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({
                "table": args.file.display().to_string(),
                "board": geo.name(),
                "rules": {
                    "suicide": spec.rules.suicide,
                    "superko": spec.rules.superko.name(),
                    "komi": komi.as_f64(),
                },
                "position": diagram::compact(&geo, &position),
                "to_move": to_move.name(),
                "value": v,
                "value_without_komi": entry.value,
                "result": result_phrase(v),
                "best_moves": best,
                "history": "none (the table assumes no moves before this position)",
                "notes": notes,
            }))?
        );
    } else {
        println!("table {}: {}", args.file.display(), spec.describe());
        print!("{}", diagram::render(&geo, &position));
        println!("{} to move, no earlier history", to_move.name());
        println!("value: {} ({})", result_phrase(v), if v > 0.0 { format!("+{}", fmt_value(v)) } else { fmt_value(v) });
        println!("best moves: {}", best.join(" "));
        for n in &notes {
            println!("note: {}", n);
        }
    }
    Ok(())
}

fn run_info(args: InfoArgs) -> Result<()> {
    let table = read_table(&args.file)?;
    let spec = table.spec;
    let geo = spec.geo;
    let bytes = HEADER_SIZE + ENTRY_SIZE * table.entries().len();
    let empty = |c: Color| table.get(gosolve::Position::EMPTY, c).map(|e| e.value_with_komi(spec.rules.komi));
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({
                "file": args.file.display().to_string(),
                "version": VERSION,
                "board": geo.name(),
                "rules": {
                    "suicide": spec.rules.suicide,
                    "superko": spec.rules.superko.name(),
                    "komi": spec.rules.komi.as_f64(),
                },
                "complete": table.complete,
                "entries": table.entries().len(),
                "total": table.total,
                "bytes": bytes,
                "empty_black_to_move": empty(Color::Black),
                "empty_white_to_move": empty(Color::White),
            }))?
        );
    } else {
        println!("{}: gosolve table, format version {}", args.file.display(), VERSION);
        println!("{}", spec.describe());
        println!(
            "{} of {} entries ({}), {} bytes, checksum ok",
            table.entries().len(),
            table.total,
            if table.complete { "complete" } else { "incomplete: a checkpoint, resume the build" },
            bytes
        );
        for c in [Color::Black, Color::White] {
            if let Some(v) = empty(c) {
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
