//! Moves.
//!
//! A move is its start square, end square and the set of pieces it captures (plus whether it
//! crowns). Two capture paths that take the same pieces and end on the same square are the same
//! move; the paths themselves are recovered on demand with
//! [`crate::Position::capture_paths`] for notation and the user interface.

use crate::bitboard::Bitboard;
use crate::types::{Square, SquareSet};
use core::fmt;

/// A move on a board whose squares fit in the bitboard `B`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move<B> {
    pub(crate) from: u8,
    pub(crate) to: u8,
    pub(crate) promotes: bool,
    pub(crate) captured: B,
}

impl<B: Bitboard> Move<B> {
    /// A move from its parts. Nothing is checked here: a move is legal only if the position's
    /// generator produces it (see [`crate::Position::play`]).
    #[inline]
    pub fn new(from: Square, to: Square, captured: B, promotes: bool) -> Self {
        Move {
            from: from.0,
            to: to.0,
            promotes,
            captured,
        }
    }

    /// Start square.
    #[inline(always)]
    pub fn from(&self) -> Square {
        Square(self.from)
    }

    /// End square.
    #[inline(always)]
    pub fn to(&self) -> Square {
        Square(self.to)
    }

    /// Captured pieces.
    #[inline(always)]
    pub fn captured(&self) -> B {
        self.captured
    }

    /// Whether the moving man is crowned by this move.
    #[inline(always)]
    pub fn promotes(&self) -> bool {
        self.promotes
    }

    /// Whether the move captures.
    #[inline(always)]
    pub fn is_capture(&self) -> bool {
        !self.captured.is_empty()
    }

    /// The same move with its captured set widened to a [`SquareSet`].
    pub fn to_any(&self) -> AnyMove {
        AnyMove {
            from: Square(self.from),
            to: Square(self.to),
            captured: SquareSet(self.captured.to_u128()),
            promotes: self.promotes,
        }
    }
}

impl<B: Bitboard> fmt::Debug for Move<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sep = if self.is_capture() { 'x' } else { '-' };
        write!(f, "{}{}{}", self.from, sep, self.to)?;
        if self.is_capture() {
            f.write_str("[")?;
            for (i, sq) in self.captured.iter().enumerate() {
                if i > 0 {
                    f.write_str(",")?;
                }
                write!(f, "{sq}")?;
            }
            f.write_str("]")?;
        }
        if self.promotes {
            f.write_str("K")?;
        }
        Ok(())
    }
}

/// A move at the crate's dynamic boundary, independent of the board's integer width.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AnyMove {
    /// Start square.
    pub from: Square,
    /// End square.
    pub to: Square,
    /// Captured pieces.
    pub captured: SquareSet,
    /// Whether the moving man is crowned.
    pub promotes: bool,
}

impl AnyMove {
    /// Whether the move captures.
    pub fn is_capture(&self) -> bool {
        !self.captured.is_empty()
    }

    /// The move for a board held in `B` (bits beyond `B` are dropped, so the caller must use the
    /// move's own board).
    pub fn narrow<B: Bitboard>(&self) -> Move<B> {
        Move {
            from: self.from.0,
            to: self.to.0,
            promotes: self.promotes,
            captured: B::from_u128(self.captured.0),
        }
    }
}

impl<B: Bitboard> From<Move<B>> for AnyMove {
    fn from(m: Move<B>) -> Self {
        m.to_any()
    }
}
