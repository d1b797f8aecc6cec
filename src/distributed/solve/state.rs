//! The manager's state on disk (`solve/state.json`): the problem, the
//! tree, the units in flight as they were written, the deltas not merged
//! and the records of every unit answered. Written whole and atomically
//! after every round ([`super::run`]), read back by a resumed manager, by
//! the proof's writer ([`super::proof`]) and by the simulation
//! ([`super::simulate`]).

use super::manager::{Flight, Mode, Policy};
use crate::batch::JobSpec;
use crate::distributed::protocol::{Published, Unit};
use crate::distributed::DistError;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::Path;

/// The state file's format version.
pub const STATE_FORMAT: u32 = 1;

/// What is solved: a state for anything else is refused.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Problem {
    pub position: JobSpec,
    #[serde(flatten)]
    pub mode: Mode,
}

/// A unit in flight, as it was written (sent again identically on resume).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FlightState {
    #[serde(flatten)]
    pub flight: Flight,
    pub unit: Unit,
}

/// A unit answered: for the records and the simulation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UnitRecord {
    pub id: String,
    pub node: u32,
    /// The moves from the solve's position.
    pub path: String,
    pub at_least: bool,
    pub value: i32,
    pub budget: u64,
    /// proved, refuted or undecided.
    pub outcome: String,
    pub nodes: u64,
    /// The worker's search time (the answer's).
    pub seconds: f64,
    /// From its start as the manager saw it to its answer as applied (the
    /// worker's start, its reads and writes included); the answer's
    /// seconds where the manager did not see it run.
    pub wall: f64,
    pub round_sent: u64,
    pub round_answered: u64,
    /// Taken from the work dir (an earlier manager's run).
    pub reused: bool,
    pub host: String,
}

/// A merge between rounds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MergeRecord {
    pub round: u64,
    pub deltas: usize,
    pub results: u64,
    pub seconds: f64,
}

/// The manager's state on disk.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct State {
    pub format: u32,
    pub gosolve_version: String,
    pub problem: Problem,
    pub policy: Policy,
    pub workers: usize,
    pub round: u64,
    /// The shared checkpoint every new unit reads (relative to the work dir).
    pub shared: Option<String>,
    /// Deltas applied and not merged yet (relative to the work dir).
    pub pending: Vec<String>,
    /// Deltas published to the long-lived workers and not removed yet.
    #[serde(default)]
    pub published: Vec<Published>,
    /// The sequence number of the last delta published.
    #[serde(default)]
    pub last_seq: u64,
    pub nodes: Vec<super::tree::TreeNode>,
    pub goals: Vec<super::manager::Goal>,
    pub flights: Vec<FlightState>,
    pub records: Vec<UnitRecord>,
    pub merges: Vec<MergeRecord>,
    /// Seconds the managers ran, over all runs.
    pub manager_seconds: f64,
    pub done: bool,
}

impl State {
    /// Read the state of a work dir (none: a new solve).
    pub fn read(path: &Path) -> Result<Option<State>, DistError> {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(DistError::io(format!("read {}", path.display()), e)),
        };
        let st: State = serde_json::from_str(&text)
            .map_err(|e| DistError::Other(format!("{} cannot be used: {}", path.display(), e)))?;
        if st.format != STATE_FORMAT {
            return Err(DistError::Other(format!(
                "{} is of state format {}; this gosolve reads {}",
                path.display(),
                st.format,
                STATE_FORMAT
            )));
        }
        Ok(Some(st))
    }

    /// The answered units by id.
    pub fn record_index(&self) -> HashMap<&str, &UnitRecord> {
        self.records.iter().map(|r| (r.id.as_str(), r)).collect()
    }
}

/// Write the state atomically (a unique temporary name, then a rename).
pub fn save_state(path: &Path, st: &State) -> Result<(), DistError> {
    crate::store::write_json_atomic(path, st).map_err(|e| DistError::io(format!("write {}", path.display()), e))
}
