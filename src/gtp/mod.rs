//! A GTP version 2 engine that plays and shows perfect play.
//!
//! The engine's state is a [`Game`] with its whole history, so positional
//! (or situational) superko is part of what every command sees: `genmove`
//! solves from the game's real history, and `play` refuses a repeat exactly
//! as the solver would.
//!
//! # Protocol
//!
//! Lines are preprocessed as GTP 2 says (control characters dropped, tabs to
//! spaces, `#` comments removed, empty lines ignored); a command may carry a
//! numeric id, echoed in the response (`=12 …`, `?12 …`). Every response ends
//! with an empty line. Errors are `? unknown command`, `? syntax error`,
//! `? illegal move` and a few others named by the GTP spec (`? unacceptable
//! size`, `? cannot undo`); no input line ends the engine except `quit` and
//! the end of input.
//!
//! # Choices GTP leaves open
//!
//! - **Start.** The engine starts on an empty 3x3 board (GUIs send
//!   `boardsize` first); `boardsize N` is N×N, at most 8×8 (64 points).
//! - **Turns.** Tromp-Taylor turns alternate, while GTP allows two moves of
//!   one colour in a row: `play`/`genmove` for the player not to move first
//!   records a pass for the player to move (so the history stays a real game)
//!   and `undo` takes both back.
//! - **End of game.** Two consecutive passes end the game (rule 8): `play`
//!   of a stone is then an illegal move, `genmove` answers `pass` without
//!   recording it, and `undo` reopens the game.
//! - **Scoring.** `final_score` is the Tromp-Taylor area score of the board
//!   as it stands, with komi; no stone is ever removed as dead, so
//!   `final_status_list alive` lists every stone and `dead`/`seki` nothing.
//! - **Rules.** `kata-set-rules NAME` (alias `gosolve-set-rules`) accepts
//!   `tromp-taylor` (`tt`: suicide allowed, positional superko), `nstt` (no
//!   suicide, positional superko), `nz` / `new-zealand` (suicide, situational
//!   superko) and `aga` (no suicide, situational superko), and
//!   `tt-situational`, `nstt-situational`, `tt-positional`, …; komi is
//!   unchanged. Other rule sets (simple ko, territory scoring) are refused:
//!   the solver would answer a different game.
//! - **loadsgf** replays the file's main line (up to but not including
//!   `move_number` when given) under the engine's current rules and komi
//!   (the command line and `kata-set-rules` decide the rules, not the file).
//!
//! # Exactness
//!
//! `genmove` plays a move of the exact best value whenever the solve
//! finishes within the time budget, and the move that keeps the game
//! shortest among those it tries first (the solver's principal variation
//! takes a pass first whenever a pass keeps the value). When it does not
//! finish, it plays the move the search's table rates best at the root
//! (the move of the last null-window test it finished, usually the one that
//! proved its lower bound; see [`crate::search::solve_value_or_hint`]), else the solved
//! table's move for the position without history, else a legal move by
//! ordering, and says on stderr which bounds it proved. The solved table (`--table`) answers only where its value is
//! exact: a position whose history is the position alone, no pass pending.

pub mod analysis;
pub mod coords;
pub mod referee;
pub mod serve;

use crate::format::{diagram, sgf};
use crate::rules::geometry::Geometry;
use crate::rules::history::Game;
use crate::rules::position::{fmt_value, value_with_komi, Color, Komi, Move, Position, Rules, Superko};
use crate::search::{solve, BoundsLog, Memory, SolveOptions};
use crate::tables::TableFile;
use coords::{parse_vertex, vertex, VertexError, MAX_GTP_WIDTH};
use std::sync::Arc;
use std::time::Duration;

pub use serve::serve;

/// Every command the engine knows, as `list_commands` prints them.
pub const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "rectangular_boardsize",
    "clear_board",
    "komi",
    "kata-set-rules",
    "kata-get-rules",
    "gosolve-set-rules",
    "play",
    "genmove",
    "reg_genmove",
    "undo",
    "showboard",
    "final_score",
    "final_status_list",
    "loadsgf",
    "printsgf",
    "time_settings",
    "time_left",
    "lz-analyze",
    "kata-analyze",
    "gogui-analyze_commands",
    "gosolve-values",
];

/// One command line after preprocessing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Command {
    pub id: Option<u64>,
    pub name: String,
    pub args: Vec<String>,
}

/// Preprocess one input line and split it; `None` for a line with nothing
/// to execute (empty or a comment).
pub fn parse_line(line: &str) -> Option<Command> {
    let cleaned: String = line
        .chars()
        .take_while(|&c| c != '#')
        .filter_map(|c| match c {
            '\t' => Some(' '),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect();
    let mut words = cleaned.split_whitespace();
    let first = words.next()?;
    let (id, name) = match first.parse::<u64>() {
        Ok(id) => (Some(id), words.next().unwrap_or("").to_string()),
        Err(_) => (None, first.to_string()),
    };
    Some(Command { id, name, args: words.map(str::to_string).collect() })
}

/// A response: success (`=`) or failure (`?`) with its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Response {
    pub ok: bool,
    pub text: String,
}

impl Response {
    pub fn ok(text: impl Into<String>) -> Response {
        Response { ok: true, text: text.into() }
    }
    pub fn err(text: impl Into<String>) -> Response {
        Response { ok: false, text: text.into() }
    }
    /// The response as sent: `=id text`, then an empty line. A text that
    /// starts with a newline (a board) starts below the `=`; other empty
    /// lines are dropped (they would end the response early).
    pub fn render(&self, id: Option<u64>) -> String {
        let mark = if self.ok { '=' } else { '?' };
        let id = id.map(|i| i.to_string()).unwrap_or_default();
        let mut lines = self.text.lines();
        let first = lines.next().unwrap_or("");
        let mut out = format!("{mark}{id} {first}");
        for l in lines.filter(|l| !l.trim().is_empty()) {
            out.push('\n');
            out.push_str(l);
        }
        out.push_str("\n\n");
        out
    }
}

/// What the loop does after a command.
#[derive(Debug)]
pub enum Action {
    Reply(Response),
    /// Reply, then stop.
    Quit(Response),
    /// Reply (an error), then stop: the session cannot go on
    /// ([`Engine::failure`] says why).
    Fail(Response),
    /// Start streaming analysis (`lz-analyze`, `kata-analyze`).
    Analyze(analysis::Request),
}

/// Engine settings from the command line.
#[derive(Clone)]
pub struct Config {
    pub rules: Rules,
    /// Time for one `genmove` (`None`: solve to the end).
    pub time_per_move: Option<Duration>,
    /// Transposition table size in MiB.
    pub table_mb: usize,
    /// Search threads (0 = all cores).
    pub threads: usize,
    /// A solved table to answer from where its values are exact.
    pub table: Option<Arc<TableFile>>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            rules: Rules::default(),
            time_per_move: Some(Duration::from_secs(10)),
            table_mb: 256,
            threads: 0,
            table: None,
        }
    }
}

/// `time_settings` and `time_left`, in seconds.
#[derive(Clone, Copy, Debug, Default)]
struct Clock {
    /// (main time, byo-yomi time, byo-yomi stones) from `time_settings`.
    settings: Option<(f64, f64, u32)>,
    /// (time left, stones left) per colour, Black first, from `time_left`.
    left: [Option<(f64, u32)>; 2],
}

impl Clock {
    /// The time one move may take, from the clock alone (`None`: no limit).
    fn budget(&self, color: Color) -> Option<Duration> {
        let settings = self.settings?;
        if settings.1 > 0.0 && settings.2 == 0 {
            return None; // GTP: byo-yomi time with zero stones means no time limit
        }
        let (t, stones) = self.left[(color == Color::White) as usize].unwrap_or((settings.0, 0));
        let per = if stones > 0 {
            t / stones as f64
        } else if t > 0.0 {
            t / 10.0 + if settings.2 > 0 { settings.1 / settings.2 as f64 } else { 0.0 }
        } else if settings.2 > 0 {
            settings.1 / settings.2 as f64
        } else {
            0.0
        };
        // Keep a margin for the reply and the process's overhead.
        Some(Duration::from_secs_f64((per * 0.8 - 0.05).max(0.05)))
    }
}

/// The engine: a game with its whole history and the settings.
pub struct Engine {
    pub config: Config,
    game: Game,
    /// `game.moves.len()` before each `play`/`genmove`, for `undo`.
    marks: Vec<usize>,
    clock: Clock,
    /// Lines for stderr (what genmove knew, rules remarks), taken by the loop.
    notes: Vec<String>,
    /// What the searches of this session proved (table and df-pn guide),
    /// kept from one command to the next while the board and the rules of
    /// play stay the same: consecutive positions of a game share most of
    /// their proofs (see [`crate::search::memory`] for why a result proved
    /// under one history is reused only where it holds under another).
    memory: std::sync::Mutex<Option<Memory>>,
    /// Where `memory` came from, when it was read from a file.
    held: std::sync::Mutex<Held>,
}

/// A search memory being read on a thread of its own (`gtp --checkpoint`):
/// the memory and the line that reports the read, or why the read failed
/// (one line).
pub type MemoryRead = std::thread::JoinHandle<Result<(Memory, String), String>>;

/// Where the held memory was read from, and the read while it goes on.
#[derive(Default)]
struct Held {
    /// The file the held memory was read from, until a game on another
    /// board or rules of play replaces it.
    origin: Option<String>,
    /// Lines for the notes: the read's report, the replacement.
    notes: Vec<String>,
    /// The read, until a command waits for it or sees it done.
    reading: Option<MemoryRead>,
    /// Why the read failed: the session ends with it.
    failure: Option<String>,
}

/// Why the rules name was refused.
fn rules_help() -> &'static str {
    "unknown rules (accepted: tromp-taylor, tt, nstt, nz, new-zealand, aga, with -positional or -situational)"
}

/// Suicide and superko for a rules name (see the module documentation).
pub fn rules_by_name(name: &str) -> Option<(bool, Superko)> {
    let t = name.trim().to_ascii_lowercase().replace('_', "-");
    let (base, flavour) = if let Some(b) = t.strip_suffix("-situational") {
        (b, Some(Superko::Situational))
    } else if let Some(b) = t.strip_suffix("-positional") {
        (b, Some(Superko::Positional))
    } else {
        (t.as_str(), None)
    };
    let (suicide, superko) = match base {
        "tt" | "tromp-taylor" | "tromptaylor" => (true, Superko::Positional),
        "nstt" => (false, Superko::Positional),
        "nz" | "new-zealand" | "newzealand" => (true, Superko::Situational),
        "aga" => (false, Superko::Situational),
        _ => return None,
    };
    Some((suicide, flavour.unwrap_or(superko)))
}

/// The name `kata-get-rules` answers with.
pub fn rules_name(rules: &Rules) -> String {
    let base = if rules.suicide { "tromp-taylor" } else { "nstt" };
    match rules.superko {
        Superko::Positional => base.to_string(),
        Superko::Situational => format!("{base}-situational"),
    }
}

/// Replay `moves` from `start` (with `first` to move) under `rules`.
fn replay(geo: Geometry, rules: Rules, start: Position, first: Color, moves: &[(Color, Move)]) -> Result<Game, String> {
    let mut g = Game::new(geo, rules, start, first).map_err(|e| e.to_string())?;
    for &(_, mv) in moves {
        g.play(mv).map_err(|e| e.to_string())?;
    }
    Ok(g)
}

fn parse_color(s: &str) -> Option<Color> {
    match s.to_ascii_lowercase().as_str() {
        "b" | "black" => Some(Color::Black),
        "w" | "white" => Some(Color::White),
        _ => None,
    }
}

/// A legal move chosen without search, for a position the solver could not
/// finish: the move with the best immediate area for the mover (captures
/// first), the point nearest the centre among equals (on an open board every
/// first stone owns the whole board, and the corner is the worst of them),
/// never filling its own one-point eye; a pass when nothing else is left or
/// when the opponent just passed and the score now already wins.
pub fn ordering_move(game: &Game) -> Move {
    let geo = &game.geo;
    let me = game.to_move;
    let sign = if me == Color::Black { 1 } else { -1 };
    let now = value_with_komi(game.score(), game.rules.komi) * sign as f64;
    if game.passes == 1 && now > 0.0 {
        return Move::Pass;
    }
    let own = game.position.stones(me);
    let off_centre = |p: u8| {
        let (x, y) = geo.xy(p);
        (2 * x as i32 - (geo.width() as i32 - 1)).abs() + (2 * y as i32 - (geo.height() as i32 - 1)).abs()
    };
    let mut best: Option<((i32, i32), Move)> = None;
    for mv in game.legal_moves() {
        let Move::Play(p) = mv else { continue };
        let n = geo.neighbours(1 << p);
        if n & !own == 0 {
            continue; // own eye
        }
        let Ok(next) = game.try_move(mv) else { continue };
        let gain = (next.score(geo) * sign, -off_centre(p));
        if best.is_none_or(|(g, _)| gain > g) {
            best = Some((gain, mv));
        }
    }
    best.map_or(Move::Pass, |(_, m)| m)
}

impl Engine {
    pub fn new(config: Config) -> Engine {
        let geo = Geometry::new(3, 3).expect("3x3 is a board");
        let game = Game::new(geo, config.rules, Position::EMPTY, Color::Black).expect("the empty board is legal");
        Engine {
            config,
            game,
            marks: Vec::new(),
            clock: Clock::default(),
            notes: Vec::new(),
            memory: std::sync::Mutex::new(None),
            held: std::sync::Mutex::new(Held::default()),
        }
    }

    /// Start from the memory `read` gives (a solve's checkpoint, `gtp
    /// --checkpoint`): the searches on its board and rules of play read what
    /// it proved, e.g. the empty 5x5 board's proof, where genmove then
    /// answers from the table. It is held like the memory the session's own
    /// searches build, and like it is replaced (and freed) by the first
    /// search on another board or rules of play, with a note naming
    /// `origin`.
    ///
    /// The read goes on while the engine answers: a GUI expects the first
    /// commands answered at once, and the 5x5 proof's 12.5 GB take about
    /// 40 s. The first command that searches waits for it; a read that
    /// fails ends the session at the next command ([`Action::Fail`]).
    pub fn hold_memory_when_read(&mut self, read: MemoryRead, origin: impl Into<String>) {
        let mut held = self.lock_held();
        held.origin = Some(origin.into());
        held.reading = Some(read);
    }

    fn lock_held(&self) -> std::sync::MutexGuard<'_, Held> {
        self.held.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Wait for the memory being read, if any, and hold it: the error says
    /// why the read failed (now or before).
    fn settle_read(&self) -> Result<(), String> {
        // Not under the lock: the read may take a while.
        let reading = self.lock_held().reading.take();
        if let Some(read) = reading {
            let result = read.join().unwrap_or_else(|_| Err("the checkpoint read stopped unexpectedly".to_string()));
            match result {
                Ok((memory, line)) => {
                    *self.memory.lock().unwrap_or_else(|e| e.into_inner()) = Some(memory);
                    self.lock_held().notes.push(line);
                }
                Err(e) => {
                    let mut held = self.lock_held();
                    held.origin = None;
                    held.failure = Some(e);
                }
            }
        }
        self.lock_held().failure.clone().map_or(Ok(()), Err)
    }

    /// [`Engine::settle_read`] for a command that does not search: it waits
    /// only for a read already done, so that a failed read is reported at
    /// once.
    fn settle_read_if_done(&self) -> Result<(), String> {
        let done = self.lock_held().reading.as_ref().is_none_or(|r| r.is_finished());
        if done {
            self.settle_read()
        } else {
            Ok(())
        }
    }

    /// Why the session had to end ([`Action::Fail`]): a checkpoint that
    /// could not be read.
    pub fn failure(&self) -> Option<String> {
        self.lock_held().failure.clone()
    }

    /// The game as it stands.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Lines for stderr since the last call.
    pub fn take_notes(&mut self) -> Vec<String> {
        // The read's report and the replacement came before what the
        // command itself found.
        let mut notes = std::mem::take(&mut self.lock_held().notes);
        notes.append(&mut self.notes);
        notes
    }

    fn note(&mut self, s: impl Into<String>) {
        self.notes.push(s.into());
    }

    /// A fresh empty board of `geo` under the current rules.
    fn reset(&mut self, geo: Geometry) {
        self.game = Game::new(geo, self.game.rules, Position::EMPTY, Color::Black).expect("the empty board is legal");
        self.marks.clear();
    }

    /// Rebuild the game under `rules` (same moves); refuses when a move of
    /// the game is illegal under them.
    fn set_rules(&mut self, rules: Rules) -> Result<(), String> {
        let g = &self.game;
        let first = g.history.line()[0].1;
        self.game = replay(g.geo, rules, g.start, first, &g.moves)?;
        self.config.rules = rules;
        Ok(())
    }

    /// Make `color` the player to move: a pass by the other player when it is
    /// not (GTP allows two moves of one colour in a row; Tromp-Taylor does not).
    fn bring_to_move(game: &mut Game, color: Color) -> Result<(), ()> {
        if game.to_move != color {
            game.play(Move::Pass).map_err(|_| ())?;
        }
        Ok(())
    }

    /// Execute one command: dispatch by command family (each family method
    /// parses its own arguments, so a syntax error is answered where the
    /// command's arguments are known).
    pub fn execute(&mut self, cmd: &Command) -> Action {
        let args: Vec<&str> = cmd.args.iter().map(String::as_str).collect();
        let name = cmd.name.as_str();
        if name != "quit" {
            let searches = matches!(name, "genmove" | "reg_genmove" | "lz-analyze" | "kata-analyze" | "gosolve-values");
            let ready = if searches { self.settle_read() } else { self.settle_read_if_done() };
            if let Err(e) = ready {
                return Action::Fail(Response::err(format!("cannot go on: {e}")));
            }
        }
        let r = match name {
            "protocol_version" | "name" | "version" | "known_command" | "list_commands" => {
                Self::protocol_command(name, &args)
            }
            "quit" => return Action::Quit(Response::ok("")),
            "boardsize" | "rectangular_boardsize" | "clear_board" | "showboard" | "loadsgf" | "printsgf" => {
                self.board_command(name, &args)
            }
            "komi" | "kata-set-rules" | "gosolve-set-rules" | "kata-get-rules" => self.rules_command(name, &args),
            "play" | "undo" | "genmove" | "reg_genmove" => self.move_command(name, &args),
            "final_score" | "final_status_list" => self.scoring_command(name, &args),
            "time_settings" | "time_left" => self.time_command(name, &args),
            "lz-analyze" | "kata-analyze" => {
                let format = if name == "lz-analyze" { analysis::Format::Lz } else { analysis::Format::Kata };
                match analysis::Request::parse(format, &args, &self.game) {
                    Ok(req) => return Action::Analyze(req),
                    Err(e) => Response::err(e),
                }
            }
            "gogui-analyze_commands" => Response::ok("gfx/Exact move values/gosolve-values"),
            "gosolve-values" => self.values(),
            "" => Response::err("syntax error"),
            _ => Response::err("unknown command"),
        };
        Action::Reply(r)
    }

    /// The protocol's own commands: they describe the engine and need no game.
    fn protocol_command(name: &str, args: &[&str]) -> Response {
        match name {
            "protocol_version" => Response::ok("2"),
            "name" => Response::ok("gosolve"),
            "version" => Response::ok(env!("CARGO_PKG_VERSION")),
            "known_command" => match args {
                [c] => Response::ok(if COMMANDS.contains(c) { "true" } else { "false" }),
                _ => Response::err("syntax error"),
            },
            "list_commands" => Response::ok(COMMANDS.join("\n")),
            _ => Response::err("unknown command"),
        }
    }

    /// Board and setup: size, clearing, showing, and SGF load and save.
    fn board_command(&mut self, name: &str, args: &[&str]) -> Response {
        match name {
            "boardsize" => match args {
                [n] => match n.parse::<usize>() {
                    Ok(n) => self.boardsize(n, n),
                    Err(_) => Response::err("syntax error"),
                },
                _ => Response::err("syntax error"),
            },
            "rectangular_boardsize" => match args {
                [w, h] => match (w.parse::<usize>(), h.parse::<usize>()) {
                    (Ok(w), Ok(h)) => self.boardsize(w, h),
                    _ => Response::err("syntax error"),
                },
                _ => Response::err("syntax error"),
            },
            "clear_board" => {
                self.reset(self.game.geo);
                Response::ok("")
            }
            "showboard" => Response::ok(self.board_text()),
            "loadsgf" => match args {
                [file] => self.loadsgf(file, None),
                [file, n] => match n.parse::<usize>() {
                    Ok(n) if n >= 1 => self.loadsgf(file, Some(n)),
                    _ => Response::err("syntax error"),
                },
                _ => Response::err("syntax error"),
            },
            "printsgf" => self.printsgf(args.first().copied()),
            _ => Response::err("unknown command"),
        }
    }

    /// Rules: komi, and the rule set by name (which replays the game under
    /// the new rules and refuses when a move of it would become illegal).
    fn rules_command(&mut self, name: &str, args: &[&str]) -> Response {
        match name {
            "komi" => match args {
                [k] => match k.parse::<f64>().ok().and_then(Komi::from_f64) {
                    Some(k) => {
                        self.game.rules.komi = k;
                        self.config.rules.komi = k;
                        Response::ok("")
                    }
                    None => Response::err("syntax error (komi must be a multiple of 0.5)"),
                },
                _ => Response::err("syntax error"),
            },
            "kata-set-rules" | "gosolve-set-rules" => match args {
                [rule_set] => match rules_by_name(rule_set) {
                    Some((suicide, superko)) => {
                        let rules = Rules { suicide, superko, komi: self.game.rules.komi };
                        match self.set_rules(rules) {
                            Ok(()) => Response::ok(""),
                            Err(e) => Response::err(format!("the game so far is illegal under these rules: {e}")),
                        }
                    }
                    None => Response::err(rules_help()),
                },
                _ => Response::err("syntax error"),
            },
            "kata-get-rules" => Response::ok(rules_name(&self.game.rules)),
            _ => Response::err("unknown command"),
        }
    }

    /// Moves: play, undo, and generating a move (`reg_genmove` does not play it).
    fn move_command(&mut self, name: &str, args: &[&str]) -> Response {
        match name {
            "play" => match args {
                [c, v] => match (parse_color(c), parse_vertex(&self.game.geo, v)) {
                    (Some(color), Ok(mv)) => self.play(color, mv),
                    (Some(_), Err(VertexError::OffBoard)) => Response::err("illegal move"),
                    _ => Response::err("syntax error"),
                },
                _ => Response::err("syntax error"),
            },
            "undo" => self.undo(),
            "genmove" | "reg_genmove" => match args {
                [c] => match parse_color(c) {
                    Some(color) => self.genmove(color, name == "genmove"),
                    None => Response::err("syntax error"),
                },
                _ => Response::err("syntax error"),
            },
            _ => Response::err("unknown command"),
        }
    }

    /// Scoring: Tromp-Taylor area scoring has no dead stones, so every stone
    /// on the board is alive and none is dead or in seki.
    fn scoring_command(&self, name: &str, args: &[&str]) -> Response {
        match name {
            "final_score" => Response::ok(sgf::result_text(value_with_komi(self.game.score(), self.game.rules.komi))),
            "final_status_list" => match args {
                [s] => match s.to_ascii_lowercase().as_str() {
                    "alive" => {
                        let stones = self.game.position.black | self.game.position.white;
                        let names: Vec<String> =
                            Geometry::iter(stones).map(|p| vertex(&self.game.geo, Move::Play(p))).collect();
                        Response::ok(names.join(" "))
                    }
                    "dead" | "seki" => Response::ok(""),
                    _ => Response::err("syntax error"),
                },
                _ => Response::err("syntax error"),
            },
            _ => Response::err("unknown command"),
        }
    }

    /// Time control: the settings and each side's time left, which genmove
    /// turns into a search time limit.
    fn time_command(&mut self, name: &str, args: &[&str]) -> Response {
        match name {
            "time_settings" => match args {
                [m, b, s] => match (m.parse::<f64>(), b.parse::<f64>(), s.parse::<u32>()) {
                    (Ok(m), Ok(b), Ok(s)) if m >= 0.0 && b >= 0.0 && m.is_finite() && b.is_finite() => {
                        self.clock = Clock { settings: Some((m, b, s)), left: [None, None] };
                        Response::ok("")
                    }
                    _ => Response::err("syntax error"),
                },
                _ => Response::err("syntax error"),
            },
            "time_left" => match args {
                [c, t, s] => match (parse_color(c), t.parse::<f64>(), s.parse::<u32>()) {
                    (Some(c), Ok(t), Ok(s)) if t.is_finite() => {
                        if self.clock.settings.is_none() {
                            self.clock.settings = Some((t.max(0.0), 0.0, 0));
                        }
                        self.clock.left[(c == Color::White) as usize] = Some((t.max(0.0), s));
                        Response::ok("")
                    }
                    _ => Response::err("syntax error"),
                },
                _ => Response::err("syntax error"),
            },
            _ => Response::err("unknown command"),
        }
    }

    fn boardsize(&mut self, w: usize, h: usize) -> Response {
        if w > MAX_GTP_WIDTH {
            return Response::err(format!("unacceptable size (GTP names at most {MAX_GTP_WIDTH} columns)"));
        }
        match Geometry::new(w, h) {
            Ok(geo) => {
                self.reset(geo);
                Response::ok("")
            }
            Err(e) => Response::err(format!("unacceptable size ({e})")),
        }
    }

    fn play(&mut self, color: Color, mv: Move) -> Response {
        let mark = self.game.moves.len();
        let mut g = self.game.clone();
        if Self::bring_to_move(&mut g, color).is_err() {
            self.note("illegal move: the game is over (two consecutive passes)");
            return Response::err("illegal move");
        }
        match g.play(mv) {
            Ok(()) => {
                self.game = g;
                self.marks.push(mark);
                Response::ok("")
            }
            Err(e) => {
                self.note(format!("illegal move: {e}"));
                Response::err("illegal move")
            }
        }
    }

    fn undo(&mut self) -> Response {
        let Some(mark) = self.marks.pop() else { return Response::err("cannot undo") };
        let g = &self.game;
        let first = g.history.line()[0].1;
        match replay(g.geo, g.rules, g.start, first, &g.moves[..mark]) {
            Ok(game) => {
                self.game = game;
                Response::ok("")
            }
            Err(e) => Response::err(format!("cannot undo: {e}")),
        }
    }

    /// The time `genmove` may spend now.
    fn move_budget(&self, color: Color) -> Option<Duration> {
        match (self.config.time_per_move, self.clock.budget(color)) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    fn solve_options(&self, game: &Game, time_limit: Option<Duration>) -> SolveOptions {
        SolveOptions {
            threads: self.config.threads,
            table_mb: self.config.table_mb,
            time_limit,
            memory: Some(self.memory_for(game)),
            ..Default::default()
        }
    }

    /// The session's search memory for `game`: the one kept from earlier
    /// commands where it is for the same board and rules of play, else a
    /// new one (of `table_mb`), which replaces it.
    pub(crate) fn memory_for(&self, game: &Game) -> Memory {
        // `execute` waited for a read before any command that searches;
        // a failure found only here ends the session after this command.
        let _ = self.settle_read();
        let mut held = self.memory.lock().unwrap_or_else(|e| e.into_inner());
        match &*held {
            Some(m) if m.fits(&game.geo, &game.rules) => m.clone(),
            _ => {
                // Drop the old table before the new one is allocated.
                *held = None;
                let mut origin = self.lock_held();
                if let Some(from) = origin.origin.take() {
                    origin.notes.push(format!(
                        "gosolve: a search on {} {}: the memory read from {from} is replaced by a new one",
                        game.geo,
                        rules_name(&game.rules)
                    ));
                }
                let m = Memory::new(game.geo, &game.rules, self.config.table_mb);
                *held = Some(m.clone());
                m
            }
        }
    }

    /// The table's entry for the game's position, where it is exact: same
    /// board and rules (komi aside: values exclude it), no earlier history,
    /// no pass pending.
    fn exact_table_entry(&self, game: &Game) -> Option<crate::tables::Entry> {
        let t = self.config.table.as_ref()?;
        let (r, s) = (game.rules, t.spec.rules);
        if t.spec.geo != game.geo || r.suicide != s.suicide || r.superko != s.superko {
            return None;
        }
        if game.history.line().len() != 1 || game.passes != 0 {
            return None;
        }
        // A file that cannot be read now answers nothing: the search decides.
        t.get(game.position, game.to_move).ok().flatten()
    }

    /// Choose a move for the player to move in `game` (not over).
    pub fn choose(&mut self, game: &Game) -> Move {
        let geo = game.geo;
        let komi = game.rules.komi;
        let show = |v: i32| fmt_value(value_with_komi(v, komi));
        if let Some(e) = self.exact_table_entry(game) {
            let best = e.best_moves();
            let mv = best.first().copied().unwrap_or(Move::Pass);
            self.note(format!("gosolve: table: value {} (exact), best {}", show(e.value as i32), vertex(&geo, mv)));
            return mv;
        }
        let budget = self.move_budget(game.to_move);
        let bounds = BoundsLog::default();
        // Only the line's first move: the rest would cost tests of its own
        // (on 4x4 from a checkpoint, two games' genmoves 5.8 s → 1.4 s) and
        // count against the move's time, where running out loses the
        // proved value.
        let opts = SolveOptions {
            value_only: true,
            value_bounds: Some(bounds.clone()),
            pv_moves: Some(1),
            ..self.solve_options(game, budget)
        };
        let probe = crate::search::solve_value_or_hint(game, &opts);
        match probe.result {
            Ok(sol) => {
                let mv = sol.pv.first().copied().unwrap_or(Move::Pass);
                self.note(format!(
                    "gosolve: value {} (exact, {}, {:.2} s), plays {}",
                    show(sol.value),
                    crate::format::numbers::nodes(sol.stats.nodes),
                    sol.stats.seconds,
                    vertex(&geo, mv)
                ));
                mv
            }
            Err(e) => {
                let (lo, hi) = bounds.get();
                let b = |x: Option<i32>| x.map_or("not proved".to_string(), show);
                let from_table = self.config.table.as_ref().and_then(|t| {
                    let e = t.get(game.position, game.to_move).ok().flatten()?;
                    e.best_moves().into_iter().find(|&m| game.try_move(m).is_ok())
                });
                let (mv, how) = match (probe.hint, from_table) {
                    (Some(m), _) => (m, "the search's best root move so far"),
                    (None, Some(m)) => (m, "the table's best move for this position without history"),
                    (None, None) => (ordering_move(game), "move ordering"),
                };
                self.note(format!(
                    "gosolve: not solved ({e}): value >= {}, value <= {}; playing {} by {how} (its value is not proved)",
                    b(lo),
                    b(hi),
                    vertex(&geo, mv)
                ));
                mv
            }
        }
    }

    fn genmove(&mut self, color: Color, record: bool) -> Response {
        let mark = self.game.moves.len();
        let mut g = self.game.clone();
        if g.is_over() || Self::bring_to_move(&mut g, color).is_err() {
            self.note("gosolve: the game is over (two consecutive passes): pass, not recorded");
            return Response::ok("pass");
        }
        let mut mv = self.choose(&g);
        if g.try_move(mv).is_err() {
            // Never reached: solved moves and fallbacks are legal. Stay safe.
            self.note(format!("gosolve: internal: {} was illegal, passing", vertex(&g.geo, mv)));
            mv = Move::Pass;
        }
        if record {
            g.play(mv).expect("a pass or a checked move is legal");
            self.game = g;
            self.marks.push(mark);
        }
        Response::ok(vertex(&self.game.geo, mv))
    }

    /// The board for `showboard`: GTP letters, rows from the top, and the state.
    fn board_text(&self) -> String {
        let g = &self.game;
        let geo = &g.geo;
        let cols: String = (0..geo.width())
            .map(|x| vertex(geo, Move::Play(geo.point(x, 0))).chars().next().unwrap())
            .map(|c| format!(" {c}"))
            .collect();
        let w = geo.height().to_string().len();
        let mut out = format!("\n{:w$} {}\n", "", cols.trim_start(), w = w + 1);
        let rows = diagram::compact(geo, &g.position);
        for (i, row) in rows.split('/').enumerate() {
            let y = geo.height() - i;
            let cells: Vec<String> = row.chars().map(|c| c.to_string()).collect();
            out.push_str(&format!("{:>w$}  {}  {}\n", y, cells.join(" "), y, w = w));
        }
        out.push_str(&format!("{:w$} {}\n", "", cols.trim_start(), w = w + 1));
        out.push_str(&format!(
            "{} to move, {} moves, rules {} komi {}{}",
            g.to_move.name(),
            g.moves.len(),
            rules_name(&g.rules),
            g.rules.komi,
            if g.is_over() { ", game over" } else { "" }
        ));
        out
    }

    fn loadsgf(&mut self, file: &str, move_number: Option<usize>) -> Response {
        let text = match std::fs::read_to_string(file) {
            Ok(t) => t,
            Err(e) => return Response::err(format!("cannot load file ({e})")),
        };
        let s = match sgf::read_game(&text) {
            Ok(s) => s,
            Err(e) => return Response::err(format!("cannot load file ({e})")),
        };
        if s.geo.width() > MAX_GTP_WIDTH {
            return Response::err("cannot load file (board wider than GTP can name)");
        }
        let upto = move_number.map_or(s.moves.len(), |n| (n - 1).min(s.moves.len()));
        let rules = self.game.rules;
        match replay(s.geo, rules, s.setup, s.to_move, &s.moves[..upto]) {
            Ok(g) => {
                if (s.rules.suicide, s.rules.superko, s.rules.komi) != (rules.suicide, rules.superko, rules.komi) {
                    self.note(format!(
                        "gosolve: {file}: the file says {}, playing on under the engine's {} komi {}",
                        s.ru.as_deref().unwrap_or("no RU"),
                        rules_name(&rules),
                        rules.komi
                    ));
                }
                self.game = g;
                self.marks = (0..upto).collect();
                Response::ok("")
            }
            Err(e) => Response::err(format!("cannot load file ({e})")),
        }
    }

    fn printsgf(&mut self, file: Option<&str>) -> Response {
        let result = self.game.is_over().then(|| value_with_komi(self.game.score(), self.game.rules.komi));
        let text = sgf::write_game(&self.game, result);
        match file {
            None => Response::ok(text),
            Some(path) => match crate::store::write_text_atomic(std::path::Path::new(path), &text) {
                Ok(()) => Response::ok(""),
                Err(e) => Response::err(format!("cannot write {path}: {e}")),
            },
        }
    }

    /// `gosolve-values`: GoGui's gfx drawing the exact value of every legal
    /// move (for the player to move, from Black's side with komi), within the
    /// move's time budget; moves not finished are left blank.
    fn values(&mut self) -> Response {
        let game = self.game.clone();
        if game.is_over() {
            return Response::ok("TEXT the game is over (two passes)");
        }
        let log = crate::search::RootMoveLog::default();
        let opts = SolveOptions {
            on_root_move: Some(log.callback()),
            ..self.solve_options(&game, self.move_budget(game.to_move))
        };
        let result = solve(&game, &opts);
        let (moves, pv) = match &result {
            Ok(sol) => (sol.moves.clone(), sol.pv.clone()),
            Err(_) => (log.sorted(), Vec::new()),
        };
        let status = match &result {
            Ok(sol) => format!("value {}", fmt_value(sol.value_with_komi(&game.rules))),
            Err(e) => format!("unfinished ({e})"),
        };
        Response::ok(analysis::gfx(&game, &moves, &pv, &status))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(e: &mut Engine, line: &str) -> Response {
        match e.execute(&parse_line(line).unwrap()) {
            Action::Reply(r) | Action::Quit(r) | Action::Fail(r) => r,
            Action::Analyze(_) => panic!("analysis"),
        }
    }

    #[test]
    fn lines_are_preprocessed() {
        assert_eq!(parse_line("  # comment"), None);
        assert_eq!(parse_line(""), None);
        let c = parse_line("12\tplay b\x01 a1 # x").unwrap();
        assert_eq!(c, Command { id: Some(12), name: "play".into(), args: vec!["b".into(), "a1".into()] });
        assert_eq!(Response::ok("").render(Some(3)), "=3 \n\n");
        assert_eq!(Response::err("illegal move").render(None), "? illegal move\n\n");
    }

    #[test]
    fn two_by_two_superko_and_undo() {
        let mut e = Engine::new(Config { time_per_move: None, threads: 1, table_mb: 16, ..Config::default() });
        assert!(run(&mut e, "boardsize 2").ok);
        // The documents' game: a2 b2 a1 b1 a2 a1, then a2 repeats.
        for m in ["b A2", "w B2", "b A1", "w B1", "b A2", "w A1"] {
            assert!(run(&mut e, &format!("play {m}")).ok, "{m}");
        }
        assert_eq!(run(&mut e, "play b A2"), Response::err("illegal move"));
        assert_eq!(run(&mut e, "genmove b"), Response::ok("pass"));
        assert!(run(&mut e, "undo").ok);
        assert!(run(&mut e, "undo").ok);
        assert_eq!(e.game().moves.len(), 5);
        assert!(run(&mut e, "boardsize 9").text.starts_with("unacceptable size"));
    }

    #[test]
    fn ordering_move_takes_the_centre_and_keeps_eyes() {
        let geo = Geometry::new(4, 4).unwrap();
        let g = Game::new(geo, Rules::default(), Position::EMPTY, Color::Black).unwrap();
        assert_eq!(ordering_move(&g), Move::parse("b2", &geo).unwrap());
        // Black owns a 1x3 strip with two eyes: White's only moves are suicides, Black's fill own eyes.
        let strip = Geometry::new(3, 1).unwrap();
        let pos = crate::format::diagram::parse(&strip, ".X.").unwrap();
        let g = Game::new(strip, Rules::default(), pos, Color::Black).unwrap();
        assert_eq!(ordering_move(&g), Move::Pass);
    }

    /// The nodes a `genmove` note reports.
    fn noted_nodes(e: &mut Engine) -> u64 {
        let notes = e.take_notes();
        // "gosolve: value 9 (exact, 1,666 nodes, 0.01 s), plays B2"
        let line = notes.iter().find(|n| n.contains("(exact, ")).expect("a solved genmove's note");
        let count = line.split("(exact, ").nth(1).unwrap().split(' ').next().unwrap();
        count.replace(',', "").parse().unwrap()
    }

    /// The same position asked again (after `undo`) is answered from what the
    /// first `genmove` proved, kept by the engine between commands; a solve
    /// on another board size replaces what was kept.
    #[test]
    fn genmove_reuses_what_earlier_commands_proved() {
        let mut e = Engine::new(Config { time_per_move: None, threads: 1, table_mb: 16, ..Config::default() });
        assert!(run(&mut e, "boardsize 3").ok);
        let first = run(&mut e, "genmove b");
        let fresh = noted_nodes(&mut e);
        assert!(run(&mut e, "undo").ok);
        assert_eq!(run(&mut e, "genmove b"), first);
        let again = noted_nodes(&mut e);
        assert!(again * 4 < fresh, "{again} nodes again, {fresh} fresh");
        // A game on another board replaces the memory; back on 3x3 the
        // search starts afresh (one thread: the same search as the first).
        assert!(run(&mut e, "boardsize 2").ok);
        assert!(run(&mut e, "genmove b").ok);
        e.take_notes();
        assert!(run(&mut e, "boardsize 3").ok);
        assert_eq!(run(&mut e, "genmove b"), first);
        assert_eq!(noted_nodes(&mut e), fresh);
    }

    #[test]
    fn genmove_plays_perfectly_on_2x2() {
        let mut e = Engine::new(Config { time_per_move: None, threads: 1, table_mb: 16, ..Config::default() });
        run(&mut e, "boardsize 2");
        let mut n = 0;
        while !e.game().is_over() {
            let c = if e.game().to_move == Color::Black { "b" } else { "w" };
            assert!(run(&mut e, &format!("genmove {c}")).ok);
            n += 1;
            assert!(n < 50);
        }
        assert_eq!(run(&mut e, "final_score"), Response::ok("B+1"));
    }
}
