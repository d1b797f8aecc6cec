//! Counting legal positions: colourings of the board in which every block
//! (maximal connected set of same-coloured stones) has a liberty, i.e. the
//! colourings that can occur between turns under the Tromp-Taylor rules.
//! The empty board counts.
//!
//! Two methods:
//!
//! - [`count_legal`] is the Tromp–Farnebäck border-state dynamic program
//!   ("Combinatorics of Go", 2006). Points are coloured one at a time in
//!   row-major order of a board whose rows are the *shorter* side (a
//!   transposed board has the same count), so the frontier — the last `W`
//!   points coloured, one per column — is at most 8 points wide. A frontier
//!   state records, per frontier point, whether it is empty or a stone, which
//!   frontier stones are already connected (through points already behind the
//!   frontier), each such group's colour, and whether the group has a liberty
//!   yet. A group that drops off the frontier can never gain a liberty again,
//!   so a state in which a liberty-less group leaves is discarded. The number
//!   of colourings reaching each state is summed; the answer is the total over
//!   final states whose groups all have liberties. Work is
//!   `points × states × 3`, which is milliseconds for 5×5 (the published
//!   414,295,148,741) and exponential only in the short side.
//! - [`count_legal_brute`] enumerates all `3^n` colourings and tests each with
//!   [`Position::is_legal`]. It is the independent oracle for the tests (it
//!   shares nothing with the DP except the geometry) and is practical up to
//!   about 16 points.
//!
//! Counts are `u128`: a 64-point board has fewer than `3^64 < 2^102`
//! colourings, so every supported board fits, but additions are checked
//! anyway and an overflow is reported as [`CountError::Overflow`] rather than
//! wrapped.

use crate::rules::geometry::Geometry;
use crate::rules::position::Position;
use std::collections::HashMap;

/// Why a count could not be produced.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CountError {
    /// The count does not fit in 128 bits.
    #[error("count for {0} overflows 128 bits")]
    Overflow(String),
    /// The board is beyond what the method can finish in reasonable time
    /// (or beyond its representation limits).
    #[error("{0}")]
    TooBig(String),
}

/// Largest number of points [`count_legal_brute`] accepts (3^20 ≈ 3.5e9 colourings).
pub const BRUTE_MAX_POINTS: usize = 20;

/// Number of legal positions of `geo` by the border-state dynamic program.
///
/// Never fails for boards of at most 64 points except on (impossible in
/// practice) 128-bit overflow. The number of frontier states grows roughly
/// like `5^min(W,H)`: 5×5 takes milliseconds, 7×7 about a second and 8×8,
/// the slowest supported board, about 9 s of CPU (measured, release).
pub fn count_legal(geo: &Geometry) -> Result<u128, CountError> {
    // Rows along the short side: frontier width w = min(W, H).
    let (w, h) = if geo.width() <= geo.height() { (geo.width(), geo.height()) } else { (geo.height(), geo.width()) };
    let overflow = || CountError::Overflow(geo.name());
    // Before the first point, the frontier is all "empty", but the first row
    // never looks at it (there is no row below), so any value works.
    let mut layer: HashMap<u64, u128> = HashMap::new();
    layer.insert(Frontier::EMPTY.encode(), 1);
    for y in 0..h {
        for x in 0..w {
            let mut next: HashMap<u64, u128> = HashMap::with_capacity(layer.len() * 2);
            for (&key, &n) in &layer {
                let f = Frontier::decode(key, w);
                for colour in [EMPTY, BLACK, WHITE] {
                    if let Some(g) = f.place(x, y > 0, colour, w) {
                        let slot = next.entry(g.encode()).or_insert(0);
                        *slot = slot.checked_add(n).ok_or_else(overflow)?;
                    }
                }
            }
            layer = next;
        }
    }
    let mut total: u128 = 0;
    for (&key, &n) in &layer {
        if Frontier::decode(key, w).all_alive(w) {
            total = total.checked_add(n).ok_or_else(overflow)?;
        }
    }
    Ok(total)
}

/// Number of legal positions by enumerating all `3^n` colourings (test oracle).
///
/// Errors with [`CountError::TooBig`] beyond [`BRUTE_MAX_POINTS`] points.
pub fn count_legal_brute(geo: &Geometry) -> Result<u128, CountError> {
    if geo.points() > BRUTE_MAX_POINTS {
        return Err(CountError::TooBig(format!(
            "brute-force count of {} would enumerate 3^{} colourings; at most {} points",
            geo.name(),
            geo.points(),
            BRUTE_MAX_POINTS
        )));
    }
    let all = geo.all();
    let mut total: u128 = 0;
    // Every black set, then every white subset of the rest (submask walk).
    let mut black: u64 = 0;
    loop {
        let rest = all & !black;
        let mut white: u64 = 0;
        loop {
            if (Position { black, white }).is_legal(geo) {
                total += 1;
            }
            if white == rest {
                break;
            }
            white = (white.wrapping_sub(rest)) & rest;
        }
        if black == all {
            break;
        }
        black = (black.wrapping_sub(all)) & all;
    }
    Ok(total)
}

/// Every legal position of `geo`, in increasing (black, white) order.
///
/// Used to index positions for [`super::games`]; errors beyond
/// [`BRUTE_MAX_POINTS`] points (the list itself would be astronomically long).
pub fn legal_positions(geo: &Geometry) -> Result<Vec<Position>, CountError> {
    let mut out = Vec::new();
    for_each_legal_position(geo, |p| out.push(p))?;
    Ok(out)
}

/// Call `f` on every legal position of `geo`, in increasing (black, white)
/// order, without listing them (4x4 has 24.3 M: 390 MB as a list). Errors
/// as [`legal_positions`].
pub fn for_each_legal_position(geo: &Geometry, mut f: impl FnMut(Position)) -> Result<(), CountError> {
    if geo.points() > BRUTE_MAX_POINTS {
        return Err(CountError::TooBig(format!(
            "cannot list the legal positions of {} ({} points; at most {})",
            geo.name(),
            geo.points(),
            BRUTE_MAX_POINTS
        )));
    }
    // Black runs through the subsets of the board and White through those
    // of the rest, each in increasing order: the positions come sorted.
    let all = geo.all();
    let mut black: u64 = 0;
    loop {
        let rest = all & !black;
        let mut white: u64 = 0;
        loop {
            let p = Position { black, white };
            if p.is_legal(geo) {
                f(p);
            }
            if white == rest {
                break;
            }
            white = (white.wrapping_sub(rest)) & rest;
        }
        if black == all {
            break;
        }
        black = (black.wrapping_sub(all)) & all;
    }
    Ok(())
}

const EMPTY: u8 = 0;
const BLACK: u8 = 1;
const WHITE: u8 = 2;

/// Frontier slots and groups (max width 8: a 64-point board has a side ≤ 8).
///
/// `label[i]` is 0 for an empty slot, else the group number (1-based) of the
/// stone in slot `i`. Group `g` has colour `colour[g]` and liberty flag
/// `lib[g]`. Group numbers are canonical (assigned in slot order) so equal
/// states encode equally.
#[derive(Clone, Copy)]
struct Frontier {
    label: [u8; 8],
    colour: [u8; 9],
    lib: [bool; 9],
}

impl Frontier {
    const EMPTY: Frontier = Frontier { label: [0; 8], colour: [0; 9], lib: [false; 9] };

    /// Pack: 4 bits of label per slot (32 bits), then per group 1 colour bit
    /// and 1 liberty bit (2 × 8 bits).
    fn encode(&self) -> u64 {
        let mut k = 0u64;
        for i in 0..8 {
            k |= (self.label[i] as u64) << (4 * i);
        }
        for g in 1..=8 {
            if self.colour[g] == WHITE {
                k |= 1 << (32 + g - 1);
            }
            if self.lib[g] {
                k |= 1 << (40 + g - 1);
            }
        }
        k
    }

    fn decode(k: u64, w: usize) -> Frontier {
        let mut f = Frontier::EMPTY;
        for i in 0..w {
            f.label[i] = ((k >> (4 * i)) & 15) as u8;
        }
        for g in 1..=8 {
            f.colour[g] = if (k >> (32 + g - 1)) & 1 == 1 { WHITE } else { BLACK };
            f.lib[g] = (k >> (40 + g - 1)) & 1 == 1;
        }
        f
    }

    /// Colour point (x, row) with `colour`, replacing slot `x` (the point
    /// below, present when `has_below`); `None` when that drops a dead group.
    fn place(&self, x: usize, has_below: bool, colour: u8, w: usize) -> Option<Frontier> {
        let mut f = *self;
        let below = if has_below { f.label[x] } else { 0 };
        let below_empty = has_below && f.label[x] == 0;
        let left = if x > 0 { f.label[x - 1] } else { 0 };
        let left_empty = x > 0 && f.label[x - 1] == 0;
        // New group number for a stone: a fresh one, above any in use.
        const NEW: u8 = 9;
        let mut labels = f.label;
        let mut colours = [0u8; 10];
        let mut libs = [false; 10];
        colours[..9].copy_from_slice(&f.colour);
        libs[..9].copy_from_slice(&f.lib);
        if colour == EMPTY {
            // The empty point is a liberty of both stone neighbours' groups.
            if below != 0 {
                libs[below as usize] = true;
            }
            if left != 0 {
                libs[left as usize] = true;
            }
            labels[x] = 0;
        } else {
            colours[NEW as usize] = colour;
            libs[NEW as usize] = below_empty || left_empty;
            labels[x] = NEW;
            // Merge same-coloured neighbouring groups into NEW.
            for nb in [below, left] {
                if nb != 0 && f.colour[nb as usize] == colour {
                    libs[NEW as usize] |= libs[nb as usize];
                    for l in labels.iter_mut().take(w) {
                        if *l == nb {
                            *l = NEW;
                        }
                    }
                }
            }
        }
        // The point below left the frontier: if its group has no other slot,
        // it is complete and must have a liberty.
        // (A stone of the same colour merged it into NEW, which is still here.)
        let merged = colour != EMPTY && below != 0 && f.colour[below as usize] == colour;
        if below != 0 && !merged && !labels[..w].contains(&below) && !libs[below as usize] {
            return None;
        }
        // Renumber groups canonically in slot order.
        let mut map = [0u8; 10];
        let mut next = 0u8;
        f.colour = [0; 9];
        f.lib = [false; 9];
        for (slot, &l) in f.label.iter_mut().zip(&labels).take(w) {
            if l == 0 {
                *slot = 0;
                continue;
            }
            if map[l as usize] == 0 {
                next += 1;
                map[l as usize] = next;
                f.colour[next as usize] = colours[l as usize];
                f.lib[next as usize] = libs[l as usize];
            }
            *slot = map[l as usize];
        }
        Some(f)
    }

    /// Whether every group on the final frontier has a liberty.
    fn all_alive(&self, w: usize) -> bool {
        self.label[..w].iter().all(|&l| l == 0 || self.lib[l as usize])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dp_matches_brute_force_on_small_boards() {
        for (w, h) in [(1, 1), (1, 2), (2, 1), (1, 3), (2, 2), (3, 2), (2, 3), (3, 3), (1, 7), (4, 2)] {
            let geo = Geometry::new(w, h).unwrap();
            assert_eq!(count_legal(&geo), count_legal_brute(&geo), "{}", geo);
        }
    }

    #[test]
    fn published_values() {
        let c = |w, h| count_legal(&Geometry::new(w, h).unwrap()).unwrap();
        assert_eq!(c(1, 1), 1);
        assert_eq!(c(2, 2), 57);
        assert_eq!(c(3, 3), 12_675);
        assert_eq!(c(4, 4), 24_318_165);
    }

    #[test]
    fn listing_matches_count() {
        let geo = Geometry::new(2, 2).unwrap();
        let list = legal_positions(&geo).unwrap();
        assert_eq!(list.len(), 57);
        assert_eq!(list[0], Position::EMPTY);
        // Tromp's counts of legal positions, as listed (the table build's work list).
        let n = |w, h| legal_positions(&Geometry::new(w, h).unwrap()).unwrap().len();
        assert_eq!(n(1, 1), 1);
        assert_eq!(n(3, 3), 12675);
        assert_eq!(n(1, 4), 41);
        assert_eq!(n(1, 6), 313);
        // In increasing (black, white) order, as a table file is.
        let list = legal_positions(&Geometry::new(3, 2).unwrap()).unwrap();
        assert!(list.windows(2).all(|w| w[0] < w[1]));
    }
}
