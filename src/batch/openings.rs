//! What the records of a position's first moves prove of the position
//! itself.
//!
//! The value of a position is the best of its moves' values (the most for
//! Black, the least for White), each move's value being that of the game
//! after it, under the history that leads there. A manifest of openings
//! (`5x5-openings`, `strip-openings`) solves exactly those games, one job
//! per first move up to the symmetries of the position and its history,
//! pass included. So its records bound the position's value, exactly and
//! without a search: Black's best lower bound is a lower bound, and once
//! every first move has an upper bound, their largest is an upper bound
//! (for White the other way round). Where every first move has its value,
//! this is the position's value derived a second way, beside the solve of
//! the position as a whole (1x17 = 0 and 5x5 = +25 so far).
//!
//! Only groups whose jobs cover every first move are read: a lone job
//! after a few moves bounds its parent on one side only, and saying so
//! would be noise. A value whose confirmation failed counts for nothing;
//! one not yet confirmed counts, marked as such.

use super::{Job, JobRecord, CONTRADICTED, UNCONFIRMED};
use crate::format::numbers::{bounds, signed};
use crate::rules::history::Game;
use crate::rules::position::{Color, Move};
use crate::rules::symmetry::game_stabilizer;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// What one first move's records prove: lower and upper bound of the
/// game after it, and whether a value among them awaits its confirmation.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MoveBounds {
    /// The move, named as its job names it (the first job of its orbit).
    pub mv: String,
    /// The ids of its jobs (the move and its symmetric images), the first
    /// one first.
    pub jobs: Vec<String>,
    pub at_least: Option<f64>,
    pub at_most: Option<f64>,
    pub unconfirmed: bool,
}

/// What a position's first moves prove of its value.
#[derive(Clone, Debug, PartialEq)]
pub struct FirstMoves {
    /// The position the moves are played from, as a job's position is
    /// written ("empty, B to move").
    pub position: String,
    /// The board, `WxH`.
    pub board: String,
    /// Who plays the first moves.
    pub mover: Color,
    /// One entry per first move up to symmetry, pass first, then by point.
    pub moves: Vec<MoveBounds>,
    pub at_least: Option<f64>,
    pub at_most: Option<f64>,
    /// Whether a bound above rests on a value not yet confirmed.
    pub unconfirmed: bool,
}

impl FirstMoves {
    /// The moves whose bound the value still needs: for Black, those not
    /// yet shown to be at most the best lower bound (with none, every move
    /// without an upper bound); for White the mirror image. Empty once the
    /// value is exact.
    pub fn needed(&self) -> Vec<&MoveBounds> {
        let black = self.mover == Color::Black;
        let best = if black { self.at_least } else { self.at_most };
        self.moves
            .iter()
            .filter(|m| {
                let other = if black { m.at_most } else { m.at_least };
                match (other, best) {
                    (None, _) => true,
                    (Some(o), Some(b)) => (black && o > b) || (!black && o < b),
                    (Some(_), None) => false,
                }
            })
            .collect()
    }

    /// The claims the value still needs, one per move of [`Self::needed`]
    /// on its first job: "value ≤ b" for Black's moves where b is Black's
    /// best lower bound ("≥ b" for White's); none before there is such a
    /// bound (a move's value comes first then).
    pub fn needed_claims(&self) -> Vec<(String, Needed)> {
        let black = self.mover == Color::Black;
        let Some(best) = (if black { self.at_least } else { self.at_most }) else { return Vec::new() };
        let claim = Needed { at_least: !black, value: best };
        self.needed().iter().filter_map(|m| Some((m.jobs.first()?.clone(), claim))).collect()
    }

    /// The value where the bounds meet.
    pub fn value(&self) -> Option<f64> {
        match (self.at_least, self.at_most) {
            (Some(lo), Some(hi)) if lo == hi => Some(lo),
            _ => None,
        }
    }
}

/// A claim on one job's game that its parent's value needs: "value ≥
/// value" (`at_least`) or "value ≤ value", with komi as values are shown.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Needed {
    pub at_least: bool,
    pub value: f64,
}

impl Needed {
    /// "value ≤ +1".
    pub fn text(&self) -> String {
        format!("value {} {}", if self.at_least { "≥" } else { "≤" }, signed(self.value))
    }

    /// Whether a job's bounds (with komi) decide it: `Some(true)` where they
    /// prove it, `Some(false)` where they refute it.
    pub fn decided(&self, at_least: Option<f64>, at_most: Option<f64>) -> Option<bool> {
        let v = self.value;
        let (proves, refutes) = if self.at_least {
            (at_least.is_some_and(|l| l >= v), at_most.is_some_and(|h| h < v))
        } else {
            (at_most.is_some_and(|h| h <= v), at_least.is_some_and(|l| l > v))
        };
        if proves {
            Some(true)
        } else if refutes {
            Some(false)
        } else {
            None
        }
    }
}

/// The claims the first moves' records still need (see
/// [`FirstMoves::needed_claims`]), by job id, over every group of `records`.
pub fn needed_claims(records: &[(Job, Option<JobRecord>)]) -> Vec<(String, Needed)> {
    first_moves(records).iter().flat_map(FirstMoves::needed_claims).collect()
}

/// The positions whose every first move (up to symmetry) is a job of
/// `records`, with what their records prove, in the order of their first
/// jobs.
pub fn first_moves(records: &[(Job, Option<JobRecord>)]) -> Vec<FirstMoves> {
    // Jobs by the game they are one move after.
    let mut groups: Vec<(Game, FirstMoveJobs)> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    for (job, rec) in records {
        let Some((parent, mv)) = parent(&job.game) else { continue };
        let key = parent_key(&parent);
        let k = *index.entry(key).or_insert_with(|| {
            groups.push((parent, Vec::new()));
            groups.len() - 1
        });
        groups[k].1.push((job.spec.id.as_str(), mv, rec.as_ref()));
    }
    groups.into_iter().filter_map(|(parent, jobs)| bound(&parent, &jobs)).collect()
}

/// The jobs of one position's first moves: each job's id, move and record.
type FirstMoveJobs<'a> = Vec<(&'a str, Move, Option<&'a JobRecord>)>;

/// The game before `game`'s last move, and that move; `None` where no
/// move was played since the setup.
fn parent(game: &Game) -> Option<(Game, Move)> {
    let (&(first, _), _) = game.moves.split_first()?;
    let mut p = Game::new(game.geo, game.rules, game.start, first).ok()?;
    let (&(_, last), before) = game.moves.split_last()?;
    for &(_, m) in before {
        p.play(m).ok()?;
    }
    Some((p, last))
}

/// What makes two parents the same game: board, rules, setup, first
/// player and the moves since.
fn parent_key(p: &Game) -> String {
    let first = p.moves.first().map_or(p.to_move, |m| m.0);
    format!("{:?}|{:?}|{:?}|{:?}|{:?}", p.geo.name(), p.rules, p.start, first, p.moves)
}

/// The bounds of one group, or `None` where its jobs leave a first move out.
fn bound(parent: &Game, jobs: &FirstMoveJobs) -> Option<FirstMoves> {
    let stab = game_stabilizer(parent);
    let orbit = |m: Move| match m {
        Move::Pass => Move::Pass,
        Move::Play(p) => Move::Play(stab.iter().map(|s| s.point(p)).fold(p, u8::min)),
    };
    let mut moves: Vec<(Move, MoveBounds)> = Vec::new();
    for m in parent.legal_moves() {
        let o = orbit(m);
        if moves.iter().all(|(k, _)| *k != o) {
            moves.push((o, MoveBounds::default()));
        }
    }
    let mut covered = vec![false; moves.len()];
    for &(id, mv, rec) in jobs {
        let o = orbit(mv);
        let k = moves.iter().position(|(m, _)| *m == o)?;
        let b = &mut moves[k].1;
        if !covered[k] {
            covered[k] = true;
            b.mv = mv.name(&parent.geo);
        }
        b.jobs.push(id.to_string());
        let Some(r) = rec.filter(|r| r.status != CONTRADICTED) else { continue };
        let (lo, hi) = match r.value_with_komi {
            Some(v) => (Some(v), Some(v)),
            None => r.bounds.as_ref().map_or((None, None), |b| (b.at_least, b.at_most)),
        };
        b.at_least = max_known(b.at_least, lo);
        b.at_most = min_known(b.at_most, hi);
        b.unconfirmed |= r.value_with_komi.is_some() && r.status == UNCONFIRMED;
    }
    if !covered.iter().all(|&c| c) {
        return None;
    }
    let moves: Vec<MoveBounds> = moves.into_iter().map(|(_, b)| b).collect();
    let black = parent.to_move == Color::Black;
    // The mover's best move gives one bound from any of them; the other
    // bound needs them all.
    let (lo, hi) = if black {
        (moves.iter().fold(None, |a, m| max_known(a, m.at_least)), every(&moves, |m| m.at_most, f64::max))
    } else {
        (every(&moves, |m| m.at_least, f64::min), moves.iter().fold(None, |a, m| min_known(a, m.at_most)))
    };
    // A bound may rest on a value not yet confirmed where that value is it.
    let unconfirmed = moves.iter().any(|m| m.unconfirmed && (m.at_least == lo || m.at_most == hi));
    Some(FirstMoves {
        position: super::manifest::position_text(parent),
        board: parent.geo.name(),
        mover: parent.to_move,
        moves,
        at_least: lo,
        at_most: hi,
        unconfirmed,
    })
}

/// The bound `f` gives when every move has one, combined by `join`.
fn every(moves: &[MoveBounds], f: impl Fn(&MoveBounds) -> Option<f64>, join: fn(f64, f64) -> f64) -> Option<f64> {
    let mut all: Option<f64> = None;
    for m in moves {
        let b = f(m)?;
        all = Some(all.map_or(b, |a| join(a, b)));
    }
    all
}

/// The larger of two bounds where both are known, else the one known.
fn max_known(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.max(b)),
        (a, b) => a.or(b),
    }
}

/// The smaller of two bounds where both are known, else the one known.
fn min_known(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// A move's bounds in a few characters: `+1`, `≤ 0`, `−17 to 0`, `…`
/// (nothing yet); `*` where a value awaits its confirmation.
fn move_text(m: &MoveBounds) -> String {
    let star = if m.unconfirmed { "*" } else { "" };
    match (m.at_least, m.at_most) {
        (Some(lo), Some(hi)) if lo == hi => format!("{} {}{}", m.mv, signed(lo), star),
        (lo, hi) => format!("{} {}", m.mv, bounds(lo, hi).unwrap_or_else(|| "…".into())),
    }
}

/// The summary's section: one row per position whose first moves are all
/// jobs of the batch; empty where there is none.
pub(super) fn markdown(records: &[(Job, Option<JobRecord>)]) -> String {
    let all = first_moves(records);
    if all.is_empty() {
        return String::new();
    }
    let mut out = String::from("\n## What the first moves prove\n\n");
    out.push_str(
        "A position's value is the best of its first moves' values (Black's: the most, White's: the least),\n",
    );
    out.push_str("so the records of its first moves bound it without a search, and where every first move has\n");
    out.push_str("its value they give the position's value a second way. First moves up to symmetry, pass\n");
    out.push_str("included; `*`: a value not yet confirmed; `…`: nothing proved yet.\n\n");
    out.push_str("| position | board | value from its first moves | first moves | still needed |\n");
    out.push_str("|---|---|---|---|---|\n");
    for f in &all {
        let star = if f.unconfirmed { "*" } else { "" };
        let value = match (f.value(), bounds(f.at_least, f.at_most)) {
            (Some(v), _) => format!("**{}**{star}", signed(v)),
            (None, Some(b)) => format!("{b}{star}"),
            (None, None) => "nothing proved yet".into(),
        };
        let moves: Vec<String> = f.moves.iter().map(move_text).collect();
        let needed = f.needed();
        let black = f.mover == Color::Black;
        let needed = if needed.is_empty() {
            "—".to_string()
        } else {
            let names: Vec<&str> = needed.iter().map(|m| m.mv.as_str()).collect();
            let best = if black { f.at_least } else { f.at_most };
            match best {
                Some(b) => format!("{} {} after {}", if black { "≤" } else { "≥" }, signed(b), names.join(", ")),
                None => format!("a bound after {}", names.join(", ")),
            }
        };
        let cells = [f.position.clone(), f.board.clone(), value, moves.join(", "), needed];
        let cells: Vec<String> = cells.iter().map(|c| c.replace('|', "\\|")).collect();
        out.push_str(&format!("| {} |\n", cells.join(" | ")));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batch::record::sample;
    use crate::batch::{BoundsRecord, Manifest, SOLVED};

    /// The jobs of a small manifest of first moves, with records built
    /// from `bounds` (job id, lower, upper, status).
    fn batch(text: &str, bounds: &[(&str, Option<f64>, Option<f64>, &str)]) -> Vec<(Job, Option<JobRecord>)> {
        let jobs = Manifest::parse("m.toml", text).unwrap().resolve("m.toml", std::path::Path::new(".")).unwrap();
        jobs.into_iter()
            .map(|job| {
                let rec = bounds.iter().find(|b| b.0 == job.spec.id).map(|&(id, lo, hi, status)| {
                    let value = if lo.is_some() && lo == hi { lo } else { None };
                    let mut r = JobRecord { status: status.into(), ..sample(id, "1x3", value, "2026-12-03T20:00:00Z") };
                    if value.is_none() {
                        r.bounds = Some(BoundsRecord { at_least: lo, at_most: hi, ..Default::default() });
                    }
                    r
                });
                (job, rec)
            })
            .collect()
    }

    const STRIP: &str = r#"
[[job]]
id = "pass"
board = "1x3"
moves = "pass"
[[job]]
id = "a1"
board = "1x3"
moves = "a1"
[[job]]
id = "a2"
board = "1x3"
moves = "a2"
"#;

    #[test]
    fn every_first_move_solved_gives_the_value() {
        let b = batch(
            STRIP,
            &[
                ("pass", Some(0.0), Some(0.0), SOLVED),
                ("a1", Some(-3.0), Some(-3.0), SOLVED),
                ("a2", Some(3.0), Some(3.0), SOLVED),
            ],
        );
        let f = first_moves(&b);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].value(), Some(3.0));
        assert_eq!(f[0].position, "empty, B to move");
        assert!(f[0].needed().is_empty());
        let names: Vec<&str> = f[0].moves.iter().map(|m| m.mv.as_str()).collect();
        assert_eq!(names, ["pass", "a1", "a2"]);
    }

    #[test]
    fn an_open_move_leaves_the_upper_bound_open_and_is_named() {
        let b = batch(STRIP, &[("pass", None, Some(0.0), UNCONFIRMED), ("a2", Some(1.0), None, SOLVED)]);
        let f = &first_moves(&b)[0];
        assert_eq!((f.at_least, f.at_most), (Some(1.0), None));
        let needed: Vec<&str> = f.needed().iter().map(|m| m.mv.as_str()).collect();
        assert_eq!(needed, ["a1", "a2"]);
        assert!(markdown(&b).contains("| ≥ +1 | pass ≤ 0, a1 …, a2 ≥ +1 | ≤ +1 after a1, a2 |"));
        let at_most_1 = Needed { at_least: false, value: 1.0 };
        assert_eq!(needed_claims(&b), [("a1".to_string(), at_most_1), ("a2".to_string(), at_most_1)]);
        // Before any lower bound there is no claim to make.
        assert!(needed_claims(&batch(STRIP, &[("pass", None, Some(0.0), SOLVED)])).is_empty());
    }

    #[test]
    fn a_claim_is_decided_by_the_bounds_that_prove_or_refute_it() {
        let at_most_1 = Needed { at_least: false, value: 1.0 };
        assert_eq!(at_most_1.text(), "value ≤ +1");
        assert_eq!(at_most_1.decided(None, Some(1.0)), Some(true));
        assert_eq!(at_most_1.decided(Some(2.0), None), Some(false));
        assert_eq!(at_most_1.decided(Some(1.0), Some(18.0)), None);
        let at_least_0 = Needed { at_least: true, value: 0.0 };
        assert_eq!(at_least_0.decided(Some(0.0), None), Some(true));
        assert_eq!(at_least_0.decided(None, Some(-1.0)), Some(false));
        assert_eq!(at_least_0.decided(Some(-3.0), Some(0.0)), None);
    }

    #[test]
    fn a_failed_confirmation_counts_for_nothing_and_an_open_one_is_marked() {
        let b = batch(
            STRIP,
            &[
                ("pass", Some(0.0), Some(0.0), SOLVED),
                ("a1", Some(-3.0), Some(-3.0), CONTRADICTED),
                ("a2", Some(3.0), Some(3.0), UNCONFIRMED),
            ],
        );
        let f = &first_moves(&b)[0];
        assert_eq!((f.at_least, f.at_most), (Some(3.0), None));
        assert!(f.unconfirmed);
        assert!(markdown(&b).contains("a2 +3*"));
    }

    #[test]
    fn mirror_moves_are_one_and_a_move_left_out_leaves_no_row() {
        // a3 is a1's mirror image on the empty strip.
        let text = STRIP.replace("moves = \"a1\"", "moves = \"a3\"");
        let b = batch(&text, &[("a1", Some(-3.0), Some(-3.0), SOLVED)]);
        assert_eq!(first_moves(&b)[0].moves[1].mv, "a3");
        let without_pass = STRIP.replace("[[job]]\nid = \"pass\"\nboard = \"1x3\"\nmoves = \"pass\"\n", "");
        assert!(first_moves(&batch(&without_pass, &[])).is_empty());
        assert_eq!(markdown(&batch(&without_pass, &[])), "");
    }

    #[test]
    fn white_first_moves_bound_by_the_least() {
        // After Black a3 on 1x5 White has pass, a1 (~ a5) and a2 (~ a4):
        // the history, the empty strip and a3 alone, is its own mirror image.
        let text = r#"
[[job]]
id = "pass"
board = "1x5"
moves = "a3 pass"
[[job]]
id = "a1"
board = "1x5"
moves = "a3 a1"
[[job]]
id = "a4"
board = "1x5"
moves = "a3 a4"
"#;
        let b = batch(text, &[("pass", Some(3.0), Some(3.0), SOLVED), ("a1", Some(2.0), None, SOLVED)]);
        let f = &first_moves(&b)[0];
        assert_eq!(f.mover, Color::White);
        assert_eq!(f.position, "empty + 1.B[a3], W to move");
        assert_eq!((f.at_least, f.at_most), (None, Some(3.0)));
        let needed: Vec<&str> = f.needed().iter().map(|m| m.mv.as_str()).collect();
        assert_eq!(needed, ["a1", "a4"]);
        assert!(markdown(&b).contains("| ≤ +3 | pass +3, a1 ≥ +2, a4 … | ≥ +3 after a1, a4 |"));
        let claims: Vec<(String, Needed)> = f.needed_claims();
        assert_eq!(
            claims,
            [
                ("a1".into(), Needed { at_least: true, value: 3.0 }),
                ("a4".into(), Needed { at_least: true, value: 3.0 })
            ]
        );
    }
}
