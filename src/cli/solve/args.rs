//! `gosolve solve`'s options, shared by the one-process solve ([`super`])
//! and the distributed one ([`super::distributed`]).

use crate::cli::common::{parse_node_limit, parse_seconds, parse_threads, DistArgs, LimitArgs, PositionArgs, RuleArgs};
use clap::builder::TypedValueParser;
use gosolve::search::Trace;
use std::path::PathBuf;
use std::time::Duration;

#[derive(clap::Args)]
#[command(after_help = "Precedence: a rule flag or --to given here, else the SGF's RU/KM/PL, else the defaults\n\
    (NSTT: no suicide, positional superko, komi 0; Black to move).")]
pub struct SolveArgs {
    #[command(flatten)]
    pub start: PositionArgs,
    #[command(flatten)]
    pub rules: RuleArgs,
    /// Use the plain reference search (no table, no pruning beyond alpha-beta).
    #[arg(long)]
    pub reference: bool,
    /// Print the principal variation as numbered board diagrams.
    #[arg(long)]
    pub diagrams: bool,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub limits: LimitArgs,
    /// Worker threads (0 = one per core; at most 4 per core).
    #[arg(long, default_value_t = 0, value_parser = parse_threads)]
    pub threads: usize,
    /// No progress display on stderr.
    #[arg(long, short)]
    pub quiet: bool,
    /// Compute only the value and principal variation, not the value of
    /// every legal move (much faster on boards with long ko fights).
    #[arg(long)]
    pub value_only: bool,
    /// With --value-only: test "value >= V" first (V with komi) instead of
    /// climbing from the area score; the value is the same, only the work
    /// changes (one test where the value is V and the board's maximum; the
    /// first moves of the player to move are tried alone first, as for
    /// --at-least with Black to move and --at-most with White)
    #[arg(
        long,
        value_name = "V",
        allow_hyphen_values = true,
        value_parser = crate::cli::common::parse_value,
        requires = "value_only"
    )]
    pub guess: Option<f64>,
    /// Run only the iterative-deepening alpha-beta, no df-pn (the values are
    /// the same; for cross-checks and comparisons)
    #[arg(long)]
    pub alpha_beta: bool,
    /// Do not skip the mirror images of moves at nodes whose whole history
    /// is symmetric (the values are the same; for cross-checks and
    /// comparisons)
    #[arg(long)]
    pub no_path_symmetry: bool,
    /// Also write the solution as SGF to FILE: the history, the principal
    /// variation as main line, each move's exact value as a label.
    #[arg(long, value_name = "FILE")]
    pub sgf_out: Option<std::path::PathBuf>,
    /// Only prove or refute "value >= V" (V with komi, as values are shown):
    /// one null-window test, far cheaper than the value; prints the proof's line.
    /// Stopped by a limit, it says after which moves the claim is proved,
    /// refuted or open (a long proof's progress; the progress line counts
    /// the decided moves while it runs).
    #[arg(long, value_name = "V", allow_hyphen_values = true, conflicts_with_all = ["at_most", "reference", "value_only"])]
    pub at_least: Option<f64>,
    /// Only prove or refute "value <= V" (V with komi); see --at-least.
    #[arg(long, value_name = "V", allow_hyphen_values = true, conflicts_with_all = ["reference", "value_only"])]
    pub at_most: Option<f64>,
    /// Keep what the search proves in FILE, to resume a stopped solve or help
    /// a later one on the same board and rules (any position, history or
    /// komi): read at the start when FILE exists, written every
    /// --checkpoint-every seconds and when the solve ends, solved or stopped
    /// (limit, Ctrl-C). Its table size is --table-mb's.
    #[arg(long, value_name = "FILE", conflicts_with = "reference")]
    pub checkpoint: Option<PathBuf>,
    /// Seconds between two saves of the --checkpoint file while the solve
    /// runs (more than 0; default 600); a save that took long puts the next
    /// off to ten times its own time.
    #[arg(long, value_name = "SECONDS", requires = "checkpoint", allow_hyphen_values = true, value_parser = parse_seconds)]
    pub checkpoint_every: Option<Duration>,
    /// Spread the solve over worker processes (--workers N, --backend
    /// local|slurm, --work-dir DIR): a job-level proof-number search whose
    /// leaves are claims with node budgets; the same command resumes, and
    /// the proof is WORK/proof.sgf (check it with `gosolve verify WORK`).
    /// --threads is then each worker's, --table-mb each worker's table.
    #[command(flatten)]
    pub dist: DistArgs,
    /// With --workers: the node budget of a leaf's first unit (default
    /// 1000000; doubled for a leaf that comes back undecided where the tree
    /// cannot grow).
    #[arg(long, value_name = "N", value_parser = parse_node_limit)]
    pub unit_nodes: Option<u64>,
    /// Print what the fast solver does on stderr, for measurements (nothing
    /// else changes): `tests`, a line per null-window test of the value
    /// driver, per try of a claim's first moves and per growth of the table;
    /// `roots`, those and where each df-pn test's nodes went, by move of its
    /// root; `proof`, those and the size of each df-pn test's proof against
    /// its search; `table`, those and a census of the table (results by
    /// kind, dependency sizes, evictions) every 2^24 nodes.
    #[arg(long, value_name = "KIND", conflicts_with = "reference",
          value_parser = clap::builder::PossibleValuesParser::new(Trace::NAMES).map(|s| s.parse::<Trace>().expect("a listed kind")))]
    pub trace: Option<Trace>,
}
