//! The workspace's shape, read from cargo itself: the crates, and the rules their dependencies
//! keep (docs/architecture.md draws them). A dependency that breaks a rule fails here, not in a
//! review.

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
