//! `clawdeck paths` lists every file and directory clawdeck reads or writes. On a fresh home
//! nothing exists and nothing is created by asking; after clawdeck has run, the places it wrote
//! are listed as existing, at the paths the variables (HOME, XDG_*, --config,
//! OPENCLAW_CONFIG_PATH, CLAWDECK_LOG_FILE) put them.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// A home whose XDG dirs are set apart (none exists yet), with no OpenClaw in reach.
struct Home {
    dir: tempfile::TempDir,
}

impl Home {
    fn new() -> Home {
        Home {
            dir: tempfile::tempdir().unwrap(),
        }
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    fn command(&self) -> Command {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_clawdeck"));
        cmd.current_dir(self.dir.path())
            .env("HOME", self.path("home"))
            .env("XDG_CONFIG_HOME", self.path("xdg-config"))
            .env("XDG_STATE_HOME", self.path("xdg-state"))
            .env("XDG_DATA_HOME", self.path("xdg-data"))
            .env("XDG_CACHE_HOME", self.path("xdg-cache"))
            .env("OPENCLAW_BIN", self.path("no-openclaw"))
            .env_remove("OPENCLAW_CONFIG_PATH")
            .env_remove("OPENCLAW_STATE_DIR")
            .env_remove("CLAWDECK_OPENCLAW_VERSION")
            .env_remove("CLAWDECK_LOG_FILE");
        cmd
    }

    /// `clawdeck paths --json` (plus `extra`), as (what → place).
    fn places(&self, extra: &[&str], env: &[(&str, &Path)]) -> Vec<(String, Value)> {
        let mut cmd = self.command();
        cmd.args(["paths", "--json"]).args(extra);
        for (var, value) in env {
            cmd.env(var, value);
        }
        let out = cmd.output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let json: Value = serde_json::from_slice(&out.stdout).unwrap();
        json["paths"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| (p["what"].as_str().unwrap().to_string(), p.clone()))
            .collect()
    }

    /// Every file below the home, relative.
    fn files(&self) -> Vec<String> {
        fn walk(dir: &Path, root: &Path, out: &mut Vec<String>) {
            for entry in std::fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                out.push(path.strip_prefix(root).unwrap().display().to_string());
                if path.is_dir() {
                    walk(&path, root, out);
                }
            }
        }
        let mut out = Vec::new();
        walk(self.dir.path(), self.dir.path(), &mut out);
        out
    }
}

fn place<'a>(places: &'a [(String, Value)], what: &str) -> &'a Value {
    &places
        .iter()
        .find(|(w, _)| w == what)
        .unwrap_or_else(|| panic!("no {what:?} in {places:?}"))
        .1
}

fn path_of(places: &[(String, Value)], what: &str) -> PathBuf {
    PathBuf::from(place(places, what)["path"].as_str().unwrap())
}

fn exists(places: &[(String, Value)], what: &str) -> bool {
    place(places, what)["exists"].as_bool().unwrap()
}

/// What the paths list names and where the variables of [`Home`] put each.
const EXPECTED: &[(&str, &str)] = &[
    ("openclaw config", "home/.openclaw/openclaw.json"),
    ("clawdeck settings", "xdg-config/clawdeck/clawdeck.json5"),
    ("state dir", "xdg-state/clawdeck"),
    ("device identity", "xdg-state/clawdeck/gateway-device.json"),
    ("decision log", "xdg-state/clawdeck/decisions"),
    ("console copies", "xdg-state/clawdeck"),
    ("synced packs", "xdg-data/clawdeck/packs"),
    ("version cache", "xdg-cache/clawdeck/openclaw-version.json"),
    ("demo workspace", "xdg-cache/clawdeck/demo-workspace"),
    ("demo skills", "xdg-cache/clawdeck/demo-skills"),
];

#[test]
fn on_a_fresh_home_nothing_exists_and_asking_creates_nothing() {
    let home = Home::new();
    let places = home.places(&[], &[]);
    for (what, rel) in EXPECTED {
        assert_eq!(path_of(&places, what), home.path(rel), "{what}");
        assert!(!exists(&places, what), "{what} exists on a fresh home");
    }
    assert!(
        place(&places, "openclaw config")["note"]
            .as_str()
            .unwrap()
            .contains("embedded demo"),
        "{places:?}"
    );
    assert_eq!(
        path_of(&places, "console log"),
        std::env::temp_dir().join("clawdeck.log")
    );
    assert_eq!(path_of(&places, "scratch files"), std::env::temp_dir());
    // Every place clawdeck uses is in the list.
    assert_eq!(places.len(), EXPECTED.len() + 2, "{places:?}");
    assert!(home.files().is_empty(), "created: {:?}", home.files());
}

#[test]
fn what_clawdeck_wrote_is_listed_as_existing() {
    let home = Home::new();
    // A call on the demo (its workspace, the decision log and so the state dir), then its
    // prompt (the demo's skills).
    for args in [
        &["invoke", "read", "-p", r#"{"path": "README.md"}"#][..],
        &["prompt"][..],
    ] {
        let run = home.command().args(args).output().unwrap();
        assert!(
            run.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&run.stderr)
        );
    }
    let places = home.places(&[], &[]);
    for what in ["state dir", "decision log", "demo workspace", "demo skills"] {
        assert!(
            exists(&places, what),
            "{what} not created by invoke: {places:?}"
        );
    }
    for what in ["device identity", "synced packs", "clawdeck settings"] {
        assert!(!exists(&places, what), "{what}");
    }
    // Where the listed decision log is, `clawdeck log` finds the call.
    let log = path_of(&places, "decision log");
    assert!(
        std::fs::read_dir(&log).unwrap().next().is_some(),
        "{}",
        log.display()
    );
}

#[test]
fn the_config_and_its_settings_follow_the_flag_the_variable_and_the_home_file() {
    let home = Home::new();
    std::fs::create_dir_all(home.path("home/.openclaw")).unwrap();
    std::fs::write(home.path("home/.openclaw/openclaw.json"), "{}").unwrap();
    std::fs::write(home.path("home/.openclaw/clawdeck.json5"), "{}").unwrap();
    let places = home.places(&[], &[]);
    let config = place(&places, "openclaw config");
    assert_eq!(config["from"], "default");
    assert!(exists(&places, "openclaw config"));
    assert_eq!(
        path_of(&places, "clawdeck settings"),
        home.path("home/.openclaw/clawdeck.json5")
    );
    assert!(exists(&places, "clawdeck settings"));

    std::fs::create_dir(home.path("elsewhere")).unwrap();
    let by_env = home.path("elsewhere/openclaw.json5");
    let places = home.places(&[], &[("OPENCLAW_CONFIG_PATH", &by_env)]);
    assert_eq!(
        place(&places, "openclaw config")["from"],
        "$OPENCLAW_CONFIG_PATH"
    );
    assert_eq!(path_of(&places, "openclaw config"), by_env);
    assert!(!exists(&places, "openclaw config"));
    assert_eq!(
        path_of(&places, "clawdeck settings"),
        home.path("elsewhere/clawdeck.json5")
    );

    let flag = home.path("flag.json5").display().to_string();
    let places = home.places(&["--config", &flag], &[("OPENCLAW_CONFIG_PATH", &by_env)]);
    assert_eq!(place(&places, "openclaw config")["from"], "--config");
    assert_eq!(path_of(&places, "openclaw config"), PathBuf::from(&flag));

    let log = home.path("console.log");
    let places = home.places(&[], &[("CLAWDECK_LOG_FILE", &log)]);
    assert_eq!(path_of(&places, "console log"), log);
    assert!(place(&places, "console log")["from"] == "$CLAWDECK_LOG_FILE");
}

#[test]
fn without_a_home_the_places_that_need_one_say_so() {
    let home = Home::new();
    let out = home
        .command()
        .args(["paths"])
        .env_remove("HOME")
        .env_remove("XDG_STATE_HOME")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    let header = text.lines().next().unwrap();
    assert!(
        header.starts_with("WHAT") && header.contains("EXISTS"),
        "{text}"
    );
    let identity = text
        .lines()
        .find(|l| l.starts_with("device identity"))
        .unwrap();
    assert!(
        identity.contains("cannot be placed") && identity.ends_with(" -"),
        "{identity}"
    );
    let json = home
        .command()
        .args(["paths", "--json"])
        .env_remove("HOME")
        .env_remove("XDG_STATE_HOME")
        .output()
        .unwrap();
    let json: Value = serde_json::from_slice(&json.stdout).unwrap();
    let identity = &json["paths"][3];
    assert_eq!(identity["what"], "device identity");
    assert_eq!(identity["path"], Value::Null);
    assert!(
        identity["note"].as_str().unwrap().contains("HOME"),
        "{identity}"
    );
    let config = text
        .lines()
        .find(|l| l.starts_with("openclaw config"))
        .unwrap();
    assert!(config.contains("cannot be placed"), "{config}");
    // The places the other variables still put somewhere are listed with their paths.
    assert!(text.contains(&home.path("xdg-data/clawdeck/packs").display().to_string()));
}
