//! SGF (FF\[4\], `GM[1]`) reading and writing for tiny boards.
//!
//! Parsing is done by the `sgf-parse` crate; this module turns its tree into a
//! [`SgfGame`] (board, rules, setup, first player, main-line moves) and replays
//! it through [`Game::play`], so suicide and superko are checked exactly as in
//! every other part of the crate.
//!
//! # Conventions
//!
//! * **Coordinates.** An SGF point is two letters `a..z`, `A..Z`: the first is
//!   the column (`a` = left), the second the row counted **from the top**
//!   (`a` = top row). Our rows count from the bottom, so SGF `(x, y)` on a
//!   board of height H is our column `x`, row `H - y` (1-based). On 3x2, `aa`
//!   is `a2` and `ab` is `a1`.
//! * **Size.** `SZ[n]` is n x n, `SZ[W:H]` is W columns by H rows. No `SZ`
//!   means the SGF default 19x19, which is rejected (361 > 64 points).
//! * **Passes.** `B[]` is a pass. `B[tt]` is also a pass when the board is at
//!   most 19x19 (the FF\[3\] convention); on a wider board `tt` is an ordinary
//!   point name (and on every board this crate supports, off the board).
//! * **Game type.** `GM[1]` or no `GM` (the SGF default is Go) are accepted;
//!   any other `GM` is an error.
//! * **Rules (`RU`).** Case is ignored; a trailing `-situational`/`-positional`
//!   (or with a space or `_`) sets the superko flavour explicitly.
//!
//!   | `RU`                                   | suicide | superko     |
//!   |----------------------------------------|---------|-------------|
//!   | `TT`, `Tromp-Taylor`, `TrompTaylor`    | allowed | positional  |
//!   | `NSTT`                                 | no      | positional  |
//!   | `NZ`, `New Zealand`                    | allowed | situational |
//!   | `AGA`                                  | no      | situational |
//!   | `Chinese`, `Japanese`, `Korean`, other | no      | positional  |
//!   | absent                                 | no      | positional  |
//!
//!   NZ and AGA rules use situational superko, so they are read that way
//!   (`--superko` on the command line overrides). Every non-Tromp-Taylor name is
//!   scored by area here; [`SgfGame::rules_note`] says so for the user.
//! * **Komi.** `KM` must be a multiple of 0.5.
//! * **Setup.** `AB`, `AW`, `AE` (compressed lists `AB[aa:bb]` included) and
//!   `PL` are read from the root node only; setup in a later node is an error
//!   (a game here has one starting position). Without `PL` the first player is
//!   the colour of the first move, or Black when there are no moves.
//! * **Moves.** The main line (first child at each node) is read; other
//!   variations are ignored. Moves must alternate (a pass is `B[]`/`W[]`). `KO`
//!   is ignored: every move is checked. Only the first game of a collection is
//!   read.
//!
//! Written files use `RU[NSTT]` or `RU[TT]`, with `-situational` appended for
//! situational superko, so they read back with the same rules.
//!
//! Reading never panics. Very deep trees (an SGF node per `;`) are refused
//! above [`MAX_NODES`] nodes, and the crate's tree is parsed and dismantled on
//! a thread with a large stack, because dropping a nested tree recurses.

use crate::rules::geometry::{Geometry, SizeError};
use crate::rules::history::{Game, GameError};
use crate::rules::position::{fmt_value, Color, Komi, Move, Position, Rules, Superko};
use sgf_parse::go::{Move as SgfMove, Point as SgfPoint, Prop};
use sgf_parse::{GameTree, SgfNode, SgfProp};
use std::collections::HashSet;

/// Most nodes (`;`) an SGF text may hold.
pub const MAX_NODES: usize = 200_000;

/// Stack for the parsing thread: enough to drop a chain of [`MAX_NODES`] nodes
/// even in an unoptimised build (about 200 bytes a level measured; only the
/// pages used are ever committed).
const PARSE_STACK: usize = 256 << 20;

/// Why an SGF text could not be read as a game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SgfError {
    #[error("malformed SGF: {0}")]
    Malformed(String),
    #[error("SGF has more than {0} nodes; not supported")]
    TooManyNodes(usize),
    #[error("SGF game type GM[{0}] is not Go (GM[1])")]
    NotGo(String),
    #[error("SGF has no SZ property, so the board is the default 19x19 with 361 points: boards over 64 points are not supported")]
    DefaultSize,
    #[error("SGF SZ[{value}]: {reason}")]
    Size { value: String, reason: SizeError },
    #[error("SGF property {prop}[{value}] has an invalid value")]
    BadProperty { prop: String, value: String },
    #[error("SGF point {prop}[{value}] is off the {board} board")]
    OffBoard { prop: String, value: String, board: String },
    #[error("SGF KM[{0}] is not a valid komi (a number, a multiple of 0.5)")]
    BadKomi(String),
    #[error("SGF node {node} holds more than one move")]
    MultipleMoves { node: usize },
    #[error("SGF setup point {0} is given twice (in two of AB, AW, AE)")]
    SetupConflict(String),
    #[error("SGF node {node} has setup property {prop} after the root node; only a root setup is supported")]
    LateSetup { node: usize, prop: String },
    #[error("move {number} ({color} {mv}): {expected} is to move; moves must alternate (a pass is {letter}[])")]
    OutOfTurn { number: usize, color: &'static str, mv: String, expected: &'static str, letter: char },
    #[error(transparent)]
    Game(#[from] GameError),
}

/// A game read from SGF: everything needed to replay it.
#[derive(Clone, Debug, PartialEq)]
pub struct SgfGame {
    pub geo: Geometry,
    /// Rules from `RU`/`KM` (NSTT, komi 0 when absent).
    pub rules: Rules,
    /// The `RU` text, when present.
    pub ru: Option<String>,
    /// Whether the game gave `KM` (so that callers can say where the komi
    /// in force came from: a flag, the file, or the default).
    pub km: bool,
    /// A remark when `RU` is not a Tromp-Taylor name (how it was read).
    pub rules_note: Option<String>,
    /// The root setup (`AB`/`AW`/`AE`).
    pub setup: Position,
    /// Who moves first (`PL`, else the first move's colour, else Black).
    pub to_move: Color,
    /// Main-line moves in order, with the colour the SGF gave each.
    pub moves: Vec<(Color, Move)>,
    /// The `RE` text, when present.
    pub result: Option<String>,
}

impl SgfGame {
    /// Replay the game through [`Game::play`] under its own rules, or under
    /// `override_rules`. Errors on an illegal setup (a block without liberties)
    /// or the first illegal move (the message names its number and the reason).
    pub fn to_game(&self, override_rules: Option<Rules>) -> Result<Game, SgfError> {
        let rules = override_rules.unwrap_or(self.rules);
        let mut game = Game::new(self.geo, rules, self.setup, self.to_move)?;
        for &(_, mv) in &self.moves {
            game.play(mv)?;
        }
        Ok(game)
    }
}

/// Make a property value safe for a one-line message: control characters
/// escaped, long values cut.
fn show(value: &str) -> String {
    let mut out = String::new();
    for (i, c) in value.chars().enumerate() {
        if i >= 24 {
            out.push('…');
            break;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

fn show_values(values: &[String]) -> String {
    show(&values.join("]["))
}

/// Nodes in an SGF text (`;` outside property values), stopping past `limit`.
fn count_nodes(text: &str, limit: usize) -> usize {
    let mut n = 0;
    let mut in_value = false;
    let mut escaped = false;
    for b in text.bytes() {
        if in_value {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b']' {
                in_value = false;
            }
        } else if b == b'[' {
            in_value = true;
        } else if b == b';' {
            n += 1;
            if n > limit {
                break;
            }
        }
    }
    n
}

/// Drop a tree without recursion (the crate's nodes drop recursively).
fn drop_tree<P: SgfProp>(root: SgfNode<P>) {
    let mut stack = vec![root];
    while let Some(mut node) = stack.pop() {
        stack.append(&mut node.children);
    }
}

/// What the parsing thread hands back: the main line's property lists, or the
/// game type text when the first game is not Go.
enum Parsed {
    Go(Vec<Vec<Prop>>),
    NotGo(String),
}

fn parse_main_line(text: &str) -> Result<Parsed, SgfError> {
    let trees = sgf_parse::parse(text).map_err(|e| SgfError::Malformed(e.to_string()))?;
    let mut out = None;
    for tree in trees {
        match tree {
            GameTree::GoGame(root) => {
                if out.is_none() {
                    let mut line = Vec::new();
                    let mut cur = Some(root);
                    while let Some(mut node) = cur {
                        line.push(std::mem::take(&mut node.properties));
                        let mut children = std::mem::take(&mut node.children);
                        cur = if children.is_empty() { None } else { Some(children.remove(0)) };
                        for c in children {
                            drop_tree(c);
                        }
                    }
                    out = Some(Parsed::Go(line));
                } else {
                    drop_tree(root);
                }
            }
            GameTree::Unknown(root) => {
                if out.is_none() {
                    let gm = root
                        .properties()
                        .find_map(|p| match p {
                            sgf_parse::unknown_game::Prop::GM(n) => Some(n.to_string()),
                            _ => None,
                        })
                        .unwrap_or_default();
                    out = Some(Parsed::NotGo(gm));
                }
                drop_tree(root);
            }
        }
    }
    out.ok_or_else(|| SgfError::Malformed("no game tree".to_string()))
}

/// Read an SGF text: the first game of the collection, its main line.
pub fn read_game(text: &str) -> Result<SgfGame, SgfError> {
    if count_nodes(text, MAX_NODES) > MAX_NODES {
        return Err(SgfError::TooManyNodes(MAX_NODES));
    }
    let owned = text.to_string();
    let parsed = std::thread::Builder::new()
        .name("sgf-parse".to_string())
        .stack_size(PARSE_STACK)
        .spawn(move || parse_main_line(&owned))
        .map_err(|e| SgfError::Malformed(format!("cannot start the parser: {e}")))?
        .join()
        .map_err(|_| SgfError::Malformed("the SGF parser failed".to_string()))??;
    match parsed {
        Parsed::NotGo(gm) => Err(SgfError::NotGo(gm)),
        Parsed::Go(line) => build(&line),
    }
}

/// Read a game from the property lists of a line of nodes, root first,
/// as [`read_game`] reads a main line: for a reader that walks an SGF tree
/// itself (`gosolve verify` reads a proof's variations).
pub fn game_from_line(line: &[Vec<Prop>]) -> Result<SgfGame, SgfError> {
    build(line)
}

/// The move of an SGF `B`/`W` value on `geo` (`prop` names it in an error).
pub fn board_move(geo: &Geometry, prop: &str, mv: &SgfMove) -> Result<Move, SgfError> {
    Ok(match mv {
        SgfMove::Pass => Move::Pass,
        SgfMove::Move(pt) if pt.x == 19 && pt.y == 19 && geo.width() <= 19 && geo.height() <= 19 => Move::Pass,
        SgfMove::Move(pt) => Move::Play(board_point(geo, prop, pt)?),
    })
}

fn bad(prop: &str, values: &[String]) -> SgfError {
    SgfError::BadProperty { prop: prop.to_string(), value: show_values(values) }
}

/// Identifiers whose invalid values are errors (the others are ignored).
const CHECKED: [&str; 10] = ["B", "W", "AB", "AW", "AE", "PL", "SZ", "KM", "GM", "RU"];

/// Turn the parsed main line into an [`SgfGame`]. The checks run in a fixed
/// order (size, invalid values, rules, setup, moves, turn order), so a file
/// with several faults always reports the same first one.
fn build(line: &[Vec<Prop>]) -> Result<SgfGame, SgfError> {
    let root: &[Prop] = line.first().map(Vec::as_slice).unwrap_or(&[]);
    let geo = board_size(root)?;
    check_invalid(line)?;
    let geo = geo.ok_or(SgfError::DefaultSize)?;
    let RuleProps { rules, ru, km, rules_note } = read_rules(line)?;
    let result = line.iter().flatten().find_map(|p| match p {
        Prop::RE(t) => Some(t.text.clone()),
        _ => None,
    });
    let (setup, first_player) = read_setup(&geo, root)?;
    let moves = read_moves(&geo, line)?;
    let to_move = first_player.or(moves.first().map(|&(c, _)| c)).unwrap_or(Color::Black);
    check_turns(&geo, to_move, &moves)?;
    Ok(SgfGame { geo, rules, ru, km, rules_note, setup, to_move, moves, result })
}

/// The board of the root's `SZ`, if it has one. A size the solver cannot
/// take is an error here, before any other property is looked at.
fn board_size(root: &[Prop]) -> Result<Option<Geometry>, SgfError> {
    let mut geo = None;
    for p in root {
        if let Prop::SZ((w, h)) = p {
            let value = if w == h { w.to_string() } else { format!("{w}:{h}") };
            geo = Some(Geometry::new(*w as usize, *h as usize).map_err(|reason| SgfError::Size { value, reason })?);
        }
    }
    Ok(geo)
}

/// Fail on the first main-line property of [`CHECKED`] whose value could not
/// be parsed: silently ignoring a bad move, setup or rule would solve another
/// game than the file describes.
fn check_invalid(line: &[Vec<Prop>]) -> Result<(), SgfError> {
    for props in line {
        for p in props {
            if let Prop::Invalid(id, values) = p {
                if CHECKED.contains(&id.as_str()) {
                    if id == "SZ" {
                        return Err(SgfError::Size {
                            value: show_values(values),
                            reason: SizeError::Syntax(show_values(values)),
                        });
                    }
                    if id == "KM" {
                        return Err(SgfError::BadKomi(show_values(values)));
                    }
                    return Err(bad(id, values));
                }
            }
        }
    }
    Ok(())
}

/// The rules a game's `RU` and `KM` give, with what the caller reports about
/// where they came from.
struct RuleProps {
    rules: Rules,
    ru: Option<String>,
    km: bool,
    rules_note: Option<String>,
}

/// Rules: `RU` and `KM` from the first main-line node that has them (some
/// programs write them after the root); NSTT and komi 0 when absent.
fn read_rules(line: &[Vec<Prop>]) -> Result<RuleProps, SgfError> {
    let mut rules = Rules::default();
    let mut ru = None;
    let mut rules_note = None;
    if let Some(text) = line.iter().flatten().find_map(|p| match p {
        Prop::RU(t) => Some(t.text.clone()),
        _ => None,
    }) {
        let (suicide, superko, note) = rules_from_ru(&text);
        rules.suicide = suicide;
        rules.superko = superko;
        rules_note = note;
        ru = Some(text);
    }
    let km_prop = line.iter().flatten().find_map(|p| match p {
        Prop::KM(k) => Some(*k),
        _ => None,
    });
    let km = km_prop.is_some();
    if let Some(k) = km_prop {
        rules.komi = Komi::from_f64(k).ok_or_else(|| SgfError::BadKomi(show(&k.to_string())))?;
    }
    Ok(RuleProps { rules, ru, km, rules_note })
}

/// The board point of an SGF point (SGF counts rows from the top, the board
/// from the bottom); a point off the board is an error naming `prop`.
fn board_point(geo: &Geometry, prop: &str, pt: &SgfPoint) -> Result<u8, SgfError> {
    let (x, y) = (pt.x as usize, pt.y as usize);
    if x >= geo.width() || y >= geo.height() {
        return Err(SgfError::OffBoard { prop: prop.to_string(), value: sgf_point_name(x, y), board: geo.name() });
    }
    Ok(geo.point(x, geo.height() - 1 - y))
}

/// The root setup (`AB`/`AW`/`AE`) and `PL`. Points are taken in board
/// order so that the first conflict reported does not depend on how the file
/// listed them; a point set twice is an error.
fn read_setup(geo: &Geometry, root: &[Prop]) -> Result<(Position, Option<Color>), SgfError> {
    let mut setup = Position::EMPTY;
    let mut seen: HashSet<u8> = HashSet::new();
    let mut first_player = None;
    for p in root {
        let (prop, points, color) = match p {
            Prop::AB(s) => ("AB", s, Some(Color::Black)),
            Prop::AW(s) => ("AW", s, Some(Color::White)),
            Prop::AE(s) => ("AE", s, None),
            Prop::PL(c) => {
                first_player = Some(match c {
                    sgf_parse::Color::Black => Color::Black,
                    sgf_parse::Color::White => Color::White,
                });
                continue;
            }
            _ => continue,
        };
        let mut sorted: Vec<&SgfPoint> = points.iter().collect();
        sorted.sort_by_key(|pt| (pt.y, pt.x));
        for pt in sorted {
            let q = board_point(geo, prop, pt)?;
            if !seen.insert(q) {
                return Err(SgfError::SetupConflict(geo.point_name(q)));
            }
            setup.set(q, color);
        }
    }
    Ok((setup, first_player))
}

/// The moves along the main line, at most one a node. Setup after the root
/// is refused: the solver's game has no way to express it.
fn read_moves(geo: &Geometry, line: &[Vec<Prop>]) -> Result<Vec<(Color, Move)>, SgfError> {
    let mut moves = Vec::new();
    for (i, props) in line.iter().enumerate() {
        let mut in_node = 0;
        for p in props {
            let (prop, color, mv) = match p {
                Prop::B(m) => ("B", Color::Black, m),
                Prop::W(m) => ("W", Color::White, m),
                Prop::AB(_) | Prop::AW(_) | Prop::AE(_) | Prop::PL(_) if i > 0 => {
                    return Err(SgfError::LateSetup { node: i + 1, prop: p.identifier() });
                }
                _ => continue,
            };
            in_node += 1;
            if in_node > 1 {
                return Err(SgfError::MultipleMoves { node: i + 1 });
            }
            let mv = match mv {
                SgfMove::Pass => Move::Pass,
                SgfMove::Move(pt) if pt.x == 19 && pt.y == 19 && geo.width() <= 19 && geo.height() <= 19 => Move::Pass,
                SgfMove::Move(pt) => Move::Play(board_point(geo, prop, pt)?),
            };
            moves.push((color, mv));
        }
    }
    Ok(moves)
}

/// Moves must alternate starting with `to_move`: the replay plays them in
/// order, so a move out of turn would be attributed to the wrong colour.
fn check_turns(geo: &Geometry, to_move: Color, moves: &[(Color, Move)]) -> Result<(), SgfError> {
    let mut expected = to_move;
    for (i, &(color, mv)) in moves.iter().enumerate() {
        if color != expected {
            return Err(SgfError::OutOfTurn {
                number: i + 1,
                color: color.name(),
                mv: mv.name(geo),
                expected: expected.name(),
                letter: expected.letter(),
            });
        }
        expected = expected.opponent();
    }
    Ok(())
}

/// Read an `RU` value: (suicide allowed, superko flavour, remark for the user).
/// See the module documentation for the table.
pub fn rules_from_ru(text: &str) -> (bool, Superko, Option<String>) {
    let mut t = text.trim().to_ascii_lowercase();
    let mut explicit = None;
    for (suffix, flavour) in [("situational", Superko::Situational), ("positional", Superko::Positional)] {
        if let Some(rest) = t.strip_suffix(suffix) {
            explicit = Some(flavour);
            t = rest.trim_end_matches(['-', '_', ' ', ',', '/']).to_string();
            break;
        }
    }
    let key: String = t.chars().filter(|c| c.is_ascii_alphanumeric()).collect();
    let shown = show(text.trim());
    let (suicide, superko, note) = match key.as_str() {
        "tt" | "tromptaylor" => (true, Superko::Positional, None),
        "nstt" => (false, Superko::Positional, None),
        "nz" | "newzealand" => (
            true,
            Superko::Situational,
            Some(format!("RU[{shown}] read as Tromp-Taylor with suicide and situational superko")),
        ),
        "aga" => (
            false,
            Superko::Situational,
            Some(format!("RU[{shown}] read as Tromp-Taylor without suicide, situational superko")),
        ),
        "chinese" | "cn" | "japanese" | "jp" | "korean" | "ko" => (
            false,
            Superko::Positional,
            Some(format!(
                "RU[{shown}] is not Tromp-Taylor; read as NSTT (no suicide, positional superko, area scoring)"
            )),
        ),
        _ => (
            false,
            Superko::Positional,
            Some(format!("RU[{shown}] is not recognised; read as NSTT (no suicide, positional superko)")),
        ),
    };
    (suicide, explicit.unwrap_or(superko), note)
}

/// The `RU` value written for `rules`.
pub fn ru_name(rules: &Rules) -> String {
    let base = if rules.suicide { "TT" } else { "NSTT" };
    match rules.superko {
        Superko::Positional => base.to_string(),
        Superko::Situational => format!("{base}-situational"),
    }
}

/// SGF letter for a coordinate (0 → `a`, 26 → `A`).
fn sgf_letter(i: usize) -> char {
    if i < 26 {
        (b'a' + i as u8) as char
    } else {
        (b'A' + (i - 26) as u8) as char
    }
}

fn sgf_point_name(x: usize, y: usize) -> String {
    let l = |i: usize| if i < 52 { sgf_letter(i).to_string() } else { "?".to_string() };
    format!("{}{}", l(x), l(y))
}

/// SGF name of our point `p` (row counted from the top).
pub fn sgf_point(geo: &Geometry, p: u8) -> String {
    let (x, y) = geo.xy(p);
    format!("{}{}", sgf_letter(x), sgf_letter(geo.height() - 1 - y))
}

/// `RE` text for a value from Black's side: `B+3`, `W+4.5`, `0`.
pub fn result_text(value: f64) -> String {
    if value > 0.0 {
        format!("B+{}", fmt_value(value))
    } else if value < 0.0 {
        format!("W+{}", fmt_value(-value))
    } else {
        "0".to_string()
    }
}

/// Write a game as SGF FF\[4\]: size, rules, komi, the setup (when the game did
/// not start from the empty board with Black to move), the moves (`B[]` for a
/// pass) and `RE` when `result` (Black's value, komi included) is given.
pub fn write_game(game: &Game, result: Option<f64>) -> String {
    let geo = &game.geo;
    let first = game.history.line().first().map(|&(_, c)| c).unwrap_or(game.to_move);
    let mut s = String::from("(;FF[4]GM[1]CA[UTF-8]");
    s.push_str(&format!("AP[gosolve:{}]", env!("CARGO_PKG_VERSION")));
    if geo.width() == geo.height() {
        s.push_str(&format!("SZ[{}]", geo.width()));
    } else {
        s.push_str(&format!("SZ[{}:{}]", geo.width(), geo.height()));
    }
    s.push_str(&format!("RU[{}]KM[{}]", ru_name(&game.rules), game.rules.komi));
    if let Some(v) = result {
        s.push_str(&format!("RE[{}]", result_text(v)));
    }
    let list = |bits: u64| -> String {
        let mut pts: Vec<(usize, usize, u8)> = Geometry::iter(bits)
            .map(|p| {
                let (x, y) = geo.xy(p);
                (geo.height() - 1 - y, x, p)
            })
            .collect();
        pts.sort();
        pts.iter().map(|&(_, _, p)| format!("[{}]", sgf_point(geo, p))).collect()
    };
    if game.start.black != 0 {
        s.push_str(&format!("\nAB{}", list(game.start.black)));
    }
    if game.start.white != 0 {
        s.push_str(&format!("\nAW{}", list(game.start.white)));
    }
    if game.start != Position::EMPTY || first != Color::Black {
        s.push_str(&format!("PL[{}]", first.letter()));
    }
    for (i, &(color, mv)) in game.moves.iter().enumerate() {
        if i % 10 == 0 {
            s.push('\n');
        }
        let at = match mv {
            Move::Pass => String::new(),
            Move::Play(p) => sgf_point(geo, p),
        };
        s.push_str(&format!(";{}[{}]", color.letter(), at));
    }
    s.push_str(")\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(g: &SgfGame) -> Vec<String> {
        g.moves.iter().map(|&(_, m)| m.name(&g.geo)).collect()
    }

    #[test]
    fn coordinates_count_rows_from_the_top() {
        let g = read_game("(;GM[1]SZ[3:2];B[aa];W[ab];B[cb];W[ca])").unwrap();
        assert_eq!(g.geo.name(), "3x2");
        assert_eq!(names(&g), ["a2", "a1", "c1", "c2"]);
        let p = g.to_game(None).unwrap();
        assert_eq!(crate::format::diagram::compact(&g.geo, &p.position), "X.O/O.X");
    }

    #[test]
    fn passes_and_tt() {
        let g = read_game("(;SZ[2];B[];W[tt];B[aa])").unwrap();
        assert_eq!(names(&g), ["pass", "pass", "a2"]);
        // 20 wide: tt is a point (off this board), not a pass.
        let e = read_game("(;SZ[20:3];B[tt])").unwrap_err();
        assert!(matches!(e, SgfError::OffBoard { .. }), "{e}");
    }

    #[test]
    fn sizes() {
        assert_eq!(read_game("(;SZ[8])").unwrap().geo.name(), "8x8");
        assert_eq!(read_game("(;SZ[1:9])").unwrap().geo.name(), "1x9");
        let e = read_game("(;GM[1]FF[4];B[aa])").unwrap_err();
        assert_eq!(e, SgfError::DefaultSize);
        assert!(e.to_string().contains("64 points"));
        let e = read_game("(;SZ[9])").unwrap_err();
        assert!(e.to_string().contains("at most 64"), "{e}");
        assert!(matches!(read_game("(;SZ[0])"), Err(SgfError::Size { .. })));
        assert!(matches!(read_game("(;SZ[x])"), Err(SgfError::Size { .. })));
        assert!(matches!(read_game("(;SZ[300])"), Err(SgfError::Size { .. })));
    }

    #[test]
    fn rules_mapping() {
        let r = |ru: &str| read_game(&format!("(;SZ[3]RU[{ru}])")).unwrap().rules;
        assert!(r("TT").suicide);
        assert!(r("Tromp-Taylor").suicide);
        assert!(!r("NSTT").suicide);
        assert!(!r("Chinese").suicide);
        assert!(!r("whatever").suicide);
        assert_eq!(r("TT").superko, Superko::Positional);
        assert_eq!(r("NZ").superko, Superko::Situational);
        assert!(r("NZ").suicide);
        assert_eq!(r("NSTT-situational").superko, Superko::Situational);
        assert_eq!(r("TT situational").superko, Superko::Situational);
        assert_eq!(read_game("(;SZ[3])").unwrap().rules, Rules::default());
        assert!(read_game("(;SZ[3]RU[Japanese])").unwrap().rules_note.is_some());
        assert!(read_game("(;SZ[3]RU[TT])").unwrap().rules_note.is_none());
    }

    #[test]
    fn komi() {
        assert_eq!(read_game("(;SZ[3]KM[6.5])").unwrap().rules.komi, Komi(13));
        assert_eq!(read_game("(;SZ[3]KM[-2])").unwrap().rules.komi, Komi(-4));
        assert!(matches!(read_game("(;SZ[3]KM[0.3])"), Err(SgfError::BadKomi(_))));
        assert!(matches!(read_game("(;SZ[3]KM[abc])"), Err(SgfError::BadKomi(_))));
        assert!(matches!(read_game("(;SZ[3]KM[inf])"), Err(SgfError::BadKomi(_))));
    }

    #[test]
    fn setup_and_player() {
        let g = read_game("(;SZ[3:2]AW[aa]AB[ba][bb]PL[W])").unwrap();
        assert_eq!(crate::format::diagram::compact(&g.geo, &g.setup), "OX./.X.");
        assert_eq!(g.to_move, Color::White);
        // Compressed list.
        let g = read_game("(;SZ[3:2]AB[aa:bb])").unwrap();
        assert_eq!(crate::format::diagram::compact(&g.geo, &g.setup), "XX./XX.");
        // First player from the first move.
        assert_eq!(read_game("(;SZ[3];W[aa])").unwrap().to_move, Color::White);
        assert!(matches!(read_game("(;SZ[3]AB[aa]AW[aa])"), Err(SgfError::SetupConflict(_))));
        assert!(matches!(read_game("(;SZ[3];B[aa];AB[bb])"), Err(SgfError::LateSetup { .. })));
        assert!(matches!(read_game("(;SZ[3]AB[dd])"), Err(SgfError::OffBoard { .. })));
        let e = read_game("(;SZ[2]AB[aa][ab][ba][bb])").unwrap().to_game(None).unwrap_err();
        assert_eq!(e, SgfError::Game(GameError::IllegalSetup));
    }

    #[test]
    fn moves_errors() {
        assert!(matches!(read_game("(;SZ[3];B[aa];B[bb])"), Err(SgfError::OutOfTurn { number: 2, .. })));
        assert!(matches!(read_game("(;SZ[3];B[aa]W[bb])"), Err(SgfError::MultipleMoves { node: 2 })));
        assert!(matches!(read_game("(;SZ[3];B[zz])"), Err(SgfError::OffBoard { .. })));
        assert!(matches!(read_game("(;SZ[3];B[a])"), Err(SgfError::BadProperty { .. })));
        assert!(matches!(read_game("(;GM[2]SZ[3])"), Err(SgfError::NotGo(_))));
        assert!(matches!(read_game("(;SZ[3];B[aa]"), Err(SgfError::Malformed(_))));
        assert!(matches!(read_game(""), Err(SgfError::Malformed(_))));
        let e = read_game("(;SZ[3];B[aa];W[aa])").unwrap().to_game(None).unwrap_err();
        assert_eq!(e.to_string(), "move 2 (white a3): point is occupied");
    }

    #[test]
    fn main_line_only() {
        let g = read_game("(;SZ[3](;B[aa](;W[bb])(;W[cc]))(;B[cc]))").unwrap();
        assert_eq!(names(&g), ["a3", "b2"]);
    }

    #[test]
    fn superko_document_game() {
        let text = "(;GM[1]SZ[2];B[aa];W[ba];B[ab];W[bb];B[aa];W[ab];B[];W[])";
        let g = read_game(text).unwrap();
        let game = g.to_game(None).unwrap();
        assert!(game.is_over());
        assert_eq!(game.score(), -4);
        let e =
            read_game("(;GM[1]SZ[2];B[aa];W[ba];B[ab];W[bb];B[aa];W[ab];B[aa])").unwrap().to_game(None).unwrap_err();
        assert_eq!(e.to_string(), "move 7 (black a2): the move recreates an earlier position (superko)");
    }

    #[test]
    fn round_trip() {
        let geo = Geometry::new(3, 2).unwrap();
        let start = crate::format::diagram::parse(&geo, "OX./.X.").unwrap();
        let rules = Rules { suicide: true, superko: Superko::Situational, komi: Komi(5) };
        let mut game = Game::new(geo, rules, start, Color::White).unwrap();
        for m in ["a1", "c1", "pass", "c2"] {
            game.play(Move::parse(m, &geo).unwrap()).unwrap();
        }
        let text = write_game(&game, Some(game.score() as f64 - rules.komi.as_f64()));
        let back = read_game(&text).unwrap();
        assert_eq!(back.rules, rules);
        assert_eq!(back.setup, start);
        assert_eq!(back.to_move, Color::White);
        assert_eq!(back.moves, game.moves);
        let replayed = back.to_game(None).unwrap();
        assert_eq!(replayed.position, game.position);
        assert_eq!(replayed.to_move, game.to_move);
        assert!(text.contains("RU[TT-situational]"), "{text}");
        assert!(text.contains("SZ[3:2]"), "{text}");
        assert!(text.contains(";W[]"), "{text}");

        // Empty start, Black first: no setup written.
        let mut g2 = Game::new(Geometry::new(2, 2).unwrap(), Rules::default(), Position::EMPTY, Color::Black).unwrap();
        for m in ["a2", "pass", "pass"] {
            g2.play(Move::parse(m, &g2.geo).unwrap()).unwrap();
        }
        let text = write_game(&g2, Some(4.0));
        assert!(!text.contains("PL[") && !text.contains("AB["), "{text}");
        assert!(text.contains("RE[B+4]") && text.contains("SZ[2]") && text.contains("RU[NSTT]"), "{text}");
        let back = read_game(&text).unwrap();
        assert_eq!(back.moves, g2.moves);
        assert_eq!(back.result.as_deref(), Some("B+4"));
        assert!(back.to_game(None).unwrap().is_over());
    }

    #[test]
    fn wide_boards_use_upper_case_letters() {
        let geo = Geometry::new(32, 2).unwrap();
        let mut game = Game::new(geo, Rules::default(), Position::EMPTY, Color::Black).unwrap();
        let p = geo.point(30, 1);
        game.play(Move::Play(p)).unwrap();
        let text = write_game(&game, None);
        assert!(text.contains(";B[Ea]"), "{text}");
        assert_eq!(read_game(&text).unwrap().moves, game.moves);
    }

    #[test]
    fn deep_and_hostile_inputs_do_not_panic() {
        let deep = format!("(;SZ[2]{})", ";".repeat(150_000));
        assert!(read_game(&deep).is_ok());
        let unclosed = format!("(;SZ[2]{}", ";".repeat(150_000));
        assert!(matches!(read_game(&unclosed), Err(SgfError::Malformed(_))));
        let too_many = ";".repeat(MAX_NODES + 1);
        assert!(matches!(read_game(&too_many), Err(SgfError::TooManyNodes(_))));
        let deep_error = format!("(;SZ[2]{}(()))", ";".repeat(150_000));
        assert!(matches!(read_game(&deep_error), Err(SgfError::Malformed(_))));
        let nested = format!("{}{}", "(;".repeat(50_000), ")".repeat(50_000));
        let _ = read_game(&nested);
        for t in
            ["(", ")", "(;", "(;B[", "(;B[aa]\\", "(;ü[aa])", "(;SZ[2];B[é])", "(;SZ[2]\u{0}[a])", "((;))", "(;)(;)"]
        {
            let _ = read_game(t);
        }
        let e = read_game("(;SZ[2];B[a\nb])").unwrap_err();
        assert!(!e.to_string().contains('\n'), "{e}");
    }

    #[test]
    fn mutated_inputs_do_not_panic() {
        let base = "(;GM[1]FF[4]SZ[3:2]RU[TT]KM[0.5]AB[ba][bb]AW[aa]PL[W];W[ab];B[];W[ca](;B[cb])(;B[]))";
        let bytes = base.as_bytes();
        let mut seed = 12345u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let alphabet = b"()[];:\\abtABWKMSZ019.-";
        for _ in 0..3000 {
            let mut v = bytes.to_vec();
            for _ in 0..(1 + next() % 4) {
                let i = (next() as usize) % v.len();
                match next() % 3 {
                    0 => {
                        v.remove(i);
                    }
                    1 => v.insert(i, alphabet[(next() as usize) % alphabet.len()]),
                    _ => v[i] = alphabet[(next() as usize) % alphabet.len()],
                }
                if v.is_empty() {
                    break;
                }
            }
            if let Ok(t) = String::from_utf8(v) {
                if let Ok(g) = read_game(&t) {
                    let _ = g.to_game(None).map(|game| write_game(&game, None));
                }
            }
        }
    }
}
