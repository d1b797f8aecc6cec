//! The work protocol: a unit of work and its answer, each one JSON file in
//! the work dir (see [`super::workdir`] for where).
//!
//! A [`Unit`] names the gosolve version and the table-format fingerprint
//! it was written for: a worker of another version or table format refuses
//! it (its answer says why) instead of reading it as if it meant the same.
//! What it asks is its [`Work`]: a claim, a table shard or a batch job. The
//! unit's *hash* is the hash of its work alone, so a rerun with other
//! threads, memory or backend reuses every answer already given.
//!
//! An [`Answer`] says how the unit ended ([`Outcome`]), the work it took
//! (nodes, seconds, peak memory, host) and what the worker proved: a claim's
//! line and root moves with the [checkpoint delta](Delta), a shard's table
//! file, a batch job's record.

use crate::batch::{Job, JobRecord, JobSpec, Needed};
use crate::format::diagram;
use crate::rules::geometry::Geometry;
use crate::rules::history::Game;
use crate::rules::position::{Color, Superko};
use crate::store;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The protocol's version: raised whenever a unit or an answer changes
/// meaning.
pub const PROTOCOL: u32 = 1;

/// This program's version, as units and answers name it.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// One unit of work, as the manager writes it to `units/<id>.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Unit {
    /// Letters, digits, '.', '_', '-': names the unit's files.
    pub id: String,
    /// [`PROTOCOL`] of the writer.
    pub protocol: u32,
    /// [`VERSION`] of the writer.
    pub gosolve_version: String,
    /// The board the work is on, and the table-format fingerprint of this
    /// board in the writer ([`crate::search::tt::format_fingerprint`], hex):
    /// a claim's checkpoints are only exchanged between equal formats.
    pub board: String,
    pub table_format: String,
    /// Search threads of the worker (for a shard: positions solved at once).
    pub threads: usize,
    /// Transposition table per search, MiB (0: the machine's default).
    pub table_mb: usize,
    pub work: Work,
}

/// What a unit asks.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Work {
    Claim(ClaimWork),
    TableShard(ShardWork),
    BatchJob(BatchWork),
}

/// "value ≥ v" or "value ≤ v" at a position with its whole history.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClaimWork {
    /// The position as a batch job gives it (board, start position, player
    /// to move, the moves played since, rules with komi); see [`position_spec`].
    pub position: JobSpec,
    /// True: "value ≥ value"; false: "value ≤ value". Komi excluded (Black
    /// − White area), so no rounding is involved.
    pub at_least: bool,
    pub value: i32,
    /// The budget: the worker stops undecided after this many nodes or seconds.
    pub node_limit: Option<u64>,
    pub time_limit: Option<f64>,
    /// A checkpoint to start from (relative to the work dir, or absolute):
    /// the shared checkpoint of a distributed solve. Read only.
    pub read_checkpoint: Option<String>,
    /// Write what the worker proved as a checkpoint delta (`deltas/<id>.ck`).
    pub write_delta: bool,
    /// Seconds between saves of the unit's own checkpoint
    /// (`checkpoints/<id>.ck`), from which a preempted worker resumes
    /// (`None`: only when stopped by a signal).
    pub checkpoint_every: Option<f64>,
    /// Engine switches (never change an answer): alpha-beta only, no path
    /// symmetry.
    #[serde(default)]
    pub alpha_beta: bool,
    #[serde(default)]
    pub no_path_symmetry: bool,
}

/// Shard `index` of `shards` of the table of a board
/// ([`crate::tables::shard`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShardWork {
    pub board: String,
    pub suicide: bool,
    pub superko: Superko,
    pub komi: f64,
    pub index: usize,
    pub shards: usize,
    pub symmetry: bool,
    /// Seconds between saves of the shard's own checkpoint.
    pub checkpoint_every: f64,
}

/// One job of a batch manifest.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BatchWork {
    /// The job as the manifest gives it, its defaults applied.
    pub job: JobSpec,
    /// The directory its SGF path is relative to (absolute).
    pub base: String,
    /// The job's spec hash as the manager computed it: a worker that
    /// resolves the job to another (the SGF file changed) refuses it.
    pub spec_hash: String,
    /// The batch's output directory (absolute): the job's checkpoint is
    /// `<out_dir>/checkpoints/<id>.ck`, as in a batch run in one process.
    pub out_dir: String,
    pub checkpoints: bool,
    pub checkpoint_every: Option<f64>,
    /// The command line's limits, in place of the job's own.
    pub time_limit: Option<f64>,
    pub node_limit: Option<u64>,
    /// Confirm the job's value (`gosolve batch --confirm`) as well as a
    /// job's own `confirm = true` does.
    #[serde(default)]
    pub confirm: bool,
    /// Only this claim on the job's game (`gosolve batch --needed`), in
    /// place of its solve.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub claim: Option<Needed>,
}

impl Unit {
    /// A unit of `work` on `geo`, stamped with this program's version and
    /// table format.
    pub fn new(id: &str, geo: &Geometry, threads: usize, table_mb: usize, work: Work) -> Unit {
        Unit {
            id: id.to_string(),
            protocol: PROTOCOL,
            gosolve_version: VERSION.to_string(),
            board: geo.name(),
            table_format: format_of(geo),
            threads,
            table_mb,
            work,
        }
    }

    /// The hash of its work (hex): what an answer is matched to, so that an
    /// answer is reused for the same work whatever the threads, memory or
    /// backend, and never for other work under the same id.
    pub fn hash(&self) -> String {
        let json = serde_json::to_string(&self.work).expect("work serializes");
        format!("{:016x}", store::fnv1a64(json.as_bytes()))
    }

    /// Why this program cannot run it, if it cannot: another protocol,
    /// version or table format (one line).
    pub fn refusal(&self) -> Option<String> {
        if self.protocol != PROTOCOL || self.gosolve_version != VERSION {
            return Some(format!(
                "unit {} was written by gosolve {} (protocol {}); this worker is gosolve {} (protocol {}): run the same version everywhere",
                self.id, self.gosolve_version, self.protocol, VERSION, PROTOCOL
            ));
        }
        let geo: Geometry = match self.board.parse() {
            Ok(g) => g,
            Err(e) => return Some(format!("unit {}: board {}: {}", self.id, self.board, e)),
        };
        let here = format_of(&geo);
        if self.table_format != here {
            return Some(format!(
                "unit {} was written for table format {} on {}; this worker has {}: run the same build everywhere",
                self.id, self.table_format, self.board, here
            ));
        }
        None
    }

    /// Read a unit file (one-line error).
    pub fn read(path: &Path) -> Result<Unit, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read unit {}: {}", path.display(), e))?;
        serde_json::from_str(&text).map_err(|e| format!("unit {} cannot be used: {}", path.display(), e))
    }
}

/// The table-format fingerprint of `geo`, as units write it.
pub fn format_of(geo: &Geometry) -> String {
    format!("{:016x}", crate::search::tt::format_fingerprint(geo))
}

/// The position of `game` (start, player to move at the start, every move
/// since, rules and komi) as job fields, for a claim unit: resolved by the
/// worker ([`JobSpec::resolve`]) to the same game, history included.
pub fn position_spec(id: &str, game: &Game) -> JobSpec {
    let geo = &game.geo;
    let first = game.moves.first().map_or(game.to_move, |&(c, _)| c);
    let moves: Vec<String> = game.moves.iter().map(|(_, m)| m.name(geo)).collect();
    JobSpec {
        id: id.to_string(),
        board: Some(geo.name()),
        position: Some(diagram::compact(geo, &game.start)),
        to: Some(if first == Color::Black { "b" } else { "w" }.to_string()),
        moves: (!moves.is_empty()).then(|| moves.join(" ")),
        suicide: Some(game.rules.suicide),
        superko: Some(game.rules.superko),
        komi: Some(game.rules.komi.as_f64()),
        ..Default::default()
    }
}

/// The game of a claim's position (one-line error).
pub fn position_game(spec: &JobSpec) -> Result<Game, String> {
    spec.resolve(Path::new(".")).map(|j: Job| j.game)
}

/// How a unit ended.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Outcome {
    /// The claim holds.
    Proved,
    /// The claim does not hold (its opposite bound is proved).
    Refuted,
    /// The budget was spent first (a claim, or a batch job that hit its
    /// limit: its record says so); `limit` says which.
    Undecided { limit: String },
    /// A shard or a batch job finished.
    Done,
    /// The unit could not be run; `retry`: whether running it again may
    /// help (false: another version, a bad unit).
    Failed { reason: String, retry: bool },
}

impl Outcome {
    /// A one-word name for logs.
    pub fn name(&self) -> &'static str {
        match self {
            Outcome::Proved => "proved",
            Outcome::Refuted => "refuted",
            Outcome::Undecided { .. } => "undecided",
            Outcome::Done => "done",
            Outcome::Failed { .. } => "failed",
        }
    }
}

/// What a worker proved, as a checkpoint file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Delta {
    /// Relative to the work dir.
    pub path: String,
    /// Results in it.
    pub results: u64,
    /// False: only the results the worker did not read from its start
    /// checkpoint; true: its whole table.
    pub whole_table: bool,
}

/// A root move of a claim and what is known of the claim after it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RootMove {
    #[serde(rename = "move")]
    pub mv: String,
    /// The same claim after the move: proved to hold (true), proved not to
    /// hold (false), or open (null).
    pub holds: Option<bool>,
}

/// What a unit gave, by kind.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum UnitResult {
    Claim {
        /// A line of the proof (of the claim, or of its refutation).
        pv: Vec<String>,
        /// Where the claim was left undecided: what is known after each
        /// root move (every legal move, pass first).
        root_moves: Vec<RootMove>,
    },
    TableShard {
        /// The shard's partial table, relative to the work dir.
        output: String,
        entries: u64,
        solved: u64,
    },
    BatchJob {
        record: Box<JobRecord>,
    },
}

/// The answer to a unit, as the worker writes it to `answers/<id>.json`
/// (atomically: a killed worker leaves none).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Answer {
    pub unit: String,
    /// [`Unit::hash`] of the unit answered.
    pub unit_hash: String,
    pub protocol: u32,
    pub gosolve_version: String,
    #[serde(flatten)]
    pub outcome: Outcome,
    pub nodes: u64,
    pub seconds: f64,
    pub peak_memory_mib: Option<f64>,
    pub host: String,
    pub machine: String,
    pub date: String,
    pub delta: Option<Delta>,
    pub result: Option<UnitResult>,
    /// The long-lived worker that answered (none: a worker started for
    /// this unit alone).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub worker: Option<WorkerStamp>,
}

/// Which long-lived worker answered a unit: its slot, its process, and how
/// many units it has answered (this one included) since it started.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WorkerStamp {
    pub slot: String,
    pub pid: u32,
    pub units: u64,
}

/// The deltas a solve's manager has published to its long-lived workers
/// (`WORK/deltas/index.json`), each with a sequence number: a worker
/// imports those above the last it imported. Written atomically by the
/// manager; a delta leaves it only once every live worker has imported it
/// (and it is merged into the shared checkpoint).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DeltaIndex {
    pub deltas: Vec<Published>,
}

/// One published delta.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Published {
    pub seq: u64,
    /// Relative to the work dir.
    pub path: String,
    /// Merged into the shared checkpoint (the manager's bookkeeping).
    #[serde(default)]
    pub merged: bool,
}

/// What a long-lived worker says of itself (`WORK/workers/<slot>/status.json`,
/// written atomically after each unit and each import).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct WorkerStatus {
    pub slot: String,
    pub pid: u32,
    pub host: String,
    /// Units answered since it started.
    pub units: u64,
    /// The highest [`Published::seq`] it has imported.
    pub last_seq: u64,
}

/// What the manager puts in a long-lived worker's inbox
/// (`WORK/workers/<slot>/inbox/<id>.json`): the unit to run next.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Assignment {
    pub unit: String,
    pub attempt: u32,
}

impl Answer {
    /// An answer to `unit` stamped with this worker's facts; the counters
    /// are the caller's to fill.
    pub fn to(unit_id: &str, unit_hash: &str, outcome: Outcome) -> Answer {
        Answer {
            unit: unit_id.to_string(),
            unit_hash: unit_hash.to_string(),
            protocol: PROTOCOL,
            gosolve_version: VERSION.to_string(),
            outcome,
            nodes: 0,
            seconds: 0.0,
            peak_memory_mib: crate::process::peak_memory_mib(),
            host: crate::process::host_name(),
            machine: crate::process::machine_description(),
            date: crate::process::utc_now(),
            delta: None,
            result: None,
            worker: None,
        }
    }

    /// Read an answer file; `None` when there is none or it cannot be read.
    pub fn read(path: &Path) -> Option<Answer> {
        let text = std::fs::read_to_string(path).ok()?;
        serde_json::from_str(&text).ok()
    }

    /// Whether it is final (not a failure).
    pub fn is_final(&self) -> bool {
        !matches!(self.outcome, Outcome::Failed { .. })
    }
}

/// Whether `id` may name a unit's files.
pub fn valid_id(id: &str) -> bool {
    !id.is_empty() && !id.starts_with('.') && id.chars().all(|c| c.is_ascii_alphanumeric() || "._-".contains(c))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::position::{Move, Rules};

    /// A game with a history and a setup, to job fields and back: the same
    /// game, history included.
    #[test]
    fn positions_round_trip_with_their_history() {
        let geo = Geometry::new(3, 2).unwrap();
        let rules = Rules { suicide: true, superko: Superko::Situational, komi: crate::Komi(3) };
        let start = diagram::parse(&geo, "X../...").unwrap();
        let mut game = Game::new(geo, rules, start, Color::White).unwrap();
        for m in ["b1", "pass", "c2"] {
            game.play(Move::parse(m, &geo).unwrap()).unwrap();
        }
        let spec = position_spec("u", &game);
        let back = position_game(&spec).unwrap();
        assert_eq!((back.start, back.position, back.to_move), (game.start, game.position, game.to_move));
        assert_eq!(back.moves, game.moves);
        assert_eq!(back.rules, game.rules);
        assert_eq!(back.history.line(), game.history.line());
    }

    #[test]
    fn units_name_their_version_and_format() {
        let geo = Geometry::new(2, 2).unwrap();
        let game = Game::new(geo, Rules::default(), crate::Position::EMPTY, Color::Black).unwrap();
        let work = Work::Claim(ClaimWork {
            position: position_spec("c", &game),
            at_least: true,
            value: 1,
            node_limit: Some(10),
            time_limit: None,
            read_checkpoint: None,
            write_delta: false,
            checkpoint_every: None,
            alpha_beta: false,
            no_path_symmetry: false,
        });
        let unit = Unit::new("c", &geo, 1, 16, work);
        assert_eq!(unit.refusal(), None);
        let text = serde_json::to_string(&unit).unwrap();
        let back: Unit = serde_json::from_str(&text).unwrap();
        assert_eq!(back, unit);
        let other = Unit { threads: 4, table_mb: 0, ..unit.clone() };
        assert_eq!(other.hash(), unit.hash(), "threads and memory do not change the work");
        let old = Unit { gosolve_version: "0.0.1".into(), ..unit.clone() };
        assert!(old.refusal().unwrap().contains("gosolve 0.0.1"));
        let fmt = Unit { table_format: "0".into(), ..unit };
        assert!(fmt.refusal().unwrap().contains("table format"));
        assert!(valid_id("shard-1-of-4") && !valid_id("../x") && !valid_id(""));
    }
}
