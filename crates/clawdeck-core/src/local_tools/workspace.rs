//! Which directory the file tools work in, and how a sandbox confines them.
//!
//! Root: clawdeck's `workspace` setting, else the agent's `workspace` in the OpenClaw config, else
//! `agents.defaults.workspace`, else the current directory. In a sandboxed context OpenClaw's
//! `sandbox.workspaceAccess` decides: `rw` and `ro` expose that root (read-only for `ro`); `none`
//! (the default) gives the session an isolated directory under `sandbox.workspaceRoot`
//! (default `~/.openclaw/sandboxes`), one per scope key, as OpenClaw does.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::path_guard::{PathGuard, WorkspaceAccess};
use crate::config::LoadedConfig;
use crate::context::PolicyContext;
use crate::tool::ToolError;

/// The sandbox settings that matter to the file tools, after agent overrides.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SandboxWorkspace {
    pub access: WorkspaceAccess,
    /// `session` | `agent` | `shared`.
    pub scope: String,
    /// Parent of the isolated per-scope directories used with `workspaceAccess: none`.
    pub workspace_root: PathBuf,
}

/// The agent's entry in `agents.list[]` (by `id`) or the keyed `agents.entries` map.
fn agent_entry<'a>(openclaw: &'a Value, agent: &str) -> Option<&'a Value> {
    let agents = openclaw.get("agents")?;
    if let Some(list) = agents.get("list").and_then(Value::as_array)
        && let Some(entry) = list
            .iter()
            .find(|e| e.get("id").and_then(Value::as_str) == Some(agent))
    {
        return Some(entry);
    }
    agents.get("entries").and_then(|e| e.get(agent))
}

/// The default agent id: the context's, else the entry marked `default: true`, else `main`.
fn agent_id(openclaw: &Value, ctx: &PolicyContext) -> String {
    if let Some(agent) = ctx
        .agent
        .as_deref()
        .map(str::trim)
        .filter(|a| !a.is_empty())
    {
        return agent.to_string();
    }
    let marked = openclaw
        .pointer("/agents/list")
        .and_then(Value::as_array)
        .and_then(|list| {
            list.iter()
                .find(|e| e.get("default").and_then(Value::as_bool) == Some(true))
        })
        .and_then(|e| e.get("id"))
        .and_then(Value::as_str);
    marked.unwrap_or("main").to_string()
}

/// The workspace root for a context (see the module comment for the order). The same directory
/// the skills loader reads `<workspace>/skills` from: relative paths are taken from the config
/// file's directory, not from wherever clawdeck was started.
pub(crate) fn workspace_root(config: &LoadedConfig, ctx: &PolicyContext) -> PathBuf {
    let agent = ctx
        .agent
        .as_deref()
        .map(str::trim)
        .filter(|a| !a.is_empty());
    crate::skills::sources::workspace_dir(config, agent)
}

/// `agents.defaults.sandbox` with the agent's own `sandbox` keys laid over it.
pub(crate) fn sandbox_workspace(openclaw: &Value, ctx: &PolicyContext) -> SandboxWorkspace {
    let agent = agent_id(openclaw, ctx);
    let defaults = openclaw.pointer("/agents/defaults/sandbox");
    let own = agent_entry(openclaw, &agent).and_then(|e| e.get("sandbox"));
    let pick = |key: &str| -> Option<&str> {
        own.and_then(|s| s.get(key))
            .and_then(Value::as_str)
            .or_else(|| defaults.and_then(|s| s.get(key)).and_then(Value::as_str))
    };
    SandboxWorkspace {
        access: pick("workspaceAccess")
            .map(WorkspaceAccess::parse)
            .unwrap_or_default(),
        scope: pick("scope").unwrap_or("agent").to_string(),
        workspace_root: crate::paths::expand_tilde(
            pick("workspaceRoot").unwrap_or("~/.openclaw/sandboxes"),
        ),
    }
}

/// Keeps letters, digits, `-`, `_` and `.` so a session key can name a directory.
fn directory_name(key: &str) -> String {
    let cleaned: String = key
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect();
    let cleaned = cleaned.trim_matches('.').to_string();
    if cleaned.is_empty() {
        "session".to_string()
    } else {
        cleaned
    }
}

/// The isolated directory a `workspaceAccess: none` sandbox works in.
pub(crate) fn isolated_sandbox_dir(
    sandbox: &SandboxWorkspace,
    openclaw: &Value,
    ctx: &PolicyContext,
) -> PathBuf {
    let name = match sandbox.scope.as_str() {
        "shared" => "shared".to_string(),
        "session" => match ctx.session_key.as_deref() {
            Some(key) if !key.trim().is_empty() => directory_name(key.trim()),
            _ => format!("agent-{}", directory_name(&agent_id(openclaw, ctx))),
        },
        _ => format!("agent-{}", directory_name(&agent_id(openclaw, ctx))),
    };
    sandbox.workspace_root.join(name)
}

/// The path guard for a context: unconfined on the host, confined when `ctx.sandboxed`.
pub(crate) fn path_guard_for(
    config: &LoadedConfig,
    ctx: &PolicyContext,
) -> Result<PathGuard, ToolError> {
    let openclaw = &config.raw;
    let root = workspace_root(config, ctx);
    if !ctx.sandboxed {
        // A configured workspace that does not exist is not created (a typo would otherwise
        // become a new directory); the tools that need it say it is missing.
        return Ok(PathGuard::host(root));
    }
    let sandbox = sandbox_workspace(openclaw, ctx);
    match sandbox.access {
        WorkspaceAccess::None => PathGuard::sandboxed(
            isolated_sandbox_dir(&sandbox, openclaw, ctx),
            WorkspaceAccess::None,
        ),
        access => PathGuard::sandboxed_existing(Path::new(&root), access),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn config(openclaw: Value) -> LoadedConfig {
        crate::config::load_from_str(&openclaw.to_string(), "<test>").unwrap()
    }

    #[test]
    fn settings_workspace_beats_openclaw() {
        let oc = json!({"agents": {"defaults": {"workspace": "/b"}}});
        let mut with_setting = config(oc.clone());
        with_setting.settings.workspace = Some(PathBuf::from("/a"));
        assert_eq!(
            workspace_root(&with_setting, &PolicyContext::default()),
            PathBuf::from("/a")
        );
        assert_eq!(
            workspace_root(&config(oc), &PolicyContext::default()),
            PathBuf::from("/b")
        );
    }

    #[test]
    fn agent_workspace_and_sandbox_override_defaults() {
        let oc = json!({"agents": {
            "defaults": {"workspace": "/b", "sandbox": {"workspaceAccess": "ro", "scope": "agent"}},
            "list": [{"id": "ops", "workspace": "/ops", "sandbox": {"workspaceAccess": "rw"}}]}});
        let ctx = PolicyContext {
            agent: Some("ops".into()),
            ..Default::default()
        };
        assert_eq!(
            workspace_root(&config(oc.clone()), &ctx),
            PathBuf::from("/ops")
        );
        let sb = sandbox_workspace(&oc, &ctx);
        assert_eq!(sb.access, WorkspaceAccess::Rw);
        assert_eq!(
            sandbox_workspace(&oc, &PolicyContext::default()).access,
            WorkspaceAccess::Ro
        );
    }

    /// A relative `workspace` in clawdeck.json5 is the config directory's, wherever clawdeck
    /// was started (it once resolved against the current directory, so `exec` ran elsewhere).
    #[test]
    fn a_relative_workspace_is_taken_from_the_config_directory() {
        let dir = tempfile::tempdir().unwrap();
        let conf = dir.path().join("conf");
        std::fs::create_dir_all(conf.join("ws")).unwrap();
        std::fs::write(conf.join("openclaw.json5"), "{}").unwrap();
        std::fs::write(conf.join("clawdeck.json5"), "{ workspace: \"ws\" }").unwrap();
        let loaded = crate::config::load(Some(&conf.join("openclaw.json5"))).unwrap();
        let root = workspace_root(&loaded, &PolicyContext::default());
        assert_eq!(root, conf.join("ws"));
        let guard = path_guard_for(&loaded, &PolicyContext::default()).unwrap();
        assert_eq!(guard.root(), conf.join("ws"));
    }

    #[test]
    fn none_access_uses_an_isolated_directory_per_scope() {
        let dir = tempfile::tempdir().unwrap();
        let oc = json!({"agents": {"defaults": {"workspace": dir.path().join("ws"),
            "sandbox": {"workspaceRoot": dir.path().join("sb"), "scope": "session"}}}});
        let ctx = PolicyContext {
            sandboxed: true,
            session_key: Some("agent:main:x/y".into()),
            ..Default::default()
        };
        let guard = path_guard_for(&config(oc), &ctx).unwrap();
        assert!(
            guard.root().ends_with("sb/agent_main_x_y"),
            "{}",
            guard.root().display()
        );
        assert!(guard.is_sandboxed());
    }
}
