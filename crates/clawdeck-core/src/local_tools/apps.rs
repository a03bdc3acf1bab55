//! `start_app` and `open_website` (seed 000 §1): local desktop actions.
//!
//! `start_app` finds the application's `.desktop` entry in the XDG data directories and launches
//! it with `gtk-launch <id>`, or, without gtk-launch, runs its `Exec` line split into argv (field
//! codes removed) without a shell. `open_website` hands an http(s) URL to `xdg-open`.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::json;

use super::system_env::{Launch, SystemEnv, launch_detached};
use crate::tool::params::{ReadOptions, read_string, read_string_array};
use crate::tool::{BoxFuture, Tool, ToolCall, ToolError, ToolResult, ToolSpec};

/// How long a launcher gets to fail before it counts as started.
const LAUNCH_WAIT: Duration = Duration::from_secs(3);

/// A parsed `[Desktop Entry]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct DesktopEntry {
    /// Desktop file id: the path under `applications/` with `/` as `-`, e.g. `firefox.desktop`.
    pub id: String,
    pub path: PathBuf,
    pub name: String,
    pub exec: Option<String>,
    pub hidden: bool,
    pub is_application: bool,
}

/// Reads the `[Desktop Entry]` group of a desktop file.
pub(crate) fn parse_desktop_entry(id: &str, path: &Path, text: &str) -> DesktopEntry {
    let mut in_entry = false;
    let (mut name, mut exec, mut hidden, mut kind) = (String::new(), None, false, String::new());
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_entry = line == "[Desktop Entry]";
            continue;
        }
        if !in_entry || line.starts_with('#') {
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        match key.trim() {
            "Name" => name = value.trim().to_string(),
            "Exec" => exec = Some(value.trim().to_string()),
            "Hidden" => hidden = value.trim() == "true",
            "Type" => kind = value.trim().to_string(),
            _ => {}
        }
    }
    DesktopEntry {
        id: id.to_string(),
        path: path.to_path_buf(),
        name,
        exec,
        hidden,
        is_application: kind == "Application",
    }
}

/// Every desktop entry, earlier directories winning for the same id.
pub(crate) fn desktop_entries(env: &SystemEnv) -> Vec<DesktopEntry> {
    let mut seen = std::collections::BTreeSet::new();
    let mut out = Vec::new();
    for dir in env.application_dirs() {
        let mut stack = vec![dir.clone()];
        while let Some(current) = stack.pop() {
            let Ok(read) = std::fs::read_dir(&current) else {
                continue;
            };
            for item in read.flatten() {
                let path = item.path();
                if path.is_dir() {
                    stack.push(path);
                    continue;
                }
                if path.extension().and_then(|e| e.to_str()) != Some("desktop") {
                    continue;
                }
                let Ok(rel) = path.strip_prefix(&dir) else {
                    continue;
                };
                let id = rel.to_string_lossy().replace('/', "-");
                if !seen.insert(id.clone()) {
                    continue;
                }
                if let Ok(text) =
                    crate::regular_file::read_to_string(&path, crate::regular_file::Links::Follow)
                {
                    out.push(parse_desktop_entry(&id, &path, &text));
                }
            }
        }
    }
    out
}

/// The entry for `app`: its id (with or without `.desktop`), else its Name (case-insensitive),
/// else the only id containing it. Hidden entries and non-applications are skipped.
pub(crate) fn find_entry(entries: &[DesktopEntry], app: &str) -> Result<DesktopEntry, String> {
    let wanted = app.trim().to_lowercase();
    let wanted_id = if wanted.ends_with(".desktop") {
        wanted.clone()
    } else {
        format!("{wanted}.desktop")
    };
    let usable: Vec<&DesktopEntry> = entries
        .iter()
        .filter(|e| e.is_application && !e.hidden)
        .collect();
    if let Some(e) = usable.iter().find(|e| e.id.to_lowercase() == wanted_id) {
        return Ok((*e).clone());
    }
    if let Some(e) = usable.iter().find(|e| e.name.to_lowercase() == wanted) {
        return Ok((*e).clone());
    }
    let partial: Vec<&&DesktopEntry> = usable
        .iter()
        .filter(|e| {
            e.id.to_lowercase().contains(&wanted) || e.name.to_lowercase().contains(&wanted)
        })
        .collect();
    match partial.as_slice() {
        [one] => Ok((**one).clone()),
        [] => Err(format!(
            "No application found for \"{app}\" (searched the .desktop entries in the XDG data directories)"
        )),
        many => Err(format!(
            "\"{app}\" matches several applications: {}. Use the desktop id.",
            many.iter()
                .map(|e| e.id.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

/// Splits an `Exec` value into argv per the Desktop Entry spec: double-quoted arguments with
/// `\"`, `\``, `\$`, `\\` escapes; field codes (`%f %F %u %U %i %c %k ...`) dropped, `%%` → `%`.
pub(crate) fn exec_argv(exec: &str) -> Result<Vec<String>, String> {
    let mut args = Vec::new();
    let mut current = String::new();
    let mut in_arg = false;
    let mut quoted = false;
    let mut chars = exec.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                quoted = !quoted;
                in_arg = true;
            }
            '\\' if quoted => match chars.next() {
                Some(n) => current.push(n),
                None => return Err("Exec line ends inside an escape".to_string()),
            },
            ' ' | '\t' if !quoted => {
                if in_arg {
                    args.push(std::mem::take(&mut current));
                    in_arg = false;
                }
            }
            '%' => match chars.next() {
                Some('%') => {
                    current.push('%');
                    in_arg = true;
                }
                // Field codes stand for files/URLs/icons we never pass.
                Some(_) => {}
                None => return Err("Exec line ends with a lone %".to_string()),
            },
            other => {
                current.push(other);
                in_arg = true;
            }
        }
    }
    if quoted {
        return Err("Exec line has an unterminated quote".to_string());
    }
    if in_arg {
        args.push(current);
    }
    if args.is_empty() {
        return Err("Exec line is empty".to_string());
    }
    Ok(args)
}

pub struct StartAppTool {
    spec: ToolSpec,
    env: SystemEnv,
}

impl StartAppTool {
    pub fn new(spec: ToolSpec, env: SystemEnv) -> Self {
        StartAppTool { spec, env }
    }

    async fn run(&self, call: ToolCall) -> Result<ToolResult, ToolError> {
        let app = read_string(&call.params, "app", ReadOptions::required())?.unwrap_or_default();
        let args = read_string_array(&call.params, "args", false)?.unwrap_or_default();
        let env = self.env.clone();
        tokio::task::spawn_blocking(move || start_app(&env, &app, &args))
            .await
            .map_err(|e| ToolError::failed(format!("start_app stopped: {e}")))?
    }
}

fn start_app(env: &SystemEnv, app: &str, extra: &[String]) -> Result<ToolResult, ToolError> {
    // A path names a .desktop file or a program directly.
    if app.contains('/') {
        let path = PathBuf::from(app);
        if path.extension().and_then(|e| e.to_str()) != Some("desktop") {
            use std::os::unix::fs::PermissionsExt;
            let runnable = std::fs::metadata(&path)
                .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0);
            if !runnable.unwrap_or(false) {
                return Err(ToolError::input(format!(
                    "{app} is neither a .desktop file nor an executable program"
                )));
            }
            let launch = launch_detached(&path, extra, LAUNCH_WAIT)
                .map_err(|e| ToolError::failed(format!("Starting {app} failed: {e}")))?;
            return Ok(launched(app, app, "exec", &path, launch));
        }
    }
    let entry = if app.contains('/') {
        let path = PathBuf::from(app);
        // A path from the model: a FIFO or device there must not block the call.
        let text = crate::regular_file::read_to_string(&path, crate::regular_file::Links::Follow)
            .map_err(|e| ToolError::failed(format!("Cannot read {app}: {e}")))?;
        let id = path
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        parse_desktop_entry(&id, &path, &text)
    } else {
        find_entry(&desktop_entries(env), app).map_err(ToolError::input)?
    };
    // gtk-launch finds entries by id in the XDG directories only, so a .desktop file given by
    // path runs through its Exec line.
    let gtk = if app.contains('/') {
        None
    } else {
        env.find_program("gtk-launch")
    };
    let (launcher, program, args) = match gtk {
        Some(gtk) => {
            let mut args = vec![entry.id.trim_end_matches(".desktop").to_string()];
            args.extend(extra.iter().cloned());
            ("gtk-launch", gtk, args)
        }
        None => {
            let exec = entry.exec.clone().ok_or_else(|| {
                ToolError::failed(format!("{} has no Exec line", entry.path.display()))
            })?;
            let argv = exec_argv(&exec)
                .map_err(|e| ToolError::failed(format!("{}: {e}", entry.path.display())))?;
            let program = if argv[0].contains('/') {
                PathBuf::from(&argv[0])
            } else {
                env.find_program(&argv[0]).ok_or_else(|| {
                    ToolError::failed(format!(
                        "{} runs {}, which is not on PATH (and gtk-launch is not installed)",
                        entry.id, argv[0]
                    ))
                })?
            };
            let mut args = argv[1..].to_vec();
            args.extend(extra.iter().cloned());
            ("exec", program, args)
        }
    };
    let launch = launch_detached(&program, &args, LAUNCH_WAIT)
        .map_err(|e| ToolError::failed(format!("Starting {} failed: {e}", entry.name)))?;
    let name = if entry.name.is_empty() {
        entry.id.clone()
    } else {
        entry.name.clone()
    };
    let mut result = launched(&name, &entry.id, launcher, &program, launch);
    if let serde_json::Value::Object(details) = &mut result.details {
        details.insert(
            "desktopFile".to_string(),
            json!(entry.path.display().to_string()),
        );
    }
    Ok(result)
}

fn launched(name: &str, id: &str, launcher: &str, program: &Path, launch: Launch) -> ToolResult {
    let pid = match launch {
        Launch::StillRunning { pid } => Some(pid),
        Launch::Exited => None,
    };
    let text = if name == id {
        format!("Started {name}")
    } else {
        format!("Started {name} ({id})")
    };
    ToolResult::text(
        text,
        json!({"status": "completed", "app": id, "name": name, "launcher": launcher,
               "program": program.display().to_string(), "pid": pid}),
    )
}

impl Tool for StartAppTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }
    fn execute(&self, call: ToolCall) -> BoxFuture<'_, Result<ToolResult, ToolError>> {
        Box::pin(self.run(call))
    }
}

/// Accepts only `http://` and `https://` URLs with a host (the parsed URL's, not text around a
/// ':' or '@') and no whitespace or control characters.
pub(crate) fn check_url(url: &str) -> Result<String, String> {
    let url = url.trim();
    if url.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(format!(
            "The URL contains whitespace or control characters: {url:?}"
        ));
    }
    let only_web = || format!("Only http:// and https:// URLs can be opened, not {url:?}");
    let parsed = match url::Url::parse(url) {
        Ok(parsed) => parsed,
        Err(url::ParseError::EmptyHost) => return Err(format!("The URL has no host: {url:?}")),
        Err(url::ParseError::RelativeUrlWithoutBase) => return Err(only_web()),
        Err(err) => return Err(format!("The URL cannot be opened ({err}): {url:?}")),
    };
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err(only_web());
    }
    if parsed.host_str().is_none_or(str::is_empty) {
        return Err(format!("The URL has no host: {url:?}"));
    }
    Ok(url.to_string())
}

pub struct OpenWebsiteTool {
    spec: ToolSpec,
    env: SystemEnv,
}

impl OpenWebsiteTool {
    pub fn new(spec: ToolSpec, env: SystemEnv) -> Self {
        OpenWebsiteTool { spec, env }
    }

    async fn run(&self, call: ToolCall) -> Result<ToolResult, ToolError> {
        let url = read_string(&call.params, "url", ReadOptions::required())?.unwrap_or_default();
        let url = check_url(&url).map_err(ToolError::input)?;
        let xdg_open = self.env.find_program("xdg-open").ok_or_else(|| {
            ToolError::failed(
                "open_website needs xdg-open (package xdg-utils), which was not found on PATH",
            )
        })?;
        let args = vec![url.clone()];
        let launch =
            tokio::task::spawn_blocking(move || launch_detached(&xdg_open, &args, LAUNCH_WAIT))
                .await
                .map_err(|e| ToolError::failed(format!("open_website stopped: {e}")))?
                .map_err(|e| ToolError::failed(format!("Opening {url} failed: {e}")))?;
        let pid = match launch {
            Launch::StillRunning { pid } => Some(pid),
            Launch::Exited => None,
        };
        Ok(ToolResult::text(
            format!("Opened {url}"),
            json!({"status": "completed", "url": url, "pid": pid}),
        ))
    }
}

impl Tool for OpenWebsiteTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }
    fn execute(&self, call: ToolCall) -> BoxFuture<'_, Result<ToolResult, ToolError>> {
        Box::pin(self.run(call))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exec_lines_split_like_the_spec_says() {
        assert_eq!(exec_argv("firefox %u").unwrap(), vec!["firefox"]);
        assert_eq!(
            exec_argv(r#""/opt/My App/run" --name "a \"b\"" 100%%"#).unwrap(),
            vec!["/opt/My App/run", "--name", "a \"b\"", "100%"]
        );
        assert!(exec_argv(r#"app "unterminated"#).is_err());
        assert!(exec_argv("%F").is_err());
    }

    #[test]
    fn urls_must_be_http_with_a_host() {
        assert_eq!(
            check_url(" https://example.com/a?b ").unwrap(),
            "https://example.com/a?b"
        );
        assert!(check_url("HTTP://Example.com").is_ok());
        assert!(check_url("file:///etc/passwd").is_err());
        assert!(check_url("javascript:alert(1)").is_err());
        assert!(check_url("https://").is_err());
        assert!(check_url("https://a.com/\nx").is_err());
        assert!(check_url("-https://a.com").is_err());
        assert!(check_url("https://user@").is_err());
        assert!(check_url("https://:80").is_err());
        assert!(check_url("https://x@a.com:8080/p").is_ok());
    }

    #[test]
    fn entries_match_by_id_then_name_then_unique_part() {
        let entry = |id: &str, name: &str| DesktopEntry {
            id: id.into(),
            path: PathBuf::from(id),
            name: name.into(),
            exec: Some("x".into()),
            hidden: false,
            is_application: true,
        };
        let entries = vec![
            entry("org.gnome.Calculator.desktop", "Calculator"),
            entry("firefox.desktop", "Firefox"),
            entry("firefox-dev.desktop", "Firefox Dev"),
        ];
        assert_eq!(
            find_entry(&entries, "firefox").unwrap().id,
            "firefox.desktop"
        );
        assert_eq!(
            find_entry(&entries, "calculator").unwrap().id,
            "org.gnome.Calculator.desktop"
        );
        assert_eq!(
            find_entry(&entries, "gnome").unwrap().id,
            "org.gnome.Calculator.desktop"
        );
        assert!(
            find_entry(&entries, "fire")
                .unwrap_err()
                .contains("several")
        );
        assert!(
            find_entry(&entries, "gimp")
                .unwrap_err()
                .starts_with("No application found")
        );
    }
}
