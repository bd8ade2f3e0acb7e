//! Positions whose variant is known only at run time.

use crate::fen::FenError;
use crate::moves::AnyMove;
use crate::position::{Bb, IllegalMove, Position};
use crate::rules::Rules;
use crate::setup::{PositionError, Setup};
use crate::types::{Color, Piece, Role, Square, SquareSet};
use crate::variant::Variant;
use crate::with_rules;

/// A validated position of some variant. Every operation dispatches once to the variant's rule
/// set and runs the generic code; hot loops (search, perft) should use [`Position`] directly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AnyPosition {
    variant: Variant,
    setup: Setup,
    hash: u64,
}

impl AnyPosition {
    /// Validates a set-up for a variant.
    ///
    /// # Errors
    /// The [`PositionError`] of [`Position::from_setup`].
    pub fn new(variant: Variant, setup: &Setup) -> Result<Self, PositionError> {
        with_rules!(variant, R => {
            let p = Position::<R>::from_setup(setup)?;
            Ok(Self::from_position(variant, &p))
        })
    }

    /// The start position of a variant.
    pub fn start(variant: Variant) -> Self {
        // Start set-ups are valid by construction (the variant tests check every one).
        Self::new(variant, &variant.start_setup()).unwrap_or(AnyPosition {
            variant,
            setup: Setup::default(),
            hash: 0,
        })
    }

    /// Reads a position from FEN.
    ///
    /// # Errors
    /// A [`FenError`] if the text is not FEN or the position is impossible in the variant.
    pub fn from_fen(variant: Variant, text: &str) -> Result<Self, FenError> {
        let fen = crate::fen::parse(variant, text)?;
        Self::new(variant, &fen.setup).map_err(|error| FenError::Illegal { error, variant })
    }

    /// The canonical FEN.
    pub fn fen(&self) -> String {
        crate::fen::write(self.variant, &self.setup)
    }

    /// Wraps a typed position. `variant` must use the rules `R`.
    pub fn from_position<R: Rules>(variant: Variant, pos: &Position<R>) -> Self {
        AnyPosition {
            variant,
            setup: pos.setup(),
            hash: pos.hash(),
        }
    }

    /// The typed position, if `R` is the variant's rule set.
    pub fn to_position<R: Rules>(&self) -> Position<R> {
        Position::<R>::from_parts(&self.setup, self.hash)
    }

    /// The variant.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The pieces and side to move.
    pub fn setup(&self) -> &Setup {
        &self.setup
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Color {
        self.setup.side_to_move
    }

    /// The Zobrist hash.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The piece on a square.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let color = if self.setup.white.contains(sq) {
            Color::White
        } else if self.setup.black.contains(sq) {
            Color::Black
        } else {
            return None;
        };
        let role = if self.setup.kings.contains(sq) {
            Role::King
        } else {
            Role::Man
        };
        Some(Piece { color, role })
    }

    /// The pieces of one colour and role.
    pub fn pieces_of(&self, color: Color, role: Role) -> SquareSet {
        let all = self.setup.pieces(color);
        match role {
            Role::King => all & self.setup.kings,
            Role::Man => SquareSet(all.0 & !self.setup.kings.0),
        }
    }

    /// The legal moves.
    pub fn legal_moves(&self) -> Vec<AnyMove> {
        with_rules!(self.variant, R => {
            self.to_position::<R>().legal_move_vec().iter().map(|m| m.to_any()).collect()
        })
    }

    /// Whether the side to move has a legal move.
    pub fn has_legal_move(&self) -> bool {
        with_rules!(self.variant, R => self.to_position::<R>().has_legal_move())
    }

    /// Whether a capture is compulsory now.
    pub fn must_capture(&self) -> bool {
        with_rules!(self.variant, R => {
            let mut list = Vec::new();
            self.to_position::<R>().captures(&mut list)
        })
    }

    /// Plays a move.
    ///
    /// # Errors
    /// [`IllegalMove`] if the move is not legal here.
    pub fn play(&self, m: &AnyMove) -> Result<AnyPosition, IllegalMove> {
        with_rules!(self.variant, R => {
            let pos = self.to_position::<R>();
            let next = pos.play(&m.narrow::<Bb<R>>())?;
            Ok(Self::from_position(self.variant, &next))
        })
    }

    /// Every path by which a legal move can be made (see [`Position::capture_paths`]).
    pub fn paths(&self, m: &AnyMove) -> Vec<Vec<Square>> {
        with_rules!(self.variant, R => self.to_position::<R>().capture_paths(&m.narrow::<Bb<R>>()))
    }

    /// Perft from this position on one thread.
    pub fn perft(&self, depth: u32) -> u64 {
        with_rules!(self.variant, R => crate::perft::perft(&self.to_position::<R>(), depth))
    }

    /// Perft on several threads.
    pub fn perft_parallel(&self, depth: u32, threads: usize) -> u64 {
        with_rules!(self.variant, R => {
            crate::perft::perft_parallel(&self.to_position::<R>(), depth, threads)
        })
    }

    /// Perft per root move.
    pub fn divide(&self, depth: u32) -> Vec<(AnyMove, u64)> {
        with_rules!(self.variant, R => {
            crate::perft::divide(&self.to_position::<R>(), depth)
                .into_iter()
                .map(|(m, n)| (m.to_any(), n))
                .collect()
        })
    }

    /// The Zobrist hash computed from scratch.
    pub fn compute_hash(&self) -> u64 {
        with_rules!(self.variant, R => self.to_position::<R>().compute_hash())
    }
}
