//! The streaming PDN reader.

use super::{Game, GameResult, MoveNode, Node, Tag, TextPos};
use crate::move_text::{MoveNumber, MoveText};
use core::fmt;
use std::io::Read;

/// Largest game text accepted (tags, movetext and comments of one game). Real games are a few
/// kilobytes; heavily annotated ones stay far below this.
pub const MAX_GAME_BYTES: usize = 1 << 20;

/// Most movetext elements (moves, comments, NAGs, variations) in one game.
pub const MAX_NODES: usize = 100_000;

/// Deepest nesting of variations.
pub const MAX_DEPTH: usize = 64;

const READ_CHUNK: usize = 256 * 1024;

/// What is wrong at a place in a PDN file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// A character that cannot start anything here.
    UnexpectedChar(char),
    /// A word that is neither a move, a move number nor a result.
    BadToken(String),
    /// A placeholder move `-` (an unknown move cannot be replayed).
    Placeholder,
    /// A move number with no move after it.
    DanglingMoveNumber(String),
    /// A `{` comment that is never closed.
    UnterminatedComment,
    /// A tag value whose closing `"` is missing.
    UnterminatedString,
    /// A tag that is not `[Name "value"]`.
    BadTag(String),
    /// A `)` that closes no variation.
    UnexpectedCloseParen,
    /// A `(` whose variation is never closed.
    UnclosedVariation,
    /// A `/` set-up that is never closed.
    UnterminatedSetup,
    /// Variations nested deeper than [`MAX_DEPTH`].
    TooDeep,
    /// A game longer than [`MAX_GAME_BYTES`] or with more than [`MAX_NODES`] elements.
    GameTooLarge,
    /// Reading the input failed.
    Io(String),
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::UnexpectedChar(c) => write!(f, "unexpected character {c:?}"),
            ErrorKind::BadToken(t) => write!(f, "'{t}' is not a move, move number or result"),
            ErrorKind::Placeholder => {
                f.write_str("placeholder move '-': an unknown move cannot be replayed")
            }
            ErrorKind::DanglingMoveNumber(n) => write!(f, "move number {n} has no move"),
            ErrorKind::UnterminatedComment => f.write_str("comment '{' is never closed"),
            ErrorKind::UnterminatedString => f.write_str("tag value is missing its closing '\"'"),
            ErrorKind::BadTag(t) => write!(f, "bad tag '{t}' (expected [Name \"value\"])"),
            ErrorKind::UnexpectedCloseParen => f.write_str("')' closes no variation"),
            ErrorKind::UnclosedVariation => f.write_str("variation '(' is never closed"),
            ErrorKind::UnterminatedSetup => f.write_str("set-up '/' is never closed"),
            ErrorKind::TooDeep => write!(f, "variations nested deeper than {MAX_DEPTH}"),
            ErrorKind::GameTooLarge => write!(
                f,
                "game too large (more than {MAX_GAME_BYTES} bytes or {MAX_NODES} elements)"
            ),
            ErrorKind::Io(e) => write!(f, "read error: {e}"),
        }
    }
}

/// A PDN syntax error with its place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnError {
    /// Where.
    pub pos: TextPos,
    /// What.
    pub kind: ErrorKind,
}

impl fmt::Display for PdnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.pos, self.kind)
    }
}

impl std::error::Error for PdnError {}

/// Line-tracking state at a byte offset.
#[derive(Clone, Copy, Debug)]
struct LineState {
    line: u64,
    /// Absolute offset of the line's first byte.
    line_start: u64,
    /// UTF-8 continuation bytes between `line_start` and the current offset.
    cont: u64,
}

/// Why parsing stopped without a game.
enum Stop {
    NeedMore,
    /// The error and the index of the byte where it was found.
    Error(PdnError, usize),
}

struct Cursor<'a> {
    b: &'a [u8],
    i: usize,
    /// Absolute offset of `b[0]`.
    base: u64,
    eof: bool,
    st: LineState,
    nodes: usize,
}

/// Bytes that make up words (moves, move numbers, results).
static WORD: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        t[c] = b.is_ascii_alphanumeric() || matches!(b, b'-' | b':' | b'.' | b'/');
        c += 1;
    }
    t
};

#[inline]
fn is_word_byte(c: u8) -> bool {
    WORD[c as usize]
}

impl<'a> Cursor<'a> {
    #[inline]
    fn pos_at(&self, i: usize) -> TextPos {
        let abs = self.base + i as u64;
        let col = abs.saturating_sub(self.st.line_start + self.st.cont) + 1;
        TextPos {
            line: u32::try_from(self.st.line).unwrap_or(u32::MAX),
            column: u32::try_from(col).unwrap_or(u32::MAX),
        }
    }

    #[inline]
    fn pos(&self) -> TextPos {
        self.pos_at(self.i)
    }

    fn err(&self, i: usize, kind: ErrorKind) -> Stop {
        Stop::Error(
            PdnError {
                pos: self.pos_at(i),
                kind,
            },
            i,
        )
    }

    /// Out of data: more is needed unless the input has ended.
    #[inline]
    fn more_or(&self, otherwise: Stop) -> Stop {
        if self.eof {
            otherwise
        } else {
            Stop::NeedMore
        }
    }

    #[inline]
    fn newline(&mut self, i: usize) {
        self.st.line += 1;
        self.st.line_start = self.base + i as u64 + 1;
        self.st.cont = 0;
    }

    /// Advances over bytes of free text (comments, strings), keeping the line count, until
    /// `stop` is seen; returns its index.
    #[inline]
    fn scan_text(&mut self, from: usize, stop: u8) -> Option<usize> {
        let mut i = from;
        while i < self.b.len() {
            let c = self.b[i];
            if c == stop {
                return Some(i);
            }
            if c == b'\n' {
                self.newline(i);
            } else if c & 0xC0 == 0x80 {
                self.st.cont += 1;
            }
            i += 1;
        }
        None
    }

    /// Skips white space, `%` line comments and the literal text `\r` / `\n` that some
    /// exporters write. Returns false if the data ran out.
    #[inline(always)]
    fn skip_ws(&mut self) -> Result<bool, Stop> {
        // Most calls stand on a token already, or one space before it.
        let mut i = self.i;
        if self.b.get(i) == Some(&b' ') {
            i += 1;
        }
        if let Some(&c) = self.b.get(i) {
            if c > b' ' && !matches!(c, b'%' | b'\\' | 0xEF) {
                self.i = i;
                return Ok(true);
            }
        }
        self.skip_ws_slow()
    }

    #[inline(never)]
    fn skip_ws_slow(&mut self) -> Result<bool, Stop> {
        loop {
            let Some(&c) = self.b.get(self.i) else {
                return Ok(false);
            };
            match c {
                b'\n' => {
                    self.newline(self.i);
                    self.i += 1;
                }
                b' ' | b'\t' | b'\r' | 0x0B | 0x0C => self.i += 1,
                // A UTF-8 byte order mark.
                0xEF if self.b.get(self.i + 1..self.i + 3) == Some(&[0xBB, 0xBF][..]) => {
                    self.i += 3;
                    self.st.cont += 2;
                }
                b'%' => match self.b[self.i..].iter().position(|&x| x == b'\n') {
                    Some(n) => {
                        // Count non-ASCII bytes of the comment's line for nothing: the line
                        // ends here.
                        self.i += n;
                    }
                    None if self.eof => self.i = self.b.len(),
                    None => return Err(Stop::NeedMore),
                },
                b'\\' => match self.b.get(self.i + 1) {
                    Some(b'r' | b'n') => self.i += 2,
                    Some(_) => return Ok(true),
                    None => {
                        return Err(self.more_or(self.err(self.i, ErrorKind::UnexpectedChar('\\'))))
                    }
                },
                _ => return Ok(true),
            }
        }
    }

    fn unexpected(&self, i: usize) -> Stop {
        let c = decode_char(&self.b[i..]);
        self.err(i, ErrorKind::UnexpectedChar(c))
    }

    /// Parses a tag starting at `[` (or, when `bracket` is false, at its name: some files
    /// lose the `[` of a tag).
    fn tag(&mut self, bracket: bool) -> Result<Tag, Stop> {
        if bracket {
            // A stray '[' before the real one ("[\n[Event" or "[[Event"): skip it.
            let after = self.b[self.i + 1..]
                .iter()
                .position(|c| !c.is_ascii_whitespace())
                .map(|n| self.i + 1 + n);
            match after {
                None if !self.eof => return Err(Stop::NeedMore),
                Some(j) if self.b[j] == b'[' => {
                    for k in self.i..j {
                        if self.b[k] == b'\n' {
                            self.newline(k);
                        }
                    }
                    self.i = j;
                }
                _ => {}
            }
        }
        let open = self.i;
        let open_pos = self.pos_at(open);
        let bad_tag = |cur: &Cursor| {
            Stop::Error(
                PdnError {
                    pos: open_pos,
                    kind: ErrorKind::BadTag(cur.snippet(open)),
                },
                open,
            )
        };
        let mut i = self.i + usize::from(bracket);
        // The name: everything up to the value's quote or the closing bracket.
        let name_start = i;
        loop {
            match self.b.get(i) {
                None => return Err(self.more_or(bad_tag(self))),
                Some(b'"' | b']') => break,
                Some(b'[') => return Err(bad_tag(self)),
                Some(&c) => {
                    if c == b'\n' {
                        self.newline(i);
                    } else if c & 0xC0 == 0x80 {
                        self.st.cont += 1;
                    }
                    i += 1;
                }
            }
        }
        let name = utf8(&self.b[name_start..i]).trim().to_owned();
        if name.is_empty() {
            return Err(bad_tag(self));
        }
        let mut value = String::new();
        if self.b[i] == b'"' {
            let mut bytes = Vec::new();
            i += 1;
            loop {
                match self.b.get(i) {
                    None => {
                        return Err(self.more_or(Stop::Error(
                            PdnError {
                                pos: open_pos,
                                kind: ErrorKind::UnterminatedString,
                            },
                            open,
                        )))
                    }
                    Some(b'"') => break,
                    Some(b'\\') => match self.b.get(i + 1) {
                        // A backslash at the end: the string is unterminated (the arm above).
                        None => i += 1,
                        Some(&c) => {
                            if c == b'\n' {
                                self.newline(i + 1);
                            }
                            bytes.push(c);
                            i += 2;
                        }
                    },
                    Some(&c) => {
                        if c == b'\n' {
                            self.newline(i);
                        } else if c & 0xC0 == 0x80 {
                            self.st.cont += 1;
                        }
                        bytes.push(c);
                        i += 1;
                    }
                }
            }
            i += 1;
            value = String::from_utf8(bytes).unwrap_or_else(|e| utf8(e.as_bytes()));
            // Up to the closing bracket.
            loop {
                match self.b.get(i) {
                    None => return Err(self.more_or(bad_tag(self))),
                    Some(b']') => break,
                    Some(b' ' | b'\t' | b'\r') => i += 1,
                    Some(_) => return Err(bad_tag(self)),
                }
            }
        }
        self.i = i + 1;
        Ok(Tag { name, value })
    }

    fn snippet(&self, from: usize) -> String {
        let end = (from + 40).min(self.b.len());
        let s = &self.b[from..end];
        let cut = s
            .iter()
            .position(|&c| c == b'\n' || c == b'\r')
            .unwrap_or(s.len());
        String::from_utf8_lossy(&s[..cut]).into_owned()
    }

    /// Parses movetext up to the end of the game (depth 0) or the closing `)` (deeper).
    /// Returns the nodes and the terminator if one ended the game.
    #[allow(clippy::type_complexity)]
    fn nodes(
        &mut self,
        depth: usize,
        open: usize,
        open_pos: TextPos,
    ) -> Result<(Vec<Node>, Option<(GameResult, TextPos)>), Stop> {
        let unclosed = Stop::Error(
            PdnError {
                pos: open_pos,
                kind: ErrorKind::UnclosedVariation,
            },
            open,
        );
        let mut nodes: Vec<Node> = Vec::with_capacity(if depth == 0 { 128 } else { 8 });
        let mut pending: Option<(MoveNumber, usize)> = None;
        let dangling = |cur: &Cursor, pending: Option<(MoveNumber, usize)>| -> Result<(), Stop> {
            match pending {
                Some((n, at)) => Err(cur.err(
                    at,
                    ErrorKind::DanglingMoveNumber(format!(
                        "{}{}",
                        n.number,
                        if n.continuation { "..." } else { "." }
                    )),
                )),
                None => Ok(()),
            }
        };
        loop {
            if !self.skip_ws()? {
                if !self.eof {
                    return Err(Stop::NeedMore);
                }
                if depth > 0 {
                    return Err(unclosed);
                }
                dangling(self, pending)?;
                return Ok((nodes, None));
            }
            self.nodes += 1;
            if self.nodes > MAX_NODES {
                return Err(self.err(self.i, ErrorKind::GameTooLarge));
            }
            let start = self.i;
            let c = self.b[start];
            match c {
                b'[' => {
                    if depth > 0 {
                        return Err(unclosed);
                    }
                    dangling(self, pending)?;
                    return Ok((nodes, None));
                }
                b'{' => {
                    let at = self.pos_at(start);
                    let Some(end) = self.scan_text(start + 1, b'}') else {
                        let e = PdnError {
                            pos: at,
                            kind: ErrorKind::UnterminatedComment,
                        };
                        return Err(self.more_or(Stop::Error(e, start)));
                    };
                    nodes.push(Node::Comment(utf8(&self.b[start + 1..end])));
                    self.i = end + 1;
                }
                b'(' => {
                    if let Some(len) = self.paren_strength(start)? {
                        self.attach_strength(&mut nodes, start, len);
                        continue;
                    }
                    if depth + 1 > MAX_DEPTH {
                        return Err(self.err(start, ErrorKind::TooDeep));
                    }
                    let at = self.pos_at(start);
                    self.i = start + 1;
                    let (inner, _) = self.nodes(depth + 1, start, at)?;
                    nodes.push(Node::Variation(inner));
                }
                b')' => {
                    if depth == 0 {
                        return Err(self.err(start, ErrorKind::UnexpectedCloseParen));
                    }
                    dangling(self, pending)?;
                    self.i = start + 1;
                    return Ok((nodes, None));
                }
                b'$' => {
                    let digits = self.b[start + 1..]
                        .iter()
                        .take_while(|c| c.is_ascii_digit())
                        .count();
                    let end = start + 1 + digits;
                    if end == self.b.len() && !self.eof {
                        return Err(Stop::NeedMore);
                    }
                    if digits == 0 || digits > 9 {
                        return Err(self.err(start, ErrorKind::BadToken(self.snippet(start))));
                    }
                    let n = decimal(&self.b[start + 1..end]);
                    nodes.push(Node::Nag(n));
                    self.i = end;
                }
                b'!' | b'?' => {
                    let len = self.b[start..]
                        .iter()
                        .take_while(|&&c| c == b'!' || c == b'?')
                        .count();
                    if start + len == self.b.len() && !self.eof {
                        return Err(Stop::NeedMore);
                    }
                    self.attach_strength(&mut nodes, start, len);
                }
                b'/' => {
                    let pos = self.pos_at(start);
                    let Some(end) = self.scan_text(start + 1, b'/') else {
                        let e = PdnError {
                            pos,
                            kind: ErrorKind::UnterminatedSetup,
                        };
                        return Err(self.more_or(Stop::Error(e, start)));
                    };
                    nodes.push(Node::Setup(
                        String::from_utf8_lossy(&self.b[start + 1..end]).into_owned(),
                        pos,
                    ));
                    self.i = end + 1;
                }
                b'*' => {
                    self.i = start + 1;
                    if depth == 0 {
                        return Ok((nodes, Some((GameResult::Unknown, self.pos_at(start)))));
                    }
                }
                c if is_word_byte(c) => {
                    let len = self.b[start..]
                        .iter()
                        .take_while(|&&c| is_word_byte(c))
                        .count();
                    let end = start + len;
                    if end == self.b.len() && !self.eof {
                        return Err(Stop::NeedMore);
                    }
                    let word = &self.b[start..end];
                    if let Some(result) = result_token(word) {
                        // "1. 2-0" (a forfeit written as an empty move) is not PDN: the
                        // reference grammar rejects a move number with no move.
                        dangling(self, pending)?;
                        self.i = end;
                        if depth == 0 {
                            return Ok((nodes, Some((result, self.pos_at(start)))));
                        }
                        // A result inside a variation ends nothing; keep it as a comment.
                        nodes.push(Node::Comment(String::from_utf8_lossy(word).into_owned()));
                        continue;
                    }
                    // Move numbers: "12." "12..." and glued "1.33-29".
                    let mut w = start;
                    let digits = word.iter().take_while(|c| c.is_ascii_digit()).count();
                    if digits > 0 && word.get(digits) == Some(&b'.') {
                        let dots = word[digits..].iter().take_while(|&&c| c == b'.').count();
                        let number = decimal(&word[..digits]);
                        pending = Some((
                            MoveNumber {
                                number,
                                continuation: dots >= 2,
                            },
                            start,
                        ));
                        w = start + digits + dots;
                        if w == end {
                            self.i = end;
                            continue;
                        }
                    }
                    let rest = &self.b[w..end];
                    if rest.iter().all(|&c| c == b'.') && rest.len() >= 2 {
                        // "1. ..." : the first player's move is omitted.
                        if let Some((n, _)) = pending.as_mut() {
                            n.continuation = true;
                        }
                        self.i = end;
                        continue;
                    }
                    if rest == b"-" {
                        // A lone "-" ending a game stands for "no result" (as some exporters
                        // write it); anywhere else it is a placeholder for an unknown move.
                        let mut j = end;
                        while j < self.b.len() && self.b[j].is_ascii_whitespace() {
                            j += 1;
                        }
                        if j == self.b.len() && !self.eof {
                            return Err(Stop::NeedMore);
                        }
                        if depth == 0 && (j == self.b.len() || self.b[j] == b'[') {
                            dangling(self, pending)?;
                            self.i = end;
                            return Ok((nodes, Some((GameResult::Unknown, self.pos_at(w)))));
                        }
                        return Err(self.err(w, ErrorKind::Placeholder));
                    }
                    let mut end = end;
                    let mut glued: Option<String> = None;
                    let text = match MoveText::parse_bytes(rest) {
                        Some(t) => t,
                        None => {
                            // "1- 6": a numeric move padded with a space after its separator.
                            let spaced = rest.len() >= 2
                                && rest[0].is_ascii_digit()
                                && matches!(rest[rest.len() - 1], b'-' | b'x')
                                && self.b.get(end) == Some(&b' ')
                                && self.b.get(end + 1).is_some_and(u8::is_ascii_digit);
                            // "8-11Redoverstepped...": prose glued to a numeric move.
                            let prose = rest[0]
                                .is_ascii_digit()
                                .then(|| rest.iter().position(u8::is_ascii_alphabetic))
                                .flatten()
                                .filter(|&p| p > 0 && rest[p - 1].is_ascii_digit())
                                .filter(|&p| {
                                    rest.len() - p >= 3
                                        && rest[p..]
                                            .iter()
                                            .all(|c| c.is_ascii_alphabetic() || *c == b'.')
                                        && rest[p..]
                                            .iter()
                                            .filter(|c| c.is_ascii_alphabetic())
                                            .count()
                                            >= 3
                                });
                            if spaced {
                                let more = self.b[end + 1..]
                                    .iter()
                                    .take_while(|&&c| is_word_byte(c))
                                    .count();
                                if end + 1 + more == self.b.len() && !self.eof {
                                    return Err(Stop::NeedMore);
                                }
                                let mut joined = rest.to_vec();
                                joined.extend_from_slice(&self.b[end + 1..end + 1 + more]);
                                let t = MoveText::parse_bytes(&joined);
                                end += 1 + more;
                                t
                            } else if let Some(p) = prose {
                                let t = MoveText::parse_bytes(&rest[..p]);
                                if t.is_some() {
                                    glued = Some(String::from_utf8_lossy(&rest[p..]).into_owned());
                                }
                                t
                            } else {
                                None
                            }
                            .ok_or_else(|| {
                                self.err(
                                    w,
                                    ErrorKind::BadToken(String::from_utf8_lossy(rest).into_owned()),
                                )
                            })?
                        }
                    };
                    let pos = self.pos_at(w);
                    self.i = end;
                    let mut node = MoveNode {
                        number: pending.take().map(|(n, _)| n),
                        text,
                        strength: None,
                        pos,
                    };
                    // A strength mark right after the move: "!?", "(!)", or "*" (forced).
                    let s = self.i;
                    let len = match self.b.get(s) {
                        Some(b'!' | b'?') => self.b[s..]
                            .iter()
                            .take_while(|&&c| c == b'!' || c == b'?')
                            .count(),
                        Some(b'(') => self.paren_strength(s)?.unwrap_or(0),
                        Some(b'*') => 1,
                        None if !self.eof => return Err(Stop::NeedMore),
                        _ => 0,
                    };
                    if len > 0 {
                        if s + len == self.b.len() && !self.eof {
                            return Err(Stop::NeedMore);
                        }
                        node.strength = Some(
                            String::from_utf8_lossy(&self.b[s..s + len])
                                .into_owned()
                                .into_boxed_str(),
                        );
                        self.i = s + len;
                    }
                    nodes.push(Node::Move(node));
                    if let Some(c) = glued {
                        nodes.push(Node::Comment(c));
                    }
                }
                b'-' => return Err(self.err(start, ErrorKind::Placeholder)),
                _ => return Err(self.unexpected(start)),
            }
        }
    }

    /// The length of a parenthesised strength mark `(!?)` at `at`, if there is one.
    fn paren_strength(&self, at: usize) -> Result<Option<usize>, Stop> {
        let marks = self.b[at + 1..]
            .iter()
            .take_while(|&&c| c == b'!' || c == b'?')
            .count();
        match self.b.get(at + 1 + marks) {
            None if !self.eof => Err(Stop::NeedMore),
            Some(b')') if marks > 0 => Ok(Some(marks + 2)),
            _ => Ok(None),
        }
    }

    /// Attaches a strength mark written apart from its move; a mark with no move before it is
    /// kept as a comment.
    fn attach_strength(&mut self, nodes: &mut [Node], at: usize, len: usize) {
        let text = String::from_utf8_lossy(&self.b[at..at + len]).into_owned();
        self.i = at + len;
        if let Some(Node::Move(m)) = nodes.last_mut() {
            if m.strength.is_none() {
                m.strength = Some(text.into_boxed_str());
                return;
            }
        }
        // Nowhere to put it: it is dropped silently only if empty, which it is not.
        if let Some(Node::Comment(c)) = nodes.last_mut() {
            c.push_str(&text);
        }
    }

    /// Parses one game starting at `self.i` (after leading white space).
    fn game(&mut self) -> Result<Option<Game>, Stop> {
        if !self.skip_ws()? {
            return if self.eof {
                Ok(None)
            } else {
                Err(Stop::NeedMore)
            };
        }
        let pos = self.pos();
        let mut game = Game {
            pos,
            ..Game::default()
        };
        loop {
            if !self.skip_ws()? {
                break;
            }
            let bracket = self.b[self.i] == b'[';
            if !bracket && !self.looks_like_tag()? {
                break;
            }
            let tag = self.tag(bracket)?;
            game.tags.push(tag);
        }
        let (body, terminator) = self.nodes(0, self.i, self.pos())?;
        game.body = body;
        game.terminator = terminator;
        Ok(Some(game))
    }
}

impl Cursor<'_> {
    /// Whether a tag without its `[` starts here: `Name "value"]` at the start of a game.
    fn looks_like_tag(&self) -> Result<bool, Stop> {
        let rest = &self.b[self.i..];
        let name = rest.iter().take_while(|c| c.is_ascii_alphabetic()).count();
        if name == 0 {
            return Ok(false);
        }
        let spaces = rest[name..].iter().take_while(|&&c| c == b' ').count();
        match rest.get(name + spaces) {
            None if !self.eof => Err(Stop::NeedMore),
            Some(b'"') if spaces > 0 => {
                let line_end = rest.iter().position(|&c| c == b'\n').unwrap_or(rest.len());
                Ok(rest[..line_end].trim_ascii_end().ends_with(b"]"))
            }
            _ => Ok(false),
        }
    }
}

/// The value of ASCII digits (saturating at `u32::MAX`).
fn decimal(digits: &[u8]) -> u32 {
    digits.iter().fold(0u32, |n, &d| {
        n.saturating_mul(10)
            .saturating_add(u32::from(d.wrapping_sub(b'0')))
    })
}

/// Text from bytes: UTF-8 as it is, anything else with replacement characters.
fn utf8(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_owned(),
        Err(_) => String::from_utf8_lossy(bytes).into_owned(),
    }
}

fn result_token(word: &[u8]) -> Option<GameResult> {
    Some(match word {
        b"1-0" | b"2-0" => GameResult::WhiteWins,
        b"0-1" | b"0-2" => GameResult::BlackWins,
        b"1/2-1/2" | b"1-1" => GameResult::Draw,
        b"0-0" => GameResult::DoubleForfeit,
        _ => return None,
    })
}

fn decode_char(b: &[u8]) -> char {
    let n = match b.first() {
        Some(c) if *c < 0x80 => 1,
        Some(c) if *c >= 0xF0 => 4,
        Some(c) if *c >= 0xE0 => 3,
        Some(_) => 2,
        None => return '\u{FFFD}',
    };
    b.get(..n)
        .and_then(|s| std::str::from_utf8(s).ok())
        .and_then(|s| s.chars().next())
        .unwrap_or('\u{FFFD}')
}

/// Reads games from any byte source, one at a time, in bounded memory.
///
/// ```
/// use dama_notation::pdn::Reader;
/// let text = "[GameType \"20\"]\n1. 32-28 19-23 2. 28x19 14x23 2-0\n";
/// let games: Vec<_> = Reader::new(text.as_bytes()).collect();
/// assert_eq!(games.len(), 1);
/// assert_eq!(games[0].as_ref().unwrap().main_line_len(), 4);
/// ```
#[derive(Debug)]
pub struct Reader<R> {
    src: R,
    buf: Vec<u8>,
    /// Start of unread data in `buf`.
    pos: usize,
    /// End of data in `buf`.
    end: usize,
    /// Absolute offset of `buf[0]`.
    base: u64,
    eof: bool,
    st: LineState,
    /// After an error: skip to the next line that starts with `[` after this absolute offset.
    resync: Option<u64>,
    /// While skipping: whether only white space has been seen since the last line break.
    at_line_start: bool,
    done: bool,
}

impl<R: Read> Reader<R> {
    /// A reader over `src` (wrap files in nothing: the reader buffers itself).
    pub fn new(src: R) -> Self {
        Reader {
            src,
            buf: Vec::new(),
            pos: 0,
            end: 0,
            base: 0,
            eof: false,
            st: LineState {
                line: 1,
                line_start: 0,
                cont: 0,
            },
            resync: None,
            at_line_start: false,
            done: false,
        }
    }

    /// Bytes consumed so far (for progress reports).
    pub fn bytes_read(&self) -> u64 {
        self.base + self.pos as u64
    }

    /// Reads more data, keeping `buf[pos..end]`. Returns false at the end of the input.
    fn fill(&mut self) -> std::io::Result<bool> {
        if self.pos > 0 {
            self.buf.copy_within(self.pos..self.end, 0);
            self.base += self.pos as u64;
            self.end -= self.pos;
            self.pos = 0;
        }
        if self.buf.len() < self.end + READ_CHUNK {
            self.buf.resize(self.end + READ_CHUNK, 0);
        }
        loop {
            match self.src.read(&mut self.buf[self.end..]) {
                Ok(0) => {
                    self.eof = true;
                    return Ok(false);
                }
                Ok(n) => {
                    self.end += n;
                    return Ok(true);
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
    }

    /// Skips to the next line that starts with `[` after offset `after` (an error's place).
    /// Returns false if more data is needed.
    fn skip_to_next_game(&mut self, after: u64) -> bool {
        let mut i = self.pos;
        while i < self.end {
            let c = self.buf[i];
            let abs = self.base + i as u64;
            if c == b'\n' {
                self.st.line += 1;
                self.st.line_start = abs + 1;
                self.st.cont = 0;
                self.at_line_start = true;
            } else if self.at_line_start && c == b'[' && abs > after {
                self.pos = i;
                self.resync = None;
                return true;
            } else if !matches!(c, b' ' | b'\t' | b'\r') {
                self.at_line_start = false;
                if c & 0xC0 == 0x80 {
                    self.st.cont += 1;
                }
            }
            i += 1;
        }
        self.pos = i;
        if self.eof {
            self.resync = None;
            self.done = true;
            return true;
        }
        false
    }

    /// The next game, an error (after which reading goes on with the next game), or `None`
    /// at the end.
    pub fn next_game(&mut self) -> Option<Result<Game, PdnError>> {
        loop {
            if self.done {
                return None;
            }
            if let Some(after) = self.resync {
                if !self.skip_to_next_game(after) {
                    if let Err(e) = self.fill() {
                        return Some(Err(self.io_error(e)));
                    }
                }
                continue;
            }
            let mut cur = Cursor {
                b: &self.buf[self.pos..self.end],
                i: 0,
                base: self.base + self.pos as u64,
                eof: self.eof,
                st: self.st,
                nodes: 0,
            };
            match cur.game() {
                Ok(Some(game)) => {
                    self.pos += cur.i;
                    self.st = cur.st;
                    return Some(Ok(game));
                }
                Ok(None) => {
                    self.done = true;
                    return None;
                }
                Err(Stop::Error(e, at)) => {
                    // Go on with the next game that starts after the error.
                    self.resync = Some(self.base + (self.pos + at) as u64);
                    self.at_line_start = false;
                    return Some(Err(e));
                }
                Err(Stop::NeedMore) => {
                    if self.end - self.pos >= MAX_GAME_BYTES {
                        let e = PdnError {
                            pos: cur.pos_at(0),
                            kind: ErrorKind::GameTooLarge,
                        };
                        // Skip this game: from the next line that starts with '[' after
                        // its first character.
                        let blank = self.buf[self.pos..self.end]
                            .iter()
                            .take_while(|c| c.is_ascii_whitespace())
                            .count();
                        self.resync = Some(self.base + (self.pos + blank) as u64);
                        self.at_line_start = false;
                        return Some(Err(e));
                    }
                    if let Err(e) = self.fill() {
                        return Some(Err(self.io_error(e)));
                    }
                }
            }
        }
    }

    fn io_error(&mut self, e: std::io::Error) -> PdnError {
        self.done = true;
        PdnError {
            pos: TextPos {
                line: u32::try_from(self.st.line).unwrap_or(u32::MAX),
                column: 1,
            },
            kind: ErrorKind::Io(e.to_string()),
        }
    }
}

impl<R: Read> Iterator for Reader<R> {
    type Item = Result<Game, PdnError>;
    fn next(&mut self) -> Option<Self::Item> {
        self.next_game()
    }
}

/// Reads every game of a text (errors included, in order).
pub fn read_str(text: &str) -> Vec<Result<Game, PdnError>> {
    Reader::new(text.as_bytes()).collect()
}
