//! `gosolve gtp`: the GTP engine on stdin/stdout (protocol in `gosolve::gtp`).

use super::common::RuleArgs;
use anyhow::{bail, Context, Result};
use gosolve::gtp::{serve, Config, Engine};
use gosolve::table::SolvedTable;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

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
    #[arg(long, default_value_t = 10.0, value_name = "S")]
    pub time_per_move: f64,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 256)]
    pub table_mb: usize,
    /// Worker threads (0 = all cores).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
}

pub fn run(args: GtpArgs) -> Result<()> {
    if !(args.time_per_move.is_finite() && args.time_per_move >= 0.0) {
        bail!("--time-per-move {} is not a number of seconds >= 0", args.time_per_move);
    }
    let table = match &args.table {
        Some(p) => Some(Arc::new(SolvedTable::read(p).map_err(|e| anyhow::anyhow!("{}", e))?)),
        None => None,
    };
    let config = Config {
        rules: args.rules.rules()?,
        time_per_move: (args.time_per_move > 0.0).then(|| Duration::from_secs_f64(args.time_per_move)),
        table_mb: args.table_mb,
        threads: args.threads,
        table,
    };
    let mut engine = Engine::new(config);
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    serve(&mut engine, std::io::BufReader::new(std::io::stdin()), &mut stdout.lock(), &mut stderr.lock())
        .context("GTP input/output failed")
}
