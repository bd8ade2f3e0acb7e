//! Tactics suites: positions with a known winning first move or a known result, from published
//! collections (sources on each line of the data files). The engine must solve them within a
//! node budget. By default a quick subset runs; `DAMA_DEEP=1` runs every position and prints
//! the score of the suite.

use dama_core::{AnyPosition, Variant};
use dama_engine::{Engine, EngineOptions, Limits, Score};

struct Problem {
    fen: String,
    /// Start and end squares of the key move (numbers), if the suite gives one.
    key: Option<(u32, u32)>,
    source: String,
}

fn load(text: &str) -> Vec<Problem> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut parts = l.split('|').map(str::trim);
            let fen = parts.next().unwrap_or_default().to_owned();
            let key = parts.next().and_then(|k| {
                let nums: Vec<u32> = k.split(['-', 'x']).filter_map(|n| n.parse().ok()).collect();
                Some((*nums.first()?, *nums.last()?))
            });
            let source = parts.next().unwrap_or_default().to_owned();
            Problem { fen, key, source }
        })
        .collect()
}

/// Runs a suite; returns (solved, total) and prints the failures. With `win_needed` a
/// problem counts as solved when the engine proves the win or wins at least a man's worth of
/// material (the endgames of such studies are often longer than the search).
fn run(variant: Variant, problems: &[Problem], nodes: u64, win_needed: bool) -> (usize, usize) {
    let mut solved = 0;
    for p in problems {
        let pos =
            AnyPosition::from_fen(variant, &p.fen).unwrap_or_else(|e| panic!("{}: {e}", p.fen));
        let mut engine = Engine::new(EngineOptions {
            hash_mb: 32,
            ..EngineOptions::default()
        });
        engine.set_position(pos, &[]);
        let r = engine.search(Limits::nodes(nodes), |_| {});
        let m = r.best_move.expect("a move");
        let squares = (
            variant.square_number(m.from).unwrap_or(0),
            variant.square_number(m.to).unwrap_or(0),
        );
        let proved = matches!(r.score, Score::Win(_));
        // A published key move, or any move with a proven win (a second solution).
        let key_ok = p.key.is_none_or(|k| k == squares) || proved;
        let win_ok = !win_needed || proved || matches!(r.score, Score::Eval(e) if e >= 100);
        if key_ok && win_ok {
            solved += 1;
        } else {
            eprintln!(
                "unsolved: {} (key {:?}, played {:?}, score {}) — {}",
                p.fen, p.key, squares, r.score, p.source
            );
        }
    }
    (solved, problems.len())
}

fn deep() -> bool {
    std::env::var_os("DAMA_DEEP").is_some()
}

#[test]
fn international_problems() {
    let all = load(include_str!("data/tactics_international.txt"));
    assert!(all.len() >= 100);
    let (subset, nodes) = if deep() {
        (&all[..], 4_000_000)
    } else {
        (&all[..12], 1_000_000)
    };
    let (solved, total) = run(Variant::International, subset, nodes, false);
    eprintln!("international: {solved}/{total} solved with {nodes} nodes each");
    assert!(solved * 10 >= total * 7, "{solved}/{total}");
}

#[test]
fn english_problems() {
    let all = load(include_str!("data/tactics_english.txt"));
    assert!(all.len() >= 100);
    let (subset, nodes) = if deep() {
        (&all[..], 4_000_000)
    } else {
        (&all[..15], 1_000_000)
    };
    let (solved, total) = run(Variant::English, subset, nodes, true);
    eprintln!("english: {solved}/{total} forced wins found with {nodes} nodes each");
    assert!(solved * 10 >= total * 7, "{solved}/{total}");
}

/// Russian king endings from classical theory (A. D. Petrov's triangle: three kings holding the
/// main road a1–h8 beat a lone king; a lone king on the main road draws against three, and two
/// kings never win against one), and two short catches of a king.
#[test]
fn russian_king_endings() {
    #[derive(Debug)]
    enum Expect {
        Win,
        Lose,
        Draw,
    }
    let cases = [
        (
            "W:WKa1,Kd2,Kf2:BKb8",
            Expect::Win,
            "three kings on the main road",
        ),
        (
            "B:WKa1,Kc1,Ke1:BKh2",
            Expect::Lose,
            "lone king off the main road",
        ),
        (
            "W:WKa3,Kc1,Ke1:BKd4",
            Expect::Draw,
            "lone king holds the main road",
        ),
        ("W:WKe1,Kg1:BKb8", Expect::Draw, "two kings against one"),
        (
            "W:WKh8,Kc1,Ke1:BKa5",
            Expect::Win,
            "sacrifice on c3 catches the king",
        ),
        (
            "W:WKc3,Ke3,Kg3:BKa1",
            Expect::Win,
            "king caught in the corner",
        ),
    ];
    for (fen, expect, what) in cases {
        let pos = AnyPosition::from_fen(Variant::Russian, fen).unwrap();
        let mut engine = Engine::new(EngineOptions {
            hash_mb: 16,
            ..EngineOptions::default()
        });
        engine.set_position(pos, &[]);
        let r = engine.search(Limits::nodes(1_000_000), |_| {});
        let v = r.score.to_internal();
        let ok = match expect {
            Expect::Win => v >= 300,
            Expect::Lose => v <= -300,
            Expect::Draw => v.abs() < 100,
        };
        assert!(ok, "{fen} ({what}): expected {expect:?}, got {}", r.score);
    }
}
