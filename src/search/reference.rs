//! Plain reference search (placeholder).
