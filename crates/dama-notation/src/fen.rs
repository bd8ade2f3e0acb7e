//! FEN as PDN 3.0 defines it. The reader and the canonical writer live in
//! [`dama_core::fen`] (the rules crate needs them); this module re-exports them and adds
//! writing with squares named in another notation.

pub use dama_core::fen::{parse, write, write_named, Fen, FenError, MAX_FEN_LEN};

use crate::game_type::Layout;
use dama_core::{Setup, Variant};

/// Writes a set-up as FEN with squares named as `layout` says (for example a Russian position
/// with square numbers), sorted by their number in the layout's numbering.
pub fn write_in(variant: Variant, setup: &Setup, layout: &Layout) -> String {
    dama_core::fen::write_named(
        setup,
        |sq| layout.number(variant, sq),
        |sq| layout.square_name(variant, sq),
    )
}
