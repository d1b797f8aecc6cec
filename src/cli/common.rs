//! Argument groups shared by the subcommands, so that every subcommand spells
//! and reads the same option the same way: the position (`WxH`, `--position`,
//! `--to`, `--moves`, `--sgf`), the rules (`--suicide`/`--no-suicide`,
//! `--superko`, `--komi`), the limits (`--time-limit`, `--node-limit`,
//! `--table-mb`, `--threads`).
//!
//! Precedence everywhere: a flag given on the command line, else what the file
//! (SGF `RU`/`KM`/`PL`) says, else the default (NSTT, komi 0, Black first).
//! That is why the rule options are `Option`s: "not given" must be told apart
//! from "given as the default".

use anyhow::{Context, Result};
use gosolve::format::numbers::group_digits;
use gosolve::format::{diagram, sgf};
use gosolve::{Color, Game, Geometry, Komi, Move, Position, Rules, Superko};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A usage error: the command line itself is wrong (an argument missing,
/// malformed or out of range, options that cannot go together). `main`
/// exits 2 for these, as for clap's own, and 1 for every other failure (a
/// file that cannot be read, a search stopped by a limit).
#[derive(Debug)]
pub struct Usage(pub String);

impl std::fmt::Display for Usage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Usage {}

/// A usage error from any message (for `map_err`).
pub fn usage(message: impl std::fmt::Display) -> anyhow::Error {
    Usage(message.to_string()).into()
}

/// Rule options: `--suicide`/`--no-suicide`, `--superko`, `--komi`. Each one
/// overrides only its own part of the rules, and only when given. The help
/// says nothing of files: the subcommands that read an SGF say in their own
/// help that a flag beats the file's RU/KM.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct RuleArgs {
    /// Allow suicide (TT: true Tromp-Taylor).
    #[arg(long, conflicts_with = "no_suicide")]
    pub suicide: bool,
    /// Forbid suicide (NSTT).
    #[arg(long)]
    pub no_suicide: bool,
    /// Superko flavour (default positional).
    #[arg(long, value_enum)]
    pub superko: Option<SuperkoArg>,
    /// Komi added to White's score: a multiple of 0.5 from -500 to 500 (default 0).
    #[arg(long, value_name = "K", allow_hyphen_values = true, value_parser = parse_komi)]
    pub komi: Option<Komi>,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SuperkoArg {
    Positional,
    Situational,
}

impl SuperkoArg {
    pub fn superko(self) -> Superko {
        match self {
            SuperkoArg::Positional => Superko::Positional,
            SuperkoArg::Situational => Superko::Situational,
        }
    }
}

/// `--komi`: a multiple of 0.5 within the range [`Komi`] holds.
pub fn parse_komi(s: &str) -> std::result::Result<Komi, String> {
    let k: f64 = s.trim().parse().map_err(|_| format!("'{}' is not a number", s))?;
    if !k.is_finite() || k.abs() > 500.0 {
        return Err(format!("{} is out of range: komi must be from -500 to 500", s));
    }
    Komi::from_f64(k).ok_or_else(|| format!("{} is not a multiple of 0.5", s))
}

impl RuleArgs {
    /// `base` (the file's rules, or the defaults) with every given flag applied.
    pub fn over(&self, base: Rules) -> Rules {
        let suicide = if self.suicide {
            true
        } else if self.no_suicide {
            false
        } else {
            base.suicide
        };
        Rules {
            suicide,
            superko: self.superko.map_or(base.superko, SuperkoArg::superko),
            komi: self.komi.unwrap_or(base.komi),
        }
    }

    /// The default rules (NSTT, komi 0) with every given flag applied.
    pub fn rules(&self) -> Result<Rules> {
        Ok(self.over(Rules::default()))
    }
}

/// The position options: board `WxH`, `--sgf`, `--position`, `--to`, `--moves`.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct PositionArgs {
    /// Board size WxH (columns x rows), e.g. 3x3 or 1x9; omit with --sgf.
    pub board: Option<String>,
    /// Start from this SGF: its board, rules (RU, KM), setup and main line, the
    /// line kept as history. Rule flags and --to given here override the file.
    #[arg(long, value_name = "FILE")]
    pub sgf: Option<PathBuf>,
    /// Start from this position, rows top to bottom separated by '/' (X black,
    /// O white, . empty), e.g. "XO./.X.", with no earlier history.
    #[arg(long, value_name = "ROWS")]
    pub position: Option<String>,
    /// Player to move first: b or w (default b; with --sgf, overrides its PL).
    #[arg(long, value_name = "b|w")]
    pub to: Option<String>,
    /// Moves played from the start (after the SGF's line with --sgf), separated
    /// by spaces or commas: point names (b2) or "pass". They are history.
    #[arg(long, value_name = "MOVES", allow_hyphen_values = true)]
    pub moves: Option<String>,
}

/// A game built from [`PositionArgs`], with a remark on how the SGF's rules
/// were read (when they came from an SGF).
pub struct Loaded {
    pub game: Game,
    pub rules_note: Option<String>,
}

impl PositionArgs {
    /// The game these options describe, under `rules` applied over the SGF's
    /// (or the default) rules.
    pub fn load(&self, rules: &RuleArgs) -> Result<Loaded> {
        let to = self.to.as_deref().map(parse_color).transpose()?;
        let mut note = None;
        let mut game = if let Some(path) = &self.sgf {
            if self.board.is_some() || self.position.is_some() {
                bail_usage!("--sgf gives the board and the setup; do not combine it with a board size or --position");
            }
            let sg = read_sgf(path)?;
            note = sg.rules_note.clone();
            let mut sg = sg;
            if let Some(to) = to {
                if let Some(&(first, mv)) = sg.moves.first() {
                    if first != to {
                        bail_usage!(
                            "--to {} conflicts with {}: its first move is {}[{}]",
                            to.name(),
                            path.display(),
                            first.letter(),
                            mv.name(&sg.geo)
                        );
                    }
                }
                sg.to_move = to;
            }
            let r = rules.over(sg.rules);
            sg.to_game(Some(r)).with_context(|| path.display().to_string())?
        } else {
            let Some(board) = &self.board else { bail_usage!("give a board size (e.g. 3x3) or --sgf FILE") };
            let geo = parse_board(board)?;
            game_from_diagram(geo, rules.rules()?, self.position.as_deref(), to.unwrap_or(Color::Black))?
        };
        if let Some(text) = &self.moves {
            for mv in parse_moves(text, &game)? {
                game.play(mv).map_err(usage)?;
            }
        }
        Ok(Loaded { game, rules_note: note })
    }
}

/// Read an SGF file. Bytes that are not UTF-8 (a Latin-1 comment) are
/// replaced, not refused: only the properties read here matter, and they are
/// ASCII.
pub fn read_sgf(path: &Path) -> Result<sgf::SgfGame> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read SGF file '{}'", path.display()))?;
    let text = String::from_utf8_lossy(&bytes);
    sgf::read_game(&text).with_context(|| path.display().to_string())
}

/// Parse a move list: tokens separated by whitespace or commas.
pub fn parse_moves(text: &str, game: &Game) -> Result<Vec<Move>> {
    let mut out = Vec::new();
    for tok in text.split(|c: char| c.is_whitespace() || c == ',').filter(|t| !t.is_empty()) {
        match Move::parse(tok, &game.geo) {
            Some(m) => out.push(m),
            None => bail_usage!(
                "move {} '{}' is not a point of the {} board or 'pass'",
                game.moves.len() + out.len() + 1,
                tok.escape_debug(),
                game.geo
            ),
        }
    }
    Ok(out)
}

/// The limits of a search: `--time-limit`, `--node-limit`, `--table-mb`.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct LimitArgs {
    /// Give up after this many seconds (more than 0, at most 1e9; default: no limit).
    #[arg(long, value_name = "SECONDS", allow_hyphen_values = true, value_parser = parse_seconds)]
    pub time_limit: Option<Duration>,
    /// Give up after this many nodes (at least 1; default: no limit).
    #[arg(long, value_name = "N", allow_hyphen_values = true, value_parser = parse_node_limit)]
    pub node_limit: Option<u64>,
    #[command(flatten)]
    pub table: TableMbArg,
}

/// `--table-mb`, on its own for subcommands without node limits.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct TableMbArg {
    /// Transposition table size in MiB (0 or absent: the default, an eighth of the
    /// available memory, from 64 MiB to 4 GiB, shared by the solves run at once;
    /// checked against the memory available).
    #[arg(long, value_name = "MIB", allow_hyphen_values = true, value_parser = parse_count)]
    pub table_mb: Option<usize>,
}

impl TableMbArg {
    /// The size in force for each of `count` tables in use at once: the
    /// flag, else the machine's default share; checked against the memory
    /// available, so the output can state the size really used.
    pub fn checked(&self, count: usize) -> Result<usize> {
        let mb = match self.table_mb.unwrap_or(0) {
            0 => gosolve::search::machine_table_mb_shared(count),
            mb => mb,
        };
        gosolve::limits::check_table_memory("--table-mb", mb, count).map_err(usage)?;
        Ok(mb)
    }
}

/// `--time-limit`: see [`gosolve::limits::seconds`].
pub fn parse_seconds(s: &str) -> std::result::Result<Duration, String> {
    let v: f64 = s.trim().parse().map_err(|_| format!("'{}' is not a number of seconds", s))?;
    gosolve::limits::seconds(v)
}

/// `--node-limit`: a whole number, at least 1.
pub fn parse_node_limit(s: &str) -> std::result::Result<u64, String> {
    let v = parse_u64(s)?;
    gosolve::limits::node_limit(v)
}

fn parse_u64(s: &str) -> std::result::Result<u64, String> {
    s.trim().parse::<u64>().map_err(|_| format!("'{}' is not a whole number from 0 to {}", s, u64::MAX))
}

/// A count (`--table-mb`, `--jobs`): a whole number.
pub fn parse_count(s: &str) -> std::result::Result<usize, String> {
    s.trim().parse::<usize>().map_err(|_| format!("'{}' is not a whole number from 0 to {}", s, usize::MAX))
}

/// The cores this process may use.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Most threads accepted: 4 per core (at least 8). More only slows a search
/// down (a thread per position or per root move competes for the same cores).
pub fn max_threads() -> usize {
    (4 * cores()).max(8)
}

/// `--threads`/`--jobs`: 0 (one per core) up to [`max_threads`].
pub fn parse_threads(s: &str) -> std::result::Result<usize, String> {
    let n = parse_count(s)?;
    let most = max_threads();
    if n > most {
        return Err(format!(
            "{} is more than the {} allowed here (4 per core, {} cores; 0 = one per core)",
            n,
            most,
            cores()
        ));
    }
    Ok(n)
}

/// Parse a board size, with the error spelled for a user (a usage error).
pub fn parse_board(s: &str) -> Result<Geometry> {
    s.parse::<Geometry>().map_err(usage)
}

/// Parse `b|w|black|white`.
pub fn parse_color(s: &str) -> Result<Color> {
    match Color::parse(s) {
        Some(c) => Ok(c),
        None => bail_usage!("side to move '{}' is not one of b, w, black, white", s),
    }
}

/// A game starting from a diagram (or the empty board) with no earlier
/// history; a diagram that does not fit the board, or an illegal one, is a
/// usage error.
pub fn game_from_diagram(geo: Geometry, rules: Rules, diagram_text: Option<&str>, to_move: Color) -> Result<Game> {
    let start = match diagram_text {
        Some(t) => diagram::parse(&geo, t).map_err(|e| usage(format!("--position: {}", e)))?,
        None => Position::EMPTY,
    };
    Game::new(geo, rules, start, to_move).map_err(|e| usage(format!("--position: {}", e)))
}

/// A JSON number without a trailing `.0` for whole values (komi 0, not 0.0):
/// the one style of every subcommand's JSON.
pub fn num(v: f64) -> serde_json::Value {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        serde_json::json!(v as i64)
    } else {
        serde_json::json!(v)
    }
}

/// The rules as every subcommand's JSON writes them.
pub fn rules_json(rules: &Rules) -> serde_json::Value {
    serde_json::json!({
        "name": rules.name(),
        "suicide": rules.suicide,
        "superko": rules.superko.name(),
        "komi": num(rules.komi.as_f64()),
    })
}

/// The line that reports a checkpoint read (`solve --checkpoint`, and
/// [`read_checkpoint`]'s).
pub fn checkpoint_read_line(path: &Path, s: &gosolve::tables::checkpoint::Summary) -> String {
    format!(
        "gosolve: checkpoint {}: {} results read ({} kept), {} guide numbers, in {:.1} s",
        path.display(),
        group_digits(s.results as u128),
        group_digits(s.kept as u128),
        group_digits(s.numbers as u128),
        s.seconds
    )
}

/// Read a checkpoint for the board and rules it names, read only (`check
/// --checkpoint`; `gtp --checkpoint` reads the results on a thread of their
/// own), into a table of `table_mb` MiB, and say so on stderr.
pub fn read_checkpoint(path: &Path, table_mb: usize) -> Result<gosolve::search::Memory> {
    let (memory, read) = gosolve::tables::checkpoint::load_any(path, table_mb)?;
    eprintln!("{}", checkpoint_read_line(path, &read));
    Ok(memory)
}

/// Where distributed work runs: `--workers`, `--backend`, `--work-dir`,
/// with `--worker-bin` and `--retries` (the same in every subcommand that
/// takes them).
#[derive(clap::Args, Clone, Debug, Default)]
pub struct DistArgs {
    /// Run the work as units on N worker processes (the local backend unless
    /// --backend says otherwise); with --backend slurm, at most N Slurm tasks
    /// at once (default: one per core locally, no limit on Slurm).
    #[arg(long, value_name = "N", value_parser = parse_workers)]
    pub workers: Option<usize>,
    /// Where the workers run: local (processes on this machine) or slurm (job
    /// steps inside an allocation, `sbatch` job arrays outside one).
    #[arg(long, value_enum, value_name = "local|slurm")]
    pub backend: Option<BackendArg>,
    /// The directory the manager and its workers share (on a cluster, one
    /// every node mounts); rerunning the same command on it resumes (default:
    /// <out-dir>/work for a batch, <out>.work for a table build).
    #[arg(long, value_name = "DIR")]
    pub work_dir: Option<PathBuf>,
    /// The gosolve binary the workers run (default: this one; on a cluster,
    /// a path every node sees). It must be this version.
    #[arg(long, value_name = "FILE")]
    pub worker_bin: Option<PathBuf>,
    /// Runs of a unit after the first, when a run ends without an answer
    /// (a crash, a node lost, `scancel`).
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub retries: u32,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum BackendArg {
    Local,
    Slurm,
}

/// A value on the command line (`--guess`): a finite number of at most
/// 1000 in size (komi included; values are area differences).
pub fn parse_value(s: &str) -> std::result::Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v.abs() <= 1000.0 => Ok(v),
        _ => Err(format!("'{s}' is not a value: give a number from -1000 to 1000")),
    }
}

/// `--workers`: 1 to 65,536.
pub fn parse_workers(s: &str) -> std::result::Result<usize, String> {
    let n = parse_count(s)?;
    if !(1..=65_536).contains(&n) {
        return Err(format!("{} workers: give 1 to 65536", n));
    }
    Ok(n)
}

impl DistArgs {
    /// Whether distributed work was asked for.
    pub fn wanted(&self) -> bool {
        self.workers.is_some() || self.backend.is_some() || self.work_dir.is_some() || self.worker_bin.is_some()
    }

    /// The backend asked for (local by default).
    pub fn kind(&self) -> gosolve::distributed::BackendKind {
        match self.backend {
            Some(BackendArg::Slurm) => gosolve::distributed::BackendKind::Slurm,
            _ => gosolve::distributed::BackendKind::Local,
        }
    }

    /// The workers: as given, else one per core locally and no limit on
    /// Slurm (`units`: how many units there are at most).
    pub fn workers_or_default(&self, units: usize) -> usize {
        match (self.workers, self.kind()) {
            (Some(n), _) => n,
            (None, gosolve::distributed::BackendKind::Local) => cores(),
            (None, gosolve::distributed::BackendKind::Slurm) => units.max(1),
        }
    }

    /// The setup: `default_dir` unless --work-dir, `threads` CPUs per
    /// worker, `units` at most, stopped by `abort`.
    pub fn setup(
        &self,
        default_dir: PathBuf,
        threads: usize,
        units: usize,
        abort: std::sync::Arc<std::sync::atomic::AtomicBool>,
    ) -> gosolve::distributed::Setup {
        let mut backend =
            gosolve::distributed::BackendOptions::new(self.kind(), self.workers_or_default(units), threads);
        if let Some(bin) = &self.worker_bin {
            backend.worker_bin = bin.clone();
        }
        gosolve::distributed::Setup {
            work_dir: self.work_dir.clone().unwrap_or(default_dir),
            backend,
            run: gosolve::distributed::RunOptions { retries: self.retries, abort: Some(abort), deadline: None },
        }
    }
}
