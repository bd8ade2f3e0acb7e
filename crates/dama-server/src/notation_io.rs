//! PDN export and PDN/FEN import for the web application, on top of `dama-notation`'s PDN
//! reader, replay and writer. The server reads the first game of a text, its main line only
//! (comments and variations are skipped), and writes each finished or running game with the
//! seven-tag roster, its `GameType`, a `FEN` tag when it did not start from the start position,
//! its clock and how it ended.

use crate::state::{GameState, Mode, Ply};
use dama_core::{AnyPosition, Color, Variant};
use dama_notation::pdn::{self, GameResult, ReplayOptions};
use std::fmt;

/// Most moves read from one game.
pub const MAX_IMPORT_PLIES: usize = 3000;

/// PDN tag pairs, in order.
pub type Tags = Vec<(String, String)>;

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
    /// A bad FEN.
    BadFen(String),
    /// The PDN could not be read (the reader's message, with line and column).
    Pdn(String),
    /// A move is not legal, or the game type is unknown (the replay's message).
    Replay(String),
    /// More moves than [`MAX_IMPORT_PLIES`].
    TooLong,
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ImportError::Empty => f.write_str("nothing to read"),
            ImportError::UnknownVariant(s) => write!(f, "unknown variant: {s}"),
            ImportError::BadFen(e) => write!(f, "bad FEN: {e}"),
            ImportError::Pdn(e) => write!(f, "{e}"),
            ImportError::Replay(e) => write!(f, "{e}"),
            ImportError::TooLong => write!(f, "more than {MAX_IMPORT_PLIES} moves"),
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
    let game = pdn::read_str(text)
        .into_iter()
        .next()
        .ok_or(ImportError::Empty)?
        .map_err(|e| ImportError::Pdn(e.to_string()))?;
    if game.tag("GameType").is_none() && game.tag("Variant").is_none() && fallback.is_none() {
        return Err(ImportError::UnknownVariant("no GameType tag".into()));
    }
    if game.main_line_len() > MAX_IMPORT_PLIES {
        return Err(ImportError::TooLong);
    }
    let options = ReplayOptions {
        default_variant: fallback.unwrap_or(Variant::International),
        variations: false,
        keep_moves: true,
    };
    let replayed = pdn::replay(&game, &options).map_err(|e| ImportError::Replay(e.to_string()))?;
    let mut pos = replayed.start;
    let mut plies = Vec::with_capacity(replayed.moves.len());
    for m in &replayed.moves {
        let path = pos
            .paths(m)
            .into_iter()
            .next()
            .unwrap_or_else(|| vec![m.from, m.to]);
        let notation = dama_notation::write_move(&pos, m);
        let next = pos
            .play(m)
            .map_err(|_| ImportError::Replay("the replay produced an illegal move".into()))?;
        plies.push(Ply {
            m: *m,
            path,
            notation,
            color: pos.side_to_move(),
            fen_after: next.fen(),
        });
        pos = next;
    }
    Ok(Imported {
        start: replayed.start,
        plies,
        tags: game
            .tags
            .iter()
            .map(|t| (t.name.clone(), t.value.clone()))
            .collect(),
        result: game
            .terminator
            .map(|(r, _)| r.text(replayed.variant).to_owned()),
    })
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
    let result = match state.game.outcome() {
        None => GameResult::Unknown,
        Some(o) => match o.winner {
            Some(Color::White) => GameResult::WhiteWins,
            Some(Color::Black) => GameResult::BlackWins,
            None => GameResult::Draw,
        },
    };
    let moves: Vec<_> = state.plies.iter().map(|p| p.m).collect();
    let mut game = pdn::Game::from_moves(variant, state.game.start_position(), &moves, result);
    let event = match state.settings.mode {
        Mode::Computer => "Game against the computer",
        Mode::Friend => "Friendly game",
        Mode::Local => "Game on one device",
        Mode::Lobby => "Lobby game",
    };
    game.set_tag("Event", event);
    game.set_tag("Site", "dama");
    game.set_tag("Date", pdn_date(state.created_ms));
    game.set_tag("Round", "-");
    game.set_tag("White", player(Color::White));
    game.set_tag("Black", player(Color::Black));
    if let Some(tc) = state.settings.time_control {
        game.set_tag(
            "TimeControl",
            format!("{}+{}", tc.initial_s, tc.increment_s),
        );
    }
    if let Some(o) = state.game.outcome() {
        game.set_tag("Termination", o.reason.description());
    }
    pdn::write_games_to_string(&[game])
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
            Err(ImportError::Replay(_))
        ));
        assert!(matches!(
            import("1. c3-d4", None),
            Err(ImportError::UnknownVariant(_))
        ));
        assert!(matches!(
            import("[GameType \"77\"] 1. c3-d4", None),
            Err(ImportError::Replay(_))
        ));
        assert!(matches!(
            import("1. c3-d4 {open", Some(Variant::Russian)),
            Err(ImportError::Pdn(_))
        ));
        assert!(matches!(
            import("[Event \"x] 1.", Some(Variant::Russian)),
            Err(ImportError::Pdn(_))
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
            Settings::of_mode(Mode::Friend),
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
        assert!(pdn.contains("1.c3-d4 b6-a5 2.b2-c3"), "{pdn}");
        assert!(pdn.trim_end().ends_with("d2:b8 1-0"), "{pdn}");
        let back = import(&pdn, None).unwrap();
        assert_eq!(back.plies, state.plies);
    }

    #[test]
    fn games_from_a_set_up_position_carry_it_and_number_from_black() {
        let start = AnyPosition::from_fen(Variant::Russian, "B:Wc3:Bf6").unwrap();
        let mut state = GameState::new("g".into(), 0, start, Settings::of_mode(Mode::Local));
        for color in [Side::White, Side::Black] {
            state
                .apply(&Record::Seated {
                    color,
                    token: "t".into(),
                    name: String::new(),
                })
                .unwrap();
        }
        for path in [["f6", "g5"], ["c3", "d4"]] {
            state
                .apply(&Record::Moved {
                    path: path.iter().map(|s| s.to_string()).collect(),
                    clock: None,
                })
                .unwrap();
        }
        let pdn = game_to_pdn(&state);
        assert!(pdn.contains("[FEN \"B:Wc3:Bf6\"]"), "{pdn}");
        assert!(pdn.contains("1...f6-g5 2.c3-d4 *"), "{pdn}");
        let back = import(&pdn, None).unwrap();
        assert_eq!(back.start, start);
        assert_eq!(back.plies, state.plies);
    }
}
