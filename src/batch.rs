//! Batches of solve jobs: a manifest (TOML, or JSON by extension) lists the
//! jobs; they run in parallel, each result is kept as JSON, and a markdown
//! summary compares the values with published ones.
//!
//! # Manifest
//!
//! ```toml
//! [defaults]            # optional; any job field below except id/published/source
//! time_limit = 60.0
//!
//! [[job]]
//! id = "3x2-doc"        # unique; letters, digits, '.', '_', '-'; names the result file
//! board = "3x2"         # WxH (may be omitted with sgf)
//! position = "..../..." # optional start position, rows top to bottom (default: empty)
//! to = "b"              # player to move at the start (default b)
//! moves = "b1 a2 b2"    # optional moves played from the start (they are history)
//! sgf = "game.sgf"      # or: the end of this SGF's main line (path relative to the manifest)
//! suicide = false       # rules: these fields, else the SGF's RU/KM, else NSTT, komi 0
//! superko = "positional"
//! komi = 0.0
//! node_limit = 1000000000 # at least 1 (leave out for none)
//! time_limit = 120.0    # seconds: more than 0, at most 1e9 (leave out for none)
//! published = 6.0       # optional published value (Black − White − komi)
//! source = "..."        # where the published value comes from
//! ```
//!
//! # Results
//!
//! `<out-dir>/batch/<id>.json` per job, and `<out-dir>/summary.md`. A job is
//! skipped on a re-run when its result file exists and records the same
//! spec hash (a hash of everything that decides the search: board, position,
//! moves, SGF text, rules, limits) and is solved. A job that hits its limit is
//! recorded as `unsolved (limit)` and run again on the next run. A solved
//! record is never replaced by an unsolved one of the same spec (a `--force`
//! rerun on a busy machine keeps it). Every file is written atomically
//! through [`crate::store`].
//!
//! Rules of a job: its own fields (or `[defaults]`), else its SGF's `RU`/`KM`,
//! else NSTT, komi 0; the record's `rules_source` says which.

use crate::format::{diagram, sgf};
use crate::limits;
use crate::rules::geometry::Geometry;
use crate::rules::history::Game;
use crate::rules::position::{fmt_value, result_phrase, Color, Komi, Move, Position, Rules, Superko};
use crate::search::{solve, Progress, RootMoveLog, SolveError, SolveOptions};
use crate::store;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// The built-in manifest (`results/batch-default.toml`).
pub const DEFAULT_MANIFEST: &str = include_str!("../results/batch-default.toml");

/// Fields a job may set and `[defaults]` may supply.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JobDefaults {
    pub to: Option<String>,
    pub suicide: Option<bool>,
    pub superko: Option<Superko>,
    pub komi: Option<f64>,
    pub node_limit: Option<u64>,
    pub time_limit: Option<f64>,
}

/// One job as written in the manifest.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JobSpec {
    pub id: String,
    pub board: Option<String>,
    pub position: Option<String>,
    pub to: Option<String>,
    pub moves: Option<String>,
    pub sgf: Option<String>,
    pub suicide: Option<bool>,
    pub superko: Option<Superko>,
    pub komi: Option<f64>,
    pub node_limit: Option<u64>,
    pub time_limit: Option<f64>,
    pub published: Option<f64>,
    pub source: Option<String>,
}

/// A manifest: defaults and jobs.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    #[serde(default)]
    pub defaults: JobDefaults,
    #[serde(default, rename = "job", alias = "jobs")]
    pub jobs: Vec<JobSpec>,
}

/// Why a manifest cannot be used. Messages are one line.
#[derive(Debug, thiserror::Error)]
pub enum ManifestError {
    #[error("cannot read manifest {path}: {source}")]
    Io { path: String, source: std::io::Error },
    #[error("manifest {path}: {message}")]
    Parse { path: String, message: String },
    #[error("manifest {path}: job '{id}': {message}")]
    Job { path: String, id: String, message: String },
}

impl Manifest {
    /// Parse manifest text; JSON when `name` ends in `.json`, TOML otherwise.
    pub fn parse(name: &str, text: &str) -> Result<Manifest, ManifestError> {
        let parse_err = |message: String| ManifestError::Parse { path: name.to_string(), message };
        if name.to_ascii_lowercase().ends_with(".json") {
            serde_json::from_str(text).map_err(|e| parse_err(e.to_string()))
        } else {
            toml::from_str(text).map_err(|e: toml::de::Error| {
                let at = e.span().map(|s| {
                    let line = text[..s.start.min(text.len())].matches('\n').count() + 1;
                    format!(" (line {})", line)
                });
                parse_err(format!("{}{}", e.message().trim().replace('\n', " "), at.unwrap_or_default()))
            })
        }
    }

    /// Read a manifest file.
    pub fn read(path: &Path) -> Result<Manifest, ManifestError> {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|source| ManifestError::Io { path: name.clone(), source })?;
        Manifest::parse(&name, &text)
    }

    /// The built-in manifest.
    pub fn default_manifest() -> Manifest {
        Manifest::parse("results/batch-default.toml", DEFAULT_MANIFEST).expect("the built-in manifest parses")
    }

    /// Check every job and set it up; `name` is for messages, `base` the
    /// directory SGF paths are relative to.
    pub fn resolve(&self, name: &str, base: &Path) -> Result<Vec<Job>, ManifestError> {
        let mut ids = HashSet::new();
        let mut out = Vec::new();
        for spec in &self.jobs {
            let err = |message: String| ManifestError::Job { path: name.to_string(), id: spec.id.clone(), message };
            if spec.id.is_empty()
                || !spec.id.chars().all(|c| c.is_ascii_alphanumeric() || "._-".contains(c))
                || spec.id.starts_with('.')
            {
                return Err(ManifestError::Parse {
                    path: name.to_string(),
                    message: format!(
                        "job id '{}' must be non-empty letters, digits, '.', '_' or '-' (it names the result file)",
                        spec.id
                    ),
                });
            }
            if !ids.insert(spec.id.clone()) {
                return Err(ManifestError::Parse {
                    path: name.to_string(),
                    message: format!("job id '{}' appears twice", spec.id),
                });
            }
            out.push(Job::new(spec.with_defaults(&self.defaults), base).map_err(err)?);
        }
        Ok(out)
    }
}

impl JobSpec {
    fn with_defaults(&self, d: &JobDefaults) -> JobSpec {
        let mut s = self.clone();
        s.to = s.to.or_else(|| d.to.clone());
        s.suicide = s.suicide.or(d.suicide);
        s.superko = s.superko.or(d.superko);
        s.komi = s.komi.or(d.komi);
        s.node_limit = s.node_limit.or(d.node_limit);
        s.time_limit = s.time_limit.or(d.time_limit);
        s
    }
}

/// A checked job, ready to run.
#[derive(Clone, Debug)]
pub struct Job {
    /// The spec with defaults applied.
    pub spec: JobSpec,
    /// The game to solve (its current position, with its history).
    pub game: Game,
    /// Hash of everything that decides the search (hex).
    pub hash: String,
    /// Where each part of the rules came from (see [`JobRecord::rules_source`]).
    pub rules_source: String,
}

/// Where each rule came from: "job" (its fields or `[defaults]`), "sgf" (its
/// `RU`/`KM`) or "default", e.g. `suicide: sgf, superko: sgf, komi: job`.
fn rules_source_of(spec: &JobSpec, sgf: Option<&sgf::SgfGame>) -> String {
    let from = |given: bool, in_file: bool| {
        if given {
            "job"
        } else if in_file {
            "sgf"
        } else {
            "default"
        }
    };
    let ru = sgf.is_some_and(|g| g.ru.is_some());
    let km = sgf.is_some_and(|g| g.km);
    format!(
        "suicide: {}, superko: {}, komi: {}",
        from(spec.suicide.is_some(), ru),
        from(spec.superko.is_some(), ru),
        from(spec.komi.is_some(), km)
    )
}

#[derive(Serialize)]
struct HashInput<'a> {
    board: String,
    position: &'a Option<String>,
    to: &'a Option<String>,
    moves: &'a Option<String>,
    sgf_text: Option<String>,
    rules: (bool, &'static str, i32),
    node_limit: Option<u64>,
    time_limit: Option<f64>,
}

impl Job {
    fn new(spec: JobSpec, base: &Path) -> Result<Job, String> {
        let komi = match spec.komi {
            Some(k) => {
                Some(Komi::from_f64(k).ok_or_else(|| format!("komi {} is not a multiple of 0.5 from -500 to 500", k))?)
            }
            None => None,
        };
        if let Some(t) = spec.time_limit {
            limits::seconds(t).map_err(|e| format!("time_limit: {}", e))?;
        }
        if let Some(n) = spec.node_limit {
            limits::node_limit(n).map_err(|e| format!("node_limit: {}", e))?;
        }
        // Rules: the job's fields (with [defaults]), else the SGF's RU/KM, else NSTT, komi 0.
        let over = |base: Rules| Rules {
            suicide: spec.suicide.unwrap_or(base.suicide),
            superko: spec.superko.unwrap_or(base.superko),
            komi: komi.unwrap_or(base.komi),
        };
        let mut rules = over(Rules::default());
        let mut rules_source = rules_source_of(&spec, None);
        let mut sgf_text = None;
        let mut game = if let Some(file) = &spec.sgf {
            if spec.position.is_some() || spec.to.is_some() {
                return Err("sgf cannot be combined with position or to".into());
            }
            let path = base.join(file);
            let text = std::fs::read_to_string(&path).map_err(|e| format!("cannot read {}: {}", path.display(), e))?;
            let g = sgf::read_game(&text).map_err(|e| format!("{}: {}", path.display(), e))?;
            if let Some(b) = &spec.board {
                let geo: Geometry = b.parse().map_err(|e| format!("{}", e))?;
                if geo != g.geo {
                    return Err(format!("board {} but the SGF is {}", geo.name(), g.geo.name()));
                }
            }
            rules = over(g.rules);
            rules_source = rules_source_of(&spec, Some(&g));
            let game = g.to_game(Some(rules)).map_err(|e| format!("{}: {}", path.display(), e))?;
            sgf_text = Some(text);
            game
        } else {
            let board = spec.board.as_deref().ok_or("give board (e.g. \"3x3\") or sgf")?;
            let geo: Geometry = board.parse().map_err(|e| format!("{}", e))?;
            let start = match &spec.position {
                Some(t) => diagram::parse(&geo, t).map_err(|e| e.to_string())?,
                None => Position::EMPTY,
            };
            let to = spec.to.as_deref().unwrap_or("b");
            let to = Color::parse(to).ok_or_else(|| format!("to = '{}' is not one of b, w", to))?;
            Game::new(geo, rules, start, to).map_err(|e| e.to_string())?
        };
        if let Some(moves) = &spec.moves {
            for m in moves.split([' ', ',']).filter(|s| !s.is_empty()) {
                let mv = Move::parse(m, &game.geo)
                    .ok_or_else(|| format!("move '{}' is not a point of {} or pass", m, game.geo.name()))?;
                game.play(mv).map_err(|e| e.to_string())?;
            }
        }
        let input = HashInput {
            board: game.geo.name(),
            position: &spec.position,
            to: &spec.to,
            moves: &spec.moves,
            sgf_text,
            rules: (rules.suicide, rules.superko.name(), rules.komi.0),
            node_limit: spec.node_limit,
            time_limit: spec.time_limit,
        };
        let json = serde_json::to_string(&input).expect("hash input serializes");
        let hash = format!("{:016x}", store::fnv1a64(json.as_bytes()));
        Ok(Job { spec, game, hash, rules_source })
    }

    /// Where the position column of the summary comes from: start, moves, side.
    pub fn position_text(&self) -> String {
        position_text(&self.game)
    }
}

fn position_text(game: &Game) -> String {
    let geo = &game.geo;
    let start = if game.start == Position::EMPTY { "empty".to_string() } else { diagram::compact(geo, &game.start) };
    let side = if game.to_move == Color::Black { "B" } else { "W" };
    if game.moves.is_empty() {
        format!("{}, {} to move", start, side)
    } else {
        let moves: Vec<String> = game
            .moves
            .iter()
            .enumerate()
            .map(|(i, (c, m))| format!("{}.{}[{}]", i + 1, c.letter(), m.name(geo)))
            .collect();
        format!("{} + {}, {} to move", start, moves.join(" "), side)
    }
}

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
    /// One line for logs: "Black wins by 1 (+1), 1234 nodes in 0.01 s" or "unsolved (limit)".
    pub fn outcome_text(&self) -> String {
        match self.value_with_komi {
            Some(v) => {
                let agree = match self.agree {
                    Some(true) => ", agrees with published",
                    Some(false) => ", DISAGREES with published",
                    None => "",
                };
                format!("{} ({}), {} nodes in {:.2} s{}", result_phrase(v), signed(v), self.nodes, self.seconds, agree)
            }
            None => format!("{}: {}", self.status, self.limit.as_deref().unwrap_or("")),
        }
    }
}

fn signed(v: f64) -> String {
    if v > 0.0 {
        format!("+{}", fmt_value(v))
    } else {
        fmt_value(v)
    }
}

/// Told about jobs as they run (implemented by the progress display).
pub trait BatchObserver: Send + Sync {
    fn job_started(&self, _id: &str) {}
    fn job_progress(&self, _id: &str, _p: &Progress) {}
    fn job_finished(&self, _id: &str, _record: &JobRecord, _skipped: bool) {}
}

/// An observer that ignores everything.
pub struct NoObserver;
impl BatchObserver for NoObserver {}

/// Options of a batch run.
#[derive(Clone)]
pub struct BatchOptions {
    /// Results go to `<out_dir>/batch/<id>.json` and `<out_dir>/summary.md`.
    pub out_dir: PathBuf,
    /// Jobs run at once (0 = all cores).
    pub jobs: usize,
    /// Search threads per job.
    pub threads: usize,
    /// Transposition table size per job in MiB (0 = the solver's default).
    pub table_mb: usize,
    /// Redo jobs that already have results.
    pub force: bool,
    /// Set from outside (Ctrl-C) to stop; running jobs are not recorded.
    pub abort: Option<Arc<AtomicBool>>,
}

impl Default for BatchOptions {
    fn default() -> Self {
        BatchOptions { out_dir: PathBuf::from("out"), jobs: 0, threads: 1, table_mb: 0, force: false, abort: None }
    }
}

/// What a batch run did.
#[derive(Debug)]
pub struct BatchReport {
    /// Per job in manifest order: its record, if it has one (`None`: interrupted before it finished).
    pub records: Vec<(Job, Option<JobRecord>)>,
    pub ran: usize,
    pub skipped: usize,
    /// Jobs re-run (with force) that hit their limit this time, whose earlier
    /// solved record was kept (and is what `records` holds).
    pub kept_solved: usize,
    pub interrupted: bool,
    pub summary_path: PathBuf,
    pub summary: String,
}

impl BatchReport {
    /// Ids of jobs whose value disagrees with the published one (per the current manifest).
    pub fn disagreements(&self) -> Vec<String> {
        self.records
            .iter()
            .filter(|(job, r)| agreement(job, r.as_ref()) == Some(false))
            .map(|(job, _)| job.spec.id.clone())
            .collect()
    }
    /// Ids of jobs that hit their limit.
    pub fn unsolved(&self) -> Vec<String> {
        self.records
            .iter()
            .filter(|(_, r)| r.as_ref().is_some_and(|r| r.status != SOLVED))
            .map(|(job, _)| job.spec.id.clone())
            .collect()
    }
}

/// Published value vs the recorded one: `None` when there is nothing to compare.
fn agreement(job: &Job, record: Option<&JobRecord>) -> Option<bool> {
    let published = job.spec.published?;
    let v = record?.value_with_komi?;
    Some(published == v)
}

/// The result file of a job.
pub fn record_path(out_dir: &Path, id: &str) -> PathBuf {
    out_dir.join("batch").join(format!("{}.json", id))
}

/// A record on disk for this job with the same spec hash, if any.
fn existing_record(out_dir: &Path, job: &Job) -> Option<JobRecord> {
    let text = std::fs::read_to_string(record_path(out_dir, &job.spec.id)).ok()?;
    let r: JobRecord = serde_json::from_str(&text).ok()?;
    (r.spec_hash == job.hash && r.id == job.spec.id).then_some(r)
}

/// Why a batch could not run to the end.
#[derive(Debug, thiserror::Error)]
pub enum BatchError {
    #[error("cannot write {path}: {source}")]
    Write { path: String, source: std::io::Error },
}

/// Run the jobs (skipping finished ones unless `force`), write every result
/// and the summary. Jobs that hit a limit are recorded, not errors.
pub fn run_batch(
    jobs: &[Job],
    opts: &BatchOptions,
    observer: Arc<dyn BatchObserver>,
) -> Result<BatchReport, BatchError> {
    let machine = machine_description();
    let mut records: Vec<Option<JobRecord>> = vec![None; jobs.len()];
    let mut pending = Vec::new();
    // Solved records on disk for these specs: never replaced by a worse one.
    let mut solved_before: Vec<Option<JobRecord>> = vec![None; jobs.len()];
    for (i, job) in jobs.iter().enumerate() {
        let existing = existing_record(&opts.out_dir, job).filter(|r| r.status == SOLVED);
        match existing {
            Some(r) if !opts.force => {
                observer.job_finished(&job.spec.id, &r, true);
                records[i] = Some(r);
            }
            // Unsolved jobs (and, with force, every job) run again.
            other => {
                solved_before[i] = other;
                pending.push(i);
            }
        }
    }
    let skipped = jobs.len() - pending.len();
    let threads = if opts.jobs == 0 { std::thread::available_parallelism().map_or(1, |n| n.get()) } else { opts.jobs };
    // Jobs running at once share the machine's default table memory.
    let sized = BatchOptions {
        table_mb: match opts.table_mb {
            0 => crate::search::machine_table_mb_shared(threads.min(pending.len()).max(1)),
            mb => mb,
        },
        ..opts.clone()
    };
    let opts = &sized;
    let abort = opts.abort.clone().unwrap_or_else(|| Arc::new(AtomicBool::new(false)));
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<(usize, JobRecord)>> = Mutex::new(Vec::new());
    let errors: Mutex<Vec<BatchError>> = Mutex::new(Vec::new());
    let interrupted = AtomicBool::new(false);
    let kept = AtomicUsize::new(0);
    let solved_before = &solved_before;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.min(pending.len()).max(1))
        .thread_name(|i| format!("batch-{}", i))
        .build()
        .expect("thread pool");
    pool.scope(|s| {
        for _ in 0..threads.min(pending.len()) {
            s.spawn(|_| loop {
                if abort.load(Ordering::Relaxed) {
                    interrupted.store(true, Ordering::Relaxed);
                    break;
                }
                let k = next.fetch_add(1, Ordering::Relaxed);
                let Some(&i) = pending.get(k) else { break };
                let job = &jobs[i];
                observer.job_started(&job.spec.id);
                match run_job(job, opts, &abort, &machine, &observer) {
                    Some(record) => {
                        let path = record_path(&opts.out_dir, &job.spec.id);
                        // A limit hit on a busy machine must not replace a solved record.
                        if record.status != SOLVED {
                            if let Some(old) = &solved_before[i] {
                                observer.job_finished(&job.spec.id, &record, false);
                                results.lock().unwrap_or_else(|e| e.into_inner()).push((i, old.clone()));
                                kept.fetch_add(1, Ordering::Relaxed);
                                continue;
                            }
                        }
                        if let Err(source) = store::write_json_atomic(&path, &record) {
                            errors
                                .lock()
                                .unwrap_or_else(|e| e.into_inner())
                                .push(BatchError::Write { path: path.display().to_string(), source });
                            abort.store(true, Ordering::Relaxed);
                        }
                        observer.job_finished(&job.spec.id, &record, false);
                        results.lock().unwrap_or_else(|e| e.into_inner()).push((i, record));
                    }
                    None => interrupted.store(true, Ordering::Relaxed),
                }
            });
        }
    });
    if let Some(e) = errors.into_inner().unwrap_or_else(|e| e.into_inner()).into_iter().next() {
        return Err(e);
    }
    let mut ran = 0;
    for (i, r) in results.into_inner().unwrap_or_else(|e| e.into_inner()) {
        records[i] = Some(r);
        ran += 1;
    }
    let records: Vec<(Job, Option<JobRecord>)> = jobs.iter().cloned().zip(records).collect();
    let summary = summary_markdown(&records);
    let summary_path = opts.out_dir.join("summary.md");
    store::write_text_atomic(&summary_path, &summary)
        .map_err(|source| BatchError::Write { path: summary_path.display().to_string(), source })?;
    Ok(BatchReport {
        records,
        ran,
        skipped,
        kept_solved: kept.into_inner(),
        interrupted: interrupted.into_inner(),
        summary_path,
        summary,
    })
}

/// Solve one job; `None` when interrupted.
fn run_job(
    job: &Job,
    opts: &BatchOptions,
    abort: &Arc<AtomicBool>,
    machine: &str,
    observer: &Arc<dyn BatchObserver>,
) -> Option<JobRecord> {
    let last = Arc::new(Mutex::new(Progress::default()));
    let (last2, observer2, id) = (last.clone(), observer.clone(), job.spec.id.clone());
    let solved = RootMoveLog::default();
    let solve_opts = SolveOptions {
        threads: opts.threads.max(1),
        node_limit: job.spec.node_limit,
        // Checked when the job was resolved (Job::new).
        time_limit: job.spec.time_limit.and_then(|t| limits::seconds(t).ok()),
        abort: Some(abort.clone()),
        table_mb: opts.table_mb,
        progress: Some(Arc::new(move |p: &Progress| {
            *last2.lock().unwrap_or_else(|e| e.into_inner()) = p.clone();
            observer2.job_progress(&id, p);
        })),
        no_pv: false,
        value_only: false,
        on_root_move: Some(solved.callback()),
        value_bounds: None,
        engine: Default::default(),
    };
    let start = Instant::now();
    let result = solve(&job.game, &solve_opts);
    let seconds = start.elapsed().as_secs_f64();
    let game = &job.game;
    let geo = &game.geo;
    let komi = game.rules.komi.as_f64();
    let mut rec = JobRecord {
        id: job.spec.id.clone(),
        spec_hash: job.hash.clone(),
        status: SOLVED.into(),
        limit: None,
        board: geo.name(),
        position: diagram::compact(geo, &game.position),
        to_move: game.to_move.name().into(),
        history: game.moves.iter().map(|(_, m)| m.name(geo)).collect(),
        start_position: diagram::compact(geo, &game.start),
        rules: RulesRecord { suicide: game.rules.suicide, superko: game.rules.superko.name().into(), komi },
        rules_source: Some(job.rules_source.clone()),
        value: None,
        value_with_komi: None,
        result: None,
        pv: vec![],
        moves: vec![],
        published: job.spec.published,
        source: job.spec.source.clone(),
        agree: None,
        nodes: 0,
        seconds,
        nodes_per_second: 0.0,
        max_depth: 0,
        peak_memory_mib: peak_memory_mib(),
        machine: machine.to_string(),
        date: utc_now(),
        gosolve_version: env!("CARGO_PKG_VERSION").into(),
    };
    match result {
        Ok(sol) => {
            let v = sol.value_with_komi(&game.rules);
            rec.value = Some(sol.value);
            rec.value_with_komi = Some(v);
            rec.result = Some(result_phrase(v));
            rec.pv = sol.pv.iter().map(|m| m.name(geo)).collect();
            rec.moves =
                sol.moves.iter().map(|m| MoveRecord { mv: m.mv.name(geo), value: m.value as f64 - komi }).collect();
            rec.agree = job.spec.published.map(|p| p == v);
            rec.nodes = sol.stats.nodes;
            rec.seconds = sol.stats.seconds;
            rec.max_depth = sol.stats.max_depth;
        }
        Err(SolveError::Interrupted) => return None,
        Err(e) => {
            let p = last.lock().unwrap_or_else(|e| e.into_inner()).clone();
            rec.status = UNSOLVED.into();
            rec.limit = Some(e.to_string());
            rec.nodes = p.nodes;
            rec.max_depth = p.max_depth;
            // The root moves solved before the limit (exact values).
            rec.moves = solved
                .sorted()
                .iter()
                .map(|m| MoveRecord { mv: m.mv.name(geo), value: m.value as f64 - komi })
                .collect();
        }
    }
    rec.nodes_per_second = rec.nodes as f64 / rec.seconds.max(1e-9);
    Some(rec)
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

/// CPU model name and logical core count, from /proc/cpuinfo where available.
pub fn machine_description() -> String {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let text = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = text
        .lines()
        .find(|l| l.starts_with("model name"))
        .and_then(|l| l.split_once(':'))
        .map(|(_, v)| v.trim().to_string());
    let listed = text.lines().filter(|l| l.starts_with("processor")).count();
    let cores = if listed > 0 { listed } else { cores };
    format!(
        "{}, {} core{}",
        model.unwrap_or_else(|| std::env::consts::ARCH.to_string()),
        cores,
        if cores == 1 { "" } else { "s" }
    )
}

/// Peak resident memory of this process in MiB (Linux `VmHWM`).
pub fn peak_memory_mib() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

/// The current UTC time as `YYYY-MM-DDTHH:MM:SSZ`.
pub fn utc_now() -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs()) as i64;
    utc_text(secs)
}

fn utc_text(secs: i64) -> String {
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + (m <= 2) as i64;
    format!("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z", y, m, d, rem / 3600, (rem % 3600) / 60, rem % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(utc_text(0), "1970-01-01T00:00:00Z");
        assert_eq!(utc_text(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(utc_text(1_700_000_000), "2023-11-14T22:13:20Z");
    }

    #[test]
    fn default_manifest_resolves() {
        let m = Manifest::default_manifest();
        let jobs = m.resolve("default", Path::new(".")).unwrap();
        assert!(jobs.len() >= 12);
        let doc = jobs.iter().find(|j| j.game.moves.len() == 3).expect("the documents' 3x2 example");
        assert_eq!(doc.game.to_move, Color::White);
        assert_eq!(doc.spec.published, Some(6.0));
    }

    #[test]
    fn manifest_errors_are_one_line() {
        let e = Manifest::parse("m.toml", "[[job]]\nid = \"a\"\nbord = \"2x2\"\n").unwrap_err().to_string();
        assert!(!e.contains('\n') && e.contains("bord"), "{e}");
        let m = Manifest::parse("m.toml", "[[job]]\nid = \"a\"\nboard = \"2x2\"\nposition = \"XX/XX\"\n").unwrap();
        let e = m.resolve("m.toml", Path::new(".")).unwrap_err().to_string();
        assert!(e.contains("job 'a'") && e.contains("illegal"), "{e}");
        let m = Manifest::parse("m.json", r#"{"job": [{"id": "../x", "board": "2x2"}]}"#).unwrap();
        assert!(m.resolve("m.json", Path::new(".")).is_err());
    }

    #[test]
    fn hash_tracks_search_inputs_only() {
        let parse = |extra: &str| {
            let m = Manifest::parse("m.toml", &format!("[[job]]\nid = \"a\"\nboard = \"2x2\"\n{}", extra)).unwrap();
            m.resolve("m", Path::new(".")).unwrap()[0].hash.clone()
        };
        assert_eq!(parse(""), parse("published = 1\nsource = \"x\"\n"));
        assert_ne!(parse(""), parse("komi = 0.5\n"));
        assert_ne!(parse(""), parse("time_limit = 5\n"));
    }
}
