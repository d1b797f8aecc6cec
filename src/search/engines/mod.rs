//! The searches. `searcher::Searcher` is what the drivers ask of a
//! search; `value_driver` picks the null-window tests that close in on an
//! exact value. The fast solver ([`solver`]) answers them with its
//! iterative-deepening alpha-beta or its df-pn (`solver::dfpn`), sharing
//! one table; the plain [`reference`](mod@reference) search shares only the rules with it,
//! so that the differential test can hold one against the other.

pub mod reference;
pub(crate) mod searcher;
pub mod solver;
pub(crate) mod value_driver;
