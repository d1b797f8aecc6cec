//! `gosolve bench`: the solver's node signature over a fixed list of solves
//! (see [`gosolve::search::bench`]), with time and speed.

use anyhow::Result;
use gosolve::rules::position::{fmt_value, value_with_komi};
use gosolve::search::bench::{self, BenchRow, BENCH_TABLE_MB};

#[derive(clap::Args)]
pub struct BenchArgs {
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// Print only the summary (signature, time, speed).
    #[arg(long, short)]
    pub quiet: bool,
}

pub fn run(args: BenchArgs) -> Result<()> {
    let text = !args.json && !args.quiet;
    if text {
        println!("one thread, {} MiB table; value with komi, nodes, seconds", BENCH_TABLE_MB);
    }
    let rows = bench::run(|r: &BenchRow| {
        if text {
            let v = value_with_komi(r.solution.value, r.case.rules().komi);
            println!("{:<28} {:>6} {:>12} {:>8.3}", r.case.name, fmt_value(v), r.solution.stats.nodes, r.seconds);
        }
    })?;
    let nodes = bench::signature(&rows);
    let seconds: f64 = rows.iter().map(|r| r.seconds).sum();
    let nps = (nodes as f64 / seconds.max(1e-9)).round() as u64;
    if args.json {
        let cases: Vec<_> = rows
            .iter()
            .map(|r| {
                serde_json::json!({
                    "name": r.case.name,
                    "value": value_with_komi(r.solution.value, r.case.rules().komi),
                    "nodes": r.solution.stats.nodes,
                    "seconds": r.seconds,
                })
            })
            .collect();
        let report = serde_json::json!({
            "signature": nodes, "seconds": seconds, "nodes_per_second": nps,
            "threads": 1, "table_mb": BENCH_TABLE_MB, "cases": cases,
        });
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        println!("===========================");
        println!("Total time (s) : {:.3}", seconds);
        println!("Nodes searched : {}", nodes);
        println!("Nodes/second   : {}", nps);
    }
    Ok(())
}
