//! What a solve gives back: the [`Solution`] (values, principal variation,
//! every root move's value) with its [`Stats`], or the [`SolveError`] it
//! stopped on; the [`Progress`] reported while it runs; and the
//! [`BoundsLog`] of what a solve proved on its root's value, which a
//! search's memory also keeps for the next run.

use crate::rules::position::{Color, Move, Rules};

/// What a progress callback sees.
#[derive(Clone, Debug, Default)]
pub struct Progress {
    pub nodes: u64,
    pub seconds: f64,
    pub root_moves_done: usize,
    pub root_moves_total: usize,
    pub max_depth: usize,
    /// What a value-only solve has proved of its value so far (at least,
    /// at most; Black − White area − komi, as reported), from
    /// [`SolveOptions::value_bounds`](crate::search::SolveOptions::value_bounds)
    /// when the caller gave one: an hours-long solve shows where it stands.
    pub value_bounds: (Option<f64>, Option<f64>),
    /// The null-window tests "value ≥ b" a value-only solve is running,
    /// by their b (reported as the bounds are), least first: before its
    /// first bound a long solve shows which question it is on.
    pub value_tests: Vec<f64>,
}

/// Counters of a solve.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Stats {
    pub nodes: u64,
    pub table_hits: u64,
    pub table_stores: u64,
    pub key_matches: u64,
    pub seconds: f64,
    pub max_depth: usize,
    /// Bytes of the transposition table in use at the end: it starts small
    /// and grows as it fills, up to its size (0: no table).
    pub table_bytes: u64,
}

impl Stats {
    /// Add another searcher's counters (parallel solves).
    pub fn add(&mut self, o: &Stats) {
        self.nodes += o.nodes;
        self.table_hits += o.table_hits;
        self.table_stores += o.table_stores;
        self.key_matches += o.key_matches;
        self.max_depth = self.max_depth.max(o.max_depth);
        self.table_bytes = self.table_bytes.max(o.table_bytes);
    }
}

/// The value of a node from its root moves' values: the best for the mover.
pub(crate) fn best_value(moves: &[MoveValue], to_move: Color) -> i32 {
    let values = moves.iter().map(|m| m.value);
    match to_move {
        Color::Black => values.max(),
        Color::White => values.min(),
    }
    .expect("pass is always legal")
}

/// The exact value of one root move (komi excluded).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveValue {
    pub mv: Move,
    pub value: i32,
}

/// The answer of a solve: values are Black − White area, komi excluded.
#[derive(Clone, Debug)]
pub struct Solution {
    pub value: i32,
    pub pv: Vec<Move>,
    pub moves: Vec<MoveValue>,
    pub stats: Stats,
}

impl Solution {
    /// The value as reported: Black − White − komi.
    pub fn value_with_komi(&self, rules: &Rules) -> f64 {
        crate::rules::position::value_with_komi(self.value, rules.komi)
    }
}

/// Why a solve stopped without an answer.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SolveError {
    #[error("node limit of {0} reached before the position was solved")]
    NodeLimit(u64),
    #[error("time limit of {0:.1} s reached before the position was solved")]
    TimeLimit(f64),
    /// The caller's abort flag
    /// ([`SolveOptions::abort`](super::options::SolveOptions::abort), e.g.
    /// Ctrl-C) was set.
    #[error("search interrupted")]
    Interrupted,
    /// [`SolveOptions::memory`](super::options::SolveOptions::memory) is for
    /// another board or other rules of play.
    #[error("{0}")]
    MemoryMismatch(String),
}

/// What two sets of bounds on one value, (lower, upper) with `None` where
/// nothing is proved, prove together: the larger lower and the smaller
/// upper bound.
pub fn meet_bounds(a: (Option<i32>, Option<i32>), b: (Option<i32>, Option<i32>)) -> (Option<i32>, Option<i32>) {
    let pick = |x: Option<i32>, y: Option<i32>, f: fn(i32, i32) -> i32| match (x, y) {
        (Some(x), Some(y)) => Some(f(x, y)),
        (x, y) => x.or(y),
    };
    (pick(a.0, b.0, i32::max), pick(a.1, b.1, i32::min))
}

/// Bounds on a value proved so far (komi excluded): `lower ≤ value ≤ upper`,
/// `None` where nothing is proved. Shared by the searching threads; each
/// report can only narrow them. It also holds the null-window tests
/// running now ("value ≥ b"), so that a solve's progress line can say
/// which question an hours-long test is on before it proves anything; a
/// solve stopped by a limit leaves there the tests it stopped in, which
/// its report and a batch record name.
#[derive(Clone, Default, Debug)]
pub struct BoundsLog(std::sync::Arc<std::sync::Mutex<LogState>>);

#[derive(Clone, Default, Debug)]
struct LogState {
    bounds: (Option<i32>, Option<i32>),
    testing: Vec<i32>,
}

impl BoundsLog {
    fn state(&self) -> std::sync::MutexGuard<'_, LogState> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
    /// Record that the value is at least `lower` (`None`: nothing new) and
    /// at most `upper`.
    pub fn narrow(&self, lower: Option<i32>, upper: Option<i32>) {
        let mut s = self.state();
        s.bounds = meet_bounds(s.bounds, (lower, upper));
    }
    /// The bounds proved so far: (lower, upper).
    pub fn get(&self) -> (Option<i32>, Option<i32>) {
        self.state().bounds
    }
    /// The tests "value ≥ b" running now, given by their b (none once the
    /// value is known; after a stop, those it stopped in).
    pub fn set_testing(&self, tests: impl IntoIterator<Item = i32>) {
        let mut t: Vec<i32> = tests.into_iter().collect();
        t.sort_unstable();
        t.dedup();
        self.state().testing = t;
    }
    /// The tests running now, least b first: those the bounds leave open
    /// (lower < b <= upper). A test decided by the bounds is not running,
    /// even where its mark was not cleared: a value-only solve stopped in
    /// its line, after both bounds were proved, said "stopped in the test
    /// value >= +2" beside "value <= +1" (1x16 after a4, 2026-12-02).
    pub fn testing(&self) -> Vec<i32> {
        let s = self.state();
        let (lower, upper) = s.bounds;
        let open = |b: i32| lower.is_none_or(|l| b > l) && upper.is_none_or(|u| b <= u);
        s.testing.iter().copied().filter(|&b| open(b)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::BoundsLog;

    /// Only the tests the bounds leave open are reported as running.
    #[test]
    fn a_test_the_bounds_decide_is_not_reported() {
        let log = BoundsLog::default();
        log.set_testing([2, 3]);
        assert_eq!(log.testing(), vec![2, 3]);
        log.narrow(Some(2), None);
        assert_eq!(log.testing(), vec![3], "value >= 2 is proved");
        log.narrow(None, Some(2));
        assert!(log.testing().is_empty(), "the value is known: {:?}", log.testing());
    }
}
