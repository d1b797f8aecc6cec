//! The `claimed` field: the answer a source gives, read according to the
//! claim's kind (a value, legal or illegal, moves, a count, or "unknown").

use super::fields::{type_name, Fields};
use super::notation::{parse_move_token, parse_result};
use super::{CatalogueError, ClaimKind, Expected};
use crate::format::numbers::{group_digits, signed};
use crate::rules::geometry::Geometry;

/// Parse `claimed` for `kind`. Returns the expectation and its display text.
pub(super) fn parse_claimed(
    f: &Fields,
    kind: ClaimKind,
    v: &toml::Value,
    geo: Option<Geometry>,
    lost: bool,
) -> Result<(Expected, String), CatalogueError> {
    if let toml::Value::String(s) = v {
        if s.trim().eq_ignore_ascii_case("unknown") {
            return Ok((Expected::Unknown, "unknown".to_string()));
        }
    }
    let bad = |what: &str| f.err("claimed", format!("a '{}' claim needs {}, not {}", kind, what, show_value(v)));
    match kind {
        ClaimKind::Value | ClaimKind::PassScore => {
            let x = match v {
                toml::Value::Integer(i) => *i as f64,
                toml::Value::Float(x) => *x,
                toml::Value::String(s) => parse_result(s)
                    .ok_or_else(|| bad("a number (Black − White), \"B+n\", \"W+n\", \"draw\" or \"unknown\""))?,
                _ => return Err(bad("a number (Black − White) or \"unknown\"")),
            };
            if !x.is_finite() || (x * 2.0).fract() != 0.0 || x.abs() > 1000.0 {
                return Err(bad("a whole or half number"));
            }
            Ok((Expected::Number(x), signed(x)))
        }
        ClaimKind::MoveLegal | ClaimKind::PositionLegal => match v {
            toml::Value::String(s) if s.trim() == "legal" => Ok((Expected::Legal(true, None), "legal".into())),
            toml::Value::String(s) if s.trim() == "illegal" => Ok((Expected::Legal(false, None), "illegal".into())),
            toml::Value::Boolean(b) => Ok((Expected::Legal(*b, None), if *b { "legal" } else { "illegal" }.into())),
            _ => Err(bad("\"legal\", \"illegal\" or \"unknown\"")),
        },
        ClaimKind::LegalMoves | ClaimKind::BestMove => {
            let toml::Value::String(s) = v else {
                return Err(bad("move names in a string"));
            };
            let Some(geo) = geo.filter(|_| !lost) else {
                return Ok((Expected::Text(s.clone()), s.clone()));
            };
            let mut moves = Vec::new();
            for tok in s.split(|c: char| c.is_whitespace() || c == ',').filter(|t| !t.is_empty()) {
                let m = parse_move_token(tok, &geo).ok_or_else(|| {
                    f.err("claimed", format!("bad move '{}': not a point of the {} board or 'pass'", tok, geo))
                })?;
                if !moves.contains(&m) {
                    moves.push(m);
                }
            }
            if kind == ClaimKind::BestMove {
                match moves.as_slice() {
                    [m] => Ok((Expected::Move(*m), m.name(&geo))),
                    _ => Err(bad("exactly one move")),
                }
            } else {
                let text = moves.iter().map(|m| m.name(&geo)).collect::<Vec<_>>().join(" ");
                Ok((Expected::Moves(moves), text))
            }
        }
        ClaimKind::LegalPositions | ClaimKind::Games => {
            let n = match v {
                toml::Value::Integer(i) if *i >= 0 => *i as u128,
                toml::Value::String(s) => {
                    let digits: String = s.chars().filter(|c| !matches!(c, ',' | '_' | ' ')).collect();
                    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                        return Err(bad("a non-negative whole number"));
                    }
                    digits.parse::<u128>().map_err(|_| bad("a count that fits in 128 bits"))?
                }
                _ => return Err(bad("a non-negative whole number")),
            };
            Ok((Expected::Count(n), group_digits(n)))
        }
    }
}

fn show_value(v: &toml::Value) -> String {
    match v {
        toml::Value::String(s) => format!("'{}'", s),
        other => format!("{} ({})", other, type_name(other)),
    }
}
