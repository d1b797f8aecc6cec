//! The search's knobs, in one place: node budgets, horizon schedules, the
//! weights that bias df-pn's choice of child, the playouts' settings and
//! the sizes of df-pn's caches. Each is measured; what it was measured
//! against, and why this setting is kept, is in `results/tuning.md` (by
//! date and commit).
//!
//! # Why none of them can change a value
//!
//! Each one only orders the work or bounds a part of it:
//! - an order, a weight or a rank only decides which child is searched or
//!   expanded first, so which proof is found first;
//! - a budget only decides when a test or a try is given up, and a test
//!   given up proves nothing and stores nothing (the driver runs another
//!   until the value is settled);
//! - a cache size only decides what is computed again.
//!
//! Every value is still proved by the rules, the static bounds and the
//! table's reuse rule alone, so any setting gives the same values; only
//! the work differs (and the bench signature, which counts nodes).
//!
//! Constants of a data structure's layout stay with it: the table's ways,
//! bucket words and growth in `tt::storage`, what a dependency holds in
//! `tt::dep`, the Bloom filter in `tree::hash`, the default table size in
//! `memory::size`, the largest local game in `rules::region`.

// The value driver's extreme test (a whole-board win or loss): budgets and
// when to try; a try given up proves nothing.

/// Results in a row one way before a thread's own value driver tries the
/// extreme that way (most values settle a step or two later).
pub(crate) const DRIVER_EXTREME_AFTER: u32 = 2;
/// Results in a row one way before the extreme is tried when a value-only
/// solve spreads the tests over threads: there an open try costs as much
/// as all the tests before it.
pub(crate) const SPREAD_EXTREME_AFTER: u32 = 3;
/// A thread's extreme try may spend 1/16 of the nodes its tests spent so
/// far: cheap where the extreme is far off, as on open boards.
pub(crate) const DRIVER_EXTREME_SHARE: u64 = 16;
/// A spread extreme try may spend 1/1 of the nodes all tests spent so far:
/// less does not reach a whole-board proof before the next step.
pub(crate) const SPREAD_EXTREME_SHARE: u64 = 1;
/// First node budget of an extreme try; each try given up doubles it.
pub(crate) const EXTREME_FIRST_BUDGET: u64 = 1 << 12;

// The alpha-beta's horizons (iterative deepening on the game length): an
// unknown beyond a horizon never counts as a proof, so they order work.

/// Nodes the alpha-beta spends on a null-window test before df-pn takes it
/// over: most small tests end within it, cheaper than df-pn's nodes.
pub(crate) const AB_BEFORE_DFPN: u64 = 1 << 16;
/// Enhanced transposition cutoffs only at least this many plies above the
/// horizon: nearer, the look-ups cost more than the subtrees they save.
pub(crate) const ETC_MIN_REMAINING: usize = 8;
/// First horizon of the first schedule (plies below the searched node).
pub(crate) const HORIZON_START: usize = 16;
/// Horizon increment per iteration of the first eight schedules.
pub(crate) const HORIZON_STEP: usize = 16;
/// Horizon schedules a solver interleaves: restarts against the heavy
/// tail of any one schedule's cost.
pub(crate) const SCHEDULES: usize = 4;
/// Nodes of a schedule's first slice; slices double every round.
pub(crate) const FIRST_SLICE: u64 = 1 << 16;
/// First horizons of schedules 0, 1, ... (helper k starts at schedule k):
/// each alone about as good, together they find different proofs.
pub(crate) const HELPER_STARTS: [usize; 8] = [HORIZON_START, 12, 21, 8, 26, 31, 10, 40];
/// Horizon increment of the second eight schedules.
pub(crate) const HELPER_STEP: usize = 24;
/// Beyond this horizon the alpha-beta runs without one (and then always
/// resolves).
pub(crate) const HORIZON_CAP: usize = 4096;
/// Nodes a df-pn test may spend per ply of the horizon a principal
/// variation round gives it: cheap children are confirmed first.
pub(crate) const DFPN_BUDGET_PER_PLY: u64 = 4096;

// df-pn's choice of child: numbers and biases only choose which child is
// expanded; a node is resolved only by its children's proofs.

/// The 1 + ε trick: the chosen child works until its number passes the
/// second best's by this many percent, so df-pn switches siblings less.
pub(crate) const EPSILON_PERCENT: u64 = 50;
/// Weight of the logistic score guess's margin over the bound in a child's
/// starting numbers (the nearer-colour estimate counts once).
pub(crate) const GUESS_SCALE: i32 = 2;
/// The same for the least-squares guess, used in the tests of a
/// whole-board result.
pub(crate) const EXTREME_GUESS_SCALE: i32 = 3;
/// The same for the strips' guess ([`crate::search::ordering::guess::STRIP_WEIGHTS`]).
pub(crate) const STRIP_GUESS_SCALE: i32 = 3;
/// How far the guess must clear the bound (percent of the board's points,
/// at [`GUESS_SCALE`]) for a child's least number: wide wins first.
pub(crate) const MARGIN_PERCENT: i32 = 80;
/// A child another df-pn thread is below counts as if its number were this
/// many percent of what it is: threads split where children are close.
pub(crate) const BUSY_PERCENT: u64 = 200;
/// The move prior's bias: the r-th child counts as if its number were
/// `PRIOR_STEP`·r more ...
pub(crate) const PRIOR_STEP: u32 = 3;
/// ... and then `PRIOR_PERCENT`·r percent more, so the prior keeps its say
/// where numbers run into the hundreds.
pub(crate) const PRIOR_PERCENT: u64 = 25;

// df-pn's caches: sizes decide what is computed again, never what holds.

/// Entries of df-pn's cache of Benson bounds (a power of two).
pub(crate) const BENSON_CACHE: usize = 1 << 19;
/// Most entries of df-pn's guide: a larger one keeps stale numbers longer.
pub(crate) const MAX_GUIDE_ENTRIES: usize = 1 << 21;
/// Slots of the df-pn threads' work marks (a power of two).
pub(crate) const BUSY_SLOTS: usize = 1 << 18;

// Random playouts: they rank the moves at the first two plies of a large
// test, in place of the move prior, and rank only.

/// Random games after each move (100 were too noisy).
pub(crate) const PLAYOUTS: usize = 400;
/// The r-th move by playouts gets rank `RANK_SPACING`·r: a stronger signal
/// than the 3x3 prior's ranks.
pub(crate) const RANK_SPACING: u32 = 3;
/// In a whole-board test, the share of playouts whose mover ends ahead
/// counts this many percent beside the share that meets the bound.
pub(crate) const WON_SHARE_PERCENT: f64 = 100.0;
/// Least empty points at a test's root for the playouts to run: below it
/// they cost more time than they save.
pub(crate) const PLAYOUT_MIN_EMPTY: u32 = 19;
/// Least width and height of a board for the playouts to run (measured on
/// 5x5; they cost nodes on 3x6).
pub(crate) const PLAYOUT_MIN_SIDE: usize = 5;
/// Positions whose playouts a solve keeps (then it forgets them all).
pub(crate) const PLAYOUT_POSITIONS: usize = 4096;
/// Moves after which a playout stops (a random game on a 64-point board
/// ends long before; superko is not checked in a playout).
pub(crate) const PLAYOUT_MAX_MOVES: usize = 200;

// A claim's first moves tried alone (the focus): budgets of tries whose
// proofs go to the table; the claim is decided by the root's own test.

/// Nodes (all threads) a claim's root test may spend before the claimant's
/// first moves are tried alone: small claims never need the focus.
pub(crate) const FOCUS_AFTER: u64 = 1 << 22;
/// The same for a value-only solve's step that only the driver's
/// direction expects the player to move to win (no guess): df-pn at the
/// root settles most such tests by itself.
pub(crate) const FOCUS_STEP_AFTER: u64 = 1 << 26;
/// Each first move's budget is 2^-`FOCUS_RANK_SHIFT` (a quarter) of the
/// budget of the move ranked above it.
pub(crate) const FOCUS_RANK_SHIFT: u32 = 2;
/// Least budget of a try: a move whose share is smaller waits a round.
pub(crate) const FOCUS_LEAST_BUDGET: u64 = 1 << 14;

// Principal variations: the line is made of moves whose values are proved.

/// First horizon of the principal variation's rounds, one ply: along the
/// line nearly every step is settled by the table.
pub(crate) const PV_HORIZON: usize = 1;
/// Longest line a claim's proof line walks (every line is finite under
/// superko, but a line of table moves can be long).
pub(crate) const BOUND_PV_CAP: usize = 400;
