//! The UI's message files: every language has every key, with the same placeholders, and every
//! key the UI uses exists. Fails on any missing key.

use dama_core::{DrawReason, OutcomeReason, Variant};
use dama_server::protocol::ErrorCode;
use serde_json::{Map, Value};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

const LANGUAGES: [&str; 4] = ["en", "hi", "mr", "ru"];

fn web() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web/app")
}

fn catalog(lang: &str) -> Map<String, Value> {
    let path = web().join(format!("i18n/{lang}.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    match serde_json::from_str(&text) {
        Ok(Value::Object(map)) => map,
        other => panic!("{lang}.json is not a JSON object: {other:?}"),
    }
}

fn placeholders(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut rest = text;
    while let Some(i) = rest.find('{') {
        rest = &rest[i + 1..];
        if let Some(j) = rest.find('}') {
            let name = &rest[..j];
            if !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                out.insert(name.to_owned());
            }
            rest = &rest[j + 1..];
        }
    }
    out
}

#[test]
fn every_language_has_every_key_with_the_same_placeholders() {
    let en = catalog("en");
    assert!(en.len() > 100);
    let mut problems = Vec::new();
    for lang in LANGUAGES {
        let other = catalog(lang);
        for (key, text) in &en {
            match other.get(key).and_then(Value::as_str) {
                None => problems.push(format!("{lang}: missing {key}")),
                Some(t) if t.trim().is_empty() => problems.push(format!("{lang}: empty {key}")),
                Some(t) => {
                    let want = placeholders(text.as_str().unwrap_or(""));
                    if placeholders(t) != want {
                        problems.push(format!(
                            "{lang}: {key} has placeholders {:?}, English {want:?}",
                            placeholders(t)
                        ));
                    }
                }
            }
        }
        for key in other.keys() {
            if !en.contains_key(key) {
                problems.push(format!("{lang}: unknown key {key}"));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// String literals that follow `prefix` in `text` (where the prefix starts a word).
fn literals_after(text: &str, prefix: &str) -> Vec<String> {
    let word = prefix.starts_with(|c: char| c.is_ascii_alphanumeric());
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(i) = text[from..].find(prefix) {
        let start = from + i;
        from = start + prefix.len();
        let before = text[..start].chars().next_back();
        if word && before.is_some_and(|c| c.is_ascii_alphanumeric() || "_.$".contains(c)) {
            continue;
        }
        if let Some(j) = text[from..].find('"') {
            out.push(text[from..from + j].to_owned());
        }
    }
    out
}

fn ui_sources() -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut stack = vec![web()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if matches!(
                path.extension().and_then(|e| e.to_str()),
                Some("js" | "html")
            ) {
                out.push((
                    path.display().to_string(),
                    std::fs::read_to_string(&path).unwrap(),
                ));
            }
        }
    }
    out
}

#[test]
fn every_key_the_ui_uses_exists() {
    let en = catalog("en");
    let mut used = BTreeSet::new();
    for (file, text) in ui_sources() {
        for prefix in [
            "t(\"",
            "key: \"",
            "data-i18n=\"",
            "data-i18n-title=\"",
            "data-i18n-placeholder=\"",
            "data-i18n-label=\"",
            "? \"msg.",
            ": \"msg.",
        ] {
            for lit in literals_after(&text, prefix) {
                let key = if prefix.ends_with("msg.") {
                    format!("msg.{lit}")
                } else {
                    lit
                };
                used.insert((key, file.clone()));
            }
        }
    }
    assert!(used.len() > 50, "the scan found the UI's keys");
    // Keys built at run time: one per variant, error code, outcome reason, colour and piece.
    for v in Variant::ALL {
        used.insert((format!("variant.{}.name", v.key()), "variants".into()));
        used.insert((format!("variant.{}.rules", v.key()), "variants".into()));
    }
    for code in ErrorCode::ALL {
        let code = serde_json::to_value(code).unwrap();
        used.insert((
            format!("error.{}", code.as_str().unwrap()),
            "protocol".into(),
        ));
    }
    let http =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/http.rs")).unwrap();
    for prefix in [
        "ApiError::bad(\n                \"",
        "ApiError::bad(\"",
        "code: \"",
    ] {
        for code in literals_after(&http, prefix) {
            used.insert((format!("error.{code}"), "http.rs".into()));
        }
    }
    for reason in [
        OutcomeReason::NoPieces,
        OutcomeReason::NoMoves,
        OutcomeReason::Repetition,
        OutcomeReason::MoveLimit(DrawReason::NoCapture),
        OutcomeReason::MoveLimit(DrawReason::KingMovesOnly),
        OutcomeReason::MoveLimit(DrawReason::Endgame),
        OutcomeReason::Agreement,
        OutcomeReason::Resignation,
        OutcomeReason::Time,
    ] {
        used.insert((
            format!("reason.{}", dama_server::view::reason_code(reason)),
            "view.rs".into(),
        ));
    }
    for c in ["white", "black"] {
        used.insert((format!("color.{c}"), "colours".into()));
        for r in ["man", "king"] {
            used.insert((format!("piece.{c}_{r}"), "pieces".into()));
        }
    }
    let missing: Vec<String> = used
        .iter()
        .filter(|(key, _)| !en.contains_key(key))
        .map(|(key, file)| format!("{key} (used in {file})"))
        .collect();
    assert!(
        missing.is_empty(),
        "keys missing from en.json:\n{}",
        missing.join("\n")
    );
}

#[test]
fn the_scan_would_notice_a_missing_key() {
    // The checks above read keys this way; a made-up key is not in the catalog.
    let found = literals_after("x = t(\"no.such.key\")", "t(\"");
    assert_eq!(found, ["no.such.key"]);
    assert!(!catalog("en").contains_key("no.such.key"));
}
