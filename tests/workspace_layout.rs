//! The workspace's shape, read from cargo itself: the crates, and the rules their dependencies
//! keep (docs/architecture.md draws them). A dependency that breaks a rule fails here, not in a
//! review.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::{Path, PathBuf};
use std::process::Command;

fn cargo(args: &[&str]) -> String {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let out = Command::new(cargo)
        .args(args)
        .arg("--offline")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap_or_else(|e| panic!("cargo {args:?}: {e}"));
    assert!(
        out.status.success(),
        "cargo {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The package names in `cargo tree` output (`--prefix none`, one per line).
fn packages(tree: &str) -> Vec<String> {
    tree.lines()
        .filter_map(|line| line.split_whitespace().next())
        .map(str::to_string)
        .collect()
}

#[test]
fn the_workspace_has_the_binary_and_one_crate_per_job() {
    let metadata: serde_json::Value =
        serde_json::from_str(&cargo(&["metadata", "--no-deps", "--format-version", "1"]))
            .unwrap_or_else(|e| panic!("cargo metadata: {e}"));
    let mut names: Vec<&str> = metadata["packages"]
        .as_array()
        .unwrap_or_else(|| panic!("no packages in {metadata}"))
        .iter()
        .filter_map(|p| p["name"].as_str())
        .collect();
    names.sort_unstable();
    assert_eq!(
        names,
        [
            "clawdeck",
            "clawdeck-core",
            "clawdeck-deck",
            "clawdeck-gateway",
            "clawdeck-mcp",
            "clawdeck-router",
            "clawdeck-tui",
            "clawdeck-verify"
        ]
    );
}

#[test]
fn the_core_has_no_terminal_no_server_and_no_mcp_sdk() {
    let tree = packages(&cargo(&[
        "tree",
        "-p",
        "clawdeck-core",
        "-e",
        "normal",
        "--prefix",
        "none",
    ]));
    for banned in [
        "ratatui",
        "crossterm",
        "rmcp",
        "hyper",
        "axum",
        "clawdeck-tui",
    ] {
        assert!(
            !tree.iter().any(|p| p == banned),
            "clawdeck-core depends on {banned}"
        );
    }
}

#[test]
fn nothing_below_the_console_depends_on_it() {
    for krate in [
        "clawdeck-core",
        "clawdeck-gateway",
        "clawdeck-router",
        "clawdeck-deck",
        "clawdeck-mcp",
        "clawdeck-verify",
    ] {
        let tree = packages(&cargo(&[
            "tree", "-p", krate, "-e", "normal", "--prefix", "none",
        ]));
        for banned in ["clawdeck-tui", "ratatui", "crossterm", "clap"] {
            assert!(
                !tree.iter().any(|p| p == banned),
                "{krate} depends on {banned}"
            );
        }
    }
}

#[test]
fn without_default_features_there_is_no_lab_and_no_http_server() {
    let tree = packages(&cargo(&[
        "tree",
        "-p",
        "clawdeck",
        "--no-default-features",
        "-e",
        "normal",
        "--prefix",
        "none",
    ]));
    assert!(!tree.iter().any(|p| p == "clawdeck-verify"));
    let features = cargo(&[
        "tree",
        "-p",
        "clawdeck",
        "--no-default-features",
        "-e",
        "normal,features",
        "-i",
        "hyper",
    ]);
    assert!(
        !features.contains("hyper feature \"server\""),
        "hyper's server is still built:\n{features}"
    );
    // And the default build has both, so the check above means something.
    let default = packages(&cargo(&[
        "tree", "-p", "clawdeck", "-e", "normal", "--prefix", "none",
    ]));
    assert!(default.iter().any(|p| p == "clawdeck-verify"));
}

#[test]
fn the_console_reaches_the_crates_below_through_the_facade() {
    let metadata: serde_json::Value =
        serde_json::from_str(&cargo(&["metadata", "--no-deps", "--format-version", "1"]))
            .unwrap_or_else(|e| panic!("cargo metadata: {e}"));
    let tui = metadata["packages"]
        .as_array()
        .and_then(|p| p.iter().find(|p| p["name"] == "clawdeck-tui"))
        .unwrap_or_else(|| panic!("no clawdeck-tui in {metadata}"));
    let mut own: Vec<&str> = tui["dependencies"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|d| d["kind"].is_null())
        .filter_map(|d| d["name"].as_str())
        .filter(|name| name.starts_with("clawdeck"))
        .collect();
    own.sort_unstable();
    assert_eq!(own, ["clawdeck-deck", "clawdeck-mcp"]);
}

/// Where the console's sources (tests included) name a crate below the Deck, or the Deck
/// anywhere but its front door: `file:line: text`. Comments are left out.
fn names_below_the_front_door(src: &Path) -> Vec<String> {
    let mut files = Vec::new();
    every_rust_file(src, &mut files);
    let mut found = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap_or_default();
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            let below = [
                "clawdeck_core",
                "clawdeck_gateway",
                "clawdeck_router",
                "clawdeck_verify",
            ]
            .iter()
            .any(|name| code.contains(name));
            let past_the_door = code
                .match_indices("clawdeck_deck")
                .any(|(at, _)| !code[at..].starts_with("clawdeck_deck::api"));
            if below || past_the_door {
                found.push(format!("{}:{}: {}", file.display(), n + 1, line.trim()));
            }
        }
    }
    found
}

fn every_rust_file(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            every_rust_file(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn the_console_names_nothing_below_the_front_door() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/clawdeck-tui/src");
    let found = names_below_the_front_door(&src);
    assert!(
        found.is_empty(),
        "the console names what is below clawdeck_deck::api:\n{}",
        found.join("\n")
    );
    // The check itself: a planted path below the door is found.
    let planted = std::env::temp_dir().join(format!("clawdeck-front-door-{}", std::process::id()));
    std::fs::create_dir_all(&planted).unwrap_or_else(|e| panic!("{}: {e}", planted.display()));
    std::fs::write(
        planted.join("a.rs"),
        "use clawdeck_deck::api::Deck; // clawdeck_core in a comment\n\
         use clawdeck_deck::clawdeck_core::policy;\nuse clawdeck_gateway::desk;\n",
    )
    .unwrap_or_else(|e| panic!("{}: {e}", planted.display()));
    let planted_found = names_below_the_front_door(&planted);
    let _ = std::fs::remove_dir_all(&planted);
    assert_eq!(planted_found.len(), 2, "{planted_found:?}");
}

/// A source file's module path (`["policy", "channel_groups", "slack"]`) under `src`.
fn module_path(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).unwrap_or(file);
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// The crate's source files, without test-only ones (`tests.rs`, a `tests/` folder).
fn source_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if path.is_dir() && name != "tests" {
            source_files(&path, out);
        } else if name.ends_with(".rs") && name != "tests.rs" {
            out.push(path);
        }
    }
}

/// The file's lines without comments and without its `#[cfg(test)]` items (a test module,
/// a test-only helper): the tests may reach anywhere, the code after them may not.
fn production_lines(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut lines = text.lines().filter(|l| !l.trim_start().starts_with("//"));
    while let Some(line) = lines.next() {
        if line.trim() != "#[cfg(test)]" {
            out.push(line);
            continue;
        }
        // Skip the item the attribute is on: up to the `;` or the `}` that closes it.
        let mut depth = 0i64;
        let mut opened = false;
        for item_line in lines.by_ref() {
            depth += item_line.matches('{').count() as i64;
            depth -= item_line.matches('}').count() as i64;
            opened |= item_line.contains('{');
            let attribute = item_line.trim_start().starts_with("#[");
            if !attribute && depth <= 0 && (opened || item_line.trim_end().ends_with(';')) {
                break;
            }
        }
    }
    out
}

/// The module paths a file's production code names (`crate::a::b`, `super::c`, each item
/// of `super::{d::e, f}`; see [`production_lines`]).
fn named_modules(text: &str, own: &[String]) -> Vec<Vec<String>> {
    let code = production_lines(text).join("\n");
    // `super` is the module's parent (a `mod.rs` is its folder's module).
    let parent = own[..own.len().saturating_sub(1)].to_vec();
    let mut out = Vec::new();
    for (prefix, base) in [("crate::", Vec::new()), ("super::", parent)] {
        for (at, _) in code.match_indices(prefix) {
            let before = code[..at].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            path_and_group(&code[at + prefix.len()..], &base, &mut out);
        }
    }
    out
}

/// The identifier chain at the start of `rest` (`a::b::`), then each item of a `{...}` group
/// that follows it, all under `base`.
fn path_and_group(rest: &str, base: &[String], out: &mut Vec<Vec<String>>) {
    let mut path = base.to_vec();
    let mut consumed = 0;
    for part in rest.split("::") {
        let ident: String = part
            .chars()
            .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_')
            .collect();
        if !ident.is_empty() {
            path.push(ident.clone());
        }
        if ident.len() != part.len() || path.len() > 8 {
            consumed += ident.len();
            break;
        }
        consumed += part.len() + 2;
    }
    let group = rest.get(consumed..).filter(|g| g.starts_with('{'));
    out.push(path.clone());
    let Some(group) = group else {
        return;
    };
    // The group's items at depth one, each read as a chain of its own.
    let (mut depth, mut item_start) = (0usize, 1usize);
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' | ',' if depth == 1 => {
                let item = group[item_start..i].trim_start();
                if !item.starts_with("self") && depth == 1 {
                    path_and_group(item, &path, out);
                }
                item_start = i + 1;
                if c == '}' {
                    return;
                }
            }
            '}' => depth -= 1,
            _ => {}
        }
    }
}

/// Every folder's children (its files and folders) that import each other in a circle, in
/// the crate whose sources are in `src`: `folder: a -> b -> a`.
fn module_cycles(src: &Path) -> Vec<String> {
    let mut files = Vec::new();
    source_files(src, &mut files);
    let modules: BTreeSet<Vec<String>> = files.iter().map(|f| module_path(src, f)).collect();
    // Edges per folder: between the two children of the nearest common folder.
    let mut edges: BTreeMap<Vec<String>, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for file in &files {
        let own = module_path(src, file);
        let text = std::fs::read_to_string(file).unwrap_or_default();
        for target in named_modules(&text, &own) {
            // The longest prefix of the target that is a module of the crate.
            let Some(target) = (1..=target.len())
                .rev()
                .map(|n| target[..n].to_vec())
                .find(|p| modules.contains(p))
            else {
                continue;
            };
            let common = own.iter().zip(&target).take_while(|(a, b)| a == b).count();
            if common >= own.len() || common >= target.len() {
                continue; // an ancestor or a descendant: not a sibling
            }
            edges
                .entry(own[..common].to_vec())
                .or_default()
                .entry(own[common].clone())
                .or_default()
                .insert(target[common].clone());
        }
    }
    let mut found = Vec::new();
    for (folder, graph) in &edges {
        for circle in circles(graph) {
            let place = if folder.is_empty() {
                "the crate root".to_string()
            } else {
                folder.join("::")
            };
            found.push(format!("{place}: {}", circle.join(" -> ")));
        }
    }
    found
}

/// The circles of a graph: for every node that reaches itself, one shortest way round.
fn circles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    let mut seen: BTreeSet<BTreeSet<String>> = BTreeSet::new();
    let mut out = Vec::new();
    for start in graph.keys() {
        // Breadth-first from `start` back to it.
        let mut previous: BTreeMap<String, String> = BTreeMap::new();
        let mut queue: VecDeque<String> = graph[start].iter().cloned().collect();
        for next in &graph[start] {
            previous.insert(next.clone(), start.clone());
        }
        while let Some(node) = queue.pop_front() {
            if &node == start {
                let mut way = vec![start.clone()];
                let mut at = previous[start].clone();
                while &at != start {
                    way.push(at.clone());
                    at = previous[&at].clone();
                }
                way.push(start.clone());
                let n = way.len();
                way[1..n - 1].reverse();
                if seen.insert(way.iter().cloned().collect()) {
                    out.push(way);
                }
                break;
            }
            for next in graph.get(&node).into_iter().flatten() {
                if !previous.contains_key(next) {
                    previous.insert(next.clone(), node.clone());
                    queue.push_back(next.clone());
                }
            }
        }
    }
    out
}

/// No module of any crate imports one that imports it back, at any folder (issue 34: the
/// core's 13 top-level modules were one circle, the console's events, views and widgets
/// another).
#[test]
fn no_module_imports_one_that_imports_it_back() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut srcs = vec![root.join("src")];
    for entry in std::fs::read_dir(root.join("crates")).unwrap_or_else(|e| panic!("crates/: {e}")) {
        srcs.push(
            entry
                .unwrap_or_else(|e| panic!("crates/: {e}"))
                .path()
                .join("src"),
        );
    }
    let mut found = Vec::new();
    for src in &srcs {
        for circle in module_cycles(src) {
            found.push(format!("{}: {circle}", src.display()));
        }
    }
    assert!(
        found.is_empty(),
        "modules in a circle:\n{}",
        found.join("\n")
    );
}
