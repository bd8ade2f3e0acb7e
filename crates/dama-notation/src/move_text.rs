//! Move text: reading and writing single moves.
//!
//! Reading accepts numeric moves (`11-15`, `11x18`, the full path `11x18x25`, zero-padded
//! squares `06-11`), algebraic moves (`c3-d4`, `e3:c5:e7`, `e3:e7`, upper case `C3-D4`, no
//! separator `c3d4`), and the short algebraic forms `cd4` (the file the piece comes from and
//! the square it goes to) and `a:e5` / `axe5`. `x` and `:` are both capture separators, and the
//! separator is taken as a hint only: a quiet move written with `x` (as some old files do) is
//! still found, since a position's legal moves are either all captures or all quiet. Text is
//! resolved against the legal moves: it names exactly one, or the result is
//! [`MoveError::Illegal`] or [`MoveError::Ambiguous`] with the candidates.
//!
//! Writing gives the shortest standard form: `11-15`, `11x18`, `c3-d4`, `e3:g5` (with the
//! capture separator of the variant's PDN `GameType`), and the full path only when another
//! legal move has the same start and end squares. [`write_move_short`] gives the short
//! algebraic form (`cd4`, `a:e5`) where it is unambiguous.

use crate::game_type::{Layout, Notation};
use core::fmt;
use dama_core::position::Bb;
use dama_core::rules::Rules;
use dama_core::{AnyMove, AnyPosition, Move, Position, Square, Variant};

/// Most squares a move text keeps: a path written with more (a capture of over 15 pieces)
/// keeps its first 15 and its last square, which still names the move, since intermediate
/// squares only have to lie on its path in order.
pub const MAX_SQUARES: usize = 16;

/// Longest move text accepted.
pub const MAX_MOVE_TEXT: usize = 160;

/// One square as written in move text, before it is looked up on a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SquareRef {
    /// A square number (`11`, `06`).
    Number(u16),
    /// An algebraic square: 0-based file (`a` = 0) and 1-based rank.
    Algebraic {
        /// 0-based file.
        file: u8,
        /// 1-based rank.
        rank: u8,
    },
    /// Only a file, as the start of a short algebraic move (`c` in `cd4`).
    File(u8),
}

impl Default for SquareRef {
    fn default() -> Self {
        SquareRef::File(0)
    }
}

impl fmt::Display for SquareRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            SquareRef::Number(n) => write!(f, "{n}"),
            SquareRef::Algebraic { file, rank } => {
                write!(f, "{}{rank}", char::from(b'a' + file))
            }
            SquareRef::File(file) => write!(f, "{}", char::from(b'a' + file)),
        }
    }
}

/// What the separators of a move text say about it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// Written with `-`.
    Quiet,
    /// Written with `x` or `:`.
    Capture,
    /// Written without a separator (`c3d4`, `cd4`).
    Unspecified,
}

/// The syntax of one move: the squares it names and its separator, not yet resolved against a
/// position. Small and `Copy` (squares are packed in 16 bits each).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct MoveText {
    squares: [u16; MAX_SQUARES],
    len: u8,
    kind: MoveKind,
    /// The capture separator as written (`x` or `:`), to write the text back as it was.
    separator: u8,
}

const ALGEBRAIC_BIT: u16 = 0x8000;
const FILE_BIT: u16 = 0x4000;

fn pack(r: SquareRef) -> u16 {
    match r {
        SquareRef::Number(n) => n & 0x3FFF,
        SquareRef::Algebraic { file, rank } => {
            ALGEBRAIC_BIT | u16::from(file) << 8 | u16::from(rank)
        }
        SquareRef::File(f) => FILE_BIT | u16::from(f),
    }
}

#[inline]
fn unpack(v: u16) -> SquareRef {
    if v & ALGEBRAIC_BIT != 0 {
        SquareRef::Algebraic {
            file: (v >> 8 & 0x3F) as u8,
            rank: v as u8,
        }
    } else if v & FILE_BIT != 0 {
        SquareRef::File(v as u8)
    } else {
        SquareRef::Number(v)
    }
}

impl fmt::Debug for MoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "MoveText({self})")
    }
}

/// Why move text could not be read as a move (before looking at any position).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveTextError(pub String);

impl fmt::Display for MoveTextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}' is not a move", self.0)
    }
}

impl std::error::Error for MoveTextError {}

fn clip(text: &str) -> String {
    let mut s: String = text.chars().take(40).collect();
    if s.len() < text.len() {
        s.push('…');
    }
    s
}

impl MoveText {
    /// Number of squares named (at least 2).
    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Always false: move text names at least two squares.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The `i`-th square named (0 is the start, `len() - 1` the end).
    ///
    /// # Panics
    /// If `i >= len()`.
    #[inline]
    pub fn square(&self, i: usize) -> SquareRef {
        unpack(self.squares[..self.len as usize][i])
    }

    /// The squares named, in order (start, intermediate landing squares, end).
    pub fn squares(&self) -> impl Iterator<Item = SquareRef> + '_ {
        self.squares[..self.len as usize].iter().map(|&v| unpack(v))
    }

    /// What the separators say.
    pub fn kind(&self) -> MoveKind {
        self.kind
    }

    /// Builds move text from squares (a path longer than [`MAX_SQUARES`] keeps its first
    /// squares and its end).
    ///
    /// # Errors
    /// If there are fewer than two squares, or a file appears anywhere but at the start.
    pub fn new(squares: &[SquareRef], kind: MoveKind) -> Result<MoveText, MoveTextError> {
        let bad = || MoveTextError(squares.iter().map(|s| s.to_string()).collect());
        if squares.len() < 2 || squares.len() > 255 {
            return Err(bad());
        }
        if squares[1..].iter().any(|s| matches!(s, SquareRef::File(_))) {
            return Err(bad());
        }
        let mut text = MoveText {
            squares: [0; MAX_SQUARES],
            len: 0,
            kind,
            separator: b'x',
        };
        for s in squares {
            text.push(pack(*s));
        }
        Ok(text)
    }

    /// The common case `32-28` / `28x19` (one- or two-digit squares, no leading zero), read
    /// without the general machinery.
    #[inline]
    fn parse_simple_numeric(b: &[u8]) -> Option<MoveText> {
        let digit = |c: u8| c.is_ascii_digit().then(|| u16::from(c - b'0'));
        let (a, rest) = match b {
            [x, y, rest @ ..] if x.is_ascii_digit() && y.is_ascii_digit() && *x != b'0' => {
                (digit(*x)? * 10 + digit(*y)?, rest)
            }
            [x, rest @ ..] if x.is_ascii_digit() && *x != b'0' => (digit(*x)?, rest),
            _ => return None,
        };
        let (sep, rest) = rest.split_first()?;
        let kind = match sep {
            b'-' => MoveKind::Quiet,
            b'x' => MoveKind::Capture,
            _ => return None,
        };
        let z = match rest {
            [x, y] if *x != b'0' => digit(*x)? * 10 + digit(*y)?,
            [x] if *x != b'0' => digit(*x)?,
            _ => return None,
        };
        let mut squares = [0; MAX_SQUARES];
        squares[0] = a;
        squares[1] = z;
        Some(MoveText {
            squares,
            len: 2,
            kind,
            separator: b'x',
        })
    }

    /// Appends a square; past the capacity the last square is replaced, so the end is kept.
    #[inline]
    fn push(&mut self, v: u16) {
        if (self.len as usize) < MAX_SQUARES {
            self.squares[self.len as usize] = v;
            self.len += 1;
        } else {
            self.squares[MAX_SQUARES - 1] = v;
        }
    }

    /// Reads the text of one move (no move number, no strength mark).
    ///
    /// # Errors
    /// [`MoveTextError`] if the text is not a move in any of the accepted forms.
    pub fn parse(text: &str) -> Result<MoveText, MoveTextError> {
        Self::parse_bytes(text.as_bytes()).ok_or_else(|| MoveTextError(clip(text)))
    }

    /// [`MoveText::parse`] on bytes; `None` if they are not a move.
    pub fn parse_bytes(b: &[u8]) -> Option<MoveText> {
        if b.len() > MAX_MOVE_TEXT || b.is_empty() {
            return None;
        }
        if let Some(t) = Self::parse_simple_numeric(b) {
            return Some(t);
        }
        let mut out = MoveText {
            squares: [0; MAX_SQUARES],
            len: 0,
            kind: MoveKind::Unspecified,
            separator: b'x',
        };
        let mut count = 0usize;
        let mut i = 0;
        let mut quiet_seps = 0;
        let mut capture_seps = 0;
        loop {
            // One square (or, first, a lone file).
            let square = match b.get(i) {
                Some(c) if c.is_ascii_digit() => {
                    let start = i;
                    while i < b.len() && b[i].is_ascii_digit() {
                        i += 1;
                    }
                    if i - start > 3 {
                        return None;
                    }
                    let mut n: u16 = 0;
                    for &d in &b[start..i] {
                        n = n * 10 + u16::from(d - b'0');
                    }
                    if n == 0 {
                        return None;
                    }
                    SquareRef::Number(n)
                }
                Some(c) if c.is_ascii_alphabetic() => {
                    let file = c.to_ascii_lowercase() - b'a';
                    i += 1;
                    let start = i;
                    while i < b.len() && b[i].is_ascii_digit() {
                        i += 1;
                    }
                    match i - start {
                        0 => {
                            if count != 0 {
                                return None;
                            }
                            SquareRef::File(file)
                        }
                        1 | 2 if b[start] != b'0' => {
                            let mut rank: u8 = 0;
                            for &d in &b[start..i] {
                                rank = rank * 10 + (d - b'0');
                            }
                            SquareRef::Algebraic { file, rank }
                        }
                        _ => return None,
                    }
                }
                _ => return None,
            };
            if count == 255 {
                return None;
            }
            count += 1;
            out.push(pack(square));
            match b.get(i) {
                None => break,
                Some(b'-') => {
                    quiet_seps += 1;
                    i += 1;
                }
                Some(&c @ (b'x' | b'X' | b':')) => {
                    capture_seps += 1;
                    out.separator = if c == b':' { b':' } else { b'x' };
                    i += 1;
                }
                // Two algebraic squares run together (`c3d4`) or a file then a square (`cd4`).
                Some(c) if c.is_ascii_alphabetic() && !matches!(square, SquareRef::Number(_)) => {}
                Some(_) => return None,
            }
            if i == b.len() {
                return None;
            }
        }
        if count < 2 {
            return None;
        }
        out.kind = match (quiet_seps, capture_seps) {
            (0, 0) => MoveKind::Unspecified,
            (_, 0) => MoveKind::Quiet,
            _ => MoveKind::Capture,
        };
        // A quiet move has exactly two squares.
        if out.kind == MoveKind::Quiet && count != 2 {
            return None;
        }
        Some(out)
    }
}

impl fmt::Display for MoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sep = match self.kind {
            MoveKind::Quiet => Some('-'),
            MoveKind::Capture => Some(char::from(self.separator)),
            MoveKind::Unspecified => None,
        };
        for (i, s) in self.squares().enumerate() {
            if i > 0 {
                if let Some(c) = sep {
                    write!(f, "{c}")?;
                }
            }
            write!(f, "{s}")?;
        }
        Ok(())
    }
}

impl core::str::FromStr for MoveText {
    type Err = MoveTextError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        MoveText::parse(s)
    }
}

/// Why move text does not name a legal move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The text is not a move at all.
    Syntax(MoveTextError),
    /// A square the board does not have.
    NoSuchSquare {
        /// The move text.
        text: String,
        /// The square as written.
        square: String,
    },
    /// No legal move matches the text.
    Illegal {
        /// The move text.
        text: String,
    },
    /// Several legal moves match the text.
    Ambiguous {
        /// The move text.
        text: String,
        /// The legal moves it could mean.
        candidates: Vec<AnyMove>,
        /// How each candidate is written unambiguously.
        written: Vec<String>,
    },
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax(e) => e.fmt(f),
            MoveError::NoSuchSquare { text, square } => {
                write!(f, "move {text}: the board has no square {square}")
            }
            MoveError::Illegal { text } => write!(f, "illegal move {text}"),
            MoveError::Ambiguous { text, written, .. } => {
                write!(
                    f,
                    "ambiguous move {text}: it could be {}",
                    written.join(" or ")
                )
            }
        }
    }
}

impl std::error::Error for MoveError {}

impl From<MoveTextError> for MoveError {
    fn from(e: MoveTextError) -> Self {
        MoveError::Syntax(e)
    }
}

/// Square lookups for one variant and layout: numbers and algebraic names, whichever the text
/// uses. Numbers are read in the layout's numbering if it is numeric (else the variant's
/// standard numbering); algebraic names in the layout's names if it is algebraic (else the
/// variant's standard algebraic names).
#[derive(Clone, Debug)]
pub struct SquareMap {
    variant: Variant,
    by_number: Vec<Option<Square>>,
    /// Indexed by `file * 32 + rank - 1`.
    by_name: Vec<Option<Square>>,
    /// The algebraic file of each square bit (255 if none).
    file_of: [u8; 128],
}

impl SquareMap {
    /// The lookups for `variant` with squares named as `layout` says.
    pub fn new(variant: Variant, layout: &Layout) -> SquareMap {
        let numeric = match layout.notation {
            Notation::Numeric => *layout,
            _ => Layout::with_notation(variant, Notation::Numeric),
        };
        let algebraic = match layout.notation {
            Notation::Numeric => Layout::with_notation(variant, Notation::Algebraic),
            _ => *layout,
        };
        let b = variant.board();
        let count = b.width * b.height / 2;
        let by_number = (0..=count)
            .map(|n| numeric.from_number(variant, n))
            .collect();
        let mut by_name = vec![None; 26 * 32];
        let mut file_of = [u8::MAX; 128];
        for sq in variant.squares() {
            if let Some((file, rank)) = algebraic.file_rank(variant, sq) {
                if file < 26 && rank < 32 {
                    by_name[(file * 32 + rank) as usize] = Some(sq);
                    file_of[sq.0 as usize & 127] = file as u8;
                }
            }
        }
        SquareMap {
            variant,
            by_number,
            by_name,
            file_of,
        }
    }

    /// The map for a variant's standard layout.
    pub fn standard(variant: Variant) -> SquareMap {
        Self::standard_ref(variant).clone()
    }

    /// The map for a variant's standard layout, built once per process.
    pub fn standard_ref(variant: Variant) -> &'static SquareMap {
        static MAPS: std::sync::OnceLock<Vec<SquareMap>> = std::sync::OnceLock::new();
        let maps = MAPS.get_or_init(|| {
            Variant::ALL
                .iter()
                .map(|&v| SquareMap::new(v, &Layout::standard(v)))
                .collect()
        });
        maps.iter()
            .find(|m| m.variant == variant)
            .expect("every variant has a map")
    }

    /// The variant.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The square a reference names (`None` for a lone file or a square off the board).
    #[inline]
    pub fn square(&self, r: SquareRef) -> Option<Square> {
        match r {
            SquareRef::Number(n) => self.by_number.get(n as usize).copied().flatten(),
            SquareRef::Algebraic { file, rank } if file < 26 && (1..=32).contains(&rank) => {
                self.by_name[file as usize * 32 + rank as usize - 1]
            }
            _ => None,
        }
    }

    /// Whether `sq` is on the square or file `r` names.
    #[inline]
    fn matches(&self, r: SquareRef, sq: Square) -> bool {
        match r {
            SquareRef::File(f) => self.file_of[sq.0 as usize & 127] == f,
            _ => self.square(r) == Some(sq),
        }
    }
}

/// Why [`resolve_in`] found no single move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unresolved {
    /// A square off the board (its index in the text).
    NoSuchSquare(usize),
    /// No legal move matches.
    Illegal,
    /// These legal moves (indices into the list) match.
    Ambiguous(Vec<usize>),
}

/// Finds the legal move that `text` names: the index into `legal`, the legal moves of `pos`.
/// This is the allocation-free path that replaying files uses.
///
/// # Errors
/// [`Unresolved`] if the text names no square of the board, no legal move or several.
pub fn resolve_in<R: Rules>(
    pos: &Position<R>,
    legal: &[Move<Bb<R>>],
    text: &MoveText,
    map: &SquareMap,
) -> Result<usize, Unresolved> {
    // The common case: a start and an end square that name exactly one legal move.
    if text.len() == 2 {
        if let (Some(from), Some(to)) = (map.square(text.square(0)), map.square(text.square(1))) {
            let (mut found, mut count) = (0, 0);
            for (i, m) in legal.iter().enumerate() {
                if m.to() == to && m.from() == from {
                    found = i;
                    count += 1;
                }
            }
            if count == 1 {
                return Ok(found);
            }
        }
    }
    let last = text.len() - 1;
    let to = map
        .square(text.square(last))
        .ok_or(Unresolved::NoSuchSquare(last))?;
    let from = text.square(0);
    if !matches!(from, SquareRef::File(_)) && map.square(from).is_none() {
        return Err(Unresolved::NoSuchSquare(0));
    }
    for i in 1..last {
        if map.square(text.square(i)).is_none() {
            return Err(Unresolved::NoSuchSquare(i));
        }
    }
    let from_square = map.square(from);
    let mut found = usize::MAX;
    let mut more: Vec<usize> = Vec::new();
    for (i, m) in legal.iter().enumerate() {
        if m.to() != to {
            continue;
        }
        let from_matches = match from_square {
            Some(sq) => m.from() == sq,
            None => map.matches(from, m.from()),
        };
        if from_matches {
            if found == usize::MAX {
                found = i;
            } else {
                more.push(i);
            }
        }
    }
    if found == usize::MAX {
        return Err(Unresolved::Illegal);
    }
    if more.is_empty() && last == 1 {
        return Ok(found);
    }
    more.insert(0, found);
    if last > 1 {
        // Keep the moves with a path through the intermediate squares, in order.
        let wanted: Vec<Square> = (1..last)
            .filter_map(|i| map.square(text.square(i)))
            .collect();
        // A path written out in full names its move even when a longer path passes through
        // the same squares; otherwise the squares given must lie on the path in order.
        let paths: Vec<Vec<Vec<Square>>> =
            more.iter().map(|&i| pos.capture_paths(&legal[i])).collect();
        let inner = |p: &Vec<Square>| p[1..p.len().saturating_sub(1)].to_vec();
        let exact: Vec<usize> = more
            .iter()
            .zip(&paths)
            .filter(|(_, ps)| ps.iter().any(|p| inner(p) == wanted))
            .map(|(&i, _)| i)
            .collect();
        more = if exact.is_empty() {
            more.iter()
                .zip(&paths)
                .filter(|(_, ps)| ps.iter().any(|p| is_subsequence(&wanted, &inner(p))))
                .map(|(&i, _)| i)
                .collect()
        } else {
            exact
        };
    }
    match more.len() {
        0 => Err(Unresolved::Illegal),
        1 => Ok(more[0]),
        _ => Err(Unresolved::Ambiguous(more)),
    }
}

fn is_subsequence(wanted: &[Square], path: &[Square]) -> bool {
    let mut it = path.iter();
    wanted.iter().all(|w| it.any(|p| p == w))
}

/// Finds the legal move of `pos` that `text` names, reading squares as the variant's standard
/// layout names them (numbers and algebraic names are both accepted).
///
/// # Errors
/// [`MoveError`] if the text is not a move, or names no legal move or several.
pub fn parse_move(pos: &AnyPosition, text: &str) -> Result<AnyMove, MoveError> {
    let (_, move_text, _) = split_move_token(text)?;
    resolve(pos, &move_text, &SquareMap::standard(pos.variant()))
}

/// Finds the legal move that parsed move text names.
///
/// # Errors
/// [`MoveError`] if the text names no legal move or several.
pub fn resolve(pos: &AnyPosition, text: &MoveText, map: &SquareMap) -> Result<AnyMove, MoveError> {
    dama_core::with_rules!(pos.variant(), R => {
        let p = pos.to_position::<R>();
        let legal = p.legal_move_vec();
        match resolve_in(&p, &legal, text, map) {
            Ok(i) => Ok(legal[i].to_any()),
            Err(e) => Err(unresolved_error(pos, text, e, |i| legal[i].to_any())),
        }
    })
}

/// The [`MoveError`] for an [`Unresolved`] result.
pub fn unresolved_error(
    pos: &AnyPosition,
    text: &MoveText,
    e: Unresolved,
    candidate: impl Fn(usize) -> AnyMove,
) -> MoveError {
    match e {
        Unresolved::NoSuchSquare(i) => MoveError::NoSuchSquare {
            text: text.to_string(),
            square: text.square(i).to_string(),
        },
        Unresolved::Illegal => MoveError::Illegal {
            text: text.to_string(),
        },
        Unresolved::Ambiguous(list) => {
            let candidates: Vec<AnyMove> = list.into_iter().map(candidate).collect();
            let written = candidates.iter().map(|m| write_move(pos, m)).collect();
            MoveError::Ambiguous {
                text: text.to_string(),
                candidates,
                written,
            }
        }
    }
}

/// A move number before a move: `11.` (White's or the first player's move) or `11...` (the
/// second player's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MoveNumber {
    /// The number.
    pub number: u32,
    /// Whether it was written with three dots.
    pub continuation: bool,
}

/// Splits a token such as `11. 32-28!?`, `11...c:e3` or `e3:c5` into its move number, move
/// text and strength mark (`!`, `?`, `!?`, `(!)`, …).
///
/// # Errors
/// [`MoveTextError`] if what is left is not a move.
pub fn split_move_token(
    text: &str,
) -> Result<(Option<MoveNumber>, MoveText, Option<&str>), MoveTextError> {
    let bad = || MoveTextError(clip(text));
    let t = text.trim();
    let mut number = None;
    let mut rest = t;
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 && t[digits..].starts_with('.') {
        let dots = t[digits..].bytes().take_while(|&b| b == b'.').count();
        number = Some(MoveNumber {
            number: t[..digits].parse().map_err(|_| bad())?,
            continuation: dots >= 2,
        });
        rest = t[digits + dots..].trim_start();
    }
    let mark_start = rest.find(['!', '?', '(', '*']).unwrap_or(rest.len());
    let (body, mark) = rest.split_at(mark_start);
    let mark = mark.trim();
    if !mark.is_empty() && !is_strength(mark) {
        return Err(bad());
    }
    let move_text = MoveText::parse(body.trim_end()).map_err(|_| bad())?;
    Ok((number, move_text, (!mark.is_empty()).then_some(mark)))
}

/// Whether `s` is a move strength mark: `!`, `?`, `!!`, `!?`, … or one in parentheses.
pub fn is_strength(s: &str) -> bool {
    let inner = s
        .strip_prefix('(')
        .and_then(|x| x.strip_suffix(')'))
        .unwrap_or(s);
    !inner.is_empty() && inner.len() <= 8 && inner.bytes().all(|b| b == b'!' || b == b'?')
}

/// The capture separator of a variant in PDN 3.0 (`:` for Russian and Spantsiretti and their
/// relatives, `x` for the others; numbers are always separated by `x`).
pub fn capture_separator(variant: Variant) -> char {
    match variant {
        Variant::Russian
        | Variant::RussianGiveaway
        | Variant::DiagonalRussian
        | Variant::Spantsiretti => ':',
        _ => 'x',
    }
}

/// Writes a path (start, landing squares, end) as move text in the variant's standard names.
pub fn write_path(variant: Variant, path: &[Square], capture: bool) -> String {
    write_path_in(variant, &Layout::standard(variant), path, capture)
}

/// Writes a path with squares named as `layout` says.
pub fn write_path_in(variant: Variant, layout: &Layout, path: &[Square], capture: bool) -> String {
    let sep = match (capture, layout.notation) {
        (false, _) => '-',
        // Square numbers are separated by `x` whatever the variant.
        (true, Notation::Numeric) => 'x',
        (true, _) => capture_separator(variant),
    };
    let mut out = String::new();
    for (i, sq) in path.iter().enumerate() {
        if i > 0 {
            out.push(sep);
        }
        out.push_str(&layout.square_name(variant, *sq));
    }
    out
}

/// Writes a legal move of `pos` in the standard form of its variant: start and end squares,
/// and the full path only when another legal move has the same start and end.
pub fn write_move(pos: &AnyPosition, m: &AnyMove) -> String {
    write_move_in(pos, m, &Layout::standard(pos.variant()))
}

/// [`write_move`] with squares named as `layout` says.
pub fn write_move_in(pos: &AnyPosition, m: &AnyMove, layout: &Layout) -> String {
    let legal = pos.legal_moves();
    write_move_with(pos, m, layout, &legal)
}

fn write_move_with(pos: &AnyPosition, m: &AnyMove, layout: &Layout, legal: &[AnyMove]) -> String {
    let variant = pos.variant();
    let ambiguous = legal
        .iter()
        .any(|o| o != m && o.from == m.from && o.to == m.to);
    if ambiguous {
        if let Some(path) = pos.paths(m).first() {
            return write_path_in(variant, layout, path, true);
        }
    }
    write_path_in(variant, layout, &[m.from, m.to], m.is_capture())
}

/// Writes a legal move in the shortest form: for algebraic names the short form — the start
/// file and the end square, `cd4` or `a:e5` — when no other legal move has the same start file
/// and end; otherwise as [`write_move_in`].
pub fn write_move_short(pos: &AnyPosition, m: &AnyMove, layout: &Layout) -> String {
    let variant = pos.variant();
    let legal = pos.legal_moves();
    if layout.notation != Notation::Numeric {
        if let Some((file, _)) = layout.file_rank(variant, m.from) {
            let same = legal.iter().filter(|o| {
                o.to == m.to && layout.file_rank(variant, o.from).map(|f| f.0) == Some(file)
            });
            if same.count() == 1 && file < 26 {
                let letter = char::from(b'a' + file as u8);
                let to = layout.square_name(variant, m.to);
                return if m.is_capture() {
                    format!("{letter}{}{to}", capture_separator(variant))
                } else {
                    format!("{letter}{to}")
                };
            }
        }
    }
    write_move_with(pos, m, layout, &legal)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(pos: &AnyPosition) -> Vec<String> {
        let mut t: Vec<String> = pos
            .legal_moves()
            .iter()
            .map(|m| write_move(pos, m))
            .collect();
        t.sort();
        t
    }

    #[test]
    fn start_moves() {
        let pos = AnyPosition::start(Variant::Russian);
        assert_eq!(
            texts(&pos),
            ["a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4"]
        );
        let pos = AnyPosition::start(Variant::International);
        let t = texts(&pos);
        assert_eq!(t[0], "31-26");
        assert_eq!(t.len(), 9);
    }

    #[test]
    fn different_ends_need_no_path() {
        let pos = AnyPosition::from_fen(Variant::International, "W:W26:B12,K21,31,32").unwrap();
        assert_eq!(texts(&pos), ["26x28", "26x8"]);
    }

    #[test]
    fn syntax() {
        for (text, shown) in [
            ("11-15", "11-15"),
            ("11x18", "11x18"),
            ("11x18x25", "11x18x25"),
            ("06-11", "6-11"),
            ("c3-d4", "c3-d4"),
            ("C3-D4", "c3-d4"),
            ("c3d4", "c3d4"),
            ("cd4", "cd4"),
            ("a:e5", "a:e5"),
            ("axe5", "axe5"),
            ("e3:c5:e7", "e3:c5:e7"),
            ("e:e7", "e:e7"),
            ("j10-i9", "j10-i9"),
        ] {
            assert_eq!(MoveText::parse(text).unwrap().to_string(), shown, "{text}");
        }
        for bad in [
            "", "-", "- -", "11", "11-", "-11", "11-15-19", "1-0x", "0-5", "5-0", "c0-d1", "c3-",
            "cd", "c-d", "3228", "11--15", "11x18x", "a:b:c4", "1234-5", "c3-4d", "é3-d4",
            "11-15!",
        ] {
            assert!(MoveText::parse(bad).is_err(), "{bad}");
        }
        // A very long path keeps its first squares and its end.
        let long = (1..=40)
            .map(|n| n.to_string())
            .collect::<Vec<_>>()
            .join("x");
        let t = MoveText::parse(&long).unwrap();
        assert_eq!(t.len(), MAX_SQUARES);
        assert_eq!(t.square(MAX_SQUARES - 1), SquareRef::Number(40));
        assert_eq!(t.square(1), SquareRef::Number(2));
        let too_long = (0..60).map(|_| "11").collect::<Vec<_>>().join("x");
        assert!(MoveText::parse(&too_long).is_err());
    }

    #[test]
    fn tokens_with_numbers_and_marks() {
        let (n, t, mark) = split_move_token("11. 32-28!?").unwrap();
        assert_eq!(
            n,
            Some(MoveNumber {
                number: 11,
                continuation: false
            })
        );
        assert_eq!(t.to_string(), "32-28");
        assert_eq!(mark, Some("!?"));
        let (n, t, mark) = split_move_token("5...a:e5").unwrap();
        assert!(n.unwrap().continuation);
        assert_eq!(t.to_string(), "a:e5");
        assert_eq!(mark, None);
        let (_, _, mark) = split_move_token("19-23(!?!!!)").unwrap();
        assert_eq!(mark, Some("(!?!!!)"));
        assert!(split_move_token("19-23(x)").is_err());
        assert!(split_move_token("12.").is_err());
    }

    /// The Russian example line: every move is legal and written back in the same short form.
    #[test]
    fn russian_example_line() {
        let line = "1.cd4 ba5 2.bc3 cb6 3.gh4 dc5 4.hg3 bc7 5.cb4 a:e5 6.ed4 c:e3 7.d:b8";
        let layout = Layout::standard(Variant::Russian);
        let mut pos = AnyPosition::start(Variant::Russian);
        let mut written = Vec::new();
        let mut last = None;
        for token in line.split_whitespace() {
            let (number, text, _) = split_move_token(token).unwrap();
            let m = parse_move(&pos, token).unwrap();
            let short = write_move_short(&pos, &m, &layout);
            assert_eq!(short, text.to_string(), "{token}");
            written.push(match number {
                Some(n) => format!("{}.{short}", n.number),
                None => short,
            });
            pos = pos.play(&m).unwrap();
            last = Some(m);
        }
        assert_eq!(written.join(" "), line);
        // 7.d:b8 is d2:f4:d6:b8 and crowns.
        let last = last.unwrap();
        assert!(last.promotes);
        assert_eq!(last.captured.len(), 3);
        assert_eq!(
            pos.fen(),
            "B:WKb8,h4,a3,g3,f2,a1,c1,e1,g1:Bd8,f8,h8,a7,e7,g7,b6,f6,h6"
        );
    }

    #[test]
    fn errors_are_typed() {
        let pos = AnyPosition::start(Variant::Russian);
        assert_eq!(
            parse_move(&pos, "c3-c4").unwrap_err(),
            MoveError::NoSuchSquare {
                text: "c3-c4".into(),
                square: "c4".into()
            }
        );
        assert!(matches!(
            parse_move(&pos, "a3-a4"),
            Err(MoveError::NoSuchSquare { .. })
        ));
        assert!(matches!(
            parse_move(&pos, "a3-a5"),
            Err(MoveError::Illegal { .. })
        ));
        assert!(matches!(
            parse_move(&pos, "d6-c5"),
            Err(MoveError::Illegal { .. })
        ));
        // Two pieces can reach f4 from the g file? Only g3; but both e3 and g3 reach f4.
        assert!(parse_move(&pos, "gf4").is_ok());
        assert!(parse_move(&pos, "ef4").is_ok());
        assert!(matches!(
            parse_move(&pos, "11-15x"),
            Err(MoveError::Syntax(_))
        ));
        // Ambiguous: two captures with the same start and end but different pieces taken.
        for (v, fen) in [
            (
                Variant::International,
                "B:WK1,30,34,37,44,47,50:B4,5,10,13,14,15,17,K49",
            ),
            (
                Variant::English,
                "W:W12,17,18,21,22,26,27,28,29,30,31,32:B1,3,4,5,6,7,8,10,13,14,15",
            ),
            (Variant::Russian, "W:Wf2,h2,g1:Bb8,a7,c7,e7,g7,h6,c5,e5,e3"),
        ] {
            let pos = AnyPosition::from_fen(v, fen).unwrap();
            let moves = pos.legal_moves();
            let (i, m) = moves
                .iter()
                .enumerate()
                .find(|(i, m)| moves[..*i].iter().any(|o| (o.from, o.to) == (m.from, m.to)))
                .expect("a duplicate start and end");
            let short = write_path(v, &[m.from, m.to], true);
            match parse_move(&pos, &short) {
                Err(MoveError::Ambiguous {
                    candidates,
                    written,
                    ..
                }) => {
                    assert!(candidates.len() >= 2 && candidates.contains(&moves[i]));
                    for (c, w) in candidates.iter().zip(&written) {
                        assert!(w.len() > short.len(), "{w}");
                        assert_eq!(parse_move(&pos, w).unwrap(), *c, "{v} {w}");
                    }
                }
                other => panic!("{v}: {other:?}"),
            }
        }
    }

    #[test]
    fn quiet_moves_written_with_x_are_found() {
        let pos = AnyPosition::start(Variant::English);
        let m = parse_move(&pos, "10x14").unwrap();
        assert_eq!(write_move(&pos, &m), "10-14");
        // Numbers and algebraic names both work in every variant.
        let pos = AnyPosition::start(Variant::Russian);
        assert_eq!(
            parse_move(&pos, "22-17").unwrap(),
            parse_move(&pos, "c3-b4").unwrap()
        );
        // playstrategy's American moves: algebraic from the side of Black, who starts.
        let pos = AnyPosition::start(Variant::English);
        let m = parse_move(&pos, "c3-d4").unwrap();
        assert_eq!(write_move(&pos, &m), "11-15");
    }
}
