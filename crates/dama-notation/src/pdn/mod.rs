//! PDN 3.0: reading, replaying and writing game files.
//!
//! - [`Reader`] reads a file of any size game by game in bounded memory (one game at a time is
//!   held, at most [`MAX_GAME_BYTES`] of text). It follows PDN 3.0's lenient reading grammar:
//!   tags (any name, `[Empty]` tags, escaped quotes), movetext with comments `{…}`, nested
//!   variations `(…)`, NAGs `$n`, `%` line comments, move numbers `11.` / `11...` / `1. ...`,
//!   strength marks `!?` / `(!?)`, set-ups `/FEN "…"/`, results of both families
//!   (`2-0 1-1 0-2`, `1-0 1/2-1/2 0-1`, `0-0`, `*`), games without a terminator when the next
//!   game's tags follow, CRLF or mixed line endings, and the literal `\r` text some exporters
//!   write. Every error carries the line and column (in characters) where it was found; the
//!   reader then skips to the next game.
//! - [`replay()`] plays a game's moves (and variations) from its start position on the rules
//!   of its `GameType`, resolving each move text against the legal moves.
//! - [`write_game`] writes a game back; [`Game::from_moves`] builds one from moves.

mod reader;
mod replay;
mod writer;

pub use reader::{read_str, ErrorKind, PdnError, Reader, MAX_DEPTH, MAX_GAME_BYTES, MAX_NODES};
pub use replay::{
    convert, game_variant, replay, ReplayError, ReplayErrorKind, ReplayOptions, Replayed,
};
pub use writer::{write_game, write_games_to_string};

use crate::move_text::{MoveNumber, MoveText};
use core::fmt;
use dama_core::{Color, Variant};

/// A place in the text: 1-based line and column (the column counts characters).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TextPos {
    /// Line, from 1 (it stops counting at `u32::MAX`).
    pub line: u32,
    /// Column, from 1, in characters.
    pub column: u32,
}

impl fmt::Display for TextPos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// A tag pair `[Name "value"]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tag {
    /// The name as written.
    pub name: String,
    /// The value, escapes removed.
    pub value: String,
}

/// A move in movetext.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveNode {
    /// The move number written before it, if any.
    pub number: Option<MoveNumber>,
    /// The move as written.
    pub text: MoveText,
    /// A strength mark written right after it (`!`, `?!`, `(!)`).
    pub strength: Option<Box<str>>,
    /// Where the move text starts.
    pub pos: TextPos,
}

/// One element of movetext.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Node {
    /// A move.
    Move(MoveNode),
    /// A comment `{…}`, without the braces.
    Comment(String),
    /// A numeric annotation glyph `$n`.
    Nag(u32),
    /// A variation `(…)`: alternatives to the move before it.
    Variation(Vec<Node>),
    /// A set-up command `/…/`, without the slashes (for example `FEN "W:W31-50:B1-20"`).
    Setup(String, TextPos),
}

/// A game result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// White won (`1-0` or `2-0`).
    WhiteWins,
    /// Black won (`0-1` or `0-2`).
    BlackWins,
    /// A draw (`1/2-1/2` or `1-1`).
    Draw,
    /// Both lost (`0-0`).
    DoubleForfeit,
    /// Unfinished or unknown (`*`).
    Unknown,
}

impl GameResult {
    /// Reads a result in either family (`1-0` / `2-0`, …); spaces around are ignored.
    pub fn parse(text: &str) -> Option<GameResult> {
        Some(match text.trim() {
            "1-0" | "2-0" => GameResult::WhiteWins,
            "0-1" | "0-2" => GameResult::BlackWins,
            "1/2-1/2" | "1-1" => GameResult::Draw,
            "0-0" => GameResult::DoubleForfeit,
            "*" => GameResult::Unknown,
            _ => return None,
        })
    }

    /// The result as a variant's `GameType` writes it: International and Canadian (and
    /// dama's other 10x10 types) score a win 2-0, the others 1-0.
    pub fn text(self, variant: Variant) -> &'static str {
        let international = matches!(
            variant,
            Variant::International | Variant::Canadian | Variant::German | Variant::Antidraughts
        );
        match (self, international) {
            (GameResult::WhiteWins, true) => "2-0",
            (GameResult::WhiteWins, false) => "1-0",
            (GameResult::BlackWins, true) => "0-2",
            (GameResult::BlackWins, false) => "0-1",
            (GameResult::Draw, true) => "1-1",
            (GameResult::Draw, false) => "1/2-1/2",
            (GameResult::DoubleForfeit, _) => "0-0",
            (GameResult::Unknown, _) => "*",
        }
    }
}

/// How a file's results name the winner. The PDN standard writes `1-0` for a win of White in
/// every variant (and dama writes it so); English game archives (CheckerBoard's and the OCA's
/// among them) write `1-0` for a win of the side that moves first, which is Black there.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ResultOrder {
    /// `1-0` is a win for White.
    #[default]
    Standard,
    /// `1-0` is a win for the side that moves first.
    FirstPlayer,
}

impl core::str::FromStr for ResultOrder {
    type Err = String;

    /// `standard` or `first-player`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "standard" => Ok(ResultOrder::Standard),
            "first-player" => Ok(ResultOrder::FirstPlayer),
            _ => Err(format!("{s:?} is not standard or first-player")),
        }
    }
}

impl GameResult {
    /// The winner of a game of `variant` with this result written in `order`: `Some(None)` for
    /// a draw, `None` when the result is unknown or a double forfeit.
    pub fn winner(self, variant: Variant, order: ResultOrder) -> Option<Option<Color>> {
        let first_won = match self {
            GameResult::Draw => return Some(None),
            GameResult::WhiteWins => true,
            GameResult::BlackWins => false,
            GameResult::DoubleForfeit | GameResult::Unknown => return None,
        };
        let white_won = match order {
            ResultOrder::Standard => first_won,
            ResultOrder::FirstPlayer => first_won == (variant.first_player() == Color::White),
        };
        Some(Some(if white_won {
            Color::White
        } else {
            Color::Black
        }))
    }
}

/// One game of a PDN file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Game {
    /// The tags, in file order.
    pub tags: Vec<Tag>,
    /// The movetext of the main line.
    pub body: Vec<Node>,
    /// The terminator (result or `*`) and where it stands, if the game has one.
    pub terminator: Option<(GameResult, TextPos)>,
    /// Where the game starts.
    pub pos: TextPos,
}

impl Game {
    /// The value of a tag (names compared without regard to ASCII case).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|t| t.name.eq_ignore_ascii_case(name))
            .map(|t| t.value.as_str())
    }

    /// Sets a tag, replacing the first one of that name or appending it.
    pub fn set_tag(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        match self
            .tags
            .iter_mut()
            .find(|t| t.name.eq_ignore_ascii_case(name))
        {
            Some(t) => t.value = value,
            None => self.tags.push(Tag {
                name: name.to_owned(),
                value,
            }),
        }
    }

    /// Number of moves in the main line.
    pub fn main_line_len(&self) -> usize {
        self.body
            .iter()
            .filter(|n| matches!(n, Node::Move(_)))
            .count()
    }

    /// Whether the game has neither tags nor moves (only comments or nothing).
    pub fn is_empty(&self) -> bool {
        self.tags.is_empty() && self.main_line_len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_name_the_winner_in_either_order() {
        use Color::{Black, White};
        let (e, r) = (Variant::English, Variant::Russian);
        let (std, first) = (ResultOrder::Standard, ResultOrder::FirstPlayer);
        let w = GameResult::WhiteWins;
        let b = GameResult::BlackWins;
        assert_eq!(w.winner(e, std), Some(Some(White)));
        // Black moves first in English, White in Russian.
        assert_eq!(w.winner(e, first), Some(Some(Black)));
        assert_eq!(b.winner(e, first), Some(Some(White)));
        assert_eq!(w.winner(r, first), Some(Some(White)));
        assert_eq!(b.winner(r, std), Some(Some(Black)));
        assert_eq!(GameResult::Draw.winner(e, first), Some(None));
        assert_eq!(GameResult::Unknown.winner(e, std), None);
        assert_eq!(GameResult::DoubleForfeit.winner(r, std), None);
        assert_eq!("first-player".parse(), Ok(first));
        assert_eq!("standard".parse(), Ok(std));
        assert!("white".parse::<ResultOrder>().is_err());
    }
}
