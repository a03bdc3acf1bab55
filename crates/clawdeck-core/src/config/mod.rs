//! Loading the operator's OpenClaw config (JSON5) and clawdeck's sibling settings file.
//!
//! Where the config comes from: `--config`, else `$OPENCLAW_CONFIG_PATH`, else
//! `~/.openclaw/openclaw.json`, else the embedded demo. clawdeck's own settings come from
//! `clawdeck.json5` next to that file (defaults when absent; the demo has its own).

mod accepted;
pub mod demo_skills;
pub mod demo_workspace;
pub mod depth;
mod error;
pub mod gateway_entries;
pub(crate) mod keypath;
pub mod keys;
mod locate;
pub mod mcp_settings;
pub mod openclaw;
mod parse;
mod plugin_slots;
pub(crate) use plugin_slots::{PluginManifest, plugin_manifest};
mod profiles;
pub(crate) mod read_text;
pub mod redact;
pub mod remote;
pub mod schema_check;
pub mod settings;
mod unknown;
mod validate;
pub mod watch;

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use std::sync::Arc;

use serde_json::Value;

use crate::model_ref::model_ref;
use crate::semantics::{Installed, PackChoice, RequestedVersion, Semantics};

pub use error::{ConfigError, ConfigErrorKind};
pub use keypath::{KeyPath, KeySegment};
pub use locate::{locate_path, locate_paths};
pub use openclaw::{AgentEntry, GroupConfig, OpenClawConfig, SandboxConfig, ToolPolicyConfig};
pub use remote::{RemoteSource, load_remote};
pub use settings::ClawdeckSettings;

/// The embedded demo config and its settings.
pub const DEMO_CONFIG: &str = include_str!("../../../../assets/demo/openclaw.json5");
pub(crate) const DEMO_SETTINGS: &str = include_str!("../../../../assets/demo/clawdeck.json5");
/// The name the demo goes by in messages.
pub(crate) const DEMO_NAME: &str = "<embedded demo>/openclaw.json5";
/// Name of clawdeck's settings file, next to the OpenClaw config.
pub const SETTINGS_FILE: &str = "clawdeck.json5";

/// Where the config in use came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ConfigSource {
    /// `--config PATH`.
    Flag,
    /// `$OPENCLAW_CONFIG_PATH`.
    Env,
    /// `~/.openclaw/openclaw.json`.
    Home,
    /// No config found: the demo built into clawdeck.
    EmbeddedDemo,
    /// Text handed to `load_from_str` (tests).
    Text,
    /// A gateway's own config (`--remote-config`, `config.get`); see [`LoadedConfig::remote`].
    Gateway,
}

/// One agent as configured, whichever form it was written in.
#[derive(Debug, Clone, PartialEq)]
pub struct AgentInfo {
    /// Normalised id (lowercase).
    pub id: String,
    /// Where it is defined: `agents.list[1]` or `agents.entries.ops` (root when implicit).
    pub path: KeyPath,
    pub entry: AgentEntry,
    pub is_default: bool,
    /// No agents configured: OpenClaw's implicit `main`.
    pub implicit: bool,
}

/// A loaded config: raw JSON, the typed model, clawdeck's settings and what was noticed.
#[derive(Debug, Clone)]
pub struct LoadedConfig {
    pub source: ConfigSource,
    pub path: Option<PathBuf>,
    /// The file's name in messages (the path, or the demo's name).
    pub origin: String,
    pub raw: Value,
    pub openclaw: OpenClawConfig,
    pub settings: ClawdeckSettings,
    /// Where the settings came from (`None`: defaults).
    pub settings_path: Option<PathBuf>,
    /// Unknown keys and other oddities, each naming its place.
    pub warnings: Vec<String>,
    /// Agents from `agents.list` and `agents.entries`, in file order.
    pub agents: Vec<AgentInfo>,
    /// `agents` by id (the first of each), so a lookup per context stays cheap with thousands
    /// of agents; `agent` checks it against the list.
    agent_index: HashMap<String, usize>,
    /// The OpenClaw semantics the answers follow (see `crate::semantics`).
    pub semantics: Arc<Semantics>,
    /// Which pack that is, and why.
    pub pack: PackChoice,
    /// The gateway and text when the config came from a gateway (`ConfigSource::Gateway`).
    pub remote: Option<RemoteSource>,
    /// The OpenClaw version the operator asked for (`--openclaw-version`): the pack follows
    /// it whenever it is chosen again.
    pub requested: Option<RequestedVersion>,
    /// The dotenv files OpenClaw loads with this config: the `.env` beside it (the state dir's
    /// for OpenClaw's own config), for the default state dir `~/.config/openclaw/gateway.env`,
    /// and with `env.shellEnv` on the login shell's environment; which variables each sets,
    /// never their values.
    pub dotenv_files: Vec<crate::dotenv::DotEnv>,
    /// The auth profiles stored in the state beside this config (the shared store and each
    /// agent's): which providers have a credential there, never the credential.
    pub auth_profiles: Vec<crate::auth_profiles::ProfileStore>,
    /// The tools the gateway's connected nodes published (its `node.list`), when known: every
    /// run on that gateway builds them.
    pub connected_nodes: Option<Arc<crate::node_tools::ConnectedNodes>>,
    /// The ids of the plugins OpenClaw would discover for this config on this machine (the
    /// install clawdeck would run, its state and workspace, `plugins.load.paths`); None when
    /// clawdeck could not look: no install found, or a config not read from this machine's
    /// files. A channel whose plugin is not among them describes no actions.
    pub installed_plugins: Option<Arc<std::collections::BTreeSet<String>>>,
}

impl LoadedConfig {
    /// Where a run of `agent` (`None`: any agent's) gets its credentials: this config's dotenv
    /// files and login shell, and the auth profiles stored beside it.
    pub fn credentials<'a>(&'a self, agent: Option<&'a str>) -> crate::semantics::Credentials<'a> {
        crate::semantics::Credentials {
            dotenv: &self.dotenv_files,
            profiles: &self.auth_profiles,
            agent,
        }
    }

    /// Which file is in use, for a status line: `~/.openclaw/openclaw.json (home)`.
    pub fn describe(&self) -> String {
        let path = self.path.as_ref().map(|p| p.display().to_string());
        match self.source {
            ConfigSource::Flag => format!("{} (--config)", path.unwrap_or_default()),
            ConfigSource::Env => format!("{} ($OPENCLAW_CONFIG_PATH)", path.unwrap_or_default()),
            ConfigSource::Home => format!("{} (home)", path.unwrap_or_default()),
            ConfigSource::EmbeddedDemo => {
                "embedded demo config (no OpenClaw config found)".to_string()
            }
            ConfigSource::Text => format!("{} (text)", self.origin),
            ConfigSource::Gateway => match &self.remote {
                Some(remote) => {
                    format!("{} on gateway {} (config.get)", self.origin, remote.gateway)
                }
                None => format!("{} (gateway config.get)", self.origin),
            },
        }
    }

    pub fn agent_ids(&self) -> Vec<String> {
        self.agents.iter().map(|a| a.id.clone()).collect()
    }

    /// The agent used when a context names none.
    pub fn default_agent_id(&self) -> String {
        self.default_agent()
            .map(|a| a.id.clone())
            .unwrap_or_else(|| "main".to_string())
    }

    pub(crate) fn default_agent(&self) -> Option<&AgentInfo> {
        self.agents
            .iter()
            .find(|a| a.is_default)
            .or_else(|| self.agents.first())
    }

    /// The agent's own object in the raw config (none for OpenClaw's implicit `main`).
    pub(crate) fn agent_raw(&self, agent: &AgentInfo) -> Option<&Value> {
        (!agent.implicit)
            .then(|| agent.path.lookup(&self.raw))
            .flatten()
    }

    /// Looks an agent up by id (case-insensitive, like OpenClaw's normalised ids).
    pub(crate) fn agent(&self, id: &str) -> Option<&AgentInfo> {
        let wanted = normalize_agent_id(id);
        let indexed = self
            .agent_index
            .get(&wanted)
            .and_then(|&at| self.agents.get(at))
            .filter(|a| a.id == wanted);
        // The list is public: one changed since loading is searched.
        indexed.or_else(|| self.agents.iter().find(|a| a.id == wanted))
    }

    /// Provider ids named anywhere in the config (models, byProvider keys, agent models).
    pub fn providers(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .openclaw
            .models
            .providers
            .keys()
            .map(|k| k.to_lowercase())
            .collect();
        let mut add_key = |key: &str| {
            let provider = key.split('/').next().unwrap_or(key).trim().to_lowercase();
            if !provider.is_empty() {
                out.push(provider);
            }
        };
        for key in self.openclaw.tools.by_provider.keys() {
            add_key(key);
        }
        for agent in &self.agents {
            if let Some(tools) = &agent.entry.tools {
                for key in tools.by_provider.keys() {
                    add_key(key);
                }
            }
            if let Some(model) = agent.entry.model.as_ref().and_then(model_ref)
                && let Some((provider, _)) = model.split_once('/')
            {
                add_key(provider);
            }
        }
        sorted_unique(out)
    }

    /// Models named in the config as `provider/model`.
    pub fn models(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (provider, cfg) in &self.openclaw.models.providers {
            for model in &cfg.models {
                out.push(format!("{}/{}", provider.to_lowercase(), model.id()));
            }
        }
        for key in self.openclaw.tools.by_provider.keys() {
            if key.contains('/') {
                out.push(key.to_lowercase());
            }
        }
        for agent in &self.agents {
            if let Some(model) = agent.entry.model.as_ref().and_then(model_ref)
                && model.contains('/')
            {
                out.push(model);
            }
        }
        if let Some(model) = self
            .openclaw
            .agents
            .defaults
            .model
            .as_ref()
            .and_then(model_ref)
            && model.contains('/')
        {
            out.push(model);
        }
        sorted_unique(out)
    }

    /// The model an agent runs by default (`agents.<id>.model`, else `agents.defaults.model`):
    /// a string `provider/model` or `{primary: ...}`.
    pub(crate) fn agent_model(&self, agent_id: &str) -> Option<(String, KeyPath)> {
        if let Some(agent) = self.agent(agent_id)
            && let Some(model) = agent.entry.model.as_ref().and_then(model_ref)
        {
            return Some((model, agent.path.key("model")));
        }
        self.openclaw
            .agents
            .defaults
            .model
            .as_ref()
            .and_then(model_ref)
            .map(|m| (m, KeyPath::parse_dotted("agents.defaults.model")))
    }

    pub fn channels(&self) -> Vec<String> {
        self.openclaw.channels.keys().cloned().collect()
    }

    pub fn accounts(&self, channel: &str) -> Vec<String> {
        self.openclaw
            .channels
            .get(channel)
            .map(|c| c.accounts.keys().cloned().collect())
            .unwrap_or_default()
    }

    /// Group ids configured for a channel (under the account when one is given and has groups).
    pub fn groups(&self, channel: &str, account: Option<&str>) -> Vec<String> {
        self.group_table(channel, account)
            .map(|(groups, _)| groups.keys().cloned().collect())
            .unwrap_or_default()
    }

    /// `toolsBySender` keys of a group (and of the `"*"` group).
    pub fn sender_keys(&self, channel: &str, account: Option<&str>, group: &str) -> Vec<String> {
        let Some((groups, _)) = self.group_table(channel, account) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for id in [group, "*"] {
            if let Some(g) = groups.get(id) {
                out.extend(g.tools_by_sender.keys().cloned());
            }
        }
        sorted_unique(out)
    }

    /// The group table that applies: `channels.<ch>.accounts.<acct>.groups` when present, else
    /// `channels.<ch>.groups`; with the key path it lives at.
    pub(crate) fn group_table(
        &self,
        channel: &str,
        account: Option<&str>,
    ) -> Option<(&std::collections::BTreeMap<String, GroupConfig>, KeyPath)> {
        self.chat_table(channel, account, ChatKind::Group)
    }

    /// `channels.<channel>.direct` (a direct chat's entries, keyed by chat id or `*`), or the
    /// account's own map, which replaces it when present.
    pub(crate) fn direct_table(
        &self,
        channel: &str,
        account: Option<&str>,
    ) -> Option<(&std::collections::BTreeMap<String, GroupConfig>, KeyPath)> {
        self.chat_table(channel, account, ChatKind::Direct)
    }

    fn chat_table(
        &self,
        channel: &str,
        account: Option<&str>,
        kind: ChatKind,
    ) -> Option<(&std::collections::BTreeMap<String, GroupConfig>, KeyPath)> {
        let name = match kind {
            ChatKind::Group => "groups",
            ChatKind::Direct => "direct",
        };
        let (ch_key, ch) = self
            .openclaw
            .channels
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(channel))?;
        let base = KeyPath::root().key("channels").key(ch_key.clone());
        // No account in the context is OpenClaw's `default` one (`normalizeAccountId`).
        let account = account
            .map(str::trim)
            .filter(|a| !a.is_empty())
            .unwrap_or(DEFAULT_ACCOUNT);
        if let Some((acct_key, acct)) = ch
            .accounts
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(account))
            && let Some(table) = match kind {
                ChatKind::Group => acct.groups.as_ref(),
                ChatKind::Direct => acct.direct.as_ref(),
            }
            // An account's empty map inherits the channel's when the channel has at most one
            // account (`resolveChannelGroups`' `inheritEmptyKeys`).
            && !(matches!(kind, ChatKind::Group) && table.is_empty() && ch.accounts.len() <= 1)
        {
            return Some((table, base.key("accounts").key(acct_key.clone()).key(name)));
        }
        match kind {
            ChatKind::Group => ch.groups.as_ref(),
            ChatKind::Direct => ch.direct.as_ref(),
        }
        .map(|table| (table, base.key(name)))
    }
}

/// The account OpenClaw reads when none is named (`normalizeAccountId`).
pub(crate) const DEFAULT_ACCOUNT: &str = "default";

/// A channel account's entry in `accounts` (`channels.<c>.accounts`) and its key as written:
/// the exact key, else one that differs only in case or spaces (OpenClaw normalises ids).
pub(crate) fn account_entry<'a>(
    accounts: &'a serde_json::Map<String, serde_json::Value>,
    id: &str,
) -> Option<(&'a String, &'a serde_json::Value)> {
    accounts.get_key_value(id).or_else(|| {
        accounts
            .iter()
            .find(|(k, _)| k.trim().eq_ignore_ascii_case(id.trim()))
    })
}

fn sorted_unique(mut items: Vec<String>) -> Vec<String> {
    items.sort();
    items.dedup();
    items
}

pub(crate) fn normalize_agent_id(id: &str) -> String {
    id.trim().to_lowercase()
}

/// Which config to read and for which OpenClaw: `--config` (else `$OPENCLAW_CONFIG_PATH`, the
/// home file, the demo) and the version `--openclaw-version` asks for. A reload reads the same.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ConfigRequest {
    pub path: Option<PathBuf>,
    pub openclaw_version: Option<RequestedVersion>,
    /// A saved `node.list` answer: the tools the gateway's connected nodes published.
    pub node_list: Option<PathBuf>,
}

impl ConfigRequest {
    /// `path`, for the version the environment asks for (`CLAWDECK_OPENCLAW_VERSION`): what a
    /// caller without a command line means.
    pub fn at(path: Option<&Path>) -> ConfigRequest {
        ConfigRequest {
            path: path.map(Path::to_path_buf),
            openclaw_version: RequestedVersion::from_env(),
            node_list: None,
        }
    }
}

/// Loads the config named by `explicit`, the environment, the home directory, or the demo
/// (see [`ConfigRequest::at`]).
pub fn load(explicit: Option<&Path>) -> Result<LoadedConfig, ConfigError> {
    load_from(&ConfigRequest::at(explicit))
}

/// Loads the config a request names, for the OpenClaw version it asks for.
pub fn load_from(request: &ConfigRequest) -> Result<LoadedConfig, ConfigError> {
    let mut loaded = locate_and_load(request.path.as_deref())?;
    loaded.requested = request.openclaw_version.clone();
    select_pack(&mut loaded, VersionProbe::Wait)?;
    schema_check::refuse_if_invalid(&loaded, None)?;
    plugin_slots::check_installed(&mut loaded)?;
    read_node_list(&mut loaded, request)?;
    Ok(loaded)
}

fn locate_and_load(explicit: Option<&Path>) -> Result<LoadedConfig, ConfigError> {
    match locate(explicit) {
        Some((path, source)) => load_file(&path, source),
        None => load_demo_with_settings(user_settings_path().as_deref()),
    }
}

/// The OpenClaw config file a load reads and why (`--config`, `$OPENCLAW_CONFIG_PATH`, the
/// home file when it is a file); None: the embedded demo.
pub fn locate(explicit: Option<&Path>) -> Option<(PathBuf, ConfigSource)> {
    if let Some(path) = explicit {
        return Some((path.to_path_buf(), ConfigSource::Flag));
    }
    if let Some(path) = std::env::var_os("OPENCLAW_CONFIG_PATH").filter(|p| !p.is_empty()) {
        return Some((PathBuf::from(path), ConfigSource::Env));
    }
    home_config_path()
        .filter(|path| path.is_file())
        .map(|path| (path, ConfigSource::Home))
}

/// OpenClaw's own config file: `~/.openclaw/openclaw.json`.
pub fn home_config_path() -> Option<PathBuf> {
    let home = std::env::var_os("HOME").filter(|h| !h.is_empty())?;
    Some(Path::new(&home).join(".openclaw").join("openclaw.json"))
}

/// clawdeck's settings file for an OpenClaw config file: `clawdeck.json5` beside it.
pub fn settings_path_beside(config: &Path) -> Option<PathBuf> {
    config.parent().map(|dir| dir.join(SETTINGS_FILE))
}

/// Where clawdeck's settings are read when there is no OpenClaw config file to sit next to:
/// `$XDG_CONFIG_HOME/clawdeck/clawdeck.json5`, else `~/.config/clawdeck/clawdeck.json5`.
pub fn user_settings_path() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_CONFIG_HOME")
        .filter(|p| !p.is_empty())
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME")
                .filter(|h| !h.is_empty())
                .map(|h| Path::new(&h).join(".config"))
        })?;
    Some(base.join("clawdeck").join(SETTINGS_FILE))
}

/// The demo config, with the operator's settings file when one exists at `settings` (so keys,
/// router and lanes can be set on the demo too).
pub fn load_demo_with_settings(settings: Option<&Path>) -> Result<LoadedConfig, ConfigError> {
    let mut loaded = load_demo()?;
    if let Some(path) = settings.filter(|p| p.is_file()) {
        let origin = path.display().to_string();
        let text = std::fs::read_to_string(path)
            .map_err(|err| ConfigError::io(&origin, err.to_string()))?;
        loaded.settings = parse_settings(&text, &origin)?;
        loaded.settings_path = Some(path.to_path_buf());
    }
    Ok(loaded)
}

/// Whether choosing a pack may ask the installed `openclaw --version`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VersionProbe {
    /// Never (the demo config, text configs).
    Skip,
    /// Ask and wait for the answer (bounded by its timeout; remembered for the process).
    Wait,
    /// Use the answer if it is already known; otherwise choose without it and mark the choice
    /// [`crate::semantics::Installed::Detecting`] (the console's first frame never waits).
    Defer,
}

/// The OpenClaw binary: the one a command was given (`verify --openclaw`), else
/// `$OPENCLAW_BIN`, else clawdeck.json5 `router.bin`.
pub fn openclaw_bin(loaded: &LoadedConfig) -> String {
    if let Some(bin) = &loaded.settings.router.cli_bin {
        return bin.clone();
    }
    std::env::var("OPENCLAW_BIN")
        .ok()
        .filter(|b| !b.trim().is_empty())
        .unwrap_or_else(|| loaded.settings.router.bin.clone())
}

/// What only this machine can answer about a config already loaded from text: whether the
/// plugin its memory slot names is installed for the OpenClaw clawdeck would run (refused, as
/// OpenClaw refuses it, or a warning; "could not be checked" without an install). [`load`]
/// asks it of every config read from a file.
pub fn check_installed_plugins(loaded: &mut LoadedConfig) -> Result<(), ConfigError> {
    plugin_slots::check_installed(loaded)
}

/// The ids of the plugins the OpenClaw install clawdeck would run discovers for `loaded` with
/// its state in `state_dir` (its bundled ones, the state's installs, the workspace's and
/// `plugins.load.paths`); None without an install of the release `loaded`'s pack describes.
pub fn discoverable_plugins(
    loaded: &LoadedConfig,
    state_dir: Option<&Path>,
) -> Option<std::collections::BTreeSet<String>> {
    plugin_slots::discoverable(loaded, state_dir)
}

/// The connected nodes of the request's saved `node.list` answer, if it names one.
pub fn read_node_list(
    loaded: &mut LoadedConfig,
    request: &ConfigRequest,
) -> Result<(), ConfigError> {
    let Some(path) = &request.node_list else {
        return Ok(());
    };
    let nodes = saved_node_list(path).map_err(|message| ConfigError {
        kind: ConfigErrorKind::Io,
        file: "--node-list".to_string(),
        line: None,
        column: None,
        message,
        key_path: None,
        further: Box::default(),
    })?;
    loaded.connected_nodes = Some(Arc::new(nodes));
    Ok(())
}

/// A `node.list` answer saved to a file (what `openclaw gateway call node.list --json` prints),
/// read with a config file's guards (a regular file, at most 16 MiB, UTF-8).
fn saved_node_list(path: &Path) -> Result<crate::node_tools::ConnectedNodes, String> {
    let origin = path.display().to_string();
    let text = read_text::read_config_text(path).map_err(|err| format!("{origin}: {err}"))?;
    let answer: Value = serde_json::from_str(&text)
        .map_err(|err| format!("{origin}:{}:{}: not JSON: {err}", err.line(), err.column()))?;
    crate::node_tools::parse_node_list(&answer, &origin)
}

/// [`load`], except that the installed `openclaw --version` is not waited for (see
/// [`VersionProbe::Defer`]); `Deck::settle_openclaw_version` settles it later.
pub fn load_without_waiting_for_openclaw(
    request: &ConfigRequest,
) -> Result<LoadedConfig, ConfigError> {
    let mut loaded = locate_and_load(request.path.as_deref())?;
    loaded.requested = request.openclaw_version.clone();
    select_pack(&mut loaded, VersionProbe::Defer)?;
    schema_check::refuse_if_invalid(&loaded, None)?;
    plugin_slots::check_installed(&mut loaded)?;
    read_node_list(&mut loaded, request)?;
    Ok(loaded)
}

/// Chooses the OpenClaw semantics pack for a loaded config (the version it was requested for,
/// clawdeck.json5, installed `openclaw --version` as `probe` allows,
/// `meta.lastTouchedVersion`, newest).
pub fn select_pack(loaded: &mut LoadedConfig, probe: VersionProbe) -> Result<(), ConfigError> {
    let requested = loaded
        .requested
        .as_ref()
        .map(|r| (r.version.clone(), r.from));
    let settings_origin = loaded
        .settings_path
        .as_ref()
        .map(|p| p.display().to_string())
        .unwrap_or_else(|| SETTINGS_FILE.to_string());
    let settings = loaded
        .settings
        .openclaw_version
        .as_deref()
        .map(|v| (v, settings_origin.as_str()));
    let (asked, installed) = if requested.is_none() && settings.is_none() {
        installed_answer(&openclaw_bin(loaded), probe)
    } else {
        (Installed::NotAsked, None)
    };
    let meta = loaded
        .raw
        .pointer("/meta/lastTouchedVersion")
        .and_then(Value::as_str)
        .map(str::to_string);
    let (semantics, pack) = crate::semantics::choose(
        requested.as_ref().map(|(v, from)| (v.as_str(), *from)),
        settings,
        installed.as_ref().map(|(v, b)| (v.as_str(), b.as_str())),
        meta.as_deref(),
    )
    .map_err(unknown_pack_error)?;
    loaded.warnings.extend(pack.warnings.iter().cloned());
    loaded.semantics = semantics;
    loaded.pack = pack;
    loaded.pack.installed = asked;
    Ok(())
}

/// A version named outside the OpenClaw config that has no pack: the error names that place.
fn unknown_pack_error(unknown: crate::semantics::UnknownPack) -> ConfigError {
    ConfigError {
        kind: ConfigErrorKind::Type,
        file: unknown.place,
        line: None,
        column: None,
        message: unknown.message,
        key_path: None,
        further: Box::default(),
    }
}

/// What `openclaw --version` says for `bin`, as far as `probe` lets us ask: for the header, and
/// the (version, binary) answer for the choice.
fn installed_answer(bin: &str, probe: VersionProbe) -> (Installed, Option<(String, String)>) {
    use crate::semantics::KnownVersion;
    let asked = match probe {
        VersionProbe::Skip => None,
        VersionProbe::Wait => crate::semantics::probe_openclaw_version(bin),
        VersionProbe::Defer => match crate::semantics::known_openclaw_version(bin) {
            KnownVersion::NoBinary => None,
            KnownVersion::Remembered(p) => Some(p),
            KnownVersion::NotYet => return (Installed::Detecting, None),
        },
    };
    match asked {
        Some(p) => (p.installed(), p.answer()),
        None => (Installed::NotAsked, None),
    }
}

impl LoadedConfig {
    /// The same config answered by another pack (tests, `clawdeck diff --openclaw-version`);
    /// refused when that pack's OpenClaw refuses it.
    pub fn with_pack(mut self, id: &str) -> Result<LoadedConfig, String> {
        let (semantics, pack) =
            crate::semantics::choose(Some((id, "--openclaw-version")), None, None, None)
                .map_err(|unknown| unknown.to_string())?;
        self.warnings.extend(pack.warnings.iter().cloned());
        self.semantics = semantics;
        self.pack = pack;
        schema_check::refuse_if_invalid(&self, None).map_err(|err| err.to_string())?;
        Ok(self)
    }
}

/// The embedded demo config with its own settings and its own workspace.
pub fn load_demo() -> Result<LoadedConfig, ConfigError> {
    let mut loaded = build(DEMO_CONFIG, DEMO_NAME, ConfigSource::EmbeddedDemo, None)?;
    let settings = parse_settings(DEMO_SETTINGS, "<embedded demo>/clawdeck.json5")?;
    loaded.settings = settings;
    use_demo_workspace(&mut loaded);
    use_demo_skills(&mut loaded);
    select_pack(&mut loaded, VersionProbe::Skip)?;
    schema_check::refuse_if_invalid(&loaded, Some(DEMO_CONFIG))?;
    Ok(loaded)
}

/// Names the skills clawdeck writes for the demo in its `skills.load.extraDirs`, where OpenClaw
/// reads them too; when they cannot be written the demo has no skills of its own.
fn use_demo_skills(loaded: &mut LoadedConfig) {
    let Some(dir) = demo_skills::materialize_demo_skills() else {
        return;
    };
    let Some(root) = loaded.raw.as_object_mut() else {
        return;
    };
    let load = root
        .entry("skills")
        .or_insert_with(|| serde_json::json!({}))
        .as_object_mut()
        .map(|skills| {
            skills
                .entry("load")
                .or_insert_with(|| serde_json::json!({}))
        });
    if let Some(dirs) = load
        .and_then(Value::as_object_mut)
        .map(|load| {
            load.entry("extraDirs")
                .or_insert_with(|| serde_json::json!([]))
        })
        .and_then(Value::as_array_mut)
    {
        dirs.push(Value::String(dir.display().to_string()));
    }
}

/// Points the demo's `agents.defaults.workspace` at the workspace clawdeck creates for it
/// (`demo_workspace`); when it cannot be created, the path stays and a warning says why.
fn use_demo_workspace(loaded: &mut LoadedConfig) {
    let dir = match demo_workspace::materialize_demo_workspace() {
        Ok(dir) => dir,
        Err(err) => {
            loaded
                .warnings
                .push(format!("the demo workspace is not ready: {err}"));
            demo_workspace::demo_workspace_dir()
        }
    };
    let shown = dir.display().to_string();
    loaded.openclaw.agents.defaults.workspace = Some(shown.clone());
    if let Some(defaults) = loaded
        .raw
        .pointer_mut("/agents/defaults")
        .and_then(Value::as_object_mut)
    {
        defaults.insert("workspace".to_string(), Value::String(shown));
    }
}

/// Parses config text; `origin` names it in errors and warnings. Settings are defaults.
pub fn load_from_str(text: &str, origin: &str) -> Result<LoadedConfig, ConfigError> {
    let mut loaded = build(text, origin, ConfigSource::Text, None)?;
    select_pack(&mut loaded, VersionProbe::Skip)?;
    schema_check::refuse_if_invalid(&loaded, Some(text))?;
    Ok(loaded)
}

/// `load_from_str` answered by the pack `pack` (`seed`, `2026.9`, a synced version) from the
/// start, so that what only that pack accepts loads (validated by that pack's schema).
pub fn load_from_str_with_pack(
    text: &str,
    origin: &str,
    pack: &str,
) -> Result<LoadedConfig, ConfigError> {
    let mut loaded = build(text, origin, ConfigSource::Text, None)?;
    let (semantics, choice) =
        crate::semantics::choose(Some((pack, "--openclaw-version")), None, None, None)
            .map_err(unknown_pack_error)?;
    loaded.warnings.extend(choice.warnings.iter().cloned());
    loaded.semantics = semantics;
    loaded.pack = choice;
    schema_check::refuse_if_invalid(&loaded, Some(text))?;
    Ok(loaded)
}

fn load_file(path: &Path, source: ConfigSource) -> Result<LoadedConfig, ConfigError> {
    let origin = path.display().to_string();
    let text = read_text::read_config_text(path).map_err(|err| ConfigError::io(&origin, err))?;
    let mut loaded = build(&text, &origin, source, Some(path.to_path_buf()))?;
    read_dotenv_files(&mut loaded, path);
    if let Some(state) = path.parent() {
        read_auth_profiles(&mut loaded, state);
    }
    let settings_path = settings_path_beside(path);
    // Only a missing file means "no settings": a directory, FIFO or symlink loop at that path is
    // an error (silently skipping it would skip the hooks it declares).
    if let Some(settings_path) = settings_path.filter(|p| std::fs::symlink_metadata(p).is_ok()) {
        let settings_origin = settings_path.display().to_string();
        let text = read_text::read_config_text(&settings_path)
            .map_err(|err| ConfigError::io(&settings_origin, err))?;
        loaded.settings = parse_settings(&text, &settings_origin)?;
        loaded.settings_path = Some(settings_path);
    }
    Ok(loaded)
}

/// Reads the dotenv files OpenClaw loads with the config at `path` into `loaded`: the `.env`
/// beside it, and `~/.config/openclaw/gateway.env` when the config is in `~/.openclaw`.
pub fn read_dotenv_files(loaded: &mut LoadedConfig, path: &Path) {
    loaded.dotenv_files.clear();
    let home = crate::paths::home_dir();
    for (place, file) in crate::dotenv::files_for(path, home.as_deref()) {
        read_dotenv_file(loaded, place, &file);
    }
    if let Some(home) = home.filter(|_| crate::login_shell_env::enabled(&loaded.raw)) {
        read_login_shell(loaded, &home);
    }
}

/// Reads the auth profiles stored under state dir `state` for `loaded`'s agents into it
/// ([`crate::auth_profiles::read_stores`]); a store that cannot be read is a warning.
pub fn read_auth_profiles(loaded: &mut LoadedConfig, state: &Path) {
    let agents: Vec<(String, Option<String>)> = loaded
        .agents
        .iter()
        .map(|agent| (agent.id.clone(), agent.entry.agent_dir.clone()))
        .collect();
    let (stores, mut warnings) = crate::auth_profiles::read_stores(state, &agents);
    loaded.auth_profiles = stores;
    loaded.warnings.append(&mut warnings);
}

/// Adds what the login shell sets in `home` to `loaded`'s variables, for a config with
/// `env.shellEnv.enabled` ([`crate::login_shell_env::read_env`]). A shell that fails or times
/// out is a warning.
pub fn read_login_shell(loaded: &mut LoadedConfig, home: &Path) {
    match crate::login_shell_env::read_env(home, &loaded.raw) {
        Ok((env, warning)) => {
            loaded.warnings.extend(warning);
            loaded.dotenv_files.push(env);
        }
        Err(err) => loaded.warnings.push(format!(
            "env.shellEnv: {err}; its variables are not counted as credentials"
        )),
    }
}

/// Adds the dotenv file at `path` to `loaded`'s: one that cannot be read is a warning naming
/// it (its variables then count as unset), not a failed load.
pub fn read_dotenv_file(loaded: &mut LoadedConfig, place: crate::dotenv::DotEnvPlace, path: &Path) {
    match crate::dotenv::read(place, path, read_text::read_config_text) {
        Ok(Some((dotenv, warning))) => {
            loaded.warnings.extend(warning);
            loaded.dotenv_files.push(dotenv);
        }
        Ok(None) => {}
        Err(err) => loaded.warnings.push(format!(
            "{err}; its variables are not counted as credentials"
        )),
    }
}

/// Parses any JSON5 document into `T` with clawdeck's error positions (used for plugin files).
pub(crate) fn parse_json5<T: serde::de::DeserializeOwned>(
    text: &str,
    origin: &str,
) -> Result<T, ConfigError> {
    parse::parse_document::<T>(text, origin).map(|parsed| parsed.typed)
}

/// clawdeck's settings are strict: an unknown key there is an error naming its place.
pub fn parse_settings(text: &str, origin: &str) -> Result<ClawdeckSettings, ConfigError> {
    let settings = parse::parse_document::<ClawdeckSettings>(text, origin)?.typed;
    validate::check_settings(&settings, text, origin)?;
    Ok(settings)
}

fn build(
    text: &str,
    origin: &str,
    source: ConfigSource,
    path: Option<PathBuf>,
) -> Result<LoadedConfig, ConfigError> {
    // OpenClaw reads a key written twice as its last value: so does clawdeck, and says so.
    let parsed =
        parse::parse_document_with::<OpenClawConfig>(text, origin, parse::RepeatedKeys::LastWins)?;
    let mut warnings = unknown::unknown_key_warnings(&parsed.ignored, text, origin);
    warnings.extend(parsed.repeated.clone());
    if !parsed.raw.is_object() {
        return Err(ConfigError {
            kind: ConfigErrorKind::Type,
            file: origin.to_string(),
            line: Some(1),
            column: Some(1),
            message: "the config must be an object".to_string(),
            key_path: None,
            further: Box::default(),
        });
    }
    let agents = collect_agents(&parsed.typed, &parsed.raw, &mut warnings);
    let agent_index = index_agents(&agents);
    Ok(LoadedConfig {
        source,
        path,
        origin: origin.to_string(),
        raw: parsed.raw,
        openclaw: parsed.typed,
        settings: ClawdeckSettings::default(),
        settings_path: None,
        warnings,
        agents,
        agent_index,
        semantics: crate::semantics::newest(),
        pack: PackChoice::default(),
        remote: None,
        requested: None,
        dotenv_files: Vec::new(),
        auth_profiles: Vec::new(),
        connected_nodes: None,
        installed_plugins: None,
    })
}

/// Keys of `agents` that are not agents.
const AGENTS_RESERVED_KEYS: &[&str] = &["defaults", "list", "entries", "ownership"];

/// Keys that make an object under `agents` an agent in the seed's form.
const AGENT_KEYS: &[&str] = &[
    "tools",
    "model",
    "workspace",
    "sandbox",
    "default",
    "name",
    "subagents",
];

/// Agents from every form: `agents.list[]` (with `id`), the keyed `agents.entries.<id>`, and the
/// seed's own `agents.<id>` (seed 001 §3.4); ids normalised; duplicates and id-less entries
/// reported.
fn collect_agents(
    cfg: &OpenClawConfig,
    raw: &serde_json::Value,
    warnings: &mut Vec<String>,
) -> Vec<AgentInfo> {
    let mut agents = Agents::default();
    let list_path = KeyPath::parse_dotted("agents.list");
    for (i, entry) in cfg.agents.list.iter().enumerate() {
        let path = list_path.index(i);
        let Some(id) = entry
            .id
            .as_deref()
            .map(normalize_agent_id)
            .filter(|id| !id.is_empty())
        else {
            warnings.push(format!("{path}: agent without an id (ignored)"));
            continue;
        };
        agents.push(warnings, id, path, entry);
    }
    let entries_path = KeyPath::parse_dotted("agents.entries");
    for (key, entry) in &cfg.agents.entries {
        agents.push(
            warnings,
            normalize_agent_id(key),
            entries_path.key(key.clone()),
            entry,
        );
    }
    // Seed form: any other object under `agents` that parses as an agent is one. Its key was
    // reported as unknown by the typed parse; that warning no longer applies.
    // Their "unknown key" warnings, dropped in one pass at the end (one pass per agent was
    // quadratic).
    let mut seed_suffixes: HashSet<String> = HashSet::new();
    if let Some(map) = raw.get("agents").and_then(serde_json::Value::as_object) {
        for (key, value) in map {
            // Only objects that carry an agent's own keys: other sections OpenClaw may add under
            // `agents` stay unknown keys.
            let looks_like_agent = value
                .as_object()
                .is_some_and(|fields| AGENT_KEYS.iter().any(|k| fields.contains_key(*k)));
            if AGENTS_RESERVED_KEYS.contains(&key.as_str()) || !looks_like_agent {
                continue;
            }
            let path = KeyPath::parse_dotted("agents").key(key.clone());
            match serde_json::from_value::<AgentEntry>(value.clone()) {
                Ok(entry) => {
                    seed_suffixes.insert(format!("(at {path})"));
                    agents.push(warnings, normalize_agent_id(key), path, &entry);
                }
                Err(err) => warnings.push(format!("{path}: not an agent ({err})")),
            }
        }
    }
    if !seed_suffixes.is_empty() {
        warnings.retain(|w| {
            !(w.contains("unknown key ignored")
                && w.match_indices("(at ")
                    .any(|(at, _)| seed_suffixes.contains(&w[at..])))
        });
    }
    let mut agents = agents.list;
    if agents.is_empty() {
        agents.push(AgentInfo {
            id: "main".to_string(),
            path: KeyPath::root(),
            entry: AgentEntry::default(),
            is_default: true,
            implicit: true,
        });
    } else if !agents.iter().any(|a| a.is_default) {
        agents[0].is_default = true;
    }
    agents
}

/// Agents as they are collected: ids seen (for duplicates) and whether one is the default.
#[derive(Default)]
struct Agents {
    list: Vec<AgentInfo>,
    seen: HashMap<String, usize>,
    has_default: bool,
}

impl Agents {
    fn push(&mut self, warnings: &mut Vec<String>, id: String, path: KeyPath, entry: &AgentEntry) {
        if let Some(&at) = self.seen.get(&id) {
            warnings.push(format!(
                "{path}: agent id \"{id}\" already defined at {} (ignored)",
                self.list[at].path
            ));
            return;
        }
        let explicit_default = entry.default == Some(true) && !self.has_default;
        self.has_default |= explicit_default;
        self.seen.insert(id.clone(), self.list.len());
        self.list.push(AgentInfo {
            id,
            path,
            entry: entry.clone(),
            is_default: explicit_default,
            implicit: false,
        });
    }
}

/// Each agent id's place in `agents` (the first of a repeated id, as a search finds it).
fn index_agents(agents: &[AgentInfo]) -> HashMap<String, usize> {
    let mut index = HashMap::with_capacity(agents.len());
    for (at, agent) in agents.iter().enumerate() {
        index.entry(agent.id.clone()).or_insert(at);
    }
    index
}

#[cfg(test)]
mod tests;

/// Which of a channel's chat tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ChatKind {
    Group,
    Direct,
}
