//! `dama pdn check`, `dama pdn convert` and `dama fen` as a user runs them.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn dama(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_dama"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

const GAMES: &str = "[Event \"one\"]\n[White \"A\"]\n[Black \"B\"]\n[GameType \"25\"]\n\n\
    1.cd4 ba5 2.bc3 cb6 3.gh4 dc5 4.hg3 bc7 5.cb4 a:e5 6.ed4 c:e3 7.d:b8 *\n\n\
    [Event \"two\"]\n[GameType \"20\"]\n\n1. 32-28 19-23 2. 28-22 *\n";

#[test]
fn check_reports_each_bad_game_with_its_place() {
    let out = dama(&["pdn", "check", "-"], GAMES);
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("-:11:19: 2. illegal move 28-22 in position W:"),
        "{stdout}"
    );
    assert!(
        stdout.contains("2 games, 1 replayed, 1 failed, 13 moves"),
        "{stdout}"
    );
    assert!(text(&out.stderr).contains("1 of 2 games failed"));

    let good = GAMES.split("[Event \"two\"]").next().unwrap();
    let out = dama(&["pdn", "check", "-"], good);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    assert!(text(&out.stdout).contains("1 games, 1 replayed, 0 failed, 13 moves"));

    // Syntax errors too, and games without a GameType use --variant.
    let out = dama(
        &["pdn", "check", "--variant", "russian", "-"],
        "1. c3-d4 { never closed\n",
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).contains("-:1:10: comment '{' is never closed"));
    let out = dama(
        &["pdn", "check", "--variant", "russian", "-"],
        "1. c3-d4 f6-e5 *\n",
    );
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn convert_changes_the_notation_and_keeps_the_moves() {
    let good = GAMES.split("[Event \"two\"]").next().unwrap();
    let out = dama(&["pdn", "convert", "--notation", "numeric", "-"], good);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let numeric = text(&out.stdout);
    assert!(
        numeric.contains("[GameType \"25,W,8,8,N2,0\"]"),
        "{numeric}"
    );
    assert!(numeric.contains("1.22-18 "), "{numeric}");
    assert!(numeric.contains("5.22-17 13x15 "), "{numeric}");
    assert!(numeric.contains("7.26x1 "), "{numeric}");
    // And back: the same game in the standard notation.
    let out = dama(
        &["pdn", "convert", "--notation", "algebraic", "-"],
        &numeric,
    );
    let back = text(&out.stdout);
    assert!(back.contains("[GameType \"25\"]"), "{back}");
    assert!(back.contains("1.c3-d4 b6-a5"), "{back}");
    assert!(back.contains("7.d2:b8"), "{back}");
    let out = dama(&["pdn", "check", "-"], &back);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
}

#[test]
fn fen_prints_the_canonical_form_and_a_diagram() {
    let out = dama(
        &["fen", "--variant", "international", "B:B16-20,K1:W31-35"],
        "",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    let mut lines = s.lines();
    assert_eq!(lines.next(), Some("B:W31,32,33,34,35:BK1,16,17,18,19,20"));
    assert_eq!(lines.next(), Some(" 10    B   .   .   .   .     1-5"));
    assert!(s.contains("\n  7  b   b   b   b   b      16-20\n"), "{s}");
    assert!(s.contains("\n  4    w   w   w   w   w    31-35\n"), "{s}");
    assert!(s.contains("\n     a b c d e f g h i j\n"), "{s}");
    assert!(s.ends_with("Black to move\n"));
    let out = dama(&["fen", "--variant", "russian", "W:Wa1:Bh8:Q"], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("bad FEN for russian"));
}
