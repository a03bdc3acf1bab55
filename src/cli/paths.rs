//! `clawdeck paths`: every file and directory clawdeck reads or writes, where it is, why there
//! (a flag, a variable, the default) and whether it exists. Each place comes from the function
//! the code that uses it calls, so this list cannot drift from what clawdeck does. Nothing is
//! created or loaded: the OpenClaw config is located, not read.

use std::path::{Path, PathBuf};

use clap::Args;
use serde::Serialize;
use serde_json::json;

use super::columns::{ColumnLayout, cell};
use super::{Cli, exit};
use crate::config::{self, ConfigSource};

#[derive(Debug, Args)]
pub struct PathsArgs {
    /// Print JSON
    #[arg(long)]
    pub json: bool,
}

/// One place clawdeck reads or writes.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Place {
    /// What is kept there (`openclaw config`, `decision log`).
    pub what: &'static str,
    pub kind: Kind,
    /// None when it cannot be placed (neither the XDG variable nor HOME is set).
    #[serde(serialize_with = "lossy_path")]
    pub path: Option<PathBuf>,
    pub exists: bool,
    /// `reads`, `writes` or `reads, writes`.
    pub access: &'static str,
    /// What placed it there: a flag, a variable (`$XDG_STATE_HOME`), `default`, ...
    pub from: String,
    /// What it is for, or why it cannot be placed.
    pub note: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    File,
    Dir,
}

impl Place {
    fn new(what: &'static str, kind: Kind, access: &'static str, path: Option<PathBuf>) -> Place {
        let exists = path.as_deref().is_some_and(|p| match kind {
            Kind::File => p.is_file(),
            Kind::Dir => p.is_dir(),
        });
        Place {
            what,
            kind,
            path,
            exists,
            access,
            from: String::new(),
            note: String::new(),
        }
    }

    fn from(mut self, from: impl Into<String>, note: impl Into<String>) -> Place {
        self.from = match self.path {
            Some(_) => from.into(),
            None => "cannot be placed".to_string(),
        };
        self.note = note.into();
        self
    }
}

/// `$VAR` when the variable is set (not empty), else `default`.
fn placed_by(var: &str) -> String {
    match std::env::var_os(var).filter(|v| !v.is_empty()) {
        Some(_) => format!("${var}"),
        None => "default".to_string(),
    }
}

/// A path in JSON: its text (a non-UTF-8 byte shown as U+FFFD), or null.
fn lossy_path<S: serde::Serializer>(path: &Option<PathBuf>, out: S) -> Result<S::Ok, S::Error> {
    match path {
        Some(path) => out.serialize_str(&path.to_string_lossy()),
        None => out.serialize_none(),
    }
}

/// The OpenClaw config a command would load and clawdeck's settings file that goes with it.
fn config_places(explicit: Option<&Path>) -> [Place; 2] {
    let Some((path, source)) = config::locate(explicit) else {
        let config = Place::new(
            "openclaw config",
            Kind::File,
            "reads",
            config::home_config_path(),
        )
        .from("default", "absent, so the embedded demo config answers");
        let settings = Place::new(
            "clawdeck settings",
            Kind::File,
            "reads",
            config::user_settings_path(),
        )
        .from(placed_by("XDG_CONFIG_HOME"), "the demo config's settings");
        return [config, settings];
    };
    let from = match source {
        ConfigSource::Flag => "--config",
        ConfigSource::Env => "$OPENCLAW_CONFIG_PATH",
        _ => "default",
    };
    let settings = config::settings_path_beside(&path);
    [
        Place::new("openclaw config", Kind::File, "reads", Some(path))
            .from(from, "the config every command reads"),
        Place::new("clawdeck settings", Kind::File, "reads", settings).from(
            "beside the config",
            "clawdeck.json5 beside the OpenClaw config",
        ),
    ]
}

/// clawdeck's own state: the dir, the device identity in it, the decision log, console copies.
fn state_places() -> Vec<Place> {
    let state = crate::paths::state_dir();
    let (from, unplaced) = match &state {
        Ok(_) => (placed_by("XDG_STATE_HOME"), None),
        Err(err) => ("cannot be placed".to_string(), Some(err.clone())),
    };
    let note = |what: &str| unplaced.clone().unwrap_or_else(|| what.to_string());
    let identity = state
        .as_ref()
        .ok()
        .map(|dir| dir.join(crate::gateway::identity::IDENTITY_FILE));
    let decisions = crate::decision_log::default_dir().ok();
    vec![
        Place::new("state dir", Kind::Dir, "reads, writes", state.clone().ok())
            .from(&from, note("created 0700")),
        Place::new("device identity", Kind::File, "reads, writes", identity).from(
            &from,
            note("the gateway device key, created 0600 on first connect"),
        ),
        Place::new("decision log", Kind::Dir, "reads, writes", decisions).from(
            &from,
            note("one line per call through the pipeline; `clawdeck log` reads it"),
        ),
        Place::new(
            "console copies",
            Kind::Dir,
            "writes",
            Some(crate::paths::console_copies_dir()),
        )
        .from(
            placed_by("XDG_STATE_HOME"),
            "what `y` copies in the console",
        ),
    ]
}

/// Data and caches: synced packs, the `openclaw --version` cache, the demo's files.
fn data_and_cache_places() -> Vec<Place> {
    let cache = placed_by("XDG_CACHE_HOME");
    vec![
        Place::new(
            "synced packs",
            Kind::Dir,
            "reads, writes",
            crate::semantics::synced_packs_dir(),
        )
        .from(
            placed_by("XDG_DATA_HOME"),
            "`clawdeck catalog sync` stores packs here",
        ),
        Place::new(
            "version cache",
            Kind::File,
            "reads, writes",
            crate::semantics::version_cache_file(),
        )
        .from(&cache, "the installed `openclaw --version`"),
        Place::new(
            "demo workspace",
            Kind::Dir,
            "reads, writes",
            Some(config::demo_workspace::demo_workspace_dir()),
        )
        .from(&cache, "the embedded demo's workspace"),
        Place::new(
            "demo skills",
            Kind::Dir,
            "reads, writes",
            Some(crate::config::demo_skills::demo_skills_dir()),
        )
        .from(&cache, "the embedded demo's skills"),
    ]
}

/// The console's log file and the temp dir clawdeck's scratch files go in.
fn log_and_scratch_places() -> Vec<Place> {
    let (log, named) = super::logging::console_log_file();
    let from = if named {
        "$CLAWDECK_LOG_FILE"
    } else {
        "temp dir"
    };
    vec![
        Place::new("console log", Kind::File, "writes", Some(log))
            .from(from, "the console's log, written with CLAWDECK_LOG"),
        Place::new(
            "scratch files",
            Kind::Dir,
            "writes",
            Some(std::env::temp_dir()),
        )
        .from(
            "temp dir",
            "router message files, verify's isolated homes (removed after use)",
        ),
    ]
}

/// Every place, in the order `clawdeck paths` prints them.
pub fn places(explicit_config: Option<&Path>) -> Vec<Place> {
    let mut places: Vec<Place> = config_places(explicit_config).into();
    places.extend(state_places());
    places.extend(data_and_cache_places());
    places.extend(log_and_scratch_places());
    places
}

const HEADER: [&str; 5] = ["WHAT", "EXISTS", "ACCESS", "FROM", "PATH"];

pub fn run(cli: &Cli, args: &PathsArgs) -> u8 {
    let places = places(cli.config.as_deref());
    if args.json {
        let out = json!({ "paths": places });
        outln!("{}", crate::cli::json_text::pretty(&out));
        return exit::OK;
    }
    // The path last: it is the longest cell, and nothing is padded after it.
    let rows: Vec<Vec<String>> = places
        .iter()
        .map(|place| {
            vec![
                place.what.to_string(),
                if place.exists { "yes" } else { "no" }.to_string(),
                place.access.to_string(),
                cell(&place.from),
                place
                    .path
                    .as_deref()
                    .map(|p| cell(&p.display().to_string()))
                    .unwrap_or_else(|| "-".to_string()),
            ]
        })
        .collect();
    let layout = ColumnLayout::fit(&HEADER, &rows, usize::MAX);
    let mut text = layout.line(&HEADER) + "\n";
    for row in &rows {
        text.push_str(&layout.line(row));
        text.push('\n');
    }
    super::out_untrusted(cli, &text);
    exit::OK
}
