//! Counting complete games (placeholder).
