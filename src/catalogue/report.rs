//! The results of checking claims: verdicts, one result per claim (printed
//! as a table or serialized as JSON by the command line) and the summary
//! that decides the exit code.

use super::ClaimKind;
use serde::Serialize;

/// The outcome of checking one claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// The solver finds what the source claims.
    Agree,
    /// The solver finds something else.
    Disagree,
    /// The source gives no answer; the solver's is reported.
    Found,
    /// An expensive claim not run (see `--all`).
    Skipped,
    /// The solve hit its time (or node) limit.
    Timeout,
    /// The claim cannot be checked (e.g. its diagram is lost).
    NotChecked,
    /// Something went wrong (e.g. the search was interrupted).
    Error,
    /// The solver disagrees with a claim the catalogue records as known to be
    /// wrong (`refuted = "why"`): expected, so it does not fail the check.
    Refuted,
}

impl Verdict {
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Agree => "agree",
            Verdict::Disagree => "DISAGREE",
            Verdict::Found => "found",
            Verdict::Skipped => "skipped",
            Verdict::Timeout => "timeout",
            Verdict::NotChecked => "not checked",
            Verdict::Error => "error",
            Verdict::Refuted => "REFUTED",
        }
    }
}

/// The result of checking one claim.
#[derive(Clone, Debug, Serialize)]
pub struct CheckResult {
    pub id: String,
    pub kind: ClaimKind,
    pub board: Option<String>,
    /// The rules the solver used, e.g. "NSTT".
    pub rules: String,
    /// The source's rules when they differ from ours ("rules differ").
    pub published_rules: Option<String>,
    pub claimed: String,
    pub found: Option<String>,
    pub verdict: Verdict,
    /// Why the claim was skipped, not checked, timed out or failed.
    pub message: Option<String>,
    pub seconds: f64,
    /// The perfect-play line found (numbered moves), for value and best-move claims.
    pub line: Vec<String>,
    /// For a DISAGREE: the line (with move names) that refutes the claim, and why.
    pub refutation: Vec<String>,
    /// Facts a reader can verify by hand: move values, area counts, the repeated position.
    pub detail: Vec<String>,
}

impl CheckResult {
    /// The result column of the table: verdict plus the rules remark.
    pub fn result_text(&self) -> String {
        let base = match self.verdict {
            Verdict::Skipped => "skipped (expensive; run with --all)".to_string(),
            Verdict::NotChecked => {
                // The short reason: up to the first ':' or ','; the full one is in `message`.
                let m = self.message.as_deref().unwrap_or("");
                format!("not checked ({})", m.split([':', ',']).next().unwrap_or(m).trim())
            }
            Verdict::Found => "found (no claim to compare)".to_string(),
            v => v.name().to_string(),
        };
        if self.published_rules.is_some()
            && matches!(self.verdict, Verdict::Agree | Verdict::Disagree | Verdict::Refuted)
        {
            format!("{}; rules differ", base)
        } else {
            base
        }
    }
}

/// Counts of results by verdict, for the summary line and the exit code.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Summary {
    pub claims: usize,
    pub agree: usize,
    pub disagree: usize,
    /// Disagreements the catalogue expects (claims recorded as refuted).
    pub refuted: usize,
    pub found: usize,
    pub skipped: usize,
    pub timeout: usize,
    pub not_checked: usize,
    pub error: usize,
}

impl Summary {
    pub fn of(results: &[CheckResult]) -> Summary {
        let mut s = Summary { claims: results.len(), ..Default::default() };
        for r in results {
            match r.verdict {
                Verdict::Agree => s.agree += 1,
                Verdict::Disagree => s.disagree += 1,
                Verdict::Found => s.found += 1,
                Verdict::Skipped => s.skipped += 1,
                Verdict::Timeout => s.timeout += 1,
                Verdict::NotChecked => s.not_checked += 1,
                Verdict::Error => s.error += 1,
                Verdict::Refuted => s.refuted += 1,
            }
        }
        s
    }
    /// 0 when nothing disagreed unexpectedly and nothing failed (claims
    /// recorded as refuted may disagree), 1 when some claim disagreed, 2 when
    /// some check failed (as `diff`: trouble wins).
    pub fn exit_code(&self) -> i32 {
        if self.error > 0 {
            2
        } else if self.disagree > 0 {
            1
        } else {
            0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes() {
        let mut s = Summary { claims: 3, agree: 3, ..Default::default() };
        assert_eq!(s.exit_code(), 0);
        s.timeout = 1;
        assert_eq!(s.exit_code(), 0);
        s.refuted = 1;
        assert_eq!(s.exit_code(), 0, "an expected refutation does not fail");
        s.disagree = 1;
        assert_eq!(s.exit_code(), 1);
        s.error = 1;
        assert_eq!(s.exit_code(), 2);
    }
}
