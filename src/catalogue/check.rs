//! Checking claims: each on its own large-stack thread, panics reported as
//! errors, claims recorded as refuted expected to disagree.

use super::kinds::{
    check_best_move, check_count, check_legal_moves, check_move_legal, check_pass_score, check_position_legal,
    check_value, count_complete_games, count_legal_positions,
};
use super::options::CheckOptions;
use super::report::{CheckResult, Verdict};
use super::{Claim, ClaimKind, Subject};
use crate::search::SolveError;
use std::time::Instant;

/// Check every claim (in order), calling `each` with every result as it comes.
pub fn check_all(claims: &[&Claim], opts: &CheckOptions, mut each: impl FnMut(&CheckResult)) -> Vec<CheckResult> {
    let mut out = Vec::with_capacity(claims.len());
    for c in claims {
        let r = check(c, opts);
        each(&r);
        out.push(r);
    }
    out
}

/// Stack for the thread that checks a claim: the solver recurses once per ply,
/// and under superko a line can be hundreds of plies deep (1x7 reaches 289;
/// longer strips overflow the 8 MiB main stack). Only the pages used are committed.
const CHECK_STACK: usize = 1 << 30;

/// Check one claim against the solver (or the rules engine, or the counters).
/// The work runs on a thread with a large stack; a panic there is reported as
/// an error result rather than taking the caller down.
pub fn check(claim: &Claim, opts: &CheckOptions) -> CheckResult {
    std::thread::scope(|scope| {
        let worker = std::thread::Builder::new()
            .name(format!("check {}", claim.id))
            .stack_size(CHECK_STACK)
            .spawn_scoped(scope, || check_here(claim, opts));
        let failed = |why: String| {
            let mut r = blank_result(claim);
            r.verdict = Verdict::Error;
            r.message = Some(why);
            r
        };
        match worker {
            Ok(handle) => handle.join().map(|r| expect_refuted(claim, r)).unwrap_or_else(|p| {
                let why = p
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_else(|| "unknown panic".to_string());
                failed(format!("the check panicked: {}", why))
            }),
            Err(e) => failed(format!("cannot start a checking thread: {}", e)),
        }
    })
}

/// A claim recorded as refuted: its disagreement becomes [`Verdict::Refuted`];
/// agreeing with it is unexpected and becomes a disagreement with the record.
fn expect_refuted(claim: &Claim, mut r: CheckResult) -> CheckResult {
    let Some(why) = &claim.refuted else { return r };
    match r.verdict {
        Verdict::Disagree => {
            r.verdict = Verdict::Refuted;
            r.detail.push(format!("known to be wrong: {}", why));
        }
        Verdict::Agree => {
            r.verdict = Verdict::Disagree;
            r.message =
                Some(format!("the catalogue records this claim as refuted ({}), but the solver agrees with it", why));
            r.refutation.push(format!("expected a refutation: {}", why));
        }
        _ => {}
    }
    r
}

fn blank_result(claim: &Claim) -> CheckResult {
    CheckResult {
        id: claim.id.clone(),
        kind: claim.kind,
        board: claim.board().map(|g| g.name()),
        rules: if matches!(claim.kind, ClaimKind::LegalPositions | ClaimKind::PositionLegal)
            || claim.unchecked.is_some()
        {
            "-".to_string()
        } else {
            claim.rules.name()
        },
        published_rules: claim.published_rules.clone(),
        claimed: claim.claimed_text.clone(),
        found: None,
        verdict: Verdict::Error,
        message: None,
        seconds: 0.0,
        line: Vec::new(),
        refutation: Vec::new(),
        detail: Vec::new(),
    }
}

/// [`check`] on the current thread.
fn check_here(claim: &Claim, opts: &CheckOptions) -> CheckResult {
    let mut r = blank_result(claim);
    if let Some(why) = &claim.unchecked {
        r.verdict = Verdict::NotChecked;
        r.message = Some(why.clone());
        return r;
    }
    if claim.expensive && !opts.run_expensive {
        r.verdict = Verdict::Skipped;
        r.message = Some("expensive; run with --all".to_string());
        return r;
    }
    let start = Instant::now();
    let outcome = match (&claim.subject, claim.kind) {
        (Subject::Game(g), ClaimKind::Value) => check_value(g, &claim.expected, opts, claim.expensive, &mut r),
        (Subject::Game(g), ClaimKind::BestMove) => check_best_move(g, &claim.expected, opts, claim.expensive, &mut r),
        (Subject::Game(g), ClaimKind::MoveLegal) => {
            check_move_legal(g, claim.mv.expect("validated"), &claim.expected, &mut r);
            Ok(())
        }
        (Subject::Game(g), ClaimKind::LegalMoves) => {
            check_legal_moves(g, &claim.expected, &mut r);
            Ok(())
        }
        (Subject::Game(g), ClaimKind::PassScore) => {
            check_pass_score(g, &claim.expected, &mut r);
            Ok(())
        }
        (Subject::Position(geo, pos), ClaimKind::PositionLegal) => {
            check_position_legal(geo, pos, &claim.expected, &mut r);
            Ok(())
        }
        (Subject::Board(geo), ClaimKind::LegalPositions) => {
            check_count(count_legal_positions(geo), &claim.expected, &mut r);
            Ok(())
        }
        (Subject::Board(geo), ClaimKind::Games) => {
            check_count(count_complete_games(geo, &claim.rules), &claim.expected, &mut r);
            Ok(())
        }
        _ => Err(SolveError::Interrupted), // unreachable: the loader pairs kinds with subjects
    };
    r.seconds = start.elapsed().as_secs_f64();
    if let Err(e) = outcome {
        match e {
            SolveError::TimeLimit(_) | SolveError::NodeLimit(_) => {
                r.verdict = Verdict::Timeout;
                r.message = Some(e.to_string());
            }
            SolveError::Interrupted | SolveError::MemoryMismatch(_) => {
                r.verdict = Verdict::Error;
                r.message = Some(e.to_string());
            }
        }
    }
    r
}
