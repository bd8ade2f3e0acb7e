//! A deterministic benchmark: fixed positions searched to a fixed depth on one thread with a
//! fresh transposition table. The total node count is the search's signature (it changes only
//! when the search or evaluation changes); the node rate measures speed.

use crate::engine::{Engine, EngineOptions};
use crate::limits::Limits;
use dama_core::{AnyPosition, Variant};
use std::time::Duration;

/// A benchmark position: a variant, a FEN (`None` for the start position) and a depth.
#[derive(Clone, Copy, Debug)]
pub struct BenchPosition {
    /// The variant.
    pub variant: Variant,
    /// The position, or `None` for the start position.
    pub fen: Option<&'static str>,
    /// Search depth in plies.
    pub depth: u32,
}

const fn p(variant: Variant, fen: Option<&'static str>, depth: u32) -> BenchPosition {
    BenchPosition {
        variant,
        fen,
        depth,
    }
}

/// The benchmark positions.
pub const POSITIONS: &[BenchPosition] = &[
    p(Variant::International, None, 14),
    p(
        Variant::International,
        Some("W:W27,28,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,48,49:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,23"),
        13,
    ),
    p(
        Variant::International,
        Some("B:W24,26,27,28,29,30,32,33,34,35,36,37,38,39,41,43,44,45:B2,3,4,6,7,8,9,11,12,13,14,15,16,17,18,19,20,22"),
        12,
    ),
    p(Variant::International, Some("W:W23,K28,32,38,41,43:B6,9,K12,14,19"), 12),
    p(Variant::Russian, None, 16),
    p(Variant::Russian, Some("W:Wa1,a3,b2,c1,c3,d2,e1,e3,f2,g1,h2,g3:Bb6,b8,a7,c7,d6,d8,e7,f6,f8,g7,h6,h8"), 15),
    p(Variant::English, None, 17),
    p(Variant::English, Some("B:W18,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,15"), 16),
    p(Variant::Brazilian, None, 15),
    p(Variant::Italian, None, 15),
    p(Variant::Pool, None, 14),
    p(Variant::Canadian, None, 11),
    p(Variant::Frisian, None, 11),
    p(Variant::Antidraughts, None, 11),
    p(Variant::RussianGiveaway, None, 13),
];

/// One position's result.
#[derive(Clone, Debug)]
pub struct BenchLine {
    /// The position searched.
    pub position: BenchPosition,
    /// Nodes searched.
    pub nodes: u64,
    /// Time taken.
    pub time: Duration,
}

/// Runs the benchmark; `depth_change` is added to every position's depth (it may be negative
/// for a quick check). `on_line` sees each position's result as it completes.
pub fn run(depth_change: i32, mut on_line: impl FnMut(&BenchLine)) -> Vec<BenchLine> {
    let mut lines = Vec::new();
    for &position in POSITIONS {
        let root = match position.fen {
            None => AnyPosition::start(position.variant),
            Some(fen) => match AnyPosition::from_fen(position.variant, fen) {
                Ok(p) => p,
                Err(_) => continue,
            },
        };
        let mut engine = Engine::new(EngineOptions {
            threads: 1,
            hash_mb: 16,
            seed: Some(1),
            ..EngineOptions::default()
        });
        engine.set_position(root, &[]);
        let depth = (position.depth as i32 + depth_change).max(1) as u32;
        let result = engine.search(Limits::depth(depth), |_| {});
        let line = BenchLine {
            position: BenchPosition { depth, ..position },
            nodes: result.nodes,
            time: result.time,
        };
        on_line(&line);
        lines.push(line);
    }
    lines
}
