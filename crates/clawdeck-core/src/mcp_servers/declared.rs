//! `mcp.servers` as OpenClaw reads it: which servers are enabled, how each is launched
//! (`command` → stdio; `url` → streamable HTTP or SSE), its `toolFilter` and connect timeout.
//! A server OpenClaw would skip is skipped here too, with its reason.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::Value;

use super::names::safe_server_names;

/// OpenClaw's default connect timeout (`DEFAULT_CONNECTION_TIMEOUT_MS`).
pub(crate) const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(30);

/// How a server is reached.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Launch {
    Stdio {
        command: String,
        args: Vec<String>,
        env: BTreeMap<String, String>,
        cwd: Option<PathBuf>,
    },
    StreamableHttp {
        url: String,
        headers: BTreeMap<String, String>,
    },
    /// OpenClaw's default for a `url` without `transport`; clawdeck does not speak legacy SSE.
    Sse { url: String },
}

/// `toolFilter`: include-then-exclude over the server's own tool names, `*` globs.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct ToolFilter {
    pub include: Vec<String>,
    pub exclude: Vec<String>,
}

impl ToolFilter {
    pub(crate) fn admits(&self, tool: &str) -> bool {
        (self.include.is_empty() || self.include.iter().any(|p| glob_matches(p, tool)))
            && !self.exclude.iter().any(|p| glob_matches(p, tool))
    }
}

/// OpenClaw's MCP filter glob: exact text, `*` for any run of characters.
fn glob_matches(pattern: &str, value: &str) -> bool {
    let pattern = pattern.trim();
    if pattern.is_empty() {
        return false;
    }
    if !pattern.contains('*') {
        return pattern == value;
    }
    let parts: Vec<&str> = pattern.split('*').collect();
    let first = parts[0];
    let last = parts[parts.len() - 1];
    if !value.starts_with(first) {
        return false;
    }
    let end = value.len() - if last.is_empty() { 0 } else { last.len() };
    if !last.is_empty() && (!value.ends_with(last) || end < first.len()) {
        return false;
    }
    let mut cursor = first.len();
    for part in &parts[1..parts.len() - 1] {
        if part.is_empty() {
            continue;
        }
        match value[cursor..].find(part) {
            Some(i) if cursor + i + part.len() <= end => cursor += i + part.len(),
            _ => return false,
        }
    }
    true
}

/// One enabled, launchable server.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct DeclaredServer {
    /// The key under `mcp.servers`.
    pub name: String,
    /// The prefix of its tools (`<safe_name>__<tool>`).
    pub safe_name: String,
    pub launch: Launch,
    pub tool_filter: ToolFilter,
    pub connect_timeout: Duration,
}

impl DeclaredServer {
    /// `mcp.servers.<name>` for messages.
    pub(crate) fn config_path(&self) -> String {
        format!("mcp.servers.{}", self.name)
    }
}

fn string_list(value: Option<&Value>) -> Vec<String> {
    value
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

fn string_record(value: Option<&Value>) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    if let Some(map) = value.and_then(Value::as_object) {
        for (k, v) in map {
            let text = match v {
                Value::String(s) => s.clone(),
                Value::Number(n) => n.to_string(),
                Value::Bool(b) => b.to_string(),
                _ => continue,
            };
            out.insert(k.clone(), text);
        }
    }
    out
}

fn non_empty<'a>(server: &'a Value, key: &str) -> Option<&'a str> {
    server
        .get(key)
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|s| !s.is_empty())
}

/// The servers OpenClaw would connect to, with a warning (naming the key) for each it skips.
/// Relative `cwd`s are taken from `base` (the config's directory). Servers are taken in key
/// order; OpenClaw takes them in file order, which only matters when two names sanitise alike.
pub fn declared_servers(raw: &Value, base: Option<&Path>) -> (Vec<DeclaredServer>, Vec<String>) {
    let mut warnings = Vec::new();
    let Some(servers) = raw.pointer("/mcp/servers").and_then(Value::as_object) else {
        return (Vec::new(), warnings);
    };
    // Safe names come from every declared server, enabled or not, as OpenClaw assigns them.
    let names: Vec<&str> = servers.keys().map(String::as_str).collect();
    let safe = safe_server_names(names.iter().copied());
    let mut out = Vec::new();
    for ((name, server), safe_name) in servers.iter().zip(safe) {
        let path = format!("mcp.servers.{name}");
        if name == "__proto__" {
            warnings.push(format!(
                "{path}: the name \"__proto__\" is reserved; skipped"
            ));
            continue;
        }
        if !server.is_object() {
            warnings.push(format!("{path}: must be an object; skipped"));
            continue;
        }
        if server.get("enabled").and_then(Value::as_bool) == Some(false) {
            continue;
        }
        let launch = match server_launch(server, &path, base) {
            Ok(launch) => launch,
            Err(warning) => {
                warnings.push(warning);
                continue;
            }
        };
        let filter = server.get("toolFilter");
        let connect_timeout = connect_timeout(server);
        out.push(DeclaredServer {
            name: name.clone(),
            safe_name,
            launch,
            tool_filter: ToolFilter {
                include: string_list(filter.and_then(|f| f.get("include"))),
                exclude: string_list(filter.and_then(|f| f.get("exclude"))),
            },
            connect_timeout,
        });
    }
    (out, warnings)
}

/// How to reach a server: its command (stdio), else its http(s) URL with the transport it
/// names; or the warning saying why it is skipped.
fn server_launch(server: &Value, path: &str, base: Option<&Path>) -> Result<Launch, String> {
    let transport = non_empty(server, "transport")
        .map(str::to_ascii_lowercase)
        .or_else(|| {
            non_empty(server, "type").and_then(|t| match t.to_ascii_lowercase().as_str() {
                "http" | "streamable-http" => Some("streamable-http".to_string()),
                "sse" => Some("sse".to_string()),
                _ => None,
            })
        });
    if let Some(command) = server.get("command").and_then(Value::as_str)
        && !command.trim().is_empty()
    {
        let cwd = non_empty(server, "cwd")
            .or_else(|| non_empty(server, "workingDirectory"))
            .map(|c| match base {
                Some(b) if Path::new(c).is_relative() => b.join(c),
                _ => PathBuf::from(c),
            });
        return Ok(Launch::Stdio {
            command: command.to_string(),
            args: string_list(server.get("args")),
            env: string_record(server.get("env")),
            cwd,
        });
    }
    let Some(url) = non_empty(server, "url") else {
        return Err(format!(
            "{path}: neither a command (stdio) nor a url; skipped"
        ));
    };
    if !(url.starts_with("http://") || url.starts_with("https://")) {
        return Err(format!(
            "{path}.url: only http and https URLs are supported; skipped"
        ));
    }
    match transport.as_deref() {
        Some("streamable-http") => Ok(Launch::StreamableHttp {
            url: url.to_string(),
            headers: string_record(server.get("headers")),
        }),
        None | Some("sse") => Ok(Launch::Sse {
            url: url.to_string(),
        }),
        Some(other) => Err(format!(
            "{path}.transport: \"{other}\" is not supported; skipped"
        )),
    }
}

/// `connectionTimeoutMs`, else `connectionTimeoutSeconds`, else the default.
fn connect_timeout(server: &Value) -> Duration {
    server
        .get("connectionTimeoutMs")
        .and_then(Value::as_f64)
        .filter(|ms| ms.is_finite() && *ms > 0.0)
        .map(|ms| Duration::from_millis(ms as u64))
        .or_else(|| {
            server
                .get("connectionTimeoutSeconds")
                .and_then(Value::as_f64)
                .filter(|s| s.is_finite() && *s > 0.0)
                .map(Duration::from_secs_f64)
        })
        .unwrap_or(DEFAULT_CONNECT_TIMEOUT)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn launches_filters_and_skips_are_read_as_openclaw_reads_them() {
        let raw = json!({"mcp": {"servers": {
            "docs": {"url": "https://mcp.example/mcp", "transport": "streamable-http",
                     "toolFilter": {"include": ["search", "read_*"], "exclude": ["read_secret"]}},
            "legacy": {"url": "https://old.example/sse"},
            "typed": {"url": "http://127.0.0.1:9/mcp", "type": "http"},
            "local": {"command": "node", "args": ["srv.js", 3], "env": {"N": 1}, "cwd": "srv",
                      "connectionTimeoutMs": 1500},
            "off": {"command": "x", "enabled": false},
            "broken": {"args": []},
            "ftp": {"url": "ftp://x"}
        }}});
        let (servers, warnings) = declared_servers(&raw, Some(Path::new("/cfg")));
        let names: Vec<&str> = servers.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["docs", "legacy", "local", "typed"]);
        assert!(matches!(servers[0].launch, Launch::StreamableHttp { .. }));
        assert!(matches!(servers[1].launch, Launch::Sse { .. }));
        assert!(matches!(servers[3].launch, Launch::StreamableHttp { .. }));
        let Launch::Stdio { args, env, cwd, .. } = &servers[2].launch else {
            panic!("local is stdio")
        };
        assert_eq!(args, &["srv.js"]);
        assert_eq!(env.get("N").map(String::as_str), Some("1"));
        assert_eq!(cwd.as_deref(), Some(Path::new("/cfg/srv")));
        assert_eq!(servers[2].connect_timeout, Duration::from_millis(1500));
        assert_eq!(servers[0].connect_timeout, DEFAULT_CONNECT_TIMEOUT);
        let filter = &servers[0].tool_filter;
        assert!(filter.admits("search") && filter.admits("read_page"));
        assert!(!filter.admits("read_secret") && !filter.admits("write"));
        assert_eq!(warnings.len(), 2, "{warnings:?}");
        assert!(
            warnings
                .iter()
                .any(|w| w.starts_with("mcp.servers.broken:"))
        );
        assert!(
            warnings
                .iter()
                .any(|w| w.starts_with("mcp.servers.ftp.url:"))
        );
    }

    #[test]
    fn globs_match_like_openclaws_filter() {
        assert!(glob_matches("a*c", "abc") && glob_matches("a*c", "ac"));
        assert!(!glob_matches("a*c", "ab") && !glob_matches("ab*b", "ab"));
        assert!(glob_matches("*x*", "axb") && glob_matches("*", "anything"));
        assert!(!glob_matches(" ", "x"));
    }
}
