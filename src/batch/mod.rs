//! Batches of solve jobs: a manifest (TOML, or JSON by extension) lists the
//! jobs; they run in parallel, each result is kept as JSON, and a markdown
//! summary compares the values with published ones.
//!
//! # Manifest
//!
//! ```toml
//! [defaults]            # optional; any job field below except id/published/source
//! time_limit = 60.0
//!
//! [[job]]
//! id = "3x2-doc"        # unique; letters, digits, '.', '_', '-'; names the result file
//! board = "3x2"         # WxH (may be omitted with sgf)
//! position = "..../..." # optional start position, rows top to bottom (default: empty)
//! to = "b"              # player to move at the start (default b)
//! moves = "b1 a2 b2"    # optional moves played from the start (they are history)
//! sgf = "game.sgf"      # or: the end of this SGF's main line (path relative to the manifest)
//! suicide = false       # rules: these fields, else the SGF's RU/KM, else NSTT, komi 0
//! superko = "positional"
//! komi = 0.0
//! node_limit = 1000000000 # at least 1 (leave out for none)
//! time_limit = 120.0    # seconds: more than 0, at most 1e9 (leave out for none)
//! value_only = false    # true: the value and its line only, not every root move's value
//! guess = 6.0           # with value_only: test "value >= guess" first (only the work changes)
//! published = 6.0       # optional published value (Black − White − komi)
//! source = "..."        # where the published value comes from
//! explanation = "..."   # why the value differs from published (rules, a refuting line) ...
//! explained_value = 21  # ... for this value: another difference fails the batch
//! confirm = true        # confirm the value a second way before it counts as solved
//! confirm_with = "no-path-symmetry" # or "alpha-beta", "other-threads": the second solve's engine
//! ```
//!
//! `gosolve batch NAME` runs a built-in manifest ([`BUILT_IN`]): `default`
//! (the published set that fits in minutes), `rectangular` (every
//! rectangle of at most 30 points with 1 to 5 rows), `5x5-openings`
//! (every first move on the empty 5x5 board) or `strip-openings` (every
//! first move on the strips 1x16-1x20, whose values the rectangular table
//! leaves out).
//!
//! # Confirmation
//!
//! A job with `confirm = true` (or `gosolve batch --confirm`) is solved,
//! then its value v is tested twice more, each on a fresh table (a
//! checkpoint of its own with `--checkpoints`), so that neither reads what
//! the first solve stored: the claim `value ≥ v` and the claim `value ≤ v`
//! (one null-window test each), and a value-only solve with another engine
//! configuration (`confirm_with`; where no symmetry fixes the game's
//! history, path symmetry never acts, so the default `no-path-symmetry`
//! gives way to `other-threads`: the same engine on another thread count).
//! A confirmation whose value check ran another configuration than the
//! job's (a record written before that rule) is open again: the next run
//! redoes that check alone. The record's `confirmation` keeps each
//! check's outcome, line, nodes and time. Only when all three agree is the
//! job `solved`; until then it is `solved, confirmation open` (a check hit
//! its limit: the next run does the checks still open, not the solve), and a
//! check that contradicts the value makes it `confirmation failed`.
//!
//! # What the first moves need
//!
//! Where a manifest holds every first move of a position (`openings`), the
//! summary says what their records prove of the position and which bounds
//! its value still needs. `gosolve batch --needed` runs just those: on each
//! such move's job the one claim ("value ≤ +1" after 1x18 a2, where a8's +1
//! is Black's best), in place of the job's value, in rounds until none is
//! needed or one stays open at its limit. A record keeps the bound its
//! claim proved and stays unsolved.
//!
//! # Results
//!
//! `<out-dir>/batch/<id>.json` per job, and `<out-dir>/summary.md`. A job is
//! skipped on a re-run when its result file exists and records the same
//! spec hash (a hash of everything that decides the search: board, position,
//! moves, SGF text, rules, limits) and is solved. A job that hits its limit is
//! recorded as `unsolved (limit)` and run again on the next run. A solved
//! record is never replaced by an unsolved one of the same spec (a `--force`
//! rerun on a busy machine keeps it). Every file is written atomically
//! through [`crate::store`].
//!
//! Rules of a job: its own fields (or `[defaults]`), else its SGF's `RU`/`KM`,
//! else NSTT, komi 0; the record's `rules_source` says which.
//!
//! The files: `manifest` reads a manifest and resolves its jobs (games,
//! rules, spec hashes), `run` solves them in parallel, `record` is the
//! JSON result of one job, `summary` the markdown table of all of them,
//! `solved` the README's table of what is solved, made from the records.

mod manifest;
mod openings;
mod record;
mod run;
mod solved;
mod summary;

pub use manifest::{ConfirmWith, Job, JobDefaults, JobSpec, Manifest, ManifestError};
pub use openings::{first_moves, needed_claims, FirstMoves, MoveBounds, Needed};
pub use record::{
    record_path, BoundsRecord, CheckRecord, Confirmation, EarlierRuns, JobRecord, MoveRecord, RulesRecord, TestMoves,
    CONTRADICTED, FAILS, HOLDS, SOLVED, UNCONFIRMED, UNSOLVED,
};
pub use run::{
    run_batch, run_batch_with, run_job, BatchError, BatchObserver, BatchOptions, BatchReport, JobRunner, NoObserver,
    ThreadPoolRunner, CHECKPOINT_EVERY,
};
pub use solved::{
    read_records, read_solved_sources, replace_solved_block, reproduce_command, solved_block, solved_table,
    SOLVED_TABLE_BEGIN, SOLVED_TABLE_END, SOLVED_TABLE_SOURCES,
};
pub use summary::summary_markdown;

/// The built-in manifest (`data/batch-default.toml`).
pub const DEFAULT_MANIFEST: &str = include_str!("../../data/batch-default.toml");

/// The rectangular table to 30 points (`data/rectangular.toml`).
pub const RECTANGULAR_MANIFEST: &str = include_str!("../../data/rectangular.toml");

/// Every 5x5 opening move (`data/5x5-openings.toml`).
pub const OPENINGS_5X5_MANIFEST: &str = include_str!("../../data/5x5-openings.toml");

/// Every first move of the strips 1x16-1x20 (`data/strip-openings.toml`).
pub const STRIP_OPENINGS_MANIFEST: &str = include_str!("../../data/strip-openings.toml");

/// The built-in manifests, `gosolve batch NAME`: name, file, text.
pub const BUILT_IN: [(&str, &str, &str); 4] = [
    ("default", "data/batch-default.toml", DEFAULT_MANIFEST),
    ("rectangular", "data/rectangular.toml", RECTANGULAR_MANIFEST),
    ("5x5-openings", "data/5x5-openings.toml", OPENINGS_5X5_MANIFEST),
    ("strip-openings", "data/strip-openings.toml", STRIP_OPENINGS_MANIFEST),
];

/// The file and text of the built-in manifest `name`.
pub fn built_in(name: &str) -> Option<(&'static str, &'static str)> {
    BUILT_IN.iter().find(|(n, _, _)| *n == name).map(|&(_, file, text)| (file, text))
}
