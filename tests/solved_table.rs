//! The README's table of what is solved is the one the committed batch
//! records give (`results/batch/*.json`, `results/rectangular/batch/*.json`,
//! `results/5x5-openings/batch/*.json`):
//! no value, time or date in it is typed by hand.

use gosolve::batch::{read_solved_sources, solved_block, solved_table, SOLVED_TABLE_BEGIN, SOLVED_TABLE_END};
use std::path::Path;

const REFRESH: &str = "cargo run --profile ci --example readme_table";

#[test]
fn readme_table_matches_the_records() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README.md");
    let block = solved_block(&readme).unwrap_or_else(|| {
        panic!("README.md lacks the solved table's markers:\n{SOLVED_TABLE_BEGIN}\n...\n{SOLVED_TABLE_END}")
    });
    let records = read_solved_sources(root).expect("the batch records");
    assert!(!records.is_empty(), "no records in results/batch");
    let expected = solved_table(&records);
    assert!(
        block == expected,
        "README.md's solved table differs from what the records in results/ give; refresh it with\n    {REFRESH}\n\
         --- README.md\n{block}\n--- from the records\n{expected}"
    );
}

#[test]
fn every_solved_record_has_a_row() {
    // The table says what is solved: each solved record's board is in it.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let records = read_solved_sources(root).expect("the batch records");
    let table = solved_table(&records);
    // A plain board's row may be its transpose's (2x4 and 4x2 are one row).
    for r in records.iter().filter(|r| r.value_with_komi.is_some()) {
        let transposed = r.board.split_once('x').map(|(w, h)| format!("{h}x{w}")).unwrap_or_default();
        let row = |b: &str| table.contains(&format!("`gosolve solve {b}"));
        assert!(row(&r.board) || row(&transposed), "no row for {}:\n{table}", r.id);
    }
}
