//! One checker per kind of claim: the value and best move by the solver,
//! legality and pass scores by the rules engine, counts by the counters.
//! Each fills a [`CheckResult`] with what it found and facts a reader can
//! verify by hand.

use super::notation::{numbered, reason_name};
use super::options::CheckOptions;
use super::report::{CheckResult, Verdict};
use super::Expected;
use crate::count;
use crate::format::diagram;
use crate::format::numbers::{group_digits, nodes, signed};
use crate::rules::geometry::Geometry;
use crate::rules::history::Game;
use crate::rules::position::{result_phrase, value_with_komi, Color, IllegalMove, Move, Position, Rules, Superko};
use crate::search::{prove_claim, solve, Claim, Solution, SolveError, SolveOptions};

/// Why a count is missing.
pub(super) enum CountFailure {
    /// The counter refuses the board as too big to finish.
    TooBig(String),
    /// Anything else (e.g. overflow).
    Failed(String),
}

impl From<count::legal::CountError> for CountFailure {
    fn from(e: count::legal::CountError) -> Self {
        match e {
            count::legal::CountError::TooBig(m) => CountFailure::TooBig(m),
            other => CountFailure::Failed(other.to_string()),
        }
    }
}

/// Adapter to the legal-position counter (`count::legal::count_legal`, the
/// Tromp–Farnebäck border-state dynamic program).
pub(super) fn count_legal_positions(geo: &Geometry) -> Result<u128, CountFailure> {
    Ok(count::legal::count_legal(geo)?)
}

/// Adapter to the game counter (`count::games::count_games`).
pub(super) fn count_complete_games(geo: &Geometry, rules: &Rules) -> Result<u128, CountFailure> {
    Ok(count::games::count_games(geo, rules)?)
}

fn solve_options(opts: &CheckOptions, game: &Game) -> SolveOptions {
    SolveOptions {
        time_limit: opts.time_limit,
        table_mb: opts.table_mb,
        threads: 1,
        memory: opts.memory.clone().filter(|m| m.fits(&game.geo, &game.rules)),
        ..Default::default()
    }
}

/// Compare a found number with the expectation.
fn compare_number(found: f64, expected: &Expected) -> Verdict {
    match expected {
        Expected::Number(x) if *x == found => Verdict::Agree,
        Expected::Number(_) => Verdict::Disagree,
        _ => Verdict::Found,
    }
}

/// `7.B[pass] 8.W[pass]`: the moves `line` played from `game`, numbered.
fn numbered_line(game: &Game, line: &[Move]) -> Vec<String> {
    let mut g = game.clone();
    let mut out = Vec::new();
    for &m in line {
        out.push(format!("{}.{}[{}]", g.moves.len() + 1, g.to_move.letter(), m.name(&g.geo)));
        if g.play(m).is_err() {
            break;
        }
    }
    out
}

/// The final position's area, as a sentence: "Black 2 stones + 2 territory = 4, White 1 + 0 = 1".
fn area_sentence(geo: &Geometry, pos: &Position) -> String {
    let (b, w) = pos.area(geo);
    let bs = pos.black.count_ones();
    let ws = pos.white.count_ones();
    format!("Black {} stones + {} territory = {}, White {} stones + {} territory = {}", bs, b - bs, b, ws, w - ws, w)
}

fn move_values(game: &Game, sol: &Solution) -> String {
    let komi = game.rules.komi.as_f64();
    let list: Vec<String> =
        sol.moves.iter().map(|m| format!("{} {}", m.mv.name(&game.geo), signed(m.value as f64 - komi))).collect();
    format!("values of {}'s turns here: {}", game.to_move.title(), list.join(", "))
}

/// "position ./X. (black to move)": the position a value claim is about.
fn position_line(game: &Game) -> String {
    format!("position {} ({} to move)", diagram::compact(&game.geo, &game.position), game.to_move.name())
}

/// Check a value claim. A cheap one is solved outright, with the value of
/// every root move. An expensive one is first verified with two null-window
/// tests, "value ≥ claim" and "value ≤ claim" (see [`verify_by_tests`]):
/// a claim that holds needs nothing more, and a test is much cheaper than
/// a solve that must also find the value (5×5's +25 is one test, since no
/// value can exceed +25). Only a claim that fails is solved, for its value
/// only, to say what the value is and how it is reached.
pub(super) fn check_value(
    game: &Game,
    expected: &Expected,
    opts: &CheckOptions,
    value_only: bool,
    r: &mut CheckResult,
) -> Result<(), SolveError> {
    if value_only && verify_by_tests(game, expected, opts, r)? {
        return Ok(());
    }
    let sol = solve(game, &SolveOptions { value_only, ..solve_options(opts, game) })?;
    let v = sol.value_with_komi(&game.rules);
    r.found = Some(signed(v));
    r.verdict = compare_number(v, expected);
    r.line = numbered_line(game, &sol.pv);
    r.detail.push(position_line(game));
    if !sol.moves.is_empty() {
        r.detail.push(move_values(game, &sol));
    }
    if r.verdict == Verdict::Disagree {
        let Expected::Number(c) = expected else { unreachable!() };
        let mut end = game.clone();
        for &m in &sol.pv {
            let _ = end.play(m);
        }
        let who = if v > *c { "Black" } else { "White" };
        r.refutation.push(format!(
            "claimed {} ({}), but {} can force {} ({}): perfect play from here is",
            signed(*c),
            result_phrase(*c),
            who,
            signed(v),
            result_phrase(v)
        ));
        r.refutation
            .push(format!("  {}", if r.line.is_empty() { "(the game is over)".to_string() } else { r.line.join(" ") }));
        r.refutation.push(format!(
            "  final position {}: {}",
            diagram::compact(&game.geo, &end.position),
            area_sentence(&game.geo, &end.position)
        ));
        if !sol.moves.is_empty() {
            let side_best = if game.to_move == Color::Black { "at most" } else { "at least" };
            r.refutation.push(format!(
                "  every turn of the side to move ({}) gives {} {}: {}",
                game.to_move.title(),
                side_best,
                signed(v),
                move_values(game, &sol)
            ));
            let illegal = illegal_points(game);
            if !illegal.is_empty() {
                r.refutation.push(format!("  (illegal here: {})", illegal.join(", ")));
            }
            // When the claim is better for the side to move than the truth, show
            // how each of its turns is answered: the claim is beaten on every branch.
            let mover_hoped_for_more = (game.to_move == Color::Black) == (*c > v);
            if mover_hoped_for_more {
                for m in &sol.moves {
                    let mut after = game.clone();
                    after.play(m.mv).expect("legal root move");
                    let Ok(child) = solve(&after, &solve_options(opts, &after)) else {
                        break;
                    };
                    let mut line = numbered_line(game, &[m.mv]);
                    line.extend(numbered_line(&after, &child.pv));
                    r.refutation.push(format!(
                        "  after {}: {} → {}",
                        line[0],
                        line[1..].join(" "),
                        signed(child.value_with_komi(&game.rules))
                    ));
                }
            }
        }
    }
    Ok(())
}

/// Try to verify a value claim by the two tests "value ≥ c" and "value ≤ c"
/// (c with komi, a whole number of area points). True when both hold: the
/// result is filled in (agreement, the tests' nodes and lines). False when
/// the claim is not a whole area value or a test refutes it: the caller then
/// solves, which reports the true value. Both tests are exact null-window
/// searches, so agreement here is as exact as a solve.
fn verify_by_tests(
    game: &Game,
    expected: &Expected,
    opts: &CheckOptions,
    r: &mut CheckResult,
) -> Result<bool, SolveError> {
    let Expected::Number(c) = expected else { return Ok(false) };
    let raw = c + game.rules.komi.as_f64();
    if raw.fract() != 0.0 || game.is_over() {
        return Ok(false);
    }
    let sopts = solve_options(opts, game);
    let low = prove_claim(game, Claim::with_komi(true, *c, &game.rules), &sopts)?;
    if !low.holds {
        return Ok(false);
    }
    let high = prove_claim(game, Claim::with_komi(false, *c, &game.rules), &sopts)?;
    if !high.holds {
        return Ok(false);
    }
    r.found = Some(signed(*c));
    r.verdict = Verdict::Agree;
    // The proofs' lines are not principal variations (a proof of "≥ c"
    // may follow any reply of White that it refutes), so they are shown as
    // what they are, not as perfect play.
    r.detail.push(position_line(game));
    r.detail.push(format!(
        "verified by two null-window tests: value ≥ {} ({}) and value ≤ {} ({})",
        signed(*c),
        nodes(low.stats.nodes),
        signed(*c),
        nodes(high.stats.nodes)
    ));
    for (name, proof) in [("≥", &low), ("≤", &high)] {
        let line = numbered_line(game, &proof.pv);
        if !line.is_empty() {
            r.detail.push(format!("a line of the \"{name}\" proof: {}", line.join(" ")));
        }
    }
    Ok(true)
}

/// The empty points the side to move may not play, with the reason: "b1 (suicide)".
fn illegal_points(game: &Game) -> Vec<String> {
    if game.is_over() {
        return Vec::new();
    }
    Geometry::iter(game.position.empty(&game.geo))
        .filter_map(|p| {
            game.try_move(Move::Play(p)).err().map(|e| format!("{} ({})", game.geo.point_name(p), reason_name(e)))
        })
        .collect()
}

/// Check a best-move claim. A cheap one is solved outright, with the value
/// of every root move. An expensive one is first verified by tests (see
/// [`verify_best_by_tests`]), which need the claimed move's value and one
/// bound on the position's, not the value of every move; only a claim the
/// tests do not confirm is solved move by move, to say which moves are best.
pub(super) fn check_best_move(
    game: &Game,
    expected: &Expected,
    opts: &CheckOptions,
    by_tests: bool,
    r: &mut CheckResult,
) -> Result<(), SolveError> {
    if by_tests {
        if let Expected::Move(claimed) = expected {
            if verify_best_by_tests(game, *claimed, opts, r)? {
                return Ok(());
            }
        }
    }
    let sol = solve(game, &solve_options(opts, game))?;
    let komi = game.rules.komi.as_f64();
    let v = sol.value_with_komi(&game.rules);
    let best: Vec<String> = sol.moves.iter().filter(|m| m.value == sol.value).map(|m| m.mv.name(&game.geo)).collect();
    r.found = Some(format!("{} ({})", best.join(" "), signed(v)));
    r.line = numbered_line(game, &sol.pv);
    r.detail.push(move_values(game, &sol));
    let Expected::Move(claimed) = expected else {
        r.verdict = Verdict::Found;
        return Ok(());
    };
    match sol.moves.iter().find(|m| m.mv == *claimed) {
        None => {
            r.verdict = Verdict::Disagree;
            let why = game.try_move(*claimed).err().map(|e| e.to_string()).unwrap_or_else(|| "game over".into());
            r.refutation.push(format!("{} is not a legal move here: {}", claimed.name(&game.geo), why));
        }
        Some(m) if m.value == sol.value => r.verdict = Verdict::Agree,
        Some(m) => {
            r.verdict = Verdict::Disagree;
            let mut after = game.clone();
            after.play(*claimed).expect("legal root move");
            let child = solve(&after, &solve_options(opts, &after))?;
            let mut line = numbered_line(game, &[*claimed]);
            line.extend(numbered_line(&after, &child.pv));
            r.refutation.push(format!(
                "{} gives only {}, the best ({}) gives {}; the refuting line:",
                claimed.name(&game.geo),
                signed(m.value as f64 - komi),
                best.join(" "),
                signed(v)
            ));
            r.refutation.push(format!("  {}", line.join(" ")));
            r.refutation.push(format!("  best line: {}", r.line.join(" ")));
        }
    }
    Ok(())
}

/// Try to verify that `claimed` is a best move (one of them: ties count)
/// without the value of every other move. A move is best exactly when the
/// position's value is no better for the mover than the value after it,
/// since the position's value is the mover's best over its moves. So:
/// 1. if the value after the move is the board's extreme for the mover
///    (Black: every point, area − komi; White: none), one test "value after
///    ≥ extreme" (or "≤") settles it: no move can do better;
/// 2. otherwise the value v after the move is solved (value only), and one
///    test on the position, "value ≤ v" for Black ("≥ v" for White), says
///    whether any move does better.
///
/// True when the claim is confirmed (the result is filled in); false when
/// the move is illegal, ends the game, or a test finds a better move: the
/// caller then solves every move, which reports the best ones. Both steps
/// are exact null-window searches or solves, so agreement here is as
/// exact as solving every move.
fn verify_best_by_tests(
    game: &Game,
    claimed: Move,
    opts: &CheckOptions,
    r: &mut CheckResult,
) -> Result<bool, SolveError> {
    if game.is_over() {
        return Ok(false);
    }
    let mut after = game.clone();
    if after.play(claimed).is_err() || after.is_over() {
        return Ok(false);
    }
    let black = game.to_move == Color::Black;
    let komi = game.rules.komi.as_f64();
    let area = game.geo.points() as f64;
    let extreme = if black { area - komi } else { -area - komi };
    let name = claimed.name(&game.geo);
    let aopts = solve_options(opts, &after);
    let top = prove_claim(&after, Claim::with_komi(black, extreme, &after.rules), &aopts)?;
    let mut first = numbered_line(game, &[claimed]);
    if top.holds {
        r.found = Some(format!("{name} ({})", signed(extreme)));
        r.verdict = Verdict::Agree;
        r.detail.push(position_line(game));
        r.detail.push(format!(
            "verified by one null-window test: after {name} the value is {} {} ({}), the most any move can give {}",
            if black { "≥" } else { "≤" },
            signed(extreme),
            nodes(top.stats.nodes),
            game.to_move.title()
        ));
        first.extend(numbered_line(&after, &top.pv));
        r.detail.push(format!("a line of the proof: {}", first.join(" ")));
        return Ok(true);
    }
    let child = solve(&after, &SolveOptions { value_only: true, ..aopts })?;
    let v = child.value_with_komi(&after.rules);
    // Black's move is best iff the position is ≤ v (no move gives more);
    // White's iff it is ≥ v.
    let bound = prove_claim(game, Claim::with_komi(!black, v, &game.rules), &solve_options(opts, game))?;
    if !bound.holds {
        return Ok(false);
    }
    r.found = Some(format!("{name} ({})", signed(v)));
    r.verdict = Verdict::Agree;
    r.detail.push(position_line(game));
    r.detail.push(format!(
        "verified without solving the other moves: after {name} the value is {} ({}), and the position's is {} {} (a null-window test, {})",
        signed(v),
        nodes(child.stats.nodes),
        if black { "≤" } else { "≥" },
        signed(v),
        nodes(bound.stats.nodes)
    ));
    first.extend(numbered_line(&after, &child.pv));
    r.line = first;
    Ok(true)
}

/// The number of the move after which `pos` stood (0 = the setup), for superko messages.
fn repeated_at(game: &Game, pos: Position, to_move: Color) -> Option<usize> {
    game.history
        .line()
        .iter()
        .position(|&(p, c)| p == pos && (game.rules.superko == Superko::Positional || c == to_move))
}

pub(super) fn check_move_legal(game: &Game, mv: Move, expected: &Expected, r: &mut CheckResult) {
    let geo = &game.geo;
    let outcome = game.try_move(mv);
    r.found = Some(match &outcome {
        Ok(_) => "legal".to_string(),
        Err(e) => format!("illegal ({})", reason_name(*e)),
    });
    let label = format!("{}.{}[{}]", game.moves.len() + 1, game.to_move.letter(), mv.name(geo));
    match (&outcome, mv) {
        (Ok(next), Move::Play(_)) => {
            r.detail.push(format!("{} gives {}", label, diagram::compact(geo, next)));
            if next.stone_count() <= game.position.stone_count() {
                r.detail.push(format!(
                    "{} stones before, {} after (captures or suicide)",
                    game.position.stone_count(),
                    next.stone_count()
                ));
            }
        }
        (Ok(_), Move::Pass) => r.detail.push(format!("{}: a pass is always legal before the game ends", label)),
        (Err(IllegalMove::Superko), Move::Play(p)) => {
            let next = game.position.play(geo, game.to_move, p, game.rules.suicide).expect("superko means playable");
            let when = match repeated_at(game, next, game.to_move.opponent()) {
                Some(0) => "the starting position".to_string(),
                Some(i) => {
                    format!("the position after move {} ({})", i, numbered(game, i - 1).split(' ').next().unwrap_or(""))
                }
                None => "an earlier position".to_string(),
            };
            r.detail.push(format!("{} would give {}, which repeats {}", label, diagram::compact(geo, &next), when));
        }
        (Err(IllegalMove::Suicide), Move::Play(p)) => {
            let after = game.position.play(geo, game.to_move, p, true).expect("suicide allowed");
            r.detail.push(format!(
                "{} leaves its own block without liberties (under TT it would give {})",
                label,
                diagram::compact(geo, &after)
            ));
        }
        (Err(e), _) => r.detail.push(format!("{}: {}", label, e)),
    }
    r.verdict = match (expected, &outcome) {
        (Expected::Legal(true, _), Ok(_)) => Verdict::Agree,
        (Expected::Legal(false, None), Err(_)) => Verdict::Agree,
        (Expected::Legal(false, Some(want)), Err(got)) if want == got => Verdict::Agree,
        (Expected::Legal(..), _) => Verdict::Disagree,
        _ => Verdict::Found,
    };
    if r.verdict == Verdict::Disagree {
        r.refutation.push(format!("claimed {}, but {}", r.claimed, r.detail.last().cloned().unwrap_or_default()));
    }
}

pub(super) fn check_legal_moves(game: &Game, expected: &Expected, r: &mut CheckResult) {
    let legal = game.legal_moves();
    let names = |ms: &[Move]| ms.iter().map(|m| m.name(&game.geo)).collect::<Vec<_>>().join(" ");
    r.found = Some(if legal.is_empty() { "none (game over)".to_string() } else { names(&legal) });
    let illegal = illegal_points(game);
    if !illegal.is_empty() {
        r.detail.push(format!("illegal: {}", illegal.join(", ")));
    }
    r.verdict = match expected {
        Expected::Moves(want) => {
            let missing: Vec<Move> = want.iter().copied().filter(|m| !legal.contains(m)).collect();
            let extra: Vec<Move> = legal.iter().copied().filter(|m| !want.contains(m)).collect();
            if missing.is_empty() && extra.is_empty() {
                Verdict::Agree
            } else {
                if !missing.is_empty() {
                    r.refutation.push(format!("claimed legal but illegal: {}", names(&missing)));
                }
                if !extra.is_empty() {
                    r.refutation.push(format!("legal but not in the claim: {}", names(&extra)));
                }
                Verdict::Disagree
            }
        }
        _ => Verdict::Found,
    };
}

pub(super) fn check_pass_score(game: &Game, expected: &Expected, r: &mut CheckResult) {
    let v = value_with_komi(game.score(), game.rules.komi);
    r.found = Some(signed(v));
    let when = if game.is_over() { "final score" } else { "if both pass now" };
    r.detail.push(format!(
        "{} ({}): {}",
        when,
        diagram::compact(&game.geo, &game.position),
        area_sentence(&game.geo, &game.position)
    ));
    if game.rules.komi.0 != 0 {
        r.detail.push(format!("komi {}", game.rules.komi));
    }
    r.verdict = compare_number(v, expected);
    if r.verdict == Verdict::Disagree {
        r.refutation.push(format!("claimed {}, but {} → {}", r.claimed, r.detail[0], signed(v)));
    }
}

/// Blocks of `pos` without a liberty, as "W{c1,c2}".
fn dead_blocks(geo: &Geometry, pos: &Position) -> Vec<String> {
    let empty = pos.empty(geo);
    let mut out = Vec::new();
    for c in [Color::Black, Color::White] {
        for block in geo.parts(pos.stones(c)) {
            if geo.neighbours(block) & empty == 0 {
                let names: Vec<String> = Geometry::iter(block).map(|p| geo.point_name(p)).collect();
                out.push(format!("{}{{{}}}", c.letter(), names.join(",")));
            }
        }
    }
    out
}

pub(super) fn check_position_legal(geo: &Geometry, pos: &Position, expected: &Expected, r: &mut CheckResult) {
    let legal = pos.is_legal(geo);
    r.found = Some(if legal { "legal" } else { "illegal" }.to_string());
    let dead = dead_blocks(geo, pos);
    r.detail.push(if dead.is_empty() {
        "every block has a liberty".to_string()
    } else {
        format!("blocks without liberties: {}", dead.join(" "))
    });
    r.verdict = match expected {
        Expected::Legal(want, _) if *want == legal => Verdict::Agree,
        Expected::Legal(..) => Verdict::Disagree,
        _ => Verdict::Found,
    };
    if r.verdict == Verdict::Disagree {
        r.refutation.push(format!("claimed {}, but {}", r.claimed, r.detail[0]));
    }
}

pub(super) fn check_count(found: Result<u128, CountFailure>, expected: &Expected, r: &mut CheckResult) {
    match found {
        Ok(n) => {
            r.found = Some(group_digits(n));
            r.verdict = match expected {
                Expected::Count(c) if *c == n => Verdict::Agree,
                Expected::Count(c) => {
                    r.refutation.push(format!("claimed {}, counted {}", group_digits(*c), group_digits(n)));
                    Verdict::Disagree
                }
                _ => Verdict::Found,
            };
        }
        Err(CountFailure::TooBig(m)) => {
            // The counter declines boards it cannot finish: like a solve past its
            // time limit, this is no disagreement.
            r.verdict = Verdict::Timeout;
            r.message = Some(m);
        }
        Err(CountFailure::Failed(m)) => {
            r.verdict = Verdict::Error;
            r.message = Some(m);
        }
    }
}
