//! The catalogue of published and documented claims, and their check against
//! the exact solver (`gosolve check`).
//!
//! A claim is something a document or paper says about a position under the
//! Tromp-Taylor rules: its perfect-play value, whether a move is legal, the
//! score if both players pass now, a best move, whether a position is legal,
//! or a count (legal positions, complete games). The catalogue is a TOML file
//! (`data/catalogue.toml`, built into the binary as [`BUILTIN`]) with one
//! `[[claim]]` table per claim; [`load()`] reads and validates it, naming the
//! claim and the field in every error, and [`check()`] answers one claim with a
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

//!
//! The files: `load` reads and validates the TOML (`fields` reads a
//! claim's fields, `claimed` the claimed answer), `check` runs each claim
//! on a large-stack thread with its [`CheckOptions`] (`options`) and
//! `kinds` answers each kind of claim (solver, rules engine or counters),
//! `report` holds the results, their verdicts and the summary the command
//! line prints; `notation` reads and writes moves the way the documents
//! write them.

mod check;
mod claimed;
mod fields;
mod kinds;
mod load;
mod notation;
mod options;
mod report;

pub use check::{check, check_all};
pub use load::{load, load_file};
pub use options::CheckOptions;
pub use report::{CheckResult, Summary, Verdict};

use crate::rules::geometry::Geometry;
use crate::rules::history::Game;
use crate::rules::position::{IllegalMove, Move, Position, Rules};
use serde::Serialize;
use std::fmt;

/// The catalogue shipped with the program (`data/catalogue.toml`).
pub const BUILTIN: &str = include_str!("../../data/catalogue.toml");

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_catalogue_loads_with_unique_ids() {
        let cat = load(BUILTIN).unwrap();
        let mut ids: Vec<&str> = cat.claims.iter().map(|c| c.id.as_str()).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), cat.claims.len());
    }
}
