//! SGF reading and writing (placeholder, filled in by the formats work).
