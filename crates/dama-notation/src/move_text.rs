//! Writing moves as text.
//!
//! Numeric variants write `11-15` and `11x18`; algebraic variants write `c3-d4` and `c3:e5`.
//! The full path (`11x18x25`, `d2:f4:d6:b8`) is written only when another legal move has the
//! same start and end squares.

use dama_core::{AnyMove, AnyPosition, Naming, Square, Variant};

/// The separator between squares of a capture in the variant's notation.
pub fn capture_separator(variant: Variant) -> char {
    match variant.naming() {
        Naming::Algebraic => ':',
        Naming::Numeric(_) => 'x',
    }
}

/// Writes a path (start, landing squares, end) as move text.
pub fn write_path(variant: Variant, path: &[Square], capture: bool) -> String {
    let sep = if capture {
        capture_separator(variant)
    } else {
        '-'
    };
    let mut out = String::new();
    for (i, sq) in path.iter().enumerate() {
        if i > 0 {
            out.push(sep);
        }
        out.push_str(&variant.square_name(*sq));
    }
    out
}

/// Writes a legal move of `pos` in the shortest unambiguous long form.
pub fn write_move(pos: &AnyPosition, m: &AnyMove) -> String {
    let variant = pos.variant();
    let ambiguous = m.is_capture()
        && pos
            .legal_moves()
            .iter()
            .any(|o| o != m && o.from == m.from && o.to == m.to);
    if ambiguous {
        if let Some(path) = pos.paths(m).first() {
            return write_path(variant, path, true);
        }
    }
    write_path(variant, &[m.from, m.to], m.is_capture())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_moves() {
        let pos = AnyPosition::start(Variant::Russian);
        let mut texts: Vec<String> = pos
            .legal_moves()
            .iter()
            .map(|m| write_move(&pos, m))
            .collect();
        texts.sort();
        assert_eq!(
            texts,
            ["a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4"]
        );
        let pos = AnyPosition::start(Variant::International);
        let mut texts: Vec<String> = pos
            .legal_moves()
            .iter()
            .map(|m| write_move(&pos, m))
            .collect();
        texts.sort();
        assert_eq!(texts[0], "31-26");
        assert_eq!(texts.len(), 9);
    }

    #[test]
    fn ambiguous_capture_writes_the_path() {
        // International rule example: both 26x8 and 26x28... only differ by their end squares,
        // so neither needs a path.
        let pos = AnyPosition::from_fen(Variant::International, "W:W26:B12,K21,31,32").unwrap();
        let mut texts: Vec<String> = pos
            .legal_moves()
            .iter()
            .map(|m| write_move(&pos, m))
            .collect();
        texts.sort();
        assert_eq!(texts, ["26x28", "26x8"]);
    }
}
