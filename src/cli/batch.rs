//! `gosolve batch`: run a manifest of solve jobs in parallel (the built-in
//! published set by default), keep one JSON result per job and a markdown
//! summary, and fail when a value disagrees with its published one.
//!
//! Also home of the interrupt handler shared with `gosolve table build`.

use anyhow::{anyhow, bail, Result};
use gosolve::batch::{run_batch, BatchObserver, BatchOptions, Manifest};
use gosolve::progress::{BatchProgress, Mode};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

#[derive(clap::Args)]
pub struct BatchArgs {
    /// Manifest file (TOML, or JSON when it ends in .json); default: the built-in published set.
    pub manifest: Option<PathBuf>,
    /// Where results go: <out-dir>/batch/<id>.json and <out-dir>/summary.md.
    #[arg(long, default_value = "results")]
    pub out_dir: PathBuf,
    /// Jobs run at once (0 = all cores).
    #[arg(long, default_value_t = 0)]
    pub jobs: usize,
    /// Search threads per job.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Transposition table size per job in MiB (0 = the solver's default).
    #[arg(long, default_value_t = 0)]
    pub table_mb: usize,
    /// Redo jobs that already have a result.
    #[arg(long)]
    pub force: bool,
    /// Print the built-in manifest and exit.
    #[arg(long)]
    pub print_default: bool,
    /// No progress output on stderr.
    #[arg(long, short)]
    pub quiet: bool,
}

/// The flag Ctrl-C and SIGTERM set (installed on first use). A second
/// signal exits at once.
pub fn interrupt_flag() -> Arc<AtomicBool> {
    static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    FLAG.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        let f = flag.clone();
        let installed = ctrlc::set_handler(move || {
            if f.swap(true, Ordering::SeqCst) {
                eprintln!("gosolve: interrupted again, exiting without saving");
                std::process::exit(130);
            }
            eprintln!("gosolve: interrupt: stopping and saving finished work (interrupt again to quit at once)");
        });
        if let Err(e) = installed {
            eprintln!("gosolve: warning: cannot handle interrupts ({}); an interrupt loses unsaved work", e);
        }
        flag
    })
    .clone()
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
    let mode = if args.quiet { Mode::Quiet } else { Mode::detect() };
    let display = Arc::new(BatchProgress::new(jobs.len(), mode));
    let opts = BatchOptions {
        out_dir: args.out_dir.clone(),
        jobs: args.jobs,
        threads: args.threads,
        table_mb: args.table_mb,
        force: args.force,
        abort: Some(interrupt_flag()),
    };
    let observer: Arc<dyn BatchObserver> = display.clone();
    let report = run_batch(&jobs, &opts, observer);
    display.finish();
    let report = report.map_err(|e| anyhow!("{}", e))?;
    print!("{}", report.summary);
    println!(
        "\n{} jobs: {} run, {} skipped (already done; --force redoes them), {} unsolved (limit); summary in {}",
        report.records.len(),
        report.ran,
        report.skipped,
        report.unsolved().len(),
        report.summary_path.display()
    );
    if report.interrupted {
        bail!("interrupted: finished jobs are saved in {}; run the same command again to do the rest", args.out_dir.join("batch").display());
    }
    let bad = report.disagreements();
    if !bad.is_empty() {
        bail!("{} job(s) disagree with the published value: {}", bad.len(), bad.join(", "));
    }
    Ok(())
}
