//! The `dama` command as a user runs it: output formats and one-line errors.

use std::process::{Command, Output};

fn dama(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dama"))
        .args(args)
        .output()
        .expect("run dama")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn perft_json() {
    let o = dama(&["perft", "--variant", "russian", "--depth", "5", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["variant"], "russian");
    assert_eq!(v["depth"], 5);
    assert_eq!(v["nodes"], 7482);
    assert!(v["seconds"].as_f64().unwrap() >= 0.0);
}

#[test]
fn perft_threads_fen_and_divide() {
    let o = dama(&[
        "perft",
        "--variant",
        "international",
        "--fen",
        "W:W31-50:B1-20",
        "--depth",
        "6",
        "--threads",
        "2",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["nodes"], 167140);
    let o = dama(&["perft", "--variant", "english", "--depth", "3", "--divide"]);
    let text = stdout(&o);
    assert_eq!(text.lines().count(), 8, "7 moves and the total:\n{text}");
    assert!(text.contains("perft(3) = 302"));
}

#[test]
fn moves_json_names_squares_as_the_variant_does() {
    let o = dama(&[
        "moves",
        "--variant",
        "international",
        "--fen",
        "W:WK41,49:B9,10,12,19,38",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    let moves = v.as_array().unwrap();
    assert_eq!(moves.len(), 1);
    let m = &moves[0];
    assert_eq!(m["notation"], "41x43");
    assert_eq!(m["from"], 41);
    assert_eq!(m["to"], 43);
    let mut captured: Vec<u64> = m["captured"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect();
    captured.sort();
    assert_eq!(captured, [9, 12, 19, 38]);
    assert_eq!(m["path"].as_array().unwrap().len(), 5);

    // Algebraic names for Russian; the final capture of the rule book's example line crowns.
    let o = dama(&[
        "moves",
        "--variant",
        "russian",
        "--fen",
        "W:Wd2:Be3,e5,c7",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v[0]["from"], "d2");
    assert_eq!(v[0]["to"], "b8");
    assert_eq!(v[0]["path"], serde_json::json!(["d2", "f4", "d6", "b8"]));
}

#[test]
fn moves_after_played_moves_keep_frisian_king_counts() {
    // The king on 45 makes three quiet moves in a row (45-40, 40-45, 45-40); then it is stuck
    // while White still has a man, which a FEN of the final position could not tell.
    let args = [
        "moves",
        "--variant",
        "frisian",
        "--fen",
        "W:WK45,50:BK5,1",
        "--play",
        "45-40 5-10 40-45 10-5 45-40 5-10",
    ];
    let o = dama(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        !text.contains("40-"),
        "the king on 40 may not move again:\n{text}"
    );
    assert!(text.contains("50-"), "the man moves:\n{text}");
    let o = dama(&["moves", "--variant", "frisian", "--fen", "W:WK40,50:BK10,1"]);
    assert!(
        stdout(&o).contains("40-"),
        "from FEN alone the king is free"
    );
    let o = dama(&[
        "moves",
        "--variant",
        "russian",
        "--play",
        "c3-d4 h6-g5 d4-d5",
    ]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("--play move 3 'd4-d5'"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn bad_input_gives_one_line_errors() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["perft", "--variant", "chess", "--depth", "2"],
            "unknown variant 'chess'",
        ),
        (
            &["moves", "--variant", "russian", "--fen", "W:Wz9:B1"],
            "'z9' is not a square",
        ),
        (
            &["moves", "--variant", "international", "--fen", "X:W1:B2"],
            "side to move",
        ),
        (
            &["moves", "--variant", "international", "--fen", "W:W1,2:B2"],
            "listed twice",
        ),
        (
            &["moves", "--variant", "international", "--fen", "W:W3:B40"],
            "crowning row (square 3)",
        ),
        (
            &["moves", "--variant", "english", "--fen", "B:WK1-32:B"],
            "starts with only 12",
        ),
        (
            &["perft", "--variant", "russian", "--depth", "99"],
            "too deep",
        ),
        (&["perft", "--variant", "russian"], "--depth"),
        (&["nonsense"], "unrecognized subcommand"),
    ];
    for (args, needle) in cases {
        let o = dama(args);
        assert!(!o.status.success(), "{args:?} should fail");
        let err = stderr(&o);
        assert_eq!(
            err.trim_end().lines().count(),
            1,
            "{args:?}: one line, got {err:?}"
        );
        assert!(err.contains(needle), "{args:?}: {err:?} lacks {needle:?}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn analyse_and_perft_start_after_played_moves() {
    // After c3-d4 f6-e5 White's only move is the capture d4:f6.
    let after = ["-v", "russian", "--play", "c3-d4 f6-e5"];
    let o = dama(&[&["analyse", "--depth", "3"], &after[..]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.starts_with("position W:"), "{out}");
    assert!(out.contains("best move d4:f6"), "{out}");
    let o = dama(&[&["perft", "--depth", "1", "--json"], &after[..]].concat());
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["nodes"], 1);
}

#[cfg(unix)]
#[test]
fn a_closed_output_pipe_ends_analyse_quietly() {
    use std::io::Read;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_dama"))
        .args(["analyse", "-v", "russian", "--time", "0.5"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run dama");
    // Read one byte, then close the pipe while the search still prints.
    let mut out = child.stdout.take().unwrap();
    let mut byte = [0u8; 1];
    out.read_exact(&mut byte).unwrap();
    drop(out);
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    let status = child.wait().unwrap();
    assert!(!err.contains("panicked"), "{err}");
    // Ended by the closed pipe itself, as `head` expects of the commands before it.
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(status.signal(), Some(13), "{status:?}: {err}");
}

/// `DAMA_SEARCH=move_time_stop=P`: with a fixed time a move, no iteration starts after P per
/// cent of it. At 100 the time is used whole; at 1 the search ends with the first iteration
/// past a few milliseconds.
#[test]
fn move_time_stop_decides_how_much_of_a_move_time_is_used() {
    let run = |stop: &str| {
        let started = std::time::Instant::now();
        let o = Command::new(env!("CARGO_BIN_EXE_dama"))
            .args(["analyse", "-v", "russian", "--time", "1"])
            .env("DAMA_SEARCH", format!("move_time_stop={stop}"))
            .output()
            .expect("run dama");
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(stdout(&o).contains("best move"), "{}", stdout(&o));
        started.elapsed()
    };
    let whole = run("100");
    assert!(whole.as_secs_f64() >= 0.99, "{whole:?}");
    // The default, 60, could not end before 0.6 s.
    let least = run("1");
    assert!(least.as_secs_f64() < 0.5, "{least:?}");
}

/// `dama shots` on one position, on a PDN file and on the same game inside JSON; bad input.
#[test]
fn shots_in_positions_and_games() {
    // White gives c3-d4, Black must take e5xc3, White takes two back: b2xd4xb6.
    // (the canonical FEN, as the command prints it)
    let fen = "W:Wc3,e3,b2,a1:Bh6,c5,e5";
    let o = dama(&[
        "shots", "-v", "russian", "--fen", fen, "--plies", "1", "--gain", "1",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o).trim(),
        format!("{fen} | 1 plies, 1 men | c3-d4 | --fen")
    );
    // Two men it does not win.
    let o = dama(&["shots", "-v", "russian", "--fen", fen, "--plies", "1"]);
    assert!(o.status.success());
    assert_eq!(stdout(&o), "");
    assert!(stderr(&o).contains("no shot winning 2 men within 1 plies"));

    let dir = std::env::temp_dir().join(format!("dama-shots-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let game = format!(
        "[White \"A\"]\n[Black \"B\"]\n[GameType \"25\"]\n[SetUp \"1\"]\n[FEN \"{fen}\"]\n\n\
         1. c3-d4 e5:c3 2. b2:b6 h6-g5 *\n"
    );
    let broken = "[GameType \"25\"]\n\n1. c3-d4 c3-d4 *\n";
    let pdn = dir.join("games.pdn");
    std::fs::write(&pdn, format!("{game}\n{broken}")).unwrap();
    let json = dir.join("games.json");
    std::fs::write(&json, serde_json::json!({ "games": [game] }).to_string()).unwrap();
    for (file, games, bad) in [(&pdn, 2, 1), (&json, 1, 0)] {
        let o = dama(&[
            "shots",
            "-v",
            "russian",
            "--gain",
            "1",
            file.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        let name = file.file_name().unwrap().to_str().unwrap();
        assert_eq!(
            stdout(&o).trim(),
            format!("{fen} | 1 plies, 1 men | c3-d4 | {name} game 1 (A - B), after ply 0")
        );
        assert!(
            stderr(&o).starts_with(&format!("{games} games ({bad} unreadable), ")),
            "{}",
            stderr(&o)
        );
    }

    let o = dama(&["shots", "-v", "russian", "--fen", "W:Wz9:B"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).starts_with("dama: bad FEN for russian"),
        "{}",
        stderr(&o)
    );
    let missing = dir.join("missing.pdn");
    let o = dama(&["shots", missing.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("missing.pdn"), "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn annotate_marks_the_move_that_gives_a_man_away() {
    let dir = std::env::temp_dir().join(format!("dama-annotate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // White's 33-28 lets the man on 22 take it for nothing (46-41 was safe); Black's capture
    // is forced and the last move changes nothing.
    let game = "[White \"A\"]\n[Black \"B\"]\n[GameType \"20\"]\n[FEN \"W:W33,46:B22,5\"]\n\n\
                1. 33-28 22x33 2. 46-41 *\n";
    let broken = "[GameType \"20\"]\n\n1. 32-28 32-28 *\n";
    let pdn = dir.join("games.pdn");
    std::fs::write(&pdn, format!("{game}\n{broken}")).unwrap();
    let o = dama(&["annotate", "-d", "8", pdn.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    // The scores are the evaluation's (a network at full strength for International, whose
    // scale in endings is its own): only their signs are fixed.
    assert!(out.contains("1.33-28?? {-"), "{out}");
    assert!(out.contains("better 46-41 +"), "{out}");
    assert!(out.contains("22x33 {-"), "{out}");
    assert!(!out.contains("22x33?"), "{out}");
    assert!(out.contains("[Annotator \"dama "), "{out}");
    // The game that does not replay is written as it was, and reported.
    assert!(out.contains("\n1.32-28 32-28 *\n"), "{out}");
    let err = stderr(&o);
    assert!(
        err.contains("game 1: 3 moves; White 0 mistakes, 1 blunders; Black 0 mistakes, 0 blunders"),
        "{err}"
    );
    assert!(err.contains("written unchanged"), "{err}");
    assert!(err.contains("1 games annotated (1 skipped)"), "{err}");
    // With the blunder margin above what the move lost it is a mistake.
    let o = dama(&[
        "annotate",
        "-d",
        "8",
        "--blunder",
        "60",
        pdn.to_str().unwrap(),
    ]);
    assert!(stdout(&o).contains("1.33-28? {"), "{}", stdout(&o));

    let o = dama(&["annotate", "--mistake", "0", pdn.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).starts_with("dama: --mistake must be more than 0"),
        "{}",
        stderr(&o)
    );
    let o = dama(&[
        "annotate",
        "--mistake",
        "2",
        "--blunder",
        "1",
        pdn.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let missing = dir.join("missing.pdn");
    let o = dama(&["annotate", missing.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("missing.pdn"), "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn endgame_gives_the_result_and_the_line_of_small_endings() {
    let o = dama(&[
        "endgame",
        "-v",
        "english",
        "W:W21,29:BK15,K18",
        "B:WK32:BK1",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("english: every position of up to 4 pieces"),
        "{out}"
    );
    assert!(
        out.contains("W:W21,29:BK15,K18: the side to move loses in 14 plies"),
        "{out}"
    );
    // The line runs to the end: Black's king takes the last man.
    assert!(out.contains("\n  29-25 18-14 "), "{out}");
    assert!(out.contains(" 13-9 14x5\n"), "{out}");
    assert!(out.contains("B:WK32:BK1: a draw"), "{out}");
    // Analysis on the clock waits for the database once, and gives its result and line.
    let o = dama(&[
        "analyse",
        "-v",
        "english",
        "--fen",
        "W:W21,29:BK15,K18",
        "--time",
        "0.3",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("best move 29-25  score loss in 14  line 29-25 18-14 "),
        "{out}"
    );
    // More pieces than the database holds.
    let o = dama(&["endgame", "-v", "english", "W:W21,22,29:BK15,K18"]);
    assert!(stdout(&o).contains("not in the database"), "{}", stdout(&o));
    // Boards without a database, and bad positions, are errors.
    let o = dama(&["endgame", "-v", "international"]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("international has no endgame database"),
        "{}",
        stderr(&o)
    );
    let o = dama(&["endgame", "-v", "english", "W:W1:B2"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("bad FEN for english"), "{}", stderr(&o));
}

#[test]
fn endgame_databases_are_kept_in_a_folder() {
    let dir = std::env::temp_dir().join(format!("dama-cli-egdb-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let folder = dir.to_str().unwrap();
    let run = || {
        dama(&[
            "endgame",
            "-v",
            "english",
            "--endgame-pieces",
            "3",
            "--endgame-dir",
            folder,
            "B:WK29:BK4",
            "W:W21,29:BK15,K18",
        ])
    };
    let o = run();
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("english: every position of up to 3 pieces, built and written to"),
        "{out}"
    );
    assert!(dir.join("english-3.egdb").is_file());
    // The build shows its progress on the error stream; reading the file later does not.
    assert!(
        stderr(&o).contains("building the 3-piece database of english: 100%"),
        "{}",
        stderr(&o)
    );
    assert!(
        out.contains("B:WK29:BK4: the side to move wins in 11 plies"),
        "{out}"
    );
    assert!(
        out.contains("W:W21,29:BK15,K18: not in the database (more than 3 pieces"),
        "{out}"
    );
    // The second run reads the file, with the same results.
    let again = run();
    assert!(again.status.success(), "{}", stderr(&again));
    let out2 = stdout(&again);
    assert!(out2.contains("up to 3 pieces, read from"), "{out2}");
    assert!(!stderr(&again).contains("building"), "{}", stderr(&again));
    let results = |s: &str| s.lines().skip(1).map(str::to_owned).collect::<Vec<_>>();
    assert_eq!(results(&out), results(&out2));
    // Six pieces is more than a database holds.
    let o = dama(&["endgame", "-v", "english", "--endgame-pieces", "6"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("--endgame-pieces"), "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A match against a DXP engine started as a subprocess: the games run to the end and every
/// game line, the first included, names the engine as it introduced itself (not its path).
#[test]
fn match_against_a_dxp_follower_names_it_from_the_first_game() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let bin = env!("CARGO_BIN_EXE_dama");
    // The follower plays from a book of one game: as White it opens 35-30.
    let dir = std::env::temp_dir().join(format!("dama-cli-dxp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let book = dir.join("book.pdn");
    std::fs::write(&book, "[Result \"1-1\"]\n1. 35-30 1-1\n").unwrap();
    let games_file = dir.join("games.pdn");
    let second = format!(
        "dxp:{port}:{bin} dxp --port {port} --level 1 --hash 1 --book {}",
        book.display()
    );
    let o = dama(&[
        "match",
        "--first",
        "level:1",
        "--second",
        &second,
        "-n",
        "2",
        "--movetime",
        "0.01",
        "--max-plies",
        "16",
        "--hash",
        "1",
        "--pdn",
        games_file.to_str().unwrap(),
    ]);
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    let pdn = std::fs::read_to_string(&games_file).unwrap();
    let white = format!("[White \"dama {}\"]", env!("CARGO_PKG_VERSION"));
    let followers: Vec<&str> = pdn.split("[Event").filter(|g| g.contains(&white)).collect();
    assert_eq!(followers.len(), 1, "{pdn}");
    assert!(followers[0].contains("\n1. 35-30 "), "{pdn}");
    std::fs::remove_dir_all(&dir).unwrap();
    let games: Vec<&str> = err.lines().filter(|l| l.starts_with("game ")).collect();
    assert_eq!(games.len(), 2, "{err}");
    let version = format!("dama {}", env!("CARGO_PKG_VERSION"));
    for line in games {
        assert!(line.contains(&version), "{line}");
        assert!(!line.contains(bin), "{line}");
        assert!(!line.contains("failed"), "{line}");
    }
    assert!(stdout(&o).contains(&format!("vs {version} (international)")));
}

#[test]
fn book_reads_games_and_shows_its_moves() {
    let dir = std::env::temp_dir().join(format!("dama-cli-book-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("games.pdn");
    // English archives write 1-0 for a win of Black, who moves first. 11-15 is played twice
    // (a win and a draw for Black), 9-13 once (a loss for Black); one game has no result.
    let games = "[Result \"1-0\"]\n1. 11-15 23-19 2. 8-11 1-0\n\n\
                 [Result \"1/2-1/2\"]\n1. 11-15 22-18 1/2-1/2\n\n\
                 [Result \"0-1\"]\n1. 9-13 22-18 0-1\n\n\
                 [Result \"*\"]\n1. 10-14 *\n";
    std::fs::write(&file, games).unwrap();
    let path = file.to_str().unwrap();
    let o = dama(&[
        "book",
        "-v",
        "english",
        path,
        "--book-results",
        "first-player",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("3 games (0 of another variant, 1 without a result, 0 unreadable)"),
        "{out}"
    );
    assert!(
        out.contains("11-15      games     2  score  75.0%  <- played"),
        "{out}"
    );
    assert!(
        out.contains("9-13       games     1  score   0.0%  (its players"),
        "{out}"
    );
    // Read the standard way, 1-0 is White's win: 11-15 then scored a quarter, 9-13 all.
    let o = dama(&["book", "-v", "english", path]);
    let out = stdout(&o);
    assert!(
        out.contains("9-13       games     1  score 100.0%  <- played"),
        "{out}"
    );
    // After 11-15 the replies; after an unknown move, nothing.
    let o = dama(&["book", "-v", "english", path, "--play", "11-15"]);
    assert!(stdout(&o).contains("23-19"), "{}", stdout(&o));
    let o = dama(&["book", "-v", "english", path, "--play", "12-16"]);
    assert!(
        stdout(&o).contains("position not in the book"),
        "{}",
        stdout(&o)
    );
    // A Hub engine with a book file that holds no game of its variant is refused.
    let o = dama(&["hub", "--book", &format!("russian={path}")]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("no game of Russian"), "{}", stderr(&o));
    let o = dama(&["hub", "--book", "english"]);
    assert!(stderr(&o).contains("is not VARIANT=PDN"), "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).unwrap();
}
