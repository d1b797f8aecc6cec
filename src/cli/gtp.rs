//! `gosolve gtp`: the GTP engine on stdin/stdout (protocol in `gosolve::gtp`).

use super::common::{checkpoint_read_line, parse_threads, RuleArgs, TableMbArg};
use anyhow::{Context, Result};
use gosolve::format::numbers::group_digits;
use gosolve::gtp::{serve, Config, Engine};
use gosolve::tables::checkpoint;
use std::path::PathBuf;
use std::sync::Arc;

#[derive(clap::Args)]
#[command(after_help = "Attach to a GUI as the engine command, e.g. `gosolve gtp --time-per-move 5`.\n\
    Rules: the rule flags give the rules games start under (default NSTT: no suicide, positional superko,\n\
    komi 0); during play kata-set-rules tromp-taylor|nstt|nz|aga[-positional|-situational] and komi\n\
    change them; loadsgf replays a file's moves under them (its RU and KM are not read).\n\
    Perfect play on the empty 5x5 board from its proof's checkpoint (scripts/moonshot.sh):\n  \
    gosolve gtp --checkpoint moonshot.ck --table-mb 12288")]
pub struct GtpArgs {
    #[command(flatten)]
    pub rules: RuleArgs,
    /// Answer from this solved table (`gosolve table build`) where its value is exact.
    #[arg(long, value_name = "FILE")]
    pub table: Option<PathBuf>,
    /// Seconds one genmove may spend (0: solve to the end); time_left may shorten it.
    #[arg(long, default_value_t = 10.0, value_name = "S", allow_hyphen_values = true)]
    pub time_per_move: f64,
    /// A solve's checkpoint (`solve --checkpoint FILE`): games on its board
    /// and rules of play start from what it proved, in a table of
    /// --table-mb's size, until a search on another board or rules replaces
    /// it; read only, never written. E.g. perfect play on the empty 5x5
    /// board from the checkpoint of its proof (scripts/moonshot.sh).
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
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
        t => Some(gosolve::limits::seconds(t).map_err(|e| super::common::usage(format!("--time-per-move: {}", e)))?),
    };
    let table_mb = args.table_mb.checked(1)?;
    let table = match &args.table {
        Some(p) => Some(Arc::new(super::table::open_table(p)?)),
        None => None,
    };
    let config = Config { rules: args.rules.rules()?, time_per_move, table_mb, threads: args.threads, table };
    let mut engine = Engine::new(config);
    if let Some(path) = &args.checkpoint {
        // The header now, so that a file that cannot serve is refused at
        // the start; the results on their own thread while GTP answers.
        let reading = checkpoint::begin_any(path)?;
        eprintln!(
            "gosolve: checkpoint {}: {} {}, {} bytes, read while the engine answers; the first search waits for it",
            path.display(),
            reading.geo(),
            reading.rules().name(),
            group_digits(reading.bytes() as u128)
        );
        let at = path.clone();
        let read = std::thread::Builder::new()
            .name("checkpoint-read".into())
            .spawn(move || {
                let (memory, summary) = reading.finish(table_mb).map_err(|e| e.to_string())?;
                Ok((memory, checkpoint_read_line(&at, &summary)))
            })
            .context("cannot start the checkpoint's read")?;
        engine.hold_memory_when_read(read, path.display().to_string());
    }
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    serve(&mut engine, std::io::BufReader::new(std::io::stdin()), &mut stdout.lock(), &mut stderr.lock())
        .context("GTP input/output failed")?;
    match engine.failure() {
        Some(e) => Err(anyhow::anyhow!(e)),
        None => Ok(()),
    }
}
