//! The variants: their public keys, names, PDN game types, boards, square names and start
//! positions. The rules that decide legal moves live in [`crate::rules`]; [`with_rules!`] maps a
//! variant to its rule set.
//!
//! [`with_rules!`]: crate::with_rules

use crate::setup::Setup;
use crate::types::{Color, Square, SquareSet};
use core::fmt;
use core::str::FromStr;

/// Every diagonal variant dama plays. The key (see [`Variant::key`]) is the public name used by
/// the command line, URLs and the database.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Variant {
    /// Russian draughts (shashki), the main variant.
    Russian,
    /// English draughts / American checkers.
    English,
    /// International (Polish) draughts on 10x10.
    International,
    /// Brazilian draughts: International rules on 8x8.
    Brazilian,
    /// Canadian draughts: International rules on 12x12.
    Canadian,
    /// American pool checkers.
    Pool,
    /// Italian draughts.
    Italian,
    /// Spanish draughts.
    Spanish,
    /// Portuguese draughts.
    Portuguese,
    /// Czech draughts.
    Czech,
    /// German draughts (10x10, free capture choice).
    German,
    /// Circassian draughts.
    Circassian,
    /// 80-square draughts: Russian rules on a board 10 wide and 8 high.
    Spantsiretti,
    /// Frisian draughts.
    Frisian,
    /// Antidraughts: International rules, the goal reversed.
    Antidraughts,
    /// Russian giveaway (poddavki): Russian rules, the goal reversed.
    RussianGiveaway,
    /// Diagonal Russian draughts: Russian rules from a diagonal start position.
    DiagonalRussian,
}

/// How a variant names its squares (PDN 3.0, the notation field of the `GameType` tag).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Naming {
    /// Files `a`, `b`, … from White's left and ranks `1`, `2`, … from White's side (PDN `A0`:
    /// Russian, Brazilian, Czech, 80-square).
    Algebraic,
    /// Numbers `1`, `2`, … over the playable squares, row by row from the given corner, as White
    /// sees the board.
    Numeric(Corner),
}

/// The corner numeric notation starts from, as White sees the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Corner {
    /// Square 1 is the first playable square of the row farthest from White, counting from
    /// White's left; numbers run left to right, then down (PDN `N2`, and `N1` seen from Black:
    /// International, English, Italian, Canadian, Frisian).
    TopLeft,
    /// Square 1 is the first playable square of White's first row counting from White's right;
    /// numbers run right to left, then up (PDN `N1` seen from White: Spanish, Portuguese).
    BottomRight,
}

/// Description of a variant's board as the players see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    /// Number of columns.
    pub width: u32,
    /// Number of rows.
    pub height: u32,
    /// Whether the board is shown mirrored, so that the playable corner is on each player's
    /// right (Italian, Spanish, Portuguese). Internally every board has its bottom-left corner
    /// playable; a mirrored board swaps left and right for display and names.
    pub mirrored: bool,
}

impl Variant {
    /// All variants, in the order menus show them.
    pub const ALL: [Variant; 17] = [
        Variant::Russian,
        Variant::English,
        Variant::International,
        Variant::Brazilian,
        Variant::Canadian,
        Variant::Pool,
        Variant::Italian,
        Variant::Spanish,
        Variant::Portuguese,
        Variant::Czech,
        Variant::German,
        Variant::Circassian,
        Variant::Spantsiretti,
        Variant::Frisian,
        Variant::Antidraughts,
        Variant::RussianGiveaway,
        Variant::DiagonalRussian,
    ];

    /// The public key.
    pub const fn key(self) -> &'static str {
        match self {
            Variant::Russian => "russian",
            Variant::English => "english",
            Variant::International => "international",
            Variant::Brazilian => "brazilian",
            Variant::Canadian => "canadian",
            Variant::Pool => "pool",
            Variant::Italian => "italian",
            Variant::Spanish => "spanish",
            Variant::Portuguese => "portuguese",
            Variant::Czech => "czech",
            Variant::German => "german",
            Variant::Circassian => "circassian",
            Variant::Spantsiretti => "spantsiretti",
            Variant::Frisian => "frisian",
            Variant::Antidraughts => "antidraughts",
            Variant::RussianGiveaway => "russian-giveaway",
            Variant::DiagonalRussian => "diagonal-russian",
        }
    }

    /// Other keys accepted for the variant.
    pub const fn aliases(self) -> &'static [&'static str] {
        match self {
            Variant::English => &["american", "checkers"],
            Variant::Spantsiretti => &["russian-80"],
            Variant::RussianGiveaway => &["poddavki"],
            _ => &[],
        }
    }

    /// Looks a variant up by key or alias (ASCII case-insensitive).
    pub fn from_key(key: &str) -> Option<Variant> {
        Variant::ALL.into_iter().find(|v| {
            v.key().eq_ignore_ascii_case(key)
                || v.aliases().iter().any(|a| a.eq_ignore_ascii_case(key))
        })
    }

    /// The name shown to people.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Russian => "Russian draughts",
            Variant::English => "English draughts (American checkers)",
            Variant::International => "International draughts",
            Variant::Brazilian => "Brazilian draughts",
            Variant::Canadian => "Canadian draughts",
            Variant::Pool => "American pool checkers",
            Variant::Italian => "Italian draughts",
            Variant::Spanish => "Spanish draughts",
            Variant::Portuguese => "Portuguese draughts",
            Variant::Czech => "Czech draughts",
            Variant::German => "German draughts",
            Variant::Circassian => "Circassian draughts",
            Variant::Spantsiretti => "80-square draughts (spantsiretti)",
            Variant::Frisian => "Frisian draughts",
            Variant::Antidraughts => "Antidraughts",
            Variant::RussianGiveaway => "Russian giveaway (poddavki)",
            Variant::DiagonalRussian => "Diagonal Russian draughts",
        }
    }

    /// The PDN `GameType` number. Numbers 20–41 are the PDN 3.0 standard's (41 is
    /// Spantsiretti); 98 is the one lidraughts uses for antidraughts; 91–95 are dama's own
    /// (German 91, Circassian 92, Russian giveaway 94, diagonal Russian 95).
    pub const fn game_type(self) -> u8 {
        match self {
            Variant::International => 20,
            Variant::English => 21,
            Variant::Italian => 22,
            Variant::Pool => 23,
            Variant::Spanish => 24,
            Variant::Russian => 25,
            Variant::Brazilian => 26,
            Variant::Canadian => 27,
            Variant::Portuguese => 28,
            Variant::Czech => 29,
            Variant::Frisian => 40,
            Variant::German => 91,
            Variant::Circassian => 92,
            Variant::Spantsiretti => 41,
            Variant::RussianGiveaway => 94,
            Variant::DiagonalRussian => 95,
            Variant::Antidraughts => 98,
        }
    }

    /// The variant with a PDN `GameType` number, if dama plays it.
    pub fn from_game_type(n: u32) -> Option<Variant> {
        Variant::ALL.into_iter().find(|v| v.game_type() as u32 == n)
    }

    /// The side that moves first.
    pub const fn first_player(self) -> Color {
        match self {
            Variant::English | Variant::Pool | Variant::Circassian => Color::Black,
            _ => Color::White,
        }
    }

    /// The board.
    pub const fn board(self) -> Board {
        let (width, height) = match self {
            Variant::International | Variant::German | Variant::Frisian | Variant::Antidraughts => {
                (10, 10)
            }
            Variant::Canadian => (12, 12),
            Variant::Spantsiretti => (10, 8),
            _ => (8, 8),
        };
        Board {
            width,
            height,
            mirrored: matches!(
                self,
                Variant::Italian | Variant::Spanish | Variant::Portuguese
            ),
        }
    }

    /// How squares are named (PDN 3.0 `GameType` notation field).
    pub const fn naming(self) -> Naming {
        match self {
            Variant::Russian
            | Variant::Brazilian
            | Variant::Czech
            | Variant::RussianGiveaway
            | Variant::DiagonalRussian
            | Variant::Spantsiretti => Naming::Algebraic,
            Variant::Spanish | Variant::Portuguese => Naming::Numeric(Corner::BottomRight),
            _ => Naming::Numeric(Corner::TopLeft),
        }
    }

    /// The corner numeric names start from (for algebraic variants, the numbering other
    /// programs use in FEN: top-left, as lidraughts does for Russian).
    pub const fn numbering_corner(self) -> Corner {
        match self.naming() {
            Naming::Numeric(corner) => corner,
            Naming::Algebraic => Corner::TopLeft,
        }
    }

    /// Whether the player without pieces or moves wins instead of losing.
    pub const fn is_giveaway(self) -> bool {
        matches!(self, Variant::Antidraughts | Variant::RussianGiveaway)
    }

    /// The bit of the playable square at internal (`col`, `row`); `None` if off the board or
    /// light. Internal coordinates have the bottom-left corner (from White's side) playable.
    pub fn square_at(self, col: u32, row: u32) -> Option<Square> {
        let b = self.board();
        (col < b.width && row < b.height && (col + row) % 2 == 0)
            .then(|| Square(((row * (b.width + 1) + col) / 2) as u8))
    }

    /// Internal (column, row) of a square, if it is a playable square of this board.
    pub fn coords(self, sq: Square) -> Option<(u32, u32)> {
        let b = self.board();
        let n = sq.index() * 2;
        // The bit is n/2 where n = row * (width + 1) + col and col + row is even.
        for n in [n, n + 1] {
            let (row, col) = (n / (b.width + 1), n % (b.width + 1));
            if col < b.width && row < b.height && (col + row) % 2 == 0 {
                return Some((col, row));
            }
        }
        None
    }

    /// All playable squares of the board.
    pub fn squares(self) -> impl Iterator<Item = Square> {
        let b = self.board();
        (0..b.height)
            .flat_map(move |row| (0..b.width).filter_map(move |col| self.square_at(col, row)))
    }

    /// The column as White sees it (mirrored boards swap left and right).
    fn display_col(self, col: u32) -> u32 {
        let b = self.board();
        if b.mirrored {
            b.width - 1 - col
        } else {
            col
        }
    }

    /// The square's number in numeric notation (1-based), whatever the variant's usual naming.
    pub fn square_number(self, sq: Square) -> Option<u32> {
        let (col, row) = self.coords(sq)?;
        let b = self.board();
        let per_row = b.width / 2;
        let display_col = self.display_col(col);
        Some(match self.numbering_corner() {
            Corner::TopLeft => (b.height - 1 - row) * per_row + display_col / 2 + 1,
            Corner::BottomRight => row * per_row + (b.width - 1 - display_col) / 2 + 1,
        })
    }

    /// The square with a 1-based number in numeric notation.
    pub fn square_from_number(self, n: u32) -> Option<Square> {
        let b = self.board();
        let per_row = b.width / 2;
        if n == 0 || n > per_row * b.height {
            return None;
        }
        let row_index = (n - 1) / per_row;
        let index = (n - 1) % per_row;
        let row = match self.numbering_corner() {
            Corner::TopLeft => b.height - 1 - row_index,
            Corner::BottomRight => row_index,
        };
        // The playable display columns of this row are those with the right parity.
        let parity = if b.mirrored {
            (row + b.width - 1) % 2
        } else {
            row % 2
        };
        let display_col = match self.numbering_corner() {
            Corner::TopLeft => 2 * index + parity,
            Corner::BottomRight => b.width - 1 - (2 * index + (b.width - 1 - parity) % 2),
        };
        self.square_at(self.display_col(display_col), row)
    }

    /// The square's algebraic name (`a1` is White's bottom-left corner as White sees it).
    pub fn algebraic_name(self, sq: Square) -> Option<String> {
        let (col, row) = self.coords(sq)?;
        let file = (b'a' + self.display_col(col) as u8) as char;
        Some(format!("{file}{}", row + 1))
    }

    /// The square with an algebraic name.
    pub fn square_from_algebraic(self, name: &str) -> Option<Square> {
        let bytes = name.as_bytes();
        let file = *bytes.first()?;
        if !file.is_ascii_lowercase() {
            return None;
        }
        let rank: u32 = name.get(1..)?.parse().ok()?;
        if rank == 0 || name.len() > 3 || name[1..].starts_with('0') {
            return None;
        }
        let display_col = (file - b'a') as u32;
        if display_col >= self.board().width {
            return None;
        }
        self.square_at(self.display_col(display_col), rank - 1)
    }

    /// The square's name in the variant's notation.
    pub fn square_name(self, sq: Square) -> String {
        match self.naming() {
            Naming::Algebraic => self.algebraic_name(sq),
            Naming::Numeric(_) => self.square_number(sq).map(|n| n.to_string()),
        }
        .unwrap_or_else(|| format!("?{}", sq.0))
    }

    /// Parses a square name: a number, or an algebraic name (both are accepted for every
    /// variant, as FEN from different programs uses either).
    pub fn parse_square(self, name: &str) -> Option<Square> {
        if name.bytes().all(|b| b.is_ascii_digit()) && !name.is_empty() && name.len() <= 3 {
            self.square_from_number(name.parse().ok()?)
        } else {
            self.square_from_algebraic(name)
        }
    }

    /// The start position.
    pub fn start_setup(self) -> Setup {
        let b = self.board();
        let mut setup = Setup {
            side_to_move: self.first_player(),
            ..Setup::default()
        };
        if self == Variant::DiagonalRussian {
            // Each side fills the triangle on its side of the long diagonal a1-h8, which
            // starts empty.
            for sq in self.squares() {
                let (col, row) = self.coords(sq).expect("own square");
                if col > row {
                    setup.white.insert(sq);
                } else if row > col {
                    setup.black.insert(sq);
                }
            }
            return setup;
        }
        let rows = (b.height - 2) / 2;
        for sq in self.squares() {
            let (_, row) = self.coords(sq).expect("own square");
            if row < rows {
                setup.white.insert(sq);
            } else if row >= b.height - rows {
                setup.black.insert(sq);
            }
        }
        setup
    }

    /// Every square of the board as a set.
    pub fn all_squares(self) -> SquareSet {
        self.squares().collect()
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

/// An unknown variant key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownVariant(pub String);

impl fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown variant '{}' (known: ", self.0)?;
        for (i, v) in Variant::ALL.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(v.key())?;
        }
        f.write_str(")")
    }
}

impl std::error::Error for UnknownVariant {}

impl FromStr for Variant {
    type Err = UnknownVariant;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Variant::from_key(s.trim()).ok_or_else(|| UnknownVariant(s.to_owned()))
    }
}

/// Runs `$body` with the type alias `$R` bound to the rule set of `$variant`.
///
/// ```
/// use dama_core::{with_rules, Position, Variant};
/// let variant = Variant::International;
/// let n = with_rules!(variant, R => {
///     let pos = Position::<R>::from_setup(&variant.start_setup()).unwrap();
///     pos.legal_move_vec().len()
/// });
/// assert_eq!(n, 9);
/// ```
#[macro_export]
macro_rules! with_rules {
    ($variant:expr, $R:ident => $body:expr) => {{
        use $crate::rules as __rules;
        use $crate::Variant as __V;
        match $variant {
            __V::Russian | __V::DiagonalRussian => {
                type $R = __rules::Russian;
                $body
            }
            __V::RussianGiveaway => {
                type $R = __rules::RussianGiveaway;
                $body
            }
            __V::Spantsiretti => {
                type $R = __rules::Russian80;
                $body
            }
            __V::English | __V::Circassian => {
                type $R = __rules::English;
                $body
            }
            __V::International => {
                type $R = __rules::International;
                $body
            }
            __V::Antidraughts => {
                type $R = __rules::Antidraughts;
                $body
            }
            __V::Brazilian => {
                type $R = __rules::Brazilian;
                $body
            }
            __V::Canadian => {
                type $R = __rules::Canadian;
                $body
            }
            __V::Pool => {
                type $R = __rules::Pool;
                $body
            }
            __V::Italian => {
                type $R = __rules::Italian;
                $body
            }
            __V::Spanish | __V::Portuguese => {
                type $R = __rules::Spanish;
                $body
            }
            __V::Czech => {
                type $R = __rules::Czech;
                $body
            }
            __V::German => {
                type $R = __rules::German;
                $body
            }
            __V::Frisian => {
                type $R = __rules::Frisian;
                $body
            }
        }
    }};
}
