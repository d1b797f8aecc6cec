//! A GTP client and a small referee, for matches between GTP engines (gosolve
//! against GNU Go in `tests/gtp.rs` and `benches/gtp_match.rs`).
//!
//! The referee owns the game: a [`Game`] under Tromp-Taylor rules with
//! positional superko. At each turn it asks the engine to move with
//! `reg_genmove` (which changes nothing in the engine), checks the move
//! against the game, and sends it to both engines with `play`. An engine
//! that answers an illegal move (GNU Go knows only simple ko, so it may
//! propose a superko repeat) or resigns is recorded as passing (Tromp-Taylor
//! has no resignation; the game is played out to two passes so that its
//! score is exact), and the illegal proposals are counted.

use super::coords::{parse_vertex, vertex};
use crate::format::sgf;
use crate::rules::geometry::Geometry;
use crate::rules::history::Game;
use crate::rules::position::{value_with_komi, Color, Move, Position, Rules};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// A GTP engine in a child process.
pub struct GtpClient {
    pub name: String,
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl GtpClient {
    /// Start `program` with `args` (stderr discarded).
    pub fn spawn(name: &str, program: &str, args: &[&str]) -> std::io::Result<GtpClient> {
        Self::spawn_with_stderr(name, program, args, Stdio::null())
    }

    /// Start `program` with `args`, its stderr going to `stderr` (e.g. a log file).
    pub fn spawn_with_stderr(name: &str, program: &str, args: &[&str], stderr: Stdio) -> std::io::Result<GtpClient> {
        let mut child =
            Command::new(program).args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(stderr).spawn()?;
        let stdin = child.stdin.take().expect("piped");
        let stdout = BufReader::new(child.stdout.take().expect("piped"));
        Ok(GtpClient { name: name.to_string(), child, stdin, stdout })
    }

    /// Send one command; the response's text, or its error text.
    pub fn send(&mut self, command: &str) -> Result<String, String> {
        let io = |e: std::io::Error| format!("{}: {}", self.name, e);
        writeln!(self.stdin, "{command}").map_err(io)?;
        self.stdin.flush().map_err(io)?;
        let mut lines = Vec::new();
        loop {
            let mut l = String::new();
            if self.stdout.read_line(&mut l).map_err(|e| format!("{}: {e}", self.name))? == 0 {
                return Err(format!("{}: closed its output after '{command}'", self.name));
            }
            let l = l.trim_end_matches(['\n', '\r']).to_string();
            if l.trim().is_empty() {
                if lines.is_empty() {
                    continue;
                }
                break;
            }
            lines.push(l);
        }
        let first = lines[0].clone();
        let ok = first.starts_with('=');
        let rest = first[1..].trim_start_matches(|c: char| c.is_ascii_digit());
        let mut text = rest.strip_prefix(' ').unwrap_or(rest).to_string();
        for l in &lines[1..] {
            text.push('\n');
            text.push_str(l);
        }
        if ok {
            Ok(text)
        } else {
            Err(text)
        }
    }
}

impl Drop for GtpClient {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let _ = self.child.wait();
    }
}

/// What a refereed game came to.
#[derive(Clone, Debug)]
pub struct MatchGame {
    /// The game as played (the SGF comes from it).
    pub game: Game,
    /// Black − White − komi at the end.
    pub value: f64,
    /// Moves the referee replaced by a pass: (move number, engine, proposal).
    pub replaced: Vec<(usize, String, String)>,
    /// Whether the game reached two passes (not the move cap).
    pub finished: bool,
}

impl MatchGame {
    /// The SGF record, with the players' names.
    pub fn sgf(&self, black: &str, white: &str) -> String {
        let s = sgf::write_game(&self.game, Some(self.value));
        s.replacen("(;FF[4]", &format!("(;FF[4]PB[{black}]PW[{white}]"), 1)
    }
}

/// Play one game on `geo` under `rules` from the empty board, `black` first,
/// at most `max_moves` turns. Errors when an engine fails to answer or
/// refuses a legal move.
pub fn play_game(
    black: &mut GtpClient,
    white: &mut GtpClient,
    geo: Geometry,
    rules: Rules,
    max_moves: usize,
) -> Result<MatchGame, String> {
    for e in [&mut *black, &mut *white] {
        let size = if geo.width() == geo.height() {
            format!("boardsize {}", geo.width())
        } else {
            format!("rectangular_boardsize {} {}", geo.width(), geo.height())
        };
        e.send(&size).map_err(|m| format!("{} refuses {size}: {m}", e.name))?;
        e.send("clear_board")?;
        e.send(&format!("komi {}", rules.komi))?;
    }
    let mut game = Game::new(geo, rules, Position::EMPTY, Color::Black).map_err(|e| e.to_string())?;
    let mut replaced = Vec::new();
    while !game.is_over() && game.moves.len() < max_moves {
        let color = game.to_move;
        let c = if color == Color::Black { "b" } else { "w" };
        let (mover, other) =
            if color == Color::Black { (&mut *black, &mut *white) } else { (&mut *white, &mut *black) };
        let answer = mover.send(&format!("reg_genmove {c}"))?;
        let mv = match parse_vertex(&geo, answer.trim()) {
            Ok(mv) if game.try_move(mv).is_ok() => mv,
            _ => {
                replaced.push((game.moves.len() + 1, mover.name.clone(), answer.trim().to_string()));
                Move::Pass
            }
        };
        let v = vertex(&geo, mv);
        for e in [mover, other] {
            e.send(&format!("play {c} {v}")).map_err(|m| format!("{} refuses play {c} {v}: {m}", e.name))?;
        }
        game.play(mv).map_err(|e| e.to_string())?;
    }
    let value = value_with_komi(game.score(), rules.komi);
    Ok(MatchGame { finished: game.is_over(), game, value, replaced })
}

/// The GNU Go binary, if installed: `$GNUGO`, else Debian's `/usr/games/gnugo`
/// or another usual place (tests and the match runner skip without it).
pub fn find_gnugo() -> Option<String> {
    if let Ok(p) = std::env::var("GNUGO") {
        return Some(p);
    }
    ["/usr/games/gnugo", "/usr/bin/gnugo", "/usr/local/bin/gnugo"]
        .iter()
        .find(|p| std::path::Path::new(p).exists())
        .map(|p| p.to_string())
}
