//! Console and CLI messages are English; only the texts clawbot_router returns to the LLM keep
//! the seeds' Chinese wording (the router crate, and its system-prompt section in the core's
//! prompt builder). This scans every other source file's code in `src/` and every crate's `src/`
//! (doc and line comments, the `#[cfg(test)]` part and the test-only module dirs `**/tests/` left out)
//! for CJK characters in string literals.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::path::Path;

fn is_cjk(c: char) -> bool {
    matches!(c, '\u{3000}'..='\u{303f}' | '\u{4e00}'..='\u{9fff}' | '\u{ff00}'..='\u{ffef}')
}

#[test]
fn console_and_cli_messages_are_english() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let crates = root.join("crates");
    let router = crates.join("clawdeck-router/src");
    let router_guidance = crates.join("clawdeck-core/src/prompt/router_guidance.rs");
    let files = support::sources::workspace_sources();
    let mut offending = Vec::new();
    // A `tests/` dir under src is a `#[cfg(test)] mod tests;` (the console's in-crate tests);
    // its parent module must say so, else it is scanned like any other code.
    let test_only = |f: &Path| {
        f.ancestors()
            .take_while(|d| d.file_name().is_some_and(|n| n != "src"))
            .filter(|d| d.file_name().is_some_and(|n| n == "tests"))
            .any(|d| {
                let parent = d.parent().unwrap_or(root);
                ["mod.rs", "lib.rs"].iter().any(|name| {
                    std::fs::read_to_string(parent.join(name))
                        .is_ok_and(|m| m.contains("#[cfg(test)]\nmod tests;"))
                })
            })
    };
    for file in files
        .iter()
        .filter(|f| !f.starts_with(&router) && **f != router_guidance && !test_only(f))
    {
        let text = std::fs::read_to_string(file).expect("readable source");
        for (number, line) in text.lines().enumerate() {
            if line.trim_start().starts_with("#[cfg(test)]") {
                break;
            }
            let code = line.split("//").next().unwrap_or_default();
            if code.chars().any(is_cjk) {
                offending.push(format!(
                    "{}:{}: {}",
                    file.strip_prefix(root).unwrap_or(file).display(),
                    number + 1,
                    line.trim()
                ));
            }
        }
    }
    assert!(
        offending.is_empty(),
        "non-English text outside the router's LLM-facing texts:\n{}",
        offending.join("\n")
    );
}

#[test]
fn the_scan_finds_cjk_text() {
    // The check above must be able to fail: a Chinese message is CJK.
    assert!("无法写入".chars().any(is_cjk));
    assert!(!"cannot write".chars().any(is_cjk));
}
