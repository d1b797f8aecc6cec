//! Exact bounds on a node's value without search. Those that hold under any
//! history are the rules' own: Benson's unconditional life and the local
//! games of small regions ([`crate::rules::life`], [`crate::rules::region`]).
//! The one here depends on the history, and is checked against it:
//! territory guarded by a few stones that the history lets no one take
//! ([`guarded`]).

pub(crate) mod guarded;
