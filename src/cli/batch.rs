//! `gosolve batch`: run a manifest of solve jobs in parallel (the built-in
//! published set by default, or a built-in one by name), keep one JSON
//! result per job and a markdown summary, and fail when a value disagrees
//! with its published one and no explanation is given.

use super::common::{parse_node_limit, parse_seconds, parse_threads, DistArgs, TableMbArg};
use super::interrupt::interrupt_flag;
use super::progress::{BatchProgress, Mode};
use anyhow::{anyhow, bail, Result};
use gosolve::batch::{run_batch, BatchObserver, BatchOptions, Manifest};
use std::path::{Path, PathBuf};
use std::sync::Arc;

#[derive(clap::Args)]
pub struct BatchArgs {
    /// Manifest file (TOML, or JSON when it ends in .json), or the name of a
    /// built-in one: `default` (the published set, also when none is given),
    /// `rectangular` (every board of at most 30 points with 1 to 5 rows),
    /// `5x5-openings` (every first move on the empty 5x5 board) or
    /// `strip-openings` (every first move on the strips 1x16-1x20).
    /// A file named like a built-in one is read as ./NAME.
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
    /// Print the built-in manifest (the one named, e.g. `gosolve batch
    /// rectangular --print-default`; else the default set) and exit.
    #[arg(long, visible_alias = "print")]
    pub print_default: bool,
    /// Confirm every job's value a second way before it counts as solved (as
    /// a job's `confirm = true` does): the claims "value >= v" and "value <= v"
    /// each on a fresh table, and a value-only solve with another engine
    /// configuration.
    #[arg(long)]
    pub confirm: bool,
    /// Run only this job (by id; repeat for more). The others' records on
    /// disk still go into the summary.
    #[arg(long, value_name = "ID")]
    pub only: Vec<String>,
    /// No progress output on stderr.
    #[arg(long, short)]
    pub quiet: bool,
    /// Print one JSON object (every job's record and the counts) instead of the summary.
    #[arg(long)]
    pub json: bool,
    /// Keep each job's search memory in <out-dir>/checkpoints/<id>.ck while it
    /// runs (every 10 minutes, or ten times a save's own time where saves are
    /// long) and when it stops unsolved (limit, Ctrl-C): the
    /// next run resumes it, a value-only job from the bounds it proved.
    /// Each save also writes its trim (a few KB to MB, small enough to
    /// commit) to <out-dir>/seeds/<id>.ck, from which a run without the
    /// checkpoint (a fresh clone) resumes. Both removed once the job is
    /// solved. With --workers,
    /// a job that hits its limit is also sent again at once (up to --retries
    /// times), resuming from its checkpoint.
    #[arg(long)]
    pub checkpoints: bool,
    /// Run only what the summary's section "What the first moves prove"
    /// names as still needed: on each such first move's job, the one claim
    /// its position's value asks (e.g. "value <= +1" after 1x18 a2), in
    /// place of the job's value. Its record keeps the bound proved (the job
    /// stays unsolved); with --checkpoints it works in the job's checkpoint.
    /// Far cheaper than the moves' values where only the position's value
    /// is wanted. The other jobs are left as they are.
    #[arg(long, conflicts_with_all = ["force", "confirm"])]
    pub needed: bool,
    /// Distributed: each job a unit run by a worker process (default work
    /// dir: <out-dir>/work); records and summary as without.
    #[command(flatten)]
    pub dist: DistArgs,
}

pub fn run(args: BatchArgs) -> Result<()> {
    // A built-in manifest's name (a bare word, not a path).
    let built_in = match &args.manifest {
        None => Some("default"),
        Some(p) => p.to_str().and_then(|n| gosolve::batch::built_in(n).map(|_| n)),
    };
    if args.print_default {
        let Some((_, text)) = built_in.and_then(gosolve::batch::built_in) else {
            bail!("--print-default prints a built-in manifest ({}), not a file", built_in_names());
        };
        print!("{}", text);
        return Ok(());
    }
    let (manifest, name, base) = match (&args.manifest, built_in) {
        (_, Some(n)) => {
            let m = Manifest::named(n).expect("a built-in manifest");
            (m, format!("built-in manifest '{}'", n), PathBuf::from("."))
        }
        (Some(path), None) => {
            let m = Manifest::read(path).map_err(|e| anyhow!("{}", e))?;
            let base = path.parent().map(Path::to_path_buf).unwrap_or_default();
            (m, path.display().to_string(), base)
        }
        (None, None) => unreachable!("no manifest is the default one"),
    };
    let jobs = manifest.resolve(&name, &base).map_err(|e| anyhow!("{}", e))?;
    if jobs.is_empty() {
        bail!("{} has no jobs", name);
    }
    if let Some(id) = args.only.iter().find(|id| !jobs.iter().any(|j| &j.spec.id == *id)) {
        bail!("--only {}: {} has no job of that id", id, name);
    }
    let to_run = if args.only.is_empty() { jobs.len() } else { args.only.len() };
    let jobs_at_once = if args.dist.wanted() {
        args.dist.workers_or_default(to_run)
    } else if args.jobs == 0 {
        super::common::cores()
    } else {
        args.jobs
    }
    .min(to_run);
    let table_mb = match args.dist.kind() {
        // Each node's own default, where the workers run.
        gosolve::distributed::BackendKind::Slurm => args.table.table_mb.unwrap_or(0),
        gosolve::distributed::BackendKind::Local => args.table.checked(jobs_at_once)?,
    };
    // A destination that cannot be written fails now, not after the solving.
    gosolve::store::check_writable(&args.out_dir.join("summary.md"))
        .map_err(|e| anyhow!("cannot write results in {}: {}", args.out_dir.display(), e))?;
    let mode = if args.quiet { Mode::Quiet } else { Mode::detect() };
    let display = Arc::new(BatchProgress::new(to_run, mode));
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
        confirm: args.confirm,
        only: args.only.clone(),
        needed: args.needed,
        claims: Default::default(),
    };
    let observer: Arc<dyn BatchObserver> = display.clone();
    let report = if args.dist.wanted() {
        let threads = if args.threads == 0 { super::common::cores() } else { args.threads };
        let setup = args.dist.setup(args.out_dir.join("work"), threads, to_run, interrupt_flag());
        gosolve::distributed::batch::run_batch(&jobs, &base, &opts, observer, &setup).map_err(|e| anyhow!("{}", e))
    } else {
        run_batch(&jobs, &opts, observer).map_err(|e| anyhow!("{}", e))
    };
    display.finish();
    let report = report?;
    if args.needed {
        return needed_report(&report, args.json, &args.out_dir);
    }
    let unsolved = report.unsolved();
    if args.json {
        let records: Vec<&gosolve::batch::JobRecord> = report.records.iter().filter_map(|(_, r)| r.as_ref()).collect();
        println!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({
                "jobs": report.records.len(),
                "ran": report.ran,
                "skipped": report.skipped,
                "left_out": report.left_out,
                "explained_differences": report.explained_differences(),
                "contradicted": report.contradicted(),
                "kept_solved": report.kept_solved,
                "unsolved": unsolved,
                "unconfirmed": report.unconfirmed(),
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
        let unconfirmed = report.unconfirmed();
        if !unconfirmed.is_empty() {
            println!(
                "{} of the unsolved job(s) have their value, not yet confirmed a second way (a check hit its limit): {}",
                unconfirmed.len(),
                unconfirmed.join(", ")
            );
        }
        if report.left_out > 0 {
            println!("{} job(s) left out by --only (their records on disk are in the summary)", report.left_out);
        }
        let explained = report.explained_differences();
        if !explained.is_empty() {
            println!(
                "{} job(s) differ from the published value, explained in the summary: {}",
                explained.len(),
                explained.join(", ")
            );
        }
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
    let contradicted = report.contradicted();
    if !contradicted.is_empty() {
        bail!(
            "{} job(s) whose value a second way contradicts (a fault of the solver; see their records): {}",
            contradicted.len(),
            contradicted.join(", ")
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

/// What `--needed` did: each claim and where it stands; an error (non-zero
/// exit) where one is still open.
fn needed_report(report: &gosolve::batch::BatchReport, json: bool, out_dir: &Path) -> Result<()> {
    let said = |d: Option<bool>| match d {
        Some(true) => "holds",
        Some(false) => "fails",
        None => "open",
    };
    let open: Vec<&str> = report.claims.iter().filter(|c| c.2.is_none()).map(|c| c.0.as_str()).collect();
    if json {
        let claims: Vec<serde_json::Value> = report
            .claims
            .iter()
            .map(|(id, n, d)| serde_json::json!({"job": id, "claim": n.text(), "outcome": said(*d)}))
            .collect();
        println!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({
                "claims": claims,
                "interrupted": report.interrupted,
                "summary": report.summary_path.display().to_string(),
            }))?
        );
    } else {
        print!("{}", report.summary);
        if report.claims.is_empty() {
            println!(
                "\nNo claim is needed: each position's value is found from its first moves, or it has no bound from them yet (its moves' values come first)."
            );
        } else {
            println!();
            for (id, n, d) in &report.claims {
                println!("{id}: {} {}", n.text(), said(*d));
            }
            println!("summary in {}", report.summary_path.display());
        }
    }
    if report.interrupted {
        bail!(
            "interrupted: the claims decided are kept in {}; run the same command again to do the rest",
            out_dir.join("batch").display()
        );
    }
    if !open.is_empty() {
        bail!(
            "{} claim(s) open at the limit: {}; run the same command again to go on (with --checkpoints, from where they stopped)",
            open.len(),
            open.join(", ")
        );
    }
    Ok(())
}

/// The built-in manifests' names, for messages.
fn built_in_names() -> String {
    gosolve::batch::BUILT_IN.iter().map(|(n, _, _)| *n).collect::<Vec<_>>().join(", ")
}
