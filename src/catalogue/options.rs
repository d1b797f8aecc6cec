//! How claims are checked: [`CheckOptions`].

use crate::search::Memory;
use std::time::Duration;

/// How claims are checked.
#[derive(Clone, Debug)]
pub struct CheckOptions {
    /// Check claims marked `expensive` too.
    pub run_expensive: bool,
    /// Time limit of each solve.
    pub time_limit: Option<Duration>,
    /// Transposition table of each solve, in MiB.
    pub table_mb: usize,
    /// A search memory (a solve's checkpoint, read back) that the claims on
    /// its board and rules of play start from: what a long proof left there
    /// (the empty 5x5 board's, say) is read instead of searched again. It
    /// is exact for any claim it fits ([`crate::search::memory`]); the
    /// other claims run as without it.
    pub memory: Option<Memory>,
}

impl Default for CheckOptions {
    fn default() -> Self {
        CheckOptions { run_expensive: false, time_limit: Some(Duration::from_secs(60)), table_mb: 128, memory: None }
    }
}
