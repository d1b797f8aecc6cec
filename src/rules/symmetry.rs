//! Symmetries of the board: the 8 of a square (rotations and reflections), the
//! 4 of a rectangle (reflections and the half turn), fewer for strips (a 1×n
//! strip has 2: identity and reversal, as do n×1).
//!
//! Go's rules commute with any of these, so a position's value under a history
//! equals the value of the transformed position under the transformed history.
//! Used where the whole history maps onto itself or is not involved: the
//! solver's root skips a move whose image under a symmetry of the whole game
//! ([`game_stabilizer`]) was already searched, and so does every node below
//! whose path, situation by situation, is fixed by a symmetry
//! (`search::tree::path::Path::symmetric`, path symmetry in `search::tt`), the solved tables
//! (`tables/`) store one position per orbit (they hold positions with no
//! history), and the game counter memoises its states up to symmetry. The solver's
//! transposition table does *not* share entries between symmetric positions:
//! a stored result's superko dependencies are keyed on exact colorings, and
//! would have to be transformed with it.

use crate::rules::geometry::{Bits, Geometry};
use crate::rules::history::Game;
use crate::rules::position::Position;

/// One symmetry as a permutation of point indices.
#[derive(Clone, Debug)]
pub struct Symmetry {
    map: Vec<u8>,
}

impl Symmetry {
    /// Image of point `p`.
    #[inline(always)]
    pub fn point(&self, p: u8) -> u8 {
        self.map[p as usize]
    }
    /// Image of a set of points.
    #[inline]
    pub fn bits(&self, mut b: Bits) -> Bits {
        let mut out = 0;
        while b != 0 {
            let p = b.trailing_zeros() as usize;
            b &= b - 1;
            out |= 1u64 << self.map[p];
        }
        out
    }
    /// Image of a position.
    #[inline]
    pub fn position(&self, pos: &Position) -> Position {
        Position { black: self.bits(pos.black), white: self.bits(pos.white) }
    }
    /// The inverse permutation.
    pub fn inverse(&self) -> Symmetry {
        let mut map = vec![0u8; self.map.len()];
        for (i, &j) in self.map.iter().enumerate() {
            map[j as usize] = i as u8;
        }
        Symmetry { map }
    }
    pub fn is_identity(&self) -> bool {
        self.map.iter().enumerate().all(|(i, &j)| i == j as usize)
    }
}

/// All distinct symmetries of `geo`, identity first.
pub fn symmetries(geo: &Geometry) -> Vec<Symmetry> {
    let (w, h) = (geo.width(), geo.height());
    let mut out: Vec<Symmetry> = Vec::new();
    // (swap axes, flip x, flip y); swapping axes is only a symmetry of squares.
    for swap in [false, true] {
        if swap && w != h {
            continue;
        }
        for fx in [false, true] {
            for fy in [false, true] {
                let mut map = vec![0u8; geo.points()];
                for y in 0..h {
                    for x in 0..w {
                        let (mut nx, mut ny) = (x, y);
                        if fx {
                            nx = w - 1 - nx;
                        }
                        if fy {
                            ny = h - 1 - ny;
                        }
                        if swap {
                            std::mem::swap(&mut nx, &mut ny);
                        }
                        map[geo.point(x, y) as usize] = geo.point(nx, ny);
                    }
                }
                if !out.iter().any(|s| s.map == map) {
                    out.push(Symmetry { map });
                }
            }
        }
    }
    out
}

/// Every symmetry of a board as lookup tables, for the search's hot paths:
/// the image of a bitboard is the OR of one table word per byte of it, and
/// the group's composition and inverses are tables too. Symmetry `0` is the
/// identity (as in [`symmetries`]).
#[derive(Clone, Debug)]
pub struct SymmetryTables {
    count: usize,
    chunks: usize,
    /// `images[(s * chunks + c) * 256 + v]`: the image under `s` of the
    /// points `v << 8c`.
    images: Vec<Bits>,
    /// `compose[a][b]`: the index of a ∘ b (b first).
    compose: [[u8; 8]; 8],
    inverse: [u8; 8],
    /// Point maps, for moves.
    maps: Vec<Symmetry>,
    /// `points[s][p]`: the image of point `p` under `s` (the maps again,
    /// flat, for [`SymmetryTables::canonical_near`]).
    points: [[u8; 64]; 8],
}

/// A position with its images under every symmetry of the board, from
/// which [`SymmetryTables::canonical_near`] finds the canonical image of a
/// position that differs from it in a few points.
#[derive(Clone, Copy, Debug)]
pub struct Images {
    pos: Position,
    black: [Bits; 8],
    white: [Bits; 8],
}

impl SymmetryTables {
    pub fn new(geo: &Geometry) -> SymmetryTables {
        let maps = symmetries(geo);
        let count = maps.len();
        let chunks = geo.points().div_ceil(8);
        let mut images = vec![0; count * chunks * 256];
        for (s, m) in maps.iter().enumerate() {
            for c in 0..chunks {
                for v in 0..256usize {
                    images[(s * chunks + c) * 256 + v] = m.bits(((v as Bits) << (8 * c)) & geo.all());
                }
            }
        }
        let index = |map: &[u8]| maps.iter().position(|m| m.map == map).expect("the symmetries form a group") as u8;
        let mut compose = [[0u8; 8]; 8];
        let mut inverse = [0u8; 8];
        for (a, ma) in maps.iter().enumerate() {
            for (b, mb) in maps.iter().enumerate() {
                let ab: Vec<u8> = mb.map.iter().map(|&p| ma.map[p as usize]).collect();
                compose[a][b] = index(&ab);
            }
            inverse[a] = index(&ma.inverse().map);
        }
        let mut points = [[0u8; 64]; 8];
        for (s, m) in maps.iter().enumerate() {
            points[s][..m.map.len()].copy_from_slice(&m.map);
        }
        SymmetryTables { count, chunks, images, compose, inverse, maps, points }
    }

    /// How many symmetries the board has (1, 2, 4 or 8).
    #[inline(always)]
    pub fn count(&self) -> usize {
        self.count
    }

    /// The image of the points `b` under symmetry `s`.
    #[inline(always)]
    pub fn image(&self, s: usize, b: Bits) -> Bits {
        let base = s * self.chunks * 256;
        let mut out = 0;
        for c in 0..self.chunks {
            out |= self.images[base + c * 256 + ((b >> (8 * c)) & 0xff) as usize];
        }
        out
    }

    /// The image of a position under symmetry `s`.
    #[inline(always)]
    pub fn position(&self, s: usize, pos: &Position) -> Position {
        Position { black: self.image(s, pos.black), white: self.image(s, pos.white) }
    }

    /// Symmetry `s` as a point map (0 is the identity: the order of
    /// [`symmetries`]).
    #[inline(always)]
    pub fn map(&self, s: usize) -> &Symmetry {
        &self.maps[s]
    }

    /// The image of point `p` under symmetry `s`.
    #[inline(always)]
    pub fn point(&self, s: usize, p: u8) -> u8 {
        self.maps[s].point(p)
    }

    /// The index of a ∘ b (b applied first).
    #[inline(always)]
    pub fn compose(&self, a: usize, b: usize) -> usize {
        self.compose[a][b] as usize
    }

    /// The index of the inverse of `s`.
    #[inline(always)]
    pub fn inverse(&self, s: usize) -> usize {
        self.inverse[s] as usize
    }

    /// `pos` with its images under every symmetry, for
    /// [`SymmetryTables::canonical_near`].
    #[inline]
    pub fn images(&self, pos: &Position) -> Images {
        let mut out = Images { pos: *pos, black: [0; 8], white: [0; 8] };
        for s in 0..self.count {
            out.black[s] = self.image(s, pos.black);
            out.white[s] = self.image(s, pos.white);
        }
        out
    }

    /// [`SymmetryTables::canonical`] of `pos`, found from the images of a
    /// position `near` it (a parent, when `pos` is a child): a symmetry
    /// permutes the points, so the image of `pos` is the image of `near`
    /// with the images of the points where the two differ toggled, and a
    /// move changes one point and the few it captures. df-pn keys every
    /// child of every node it expands; the full images cost a table word
    /// per byte of each bitboard under each symmetry (on 5x5, 4 loads for
    /// each of the 7 other symmetries, per colour), about 18 % of the
    /// children's loop (a profile of 2026-11-27, commit 2461971). The
    /// same images, so the same answer, as `canonical(pos)`.
    #[inline]
    pub fn canonical_near(&self, near: &Images, pos: &Position) -> (Position, usize) {
        let (db, dw) = (near.pos.black ^ pos.black, near.pos.white ^ pos.white);
        if (db | dw).count_ones() > 8 {
            return self.canonical(pos);
        }
        let mut best = (*pos, 0);
        for s in 1..self.count {
            let black = near.black[s] ^ self.sparse_image(s, db);
            if black > best.0.black {
                continue;
            }
            let white = near.white[s] ^ self.sparse_image(s, dw);
            if (black, white) < (best.0.black, best.0.white) {
                best = (Position { black, white }, s);
            }
        }
        debug_assert_eq!(best, self.canonical(pos));
        best
    }

    /// The image under `s` of a set of few points, point by point.
    #[inline(always)]
    fn sparse_image(&self, s: usize, mut b: Bits) -> Bits {
        let mut out = 0;
        while b != 0 {
            out |= 1 << self.points[s][b.trailing_zeros() as usize];
            b &= b - 1;
        }
        out
    }

    /// The canonical image of `pos` (the least of its images, ordered by
    /// Black's then White's points) and a symmetry that maps `pos` to it
    /// (the first, if several do).
    #[inline]
    pub fn canonical(&self, pos: &Position) -> (Position, usize) {
        let mut best = (*pos, 0);
        for s in 1..self.count {
            let black = self.image(s, pos.black);
            if black > best.0.black {
                continue;
            }
            let white = self.image(s, pos.white);
            if (black, white) < (best.0.black, best.0.white) {
                best = (Position { black, white }, s);
            }
        }
        best
    }
}

/// The symmetries (identity excluded) that fix the game's current position
/// and map its history onto itself, as a set of situations.
///
/// Under such a symmetry s the value of the position reached by a move m
/// equals that of the position reached by s(m): the game after s(m) is the
/// image of the game after m, and superko only asks whether a situation is
/// in the history. So a solver needs only one move of each orbit.
pub fn game_stabilizer(game: &Game) -> Vec<Symmetry> {
    let keys: std::collections::HashSet<_> = game.history.keys().copied().collect();
    symmetries(&game.geo)
        .into_iter()
        .filter(|s| !s.is_identity() && s.position(&game.position) == game.position)
        .filter(|s| {
            keys.iter().all(|k| {
                let pos = s.position(&Position { black: k.black, white: k.white });
                let image = crate::rules::history::SuperkoKey { black: pos.black, white: pos.white, side: k.side };
                keys.contains(&image)
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts() {
        let n = |w, h| symmetries(&Geometry::new(w, h).unwrap()).len();
        assert_eq!(n(3, 3), 8);
        assert_eq!(n(3, 2), 4);
        assert_eq!(n(1, 5), 2);
        assert_eq!(n(1, 1), 1);
    }

    fn game(w: usize, h: usize, moves: &[&str]) -> Game {
        use crate::rules::position::{Color, Move, Rules};
        let mut g = Game::new(Geometry::new(w, h).unwrap(), Rules::default(), Position::EMPTY, Color::Black).unwrap();
        for m in moves {
            g.play(Move::parse(m, &g.geo).unwrap()).unwrap();
        }
        g
    }

    #[test]
    fn stabilizer_needs_position_and_history_symmetric() {
        assert_eq!(game_stabilizer(&game(3, 3, &[])).len(), 7);
        // b2 is fixed by every symmetry, and so is the history {empty, b2}.
        assert_eq!(game_stabilizer(&game(3, 3, &["b2"])).len(), 7);
        // a1 is fixed only by the reflection in the a1-c3 diagonal.
        assert_eq!(game_stabilizer(&game(3, 3, &["a1"])).len(), 1);
        // {a1, a5} is symmetric, but the history holds {a1} and not {a5}.
        assert!(game_stabilizer(&game(1, 5, &["a1", "pass", "a5"])).is_empty());
        assert_eq!(game_stabilizer(&game(1, 5, &["a3"])).len(), 1);
    }

    /// The tables agree with the point maps, compose and invert as the
    /// maps do, and every image of a position has the same canonical form.
    #[test]
    fn tables_agree_with_the_maps() {
        for (w, h) in [(5, 5), (4, 4), (4, 5), (1, 7), (8, 8), (3, 2)] {
            let geo = Geometry::new(w, h).unwrap();
            let maps = symmetries(&geo);
            let t = SymmetryTables::new(&geo);
            assert_eq!(t.count(), maps.len());
            let mut x: u64 = 0x2545_F491_4F6C_DD1D;
            for _ in 0..50 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let black = x & geo.all() & 0x5555_5555_5555_5555;
                let white = (x >> 1) & geo.all() & !black & 0x2222_2222_2222_2222;
                let pos = Position { black, white };
                let (canon, c) = t.canonical(&pos);
                assert_eq!(t.position(c, &pos), canon);
                // From the images of a position a few points away (a
                // parent: a stone added, some captured), or many.
                for flip in [0, x >> 40 & 1, x >> 20 & 0x8421, !0] {
                    let near = Position { black: black ^ (flip & geo.all() & !white), white };
                    assert_eq!(t.canonical_near(&t.images(&near), &pos), (canon, c), "{w}x{h}");
                }
                for (s, m) in maps.iter().enumerate() {
                    assert_eq!(t.image(s, black), m.bits(black));
                    let img = t.position(s, &pos);
                    assert_eq!(t.canonical(&img).0, canon, "{w}x{h}");
                    assert_eq!(t.position(t.inverse(s), &img), pos);
                    for (r, _) in maps.iter().enumerate() {
                        assert_eq!(t.position(t.compose(r, s), &pos), t.position(r, &img));
                    }
                }
            }
        }
    }

    #[test]
    fn symmetries_preserve_adjacency() {
        for (w, h) in [(3, 3), (4, 2), (1, 6), (2, 2)] {
            let geo = Geometry::new(w, h).unwrap();
            for s in symmetries(&geo) {
                assert!(symmetries(&geo)[0].is_identity());
                for p in 0..geo.points() as u8 {
                    let n = geo.neighbours(1 << p);
                    assert_eq!(s.bits(n), geo.neighbours(1 << s.point(p)));
                    assert_eq!(s.inverse().point(s.point(p)), p);
                }
            }
        }
    }
}
