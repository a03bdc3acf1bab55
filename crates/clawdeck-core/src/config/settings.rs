//! clawdeck's own settings. They live in a sibling file `clawdeck.json5` next to the OpenClaw
//! config (OpenClaw rejects unknown keys in its own file, so they cannot go there). Every field
//! has a default; each section belongs to the module that uses it.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// The lane queue's section (its type lives with the queue).
pub use crate::queue::LaneSettings;

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct ClawdeckSettings {
    /// Root for the file tools and exec's default workdir. Default: OpenClaw's
    /// `agents.defaults.workspace`, else the current directory.
    pub workspace: Option<PathBuf>,
    pub plugins: PluginSettings,
    pub lanes: LaneSettings,
    pub router: RouterSettings,
    pub hooks: HookSettings,
    pub exec: ExecSettings,
    pub skills: SkillSettings,
    /// Key overrides for the console: action name → list of keys (`"ctrl-k"`, `"x"`, `"f5"`).
    pub keys: BTreeMap<String, Vec<String>>,
    /// Which OpenClaw semantics pack answers (`seed`, `2026.9`, a synced version); default: the
    /// installed `openclaw --version`, else the config's `meta.lastTouchedVersion`, else newest.
    pub openclaw_version: Option<String>,
    /// OpenClaw gateways clawdeck attaches to over the WebSocket protocol (clawdeck-gateway).
    pub gateways: Vec<super::gateway_entries::GatewayEntry>,
    /// `clawdeck mcp`: per-client contexts and the HTTP listener (clawdeck-mcp).
    pub mcp: super::mcp_settings::McpSettings,
    /// The decision log (src/decision_log): `{ enabled, maxBytes, keep }`.
    pub decision_log: DecisionLogSettings,
    /// The console's own behaviour: `{ approvalBell }`.
    pub console: ConsoleSettings,
    /// Approvals: `{ allOperators }`.
    pub approvals: ApprovalSettings,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct ApprovalSettings {
    /// Ask gateways for `operator.admin`, so the approvals of every operator (other devices,
    /// channel and cron turns, OpenClaw's own TUI) are listed and can be answered, and any
    /// run can be aborted. Off by default: it is the gateway's widest scope.
    pub all_operators: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct ConsoleSettings {
    /// Ring the terminal's bell when an approval arrives (default true).
    pub approval_bell: bool,
}

impl Default for ConsoleSettings {
    fn default() -> Self {
        ConsoleSettings {
            approval_bell: true,
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct PluginSettings {
    /// Directories searched for `openclaw.plugin.json` manifests (each dir, and its children).
    pub dirs: Vec<PathBuf>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct RouterSettings {
    /// The `openclaw` binary; `OPENCLAW_BIN` overrides it.
    pub bin: String,
    /// The binary a command was given (`verify --openclaw`): it overrides both, for the run
    /// and for what is read from its package (skills, docs). Never read from a file.
    #[serde(skip)]
    pub cli_bin: Option<String>,
    /// Extra arguments placed after `agent` (e.g. `["--local"]`).
    pub extra_args: Vec<String>,
    /// Phone number used with `--to` when the call names no agent.
    pub default_to: Option<String>,
    /// Agent used when the call names none and no default phone is set.
    pub default_agent: Option<String>,
    /// Default timeout (seed 000 §3.5: 30–60 s, default 45).
    #[serde(deserialize_with = "crate::bounds::timeout_seconds")]
    pub timeout_seconds: u64,
    /// Lower and upper bounds for the timeout, including a call's `timeoutSeconds`.
    #[serde(deserialize_with = "crate::bounds::timeout_seconds")]
    pub min_timeout_seconds: u64,
    #[serde(deserialize_with = "crate::bounds::timeout_seconds")]
    pub max_timeout_seconds: u64,
    /// Run through `wsl.exe -e openclaw ...` (seed 000 §3.3).
    pub wsl: bool,
    /// With `clearEnv`: the only environment variables the child receives.
    pub env_passthrough: Vec<String>,
    /// Start the child with an empty environment plus `envPassthrough` (opt-in; default false:
    /// the child inherits clawdeck's environment, provider keys included, as CLI wrappers do).
    pub clear_env: bool,
    /// On timeout or kill: SIGTERM to the group, this grace, then SIGKILL (default 3000).
    #[serde(deserialize_with = "crate::bounds::grace_ms")]
    pub kill_grace_ms: u64,
    /// After the CLI exits, how long grandchildren may hold its pipes before the group is
    /// killed (default 2000).
    #[serde(deserialize_with = "crate::bounds::grace_ms")]
    pub drain_grace_ms: u64,
    /// `raw` (default, V0) or `clean` (V1 output cleaning in details).
    pub output: String,
    /// `cli` (default) or `http` (the gateway's OpenAI-compatible endpoint).
    pub transport: String,
    /// Messages longer than this (bytes) go through `--message-file`.
    pub message_file_threshold: usize,
    /// How many finished runs are kept in history.
    pub history_limit: usize,
    pub gateway: GatewaySettings,
}

impl Default for RouterSettings {
    fn default() -> Self {
        RouterSettings {
            bin: "openclaw".to_string(),
            cli_bin: None,
            extra_args: Vec::new(),
            default_to: None,
            default_agent: None,
            timeout_seconds: 45,
            min_timeout_seconds: 30,
            max_timeout_seconds: 60,
            wsl: false,
            env_passthrough: [
                "PATH",
                "HOME",
                "USER",
                "LANG",
                "LC_ALL",
                "TERM",
                "TMPDIR",
                "OPENCLAW_CONFIG_PATH",
                "OPENCLAW_STATE_DIR",
                "OPENCLAW_HIDE_BANNER",
            ]
            .iter()
            .map(|s| s.to_string())
            .collect(),
            clear_env: false,
            kill_grace_ms: 3000,
            drain_grace_ms: 2000,
            output: "raw".to_string(),
            transport: "cli".to_string(),
            message_file_threshold: 64 * 1024,
            history_limit: 100,
            gateway: GatewaySettings::default(),
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct GatewaySettings {
    /// e.g. `http://127.0.0.1:18789`; `OPENCLAW_GATEWAY_URL` overrides it.
    pub url: Option<String>,
    /// Bearer token; `OPENCLAW_GATEWAY_TOKEN` overrides it.
    pub token: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct HookSettings {
    /// before_tool_call hooks, run in priority order (higher first).
    pub before_tool_call: Vec<HookCommand>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct HookCommand {
    /// Name shown in block reasons and the console.
    pub name: String,
    /// argv; the event arrives as JSON on stdin.
    pub command: Vec<String>,
    pub priority: i64,
    #[serde(deserialize_with = "crate::bounds::timeout_ms")]
    pub timeout_ms: u64,
    /// Tool name patterns the hook applies to; empty = all.
    pub tools: Vec<String>,
}

impl Default for HookCommand {
    fn default() -> Self {
        HookCommand {
            name: String::new(),
            command: Vec::new(),
            priority: 0,
            timeout_ms: 5000,
            tools: Vec::new(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct ExecSettings {
    /// Shell used by `exec` (`sh -c` by default).
    pub shell: Vec<String>,
    /// Default exec timeout in seconds (OpenClaw: 1800).
    #[serde(deserialize_with = "crate::bounds::timeout_seconds")]
    pub timeout_seconds: u64,
    /// How long finished background sessions are kept (OpenClaw: 30 min).
    #[serde(deserialize_with = "crate::bounds::timeout_seconds")]
    pub session_ttl_seconds: u64,
    /// Exec sessions running at once at most (each holds a process group, its pipes and their
    /// readers): a new `exec` past it is refused, naming this setting. 1 ..= 4096, default 64.
    #[serde(deserialize_with = "background_sessions")]
    pub max_background_sessions: usize,
}

/// Default `exec.maxBackgroundSessions`.
pub const DEFAULT_MAX_BACKGROUND_SESSIONS: usize = 64;
/// Largest `exec.maxBackgroundSessions`.
pub(crate) const MAX_BACKGROUND_SESSIONS: usize = 4096;

fn background_sessions<'de, D: serde::Deserializer<'de>>(d: D) -> Result<usize, D::Error> {
    let value = usize::deserialize(d)?;
    if value == 0 {
        return Err(serde::de::Error::custom(
            "0 sessions would refuse every exec: at least 1",
        ));
    }
    if value > MAX_BACKGROUND_SESSIONS {
        return Err(serde::de::Error::custom(format!(
            "{value} sessions is too many: at most {MAX_BACKGROUND_SESSIONS}"
        )));
    }
    Ok(value)
}

impl Default for ExecSettings {
    fn default() -> Self {
        ExecSettings {
            shell: vec!["sh".to_string(), "-c".to_string()],
            timeout_seconds: 1800,
            session_ttl_seconds: 1800,
            max_background_sessions: DEFAULT_MAX_BACKGROUND_SESSIONS,
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct SkillSettings {
    /// Extra skill directories (lowest precedence).
    pub extra_dirs: Vec<PathBuf>,
    /// Bundled skills directory.
    pub bundled_dir: Option<PathBuf>,
    /// Managed skills directory (default `~/.openclaw/skills`).
    pub managed_dir: Option<PathBuf>,
}

/// clawdeck.json5 `decisionLog`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct DecisionLogSettings {
    /// Write records at all (default true).
    pub enabled: bool,
    /// The live file is rotated before it would grow past this (default 10 MiB; at least
    /// `MIN_MAX_BYTES`).
    #[serde(deserialize_with = "max_bytes_at_least")]
    pub max_bytes: u64,
    /// Rotated files kept (`decisions.jsonl.1` .. `.keep`; default 5; 0 keeps none; at most
    /// `MAX_KEEP`).
    #[serde(deserialize_with = "keep_at_most")]
    pub keep: usize,
}

/// Smallest `decisionLog.maxBytes`: a few records per file, not a rotation per record.
pub(crate) const MIN_MAX_BYTES: u64 = 1024;
/// Most rotated files kept (and looked for when reading).
pub(crate) const MAX_KEEP: usize = 1000;

fn max_bytes_at_least<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    let value = u64::deserialize(d)?;
    if value < MIN_MAX_BYTES {
        return Err(serde::de::Error::custom(format!(
            "{value} bytes is too small: at least {MIN_MAX_BYTES}"
        )));
    }
    Ok(value)
}

fn keep_at_most<'de, D: serde::Deserializer<'de>>(d: D) -> Result<usize, D::Error> {
    let value = usize::deserialize(d)?;
    if value > MAX_KEEP {
        return Err(serde::de::Error::custom(format!(
            "{value} files is too many: at most {MAX_KEEP}"
        )));
    }
    Ok(value)
}

impl Default for DecisionLogSettings {
    fn default() -> Self {
        DecisionLogSettings {
            enabled: true,
            max_bytes: 10 * 1024 * 1024,
            keep: 5,
        }
    }
}
