//! `gosolve worker UNITFILE`: run one unit of distributed work (what the
//! managers of `--workers` start, here or as Slurm tasks) and write its
//! answer next to it; `gosolve worker --probe FILE` only writes who it is
//! (the manager's check of a cluster's nodes).
//!
//! `gosolve worker --serve WORK --slot NAME` is a long-lived worker: it
//! runs the units the manager puts in `WORK/workers/NAME/inbox/`, keeping
//! its table between the claims of a solve, until asked to stop.
//!
//! Exit status: 0 an answer was written (a long-lived worker: it stopped
//! when asked); 3 the unit was refused (another
//! version or table format; the answer says so); 75 stopped by a signal
//! (the unit's checkpoint saved, no answer); 1 the unit could not be read
//! or the answer not written.

use super::interrupt::interrupt_flag;
use anyhow::{anyhow, bail, Result};
use gosolve::distributed::worker::{probe, run_unit_file, serve, WorkerEnd};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct WorkerArgs {
    /// The unit file (WORK/units/<id>.json); its answer goes to WORK/answers/<id>.json.
    #[arg(required_unless_present_any = ["probe", "serve"])]
    pub unit: Option<PathBuf>,
    /// Serve the units given to slot --slot of this work dir, one after another, until asked to stop.
    #[arg(long, value_name = "WORK", conflicts_with_all = ["unit", "probe"], requires = "slot")]
    pub serve: Option<PathBuf>,
    /// The slot a --serve worker takes its units from (WORK/workers/NAME/inbox/).
    #[arg(long, value_name = "NAME", requires = "serve")]
    pub slot: Option<String>,
    /// Only write this worker's version and host to FILE (atomically) and exit.
    #[arg(long, value_name = "FILE", conflicts_with = "unit")]
    pub probe: Option<PathBuf>,
}

pub fn run(args: WorkerArgs) -> Result<()> {
    if let Some(file) = &args.probe {
        return probe(file).map_err(|e| anyhow!("{}", e));
    }
    let log = |line: &str| eprintln!("{} {}", gosolve::process::utc_now(), line);
    if let (Some(dir), Some(slot)) = (&args.serve, &args.slot) {
        let status = serve(dir, slot, interrupt_flag(), &log).map_err(|e| anyhow!("{}", e))?;
        if status != 0 {
            std::process::exit(status);
        }
        return Ok(());
    }
    let Some(unit) = &args.unit else { bail!("give a unit file") };
    match run_unit_file(unit, interrupt_flag(), &log).map_err(|e| anyhow!("{}", e))? {
        WorkerEnd::Answered(_) => Ok(()),
        end @ WorkerEnd::Refused(_) | end @ WorkerEnd::Interrupted => {
            if let WorkerEnd::Refused(why) = &end {
                eprintln!("gosolve: error: {}", why);
            }
            std::process::exit(end.exit_status());
        }
    }
}
