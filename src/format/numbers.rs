//! Numbers as the reports write them: values with their sign (`+6`, `-4.5`,
//! `0`, as in "B+6") and counts with digit groups. One place, so that the
//! solve output, the SGF labels, batch summaries and catalogue checks agree.

use crate::rules::position::fmt_value;

/// A value with its sign: "+6", "-4", "0".
pub fn signed(x: f64) -> String {
    if x > 0.0 {
        format!("+{}", fmt_value(x))
    } else {
        fmt_value(x)
    }
}

/// Bounds proved on a value, in a few characters: `≥ +14`, `≤ +20`,
/// `+14 to +20`, or `= +6` where they meet; `None` where neither is proved.
/// The same words in a batch record and in a running solve's progress line.
pub fn bounds(at_least: Option<f64>, at_most: Option<f64>) -> Option<String> {
    match (at_least, at_most) {
        (Some(lo), Some(hi)) if lo == hi => Some(format!("= {}", signed(lo))),
        (Some(lo), Some(hi)) => Some(format!("{} to {}", signed(lo), signed(hi))),
        (Some(lo), None) => Some(format!("≥ {}", signed(lo))),
        (None, Some(hi)) => Some(format!("≤ {}", signed(hi))),
        (None, None) => None,
    }
}

/// Null-window tests "value ≥ b" by their b: `≥ +3 and ≥ +18`. The same
/// words in a batch record and in a running solve's progress line.
pub fn tests(bs: &[f64]) -> String {
    bs.iter().map(|&b| format!("≥ {}", signed(b))).collect::<Vec<_>>().join(" and ")
}

/// 414295148741 → "414,295,148,741".
pub fn group_digits(n: u128) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A node count as a phrase, digit-grouped: "1 node", "0 nodes", "223,048 nodes".
pub fn nodes(n: u64) -> String {
    format!("{} node{}", group_digits(n as u128), if n == 1 { "" } else { "s" })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signs_and_digit_groups() {
        assert_eq!(group_digits(414_295_148_741), "414,295,148,741");
        assert_eq!(group_digits(57), "57");
        assert_eq!(group_digits(0), "0");
        assert_eq!((nodes(1), nodes(0), nodes(223_048)), ("1 node".into(), "0 nodes".into(), "223,048 nodes".into()));
        assert_eq!(signed(6.0), "+6");
        assert_eq!(signed(-4.5), "-4.5");
        assert_eq!(signed(0.0), "0");
    }

    #[test]
    fn bounds_in_a_few_characters() {
        assert_eq!(bounds(Some(1.0), Some(18.0)).as_deref(), Some("+1 to +18"));
        assert_eq!(bounds(Some(6.0), Some(6.0)).as_deref(), Some("= +6"));
        assert_eq!(bounds(Some(-0.5), None).as_deref(), Some("≥ -0.5"));
        assert_eq!(bounds(None, Some(0.0)).as_deref(), Some("≤ 0"));
        assert_eq!(bounds(None, None), None);
    }
}
