//! `gosolve gtp`: the GTP engine on stdin/stdout (protocol in `gosolve::gtp`).

use super::common::{parse_threads, RuleArgs, TableMbArg};
use anyhow::{Context, Result};
use gosolve::gtp::{serve, Config, Engine};
use gosolve::tables::SolvedTable;
use std::path::PathBuf;
use std::sync::Arc;

#[derive(clap::Args)]
#[command(after_help = "Attach to a GUI as the engine command, e.g. `gosolve gtp --time-per-move 5`.\n\
    Rules by name during play: kata-set-rules tromp-taylor|nstt|nz|aga[-positional|-situational].")]
pub struct GtpArgs {
    #[command(flatten)]
    pub rules: RuleArgs,
    /// Answer from this solved table (`gosolve table build`) where its value is exact.
    #[arg(long, value_name = "FILE")]
    pub table: Option<PathBuf>,
    /// Seconds one genmove may spend (0: solve to the end); time_left may shorten it.
    #[arg(long, default_value_t = 10.0, value_name = "S", allow_hyphen_values = true)]
    pub time_per_move: f64,
    #[command(flatten)]
    pub table_mb: TableMbArg,
    /// Worker threads (0 = one per core; at most 4 per core).
    #[arg(long, default_value_t = 0, value_parser = parse_threads)]
    pub threads: usize,
}

pub fn run(args: GtpArgs) -> Result<()> {
    // 0 means no limit; anything else must be a time a Duration can hold.
    let time_per_move = match args.time_per_move {
        0.0 => None,
        t => Some(gosolve::limits::seconds(t).map_err(|e| anyhow::anyhow!("--time-per-move: {}", e))?),
    };
    let table_mb = args.table_mb.checked(1)?;
    let table = match &args.table {
        Some(p) => Some(Arc::new(SolvedTable::read(p).map_err(|e| anyhow::anyhow!("{}", e))?)),
        None => None,
    };
    let config = Config { rules: args.rules.rules()?, time_per_move, table_mb, threads: args.threads, table };
    let mut engine = Engine::new(config);
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    serve(&mut engine, std::io::BufReader::new(std::io::stdin()), &mut stdout.lock(), &mut stderr.lock())
        .context("GTP input/output failed")
}
