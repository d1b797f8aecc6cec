//! The README's table of what is solved, generated from batch records (the
//! JSON files a run of `gosolve batch` leaves in `<out-dir>/batch/`), so that
//! every value, time and date in it is one a record holds: none is typed by
//! hand. `examples/readme_table.rs` rewrites the README's block between
//! [`SOLVED_TABLE_BEGIN`] and [`SOLVED_TABLE_END`]; `tests/solved_table.rs`
//! fails when the block differs from what the records give.

use super::{JobRecord, CONTRADICTED, UNCONFIRMED};
use crate::format::numbers::signed;
use std::collections::BTreeMap;
use std::path::Path;

/// The line that opens the generated block in README.md.
pub const SOLVED_TABLE_BEGIN: &str =
    "<!-- solved table: generated from results/batch/*.json, results/rectangular/batch/*.json and results/5x5-openings/batch/*.json; refresh with `cargo run --profile ci --example readme_table` -->";
/// The line that closes it.
pub const SOLVED_TABLE_END: &str = "<!-- end of the solved table -->";

/// The record folders the README's table is made from, relative to the
/// repository root: the built-in published set (`gosolve batch --out-dir
/// results`), the rectangular boards' table (`results/rectangular`) and the
/// 5x5 openings (`results/5x5-openings`).
pub const SOLVED_TABLE_SOURCES: [&str; 3] =
    ["results/batch", "results/rectangular/batch", "results/5x5-openings/batch"];

/// Every record (`*.json`) in `dir`, by file name; a folder that does not
/// exist has none. A file that cannot be read or parsed is an error naming it.
pub fn read_records(dir: &Path) -> Result<Vec<JobRecord>, String> {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("cannot read {}: {}", dir.display(), e)),
    };
    let mut paths = Vec::new();
    for entry in entries {
        let path = entry.map_err(|e| format!("cannot read {}: {}", dir.display(), e))?.path();
        if path.extension().is_some_and(|x| x == "json") {
            paths.push(path);
        }
    }
    paths.sort();
    paths
        .iter()
        .map(|p| {
            let text = std::fs::read_to_string(p).map_err(|e| format!("cannot read {}: {}", p.display(), e))?;
            serde_json::from_str(&text).map_err(|e| format!("{} is not a batch record: {}", p.display(), e))
        })
        .collect()
}

/// The records of [`SOLVED_TABLE_SOURCES`] under `root`, in that order.
pub fn read_solved_sources(root: &Path) -> Result<Vec<JobRecord>, String> {
    let mut all = Vec::new();
    for dir in SOLVED_TABLE_SOURCES {
        all.extend(read_records(&root.join(dir))?);
    }
    Ok(all)
}

/// What a record solved: the board, start, history, player and rules. Two
/// records of the same game (the published set and the rectangular table
/// both hold 2x3, say, or 2x4 and 4x2) make one row, from the newer record.
fn game_key(r: &JobRecord) -> String {
    format!(
        "{}|{}|{}|{}|{}|{}|{}",
        board_key(r),
        if is_empty_diagram(&r.start_position) { "" } else { &r.start_position },
        r.history.join(" "),
        r.to_move,
        r.rules.suicide,
        r.rules.superko,
        r.rules.komi
    )
}

/// The board, the same for both orientations of a plain empty board with
/// Black to move (2x4 and 4x2 are one game, one row).
fn board_key(r: &JobRecord) -> String {
    let plain = is_empty_diagram(&r.start_position) && r.history.is_empty() && r.to_move == "black";
    match r.board.split_once('x').and_then(|(w, h)| Some((w.parse::<usize>().ok()?, h.parse::<usize>().ok()?))) {
        Some((w, h)) if plain => format!("{}x{}", w.min(h), w.max(h)),
        _ => r.board.clone(),
    }
}

/// The player to move at the start: the one to move now, or the other one
/// after an odd number of moves.
fn first_player(r: &JobRecord) -> &'static str {
    let black_now = r.to_move == "black";
    if black_now == r.history.len().is_multiple_of(2) {
        "black"
    } else {
        "white"
    }
}

fn is_empty_diagram(d: &str) -> bool {
    d.chars().all(|c| matches!(c, '.' | '/' | ' '))
}

/// The rules when they are not the defaults (NSTT, komi 0), else nothing.
fn rules_note(r: &JobRecord) -> Vec<String> {
    let mut out = Vec::new();
    if r.rules.suicide {
        out.push("suicide allowed".to_string());
    }
    if r.rules.superko != "positional" {
        out.push(format!("{} superko", r.rules.superko));
    }
    if r.rules.komi != 0.0 {
        out.push(format!("komi {}", r.rules.komi));
    }
    out
}

/// The board cell: `1x12`, or what was played before the solved position.
fn board_cell(r: &JobRecord) -> String {
    let mut notes = Vec::new();
    if !is_empty_diagram(&r.start_position) {
        notes.push(format!("from `{}`", r.start_position));
    }
    if !r.history.is_empty() {
        notes.push(format!("after {}", r.history.join(" ")));
    }
    if !r.history.is_empty() || !is_empty_diagram(&r.start_position) || r.to_move != "black" {
        notes.push(format!("{} to move", if r.to_move == "black" { "Black" } else { "White" }));
    }
    notes.extend(rules_note(r));
    if notes.is_empty() {
        r.board.clone()
    } else {
        format!("{} ({})", r.board, notes.join(", "))
    }
}

/// The moves of the best value (the principal variation's first when the
/// record has no move values).
fn best_moves(r: &JobRecord) -> String {
    let mut best: Vec<&str> = match r.value_with_komi {
        Some(v) => r.moves.iter().filter(|m| m.value == v).map(|m| m.mv.as_str()).collect(),
        None => Vec::new(),
    };
    if best.is_empty() {
        best.extend(r.pv.first().map(String::as_str));
    }
    if best.is_empty() {
        "—".into()
    } else {
        best.join(", ")
    }
}

/// The `gosolve solve` command that solves the record's position again.
pub fn reproduce_command(r: &JobRecord) -> String {
    let mut cmd = format!("gosolve solve {}", r.board);
    if !is_empty_diagram(&r.start_position) {
        cmd.push_str(&format!(" --position \"{}\"", r.start_position));
    }
    if first_player(r) == "white" {
        cmd.push_str(" --to w");
    }
    if !r.history.is_empty() {
        cmd.push_str(&format!(" --moves \"{}\"", r.history.join(" ")));
    }
    if r.rules.suicide {
        cmd.push_str(" --suicide");
    }
    if r.rules.superko != "positional" {
        cmd.push_str(&format!(" --superko {}", r.rules.superko));
    }
    if r.rules.komi != 0.0 {
        cmd.push_str(&format!(" --komi {}", r.rules.komi));
    }
    // A value-only record: its value as the first test (the value does not
    // depend on it, the time does), and a table beyond the default's
    // largest (4 GiB) where the record had one.
    if let (true, Some(v)) = (r.value_only, r.value_with_komi) {
        cmd.push_str(&format!(" --value-only --guess {}", crate::format::numbers::signed(v).replace('+', "")));
    }
    if let Some(mb) = r.table_mb.filter(|&mb| mb > 4096) {
        cmd.push_str(&format!(" --table-mb {mb}"));
    }
    cmd
}

/// Rows in board order: narrow side, long side, columns, then the plain
/// board before a position on it.
fn sort_key(r: &JobRecord) -> (usize, usize, usize, bool, String) {
    let size = r.board.split_once('x').and_then(|(w, h)| Some((w.parse::<usize>().ok()?, h.parse::<usize>().ok()?)));
    let (w, h) = size.unwrap_or((usize::MAX, usize::MAX));
    let on_a_position = !r.history.is_empty() || !is_empty_diagram(&r.start_position);
    (w.min(h), w.max(h), w, on_a_position, r.id.clone())
}

/// The record's value, unless a confirmation found against it.
fn found_value(r: &JobRecord) -> Option<f64> {
    r.value_with_komi.filter(|_| r.status != CONTRADICTED)
}

/// The Markdown table of the solved records (one row per game, the newest
/// record of it), then one line naming the games still unsolved.
pub fn solved_table(records: &[JobRecord]) -> String {
    let mut newest: BTreeMap<String, &JobRecord> = BTreeMap::new();
    for r in records {
        let key = game_key(r);
        // A solved record beats an unsolved one; then the newer date wins.
        let better = match newest.get(&key) {
            None => true,
            Some(old) => {
                let solved = |x: &JobRecord| found_value(x).is_some();
                (solved(r), r.date.as_str()) > (solved(old), old.date.as_str())
            }
        };
        if better {
            newest.insert(key, r);
        }
    }
    let mut rows: Vec<&JobRecord> = newest.into_values().collect();
    rows.sort_by_key(|r| sort_key(r));
    let mut out = String::new();
    out.push_str("| board | value | best first moves | time | measured | to solve it again |\n");
    out.push_str("|---|---|---|---|---|---|\n");
    let mut open = Vec::new();
    for r in &rows {
        let Some(v) = found_value(r) else {
            // Named as a row would be: "5x5 (after a1, White to move)".
            let proved = r.bounds_text().map_or("no bound proved yet".into(), |b| format!("{b} proved"));
            let open_tests = r.open_tests_text().map(|t| format!("; {t}")).unwrap_or_default();
            open.push(format!("{} ({proved}{open_tests})", board_cell(r)));
            continue;
        };
        // A value still being confirmed a second way says so.
        let value = if r.status == UNCONFIRMED { format!("{} (confirmation open)", signed(v)) } else { signed(v) };
        let date = r.date.split('T').next().unwrap_or(&r.date);
        let cells = [
            board_cell(r),
            value,
            best_moves(r),
            r.time_text(),
            format!("{}, {}", date, r.machine.replace("(R)", "").replace("(TM)", "")),
            format!("`{}`", reproduce_command(r)),
        ];
        let cells: Vec<String> = cells.iter().map(|c| c.replace('|', "\\|")).collect();
        out.push_str(&format!("| {} |\n", cells.join(" | ")));
    }
    if !open.is_empty() {
        out.push_str(&format!("\nNot solved yet (stopped at their limit): {}.\n", open.join(", ")));
    }
    out
}

/// `text` with the lines between the markers replaced by `table`, or `None`
/// when the markers are missing or out of order.
pub fn replace_solved_block(text: &str, table: &str) -> Option<String> {
    let begin = text.find(SOLVED_TABLE_BEGIN)?;
    let body = begin + SOLVED_TABLE_BEGIN.len();
    let end = body + text[body..].find(SOLVED_TABLE_END)?;
    Some(format!("{}\n{}{}", &text[..body], table, &text[end..]))
}

/// The block between the markers, as [`replace_solved_block`] writes it.
pub fn solved_block(text: &str) -> Option<&str> {
    let body = text.find(SOLVED_TABLE_BEGIN)? + SOLVED_TABLE_BEGIN.len();
    let end = body + text[body..].find(SOLVED_TABLE_END)?;
    Some(text[body..end].strip_prefix('\n').unwrap_or(&text[body..end]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batch::{MoveRecord, RulesRecord};

    use crate::batch::record::sample as record;

    #[test]
    fn rows_merge_sort_and_reproduce() {
        let mut doc = record("doc", "3x2", Some(6.0), "2026-11-28T10:00:00Z");
        doc.history = vec!["b1".into(), "a2".into(), "b2".into()];
        doc.to_move = "white".into();
        doc.moves = vec![
            MoveRecord { mv: "pass".into(), value: 6.0 },
            MoveRecord { mv: "a1".into(), value: -6.0 },
            MoveRecord { mv: "c1".into(), value: 6.0 },
        ];
        let old = record("2x4", "2x4", Some(8.0), "2026-11-23T10:00:00Z");
        let mut new = record("4x2-rect", "4x2", Some(8.0), "2026-11-28T10:00:00Z");
        new.seconds = 0.5;
        new.moves.clear();
        let open = record("5x5", "5x5", None, "2026-11-28T10:00:00Z");
        let table = solved_table(&[open, doc, old, new]);
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines.len(), 6, "{table}");
        assert_eq!(
            lines[2],
            "| 3x2 (after b1 a2 b2, White to move) | +6 | pass, c1 | 12.3 s | 2026-11-28, AMD EPYC, 2 cores | `gosolve solve 3x2 --moves \"b1 a2 b2\"` |"
        );
        assert_eq!(lines[3], "| 4x2 | +8 | b1 | 0.50 s | 2026-11-28, AMD EPYC, 2 cores | `gosolve solve 4x2` |");
        assert_eq!(lines[5], "Not solved yet (stopped at their limit): 5x5 (no bound proved yet).");
        // An unsolved record says what it proved.
        let mut open = record("5x5", "5x5", None, "2026-11-28T10:00:00Z");
        open.bounds = Some(super::super::BoundsRecord { at_least: Some(14.0), at_most: None, ..Default::default() });
        assert!(
            solved_table(&[open.clone()]).ends_with("Not solved yet (stopped at their limit): 5x5 (≥ +14 proved).\n")
        );
        // One after a move is named as its row would be.
        let mut after = open.clone();
        (after.history, after.to_move, after.bounds) = (vec!["a1".into()], "white".into(), None);
        let table = solved_table(&[after]);
        assert!(table.ends_with("limit): 5x5 (after a1, White to move) (no bound proved yet).\n"), "{table}");
        open.bounds =
            Some(super::super::BoundsRecord { at_least: Some(-2.0), at_most: Some(20.0), ..Default::default() });
        assert_eq!(open.bounds_text().as_deref(), Some("-2 to +20"));
        open.bounds =
            Some(super::super::BoundsRecord { at_least: Some(6.0), at_most: Some(6.0), ..Default::default() });
        assert_eq!(open.bounds_text().as_deref(), Some("= +6"));
        // The tests a limit stopped it in follow what it proved.
        open.bounds = Some(super::super::BoundsRecord { testing: vec![24.0], ..Default::default() });
        let table = solved_table(&[open.clone()]);
        assert!(table.ends_with("5x5 (no bound proved yet; stopped in the test ≥ +24).\n"), "{table}");
        open.bounds =
            Some(super::super::BoundsRecord { at_least: Some(1.0), testing: vec![3.0, 18.0], ..Default::default() });
        let table = solved_table(&[open.clone()]);
        assert!(table.ends_with("5x5 (≥ +1 proved; stopped in the test ≥ +3 and ≥ +18).\n"), "{table}");
        // Where the record says how far its one test got, move by move: the
        // open moves are named when few.
        let names = |n: &[&str]| n.iter().map(|m| m.to_string()).collect::<Vec<_>>();
        let mut moves =
            super::super::TestMoves { holds: vec![], fails: names(&["pass", "a1"]), open: names(&["b2", "c3"]) };
        open.bounds = Some(super::super::BoundsRecord {
            at_least: Some(1.0),
            testing: vec![3.0],
            after_moves: Some(moves.clone()),
            ..Default::default()
        });
        let said = "≥ +1 proved; stopped in the test ≥ +3, decided after 2 of 4 moves; open: b2 c3).\n";
        assert!(solved_table(&[open.clone()]).ends_with(said), "{}", solved_table(&[open.clone()]));
        moves.open = names(&["a2", "b1", "b2", "c2", "c3"]);
        open.bounds.as_mut().unwrap().after_moves = Some(moves);
        let table = solved_table(&[open]);
        assert!(table.ends_with("stopped in the test ≥ +3, decided after 2 of 7 moves).\n"), "{table}");
    }

    #[test]
    fn other_rules_and_first_player_in_the_command() {
        let mut r = record("x", "2x2", Some(0.5), "2026-11-28T10:00:00Z");
        r.start_position = "X./..".into();
        r.to_move = "black".into();
        r.history = vec!["a1".into()];
        r.rules = RulesRecord { suicide: true, superko: "situational".into(), komi: 0.5 };
        assert_eq!(
            reproduce_command(&r),
            "gosolve solve 2x2 --position \"X./..\" --to w --moves \"a1\" --suicide --superko situational --komi 0.5"
        );
        assert!(board_cell(&r).contains("suicide allowed, situational superko, komi 0.5"));
    }

    #[test]
    fn block_between_markers() {
        let text = format!("intro\n{}\nold\n{}\nafter\n", SOLVED_TABLE_BEGIN, SOLVED_TABLE_END);
        let new = replace_solved_block(&text, "new\n").unwrap();
        assert_eq!(new, format!("intro\n{}\nnew\n{}\nafter\n", SOLVED_TABLE_BEGIN, SOLVED_TABLE_END));
        assert_eq!(solved_block(&new), Some("new\n"));
        assert_eq!(solved_block(&text), Some("old\n"));
        assert!(replace_solved_block("no markers", "x").is_none());
    }
}
