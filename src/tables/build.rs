//! Building a table: every legal position solved once per symmetry class,
//! in parallel, with checkpoints a later run resumes from.

use super::transform::Transform;
use super::{key, partial_path, Entry, Key, SolvedTable, TableSpec};
use crate::count::legal::legal_positions;
use crate::rules::history::Game;
use crate::rules::position::{Color, Move, Position};
use crate::search::{solve, SolveError, SolveOptions};
use crate::store;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

/// Largest board a table can be built for (3^n colourings are enumerated).
pub const MAX_TABLE_POINTS: usize = 16;

/// Solve one entry exactly: a game from `position` with no earlier history.
pub fn solve_entry(
    spec: &TableSpec,
    position: Position,
    to_move: Color,
    opts: &SolveOptions,
) -> Result<Entry, SolveError> {
    let game = Game::new(spec.geo, spec.rules, position, to_move).expect("table positions are legal");
    let sol = solve(&game, opts)?;
    Ok(entry_of(position, to_move, &sol))
}

/// The table entry a solve of `position` (no earlier history) gives: its
/// value and every root move of that value.
pub(super) fn entry_of(position: Position, to_move: Color, sol: &crate::search::Solution) -> Entry {
    let mut e = Entry {
        position,
        to_move,
        value: i8::try_from(sol.value).expect("a value on at most 64 points fits in i8"),
        best_pass: false,
        best_points: 0,
    };
    for m in sol.moves.iter().filter(|m| m.value == sol.value) {
        match m.mv {
            Move::Pass => e.best_pass = true,
            Move::Play(p) => e.best_points |= 1 << p,
        }
    }
    e
}

/// What the build reports now and then.
#[derive(Clone, Debug, Default)]
pub struct BuildProgress {
    /// Entries known (solved or derived), including those loaded from a checkpoint.
    pub done: u64,
    /// Entries of a complete table.
    pub total: u64,
    /// Entries that were loaded from the checkpoint at the start.
    pub resumed: u64,
    /// Positions solved by the search in this run.
    pub solved: u64,
    /// Positions the search has to solve in this run in all.
    pub to_solve: u64,
    /// Seconds since this run started.
    pub seconds: f64,
    /// Solves running now, and how long the oldest of them has been running.
    pub in_flight: usize,
    pub oldest_in_flight: f64,
}

/// Options of a table build.
#[derive(Clone)]
pub struct BuildOptions {
    /// Positions solved at once (0 = all cores); each solve is single-threaded.
    pub threads: usize,
    /// Transposition table size of each solve, in MiB.
    pub table_mb: usize,
    /// Use board and colour symmetry to solve one position per class.
    pub symmetry: bool,
    /// How often the checkpoint is rewritten.
    pub checkpoint_every: Duration,
    /// Stop (as if interrupted) once this many positions were solved in this run:
    /// exactly the first N of the run's work list are solved.
    pub stop_after: Option<u64>,
    /// Stop (as if interrupted) after this long.
    pub time_limit: Option<Duration>,
    /// Set from outside (Ctrl-C) to stop; the checkpoint is written.
    pub abort: Option<Arc<AtomicBool>>,
    /// Ignore an existing output file and checkpoint; start from scratch.
    pub force: bool,
    /// Called on the calling thread after every result, about ten times a second meanwhile, and at the end.
    pub progress: Option<ProgressFn>,
}

/// A build progress callback.
pub type ProgressFn = Arc<dyn Fn(&BuildProgress) + Send + Sync>;

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions {
            threads: 0,
            table_mb: 16,
            symmetry: true,
            checkpoint_every: Duration::from_secs(10),
            stop_after: None,
            time_limit: None,
            abort: None,
            force: false,
            progress: None,
        }
    }
}

/// Why a build stopped before the table was complete.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    Interrupted,
    TimeLimit,
    StopAfter,
}

/// How a build ended.
#[derive(Debug)]
pub enum BuildOutcome {
    /// The output file was already a complete table of this spec; nothing done.
    AlreadyComplete { entries: u64 },
    /// The table is complete and written; the checkpoint is removed.
    Complete { entries: u64, resumed: u64, solved: u64, seconds: f64 },
    /// Stopped early; everything proven so far is in the checkpoint.
    Stopped { reason: StopReason, done: u64, total: u64, solved: u64, checkpoint: PathBuf, seconds: f64 },
}

/// Why a build could not run.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    #[error(
        "table build supports boards of at most {MAX_TABLE_POINTS} points (3^n colourings are enumerated); {0} has {1}"
    )]
    TooLarge(String, usize),
    #[error("{path} already exists and is not a complete table of {spec} ({reason}); use --force to overwrite it")]
    OutputExists { path: String, spec: String, reason: String },
    #[error("{0} is a directory; give --out a file name (e.g. {0}/table.gtb)")]
    IsDirectory(String),
    #[error("cannot resume from {path}: {reason}; delete it (or use --force) to start over")]
    BadCheckpoint { path: String, reason: String },
    #[error("cannot write {path}: {source}")]
    Write { path: String, source: std::io::Error },
}

/// Build (or resume building) the table of `spec` into `out`.
///
/// Solved work is kept in `<out>.partial` (rewritten atomically every
/// `checkpoint_every` and when stopping), and a later build with the same
/// spec and output resumes from it. The finished file does not depend on the
/// thread count, on symmetry use, or on how often the build was interrupted.
pub fn build(spec: &TableSpec, out: &Path, opts: &BuildOptions) -> Result<BuildOutcome, BuildError> {
    let start = Instant::now();
    let geo = spec.geo;
    if geo.points() > MAX_TABLE_POINTS {
        return Err(BuildError::TooLarge(geo.name(), geo.points()));
    }
    let partial = partial_path(out);

    if let Some(done) = existing_output(spec, out, opts.force)? {
        return Ok(done);
    }

    // At most MAX_TABLE_POINTS (checked above), within what can be listed.
    let positions = legal_positions(&geo).expect("table boards can be listed");
    let total = 2 * positions.len() as u64;
    let transforms = Transform::all(&geo, opts.symmetry);

    let known = load_checkpoint(spec, &partial, total, &transforms, opts.force)?;
    let resumed = known.len() as u64;

    let todo = work_list(&positions, &transforms, &known);
    let to_solve = todo.len() as u64;

    let threads = thread_count(opts.threads);
    let run = Run {
        spec,
        opts,
        partial,
        transforms,
        total,
        resumed,
        to_solve,
        start,
        stop: Arc::new(AtomicBool::new(false)),
        running: (0..threads).map(|_| Mutex::new(None)).collect(),
    };
    let mut found = run.solve_all(&todo, known)?;
    run.report(&found.known, found.solved);
    if found.reason.is_none() && opts.stop_after.is_some_and(|n| n < to_solve) {
        found.reason = Some(StopReason::StopAfter);
    }
    run.finish(out, found)
}

/// The number of solves run at once: `threads`, or one per core for 0.
fn thread_count(threads: usize) -> usize {
    if threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        threads
    }
}

/// The pool the solves run on, its threads named so a debugger or profiler
/// tells them apart from the search's own threads.
fn worker_pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("table-{}", i))
        .build()
        .expect("thread pool")
}

/// What one build run fixes at its start, shared by its phases (solving,
/// collecting, reporting, writing), so none of them takes a long argument list.
struct Run<'a> {
    spec: &'a TableSpec,
    opts: &'a BuildOptions,
    /// The checkpoint file, `<out>.partial`.
    partial: PathBuf,
    /// The symmetries each solved entry is copied under.
    transforms: Vec<Transform>,
    /// Entries of a complete table.
    total: u64,
    /// Entries loaded from the checkpoint at the start.
    resumed: u64,
    /// Positions the search has to solve in this run.
    to_solve: u64,
    start: Instant,
    /// Set to stop every worker and their searches.
    stop: Arc<AtomicBool>,
    /// Start time of the solve each worker is running, if any (one slot per worker).
    running: Vec<Mutex<Option<Instant>>>,
}

/// What the solving phase of a run ends with.
struct Found {
    /// Every entry known: loaded, solved, or derived by a transform.
    known: BTreeMap<Key, Entry>,
    /// Positions solved by the search in this run.
    solved: u64,
    /// Why the run stopped early, if an interrupt or the time limit stopped it.
    reason: Option<StopReason>,
}

impl Run<'_> {
    /// Call the progress callback, if any, with the state of the run now.
    fn report(&self, known: &BTreeMap<Key, Entry>, solved: u64) {
        if let Some(p) = &self.opts.progress {
            let starts: Vec<Instant> =
                self.running.iter().filter_map(|m| *m.lock().unwrap_or_else(|e| e.into_inner())).collect();
            p(&BuildProgress {
                done: known.len() as u64,
                total: self.total,
                resumed: self.resumed,
                solved,
                to_solve: self.to_solve,
                seconds: self.start.elapsed().as_secs_f64(),
                in_flight: starts.len(),
                oldest_in_flight: starts.iter().map(|t| t.elapsed().as_secs_f64()).fold(0.0, f64::max),
            });
        }
    }

    /// Solve the work list: the workers run single-threaded solves on their
    /// own pool while this (the calling) thread collects the results, so the
    /// progress callback always runs on the caller's thread. Returns once
    /// every worker has ended.
    fn solve_all(&self, todo: &[(Position, Color)], known: BTreeMap<Key, Entry>) -> Result<Found, BuildError> {
        let next = AtomicUsize::new(0);
        let (tx, rx) = mpsc::channel::<Result<Entry, SolveError>>();
        let solve_opts = SolveOptions {
            threads: 1,
            table_mb: self.opts.table_mb,
            no_pv: true,
            abort: Some(self.stop.clone()),
            ..Default::default()
        };
        let pool = worker_pool(self.running.len());
        self.report(&known, 0);

        std::thread::scope(|scope| {
            let workers = Workers {
                spec: self.spec,
                todo,
                next: &next,
                stop: &self.stop,
                stop_after: self.opts.stop_after,
                solve_opts: &solve_opts,
            };
            let running = &self.running;
            scope.spawn(move || {
                pool.scope(|s| {
                    for slot in running.iter() {
                        let tx = tx.clone();
                        let workers = &workers;
                        s.spawn(move |_| workers.run(slot, tx));
                    }
                    drop(tx);
                });
            });
            self.collect(&rx, known)
        })
    }

    /// Take the workers' results until every worker has ended: copy each
    /// solved entry under every transform, report progress, raise the stop
    /// when an interrupt or the time limit asks for it, and rewrite the
    /// checkpoint every `checkpoint_every`. A checkpoint that cannot be
    /// written stops the build; its error is returned once the workers ended.
    fn collect(
        &self,
        rx: &mpsc::Receiver<Result<Entry, SolveError>>,
        mut known: BTreeMap<Key, Entry>,
    ) -> Result<Found, BuildError> {
        let mut solved = 0u64;
        let mut reason: Option<StopReason> = None;
        let mut last_checkpoint = Instant::now();
        let mut dirty = false;
        let mut write_error = None;
        loop {
            match rx.recv_timeout(Duration::from_millis(100)) {
                Ok(Ok(e)) => {
                    for tr in &self.transforms {
                        let d = tr.entry(&e);
                        known.insert(d.key(), d);
                    }
                    solved += 1;
                    dirty = true;
                }
                // Only a stop makes a solve fail (no limits are set); its work is lost.
                Ok(Err(_)) => {}
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
            self.report(&known, solved);
            if reason.is_none() {
                reason = stop_requested(self.opts, self.start);
                if reason.is_some() {
                    self.stop.store(true, Ordering::Relaxed);
                }
            }
            if dirty && last_checkpoint.elapsed() >= self.opts.checkpoint_every && (known.len() as u64) < self.total {
                if let Err(e) = SolvedTable::new(*self.spec, self.total, known.values().copied()).write(&self.partial) {
                    write_error = Some(BuildError::Write { path: self.partial.display().to_string(), source: e });
                    self.stop.store(true, Ordering::Relaxed);
                }
                dirty = false;
                last_checkpoint = Instant::now();
            }
        }
        match write_error {
            Some(e) => Err(e),
            None => Ok(Found { known, solved, reason }),
        }
    }

    /// Write what the run ended with: the table itself when it is complete
    /// (and the checkpoint, no longer needed, is removed), else the checkpoint.
    fn finish(self, out: &Path, found: Found) -> Result<BuildOutcome, BuildError> {
        let Found { known, solved, reason } = found;
        let seconds = self.start.elapsed().as_secs_f64();
        let table = SolvedTable::new(*self.spec, self.total, known.into_values());
        if table.complete {
            table.write(out).map_err(|e| BuildError::Write { path: out.display().to_string(), source: e })?;
            if self.partial.exists() {
                let _ = std::fs::remove_file(&self.partial);
            }
            return Ok(BuildOutcome::Complete { entries: self.total, resumed: self.resumed, solved, seconds });
        }
        let partial_name = self.partial.display().to_string();
        table.write(&self.partial).map_err(|e| BuildError::Write { path: partial_name, source: e })?;
        Ok(BuildOutcome::Stopped {
            reason: reason.unwrap_or(StopReason::Interrupted),
            done: table.entries.len() as u64,
            total: self.total,
            solved,
            checkpoint: self.partial,
            seconds,
        })
    }
}

/// The shared state of the solving workers.
struct Workers<'a> {
    spec: &'a TableSpec,
    /// The work list; workers take its positions in order.
    todo: &'a [(Position, Color)],
    /// Index of the next position to hand out.
    next: &'a AtomicUsize,
    /// Set to stop every worker (their current solves fail and are lost).
    stop: &'a AtomicBool,
    /// Hand out only the first N positions of the work list.
    stop_after: Option<u64>,
    solve_opts: &'a SolveOptions,
}

impl Workers<'_> {
    /// One worker: solve positions of the work list until none is left, the
    /// build stops, or `stop_after` were handed out. `slot` holds the start
    /// of the current solve (for the progress report).
    fn run(&self, slot: &Mutex<Option<Instant>>, tx: mpsc::Sender<Result<Entry, SolveError>>) {
        loop {
            if self.stop.load(Ordering::Relaxed) {
                break;
            }
            let i = self.next.fetch_add(1, Ordering::Relaxed);
            if self.stop_after.is_some_and(|n| i as u64 >= n) {
                break;
            }
            let Some(&(pos, to_move)) = self.todo.get(i) else { break };
            *slot.lock().unwrap_or_else(|e| e.into_inner()) = Some(Instant::now());
            let result = solve_entry(self.spec, pos, to_move, self.solve_opts);
            *slot.lock().unwrap_or_else(|e| e.into_inner()) = None;
            if tx.send(result).is_err() {
                break;
            }
        }
    }
}

/// Why the build must stop now, if it must: an interrupt or the time limit.
fn stop_requested(opts: &BuildOptions, start: Instant) -> Option<StopReason> {
    if opts.abort.as_ref().is_some_and(|a| a.load(Ordering::Relaxed)) {
        Some(StopReason::Interrupted)
    } else if opts.time_limit.is_some_and(|t| start.elapsed() >= t) {
        Some(StopReason::TimeLimit)
    } else {
        None
    }
}

/// Check the destination before any solving: a directory or an unwritable
/// path fails now, a complete table of this spec means there is nothing to
/// do, and any other existing file is kept unless `force`.
pub(super) fn existing_output(spec: &TableSpec, out: &Path, force: bool) -> Result<Option<BuildOutcome>, BuildError> {
    let out_name = out.display().to_string();
    if out.is_dir() {
        return Err(BuildError::IsDirectory(out_name));
    }
    // A destination that cannot be written fails now, not after the solving.
    store::check_writable(out).map_err(|source| BuildError::Write { path: out_name.clone(), source })?;
    if out.exists() && !force {
        match SolvedTable::read(out) {
            Ok(t) if t.spec == *spec && t.complete => {
                return Ok(Some(BuildOutcome::AlreadyComplete { entries: t.entries.len() as u64 }));
            }
            Ok(t) => {
                let reason = if t.spec != *spec {
                    format!("it is a table of {}", t.spec.describe())
                } else {
                    "it is incomplete".into()
                };
                return Err(BuildError::OutputExists { path: out_name, spec: spec.describe(), reason });
            }
            Err(e) => {
                return Err(BuildError::OutputExists { path: out_name, spec: spec.describe(), reason: e.to_string() })
            }
        }
    }

    Ok(None)
}

/// The entries known from the checkpoint `partial` (none if it is absent or
/// `force`), completed under every transform.
fn load_checkpoint(
    spec: &TableSpec,
    partial: &Path,
    total: u64,
    transforms: &[Transform],
    force: bool,
) -> Result<BTreeMap<Key, Entry>, BuildError> {
    let partial_name = partial.display().to_string();
    let mut known: BTreeMap<Key, Entry> = BTreeMap::new();
    if partial.exists() && !force {
        let t = SolvedTable::read(partial)
            .map_err(|e| BuildError::BadCheckpoint { path: partial_name.clone(), reason: e.to_string() })?;
        if t.spec != *spec || t.total != total {
            return Err(BuildError::BadCheckpoint {
                path: partial_name,
                reason: format!("it is a checkpoint of {}, not {}", t.spec.describe(), spec.describe()),
            });
        }
        for e in t.entries() {
            for tr in transforms {
                let d = tr.entry(e);
                known.insert(d.key(), d);
            }
        }
    }
    Ok(known)
}

/// The positions this run solves, one representative per class not yet known.
pub(super) fn work_list(
    positions: &[Position],
    transforms: &[Transform],
    known: &BTreeMap<Key, Entry>,
) -> Vec<(Position, Color)> {
    // What is left to solve: one representative per class, most stones first
    // (often the shortest games, so checkpoints fill early), ties by key. This
    // is only a heuristic: on 3x3 a capture can empty the board, so a
    // near-full position can be as hard as the empty one.
    let mut todo: Vec<(Position, Color)> = Vec::new();
    {
        let mut seen = std::collections::HashSet::new();
        for &pos in positions {
            for to_move in [Color::Black, Color::White] {
                let canon = transforms.iter().map(|t| t.apply(pos, to_move)).min_by_key(|&(p, c)| key(p, c)).unwrap();
                if seen.insert(key(canon.0, canon.1)) && !known.contains_key(&key(canon.0, canon.1)) {
                    todo.push(canon);
                }
            }
        }
    }
    todo.sort_by_key(|&(p, c)| (std::cmp::Reverse(p.stone_count()), key(p, c)));
    todo
}
