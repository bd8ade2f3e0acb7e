//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod reference;

use dama_core::{AnyPosition, Variant};

/// A small deterministic generator (xorshift), so the tests need no extra crates to replay.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The position in FEN, or a panic naming the problem (test helper).
pub fn fen(variant: Variant, text: &str) -> AnyPosition {
    AnyPosition::from_fen(variant, text).unwrap_or_else(|e| panic!("{variant} {text}: {e}"))
}
