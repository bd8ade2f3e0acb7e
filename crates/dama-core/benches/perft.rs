//! Move generator benchmarks: perft with bulk counting on fixed positions.
//! Run with `cargo bench -p dama-core`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use dama_core::{AnyPosition, Variant};

fn perft(c: &mut Criterion) {
    let cases = [
        ("international-start", Variant::International, None, 6),
        ("english-start", Variant::English, None, 8),
        ("russian-start", Variant::Russian, None, 8),
        (
            "international-woldouby",
            Variant::International,
            Some("W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38"),
            9,
        ),
        (
            "international-kings",
            Variant::International,
            Some("B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46"),
            5,
        ),
        ("frisian-start", Variant::Frisian, None, 6),
    ];
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    for (name, variant, fen, depth) in cases {
        let pos = match fen {
            Some(f) => AnyPosition::from_fen(variant, f).expect("benchmark FEN"),
            None => AnyPosition::start(variant),
        };
        let leaves = pos.perft(depth);
        group.throughput(Throughput::Elements(leaves));
        group.bench_with_input(BenchmarkId::new(name, depth), &depth, |b, &d| {
            b.iter(|| pos.perft(d))
        });
    }
    group.finish();
}

criterion_group!(benches, perft);
criterion_main!(benches);
