//! The game tree as the fast solver walks it: a [`node::Node`] (coloring,
//! player to move, passes) and its legal children, the history that leads
//! to it ([`path::Path`], which superko and the table's reuse rule read),
//! and every hash the search keys things by ([`hash`]).

pub mod hash;
pub mod node;
pub mod path;
