//! A table entry's search: the value of a position and which of its root
//! moves reach that value, for solving many positions one after another
//! (`crate::tables`) on a thread that keeps one solver.
//!
//! # Why not [`crate::search::solve`]
//!
//! A table asks only which moves are best, not every move's value: after
//! the root's value v (the value driver's tests at the root, as a value-only
//! solve), one null-window test per root orbit decides whether the move
//! reaches v (no move can do better than v). A losing move is refuted by
//! one test, where its exact value could take several (ko fights). And a
//! table solves millions of small positions, where a solve's fixed cost
//! was most of the time: a thread with a 1 GiB stack started per solve, a
//! solver and its pattern tables built per solve. An [`EntrySearch`]
//! searches on its caller's thread (which must have [`SEARCH_STACK`]) with
//! one solver for all its positions, on the memory given in the options.
//!
//! Exactness: every test is exact whatever the table holds (see
//! [`crate::search::tt`]), so the value is the root's value and a move is
//! reported best exactly when its value equals it. Root moves in one orbit
//! of the game's symmetries have the same value (as in the root driver).

use super::root_moves::Root;
use super::threads::SEARCH_STACK;
use crate::rules::history::Game;
use crate::rules::position::{Color, Move};
use crate::search::engines::searcher::Searcher;
use crate::search::engines::solver::{table_for, SolveShared, Solver};
use crate::search::engines::value_driver::first_guess;
use crate::search::types::options::SolveOptions;
use crate::search::types::outcome::SolveError;
use crate::search::types::stop::Stop;

/// The stack a thread running an [`EntrySearch`] needs (games under superko
/// are hundreds of plies deep, one recursion level each; only touched
/// pages are used).
pub const ENTRY_STACK: usize = SEARCH_STACK;

/// What an entry's search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntryResult {
    /// The value of the position (Black − White area, komi excluded).
    pub value: i32,
    /// The legal root moves, pass first, each with whether it reaches `value`.
    pub moves: Vec<(Move, bool)>,
    /// Nodes searched for it.
    pub nodes: u64,
}

/// One solver reused for many positions of a board (see the module
/// documentation).
pub struct EntrySearch {
    solver: Solver,
    opts: SolveOptions,
}

impl EntrySearch {
    /// A search for positions of `game`'s board and rules with `opts` (its
    /// memory, limits and abort flag; one thread).
    pub fn new(
        geo: crate::rules::geometry::Geometry,
        rules: crate::rules::position::Rules,
        opts: &SolveOptions,
    ) -> Self {
        let solver = Solver::with_table(geo, rules, opts, table_for(&geo, opts));
        EntrySearch { solver, opts: opts.clone() }
    }

    /// Solve `game`'s position: its value and its best root moves. Runs on
    /// the calling thread, which needs a stack of [`ENTRY_STACK`]. `guess`
    /// is where the value driver starts (`None`: the static guess); only
    /// the work depends on it.
    pub fn solve(&mut self, game: &Game, guess: Option<i32>) -> Result<EntryResult, SolveError> {
        if let Some(m) = &self.opts.memory {
            if !m.fits(&game.geo, &game.rules) {
                return Err(SolveError::MemoryMismatch(format!(
                    "the search memory is for {}, not for {}",
                    m.geometry().name(),
                    game.geo.name()
                )));
            }
        }
        if game.is_over() {
            return Ok(EntryResult { value: game.score(), moves: Vec::new(), nodes: 0 });
        }
        let s = &mut self.solver;
        // A fresh share per position: the guide is the memory's, the node
        // count and the playouts' cache are this position's.
        s.join(&SolveShared::new(&self.opts, false));
        s.set_helper(0, None);
        s.set_root_bounds(None, (None, None));
        let start = s.stats().nodes;
        let root = Root::new(game);
        let mut path = root.path.clone();
        s.set_root_skip(root.ply(), root.mirror_moves());
        let guess = guess.unwrap_or_else(|| first_guess(&game.geo, &root.node));
        let value = s.exact(&mut path, root.node, guess).map_err(Stop::into_error)?;
        s.set_root_skip(root.ply(), 0);
        // A move is best iff its value reaches the root's: for Black "≥ v",
        // for White "≤ v", i.e. not "≥ v + 1".
        let (b, best_if_ge) = match root.node.to_move {
            Color::Black => (value, true),
            Color::White => (value + 1, false),
        };
        let mut best = vec![false; root.children.len()];
        for i in root.orbit_firsts() {
            let child = root.children[i].1;
            path.push(child.pos, child.to_move);
            let g = s.search(&mut path, child, b - 1, b);
            path.pop();
            best[i] = (g.map_err(Stop::into_error)? >= b) == best_if_ge;
        }
        let moves = root.children.iter().zip(&root.reps).map(|(&(mv, _), &r)| (mv, best[r])).collect();
        Ok(EntryResult { value, moves, nodes: s.stats().nodes - start })
    }
}
