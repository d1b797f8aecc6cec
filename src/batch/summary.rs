//! The markdown summary of a batch: a grid of the values of the empty
//! rectangles (the table at a glance), one row per job with its value
//! against the published one, its confirmation, and when and where it was
//! measured, and the differences from published values with their
//! explanations.

use super::{Job, JobRecord, CONTRADICTED, SOLVED, UNCONFIRMED};
use crate::format::numbers::signed;
use crate::rules::position::{Color, Position};
use std::collections::BTreeMap;

/// Published value vs the recorded one: `None` when there is nothing to compare.
pub(super) fn agreement(job: &Job, record: Option<&JobRecord>) -> Option<bool> {
    let published = job.spec.published?;
    let v = record?.value_with_komi?;
    Some(published == v)
}

/// Whether the manifest explains the record's value (its `explained_value`).
pub(super) fn explained(job: &Job, record: Option<&JobRecord>) -> bool {
    job.spec.explanation.is_some()
        && job.spec.explained_value.is_some_and(|e| Some(e) == record.and_then(|r| r.value_with_komi))
}

/// The confirmation column: `—` (not asked), `confirmed`, `open`, `**FAILED**`;
/// a value check that may have searched as the solve did (see
/// [`JobRecord::value_check_differs`]) leaves it open.
fn confirmation_text(job: &Job, rec: Option<&JobRecord>) -> String {
    let Some((r, c)) = rec.and_then(|r| Some((r, r.confirmation.as_ref()?))) else { return "—".into() };
    match c.confirmed {
        Some(true) if !r.value_check_differs(job) => {
            format!("open (at-least, at-most done; value check again, {})", job.second_configuration().name())
        }
        Some(true) => "confirmed".into(),
        Some(false) => "**FAILED**".into(),
        None => {
            let done: Vec<&str> =
                c.checks.iter().filter(|c| c.outcome == super::HOLDS).map(|c| c.check.as_str()).collect();
            if done.is_empty() {
                "open".into()
            } else {
                format!("open ({} done)", done.join(", "))
            }
        }
    }
}

/// One cell of the grid: the value, marked where it differs from the
/// published one or is not yet confirmed; `…` unsolved, with the bounds
/// it proved (`… ≥ +14`).
fn grid_cell(job: &Job, rec: Option<&JobRecord>) -> String {
    let Some(r) = rec else { return "·".into() };
    let Some(v) = r.value_with_komi else {
        return r.bounds_text().map_or("…".into(), |b| format!("… {}", b));
    };
    let mut cell = signed(v);
    if r.status == UNCONFIRMED {
        cell.push('*');
    } else if r.status == CONTRADICTED {
        cell.push_str(" (!)");
    }
    if let (Some(false), Some(p)) = (agreement(job, rec), job.spec.published) {
        cell = format!("**{}** (pub. {})", cell, signed(p));
    }
    cell
}

/// The grid of the empty boards' values: one row per long side, one column
/// per short side (1xN strips and WxH boards alike), the first job of each
/// shape. Empty when the batch has no empty board.
fn grid(records: &[(Job, Option<JobRecord>)]) -> String {
    let mut cells: BTreeMap<(usize, usize), String> = BTreeMap::new();
    for (job, rec) in records {
        let g = &job.game;
        if g.start != Position::EMPTY || !g.moves.is_empty() || g.to_move != Color::Black {
            continue;
        }
        let (w, h) = (g.geo.width(), g.geo.height());
        cells.entry((w.max(h), w.min(h))).or_insert_with(|| grid_cell(job, rec.as_ref()));
    }
    if cells.is_empty() {
        return String::new();
    }
    let short = cells.keys().map(|k| k.1).max().unwrap_or(1);
    let mut out = String::new();
    out.push_str("## The empty boards at a glance\n\n");
    out.push_str("Black's result under perfect play (Black − White area − komi), Black first; rows: the long\n");
    out.push_str("side, columns: the short side. **bold** (pub. v): differs from the published value v (see\n");
    out.push_str("the differences below); `*`: found, not yet confirmed a second way; `…`: not solved yet\n");
    out.push_str("(with the bounds proved so far); `·`: not run; blank: not in this batch.\n\n");
    out.push_str("| long \\ short |");
    for s in 1..=short {
        out.push_str(&format!(" {} |", s));
    }
    out.push('\n');
    out.push_str("|---|");
    out.push_str(&"---|".repeat(short));
    out.push('\n');
    let longs: Vec<usize> = {
        let mut l: Vec<usize> = cells.keys().map(|k| k.0).collect();
        l.dedup();
        l
    };
    for long in longs {
        out.push_str(&format!("| {} |", long));
        for s in 1..=short {
            out.push_str(&format!(" {} |", cells.get(&(long, s)).map_or("", String::as_str)));
        }
        out.push('\n');
    }
    out.push('\n');
    out
}

/// The summary: the grid, the table (one row per job in manifest order)
/// and the differences from published values.
pub fn summary_markdown(records: &[(Job, Option<JobRecord>)]) -> String {
    let mut out = String::new();
    out.push_str("# Batch summary\n\n");
    out.push_str("Values are Black − White area minus komi under perfect play. ");
    out.push_str("Written by `gosolve batch`; one JSON file per job in `batch/`.\n\n");
    out.push_str("Each row's time was measured on the date (UTC) in its row: a job already solved\n");
    out.push_str("by an earlier run is not solved again, and keeps its earlier date.\n\n");
    out.push_str(&grid(records));
    out.push_str(
        "| id | board | position | rules | value | published (source) | agree? | confirmed | best first moves | nodes | time | run | measured | machine | commit |\n",
    );
    out.push_str("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (job, rec) in records {
        let rules = job.game.rules.name();
        let open_tests = rec.as_ref().and_then(|r| r.open_tests_text()).map(|t| format!("; {t}")).unwrap_or_default();
        let value = match rec {
            Some(r) => match r.value_with_komi {
                Some(v) if r.status == SOLVED => signed(v),
                Some(v) => format!("{} ({})", signed(v), r.status),
                None => {
                    let proved = match &r.bounds {
                        Some(b) if b.at_least.is_some() || b.at_most.is_some() => format!(
                            "{}: {} to {}",
                            r.status,
                            b.at_least.map_or("?".into(), signed),
                            b.at_most.map_or("?".into(), signed)
                        ),
                        _ if !r.moves.is_empty() => format!("{}: {} moves solved", r.status, r.moves.len()),
                        _ => r.status.clone(),
                    };
                    proved + &open_tests
                }
            },
            None => "not run".into(),
        };
        let published = match job.spec.published {
            Some(p) => match &job.spec.source {
                Some(s) => format!("{} ({})", signed(p), s),
                None => signed(p),
            },
            None => "—".into(),
        };
        let agree = match agreement(job, rec.as_ref()) {
            Some(true) => "yes".to_string(),
            Some(false) if explained(job, rec.as_ref()) => "no (explained)".to_string(),
            Some(false) => "**NO**".to_string(),
            None if job.spec.published.is_some() => "?".to_string(),
            None => "—".to_string(),
        };
        let best = match rec {
            Some(r) if !r.best_moves.is_empty() => r.best_moves.join(" "),
            _ => "—".into(),
        };
        let (nodes, time, run, date, machine, commit) = match rec {
            Some(r) => (
                r.nodes.to_string(),
                r.time_text(),
                run_text(r),
                r.date.replace('T', " ").trim_end_matches('Z').to_string(),
                r.machine.clone(),
                r.commit.clone().unwrap_or_else(|| "—".into()),
            ),
            None => ("—".into(), "—".into(), "—".into(), "—".into(), "—".into(), "—".into()),
        };
        let cells = [
            job.spec.id.clone(),
            job.game.geo.name(),
            job.position_text(),
            rules,
            value,
            published,
            agree,
            confirmation_text(job, rec.as_ref()),
            best,
            nodes,
            time,
            run,
            date,
            machine,
            commit,
        ];
        let cells: Vec<String> = cells.iter().map(|c| c.replace('|', "\\|")).collect();
        out.push_str(&format!("| {} |\n", cells.join(" | ")));
    }
    out.push_str(&super::openings::markdown(records));
    out.push_str(&differences(records));
    out
}

/// Threads, table and load of a record's run: "2 threads, 2048 MiB, load 1.9–2.3".
fn run_text(r: &JobRecord) -> String {
    let mut parts = Vec::new();
    if let Some(t) = r.threads {
        parts.push(format!("{} thread{}", t, if t == 1 { "" } else { "s" }));
    }
    if let Some(mb) = r.table_mb {
        parts.push(format!("{} MiB", mb));
    }
    if let Some(l) = &r.load_average {
        if let [a, b] = l[..] {
            parts.push(format!("load {:.1}–{:.1}", a, b));
        }
    }
    if parts.is_empty() {
        "—".into()
    } else {
        parts.join(", ")
    }
}

/// The differences from published values, each with its explanation (or
/// the plain statement that there is none) and the value's line.
fn differences(records: &[(Job, Option<JobRecord>)]) -> String {
    let mut out = String::new();
    for (job, rec) in records {
        if agreement(job, rec.as_ref()) != Some(false) {
            continue;
        }
        let (Some(r), Some(p)) = (rec, job.spec.published) else { continue };
        let v = r.value_with_komi.unwrap_or_default();
        if out.is_empty() {
            out.push_str("\n## Differences from published values\n\n");
        }
        let why = if explained(job, rec.as_ref()) {
            let e = job.spec.explanation.clone().unwrap_or_default();
            let e = e.trim_end();
            if e.ends_with('.') {
                e.to_string()
            } else {
                format!("{e}.")
            }
        } else {
            "**not explained**: the batch fails until the manifest explains this value".into()
        };
        out.push_str(&format!(
            "- **{}**: {} here, {} published ({}). {} Line: {}.\n",
            job.spec.id,
            signed(v),
            signed(p),
            job.spec.source.as_deref().unwrap_or("no source given"),
            why,
            if r.pv.is_empty() { "—".to_string() } else { r.pv.join(" ") }
        ));
    }
    out
}
