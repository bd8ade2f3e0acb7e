//! FEN as PDN 3.0 defines it. The reader and the canonical writer live in
//! [`dama_core::fen`] (the rules crate needs them); this module re-exports them and adds
//! writing with squares named in another notation.

pub use dama_core::fen::{parse, write, Fen, FenError, MAX_FEN_LEN};

use crate::game_type::Layout;
use dama_core::{Color, Setup, Square, Variant};

/// Writes a set-up as FEN with squares named as `layout` says (for example a Russian position
/// with square numbers), sorted by their number in the variant's standard numbering.
pub fn write_in(variant: Variant, setup: &Setup, layout: &Layout) -> String {
    let mut out = String::new();
    out.push(setup.side_to_move.letter());
    for color in Color::BOTH {
        out.push(':');
        out.push(color.letter());
        let mut squares: Vec<(u32, Square)> = setup
            .pieces(color)
            .iter()
            .map(|sq| (layout.number(variant, sq).unwrap_or(u32::MAX), sq))
            .collect();
        squares.sort_unstable();
        for (i, (_, sq)) in squares.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            if setup.kings.contains(*sq) {
                out.push('K');
            }
            out.push_str(&layout.square_name(variant, *sq));
        }
    }
    out
}
