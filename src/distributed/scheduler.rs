//! The scheduler: hands units to a backend, collects their answers, runs
//! again (a bounded number of times) a unit whose run ended without a final
//! answer, and stops every run on an interrupt.
//!
//! Its state is the work dir: a unit whose answer is already there (for the
//! same work, [`Unit::hash`]) is not run again, so a manager killed at any
//! moment and started again with the same command loses nothing proved.
//! Units are submitted at any time ([`Scheduler::submit`]) and answers taken
//! as they come ([`Scheduler::wait`]), so a manager may send new units after
//! each answer (the distributed solve's rounds) or all at once (a batch, a
//! table's shards).

use super::backend::{Backend, Event, Launch};
use super::error::DistError;
use super::protocol::{Answer, Outcome, Unit};
use super::workdir::WorkDir;
use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// Told what the scheduler does (implemented by the command line's
/// progress display).
pub trait Observer: Send + Sync {
    fn unit_started(&self, _id: &str, _attempt: u32) {}
    fn unit_finished(&self, _f: &Finished) {}
    /// A run ended without a final answer and the unit is sent again.
    fn unit_retried(&self, _id: &str, _why: &str) {}
    fn note(&self, _line: &str) {}
}

/// An observer that ignores everything.
pub struct Silent;
impl Observer for Silent {}

/// Which answers already in the work dir are taken instead of running a
/// unit again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reuse {
    /// Any final answer (proved, refuted, undecided, done).
    Final,
    /// Only decided ones: an undecided unit runs again (a batch job that
    /// hit its limit, as in a batch run in one process).
    Decided,
    /// None (`--force`).
    Nothing,
}

/// How the scheduler runs.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Runs of a unit after the first that ended without a final answer.
    pub retries: u32,
    /// Set from outside (Ctrl-C) to stop every run.
    pub abort: Option<Arc<AtomicBool>>,
    /// Stop every run at this time (a time limit).
    pub deadline: Option<Instant>,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions { retries: 2, abort: None, deadline: None }
    }
}

/// A unit with its final answer (or, after every retry, the failure).
#[derive(Clone, Debug)]
pub struct Finished {
    pub unit: Unit,
    pub answer: Answer,
    /// Taken from the work dir, not run by this manager.
    pub reused: bool,
    /// Runs by this manager.
    pub attempts: u32,
}

/// What [`Scheduler::wait`] came back with.
#[derive(Debug)]
pub enum Wait {
    /// Units finished (at least one).
    Finished(Vec<Finished>),
    /// Nothing is outstanding.
    Idle,
    /// The abort flag was set: every run was stopped.
    Interrupted,
    /// The deadline passed: every run was stopped.
    Deadline,
}

#[derive(Clone, Debug, PartialEq)]
enum State {
    Queued,
    Running,
    /// Its run ended with no answer visible yet (a shared filesystem's
    /// cache): looked at again until the backend's grace has passed.
    Ended {
        at: Instant,
        how: String,
    },
    Done,
}

struct Tracked {
    unit: Unit,
    hash: String,
    attempts: u32,
    state: State,
}

/// Units, their runs and answers, on one work dir and backend.
pub struct Scheduler {
    dir: WorkDir,
    backend: Box<dyn Backend>,
    opts: RunOptions,
    observer: Arc<dyn Observer>,
    units: BTreeMap<String, Tracked>,
    /// Runs an earlier manager left going, by unit: their attempt.
    adopted: HashMap<String, u32>,
    ready: Vec<Finished>,
}

impl Scheduler {
    /// A scheduler on `dir` (already locked by the caller) running units on
    /// `backend`; runs an earlier manager left going are watched.
    pub fn new(
        dir: WorkDir,
        mut backend: Box<dyn Backend>,
        opts: RunOptions,
        observer: Arc<dyn Observer>,
    ) -> Result<Scheduler, DistError> {
        let adopted: HashMap<String, u32> = backend.adopt()?.into_iter().collect();
        if !adopted.is_empty() {
            observer.note(&format!("{} run(s) left by an earlier manager are watched again", adopted.len()));
        }
        observer.note(&format!("work dir {}, {}", dir.root().display(), backend.describe()));
        Ok(Scheduler { dir, backend, opts, observer, units: BTreeMap::new(), adopted, ready: Vec::new() })
    }

    pub fn dir(&self) -> &WorkDir {
        &self.dir
    }

    /// The slots of the long-lived workers running now (see
    /// [`Backend::live_workers`]).
    pub fn live_workers(&self) -> Vec<String> {
        self.backend.live_workers()
    }

    /// Whether the backend's workers live across units.
    pub fn keeps_workers(&self) -> bool {
        self.backend.keeps_workers()
    }

    /// Send a unit: its answer is taken from the work dir where `reuse`
    /// allows, else its file is written and it is queued (or watched, where
    /// an earlier manager's run of it is still going).
    pub fn submit(&mut self, unit: Unit, reuse: Reuse) -> Result<(), DistError> {
        if !super::protocol::valid_id(&unit.id) {
            return Err(DistError::Other(format!("unit id '{}' cannot name a file", unit.id)));
        }
        let hash = unit.hash();
        let id = unit.id.clone();
        if let Some(attempt) = self.adopted.remove(&id) {
            self.units.insert(id, Tracked { unit, hash, attempts: attempt, state: State::Running });
            return Ok(());
        }
        let answer = Answer::read(&self.dir.answer_path(&id)).filter(|a| a.unit_hash == hash);
        let reusable = answer.filter(|a| match reuse {
            Reuse::Final => a.is_final(),
            Reuse::Decided => a.is_final() && !matches!(a.outcome, Outcome::Undecided { .. }),
            Reuse::Nothing => false,
        });
        if let Some(answer) = reusable {
            let f = Finished { unit: unit.clone(), answer, reused: true, attempts: 0 };
            self.observer.unit_finished(&f);
            self.ready.push(f);
            self.units.insert(id, Tracked { unit, hash, attempts: 0, state: State::Done });
            return Ok(());
        }
        let path = self.dir.unit_path(&id);
        crate::store::write_json_atomic(&path, &unit)
            .map_err(|e| DistError::io(format!("write {}", path.display()), e))?;
        self.units.insert(id, Tracked { unit, hash, attempts: 0, state: State::Queued });
        Ok(())
    }

    /// Run a finished unit again (a batch job left undecided, resumed from
    /// its checkpoint): its answer is removed and it is queued.
    pub fn resend(&mut self, id: &str) -> Result<(), DistError> {
        let t = self.units.get_mut(id).ok_or_else(|| DistError::Other(format!("no unit {id}")))?;
        let _ = std::fs::remove_file(self.dir.answer_path(id));
        t.state = State::Queued;
        Ok(())
    }

    /// Units submitted and not finished.
    pub fn outstanding(&self) -> usize {
        self.units.values().filter(|t| t.state != State::Done).count()
    }

    /// Whether answers are waiting to be taken by [`Scheduler::wait`]: a
    /// unit submitted again after a manager died may find its answer
    /// already written, so it is done without ever being outstanding.
    pub fn has_answers(&self) -> bool {
        !self.ready.is_empty()
    }

    /// Run until some units finish, nothing is outstanding, the abort flag
    /// is set or the deadline passes (then every run is stopped: each worker
    /// saves its checkpoint, and the next manager resumes).
    pub fn wait(&mut self) -> Result<Wait, DistError> {
        loop {
            if !self.ready.is_empty() {
                return Ok(Wait::Finished(std::mem::take(&mut self.ready)));
            }
            if self.outstanding() == 0 {
                return Ok(Wait::Idle);
            }
            if self.opts.abort.as_ref().is_some_and(|a| a.load(Ordering::Relaxed)) {
                self.stop();
                return Ok(Wait::Interrupted);
            }
            if self.opts.deadline.is_some_and(|d| Instant::now() >= d) {
                self.stop();
                return Ok(Wait::Deadline);
            }
            self.launch_queued()?;
            for event in self.backend.poll()? {
                match event {
                    Event::Started { id, attempt } => self.observer.unit_started(&id, attempt),
                    Event::Note(line) => self.observer.note(&line),
                    Event::Ended { id, attempt, how } => self.ended(&id, attempt, how)?,
                }
            }
            self.look_again()?;
            if self.ready.is_empty() {
                std::thread::sleep(self.backend.poll_interval());
            }
        }
    }

    /// Stop every run (see [`Backend::stop_all`]); the units stay queued.
    pub fn stop(&mut self) {
        self.backend.stop_all();
        for t in self.units.values_mut() {
            if matches!(t.state, State::Running | State::Ended { .. }) {
                t.state = State::Queued;
            }
        }
    }

    fn launch_queued(&mut self) -> Result<(), DistError> {
        let mut runs = Vec::new();
        for (id, t) in self.units.iter_mut().filter(|(_, t)| t.state == State::Queued) {
            t.attempts += 1;
            t.state = State::Running;
            // An answer left by an earlier run (a failure) must not be taken
            // for this run's.
            let _ = std::fs::remove_file(self.dir.answer_path(id));
            runs.push(Launch {
                id: id.clone(),
                attempt: t.attempts,
                unit: self.dir.unit_path(id),
                log: self.dir.log_path(id, t.attempts),
            });
        }
        if runs.is_empty() {
            return Ok(());
        }
        self.backend.launch(runs)
    }

    /// A run ended: its answer is final, a failure to retry, a refusal, or
    /// not there (yet).
    fn ended(&mut self, id: &str, attempt: u32, how: String) -> Result<(), DistError> {
        let Some(t) = self.units.get_mut(id) else { return Ok(()) };
        if t.state != State::Running || t.attempts != attempt {
            return Ok(());
        }
        t.state = State::Ended { at: Instant::now(), how };
        self.settle(id)
    }

    /// Units whose run ended without an answer: looked at again.
    fn look_again(&mut self) -> Result<(), DistError> {
        let ended: Vec<String> = self
            .units
            .iter()
            .filter(|(_, t)| matches!(t.state, State::Ended { .. }))
            .map(|(id, _)| id.clone())
            .collect();
        for id in ended {
            self.settle(&id)?;
        }
        Ok(())
    }

    fn settle(&mut self, id: &str) -> Result<(), DistError> {
        let grace = self.backend.answer_grace();
        let answer_path = self.dir.answer_path(id);
        let log = self.dir.log_path(id, self.units[id].attempts);
        let t = self.units.get_mut(id).expect("a tracked unit");
        let State::Ended { at, how } = t.state.clone() else { return Ok(()) };
        let answer = Answer::read(&answer_path).filter(|a| a.unit_hash == t.hash);
        let why = match answer {
            Some(a) => match &a.outcome {
                Outcome::Failed { reason, retry: false } => {
                    return Err(DistError::Refused { unit: id.to_string(), reason: reason.clone() });
                }
                Outcome::Failed { reason, retry: true } => reason.clone(),
                _ => {
                    t.state = State::Done;
                    let f = Finished { unit: t.unit.clone(), answer: a, reused: false, attempts: t.attempts };
                    self.observer.unit_finished(&f);
                    self.ready.push(f);
                    return Ok(());
                }
            },
            None if at.elapsed() < grace => return Ok(()),
            None => format!("no answer ({how}); see {}", log.display()),
        };
        if t.attempts <= self.opts.retries {
            t.state = State::Queued;
            self.observer.unit_retried(id, &why);
            return Ok(());
        }
        t.state = State::Done;
        let answer = Answer::to(id, &t.hash, Outcome::Failed { reason: why, retry: true });
        let f = Finished { unit: t.unit.clone(), answer, reused: false, attempts: t.attempts };
        self.observer.unit_finished(&f);
        self.ready.push(f);
        Ok(())
    }
}

impl Drop for Scheduler {
    fn drop(&mut self) {
        if self.units.values().any(|t| matches!(t.state, State::Running)) && self.backend.in_flight() > 0 {
            self.backend.stop_all();
        }
    }
}

/// Wait for every outstanding unit: its answers, or why the run stopped.
pub fn wait_all(s: &mut Scheduler, mut each: impl FnMut(Finished)) -> Result<Wait, DistError> {
    loop {
        match s.wait()? {
            Wait::Finished(list) => list.into_iter().for_each(&mut each),
            other => return Ok(other),
        }
    }
}
