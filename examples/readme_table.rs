//! Rewrites the README's table of what is solved from the batch records
//! (`results/batch/*.json`, and `results/rectangular/batch/*.json` and
//! `results/5x5-openings/batch/*.json` when present). It solves nothing: refresh the records first (`gosolve batch
//! --out-dir results`), then run
//!
//! ```sh
//! cargo run --profile ci --example readme_table          # rewrite README.md
//! cargo run --profile ci --example readme_table -- --check  # exit 1 if stale
//! ```
//!
//! from the repository root (or pass another root as the last argument).

use gosolve::batch::{read_solved_sources, replace_solved_block, solved_table};
use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut check = false;
    let mut root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            "--check" => check = true,
            a if a.starts_with('-') => {
                eprintln!("readme_table: error: unknown option {a} (usage: readme_table [--check] [ROOT])");
                return ExitCode::from(2);
            }
            a => root = PathBuf::from(a),
        }
    }
    match run(&root, check) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("readme_table: error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(root: &std::path::Path, check: bool) -> Result<ExitCode, String> {
    let readme = root.join("README.md");
    let text = std::fs::read_to_string(&readme).map_err(|e| format!("cannot read {}: {e}", readme.display()))?;
    let table = solved_table(&read_solved_sources(root)?);
    let new = replace_solved_block(&text, &table)
        .ok_or_else(|| format!("{} has no solved-table markers", readme.display()))?;
    if new == text {
        println!("{}: the solved table is up to date", readme.display());
        return Ok(ExitCode::SUCCESS);
    }
    if check {
        println!("{}: the solved table differs from the records", readme.display());
        return Ok(ExitCode::FAILURE);
    }
    gosolve::store::write_atomic(&readme, new.as_bytes())
        .map_err(|e| format!("cannot write {}: {e}", readme.display()))?;
    println!("{}: solved table rewritten from the records", readme.display());
    Ok(ExitCode::SUCCESS)
}
