//! Building a table: every legal position solved once per symmetry class,
//! on one search memory shared by the build's solves (see [`super::work`]),
//! with checkpoints a later run resumes from.

use super::transform::Transforms;
use super::work::{add_representatives, work_list, Heard, Solving, Work};
use super::{key, partial_path, Entry, Key, SolvedTable, TableSpec};
use crate::rules::history::Game;
use crate::rules::position::{Color, Move, Position};
use crate::search::{solve, Memory, SolveError, SolveOptions};
use crate::store;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Largest board a table can be built for (3^n colourings are enumerated).
pub const MAX_TABLE_POINTS: usize = 16;

/// Solve one entry exactly with a plain [`solve`] of its own (a fresh
/// table, every root move's exact value): a game from `position` with no
/// earlier history. Independent of how a build solves it, so a check of a
/// built table against it means something.
pub fn solve_entry(
    spec: &TableSpec,
    position: Position,
    to_move: Color,
    opts: &SolveOptions,
) -> Result<Entry, SolveError> {
    let game = Game::new(spec.geo, spec.rules, position, to_move).expect("table positions are legal");
    let sol = solve(&game, opts)?;
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
    Ok(e)
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
    /// Nodes the solves of this run searched.
    pub nodes: u64,
    /// Stones of the position solved last (the work list goes from the
    /// fullest positions to the empty board).
    pub stones: u32,
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
    /// The search memory the build's solves share, in MiB (0: the
    /// machine's default, [`crate::search::machine_table_mb`]).
    pub table_mb: usize,
    /// Use board and colour symmetry to solve one position per class.
    pub symmetry: bool,
    /// How often the checkpoint is rewritten (at least; a checkpoint that
    /// takes long to write is written less often, see [`next_checkpoint`]).
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
            table_mb: 0,
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
    Complete { entries: u64, resumed: u64, solved: u64, nodes: u64, seconds: f64 },
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
/// Solved work is kept in `<out>.partial` (a partial table of the solved
/// class representatives, rewritten atomically every `checkpoint_every`
/// and when stopping), and a later build with the same spec and output
/// resumes from it. The finished file does not depend on the thread count,
/// on symmetry use, on the memory's size or on how often the build was
/// interrupted: every entry is exact.
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

    let transforms = Transforms::all(&geo, opts.symmetry);
    let known = load_checkpoint(spec, &partial, &transforms, opts.force)?;
    let (todo, total) = work_list(&geo, &transforms, &known);
    let resumed = total - todo.iter().map(|w| w.size).sum::<u64>();
    let running: Vec<Mutex<Option<Instant>>> = (0..thread_count(opts.threads)).map(|_| Mutex::new(None)).collect();
    let run = Run { spec, opts, partial, transforms, total, resumed, todo: &todo, start, running: &running };
    let mut found = run.solve_all(known)?;
    if found.reason.is_none() && opts.stop_after.is_some_and(|n| n < todo.len() as u64) {
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

/// When to write the next checkpoint, after one that took `took`: after
/// `every`, and after ten times as long as the write took, so that writing
/// costs at most a tenth of the build (a 4x4 checkpoint holds up to 3 M
/// entries, 82 MB).
pub(super) fn next_checkpoint(every: Duration, took: Duration) -> Duration {
    every.max(took * 10)
}

/// What one build run fixes at its start, shared by its phases (solving,
/// collecting, reporting, writing), so none of them takes a long argument list.
struct Run<'a> {
    spec: &'a TableSpec,
    opts: &'a BuildOptions,
    /// The checkpoint file, `<out>.partial`.
    partial: PathBuf,
    /// The symmetries each solved entry stands for.
    transforms: Transforms,
    /// Entries of a complete table.
    total: u64,
    /// Entries known from the checkpoint at the start.
    resumed: u64,
    /// The positions this run solves, in order.
    todo: &'a [Work],
    start: Instant,
    /// Start time of the solve each thread is running, if any (one slot per thread).
    running: &'a [Mutex<Option<Instant>>],
}

/// What the solving phase of a run ends with.
struct Found {
    /// The entries of the class representatives known: loaded or solved.
    known: HashMap<Key, Entry>,
    /// Entries of the table they stand for.
    done: u64,
    /// Positions solved by the search in this run, and their nodes.
    solved: u64,
    nodes: u64,
    /// Why the run stopped early, if an interrupt or the time limit stopped it.
    reason: Option<StopReason>,
}

impl Run<'_> {
    /// Call the progress callback, if any, with the state of the run now.
    fn report(&self, f: &Found, stones: u32) {
        if let Some(p) = &self.opts.progress {
            let starts: Vec<Instant> =
                self.running.iter().filter_map(|m| *m.lock().unwrap_or_else(|e| e.into_inner())).collect();
            p(&BuildProgress {
                done: f.done,
                total: self.total,
                resumed: self.resumed,
                solved: f.solved,
                to_solve: self.todo.len() as u64,
                nodes: f.nodes,
                stones,
                seconds: self.start.elapsed().as_secs_f64(),
                in_flight: starts.len(),
                oldest_in_flight: starts.iter().map(|t| t.elapsed().as_secs_f64()).fold(0.0, f64::max),
            });
        }
    }

    /// Solve the work list on one shared memory, this (the calling) thread
    /// collecting the results: it reports progress (so the callback always
    /// runs on the caller's thread), raises the stop when an interrupt or
    /// the time limit asks for it, and rewrites the checkpoint now and then.
    /// A checkpoint that cannot be written stops the build; its error is
    /// returned once the solving threads ended.
    fn solve_all(&self, known: HashMap<Key, Entry>) -> Result<Found, BuildError> {
        let stop = Arc::new(AtomicBool::new(false));
        let solving = Solving {
            spec: self.spec,
            todo: self.todo,
            memory: Memory::new(self.spec.geo, &self.spec.rules, self.opts.table_mb),
            stop: stop.clone(),
            stop_after: self.opts.stop_after,
            running: self.running,
        };
        let mut f = Found { known, done: self.resumed, solved: 0, nodes: 0, reason: None };
        let mut stones = self.todo.first().map_or(0, |w| w.position.stone_count());
        let mut last_checkpoint = Instant::now();
        let mut wait = self.opts.checkpoint_every;
        let mut dirty = false;
        let mut write_error = None;
        self.report(&f, stones);
        solving.run(|heard| {
            if let Heard::Solved { index, entry, nodes } = heard {
                f.known.insert(entry.key(), entry);
                f.done += self.todo[index].size;
                f.solved += 1;
                f.nodes += nodes;
                stones = entry.position.stone_count();
                dirty = true;
            }
            self.report(&f, stones);
            if f.reason.is_none() {
                f.reason = stop_requested(self.opts, self.start);
                if f.reason.is_some() {
                    stop.store(true, Ordering::Relaxed);
                }
            }
            if dirty && last_checkpoint.elapsed() >= wait && f.done < self.total {
                let t = Instant::now();
                if let Err(e) = self.write_partial(&f.known) {
                    write_error = Some(e);
                    stop.store(true, Ordering::Relaxed);
                }
                wait = next_checkpoint(self.opts.checkpoint_every, t.elapsed());
                dirty = false;
                last_checkpoint = Instant::now();
            }
        });
        self.report(&f, stones);
        match write_error {
            Some(e) => Err(e),
            None => Ok(f),
        }
    }

    /// Write the checkpoint: a partial table of the known class representatives.
    fn write_partial(&self, known: &HashMap<Key, Entry>) -> Result<(), BuildError> {
        partial_table(self.spec, self.total, known)
            .write(&self.partial)
            .map_err(|e| BuildError::Write { path: self.partial.display().to_string(), source: e })
    }

    /// Write what the run ended with: the table itself when it is complete
    /// (and the checkpoint, no longer needed, is removed), else the checkpoint.
    fn finish(self, out: &Path, found: Found) -> Result<BuildOutcome, BuildError> {
        let Found { known, done, solved, nodes, reason } = found;
        if done == self.total {
            write_table(self.spec, self.total, &self.transforms, &known, out)
                .map_err(|e| BuildError::Write { path: out.display().to_string(), source: e })?;
            if self.partial.exists() {
                let _ = std::fs::remove_file(&self.partial);
            }
            let seconds = self.start.elapsed().as_secs_f64();
            return Ok(BuildOutcome::Complete { entries: self.total, resumed: self.resumed, solved, nodes, seconds });
        }
        self.write_partial(&known)?;
        Ok(BuildOutcome::Stopped {
            reason: reason.unwrap_or(StopReason::Interrupted),
            done,
            total: self.total,
            solved,
            checkpoint: self.partial,
            seconds: self.start.elapsed().as_secs_f64(),
        })
    }
}

/// The partial table of the class representatives `known` (a checkpoint,
/// or a shard's file).
pub(super) fn partial_table(spec: &TableSpec, total: u64, known: &HashMap<Key, Entry>) -> SolvedTable {
    let mut entries: Vec<Entry> = known.values().copied().collect();
    entries.sort_unstable_by_key(|e| e.key());
    SolvedTable { spec: *spec, complete: entries.len() as u64 == total, total, entries }
}

/// Write the complete table of `spec` from the entries of its class
/// representatives (`known`, under `transforms`): every entry derived from
/// its representative's. A build and the assembly of shards both write
/// through here, so their files are the same bytes.
pub(super) fn write_table(
    spec: &TableSpec,
    total: u64,
    transforms: &Transforms,
    known: &HashMap<Key, Entry>,
    out: &Path,
) -> std::io::Result<()> {
    super::format::write_complete(spec, total, out, |pos, c| {
        let (p, rc, t) = transforms.canonical(pos, c);
        known.get(&key(p, rc)).map(|rep| transforms.derive(t, rep))
    })
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
        // Opened, not read whole: the 4x4 table is 1.3 GB (its checksum is checked).
        match super::TableFile::open(out) {
            Ok(t) if t.spec == *spec && t.complete => {
                return Ok(Some(BuildOutcome::AlreadyComplete { entries: t.count }));
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

/// The class representatives' entries known from the checkpoint `partial`
/// (none if it is absent or `force`). A checkpoint holds the
/// representatives it solved (one written before 2026-11-28 every entry of
/// their classes); each is mapped onto its class's representative.
fn load_checkpoint(
    spec: &TableSpec,
    partial: &Path,
    transforms: &Transforms,
    force: bool,
) -> Result<HashMap<Key, Entry>, BuildError> {
    let partial_name = partial.display().to_string();
    let mut known: HashMap<Key, Entry> = HashMap::new();
    if partial.exists() && !force {
        let t = SolvedTable::read(partial)
            .map_err(|e| BuildError::BadCheckpoint { path: partial_name.clone(), reason: e.to_string() })?;
        let total = 2 * crate::count::legal::count_legal(&spec.geo).expect("table boards can be counted") as u64;
        if t.spec != *spec || t.total != total {
            return Err(BuildError::BadCheckpoint {
                path: partial_name,
                reason: format!("it is a checkpoint of {}, not {}", t.spec.describe(), spec.describe()),
            });
        }
        add_representatives(transforms, t.entries().iter().copied(), &mut known);
    }
    Ok(known)
}
