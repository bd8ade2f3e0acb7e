//! Tactics suites: positions with a known winning first move or a known result, from published
//! collections (sources on each line of the data files), and for every variant the shots found
//! in games by `dama shots` (`data/shots/`) and, for the variants without a published
//! collection, forced wins of the game (`data/wins/`), each proven by the engine-independent
//! search of [`dama_engine::shots`]. The engine must solve them within a node budget. By
//! default a quick subset of the problem collections runs; `DAMA_DEEP=1` runs every position
//! with larger budgets and prints the score of each suite.

use dama_core::{AnyMove, AnyPosition, Variant};
use dama_engine::shots::{self, Count};
use dama_engine::{Engine, EngineOptions, Limits, Score};

struct Problem {
    fen: String,
    /// Start and end squares of the key move (numbers), if the suite gives one.
    key: Option<(u32, u32)>,
    source: String,
}

fn load(text: &str) -> Vec<Problem> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut parts = l.split('|').map(str::trim);
            let fen = parts.next().unwrap_or_default().to_owned();
            let key = parts.next().and_then(|k| {
                let nums: Vec<u32> = k.split(['-', 'x']).filter_map(|n| n.parse().ok()).collect();
                Some((*nums.first()?, *nums.last()?))
            });
            let source = parts.next().unwrap_or_default().to_owned();
            Problem { fen, key, source }
        })
        .collect()
}

/// Runs a suite; returns (solved, total) and prints the failures. With `win_needed` a
/// problem counts as solved when the engine proves the win or wins at least a man's worth of
/// material (the endgames of such studies are often longer than the search).
fn run(variant: Variant, problems: &[Problem], nodes: u64, win_needed: bool) -> (usize, usize) {
    let (solved, _, total) = run_with(
        variant,
        problems,
        nodes,
        win_needed,
        EngineOptions::default().endgame_pieces,
    );
    (solved, total)
}

/// [`run`] with an endgame database of `endgame_pieces` pieces; also counts the problems whose
/// win the engine proved.
fn run_with(
    variant: Variant,
    problems: &[Problem],
    nodes: u64,
    win_needed: bool,
    endgame_pieces: u32,
) -> (usize, usize, usize) {
    let mut solved = 0;
    let mut proven = 0;
    for p in problems {
        let pos =
            AnyPosition::from_fen(variant, &p.fen).unwrap_or_else(|e| panic!("{}: {e}", p.fen));
        let mut engine = Engine::new(EngineOptions {
            hash_mb: 32,
            endgame_pieces,
            ..EngineOptions::default()
        });
        engine.set_position(pos, &[]);
        let r = engine.search(Limits::nodes(nodes), |_| {});
        let m = r.best_move.expect("a move");
        let squares = (
            variant.square_number(m.from).unwrap_or(0),
            variant.square_number(m.to).unwrap_or(0),
        );
        let proved = matches!(r.score, Score::Win(_));
        proven += usize::from(proved);
        // A published key move, or any move with a proven win (a second solution).
        let key_ok = p.key.is_none_or(|k| k == squares) || proved;
        let win_ok = !win_needed || proved || matches!(r.score, Score::Eval(e) if e >= 100);
        if key_ok && win_ok {
            solved += 1;
        } else {
            eprintln!(
                "unsolved: {} (key {:?}, played {:?}, score {}) — {}",
                p.fen, p.key, squares, r.score, p.source
            );
        }
    }
    (solved, proven, problems.len())
}

fn deep() -> bool {
    std::env::var_os("DAMA_DEEP").is_some()
}

#[test]
fn international_problems() {
    let all = load(include_str!("data/tactics_international.txt"));
    assert!(all.len() >= 100);
    let (subset, nodes) = if deep() {
        (&all[..], 4_000_000)
    } else {
        (&all[..12], 1_000_000)
    };
    let (solved, total) = run(Variant::International, subset, nodes, false);
    eprintln!("international: {solved}/{total} solved with {nodes} nodes each");
    assert!(solved * 10 >= total * 7, "{solved}/{total}");
}

#[test]
fn english_problems() {
    let all = load(include_str!("data/tactics_english.txt"));
    assert!(all.len() >= 100);
    let (subset, nodes) = if deep() {
        (&all[..], 4_000_000)
    } else {
        (&all[..15], 1_000_000)
    };
    let (solved, total) = run(Variant::English, subset, nodes, true);
    eprintln!("english: {solved}/{total} forced wins found with {nodes} nodes each");
    assert!(solved * 10 >= total * 7, "{solved}/{total}");
}

/// The English problems with the five-piece endgame database, which proves most of their wins
/// (with four pieces about half are proven, the rest judged won by the evaluation). Only with
/// `DAMA_DEEP=1`: the database takes about a minute to build in a release build.
#[test]
fn english_problems_with_five_pieces() {
    if !deep() {
        return;
    }
    let all = load(include_str!("data/tactics_english.txt"));
    let (solved, proven, total) = run_with(Variant::English, &all, 4_000_000, true, 5);
    eprintln!("english with five pieces: {solved}/{total} solved, {proven} proven wins");
    assert!(solved * 10 >= total * 9, "{solved}/{total}");
    assert!(proven * 10 >= total * 8, "{proven}/{total} proven");
}

/// Russian king endings from classical theory (A. D. Petrov's triangle: three kings holding the
/// main road a1–h8 beat a lone king; a lone king on the main road draws against three, and two
/// kings never win against one), and two short catches of a king.
#[test]
fn russian_king_endings() {
    #[derive(Debug)]
    enum Expect {
        Win,
        Lose,
        Draw,
    }
    let cases = [
        (
            "W:WKa1,Kd2,Kf2:BKb8",
            Expect::Win,
            "three kings on the main road",
        ),
        (
            "B:WKa1,Kc1,Ke1:BKh2",
            Expect::Lose,
            "lone king off the main road",
        ),
        (
            "W:WKa3,Kc1,Ke1:BKd4",
            Expect::Draw,
            "lone king holds the main road",
        ),
        ("W:WKe1,Kg1:BKb8", Expect::Draw, "two kings against one"),
        (
            "W:WKh8,Kc1,Ke1:BKa5",
            Expect::Win,
            "sacrifice on c3 catches the king",
        ),
        (
            "W:WKc3,Ke3,Kg3:BKa1",
            Expect::Win,
            "king caught in the corner",
        ),
    ];
    for (fen, expect, what) in cases {
        let pos = AnyPosition::from_fen(Variant::Russian, fen).unwrap();
        let mut engine = Engine::new(EngineOptions {
            hash_mb: 16,
            ..EngineOptions::default()
        });
        engine.set_position(pos, &[]);
        let r = engine.search(Limits::nodes(1_000_000), |_| {});
        let v = r.score.to_internal();
        let ok = match expect {
            Expect::Win => v >= 300,
            Expect::Lose => v <= -300,
            Expect::Draw => v.abs() < 100,
        };
        assert!(ok, "{fen} ({what}): expected {expect:?}, got {}", r.score);
    }
}

/// A shot found in a game by `dama shots`: the side to move forces a gain of `gain` men
/// (or a won game, [`shots::WIN`]) within `plies` plies.
struct ShotProblem {
    fen: String,
    plies: u32,
    gain: i32,
    source: String,
}

/// Positions a proof may look at (the suites' proofs need far fewer).
const PROOF_BUDGET: u64 = 50_000_000;

/// Reads `FEN | N plies, G men | moves | source` lines (`N plies, win` for a won game).
fn load_shots(text: &str) -> Vec<ShotProblem> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let parts: Vec<&str> = l.split('|').map(str::trim).collect();
            assert_eq!(parts.len(), 4, "FEN | plies, gain | moves | source: {l}");
            let (plies, gain) = parts[1].split_once(", ").expect("plies, gain");
            let plies = plies.strip_suffix(" plies").expect("N plies");
            let gain = match gain {
                "win" => shots::WIN,
                g => g
                    .strip_suffix(" men")
                    .expect("G men")
                    .parse()
                    .expect("gain"),
            };
            ShotProblem {
                fen: parts[0].to_owned(),
                plies: plies.parse().unwrap_or_else(|e| panic!("{l}: {e}")),
                gain,
                source: parts[3].to_owned(),
            }
        })
        .collect()
}

/// Runs a shot suite: each position must still hold its shot (the proof runs again), and the
/// engine's move must force the same gain within the same plies (its own kings counted in
/// full), or the engine must prove a win. Returns (solved, total) and prints the failures.
fn run_shots(variant: Variant, problems: &[ShotProblem], nodes: u64) -> (usize, usize) {
    let mut solved = 0;
    for p in problems {
        let pos =
            AnyPosition::from_fen(variant, &p.fen).unwrap_or_else(|e| panic!("{}: {e}", p.fen));
        let shot = shots::find(&pos, p.plies, p.gain, PROOF_BUDGET)
            .expect("proof within budget")
            .unwrap_or_else(|| panic!("{}: no shot within {} plies", p.fen, p.plies));
        assert_eq!(shot.plies, p.plies, "{}: shortest shot", p.fen);
        let mut engine = Engine::new(EngineOptions {
            hash_mb: 16,
            ..EngineOptions::default()
        });
        engine.set_position(pos, &[]);
        let r = engine.search(Limits::nodes(nodes), |_| {});
        let m = r
            .best_move
            .unwrap_or_else(|| panic!("{}: no move from the engine", p.fen));
        // The engine's own kings count in full (a crowning that wins as much is a solution); a
        // move the proof cannot settle within the budget does not count.
        let forced =
            shots::forces(&pos, &m, p.plies, p.gain, Count::Full, PROOF_BUDGET).unwrap_or(false);
        if forced || matches!(r.score, Score::Win(_)) {
            solved += 1;
        } else {
            let keys: Vec<String> = shot.moves.iter().map(|k| move_text(variant, k)).collect();
            eprintln!(
                "unsolved {variant}: {} (shot {}, played {}, score {}) — {}",
                p.fen,
                keys.join(" "),
                move_text(variant, &m),
                r.score,
                p.source
            );
        }
    }
    (solved, problems.len())
}

/// A move as its start and end squares (`c3-d4`, `22x13`).
fn move_text(variant: Variant, m: &AnyMove) -> String {
    let sep = if m.is_capture() { 'x' } else { '-' };
    format!(
        "{}{sep}{}",
        variant.square_name(m.from),
        variant.square_name(m.to)
    )
}

/// The shot suite of `variant` (`data/shots/<key>.txt`): every position at 100,000 nodes, with
/// `DAMA_DEEP` at 1,000,000; or its suite of forced wins (`data/wins/<key>.txt`): 1,000,000
/// and 4,000,000 nodes (the engine needs not take the quickest win, so it is given the nodes
/// to prove one). Nine in ten must be solved: a shot proven over a few plies can still be
/// refuted later (the opponent wins the men back, or the gain is worth less than the position
/// given for it), which the engine, looking further, may see.
fn shot_suite(variant: Variant, what: &str, text: &str) {
    let problems = load_shots(text);
    assert!(
        problems.len() >= 15,
        "{variant}: {} positions",
        problems.len()
    );
    let nodes = match (what, deep()) {
        ("wins", false) => 1_000_000,
        ("wins", true) => 4_000_000,
        (_, false) => 100_000,
        (_, true) => 1_000_000,
    };
    let (solved, total) = run_shots(variant, &problems, nodes);
    eprintln!("{variant} {what}: {solved}/{total} with {nodes} nodes each");
    assert!(
        solved * 10 >= total * 9,
        "{variant} {what}: {solved}/{total}"
    );
}

macro_rules! shot_suites {
    ($($name:ident: $variant:ident, $file:literal;)*) => {$(
        #[test]
        fn $name() {
            let (what, _) = $file.split_once('/').expect("folder/variant");
            shot_suite(Variant::$variant, what, include_str!(concat!("data/", $file, ".txt")));
        }
    )*};
}

shot_suites! {
    shots_russian: Russian, "shots/russian";
    shots_english: English, "shots/english";
    shots_international: International, "shots/international";
    shots_brazilian: Brazilian, "shots/brazilian";
    shots_canadian: Canadian, "shots/canadian";
    shots_pool: Pool, "shots/pool";
    shots_italian: Italian, "shots/italian";
    shots_spanish: Spanish, "shots/spanish";
    shots_portuguese: Portuguese, "shots/portuguese";
    shots_czech: Czech, "shots/czech";
    shots_german: German, "shots/german";
    shots_circassian: Circassian, "shots/circassian";
    shots_spantsiretti: Spantsiretti, "shots/spantsiretti";
    shots_frisian: Frisian, "shots/frisian";
    shots_antidraughts: Antidraughts, "shots/antidraughts";
    shots_russian_giveaway: RussianGiveaway, "shots/russian-giveaway";
    shots_diagonal_russian: DiagonalRussian, "shots/diagonal-russian";
}

shot_suites! {
    wins_russian: Russian, "wins/russian";
    wins_brazilian: Brazilian, "wins/brazilian";
    wins_pool: Pool, "wins/pool";
    wins_italian: Italian, "wins/italian";
    wins_spanish: Spanish, "wins/spanish";
    wins_portuguese: Portuguese, "wins/portuguese";
    wins_german: German, "wins/german";
    wins_circassian: Circassian, "wins/circassian";
    wins_spantsiretti: Spantsiretti, "wins/spantsiretti";
    wins_diagonal_russian: DiagonalRussian, "wins/diagonal-russian";
    wins_frisian: Frisian, "wins/frisian";
    wins_czech: Czech, "wins/czech";
    wins_canadian: Canadian, "wins/canadian";
}
