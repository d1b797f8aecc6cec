//! Rules throughput: raw move application (`Position::play`) and random
//! playouts with exact positional superko, on 4×4 and 5×5.
//!
//! Run: `cargo bench --bench rules -- --warm-up-time 1 --measurement-time 3`.
//! Criterion reports elements per second; an element is one `play` call
//! (`play/*`) or one move actually played in a playout (`playout/*`).
//!
//! - `play/WxH`: a fixed sample of 4096 (position, colour, empty point)
//!   triples drawn from random games, replayed through `Position::play`
//!   (no suicide). The bench prints the mix: some are suicides (an error
//!   result), some capture, the rest are plain placements.
//! - `playout/WxH`: 64 complete random games from the empty board. Each turn
//!   picks uniformly among the legal moves (empty point, not suicide, not a
//!   repeat of any earlier position — checked in a hash set of exact
//!   `Position` keys); the player passes only when there is none, and the
//!   game stops at two consecutive passes or after 4×points moves. The
//!   count is of moves played; the rejected tries and the hash-set work are
//!   part of the cost.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use gosolve::{Color, Geometry, Position};
use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};
use std::hint::black_box;

#[path = "../tests/support/rng.rs"]
mod rng;
use rng::Rng;

/// Multiply-xorshift hasher for `Position` keys (two words).
#[derive(Default)]
struct PosHasher(u64);

impl Hasher for PosHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    #[inline]
    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0 ^ v).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.0 ^= self.0 >> 29;
    }
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

type Seen = HashSet<Position, BuildHasherDefault<PosHasher>>;

/// One random game; returns the number of moves played. `visit` sees every
/// (position, colour to move, empty point tried).
fn playout(geo: &Geometry, rng: &mut Rng, seen: &mut Seen, mut visit: impl FnMut(Position, Color, u8)) -> usize {
    seen.clear();
    let mut pos = Position::EMPTY;
    seen.insert(pos);
    let mut colour = Color::Black;
    let (mut passes, mut moves) = (0, 0);
    let cap = 4 * geo.points();
    let mut empties = [0u8; 64];
    while passes < 2 && moves < cap {
        let mut n = 0;
        for p in Geometry::iter(pos.empty(geo)) {
            empties[n] = p;
            n += 1;
        }
        let mut played = false;
        while n > 0 {
            let i = rng.below(n);
            let p = empties[i];
            visit(pos, colour, p);
            if let Ok(next) = pos.play(geo, colour, p, false) {
                if seen.insert(next) {
                    pos = next;
                    played = true;
                    break;
                }
            }
            n -= 1;
            empties[i] = empties[n];
        }
        if played {
            moves += 1;
            passes = 0;
        } else {
            passes += 1;
        }
        colour = colour.opponent();
    }
    moves
}

fn sample_moves(geo: &Geometry, count: usize) -> Vec<(Position, Color, u8)> {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let mut seen = Seen::default();
    let mut all = Vec::new();
    while all.len() < 4 * count {
        playout(geo, &mut rng, &mut seen, |pos, c, p| all.push((pos, c, p)));
    }
    // An even spread over the games rather than the first few.
    (0..count).map(|i| all[i * all.len() / count]).collect()
}

fn bench_play(c: &mut Criterion) {
    let mut group = c.benchmark_group("play");
    for (w, h) in [(4, 4), (5, 5)] {
        let geo = Geometry::new(w, h).unwrap();
        let sample = sample_moves(&geo, 4096);
        let (mut suicides, mut captures) = (0, 0);
        for &(pos, colour, p) in &sample {
            match pos.play(&geo, colour, p, false) {
                Err(_) => suicides += 1,
                Ok(next) if next.stone_count() <= pos.stone_count() => captures += 1,
                Ok(_) => {}
            }
        }
        eprintln!("play/{}: {} plays, {} suicides (errors), {} captures", geo.name(), sample.len(), suicides, captures);
        group.throughput(Throughput::Elements(sample.len() as u64));
        group.bench_function(geo.name(), |b| {
            b.iter(|| {
                let mut acc = 0u64;
                for &(pos, colour, p) in &sample {
                    if let Ok(next) = black_box(pos).play(&geo, colour, black_box(p), false) {
                        acc = acc.wrapping_add(next.black ^ next.white);
                    }
                }
                acc
            })
        });
    }
    group.finish();
}

fn bench_playout(c: &mut Criterion) {
    let mut group = c.benchmark_group("playout");
    for (w, h) in [(4, 4), (5, 5)] {
        let geo = Geometry::new(w, h).unwrap();
        const GAMES: usize = 64;
        // The same seeded games every iteration, so the element count is exact.
        let moves: usize = {
            let mut rng = Rng(42);
            let mut seen = Seen::default();
            (0..GAMES).map(|_| playout(&geo, &mut rng, &mut seen, |_, _, _| ())).sum()
        };
        eprintln!("playout/{}: {} games, {} moves", geo.name(), GAMES, moves);
        group.throughput(Throughput::Elements(moves as u64));
        let mut seen = Seen::default();
        group.bench_function(geo.name(), |b| {
            b.iter(|| {
                let mut rng = Rng(42);
                let total: usize = (0..GAMES).map(|_| playout(&geo, &mut rng, &mut seen, |_, _, _| ())).sum();
                assert_eq!(total, moves);
                total
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_play, bench_playout);
criterion_main!(benches);
