//! Builds the `openclaw agent ...` argv (seed 000 §3.3). The message is always one argv element,
//! never passed through a shell.

use std::path::Path;

use crate::config::settings::RouterSettings;

use super::texts;

/// Whom the run goes to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// `--agent <id>`.
    Agent(String),
    /// `--to <E.164 phone>`.
    To(String),
}

impl Target {
    pub(crate) fn agent(&self) -> Option<&str> {
        match self {
            Target::Agent(a) => Some(a),
            Target::To(_) => None,
        }
    }

    pub(crate) fn to(&self) -> Option<&str> {
        match self {
            Target::To(t) => Some(t),
            Target::Agent(_) => None,
        }
    }

    /// The agent id used by the HTTP transport (`model: "openclaw/<agent>"`); a phone target
    /// goes to the default agent (`main`) there, since the endpoint has no `--to`.
    pub(crate) fn http_agent(&self, settings: &RouterSettings) -> String {
        match self {
            Target::Agent(a) => a.clone(),
            Target::To(_) => settings
                .default_agent
                .clone()
                .unwrap_or_else(|| "main".to_string()),
        }
    }
}

/// A named agent wins; else the default phone (`--to`); else the default agent.
/// Errors with the exact text the tool returns.
pub(crate) fn resolve_target(
    agent: Option<&str>,
    settings: &RouterSettings,
) -> Result<Target, &'static str> {
    let non_blank = |s: &Option<String>| {
        s.as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
    };
    if let Some(agent) = agent.map(str::trim).filter(|a| !a.is_empty()) {
        return Ok(Target::Agent(agent.to_string()));
    }
    if let Some(to) = non_blank(&settings.default_to) {
        return Ok(Target::To(to));
    }
    if let Some(agent) = non_blank(&settings.default_agent) {
        return Ok(Target::Agent(agent));
    }
    Err(texts::NO_TARGET)
}

/// The binary: `OPENCLAW_BIN` when set and non-empty, else `router.bin`.
pub(crate) fn resolve_bin(
    settings: &RouterSettings,
    env: &dyn Fn(&str) -> Option<String>,
) -> String {
    env("OPENCLAW_BIN")
        .filter(|b| !b.trim().is_empty())
        .unwrap_or_else(|| settings.bin.clone())
}

/// How the message reaches the CLI.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum MessageArg<'a> {
    /// `--message=<text>`: the `=` form keeps a message that begins with `-` from being read as a
    /// flag by commander.
    Inline(&'a str),
    /// `--message-file <path>` (the CLI reads UTF-8, max 4 MiB).
    File(&'a Path),
}

/// Whether a message of this size goes through `--message-file`.
pub(crate) fn needs_message_file(message: &str, settings: &RouterSettings) -> bool {
    settings.message_file_threshold > 0 && message.len() > settings.message_file_threshold
}

/// `<bin> agent <extra args> (--agent A | --to P) (--message=<text> | --message-file <path>)`,
/// wrapped as `wsl.exe -e <bin> ...` in WSL mode.
pub(crate) fn build_argv(
    bin: &str,
    settings: &RouterSettings,
    target: &Target,
    message: MessageArg<'_>,
) -> Vec<String> {
    let mut argv = Vec::new();
    if settings.wsl {
        argv.push("wsl.exe".to_string());
        argv.push("-e".to_string());
    }
    argv.push(bin.to_string());
    argv.push("agent".to_string());
    argv.extend(settings.extra_args.iter().cloned());
    match target {
        Target::Agent(a) => {
            argv.push("--agent".to_string());
            argv.push(a.clone());
        }
        Target::To(p) => {
            argv.push("--to".to_string());
            argv.push(p.clone());
        }
    }
    match message {
        MessageArg::Inline(text) => argv.push(format!("--message={text}")),
        MessageArg::File(path) => {
            argv.push("--message-file".to_string());
            let shown = path.to_string_lossy().into_owned();
            argv.push(if settings.wsl {
                windows_to_wsl_path(&shown)
            } else {
                shown
            });
        }
    }
    argv
}

/// `C:\Users\x\t.md` → `/mnt/c/Users/x/t.md`, so that the CLI inside WSL can read a file written
/// on the Windows side. Other paths are returned unchanged.
pub(crate) fn windows_to_wsl_path(path: &str) -> String {
    let bytes = path.as_bytes();
    if bytes.len() >= 3
        && bytes[0].is_ascii_alphabetic()
        && bytes[1] == b':'
        && (bytes[2] == b'\\' || bytes[2] == b'/')
    {
        let drive = (bytes[0] as char).to_ascii_lowercase();
        let rest = path[3..].replace('\\', "/");
        return format!("/mnt/{drive}/{rest}");
    }
    path.to_string()
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn settings() -> RouterSettings {
        RouterSettings::default()
    }

    #[test]
    fn agent_wins_over_default_phone() {
        let mut s = settings();
        s.default_to = Some("+15555550123".into());
        assert_eq!(
            resolve_target(Some(" ops "), &s),
            Ok(Target::Agent("ops".into()))
        );
        assert_eq!(
            resolve_target(Some("  "), &s),
            Ok(Target::To("+15555550123".into()))
        );
        assert_eq!(
            resolve_target(None, &s),
            Ok(Target::To("+15555550123".into()))
        );
    }

    #[test]
    fn default_agent_used_when_no_phone_and_error_when_neither() {
        let mut s = settings();
        assert_eq!(resolve_target(None, &s), Err(texts::NO_TARGET));
        s.default_agent = Some("main".into());
        assert_eq!(resolve_target(None, &s), Ok(Target::Agent("main".into())));
    }

    #[test]
    fn argv_keeps_message_as_one_element() {
        let s = settings();
        let msg = "-x \"quoted\" 'single'\nline2 日志 $(rm -rf /)";
        let argv = build_argv(
            "openclaw",
            &s,
            &Target::Agent("ops".into()),
            MessageArg::Inline(msg),
        );
        assert_eq!(
            argv,
            vec![
                "openclaw",
                "agent",
                "--agent",
                "ops",
                &format!("--message={msg}")
            ]
        );
    }

    #[test]
    fn argv_with_phone_extra_args_and_wsl() {
        let mut s = settings();
        s.extra_args = vec!["--local".into(), "--thinking".into(), "low".into()];
        s.wsl = true;
        let argv = build_argv(
            "openclaw",
            &s,
            &Target::To("+1555".into()),
            MessageArg::Inline("hi"),
        );
        assert_eq!(
            argv,
            vec![
                "wsl.exe",
                "-e",
                "openclaw",
                "agent",
                "--local",
                "--thinking",
                "low",
                "--to",
                "+1555",
                "--message=hi"
            ]
        );
    }

    #[test]
    fn message_file_argv_and_wsl_path() {
        let mut s = settings();
        let p = PathBuf::from("/tmp/m.md");
        let argv = build_argv("oc", &s, &Target::Agent("a".into()), MessageArg::File(&p));
        assert_eq!(
            argv,
            vec!["oc", "agent", "--agent", "a", "--message-file", "/tmp/m.md"]
        );
        s.wsl = true;
        let p = PathBuf::from(r"C:\Users\me\AppData\Local\Temp\m.md");
        let argv = build_argv(
            "openclaw",
            &s,
            &Target::Agent("a".into()),
            MessageArg::File(&p),
        );
        assert_eq!(
            argv.last().map(String::as_str),
            Some("/mnt/c/Users/me/AppData/Local/Temp/m.md")
        );
    }

    #[test]
    fn threshold_decides_message_file() {
        let mut s = settings();
        s.message_file_threshold = 10;
        assert!(!needs_message_file("0123456789", &s));
        assert!(needs_message_file("01234567890", &s));
        s.message_file_threshold = 0;
        assert!(!needs_message_file(&"x".repeat(100_000), &s));
    }

    #[test]
    fn openclaw_bin_env_overrides_settings() {
        let s = settings();
        assert_eq!(resolve_bin(&s, &|_| None), "openclaw");
        assert_eq!(
            resolve_bin(&s, &|k| (k == "OPENCLAW_BIN")
                .then(|| "/opt/oc".to_string())),
            "/opt/oc"
        );
        assert_eq!(resolve_bin(&s, &|_| Some(" ".to_string())), "openclaw");
    }
}
