//! The PDN 3.0 `GameType` tag and the square names it defines.
//!
//! The tag is a number, optionally followed by the board and its notation:
//! `GameType "20"` or `GameType "20,W,10,10,N2,0"` — start colour, width, height, notation
//! (`A` algebraic, `N` numeric, `S` short algebraic) with the corner of square 1 (or `a1`) as
//! the player who starts sees the board (0 bottom-left, 1 bottom-right, 2 top-left, 3
//! top-right), and whether the bottom-left corner is *not* a playing square. Numbers always run
//! horizontally, row by row.
//!
//! A [`Layout`] is that description; [`Layout::standard`] gives each variant's, and the names
//! it computes are the same as `dama-core`'s [`Variant::square_name`] (a test checks every
//! variant). A file may declare a different layout; readers use it to name squares.

use core::fmt;
use dama_core::{Color, Naming, Square, Variant};

/// Longest `GameType` value accepted.
const MAX_GAME_TYPE_LEN: usize = 64;

/// How the squares of a board are named.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Notation {
    /// File letters and rank numbers (`c3`).
    Algebraic,
    /// Numbers of the playable squares (`11`).
    Numeric,
    /// Short algebraic (SAN) — named like [`Notation::Algebraic`].
    Short,
}

impl Notation {
    fn letter(self) -> char {
        match self {
            Notation::Algebraic => 'A',
            Notation::Numeric => 'N',
            Notation::Short => 'S',
        }
    }
}

/// A board and its square names, as the full `GameType` tag gives them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Layout {
    /// The colour that starts (the side the corner digit is seen from).
    pub first: Color,
    /// Columns.
    pub width: u32,
    /// Rows.
    pub height: u32,
    /// Algebraic or numeric names.
    pub notation: Notation,
    /// Where square 1 (or `a1`) is, seen from the starting player: 0 bottom-left, 1
    /// bottom-right, 2 top-left, 3 top-right.
    pub corner: u8,
    /// Whether the bottom-left corner (seen from the starting player) is *not* playable.
    pub invert: bool,
}

impl Layout {
    /// The layout PDN 3.0 defines for a variant (in the variant's usual notation).
    pub fn standard(variant: Variant) -> Layout {
        let notation = match variant.naming() {
            Naming::Algebraic => Notation::Algebraic,
            Naming::Numeric(_) => Notation::Numeric,
        };
        Layout::with_notation(variant, notation)
    }

    /// The layout of a variant's board with squares named in `notation` (for example
    /// International in algebraic names: `20,W,10,10,A0,0`).
    pub fn with_notation(variant: Variant, notation: Notation) -> Layout {
        let b = variant.board();
        let first = variant.first_player();
        let corner = match notation {
            Notation::Algebraic | Notation::Short => 0,
            Notation::Numeric => match (first, variant) {
                (Color::White, Variant::Spanish | Variant::Portuguese) => 1,
                (Color::White, _) => 2,
                // Seen from Black, White's top-left is the bottom-right corner.
                (Color::Black, _) => 1,
            },
        };
        Layout {
            first,
            width: b.width,
            height: b.height,
            notation,
            corner,
            invert: b.mirrored,
        }
    }

    /// Whether a variant can be played on this layout's board (same size and same playable
    /// squares).
    pub fn fits(&self, variant: Variant) -> bool {
        let b = variant.board();
        // The starting player's bottom-left corner is White's bottom-left when White starts
        // and White's top-right otherwise; on boards of even width and height both are the
        // same colour.
        b.width == self.width && b.height == self.height && b.mirrored == self.invert
    }

    /// Coordinates of a square of `variant` as this layout counts them: (column, row) from the
    /// layout's corner. `None` if the square is not on the board.
    fn counted(&self, variant: Variant, sq: Square) -> Option<(u32, u32)> {
        let (col, row) = variant.coords(sq)?;
        let b = variant.board();
        let display = if b.mirrored { b.width - 1 - col } else { col };
        // As the starting player sees the board.
        let (x, y) = match self.first {
            Color::White => (display, row),
            Color::Black => (b.width - 1 - display, b.height - 1 - row),
        };
        Some(match self.corner {
            0 => (x, y),
            1 => (self.width - 1 - x, y),
            2 => (x, self.height - 1 - y),
            _ => (self.width - 1 - x, self.height - 1 - y),
        })
    }

    /// The square of `variant` at counted coordinates.
    fn uncounted(&self, variant: Variant, cx: u32, cy: u32) -> Option<Square> {
        if cx >= self.width || cy >= self.height {
            return None;
        }
        let (x, y) = match self.corner {
            0 => (cx, cy),
            1 => (self.width - 1 - cx, cy),
            2 => (cx, self.height - 1 - cy),
            _ => (self.width - 1 - cx, self.height - 1 - cy),
        };
        let b = variant.board();
        if b.width != self.width || b.height != self.height {
            return None;
        }
        let (display, row) = match self.first {
            Color::White => (x, y),
            Color::Black => (b.width - 1 - x, b.height - 1 - y),
        };
        let col = if b.mirrored {
            b.width - 1 - display
        } else {
            display
        };
        variant.square_at(col, row)
    }

    /// The number of a square in this layout's numbering.
    pub fn number(&self, variant: Variant, sq: Square) -> Option<u32> {
        let (cx, cy) = self.counted(variant, sq)?;
        Some(1 + cy * (self.width / 2) + cx / 2)
    }

    /// The square with a number in this layout's numbering.
    pub fn from_number(&self, variant: Variant, n: u32) -> Option<Square> {
        let per_row = self.width / 2;
        if n == 0 || per_row == 0 || n > per_row * self.height {
            return None;
        }
        let cy = (n - 1) / per_row;
        let index = (n - 1) % per_row;
        // Of the two columns 2*index and 2*index+1 of this row, one is playable.
        [2 * index, 2 * index + 1]
            .into_iter()
            .find_map(|cx| self.uncounted(variant, cx, cy))
    }

    /// The (file, rank) of a square in this layout's algebraic names, both 0-based.
    pub fn file_rank(&self, variant: Variant, sq: Square) -> Option<(u32, u32)> {
        self.counted(variant, sq)
    }

    /// The square at a 0-based file and rank in this layout's algebraic names.
    pub fn from_file_rank(&self, variant: Variant, file: u32, rank: u32) -> Option<Square> {
        self.uncounted(variant, file, rank)
    }

    /// The algebraic name of a square in this layout (`c3`).
    pub fn algebraic_name(&self, variant: Variant, sq: Square) -> Option<String> {
        let (file, rank) = self.counted(variant, sq)?;
        let letter = char::from(b'a' + u8::try_from(file).ok().filter(|f| *f < 26)?);
        Some(format!("{letter}{}", rank + 1))
    }

    /// A square's name in this layout's notation.
    pub fn square_name(&self, variant: Variant, sq: Square) -> String {
        match self.notation {
            Notation::Numeric => self.number(variant, sq).map(|n| n.to_string()),
            Notation::Algebraic | Notation::Short => self.algebraic_name(variant, sq),
        }
        .unwrap_or_else(|| format!("?{}", sq.0))
    }

    /// The name as it appears in the full `GameType` tag (`N2,0`).
    fn notation_field(&self) -> String {
        format!(
            "{}{},{}",
            self.notation.letter(),
            self.corner,
            u8::from(self.invert)
        )
    }
}

/// A parsed `GameType` tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameType {
    /// The type number (20 International, 21 English, …).
    pub number: u32,
    /// The board and notation, when the tag gives them.
    pub layout: Option<Layout>,
}

/// Why a `GameType` value could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameTypeError(pub String);

impl fmt::Display for GameTypeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bad GameType '{}' (expected a number such as \"20\" or the full form \"20,W,10,10,N2,0\")",
            self.0
        )
    }
}

impl std::error::Error for GameTypeError {}

/// GameType numbers other programs use for games dama plays under another name: lidraughts'
/// Frysk! (97) is Frisian from a start with five men a side, and its Breakthrough (96) is
/// International draughts won by the first player to crown, so its moves are International
/// moves.
pub fn foreign_game_type(number: u32) -> Option<(Variant, Option<&'static str>)> {
    match number {
        96 => Some((Variant::International, None)),
        97 => Some((Variant::Frisian, Some("W:W46,47,48,49,50:B1,2,3,4,5"))),
        _ => None,
    }
}

impl GameType {
    /// The standard tag of a variant (number only).
    pub fn of(variant: Variant) -> GameType {
        GameType {
            number: variant.game_type().into(),
            layout: None,
        }
    }

    /// The variant whose rules the game is played by, and the start position when the type
    /// implies one other than the variant's (see [`foreign_game_type`]).
    pub fn variant(&self) -> Option<(Variant, Option<&'static str>)> {
        Variant::from_game_type(self.number)
            .map(|v| (v, None))
            .or_else(|| foreign_game_type(self.number))
    }

    /// The layout to name squares with: the tag's own if it gives one that fits the variant,
    /// else the variant's standard one.
    pub fn layout_for(&self, variant: Variant) -> Layout {
        match self.layout {
            Some(l) if l.fits(variant) => l,
            _ => Layout::standard(variant),
        }
    }

    /// Reads a tag value: `20`, `20,W,10,10,N2,0` or `20,W,10,10,N2` (spaces allowed around
    /// fields).
    ///
    /// # Errors
    /// [`GameTypeError`] if the value does not have that form.
    pub fn parse(text: &str) -> Result<GameType, GameTypeError> {
        let bad = || GameTypeError(text.chars().take(MAX_GAME_TYPE_LEN).collect());
        if text.len() > MAX_GAME_TYPE_LEN {
            return Err(bad());
        }
        let fields: Vec<&str> = text.split(',').map(str::trim).collect();
        let number: u32 = parse_digits(fields[0]).ok_or_else(bad)?;
        if fields.len() == 1 {
            return Ok(GameType {
                number,
                layout: None,
            });
        }
        if !(5..=6).contains(&fields.len()) {
            return Err(bad());
        }
        let first = match fields[1] {
            "W" | "w" => Color::White,
            "B" | "b" => Color::Black,
            _ => return Err(bad()),
        };
        let width = parse_digits(fields[2]).filter(|w| (2..=26).contains(w));
        let height = parse_digits(fields[3]).filter(|h| (2..=26).contains(h));
        let (width, height) = (width.ok_or_else(bad)?, height.ok_or_else(bad)?);
        let mut notation_chars = fields[4].chars();
        let notation = match notation_chars.next() {
            Some('A' | 'a') => Notation::Algebraic,
            Some('N' | 'n') => Notation::Numeric,
            Some('S' | 's') => Notation::Short,
            _ => return Err(bad()),
        };
        let corner = match notation_chars.as_str() {
            "0" => 0,
            "1" => 1,
            "2" => 2,
            "3" => 3,
            _ => return Err(bad()),
        };
        let invert = match fields.get(5).copied() {
            None | Some("0") => false,
            Some("1") => true,
            Some(_) => return Err(bad()),
        };
        Ok(GameType {
            number,
            layout: Some(Layout {
                first,
                width,
                height,
                notation,
                corner,
                invert,
            }),
        })
    }
}

fn parse_digits(s: &str) -> Option<u32> {
    if s.is_empty() || s.len() > 9 || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

impl fmt::Display for GameType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.number)?;
        if let Some(l) = &self.layout {
            write!(
                f,
                ",{},{},{},{}",
                l.first.letter(),
                l.width,
                l.height,
                l.notation_field()
            )?;
        }
        Ok(())
    }
}

/// The full `GameType` value of a variant with squares named in `notation`.
pub fn full_game_type(variant: Variant, notation: Notation) -> GameType {
    GameType {
        number: variant.game_type().into(),
        layout: Some(Layout::with_notation(variant, notation)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_layouts_name_squares_as_core_does() {
        for v in Variant::ALL {
            let layout = Layout::standard(v);
            assert!(layout.fits(v));
            for sq in v.squares() {
                assert_eq!(layout.square_name(v, sq), v.square_name(sq), "{v}");
                let numeric = Layout::with_notation(v, Notation::Numeric);
                let n = numeric.number(v, sq).unwrap();
                assert_eq!(Some(n), v.square_number(sq), "{v}");
                assert_eq!(numeric.from_number(v, n), Some(sq), "{v} {n}");
                let alg = Layout::with_notation(v, Notation::Algebraic);
                assert_eq!(alg.algebraic_name(v, sq), v.algebraic_name(sq), "{v}");
            }
        }
    }

    #[test]
    fn pdn_table() {
        let expect = [
            (Variant::International, "20,W,10,10,N2,0"),
            (Variant::English, "21,B,8,8,N1,0"),
            (Variant::Italian, "22,W,8,8,N2,1"),
            (Variant::Pool, "23,B,8,8,N1,0"),
            (Variant::Spanish, "24,W,8,8,N1,1"),
            (Variant::Russian, "25,W,8,8,A0,0"),
            (Variant::Brazilian, "26,W,8,8,A0,0"),
            (Variant::Canadian, "27,W,12,12,N2,0"),
            (Variant::Portuguese, "28,W,8,8,N1,1"),
            (Variant::Czech, "29,W,8,8,A0,0"),
            (Variant::Frisian, "40,W,10,10,N2,0"),
            (Variant::Spantsiretti, "41,W,10,8,A0,0"),
        ];
        for (v, text) in expect {
            let gt = GameType::parse(text).unwrap();
            assert_eq!(gt.to_string(), text);
            assert_eq!(gt, full_game_type(v, Layout::standard(v).notation), "{v}");
            assert_eq!(gt.variant(), Some((v, None)));
        }
    }

    #[test]
    fn declared_layouts() {
        // kurnik writes N1 for International: square 1 would then be White's i1.
        let gt = GameType::parse("20,W,10,10,N1,0").unwrap();
        let v = Variant::International;
        let l = gt.layout_for(v);
        assert_eq!(l.from_number(v, 1), v.square_from_algebraic("i1"));
        assert_eq!(l.from_number(v, 50), v.square_from_algebraic("b10"));
        // A layout of another board size is ignored.
        let gt = GameType::parse("20,W,8,8,N2,0").unwrap();
        assert_eq!(gt.layout_for(v), Layout::standard(v));
        // Jamaican-style algebraic from the other corner.
        let gt = GameType::parse("23,W,8,8,A1,1").unwrap();
        assert_eq!(gt.layout.unwrap().corner, 1);
    }

    #[test]
    fn bad_game_types() {
        for text in [
            "",
            "x",
            "20,W",
            "20,X,10,10,N2,0",
            "20,W,10,10,Q2,0",
            "20,W,10,10,N4,0",
            "20,W,10,10,N2,2",
            "20,W,99,10,N2,0",
            "-1",
            "99999999999",
        ] {
            assert!(GameType::parse(text).is_err(), "{text}");
        }
        assert_eq!(GameType::parse(" 25 ").unwrap().number, 25);
        assert_eq!(
            GameType::parse("97").unwrap().variant().unwrap().0,
            Variant::Frisian
        );
    }
}
