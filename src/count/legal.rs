//! Counting legal positions (placeholder).
