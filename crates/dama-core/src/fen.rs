//! FEN as PDN 3.0 defines it: `W:W31-50:B1-20`, `B:WK4,21,22:B1,K30`.
//!
//! The reader accepts either list order, empty lists, ranges of numbers, `K` before a square for
//! a king, numeric or algebraic square names, `W`, `B` or `?` for the side to move, a final `.`
//! and the `:H<n>:F<n>` (half-move clock, move number) suffix that lidraughts writes. The writer
//! is canonical: side, White's list, Black's list, squares in increasing number, no ranges.

use crate::setup::{PositionError, Setup};
use crate::types::{Color, Square};
use crate::variant::Variant;
use core::fmt;

/// Longest FEN accepted (a full 12x12 board with names written out is under 400 bytes).
pub const MAX_FEN_LEN: usize = 2048;

/// A parsed FEN.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fen {
    /// The pieces and side to move (not yet validated against the variant's rules).
    pub setup: Setup,
    /// Whether the side to move was given as `?` (then [`Setup::side_to_move`] is the variant's
    /// first player).
    pub side_unknown: bool,
    /// The `H` field: half-moves since the last capture or man move, if given.
    pub halfmove_clock: Option<u32>,
    /// The `F` field: the move number, if given.
    pub move_number: Option<u32>,
}

/// Why a FEN could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// Nothing to read.
    Empty,
    /// Longer than [`MAX_FEN_LEN`].
    TooLong(usize),
    /// The first field is not `W`, `B` or `?`.
    BadSide(String),
    /// A piece list does not start with `W` or `B`.
    BadList(String),
    /// The same colour has two lists.
    DuplicateList(char),
    /// A square name that the board does not have.
    BadSquare(String),
    /// A range that is not `a-b` with numbers `a <= b`.
    BadRange(String),
    /// The same square is listed twice.
    DuplicateSquare(String),
    /// An `H` or `F` field that is not a number.
    BadCounter(String),
    /// The pieces are readable but are not a legal position of the variant.
    Illegal {
        /// What is wrong.
        error: PositionError,
        /// The variant the FEN was read for (to name squares in messages).
        variant: Variant,
    },
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => f.write_str("empty FEN"),
            FenError::TooLong(n) => write!(f, "FEN too long ({n} bytes, at most {MAX_FEN_LEN})"),
            FenError::BadSide(s) => {
                write!(
                    f,
                    "FEN must start with the side to move (W, B or ?), not '{s}'"
                )
            }
            FenError::BadList(s) => {
                write!(f, "FEN piece list '{s}' must start with W or B")
            }
            FenError::DuplicateList(c) => write!(f, "FEN has two piece lists for {c}"),
            FenError::BadSquare(s) => write!(f, "'{s}' is not a square of this board"),
            FenError::BadRange(s) => write!(f, "bad square range '{s}'"),
            FenError::DuplicateSquare(s) => write!(f, "square {s} is listed twice"),
            FenError::BadCounter(s) => write!(f, "bad FEN counter '{s}'"),
            FenError::Illegal { error, variant } => {
                write!(f, "impossible position: {}", error.named(*variant))
            }
        }
    }
}

impl std::error::Error for FenError {}

fn clip(s: &str) -> String {
    s.chars().take(40).collect()
}

/// Reads a FEN for `variant`. The result is not validated against the rules: build an
/// [`crate::AnyPosition`] from [`Fen::setup`] for that.
///
/// # Errors
/// A [`FenError`] naming the first problem.
pub fn parse(variant: Variant, text: &str) -> Result<Fen, FenError> {
    if text.len() > MAX_FEN_LEN {
        return Err(FenError::TooLong(text.len()));
    }
    let text = text.trim();
    let text = text.strip_suffix('.').unwrap_or(text).trim_end();
    if text.is_empty() {
        return Err(FenError::Empty);
    }
    let mut fields = text.split(':');
    let side_field = fields.next().unwrap_or_default().trim();
    let (side, side_unknown) = match side_field {
        "W" | "w" => (Color::White, false),
        "B" | "b" => (Color::Black, false),
        "?" => (variant.first_player(), true),
        other => return Err(FenError::BadSide(clip(other))),
    };
    let mut fen = Fen {
        setup: Setup {
            side_to_move: side,
            ..Setup::default()
        },
        side_unknown,
        halfmove_clock: None,
        move_number: None,
    };
    let mut seen = [false; 2];
    for field in fields {
        let field = field.trim();
        if field.is_empty() {
            // "W::" (problem files with no position entered yet): nothing to read.
            continue;
        }
        let mut chars = field.chars();
        let tag = chars.next();
        let rest = chars.as_str();
        let color = match tag {
            Some('W') | Some('w') => Color::White,
            Some('B') | Some('b') => Color::Black,
            Some('H') | Some('F') => {
                let n: u32 = rest
                    .trim()
                    .parse()
                    .map_err(|_| FenError::BadCounter(clip(field)))?;
                if tag == Some('H') {
                    fen.halfmove_clock = Some(n);
                } else {
                    fen.move_number = Some(n);
                }
                continue;
            }
            _ => return Err(FenError::BadList(clip(field))),
        };
        if seen[color.index()] {
            return Err(FenError::DuplicateList(color.letter()));
        }
        seen[color.index()] = true;
        parse_list(variant, rest, color, &mut fen.setup)?;
    }
    Ok(fen)
}

fn parse_list(
    variant: Variant,
    list: &str,
    color: Color,
    setup: &mut Setup,
) -> Result<(), FenError> {
    for item in list.split(',') {
        let item = item.trim();
        if item.is_empty() {
            continue;
        }
        // `K` marks a king. A lower-case `k` does too, except on boards wide enough to have a
        // file k (12x12), where `k9` is a square.
        let has_file_k = variant.board().width > 10;
        let (king, name) = match item.strip_prefix('K') {
            Some(rest) => (true, rest.trim()),
            None => match item.strip_prefix('k') {
                Some(rest) if !has_file_k || !rest.bytes().all(|b| b.is_ascii_digit()) => {
                    (true, rest.trim())
                }
                _ => (false, item),
            },
        };
        let squares: Vec<Square> = if let Some((a, b)) = name.split_once('-') {
            let bad = || FenError::BadRange(clip(item));
            let (a, b): (u32, u32) = (
                a.trim().parse().map_err(|_| bad())?,
                b.trim().parse().map_err(|_| bad())?,
            );
            if a > b || b > 200 {
                return Err(bad());
            }
            (a..=b)
                .map(|n| variant.square_from_number(n).ok_or_else(bad))
                .collect::<Result<_, _>>()?
        } else {
            vec![variant
                .parse_square(name)
                .ok_or_else(|| FenError::BadSquare(clip(name)))?]
        };
        for sq in squares {
            if (setup.white | setup.black).contains(sq) {
                return Err(FenError::DuplicateSquare(variant.square_name(sq)));
            }
            match color {
                Color::White => setup.white.insert(sq),
                Color::Black => setup.black.insert(sq),
            }
            if king {
                setup.kings.insert(sq);
            }
        }
    }
    Ok(())
}

/// Writes the canonical FEN of a set-up of `variant`.
pub fn write(variant: Variant, setup: &Setup) -> String {
    write_named(
        setup,
        |sq| variant.square_number(sq),
        |sq| variant.square_name(sq),
    )
}

/// Writes a FEN with squares named by `name` and listed in the order of `number` (for
/// example in another notation than the variant's own).
pub fn write_named(
    setup: &Setup,
    number: impl Fn(Square) -> Option<u32>,
    name: impl Fn(Square) -> String,
) -> String {
    let mut out = String::new();
    out.push(setup.side_to_move.letter());
    for color in Color::BOTH {
        out.push(':');
        out.push(color.letter());
        let mut squares: Vec<(u32, Square)> = setup
            .pieces(color)
            .iter()
            .map(|sq| (number(sq).unwrap_or(u32::MAX), sq))
            .collect();
        squares.sort_unstable();
        for (i, (_, sq)) in squares.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            if setup.kings.contains(*sq) {
                out.push('K');
            }
            out.push_str(&name(*sq));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_k_is_not_a_king() {
        let v = Variant::Canadian;
        let fen = parse(v, "W:Wk1,Kk3,K5:Bk11").unwrap();
        let k1 = v.square_from_algebraic("k1").unwrap();
        let k3 = v.square_from_algebraic("k3").unwrap();
        assert!(fen.setup.white.contains(k1) && !fen.setup.kings.contains(k1));
        assert!(fen.setup.kings.contains(k3));
        assert!(fen.setup.kings.contains(v.square_from_number(5).unwrap()));
        assert!(fen
            .setup
            .black
            .contains(v.square_from_algebraic("k11").unwrap()));
        // On smaller boards a lower-case k is a king.
        let fen = parse(Variant::International, "W:Wk31:B1").unwrap();
        assert_eq!(fen.setup.kings.len(), 1);
    }

    #[test]
    fn forms() {
        let v = Variant::International;
        let a = parse(v, "W:W31-50:B1-20").unwrap();
        let b = parse(v, " B:B1-20:W31-50. ").unwrap();
        assert_eq!(a.setup.white, b.setup.white);
        assert_eq!(b.setup.side_to_move, Color::Black);
        assert!(parse(v, "?:W31:B1").unwrap().side_unknown);
        let c = parse(v, "W:W31:B1:H3:F12").unwrap();
        assert_eq!((c.halfmove_clock, c.move_number), (Some(3), Some(12)));
        assert_eq!(write(v, &parse(v, "W:W::").unwrap().setup), "W:W:B");
        for bad in [
            "", "X:W1", "W:Q1", "W:W1:W2", "W:W51", "W:W5-3", "W:W1,1", "W:W1:Hx",
        ] {
            assert!(parse(v, bad).is_err(), "{bad}");
        }
        assert!(matches!(
            parse(v, &"W".repeat(3000)),
            Err(FenError::TooLong(_))
        ));
    }
}
