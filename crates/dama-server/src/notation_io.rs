//! PDN export and PDN/FEN import for the web application.
//!
//! This is the one place the server reads and writes game files, so that it can switch to the
//! `dama-notation` crate's full PDN reader and writer in one step when that lands. It covers
//! what the application needs: one game per file, tags, move numbers, comments, variations and
//! NAGs skipped, moves written with `-`, `x` or `:` (full paths, start and end only, and the
//! short Russian forms `cd4` and `c:e5`), and the results of every PDN convention.

use crate::state::{GameState, Mode, Ply};
use dama_core::{AnyMove, AnyPosition, Color, Game, Square, Variant};
use std::fmt;

/// Most moves read from one game.
pub const MAX_IMPORT_PLIES: usize = 3000;

/// A game read from PDN or FEN.
#[derive(Clone, Debug)]
pub struct Imported {
    /// The start position.
    pub start: AnyPosition,
    /// The moves.
    pub plies: Vec<Ply>,
    /// The PDN tags, in order.
    pub tags: Tags,
    /// The result token, if the text had one.
    pub result: Option<String>,
}

/// Why a text could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ImportError {
    /// Nothing but blanks.
    Empty,
    /// The variant is not given and was not chosen.
    UnknownVariant(String),
    /// A bad FEN (in the text or its `FEN` tag).
    BadFen(String),
    /// A tag line that is not `[Name "value"]`.
    BadTag(String),
    /// A move that is not legal at that point.
    IllegalMove {
        /// Move number as written (1-based ply).
        ply: usize,
        /// The text.
        text: String,
    },
    /// A move that fits several legal moves.
    AmbiguousMove {
        /// Ply number.
        ply: usize,
        /// The text.
        text: String,
    },
    /// More moves than [`MAX_IMPORT_PLIES`].
    TooLong,
    /// A comment or variation that is not closed.
    Unclosed(char),
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ImportError::Empty => f.write_str("nothing to read"),
            ImportError::UnknownVariant(s) => write!(f, "unknown variant: {s}"),
            ImportError::BadFen(e) => write!(f, "bad FEN: {e}"),
            ImportError::BadTag(s) => write!(f, "bad tag: {s}"),
            ImportError::IllegalMove { ply, text } => {
                write!(f, "move {} ('{text}') is not legal", ply.div_ceil(2))
            }
            ImportError::AmbiguousMove { ply, text } => write!(
                f,
                "move {} ('{text}') fits several legal moves; write its full path",
                ply.div_ceil(2)
            ),
            ImportError::TooLong => write!(f, "more than {MAX_IMPORT_PLIES} moves"),
            ImportError::Unclosed(c) => write!(f, "a '{c}' is never closed"),
        }
    }
}

impl std::error::Error for ImportError {}

/// Whether the text is a FEN rather than PDN.
fn looks_like_fen(text: &str) -> bool {
    let t = text.trim_start();
    let mut chars = t.chars();
    matches!(
        (chars.next(), chars.next()),
        (Some('W' | 'B' | 'w' | 'b' | '?'), Some(':'))
    )
}

/// Reads a FEN or the first game of a PDN text. `fallback` is the variant when the text does
/// not name one (a FEN, or a PDN without `GameType`).
///
/// # Errors
/// An [`ImportError`] naming the first problem.
pub fn import(text: &str, fallback: Option<Variant>) -> Result<Imported, ImportError> {
    if text.trim().is_empty() {
        return Err(ImportError::Empty);
    }
    if looks_like_fen(text) {
        let variant =
            fallback.ok_or_else(|| ImportError::UnknownVariant("choose the variant".into()))?;
        let start = AnyPosition::from_fen(variant, text.trim())
            .map_err(|e| ImportError::BadFen(e.to_string()))?;
        return Ok(Imported {
            start,
            plies: Vec::new(),
            tags: Vec::new(),
            result: None,
        });
    }
    let (tags, movetext) = split_tags(text)?;
    let tag = |name: &str| {
        tags.iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    };
    let variant = match tag("GameType") {
        Some(gt) => {
            let number = gt.split(',').next().unwrap_or("").trim();
            number
                .parse::<u32>()
                .ok()
                .and_then(Variant::from_game_type)
                .ok_or_else(|| ImportError::UnknownVariant(format!("GameType {gt}")))?
        }
        None => fallback.ok_or_else(|| ImportError::UnknownVariant("no GameType tag".into()))?,
    };
    let start = match tag("FEN") {
        Some(fen) if !fen.trim().is_empty() => AnyPosition::from_fen(variant, fen.trim())
            .map_err(|e| ImportError::BadFen(e.to_string()))?,
        _ => AnyPosition::start(variant),
    };
    let (tokens, result) = move_tokens(movetext)?;
    let mut game = Game::from_position(start);
    let mut plies = Vec::new();
    for text in tokens {
        if plies.len() >= MAX_IMPORT_PLIES {
            return Err(ImportError::TooLong);
        }
        let ply_no = plies.len() + 1;
        let before = *game.position();
        let (m, path) = resolve_text(&before, &text, ply_no)?;
        let notation = dama_notation::write_move(&before, &m);
        game.play(&m).map_err(|_| ImportError::IllegalMove {
            ply: ply_no,
            text: text.clone(),
        })?;
        plies.push(Ply {
            m,
            path,
            notation,
            color: before.side_to_move(),
            fen_after: game.position().fen(),
        });
    }
    Ok(Imported {
        start,
        plies,
        tags,
        result,
    })
}

/// Splits the tag pairs from the movetext of the first game.
/// PDN tag pairs, in order.
pub type Tags = Vec<(String, String)>;

fn split_tags(text: &str) -> Result<(Tags, &str), ImportError> {
    let mut tags = Vec::new();
    let mut rest = text.trim_start_matches('\u{feff}');
    loop {
        rest = rest.trim_start();
        if !rest.starts_with('[') {
            break;
        }
        let end = rest
            .find(']')
            .ok_or_else(|| ImportError::BadTag(rest.chars().take(40).collect()))?;
        let inner = rest[1..end].trim();
        let (name, value) = inner
            .split_once(char::is_whitespace)
            .ok_or_else(|| ImportError::BadTag(inner.chars().take(40).collect()))?;
        let value = value.trim();
        let value = value
            .strip_prefix('"')
            .and_then(|v| v.strip_suffix('"'))
            .ok_or_else(|| ImportError::BadTag(inner.chars().take(40).collect()))?;
        tags.push((name.to_owned(), value.replace("\\\"", "\"")));
        rest = &rest[end + 1..];
    }
    // The first game ends where the next game's tags begin.
    let end = rest.find("\n[").unwrap_or(rest.len());
    Ok((tags, &rest[..end]))
}

const RESULTS: [&str; 8] = ["1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*"];

/// The move tokens and the result of a movetext.
fn move_tokens(movetext: &str) -> Result<(Vec<String>, Option<String>), ImportError> {
    let mut tokens = Vec::new();
    let mut result = None;
    let mut chars = movetext.chars().peekable();
    let mut word = String::new();
    let flush = |word: &mut String, tokens: &mut Vec<String>, result: &mut Option<String>| {
        let w = std::mem::take(word);
        // Strip a move number stuck to the move: "12.c3-d4", "12...f6-g5".
        let w = match w.find('.') {
            Some(i) if w[..i].bytes().all(|b| b.is_ascii_digit()) => {
                w[i..].trim_start_matches('.').to_owned()
            }
            _ => w,
        };
        let w = w.trim_end_matches(['!', '?', '+', '#', '*']).to_owned();
        if w.is_empty() || w.starts_with('$') {
            return;
        }
        if RESULTS.contains(&w.as_str()) {
            *result = Some(w);
            return;
        }
        tokens.push(w);
    };
    while let Some(c) = chars.next() {
        match c {
            '{' => {
                flush(&mut word, &mut tokens, &mut result);
                if !chars.by_ref().any(|c| c == '}') {
                    return Err(ImportError::Unclosed('{'));
                }
            }
            '(' => {
                flush(&mut word, &mut tokens, &mut result);
                let mut depth = 1;
                for c in chars.by_ref() {
                    match c {
                        '(' => depth += 1,
                        ')' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                if depth != 0 {
                    return Err(ImportError::Unclosed('('));
                }
            }
            ';' => {
                flush(&mut word, &mut tokens, &mut result);
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
            }
            '*' if word.is_empty() => result = Some("*".into()),
            c if c.is_whitespace() => flush(&mut word, &mut tokens, &mut result),
            c => word.push(c),
        }
    }
    flush(&mut word, &mut tokens, &mut result);
    Ok((tokens, result))
}

/// One part of a written move: a square, or only a file letter (short Russian notation).
enum Part {
    Square(Square),
    File(u8),
}

/// Resolves a move text against the legal moves of `pos`.
fn resolve_text(
    pos: &AnyPosition,
    text: &str,
    ply: usize,
) -> Result<(AnyMove, Vec<Square>), ImportError> {
    let variant = pos.variant();
    let illegal = || ImportError::IllegalMove {
        ply,
        text: text.to_owned(),
    };
    let lower = text.to_ascii_lowercase();
    let mut raw: Vec<&str> = lower.split(['-', 'x', ':']).collect();
    // "cd4": a file letter glued to the target square.
    let glued;
    if raw.len() == 1 {
        let b = lower.as_bytes();
        if b.len() >= 3 && b[0].is_ascii_lowercase() && b[1].is_ascii_lowercase() {
            glued = [&lower[..1], &lower[1..]];
            raw = glued.to_vec();
        } else {
            return Err(illegal());
        }
    }
    let mut parts = Vec::with_capacity(raw.len());
    for (i, p) in raw.iter().enumerate() {
        if i == 0 && p.len() == 1 && p.as_bytes()[0].is_ascii_lowercase() {
            parts.push(Part::File(p.as_bytes()[0]));
        } else {
            parts.push(Part::Square(variant.parse_square(p).ok_or_else(illegal)?));
        }
    }
    let Some(Part::Square(to)) = parts.last() else {
        return Err(illegal());
    };
    let to = *to;
    let from_matches = |sq: Square| match &parts[0] {
        Part::Square(s) => *s == sq,
        Part::File(f) => variant
            .algebraic_name(sq)
            .is_some_and(|n| n.as_bytes()[0] == *f),
    };
    let inner: Vec<Square> = parts[1..parts.len() - 1]
        .iter()
        .filter_map(|p| match p {
            Part::Square(s) => Some(*s),
            Part::File(_) => None,
        })
        .collect();
    let mut found: Vec<(AnyMove, Vec<Square>)> = Vec::new();
    for m in pos.legal_moves() {
        if m.to != to || !from_matches(m.from) {
            continue;
        }
        let paths = if m.is_capture() {
            pos.paths(&m)
        } else {
            vec![vec![m.from, m.to]]
        };
        // The written landing squares must appear in order along a path.
        let fits = |path: &Vec<Square>| {
            let mut it = path.iter();
            inner.iter().all(|s| it.any(|p| p == s))
        };
        if let Some(path) = paths.iter().find(|p| fits(p)) {
            found.push((m, path.clone()));
        }
    }
    match found.len() {
        0 => Err(illegal()),
        1 => Ok(found.remove(0)),
        _ => Err(ImportError::AmbiguousMove {
            ply,
            text: text.to_owned(),
        }),
    }
}

/// Whether a variant writes results as 2-0 / 1-1 / 0-2 (the International family) rather
/// than 1-0 / 1/2-1/2 / 0-1.
fn two_point_results(variant: Variant) -> bool {
    use Variant::*;
    matches!(
        variant,
        International | Brazilian | Canadian | Frisian | Antidraughts | German
    )
}

fn result_token(variant: Variant, winner: Option<Option<Color>>) -> &'static str {
    let two = two_point_results(variant);
    match winner {
        None => "*",
        Some(Some(Color::White)) => {
            if two {
                "2-0"
            } else {
                "1-0"
            }
        }
        Some(Some(Color::Black)) => {
            if two {
                "0-2"
            } else {
                "0-1"
            }
        }
        Some(None) => {
            if two {
                "1-1"
            } else {
                "1/2-1/2"
            }
        }
    }
}

/// The calendar date (`YYYY.MM.DD`) of a time in ms since the epoch (UTC).
fn pdn_date(ms: i64) -> String {
    // Days to civil date (proleptic Gregorian), after Howard Hinnant's algorithm.
    let days = ms.div_euclid(86_400_000);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Writes a game as PDN.
pub fn game_to_pdn(state: &GameState) -> String {
    let variant = state.variant();
    let player = |c: Color| -> String {
        if state.is_computer(c) {
            format!("dama computer, level {}", state.settings.level.unwrap_or(1))
        } else {
            match &state.seats[c.index()] {
                Some(s) if !s.name.is_empty() => s.name.clone(),
                _ => "?".into(),
            }
        }
    };
    let result = result_token(variant, state.game.outcome().map(|o| o.winner));
    let mut out = String::new();
    let event = match state.settings.mode {
        Mode::Computer => "Game against the computer",
        Mode::Friend => "Friendly game",
        Mode::Local => "Game on one device",
        Mode::Lobby => "Lobby game",
    };
    let mut tag = |k: &str, v: &str| out.push_str(&format!("[{k} \"{}\"]\n", escape(v)));
    tag("Event", event);
    tag("Site", "dama");
    tag("Date", &pdn_date(state.created_ms));
    tag("White", &player(Color::White));
    tag("Black", &player(Color::Black));
    tag("Result", result);
    tag("GameType", &variant.game_type().to_string());
    let start = state.game.start_position();
    if *start != AnyPosition::start(variant) {
        tag("FEN", &start.fen());
    }
    if let Some(tc) = state.settings.time_control {
        tag(
            "TimeControl",
            &format!("{}+{}", tc.initial_s, tc.increment_s),
        );
    }
    if let Some(o) = state.game.outcome() {
        tag("Termination", o.reason.description());
    }
    out.push('\n');
    out.push_str(&movetext(state.game.start_position(), &state.plies, result));
    out.push('\n');
    out
}

/// Numbered movetext, wrapped at 79 columns.
fn movetext(start: &AnyPosition, plies: &[Ply], result: &str) -> String {
    let first = start.variant().first_player();
    let mut words = Vec::new();
    // Moves are numbered in pairs beginning with the variant's first player.
    let mut number = 1;
    let mut offset = 0;
    if start.side_to_move() != first {
        words.push("1...".to_owned());
        offset = 1;
    }
    for (i, ply) in plies.iter().enumerate() {
        let k = i + offset;
        if k % 2 == 0 {
            number = k / 2 + 1;
            words.push(format!("{number}."));
        }
        words.push(ply.notation.clone());
    }
    let _ = number;
    words.push(result.to_owned());
    let mut out = String::new();
    let mut line = 0;
    for (i, w) in words.iter().enumerate() {
        // A move number stays on the line of its move.
        let glue = i > 0 && words[i - 1].ends_with('.');
        if i > 0 {
            if !glue && line + 1 + w.len() > 79 {
                out.push('\n');
                line = 0;
            } else {
                out.push(' ');
                line += 1;
            }
        }
        out.push_str(w);
        line += w.len();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::{Record, Settings, Side};

    const WORKED: &str = "1.cd4 ba5 2.bc3 cb6 3.gh4 dc5 4.hg3 bc7 5.cb4 a:e5 6.ed4 c:e3 7.d:b8";

    #[test]
    fn reads_the_worked_example_in_short_notation() {
        let game = import(WORKED, Some(Variant::Russian)).unwrap();
        assert_eq!(game.plies.len(), 13);
        assert_eq!(game.plies[9].notation, "a5:e5");
        let last = &game.plies[12];
        assert_eq!(
            last.path
                .iter()
                .map(|s| Variant::Russian.square_name(*s))
                .collect::<Vec<_>>(),
            ["d2", "f4", "d6", "b8"]
        );
        // The same game written with full paths, tags, comments and a variation.
        let pdn = "[Event \"x\"]\n[GameType \"25\"]\n\n1. c3-d4 b6-a5 {a comment} 2. b2-c3 \
                   (2. e3-f4 f6-g5) c7-b6 3. g3-h4 $1 d6-c5 4. h2-g3 b8-c7 5. c3-b4 a5:c3:e5 \
                   6. e3-d4 c5:e3 7. d2:f4:d6:b8 1-0";
        let game2 = import(pdn, None).unwrap();
        assert_eq!(game2.plies, game.plies);
        assert_eq!(game2.result.as_deref(), Some("1-0"));
        assert_eq!(game2.tags[0], ("Event".into(), "x".into()));
    }

    #[test]
    fn errors_are_typed() {
        assert_eq!(import("  ", None).unwrap_err(), ImportError::Empty);
        assert!(matches!(
            import("1. c3-c5", Some(Variant::Russian)),
            Err(ImportError::IllegalMove { ply: 1, .. })
        ));
        assert!(matches!(
            import("1. c3-d4", None),
            Err(ImportError::UnknownVariant(_))
        ));
        assert!(matches!(
            import("[GameType \"77\"] 1. c3-d4", None),
            Err(ImportError::UnknownVariant(_))
        ));
        assert!(matches!(
            import("1. c3-d4 {open", Some(Variant::Russian)),
            Err(ImportError::Unclosed('{'))
        ));
        assert!(matches!(
            import("[Event \"x] 1.", Some(Variant::Russian)),
            Err(ImportError::BadTag(_))
        ));
        assert!(matches!(
            import("W:Wz9:B1", Some(Variant::International)),
            Err(ImportError::BadFen(_))
        ));
    }

    #[test]
    fn reads_fen_and_fen_tags() {
        let g = import("W:W31-50:B1-20", Some(Variant::International)).unwrap();
        assert_eq!(g.start, AnyPosition::start(Variant::International));
        let g = import(
            "[GameType \"20\"]\n[FEN \"W:W26:B12,K21,31,32\"]\n1. 26x8 *",
            None,
        )
        .unwrap();
        assert_eq!(g.plies.len(), 1);
        assert_eq!(g.result.as_deref(), Some("*"));
    }

    #[test]
    fn pdn_round_trips_through_import() {
        let mut state = GameState::new(
            "g".into(),
            1_767_225_600_000, // 2026-01-01
            AnyPosition::start(Variant::Russian),
            Settings {
                mode: Mode::Friend,
                level: None,
                computer: None,
                time_control: None,
                invite: None,
                rematch_of: None,
                creator: None,
                creator_name: None,
            },
        );
        for (color, token, name) in [(Side::White, "a", "Asha"), (Side::Black, "b", "")] {
            state
                .apply(&Record::Seated {
                    color,
                    token: token.into(),
                    name: name.into(),
                })
                .unwrap();
        }
        let game = import(WORKED, Some(Variant::Russian)).unwrap();
        for ply in &game.plies {
            let path = ply
                .path
                .iter()
                .map(|s| Variant::Russian.square_name(*s))
                .collect();
            state.apply(&Record::Moved { path, clock: None }).unwrap();
        }
        state.apply(&Record::Resigned { by: Side::Black }).unwrap();
        let pdn = game_to_pdn(&state);
        assert!(pdn.contains("[Date \"2026.01.01\"]"), "{pdn}");
        assert!(pdn.contains("[White \"Asha\"]"));
        assert!(pdn.contains("[Black \"?\"]"));
        assert!(pdn.contains("[GameType \"25\"]"));
        assert!(pdn.contains("[Result \"1-0\"]"));
        assert!(pdn.contains("1. c3-d4 b6-a5 2. b2-c3"), "{pdn}");
        assert!(pdn.trim_end().ends_with("d2:b8 1-0"), "{pdn}");
        let back = import(&pdn, None).unwrap();
        assert_eq!(back.plies, state.plies);
    }

    #[test]
    fn black_first_and_odd_starts_are_numbered() {
        let english = AnyPosition::start(Variant::English);
        let g = import("1. 11-15 23-19 2. 8-11", Some(Variant::English)).unwrap();
        let text = movetext(&english, &g.plies, "*");
        assert_eq!(text, "1. 11-15 23-19 2. 8-11 *");
        // A Russian position with Black to move starts with "1...".
        let start = AnyPosition::from_fen(Variant::Russian, "B:Wc3:Bf6").unwrap();
        let g = import(
            "[FEN \"B:Wc3:Bf6\"] 1... f6-g5 2. c3-d4",
            Some(Variant::Russian),
        )
        .unwrap();
        assert_eq!(movetext(&start, &g.plies, "*"), "1... f6-g5 2. c3-d4 *");
    }
}
