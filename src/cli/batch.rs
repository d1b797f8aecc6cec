//! `gosolve batch`: run a manifest of solve jobs in parallel (the built-in
//! published set by default), keep one JSON result per job and a markdown
//! summary, and fail when a value disagrees with its published one.

use super::common::{parse_node_limit, parse_seconds, parse_threads, DistArgs, TableMbArg};
use super::interrupt::interrupt_flag;
use super::progress::{BatchProgress, Mode};
use anyhow::{anyhow, bail, Result};
use gosolve::batch::{run_batch, BatchObserver, BatchOptions, Manifest};
use std::path::{Path, PathBuf};
use std::sync::Arc;

#[derive(clap::Args)]
pub struct BatchArgs {
    /// Manifest file (TOML, or JSON when it ends in .json); default: the built-in published set.
    pub manifest: Option<PathBuf>,
    /// Where results go: <out-dir>/batch/<id>.json and <out-dir>/summary.md. The
    /// default, out/, is not tracked by git; `--out-dir results` refreshes the
    /// committed record.
    #[arg(long, default_value = "out")]
    pub out_dir: PathBuf,
    /// Jobs run at once in this process (0 = one per core; at most 4 per
    /// core). With --workers, each job is a unit run by a worker instead.
    #[arg(long, default_value_t = 0, value_parser = parse_threads, conflicts_with_all = ["workers", "backend"])]
    pub jobs: usize,
    /// Search threads per job (0 = one per core; at most 4 per core).
    #[arg(long, default_value_t = 1, value_parser = parse_threads)]
    pub threads: usize,
    /// Give up on each job after this many seconds, in place of the manifest's
    /// time limits (more than 0, at most 1e9; default: each job's own).
    #[arg(long, value_name = "SECONDS", allow_hyphen_values = true, value_parser = parse_seconds)]
    pub time_limit: Option<std::time::Duration>,
    /// Give up on each job after this many nodes, in place of the manifest's
    /// node limits (at least 1; default: each job's own).
    #[arg(long, value_name = "N", allow_hyphen_values = true, value_parser = parse_node_limit)]
    pub node_limit: Option<u64>,
    #[command(flatten)]
    pub table: TableMbArg,
    /// Redo jobs that already have a solved result (a solved record is still
    /// never replaced by an unsolved one; unsolved jobs are always retried).
    #[arg(long)]
    pub force: bool,
    /// Print the built-in manifest and exit.
    #[arg(long)]
    pub print_default: bool,
    /// No progress output on stderr.
    #[arg(long, short)]
    pub quiet: bool,
    /// Print one JSON object (every job's record and the counts) instead of the summary.
    #[arg(long)]
    pub json: bool,
    /// Keep each job's search memory in <out-dir>/checkpoints/<id>.ck while it
    /// runs (every 10 minutes) and when it stops unsolved (limit, Ctrl-C): the
    /// next run resumes it. Removed once the job is solved. With --workers,
    /// a job that hits its limit is also sent again at once (up to --retries
    /// times), resuming from its checkpoint.
    #[arg(long)]
    pub checkpoints: bool,
    /// Distributed: each job a unit run by a worker process (default work
    /// dir: <out-dir>/work); records and summary as without.
    #[command(flatten)]
    pub dist: DistArgs,
}

pub fn run(args: BatchArgs) -> Result<()> {
    if args.print_default {
        print!("{}", gosolve::batch::DEFAULT_MANIFEST);
        return Ok(());
    }
    let (manifest, name, base) = match &args.manifest {
        Some(path) => {
            let m = Manifest::read(path).map_err(|e| anyhow!("{}", e))?;
            let base = path.parent().map(Path::to_path_buf).unwrap_or_default();
            (m, path.display().to_string(), base)
        }
        None => (Manifest::default_manifest(), "built-in manifest".to_string(), PathBuf::from(".")),
    };
    let jobs = manifest.resolve(&name, &base).map_err(|e| anyhow!("{}", e))?;
    if jobs.is_empty() {
        bail!("{} has no jobs", name);
    }
    let jobs_at_once = if args.dist.wanted() {
        args.dist.workers_or_default(jobs.len())
    } else if args.jobs == 0 {
        super::common::cores()
    } else {
        args.jobs
    }
    .min(jobs.len());
    let table_mb = match args.dist.kind() {
        // Each node's own default, where the workers run.
        gosolve::distributed::BackendKind::Slurm => args.table.table_mb.unwrap_or(0),
        gosolve::distributed::BackendKind::Local => args.table.checked(jobs_at_once)?,
    };
    // A destination that cannot be written fails now, not after the solving.
    gosolve::store::check_writable(&args.out_dir.join("summary.md"))
        .map_err(|e| anyhow!("cannot write results in {}: {}", args.out_dir.display(), e))?;
    let mode = if args.quiet { Mode::Quiet } else { Mode::detect() };
    let display = Arc::new(BatchProgress::new(jobs.len(), mode));
    let opts = BatchOptions {
        out_dir: args.out_dir.clone(),
        jobs: args.jobs,
        threads: args.threads,
        table_mb,
        force: args.force,
        time_limit: args.time_limit,
        node_limit: args.node_limit,
        abort: Some(interrupt_flag()),
        checkpoints: args.checkpoints,
        checkpoint_every: None,
    };
    let observer: Arc<dyn BatchObserver> = display.clone();
    let report = if args.dist.wanted() {
        let threads = if args.threads == 0 { super::common::cores() } else { args.threads };
        let setup = args.dist.setup(args.out_dir.join("work"), threads, jobs.len(), interrupt_flag());
        gosolve::distributed::batch::run_batch(&jobs, &base, &opts, observer, &setup).map_err(|e| anyhow!("{}", e))
    } else {
        run_batch(&jobs, &opts, observer).map_err(|e| anyhow!("{}", e))
    };
    display.finish();
    let report = report?;
    let unsolved = report.unsolved();
    if args.json {
        let records: Vec<&gosolve::batch::JobRecord> = report.records.iter().filter_map(|(_, r)| r.as_ref()).collect();
        println!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({
                "jobs": report.records.len(),
                "ran": report.ran,
                "skipped": report.skipped,
                "kept_solved": report.kept_solved,
                "unsolved": unsolved,
                "disagree": report.disagreements(),
                "interrupted": report.interrupted,
                "summary": report.summary_path.display().to_string(),
                "records": records,
            }))?
        );
    } else {
        print!("{}", report.summary);
        println!(
            "\n{} jobs: {} solved now, {} already solved by an earlier run (their times are from the date shown; --force redoes them), {} unsolved (limit); summary in {}",
            report.records.len(),
            report.ran - unsolved.len().min(report.ran),
            report.skipped,
            unsolved.len(),
            report.summary_path.display()
        );
        if report.kept_solved > 0 {
            println!("{} job(s) hit their limit this time; their earlier solved records were kept", report.kept_solved);
        }
    }
    if report.interrupted {
        bail!(
            "interrupted: finished jobs are saved in {}; run the same command again to do the rest",
            args.out_dir.join("batch").display()
        );
    }
    let bad = report.disagreements();
    if !bad.is_empty() {
        bail!("{} job(s) disagree with the published value: {}", bad.len(), bad.join(", "));
    }
    if !unsolved.is_empty() {
        bail!(
            "{} job(s) unsolved (limit): {}; run the same command again to retry them (a longer time_limit, in the manifest or as --time-limit, may be needed)",
            unsolved.len(),
            unsolved.join(", ")
        );
    }
    Ok(())
}
