//! The catalogue of published and documented claims, and their check against
//! the exact solver (`gosolve check`).
//!
//! A claim is something a document or paper says about a position under the
//! Tromp-Taylor rules: its perfect-play value, whether a move is legal, the
//! score if both players pass now, a best move, whether a position is legal,
//! or a count (legal positions, complete games). The catalogue is a TOML file
//! (`results/catalogue.toml`, built into the binary as [`BUILTIN`]) with one
//! `[[claim]]` table per claim; [`load`] reads and validates it, naming the
//! claim and the field in every error, and [`check`] answers one claim with a
//! [`CheckResult`]. The command line only prints those results.
//!
//! # The fields of a claim
//!
//! | field | meaning |
//! |---|---|
//! | `id` | unique name, letters, digits, `-`, `_`, `.` (required) |
//! | `source` | the document or paper (required); `url`, `seed` (seed file name), `quote` optional |
//! | `board` | `WxH`, columns × rows (required unless `sgf` gives it, or the claim is `unchecked`) |
//! | `sgf` | SGF text: size, setup and main line; its moves are the history |
//! | `position` | a setup diagram, rows top to bottom (`X`/`x` black, `O`/`o` white, `.`/`-` empty) |
//! | `moves` | a move list played after the setup (point names or `pass`) |
//! | `to_move` | side to move at the setup (`black`/`white`); when moves follow, it must agree with the side to move after them |
//! | `rules` | `NSTT` (no suicide) or `TT` (suicide allowed); `superko` (`positional`, default, or `situational`); `komi` (default 0) |
//! | `published_rules` | when the source computed the answer under other rules (e.g. simple ko): the comparison is marked "rules differ" |
//! | `kind` | `value`, `move-legal`, `legal-moves`, `pass-score`, `best-move`, `position-legal`, `legal-positions`, `games` |
//! | `move` | the move of a `move-legal` claim; `reason` optionally the claimed reason it is illegal (`superko`, `suicide`, `occupied`) |
//! | `claimed` | the claimed answer, or `"unknown"` (solved and reported, no agree/disagree) |
//! | `expensive` | skipped unless asked for (`--all`) |
//! | `unchecked` | why the claim cannot be checked (e.g. the diagram is lost): recorded, never solved |
//! | `notes` | free text |
//!
//! Values are Black's area minus White's, minus komi (so `-4` is "White wins
//! by 4"); `claimed` also accepts `"B+6"`, `"W+4"` and `"draw"`.

use crate::count;
use crate::format::{diagram, sgf};
use crate::rules::geometry::Geometry;
use crate::rules::history::Game;
use crate::rules::position::{
    fmt_value, result_phrase, value_with_komi, Color, IllegalMove, Komi, Move, Position, Rules, Superko,
};
use crate::search::{solve, Solution, SolveError, SolveOptions};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::Path;
use std::time::{Duration, Instant};

/// The catalogue shipped with the program (`results/catalogue.toml`).
pub const BUILTIN: &str = include_str!("../results/catalogue.toml");

// ---------------------------------------------------------------------------
// Errors

/// Why a catalogue could not be loaded. Every message names the claim (by id,
/// or by its position in the file when the id itself is missing) and the field.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CatalogueError {
    #[error("cannot read catalogue '{path}': {reason}")]
    Io { path: String, reason: String },
    #[error("malformed TOML: {0}")]
    Toml(String),
    #[error("catalogue: {0}")]
    Top(String),
    #[error("{claim}, field '{field}': {message}")]
    Field { claim: String, field: &'static str, message: String },
    #[error("{claim}: {message}")]
    Claim { claim: String, message: String },
}

impl CatalogueError {
    /// The field the error is about, when it is about one.
    pub fn field(&self) -> Option<&'static str> {
        match self {
            CatalogueError::Field { field, .. } => Some(field),
            _ => None,
        }
    }
}

// ---------------------------------------------------------------------------
// The model

/// What a claim is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ClaimKind {
    /// The perfect-play value from the position (Black − White − komi).
    Value,
    /// Whether one move is legal for the side to move.
    MoveLegal,
    /// The exact set of legal turns (passes included) for the side to move.
    LegalMoves,
    /// The score if both players pass now (the final score when the game is over).
    PassScore,
    /// A move that keeps the perfect-play value.
    BestMove,
    /// Whether a position (a bare coloring) is legal: every block has a liberty.
    PositionLegal,
    /// The number of legal positions of the board.
    LegalPositions,
    /// The number of complete games from the empty board.
    Games,
}

impl ClaimKind {
    pub const ALL: [ClaimKind; 8] = [
        ClaimKind::Value,
        ClaimKind::MoveLegal,
        ClaimKind::LegalMoves,
        ClaimKind::PassScore,
        ClaimKind::BestMove,
        ClaimKind::PositionLegal,
        ClaimKind::LegalPositions,
        ClaimKind::Games,
    ];

    pub fn name(self) -> &'static str {
        match self {
            ClaimKind::Value => "value",
            ClaimKind::MoveLegal => "move-legal",
            ClaimKind::LegalMoves => "legal-moves",
            ClaimKind::PassScore => "pass-score",
            ClaimKind::BestMove => "best-move",
            ClaimKind::PositionLegal => "position-legal",
            ClaimKind::LegalPositions => "legal-positions",
            ClaimKind::Games => "games",
        }
    }

    pub fn parse(s: &str) -> Option<ClaimKind> {
        ClaimKind::ALL.into_iter().find(|k| k.name() == s.trim())
    }

    /// Kinds about a board alone (no position, no history).
    fn is_count(self) -> bool {
        matches!(self, ClaimKind::LegalPositions | ClaimKind::Games)
    }
}

impl fmt::Display for ClaimKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The claimed answer.
#[derive(Clone, Debug, PartialEq)]
pub enum Expected {
    /// The source gives no answer: solve and report.
    Unknown,
    /// A value or a score, Black − White − komi.
    Number(f64),
    /// Legal or not, and for an illegal move optionally the reason.
    Legal(bool, Option<IllegalMove>),
    /// A set of legal turns.
    Moves(Vec<Move>),
    /// A best move.
    Move(Move),
    /// A count.
    Count(u128),
    /// The answer as written, for claims that cannot be checked.
    Text(String),
}

/// What the claim is about: a game, a bare position, a board, or nothing
/// that can be rebuilt.
#[derive(Clone, Debug)]
pub enum Subject {
    /// A game in progress: board, setup, history and side to move.
    Game(Box<Game>),
    /// A coloring whose legality is claimed (it may be illegal, so it is no game).
    Position(Geometry, Position),
    /// The board alone (counts).
    Board(Geometry),
    /// The position cannot be determined from the source (its diagram is lost).
    Lost,
}

/// One claim of the catalogue, validated.
#[derive(Clone, Debug)]
pub struct Claim {
    pub id: String,
    pub source: String,
    pub url: Option<String>,
    pub seed: Option<String>,
    pub quote: Option<String>,
    pub notes: Option<String>,
    pub kind: ClaimKind,
    pub subject: Subject,
    /// The rules the claim is checked under (the source's rules, or ours when
    /// the source used others: see `published_rules`).
    pub rules: Rules,
    /// The rules the source computed its answer under, when they are not ours.
    pub published_rules: Option<String>,
    /// The move of a `move-legal` claim.
    pub mv: Option<Move>,
    pub expected: Expected,
    /// The claimed answer as a short text, for tables.
    pub claimed_text: String,
    pub expensive: bool,
    /// Why the claim is not checked, when it is not.
    pub unchecked: Option<String>,
    /// The board of an unchecked claim, when the source names it.
    pub lost_board: Option<Geometry>,
    /// A one-line description of the position: board, setup, history, side to move.
    pub setup: String,
    /// Why the claim is known to be wrong under the rules it is checked
    /// under, when the catalogue records that: its disagreement is then
    /// expected (verdict REFUTED) and does not fail `gosolve check`.
    pub refuted: Option<String>,
}

impl Claim {
    /// The board, when known.
    pub fn board(&self) -> Option<Geometry> {
        match &self.subject {
            Subject::Game(g) => Some(g.geo),
            Subject::Position(geo, _) | Subject::Board(geo) => Some(*geo),
            Subject::Lost => self.lost_board,
        }
    }
}

/// A validated catalogue.
#[derive(Clone, Debug, Default)]
pub struct Catalogue {
    pub about: Option<String>,
    pub claims: Vec<Claim>,
}

impl Catalogue {
    /// The claim with this id.
    pub fn get(&self, id: &str) -> Option<&Claim> {
        self.claims.iter().find(|c| c.id == id)
    }
}

// ---------------------------------------------------------------------------
// Loading

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

/// Field access with errors that name the claim and the field.
struct Fields {
    who: String,
}

impl Fields {
    fn err(&self, field: &'static str, message: impl Into<String>) -> CatalogueError {
        CatalogueError::Field { claim: self.who.clone(), field, message: message.into() }
    }
    fn string(&self, field: &'static str, v: Option<toml::Value>) -> Result<Option<String>, CatalogueError> {
        match v {
            None => Ok(None),
            Some(toml::Value::String(s)) => {
                if s.trim().is_empty() {
                    Err(self.err(field, "is empty"))
                } else {
                    Ok(Some(s))
                }
            }
            Some(other) => Err(self.err(field, format!("must be a string, not {}", type_name(&other)))),
        }
    }
    fn required(&self, field: &'static str, v: Option<toml::Value>) -> Result<String, CatalogueError> {
        self.string(field, v)?.ok_or_else(|| self.err(field, "is missing"))
    }
    fn boolean(&self, field: &'static str, v: Option<toml::Value>) -> Result<Option<bool>, CatalogueError> {
        match v {
            None => Ok(None),
            Some(toml::Value::Boolean(b)) => Ok(Some(b)),
            Some(other) => Err(self.err(field, format!("must be true or false, not {}", type_name(&other)))),
        }
    }
}

fn type_name(v: &toml::Value) -> &'static str {
    match v {
        toml::Value::String(_) => "a string",
        toml::Value::Integer(_) => "an integer",
        toml::Value::Float(_) => "a float",
        toml::Value::Boolean(_) => "a boolean",
        toml::Value::Datetime(_) => "a date",
        toml::Value::Array(_) => "an array",
        toml::Value::Table(_) => "a table",
    }
}

fn load_claim(entry: usize, value: toml::Value) -> Result<Claim, CatalogueError> {
    let anon = Fields { who: format!("claim #{} (entry {} of the catalogue)", entry, entry) };
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
    let f = Fields { who: format!("claim '{}'", id) };
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

    // Rules.
    let rules_text = f.string("rules", raw.rules)?;
    let suicide = match rules_text.as_deref().map(|s| s.trim().to_ascii_uppercase()) {
        None if matches!(kind, ClaimKind::LegalPositions | ClaimKind::PositionLegal) || unchecked.is_some() => false,
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
    let superko = match f.string("superko", raw.superko)?.as_deref().map(str::trim) {
        None | Some("positional") => Superko::Positional,
        Some("situational") => Superko::Situational,
        Some(other) => return Err(f.err("superko", format!("'{}' is not positional or situational", other))),
    };
    let komi = match raw.komi {
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
    let rules = Rules { suicide, superko, komi };

    // The position.
    let board_text = f.string("board", raw.board)?;
    let sgf_text = f.string("sgf", raw.sgf)?;
    let position_text = f.string("position", raw.position)?;
    let moves_text = f.string("moves", raw.moves)?;
    let to_move_text = f.string("to_move", raw.to_move)?;
    let board = match &board_text {
        Some(b) => {
            Some(b.parse::<Geometry>().map_err(|e| f.err("board", format!("unknown board size '{}': {}", b, e)))?)
        }
        None => None,
    };
    let to_move = match &to_move_text {
        None => None,
        Some(t) => Some(Color::parse(t).ok_or_else(|| f.err("to_move", format!("'{}' is not black or white", t)))?),
    };
    let has_setup = sgf_text.is_some() || position_text.is_some() || moves_text.is_some();

    let subject = if unchecked.is_some() {
        if has_setup {
            return Err(f.err(
                "unchecked",
                "an unchecked claim has no position to check; remove sgf/position/moves or 'unchecked'",
            ));
        }
        Subject::Lost
    } else if kind.is_count() {
        if has_setup || to_move.is_some() {
            return Err(f.err("kind", format!("a '{}' claim is about the empty board: give only 'board'", kind)));
        }
        Subject::Board(board.ok_or_else(|| f.err("board", "is missing"))?)
    } else if kind == ClaimKind::PositionLegal {
        if sgf_text.is_some() || moves_text.is_some() || to_move.is_some() {
            return Err(
                f.err("kind", "a 'position-legal' claim is about a bare position: give 'board' and 'position' only")
            );
        }
        let geo = board.ok_or_else(|| f.err("board", "is missing"))?;
        let pos = match &position_text {
            Some(t) => diagram::parse(&geo, t).map_err(|e| f.err("position", e.to_string()))?,
            None => Position::EMPTY,
        };
        Subject::Position(geo, pos)
    } else {
        let mut game = if let Some(text) = &sgf_text {
            if position_text.is_some() {
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
            let start = match &position_text {
                Some(t) => diagram::parse(&geo, t).map_err(|e| f.err("position", e.to_string()))?,
                None => Position::EMPTY,
            };
            // Without moves, 'to_move' is the side to move at the setup. With a
            // move list, Black plays first and 'to_move' checks the side after it.
            let first = if moves_text.is_some() { Color::Black } else { to_move.unwrap_or(Color::Black) };
            Game::new(geo, rules, start, first).map_err(|e| f.err("position", e.to_string()))?
        };
        if let Some(text) = &moves_text {
            for (i, tok) in text.split(|c: char| c.is_whitespace() || c == ',').filter(|t| !t.is_empty()).enumerate() {
                let mv = parse_move_token(tok, &game.geo).ok_or_else(|| {
                    f.err(
                        "moves",
                        format!("bad move {} '{}': not a point of the {} board or 'pass'", i + 1, tok, game.geo),
                    )
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
        Subject::Game(Box::new(game))
    };

    // The move of a move-legal claim.
    let mv_text = f.string("move", raw.mv)?;
    let geo = match &subject {
        Subject::Game(g) => Some(g.geo),
        Subject::Position(g, _) | Subject::Board(g) => Some(*g),
        Subject::Lost => board,
    };
    let mv = match (&mv_text, kind) {
        (Some(t), ClaimKind::MoveLegal) => match geo {
            Some(geo) => Some(parse_move_token(t, &geo).ok_or_else(|| {
                f.err("move", format!("bad move '{}': not a point of the {} board or 'pass'", t, geo))
            })?),
            None => None,
        },
        (None, ClaimKind::MoveLegal) => return Err(f.err("move", "is missing (the move whose legality is claimed)")),
        (Some(_), _) => {
            return Err(f.err("move", format!("only a 'move-legal' claim names a move; a '{}' claim does not", kind)))
        }
        (None, _) => None,
    };
    let reason_text = f.string("reason", raw.reason)?;
    if reason_text.is_some() && kind != ClaimKind::MoveLegal {
        return Err(f.err("reason", "only a 'move-legal' claim gives a reason"));
    }
    let reason = match reason_text.as_deref().map(|s| s.trim().to_ascii_lowercase()) {
        None => None,
        Some(r) => Some(match r.as_str() {
            "superko" => IllegalMove::Superko,
            "suicide" => IllegalMove::Suicide,
            "occupied" => IllegalMove::Occupied,
            "game-over" | "game over" => IllegalMove::GameOver,
            _ => return Err(f.err("reason", format!("'{}' is not superko, suicide, occupied or game-over", r))),
        }),
    };

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
    let setup = describe_setup(&subject, board_text.as_deref(), &position_text, &moves_text, &sgf_text, kind);
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

/// A move token: a point name, `pass`, or the documents' `7.B[a2]` notation.
fn parse_move_token(tok: &str, geo: &Geometry) -> Option<Move> {
    let t = tok.trim();
    let inner = match (t.find('['), t.ends_with(']')) {
        (Some(i), true) => &t[i + 1..t.len() - 1],
        _ => t,
    };
    if inner.is_empty() {
        return Some(Move::Pass);
    }
    Move::parse(inner, geo)
}

fn reason_name(r: IllegalMove) -> &'static str {
    match r {
        IllegalMove::Occupied => "occupied",
        IllegalMove::Suicide => "suicide",
        IllegalMove::Superko => "superko",
        IllegalMove::GameOver => "game over",
    }
}

/// Parse `claimed` for `kind`. Returns the expectation and its display text.
fn parse_claimed(
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

/// "B+6" → 6, "W+4" → −4, "draw" → 0, "+3" / "-4" / "0" as numbers.
fn parse_result(s: &str) -> Option<f64> {
    let t = s.trim();
    if t.eq_ignore_ascii_case("draw") || t == "0" {
        return Some(0.0);
    }
    let upper = t.to_ascii_uppercase();
    if let Some(rest) = upper.strip_prefix("B+") {
        return rest.parse::<f64>().ok();
    }
    if let Some(rest) = upper.strip_prefix("W+") {
        return rest.parse::<f64>().ok().map(|x| -x);
    }
    t.parse::<f64>().ok()
}

/// A value with its sign: "+6", "-4", "0".
pub fn signed(x: f64) -> String {
    if x > 0.0 {
        format!("+{}", fmt_value(x))
    } else {
        fmt_value(x)
    }
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

/// The game's moves from index `from` on, numbered as the documents write them: `1.B[a2] 2.W[b2]`.
fn numbered(g: &Game, from: usize) -> String {
    g.moves
        .iter()
        .enumerate()
        .skip(from)
        .map(|(i, &(c, m))| format!("{}.{}[{}]", i + 1, c.letter(), m.name(&g.geo)))
        .collect::<Vec<_>>()
        .join(" ")
}

// ---------------------------------------------------------------------------
// Checking

/// How claims are checked.
#[derive(Clone, Debug)]
pub struct CheckOptions {
    /// Check claims marked `expensive` too.
    pub run_expensive: bool,
    /// Time limit of each solve.
    pub time_limit: Option<Duration>,
    /// Transposition table of each solve, in MiB.
    pub table_mb: usize,
}

impl Default for CheckOptions {
    fn default() -> Self {
        CheckOptions { run_expensive: false, time_limit: Some(Duration::from_secs(60)), table_mb: 128 }
    }
}

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
        (Subject::Game(g), ClaimKind::BestMove) => check_best_move(g, &claim.expected, opts, &mut r),
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
            SolveError::Interrupted => {
                r.verdict = Verdict::Error;
                r.message = Some(e.to_string());
            }
        }
    }
    r
}

/// Why a count is missing.
enum CountFailure {
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
fn count_legal_positions(geo: &Geometry) -> Result<u128, CountFailure> {
    Ok(count::legal::count_legal(geo)?)
}

/// Adapter to the game counter (`count::games::count_games`).
fn count_complete_games(geo: &Geometry, rules: &Rules) -> Result<u128, CountFailure> {
    Ok(count::games::count_games(geo, rules)?)
}

fn solve_options(opts: &CheckOptions) -> SolveOptions {
    SolveOptions { time_limit: opts.time_limit, table_mb: opts.table_mb, threads: 1, ..Default::default() }
}

/// Compare a found number with the expectation.
fn compare_number(found: f64, expected: &Expected) -> Verdict {
    match expected {
        Expected::Number(x) if *x == found => Verdict::Agree,
        Expected::Number(_) => Verdict::Disagree,
        _ => Verdict::Found,
    }
}

/// "7.B[pass] 8.W[pass]": the moves `line` played from `game`, numbered.
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

/// "Black" / "White".
fn side(c: Color) -> &'static str {
    match c {
        Color::Black => "Black",
        Color::White => "White",
    }
}

fn move_values(game: &Game, sol: &Solution) -> String {
    let komi = game.rules.komi.as_f64();
    let list: Vec<String> =
        sol.moves.iter().map(|m| format!("{} {}", m.mv.name(&game.geo), signed(m.value as f64 - komi))).collect();
    format!("values of {}'s turns here: {}", side(game.to_move), list.join(", "))
}

/// Check a value claim. An expensive one is solved for its value only (one
/// search of the root: 1x11 takes a minute instead of fifteen); a cheap one
/// also reports the value of every root move.
fn check_value(
    game: &Game,
    expected: &Expected,
    opts: &CheckOptions,
    value_only: bool,
    r: &mut CheckResult,
) -> Result<(), SolveError> {
    let sol = solve(game, &SolveOptions { value_only, ..solve_options(opts) })?;
    let v = sol.value_with_komi(&game.rules);
    r.found = Some(signed(v));
    r.verdict = compare_number(v, expected);
    r.line = numbered_line(game, &sol.pv);
    r.detail.push(format!(
        "position {} ({} to move)",
        diagram::compact(&game.geo, &game.position),
        game.to_move.name()
    ));
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
                side(game.to_move),
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
                    let Ok(child) = solve(&after, &solve_options(opts)) else {
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

fn check_best_move(
    game: &Game,
    expected: &Expected,
    opts: &CheckOptions,
    r: &mut CheckResult,
) -> Result<(), SolveError> {
    let sol = solve(game, &solve_options(opts))?;
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
            let child = solve(&after, &solve_options(opts))?;
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

/// The number of the move after which `pos` stood (0 = the setup), for superko messages.
fn repeated_at(game: &Game, pos: Position, to_move: Color) -> Option<usize> {
    game.history
        .line()
        .iter()
        .position(|&(p, c)| p == pos && (game.rules.superko == Superko::Positional || c == to_move))
}

fn check_move_legal(game: &Game, mv: Move, expected: &Expected, r: &mut CheckResult) {
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

fn check_legal_moves(game: &Game, expected: &Expected, r: &mut CheckResult) {
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

fn check_pass_score(game: &Game, expected: &Expected, r: &mut CheckResult) {
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
        let mut rest = pos.stones(c);
        while rest != 0 {
            let seed = rest & rest.wrapping_neg();
            let block = geo.flood(seed, pos.stones(c));
            rest &= !block;
            if geo.neighbours(block) & empty == 0 {
                let names: Vec<String> = Geometry::iter(block).map(|p| geo.point_name(p)).collect();
                out.push(format!("{}{{{}}}", c.letter(), names.join(",")));
            }
        }
    }
    out
}

fn check_position_legal(geo: &Geometry, pos: &Position, expected: &Expected, r: &mut CheckResult) {
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

fn check_count(found: Result<u128, CountFailure>, expected: &Expected, r: &mut CheckResult) {
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
    fn numbers_and_results_parse() {
        assert_eq!(group_digits(414_295_148_741), "414,295,148,741");
        assert_eq!(group_digits(57), "57");
        assert_eq!(group_digits(0), "0");
        assert_eq!(parse_result("W+4"), Some(-4.0));
        assert_eq!(parse_result("b+6"), Some(6.0));
        assert_eq!(parse_result("W+4.5"), Some(-4.5));
        assert_eq!(parse_result("draw"), Some(0.0));
        assert_eq!(parse_result("-5"), Some(-5.0));
        assert_eq!(parse_result("lots"), None);
        assert_eq!(signed(6.0), "+6");
        assert_eq!(signed(-4.5), "-4.5");
        assert_eq!(signed(0.0), "0");
    }

    #[test]
    fn move_tokens_parse_in_both_notations() {
        let geo = Geometry::new(2, 2).unwrap();
        assert_eq!(parse_move_token("a2", &geo), Move::parse("a2", &geo));
        assert_eq!(parse_move_token("7.B[a2]", &geo), Move::parse("a2", &geo));
        assert_eq!(parse_move_token("W[]", &geo), Some(Move::Pass));
        assert_eq!(parse_move_token("B[pass]", &geo), Some(Move::Pass));
        assert_eq!(parse_move_token("c3", &geo), None);
    }

    #[test]
    fn builtin_catalogue_loads_with_unique_ids() {
        let cat = load(BUILTIN).unwrap();
        let mut ids: Vec<&str> = cat.claims.iter().map(|c| c.id.as_str()).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), cat.claims.len());
    }

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
