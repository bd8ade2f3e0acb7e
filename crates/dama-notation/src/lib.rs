//! # dama-notation
//!
//! Draughts notation on top of `dama-core`:
//!
//! - [`game_type`]: the PDN 3.0 `GameType` tag and the square names it defines;
//! - [`move_text`]: reading move text against the legal moves (`11-15`, `c3-d4`, `cd4`,
//!   `a:e5`, full paths) with typed `Illegal` / `Ambiguous` errors, and writing the shortest
//!   standard form;
//! - [`fen`]: FEN as PDN 3.0 defines it (the reader and writer live in `dama-core`);
//! - [`pdn`]: a streaming PDN 3.0 reader with line:column errors, replay with validation, and
//!   a writer.
//!
//! ```
//! use dama_core::{AnyPosition, Variant};
//! use dama_notation::{parse_move, write_move};
//! let pos = AnyPosition::start(Variant::Russian);
//! let m = parse_move(&pos, "cd4").unwrap();
//! assert_eq!(write_move(&pos, &m), "c3-d4");
//! ```

pub mod fen;
pub mod game_type;
pub mod move_text;
pub mod pdn;

pub use game_type::{GameType, Layout, Notation};
pub use move_text::{
    parse_move, resolve, write_move, write_move_in, write_move_short, write_path, MoveError,
    MoveText, SquareMap,
};
