//! Perft against published tables (tests/data/perft.txt).
//!
//! Every line is checked up to a node budget that keeps the whole file to seconds; set
//! `DAMA_DEEP=1` to check every published depth (minutes to hours).

use dama_core::{AnyPosition, Variant};

struct Entry {
    variant: Variant,
    position: AnyPosition,
    counts: Vec<u64>,
    line: usize,
}

fn entries() -> Vec<Entry> {
    let text = include_str!("data/perft.txt");
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split('|').map(str::trim).collect();
        assert!(
            fields.len() >= 3,
            "line {}: expected variant | position | counts",
            i + 1
        );
        let variant: Variant = fields[0].parse().unwrap();
        let position = if fields[1] == "start" {
            AnyPosition::start(variant)
        } else {
            AnyPosition::from_fen(variant, fields[1]).unwrap()
        };
        let counts = fields[2]
            .split_whitespace()
            .map(|n| n.parse().unwrap())
            .collect();
        out.push(Entry {
            variant,
            position,
            counts,
            line: i + 1,
        });
    }
    out
}

#[test]
fn published_perft_tables() {
    let deep = std::env::var_os("DAMA_DEEP").is_some();
    let budget: u64 = if deep { u64::MAX } else { 10_000_000 };
    let mut checked = 0;
    for e in entries() {
        for (i, &expected) in e.counts.iter().enumerate() {
            if expected > budget {
                break;
            }
            let depth = i as u32 + 1;
            let got = if depth >= 5 {
                e.position.perft_parallel(depth, 2)
            } else {
                e.position.perft(depth)
            };
            assert_eq!(
                got,
                expected,
                "{} line {}: perft({depth}) of {}",
                e.variant,
                e.line,
                e.position.fen()
            );
            checked += 1;
        }
    }
    assert!(checked > 100, "only {checked} counts checked");
}

#[test]
fn divide_sums_to_perft() {
    for v in [Variant::Russian, Variant::International, Variant::Italian] {
        let p = AnyPosition::start(v);
        let total: u64 = p.divide(5).iter().map(|(_, n)| n).sum();
        assert_eq!(total, p.perft(5));
    }
}
