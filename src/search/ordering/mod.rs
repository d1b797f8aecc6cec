//! What orders the work: which move the alpha-beta tries first ([`moves`]:
//! tiers and the history heuristic), where df-pn's numbers start (the score
//! guess, [`guess`]), and which child df-pn expands first (the 3x3 move
//! prior, [`policy`]; random playouts on large positions, `playout`).
//!
//! None of it can change a value: an order only decides which proof is
//! found first, and a starting number or a rank only which node df-pn
//! expands next; every node is still resolved by the rules and the table's
//! reuse rule alone.

pub mod guess;
pub mod moves;
pub(crate) mod playout;
pub mod policy;
