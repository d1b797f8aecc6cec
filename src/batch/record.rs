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

/// Status of a solved job (and confirmed, where its job asks for it).
pub const SOLVED: &str = "solved";
/// Status of a job that hit its node or time limit.
pub const UNSOLVED: &str = "unsolved (limit)";
/// Status of a job whose value is found but not yet confirmed (a check hit
/// its limit or was interrupted): the next run does the checks still open.
pub const UNCONFIRMED: &str = "solved, confirmation open";
/// Status of a job one of whose checks contradicts its value: a fault of
/// the solver, to be found, never a result.
pub const CONTRADICTED: &str = "confirmation failed";

/// Outcome of a check that agrees with the value.
pub const HOLDS: &str = "holds";
/// Outcome of a check that contradicts it.
pub const FAILS: &str = "fails";

/// Bounds proved on the value by a value-only job stopped by its limit
/// (with komi; `None`: not proved).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BoundsRecord {
    pub at_least: Option<f64>,
    pub at_most: Option<f64>,
    /// The null-window tests ("value ≥ b", with komi) the limit stopped
    /// it in: where a long job had got to when it proved no bound yet.
    /// Records written before have none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub testing: Vec<f64>,
    /// Where that one test had got to, root move by root move: after which
    /// moves "value ≥ b" was proved to hold or to fail when it stopped
    /// (read from the table), and after which it was still open: on a
    /// test of hours, the moves left are where the rest of its work lies.
    /// Absent where it stopped in several tests, and in older records.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after_moves: Option<TestMoves>,
}

/// The root moves of a stopped test "value ≥ b" by what is proved after
/// each (see [`BoundsRecord::after_moves`]): every legal move in one list.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TestMoves {
    /// "value ≥ b" holds after these moves.
    pub holds: Vec<String>,
    /// It fails after these ("value ≤ b − 1").
    pub fails: Vec<String>,
    /// Not decided after these when the run stopped.
    pub open: Vec<String>,
}

/// What the earlier runs of a job's solve did (see [`JobRecord::earlier`]).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct EarlierRuns {
    pub runs: u32,
    pub nodes: u64,
    pub seconds: f64,
}

/// One check of a confirmation (see the module `batch`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CheckRecord {
    /// `at-least` or `at-most` (a claim about the value), or `value` (a
    /// value-only solve with another engine configuration).
    pub check: String,
    /// What it tests or finds, e.g. `value >= +21`, `value = +21`.
    pub claim: String,
    /// How it searched: `solver` (the default engine) or the other
    /// configuration (`alpha-beta`, `no-path-symmetry`, `other-threads`);
    /// always a fresh table.
    pub engine: String,
    /// [`HOLDS`], [`FAILS`] or [`UNSOLVED`].
    pub outcome: String,
    /// The value a `value` check found (with komi).
    pub value: Option<f64>,
    /// The line of the claim's proof, or the value's principal variation.
    pub pv: Vec<String>,
    pub nodes: u64,
    pub seconds: f64,
    pub threads: usize,
    pub table_mb: usize,
    pub date: String,
    pub commit: String,
    /// What the check ran on ([`crate::process::machine_description`]): a
    /// job's checks may run on another machine than its solve, after a
    /// machine was lost or on a cluster's workers. `None` in records
    /// written before 2026-11-30.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub machine: Option<String>,
    /// The machine's 1-minute load average when the check started and ended.
    #[serde(default)]
    pub load_average: Option<Vec<f64>>,
}

/// A value confirmed a second way.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Confirmation {
    /// The value the checks test (with komi).
    pub value: f64,
    /// The second solve's configuration (`no-path-symmetry`, `alpha-beta`,
    /// `other-threads`).
    pub with: String,
    pub checks: Vec<CheckRecord>,
    /// `Some(true)`: all three checks agree; `Some(false)`: one contradicts
    /// the value; `None`: some are still open.
    pub confirmed: Option<bool>,
}

impl Confirmation {
    /// The check of this kind, if done.
    pub fn check(&self, kind: &str) -> Option<&CheckRecord> {
        self.checks.iter().find(|c| c.check == kind)
    }
}

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
    /// The value (with komi) of every legal root move (none for a value-only job).
    pub moves: Vec<MoveRecord>,
    /// The first moves that reach the value (from `moves`; for a value-only
    /// job the first move of its line).
    #[serde(default)]
    pub best_moves: Vec<String>,
    /// Whether only the value was sought (then `moves` is empty).
    #[serde(default)]
    pub value_only: bool,
    /// A value-only job stopped by its limit: the bounds it proved.
    #[serde(default)]
    pub bounds: Option<BoundsRecord>,
    /// The earlier runs of this solve that stopped at their limit, each
    /// resumed by the next from the job's checkpoint: their work is not in
    /// `nodes` and `seconds`, which are this run's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub earlier: Option<EarlierRuns>,
    pub published: Option<f64>,
    pub source: Option<String>,
    pub agree: Option<bool>,
    /// Why the value differs from the published one (the manifest's
    /// `explanation`, for the value it explains); `None` where they agree,
    /// or where the difference is not explained (the batch then fails).
    #[serde(default)]
    pub explanation: Option<String>,
    /// The value confirmed a second way, where the job asks for it.
    #[serde(default)]
    pub confirmation: Option<Confirmation>,
    pub nodes: u64,
    pub seconds: f64,
    pub nodes_per_second: f64,
    pub max_depth: usize,
    /// Peak resident memory of the whole process when the job ended (jobs share it).
    pub peak_memory_mib: Option<f64>,
    pub machine: String,
    /// The machine's 1-minute load average when the job started and ended
    /// (other work on the machine slows a run: its time is then no measure).
    #[serde(default)]
    pub load_average: Option<Vec<f64>>,
    /// Search threads of the job, and its table size in MiB.
    #[serde(default)]
    pub threads: Option<usize>,
    #[serde(default)]
    pub table_mb: Option<usize>,
    pub date: String,
    pub gosolve_version: String,
    /// The commit the binary was built from ([`crate::process::COMMIT`]).
    #[serde(default)]
    pub commit: Option<String>,
}

impl JobRecord {
    /// Whether its confirmation's value check is, or is to be, a search
    /// other than its solve: of the configuration `job` asks for now
    /// ([`Job::second_configuration`]), or one already run on another
    /// number of threads than the solve, which is `other-threads` whatever
    /// else it switched. A value check that is neither (one of an older
    /// rule) is run again.
    pub fn value_check_differs(&self, job: &Job) -> bool {
        let Some(c) = &self.confirmation else { return false };
        c.with == job.second_configuration().name()
            || c.check("value").is_some_and(|k| self.threads.is_some_and(|t| t != k.threads))
    }

    /// The earlier runs a run that resumed this (unsolved) record's
    /// checkpoint carries: this record's own and those before it.
    pub fn earlier_with_this(&self) -> EarlierRuns {
        let e = self.earlier.clone().unwrap_or_default();
        EarlierRuns { runs: e.runs + 1, nodes: e.nodes + self.nodes, seconds: e.seconds + self.seconds }
    }

    /// The time of its solve: this run's, and the earlier runs' where
    /// there were some ("60.6 s, after 1 earlier run of 3600.0 s in all").
    pub fn time_text(&self) -> String {
        let secs = |s: f64| if s < 10.0 { format!("{:.2} s", s) } else { format!("{:.1} s", s) };
        match &self.earlier {
            Some(e) => format!(
                "{}, after {} earlier run{} of {} in all",
                secs(self.seconds),
                e.runs,
                if e.runs == 1 { "" } else { "s" },
                secs(e.seconds)
            ),
            None => secs(self.seconds),
        }
    }

    /// The bounds an unsolved record proved, in a few characters: `≥ +14`,
    /// `≤ +20`, `+14 to +20`, or `= +6` where they meet (the value found,
    /// its line not: the limit came in between); `None` where it has a
    /// value or proved none.
    pub fn bounds_text(&self) -> Option<String> {
        if self.value_with_komi.is_some() {
            return None;
        }
        let b = self.bounds.as_ref()?;
        crate::format::numbers::bounds(b.at_least, b.at_most)
    }

    /// `stopped in the test ≥ +24` (or `… ≥ +3 and ≥ +25`): the tests a
    /// value-only job stopped by its limit was in, with how many root moves
    /// that test was decided after where the record says (`…, decided after
    /// 10 of 13 moves; open: f2 g2`); `None` where it has a value or the
    /// record names none (written before they were kept).
    pub fn open_tests_text(&self) -> Option<String> {
        if self.value_with_komi.is_some() {
            return None;
        }
        let b = self.bounds.as_ref().filter(|b| !b.testing.is_empty())?;
        let tests = crate::format::numbers::tests(&b.testing);
        let Some(m) = &b.after_moves else {
            return Some(format!("stopped in the test {tests}"));
        };
        let (open, all) = (m.open.len(), m.holds.len() + m.fails.len() + m.open.len());
        // The open moves are named where they are few enough to read.
        let named = match open {
            1..=OPEN_NAMED => format!("; open: {}", m.open.join(" ")),
            _ => String::new(),
        };
        Some(format!("stopped in the test {tests}, decided after {} of {all} moves{named}", all - open))
    }

    /// One line for logs: "Black wins by 1 (+1), 1,234 nodes in 0.01 s" or "unsolved (limit)".
    pub fn outcome_text(&self) -> String {
        match self.value_with_komi {
            Some(v) => {
                let agree = match self.agree {
                    Some(true) => ", agrees with published",
                    Some(false) if self.explanation.is_some() => ", differs from published (explained)",
                    Some(false) => ", DISAGREES with published",
                    None => "",
                };
                let confirmed = match self.confirmation.as_ref().map(|c| c.confirmed) {
                    Some(Some(true)) => ", confirmed",
                    Some(Some(false)) => ", CONFIRMATION FAILED",
                    Some(None) => ", confirmation open",
                    None => "",
                };
                format!(
                    "{} ({}), {} in {:.2} s{}{}",
                    result_phrase(v),
                    signed(v),
                    nodes(self.nodes),
                    self.seconds,
                    agree,
                    confirmed
                )
            }
            None => format!("{}: {}", self.status, self.limit.as_deref().unwrap_or("")),
        }
    }
}

/// The most open moves a record's summary names (beyond, a count says enough).
const OPEN_NAMED: usize = 4;

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

/// A record for tests: `id` on `board` solved to `value` on `date`, with
/// three first moves and the rest left empty.
#[cfg(test)]
pub(crate) fn sample(id: &str, board: &str, value: Option<f64>, date: &str) -> JobRecord {
    JobRecord {
        id: id.into(),
        spec_hash: "0".into(),
        status: "solved".into(),
        limit: None,
        board: board.into(),
        position: "..../....".into(),
        to_move: "black".into(),
        history: vec![],
        start_position: "..../....".into(),
        rules: RulesRecord { suicide: false, superko: "positional".into(), komi: 0.0 },
        rules_source: None,
        value: value.map(|v| v as i32),
        value_with_komi: value,
        result: None,
        pv: vec!["b1".into()],
        moves: vec![
            MoveRecord { mv: "pass".into(), value: -8.0 },
            MoveRecord { mv: "b1".into(), value: 8.0 },
            MoveRecord { mv: "c1".into(), value: 8.0 },
        ],
        best_moves: vec![],
        value_only: false,
        bounds: None,
        earlier: None,
        published: None,
        source: None,
        agree: None,
        explanation: None,
        confirmation: None,
        nodes: 10,
        seconds: 12.345,
        nodes_per_second: 1.0,
        max_depth: 3,
        peak_memory_mib: None,
        machine: "AMD EPYC, 2 cores".into(),
        load_average: None,
        threads: None,
        table_mb: None,
        date: date.into(),
        gosolve_version: "0.2.0".into(),
        commit: None,
    }
}
