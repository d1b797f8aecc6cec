//! Solver benchmarks: exact solves of small empty boards (nodes are in
//! results/solve.md; this measures wall time per solve).

use criterion::{criterion_group, criterion_main, Criterion};
use gosolve::search::{solve, SolveOptions};
use gosolve::{Color, Game, Geometry, Position, Rules};

fn bench_solve(c: &mut Criterion) {
    let mut group = c.benchmark_group("solve");
    group.sample_size(10);
    for (w, h) in [(1, 6), (1, 7), (2, 2), (2, 3), (2, 4), (3, 3), (1, 8), (1, 9)] {
        let game = Game::new(Geometry::new(w, h).unwrap(), Rules::default(), Position::EMPTY, Color::Black).unwrap();
        for threads in [1, 2] {
            let opts = SolveOptions { threads, table_mb: 64, ..Default::default() };
            group.bench_function(format!("{w}x{h}/threads={threads}"), |b| {
                b.iter(|| solve(&game, &opts).unwrap().value)
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench_solve);
criterion_main!(benches);
