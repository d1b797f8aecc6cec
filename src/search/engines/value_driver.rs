//! The value driver: which null-window test ("value ≥ b?") to run next
//! inside the range the value cannot leave, and what the results prove. The
//! solver runs it for each task of the root driver ([`crate::search::drivers::root`]); a
//! value-only solve on several threads spreads its tests over them
//! ([`crate::search::drivers::spread`]).

use crate::rules::geometry::Geometry;
use crate::rules::position::{Color, Position, Superko};
use crate::search::tree::node::Node;
use crate::search::tree::path::Path;
use crate::search::tuning::{DRIVER_EXTREME_AFTER, EXTREME_FIRST_BUDGET};
use crate::search::types::outcome::BoundsLog;

/// The values `node` can take under any history: the area difference lies
/// in [−N, N] on an N-point board, and Benson's bounds
/// ([`crate::rules::life::score_bounds`]) hold under any history and either suicide
/// rule.
pub(crate) fn static_range(geo: &Geometry, node: &Node) -> (i32, i32) {
    if node.is_over() {
        let s = node.pos.score(geo);
        return (s, s);
    }
    let n = geo.points() as i32;
    let (lo, hi) = crate::rules::life::score_bounds(geo, &node.pos);
    (lo.max(-n), hi.min(n))
}

/// The range the value of `node` can take at the end of `path`: the
/// [`static_range`], and on the empty board at the game's start (no move
/// played, positional superko) nothing worse than 0 for the player to
/// move. If Black passes there, White either passes too (the game ends
/// at 0) or plays a stone s, and the game from there is the colour swap of
/// the one after Black's s: the same boards in the history up to colour
/// (the empty board and s), no pass pending. So the pass is worth
/// min(0, −m), where m is the value of Black's best stone, and the value
/// max(m, min(0, −m)) is at least 0 (for White to move, at most 0). Either
/// suicide rule and any komi (the values here are komi-excluded); not
/// situational superko, where the first game's history also holds the
/// empty board with Black to move and the swapped game's does not. Worth
/// it where the value is 0 (the strips 1x(4k+1)), whose "value ≥ 0" was a
/// whole proof (`results/solve.md`, commit c128ade).
pub(crate) fn start_range(geo: &Geometry, path: &Path, node: &Node) -> (i32, i32) {
    let (lo, hi) = static_range(geo, node);
    if !at_empty_start(path, node) {
        return (lo, hi);
    }
    match node.to_move {
        Color::Black => (lo.max(0), hi),
        Color::White => (lo, hi.min(0)),
    }
}

/// The range the root's value starts in: [`start_range`] narrowed by the
/// bounds an earlier run of the same solve proved
/// ([`crate::search::SolveOptions::known_bounds`]). Bounds that contradict
/// the start range (a record of another solve, say) are not used: the
/// search then proves the value on its own.
pub(crate) fn root_range(geo: &Geometry, path: &Path, node: &Node, known: (Option<i32>, Option<i32>)) -> (i32, i32) {
    let (lo, hi) = start_range(geo, path, node);
    let (klo, khi) = (known.0.map_or(lo, |k| k.max(lo)), known.1.map_or(hi, |k| k.min(hi)));
    if klo <= khi {
        (klo, khi)
    } else {
        (lo, hi)
    }
}

/// Whether `node` is the empty board at the game's start under positional
/// superko, where the pass argument of [`start_range`] holds. There, when
/// the value is 0, the pass is a best move (it is worth min(0, −m) = 0
/// whether m is 0 or below) and the opponent's pass ends the game at 0.
pub(crate) fn at_empty_start(path: &Path, node: &Node) -> bool {
    path.len() == 1 && node.passes == 0 && path.superko() == Superko::Positional && node.pos == Position::EMPTY
}

/// The value driver: which null-window test ("value ≥ b?") to run next, and
/// what the results prove. Replaces MTD(f)'s climb from ±∞ one point per
/// proof:
/// - the value starts known to lie in the static range ([`static_range`]),
///   and every result narrows it (a fail-soft result may narrow it by more
///   than one point);
/// - the first test is the guess (a claim, or the area score plus one);
/// - once two proofs in a row go one way ([`Driver::extreme_after`]: three
///   on several threads), the extreme in that direction (a whole-board win,
///   say: an end of the static range that no result has moved) is tested —
///   with a budget, by the caller, and again after further steps while it
///   stays open — since it settles the value in one test where stepping
///   would need one per point;
/// - after two steps the same way the step doubles (galloping), so a value far
///   from the guess costs a logarithmic number of tests.
///
/// Exactness needs only that every test result is a true bound; the order
/// of the tests changes the work, never the value.
#[derive(Clone, Debug)]
pub(crate) struct Driver {
    lo: i32,
    hi: i32,
    /// The next test ("value ≥ next").
    next: i32,
    /// Direction of the last results (true: value ≥ the tests) and how many
    /// in a row went that way.
    dir: Option<bool>,
    run: u32,
    /// The range the value started in: its ends are the extremes.
    start: (i32, i32),
    /// Whether the extreme test due now was given up on (budget): wait for
    /// another step before retrying it.
    extreme_wait: bool,
    /// Least node budget of the next extreme test: twice the last one given
    /// up on.
    extreme_budget: u64,
    /// Results in a row one way before the extreme that way is due.
    extreme_after: u32,
}

impl Driver {
    /// A driver for a value in `range` (inclusive), first testing `guess`.
    pub(crate) fn new(range: (i32, i32), guess: i32) -> Driver {
        let (lo, hi) = range;
        Driver {
            lo,
            hi,
            next: guess.clamp(lo + 1, hi.max(lo + 1)),
            dir: None,
            run: 0,
            start: range,
            extreme_wait: false,
            extreme_budget: EXTREME_FIRST_BUDGET,
            extreme_after: DRIVER_EXTREME_AFTER,
        }
    }
    /// The same driver, with the extreme due only after `runs` results in
    /// a row one way (at least one).
    pub(crate) fn extreme_after(mut self, runs: u32) -> Driver {
        self.extreme_after = runs.max(1);
        self
    }
    pub(crate) fn done(&self) -> bool {
        self.lo >= self.hi
    }
    pub(crate) fn range(&self) -> (i32, i32) {
        (self.lo, self.hi)
    }
    /// Tell `log` (if any) the range the value is known to lie in.
    pub(crate) fn report(&self, log: Option<&BoundsLog>) {
        if let Some(log) = log {
            log.narrow(Some(self.lo), Some(self.hi));
        }
    }
    /// The direction of the last step's result (true: "≥ b" held), `None`
    /// before the first; an extreme test's result does not count.
    pub(crate) fn last_up(&self) -> Option<bool> {
        self.dir
    }
    /// The value, once [`Driver::done`].
    pub(crate) fn value(&self) -> i32 {
        self.lo
    }
    /// The next stepwise test: "value ≥ b" with b in (lo, hi].
    pub(crate) fn next(&self) -> i32 {
        self.next.clamp(self.lo + 1, self.hi)
    }
    /// The extreme test due now, if any: after two results upward (or the
    /// number set by [`Driver::extreme_after`]) "value ≥ hi", after as many
    /// downward "value ≥ lo + 1" (whose refutation proves the
    /// value is lo), only while that end is still the range's end at the
    /// start (the static bound: a whole-board win or loss, say) and more
    /// than one step away. An end that a result has moved is no extreme: a
    /// test there is a jump of bisection, which costs more near the value
    /// than the steps (after "≥ 0" failed, the jump "≥ −1" took 5x5 game 1 at
    /// 16 empty 1.3 M nodes a thread, where the step took 0.55 M; 2026-11-25,
    /// 4e9947d).
    pub(crate) fn extreme(&self) -> Option<i32> {
        if self.extreme_wait || self.done() {
            return None;
        }
        if self.run < self.extreme_after {
            return None;
        }
        match self.dir {
            Some(true) if self.hi == self.start.1 && self.hi > self.next() => Some(self.hi),
            Some(false) if self.lo == self.start.0 && self.lo + 1 < self.next() => Some(self.lo + 1),
            _ => None,
        }
    }
    /// The node budget of the extreme test due now, all threads together,
    /// when `spent` nodes went into the tests so far: a `1/share` of them,
    /// and at least twice the last budget given up on, so that a retry after
    /// further steps reaches a proof of any size, and all tries together
    /// cost less than twice the last.
    pub(crate) fn extreme_budget(&self, spent: u64, share: u64) -> u64 {
        self.extreme_budget.max(spent / share)
    }
    /// The extreme test due now was not resolved within `budget` nodes.
    pub(crate) fn extreme_open(&mut self, budget: u64) {
        self.extreme_wait = true;
        self.extreme_budget = budget.saturating_mul(2);
    }
    /// Record the fail-soft result `g` of the test "value ≥ b".
    pub(crate) fn record(&mut self, b: i32, g: i32) {
        let up = g >= b;
        let extreme = self.extreme() == Some(b);
        if up {
            self.lo = self.lo.max(g.min(self.hi));
        } else {
            self.hi = self.hi.min(g.max(self.lo));
        }
        if extreme {
            // Either the value is known, or the range has left the extreme.
            return;
        }
        self.extreme_wait = false;
        self.run = if self.dir == Some(up) { self.run + 1 } else { 1 };
        self.dir = Some(up);
        let step = 1i32 << (self.run.saturating_sub(2)).min(20);
        self.next = if up { self.lo + step } else { self.hi + 1 - step };
    }
}

/// MTD(f)'s first guess for a value-only solve: the area score with one
/// point more for the player to move (the move is worth something on an
/// open board). MTD(f) first tests the guess itself; on the empty strips
/// that is the value or one off (1x9 0, 1x10 +1, 1x11 +2, 1x12 +1), and a
/// test far below the value is expensive: on 1x11 "≥ 0" and "≥ 1" each took
/// 6–12 M nodes where "≥ 2" took 1 M. Only the work depends on it.
pub(crate) fn first_guess(geo: &Geometry, root: &Node) -> i32 {
    root.pos.score(geo) + if root.to_move == Color::Black { 1 } else { -1 }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Run the driver against a hidden `value` with fail-hard answers (the
    /// least a test may say), taking every extreme test it offers: the
    /// number of tests run.
    fn converge(range: (i32, i32), guess: i32, value: i32) -> usize {
        let mut d = Driver::new(range, guess);
        let mut tests = 0;
        while !d.done() {
            let b = d.extreme().unwrap_or_else(|| d.next());
            assert!(b > d.range().0 && b <= d.range().1, "a test inside the open range");
            d.record(b, if value >= b { b } else { b - 1 });
            tests += 1;
            assert!(tests <= 64, "no convergence: range {range:?}, guess {guess}, value {value}");
        }
        assert_eq!(d.range(), (value, value));
        tests
    }

    /// From any guess, the driver finds any value of the range exactly, in
    /// few tests (at most 13 over these 19 values and 25 guesses, where a
    /// climb one point per test would need up to 21).
    #[test]
    fn finds_every_value_from_every_guess() {
        let range = (-9, 9);
        for value in range.0..=range.1 {
            for guess in range.0 - 3..=range.1 + 3 {
                assert!(converge(range, guess, value) <= 13, "value {value}, guess {guess}");
            }
        }
    }

    /// A fail-soft result narrows the range by more than one point at once.
    #[test]
    fn fail_soft_results_narrow_further() {
        let mut d = Driver::new((-9, 9), 0);
        d.record(1, 4);
        assert_eq!(d.range(), (4, 9));
        d.record(6, 4);
        assert_eq!(d.range(), (4, 4));
        assert!(d.done());
        assert_eq!(d.value(), 4);
    }

    /// Only an end of the starting range is an extreme: once a refutation
    /// has moved the upper end (here to −1), two results upward are
    /// followed by the next step, not by a jump to that end (the tests of
    /// 5x5 game 1 at 16 empty points).
    #[test]
    fn a_moved_end_is_no_extreme() {
        let mut d = Driver::new((-25, 25), 8);
        for _ in 0..5 {
            let b = d.next();
            d.record(b, b - 1);
        }
        assert_eq!(d.range(), (-25, -1), "refuted: 8, 7, 6, 4, 0");
        assert_eq!(d.extreme(), Some(-24), "the whole-board loss is still in the range");
        for _ in 0..2 {
            let b = d.next();
            d.record(b, b);
        }
        assert_eq!(d.range(), (-7, -1), "proved: -8, -7");
        assert_eq!(d.extreme(), None);
        assert_eq!(d.next(), -6);
    }

    /// A driver told to wait for three results one way offers the extreme
    /// after the third, not the second.
    #[test]
    fn the_extreme_waits_for_the_runs_asked() {
        let mut d = Driver::new((-9, 9), 0).extreme_after(3);
        for _ in 0..2 {
            d.record(d.next(), d.next());
        }
        assert_eq!(d.extreme(), None, "two results upward are not enough");
        d.record(d.next(), d.next());
        assert_eq!(d.extreme(), Some(9), "the third is");
    }

    /// An extreme test given up on (budget) is not offered again at once.
    #[test]
    fn an_open_extreme_waits_for_another_step() {
        let mut d = Driver::new((-9, 9), 0);
        d.record(d.next(), 1);
        d.record(d.next(), 2);
        let b = d.extreme().expect("two results upward: the extreme upward");
        assert_eq!(b, 9);
        assert_eq!(d.extreme_budget(0, 16), EXTREME_FIRST_BUDGET);
        assert_eq!(d.extreme_budget(1 << 20, 16), 1 << 16, "a share of the work spent");
        d.extreme_open(1 << 16);
        assert_eq!(d.extreme(), None);
        assert_eq!(d.extreme_budget(1 << 20, 16), 1 << 17, "twice the budget given up on");
        d.record(d.next(), d.next());
        assert_eq!(d.extreme(), Some(9), "offered again after another step");
    }

    /// The pass argument's range holds only on the empty board at the
    /// start under positional superko: not after a pass (the empty board
    /// is then in the history twice), not under situational superko, not
    /// with a stone on the board.
    #[test]
    fn the_pass_argument_only_at_the_empty_start() {
        use crate::rules::history::Game;
        use crate::rules::position::Rules;
        let range = |h: usize, rules: Rules, moves: &str| {
            let g = Game::after(1, h, rules, moves);
            start_range(&g.geo, &Path::from_game(&g), &Node::of_game(&g))
        };
        let nstt = Rules::default();
        assert_eq!(range(9, nstt, ""), (0, 9));
        assert_eq!(range(9, Rules { suicide: true, komi: crate::rules::position::Komi(7), ..nstt }, ""), (0, 9));
        assert_eq!(range(9, nstt, "pass"), (-9, 9), "White to move after a pass");
        assert_eq!(range(9, Rules { superko: Superko::Situational, ..nstt }, ""), (-9, 9));
        assert_eq!(range(9, nstt, "a5"), (-9, 9));
    }

    /// An earlier run's bounds narrow the start range; bounds outside it
    /// (another solve's, or edited by hand) are not used at all.
    #[test]
    fn known_bounds_narrow_the_start_range() {
        use crate::rules::history::Game;
        use crate::rules::position::Rules;
        let g = Game::after(1, 9, Rules::default(), "");
        let range = |known| root_range(&g.geo, &Path::from_game(&g), &Node::of_game(&g), known);
        assert_eq!(range((None, None)), (0, 9));
        assert_eq!(range((Some(2), Some(5))), (2, 5));
        assert_eq!(range((Some(-3), None)), (0, 9), "no weaker than the pass argument");
        assert_eq!(range((None, Some(0))), (0, 0));
        assert_eq!(range((Some(12), Some(14))), (0, 9), "beyond the board: not used");
        assert_eq!(range((Some(6), Some(4))), (0, 9), "crossed: not used");
    }
}
