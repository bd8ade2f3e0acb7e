//! The real-game corpus: `../shared/corpus` beside the repository (or `$DAMA_CORPUS`).
//!
//! Every game whose moves are real must replay; every file marked `FAIL` (from the PDN 3.0
//! reference repository's "must reject" set) must be rejected with an error; the
//! position-table files of hcheckers (table "moves" such as `A1-A5` that are not legal moves)
//! are read but expected to fail replay.

use dama_core::Variant;
use dama_notation::pdn::{replay, Game, Reader, ReplayOptions};
use std::path::{Path, PathBuf};

fn corpus_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("DAMA_CORPUS") {
        return PathBuf::from(dir);
    }
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    for up in ["../shared/corpus", "../../shared/corpus"] {
        let dir = repo.join(up);
        if dir.is_dir() {
            return dir;
        }
    }
    panic!(
        "the corpus is missing: expected ../shared/corpus beside the repository (or set \
         DAMA_CORPUS)"
    );
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().flatten().collect();
    entries.sort_by_key(|e| e.path());
    for e in entries {
        let p = e.path();
        if p.is_dir() {
            files(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// The variant of games without a GameType, from the folder they are in.
fn default_variant(path: &Path) -> Variant {
    let s = path.to_string_lossy();
    for (dir, v) in [
        ("/english/", Variant::English),
        ("/russian/", Variant::Russian),
        ("/czech/", Variant::Czech),
        ("/italian/", Variant::Italian),
        ("/brazilian/", Variant::Brazilian),
        ("/frisian/", Variant::Frisian),
        ("/antidraughts/", Variant::Antidraughts),
    ] {
        if s.contains(dir) {
            return v;
        }
    }
    Variant::International
}

#[derive(Default, Debug)]
struct Tally {
    games: usize,
    replayed: usize,
    plies: usize,
    variation_plies: usize,
    errors: Vec<String>,
}

fn check_text(name: &str, text: &[u8], variant: Variant, t: &mut Tally) {
    let opts = ReplayOptions {
        default_variant: variant,
        ..ReplayOptions::default()
    };
    for game in Reader::new(text) {
        match game {
            Err(e) => {
                t.games += 1;
                t.errors.push(format!("{name}:{e}"));
            }
            Ok(g) if is_blank(&g) => {}
            Ok(g) => {
                t.games += 1;
                match replay(&g, &opts) {
                    Ok(r) => {
                        t.replayed += 1;
                        t.plies += r.plies;
                        t.variation_plies += r.variation_plies;
                    }
                    Err(e) => t.errors.push(format!("{name}:{e}")),
                }
            }
        }
    }
}

fn is_blank(g: &Game) -> bool {
    g.tags.is_empty()
        && g.body
            .iter()
            .all(|n| !matches!(n, dama_notation::pdn::Node::Move(_)))
}

fn json_pdns(text: &str) -> Vec<String> {
    let v: serde_json::Value = serde_json::from_str(text).unwrap();
    let mut out = Vec::new();
    for key in ["pdn_positions", "games"] {
        if let Some(list) = v.get(key).and_then(|l| l.as_array()) {
            out.extend(list.iter().filter_map(|s| s.as_str().map(str::to_owned)));
        }
    }
    out
}

/// Errors in files that are not marked FAIL, each checked by hand: the data of the source is
/// wrong (or, for the last one, ambiguous), not the reader or the rules. File, line and column,
/// and a piece of the message.
const DATA_ERRORS: [(&str, &str, &str); 11] = [
    // 61...22-26 62. 32-28: Black has no piece on 32 (kings on 28 and 29).
    (
        "english/checkerboard_tinsley.pdn",
        "5588:5",
        "62. illegal move 32-28",
    ),
    // Problem positions with a man on its crowning row ("W:W18,K15,1:…", "B:WK31,27,23,K20:B32,…").
    (
        "english/wiegerw_problems_beginner.pdn",
        "73:1",
        "white man stands on its crowning row (square 1)",
    ),
    (
        "english/wiegerw_problems_goulds.pdn",
        "831:1",
        "white man stands on its crowning row",
    ),
    (
        "english/wiegerw_problems_lpc.pdn",
        "281:1",
        "black man stands on its crowning row",
    ),
    (
        "english/wiegerw_problems_lpc.pdn",
        "497:1",
        "black man stands on its crowning row",
    ),
    (
        "english/wiegerw_problems_lpc.pdn",
        "513:1",
        "black man stands on its crowning row",
    ),
    (
        "english/wiegerw_problems_lpc.pdn",
        "577:1",
        "white man stands on its crowning row (square 4)",
    ),
    // 31. 26x17 12x21 32. 43-38 17-11: square 17 was emptied by 12x21.
    (
        "international/bruno_BrunoVsScan31.pdn",
        "183:28",
        "32... illegal move 17-11",
    ),
    // "(1... 5-10)" in a lidraughts broadcast: square 10 is occupied from the start.
    (
        "international/bruno_World_Title_Match_Women_2024.pdn",
        "29:45",
        "illegal move 5-10",
    ),
    // [Result "0-1"] but the movetext ends 1/2-1/2.
    (
        "international/wiegerw_candidate95.pdn",
        "157:43",
        "the Result tag says \"0-1\"",
    ),
    // The game's last move 13...3x26 is 3x10x17x26 or 3x10x19x26, both legal (free choice
    // among equal captures): PDN requires the path here.
    (
        "italian/wiegerw_Campionato_Assoluto_2005.pdn",
        "753:43",
        "ambiguous move 3x26",
    ),
];

#[test]
fn corpus() {
    let dir = corpus_dir();
    let mut all = Vec::new();
    files(&dir, &mut all);
    let mut games = Tally::default();
    let mut positions = Tally::default();
    let mut report = String::new();
    let mut unexpected = Vec::new();
    let mut data_errors = Vec::new();
    let mut table = (0, 0);
    for path in &all {
        let name = path
            .strip_prefix(&dir)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        let bytes = std::fs::read(path).unwrap();
        let mut t = Tally::default();
        // The one-move syntax example "1.a3b4" is an 8x8 algebraic game.
        let variant = if name == "syntax/wiegerw_alphanumeric.pdn" {
            Variant::Russian
        } else {
            default_variant(path)
        };
        match ext {
            "pdn" => check_text(&name, &bytes, variant, &mut t),
            "json" if name.contains("py-draughts_") => {
                for pdn in json_pdns(&String::from_utf8_lossy(&bytes)) {
                    check_text(&name, pdn.as_bytes(), variant, &mut t);
                }
            }
            _ => continue,
        }
        report.push_str(&format!(
            "{name}: {} games, {} replayed, {} moves, {} errors\n",
            t.games,
            t.replayed,
            t.plies,
            t.errors.len()
        ));
        for e in t.errors.iter().take(3) {
            report.push_str(&format!("    {e}\n"));
        }
        if name.contains("FAIL") {
            // The PDN 3.0 reference's "every parser must reject" files.
            assert!(!t.errors.is_empty(), "{name} must be rejected");
            println!("FAIL file {name}: rejected: {}", t.errors[0]);
            continue;
        }
        if name.contains("hcheckers_idf64_sample/pdn/") {
            // Opening-table files: some hold real openings ("1. A3-B4 F6-E5"), others only
            // encode a table entry with "moves" that no piece can make ("1. A1-A5 A7-H4").
            assert_eq!(t.games, 1, "{name}");
            if t.replayed == 1 {
                table.0 += 1;
            } else {
                assert!(t.errors[0].contains("illegal move"), "{}", t.errors[0]);
                table.1 += 1;
            }
            continue;
        }
        for e in &t.errors {
            match DATA_ERRORS.iter().find(|(file, at, text)| {
                *file == name && e.contains(&format!("{file}:{at}: ")) && e.contains(text)
            }) {
                Some(d) => data_errors.push(d),
                None => unexpected.push(e.clone()),
            }
        }
        let into = if t.plies == 0 {
            &mut positions
        } else {
            &mut games
        };
        into.games += t.games;
        into.replayed += t.replayed;
        into.plies += t.plies;
        into.variation_plies += t.variation_plies;
    }
    println!("{report}");
    println!(
        "games with moves: {} read, {} replayed, {} moves (+{} in variations)",
        games.games, games.replayed, games.plies, games.variation_plies
    );
    println!(
        "positions without moves (problems, ballots): {} read, {} replayed",
        positions.games, positions.replayed
    );
    println!(
        "hcheckers opening table: {} real openings replayed, {} table encodings rejected",
        table.0, table.1
    );
    assert!(table.0 > 0 && table.1 > 0);
    assert!(
        unexpected.is_empty(),
        "unexpected errors:\n{}",
        unexpected.join("\n")
    );
    assert_eq!(
        data_errors.len(),
        DATA_ERRORS.len(),
        "known data errors seen: {data_errors:?}"
    );
    // Everything else replays: the counts are those of the corpus as stored.
    assert_eq!(
        games.games - games.replayed + positions.games - positions.replayed,
        DATA_ERRORS.len()
    );
    assert!(games.replayed >= 2_500, "{games:?}");
}
