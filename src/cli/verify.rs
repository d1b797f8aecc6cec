//! `gosolve verify DIR [--workers N] [--backend local|slurm]`: check the
//! proof a distributed solve left in its work dir
//! (`gosolve::distributed::solve::verify`): the tree's logic by the rules,
//! every worker's leaf proved again by another engine configuration.

use super::common::{parse_threads, DistArgs, LimitArgs};
use super::interrupt::interrupt_flag;
use anyhow::{anyhow, Result};
use gosolve::distributed::solve::{verify, VerifyOptions};
use gosolve::distributed::{BackendKind, Observer};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

#[derive(clap::Args)]
pub struct VerifyArgs {
    /// The work dir of a finished distributed solve (it holds proof.sgf);
    /// also --work-dir.
    pub dir: Option<PathBuf>,
    /// Prove the workers' leaves again with df-pn (the path symmetry off)
    /// instead of the alpha-beta alone (faster on large leaves).
    #[arg(long)]
    pub df_pn: bool,
    /// Threads of each worker.
    #[arg(long, default_value_t = 1, value_parser = parse_threads)]
    pub threads: usize,
    /// --node-limit: each leaf's budget (a leaf not proved within it fails
    /// the check); --time-limit: the whole check's.
    #[command(flatten)]
    pub limits: LimitArgs,
    #[command(flatten)]
    pub dist: DistArgs,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// No notes on stderr.
    #[arg(long, short)]
    pub quiet: bool,
}

/// Notes on stderr unless quiet.
struct Notes(bool);
impl Observer for Notes {
    fn unit_retried(&self, id: &str, why: &str) {
        if !self.0 {
            eprintln!("gosolve: unit {id}: {why}; running it again");
        }
    }
    fn note(&self, line: &str) {
        if !self.0 {
            eprintln!("gosolve: {line}");
        }
    }
}

pub fn run(args: VerifyArgs) -> Result<()> {
    let dir = match (&args.dir, &args.dist.work_dir) {
        (Some(a), Some(b)) if a != b => bail_usage!("give the work dir once (DIR or --work-dir)"),
        (Some(d), _) | (None, Some(d)) => d.clone(),
        (None, None) => bail_usage!("give the work dir of a distributed solve (gosolve verify DIR)"),
    };
    let kind = args.dist.kind();
    let workers = args.dist.workers.unwrap_or(match kind {
        BackendKind::Local => super::common::cores(),
        BackendKind::Slurm => 16,
    });
    let table_mb = match kind {
        BackendKind::Slurm => args.limits.table.table_mb.unwrap_or(0),
        BackendKind::Local => args.limits.table.checked(workers)?,
    };
    let mut setup = args.dist.setup(dir.clone(), args.threads, workers, interrupt_flag());
    setup.backend.workers = workers;
    setup.run.deadline = args.limits.time_limit.map(|t| Instant::now() + t);
    let opts = VerifyOptions { df_pn: args.df_pn, threads: args.threads, table_mb, node_limit: args.limits.node_limit };
    let r = verify(&dir, &setup, &opts, Arc::new(Notes(args.quiet))).map_err(|e| anyhow!("{}", e))?;
    let engine = if args.df_pn { "df-pn" } else { "alpha-beta" };
    if args.json {
        let statements: Vec<serde_json::Value> = r
            .statements
            .iter()
            .map(|s| {
                serde_json::json!({
                    "claim": s.claim, "nodes": s.nodes, "and_nodes": s.and_nodes, "or_nodes": s.or_nodes,
                    "over_leaves": s.over_leaves, "static_leaves": s.static_leaves, "worker_leaves": s.worker_leaves,
                })
            })
            .collect();
        println!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({
                "proof": dir.join("proof.sgf").display().to_string(),
                "verified": true,
                "statements": statements,
                "reproved": r.reproved,
                "engine": engine,
                "nodes": r.nodes,
                "seconds": r.seconds,
            }))?
        );
        return Ok(());
    }
    for (i, s) in r.statements.iter().enumerate() {
        println!(
            "statement {}: {}: {} moves checked ({} nodes with every reply, {} with one move), leaves: {} over, {} static, {} by workers",
            i + 1,
            s.claim,
            s.nodes,
            s.and_nodes,
            s.or_nodes,
            s.over_leaves,
            s.static_leaves,
            s.worker_leaves
        );
    }
    println!(
        "proof verified: {} statement(s); {} distinct worker leaves proved again by {} (path symmetry off, empty tables) on {} {} worker(s), {} nodes, {:.1} s",
        r.statements.len(),
        r.reproved,
        engine,
        workers,
        if kind == BackendKind::Slurm { "Slurm" } else { "local" },
        r.nodes,
        r.seconds
    );
    Ok(())
}
