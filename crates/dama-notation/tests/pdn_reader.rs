//! The PDN reader and replay on small texts: the grammar's constructs, errors with their
//! places, and the size limits.

use dama_core::Variant;
use dama_notation::pdn::{
    self, read_str, ErrorKind, Game, GameResult, Node, ReplayErrorKind, ReplayOptions, MAX_DEPTH,
    MAX_GAME_BYTES,
};
use dama_notation::MoveError;

fn one(text: &str) -> Game {
    let mut games = read_str(text);
    assert_eq!(games.len(), 1, "{games:?}");
    games.remove(0).unwrap()
}

fn error(text: &str) -> pdn::PdnError {
    read_str(text)
        .into_iter()
        .find_map(Result::err)
        .unwrap_or_else(|| panic!("no error in {text:?}"))
}

#[test]
fn tags() {
    let g = one(
        "[Event \"A \\\"quoted\\\" name\"]\n[Empty]\n[Event2   \"x\"]\n[Type de jeu \"20\"]\n\
         [Black \"D\\'Almeida\"]\n[Result \" 0-1\"]\n1. 32-28 *",
    );
    assert_eq!(g.tag("event"), Some("A \"quoted\" name"));
    assert_eq!(g.tag("Empty"), Some(""));
    assert_eq!(g.tag("Event2"), Some("x"));
    assert_eq!(g.tag("Type de jeu"), Some("20"));
    assert_eq!(g.tag("Black"), Some("D'Almeida"));
    assert_eq!(g.main_line_len(), 1);
    assert_eq!(g.terminator.unwrap().0, GameResult::Unknown);
}

#[test]
fn movetext_constructs() {
    let g = one(
        "% a line comment\n1. 32-28! {comment} 19-23?! $3 (18-23 (17-22) 2. 38-32) \
         2. 28x19(!?) 14x23 3.33-28 /FEN \"W:W28,33:B23\"/ 2-0",
    );
    let moves: Vec<String> = g
        .body
        .iter()
        .filter_map(|n| match n {
            Node::Move(m) => Some(format!(
                "{}{}",
                m.text,
                m.strength.as_deref().unwrap_or_default()
            )),
            _ => None,
        })
        .collect();
    assert_eq!(moves, ["32-28!", "19-23?!", "28x19(!?)", "14x23", "33-28"]);
    assert!(g.body.iter().any(|n| matches!(n, Node::Nag(3))));
    assert!(g
        .body
        .iter()
        .any(|n| matches!(n, Node::Comment(c) if c == "comment")));
    let variation = g
        .body
        .iter()
        .find_map(|n| match n {
            Node::Variation(v) => Some(v),
            _ => None,
        })
        .unwrap();
    assert!(variation.iter().any(|n| matches!(n, Node::Variation(_))));
    assert!(g.body.iter().any(|n| matches!(n, Node::Setup(..))));
    assert_eq!(g.terminator.unwrap().0, GameResult::WhiteWins);
    // The variations replay from the position before the move they replace; the set-up
    // replaces the position.
    let r = pdn::replay(&g, &ReplayOptions::default()).unwrap();
    assert_eq!(r.plies, 5);
    assert_eq!(r.variation_plies, 3);
}

#[test]
fn results_and_separators() {
    let text = "1. 32-28 1/2-1/2 1. 33-28 0-2 [GameType \"25\"] 1. c3-d4 1-0 1. 31-26 *\n\
                1. 34-29 1-1 1. 35-30 0-0";
    let games: Vec<Game> = read_str(text).into_iter().map(Result::unwrap).collect();
    let results: Vec<GameResult> = games.iter().map(|g| g.terminator.unwrap().0).collect();
    use GameResult::*;
    assert_eq!(
        results,
        [Draw, BlackWins, WhiteWins, Unknown, Draw, DoubleForfeit]
    );
    // A game without a terminator ends where the next game's tags start.
    let games = read_str("[Event \"a\"]\n1. 32-28 18-23\n[Event \"b\"]\n1. 33-28 *");
    assert_eq!(games.len(), 2);
    assert!(games[0].as_ref().unwrap().terminator.is_none());
    // A lone "-" before the next game is "no result", elsewhere a placeholder.
    let games = read_str("1. 32-28 -\n[Event \"b\"]\n1. 33-28 *");
    assert_eq!(games.len(), 2);
    assert!(games.iter().all(Result::is_ok));
    assert_eq!(error("1. - - 2. 32-28 *").kind, ErrorKind::Placeholder);
}

#[test]
fn move_numbers() {
    let g = one("[FEN \"B:W31-50:B1-20\"]\n1. ... 20-25 2. 32-28 2...25-30 *");
    let r = pdn::replay(&g, &ReplayOptions::default()).unwrap();
    assert_eq!(r.plies, 3);
    let g = one("1.32-28 1...19-23 2.28x19 *");
    assert_eq!(pdn::replay(&g, &ReplayOptions::default()).unwrap().plies, 3);
    // A move number with no move: the reference grammar rejects "1. 2-0".
    let e = error("[Event \"x\"]\n1. 2-0");
    assert_eq!(e.kind, ErrorKind::DanglingMoveNumber("1.".into()));
    assert_eq!((e.pos.line, e.pos.column), (2, 1));
    assert!(matches!(
        error("1. 32-28 2.\n[Event \"y\"]").kind,
        ErrorKind::DanglingMoveNumber(_)
    ));
}

#[test]
fn quirks_of_real_files() {
    // Space-padded squares, literal "\r" text, prose glued to a move, stray brackets.
    let g = one(
        "[Event \"a\"]\\r\n1. 32-28 19-23  2. 37-32  14-19 3. 41-37  9-14\\r\n4. 46-41 10-15 *",
    );
    assert!(g.body.iter().any(|n| matches!(n, Node::Move(_))));
    let g = one("1. 32-28 18- 23 2. 38-32 12-18Blackoverstepped. *");
    assert_eq!(pdn::replay(&g, &ReplayOptions::default()).unwrap().plies, 4);
    assert!(g
        .body
        .iter()
        .any(|n| matches!(n, Node::Comment(c) if c == "Blackoverstepped.")));
    let games = read_str("[\n[Event \"a\"]\n1. 32-28 *\n[[Event \"b\"]\n1. 33-28 *");
    assert_eq!(games.len(), 2);
    assert!(games.iter().all(Result::is_ok), "{games:?}");
    assert_eq!(games[1].as_ref().unwrap().tag("Event"), Some("b"));
}

#[test]
fn errors_have_lines_and_character_columns() {
    // Columns count characters, not bytes: the Cyrillic comment is 11 characters, 22 bytes.
    let e = error("[Event \"x\"]\n\n1. 32-28 {Комментарий} 19-23 #");
    assert_eq!(e.kind, ErrorKind::UnexpectedChar('#'));
    assert_eq!((e.pos.line, e.pos.column), (3, 30));
    let e = error("1. 33-29 19-23 2. 35-30 { nested { comment } }\r\n");
    assert_eq!(
        (e.pos.line, e.pos.column, e.kind),
        (1, 46, ErrorKind::UnexpectedChar('}'))
    );
    let e = error("1. 32-28 (19-23\n\n");
    assert_eq!(
        (e.pos.line, e.pos.column, e.kind),
        (1, 10, ErrorKind::UnclosedVariation)
    );
    let e = error("1. 32-28 {never closed\n\n\n");
    assert_eq!(
        (e.pos.line, e.pos.column, e.kind),
        (1, 10, ErrorKind::UnterminatedComment)
    );
    let e = error("[Event \"x]\n1. 32-28");
    assert_eq!((e.pos.line, e.kind), (1, ErrorKind::UnterminatedString));
    // A backslash as the file's last byte leaves the string open too.
    let e = error("[Event \"x\\");
    assert_eq!((e.pos.line, e.kind), (1, ErrorKind::UnterminatedString));
    let e = error("1. 32-28 ) *");
    assert_eq!(e.kind, ErrorKind::UnexpectedCloseParen);
    let e = error("1. 32-28 . 1-0");
    assert_eq!(e.kind, ErrorKind::BadToken(".".into()));
    // After an error the reader goes on with the next game.
    let games = read_str("[Event \"a\"]\n1. 32-28 ##\n[Event \"b\"]\n1. 33-28 *\n");
    assert!(games[0].is_err());
    assert_eq!(games[1].as_ref().unwrap().tag("Event"), Some("b"));
}

#[test]
fn replay_errors_name_the_move_and_its_place() {
    let g = one("[Event \"x\"]\n1. 32-28 19-23 2. 28-22 *");
    let e = pdn::replay(&g, &ReplayOptions::default()).unwrap_err();
    assert_eq!((e.pos.line, e.pos.column), (2, 19));
    match *e.kind {
        ReplayErrorKind::Move {
            ref at, ref error, ..
        } => {
            assert_eq!(at, "2.");
            assert!(matches!(error, MoveError::Illegal { .. }));
        }
        ref other => panic!("{other:?}"),
    }
    let shown = e.to_string();
    assert!(
        shown.starts_with("2:19: 2. illegal move 28-22 in position W:"),
        "{shown}"
    );
    // The Result tag must agree with the terminator.
    let g = one("[Result \"0-1\"]\n1. 32-28 1-0");
    assert!(matches!(
        *pdn::replay(&g, &ReplayOptions::default()).unwrap_err().kind,
        ReplayErrorKind::ResultMismatch { .. }
    ));
    // An unknown GameType.
    let g = one("[GameType \"0\"]\n1. 32-28 *");
    assert!(matches!(
        *pdn::replay(&g, &ReplayOptions::default()).unwrap_err().kind,
        ReplayErrorKind::UnsupportedGameType(0)
    ));
    // Games without a GameType use the default variant.
    let g = one("1. c3-d4 f6-e5 *");
    let opts = ReplayOptions {
        default_variant: Variant::Russian,
        ..ReplayOptions::default()
    };
    assert_eq!(pdn::replay(&g, &opts).unwrap().variant, Variant::Russian);
}

#[test]
fn size_limits() {
    // A game longer than the limit is an error, not unbounded memory; the next game is read.
    let mut text = String::from("[Event \"big\"]\n{");
    text.push_str(&"x".repeat(MAX_GAME_BYTES + 10));
    text.push_str("}\n[Event \"next\"]\n1. 32-28 *\n");
    let games = read_str(&text);
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].as_ref().unwrap_err().kind, ErrorKind::GameTooLarge);
    assert_eq!(games[1].as_ref().unwrap().tag("Event"), Some("next"));
    // Variations nested too deep.
    let deep = format!(
        "1. 32-28 {}19-23{} *",
        "(".repeat(MAX_DEPTH + 1),
        ")".repeat(MAX_DEPTH + 1)
    );
    assert_eq!(error(&deep).kind, ErrorKind::TooDeep);
    let ok = format!(
        "1. 32-28 {}19-23{} *",
        "(".repeat(MAX_DEPTH),
        ")".repeat(MAX_DEPTH)
    );
    assert!(read_str(&ok)[0].is_ok());
}
