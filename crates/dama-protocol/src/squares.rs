//! Square numbers and the move format shared by Hub and DXP: every square is named by its
//! number in the variant's numeric notation, and a move is its start, its end and the numbers
//! of the captured pieces.

use dama_core::{AnyMove, AnyPosition, Color, Role, Square, SquareSet, Variant};
use std::fmt;

/// A move as protocols send it: numbers of the start and end squares and of the captured
/// pieces (in any order).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveText {
    /// Start square number.
    pub from: u32,
    /// End square number.
    pub to: u32,
    /// Captured square numbers.
    pub captured: Vec<u32>,
}

/// Why a move or position from a peer could not be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SquareError {
    /// The text is not a move.
    BadMove(String),
    /// The move is not legal in the position.
    Illegal(String),
    /// The position text is malformed.
    BadPosition(String),
}

impl fmt::Display for SquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SquareError::BadMove(m) => write!(f, "not a move: {m:?}"),
            SquareError::Illegal(m) => write!(f, "illegal move: {m:?}"),
            SquareError::BadPosition(m) => write!(f, "bad position: {m}"),
        }
    }
}

impl std::error::Error for SquareError {}

/// The number of a square (its numeric-notation name) in `variant`.
pub fn number(variant: Variant, sq: Square) -> u32 {
    variant.square_number(sq).unwrap_or(0)
}

impl MoveText {
    /// The protocol form of a legal move.
    pub fn of(variant: Variant, m: &AnyMove) -> MoveText {
        let mut captured: Vec<u32> = m.captured.iter().map(|s| number(variant, s)).collect();
        captured.sort_unstable();
        MoveText {
            from: number(variant, m.from),
            to: number(variant, m.to),
            captured,
        }
    }

    /// Hub text: `32-28` for a quiet move, `28x19x23` (start, end, captured pieces) for a
    /// capture.
    pub fn hub(&self) -> String {
        if self.captured.is_empty() {
            format!("{}-{}", self.from, self.to)
        } else {
            let mut s = format!("{}x{}", self.from, self.to);
            for c in &self.captured {
                s.push('x');
                s.push_str(&c.to_string());
            }
            s
        }
    }

    /// Parses Hub text (see [`MoveText::hub`]).
    ///
    /// # Errors
    /// [`SquareError::BadMove`] if it is not of that form.
    pub fn parse_hub(text: &str) -> Result<MoveText, SquareError> {
        let bad = || SquareError::BadMove(text.chars().take(80).collect());
        if text.len() > 400 {
            return Err(bad());
        }
        let capture = text.contains('x') || text.contains('X');
        let parts: Vec<&str> = if capture {
            text.split(['x', 'X']).collect()
        } else {
            text.split('-').collect()
        };
        let numbers = parts
            .iter()
            .map(|p| p.trim().parse::<u32>().map_err(|_| bad()))
            .collect::<Result<Vec<u32>, _>>()?;
        match (capture, numbers.as_slice()) {
            (false, [from, to]) => Ok(MoveText {
                from: *from,
                to: *to,
                captured: Vec::new(),
            }),
            (true, [from, to, captured @ ..]) => Ok(MoveText {
                from: *from,
                to: *to,
                captured: captured.to_vec(),
            }),
            _ => Err(bad()),
        }
    }
}

/// The legal move of `pos` that `text` names. A capture given without its captured pieces
/// (just start and end) is accepted when only one legal move matches.
///
/// # Errors
/// [`SquareError::Illegal`] when no legal move, or more than one, matches.
pub fn find_move(pos: &AnyPosition, text: &MoveText) -> Result<AnyMove, SquareError> {
    let v = pos.variant();
    let square = |n: u32| v.square_from_number(n);
    let illegal = || SquareError::Illegal(text.hub());
    let from = square(text.from).ok_or_else(illegal)?;
    let to = square(text.to).ok_or_else(illegal)?;
    let captured: Option<SquareSet> = text.captured.iter().map(|&n| square(n)).collect();
    let captured = captured.ok_or_else(illegal)?;
    let candidates: Vec<AnyMove> = pos
        .legal_moves()
        .into_iter()
        .filter(|m| m.from == from && m.to == to)
        .filter(|m| text.captured.is_empty() || m.captured == captured)
        .collect();
    match candidates.as_slice() {
        [m] => Ok(*m),
        _ => Err(illegal()),
    }
}

/// The board as one character per square in numeric order (`w`/`b` men, `W`/`B` kings, `e`
/// empty), with `white`/`black` men letters chosen by the caller (DXP uses `z` for Black).
pub fn board_string(pos: &AnyPosition, black_man: char, black_king: char) -> String {
    let v = pos.variant();
    let n = v.squares().count() as u32;
    (1..=n)
        .map(
            |i| match v.square_from_number(i).and_then(|s| pos.piece_at(s)) {
                None => 'e',
                Some(p) => match (p.color, p.role) {
                    (Color::White, Role::Man) => 'w',
                    (Color::White, Role::King) => 'W',
                    (Color::Black, Role::Man) => black_man,
                    (Color::Black, Role::King) => black_king,
                },
            },
        )
        .collect()
}

/// Reads a board string (see [`board_string`]).
///
/// # Errors
/// [`SquareError::BadPosition`] for a wrong length, an unknown character or an impossible
/// position.
pub fn parse_board(
    variant: Variant,
    side: Color,
    board: &str,
    black_man: char,
    black_king: char,
) -> Result<AnyPosition, SquareError> {
    let n = variant.squares().count();
    if board.chars().count() != n {
        return Err(SquareError::BadPosition(format!(
            "{} squares given, the board has {n}",
            board.chars().count()
        )));
    }
    let mut setup = dama_core::Setup {
        side_to_move: side,
        ..Default::default()
    };
    for (i, c) in board.chars().enumerate() {
        let sq = variant
            .square_from_number(i as u32 + 1)
            .ok_or_else(|| SquareError::BadPosition("square out of range".into()))?;
        match c {
            'e' | 'E' | '.' => {}
            'w' => setup.white.insert(sq),
            'W' => {
                setup.white.insert(sq);
                setup.kings.insert(sq);
            }
            c if c == black_man => setup.black.insert(sq),
            c if c == black_king => {
                setup.black.insert(sq);
                setup.kings.insert(sq);
            }
            other => {
                return Err(SquareError::BadPosition(format!(
                    "unknown square character {other:?}"
                )))
            }
        }
    }
    AnyPosition::new(variant, &setup).map_err(|e| SquareError::BadPosition(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hub_moves_round_trip() {
        let m = MoveText::parse_hub("28x19x23").unwrap();
        assert_eq!(
            m,
            MoveText {
                from: 28,
                to: 19,
                captured: vec![23]
            }
        );
        assert_eq!(m.hub(), "28x19x23");
        assert_eq!(MoveText::parse_hub("32-28").unwrap().hub(), "32-28");
        assert!(MoveText::parse_hub("32-").is_err());
        assert!(MoveText::parse_hub("a-b").is_err());
        assert!(MoveText::parse_hub("1-2-3").is_err());
        assert!(MoveText::parse_hub(&"1x".repeat(300)).is_err());
    }

    #[test]
    fn boards_round_trip() {
        for v in Variant::ALL {
            let p = AnyPosition::start(v);
            let s = board_string(&p, 'b', 'B');
            assert_eq!(s.len(), v.squares().count());
            let back = parse_board(v, p.side_to_move(), &s, 'b', 'B').unwrap();
            assert_eq!(back, p, "{v}");
        }
        let p = AnyPosition::start(Variant::International);
        assert_eq!(
            board_string(&p, 'b', 'B'),
            format!("{}{}{}", "b".repeat(20), "e".repeat(10), "w".repeat(20))
        );
        assert!(parse_board(Variant::International, Color::White, "bbb", 'b', 'B').is_err());
        assert!(parse_board(
            Variant::International,
            Color::White,
            &"x".repeat(50),
            'b',
            'B'
        )
        .is_err());
    }

    #[test]
    fn finds_moves() {
        let p = AnyPosition::start(Variant::International);
        let m = find_move(&p, &MoveText::parse_hub("32-28").unwrap()).unwrap();
        assert_eq!(MoveText::of(Variant::International, &m).hub(), "32-28");
        assert!(find_move(&p, &MoveText::parse_hub("32-26").unwrap()).is_err());
        assert!(find_move(&p, &MoveText::parse_hub("99-28").unwrap()).is_err());
    }
}
