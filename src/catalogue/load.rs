//! Loading a catalogue: the TOML is read into raw fields, then each claim is
//! validated field by field, so that every error names the claim and the
//! field (and a mistyped field name lists the known ones).

use super::claimed::parse_claimed;
use super::fields::{type_name, Fields};
use super::notation::{numbered, parse_move_token, reason_name};
use super::{Catalogue, CatalogueError, Claim, ClaimKind, Expected, Subject};
use crate::format::{diagram, sgf};
use crate::rules::geometry::Geometry;
use crate::rules::history::Game;
use crate::rules::position::{Color, IllegalMove, Komi, Move, Position, Rules, Superko};
use serde::Deserialize;
use std::path::Path;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCatalogue {
    about: Option<String>,
    #[serde(default)]
    claim: Vec<toml::Value>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawClaim {
    /// Read before deserializing (to name the claim in errors); listed so it is a known field.
    #[allow(dead_code)]
    id: Option<toml::Value>,
    source: Option<toml::Value>,
    url: Option<toml::Value>,
    seed: Option<toml::Value>,
    quote: Option<toml::Value>,
    notes: Option<toml::Value>,
    board: Option<toml::Value>,
    sgf: Option<toml::Value>,
    position: Option<toml::Value>,
    moves: Option<toml::Value>,
    to_move: Option<toml::Value>,
    rules: Option<toml::Value>,
    superko: Option<toml::Value>,
    komi: Option<toml::Value>,
    published_rules: Option<toml::Value>,
    kind: Option<toml::Value>,
    #[serde(rename = "move")]
    mv: Option<toml::Value>,
    reason: Option<toml::Value>,
    claimed: Option<toml::Value>,
    expensive: Option<toml::Value>,
    unchecked: Option<toml::Value>,
    refuted: Option<toml::Value>,
}

/// Read and validate a catalogue file.
pub fn load_file(path: &Path) -> Result<Catalogue, CatalogueError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| CatalogueError::Io { path: path.display().to_string(), reason: e.to_string() })?;
    load(&text)
}

/// Read and validate a catalogue from TOML text.
pub fn load(text: &str) -> Result<Catalogue, CatalogueError> {
    let raw: RawCatalogue = toml::from_str(text).map_err(|e| {
        let msg = e.to_string();
        if msg.contains("unknown field") {
            CatalogueError::Top(format!("{} (a catalogue holds 'about' and [[claim]] tables)", one_line(&msg)))
        } else {
            CatalogueError::Toml(one_line(&msg))
        }
    })?;
    let mut claims: Vec<Claim> = Vec::with_capacity(raw.claim.len());
    for (i, value) in raw.claim.into_iter().enumerate() {
        let claim = load_claim(i + 1, value)?;
        if let Some(first) = claims.iter().position(|c| c.id == claim.id) {
            return Err(CatalogueError::Field {
                claim: format!("claim '{}' (entry {})", claim.id, i + 1),
                field: "id",
                message: format!("duplicate id: entry {} has the same id", first + 1),
            });
        }
        claims.push(claim);
    }
    Ok(Catalogue { about: raw.about, claims })
}

/// A multi-line parser message on one line.
fn one_line(msg: &str) -> String {
    msg.lines().map(str::trim).filter(|l| !l.is_empty() && *l != "|").collect::<Vec<_>>().join(" ")
}

/// One `[[claim]]` table, validated. The fields are read in a fixed order
/// (so the first error reported is always the same one).
fn load_claim(entry: usize, value: toml::Value) -> Result<Claim, CatalogueError> {
    let (id, f, raw) = read_raw(entry, value)?;

    let source = f.required("source", raw.source)?;
    let url = f.string("url", raw.url)?;
    let seed = f.string("seed", raw.seed)?;
    let quote = f.string("quote", raw.quote)?;
    let notes = f.string("notes", raw.notes)?;
    let unchecked = f.string("unchecked", raw.unchecked)?;
    let refuted = f.string("refuted", raw.refuted)?;
    let expensive = f.boolean("expensive", raw.expensive)?.unwrap_or(false);
    let published_rules = f.string("published_rules", raw.published_rules)?;

    let kind_text = f.required("kind", raw.kind)?;
    let kind = ClaimKind::parse(&kind_text).ok_or_else(|| {
        let names: Vec<&str> = ClaimKind::ALL.iter().map(|k| k.name()).collect();
        f.err("kind", format!("unknown claim kind '{}' (one of: {})", kind_text, names.join(", ")))
    })?;
    let rules = parse_rules(&f, kind, unchecked.is_some(), raw.rules, raw.superko, raw.komi)?;

    // The position.
    let setup = Setup {
        board: f.string("board", raw.board)?,
        sgf: f.string("sgf", raw.sgf)?,
        position: f.string("position", raw.position)?,
        moves: f.string("moves", raw.moves)?,
    };
    let to_move_text = f.string("to_move", raw.to_move)?;
    let board = match &setup.board {
        Some(b) => {
            Some(b.parse::<Geometry>().map_err(|e| f.err("board", format!("unknown board size '{}': {}", b, e)))?)
        }
        None => None,
    };
    let to_move = match &to_move_text {
        None => None,
        Some(t) => Some(Color::parse(t).ok_or_else(|| f.err("to_move", format!("'{}' is not black or white", t)))?),
    };
    let subject = parse_subject(&f, kind, rules, unchecked.is_some(), board, &setup, to_move)?;

    let mv_text = f.string("move", raw.mv)?;
    let geo = match &subject {
        Subject::Game(g) => Some(g.geo),
        Subject::Position(g, _) | Subject::Board(g) => Some(*g),
        Subject::Lost => board,
    };
    let mv = parse_claim_move(&f, kind, &mv_text, geo)?;
    let reason = parse_reason(&f, kind, f.string("reason", raw.reason)?)?;

    // The claimed answer.
    let claimed = raw.claimed.ok_or_else(|| f.err("claimed", "is missing (the claimed answer, or \"unknown\")"))?;
    let (expected, claimed_text) = parse_claimed(&f, kind, &claimed, geo, subject_is_lost(&subject))?;
    if reason.is_some() && expected != Expected::Legal(false, None) {
        return Err(f.err("reason", "a reason is given only for a move claimed \"illegal\""));
    }
    let expected = match (expected, reason) {
        (Expected::Legal(false, None), Some(r)) => Expected::Legal(false, Some(r)),
        (e, _) => e,
    };
    let claimed_text = match reason {
        Some(r) => format!("{} ({})", claimed_text, reason_name(r)),
        None => claimed_text,
    };

    let lost_board = if subject_is_lost(&subject) { board } else { None };
    let setup = describe_setup(&subject, setup.board.as_deref(), &setup.position, &setup.moves, &setup.sgf, kind);
    Ok(Claim {
        id,
        source,
        url,
        seed,
        quote,
        notes,
        kind,
        subject,
        rules,
        published_rules,
        mv,
        expected,
        claimed_text,
        expensive,
        unchecked,
        lost_board,
        setup,
        refuted,
    })
}

/// The claim's id (checked first, so that every later error can name the
/// claim) and its fields, with unknown field names refused.
fn read_raw(entry: usize, value: toml::Value) -> Result<(String, Fields, RawClaim), CatalogueError> {
    let anon = Fields::new(format!("claim #{} (entry {} of the catalogue)", entry, entry));
    let toml::Value::Table(table) = value else {
        return Err(anon.err("claim", format!("must be a table ([[claim]]), not {}", type_name(&value))));
    };
    // Name the claim by its id as early as possible, even if other fields are wrong.
    let id = match table.get("id") {
        None => return Err(anon.err("id", "is missing (every claim needs a unique id)")),
        Some(toml::Value::String(s)) if !s.trim().is_empty() => s.trim().to_string(),
        Some(toml::Value::String(_)) => return Err(anon.err("id", "is empty")),
        Some(other) => return Err(anon.err("id", format!("must be a string, not {}", type_name(other)))),
    };
    let f = Fields::new(format!("claim '{}'", id));
    if !id.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')) {
        return Err(f.err("id", "may hold only letters, digits, '-', '_' and '.'"));
    }
    let raw = RawClaim::deserialize(toml::Value::Table(table)).map_err(|e| {
        let msg = one_line(&e.to_string());
        match unknown_field(&msg) {
            Some(name) => CatalogueError::Claim {
                claim: f.who.clone(),
                message: format!("unknown field '{}' (known fields: {})", name, KNOWN_FIELDS.join(", ")),
            },
            None => CatalogueError::Claim { claim: f.who.clone(), message: msg },
        }
    })?;
    Ok((id, f, raw))
}

/// `rules`, `superko` and `komi`. Claims about bare positions (and unchecked
/// ones) need no rules.
fn parse_rules(
    f: &Fields,
    kind: ClaimKind,
    unchecked: bool,
    rules: Option<toml::Value>,
    superko: Option<toml::Value>,
    komi: Option<toml::Value>,
) -> Result<Rules, CatalogueError> {
    let rules_text = f.string("rules", rules)?;
    let suicide = match rules_text.as_deref().map(|s| s.trim().to_ascii_uppercase()) {
        None if matches!(kind, ClaimKind::LegalPositions | ClaimKind::PositionLegal) || unchecked => false,
        None => return Err(f.err("rules", "is missing (NSTT or TT)")),
        Some(r) if r == "NSTT" => false,
        Some(r) if r == "TT" => true,
        Some(_) => {
            return Err(f.err(
                "rules",
                format!(
                "unknown rules '{}': NSTT (no suicide) or TT (suicide allowed); name other rules in published_rules",
                rules_text.unwrap_or_default()
            ),
            ))
        }
    };
    let superko = match f.string("superko", superko)?.as_deref().map(str::trim) {
        None | Some("positional") => Superko::Positional,
        Some("situational") => Superko::Situational,
        Some(other) => return Err(f.err("superko", format!("'{}' is not positional or situational", other))),
    };
    let komi = match komi {
        None => Komi(0),
        Some(v) => {
            let k = match v {
                toml::Value::Integer(i) => i as f64,
                toml::Value::Float(x) => x,
                other => return Err(f.err("komi", format!("must be a number, not {}", type_name(&other)))),
            };
            Komi::from_f64(k).ok_or_else(|| f.err("komi", format!("{} is not a multiple of 0.5", k)))?
        }
    };
    Ok(Rules { suicide, superko, komi })
}

/// The setup fields of a claim, as written.
struct Setup {
    board: Option<String>,
    sgf: Option<String>,
    position: Option<String>,
    moves: Option<String>,
}

/// What the claim is about, by kind: nothing (unchecked), an empty board
/// (counts), a bare position (`position-legal`) or a game with its history.
fn parse_subject(
    f: &Fields,
    kind: ClaimKind,
    rules: Rules,
    unchecked: bool,
    board: Option<Geometry>,
    setup: &Setup,
    to_move: Option<Color>,
) -> Result<Subject, CatalogueError> {
    let has_setup = setup.sgf.is_some() || setup.position.is_some() || setup.moves.is_some();
    if unchecked {
        if has_setup {
            return Err(f.err(
                "unchecked",
                "an unchecked claim has no position to check; remove sgf/position/moves or 'unchecked'",
            ));
        }
        Ok(Subject::Lost)
    } else if kind.is_count() {
        if has_setup || to_move.is_some() {
            return Err(f.err("kind", format!("a '{}' claim is about the empty board: give only 'board'", kind)));
        }
        Ok(Subject::Board(board.ok_or_else(|| f.err("board", "is missing"))?))
    } else if kind == ClaimKind::PositionLegal {
        if setup.sgf.is_some() || setup.moves.is_some() || to_move.is_some() {
            return Err(
                f.err("kind", "a 'position-legal' claim is about a bare position: give 'board' and 'position' only")
            );
        }
        let geo = board.ok_or_else(|| f.err("board", "is missing"))?;
        let pos = match &setup.position {
            Some(t) => diagram::parse(&geo, t).map_err(|e| f.err("position", e.to_string()))?,
            None => Position::EMPTY,
        };
        Ok(Subject::Position(geo, pos))
    } else {
        Ok(Subject::Game(Box::new(parse_game(f, rules, board, setup, to_move)?)))
    }
}

/// The game of a claim: its start (SGF or diagram), then the move list, and
/// `to_move` checked against the side to move after them.
fn parse_game(
    f: &Fields,
    rules: Rules,
    board: Option<Geometry>,
    setup: &Setup,
    to_move: Option<Color>,
) -> Result<Game, CatalogueError> {
    let mut game = if let Some(text) = &setup.sgf {
        if setup.position.is_some() {
            return Err(f.err("sgf", "the SGF gives the setup; do not also give 'position'"));
        }
        let sg = sgf::read_game(text).map_err(|e| f.err("sgf", e.to_string()))?;
        if let Some(geo) = board {
            if geo != sg.geo {
                return Err(f.err("board", format!("is {} but the SGF's SZ gives {}", geo, sg.geo)));
            }
        }
        sg.to_game(Some(rules)).map_err(|e| f.err("sgf", e.to_string()))?
    } else {
        let geo = board.ok_or_else(|| f.err("board", "is missing"))?;
        let start = match &setup.position {
            Some(t) => diagram::parse(&geo, t).map_err(|e| f.err("position", e.to_string()))?,
            None => Position::EMPTY,
        };
        // Without moves, 'to_move' is the side to move at the setup. With a
        // move list, Black plays first and 'to_move' checks the side after it.
        let first = if setup.moves.is_some() { Color::Black } else { to_move.unwrap_or(Color::Black) };
        Game::new(geo, rules, start, first).map_err(|e| f.err("position", e.to_string()))?
    };
    if let Some(text) = &setup.moves {
        for (i, tok) in text.split(|c: char| c.is_whitespace() || c == ',').filter(|t| !t.is_empty()).enumerate() {
            let mv = parse_move_token(tok, &game.geo).ok_or_else(|| {
                f.err("moves", format!("bad move {} '{}': not a point of the {} board or 'pass'", i + 1, tok, game.geo))
            })?;
            game.play(mv).map_err(|e| f.err("moves", e.to_string()))?;
        }
    }
    if let Some(c) = to_move {
        if c != game.to_move {
            return Err(f.err(
                "to_move",
                format!("says {} but after the history it is {} to move", c.name(), game.to_move.name()),
            ));
        }
    }
    Ok(game)
}

/// The move of a `move-legal` claim (required there, refused elsewhere).
fn parse_claim_move(
    f: &Fields,
    kind: ClaimKind,
    mv_text: &Option<String>,
    geo: Option<Geometry>,
) -> Result<Option<Move>, CatalogueError> {
    match (mv_text, kind) {
        (Some(t), ClaimKind::MoveLegal) => match geo {
            Some(geo) => Ok(Some(parse_move_token(t, &geo).ok_or_else(|| {
                f.err("move", format!("bad move '{}': not a point of the {} board or 'pass'", t, geo))
            })?)),
            None => Ok(None),
        },
        (None, ClaimKind::MoveLegal) => Err(f.err("move", "is missing (the move whose legality is claimed)")),
        (Some(_), _) => {
            Err(f.err("move", format!("only a 'move-legal' claim names a move; a '{}' claim does not", kind)))
        }
        (None, _) => Ok(None),
    }
}

/// The claimed reason a move is illegal (`move-legal` claims only).
fn parse_reason(
    f: &Fields,
    kind: ClaimKind,
    reason_text: Option<String>,
) -> Result<Option<IllegalMove>, CatalogueError> {
    if reason_text.is_some() && kind != ClaimKind::MoveLegal {
        return Err(f.err("reason", "only a 'move-legal' claim gives a reason"));
    }
    Ok(match reason_text.as_deref().map(|s| s.trim().to_ascii_lowercase()) {
        None => None,
        Some(r) => Some(match r.as_str() {
            "superko" => IllegalMove::Superko,
            "suicide" => IllegalMove::Suicide,
            "occupied" => IllegalMove::Occupied,
            "game-over" | "game over" => IllegalMove::GameOver,
            _ => return Err(f.err("reason", format!("'{}' is not superko, suicide, occupied or game-over", r))),
        }),
    })
}

const KNOWN_FIELDS: [&str; 22] = [
    "id",
    "source",
    "url",
    "seed",
    "quote",
    "notes",
    "board",
    "sgf",
    "position",
    "moves",
    "to_move",
    "rules",
    "superko",
    "komi",
    "published_rules",
    "kind",
    "move",
    "reason",
    "claimed",
    "expensive",
    "unchecked",
    "refuted",
];

/// The field name in serde's "unknown field `x`, expected …" message.
fn unknown_field(msg: &str) -> Option<String> {
    let rest = &msg[msg.find("unknown field `")? + "unknown field `".len()..];
    Some(rest[..rest.find('`')?].to_string())
}

fn subject_is_lost(s: &Subject) -> bool {
    matches!(s, Subject::Lost)
}

fn describe_setup(
    subject: &Subject,
    board: Option<&str>,
    position: &Option<String>,
    moves: &Option<String>,
    sgf_text: &Option<String>,
    kind: ClaimKind,
) -> String {
    match subject {
        Subject::Lost => match board {
            Some(b) => format!("{} (position not known)", b),
            None => "board and position not known".to_string(),
        },
        Subject::Board(geo) => format!(
            "{} ({})",
            geo,
            if kind == ClaimKind::Games { "games from the empty board" } else { "all colorings" }
        ),
        Subject::Position(geo, pos) => format!("{} {}", geo, diagram::compact(geo, pos)),
        Subject::Game(g) => {
            let mut parts = vec![g.geo.name()];
            if sgf_text.is_some() {
                parts.push("from SGF".into());
            }
            if position.is_some() || g.start != Position::EMPTY {
                parts.push(format!("setup {}", diagram::compact(&g.geo, &g.start)));
            }
            if moves.is_some() || !g.moves.is_empty() {
                parts.push(format!("moves {}", numbered(g, 0)));
            }
            if g.is_over() {
                parts.push("game over".into());
            } else {
                parts.push(format!("{} to move", g.to_move.name()));
            }
            parts.join(", ")
        }
    }
}
