//! # dama-notation
//!
//! Draughts notation on top of `dama-core`: move text in each variant's style.

pub mod move_text;

pub use move_text::{write_move, write_path};
