//! `gosolve checkpoint merge A B ... -o C`: the exact merge of checkpoints
//! (see `gosolve::tables::merge`), as the distributed solve does between
//! its rounds.

use super::common::parse_count;
use anyhow::{anyhow, Result};
use gosolve::format::numbers::group_digits;
use gosolve::tables::merge::merge;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct CheckpointArgs {
    #[command(subcommand)]
    pub command: CheckpointCommand,
}

#[derive(clap::Subcommand)]
pub enum CheckpointCommand {
    /// Merge checkpoints of one board and rules into one: every result kept
    /// with the history conditions under which it holds (duplicates once).
    Merge(MergeArgs),
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
    }
}

fn run_merge(args: MergeArgs) -> Result<()> {
    let m = merge(&args.inputs, &args.out, args.table_mb).map_err(|e| anyhow!("{}", e))?;
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
                "displaced": m.displaced,
                "seconds": m.seconds,
            }))?
        );
    } else {
        for i in &m.inputs {
            println!(
                "{}: {} results ({} kept, {} duplicates, {} gave way), {} guide numbers",
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
