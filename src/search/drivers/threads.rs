//! The threads a search runs on: stacks deep enough for any game, the
//! pool of worker threads of a parallel solve, and what they give back.

use crate::search::engines::solver::Solver;
use crate::search::types::outcome::SolveError;

/// Stack for searching threads: games under superko can be hundreds of
/// plies long and every ply is a recursion level. Only touched pages are used.
pub(crate) const SEARCH_STACK: usize = 1 << 30;

/// Run `f` on a thread with a stack deep enough for any game.
pub(crate) fn with_deep_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .name("gosolve-search".into())
            .stack_size(SEARCH_STACK)
            .spawn_scoped(s, f)
            .expect("cannot start the search thread")
            .join()
            .unwrap_or_else(|e| std::panic::resume_unwind(e))
    })
}

/// A pool of `threads` searching threads (each with [`SEARCH_STACK`]).
pub(crate) fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .stack_size(SEARCH_STACK)
        .build()
        .expect("cannot start the search threads")
}

/// What the threads of a solve found, and their solvers: also when the
/// solve stopped, since their counters are the work it did.
pub(crate) type Searched<T> = (Result<T, SolveError>, Vec<Solver>);
