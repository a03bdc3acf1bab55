//! What OpenClaw tells a sandboxed model about its sandbox: where exec works inside it, the host
//! folder the file tools bridge to, how much of the agent's workspace it may touch, whether it
//! may drive the host's browser, and where the sandbox's copies of the skills are read.
//!
//! As today's OpenClaw lays a sandbox out (dist: `sandbox/config`, `sandbox/shared`,
//! `ssh-backend`, `embedded-agent-runner/sandbox-info` and `sandbox-skills`): the agent's own
//! `sandbox` keys over `agents.defaults.sandbox`; a scope key of the session (or agent) and a
//! hash of the agent's workspace; the Docker backend works in `docker.workdir` (`/workspace`),
//! the SSH backend in `<ssh.workspaceRoot>/openclaw-ssh-workspace-<hash>/workspace`.

use std::path::{Path, PathBuf};

use serde_json::Value;
use sha2::{Digest, Sha256};

use super::workspace_files::agent_setting;
use crate::exec_allowlist::expand_home;

/// The sandbox as the prompt describes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SandboxInfo {
    /// Where exec works inside the sandbox (none for a backend clawdeck does not know).
    pub container_workdir: Option<String>,
    /// The host folder the file tools bridge to: the agent's workspace with `workspaceAccess:
    /// rw`, else the sandbox's own copy under `sandbox.workspaceRoot`.
    pub host_workspace: PathBuf,
    /// `none`, `ro` or `rw`.
    pub access: String,
    /// Where a read-only agent workspace is mounted inside the sandbox.
    pub agent_mount: Option<&'static str>,
    /// `sandbox.browser.allowHostControl`.
    pub host_browser_allowed: bool,
    /// The folder whose `skills/<dir>/SKILL.md` the prompt lists for every skill (the copies
    /// OpenClaw puts in the sandbox).
    pub skills_root: Option<String>,
}

/// The first 32 hexadecimal digits of the text's SHA-256.
fn hash32(text: &str) -> String {
    let digest = Sha256::digest(text.as_bytes());
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    hex[..32].to_string()
}

/// Lower case, runs of anything but `a-z0-9._-` as one `-`, no `-` at the ends, 32 at most.
fn slug_part(text: &str) -> String {
    let mut out = String::new();
    let mut in_run = false;
    for c in text.to_lowercase().chars() {
        if c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '.' | '_' | '-') {
            out.push(c);
            in_run = false;
        } else if !in_run {
            out.push('-');
            in_run = true;
        }
    }
    out.trim_matches('-').chars().take(32).collect()
}

/// Whether the key ends in `:workspace:<32 hex digits>`.
fn has_workspace_suffix(key: &str) -> bool {
    key.rsplit_once(":workspace:")
        .is_some_and(|(_, h)| h.len() == 32 && h.chars().all(|c| c.is_ascii_hexdigit()))
}

/// The sandbox's identity: `shared`, or the session (scope `session`) or the agent, each with
/// a hash of the agent's workspace.
fn scope_key(scope: &str, session_key: &str, agent: &str, workspace: &Path) -> String {
    let suffix = format!(":workspace:{}", hash32(&workspace.display().to_string()));
    match scope {
        "shared" => "shared".to_string(),
        "session" => format!("{session_key}{suffix}"),
        _ => format!("agent:{}{suffix}", agent.to_ascii_lowercase()),
    }
}

/// The folder name OpenClaw gives a scope key under `sandbox.workspaceRoot`.
fn host_slug(key: &str) -> String {
    if has_workspace_suffix(key) {
        return format!("workspace-{}", hash32(key));
    }
    let part = slug_part(key);
    let part = if part.is_empty() { "session" } else { &part };
    format!("{part}-{}", &hash32(key)[..8])
}

/// The SSH backend's runtime folder name for a scope key.
fn ssh_runtime_id(key: &str) -> String {
    if has_workspace_suffix(key) {
        return format!("openclaw-ssh-workspace-{}", hash32(key));
    }
    // A djb2-style hash, as OpenClaw's for the shared scope.
    // Per character, its first UTF-16 unit.
    let hash = key.chars().fold(5381u32, |acc, c| {
        let mut units = [0u16; 2];
        acc.wrapping_mul(33) ^ u32::from(c.encode_utf16(&mut units)[0])
    });
    let part = slug_part(key);
    let part = if part.is_empty() { "session" } else { &part };
    let hex = format!("{hash:x}");
    format!("openclaw-ssh-{part}-{}", &hex[..hex.len().min(8)])
}

/// The sandbox of a sandboxed run of `agent` in `session_key` (its main session when none),
/// whose agent workspace is `workspace`; `state` is OpenClaw's state folder.
pub fn sandbox_info(
    raw: &Value,
    agent: &str,
    session_key: Option<&str>,
    workspace: &Path,
    state: &Path,
) -> SandboxInfo {
    let text = |pointer: &str| {
        agent_setting(raw, agent, &format!("/sandbox/{pointer}"))
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|s| !s.is_empty())
    };
    let scope = text("scope").unwrap_or(
        match agent_setting(raw, agent, "/sandbox/perSession").and_then(Value::as_bool) {
            Some(true) => "session",
            Some(false) => "shared",
            None => "agent",
        },
    );
    let main = format!("agent:{}:main", agent.to_ascii_lowercase());
    let session = session_key.map(str::trim).filter(|k| !k.is_empty());
    let key = scope_key(scope, session.unwrap_or(&main), agent, workspace);
    let access = text("workspaceAccess").unwrap_or("none").to_string();
    let home = crate::paths::home_dir().map(|h| h.display().to_string());
    let root = text("workspaceRoot").map_or_else(
        || state.join("sandboxes"),
        |r| PathBuf::from(expand_home(r, home.as_deref())),
    );
    let host_workspace = match (access.as_str(), scope) {
        ("rw", _) => workspace.to_path_buf(),
        (_, "shared") => root,
        _ => root.join(host_slug(&key)),
    };
    let container_workdir = match text("backend").unwrap_or("docker") {
        "docker" => Some(text("docker/workdir").unwrap_or("/workspace").to_string()),
        "ssh" => {
            let remote = text("ssh/workspaceRoot").unwrap_or("/tmp/openclaw-sandboxes");
            let remote = remote.trim_end_matches('/');
            Some(format!("{remote}/{}/workspace", ssh_runtime_id(&key)))
        }
        _ => None,
    };
    let skills_root = container_workdir.as_ref().map(|dir| match access.as_str() {
        "rw" => format!("{dir}/.openclaw/sandbox-skills"),
        _ => dir.clone(),
    });
    SandboxInfo {
        container_workdir,
        host_workspace,
        agent_mount: (access == "ro").then_some("/agent"),
        access,
        host_browser_allowed: agent_setting(raw, agent, "/sandbox/browser/allowHostControl")
            .and_then(Value::as_bool)
            .unwrap_or(false),
        skills_root,
    }
}

/// Each skill's location (its SKILL.md, in the skills' order) as the sandbox's copy:
/// `<root>/skills/<its folder's name>/SKILL.md`, a repeated folder name numbered `-2`, `-3`...
pub fn sandbox_skill_locations<'a>(
    paths: impl IntoIterator<Item = &'a Path>,
    root: &str,
) -> Vec<String> {
    let mut used: Vec<String> = Vec::new();
    paths
        .into_iter()
        .map(|path| {
            let folder = path
                .parent()
                .and_then(Path::file_name)
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| "skill".to_string());
            let mut name = folder.clone();
            let mut n = 2;
            while used.contains(&name) {
                name = format!("{folder}-{n}");
                n += 1;
            }
            used.push(name.clone());
            format!("{root}/skills/{name}/SKILL.md")
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_ssh_sandbox_works_under_its_remote_root_in_a_folder_named_by_the_scope() {
        let raw = json!({"agents": {"defaults": {"sandbox": {"mode": "all", "backend": "ssh",
            "scope": "session", "workspaceAccess": "rw",
            "ssh": {"workspaceRoot": "/srv/sb/"}}}}});
        let ws = Path::new("/home/op/.openclaw/workspace");
        let info = sandbox_info(&raw, "main", Some("agent:main:main"), ws, Path::new("/s"));
        let key = format!(
            "agent:main:main:workspace:{}",
            hash32(&ws.display().to_string())
        );
        assert_eq!(
            info.container_workdir.as_deref(),
            Some(format!("/srv/sb/openclaw-ssh-workspace-{}/workspace", hash32(&key)).as_str())
        );
        assert_eq!(info.host_workspace, ws);
        assert_eq!(info.access, "rw");
        assert_eq!(info.agent_mount, None);
        assert!(!info.host_browser_allowed);
        assert!(
            info.skills_root
                .unwrap()
                .ends_with("/workspace/.openclaw/sandbox-skills")
        );
    }

    #[test]
    fn a_docker_sandbox_without_workspace_access_gets_its_own_host_folder() {
        let raw = json!({"agents": {"defaults": {"sandbox": {"mode": "all",
            "browser": {"allowHostControl": true}},
            "workspace": "/w"},
            "list": [{"id": "ops", "sandbox": {"workspaceAccess": "ro",
                "docker": {"workdir": "/work"}}}]}});
        let info = sandbox_info(&raw, "ops", None, Path::new("/w"), Path::new("/state"));
        assert_eq!(info.container_workdir.as_deref(), Some("/work"));
        assert_eq!(info.agent_mount, Some("/agent"));
        assert!(info.host_browser_allowed);
        let slug = info
            .host_workspace
            .strip_prefix("/state/sandboxes")
            .unwrap();
        assert!(slug.to_string_lossy().starts_with("workspace-"), "{slug:?}");
        assert_eq!(info.skills_root.as_deref(), Some("/work"));
        let shared = json!({"agents": {"defaults": {"sandbox": {"scope": "shared"}}}});
        let info = sandbox_info(&shared, "main", None, Path::new("/w"), Path::new("/state"));
        assert_eq!(info.host_workspace, Path::new("/state/sandboxes"));
    }

    #[test]
    fn slugs_keep_what_a_folder_name_may_hold() {
        assert_eq!(slug_part("Agent:Main::x y"), "agent-main-x-y");
        assert_eq!(slug_part("a-:b"), "a--b");
        assert_eq!(slug_part("::"), "");
        assert!(host_slug("shared").starts_with("shared-"));
        assert!(ssh_runtime_id("shared").starts_with("openclaw-ssh-shared-"));
    }

    #[test]
    fn skill_locations_become_the_sandbox_copies_numbered_when_folders_repeat() {
        let paths = [Path::new("/a/x/SKILL.md"), Path::new("/b/x/SKILL.md")];
        assert_eq!(
            sandbox_skill_locations(paths, "/ws"),
            ["/ws/skills/x/SKILL.md", "/ws/skills/x-2/SKILL.md"]
        );
    }
}
