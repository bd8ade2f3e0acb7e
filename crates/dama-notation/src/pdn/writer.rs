//! Writing games as PDN.

use super::{Game, GameResult, MoveNode, Node};
use crate::game_type::GameType;
use dama_core::{AnyMove, AnyPosition, Variant};
use std::io::{self, Write};

/// The tags written first, in this order, when a game has them (the PDN "seven tag roster").
const ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// Longest movetext line written.
const LINE_WIDTH: usize = 79;

fn escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// The variant a game's tags name (for the form of its results), if any.
fn variant_of(game: &Game) -> Option<Variant> {
    game.tag("GameType")
        .and_then(|t| GameType::parse(t).ok())
        .and_then(|gt| gt.variant())
        .map(|(v, _)| v)
}

struct Lines<'w, W: Write> {
    out: &'w mut W,
    col: usize,
}

impl<W: Write> Lines<'_, W> {
    fn token(&mut self, t: &str) -> io::Result<()> {
        if self.col > 0 && self.col + 1 + t.len() > LINE_WIDTH {
            self.out.write_all(b"\n")?;
            self.col = 0;
        } else if self.col > 0 {
            self.out.write_all(b" ")?;
            self.col += 1;
        }
        self.out.write_all(t.as_bytes())?;
        self.col += t.chars().count();
        Ok(())
    }
}

fn write_nodes<W: Write>(lines: &mut Lines<W>, nodes: &[Node]) -> io::Result<()> {
    for node in nodes {
        match node {
            Node::Move(MoveNode {
                number,
                text,
                strength,
                ..
            }) => {
                let mut t = String::new();
                if let Some(n) = number {
                    t.push_str(&n.number.to_string());
                    t.push_str(if n.continuation { "..." } else { "." });
                }
                t.push_str(&text.to_string());
                if let Some(s) = strength {
                    t.push_str(s);
                }
                lines.token(&t)?;
            }
            Node::Comment(c) => {
                // A comment cannot hold '}' in PDN.
                let c = c.replace('}', ")");
                lines.token(&format!("{{{}}}", c.trim()))?;
            }
            Node::Nag(n) => lines.token(&format!("${n}"))?,
            Node::Variation(inner) => {
                lines.token("(")?;
                // No space after '(' or before ')'.
                lines.col = lines.col.saturating_sub(0);
                write_nodes(lines, inner)?;
                lines.token(")")?;
            }
            Node::Setup(text, _) => lines.token(&format!("/{}/", text.replace('/', " ")))?,
        }
    }
    Ok(())
}

/// Writes a game: the tags (the seven-tag roster first), a blank line, the movetext wrapped at
/// 79 columns, the result in the form its `GameType` uses, and a blank line.
///
/// # Errors
/// Any error of `out`.
pub fn write_game<W: Write>(out: &mut W, game: &Game) -> io::Result<()> {
    let variant = variant_of(game).unwrap_or(Variant::International);
    let normalise = |value: &str| match GameResult::parse(value) {
        Some(r) => r.text(variant).to_owned(),
        None => value.to_owned(),
    };
    for name in ROSTER {
        if let Some(t) = game.tags.iter().find(|t| t.name == name) {
            let value = if name == "Result" {
                normalise(&t.value)
            } else {
                t.value.clone()
            };
            writeln!(out, "[{} \"{}\"]", t.name, escape(&value))?;
        }
    }
    for t in &game.tags {
        if !ROSTER.contains(&t.name.as_str()) {
            writeln!(out, "[{} \"{}\"]", t.name, escape(&t.value))?;
        }
    }
    if !game.tags.is_empty() {
        writeln!(out)?;
    }
    let mut lines = Lines { out, col: 0 };
    write_nodes(&mut lines, &game.body)?;
    let result = game.terminator.map(|(r, _)| r).unwrap_or_else(|| {
        game.tag("Result")
            .and_then(GameResult::parse)
            .unwrap_or(GameResult::Unknown)
    });
    lines.token(result.text(variant))?;
    lines.out.write_all(b"\n\n")?;
    Ok(())
}

/// Writes games to a string.
pub fn write_games_to_string(games: &[Game]) -> String {
    let mut out = Vec::new();
    for g in games {
        // Writing to a Vec cannot fail.
        let _ = write_game(&mut out, g);
    }
    String::from_utf8_lossy(&out).into_owned()
}

impl Game {
    /// A game of `variant` from `start` with these moves (each legal in turn), numbered and
    /// written in the variant's standard notation, with its `GameType` tag and a `FEN` tag when
    /// `start` is not the start position. Moves that are not legal are left out, as is
    /// everything after them.
    pub fn from_moves(
        variant: Variant,
        start: &AnyPosition,
        moves: &[AnyMove],
        result: GameResult,
    ) -> Game {
        let mut game = Game::default();
        game.set_tag("Result", result.text(variant));
        game.set_tag("GameType", GameType::of(variant).to_string());
        if *start != AnyPosition::start(variant) {
            game.set_tag("SetUp", "1");
            game.set_tag("FEN", start.fen());
        }
        let mut pos = *start;
        let first = variant.first_player();
        let mut number = 1u32;
        for (i, m) in moves.iter().enumerate() {
            let text = crate::move_text::write_move(&pos, m);
            let Ok(text) = crate::move_text::MoveText::parse(&text) else {
                break;
            };
            let mover_is_first = pos.side_to_move() == first;
            let number_here = if mover_is_first {
                Some(crate::move_text::MoveNumber {
                    number,
                    continuation: false,
                })
            } else if i == 0 {
                Some(crate::move_text::MoveNumber {
                    number,
                    continuation: true,
                })
            } else {
                None
            };
            let Ok(next) = pos.play(m) else {
                break;
            };
            if !mover_is_first {
                number += 1;
            }
            game.body.push(Node::Move(MoveNode {
                number: number_here,
                text,
                strength: None,
                pos: Default::default(),
            }));
            pos = next;
        }
        game.terminator = Some((result, Default::default()));
        game
    }
}
