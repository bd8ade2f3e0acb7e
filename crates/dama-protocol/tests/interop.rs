//! Interoperability with an existing client, the PyPI package `pydraughts` (its Hub and DXP
//! drivers). Opt-in, because it needs Python and the package: run with
//! `DAMA_INTEROP=1 cargo test -p dama-protocol --test interop` after `pip install pydraughts`
//! and `cargo build --release`.

use std::path::PathBuf;
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn run(script: &str, args: &[&str]) {
    if std::env::var_os("DAMA_INTEROP").is_none() {
        eprintln!("skipped: set DAMA_INTEROP=1 to run the pydraughts interoperability tests");
        return;
    }
    let dama = root().join("target/release/dama");
    assert!(
        dama.exists(),
        "build the release binary first: cargo build --release"
    );
    let out = Command::new("python3")
        .arg(root().join("scripts/interop").join(script))
        .arg(&dama)
        .args(args)
        .output()
        .expect("python3");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{script} failed:\n{text}");
    eprintln!("{text}");
}

#[test]
fn pydraughts_drives_dama_hub() {
    run("pydraughts_hub.py", &["40"]);
}

#[test]
fn pydraughts_drives_dama_hub_in_other_variants() {
    run("pydraughts_hub_variants.py", &["30"]);
}

#[test]
fn pydraughts_plays_dama_over_dxp() {
    run("pydraughts_dxp.py", &["27598", "30"]);
}
