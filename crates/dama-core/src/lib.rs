//! # dama-core
//!
//! The rules of draughts: boards, positions, legal moves, games and perft for every variant of
//! the diagonal family. No I/O, no async, and no allocation in move generation beyond the
//! caller's move list.
//!
//! The hot code is generic over a rule set ([`Rules`]): a [`Position<R>`] generates
//! [`Move`]s and plays them. At the boundaries, where the variant is only known at run time,
//! [`AnyPosition`] and [`Game`] dispatch to the right rule set.
//!
//! ```
//! use dama_core::{AnyPosition, Variant};
//! let start = AnyPosition::start(Variant::Russian);
//! assert_eq!(start.legal_moves().len(), 7);
//! assert_eq!(start.perft(3), 302);
//! ```

pub mod any;
pub mod bitboard;
pub mod fen;
pub mod game;
pub mod geometry;
pub mod movegen;
pub mod moves;
pub mod perft;
pub mod position;
pub mod rules;
pub mod setup;
pub mod types;
pub mod variant;
pub mod zobrist;

pub use any::AnyPosition;
pub use bitboard::Bitboard;
pub use fen::FenError;
pub use game::{
    DrawReason, DrawRules, EndgameLimit, Game, GameError, GameOptions, Material, Outcome,
    OutcomeReason,
};
pub use geometry::Geometry;
pub use moves::{AnyMove, Move};
pub use position::{IllegalMove, Position};
pub use rules::Rules;
pub use setup::{PositionError, Setup};
pub use types::{Color, Piece, Role, Square, SquareSet};
pub use variant::{Corner, Naming, Variant};
