//! Unchecked set-ups and the errors found when validating them.

use crate::types::{Color, Square, SquareSet};
use crate::variant::Variant;
use core::fmt;

/// An arrangement of pieces that has not been checked against any rules, as a FEN reader or a
/// board editor produces it. Squares are bit indices of the board the set-up is meant for.
/// Turn it into a [`crate::Position`] (or [`crate::AnyPosition`]) to validate it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Setup {
    /// Squares holding White pieces.
    pub white: SquareSet,
    /// Squares holding Black pieces.
    pub black: SquareSet,
    /// Squares holding kings (of either colour).
    pub kings: SquareSet,
    /// The side to move.
    pub side_to_move: Color,
    /// Frisian's three-move rule, by colour index: how many quiet moves in a row the side's
    /// last-moved king has made (0 in other variants).
    pub king_moves: [u8; 2],
    /// Frisian: the square of the king those moves were made with, if known.
    pub moved_king: [Option<Square>; 2],
}

impl Setup {
    /// The pieces of one colour.
    pub fn pieces(&self, color: Color) -> SquareSet {
        match color {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }
}

/// Why a set-up is not a legal position of a variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// A piece stands on a square that the board does not have (or on a light square).
    NotOnBoard(Square),
    /// A square holds both a White and a Black piece.
    BothColors(Square),
    /// A king is marked on an empty square.
    KingWithoutPiece(Square),
    /// A man stands on the row where it would already have been crowned.
    ManOnCrowningRow {
        /// Colour of the man.
        color: Color,
        /// Where it stands.
        square: Square,
    },
    /// More pieces than a side starts with.
    TooManyPieces {
        /// The side.
        color: Color,
        /// Pieces on the board.
        count: usize,
        /// Pieces the side starts with.
        max: usize,
    },
    /// Frisian king-move counter out of range, or naming a square without that side's king.
    BadKingMoves,
}

impl PositionError {
    /// The error with squares named as `variant` names them.
    pub fn named(&self, variant: Variant) -> impl fmt::Display + '_ {
        NamedError {
            error: self,
            variant: Some(variant),
        }
    }
}

struct NamedError<'a> {
    error: &'a PositionError,
    variant: Option<Variant>,
}

impl fmt::Display for NamedError<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = |sq: &Square| match self.variant {
            Some(v) => v.square_name(*sq),
            None => format!("#{}", sq.0),
        };
        match self.error {
            PositionError::NotOnBoard(sq) => {
                write!(
                    f,
                    "square {} is not a playable square of this board",
                    name(sq)
                )
            }
            PositionError::BothColors(sq) => {
                write!(
                    f,
                    "square {} holds both a white and a black piece",
                    name(sq)
                )
            }
            PositionError::KingWithoutPiece(sq) => {
                write!(f, "a king is marked on empty square {}", name(sq))
            }
            PositionError::ManOnCrowningRow { color, square } => write!(
                f,
                "a {color} man stands on its crowning row (square {}); it would be a king",
                name(square)
            ),
            PositionError::TooManyPieces { color, count, max } => write!(
                f,
                "{color} has {count} pieces but a side starts with only {max}"
            ),
            PositionError::BadKingMoves => {
                f.write_str("the king-move counter is out of range or names no king of that side")
            }
        }
    }
}

impl fmt::Display for PositionError {
    /// Squares appear as bit indices (`#n`); use [`PositionError::named`] to name them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        NamedError {
            error: self,
            variant: None,
        }
        .fmt(f)
    }
}

impl std::error::Error for PositionError {}
