//! A claim in favour of the player to move, decided by one of its first
//! moves: when the claim's test of the root is still open after a first
//! budget, each first move (one per symmetry orbit) is tested alone, the
//! move with the fewest distinct replies first (ties by df-pn's own rank at
//! the root), each move's node budget a quarter of the one before it, and
//! the budgets double round by round until one move proves the claim or
//! every move is refuted ([`first_move`]).
//!
//! # Why
//!
//! Where the player to move needs one move, df-pn at the root works below
//! whichever move looks cheapest to prove; on a large position every
//! move's proof number keeps growing as it is expanded, so df-pn turns to
//! the next, and the next, and the work is spread over all the first moves
//! where one of them carries the proof. On the empty 5x5 board
//! (`--at-least 25`) the test of the root left every one of Black's first
//! moves undecided after 1,500 s on two threads (731 M nodes, 2026-11-28,
//! e4cef9e) and after 470 s on sixteen (734 M); with the focus, two threads
//! prove it in 736 s (303 M nodes, 12 GiB table; 2026-11-28, 2c7734d,
//! `results/solve.md`).
//!
//! Why the fewest replies first: a first move's proof must answer every
//! reply, and the replies the table cannot tell apart by symmetry are the
//! distinct ones. On the empty board that puts the centre first (6 distinct
//! replies, pass included), where df-pn's rank at the root (random
//! playouts; all the interior points have the same 3x3 surroundings) put
//! c2 first and the centre third. Where no move keeps more symmetry than
//! another, the order is df-pn's.
//!
//! Why these budgets: the best-placed move gets three quarters of a
//! round's work, so a proof by it costs about a third more than the move's
//! own test, and a proof by a lower move is still reached, each round
//! doubling every move's budget. A try stopped by its budget is not lost:
//! its proofs are in the table and its numbers in the guide, and the next
//! try of the move goes on from them.
//!
//! # Why it cannot change an answer
//!
//! Each try is an ordinary null-window test of a child ("value ≥ b" after
//! the move, under the history that leads there): what it proves or
//! refutes is stored in the table under that history like any other
//! result, and a try stopped by its budget proves nothing. The claim is
//! then decided by the ordinary test of the root, which reads the child's
//! result through the table's reuse rule ([`crate::search::tt`]) or
//! searches for whatever is missing. The focus only orders the work.

use super::root_moves::Root;
use crate::rules::history::Game;
use crate::rules::position::{Color, Move};
use crate::search::engines::searcher::Searcher;
use crate::search::engines::solver::Solver;
use crate::search::tree::node::Node;
use crate::search::tree::path::Path;
use crate::search::tuning::{FOCUS_AFTER, FOCUS_LEAST_BUDGET, FOCUS_RANK_SHIFT, FOCUS_STEP_AFTER};
use crate::search::types::options::SolveOptions;
use crate::search::types::stop::Stop;

/// Test the root's first moves alone, on this thread (one of `threads`
/// running the same, sharing the table and df-pn's guide), until one of
/// them wins "value ≥ `b`" for the player to move or all of them lose it;
/// returns at once where the root has one first move (up to symmetry).
/// For claims in favour of the player to move, and meant for those that
/// hold: against it every move must be refuted, and trying them one by one
/// saves nothing (a value-only solve may still meet such a claim: see
/// [`focus_step`]).
/// `first_budget` replaces [`FOCUS_AFTER`] (tests reach the focus on
/// small boards with it). The caller then runs the root's test, which the
/// tries have made cheap. With a trace
/// ([`SolveOptions::trace`](crate::search::SolveOptions::trace)), a line
/// on stderr per try.
///
/// Returns the bounds on the root's value that the tries proved (lower,
/// upper; `None` where nothing was proved): the root's own first test's
/// fail-soft result, or the claimant's winning move's. A caller whose next
/// test is another one (a value-only solve on one thread goes on with the
/// guess's other side) reports them, so that a solve stopped after the
/// tries keeps the bound they proved.
pub(crate) fn first_move(
    s: &mut Solver,
    path: &mut Path,
    game: &Game,
    root: &Root,
    b: i32,
    threads: usize,
    first_budget: Option<u64>,
) -> Result<RootBounds, Stop> {
    let reps: Vec<usize> = root.orbit_firsts().collect();
    if reps.len() < 2 {
        return Ok((None, None));
    }
    let share = threads.max(1) as u64;
    let first = first_budget.unwrap_or(FOCUS_AFTER).max(1);
    if let Some(g) = s.test_within(path, root.node, b, first / share)? {
        return Ok(fail_soft_bounds(b, g));
    }
    let trace = s.trace().tests();
    if trace {
        eprintln!("focus: the root's test open after {first} nodes; {} first moves", reps.len());
    }
    let black = root.node.to_move == Color::Black;
    let moves: Vec<_> = reps.iter().map(|&i| (root.children[i].0, root.children[i].1.pos)).collect();
    let ranks = s.root_ranks(&root.node, b, &moves);
    let mut open: Vec<usize> = (0..reps.len()).collect();
    open.sort_by_key(|&k| (distinct_replies(game, moves[k].0), ranks[k]));
    let mut budget = first;
    loop {
        let mut k = 0;
        while k < open.len() {
            let own = budget >> (FOCUS_RANK_SHIFT * k as u32).min(63);
            if own < FOCUS_LEAST_BUDGET.min(first) {
                break;
            }
            let child: Node = root.children[reps[open[k]]].1;
            path.push(child.pos, child.to_move);
            let before = s.stats().nodes;
            let r = s.test_within(path, child, b, own / share);
            path.pop();
            if trace {
                let mv = root.children[reps[open[k]]].0;
                let what = match r.as_ref() {
                    Ok(Some(g)) => format!("g {g}"),
                    Ok(None) => "open (budget)".to_string(),
                    Err(_) => "stopped".to_string(),
                };
                let spent = s.stats().nodes - before;
                eprintln!("focus {} (place {k}, budget {own}): {what} ({spent} nodes)", mv.name(&game.geo));
            }
            match r? {
                // The player to move reaches its side of b by this move:
                // the root's value is at least (Black) or at most (White)
                // the move's.
                Some(g) if (g >= b) == black => return Ok(fail_soft_bounds(b, g)),
                // Refuted: the root needs one of the others.
                Some(_) => {
                    open.remove(k);
                    continue;
                }
                None => {}
            }
            k += 1;
        }
        // Every move refuted: the caller's test of the root decides it.
        if open.is_empty() {
            return Ok((None, None));
        }
        budget = budget.saturating_mul(2);
    }
}

/// Bounds on a value, lower and upper (`None`: not proved).
pub(crate) type RootBounds = (Option<i32>, Option<i32>);

/// What the fail-soft result `g` of the test "value ≥ `b`" proves: the
/// value is at least `g` where the test held, else at most `g`.
fn fail_soft_bounds(b: i32, g: i32) -> RootBounds {
    if g >= b {
        (Some(g), None)
    } else {
        (None, Some(g))
    }
}

/// The test of a value-only solve's guess that is a claim in favour of the
/// player to move: with Black to move "value ≥ guess", with White to move
/// "value ≤ guess" (the refutation of "value ≥ guess + 1"), where that test
/// lies inside the value's range (`opts.guess`, as `--guess` and a manifest
/// job's `guess` give it). A guess is the value expected, so the claim is
/// expected to hold, and a win by one first move is what [`first_move`]
/// finds sooner than df-pn at the root (measured in `results/solve.md`,
/// 2026-11-29, commit 7e1d582, for Black; 2026-11-30, for White). Returns
/// the test's bound b ("value ≥ b"); `None` where the focus does not
/// apply: no guess, or a claim the range at the start (with
/// [`SolveOptions::known_bounds`]) decides, such as White's "value ≤ guess"
/// when the guess is Black's whole-board win.
pub(crate) fn guess_to_focus(game: &Game, root: &Root, opts: &SolveOptions) -> Option<i32> {
    let g = opts.guess?;
    let (lo, hi) =
        crate::search::engines::value_driver::root_range(&game.geo, &root.path, &root.node, opts.known_bounds);
    let b = if root.node.to_move == Color::Black { g } else { g.saturating_add(1) };
    (lo < b && b <= hi).then_some(b)
}

/// Whether a multi-thread value-only solve ([`super::spread`]) tries the
/// first moves alone on its step test "value ≥ `b`", and after how many
/// nodes of the root's own test (all threads; `None`: no focus): where
/// the test is a claim for the player to move (`black`: Black to move)
/// that it is expected to win. A guess (`guess`, the options') sets the
/// expectation ("≥ b" holds for b ≤ guess) while the range `range` still
/// holds it, and the tries start after [`FOCUS_AFTER`] nodes, as for a
/// claim. Without one, or once a result has left it, the driver's last
/// direction does (`last_up`; before any result the first test, the area
/// score with a point more for the mover, counts as the mover's), and the
/// tries start only after [`FOCUS_STEP_AFTER`] nodes.
///
/// Why: without a guess the driver starts near the area score (on 5x5
/// after b2, "value ≥ +24") and steps down from there; each step is White's
/// claim, true by many points, which df-pn at the root spreads over every
/// first move and one move proves. Why the later start: the direction is a
/// weaker expectation than a guess, and where df-pn at the root settles on
/// the proving move by itself the tries cost more than they save
/// (`results/solve.md`, 2026-12-01).
pub(crate) fn focus_step(
    black: bool,
    b: i32,
    guess: Option<i32>,
    range: (i32, i32),
    last_up: Option<bool>,
) -> Option<u64> {
    let (holds, after) = match guess {
        Some(g) if range.0 <= g && g <= range.1 => (b <= g, FOCUS_AFTER),
        _ => (last_up.unwrap_or(black), FOCUS_STEP_AFTER),
    };
    (holds == black).then_some(after)
}

/// The opponent's replies after `mv`, up to the symmetries the game keeps
/// after it ([`Root`]'s orbits): the ways the opponent can try to refute
/// the move, every one of which its proof must answer.
fn distinct_replies(game: &Game, mv: Move) -> usize {
    let mut next = game.clone();
    if next.play(mv).is_err() || next.is_over() {
        return 0;
    }
    Root::new(&next).orbit_firsts().count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::position::Rules;
    use crate::search::engines::value_driver::root_range;

    fn game(moves: &str) -> Game {
        Game::after(4, 4, Rules::default(), moves)
    }

    /// The focused test after `moves` on 4x4 with `guess`.
    fn focus(moves: &str, guess: Option<i32>) -> Option<i32> {
        let game = game(moves);
        let opts = SolveOptions { value_only: true, guess, ..Default::default() };
        guess_to_focus(&game, &Root::new(&game), &opts)
    }

    /// The value's range at the start after `moves` on 4x4.
    fn range(moves: &str) -> (i32, i32) {
        let game = game(moves);
        let root = Root::new(&game);
        root_range(&game.geo, &root.path, &root.node, (None, None))
    }

    /// The claim tried move by move is the one in favour of the player to
    /// move: "≥ guess" for Black, the refutation of "≥ guess + 1" for White;
    /// none without a guess or where the range decides the claim.
    #[test]
    fn the_guess_is_the_claim_of_the_player_to_move() {
        let (lo, hi) = range("a1");
        assert!(lo < 0 && 0 < hi);
        // White to move: "value ≤ guess".
        assert_eq!(focus("a1", Some(lo)), Some(lo + 1));
        assert_eq!(focus("a1", Some(0)), Some(1));
        assert_eq!(focus("a1", Some(hi)), None);
        assert_eq!(focus("a1", None), None);
        // Black to move: "value ≥ guess".
        let (lo, hi) = range("a1 d4");
        assert_eq!(focus("a1 d4", Some(hi)), Some(hi));
        assert_eq!(focus("a1 d4", Some(0)), Some(0));
        assert_eq!(focus("a1 d4", Some(lo)), None);
    }
    /// A multi-thread value-only solve focuses its steps where the mover
    /// is expected to win them, by the guess (from [`FOCUS_AFTER`] nodes
    /// on) or else by the driver's direction (from [`FOCUS_STEP_AFTER`]).
    #[test]
    fn the_steps_focused_are_the_movers_expected_wins() {
        let (by_guess, by_direction) = (Some(FOCUS_AFTER), Some(FOCUS_STEP_AFTER));
        let range = (-16, 16);
        // No guess: the direction of the last result, first the mover's.
        assert_eq!(focus_step(false, 15, None, range, None), by_direction);
        assert_eq!(focus_step(true, 1, None, range, None), by_direction);
        assert_eq!(focus_step(false, 5, None, range, Some(false)), by_direction);
        assert_eq!(focus_step(false, 5, None, range, Some(true)), None);
        assert_eq!(focus_step(true, 5, None, range, Some(true)), by_direction);
        assert_eq!(focus_step(true, 5, None, range, Some(false)), None);
        // A guess inside the range: "≥ b" expected to hold for b ≤ guess.
        assert_eq!(focus_step(true, 3, Some(3), range, None), by_guess);
        assert_eq!(focus_step(true, 4, Some(3), range, Some(true)), None);
        assert_eq!(focus_step(false, 4, Some(3), range, Some(true)), by_guess);
        assert_eq!(focus_step(false, 3, Some(3), range, None), None);
        // A guess the range has left: the direction again.
        assert_eq!(focus_step(true, 6, Some(3), (5, 16), Some(true)), by_direction);
    }
}
