//! Pattern evaluation: weights for every configuration of men in small regions of the board,
//! fitted to self-play games ([`crate::train`]).
//!
//! The board is covered by overlapping windows of four columns by four rows (eight playable
//! squares each), placed every two columns and every two rows: 16 windows on 10x10, 9 on 8x8
//! ([`Windows::Sparse`]), or at every column and row: 49 on 10x10, 25 on 8x8
//! ([`Windows::Dense`]). [`Windows::Strips`] adds to the dense windows strips two columns wide
//! and eight rows high, which also hold eight playable squares (one a row).
//! Each square of a window is empty, holds a man of the side whose view is taken, or a man of
//! the other side (kings count as empty: they are scored by the other terms), so a window has
//! 3^8 = 6561 configurations. Turning the board half a turn maps the windows onto each other;
//! a window and its image share one weight table, the lower one seen by White and its image
//! seen by Black, so the evaluation is exactly symmetric between the colours.
//!
//! A [`Model`] holds those tables and weights for the linear features of [`crate::eval`], each
//! twice: for the opening (all men on the board) and for the ending (none), mixed by the number
//! of men left.

use crate::eval::{self, feature, Sink, Tables};
use dama_core::bitboard::Bitboard;
use dama_core::geometry::Geometry;
use dama_core::position::Bb;
use dama_core::rules::Rules;
use dama_core::{Color, Position, Variant};
use std::sync::{Arc, OnceLock};

/// Configurations of one window.
pub const TABLE_SIZE: usize = 6561;
/// The length of each narrow table of a [`Prepared`] model: [`TABLE_SIZE`] padded to a power
/// of two, so that a configuration is masked into the table instead of checked against its
/// length (a compare and a branch less per read; the padding is never read, so the tables take
/// no more of the caches).
const PADDED_SIZE: usize = TABLE_SIZE.next_power_of_two();

/// The weights of configuration `i` in a table of `N` entries: [`TABLE_SIZE`] as fitted, or
/// [`PADDED_SIZE`], where the index is masked (every configuration is below [`TABLE_SIZE`], so
/// the mask never changes it).
#[inline(always)]
fn weights_of<W: Copy, const N: usize>(t: &[[W; 2]; N], i: usize) -> [W; 2] {
    if N.is_power_of_two() {
        t[i & (N - 1)]
    } else {
        t[i]
    }
}
/// Weights are stored in 1/`QUANTUM` of a centi-man.
pub const QUANTUM: i32 = 16;

/// `DIGITS[x]`: the base-3 number whose digit `i` is bit `i` of `x`.
static DIGITS: [u16; 256] = digits(false);
/// `DIGITS_REVERSED[x]`: the same with the digits in the opposite order (digit `7 - i` is bit
/// `i`), for the windows seen by Black, whose squares come in the opposite order.
static DIGITS_REVERSED: [u16; 256] = digits(true);

const fn digits(reversed: bool) -> [u16; 256] {
    let mut t = [0u16; 256];
    let mut x = 0;
    while x < 256 {
        let mut v = 0u16;
        let mut i = 0;
        while i < 8 {
            if x >> i & 1 != 0 {
                let place = if reversed { 7 - i } else { i };
                let mut p = 1u16;
                let mut k = 0;
                while k < place {
                    p *= 3;
                    k += 1;
                }
                v += p;
            }
            i += 1;
        }
        t[x] = v;
        x += 1;
    }
    t
}

/// How densely the windows cover the board. A model's number of tables tells which it was
/// fitted with ([`Layout::for_tables`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Windows {
    /// A window every two columns and every two rows: 8 tables on 10x10, 5 on 8x8.
    Sparse,
    /// A window at every column and row: 25 tables on 10x10, 13 on 8x8. About three times the
    /// weights and the window work of [`Windows::Sparse`].
    Dense,
    /// [`Windows::Dense`] and strips two columns wide and eight rows high (one playable
    /// square a row, so eight squares too) at every column and every second row: how a file
    /// of the board is held from one side's men to the other's. 34 tables on 10x10, 17 on
    /// 8x8.
    Strips,
    /// [`Windows::Strips`] and bands eight columns wide and two rows high (four playable
    /// squares a row) at every second column and every second row: how a stretch of two rows
    /// is held across the board. 39 tables on 10x10, 19 on 8x8. Its first tables are those of
    /// [`Windows::Strips`], in the same order.
    Bands,
}

impl Windows {
    /// Every layout.
    pub const ALL: [Windows; 4] = [
        Windows::Sparse,
        Windows::Dense,
        Windows::Strips,
        Windows::Bands,
    ];

    /// The layout's name on the command line: `sparse`, `dense`, `strips` or `bands`.
    pub fn key(self) -> &'static str {
        match self {
            Windows::Sparse => "sparse",
            Windows::Dense => "dense",
            Windows::Strips => "strips",
            Windows::Bands => "bands",
        }
    }

    /// The layout named `key` ([`Windows::key`]).
    pub fn from_key(key: &str) -> Option<Windows> {
        Windows::ALL.into_iter().find(|w| w.key() == key)
    }

    /// The shapes of this layout's windows: `(width, height, column step, row step)`.
    fn shapes(self) -> &'static [(u32, u32, u32, u32)] {
        match self {
            Windows::Sparse => &[(4, 4, 2, 2)],
            Windows::Dense => &[(4, 4, 1, 1)],
            Windows::Strips => &[(4, 4, 1, 1), (2, 8, 1, 2)],
            Windows::Bands => &[(4, 4, 1, 1), (2, 8, 1, 2), (8, 2, 2, 2)],
        }
    }
}

/// The windows of one board: per weight table, the window White sees and the window Black sees.
#[derive(Clone, Debug)]
pub struct Layout<B> {
    /// `(white, black)` window masks, one pair per table. A window that is its own half-turn
    /// image (the centre one of [`Windows::Dense`]) is paired with itself.
    pub pairs: Vec<(B, B)>,
}

impl<B: Bitboard> Layout<B> {
    /// The sparse windows of the board of `R` ([`Windows::Sparse`]).
    pub fn new<R: Rules>() -> Layout<Bb<R>> {
        Layout::<Bb<R>>::with::<R>(Windows::Sparse)
    }

    /// The layout of `R`'s board with `tables` tables, if one density gives that many.
    pub fn for_tables<R: Rules>(tables: usize) -> Option<Layout<Bb<R>>> {
        Windows::ALL
            .into_iter()
            .map(Layout::<Bb<R>>::with::<R>)
            .find(|l| l.tables() == tables)
    }

    /// The windows of the board of `R` at density `windows`.
    pub fn with<R: Rules>(windows: Windows) -> Layout<Bb<R>> {
        type G<R> = <R as Rules>::G;
        let (w, h) = (G::<R>::WIDTH, G::<R>::HEIGHT);
        let window = |c: u32, r: u32, width: u32, height: u32| {
            let mut m = Bb::<R>::EMPTY;
            for row in r..r + height {
                for col in c..c + width {
                    if let Some(sq) = G::<R>::square_at(col, row) {
                        m |= Bb::<R>::single(sq);
                    }
                }
            }
            m
        };
        let mut pairs = Vec::new();
        for &(width, height, col_step, row_step) in windows.shapes() {
            if w < width || h < height {
                continue;
            }
            // Windows whose half-turn image is not below them (row, then column order).
            for r in (0..=h - height).step_by(row_step as usize) {
                for c in (0..=w - width).step_by(col_step as usize) {
                    let (ic, ir) = (w - width - c, h - height - r);
                    if (ir, ic) < (r, c) {
                        continue;
                    }
                    pairs.push((window(c, r, width, height), window(ic, ir, width, height)));
                }
            }
        }
        Layout { pairs }
    }

    /// Number of weight tables.
    pub fn tables(&self) -> usize {
        self.pairs.len()
    }
}

/// Gathers the bits of `x` selected by `mask` into the low bits (in increasing order).
#[inline(always)]
fn extract<B: Bitboard>(x: B, mask: B) -> usize {
    if B::BITS <= 64 {
        pext64(x.to_u128() as u64, mask.to_u128() as u64) as usize
    } else {
        let (x, m) = (x.to_u128(), mask.to_u128());
        let lo = pext64(x as u64, m as u64);
        let hi = pext64((x >> 64) as u64, (m >> 64) as u64);
        (lo | hi << (m as u64).count_ones()) as usize
    }
}

#[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
#[inline(always)]
fn pext64(x: u64, mask: u64) -> u64 {
    // SAFETY: the build enables BMI2 (the `cfg` above), so the instruction exists.
    unsafe { core::arch::x86_64::_pext_u64(x, mask) }
}

#[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
#[inline(always)]
fn pext64(x: u64, mut mask: u64) -> u64 {
    let mut out = 0;
    let mut bit = 1;
    while mask != 0 {
        let low = mask & mask.wrapping_neg();
        if x & low != 0 {
            out |= bit;
        }
        bit <<= 1;
        mask &= mask - 1;
    }
    out
}

/// Receives the window configurations of a position.
pub trait PatternSink {
    /// Table `table` sees configuration `white` from White's side and `black` from Black's.
    fn window(&mut self, table: usize, white: usize, black: usize);
}

/// The configurations of one table's pair of windows, `(white, black)`, given the men of
/// White (`wm`) and Black (`bm`): the base-3 number of White's window as White sees it and of
/// Black's window as Black sees it.
#[inline(always)]
fn configurations<B: Bitboard>(wm: B, bm: B, (a, b): (B, B)) -> (usize, usize) {
    // A window has eight squares, so every extract is below 256 (the masks keep the
    // compiler from checking it again).
    let digit = |x: B, m: B| DIGITS[extract(x, m) & 255] as usize;
    let reversed = |x: B, m: B| DIGITS_REVERSED[extract(x, m) & 255] as usize;
    (
        digit(wm, a) + 2 * digit(bm, a),
        reversed(bm, b) + 2 * reversed(wm, b),
    )
}

/// Sends the configuration of every window of `pos` to `sink`.
#[inline(always)]
pub fn windows<R: Rules, S: PatternSink>(pos: &Position<R>, layout: &Layout<Bb<R>>, sink: &mut S) {
    let wm = pos.men(Color::White);
    let bm = pos.men(Color::Black);
    for (j, &pair) in layout.pairs.iter().enumerate() {
        let (white, black) = configurations(wm, bm, pair);
        sink.window(j, white, black);
    }
}

/// The window weights of `pos` summed, `(opening, ending)`: what [`windows`] would send to a
/// sink adding each table's weight for White's configuration and subtracting Black's. The
/// search's hot path: each table is taken as a fixed-size array (its length check folds away)
/// and the loop has no other work. `W` is the stored weight: `i16` as fitted, or `i8` when a
/// model's weights fit a byte ([`Prepared`]).
#[inline(always)]
fn window_sums<R: Rules, W: Copy + Into<i32>, const N: usize>(
    pos: &Position<R>,
    layout: &Layout<Bb<R>>,
    tables: &[[W; 2]],
) -> (i32, i32) {
    let wm = pos.men(Color::White);
    let bm = pos.men(Color::Black);
    let (mut mg, mut eg) = (0, 0);
    for (&pair, t) in layout.pairs.iter().zip(tables.chunks_exact(N)) {
        let t: &[[W; 2]; N] = t.try_into().expect("chunks of one table");
        let (white, black) = configurations(wm, bm, pair);
        let (w, b) = (weights_of(t, white), weights_of(t, black));
        mg += w[0].into() - b[0].into();
        eg += w[1].into() - b[1].into();
    }
    (mg, eg)
}

/// Configurations in a [`Lanes`]: two per table, so layouts of up to 40 tables (every layout of
/// the 8x8 and 10x10 boards) can be followed move by move ([`Incremental`]).
pub const LANES: usize = 80;

/// The fewest tables for which following the configurations move by move pays. Bringing a
/// ply's lanes up to date costs about the same whatever the layout, while gathering the
/// windows again costs in proportion to the tables: with the 34 International tables the
/// search runs 4.6% fewer instructions, with the 17 of the Russian model 3.9% more
/// (BENCHMARKS.md, "Window configurations followed move by move").
pub const INCREMENTAL_TABLES: usize = 20;

/// The configurations of a position's windows, two lanes per table: lane `2j` is the
/// configuration of table `j`'s window as White sees it, lane `2j + 1` of its image as Black
/// sees it (what [`windows`] sends for table `j`). Unused lanes are zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(align(32))]
pub struct Lanes([u16; LANES]);

impl Lanes {
    const ZERO: Lanes = Lanes([0; LANES]);

    /// Adds `d` lane by lane: a configuration is a sum of one term per square, so a man put
    /// on a square adds that square's terms.
    #[inline(always)]
    fn add(&mut self, d: &Lanes) {
        for (x, y) in self.0.iter_mut().zip(&d.0) {
            *x = x.wrapping_add(*y);
        }
    }

    /// Subtracts `d` lane by lane: a man taken off a square.
    #[inline(always)]
    fn sub(&mut self, d: &Lanes) {
        for (x, y) in self.0.iter_mut().zip(&d.0) {
            *x = x.wrapping_sub(*y);
        }
    }
}

/// What a man on each square adds to the configurations of a layout: a configuration is the
/// base-3 number of its window's squares (digit 1 for a man of the side whose view is taken,
/// 2 for the other side's, 0 for an empty square or a king), so a man adds one power of three,
/// or twice it, to each lane whose window holds the square. Built once per search; the
/// search keeps each ply's configurations ([`Incremental`]) and moves them by the squares a
/// move changes, instead of gathering every window again at each evaluation.
#[derive(Clone, Debug)]
struct Terms {
    /// Per square: the lanes added by a White man on it, then by a Black man.
    by_square: Box<[[Lanes; 2]]>,
}

impl Terms {
    /// The terms of `layout`, or `None` when it has more tables than [`Lanes`] hold.
    fn new<B: Bitboard>(layout: &Layout<B>) -> Option<Terms> {
        if 2 * layout.tables() > LANES {
            return None;
        }
        let mut by_square = vec![[Lanes::ZERO; 2]; B::BITS as usize].into_boxed_slice();
        // A lone man's configurations are its terms, read off the gathering itself so that
        // the two cannot disagree on the order of the digits.
        for (j, &pair) in layout.pairs.iter().enumerate() {
            for sq in (pair.0 | pair.1).iter() {
                let man = B::single(sq);
                let [white, black] = &mut by_square[sq as usize];
                for (lanes, (w, b)) in [
                    (white, configurations(man, B::EMPTY, pair)),
                    (black, configurations(B::EMPTY, man, pair)),
                ] {
                    lanes.0[2 * j] = w as u16;
                    lanes.0[2 * j + 1] = b as u16;
                }
            }
        }
        Some(Terms { by_square })
    }

    /// Moves `l` from the men `from` (White's, Black's) to the men `to`.
    #[inline(always)]
    fn update<B: Bitboard>(&self, l: &mut Lanes, from: (B, B), to: (B, B)) {
        for (side, (was, now)) in [(0, (from.0, to.0)), (1, (from.1, to.1))] {
            for sq in (was & !now).iter() {
                l.sub(&self.by_square[sq as usize][side]);
            }
            for sq in (now & !was).iter() {
                l.add(&self.by_square[sq as usize][side]);
            }
        }
    }
}

/// The window configurations of the positions along a search's current line, one per ply,
/// brought up to date only when an evaluation needs them: from the deepest ply whose
/// configurations are known, by the men that changed from each ply to the next ([`Terms`]).
/// Most nodes are never evaluated in full (cut-offs, the lazy evaluation), so theirs are
/// never made.
#[derive(Clone, Debug)]
pub struct Incremental<B> {
    terms: Terms,
    /// Per ply: the men (White's, Black's) of the position there.
    men: Vec<(B, B)>,
    /// Per ply: its configurations, for the plies before `known`.
    lanes: Vec<Lanes>,
    /// The plies `0..known` have their configurations: setting a ply changes the line from
    /// there on, so the known plies are always the first ones.
    known: usize,
}

impl<B: Bitboard> Incremental<B> {
    /// Configurations for `plies` plies of positions on the board of `layout`; `None` when
    /// the layout has more tables than [`Lanes`] hold, or too few for it to pay
    /// ([`INCREMENTAL_TABLES`]): the evaluation then gathers the windows of each position
    /// ([`evaluate_within`]).
    pub fn new(layout: &Layout<B>, plies: usize) -> Option<Incremental<B>> {
        if layout.tables() < INCREMENTAL_TABLES {
            return None;
        }
        Incremental::following(layout, plies)
    }

    /// [`Incremental::new`] for any layout whose tables [`Lanes`] hold, whether it pays or not.
    fn following(layout: &Layout<B>, plies: usize) -> Option<Incremental<B>> {
        Some(Incremental {
            terms: Terms::new(layout)?,
            men: vec![(B::EMPTY, B::EMPTY); plies],
            lanes: vec![Lanes::ZERO; plies],
            known: 0,
        })
    }

    /// The position at `ply` is now one with White's men `wm` and Black's `bm` (and the
    /// plies below it will be set before they are evaluated).
    #[inline(always)]
    pub fn set(&mut self, ply: usize, wm: B, bm: B) {
        self.men[ply] = (wm, bm);
        self.known = self.known.min(ply);
    }

    /// The configurations of the position at `ply`. Every ply from 0 to `ply` must have been
    /// [`set`](Self::set) for the current line.
    #[inline]
    pub fn at(&mut self, ply: usize) -> &Lanes {
        if ply >= self.known {
            self.catch_up(ply);
        }
        &self.lanes[ply]
    }

    /// Brings the configurations of the plies from `known` to `ply` up to date.
    fn catch_up(&mut self, ply: usize) {
        if self.known == 0 {
            let mut l = Lanes::ZERO;
            let (wm, bm) = self.men[0];
            self.terms.update(&mut l, (B::EMPTY, B::EMPTY), (wm, bm));
            self.lanes[0] = l;
            self.known = 1;
        }
        for p in self.known..=ply {
            let mut l = self.lanes[p - 1];
            self.terms.update(&mut l, self.men[p - 1], self.men[p]);
            self.lanes[p] = l;
        }
        self.known = ply + 1;
    }
}

/// The window weights summed, `(opening, ending)`, for the configurations `lanes` (the sums
/// of [`window_sums`] for the position they belong to).
#[inline(always)]
fn lane_sums<W: Copy + Into<i32>, const N: usize>(lanes: &Lanes, tables: &[[W; 2]]) -> (i32, i32) {
    let (mut mg, mut eg) = (0, 0);
    for (pair, t) in lanes.0.chunks_exact(2).zip(tables.chunks_exact(N)) {
        let t: &[[W; 2]; N] = t.try_into().expect("chunks of one table");
        let (w, b) = (
            weights_of(t, pair[0] as usize),
            weights_of(t, pair[1] as usize),
        );
        mg += w[0].into() - b[0].into();
        eg += w[1].into() - b[1].into();
    }
    (mg, eg)
}

/// The phase of `pos`: men on the board, out of [`phase_total`] (opening weights count in
/// proportion, ending weights for the rest).
#[inline(always)]
pub fn phase<R: Rules>(pos: &Position<R>) -> i32 {
    (pos.occupied() & !pos.kings()).count() as i32
}

/// Men at the start of a game of `R` (both sides).
#[inline(always)]
pub fn phase_total<R: Rules>() -> i32 {
    2 * Position::<R>::START_PIECES as i32
}

/// A fitted pattern evaluation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Model {
    /// Key of the variant it was fitted to.
    pub variant: String,
    /// Opening and ending weight of each linear feature, in 1/[`QUANTUM`] centi-men.
    pub base: [[i32; 2]; feature::COUNT],
    /// Opening and ending weight of each configuration of each table.
    pub tables: Vec<[i16; 2]>,
}

/// Why a model file was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ModelError {
    /// Not a model file.
    BadMagic,
    /// The file ends early or has bytes left over.
    BadLength,
    /// Made for another set of linear features.
    FeatureCount(usize),
    /// Made for a board with another number of windows.
    TableCount {
        /// In the file.
        found: usize,
        /// On the variant's board, per layout of [`Windows::ALL`].
        expected: [usize; Windows::ALL.len()],
    },
    /// Stored with another weight unit.
    Quantum(i32),
    /// The variant key is not text.
    BadVariant,
}

impl std::fmt::Display for ModelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ModelError::BadMagic => f.write_str("not a dama pattern model"),
            ModelError::BadLength => f.write_str("the model file is truncated or too long"),
            ModelError::FeatureCount(n) => write!(
                f,
                "the model has {n} linear features, this engine {}",
                feature::COUNT
            ),
            ModelError::TableCount { found, expected } => {
                let counts: Vec<String> = expected.iter().map(usize::to_string).collect();
                write!(
                    f,
                    "the model has {found} window tables, the board one of {}",
                    counts.join(", ")
                )
            }
            ModelError::Quantum(q) => write!(f, "unsupported weight unit 1/{q}"),
            ModelError::BadVariant => f.write_str("bad variant name in the model"),
        }
    }
}

impl std::error::Error for ModelError {}

const MAGIC: &[u8; 8] = b"DAMAPAT1";

/// The models fitted with `dama tune fit` and shipped with the engine (how each was made is
/// recorded in BENCHMARKS.md, "Tuning").
const BUILTIN: [(Variant, &[u8]); 5] = [
    (
        Variant::International,
        include_bytes!("../data/international.model"),
    ),
    (Variant::Russian, include_bytes!("../data/russian.model")),
    (Variant::English, include_bytes!("../data/english.model")),
    (
        Variant::Brazilian,
        include_bytes!("../data/brazilian.model"),
    ),
    (Variant::Pool, include_bytes!("../data/pool.model")),
];

impl Model {
    /// A model with every weight zero.
    pub fn zero(variant: Variant, tables: usize) -> Model {
        Model {
            variant: variant.key().to_string(),
            base: [[0; 2]; feature::COUNT],
            tables: vec![[0; 2]; tables * TABLE_SIZE],
        }
    }

    /// Number of window tables.
    pub fn table_count(&self) -> usize {
        self.tables.len() / TABLE_SIZE
    }

    /// The model as bytes (see [`Model::from_bytes`]).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(32 + self.tables.len() * 4);
        b.extend_from_slice(MAGIC);
        b.push(self.variant.len() as u8);
        b.extend_from_slice(self.variant.as_bytes());
        b.extend_from_slice(&(feature::COUNT as u16).to_le_bytes());
        b.extend_from_slice(&(self.table_count() as u16).to_le_bytes());
        b.extend_from_slice(&(QUANTUM as u16).to_le_bytes());
        for w in &self.base {
            b.extend_from_slice(&w[0].to_le_bytes());
            b.extend_from_slice(&w[1].to_le_bytes());
        }
        for w in &self.tables {
            b.extend_from_slice(&w[0].to_le_bytes());
            b.extend_from_slice(&w[1].to_le_bytes());
        }
        b
    }

    /// Reads a model: `DAMAPAT1`, the variant key (a length byte and the text), the number of
    /// linear features, of tables and the weight unit (three little-endian `u16`), the linear
    /// weights (opening, ending; `i32`) and the table weights (opening, ending; `i16`).
    ///
    /// # Errors
    /// A [`ModelError`] if the bytes are not such a model for this engine.
    pub fn from_bytes(b: &[u8]) -> Result<Model, ModelError> {
        let mut at = 0;
        let mut take = |n: usize| -> Result<&[u8], ModelError> {
            let s = b.get(at..at + n).ok_or(ModelError::BadLength)?;
            at += n;
            Ok(s)
        };
        if take(8)? != MAGIC {
            return Err(ModelError::BadMagic);
        }
        let len = take(1)?[0] as usize;
        let variant = std::str::from_utf8(take(len)?)
            .map_err(|_| ModelError::BadVariant)?
            .to_string();
        let mut u16_at = || -> Result<usize, ModelError> {
            let s = take(2)?;
            Ok(u16::from_le_bytes([s[0], s[1]]) as usize)
        };
        let features = u16_at()?;
        let tables = u16_at()?;
        let quantum = u16_at()? as i32;
        if features != feature::COUNT {
            return Err(ModelError::FeatureCount(features));
        }
        if quantum != QUANTUM {
            return Err(ModelError::Quantum(quantum));
        }
        let rest = &b[at..];
        if rest.len() != feature::COUNT * 8 + tables * TABLE_SIZE * 4 {
            return Err(ModelError::BadLength);
        }
        let mut base = [[0; 2]; feature::COUNT];
        for (i, w) in base.iter_mut().enumerate() {
            let s = &rest[i * 8..i * 8 + 8];
            *w = [
                i32::from_le_bytes([s[0], s[1], s[2], s[3]]),
                i32::from_le_bytes([s[4], s[5], s[6], s[7]]),
            ];
        }
        let t = &rest[feature::COUNT * 8..];
        let table = t
            .chunks_exact(4)
            .map(|s| {
                [
                    i16::from_le_bytes([s[0], s[1]]),
                    i16::from_le_bytes([s[2], s[3]]),
                ]
            })
            .collect();
        Ok(Model {
            variant,
            base,
            tables: table,
        })
    }

    /// Checks that the model fits the board of `R`.
    ///
    /// # Errors
    /// [`ModelError::TableCount`] if no density of windows gives the board that many tables.
    pub fn check<R: Rules>(&self) -> Result<(), ModelError> {
        self.layout::<R>().map(|_| ())
    }

    /// The windows of `R`'s board the model was fitted with.
    ///
    /// # Errors
    /// [`ModelError::TableCount`] as [`Model::check`].
    pub fn layout<R: Rules>(&self) -> Result<Layout<Bb<R>>, ModelError> {
        Layout::<Bb<R>>::for_tables::<R>(self.table_count()).ok_or_else(|| ModelError::TableCount {
            found: self.table_count(),
            expected: Windows::ALL.map(|w| Layout::<Bb<R>>::with::<R>(w).tables()),
        })
    }

    /// The most the window tables can move an evaluation, in centi-men: the spread (largest
    /// less smallest weight) of every table summed, in the phase where that sum is larger,
    /// and two more for the rounding of the mixed and the drawish-scaled score. The scale
    /// (at most 1) and the phase mix (an average of the two phases) cannot widen it, so with
    /// this reach [`evaluate_within`] never puts a score on the wrong side of a window.
    pub fn window_reach(&self) -> i32 {
        let spread = |phase: usize| -> i64 {
            self.tables
                .chunks_exact(TABLE_SIZE)
                .map(|t| {
                    let (lo, hi) = t.iter().fold((i16::MAX, i16::MIN), |(lo, hi), w| {
                        (lo.min(w[phase]), hi.max(w[phase]))
                    });
                    hi as i64 - lo as i64
                })
                .sum()
        };
        let widest = spread(0).max(spread(1));
        ((widest + QUANTUM as i64 - 1) / QUANTUM as i64 + 2).min(i32::MAX as i64) as i32
    }

    /// The built-in model of a variant, if one was fitted for it.
    pub fn builtin(variant: Variant) -> Option<Arc<Model>> {
        let i = BUILTIN.iter().position(|(v, _)| *v == variant)?;
        static CELLS: [OnceLock<Option<Arc<Model>>>; BUILTIN.len()] =
            [const { OnceLock::new() }; BUILTIN.len()];
        CELLS[i]
            .get_or_init(|| Model::from_bytes(BUILTIN[i].1).ok().map(Arc::new))
            .clone()
    }
}

/// A model's linear weights packed for the search: the opening weight in the high half of an
/// `i64`, the ending weight added to it, so that a feature costs one multiplication and one
/// addition. The two sums stay exact: each fits an `i32` (as they did unpacked), so the low
/// half of the packed sum is the ending sum and the rest the opening sum.
#[derive(Clone, Debug)]
pub struct PackedBase([i64; feature::COUNT]);

impl PackedBase {
    /// The linear weights of `model`, packed.
    pub fn new(model: &Model) -> PackedBase {
        PackedBase(model.base.map(|[mg, eg]| ((mg as i64) << 32) + eg as i64))
    }
}

/// Adds weighted features into a packed pair of opening and ending sums.
struct Phased<'a> {
    base: &'a PackedBase,
    sum: i64,
}

impl Phased<'_> {
    /// The opening and ending sums.
    #[inline(always)]
    fn sums(&self) -> (i32, i32) {
        let eg = self.sum as i32;
        (((self.sum - eg as i64) >> 32) as i32, eg)
    }
}

impl Sink for Phased<'_> {
    #[inline(always)]
    fn add(&mut self, index: usize, value: i32) {
        self.sum += self.base.0[index] * value as i64;
    }
}

/// A model made ready for the search, once per model (the engine keeps the last one): its
/// window reach ([`Model::window_reach`]), its linear weights packed ([`PackedBase`]) and,
/// when every window weight fits a byte (as in every built-in model: their weights lie within
/// ±122 sixteenths of a centi-man), its tables narrowed to `i8`. The narrow tables hold the
/// same numbers in half the bytes (446 KB instead of 892 KB for the 34 International tables),
/// so fewer of the evaluation's table reads miss the caches; the scores are the same. Each
/// narrow table is padded to [`PADDED_SIZE`] entries (never read: the caches hold only what
/// is read).
#[derive(Debug)]
pub struct Prepared {
    /// The model.
    pub model: Arc<Model>,
    /// Its [`Model::window_reach`].
    pub reach: i32,
    base: PackedBase,
    narrow: Option<Box<[[i8; 2]]>>,
}

impl Prepared {
    /// `model` made ready for the search (about a quarter of a millisecond for the largest
    /// built-in model, the International one).
    pub fn new(model: Arc<Model>) -> Prepared {
        let fits = model
            .tables
            .iter()
            .flatten()
            .all(|&w| i8::try_from(w).is_ok());
        // Every weight fits, so the casts are exact; each table is padded with zeros.
        let narrow = fits.then(|| {
            model
                .tables
                .chunks_exact(TABLE_SIZE)
                .flat_map(|t| {
                    let padding = std::iter::repeat_n([0; 2], PADDED_SIZE - TABLE_SIZE);
                    t.iter().map(|w| w.map(|x| x as i8)).chain(padding)
                })
                .collect()
        });
        Prepared {
            reach: model.window_reach(),
            base: PackedBase::new(&model),
            narrow,
            model,
        }
    }

    /// Whether the window weights are read as bytes.
    pub fn is_narrow(&self) -> bool {
        self.narrow.is_some()
    }
}

/// The evaluation of `pos` by a pattern model, for the side to move, in centi-men. It packs
/// the model's linear weights on every call; a search prepares the model once ([`Prepared`])
/// and calls [`evaluate_within`].
#[inline]
pub fn evaluate<R: Rules>(
    pos: &Position<R>,
    t: &Tables<Bb<R>>,
    layout: &Layout<Bb<R>>,
    model: &Model,
) -> i32 {
    evaluate_with(pos, t, &PackedBase::new(model), None, || {
        window_sums::<R, _, TABLE_SIZE>(pos, layout, &model.tables)
    })
}

/// [`evaluate`] by a prepared model, for a search window `(alpha, beta)`, lazily: when the
/// linear features alone settle on which side of the search window the score falls, the
/// score without the window tables. `within` is `(alpha, beta, reach)`, `reach` the most the
/// tables can move the score ([`Prepared::reach`], or more): if the score without them is at
/// least `beta + reach` (at most `alpha - reach`), the exact score is at least `beta` (at most
/// `alpha`) too, and that score is returned (on the same side of the search window, within
/// `reach` of the exact one). Otherwise, and with `within` `None`, the exact evaluation.
///
/// Returning the bound itself (the score less or plus `reach`) is just as sound, but the
/// looser values it hands up the tree cost nodes and games (BENCHMARKS.md, "Lazy
/// evaluation").
#[inline]
pub fn evaluate_within<R: Rules>(
    pos: &Position<R>,
    t: &Tables<Bb<R>>,
    layout: &Layout<Bb<R>>,
    prepared: &Prepared,
    within: Option<(i32, i32, i32)>,
) -> i32 {
    evaluate_with(pos, t, &prepared.base, within, || match &prepared.narrow {
        Some(narrow) => window_sums::<R, _, PADDED_SIZE>(pos, layout, narrow),
        None => window_sums::<R, _, TABLE_SIZE>(pos, layout, &prepared.model.tables),
    })
}

/// [`evaluate_within`] for the position at `ply` of a search line whose configurations
/// `incremental` follows (the same score, with the windows' configurations brought up to date
/// from the ply above instead of gathered again).
#[inline]
pub fn evaluate_at<R: Rules>(
    pos: &Position<R>,
    t: &Tables<Bb<R>>,
    prepared: &Prepared,
    within: Option<(i32, i32, i32)>,
    incremental: &mut Incremental<Bb<R>>,
    ply: usize,
) -> i32 {
    evaluate_with(pos, t, &prepared.base, within, || {
        let lanes = incremental.at(ply);
        match &prepared.narrow {
            Some(narrow) => lane_sums::<_, PADDED_SIZE>(lanes, narrow),
            None => lane_sums::<_, TABLE_SIZE>(lanes, &prepared.model.tables),
        }
    })
}

/// [`evaluate_within`] with the packed linear weights given, and the window sums from
/// `windows` (called only when they are needed).
#[inline(always)]
fn evaluate_with<R: Rules>(
    pos: &Position<R>,
    t: &Tables<Bb<R>>,
    base: &PackedBase,
    within: Option<(i32, i32, i32)>,
    windows: impl FnOnce() -> (i32, i32),
) -> i32 {
    let mut acc = Phased { base, sum: 0 };
    let scale = eval::features(pos, t, &mut acc);
    let (linear_mg, linear_eg) = acc.sums();
    let total = phase_total::<R>();
    let p = phase(pos).min(total);
    let mix = |mg: i32, eg: i32| {
        let mixed = (mg as i64 * p as i64 + eg as i64 * (total - p) as i64)
            / (total as i64 * QUANTUM as i64);
        eval::for_side_to_move(pos, mixed as i32, scale)
    };
    if let Some((alpha, beta, reach)) = within {
        let linear = mix(linear_mg, linear_eg);
        if linear - reach >= beta || linear + reach <= alpha {
            return linear;
        }
    }
    let (mg, eg) = windows();
    mix(linear_mg + mg, linear_eg + eg)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{flipped, random_game};
    use dama_core::{rules, AnyPosition};

    fn layout_checks<R: Rules>(windows: Windows, tables: usize) {
        let layout = Layout::<Bb<R>>::with::<R>(windows);
        assert_eq!(layout.tables(), tables);
        let back = Layout::<Bb<R>>::for_tables::<R>(tables).expect("a layout");
        assert_eq!(back.pairs, layout.pairs);
        let valid = R::G::VALID.to_u128();
        let bits = |b: Bb<R>| b.to_u128();
        let mut covered = 0u128;
        for &(a, b) in &layout.pairs {
            assert_eq!(a.count(), 8);
            assert_eq!(b.count(), 8);
            covered |= bits(a) | bits(b);
            // The black window is the half-turn image of the white one, square by square in
            // the opposite order (what the reversed digit table relies on).
            let sa: Vec<u32> = a.iter().collect();
            let sb: Vec<u32> = b.iter().collect();
            for (i, &s) in sa.iter().enumerate() {
                let (c, r) = R::G::coords(s).unwrap();
                let image = R::G::square_at(R::G::WIDTH - 1 - c, R::G::HEIGHT - 1 - r).unwrap();
                assert_eq!(image, sb[7 - i]);
            }
        }
        assert_eq!(covered, valid, "the windows cover the board");
    }

    #[test]
    fn layouts() {
        for w in Windows::ALL {
            assert_eq!(Windows::from_key(w.key()), Some(w));
        }
        assert_eq!(Windows::from_key("Dense"), None);
        layout_checks::<rules::International>(Windows::Sparse, 8);
        layout_checks::<rules::Russian>(Windows::Sparse, 5);
        layout_checks::<rules::Russian80>(Windows::Sparse, 6);
        layout_checks::<rules::Canadian>(Windows::Sparse, 13);
        // Every 4x4 window: 7x7 on 10x10, the centre one its own image.
        layout_checks::<rules::International>(Windows::Dense, 25);
        layout_checks::<rules::Russian>(Windows::Dense, 13);
        layout_checks::<rules::Russian80>(Windows::Dense, 18);
        layout_checks::<rules::Canadian>(Windows::Dense, 41);
        // And the strips: 9 on 10x10 (each paired with its image two rows up), 4 on 8x8 (the
        // middle one its own image), 5 on 10x8, 17 on 12x12.
        layout_checks::<rules::International>(Windows::Strips, 34);
        layout_checks::<rules::Russian>(Windows::Strips, 17);
        layout_checks::<rules::Russian80>(Windows::Strips, 23);
        layout_checks::<rules::Canadian>(Windows::Strips, 58);
        // And the bands: 5 on 10x10 (the middle one's image beside it), 2 on 8x8, 4 on
        // 10x8, 9 on 12x12; the strips' tables come first, in the same order.
        layout_checks::<rules::International>(Windows::Bands, 39);
        layout_checks::<rules::Russian>(Windows::Bands, 19);
        layout_checks::<rules::Russian80>(Windows::Bands, 27);
        layout_checks::<rules::Canadian>(Windows::Bands, 67);
        let strips =
            Layout::<Bb<rules::International>>::with::<rules::International>(Windows::Strips);
        let bands =
            Layout::<Bb<rules::International>>::with::<rules::International>(Windows::Bands);
        assert_eq!(strips.pairs[..], bands.pairs[..strips.tables()]);
        let dense =
            Layout::<Bb<rules::International>>::with::<rules::International>(Windows::Dense);
        assert_eq!(dense.pairs.iter().filter(|(a, b)| a == b).count(), 1);
        assert!(Layout::<Bb<rules::Russian>>::for_tables::<rules::Russian>(6).is_none());
        assert_eq!(DIGITS[0b1111_1111], 3280);
        assert_eq!(DIGITS[1], 1);
        assert_eq!(DIGITS_REVERSED[1], 2187);
        assert_eq!(pext64(0b1011_0110, 0b1111_0000), 0b1011);
    }

    /// A model with pseudo-random weights.
    fn random_model(variant: Variant, tables: usize) -> Model {
        let mut m = Model::zero(variant, tables);
        let mut s = 0x1234_5678_9abc_def1u64;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s % 2001) as i32 - 1000
        };
        for w in m.base.iter_mut() {
            *w = [next(), next()];
        }
        for w in m.tables.iter_mut() {
            *w = [next() as i16, next() as i16];
        }
        m
    }

    fn symmetric<R: Rules>(variant: Variant, fens: &[&str]) {
        let t = Tables::<Bb<R>>::new::<R>();
        for windows in Windows::ALL {
            let layout = Layout::<Bb<R>>::with::<R>(windows);
            let model = random_model(variant, layout.tables());
            for fen in fens {
                let p = AnyPosition::from_fen(variant, fen).unwrap();
                let q = flipped(&p);
                let a = evaluate(&p.to_position::<R>(), &t, &layout, &model);
                let b = evaluate(&q.to_position::<R>(), &t, &layout, &model);
                assert_eq!(a, b, "{fen} ({windows:?})");
            }
        }
    }

    /// The search's sum ([`window_sums`]) is what the fit's path ([`windows`]) sends: every
    /// table's weight for White's configuration minus its weight for Black's.
    #[test]
    fn window_sums_match_the_fit_windows() {
        struct Sum<'a>(&'a Model, i32, i32);
        impl PatternSink for Sum<'_> {
            fn window(&mut self, table: usize, white: usize, black: usize) {
                let (w, b) = (
                    self.0.tables[table * TABLE_SIZE + white],
                    self.0.tables[table * TABLE_SIZE + black],
                );
                self.1 += w[0] as i32 - b[0] as i32;
                self.2 += w[1] as i32 - b[1] as i32;
            }
        }
        type R = rules::International;
        let fens = [
            "B:W24,26,27,28,29,30,32,33,34,35,36,37,38,39,41,43,44,45:B2,3,4,6,7,8,9,11,12,13,14,15,16,17,18,19,20,22",
            "W:W23,K28,32,38,41,43:B6,9,K12,14,19",
        ];
        for w in Windows::ALL {
            let layout = Layout::<Bb<R>>::with::<R>(w);
            let model = random_model(Variant::International, layout.tables());
            for fen in fens {
                let p = AnyPosition::from_fen(Variant::International, fen).unwrap();
                let pos = p.to_position::<R>();
                let mut sum = Sum(&model, 0, 0);
                windows(&pos, &layout, &mut sum);
                assert_ne!((sum.1, sum.2), (0, 0), "{fen} ({w:?})");
                assert_eq!(
                    window_sums::<R, _, TABLE_SIZE>(&pos, &layout, &model.tables),
                    (sum.1, sum.2)
                );
            }
        }
    }

    /// Counts the windows `(alpha, beta)` around each position's exact score where the lazy
    /// evaluation with `reach` breaks its promise: a score at or above `beta` (at or below
    /// `alpha`) only when the exact one is too, within `reach` of it; anything else exact.
    fn lazy_failures<R: Rules>(variant: Variant, model: &Model, reach: i32) -> usize {
        let t = Tables::<Bb<R>>::new::<R>();
        let layout = model.layout::<R>().expect("the model's layout");
        let prepared = Prepared::new(Arc::new(model.clone()));
        let mut failures = 0;
        for seed in 1..=12u64 {
            for pos in random_game::<R>(variant, 120, seed.wrapping_mul(0x9e37_79b9_7f4a_7c15)) {
                let exact = evaluate(&pos, &t, &layout, model);
                for offset in [-400, -150, -60, -20, -3, 0, 2, 25, 80, 200, 500] {
                    for width in [1, 40] {
                        let (alpha, beta) = (exact + offset - width, exact + offset);
                        let v = evaluate_within(
                            &pos,
                            &t,
                            &layout,
                            &prepared,
                            Some((alpha, beta, reach)),
                        );
                        let near = (v - exact).abs() <= reach;
                        let kept = v == exact
                            || (near && v >= beta && exact >= beta)
                            || (near && v <= alpha && exact <= alpha);
                        failures += usize::from(!kept);
                    }
                }
            }
        }
        failures
    }

    /// `$f::<R>(variant, args…)` on the rules of `variant`: English, Russian, or International
    /// for the rest (the boards of the built-in models the tests read).
    macro_rules! on_board {
        ($f:ident, $variant:expr, $($arg:expr),*) => {
            match $variant {
                Variant::English => $f::<rules::English>($variant, $($arg),*),
                Variant::Russian => $f::<rules::Russian>($variant, $($arg),*),
                _ => $f::<rules::International>($variant, $($arg),*),
            }
        };
    }

    /// The packed linear sums against plain ones, over the positions of random games.
    fn packed_mismatches<R: Rules>(variant: Variant, model: &Model) -> usize {
        struct Plain<'a>(&'a Model, i32, i32);
        impl Sink for Plain<'_> {
            fn add(&mut self, index: usize, value: i32) {
                self.1 += self.0.base[index][0] * value;
                self.2 += self.0.base[index][1] * value;
            }
        }
        let t = Tables::<Bb<R>>::new::<R>();
        let base = PackedBase::new(model);
        let mut mismatches = 0;
        for seed in 1..=6u64 {
            for pos in random_game::<R>(variant, 150, seed.wrapping_mul(0x2545_f491_4f6c_dd1d)) {
                let mut plain = Plain(model, 0, 0);
                let mut packed = Phased {
                    base: &base,
                    sum: 0,
                };
                eval::features(&pos, &t, &mut plain);
                eval::features(&pos, &t, &mut packed);
                mismatches += usize::from(packed.sums() != (plain.1, plain.2));
            }
        }
        mismatches
    }

    #[test]
    fn packed_linear_weights_give_the_plain_sums() {
        type I = rules::International;
        // Random weights of both signs, and the built-in models.
        let random = random_model(Variant::International, 1);
        assert!(random.base.iter().any(|w| w[0] < 0 && w[1] > 0));
        assert_eq!(packed_mismatches::<I>(Variant::International, &random), 0);
        for variant in [Variant::International, Variant::English, Variant::Russian] {
            let model = Model::builtin(variant).unwrap();
            assert_eq!(
                on_board!(packed_mismatches, variant, &model),
                0,
                "{variant:?}"
            );
        }
    }

    /// Positions of `R` from random games where a prepared model evaluates differently from
    /// the model itself.
    fn prepared_mismatches<R: Rules>(variant: Variant, model: &Prepared) -> usize {
        let t = Tables::<Bb<R>>::new::<R>();
        let layout = model.model.layout::<R>().expect("the model's layout");
        let mut mismatches = 0;
        for seed in 1..=12u64 {
            for pos in random_game::<R>(variant, 120, seed.wrapping_mul(0x2545_f491_4f6c_dd1d)) {
                let plain = evaluate(&pos, &t, &layout, &model.model);
                mismatches += usize::from(evaluate_within(&pos, &t, &layout, model, None) != plain);
            }
        }
        mismatches
    }

    /// A prepared model evaluates as the model does: read as bytes for the built-in models
    /// (all of them fit) and for random weights of a few centi-men, as fitted `i16` for random
    /// weights that do not fit a byte.
    #[test]
    fn prepared_models_evaluate_as_the_model() {
        type I = rules::International;
        let tables = Layout::<Bb<I>>::with::<I>(Windows::Strips).tables();
        let wide = Prepared::new(Arc::new(random_model(Variant::International, tables)));
        assert!(!wide.is_narrow());
        assert_eq!(prepared_mismatches::<I>(Variant::International, &wide), 0);
        let mut small = random_model(Variant::International, tables);
        for w in small.tables.iter_mut() {
            *w = [w[0] / 8, w[1] / 8];
        }
        let small = Prepared::new(Arc::new(small));
        assert!(small.is_narrow());
        assert_eq!(prepared_mismatches::<I>(Variant::International, &small), 0);
        for variant in [Variant::International, Variant::English, Variant::Russian] {
            let p = Prepared::new(Model::builtin(variant).unwrap());
            assert!(p.is_narrow(), "{variant:?}");
            assert_eq!(
                on_board!(prepared_mismatches, variant, &p),
                0,
                "{variant:?}"
            );
        }
    }

    /// The configurations of `pos` as [`windows`] sends them, in lanes.
    fn gathered<R: Rules>(pos: &Position<R>, layout: &Layout<Bb<R>>) -> Lanes {
        struct Fill(Lanes);
        impl PatternSink for Fill {
            fn window(&mut self, table: usize, white: usize, black: usize) {
                self.0 .0[2 * table] = white as u16;
                self.0 .0[2 * table + 1] = black as u16;
            }
        }
        let mut fill = Fill(Lanes::ZERO);
        windows(pos, layout, &mut fill);
        fill.0
    }

    /// Walks a random search tree of `R` the way the search does (down one move at a time,
    /// back up any number of plies, down again) with the configurations followed by
    /// `Incremental`, asks for them at random plies of the current line and counts those that
    /// differ from the gathered ones. With `model`, also counts the evaluations by
    /// [`evaluate_at`] that differ from [`evaluate_within`]'s. Returns those two counts and
    /// the captures and crownings the walk played.
    fn incremental_mismatches<R: Rules>(
        variant: Variant,
        layout: &Layout<Bb<R>>,
        model: Option<&Prepared>,
        seed: u64,
    ) -> [usize; 4] {
        const PLIES: usize = 128;
        let t = Tables::<Bb<R>>::new::<R>();
        let men = |p: &Position<R>| (p.men(Color::White), p.men(Color::Black));
        let mut inc = Incremental::following(layout, PLIES).expect("lanes for the layout");
        let mut line = vec![AnyPosition::start(variant).to_position::<R>()];
        let (wm, bm) = men(&line[0]);
        inc.set(0, wm, bm);
        let mut s = seed;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        let (mut lanes_wrong, mut scores_wrong, mut captures, mut crownings) = (0, 0, 0, 0);
        let mut list = Vec::new();
        for _ in 0..6000 {
            let r = next();
            if r % 5 == 0 {
                // Back up a few plies, or now and then to any ply of the line (the line grows
                // on the whole, so that crownings come too).
                let keep = if next() % 8 == 0 {
                    1 + next() % line.len() as u64
                } else {
                    (line.len() as u64).saturating_sub(next() % 4).max(1)
                };
                line.truncate(keep as usize);
                continue;
            }
            if r % 5 == 1 {
                // Evaluate a random ply of the current line.
                let ply = (next() % line.len() as u64) as usize;
                lanes_wrong += usize::from(*inc.at(ply) != gathered(&line[ply], layout));
                if let Some(p) = model {
                    let exact = evaluate_within(&line[ply], &t, layout, p, None);
                    scores_wrong +=
                        usize::from(evaluate_at(&line[ply], &t, p, None, &mut inc, ply) != exact);
                }
                continue;
            }
            let pos = *line.last().unwrap();
            list.clear();
            if !pos.captures(&mut list) {
                pos.quiet_moves(&mut list);
            }
            if list.is_empty() || line.len() == PLIES {
                line.truncate(1);
                continue;
            }
            let m = list[(next() % list.len() as u64) as usize];
            captures += usize::from(m.is_capture());
            crownings += usize::from(m.promotes());
            let child = pos.play_unchecked(&m);
            let (wm, bm) = men(&child);
            inc.set(line.len(), wm, bm);
            line.push(child);
        }
        [lanes_wrong, scores_wrong, captures, crownings]
    }

    /// The configurations followed move by move are the gathered ones, for every layout of
    /// the 8x8 and 10x10 boards and the sparse one of 12x12 (captures, crowning and backing
    /// up included), and the International model evaluates the same from them, read as bytes
    /// (the built-in model) or as `i16` (random weights).
    #[test]
    fn incremental_configurations_are_the_gathered_ones() {
        macro_rules! check {
            ($rules:ty, $variant:expr, $windows:expr) => {{
                let layout = Layout::<Bb<$rules>>::with::<$rules>($windows);
                for seed in [1u64, 0x2545_f491_4f6c_dd1d] {
                    let [lanes, _, captures, crownings] =
                        incremental_mismatches::<$rules>($variant, &layout, None, seed);
                    assert_eq!(lanes, 0, "{:?} {:?}", $variant, $windows);
                    assert!(
                        captures > 0 && crownings > 0,
                        "{:?}: a walk with both",
                        $variant
                    );
                }
            }};
        }
        for windows in Windows::ALL {
            check!(rules::Russian, Variant::Russian, windows);
            check!(rules::English, Variant::English, windows);
            check!(rules::International, Variant::International, windows);
        }
        check!(rules::Canadian, Variant::Canadian, Windows::Sparse);

        type I = rules::International;
        let builtin = Prepared::new(Model::builtin(Variant::International).unwrap());
        let tables = Layout::<Bb<I>>::with::<I>(Windows::Strips).tables();
        let wide = Prepared::new(Arc::new(random_model(Variant::International, tables)));
        assert!(builtin.is_narrow() && !wide.is_narrow());
        for model in [&builtin, &wide] {
            let layout = model.model.layout::<I>().unwrap();
            let [lanes, scores, ..] =
                incremental_mismatches::<I>(Variant::International, &layout, Some(model), 7);
            assert_eq!((lanes, scores), (0, 0));
        }
    }

    /// Which layouts the search follows move by move: those of at least
    /// [`INCREMENTAL_TABLES`] tables that [`Lanes`] hold.
    #[test]
    fn incremental_only_where_it_pays() {
        type I = rules::International;
        type C = rules::Canadian;
        let international = |w| Layout::<Bb<I>>::with::<I>(w);
        assert!(Incremental::new(&international(Windows::Strips), 8).is_some());
        assert!(Incremental::new(&international(Windows::Dense), 8).is_some());
        assert!(Incremental::new(&international(Windows::Sparse), 8).is_none());
        for variant in [Variant::English, Variant::Russian] {
            let model = Model::builtin(variant).unwrap();
            assert!(model.table_count() < INCREMENTAL_TABLES, "{variant:?}");
        }
        let dense = Layout::<Bb<C>>::with::<C>(Windows::Dense);
        assert!(2 * dense.tables() > LANES);
        assert!(Incremental::new(&dense, 8).is_none());
        assert!(Incremental::following(&dense, 8).is_none());
    }

    /// The lazy evaluation keeps every score on its side of the window with the model's reach,
    /// for the built-in models and a model of random weights (whose windows move the score by
    /// whole men); a reach of zero breaks it, so the check has teeth.
    #[test]
    fn lazy_evaluation_keeps_scores_on_their_side() {
        type I = rules::International;
        let random = random_model(
            Variant::International,
            Layout::<Bb<I>>::with::<I>(Windows::Strips).tables(),
        );
        assert_eq!(
            lazy_failures::<I>(Variant::International, &random, random.window_reach()),
            0
        );
        assert!(lazy_failures::<I>(Variant::International, &random, 0) > 0);
        let builtin = Model::builtin(Variant::International).unwrap();
        assert_eq!(
            lazy_failures::<I>(Variant::International, &builtin, builtin.window_reach()),
            0
        );
        let english = Model::builtin(Variant::English).unwrap();
        assert_eq!(
            lazy_failures::<rules::English>(Variant::English, &english, english.window_reach()),
            0
        );
        let russian = Model::builtin(Variant::Russian).unwrap();
        assert_eq!(
            lazy_failures::<rules::Russian>(Variant::Russian, &russian, russian.window_reach()),
            0
        );
    }

    #[test]
    fn colour_symmetry() {
        symmetric::<rules::International>(
            Variant::International,
            &[
                "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20",
                "B:W24,26,27,28,29,30,32,33,34,35,36,37,38,39,41,43,44,45:B2,3,4,6,7,8,9,11,12,13,14,15,16,17,18,19,20,22",
                "W:W23,K28,32,38,41,43:B6,9,K12,14,19",
            ],
        );
        symmetric::<rules::Russian>(
            Variant::Russian,
            &[
                "W:Wa1,a3,b2,c1,c3,d2,e1,e3,f2,g1,h2,g3:Bb6,b8,a7,c7,d6,d8,e7,f6,f8,g7,h6,h8",
                "B:Wa3,c3,Kd4,f2:Bb6,d6,Kh8",
            ],
        );
    }

    #[test]
    fn builtin_models_load_and_fit_their_boards() {
        let m = Model::builtin(Variant::International).expect("International model");
        assert_eq!(m.variant, "international");
        assert!(m.check::<rules::International>().is_ok());
        // A man is still worth about a man (the fit keeps the scale of centi-men).
        let man = m.base[feature::MAN];
        assert!(
            (800..=3200).contains(&man[0]) && (800..=3200).contains(&man[1]),
            "{man:?}"
        );
        let r = Model::builtin(Variant::Russian).expect("Russian model");
        assert!(r.check::<rules::Russian>().is_ok());
        let e = Model::builtin(Variant::English).expect("English model");
        assert_eq!(e.variant, "english");
        assert!(e.check::<rules::English>().is_ok());
        let b = Model::builtin(Variant::Brazilian).expect("Brazilian model");
        assert!(b.check::<rules::Brazilian>().is_ok());
        let p = Model::builtin(Variant::Pool).expect("Pool model");
        assert_eq!(p.variant, "pool");
        assert!(p.check::<rules::Pool>().is_ok());
        assert!(Model::builtin(Variant::Czech).is_none());
    }

    #[test]
    fn bytes_round_trip_and_errors() {
        let m = random_model(Variant::Russian, 5);
        let b = m.to_bytes();
        assert_eq!(Model::from_bytes(&b), Ok(m.clone()));
        assert_eq!(
            Model::from_bytes(&b[..b.len() - 1]),
            Err(ModelError::BadLength)
        );
        assert_eq!(Model::from_bytes(b"DAMAPAT2"), Err(ModelError::BadMagic));
        assert_eq!(Model::from_bytes(&[]), Err(ModelError::BadLength));
        let mut extra = b.clone();
        extra.push(0);
        assert_eq!(Model::from_bytes(&extra), Err(ModelError::BadLength));
        assert!(m.check::<rules::Russian>().is_ok());
        assert_eq!(
            m.check::<rules::International>(),
            Err(ModelError::TableCount {
                found: 5,
                expected: [8, 25, 34, 39]
            })
        );
        assert!(random_model(Variant::Russian, 13)
            .check::<rules::Russian>()
            .is_ok());
    }
}
