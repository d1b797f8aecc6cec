//! The result file of one job (`<out-dir>/batch/<id>.json`): what was solved,
//! under which rules, the value and line, and how it was measured.

use super::Job;
use crate::format::numbers::{nodes, signed};
use crate::rules::position::result_phrase;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// A move and its value, as recorded.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MoveRecord {
    #[serde(rename = "move")]
    pub mv: String,
    pub value: f64,
}

/// Rules as recorded.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RulesRecord {
    pub suicide: bool,
    pub superko: String,
    pub komi: f64,
}

/// Status of a solved job.
pub const SOLVED: &str = "solved";
/// Status of a job that hit its node or time limit.
pub const UNSOLVED: &str = "unsolved (limit)";

/// The result file of one job (`<out-dir>/batch/<id>.json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JobRecord {
    pub id: String,
    pub spec_hash: String,
    /// [`SOLVED`] or [`UNSOLVED`].
    pub status: String,
    /// Which limit stopped an unsolved job.
    pub limit: Option<String>,
    pub board: String,
    /// The solved position (compact diagram) and the player to move.
    pub position: String,
    pub to_move: String,
    /// Moves played before the solved position (its history), and where they started.
    pub history: Vec<String>,
    pub start_position: String,
    pub rules: RulesRecord,
    /// Where each rule came from: the job's fields, the SGF's `RU`/`KM`, or
    /// the defaults (e.g. `suicide: sgf, superko: sgf, komi: job`).
    #[serde(default)]
    pub rules_source: Option<String>,
    /// Black − White area, komi excluded.
    pub value: Option<i32>,
    /// Black − White − komi.
    pub value_with_komi: Option<f64>,
    pub result: Option<String>,
    pub pv: Vec<String>,
    /// The value (with komi) of every legal root move.
    pub moves: Vec<MoveRecord>,
    pub published: Option<f64>,
    pub source: Option<String>,
    pub agree: Option<bool>,
    pub nodes: u64,
    pub seconds: f64,
    pub nodes_per_second: f64,
    pub max_depth: usize,
    /// Peak resident memory of the whole process when the job ended (jobs share it).
    pub peak_memory_mib: Option<f64>,
    pub machine: String,
    pub date: String,
    pub gosolve_version: String,
}

impl JobRecord {
    /// One line for logs: "Black wins by 1 (+1), 1,234 nodes in 0.01 s" or "unsolved (limit)".
    pub fn outcome_text(&self) -> String {
        match self.value_with_komi {
            Some(v) => {
                let agree = match self.agree {
                    Some(true) => ", agrees with published",
                    Some(false) => ", DISAGREES with published",
                    None => "",
                };
                format!("{} ({}), {} in {:.2} s{}", result_phrase(v), signed(v), nodes(self.nodes), self.seconds, agree)
            }
            None => format!("{}: {}", self.status, self.limit.as_deref().unwrap_or("")),
        }
    }
}

/// The result file of a job.
pub fn record_path(out_dir: &Path, id: &str) -> PathBuf {
    out_dir.join("batch").join(format!("{}.json", id))
}

/// A record on disk for this job with the same spec hash, if any.
pub(super) fn existing_record(out_dir: &Path, job: &Job) -> Option<JobRecord> {
    let text = std::fs::read_to_string(record_path(out_dir, &job.spec.id)).ok()?;
    let r: JobRecord = serde_json::from_str(&text).ok()?;
    (r.spec_hash == job.hash && r.id == job.spec.id).then_some(r)
}
