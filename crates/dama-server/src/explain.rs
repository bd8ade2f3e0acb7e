//! Plain-words reasons why an attempted move is not legal, for people learning the game.
//!
//! Legality itself comes from `dama-core`; this module only looks at the legal moves of the
//! position and the attempt to say what went wrong. The browser shows the reason from its
//! message files (the `code` selects the message, the other fields fill it in).

use dama_core::{AnyPosition, Color, Role, Square};
use serde::Serialize;
use std::fmt;

/// Why an attempted move was refused.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "code", rename_all = "snake_case")]
pub enum Illegal {
    /// The squares are not squares of this board (or the path is malformed).
    BadPath,
    /// There is no piece on the start square.
    NoPiece {
        /// The square.
        square: String,
    },
    /// The piece belongs to the other player.
    NotYourPiece {
        /// The square.
        square: String,
    },
    /// A capture is compulsory and this move does not capture (or uses a piece that cannot).
    MustCapture {
        /// The pieces that can capture.
        pieces: Vec<String>,
    },
    /// This piece can capture, but not along that path (a longer or different capture is
    /// required, or the path is wrong).
    WrongCapture {
        /// The piece.
        square: String,
        /// Whether the variant makes the largest capture compulsory.
        most_pieces_rule: bool,
    },
    /// The piece has no legal move at all.
    PieceCannotMove {
        /// The piece.
        square: String,
    },
    /// The piece cannot go to that square.
    CannotReach {
        /// The piece.
        from: String,
        /// The target.
        to: String,
        /// A man tried to move backwards.
        backwards: bool,
    },
    /// Two different captures go from this start to this end square: the path must be given.
    Ambiguous,
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Illegal::BadPath => f.write_str("those are not squares of this board"),
            Illegal::NoPiece { square } => write!(f, "there is no piece on {square}"),
            Illegal::NotYourPiece { square } => {
                write!(f, "the piece on {square} belongs to your opponent")
            }
            Illegal::MustCapture { pieces } => {
                write!(
                    f,
                    "you must capture: the piece on {} can jump",
                    pieces.join(", ")
                )
            }
            Illegal::WrongCapture { square, .. } => {
                write!(f, "the piece on {square} must capture along another path")
            }
            Illegal::PieceCannotMove { square } => {
                write!(f, "the piece on {square} has no move")
            }
            Illegal::CannotReach { from, to, .. } => {
                write!(f, "the piece on {from} cannot go to {to}")
            }
            Illegal::Ambiguous => f.write_str("two captures end there: choose the path hop by hop"),
        }
    }
}

/// Whether a variant's rules force the capture that takes the most pieces.
fn has_most_pieces_rule(variant: dama_core::Variant) -> bool {
    use dama_core::Variant::*;
    matches!(
        variant,
        International
            | Brazilian
            | Canadian
            | Italian
            | Spanish
            | Portuguese
            | Frisian
            | Antidraughts
    )
}

/// Explains why `path` (start square first) is not a legal move in `pos`. The caller has found
/// that it is not legal.
pub fn explain_illegal(pos: &AnyPosition, path: &[Square]) -> Illegal {
    let variant = pos.variant();
    let name = |sq: Square| variant.square_name(sq);
    let Some(&from) = path.first() else {
        return Illegal::BadPath;
    };
    let side = pos.side_to_move();
    match pos.piece_at(from) {
        None => return Illegal::NoPiece { square: name(from) },
        Some(p) if p.color != side => return Illegal::NotYourPiece { square: name(from) },
        Some(_) => {}
    }
    let legal = pos.legal_moves();
    let capturing = legal.iter().any(|m| m.is_capture());
    let own: Vec<_> = legal.iter().filter(|m| m.from == from).collect();
    if capturing && own.is_empty() {
        let mut pieces: Vec<Square> = legal.iter().map(|m| m.from).collect();
        pieces.sort_by_key(|&s| variant.square_number(s));
        pieces.dedup();
        return Illegal::MustCapture {
            pieces: pieces.into_iter().map(name).collect(),
        };
    }
    if capturing {
        return Illegal::WrongCapture {
            square: name(from),
            most_pieces_rule: has_most_pieces_rule(variant),
        };
    }
    if own.is_empty() {
        return Illegal::PieceCannotMove { square: name(from) };
    }
    let Some(&to) = path.last() else {
        return Illegal::BadPath;
    };
    let is_man = pos.piece_at(from).is_some_and(|p| p.role == Role::Man);
    let backwards = is_man
        && match (variant.coords(from), variant.coords(to)) {
            (Some((_, r0)), Some((_, r1))) => match side {
                Color::White => r1 < r0,
                Color::Black => r1 > r0,
            },
            _ => false,
        };
    Illegal::CannotReach {
        from: name(from),
        to: name(to),
        backwards,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dama_core::Variant;

    fn sq(v: Variant, n: &str) -> Square {
        v.parse_square(n).unwrap()
    }

    #[test]
    fn must_capture_names_the_jumping_piece() {
        // White c3 can jump d4.
        let v = Variant::Russian;
        let pos = AnyPosition::from_fen(v, "W:Wc3,a1,h2:Bd4,h8").unwrap();
        let why = explain_illegal(&pos, &[sq(v, "h2"), sq(v, "g3")]);
        assert_eq!(
            why,
            Illegal::MustCapture {
                pieces: vec!["c3".into()]
            }
        );
        assert_eq!(
            why.to_string(),
            "you must capture: the piece on c3 can jump"
        );
        let json = serde_json::to_value(&why).unwrap();
        assert_eq!(json["code"], "must_capture");
        assert_eq!(json["pieces"][0], "c3");
    }

    #[test]
    fn other_reasons() {
        let v = Variant::Russian;
        let pos = AnyPosition::start(v);
        assert_eq!(
            explain_illegal(&pos, &[sq(v, "d4"), sq(v, "e5")]),
            Illegal::NoPiece {
                square: "d4".into()
            }
        );
        assert_eq!(
            explain_illegal(&pos, &[sq(v, "f6"), sq(v, "e5")]),
            Illegal::NotYourPiece {
                square: "f6".into()
            }
        );
        assert_eq!(
            explain_illegal(&pos, &[sq(v, "b2"), sq(v, "c3")]),
            Illegal::PieceCannotMove {
                square: "b2".into()
            }
        );
        let pos = AnyPosition::from_fen(v, "W:Wd4:Bh8").unwrap();
        assert_eq!(
            explain_illegal(&pos, &[sq(v, "d4"), sq(v, "c3")]),
            Illegal::CannotReach {
                from: "d4".into(),
                to: "c3".into(),
                backwards: true
            }
        );
        // International: the capture of the most pieces is compulsory.
        let v = Variant::International;
        let pos = AnyPosition::from_fen(v, "W:W32:B27,18,28").unwrap();
        let legal = pos.legal_moves();
        assert!(legal.iter().all(|m| m.captured.len() == 2));
        let why = explain_illegal(&pos, &[sq(v, "32"), sq(v, "23")]);
        assert_eq!(
            why,
            Illegal::WrongCapture {
                square: "32".into(),
                most_pieces_rule: true
            }
        );
    }
}
