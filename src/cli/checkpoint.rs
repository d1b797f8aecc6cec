//! `gosolve checkpoint merge A B ... -o C`: the exact merge of checkpoints
//! (see `gosolve::tables::merge`), as the distributed solve does between
//! its rounds; `gosolve checkpoint info F`: what a checkpoint holds.

use super::common::parse_count;
use anyhow::{anyhow, Result};
use gosolve::format::diagram;
use gosolve::format::numbers::{self, group_digits};
use gosolve::search::memory::SavedRoot;
use gosolve::tables::checkpoint;
use gosolve::tables::merge::{merge_keeping, Keep};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct CheckpointArgs {
    #[command(subcommand)]
    pub command: CheckpointCommand,
}

#[derive(clap::Subcommand)]
pub enum CheckpointCommand {
    /// Merge checkpoints of one board and rules into one: every result kept
    /// with the history conditions under which it holds (duplicates once);
    /// with --min-work or --no-guide-numbers (one input or more), a trimmed
    /// copy.
    Merge(MergeArgs),
    /// What a checkpoint holds: its board and rules, results, guide numbers,
    /// and the bounds proved on each root's value; the whole file is read
    /// and every chunk's checksum checked (no table is built).
    Info(InfoArgs),
}

#[derive(clap::Args)]
pub struct InfoArgs {
    /// The checkpoint file.
    pub file: PathBuf,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(clap::Args)]
pub struct MergeArgs {
    /// The checkpoints, most valuable first (where a bucket of the table
    /// overflows, the result read first stays).
    #[arg(required = true, num_args = 1..)]
    pub inputs: Vec<PathBuf>,
    /// The merged checkpoint (written atomically; may be one of the inputs).
    #[arg(long, short = 'o', value_name = "FILE")]
    pub out: PathBuf,
    /// Size of the merged table in MiB (default: enough for every input).
    #[arg(long, value_name = "MIB", allow_hyphen_values = true, value_parser = parse_count)]
    pub table_mb: Option<usize>,
    /// Keep only the results with at least N nodes of work behind them (N
    /// rounded down to a power of two, as the table ranks them), and the
    /// roots' bounds: a trimmed checkpoint, far smaller, to carry to another
    /// machine (a result left out only costs the work of proving it again).
    #[arg(long, value_name = "N", allow_hyphen_values = true, value_parser = parse_count)]
    pub min_work: Option<usize>,
    /// Leave out the guide numbers (df-pn's proof and disproof numbers:
    /// they only order the search).
    #[arg(long)]
    pub no_guide_numbers: bool,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// No notes on stderr.
    #[arg(long, short)]
    pub quiet: bool,
}

pub fn run(args: CheckpointArgs) -> Result<()> {
    match args.command {
        CheckpointCommand::Merge(a) => run_merge(a),
        CheckpointCommand::Info(a) => run_info(a),
    }
}

fn run_info(args: InfoArgs) -> Result<()> {
    let c = checkpoint::begin_any(&args.file).and_then(|r| r.contents()).map_err(|e| anyhow!("{}", e))?;
    let to_move = |r: &SavedRoot| match r.root.passes() {
        0 => format!("{} to move", r.root.to_move().title()),
        _ => format!("{} to move after a pass", r.root.to_move().title()),
    };
    if args.json {
        let roots: Vec<serde_json::Value> = c
            .roots
            .iter()
            .map(|r| {
                serde_json::json!({
                    "position": diagram::compact(&c.geo, &r.root.position()),
                    "to_move": r.root.to_move().name(),
                    "passes": r.root.passes(),
                    "situations": r.root.situations(),
                    "at_least": r.lower,
                    "at_most": r.upper,
                })
            })
            .collect();
        println!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({
                "file": args.file.display().to_string(),
                "version": c.version,
                "board": c.geo.name(),
                "suicide": c.rules.suicide,
                "superko": c.rules.superko.name(),
                "bytes": c.bytes,
                "table_mb": c.table_mb,
                "table_bytes": c.table_bytes,
                "results": c.results,
                "guide_numbers": c.numbers,
                "roots": roots,
                "seconds": c.seconds,
            }))?
        );
        return Ok(());
    }
    println!(
        "{}: checkpoint of {} (format version {}), whole: every chunk's checksum holds",
        args.file.display(),
        checkpoint::describe(&c.geo, c.rules.suicide, c.rules.superko),
        c.version
    );
    println!(
        "  {} bytes: {} results, {} guide numbers; written with a {} MiB table ({} MiB of it in use); read in {:.1} s",
        group_digits(c.bytes as u128),
        group_digits(c.results as u128),
        group_digits(c.numbers as u128),
        group_digits(c.table_mb as u128),
        group_digits((c.table_bytes >> 20) as u128),
        c.seconds
    );
    if c.roots.is_empty() {
        println!("  no bounds proved on a root's value");
    }
    for r in &c.roots {
        let said = numbers::bounds(r.lower.map(f64::from), r.upper.map(f64::from)).unwrap_or_else(|| "open".into());
        println!(
            "  {}, {}, a history of {} situation{}: value {said} (komi 0)",
            diagram::compact(&c.geo, &r.root.position()),
            to_move(r),
            r.root.situations(),
            if r.root.situations() == 1 { "" } else { "s" }
        );
    }
    Ok(())
}

fn run_merge(args: MergeArgs) -> Result<()> {
    let keep = Keep { guide_numbers: !args.no_guide_numbers, ..Keep::min_work(args.min_work.unwrap_or(0) as u64) };
    let m = merge_keeping(&args.inputs, &args.out, args.table_mb, keep).map_err(|e| anyhow!("{}", e))?;
    if args.json {
        let inputs: Vec<serde_json::Value> = m
            .inputs
            .iter()
            .map(|i| {
                serde_json::json!({
                    "file": i.path.display().to_string(),
                    "results": i.results,
                    "kept": i.kept,
                    "duplicates": i.duplicates,
                    "dropped": i.dropped,
                    "trimmed": i.trimmed,
                    "guide_numbers": i.numbers,
                })
            })
            .collect();
        println!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({
                "out": args.out.display().to_string(),
                "inputs": inputs,
                "results": m.written.results,
                "guide_numbers": m.written.numbers,
                "bytes": m.written.bytes,
                "table_mb": m.table_mb,
                "duplicates": m.duplicates(),
                "dropped": m.dropped(),
                "trimmed": m.trimmed(),
                "displaced": m.displaced,
                "seconds": m.seconds,
            }))?
        );
    } else {
        for i in &m.inputs {
            let trimmed = match keep.min_rank {
                0 => String::new(),
                _ => format!(", {} below --min-work", group_digits(i.trimmed as u128)),
            };
            println!(
                "{}: {} results ({} kept, {} duplicates, {} gave way{trimmed}), {} guide numbers",
                i.path.display(),
                group_digits(i.results as u128),
                group_digits(i.kept as u128),
                group_digits(i.duplicates as u128),
                group_digits(i.dropped as u128),
                group_digits(i.numbers as u128)
            );
        }
        println!(
            "wrote {}: {} results, {} guide numbers, {} bytes (table {} MiB) in {:.1} s",
            args.out.display(),
            group_digits(m.written.results as u128),
            group_digits(m.written.numbers as u128),
            group_digits(m.written.bytes as u128),
            m.table_mb,
            m.seconds
        );
        if m.dropped() + m.displaced > 0 && !args.quiet {
            eprintln!(
                "gosolve: note: {} results gave way to deeper ones where a bucket of the table had no room for more",
                m.dropped() + m.displaced
            );
        }
    }
    Ok(())
}
