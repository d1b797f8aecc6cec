//! Counting complete games: the "perft" of Go, after Tromp's counts of 907
//! games on 1×3 and 386,356,909,593 on 2×2 (rec.games.go, 1999).
//!
//! # What is counted
//!
//! A game is a sequence of turns starting from the empty board, Black first,
//! colours alternating, each turn a pass or a move (rule 7, with suicide
//! allowed or not per [`Rules::suicide`]), ending exactly at the second of two
//! consecutive passes. Two games differ when their turn sequences differ, even
//! if they pass through the same positions (two different suicides can leave
//! the same board). Superko follows the conventions of [`crate::rules::history::Game`]:
//!
//! - **positional** (Tromp's count): a move may not produce any colouring seen
//!   before in the game, the empty start included. A suicide that removes only
//!   the played stone leaves the board unchanged, so it recreates the current
//!   position and is *never* legal. Passes are always legal and create
//!   nothing new. `pass pass` at once is a game (the only one on 1×1).
//! - **situational**: the key is (colouring, player to move). Every turn,
//!   passes included, records the situation it produces (as
//!   [`crate::rules::history::History`] does), and a move may not produce a
//!   situation recorded before. Passes are always legal.
//!
//! With these conventions, positional superko with suicide allowed gives
//! 1×3 = 907 and 2×2 = 386,356,909,593, Tromp's figures (on both boards every
//! suicide is a superko repeat, so `--no-suicide` gives the same numbers), and
//! 1×1 = 1, 1×2 = 9, 1×4 = 2,098,407,841, which agree with Tromp &
//! Farnebäck's table of exact game counts as transcribed by a third party.
//!
//! # Method
//!
//! Every move produces a new situation, so every game is finite.
//!
//! **Positional superko: simple paths.** Between two moves there are either
//! no passes (the colours alternate) or exactly one (the same colour moves
//! again), and the game ends with two passes after its last move. So a game
//! is exactly a sequence of moves in which *each move's colour is free*, plus
//! a fixed way to fill in passes: the number of games is the number of simple
//! paths from the empty board in the multigraph whose vertices are the legal
//! positions (57 on 2×2) and whose edges are the legal moves of either colour,
//! the empty path included. That count depends only on the current position
//! and the set `U` of unvisited positions still *reachable* from it (visited
//! or unreachable positions can never be entered), so it is memoised on
//! (U, current position), up to the board's symmetries combined with the
//! colour swap. See `PathCounter` in the source for the details that make 2×2 take
//! seconds instead of hours.
//!
//! **Situational superko: the recursion over turns.** The colour to move now
//! matters, so the state is (visited situations `V`, position `p`, player to
//! move `c`, last turn a pass). Writing `M(V, p, c)` for the games that go on
//! with a *move* by `c`:
//!
//! ```text
//! A(V, p, c) = B(V', p, c') + M(V, p, c)      (last turn not a pass; c may pass)
//! B(V, p, c) = 1 + M(V, p, c)                  (last turn a pass; c's pass ends it)
//! M(V, p, c) = Σ over legal moves p→q of c:  A(V ∪ {(q, c')}, q, c')
//! ```
//!
//! with `V' = V ∪ {(p, c')}` (the pass records its situation). `M` is memoised
//! up to symmetry; the answer is `A({(empty, Black)}, empty, Black)`. The same
//! recursion with positional keys is [`count_games_by_turns`], an independent
//! check of the path reformulation on small boards.
//!
//! # Limits
//!
//! The number of states explodes with the number of legal positions: 1×5
//! (113 positions) does not finish in minutes, 2×3 has 489. So
//! [`count_games`] refuses boards beyond [`GAMES_MAX_POINTS`] points
//! (positional) or [`GAMES_MAX_POINTS_SITUATIONAL`] (situational, where 1×4
//! already exhausts gigabytes); [`count_games_unlimited`] tries anyway.

use super::legal::{count_legal, legal_positions, CountError};
use crate::rules::geometry::Geometry;
use crate::rules::movegen;
use crate::rules::position::{Color, Position, Rules, Superko};
use crate::rules::symmetry::symmetries;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Largest board (in points) [`count_games`] attempts under positional
/// superko: 2×2 takes seconds, while 1×5 runs for many minutes and gigabytes.
pub const GAMES_MAX_POINTS: usize = 4;

/// Largest board (in points) [`count_games`] attempts under situational
/// superko: 1×3 is instant, 1×4 runs out of memory.
pub const GAMES_MAX_POINTS_SITUATIONAL: usize = 3;

/// Most legal positions the game counters index (bit sets of 1024 bits).
pub const GAMES_MAX_POSITIONS: u128 = 1024;

/// Number of complete games on `geo` under `rules` (komi is irrelevant).
///
/// Errors with [`CountError::TooBig`] when the board has more than
/// [`GAMES_MAX_POINTS`] points ([`GAMES_MAX_POINTS_SITUATIONAL`] under
/// situational superko).
pub fn count_games(geo: &Geometry, rules: &Rules) -> Result<u128, CountError> {
    let limit = match rules.superko {
        Superko::Positional => GAMES_MAX_POINTS,
        Superko::Situational => GAMES_MAX_POINTS_SITUATIONAL,
    };
    if geo.points() > limit {
        return Err(CountError::TooBig(format!(
            "counting games on {} ({} points) under {} superko would not finish: at most {} points (--force tries anyway)",
            geo.name(),
            geo.points(),
            rules.superko.name(),
            limit
        )));
    }
    count_games_unlimited(geo, rules)
}

/// [`count_games`] without the size limit. Errors only when the board has
/// more than [`GAMES_MAX_POSITIONS`] legal positions (the situational count
/// needs twice as many situations, at most 1024) or on overflow; otherwise it
/// may run, and grow its table, for a very long time.
pub fn count_games_unlimited(geo: &Geometry, rules: &Rules) -> Result<u128, CountError> {
    let graph = Graph::new(geo, rules)?;
    let positional = rules.superko == Superko::Positional;
    dispatch(&graph, positional).map_err(|e| match e {
        CountError::Overflow(_) => CountError::Overflow(geo.name()),
        CountError::TooBig(m) => CountError::TooBig(format!("{}: {}", geo.name(), m)),
    })
}

/// The same count by the direct recursion over turns (see the module
/// documentation), for either superko, without the path reformulation.
/// Exponentially slower under positional superko (1×4 exhausts gigabytes);
/// kept as an independent check of the reformulation on small boards.
pub fn count_games_by_turns(geo: &Geometry, rules: &Rules) -> Result<u128, CountError> {
    let graph = Graph::new(geo, rules)?;
    dispatch(&graph, false)
}

fn dispatch(graph: &Graph, paths: bool) -> Result<u128, CountError> {
    let n = graph.situations;
    let bits = if paths { n + index_bits(n) } else { n };
    macro_rules! run {
        ($k:literal) => {
            if paths {
                PathCounter::<$k>::new(graph).total()
            } else {
                Counter::<$k>::new(graph).total()
            }
        };
    }
    match bits.div_ceil(64) {
        0 | 1 => run!(1),
        2 => run!(2),
        3 | 4 => run!(4),
        5..=8 => run!(8),
        9..=16 => run!(16),
        _ => Err(CountError::TooBig(format!("{} situations; the game counters support at most 1024", n))),
    }
}

/// The game graph: legal positions, their moves, and symmetry tables.
struct Graph {
    positions: Vec<Position>,
    points: usize,
    situational: bool,
    /// Number of situation indices: positions, or positions × 2 (situational).
    situations: usize,
    /// Index of the empty board among the positions.
    empty: u16,
    /// `moves[pos * 2 + colour]`: the position index after each legal point
    /// move of `colour` (0 Black, 1 White) from `pos`, before superko.
    moves: Vec<Vec<u16>>,
    /// Permutations of situation indices (board symmetries × colour swap),
    /// identity first, each with whether it swaps colours.
    perms: Vec<(Vec<u16>, bool)>,
    /// Same permutations on position indices.
    pos_perms: Vec<Vec<u16>>,
}

impl Graph {
    fn new(geo: &Geometry, rules: &Rules) -> Result<Graph, CountError> {
        // Check the size with the fast DP before enumerating 3^n colourings.
        let legal = count_legal(geo)?;
        if legal > GAMES_MAX_POSITIONS {
            return Err(CountError::TooBig(format!(
                "{} has {} legal positions; the game counters index at most {}",
                geo.name(),
                legal,
                GAMES_MAX_POSITIONS
            )));
        }
        let positions = legal_positions(geo)?;
        let index: HashMap<Position, u16> = positions.iter().enumerate().map(|(i, &p)| (p, i as u16)).collect();
        let mut moves = Vec::with_capacity(positions.len() * 2);
        for pos in &positions {
            for c in [Color::Black, Color::White] {
                let succ = movegen::all_placements(geo, pos, c, rules.suicide).map(|(_, q)| index[&q]).collect();
                moves.push(succ);
            }
        }
        let situational = rules.superko == Superko::Situational;
        let situations = positions.len() * if situational { 2 } else { 1 };
        let mut perms = Vec::new();
        let mut pos_perms = Vec::new();
        for swap in [false, true] {
            for s in symmetries(geo) {
                let image = |p: &Position| {
                    let q = s.position(p);
                    if swap {
                        q.colours_swapped()
                    } else {
                        q
                    }
                };
                let pp: Vec<u16> = positions.iter().map(|p| index[&image(p)]).collect();
                let sp: Vec<u16> = if situational {
                    (0..situations).map(|i| pp[i / 2] * 2 + ((i % 2) as u16 ^ swap as u16)).collect()
                } else {
                    pp.clone()
                };
                perms.push((sp, swap));
                pos_perms.push(pp);
            }
        }
        let empty = index[&Position::EMPTY];
        Ok(Graph { positions, points: geo.points(), situational, situations, empty, moves, perms, pos_perms })
    }

    /// Situation index of position `pos` with `to_move` (0/1) to play.
    #[inline(always)]
    fn situation(&self, pos: u16, to_move: usize) -> usize {
        if self.situational {
            pos as usize * 2 + to_move
        } else {
            pos as usize
        }
    }
}

/// A visited set of situations, `K` 64-bit words.
type Set<const K: usize> = [u64; K];

#[inline(always)]
fn has<const K: usize>(s: &Set<K>, i: usize) -> bool {
    s[i / 64] >> (i % 64) & 1 == 1
}
#[inline(always)]
fn with<const K: usize>(mut s: Set<K>, i: usize) -> Set<K> {
    s[i / 64] |= 1 << (i % 64);
    s
}

/// Memo key: visited set, current position, player to move.
type Key<const K: usize> = (Set<K>, u16, u8);

/// FxHash-style hasher (one rotate-xor-multiply per word, then a finaliser):
/// the keys are a few words of bit set, and SipHash would dominate the run
/// time.
#[derive(Default)]
struct FxHasher(u64);

impl Hasher for FxHasher {
    #[inline(always)]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.write_u64(u64::from_le_bytes(c.try_into().unwrap()));
        }
        for &b in chunks.remainder() {
            self.write_u64(b as u64);
        }
    }
    #[inline(always)]
    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    #[inline(always)]
    fn write_u16(&mut self, v: u16) {
        self.write_u64(v as u64);
    }
    #[inline(always)]
    fn write_u8(&mut self, v: u8) {
        self.write_u64(v as u64);
    }
    #[inline(always)]
    fn write_usize(&mut self, v: usize) {
        self.write_u64(v as u64);
    }
    #[inline(always)]
    fn finish(&self) -> u64 {
        // Murmur3's finaliser: hashbrown takes the bucket from the low bits,
        // which a bare multiply leaves depending on the low input bits only.
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^ (h >> 33)
    }
}

/// The recursion over turns (module documentation), memoising `M` on
/// (V, p, c) up to symmetry.
struct Counter<'g, const K: usize> {
    g: &'g Graph,
    memo: HashMap<Key<K>, u128, BuildHasherDefault<FxHasher>>,
}

impl<'g, const K: usize> Counter<'g, K> {
    fn new(g: &'g Graph) -> Self {
        Counter { g, memo: HashMap::default() }
    }

    fn total(&mut self) -> Result<u128, CountError> {
        let start = with([0u64; K], self.g.situation(self.g.empty, 0));
        self.after_move(start, self.g.empty, 0)
    }

    /// `A(V, p, c)`: games from `p` with `c` to move, the last turn not a pass.
    fn after_move(&mut self, v: Set<K>, pos: u16, c: usize) -> Result<u128, CountError> {
        // c passes: the situation (pos, other) is recorded under situational superko.
        let v_pass = with(v, self.g.situation(pos, 1 - c));
        let after_pass = 1u128.checked_add(self.moves(v_pass, pos, 1 - c)?).ok_or_else(ovf)?;
        after_pass.checked_add(self.moves(v, pos, c)?).ok_or_else(ovf)
    }

    /// `M(V, p, c)`: games from `p` that continue with a move by `c`.
    fn moves(&mut self, v: Set<K>, pos: u16, c: usize) -> Result<u128, CountError> {
        let key = self.canonical(v, pos, c);
        if let Some(&n) = self.memo.get(&key) {
            return Ok(n);
        }
        let g = self.g;
        let mut total: u128 = 0;
        for &q in &g.moves[pos as usize * 2 + c] {
            let s = g.situation(q, 1 - c);
            if has(&v, s) {
                continue;
            }
            let n = self.after_move(with(v, s), q, 1 - c)?;
            total = total.checked_add(n).ok_or_else(ovf)?;
        }
        self.memo.insert(key, total);
        Ok(total)
    }

    /// The least image of (V, p, c) under the symmetry group.
    fn canonical(&self, v: Set<K>, pos: u16, c: usize) -> Key<K> {
        let mut best: Key<K> = (v, pos, c as u8);
        for (k, (perm, swap)) in self.g.perms.iter().enumerate().skip(1) {
            let mut image = [0u64; K];
            for (w, &word) in v.iter().enumerate() {
                let mut bits = word;
                while bits != 0 {
                    let i = w * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    let j = perm[i] as usize;
                    image[j / 64] |= 1 << (j % 64);
                }
            }
            let cand: Key<K> = (image, self.g.pos_perms[k][pos as usize], (c as u8) ^ (*swap as u8));
            if cand < best {
                best = cand;
            }
        }
        best
    }
}

/// Open-addressing hash table from non-zero bit-set keys to `u64`, with
/// linear probing and the key and value side by side, so a lookup is usually
/// one cache miss (a general hash map touches a control array and a bucket).
/// The all-zero key marks an empty slot; the path counter's keys always have
/// the current position's bits set (and `U` is never empty).
struct SetTable<const K: usize> {
    slots: Vec<(Set<K>, u64)>,
    len: usize,
}

impl<const K: usize> SetTable<K> {
    fn new() -> Self {
        SetTable { slots: vec![([0; K], 0); 1 << 10], len: 0 }
    }

    #[inline(always)]
    fn home(&self, key: &Set<K>) -> usize {
        let mut h = FxHasher::default();
        for &w in key {
            h.write_u64(w);
        }
        h.finish() as usize & (self.slots.len() - 1)
    }

    #[inline]
    fn get(&self, key: &Set<K>) -> Option<u64> {
        let mask = self.slots.len() - 1;
        let mut i = self.home(key);
        loop {
            let (k, v) = &self.slots[i];
            if k == key {
                return Some(*v);
            }
            if *k == [0; K] {
                return None;
            }
            i = (i + 1) & mask;
        }
    }

    /// Insert a key that is not present.
    fn insert(&mut self, key: Set<K>, value: u64) {
        debug_assert!(key != [0; K]);
        // Keep the load at most 3/4.
        if (self.len + 1) * 4 > self.slots.len() * 3 {
            let bigger = vec![([0; K], 0); self.slots.len() * 2];
            let old = std::mem::replace(&mut self.slots, bigger);
            for (k, v) in old {
                if k != [0; K] {
                    self.place(k, v);
                }
            }
        }
        self.place(key, value);
        self.len += 1;
    }

    #[inline]
    fn place(&mut self, key: Set<K>, value: u64) {
        let mask = self.slots.len() - 1;
        let mut i = self.home(&key);
        while self.slots[i].0 != [0; K] {
            i = (i + 1) & mask;
        }
        self.slots[i] = (key, value);
    }
}

/// Positional superko as simple-path counting: the number of simple paths
/// from `cur` that stay inside `U`, where `U` is always exactly the set of
/// unvisited positions still reachable from `cur` (plus `cur`): positions
/// that can never be entered again cannot affect the count, so dropping them
/// makes equal futures share one memo entry.
///
/// Only states whose current position has `⌊n/2⌋` stones (and the root) are
/// memoised, keyed by (U, cur) up to symmetry; the others are recomputed.
/// Non-capturing moves climb one stone at a time, so a path keeps crossing
/// the middle level and the recomputation between memoised states is short.
/// On 2×2 this stores 11.1 million states instead of the 33.3 million of
/// memoising every state, and ran in about half the time with a sixth of the
/// memory (measured while developing; the level was picked by trying each
/// level and combinations on 2×2 and 1×4, and the middle won on both).
///
/// The table is a flat open-addressing [`SetTable`]: a lookup is one cache
/// miss, which made the whole count about 30% faster than with `HashMap`.
struct PathCounter<'g, const K: usize> {
    g: &'g Graph,
    /// Move targets of each position, both colours, with multiplicity.
    edges: Vec<Vec<u16>>,
    /// The same as bit sets.
    succ: Vec<Set<K>>,
    /// Least image of each position under the symmetries, and the
    /// symmetries (indices into `g.pos_perms`) that map it there.
    canon_cur: Vec<u16>,
    stabiliser: Vec<Vec<usize>>,
    /// `byte_table[((k * 8K) + byte index) * 256 + byte value]`: image under
    /// symmetry `k` of the positions that byte of a set stands for (K ≤ 4).
    byte_table: Vec<Set<K>>,
    /// Whether states at this position are memoised.
    memoise: Vec<bool>,
    /// Key bits: U in bits `0..n`, the canonical current position from bit `n`.
    n: usize,
    /// Counts that fit 64 bits (all of them on 2×2); the rare larger ones go
    /// to `big`, marked by `u64::MAX` here.
    memo: SetTable<K>,
    big: HashMap<Set<K>, u128, BuildHasherDefault<FxHasher>>,
}

/// Bits needed to write a position index below `n`.
fn index_bits(n: usize) -> usize {
    (usize::BITS - n.saturating_sub(1).leading_zeros()) as usize
}

impl<'g, const K: usize> PathCounter<'g, K> {
    fn new(g: &'g Graph) -> Self {
        let n = g.situations;
        debug_assert!(n + index_bits(n) <= 64 * K);
        let mid = g.points as u32 / 2;
        let mut edges = Vec::with_capacity(n);
        let mut succ = Vec::with_capacity(n);
        let mut canon_cur = Vec::with_capacity(n);
        let mut stabiliser = Vec::with_capacity(n);
        let mut memoise = Vec::with_capacity(n);
        for v in 0..n {
            let e: Vec<u16> = g.moves[v * 2].iter().chain(&g.moves[v * 2 + 1]).copied().collect();
            succ.push(e.iter().fold([0u64; K], |s, &q| with(s, q as usize)));
            edges.push(e);
            let least = g.pos_perms.iter().map(|p| p[v]).min().unwrap_or(v as u16);
            canon_cur.push(least);
            stabiliser.push((0..g.pos_perms.len()).filter(|&k| g.pos_perms[k][v] == least).collect());
            memoise.push(v == g.empty as usize || g.positions[v].stone_count() == mid);
        }
        let mut byte_table = Vec::new();
        if K <= 4 {
            byte_table = vec![[0u64; K]; g.pos_perms.len() * 8 * K * 256];
            for (k, perm) in g.pos_perms.iter().enumerate() {
                for byte_index in 0..8 * K {
                    for value in 0..256usize {
                        let t = &mut byte_table[(k * 8 * K + byte_index) * 256 + value];
                        for bit in 0..8 {
                            let i = byte_index * 8 + bit;
                            if value >> bit & 1 == 1 && i < n {
                                let j = perm[i] as usize;
                                t[j / 64] |= 1 << (j % 64);
                            }
                        }
                    }
                }
            }
        }
        PathCounter {
            g,
            byte_table,
            edges,
            succ,
            canon_cur,
            stabiliser,
            memoise,
            n,
            memo: SetTable::new(),
            big: HashMap::default(),
        }
    }

    fn total(&mut self) -> Result<u128, CountError> {
        let mut all = [0u64; K];
        for i in 0..self.g.situations {
            all = with(all, i);
        }
        let e = self.g.empty;
        let u = self.reach(e, all);
        self.paths(u, e)
    }

    /// Positions reachable from `q` through `within` (`q` included).
    #[inline]
    fn reach(&self, q: u16, within: Set<K>) -> Set<K> {
        let mut seen = with([0u64; K], q as usize);
        let mut frontier = seen;
        loop {
            let mut next = [0u64; K];
            for (w, &word) in frontier.iter().enumerate() {
                let mut bits = word;
                while bits != 0 {
                    let v = w * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    for (n, s) in next.iter_mut().zip(&self.succ[v]) {
                        *n |= s;
                    }
                }
            }
            let mut any = 0u64;
            for i in 0..K {
                next[i] &= within[i] & !seen[i];
                seen[i] |= next[i];
                any |= next[i];
            }
            if any == 0 {
                return seen;
            }
            frontier = next;
        }
    }

    /// Simple paths starting at `cur` inside `u` (which contains `cur` and
    /// only positions reachable from it), the empty path included.
    fn paths(&mut self, u: Set<K>, cur: u16) -> Result<u128, CountError> {
        let memoise = self.memoise[cur as usize];
        let key = if memoise { self.key(u, cur) } else { [0; K] };
        if memoise {
            if let Some(n) = self.memo.get(&key) {
                return Ok(if n == u64::MAX { self.big[&key] } else { n as u128 });
            }
        }
        let mut rest = u;
        rest[cur as usize / 64] &= !(1u64 << (cur % 64));
        let mut total: u128 = 1;
        for i in 0..self.edges[cur as usize].len() {
            let q = self.edges[cur as usize][i];
            if has(&rest, q as usize) {
                let r = self.reach(q, rest);
                total = total.checked_add(self.paths(r, q)?).ok_or_else(ovf)?;
            }
        }
        if memoise {
            if total >= u64::MAX as u128 {
                self.big.insert(key, total);
                self.memo.insert(key, u64::MAX);
            } else {
                self.memo.insert(key, total as u64);
            }
        }
        Ok(total)
    }

    /// Image of the set `u` under symmetry `k`: one table lookup per byte
    /// when the tables exist (K ≤ 4), else bit by bit.
    #[inline(always)]
    fn image(&self, k: usize, u: Set<K>) -> Set<K> {
        if k == 0 {
            return u; // the identity
        }
        let mut image = [0u64; K];
        if !self.byte_table.is_empty() {
            let base = k * 8 * K * 256;
            for (w, &word) in u.iter().enumerate() {
                for b in 0..8 {
                    let byte = (word >> (8 * b)) as u8 as usize;
                    if byte != 0 {
                        let t = &self.byte_table[base + (w * 8 + b) * 256 + byte];
                        for (x, y) in image.iter_mut().zip(t) {
                            *x |= y;
                        }
                    }
                }
            }
        } else {
            let perm = &self.g.pos_perms[k];
            for (w, &word) in u.iter().enumerate() {
                let mut bits = word;
                while bits != 0 {
                    let i = w * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    let j = perm[i] as usize;
                    image[j / 64] |= 1 << (j % 64);
                }
            }
        }
        image
    }

    /// A canonical image of (U, cur) under board symmetries and colour swap,
    /// packed into one bit set: `cur` mapped to the least position of its
    /// orbit, then the least image of `U` among the symmetries that do that.
    #[inline]
    fn key(&self, u: Set<K>, cur: u16) -> Set<K> {
        let mut best: Option<Set<K>> = None;
        for &k in &self.stabiliser[cur as usize] {
            let image = self.image(k, u);
            if best.is_none_or(|b| image < b) {
                best = Some(image);
            }
        }
        let mut key = best.unwrap_or(u);
        // The current position's index, written from bit n on (may straddle words).
        let c = self.canon_cur[cur as usize] as u64;
        let (w, b) = (self.n / 64, self.n % 64);
        key[w] |= c << b;
        if b > 0 && w + 1 < K {
            key[w + 1] |= c >> (64 - b);
        }
        key
    }
}

fn ovf() -> CountError {
    CountError::Overflow(String::new())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::history::Game;
    use crate::rules::position::{Komi, Move};

    fn rules(suicide: bool, superko: Superko) -> Rules {
        Rules { suicide, superko, komi: Komi(0) }
    }

    /// Every complete game, enumerated turn by turn with the core `Game`
    /// (its own move generation and superko history): the oracle.
    fn enumerate(game: &Game) -> u128 {
        if game.is_over() {
            return 1;
        }
        game.legal_moves()
            .into_iter()
            .map(|m| {
                let mut g = game.clone();
                g.play(m).unwrap();
                enumerate(&g)
            })
            .sum()
    }

    fn oracle(w: usize, h: usize, r: Rules) -> u128 {
        let geo = Geometry::new(w, h).unwrap();
        enumerate(&Game::new(geo, r, Position::EMPTY, Color::Black).unwrap())
    }

    #[test]
    fn one_by_one() {
        // Positional: Black's only move is a suicide back to the empty board.
        let geo = Geometry::new(1, 1).unwrap();
        assert_eq!(count_games(&geo, &rules(true, Superko::Positional)), Ok(1));
        // Situational: "a1 pass pass" too (empty board, White to move, is new).
        assert_eq!(count_games(&geo, &rules(true, Superko::Situational)), Ok(2));
    }

    #[test]
    fn tromp_one_by_three() {
        let r = rules(true, Superko::Positional);
        assert_eq!(count_games(&Geometry::new(1, 3).unwrap(), &r), Ok(907));
        assert_eq!(count_games(&Geometry::new(3, 1).unwrap(), &r), Ok(907));
    }

    #[test]
    fn matches_turn_by_turn_enumeration() {
        for (w, h) in [(1, 1), (1, 2), (2, 1), (1, 3), (3, 1)] {
            for suicide in [true, false] {
                for superko in [Superko::Positional, Superko::Situational] {
                    let r = rules(suicide, superko);
                    let geo = Geometry::new(w, h).unwrap();
                    let want = oracle(w, h, r);
                    assert_eq!(count_games(&geo, &r), Ok(want), "{} {:?}", geo, r);
                    assert_eq!(count_games_by_turns(&geo, &r), Ok(want), "{} {:?}", geo, r);
                }
            }
        }
    }

    #[test]
    fn pass_pass_is_a_game() {
        let geo = Geometry::new(1, 1).unwrap();
        let mut g = Game::new(geo, rules(true, Superko::Positional), Position::EMPTY, Color::Black).unwrap();
        assert_eq!(g.legal_moves(), vec![Move::Pass]);
        g.play(Move::Pass).unwrap();
        g.play(Move::Pass).unwrap();
        assert!(g.is_over());
    }

    #[test]
    fn refuses_big_boards() {
        let r = rules(true, Superko::Positional);
        assert!(matches!(count_games(&Geometry::new(3, 3).unwrap(), &r), Err(CountError::TooBig(_))));
        assert!(matches!(count_games(&Geometry::new(1, 5).unwrap(), &r), Err(CountError::TooBig(_))));
        let s = rules(true, Superko::Situational);
        assert!(matches!(count_games(&Geometry::new(2, 2).unwrap(), &s), Err(CountError::TooBig(_))));
        // Forced, 3x3's 12,675 positions exceed the index, and that is said at once.
        assert!(matches!(count_games_unlimited(&Geometry::new(3, 3).unwrap(), &r), Err(CountError::TooBig(_))));
    }
}
