//! The manager's loop with real workers: units to the scheduler, answers
//! into the [`Manager`], deltas merged into the shared checkpoint between
//! rounds, and the whole state on disk after every round.
//!
//! # A round
//!
//! 1. Answers that came back are applied to the tree (their deltas wait
//!    in `pending`).
//!    Each delta is also *published* (`deltas/index.json`, numbered): the
//!    long-lived workers ([`crate::distributed::backend::persistent`])
//!    import, before each unit, the deltas published since their last,
//!    into the table they keep.
//! 2. Where a worker is idle and deltas wait, they are merged with the
//!    shared checkpoint into `solve/shared-<round>.ck` (the exact merge,
//!    [`crate::tables::merge`]), at most as often as leaves the manager
//!    two thirds of its time for the rest (a merge is due once the time
//!    since the last one is twice what it took). Every unit sent later
//!    names it: a worker of one unit reads it, a long-lived worker only in
//!    its first unit. With long-lived workers the merge only compacts: a
//!    worker started later (a replacement, a resumed manager's) reads the
//!    shared checkpoint and then every delta still published, so it is
//!    done once the deltas waiting outweigh the shared checkpoint
//!    ([`WARM_MERGE_BYTES`]); a merged delta is removed once every live
//!    worker has imported it.
//! 3. Leaves are chosen for the idle workers ([`Manager::select`]).
//! 4. The state (`solve/state.json`: the tree, the goals, the units in
//!    flight as they were written, the deltas not merged, the records) is
//!    written atomically; only then are merged deltas and unused shared
//!    checkpoints removed and the new units handed to the scheduler.
//!
//! So a manager killed at any moment leaves a state from which the same
//! command goes on: the units it names are submitted again, and the
//! scheduler takes their answers from the work dir where they are already
//! there (or watches the Slurm tasks still running); answers applied after
//! the last state are applied again, which changes nothing. A proved claim
//! is in the state or in an answer it names.

use super::manager::{Flight, Manager, Mode, Policy, Reply};
use super::proof;
use super::state::{save_state, FlightState, MergeRecord, Problem, State, UnitRecord, STATE_FORMAT};
use super::tree::Tree;
use super::SolveObserver;
use crate::distributed::protocol::{
    position_spec, ClaimWork, DeltaIndex, Outcome, Published, Unit, UnitResult, Work, WorkerStatus,
};
use crate::distributed::scheduler::{Finished, Observer, Reuse, Wait};
use crate::distributed::{DistError, Setup};
use crate::rules::history::Game;
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Where the workers keep their tables, the deltas waiting are merged once
/// they take at least this many bytes (and twice as many as the shared
/// checkpoint, so that the merges' work stays linear in what is merged):
/// the workers import the deltas themselves, and the merge is
/// only the compaction that spares a worker started later (a replacement,
/// a resumed manager's) the read of many files.
const WARM_MERGE_BYTES: u64 = 1 << 30;

/// A distributed solve, as asked.
#[derive(Clone, Debug)]
pub struct SolveJob {
    pub game: Game,
    pub mode: Mode,
    pub policy: Policy,
    /// Threads and table (MiB, 0: each node's default) of each worker.
    pub threads: usize,
    pub table_mb: usize,
    /// Engine switches of the units (they never change an answer).
    pub alpha_beta: bool,
    pub no_path_symmetry: bool,
    /// Stop once the answers' nodes add up to this many.
    pub node_limit: Option<u64>,
    /// The first test of a value ([`Mode::Value`]), as `solve --guess`;
    /// not part of the problem: a resumed solve goes on with its own tests.
    pub guess: Option<i32>,
}

/// How a distributed solve ended.
#[derive(Clone, Debug)]
pub struct SolveReport {
    /// Claims: whether it holds. Values: the value; every move: each move's.
    pub holds: Option<bool>,
    pub value: Option<i32>,
    pub moves: Vec<(String, i32)>,
    /// Where the proof is (`WORK/proof.sgf`), once done.
    pub proof: Option<PathBuf>,
    pub proof_summary: Option<proof::Summary>,
    /// Why it stopped before the end (interrupted, a limit).
    pub stopped: Option<String>,
    pub work_dir: PathBuf,
    pub state: PathBuf,
    /// Units answered over all runs, this run, and taken from the work dir this run.
    pub units: usize,
    pub units_this_run: usize,
    pub reused_this_run: usize,
    pub rounds: u64,
    pub tree_nodes: usize,
    /// Nodes searched by the workers over all runs, and this run.
    pub nodes: u64,
    pub nodes_this_run: u64,
    pub merges: usize,
    pub merge_seconds: f64,
    pub seconds: f64,
    /// Whether this run went on from an earlier manager's state.
    pub resumed: bool,
    pub workers: usize,
    pub backend: String,
}

/// The unit's start times, seen by the scheduler's observer, forwarded.
struct Timing {
    inner: Arc<dyn SolveObserver>,
    started: Mutex<HashMap<String, Instant>>,
}

impl Observer for Timing {
    fn unit_started(&self, id: &str, attempt: u32) {
        self.started.lock().unwrap_or_else(|e| e.into_inner()).insert(id.to_string(), Instant::now());
        self.inner.unit_started(id, attempt);
    }
    fn unit_finished(&self, f: &Finished) {
        self.inner.unit_finished(f);
    }
    fn unit_retried(&self, id: &str, why: &str) {
        self.inner.unit_retried(id, why);
    }
    fn note(&self, line: &str) {
        self.inner.note(line);
    }
}

/// Round-level progress for the observer.
#[derive(Clone, Debug)]
pub struct RoundInfo {
    pub round: u64,
    pub answered: usize,
    pub in_flight: usize,
    pub tree_nodes: usize,
    /// The root's bounds (komi excluded).
    pub lo: i32,
    pub hi: i32,
    /// Goals not reached, of all.
    pub open_goals: usize,
    pub goals: usize,
    /// The open test of the first goal not reached ("value ≥ b").
    pub test: Option<i32>,
    pub nodes: u64,
}

/// Run (or go on with) the distributed solve `job` on the workers of `setup`.
pub fn run_solve(job: &SolveJob, setup: &Setup, observer: Arc<dyn SolveObserver>) -> Result<SolveReport, DistError> {
    let start = Instant::now();
    let timing = Arc::new(Timing { inner: observer.clone(), started: Mutex::new(HashMap::new()) });
    // Workers that keep their tables between units, where the backend can.
    let mut setup = setup.clone();
    setup.backend.persistent = true;
    let (mut sched, _lock) = setup.start(timing.clone())?;
    let warm = sched.keeps_workers();
    let dir = sched.dir().clone();
    let sdir = dir.root().join("solve");
    std::fs::create_dir_all(&sdir).map_err(|e| DistError::io(format!("create {}", sdir.display()), e))?;
    let state_path = sdir.join("state.json");
    let problem = Problem { position: position_spec("solve", &job.game), mode: job.mode.clone() };
    let workers = setup.backend.workers.max(1);
    let (mut m, mut st, resumed) = match State::read(&state_path)? {
        Some(st) => {
            if st.problem != problem {
                return Err(DistError::Other(format!(
                    "work dir {} holds the solve of another position or question ({}); give another --work-dir",
                    dir.root().display(),
                    describe_problem(&st.problem)
                )));
            }
            let tree = Tree::with_nodes(job.game.clone(), st.nodes.clone());
            let flights = st.flights.iter().map(|f| f.flight.clone()).collect();
            let m = Manager::restore(tree, job.mode.clone(), job.policy.clone(), st.goals.clone(), flights);
            observer.note(&format!(
                "resuming the solve in {} at round {}: {} units answered, {} in flight, {} tree nodes",
                dir.root().display(),
                st.round,
                st.records.len(),
                st.flights.len(),
                st.nodes.len()
            ));
            (m, st, true)
        }
        None => {
            let m = Manager::new(job.game.clone(), job.mode.clone(), job.policy.clone(), job.guess);
            let st = State {
                format: STATE_FORMAT,
                gosolve_version: crate::distributed::protocol::VERSION.to_string(),
                problem,
                policy: job.policy.clone(),
                workers,
                round: 0,
                shared: None,
                pending: Vec::new(),
                published: Vec::new(),
                last_seq: 0,
                nodes: Vec::new(),
                goals: Vec::new(),
                flights: Vec::new(),
                records: Vec::new(),
                merges: Vec::new(),
                manager_seconds: 0.0,
                done: false,
            };
            (m, st, false)
        }
    };
    st.policy = job.policy.clone();
    st.workers = workers;
    let seconds_before = st.manager_seconds;
    let records_before = st.records.len();
    // Units in flight when the last manager stopped: sent again as they
    // were (an answer already there is taken).
    for f in st.flights.clone() {
        sched.submit(f.unit, Reuse::Final)?;
    }
    let mut last_merge: Option<(Instant, f64)> = None;
    let mut merging: Option<Merging> = None;
    let mut sent_round: HashMap<String, u64> = HashMap::new();
    let mut reused = 0usize;
    let mut stopped = None;
    let mut index_written: Option<Vec<Published>> = None;
    loop {
        let done = m.done();
        let free = workers.saturating_sub(sched.outstanding());
        let over_limit =
            job.node_limit.is_some_and(|l| st.records[records_before..].iter().map(|r| r.nodes).sum::<u64>() >= l);
        // A merge that has ended: later units read its checkpoint.
        let mut merged: Vec<String> = Vec::new();
        if merging.as_ref().is_some_and(|g| g.thread.is_finished() || done) {
            let g = merging.take().expect("a merge");
            merged = g.finish(&dir, &mut st, &*observer);
            last_merge = Some((Instant::now(), st.merges.last().map_or(0.0, |r| r.seconds)));
        }
        let mut units: Vec<Unit> = Vec::new();
        if !done && !over_limit && free > 0 {
            let due = if warm {
                merging.is_none() && compaction_due(&dir, &st)
            } else {
                last_merge.is_none_or(|(at, secs)| at.elapsed().as_secs_f64() >= 2.0 * secs)
            };
            if merging.is_none() && !st.pending.is_empty() && due {
                merging = Some(Merging::start(&dir, &sdir, &st, job.table_mb));
            }
            for f in m.select(free) {
                let unit = unit_for(&m, &f, job, st.shared.clone());
                sent_round.insert(f.id.clone(), st.round + 1);
                st.flights.push(FlightState { flight: f, unit: unit.clone() });
                units.push(unit);
            }
        }
        st.round += 1;
        st.nodes = m.nodes().to_vec();
        st.goals = m.goals.clone();
        st.done = done;
        st.manager_seconds = seconds_before + start.elapsed().as_secs_f64();
        let gone = retire(&mut st, &merged, imported_by_all(&dir, &sched.live_workers()));
        save_state(&state_path, &st)?;
        publish(&dir, &st, &mut index_written)?;
        clean_up(&dir, &sdir, &st, &gone, merging.as_ref().map(|g| g.out.as_path()));
        for u in units {
            sched.submit(u, Reuse::Final)?;
        }
        observer.round(&round_info(&m, &st));
        if done {
            // Units still running (speculative, or for a test since
            // decided) are not needed: stopped, and forgotten.
            if sched.outstanding() > 0 {
                sched.stop();
            }
            st.flights.clear();
            break;
        }
        if over_limit {
            stopped = Some(format!("node limit of {} reached", job.node_limit.unwrap_or(0)));
            sched.stop();
            break;
        }
        if sched.outstanding() == 0 && !sched.has_answers() {
            return Err(DistError::Other(
                "the manager has no leaf to send and no unit running, yet the solve is not done (a bug)".into(),
            ));
        }
        match sched.wait()? {
            Wait::Finished(list) => {
                for f in list {
                    let when = timing.started.lock().unwrap_or_else(|e| e.into_inner()).remove(&f.unit.id);
                    reused += usize::from(f.reused);
                    let sent = sent_round.get(&f.unit.id).copied().unwrap_or(st.round);
                    take_answer(&mut m, &mut st, &f, when, sent, &dir)?;
                }
            }
            Wait::Idle => {}
            Wait::Interrupted => {
                stopped = Some("interrupted".to_string());
                break;
            }
            Wait::Deadline => {
                stopped = Some("time limit reached".to_string());
                break;
            }
        }
    }
    // A merge still running is waited for (it writes its file whole).
    let merged = merging.map(|g| g.finish(&dir, &mut st, &*observer)).unwrap_or_default();
    st.nodes = m.nodes().to_vec();
    st.goals = m.goals.clone();
    st.done = m.done();
    st.manager_seconds = seconds_before + start.elapsed().as_secs_f64();
    // The workers are stopped: only what the next run's workers read counts.
    let gone = retire(&mut st, &merged, u64::MAX);
    save_state(&state_path, &st)?;
    publish(&dir, &st, &mut index_written)?;
    clean_up(&dir, &sdir, &st, &gone, None);
    let (proof, proof_summary) = if m.done() {
        let path = dir.root().join("proof.sgf");
        let index = st.record_index();
        let (text, summary) = proof::write_sgf(&m, &index);
        crate::store::write_text_atomic(&path, &text)
            .map_err(|e| DistError::io(format!("write {}", path.display()), e))?;
        (Some(path), Some(summary))
    } else {
        (None, None)
    };
    let this_run = &st.records[records_before..];
    Ok(SolveReport {
        holds: m.claim_holds(),
        value: m.value(),
        moves: m.move_values(),
        proof,
        proof_summary,
        stopped,
        work_dir: dir.root().to_path_buf(),
        state: state_path,
        units: st.records.len(),
        units_this_run: this_run.len(),
        reused_this_run: reused,
        rounds: st.round,
        tree_nodes: m.tree.len(),
        nodes: st.records.iter().map(|r| r.nodes).sum(),
        nodes_this_run: this_run.iter().filter(|r| !r.reused).map(|r| r.nodes).sum(),
        merges: st.merges.len(),
        merge_seconds: st.merges.iter().map(|r| r.seconds).sum(),
        seconds: start.elapsed().as_secs_f64(),
        resumed,
        workers,
        backend: match setup.backend.kind {
            crate::distributed::BackendKind::Local => "local".to_string(),
            crate::distributed::BackendKind::Slurm => "slurm".to_string(),
        },
    })
}

/// "5x5 ... value ≥ 3": what a state solves, in words.
fn describe_problem(p: &Problem) -> String {
    let what = match &p.mode {
        Mode::Claim { at_least: true, value } => format!("the claim value >= {value} without komi"),
        Mode::Claim { at_least: false, value } => format!("the claim value <= {value} without komi"),
        Mode::Value => "the value".into(),
        Mode::EveryMove => "the value of every move".into(),
    };
    format!(
        "{} of {} {} after '{}'",
        what,
        p.position.board.as_deref().unwrap_or("?"),
        p.position.position.as_deref().unwrap_or(""),
        p.position.moves.as_deref().unwrap_or("")
    )
}

/// The unit of flight `f`: the claim at its node's game, with its budget,
/// reading the shared checkpoint and writing a delta.
fn unit_for(m: &Manager, f: &Flight, job: &SolveJob, shared: Option<String>) -> Unit {
    let game = m.tree.game_of(f.node);
    let work = ClaimWork {
        position: position_spec(&f.id, &game),
        at_least: f.at_least,
        value: f.value,
        node_limit: Some(f.budget),
        time_limit: None,
        read_checkpoint: shared,
        write_delta: true,
        // A long unit saves its own checkpoint now and then, so that a
        // preempted worker resumes.
        checkpoint_every: Some(600.0),
        alpha_beta: job.alpha_beta,
        no_path_symmetry: job.no_path_symmetry,
    };
    Unit::new(&f.id, &game.geo, job.threads.max(1), job.table_mb, Work::Claim(work))
}

/// Apply one finished unit: the tree, the records, its delta pending.
fn take_answer(
    m: &mut Manager,
    st: &mut State,
    f: &Finished,
    started: Option<Instant>,
    sent: u64,
    dir: &crate::distributed::WorkDir,
) -> Result<(), DistError> {
    let id = f.unit.id.as_str();
    let Some(flight) = m.flights.get(id).cloned() else { return Ok(()) };
    let a = &f.answer;
    let reply = match &a.outcome {
        Outcome::Proved => Reply::Holds(true),
        Outcome::Refuted => Reply::Holds(false),
        Outcome::Undecided { .. } => {
            let after = match &a.result {
                Some(UnitResult::Claim { root_moves, .. }) => {
                    root_moves.iter().map(|r| (r.mv.clone(), r.holds)).collect()
                }
                _ => Vec::new(),
            };
            Reply::Open { after }
        }
        Outcome::Failed { reason, .. } => {
            return Err(DistError::Failed {
                count: 1,
                first: format!("{id}: {reason}"),
                logs: dir.logs().display().to_string(),
            });
        }
        Outcome::Done => return Err(DistError::Other(format!("unit {id} answered 'done' to a claim"))),
    };
    m.apply(id, &reply).map_err(|e| DistError::Other(e.to_string()))?;
    if let Some(d) = &a.delta {
        if d.results > 0 && dir.resolve(&d.path).exists() && !st.pending.contains(&d.path) {
            st.pending.push(d.path.clone());
            st.last_seq += 1;
            st.published.push(Published { seq: st.last_seq, path: d.path.clone(), merged: false });
        } else if d.results == 0 {
            let _ = std::fs::remove_file(dir.resolve(&d.path));
        }
    }
    st.flights.retain(|x| x.flight.id != id);
    let wall = match (started, f.reused) {
        (Some(t), false) => t.elapsed().as_secs_f64(),
        _ => a.seconds,
    };
    st.records.push(UnitRecord {
        id: id.to_string(),
        node: flight.node,
        path: m.tree.path_text(flight.node),
        at_least: flight.at_least,
        value: flight.value,
        budget: flight.budget,
        outcome: a.outcome.name().to_string(),
        nodes: a.nodes,
        seconds: a.seconds,
        wall,
        round_sent: sent,
        round_answered: st.round,
        reused: f.reused,
        host: a.host.clone(),
    });
    Ok(())
}

/// A merge of the shared checkpoint and the pending deltas into a new
/// shared checkpoint, on a thread of its own: the manager goes on sending
/// units (they read the last shared checkpoint) while it runs.
struct Merging {
    thread: std::thread::JoinHandle<Result<crate::tables::merge::MergeSummary, String>>,
    /// The deltas it merges (relative to the work dir).
    deltas: Vec<String>,
    out: PathBuf,
    round: u64,
    start: Instant,
}

impl Merging {
    fn start(dir: &crate::distributed::WorkDir, sdir: &Path, st: &State, table_mb: usize) -> Merging {
        let mut inputs: Vec<PathBuf> = st.shared.iter().map(|s| dir.resolve(s)).collect();
        inputs.extend(st.pending.iter().map(|p| dir.resolve(p)));
        let out = sdir.join(format!("shared-{}.ck", st.round + 1));
        let to = out.clone();
        let thread = std::thread::spawn(move || {
            // The merge only saves work later: it yields the cores to the
            // workers (a thread's own nice value, on Linux).
            #[cfg(target_os = "linux")]
            // SAFETY: setpriority on this thread's own id; it only lowers
            // the thread's priority, which needs no privilege.
            unsafe {
                libc::setpriority(libc::PRIO_PROCESS, libc::gettid() as libc::id_t, 19);
            }
            crate::tables::merge::merge(&inputs, &to, (table_mb > 0).then_some(table_mb)).map_err(|e| e.to_string())
        });
        Merging { thread, deltas: st.pending.clone(), out, round: st.round + 1, start: Instant::now() }
    }

    /// Wait for it; its checkpoint becomes the shared one. The deltas it
    /// took (to remove once the state names the new checkpoint). A merge
    /// that failed is told and its deltas dropped: they only save work,
    /// never decide anything.
    fn finish(self, dir: &crate::distributed::WorkDir, st: &mut State, observer: &dyn SolveObserver) -> Vec<String> {
        let result = self.thread.join().unwrap_or_else(|_| Err("the merge thread failed".into()));
        st.pending.retain(|p| !self.deltas.contains(p));
        match result {
            Ok(s) => {
                st.shared = Some(dir.relative(&self.out));
                st.merges.push(MergeRecord {
                    round: self.round,
                    deltas: self.deltas.len(),
                    results: s.written.results,
                    seconds: self.start.elapsed().as_secs_f64(),
                });
            }
            Err(e) => {
                observer.note(&format!("the merge of {} deltas failed ({e}); they are left out", self.deltas.len()))
            }
        }
        self.deltas
    }
}

/// Whether the deltas waiting are worth a compaction (see [`WARM_MERGE_BYTES`]).
fn compaction_due(dir: &crate::distributed::WorkDir, st: &State) -> bool {
    let size = |p: &str| std::fs::metadata(dir.resolve(p)).map_or(0, |m| m.len());
    let waiting: u64 = st.pending.iter().map(|p| size(p)).sum();
    waiting >= WARM_MERGE_BYTES.max(2 * st.shared.as_deref().map_or(0, size))
}

/// Mark the deltas just `merged` so, and take out of the published list
/// those merged that every live worker has imported (`upto`: the least
/// sequence number they have all reached): the deltas to remove once the
/// state and the index no longer name them.
fn retire(st: &mut State, merged: &[String], upto: u64) -> Vec<String> {
    for p in st.published.iter_mut() {
        if merged.contains(&p.path) {
            p.merged = true;
        }
    }
    let mut gone: Vec<String> =
        merged.iter().filter(|m| !st.published.iter().any(|p| &p.path == *m)).cloned().collect();
    st.published.retain(|p| {
        let out = p.merged && p.seq <= upto;
        if out {
            gone.push(p.path.clone());
        }
        !out
    });
    gone
}

/// The last delta every live long-lived worker has imported (a worker that
/// has not said yet: none); with none live, all.
fn imported_by_all(dir: &crate::distributed::WorkDir, live: &[String]) -> u64 {
    live.iter()
        .map(|slot| {
            std::fs::read_to_string(dir.status_path(slot))
                .ok()
                .and_then(|t| serde_json::from_str::<WorkerStatus>(&t).ok())
                .map_or(0, |s| s.last_seq)
        })
        .min()
        .unwrap_or(u64::MAX)
}

/// Write the published deltas' index where it changed.
fn publish(
    dir: &crate::distributed::WorkDir,
    st: &State,
    written: &mut Option<Vec<Published>>,
) -> Result<(), DistError> {
    if written.as_ref() == Some(&st.published) {
        return Ok(());
    }
    let path = dir.delta_index_path();
    let index = DeltaIndex { deltas: st.published.clone() };
    crate::store::write_json_atomic(&path, &index)
        .map_err(|e| DistError::io(format!("write {}", path.display()), e))?;
    *written = Some(st.published.clone());
    Ok(())
}

/// Remove the deltas retired and the shared checkpoints no unit in flight
/// reads any more (the state naming what replaces them is written).
fn clean_up(dir: &crate::distributed::WorkDir, sdir: &Path, st: &State, gone: &[String], writing: Option<&Path>) {
    for d in gone {
        let _ = std::fs::remove_file(dir.resolve(d));
    }
    let mut keep: BTreeSet<PathBuf> = st.shared.iter().map(|s| dir.resolve(s)).collect();
    keep.extend(writing.map(Path::to_path_buf));
    for f in &st.flights {
        if let Work::Claim(w) = &f.unit.work {
            keep.extend(w.read_checkpoint.as_deref().map(|p| dir.resolve(p)));
        }
    }
    let Ok(entries) = std::fs::read_dir(sdir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if name.starts_with("shared-") && name.ends_with(".ck") && !keep.contains(&p) {
            let _ = std::fs::remove_file(&p);
        }
    }
}

fn round_info(m: &Manager, st: &State) -> RoundInfo {
    let root = m.tree.node(0);
    RoundInfo {
        round: st.round,
        answered: st.records.len(),
        in_flight: st.flights.len(),
        tree_nodes: m.tree.len(),
        lo: root.lo,
        hi: root.hi,
        open_goals: m.goals.iter().filter(|g| g.test.is_some()).count(),
        goals: m.goals.len(),
        test: m.goals.iter().find_map(|g| g.test),
        nodes: st.records.iter().map(|r| r.nodes).sum(),
    }
}
