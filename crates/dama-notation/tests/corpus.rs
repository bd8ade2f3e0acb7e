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

#[test]
fn corpus() {
    let dir = corpus_dir();
    let mut all = Vec::new();
    files(&dir, &mut all);
    let mut good = Tally::default();
    let mut report = String::new();
    let mut fail_files = Vec::new();
    for path in &all {
        let name = path
            .strip_prefix(&dir)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        let bytes = std::fs::read(path).unwrap();
        let mut t = Tally::default();
        match ext {
            "pdn" => check_text(&name, &bytes, default_variant(path), &mut t),
            "json" if name.contains("py-draughts_") => {
                for pdn in json_pdns(&String::from_utf8_lossy(&bytes)) {
                    check_text(&name, pdn.as_bytes(), default_variant(path), &mut t);
                }
            }
            _ => continue,
        }
        report.push_str(&format!(
            "{name}: {} games, {} replayed, {} plies, {} errors\n",
            t.games,
            t.replayed,
            t.plies,
            t.errors.len()
        ));
        for e in t.errors.iter().take(3) {
            report.push_str(&format!("    {e}\n"));
        }
        if name.contains("FAIL") {
            fail_files.push((name.clone(), t.errors.len()));
        } else if name.contains("hcheckers") {
        } else {
            good.games += t.games;
            good.replayed += t.replayed;
            good.plies += t.plies;
            good.variation_plies += t.variation_plies;
            good.errors.extend(t.errors);
        }
    }
    println!("{report}");
    println!(
        "TOTAL (real games): {} games, {} replayed, {} plies (+{} in variations), {} errors",
        good.games,
        good.replayed,
        good.plies,
        good.variation_plies,
        good.errors.len()
    );
    for (f, n) in &fail_files {
        println!("FAIL file {f}: {n} errors");
    }
}
