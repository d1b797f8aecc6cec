//! A deterministic simulation of a distributed solve on W workers, replaying
//! the answers recorded in the work dir of a real run through the
//! manager's own policy ([`Manager`]: the same goals, selection, budgets
//! and expansion), on a simulated clock.
//!
//! # Assumptions
//!
//! - **A unit's answer and duration do not depend on when it runs.** A
//!   unit the simulated manager sends (a node's claim with a budget, the
//!   key: its line of moves, claim and budget) is answered as it was in
//!   the recording, after the wall time the recording's manager saw (the
//!   worker's start, its read of the shared checkpoint, the search and the
//!   delta's write). In a real run the shared checkpoint holds more or less
//!   when a unit starts, so its work would differ.
//! - **What the recording decided stays decided; the rest is wasted.** A
//!   unit whose claim the recording decided at the same node with another
//!   budget gets that answer and duration; one whose claim the recording's
//!   final tree decides (its node's proved bounds) gets that answer after
//!   the mean wall time of the recording's decided units. Any other (a
//!   leaf chosen only because more workers were idle) is wasted: it takes
//!   the mean wall time of the recording's undecided units of its budget
//!   (scaled from the first budget where none) and its leaf is never sent
//!   again. Speculation is never rewarded, so the prediction errs low.
//! - **The manager is one serial process; merges run beside it.**
//!   Answers are applied, and leaves chosen, in no time; a merge takes the
//!   recording's mean merge time while units go on being sent (as on the
//!   real manager's merge thread; its CPU is not taken from the workers),
//!   is made on the real manager's rule (deltas waiting, a worker idle, no
//!   merge running, and twice its cost elapsed since the last ended), and
//!   one still running at the end is waited for.
//! - Workers start their units at once (no queueing in a cluster's
//!   scheduler) and never fail.
//!
//! Answers that arrive at the same simulated time are applied in the order
//! of their units' ids, so the simulation is deterministic.

use super::manager::{Manager, Mode, Policy, Reply};
use super::state::{State, UnitRecord};
use crate::distributed::protocol::{position_game, Answer, Outcome, UnitResult};
use crate::distributed::WorkDir;
use crate::rules::history::Game;
use std::cmp::Ordering;
use std::collections::{BinaryHeap, HashMap};
use std::path::Path;

/// What a unit's key was answered in the recording.
#[derive(Clone, Debug)]
struct Recorded {
    reply: Reply,
    wall: f64,
}

/// The recording of a run: its problem, policy and answers.
#[derive(Clone, Debug)]
pub struct Recording {
    pub game: Game,
    pub mode: Mode,
    pub policy: Policy,
    answers: HashMap<(String, bool, i32, u64), Recorded>,
    /// Decided answers by node and claim, whatever the budget.
    decided: HashMap<(String, bool, i32), Recorded>,
    /// The proved bounds of the recording's final tree, by line of moves.
    bounds: HashMap<String, (i32, i32)>,
    /// Mean wall seconds of a decided unit.
    decided_wall: f64,
    /// Mean wall seconds of an undecided unit, by budget.
    undecided_wall: HashMap<u64, f64>,
    pub merge_seconds: f64,
    /// The recorded run's units, their wall seconds in all, and the manager's
    /// seconds (all its runs).
    pub units: usize,
    pub unit_seconds: f64,
    pub manager_seconds: f64,
    pub workers: usize,
}

impl Recording {
    /// Read the recording of the solve in work dir `dir` (its state and answers).
    pub fn read(dir: &Path) -> Result<Recording, String> {
        let wd = WorkDir::open(dir).map_err(|e| e.to_string())?;
        let path = dir.join("solve").join("state.json");
        let st = State::read(&path)
            .map_err(|e| e.to_string())?
            .ok_or_else(|| format!("{} holds no solve state", dir.display()))?;
        let game = position_game(&st.problem.position)?;
        let mut answers = HashMap::new();
        let mut decided = HashMap::new();
        let mut undecided: HashMap<u64, (f64, u32)> = HashMap::new();
        for r in &st.records {
            let reply = match r.outcome.as_str() {
                "proved" => Reply::Holds(true),
                "refuted" => Reply::Holds(false),
                _ => {
                    let e = undecided.entry(r.budget).or_insert((0.0, 0));
                    e.0 += r.wall;
                    e.1 += 1;
                    Reply::Open { after: root_moves(&wd, r) }
                }
            };
            if matches!(reply, Reply::Holds(_)) {
                decided
                    .entry((r.path.clone(), r.at_least, r.value))
                    .or_insert(Recorded { reply: reply.clone(), wall: r.wall });
            }
            answers.insert(key_of(r), Recorded { reply, wall: r.wall });
        }
        let tree = super::tree::Tree::with_nodes(game.clone(), st.nodes.clone());
        let bounds = (0..tree.len() as u32).map(|i| (tree.path_text(i), (tree.node(i).lo, tree.node(i).hi))).collect();
        let walls: Vec<f64> = decided.values().map(|d: &Recorded| d.wall).collect();
        let decided_wall = walls.iter().sum::<f64>() / walls.len().max(1) as f64;
        let merges = st.merges.len().max(1) as f64;
        Ok(Recording {
            game,
            mode: st.problem.mode.clone(),
            policy: st.policy.clone(),
            answers,
            decided,
            bounds,
            decided_wall,
            undecided_wall: undecided.into_iter().map(|(b, (s, n))| (b, s / f64::from(n))).collect(),
            merge_seconds: st.merges.iter().map(|m| m.seconds).sum::<f64>() / merges,
            units: st.records.len(),
            unit_seconds: st.records.iter().map(|r| r.wall).sum(),
            manager_seconds: st.manager_seconds,
            workers: st.workers,
        })
    }

    /// The duration of a unit the recording does not have.
    fn wasted_wall(&self, budget: u64) -> f64 {
        if let Some(&w) = self.undecided_wall.get(&budget) {
            return w;
        }
        let first = self.policy.unit_nodes.max(1);
        let base = self
            .undecided_wall
            .get(&first)
            .copied()
            .or_else(|| self.undecided_wall.values().copied().reduce(f64::max))
            .unwrap_or(1.0);
        base * budget as f64 / first as f64
    }
}

/// The recorded root moves of an undecided unit (none where its answer is gone).
fn root_moves(dir: &WorkDir, r: &UnitRecord) -> Vec<(String, Option<bool>)> {
    match Answer::read(&dir.answer_path(&r.id)) {
        Some(Answer {
            outcome: Outcome::Undecided { .. }, result: Some(UnitResult::Claim { root_moves, .. }), ..
        }) => root_moves.into_iter().map(|m| (m.mv, m.holds)).collect(),
        _ => Vec::new(),
    }
}

fn key_of(r: &UnitRecord) -> (String, bool, i32, u64) {
    (r.path.clone(), r.at_least, r.value, r.budget)
}

/// What one simulated run gave.
#[derive(Clone, Debug, PartialEq)]
pub struct Simulated {
    pub workers: usize,
    /// Simulated seconds from the start to the answer.
    pub makespan: f64,
    /// Units sent, those the recording had no answer for (their node and
    /// claim), and of those the ones wasted (nothing known of them).
    pub units: usize,
    pub unrecorded: usize,
    pub wasted: usize,
    /// Worker seconds busy, over all workers.
    pub busy: f64,
    pub merges: usize,
    /// Whether the goal was reached (false: the simulation ran out of work).
    pub done: bool,
}

/// An answer due at a simulated time.
struct Due {
    at: f64,
    id: String,
    /// None: wasted (the recording has nothing for it).
    reply: Option<Reply>,
    wall: f64,
}

impl PartialEq for Due {
    fn eq(&self, o: &Self) -> bool {
        self.cmp(o) == Ordering::Equal
    }
}
impl Eq for Due {}
impl PartialOrd for Due {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Due {
    /// Earliest first (the heap is a max-heap), then by id.
    fn cmp(&self, o: &Self) -> Ordering {
        o.at.total_cmp(&self.at).then_with(|| o.id.cmp(&self.id))
    }
}

/// Simulate the recorded solve on `workers` workers.
pub fn simulate(rec: &Recording, workers: usize) -> Simulated {
    let workers = workers.max(1);
    let mut m = Manager::new(rec.game.clone(), rec.mode.clone(), rec.policy.clone(), None);
    let mut heap: BinaryHeap<Due> = BinaryHeap::new();
    let mut out =
        Simulated { workers, makespan: 0.0, units: 0, unrecorded: 0, wasted: 0, busy: 0.0, merges: 0, done: false };
    let mut now = 0.0f64;
    let mut pending = 0usize;
    let mut last_merge: Option<(f64, f64)> = None;
    // When the merge running ends.
    let mut merging: Option<f64> = None;
    loop {
        if m.done() {
            out.done = true;
            break;
        }
        if let Some(end) = merging.filter(|&e| e <= now) {
            last_merge = Some((end, rec.merge_seconds));
            merging = None;
        }
        let free = workers - heap.len();
        if free > 0 {
            let due = last_merge.is_none_or(|(at, secs)| now - at >= 2.0 * secs);
            if merging.is_none() && pending > 0 && due {
                merging = Some(now + rec.merge_seconds);
                pending = 0;
                out.merges += 1;
            }
            for f in m.select(free) {
                let path = m.tree.path_text(f.node);
                let b = f.test();
                let key = (path.clone(), f.at_least, f.value, f.budget);
                let (reply, wall) = if let Some(r) = rec.answers.get(&key) {
                    (Some(r.reply.clone()), r.wall)
                } else if let Some(r) = rec.decided.get(&(path.clone(), f.at_least, f.value)) {
                    (Some(r.reply.clone()), r.wall)
                } else {
                    out.unrecorded += 1;
                    match rec.bounds.get(&path) {
                        Some(&(lo, hi)) if lo >= b || hi < b => {
                            (Some(Reply::Holds((lo >= b) == f.at_least)), rec.decided_wall)
                        }
                        _ => {
                            out.wasted += 1;
                            (None, rec.wasted_wall(f.budget))
                        }
                    }
                };
                out.units += 1;
                heap.push(Due { at: now + wall, id: f.id, reply, wall });
            }
        }
        let Some(first) = heap.pop() else { break };
        now = now.max(first.at);
        let mut batch = vec![first];
        while heap.peek().is_some_and(|d| d.at <= now) {
            batch.extend(heap.pop());
        }
        for d in batch {
            out.busy += d.wall;
            pending += 1;
            let Some(reply) = &d.reply else {
                m.abandon(&d.id);
                continue;
            };
            if m.apply(&d.id, reply).is_err() {
                // Recorded answers that contradict each other (another
                // policy's run): the simulation cannot go on.
                out.makespan = now;
                return out;
            }
        }
    }
    out.makespan = now.max(merging.unwrap_or(now));
    out
}
