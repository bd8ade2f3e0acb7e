//! Embeds the browser UI (`web/app` at the workspace root) into the server binary, so that
//! `dama serve` needs nothing next to it.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

fn collect(dir: &Path, base: &Path, out: &mut Vec<(String, PathBuf)>) {
    println!("cargo:rerun-if-changed={}", dir.display());
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.filter_map(Result::ok).collect();
    entries.sort_by_key(|e| e.path());
    for entry in entries {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, base, out);
        } else {
            println!("cargo:rerun-if-changed={}", path.display());
            let rel = path
                .strip_prefix(base)
                .expect("inside base")
                .to_string_lossy()
                .replace('\\', "/");
            out.push((rel, path));
        }
    }
}

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let web = manifest.join("../../web/app");
    let web = web.canonicalize().unwrap_or(web);
    let mut files = Vec::new();
    collect(&web, &web, &mut files);
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it"));
    let mut f = fs::File::create(out_dir.join("assets.rs")).expect("write assets.rs");
    writeln!(f, "/// The UI's files: path under `web/app`, contents.").unwrap();
    writeln!(f, "pub static FILES: &[(&str, &[u8])] = &[").unwrap();
    for (rel, path) in &files {
        writeln!(
            f,
            "    ({rel:?}, include_bytes!({:?})),",
            path.display().to_string()
        )
        .unwrap();
    }
    writeln!(f, "];").unwrap();
}
