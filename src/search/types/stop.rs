//! Why a search stops: the solve's limits ([`Limits`]) and the internal
//! reasons a search inside a solve stops early ([`Stop`]); the public
//! reasons a solve ends without an answer are [`SolveError`].
//!
//! Only [`SolveError`] ever reaches a caller. A [`Stop`] other than
//! [`Stop::Solve`] is part of how the threads and the horizon schedules of
//! one solve share the work, and is handled where it is raised: before, all
//! three were one `SolveError::Interrupted`, told apart by flags.

use super::options::SolveOptions;
use super::outcome::SolveError;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Why a search inside a solve stopped early.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Stop {
    /// The whole solve must end: a limit was reached or the caller aborted.
    Solve(SolveError),
    /// Another thread finished the task this searcher works on (a root
    /// move's value, or a test the value range has left), or the solve is
    /// ending through another thread's error: this searcher's work is no
    /// longer needed.
    TaskDone,
    /// The node slice of the current horizon schedule, or a df-pn test's
    /// node budget, is spent: the caller moves on (to the next schedule, or
    /// gives the test up as open).
    SliceEnd,
}

impl From<SolveError> for Stop {
    fn from(e: SolveError) -> Stop {
        Stop::Solve(e)
    }
}

impl Stop {
    /// The public error, where a stop leaves the solve. Only [`Stop::Solve`]
    /// can: a task's stop is taken by the thread board that set it, a
    /// slice's by the schedule loop or test that set it.
    pub(crate) fn into_error(self) -> SolveError {
        match self {
            Stop::Solve(e) => e,
            Stop::TaskDone | Stop::SliceEnd => unreachable!("{self:?} never ends a solve"),
        }
    }
}

/// Shared limit checking for both searchers.
///
/// The node limit holds for a whole solve: the threads of a parallel solve
/// add their nodes to one count (`count`, see [`Limits::share_count`]) at
/// each check, and the limit and the progress reports read that total: a
/// count per thread would let two threads search twice the limit, and the
/// progress line show one thread's nodes where the final report gives both
/// threads' sum.
///
/// Not `Clone`: a copy would carry `counted` and add the same nodes to the
/// shared count twice.
pub(crate) struct Limits {
    start: Instant,
    node_limit: Option<u64>,
    time_limit: Option<Duration>,
    abort: Option<Arc<AtomicBool>>,
    /// The nodes of every searcher sharing it, as of their last checks.
    count: Arc<AtomicU64>,
    /// This searcher's nodes already added to `count`.
    counted: u64,
}

impl Limits {
    pub(crate) fn new(opts: &SolveOptions) -> Limits {
        Limits {
            start: Instant::now(),
            node_limit: opts.node_limit,
            time_limit: opts.time_limit,
            abort: opts.abort.clone(),
            count: Arc::new(AtomicU64::new(0)),
            counted: 0,
        }
    }
    /// Count this searcher's nodes from now on in `count`, with the other
    /// threads of its solve.
    pub(crate) fn share_count(&mut self, count: &Arc<AtomicU64>) {
        self.count = count.clone();
        self.counted = 0;
    }
    /// The nodes of the solve so far: `count` with this searcher's `nodes`
    /// (its own count, which only grows) added (called at each check, so
    /// the total is at most a check interval behind per thread). It
    /// includes this searcher's `nodes`.
    fn total(&mut self, nodes: u64) -> u64 {
        let new = nodes - self.counted;
        self.counted = nodes;
        self.count.fetch_add(new, Ordering::Relaxed) + new
    }
    /// Whether [`Limits::check`] is due at this node count: every 4,096
    /// nodes, and exactly at the node limit (small solves need fewer nodes
    /// than the check interval, and a limit below it must still hold).
    #[inline(always)]
    pub(crate) fn due(&self, nodes: u64) -> bool {
        nodes & 0xfff == 0 || self.node_limit == Some(nodes)
    }
    /// Called when [`Limits::due`].
    /// `nodes`: this searcher's count; the limit applies to the solve's
    /// total ([`Limits::total`]), which is returned (for the progress line).
    pub(crate) fn check(&mut self, nodes: u64) -> Result<u64, SolveError> {
        let total = self.total(nodes);
        if let Some(n) = self.node_limit {
            if total >= n {
                return Err(SolveError::NodeLimit(n));
            }
        }
        if let Some(t) = self.time_limit {
            if self.start.elapsed() >= t {
                return Err(SolveError::TimeLimit(t.as_secs_f64()));
            }
        }
        if let Some(a) = &self.abort {
            if a.load(Ordering::Relaxed) {
                return Err(SolveError::Interrupted);
            }
        }
        Ok(total)
    }
    pub(crate) fn seconds(&self) -> f64 {
        self.start.elapsed().as_secs_f64()
    }
}
