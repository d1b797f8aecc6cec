//! The plain reference search: alpha-beta over the game tree with the real
//! history, nothing else — no table, no symmetry, no ordering beyond "pass
//! first, then points in index order", no pruning beyond alpha-beta. It is
//! slow and obviously right, and the fast solver is tested against it.
//!
//! It shares only the rules core with the solver ([`Position::play`] for a
//! move, [`SuperkoKey`] for what superko compares, [`Position::score`] for
//! area): its history, its move loop, its root driver and its principal
//! variation are its own, so that a bug in the solver's [`crate::search::tree::path::Path`],
//! [`crate::search::tree::node::legal_children`] or root driver cannot hide from the differential test by
//! being in both searchers.

use crate::rules::geometry::Geometry;
use crate::rules::history::{Game, SuperkoKey};
use crate::rules::movegen;
use crate::rules::position::{Color, Move, Position, Rules};
use crate::search::tree::hash::FastMap;
use crate::search::tree::node::INF;
use crate::search::types::options::SolveOptions;
use crate::search::types::outcome::{MoveValue, Solution, SolveError, Stats};
use crate::search::types::stop::Limits;

/// Every situation of the game so far, as superko compares them: the list
/// in order (to take the last one off) and how often each occurs (to ask
/// whether a situation is new). Plain std collections, nothing shared with
/// the solver's `Path`. (A linear scan of the list was plainer, but on 4×4
/// games of 80 moves it made the differential test take tens of minutes.)
/// The map's hasher is the search's small multiplicative one, not std's
/// SipHash, which dominated the differential test (`results/tests.md`,
/// 2026-12-03); it only places keys, the map compares them exactly, so
/// sharing it shares no logic with the solver.
#[derive(Default)]
struct Line {
    keys: Vec<SuperkoKey>,
    count: FastMap<SuperkoKey, u32>,
}

impl Line {
    fn push(&mut self, key: SuperkoKey) {
        self.keys.push(key);
        *self.count.entry(key).or_insert(0) += 1;
    }
    fn pop(&mut self) {
        let key = self.keys.pop().expect("pop on an empty line");
        match self.count.get_mut(&key) {
            Some(n) if *n > 1 => *n -= 1,
            _ => {
                self.count.remove(&key);
            }
        }
    }
    fn contains(&self, key: &SuperkoKey) -> bool {
        self.count.contains_key(key)
    }
    fn len(&self) -> usize {
        self.keys.len()
    }
}

/// A point in the game tree: the coloring, whose turn, passes just played.
#[derive(Clone, Copy)]
struct State {
    pos: Position,
    to_move: Color,
    passes: u8,
}

pub struct Reference {
    geo: Geometry,
    rules: Rules,
    limits: Limits,
    nodes: u64,
    max_depth: usize,
    line: Line,
}

impl Reference {
    pub fn new(geo: Geometry, rules: Rules, opts: &SolveOptions) -> Reference {
        Reference { geo, rules, limits: Limits::new(opts), nodes: 0, max_depth: 0, line: Line::default() }
    }

    /// Every legal turn at `s` with the situation it leads to: pass first,
    /// then the placements of the rules' move generator that repeat no
    /// situation on the line, in point order. None once the game is over.
    fn turns(&self, s: &State) -> Vec<(Move, State)> {
        if s.passes >= 2 {
            return Vec::new();
        }
        let opp = s.to_move.opponent();
        let pass = State { pos: s.pos, to_move: opp, passes: s.passes + 1 };
        let plays = movegen::all_placements(&self.geo, &s.pos, s.to_move, self.rules.suicide)
            .filter(|&(_, next)| !self.line.contains(&SuperkoKey::new(next, opp, self.rules.superko)))
            .map(|(p, next)| (Move::Play(p), State { pos: next, to_move: opp, passes: 0 }));
        std::iter::once((Move::Pass, pass)).chain(plays).collect()
    }

    /// Put `s` on the line, search it, take it off again.
    fn visit(&mut self, s: State, alpha: i32, beta: i32) -> Result<i32, SolveError> {
        self.line.push(SuperkoKey::new(s.pos, s.to_move, self.rules.superko));
        let v = self.ab(s, alpha, beta);
        self.line.pop();
        v
    }

    /// Fail-soft alpha-beta value of `s`, whose situation is the last on the line.
    fn ab(&mut self, s: State, mut alpha: i32, mut beta: i32) -> Result<i32, SolveError> {
        self.nodes += 1;
        if self.limits.due(self.nodes) {
            self.limits.check(self.nodes)?;
        }
        self.max_depth = self.max_depth.max(self.line.len());
        if s.passes >= 2 {
            return Ok(s.pos.score(&self.geo));
        }
        let black = s.to_move == Color::Black;
        let mut best = if black { -INF } else { INF };
        for (_, c) in self.turns(&s) {
            let v = self.visit(c, alpha, beta)?;
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

    fn stats(&self) -> Stats {
        Stats {
            nodes: self.nodes,
            table_hits: 0,
            table_stores: 0,
            key_matches: 0,
            seconds: self.limits.seconds(),
            max_depth: self.max_depth,
            table_bytes: 0,
        }
    }

    /// The exact value of the game's position, every root move's value
    /// (unless `value_only`) and a principal variation (unless `no_pv`).
    /// Stopped by a limit, it tells [`SolveOptions::stopped_stats`] its
    /// counters.
    pub fn solve(&mut self, game: &Game, opts: &SolveOptions) -> Result<Solution, SolveError> {
        self.solve_game(game, opts).map_err(|e| opts.stopped(self.stats(), e))
    }

    /// [`Reference::solve`], until it stops.
    fn solve_game(&mut self, game: &Game, opts: &SolveOptions) -> Result<Solution, SolveError> {
        self.line = Line::default();
        for &(pos, c) in game.history.line() {
            self.line.push(SuperkoKey::new(pos, c, self.rules.superko));
        }
        let root = State { pos: game.position, to_move: game.to_move, passes: game.passes };
        let mut moves = Vec::new();
        let value = if root.passes >= 2 {
            root.pos.score(&self.geo)
        } else if opts.value_only {
            self.ab(root, -INF, INF)?
        } else {
            for (mv, c) in self.turns(&root) {
                let value = self.visit(c, -INF, INF)?;
                if let Some(f) = &opts.on_root_move {
                    f(MoveValue { mv, value });
                }
                moves.push(MoveValue { mv, value });
            }
            let values = moves.iter().map(|m| m.value);
            if root.to_move == Color::Black { values.max() } else { values.min() }.expect("pass is always legal")
        };
        let pv = if opts.no_pv { Vec::new() } else { self.principal_variation(root, value)? };
        Ok(Solution { value, pv, moves, stats: self.stats() })
    }

    /// From `s` (exact value `value`, its situation last on the line), take
    /// at each step the first legal turn whose child has the same exact value.
    fn principal_variation(&mut self, mut s: State, value: i32) -> Result<Vec<Move>, SolveError> {
        let base = self.line.len();
        let mut pv = Vec::new();
        let result = (|| {
            while s.passes < 2 {
                let mut next = None;
                for (mv, c) in self.turns(&s) {
                    if self.visit(c, -INF, INF)? == value {
                        next = Some((mv, c));
                        break;
                    }
                }
                let (mv, c) = next.expect("some child of an exactly valued node has its value");
                self.line.push(SuperkoKey::new(c.pos, c.to_move, self.rules.superko));
                pv.push(mv);
                s = c;
            }
            Ok(())
        })();
        while self.line.len() > base {
            self.line.pop();
        }
        result.map(|()| pv)
    }
}
