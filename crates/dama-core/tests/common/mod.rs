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

use dama_core::{AnyMove, Color, Setup, Square};

/// The square at internal coordinates named like `c3` (file from White's left on the internal
/// board, whose bottom-left corner is playable; mirrored boards show it on the right).
pub fn internal(variant: Variant, name: &str) -> Square {
    let col = (name.as_bytes()[0] - b'a') as u32;
    let row: u32 = name[1..].parse().unwrap();
    variant
        .square_at(col, row - 1)
        .unwrap_or_else(|| panic!("{name} is not a playable square of {variant}"))
}

/// The internal name of a square (inverse of [`internal`]).
pub fn internal_name(variant: Variant, sq: Square) -> String {
    let (col, row) = variant.coords(sq).unwrap();
    format!("{}{}", (b'a' + col as u8) as char, row + 1)
}

/// A position from pieces named in internal coordinates; `K` before a name marks a king.
pub fn board(variant: Variant, side: Color, white: &[&str], black: &[&str]) -> AnyPosition {
    let mut setup = Setup {
        side_to_move: side,
        ..Setup::default()
    };
    for (color, names) in [(Color::White, white), (Color::Black, black)] {
        for name in names {
            let (king, name) = match name.strip_prefix('K') {
                Some(rest) => (true, rest),
                None => (false, *name),
            };
            let sq = internal(variant, name);
            match color {
                Color::White => setup.white.insert(sq),
                Color::Black => setup.black.insert(sq),
            }
            if king {
                setup.kings.insert(sq);
            }
        }
    }
    AnyPosition::new(variant, &setup).unwrap_or_else(|e| panic!("{variant}: {e}"))
}

/// `from-to` or `fromxto` in internal coordinates.
pub fn internal_text(variant: Variant, m: &AnyMove) -> String {
    let sep = if m.is_capture() { 'x' } else { '-' };
    format!(
        "{}{sep}{}",
        internal_name(variant, m.from),
        internal_name(variant, m.to)
    )
}

/// The legal moves in internal coordinates, sorted.
pub fn legal(pos: &AnyPosition) -> Vec<String> {
    let mut v: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|m| internal_text(pos.variant(), m))
        .collect();
    v.sort();
    v
}

/// The legal moves named in the variant's own notation (`from-to` / `fromxto`), sorted.
pub fn legal_named(pos: &AnyPosition) -> Vec<String> {
    let v = pos.variant();
    let mut out: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|m| {
            let sep = if m.is_capture() { 'x' } else { '-' };
            format!("{}{sep}{}", v.square_name(m.from), v.square_name(m.to))
        })
        .collect();
    out.sort();
    out
}

/// The legal move written `from-to` / `fromxto` in internal coordinates.
pub fn find(pos: &AnyPosition, text: &str) -> AnyMove {
    *pos.legal_moves()
        .iter()
        .find(|m| internal_text(pos.variant(), m) == text)
        .unwrap_or_else(|| panic!("{text} is not legal in {}", pos.fen()))
}
