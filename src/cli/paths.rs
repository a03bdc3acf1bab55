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
    /// Why it is there: the flag or variable that placed it, or `default`; and what it is for.
    pub why: String,
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
            why: String::new(),
        }
    }

    fn why(mut self, why: impl Into<String>) -> Place {
        self.why = why.into();
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
        .why("default; absent, so the embedded demo config answers");
        let settings = Place::new(
            "clawdeck settings",
            Kind::File,
            "reads",
            config::user_settings_path(),
        )
        .why(format!(
            "{}; the demo config's settings",
            placed_by("XDG_CONFIG_HOME")
        ));
        return [config, settings];
    };
    let why = match source {
        ConfigSource::Flag => "--config",
        ConfigSource::Env => "$OPENCLAW_CONFIG_PATH",
        _ => "default",
    };
    let settings = config::settings_path_beside(&path);
    [
        Place::new("openclaw config", Kind::File, "reads", Some(path)).why(why),
        Place::new("clawdeck settings", Kind::File, "reads", settings)
            .why("beside the OpenClaw config"),
    ]
}

/// clawdeck's own state: the dir, the device identity in it, the decision log, console copies.
fn state_places() -> Vec<Place> {
    let state = crate::gateway::paths::state_dir();
    let state_why = |what: &str| match &state {
        Ok(_) => format!("{}; {what}", placed_by("XDG_STATE_HOME")),
        Err(err) => format!("cannot be placed: {err}"),
    };
    let identity = state
        .as_ref()
        .ok()
        .map(|dir| dir.join(crate::gateway::identity::IDENTITY_FILE));
    let decisions = crate::decision_log::default_dir().ok();
    vec![
        Place::new("state dir", Kind::Dir, "reads, writes", state.clone().ok())
            .why(state_why("created 0700")),
        Place::new("device identity", Kind::File, "reads, writes", identity)
            .why(state_why("the gateway key, created 0600 on first connect")),
        Place::new("decision log", Kind::Dir, "reads, writes", decisions).why(state_why(
            "every call through the pipeline; `clawdeck log` reads it",
        )),
        Place::new(
            "console copies",
            Kind::Dir,
            "writes",
            Some(crate::tui::app::default_copy_dir()),
        )
        .why(format!(
            "{}; what `y` copies in the console",
            placed_by("XDG_STATE_HOME")
        )),
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
        .why(format!(
            "{}; `clawdeck catalog sync` stores packs here",
            placed_by("XDG_DATA_HOME")
        )),
        Place::new(
            "version cache",
            Kind::File,
            "reads, writes",
            crate::semantics::version_cache_file(),
        )
        .why(format!("{cache}; the installed `openclaw --version`")),
        Place::new(
            "demo workspace",
            Kind::Dir,
            "reads, writes",
            Some(config::demo_workspace::demo_workspace_dir()),
        )
        .why(format!("{cache}; the embedded demo's workspace")),
        Place::new(
            "demo skills",
            Kind::Dir,
            "reads, writes",
            Some(crate::skills::demo::demo_skills_dir()),
        )
        .why(format!("{cache}; the embedded demo's skills")),
    ]
}

/// The console's log file and the temp dir clawdeck's scratch files go in.
fn log_and_scratch_places() -> Vec<Place> {
    let (log, named) = super::logging::console_log_file();
    let log_why = if named {
        "$CLAWDECK_LOG_FILE; the console's log, with CLAWDECK_LOG"
    } else {
        "default; the console's log, with CLAWDECK_LOG"
    };
    vec![
        Place::new("console log", Kind::File, "writes", Some(log)).why(log_why),
        Place::new(
            "scratch files",
            Kind::Dir,
            "writes",
            Some(std::env::temp_dir()),
        )
        .why("the system temp dir; router message files, verify's isolated homes (removed after)"),
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

const HEADER: [&str; 5] = ["WHAT", "EXISTS", "ACCESS", "PATH", "WHY"];

pub fn run(cli: &Cli, args: &PathsArgs) -> u8 {
    let places = places(cli.config.as_deref());
    if args.json {
        let out = json!({ "paths": places });
        outln!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
        return exit::OK;
    }
    let rows: Vec<Vec<String>> = places
        .iter()
        .map(|place| {
            vec![
                place.what.to_string(),
                if place.exists { "yes" } else { "no" }.to_string(),
                place.access.to_string(),
                place
                    .path
                    .as_deref()
                    .map(|p| cell(&p.display().to_string()))
                    .unwrap_or_else(|| "-".to_string()),
                cell(&place.why),
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
