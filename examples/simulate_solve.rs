//! Predict a distributed solve's speedup on more workers from a recorded
//! run: the answers in its work dir replayed through the manager's own
//! policy on a simulated clock (`gosolve::distributed::solve::simulate`,
//! whose documentation states the assumptions).
//!
//! ```text
//! cargo run --release --example simulate_solve -- WORK_DIR [WORKERS,...]
//! ```
//!
//! Prints a Markdown table: for each number of workers (default 1, 2, 4,
//! 8, 16, 64, 256, 1024) the simulated time, the speedup over one worker,
//! the efficiency, the units sent, how many of them the recording had no
//! answer for, and how many of those were wasted (nothing known of them).

use gosolve::distributed::solve::simulate::{simulate, Recording};
use std::path::PathBuf;

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(dir) = args.next().map(PathBuf::from) else {
        eprintln!("usage: simulate_solve WORK_DIR [WORKERS,...]");
        std::process::exit(2);
    };
    let workers: Vec<usize> = match args.next() {
        Some(list) => list.split(',').filter_map(|w| w.trim().parse().ok()).collect(),
        None => vec![1, 2, 4, 8, 16, 64, 256, 1024],
    };
    let rec = match Recording::read(&dir) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("simulate_solve: {e}");
            std::process::exit(1);
        }
    };
    println!(
        "recording {}: {} units on {} worker(s), {:.1} unit-seconds, manager {:.1} s, mean merge {:.2} s",
        dir.display(),
        rec.units,
        rec.workers,
        rec.unit_seconds,
        rec.manager_seconds,
        rec.merge_seconds
    );
    println!("| workers | simulated s | speedup | efficiency | units | not recorded | wasted | merges | done |");
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|---|");
    let mut one = None;
    for w in workers {
        let s = simulate(&rec, w);
        let base = *one.get_or_insert(s.makespan);
        let speedup = base / s.makespan.max(1e-9);
        println!(
            "| {} | {:.1} | {:.2} | {:.2} | {} | {} | {} | {} | {} |",
            w,
            s.makespan,
            speedup,
            speedup / w as f64,
            s.units,
            s.unrecorded,
            s.wasted,
            s.merges,
            if s.done { "yes" } else { "no" }
        );
    }
}
