//! Validated positions, generic over a rule set.

use crate::bitboard::Bitboard;
use crate::geometry::{Geometry, NO_SQUARE};
use crate::moves::Move;
use crate::rules::Rules;
use crate::setup::{PositionError, Setup};
use crate::types::{Color, Piece, Role, Square, SquareSet};
use crate::zobrist;
use core::fmt;
use core::marker::PhantomData;

/// Shorthand for the bitboard type of a rule set.
pub type Bb<R> = <<R as Rules>::G as Geometry>::Bb;

/// A legal position under the rules `R`: the pieces, the side to move and its Zobrist hash,
/// kept up to date incrementally. Positions are small `Copy` values; playing a move returns a new
/// one ("copy-make"), so undoing a move is keeping the old value.
pub struct Position<R: Rules> {
    pub(crate) pieces: [Bb<R>; 2],
    pub(crate) kings: Bb<R>,
    pub(crate) side: Color,
    /// Frisian three-move rule, per side: quiet moves in a row by the last-moved king...
    pub(crate) king_moves: [u8; 2],
    /// ...and that king's square ([`NO_SQUARE`] if unknown). Unused (zero, none) elsewhere.
    pub(crate) moved_king: [u8; 2],
    pub(crate) hash: u64,
    _rules: PhantomData<R>,
}

// Manual impls: a derive would put bounds on `R` that the zero-sized rule types do not need.
impl<R: Rules> Clone for Position<R> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}
impl<R: Rules> Copy for Position<R> {}
impl<R: Rules> PartialEq for Position<R> {
    fn eq(&self, other: &Self) -> bool {
        self.pieces == other.pieces
            && self.kings == other.kings
            && self.side == other.side
            && self.king_moves == other.king_moves
            && self.moved_king == other.moved_king
    }
}
impl<R: Rules> Eq for Position<R> {}
impl<R: Rules> core::hash::Hash for Position<R> {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
    }
}

impl<R: Rules> fmt::Debug for Position<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{:?} to move", self.side)?;
        for row in (0..R::G::HEIGHT).rev() {
            for col in 0..R::G::WIDTH {
                let c = match R::G::square_at(col, row) {
                    None => ' ',
                    Some(sq) => match self.piece_at(Square(sq as u8)) {
                        None => '.',
                        Some(Piece {
                            color: Color::White,
                            role: Role::Man,
                        }) => 'w',
                        Some(Piece {
                            color: Color::White,
                            role: Role::King,
                        }) => 'W',
                        Some(Piece {
                            color: Color::Black,
                            role: Role::Man,
                        }) => 'b',
                        Some(Piece {
                            color: Color::Black,
                            role: Role::King,
                        }) => 'B',
                    },
                };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

/// Returned by [`Position::play`] for a move the position does not allow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IllegalMove;

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("illegal move")
    }
}

impl std::error::Error for IllegalMove {}

impl<R: Rules> Position<R> {
    /// Number of men each side starts with on this board (rows of men × squares per row).
    pub const START_PIECES: usize = ((R::G::HEIGHT - 2) / 2 * R::G::WIDTH / 2) as usize;

    /// Validates a set-up.
    ///
    /// # Errors
    /// A [`PositionError`] naming the first problem found: a piece off the board, a square with
    /// two pieces, a king on an empty square, a man on its crowning row, more pieces than a side
    /// starts with, or a counter out of range.
    pub fn from_setup(setup: &Setup) -> Result<Self, PositionError> {
        let valid = R::G::VALID.to_u128();
        for sq in (setup.white | setup.black | setup.kings).iter() {
            if sq.index() >= <Bb<R> as Bitboard>::BITS || valid >> sq.index() & 1 == 0 {
                return Err(PositionError::NotOnBoard(sq));
            }
        }
        if let Some(sq) = (setup.white & setup.black).iter().next() {
            return Err(PositionError::BothColors(sq));
        }
        let occupied = setup.white | setup.black;
        if let Some(sq) = SquareSet(setup.kings.0 & !occupied.0).iter().next() {
            return Err(PositionError::KingWithoutPiece(sq));
        }
        for color in Color::BOTH {
            let men = SquareSet(setup.pieces(color).0 & !setup.kings.0);
            let row = match color {
                Color::White => R::G::TOP_ROW,
                Color::Black => R::G::BOTTOM_ROW,
            };
            if let Some(square) = (men & SquareSet(row.to_u128())).iter().next() {
                return Err(PositionError::ManOnCrowningRow { color, square });
            }
            let count = setup.pieces(color).len();
            if count > Self::START_PIECES {
                return Err(PositionError::TooManyPieces {
                    color,
                    count,
                    max: Self::START_PIECES,
                });
            }
        }
        for color in Color::BOTH {
            let i = color.index();
            let kings_of_side = setup.pieces(color) & setup.kings;
            if setup.king_moves[i] > R::KING_MOVE_LIMIT
                || setup.moved_king[i]
                    .is_some_and(|sq| R::KING_MOVE_LIMIT == 0 || !kings_of_side.contains(sq))
            {
                return Err(PositionError::BadKingMoves);
            }
        }
        let mut pos = Self::from_parts(setup, 0);
        pos.hash = pos.compute_hash();
        Ok(pos)
    }

    /// Builds the position from a set-up already validated for these rules and its hash.
    #[inline]
    pub(crate) fn from_parts(setup: &Setup, hash: u64) -> Self {
        Position {
            pieces: [
                Bb::<R>::from_u128(setup.white.0),
                Bb::<R>::from_u128(setup.black.0),
            ],
            kings: Bb::<R>::from_u128(setup.kings.0),
            side: setup.side_to_move,
            king_moves: setup.king_moves,
            moved_king: setup.moved_king.map(|sq| sq.map_or(NO_SQUARE, |s| s.0)),
            hash,
            _rules: PhantomData,
        }
    }

    /// Builds a position straight from its bitboards, for code that enumerates positions in
    /// bulk (an endgame database). The caller guarantees what [`Position::from_setup`] checks:
    /// the pieces on playable squares, no square of both colours, kings among the pieces, no man
    /// on its crowning row (checked in debug builds). The Frisian king-move counters start at
    /// zero.
    pub fn from_bitboards(white: Bb<R>, black: Bb<R>, kings: Bb<R>, side: Color) -> Self {
        debug_assert!((white & black).is_empty());
        debug_assert!((kings & !(white | black)).is_empty());
        debug_assert!(((white | black) & !R::G::VALID).is_empty());
        debug_assert!((white & !kings & R::G::TOP_ROW).is_empty());
        debug_assert!((black & !kings & R::G::BOTTOM_ROW).is_empty());
        let mut pos = Position {
            pieces: [white, black],
            kings,
            side,
            king_moves: [0; 2],
            moved_king: [NO_SQUARE; 2],
            hash: 0,
            _rules: PhantomData,
        };
        pos.hash = pos.compute_hash();
        pos
    }

    /// The position as an unchecked set-up.
    pub fn setup(&self) -> Setup {
        Setup {
            white: SquareSet(self.pieces[0].to_u128()),
            black: SquareSet(self.pieces[1].to_u128()),
            kings: SquareSet(self.kings.to_u128()),
            side_to_move: self.side,
            king_moves: self.king_moves,
            moved_king: self
                .moved_king
                .map(|sq| (sq != NO_SQUARE).then_some(Square(sq))),
        }
    }

    /// The side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// All pieces of one colour.
    #[inline(always)]
    pub fn pieces(&self, color: Color) -> Bb<R> {
        self.pieces[color.index()]
    }

    /// All kings of both colours.
    #[inline(always)]
    pub fn kings(&self) -> Bb<R> {
        self.kings
    }

    /// The men of one colour.
    #[inline(always)]
    pub fn men(&self, color: Color) -> Bb<R> {
        self.pieces[color.index()] & !self.kings
    }

    /// Every occupied square.
    #[inline(always)]
    pub fn occupied(&self) -> Bb<R> {
        self.pieces[0] | self.pieces[1]
    }

    /// Frisian three-move rule: quiet moves in a row made by `color`'s last-moved king, and
    /// that king's square (zero and `None` in other variants).
    pub fn king_moves(&self, color: Color) -> (u8, Option<Square>) {
        let sq = self.moved_king[color.index()];
        (
            self.king_moves[color.index()],
            (sq != NO_SQUARE).then_some(Square(sq)),
        )
    }

    /// Kings of the side to move that may not make a quiet move now (Frisian: the king that
    /// made three quiet moves in a row while its side still has men).
    #[inline(always)]
    pub(crate) fn blocked_kings(&self) -> Bb<R> {
        let us = self.side.index();
        if R::KING_MOVE_LIMIT == 0
            || self.king_moves[us] < R::KING_MOVE_LIMIT
            || self.men(self.side).is_empty()
        {
            <Bb<R>>::EMPTY
        } else if self.moved_king[us] == NO_SQUARE {
            self.pieces[us] & self.kings
        } else {
            <Bb<R>>::single(self.moved_king[us] as u32)
        }
    }

    /// The piece on a square.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        if sq.index() >= <Bb<R> as Bitboard>::BITS {
            return None;
        }
        let color = if self.pieces[0].has(sq.index()) {
            Color::White
        } else if self.pieces[1].has(sq.index()) {
            Color::Black
        } else {
            return None;
        };
        let role = if self.kings.has(sq.index()) {
            Role::King
        } else {
            Role::Man
        };
        Some(Piece { color, role })
    }

    /// The Zobrist hash, maintained incrementally.
    #[inline(always)]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The Zobrist hash computed from scratch (equal to [`Position::hash`]; used by tests).
    pub fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for color in Color::BOTH {
            for sq in self.pieces[color.index()].iter() {
                h ^= zobrist::piece(color.index(), self.kings.has(sq), sq);
            }
            if R::KING_MOVE_LIMIT > 0 {
                h ^= zobrist::COUNTER[color.index() * 8 + self.king_moves[color.index()] as usize]
                    ^ zobrist::moved_king(color.index(), self.moved_king[color.index()]);
            }
        }
        if self.side == Color::Black {
            h ^= zobrist::BLACK_TO_MOVE;
        }
        h
    }

    /// The row a man of `color` is crowned on.
    #[inline(always)]
    pub(crate) fn crowning_row(color: Color) -> Bb<R> {
        match color {
            Color::White => R::G::TOP_ROW,
            Color::Black => R::G::BOTTOM_ROW,
        }
    }

    /// Plays a move produced by this position's move generator.
    ///
    /// The move must be one of [`Position::legal_moves`] of `self`; anything else leaves the
    /// result meaningless (but memory-safe). Use [`Position::play`] for untrusted moves.
    #[inline]
    pub fn play_unchecked(&self, m: &Move<Bb<R>>) -> Self {
        let us = self.side.index();
        let them = us ^ 1;
        let from = <Bb<R>>::single(m.from as u32);
        let to = <Bb<R>>::single(m.to as u32);
        let was_king = !(self.kings & from).is_empty();
        let mine = (self.pieces[us] & !from) | to;
        let mut theirs = self.pieces[them];
        let mut kings = self.kings;
        let mut hash = self.hash ^ zobrist::BLACK_TO_MOVE;
        if !m.captured.is_empty() {
            theirs &= !m.captured;
            for sq in m.captured.iter() {
                hash ^= zobrist::piece(them, self.kings.has(sq), sq);
            }
            kings &= !m.captured;
        }
        if was_king {
            kings = (kings & !from) | to;
        } else if m.promotes {
            kings |= to;
        }
        hash ^= zobrist::piece(us, was_king, m.from as u32)
            ^ zobrist::piece(us, was_king || m.promotes, m.to as u32);
        // Built whole rather than copied and then changed field by field: the copy would be
        // read back in wider pieces than its fields were written.
        let mut next = Position {
            pieces: if us == 0 {
                [mine, theirs]
            } else {
                [theirs, mine]
            },
            kings,
            side: !self.side,
            king_moves: self.king_moves,
            moved_king: self.moved_king,
            hash,
            _rules: PhantomData,
        };
        if R::KING_MOVE_LIMIT > 0 {
            next.hash ^= next.update_king_moves(self, m, was_king);
        }
        next
    }

    /// Frisian three-move rule bookkeeping after `m` was played from `before`; returns the
    /// hash change. A quiet move of the same king counts on; any other move clears the mover's
    /// count; a side left without men has no count.
    #[inline(never)]
    fn update_king_moves(&mut self, before: &Self, m: &Move<Bb<R>>, was_king: bool) -> u64 {
        let us = before.side.index();
        let them = us ^ 1;
        let old_key = |p: &Self, c: usize| {
            zobrist::COUNTER[c * 8 + p.king_moves[c] as usize]
                ^ zobrist::moved_king(c, p.moved_king[c])
        };
        let mut delta = old_key(before, us) ^ old_key(before, them);
        let quiet_king_move = was_king && m.captured.is_empty();
        if quiet_king_move && !self.men(before.side).is_empty() {
            let same_king = before.moved_king[us] == NO_SQUARE || before.moved_king[us] == m.from;
            let count = if same_king { before.king_moves[us] } else { 0 };
            self.king_moves[us] = (count + 1).min(R::KING_MOVE_LIMIT);
            self.moved_king[us] = m.to;
        } else {
            self.king_moves[us] = 0;
            self.moved_king[us] = NO_SQUARE;
        }
        if self.men(!before.side).is_empty() {
            self.king_moves[them] = 0;
            self.moved_king[them] = NO_SQUARE;
        }
        delta ^= old_key(self, us) ^ old_key(self, them);
        delta
    }

    /// Plays `m` if it is legal here.
    ///
    /// # Errors
    /// [`IllegalMove`] if `m` is not one of the legal moves; `self` is unchanged.
    pub fn play(&self, m: &Move<Bb<R>>) -> Result<Self, IllegalMove> {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        if moves.contains(m) {
            Ok(self.play_unchecked(m))
        } else {
            Err(IllegalMove)
        }
    }
}
