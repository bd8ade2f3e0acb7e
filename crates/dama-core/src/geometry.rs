//! Board geometries of the diagonal family and their padded bit layout.
//!
//! Only dark squares are stored. With `W` columns, the dark square at column `col` and row `row`
//! (row 0 is White's side, `(col + row)` even, so the bottom-left corner is dark) gets the bit
//! `(row * (W + 1) + col) / 2`. Every pair of rows thus takes `W + 1` bits: `W` dark squares and
//! one *ghost* bit that no square uses. The ghost bits make every diagonal step a constant shift —
//! `+W/2 + 1` up-right, `+W/2` up-left and the negations down — because a step off the left or
//! right edge lands on a ghost (or outside the board), which the [`Geometry::VALID`] mask removes.
//! The same idea is used by the strongest engines of the game; here it covers 8x8, 10x8 (10 wide,
//! 8 high), 10x10 and 12x12.
//!
//! Orthogonal steps (used by Frisian captures) move two columns or two rows, i.e. `±1` or
//! `±(W + 1)` bits; they are taken from tables, which know the board's edges.

use crate::bitboard::Bitboard;
use core::fmt::Debug;

/// Direction indices. The first four are diagonal, the last four orthogonal.
pub mod dir {
    /// Up and to the right (towards Black, towards the h-file).
    pub const NE: usize = 0;
    /// Up and to the left.
    pub const NW: usize = 1;
    /// Down and to the right.
    pub const SE: usize = 2;
    /// Down and to the left.
    pub const SW: usize = 3;
    /// Two rows up (same file).
    pub const N: usize = 4;
    /// Two rows down.
    pub const S: usize = 5;
    /// Two columns right (same rank).
    pub const E: usize = 6;
    /// Two columns left.
    pub const W: usize = 7;
    /// The four diagonal directions.
    pub const DIAGONAL: [usize; 4] = [NE, NW, SE, SW];
    /// All eight directions (Frisian).
    pub const ALL: [usize; 8] = [NE, NW, SE, SW, N, S, E, W];

    /// Whether the direction increases the bit index.
    #[inline(always)]
    pub const fn is_positive(d: usize) -> bool {
        matches!(d, NE | NW | N | E)
    }
}

/// Marks "no square" in the step tables.
pub const NO_SQUARE: u8 = u8::MAX;
/// Size of every per-square table: enough for the largest padded layout (12x12 uses 78 bits).
pub const TABLE_LEN: usize = 128;

/// Precomputed per-square data of one geometry.
#[derive(Debug)]
pub struct Tables<B> {
    /// `rays[d][sq]`: the squares strictly beyond `sq` in direction `d`, up to the edge.
    pub rays: [[B; TABLE_LEN]; 8],
    /// `next[d][sq]`: the neighbouring square in direction `d`, or [`NO_SQUARE`].
    pub next: [[u8; TABLE_LEN]; 8],
    /// Column of each bit (0 = left from White's side), or [`NO_SQUARE`] for ghosts.
    pub col: [u8; TABLE_LEN],
    /// Row of each bit (0 = White's first row), or [`NO_SQUARE`] for ghosts.
    pub row: [u8; TABLE_LEN],
}

/// A board shape of the diagonal family.
pub trait Geometry: 'static + Copy + Default + Debug + Send + Sync {
    /// The integer holding one bit per padded square.
    type Bb: Bitboard;
    /// Number of columns.
    const WIDTH: u32;
    /// Number of rows.
    const HEIGHT: u32;
    /// Number of playable (dark) squares.
    const SQUARES: u32 = Self::WIDTH * Self::HEIGHT / 2;
    /// Shift of one step up-left; up-right is one more.
    const HALF: u32 = Self::WIDTH / 2;
    /// All playable squares.
    const VALID: Self::Bb;
    /// White's crowning row (the top row).
    const TOP_ROW: Self::Bb;
    /// Black's crowning row (row 0).
    const BOTTOM_ROW: Self::Bb;
    /// The long diagonal from White's bottom-left corner (the squares with column = row),
    /// which several draw rules refer to.
    const LONG_DIAGONAL: Self::Bb;

    /// The per-square tables.
    fn tables() -> &'static Tables<Self::Bb>;

    /// The squares strictly beyond `sq` in direction `d`.
    #[inline(always)]
    fn ray(d: usize, sq: u32) -> Self::Bb {
        Self::tables().rays[d][sq as usize & (TABLE_LEN - 1)]
    }

    /// The neighbour of `sq` in direction `d`.
    #[inline(always)]
    fn next(d: usize, sq: u32) -> Option<u32> {
        let n = Self::tables().next[d][sq as usize & (TABLE_LEN - 1)];
        if n == NO_SQUARE {
            None
        } else {
            Some(n as u32)
        }
    }

    /// Whole-board diagonal step in direction `d` (0..4), masked to the playable squares.
    #[inline(always)]
    fn shift(b: Self::Bb, d: usize) -> Self::Bb {
        let moved = match d {
            dir::NE => b << (Self::HALF + 1),
            dir::NW => b << Self::HALF,
            dir::SE => b >> Self::HALF,
            _ => b >> (Self::HALF + 1),
        };
        moved & Self::VALID
    }

    /// The bit of the dark square at (`col`, `row`), if it is on the board and dark.
    fn square_at(col: u32, row: u32) -> Option<u32> {
        (col < Self::WIDTH && row < Self::HEIGHT && (col + row) % 2 == 0)
            .then_some((row * (Self::WIDTH + 1) + col) / 2)
    }

    /// The (column, row) of a playable square bit.
    fn coords(sq: u32) -> Option<(u32, u32)> {
        let t = Self::tables();
        let i = sq as usize;
        (i < TABLE_LEN && t.col[i] != NO_SQUARE).then(|| (t.col[i] as u32, t.row[i] as u32))
    }

    /// Whether a square bit is playable on this board.
    #[inline]
    fn is_valid(sq: u32) -> bool {
        sq < <Self::Bb as Bitboard>::BITS && Self::VALID.has(sq)
    }
}

const DELTAS: [(i32, i32); 8] = [
    (1, 1),
    (-1, 1),
    (1, -1),
    (-1, -1),
    (0, 2),
    (0, -2),
    (2, 0),
    (-2, 0),
];

macro_rules! tables_fn {
    ($name:ident, $t:ty) => {
        const fn $name(w: u32, h: u32) -> Tables<$t> {
            let mut t = Tables {
                rays: [[0; TABLE_LEN]; 8],
                next: [[NO_SQUARE; TABLE_LEN]; 8],
                col: [NO_SQUARE; TABLE_LEN],
                row: [NO_SQUARE; TABLE_LEN],
            };
            let mut row = 0;
            while row < h {
                let mut col = row % 2;
                while col < w {
                    let sq = ((row * (w + 1) + col) / 2) as usize;
                    t.col[sq] = col as u8;
                    t.row[sq] = row as u8;
                    let mut d = 0;
                    while d < 8 {
                        let (dc, dr) = DELTAS[d];
                        let mut c = col as i32 + dc;
                        let mut r = row as i32 + dr;
                        let mut first = true;
                        while c >= 0 && r >= 0 && c < w as i32 && r < h as i32 {
                            let s = ((r as u32 * (w + 1) + c as u32) / 2) as usize;
                            if first {
                                t.next[d][sq] = s as u8;
                                first = false;
                            }
                            t.rays[d][sq] |= 1 << s;
                            c += dc;
                            r += dr;
                        }
                        d += 1;
                    }
                    col += 2;
                }
                row += 1;
            }
            t
        }
    };
}

tables_fn!(tables_u64, u64);
tables_fn!(tables_u128, u128);

macro_rules! row_mask {
    ($t:ty, $w:expr, $row:expr) => {{
        let mut m: $t = 0;
        let mut col = $row % 2;
        while col < $w {
            m |= 1 << (($row * ($w + 1) + col) / 2);
            col += 2;
        }
        m
    }};
}

macro_rules! valid_mask {
    ($t:ty, $w:expr, $h:expr) => {{
        let mut m: $t = 0;
        let mut row = 0;
        while row < $h {
            m |= row_mask!($t, $w, row);
            row += 1;
        }
        m
    }};
}

macro_rules! geometry {
    ($(#[$doc:meta])* $name:ident, $t:ty, $build:ident, $w:expr, $h:expr, $static:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $name;

        static $static: Tables<$t> = $build($w, $h);

        impl Geometry for $name {
            type Bb = $t;
            const WIDTH: u32 = $w;
            const HEIGHT: u32 = $h;
            const VALID: $t = valid_mask!($t, $w, $h);
            const TOP_ROW: $t = row_mask!($t, $w, $h - 1);
            const BOTTOM_ROW: $t = row_mask!($t, $w, 0);
            const LONG_DIAGONAL: $t = {
                let mut m: $t = 0;
                let mut i = 0;
                let len = if $w < $h { $w } else { $h };
                while i < len {
                    m |= 1 << ((i * ($w + 1) + i) / 2);
                    i += 1;
                }
                m
            };
            #[inline(always)]
            fn tables() -> &'static Tables<$t> {
                &$static
            }
        }
    };
}

geometry!(
    /// The 8x8 board (32 squares, 36 bits).
    Board8x8, u64, tables_u64, 8, 8, TABLES_8X8
);
geometry!(
    /// The 10x8 board, 10 columns and 8 rows (40 squares, 44 bits).
    Board10x8, u64, tables_u64, 10, 8, TABLES_10X8
);
geometry!(
    /// The 10x10 board (50 squares, 55 bits).
    Board10x10, u64, tables_u64, 10, 10, TABLES_10X10
);
geometry!(
    /// The 12x12 board (72 squares, 78 bits).
    Board12x12, u128, tables_u128, 12, 12, TABLES_12X12
);

#[cfg(test)]
mod tests {
    use super::*;

    fn check<G: Geometry>() {
        assert_eq!(G::VALID.count(), G::SQUARES);
        // Every diagonal shift agrees with the tables for every square.
        for sq in G::VALID.iter() {
            for d in dir::DIAGONAL {
                let shifted = G::shift(<G::Bb as Bitboard>::single(sq), d);
                match G::next(d, sq) {
                    Some(n) => assert_eq!(shifted, <G::Bb as Bitboard>::single(n)),
                    None => assert!(shifted.is_empty(), "{sq} {d}"),
                }
            }
            let (c, r) = G::coords(sq).unwrap();
            assert_eq!(G::square_at(c, r), Some(sq));
        }
        // Ghost bits are not squares.
        for bit in 0..<G::Bb as Bitboard>::BITS {
            assert_eq!(G::coords(bit).is_some(), G::VALID.has(bit));
        }
        assert_eq!(G::TOP_ROW.count(), G::WIDTH / 2);
    }

    #[test]
    fn layouts_are_consistent() {
        check::<Board8x8>();
        check::<Board10x8>();
        check::<Board10x10>();
        check::<Board12x12>();
    }

    #[test]
    fn orthogonal_steps_stay_on_the_row() {
        // On 8x8 the last square of row 1 (h2) has no eastern neighbour: a plain +1 would wrap.
        let h2 = Board8x8::square_at(7, 1).unwrap();
        assert_eq!(Board8x8::next(dir::E, h2), None);
        let f2 = Board8x8::square_at(5, 1).unwrap();
        assert_eq!(Board8x8::next(dir::E, f2), Some(h2));
        let a1 = Board10x10::square_at(0, 0).unwrap();
        assert_eq!(Board10x10::next(dir::N, a1), Board10x10::square_at(0, 2));
        assert_eq!(Board10x10::ray(dir::E, a1).count(), 4);
    }
}
