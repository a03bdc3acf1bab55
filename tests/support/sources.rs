//! The workspace's Rust sources, for the tests that read code as text (English messages,
//! function length): the binary's `src/` and every crate's `src/`, sorted.

// A test helper: a source tree it cannot read is a failed test, said with the reason.
#![allow(clippy::expect_used)]
use std::path::{Path, PathBuf};

/// Every `.rs` file under the binary's `src/` and each `crates/*/src/`.
pub fn workspace_sources() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    for krate in std::fs::read_dir(root.join("crates")).expect("crates dir") {
        let src = krate.expect("dir entry").path().join("src");
        if src.is_dir() {
            rust_files(&src, &mut files);
        }
    }
    files.sort();
    assert!(files.len() > 100, "too few sources found: {}", files.len());
    files
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("readable source dir") {
        let path = entry.expect("dir entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}
