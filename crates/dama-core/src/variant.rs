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
    /// American pool checkers. Black moves first; a man that reaches the king row during a
    /// capture and can jump on continues as a man and is crowned only where the capture ends
    /// (the rule book's assumption, confirmed by the APCA "Rules of Play", rule 5, and the
    /// APCA tournament rules, rule 7 for the first move).
    Pool,
    /// Italian draughts.
    Italian,
    /// Spanish draughts.
    Spanish,
    /// Portuguese draughts.
    Portuguese,
    /// Czech draughts.
    Czech,
    /// German draughts, on the rule book's 10x10 board with 20 men. The two details the rule
    /// book marks as assumptions follow the published description (D. Parlett, *The Oxford
    /// History of Board Games*, 1999, p. 252): the capture is freely chosen, and a man that
    /// reaches the far row during a capture is crowned and the move ends. That description
    /// places the game on 8x8 with 12 men; dama keeps the rule book's board.
    German,
    /// Circassian draughts as the rule book describes it: English rules (men forwards only,
    /// kings one square, free choice, crowning ends the move) with Black first. No published
    /// description could be found to confirm or refine it.
    Circassian,
    /// 80-square draughts (N. Spantsireti, c. 1930): Russian rules on a board 10 wide and 8
    /// high, 15 men each on the first three rows; PDN `GameType` 41 (`41,W,10,8,A0,0`).
    Spantsiretti,
    /// Frisian draughts, after the official rules of 2011 (FMJD): see [`crate::rules::Frisian`].
    /// Two kings against one must win within 7 moves each, one king against one is drawn after
    /// 2 moves each (as lidraughts applies the official rule).
    Frisian,
    /// Antidraughts: International rules, the goal reversed.
    Antidraughts,
    /// Russian giveaway (poddavki): Russian rules, the goal reversed.
    RussianGiveaway,
    /// Diagonal Russian draughts (диагональные шашки): Russian rules; White's men fill the
    /// triangle below the long diagonal a1–h8 (c1, e1, g1, d2, f2, h2, e3, g3, f4, h4, g5,
    /// h6), Black's the triangle above it (a3, b4, a5, c5, b6, d6, a7, c7, e7, b8, d8, f8),
    /// and the long diagonal starts empty — the set-up published with the open-source
    /// `hcheckers` program (`Rules/Diagonal.hs`). No federation text was found.
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

    /// The (file, rank) indices of internal (`col`, `row`) as the first player sees the board:
    /// PDN 3.0 places `a1` at the bottom-left corner from the side of the player who starts, so
    /// in English, Pool and Circassian (Black starts) `a1` is the corner White sees as `h8`.
    fn algebraic_coords(self, col: u32, row: u32) -> (u32, u32) {
        let b = self.board();
        let file = self.display_col(col);
        match self.first_player() {
            Color::White => (file, row),
            Color::Black => (b.width - 1 - file, b.height - 1 - row),
        }
    }

    /// The square's algebraic name: `a1` is the bottom-left corner as the first player sees the
    /// board (White in most variants; Black in English, Pool and Circassian).
    pub fn algebraic_name(self, sq: Square) -> Option<String> {
        let (col, row) = self.coords(sq)?;
        let (file, rank) = self.algebraic_coords(col, row);
        let file = (b'a' + file as u8) as char;
        Some(format!("{file}{}", rank + 1))
    }

    /// The square with an algebraic name (see [`Variant::algebraic_name`]).
    pub fn square_from_algebraic(self, name: &str) -> Option<Square> {
        let bytes = name.as_bytes();
        let file = *bytes.first()?;
        if !file.is_ascii_lowercase() {
            return None;
        }
        let digits = name.get(1..)?;
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let rank: u32 = digits.parse().ok()?;
        if rank == 0 || name.len() > 3 || digits.starts_with('0') {
            return None;
        }
        let b = self.board();
        let (file, rank) = ((file - b'a') as u32, rank - 1);
        if file >= b.width || rank >= b.height {
            return None;
        }
        // The mapping from internal coordinates is its own inverse up to the mirror.
        let (display_file, row) = match self.first_player() {
            Color::White => (file, rank),
            Color::Black => (b.width - 1 - file, b.height - 1 - rank),
        };
        self.square_at(self.display_col(display_file), row)
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

#[cfg(test)]
mod tests {
    use super::*;

    fn number(v: Variant, name: &str) -> u32 {
        let sq = v
            .square_from_algebraic(name)
            .unwrap_or_else(|| panic!("{v}: {name}"));
        v.square_number(sq).unwrap()
    }

    /// Numbers and names as PDN 3.0's GameType attributes define them (square 1 or a1 seen
    /// from the first player's side; see the notation crate for the general formula).
    #[test]
    fn pdn_numbering() {
        use Variant::*;
        // 20,W,10,10,N2,0: 1 = b10 (top-left), 46 = a1.
        assert_eq!(number(International, "b10"), 1);
        assert_eq!(number(International, "a1"), 46);
        assert_eq!(number(International, "i1"), 50);
        // 21,B,8,8,N1,0: from Black's side; 1 = White's b8, 29 = White's a1. Algebraic names
        // are from Black's side too, so Black's own c3 is White's f6 = 11.
        assert_eq!(number(English, "c3"), 11);
        assert_eq!(number(English, "h8"), 29);
        assert_eq!(
            English
                .algebraic_name(English.square_from_number(1).unwrap())
                .unwrap(),
            "g1"
        );
        // 22,W,8,8,N2,1: a1 is light; 1 = a8, 32 = h1.
        assert_eq!(number(Italian, "a8"), 1);
        assert_eq!(number(Italian, "h1"), 32);
        assert!(Italian.square_from_algebraic("a1").is_none());
        // 24,W,8,8,N1,1: 1 = h1 (bottom-right), 2 = f1, 5 = g2, 32 = a8.
        for v in [Spanish, Portuguese] {
            assert_eq!(number(v, "h1"), 1);
            assert_eq!(number(v, "f1"), 2);
            assert_eq!(number(v, "b1"), 4);
            assert_eq!(number(v, "g2"), 5);
            assert_eq!(number(v, "a8"), 32);
            let white: Vec<u32> = v
                .start_setup()
                .white
                .iter()
                .map(|sq| v.square_number(sq).unwrap())
                .collect();
            let mut sorted = white.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, (1..=12).collect::<Vec<_>>());
        }
        // Russian numeric equivalent as lidraughts writes it: 1 = b8, 29 = a1, 32 = g1.
        assert_eq!(number(Russian, "b8"), 1);
        assert_eq!(number(Russian, "a1"), 29);
        assert_eq!(number(Russian, "g1"), 32);
        // 27,W,12,12,N2,0 and 41,W,10,8,A0,0.
        assert_eq!(number(Canadian, "b12"), 1);
        assert_eq!(number(Canadian, "k1"), 72);
        assert_eq!(Spantsiretti.game_type(), 41);
        assert_eq!(Variant::from_game_type(41), Some(Spantsiretti));
        assert!(Spantsiretti.square_from_algebraic("j8").is_some());
    }

    #[test]
    fn names_round_trip() {
        for v in Variant::ALL {
            let mut count = 0;
            for sq in v.squares() {
                let n = v.square_number(sq).unwrap();
                assert_eq!(v.square_from_number(n), Some(sq), "{v} {n}");
                let name = v.algebraic_name(sq).unwrap();
                assert_eq!(v.square_from_algebraic(&name), Some(sq), "{v} {name}");
                assert_eq!(v.parse_square(&v.square_name(sq)), Some(sq));
                count += 1;
            }
            let b = v.board();
            assert_eq!(count, b.width * b.height / 2);
            assert!(v.square_from_number(0).is_none());
            assert!(v.square_from_number(count + 1).is_none());
        }
        assert!(Variant::Russian.square_from_algebraic("a+1").is_none());
        assert!(Variant::Russian.square_from_algebraic("a01").is_none());
        assert!(Variant::Russian.square_from_algebraic("i1").is_none());
    }
}
