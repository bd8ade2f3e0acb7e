//! `dama tune play | fit` and `--eval`: data, a fitted model, and a search that uses it.

use std::process::{Command, Output};

fn dama(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dama"))
        .args(args)
        .output()
        .expect("run dama")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// `dama analyse -v variant --depth 4 --json --eval file`.
fn analyse_with(variant: &str, file: &str) -> Output {
    dama(&[
        "analyse", "-v", variant, "--depth", "4", "--json", "--eval", file,
    ])
}

#[test]
fn self_play_data_fits_a_model_that_analyse_and_match_use() {
    let dir = std::env::temp_dir().join(format!("dama-tune-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("russian.dat");
    let model = dir.join("russian.model");
    let (data_s, model_s) = (data.to_str().unwrap(), model.to_str().unwrap());
    // Two runs append to one file.
    for seed in ["1", "2"] {
        let o = dama(&[
            "tune",
            "play",
            "-v",
            "russian",
            "--games",
            "16",
            "--nodes",
            "300",
            "--threads",
            "2",
            "--seed",
            seed,
            "--out",
            data_s,
        ]);
        assert!(o.status.success(), "{}", text(&o.stderr));
        assert!(text(&o.stdout).contains("appended"), "{}", text(&o.stdout));
    }
    // `dama tune fit -v variant` on the data, to `out`, with `extra` options.
    let fit = |variant: &str, out: &str, extra: &[&str]| {
        let mut args = vec!["tune", "fit", "-v", variant, "--data", data_s, "--out", out];
        args.extend_from_slice(extra);
        dama(&args)
    };

    // The data belongs to one variant.
    let o = fit("english", model_s, &[]);
    assert!(!o.status.success());
    assert!(text(&o.stderr).contains("russian"), "{}", text(&o.stderr));

    let o = fit("russian", model_s, &["--epochs", "20", "--hold-out", "4"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let log = text(&o.stderr);
    assert!(
        log.contains("held out") && log.contains("epoch   20"),
        "{log}"
    );
    assert!(std::fs::metadata(&model).unwrap().len() > 5 * 6561 * 4);

    let o = analyse_with("russian", model_s);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        text(&o.stdout).contains("\"depth\":4"),
        "{}",
        text(&o.stdout)
    );

    // A dense model (a window at every offset: 13 tables on 8x8) loads by its table count.
    let dense = dir.join("dense.model");
    let dense_s = dense.to_str().unwrap();
    let o = fit("russian", dense_s, &["--epochs", "5", "--dense"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("13 window tables"),
        "{}",
        text(&o.stderr)
    );
    assert!(std::fs::metadata(&dense).unwrap().len() > 13 * 6561 * 4);
    let o = analyse_with("russian", dense_s);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(text(&o.stdout).contains("\"depth\":4"));

    // `--windows` names the layout: strips add four tables on 8x8 (17). A name that is not a
    // layout, or two layouts at once, is refused.
    let o = fit(
        "russian",
        dense_s,
        &["--epochs", "2", "--windows", "strips"],
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("17 window tables"),
        "{}",
        text(&o.stderr)
    );
    for bad in [
        &["--windows", "diagonal"][..],
        &["--windows", "dense", "--strips"],
    ] {
        let o = fit("russian", dense_s, bad);
        assert!(!o.status.success(), "{bad:?}");
        assert!(text(&o.stderr).contains("--windows"), "{}", text(&o.stderr));
    }

    // Another variant's games teach a model only when asked for, and only on the same board:
    // the Russian games make a Brazilian model, which Brazilian analysis reads and Russian
    // analysis refuses.
    let brazilian = dir.join("brazilian.model");
    let brazilian_s = brazilian.to_str().unwrap();
    let o = fit(
        "brazilian",
        brazilian_s,
        &["--data-variant", "russian", "--epochs", "2"],
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    let o = analyse_with("brazilian", brazilian_s);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let o = analyse_with("russian", brazilian_s);
    assert!(!o.status.success());
    assert!(text(&o.stderr).contains("brazilian"), "{}", text(&o.stderr));
    let o = fit("international", brazilian_s, &["--data-variant", "russian"]);
    assert!(!o.status.success());
    assert!(
        text(&o.stderr).contains("another board"),
        "{}",
        text(&o.stderr)
    );

    let player = format!("level:10@{model_s}");
    let o = dama(&[
        "match", "--first", &player, "--second", "level:10", "-v", "russian", "-n", "2", "--nodes",
        "500",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));

    // A model of another board, and a file that is not one, are one-line errors.
    for variant in ["international", "english"] {
        let o = analyse_with(variant, model_s);
        assert!(!o.status.success(), "{variant}");
        let err = text(&o.stderr);
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    let o = analyse_with("russian", data_s);
    assert!(!o.status.success());
    assert!(!text(&o.stderr).contains("panicked"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn games_from_pdn_files_become_training_data() {
    let dir = std::env::temp_dir().join(format!("dama-tune-import-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pdn = dir.join("games.pdn");
    let games = "[Result \"1-0\"]\n1. 11-15 23-19 2. 8-11 22-17 1-0\n\n\
                 [Result \"*\"]\n1. 11-15 23-19 *\n\n\
                 [Result \"1/2-1/2\"]\n1. 9-13 22-18 1/2-1/2\n\n\
                 [Result \"0-1\"]\n1. 11-15 22-18 2. 15x22 25x18 0-1\n";
    std::fs::write(&pdn, games).unwrap();
    let data = dir.join("games.dat");
    let args = |out: &str| {
        vec![
            "tune".to_owned(),
            "import".into(),
            "-v".into(),
            "english".into(),
            pdn.to_str().unwrap().into(),
            "--results".into(),
            "first-player".into(),
            "--out".into(),
            out.into(),
        ]
    };
    let run = |a: Vec<String>| {
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        dama(&a)
    };
    let o = run(args(data.to_str().unwrap()));
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    // Positions with a capture pending are left out: the last game gives its first two.
    assert!(out.starts_with("3 games, 8 positions written"), "{out}");
    assert!(out.contains("(1 games skipped"), "{out}");
    // A header and eight records of 58 bytes.
    let bytes = std::fs::read(&data).unwrap();
    assert!(bytes.starts_with(b"dama-selfplay 1 english\n"));
    assert_eq!(bytes.len(), "dama-selfplay 1 english\n".len() + 8 * 58);
    // The first game's positions carry Black's win (-1 for White), the next a draw, the last
    // White's win.
    let result_of = |i: usize| bytes["dama-selfplay 1 english\n".len() + i * 58 + 49] as i8;
    let results: Vec<i8> = (0..8).map(result_of).collect();
    assert_eq!(results, [-1, -1, -1, -1, 0, 0, 1, 1]);
    // An existing file is not overwritten.
    let o = run(args(data.to_str().unwrap()));
    assert!(!o.status.success());

    // The same games as starting lines of self-play: the three with a result are read.
    let play = |variant: &str, out: &str| {
        dama(&[
            "tune",
            "play",
            "-v",
            variant,
            "--games",
            "4",
            "--nodes",
            "300",
            "--random-plies",
            "0",
            "--starts",
            pdn.to_str().unwrap(),
            "--start-plies",
            "2",
            "--out",
            out,
        ])
    };
    let played = dir.join("played.dat");
    let o = play("english", played.to_str().unwrap());
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("starting lines: 3 games (1 skipped"),
        "{}",
        text(&o.stderr)
    );
    assert!(text(&o.stdout).contains("from 4 games appended"));
    // No game of the variant: refused, and no data file is made.
    let none = dir.join("none.dat");
    let o = play("russian", none.to_str().unwrap());
    assert!(!o.status.success());
    assert!(text(&o.stderr).contains("--starts"), "{}", text(&o.stderr));
    assert!(!none.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn self_play_data_fits_a_network_that_analyse_match_and_self_play_use() {
    let dir = std::env::temp_dir().join(format!("dama-tune-net-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("russian.dat");
    let net = dir.join("russian.net");
    let (data_s, net_s) = (data.to_str().unwrap(), net.to_str().unwrap());
    let play = |extra: &[&str]| {
        let mut args = vec![
            "tune",
            "play",
            "-v",
            "russian",
            "--games",
            "24",
            "--nodes",
            "300",
            "--threads",
            "2",
            "--out",
            data_s,
        ];
        args.extend_from_slice(extra);
        dama(&args)
    };
    let o = play(&[]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let train = |variant: &str, extra: &[&str]| {
        let mut args = vec![
            "tune",
            "net",
            "-v",
            variant,
            "--data",
            data_s,
            "--out",
            net_s,
            "--hidden",
            "32",
            "--batch",
            "256",
            "--hold-out",
            "4",
        ];
        args.extend_from_slice(extra);
        dama(&args)
    };
    let o = train("russian", &["--epochs", "3", "--result-weight", "0.5"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let log = text(&o.stderr);
    assert!(
        log.contains("held out") && log.contains("epoch   3"),
        "{log}"
    );
    assert!(text(&o.stdout).contains("network written"));
    // 4 kinds of piece on 32 squares, 32 hidden, two bytes each.
    assert!(std::fs::metadata(&net).unwrap().len() > 4 * 32 * 32 * 2);

    let o = analyse_with("russian", net_s);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(text(&o.stdout).contains("\"depth\":4"));
    let player = format!("level:10@{net_s}");
    let o = dama(&[
        "match", "--first", &player, "--second", "level:10", "-v", "russian", "-n", "2", "--nodes",
        "500",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    // Self-play with the network appends to the data, and its detours go to their own file,
    // which a fit on the search scores reads beside the games.
    let detours = dir.join("detours.dat");
    let detours_s = detours.to_str().unwrap();
    let o = play(&[
        "--eval",
        net_s,
        "--seed",
        "2",
        "--detours",
        "50",
        "--detours-out",
        detours_s,
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(text(&o.stdout).contains("appended"), "{}", text(&o.stdout));
    assert!(std::fs::metadata(&detours).unwrap().len() > 20 * 58);
    // The detours' file says what it holds, so it cannot be mistaken for games: not as a
    // fit's game data, nor as the file a run appends its games to.
    assert!(std::fs::read(&detours)
        .unwrap()
        .starts_with(b"dama-selfplay 1 russian detours\n"));
    let o = train("russian", &["--epochs", "1", "--data", detours_s]);
    assert!(!o.status.success());
    assert!(
        text(&o.stderr).contains("holds detours") && text(&o.stderr).lines().count() == 1,
        "{}",
        text(&o.stderr)
    );
    let o = dama(&[
        "tune", "play", "-v", "russian", "--games", "2", "--nodes", "200", "--out", detours_s,
    ]);
    assert!(!o.status.success());
    assert!(
        text(&o.stderr).contains("holds detours, not game positions"),
        "{}",
        text(&o.stderr)
    );
    // The fit's first line: "N positions (… held out, … skipped); k = K; …".
    let fitted = |extra: &[&str]| {
        let mut args = vec!["--epochs", "1", "--result-weight", "0"];
        args.extend_from_slice(extra);
        let o = train("russian", &args);
        assert!(o.status.success(), "{}", text(&o.stderr));
        let log = text(&o.stderr);
        let first = log.lines().next().unwrap_or_default().to_string();
        let positions: usize = first
            .split(' ')
            .next()
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{log}"));
        let k = first.split("k = ").nth(1).and_then(|k| k.split(';').next());
        (positions, k.unwrap_or_else(|| panic!("{log}")).to_string())
    };
    let (alone, k_alone) = fitted(&[]);
    let (with_detours, k_with) = fitted(&["--detours", detours_s]);
    // The detours are fitted, and they have no result, so they do not change the scale
    // (read as games, as drawn ones, they would pull it down).
    assert!(with_detours > alone, "{with_detours} {alone}");
    assert_eq!(k_with, k_alone);
    // Scores blended with the later ones of their games: the same positions, and the scale
    // chosen before the blend; a blend of 1 (the last score alone) is refused.
    assert_eq!(fitted(&["--lookahead", "0.8"]), (alone, k_alone));
    let o = train("russian", &["--epochs", "1", "--lookahead", "1"]);
    assert!(!o.status.success());
    assert!(
        text(&o.stderr).contains("from 0 to 1"),
        "{}",
        text(&o.stderr)
    );
    // Detours made afterwards from the stored games.
    let later = dir.join("later.dat");
    let later_s = later.to_str().unwrap();
    let o = dama(&[
        "tune",
        "detours",
        "-v",
        "russian",
        "--data",
        data_s,
        "--out",
        later_s,
        "--share",
        "50",
        "--nodes",
        "200",
        "--threads",
        "2",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        text(&o.stdout).contains("detours from"),
        "{}",
        text(&o.stdout)
    );
    assert!(std::fs::metadata(&later).unwrap().len() > 20 * 58);
    for bad in [
        &["--share", "101"][..],
        &["--nodes", "0"],
        &["--out", data_s],
    ] {
        let mut args = vec!["tune", "detours", "-v", "russian", "--data", data_s];
        if !bad.contains(&"--out") {
            args.extend_from_slice(&["--out", later_s]);
        }
        args.extend_from_slice(bad);
        let o = dama(&args);
        assert!(!o.status.success(), "{bad:?}");
        assert_eq!(text(&o.stderr).lines().count(), 1, "{}", text(&o.stderr));
    }
    for bad in [
        &["--detours", "20"][..],
        &["--detours", "101", "--detours-out", detours_s],
        &["--detours", "20", "--detours-out", data_s],
    ] {
        let o = play(bad);
        assert!(!o.status.success(), "{bad:?}");
        assert!(text(&o.stderr).contains("detours"), "{}", text(&o.stderr));
    }

    // A network is for one variant's board; bad sizes and data of another variant are
    // one-line errors.
    let o = analyse_with("international", net_s);
    assert!(!o.status.success());
    assert!(text(&o.stderr).contains("russian"), "{}", text(&o.stderr));
    for bad in [
        &["--hidden", "20"][..],
        &["--hidden", "0"],
        &["--buckets", "0"],
        &["--epochs", "0"],
        &["--rate", "-1"],
    ] {
        let o = train("russian", bad);
        assert!(!o.status.success(), "{bad:?}");
        assert_eq!(text(&o.stderr).lines().count(), 1, "{}", text(&o.stderr));
    }
    let o = train("english", &[]);
    assert!(!o.status.success());
    assert!(text(&o.stderr).contains("russian"), "{}", text(&o.stderr));
    let _ = std::fs::remove_dir_all(&dir);
}
