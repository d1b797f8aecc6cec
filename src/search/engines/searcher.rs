//! The interface the root driver, the principal variation and the claims
//! use to ask a search about a node: window queries under the path's
//! history, and the exact value by null-window tests.

use crate::rules::position::Move;
use crate::search::tree::node::{Node, INF};
use crate::search::tree::path::Path;
use crate::search::types::outcome::BoundsLog;
use crate::search::types::outcome::Stats;
use crate::search::types::stop::Stop;

/// A searcher answers window queries about a node under the path's history.
pub(crate) trait Searcher {
    /// Fail-soft alpha-beta value of `node` (whose situation is the last on
    /// `path`): exact when strictly inside (alpha, beta), else a bound.
    fn search(&mut self, path: &mut Path, node: Node, alpha: i32, beta: i32) -> Result<i32, Stop>;
    fn stats(&self) -> Stats;
    /// Like [`Searcher::search`], but may give up (`None`) when no answer is
    /// proved within about `horizon` plies below `node`; `usize::MAX` never
    /// gives up.
    fn search_within(
        &mut self,
        path: &mut Path,
        node: Node,
        alpha: i32,
        beta: i32,
        _horizon: usize,
    ) -> Result<Option<i32>, Stop> {
        self.search(path, node, alpha, beta).map(Some)
    }
    /// A move worth trying first at `node` (e.g. the table's best move).
    fn hint(&mut self, _path: &Path, _node: &Node) -> Option<Move> {
        None
    }
    fn report_root(&mut self, _done: usize, _total: usize) {}
    /// Skip the moves to the points of `mask` at the node at `ply` (the root
    /// of a value-only solve): each is the image of a searched move under a
    /// symmetry of the whole game, so it has the same value
    /// ([`crate::rules::symmetry::game_stabilizer`]). A searcher may ignore it.
    fn set_root_skip(&mut self, _ply: usize, _mask: crate::rules::geometry::Bits) {}
    /// The bounds of [`Searcher::exact`], set for the root of a value-only
    /// solve only (`None` and `(None, None)` elsewhere): report the bounds
    /// each MTD(f) step proves to `log`, and start from `known`, bounds on
    /// the value (without komi) proved by an earlier run of the same solve.
    /// A searcher may ignore `known`: it changes the work, never the value.
    fn set_root_bounds(&mut self, _log: Option<BoundsLog>, _known: (Option<i32>, Option<i32>)) {}
    /// The exact value of `node`; `guess` may speed it up. The default is one
    /// full-window search; the solver uses MTD(f) null-window searches.
    fn exact(&mut self, path: &mut Path, node: Node, _guess: i32) -> Result<i32, Stop> {
        self.search(path, node, -INF, INF)
    }
}
