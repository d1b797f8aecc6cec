//! What a build solves and how: the work list (one representative per
//! symmetry class, in the order that lets later solves reuse earlier
//! ones) and the solving threads, which share one search memory.
//!
//! # One memory for every solve
//!
//! A table's positions are solved one after another on one transposition
//! table ([`Memory`]), not each on a fresh one: a result proved in one
//! solve is reused in another when its conditions hold under that solve's
//! history (see [`crate::search::memory`]: the same check as for another
//! line within one solve), so exactness does not depend on what the table
//! holds. Each thread keeps one solver for all its positions
//! ([`EntrySearch`]). On 3x3 this took the build from 13 s of CPU to
//! 0.15 s (2026-11-28, `results/tables.md`).
//!
//! # Order
//!
//! The fullest positions come first, then ever emptier ones: a position's
//! search passes through the positions one stone fuller (its children),
//! solved just before it, whose results are still in the memory. Within a
//! stone count, by key (on 3x3 the fewest nodes of the orders tried:
//! `results/tables.md`).

use super::transform::Transforms;
use super::{key, Entry, Key, TableSpec};
use crate::count::legal::for_each_legal_position;
use crate::rules::geometry::Geometry;
use crate::rules::history::Game;
use crate::rules::position::{Color, Move, Position};
use crate::search::{EntrySearch, Memory, SolveOptions, ENTRY_STACK};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

/// A position to solve: the representative of its class, and the entries
/// the class has in the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Work {
    pub position: Position,
    pub to_move: Color,
    pub size: u64,
}

/// The classes of `geo` under `transforms` whose representatives are not in
/// `known`, in the build's order, and the entries a complete table has.
pub(super) fn work_list(geo: &Geometry, transforms: &Transforms, known: &HashMap<Key, Entry>) -> (Vec<Work>, u64) {
    let mut todo = Vec::new();
    let mut total = 0u64;
    for_each_legal_position(geo, |pos| {
        for to_move in [Color::Black, Color::White] {
            total += 1;
            let (p, c, _) = transforms.canonical(pos, to_move);
            if (p, c) == (pos, to_move) && !known.contains_key(&key(pos, to_move)) {
                todo.push(Work { position: pos, to_move, size: transforms.class_size(pos, to_move) });
            }
        }
    })
    .expect("table boards can be listed");
    todo.sort_by_key(|w| (std::cmp::Reverse(w.position.stone_count()), key(w.position, w.to_move)));
    (todo, total)
}

/// The entries `entries` stand for, as the entries of their class
/// representatives (each mapped onto its representative), added to `known`.
pub(super) fn add_representatives(
    transforms: &Transforms,
    entries: impl IntoIterator<Item = Entry>,
    known: &mut HashMap<Key, Entry>,
) {
    for e in entries {
        let (_, _, t) = transforms.canonical(e.position, e.to_move);
        let r = transforms.entry(t, &e);
        known.insert(r.key(), r);
    }
}

/// The entry of a solved position, from its search.
fn entry_from(position: Position, to_move: Color, value: i32, moves: &[(Move, bool)]) -> Entry {
    let mut e = Entry {
        position,
        to_move,
        value: i8::try_from(value).expect("a value on at most 64 points fits in i8"),
        best_pass: false,
        best_points: 0,
    };
    for &(mv, best) in moves.iter().filter(|m| m.1) {
        debug_assert!(best);
        match mv {
            Move::Pass => e.best_pass = true,
            Move::Play(p) => e.best_points |= 1 << p,
        }
    }
    e
}

/// What the collecting thread of [`Solving::run`] is told.
pub(super) enum Heard {
    /// Position `index` of the list is solved, in `nodes`.
    Solved { index: usize, entry: Entry, nodes: u64 },
    /// Nothing new for a tenth of a second.
    Tick,
}

/// The solving of a work list: `threads` threads take its positions in
/// order, each with its own [`EntrySearch`] on the shared `memory`, while
/// the calling thread hears every result (and a tick every 100 ms, so it
/// can report progress, write checkpoints and raise `stop`). Returns once
/// every thread has ended: the list is done, `stop` was raised (the solves
/// running then are lost), or `stop_after` positions were handed out.
pub(super) struct Solving<'a> {
    pub spec: &'a TableSpec,
    pub todo: &'a [Work],
    pub memory: Memory,
    pub stop: Arc<AtomicBool>,
    pub stop_after: Option<u64>,
    /// One per thread: the start of the solve it runs now, if any.
    pub running: &'a [Mutex<Option<Instant>>],
}

impl Solving<'_> {
    pub(super) fn run(&self, mut hear: impl FnMut(Heard)) {
        let next = AtomicUsize::new(0);
        let (tx, rx) = mpsc::channel::<Heard>();
        let opts = SolveOptions {
            threads: 1,
            no_pv: true,
            abort: Some(self.stop.clone()),
            memory: Some(self.memory.clone()),
            ..Default::default()
        };
        std::thread::scope(|scope| {
            for (i, slot) in self.running.iter().enumerate() {
                let (tx, next, opts) = (tx.clone(), &next, &opts);
                std::thread::Builder::new()
                    .name(format!("table-{i}"))
                    .stack_size(ENTRY_STACK)
                    .spawn_scoped(scope, move || self.worker(slot, next, opts, tx))
                    .expect("cannot start a table thread");
            }
            drop(tx);
            loop {
                match rx.recv_timeout(Duration::from_millis(100)) {
                    Ok(h) => hear(h),
                    Err(mpsc::RecvTimeoutError::Timeout) => hear(Heard::Tick),
                    Err(mpsc::RecvTimeoutError::Disconnected) => break,
                }
            }
        });
    }

    /// One thread: solve positions of the list until none is left, the
    /// build stops, or `stop_after` were handed out.
    fn worker(&self, slot: &Mutex<Option<Instant>>, next: &AtomicUsize, opts: &SolveOptions, tx: mpsc::Sender<Heard>) {
        let mut search = EntrySearch::new(self.spec.geo, self.spec.rules, opts);
        while !self.stop.load(Ordering::Relaxed) {
            let i = next.fetch_add(1, Ordering::Relaxed);
            if self.stop_after.is_some_and(|n| i as u64 >= n) {
                break;
            }
            let Some(w) = self.todo.get(i) else { break };
            let game =
                Game::new(self.spec.geo, self.spec.rules, w.position, w.to_move).expect("table positions are legal");
            *slot.lock().unwrap_or_else(|e| e.into_inner()) = Some(Instant::now());
            let result = search.solve(&game, None);
            *slot.lock().unwrap_or_else(|e| e.into_inner()) = None;
            // Only a stop makes a solve fail (no limits are set); its work is lost.
            let Ok(r) = result else { break };
            let entry = entry_from(w.position, w.to_move, r.value, &r.moves);
            if tx.send(Heard::Solved { index: i, entry, nodes: r.nodes }).is_err() {
                break;
            }
        }
    }
}
