//! OpenClaw's refinements the exported schema cannot carry: every agent a config refers to is in
//! the roster (heartbeat, system agent, Talk, bindings, broadcast groups), and a sandbox's
//! Docker and browser settings keep their isolation (no host network, no joining another
//! container's namespace unless allowed, no unconfined seccomp or AppArmor profile, bind
//! sources absolute). The same rules and key paths as the release's `OpenClawSchema` and
//! `AgentSandboxSchema` refinements; the wording of its messages.

use serde_json::{Map, Value};

use super::{Roster, SchemaIssue, written_at};

/// Every issue of the refinements below for the release `pack_id` (`2026.8`, `2026.9`).
pub(super) fn issues(roster: &Roster, pack_id: &str) -> Vec<SchemaIssue> {
    let mut out = agent_references(roster, pack_id);
    for (segments, sandbox) in sandboxes(&roster.doc) {
        sandbox_security(roster, &segments, sandbox, pack_id, &mut out);
    }
    out
}

fn issue(roster: &Roster, segments: Vec<String>, message: String) -> SchemaIssue {
    SchemaIssue {
        path: segments.join("."),
        written_at: written_at(&segments, roster),
        message,
    }
}

fn segs(parts: &[&str]) -> Vec<String> {
    parts.iter().map(|p| p.to_string()).collect()
}

/// OpenClaw's `normalizeAgentId`: trimmed and lowercased when already valid, otherwise its
/// invalid characters turned into `-` (trimmed of dashes, at most 64); `main` when nothing is
/// left.
fn normalized_agent_id(raw: &str) -> String {
    let trimmed = raw.trim();
    let lower = trimmed.to_lowercase();
    // OpenClaw's VALID_ID_RE is the canonical form, case aside.
    let valid = super::is_canonical_agent_id(&lower);
    if valid {
        return lower;
    }
    // Each run of characters outside `[a-z0-9_-]` becomes one `-`.
    let mut replaced = String::new();
    let mut in_run = false;
    for c in lower.chars() {
        let allowed = c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-';
        if allowed {
            replaced.push(c);
        } else if !in_run {
            replaced.push('-');
        }
        in_run = !allowed;
    }
    let cut: String = replaced.trim_matches('-').chars().take(64).collect();
    if cut.is_empty() {
        "main".to_string()
    } else {
        cut
    }
}

fn unknown(agent: &str) -> String {
    format!("Unknown agent id \"{agent}\" (not in agents.entries).")
}

/// The agents a config names that its roster lacks (OpenClaw's `OpenClawSchema` refinement).
fn agent_references(roster: &Roster, pack_id: &str) -> Vec<SchemaIssue> {
    let doc = &roster.doc;
    let ids: Vec<String> = doc
        .pointer("/agents/entries")
        .and_then(Value::as_object)
        .map(|m| m.keys().cloned().collect())
        .unwrap_or_default();
    let mut effective: Vec<String> = ids.iter().map(|id| normalized_agent_id(id)).collect();
    if ids.is_empty() {
        effective.push("main".to_string());
    }
    let known = |agent: &str| effective.contains(&normalized_agent_id(agent));
    let mut out = Vec::new();
    for (pointer, path) in [
        (
            "/agents/defaults/heartbeat/agentId",
            "agents.defaults.heartbeat.agentId",
        ),
        (
            "/agents/defaults/systemAgent/agentId",
            "agents.defaults.systemAgent.agentId",
        ),
        ("/talk/agentId", "talk.agentId"),
    ] {
        if let Some(agent) = doc.pointer(pointer).and_then(Value::as_str)
            && !known(agent)
        {
            out.push(issue(
                roster,
                segs(&path.split('.').collect::<Vec<_>>()),
                unknown(agent),
            ));
        }
    }
    // 2026.8 checks bindings and broadcast only with a roster; 2026.9 its bindings likewise.
    if ids.is_empty() {
        return out;
    }
    let bindings = doc.get("bindings").and_then(Value::as_array);
    for (i, binding) in bindings.into_iter().flatten().enumerate() {
        if let Some(agent) = binding.get("agentId").and_then(Value::as_str)
            && agent != "main"
            && !known(agent)
        {
            let at = vec!["bindings".to_string(), i.to_string(), "agentId".to_string()];
            out.push(issue(roster, at, unknown(agent)));
        }
    }
    if let Some(broadcast) = doc.get("broadcast").and_then(Value::as_object) {
        broadcast_members(roster, broadcast, &ids, pack_id, &mut out);
    }
    out
}

/// A broadcast group's members are roster ids as written (not normalised). 2026.8 reads only
/// the list form; 2026.9 also `{ agents: [...] }`.
fn broadcast_members(
    roster: &Roster,
    broadcast: &Map<String, Value>,
    ids: &[String],
    pack_id: &str,
    out: &mut Vec<SchemaIssue>,
) {
    for (peer, entry) in broadcast.iter().filter(|(peer, _)| *peer != "strategy") {
        let (members, under_agents) = match entry {
            Value::Array(list) => (list, false),
            Value::Object(map) if pack_id != "2026.8" => {
                match map.get("agents").and_then(Value::as_array) {
                    Some(list) => (list, true),
                    None => continue,
                }
            }
            _ => continue,
        };
        for (i, member) in members.iter().enumerate() {
            let Some(agent) = member.as_str() else {
                continue;
            };
            if ids.iter().any(|id| id == agent) {
                continue;
            }
            let mut at = vec!["broadcast".to_string(), peer.clone()];
            if under_agents {
                at.push("agents".to_string());
            }
            at.push(i.to_string());
            out.push(issue(roster, at, unknown(agent)));
        }
    }
}

/// The sandbox settings blocks of the roster document: `agents.defaults.sandbox` and each
/// `agents.entries.<id>.sandbox`, with their paths.
fn sandboxes(doc: &Value) -> Vec<(Vec<String>, &Map<String, Value>)> {
    let mut out = Vec::new();
    if let Some(sandbox) = doc
        .pointer("/agents/defaults/sandbox")
        .and_then(Value::as_object)
    {
        out.push((segs(&["agents", "defaults", "sandbox"]), sandbox));
    }
    let entries = doc.pointer("/agents/entries").and_then(Value::as_object);
    for (id, entry) in entries.into_iter().flatten() {
        if let Some(sandbox) = entry.get("sandbox").and_then(Value::as_object) {
            out.push((
                vec![
                    "agents".into(),
                    "entries".into(),
                    id.clone(),
                    "sandbox".into(),
                ],
                sandbox,
            ));
        }
    }
    out
}

/// OpenClaw's `normalizeOptionalLowercaseString`: trimmed, lowercased, absent when empty.
fn lowered(value: Option<&Value>) -> Option<String> {
    let text = value?.as_str()?.trim().to_lowercase();
    (!text.is_empty()).then_some(text)
}

fn sandbox_security(
    roster: &Roster,
    base: &[String],
    sandbox: &Map<String, Value>,
    pack_id: &str,
    out: &mut Vec<SchemaIssue>,
) {
    let at = |tail: &[&str]| {
        let mut path = base.to_vec();
        path.extend(tail.iter().map(|t| t.to_string()));
        path
    };
    let docker = sandbox.get("docker").and_then(Value::as_object);
    let join_allowed = docker.and_then(|d| d.get("dangerouslyAllowContainerNamespaceJoin"))
        == Some(&Value::Bool(true));
    if let Some(docker) = docker {
        binds(roster, &at(&["docker"]), docker, out);
        network(
            roster,
            at(&["docker", "network"]),
            docker,
            join_allowed,
            out,
        );
        let apparmor = if pack_id == "2026.8" {
            "apparmor"
        } else {
            "AppArmor"
        };
        for (key, message) in [
            ("seccompProfile", "Sandbox security: seccomp profile \"unconfined\" is blocked. Use a custom seccomp profile file or omit this setting.".to_string()),
            ("apparmorProfile", format!("Sandbox security: {apparmor} profile \"unconfined\" is blocked. Use a named AppArmor profile or omit this setting.")),
        ] {
            if lowered(docker.get(key)).as_deref() == Some("unconfined") {
                out.push(issue(roster, at(&["docker", key]), message));
            }
        }
    }
    if let Some(browser) = sandbox.get("browser").and_then(Value::as_object) {
        binds(roster, &at(&["browser"]), browser, out);
        network(
            roster,
            at(&["browser", "network"]),
            browser,
            join_allowed,
            out,
        );
    }
}

/// A docker or browser `network` that gives up isolation (OpenClaw's
/// `getBlockedNetworkModeReason`): the host's network, or another container's namespace
/// unless `docker.dangerouslyAllowContainerNamespaceJoin` allows it. `path` ends in the block
/// (`docker` or `browser`) and `network`; each block words it its own way.
fn network(
    roster: &Roster,
    path: Vec<String>,
    block: &Map<String, Value>,
    join_allowed: bool,
    out: &mut Vec<SchemaIssue>,
) {
    let browser = path.iter().rev().nth(1).is_some_and(|b| b == "browser");
    let message = match lowered(block.get("network")).as_deref() {
        Some("host") if browser => {
            "Sandbox security: browser network mode \"host\" is blocked. Use \"bridge\" or a custom bridge network instead."
        }
        Some("host") => {
            "Sandbox security: network mode \"host\" is blocked. Use \"bridge\" or \"none\" instead."
        }
        Some(mode) if mode.starts_with("container:") && !join_allowed => {
            if browser {
                "Sandbox security: browser network mode \"container:*\" is blocked by default. Set sandbox.docker.dangerouslyAllowContainerNamespaceJoin=true only when you fully trust this runtime."
            } else {
                "Sandbox security: network mode \"container:*\" is blocked by default. Use a custom bridge network, or set dangerouslyAllowContainerNamespaceJoin=true only when you fully trust this runtime."
            }
        }
        _ => return,
    };
    out.push(issue(roster, path, message.to_string()));
}

/// Bind mounts (`host:container[:options]`): each a non-empty string whose host side is an
/// absolute POSIX or Windows drive path.
fn binds(roster: &Roster, base: &[String], block: &Map<String, Value>, out: &mut Vec<SchemaIssue>) {
    let list = block.get("binds").and_then(Value::as_array);
    for (i, bind) in list.into_iter().flatten().enumerate() {
        let Some(bind) = bind.as_str() else { continue };
        let mut path = base.to_vec();
        path.extend(["binds".to_string(), i.to_string()]);
        if bind.trim().is_empty() {
            out.push(issue(
                roster,
                path,
                "Sandbox security: bind mount entry must be a non-empty string.".into(),
            ));
            continue;
        }
        let source = bind_source(bind);
        if !host_path_absolute(source) {
            out.push(issue(roster, path, format!(
                "Sandbox security: bind mount \"{bind}\" uses a non-absolute source path \"{source}\". Only absolute POSIX or Windows drive-letter paths are supported for sandbox binds."
            )));
        }
    }
}

/// The host side of a bind spec: before the first `:` that is not a Windows drive's.
fn bind_source(spec: &str) -> &str {
    let bytes = spec.as_bytes();
    let drive = bytes.len() >= 3
        && bytes[0].is_ascii_alphabetic()
        && bytes[1] == b':'
        && (bytes[2] == b'\\' || bytes[2] == b'/');
    let from = if drive { 2 } else { 0 };
    match spec[from..].find(':') {
        Some(i) => &spec[..from + i],
        None => spec,
    }
}

fn host_path_absolute(path: &str) -> bool {
    let path = path
        .strip_prefix("\\\\?\\")
        .or_else(|| path.strip_prefix("//?/"))
        .unwrap_or(path);
    let bytes = path.as_bytes();
    path.starts_with('/')
        || (bytes.len() >= 3
            && bytes[0].is_ascii_alphabetic()
            && bytes[1] == b':'
            && (bytes[2] == b'\\' || bytes[2] == b'/'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agent_ids_normalise_as_openclaw_does() {
        assert_eq!(normalized_agent_id(" OPS "), "ops");
        assert_eq!(normalized_agent_id("Ops Team"), "ops-team");
        assert_eq!(normalized_agent_id("--"), "main");
        assert_eq!(normalized_agent_id("a.b"), "a-b");
    }

    #[test]
    fn a_bind_source_is_what_comes_before_the_mount_point() {
        assert_eq!(bind_source("/srv/data:/data:ro"), "/srv/data");
        assert_eq!(bind_source("C:\\data:/data"), "C:\\data");
        assert_eq!(bind_source("data:/data"), "data");
        assert!(host_path_absolute("/srv"));
        assert!(host_path_absolute("C:/srv"));
        assert!(!host_path_absolute("srv"));
    }
}

#[cfg(test)]
mod refused {
    use crate::config::schema_check::{SchemaVerdict, check};

    fn paths(config: &str, pack: &str) -> Vec<(String, String)> {
        let raw: serde_json::Value = json5::from_str(config).unwrap();
        match check(&raw, pack) {
            SchemaVerdict::Checked(issues) => issues
                .into_iter()
                .map(|i| (i.path, i.written_at.to_string()))
                .collect(),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_binding_or_target_naming_no_roster_agent_is_refused() {
        let config = r#"{ agents: { list: [{ id: "ops", default: true }] },
            bindings: [{ agentId: "ghost", match: { channel: "telegram" } },
                { agentId: "main", match: { channel: "slack" } },
                { agentId: " OPS ", match: { channel: "discord" } }] }"#;
        for pack in ["2026.9", "2026.8"] {
            assert_eq!(
                paths(config, pack),
                vec![(
                    "bindings.0.agentId".to_string(),
                    "bindings[0].agentId".to_string()
                )]
            );
        }
        let targets = r#"{ agents: { defaults: { heartbeat: { agentId: "x" } } },
            talk: { agentId: "MAIN" }, broadcast: { g: ["main", "MAIN"] } }"#;
        let found: Vec<String> = paths(targets, "2026.9").into_iter().map(|p| p.0).collect();
        assert_eq!(
            found,
            ["agents.defaults.heartbeat.agentId", "broadcast.g.1"]
        );
    }

    #[test]
    fn a_sandbox_that_gives_up_its_isolation_is_refused_where_it_is_written() {
        let config = r#"{ agents: {
            defaults: { sandbox: { docker: { network: "HOST", binds: ["rel:/x", "/abs:/y"] } } },
            list: [{ id: "main", default: true, sandbox: { browser: { network: "container:a" } } }] } }"#;
        let found = paths(config, "2026.9");
        assert!(found.contains(&(
            "agents.defaults.sandbox.docker.network".to_string(),
            "agents.defaults.sandbox.docker.network".to_string()
        )));
        assert!(
            found
                .iter()
                .any(|p| p.0 == "agents.defaults.sandbox.docker.binds.0")
        );
        assert!(
            !found
                .iter()
                .any(|p| p.0 == "agents.defaults.sandbox.docker.binds.1")
        );
        assert!(found.contains(&(
            "agents.entries.main.sandbox.browser.network".to_string(),
            "agents.list[0].sandbox.browser.network".to_string()
        )));
        let allowed = r#"{ agents: { defaults: { sandbox: { docker: { network: "container:a",
            dangerouslyAllowContainerNamespaceJoin: true } } } } }"#;
        assert_eq!(paths(allowed, "2026.9"), vec![]);
    }
}
