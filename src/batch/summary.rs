//! The markdown summary of a batch: one row per job, its value against the
//! published one, and when and where it was measured.

use super::{Job, JobRecord};
use crate::format::numbers::signed;

/// Published value vs the recorded one: `None` when there is nothing to compare.
pub(super) fn agreement(job: &Job, record: Option<&JobRecord>) -> Option<bool> {
    let published = job.spec.published?;
    let v = record?.value_with_komi?;
    Some(published == v)
}

/// The summary table, one row per job in manifest order.
pub fn summary_markdown(records: &[(Job, Option<JobRecord>)]) -> String {
    let mut out = String::new();
    out.push_str("# Batch summary\n\n");
    out.push_str("Values are Black − White area minus komi under perfect play. ");
    out.push_str("Written by `gosolve batch`; one JSON file per job in `batch/`.\n\n");
    out.push_str("Each row's time was measured on the date (UTC) in its row: a job already solved\n");
    out.push_str("by an earlier run is not solved again, and keeps its earlier date.\n\n");
    out.push_str(
        "| id | board | position | rules | value | published (source) | agree? | nodes | time | measured | machine |\n",
    );
    out.push_str("|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (job, rec) in records {
        let rules = job.game.rules.name();
        let value = match rec {
            Some(r) => match r.value_with_komi {
                Some(v) => signed(v),
                None => r.status.clone(),
            },
            None => "not run (interrupted)".into(),
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
            Some(false) => "**NO**".to_string(),
            None if job.spec.published.is_some() => "?".to_string(),
            None => "—".to_string(),
        };
        let (nodes, time, date, machine) = match rec {
            Some(r) => (
                r.nodes.to_string(),
                format!("{:.2} s", r.seconds),
                r.date.replace('T', " ").trim_end_matches('Z').to_string(),
                r.machine.clone(),
            ),
            None => ("—".into(), "—".into(), "—".into(), "—".into()),
        };
        let cells = [
            job.spec.id.clone(),
            job.game.geo.name(),
            job.position_text(),
            rules,
            value,
            published,
            agree,
            nodes,
            time,
            date,
            machine,
        ];
        let cells: Vec<String> = cells.iter().map(|c| c.replace('|', "\\|")).collect();
        out.push_str(&format!("| {} |\n", cells.join(" | ")));
    }
    out
}
