//! The plain reference search: alpha-beta over the game tree with the real
//! history, nothing else — no table, no symmetry, no ordering beyond "pass
//! first, then points in index order", no pruning beyond alpha-beta. It is
//! slow and obviously right, and the fast solver is tested against it.

use super::path::Path;
use super::{child, Limits, Node, SolveError, SolveOptions, Searcher, Stats, INF};
use crate::geometry::Geometry;
use crate::position::{Color, Move, Rules};

pub struct Reference {
    geo: Geometry,
    rules: Rules,
    limits: Limits,
    nodes: u64,
    max_depth: usize,
}

impl Reference {
    pub fn new(geo: Geometry, rules: Rules, opts: &SolveOptions) -> Reference {
        Reference { geo, rules, limits: Limits::new(opts), nodes: 0, max_depth: 0 }
    }

    fn ab(&mut self, path: &mut Path, node: Node, mut alpha: i32, mut beta: i32) -> Result<i32, SolveError> {
        self.nodes += 1;
        if self.limits.due(self.nodes) {
            self.limits.check(self.nodes)?;
        }
        self.max_depth = self.max_depth.max(path.len());
        if node.is_over() {
            return Ok(node.pos.score(&self.geo));
        }
        let black = node.to_move == Color::Black;
        let mut best = if black { -INF } else { INF };
        let points = Geometry::iter(node.pos.empty(&self.geo)).map(Move::Play);
        for mv in std::iter::once(Move::Pass).chain(points) {
            let Ok(c) = child(&self.geo, &self.rules, path, &node, mv) else { continue };
            path.push(c.pos, c.to_move);
            let v = self.ab(path, c, alpha, beta);
            path.pop();
            let v = v?;
            if black {
                best = best.max(v);
                alpha = alpha.max(v);
            } else {
                best = best.min(v);
                beta = beta.min(v);
            }
            if alpha >= beta {
                break;
            }
        }
        Ok(best)
    }
}

impl Searcher for Reference {
    fn search(&mut self, path: &mut Path, node: Node, alpha: i32, beta: i32) -> Result<i32, SolveError> {
        self.ab(path, node, alpha, beta)
    }
    fn stats(&self) -> Stats {
        Stats {
            nodes: self.nodes,
            table_hits: 0,
            table_stores: 0,
            key_matches: 0,
            seconds: self.limits.seconds(),
            max_depth: self.max_depth,
        }
    }
}
