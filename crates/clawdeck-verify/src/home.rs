//! The isolated OpenClaw home a verification run uses: the operator's config with `models`
//! replaced so that the agent's model is served by the recording mock, and how the context maps
//! onto `openclaw agent` flags.
//!
//! Everything else the operator wrote (`tools`, `agents`, `channels`, `plugins`, ...) is kept
//! as is. The mock provider keeps the id of the agent's real provider (and the model its id), so
//! `tools.byProvider` entries keyed by provider or `provider/model` apply exactly as they would.

use std::path::Path;

use serde_json::{Map, Value, json};

use crate::context::PolicyContext;
use clawdeck_core::semantics::{DeclaredModel, declared_models, find_declared};

/// Provider and model the run uses when the config names none.
pub(crate) const FALLBACK_PROVIDER: &str = "mock";
pub(crate) const FALLBACK_MODEL: &str = "mock-1";

/// Where the agent's model came from, and what it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelRef {
    pub provider: String,
    pub model: String,
}

impl ModelRef {
    pub(crate) fn as_ref_string(&self) -> String {
        format!("{}/{}", self.provider, self.model)
    }

    /// `openai/gpt-5` → openai + gpt-5; `gpt-5` alone has no provider.
    fn parse(text: &str) -> Option<Self> {
        let (provider, model) = text.trim().split_once('/')?;
        (!provider.is_empty() && !model.is_empty()).then(|| Self {
            provider: provider.to_string(),
            model: model.to_string(),
        })
    }
}

/// A model setting: `"provider/model"` or `{ primary: "provider/model", ... }`.
fn model_setting(value: Option<&Value>) -> Option<ModelRef> {
    match value? {
        Value::String(text) => ModelRef::parse(text),
        Value::Object(map) => map
            .get("primary")
            .and_then(Value::as_str)
            .and_then(ModelRef::parse),
        _ => None,
    }
}

/// The agent's config object: `agents.entries.<id>` or the `agents.list` entry with that id.
fn agent_entry<'a>(config: &'a Value, agent: &str) -> Option<&'a Value> {
    let agents = config.get("agents")?;
    let wanted = agent.trim().to_lowercase();
    if let Some(entries) = agents.get("entries").and_then(Value::as_object)
        && let Some((_, entry)) = entries.iter().find(|(k, _)| k.to_lowercase() == wanted)
    {
        return Some(entry);
    }
    agents.get("list")?.as_array()?.iter().find(|entry| {
        entry
            .get("id")
            .and_then(Value::as_str)
            .is_some_and(|id| id.trim().to_lowercase() == wanted)
    })
}

/// The model the agent runs on: the context's `--provider/--model`, the agent's own model,
/// `agents.defaults.model`, else the mock's own ids.
pub fn agent_model(config: &Value, agent: &str, ctx: &PolicyContext) -> ModelRef {
    let from_ctx = match (ctx.provider.as_deref(), ctx.model.as_deref()) {
        (Some(provider), Some(model)) => {
            let model = model.strip_prefix(&format!("{provider}/")).unwrap_or(model);
            Some(ModelRef {
                provider: provider.to_string(),
                model: model.to_string(),
            })
        }
        (None, Some(model)) => ModelRef::parse(model),
        (Some(provider), None) => Some(ModelRef {
            provider: provider.to_string(),
            model: FALLBACK_MODEL.to_string(),
        }),
        (None, None) => None,
    };
    from_ctx
        .or_else(|| model_setting(agent_entry(config, agent).and_then(|e| e.get("model"))))
        .or_else(|| {
            model_setting(
                config
                    .get("agents")
                    .and_then(|a| a.get("defaults"))
                    .and_then(|d| d.get("model")),
            )
        })
        .unwrap_or_else(|| ModelRef {
            provider: FALLBACK_PROVIDER.to_string(),
            model: FALLBACK_MODEL.to_string(),
        })
}

/// The isolated config without the `plugins.load.paths` entries whose package (the
/// directory's `package.json` name) is one of `packages`: those are installed instead.
pub(crate) fn without_load_paths_of(isolated: &Value, packages: &[String]) -> Value {
    let mut out = isolated.clone();
    if packages.is_empty() {
        return out;
    }
    if let Some(paths) = out
        .pointer_mut("/plugins/load/paths")
        .and_then(Value::as_array_mut)
    {
        paths.retain(|p| {
            p.as_str()
                .and_then(package_at)
                .is_none_or(|(name, _)| !packages.contains(&name))
        });
    }
    out
}

/// The version of `package` a load path of `isolated` holds: the one an install of it should
/// take (some plugins skip a release: `@openclaw/msteams` has 2026.9.5, no 2026.9.6).
pub(crate) fn loaded_version_of(isolated: &Value, package: &str) -> Option<String> {
    isolated
        .pointer("/plugins/load/paths")?
        .as_array()?
        .iter()
        .filter_map(|p| package_at(p.as_str()?))
        .find(|(name, _)| name == package)
        .map(|(_, version)| version)
}

/// The name and version of the npm package at `path` (its package.json).
fn package_at(path: &str) -> Option<(String, String)> {
    let text = std::fs::read_to_string(Path::new(path).join("package.json")).ok()?;
    let manifest: Value = serde_json::from_str(&text).ok()?;
    let name = manifest.get("name")?.as_str()?.to_string();
    let version = manifest.get("version").and_then(Value::as_str);
    Some((name, version.unwrap_or_default().to_string()))
}

/// The isolated config with the mock's model marked as a reasoning model (so it takes a
/// thinking level other than `off`).
pub(crate) fn with_reasoning_model(isolated: &Value) -> Value {
    let mut out = isolated.clone();
    let providers = out
        .pointer_mut("/models/providers")
        .and_then(Value::as_object_mut);
    for provider in providers.into_iter().flat_map(|p| p.values_mut()) {
        let models = provider.get_mut("models").and_then(Value::as_array_mut);
        for model in models.into_iter().flatten() {
            if let Some(model) = model.as_object_mut() {
                model.insert("reasoning".to_string(), Value::Bool(true));
            }
        }
    }
    out
}

/// The operator's config with `models` pointing at the mock and every agent on `model`.
/// `config` must be an object (the loader guarantees it).
pub fn isolated_config(config: &Value, model: &ModelRef, mock_base_url: &str) -> Value {
    let mut out = config.clone();
    let Some(root) = out.as_object_mut() else {
        return out;
    };
    // The mock takes what the operator's entry for this model says it takes (a model that
    // takes images gets view_image), else text only. The config's other providers stay, their
    // models served by the mock too: OpenClaw reads what they take (a provider with a model
    // that takes images and a key brings pdf and view_image).
    let declared = declared_models(config);
    let run_model = find_declared(&declared, &model.provider, &model.model);
    let mock_provider = |models: Vec<Value>| {
        json!({
            "baseUrl": mock_base_url,
            "apiKey": "clawdeck-verify",
            "api": "openai-completions",
            "models": models,
        })
    };
    // What the entry declares it takes and its compat flags (Code Mode's tier) stay.
    let is_fallback = model.provider == FALLBACK_PROVIDER && model.model == FALLBACK_MODEL;
    let mock_model = |id: &str, declared: Option<&DeclaredModel<'_>>, run_model: bool| {
        // The entry's name stays: the anthropic plugin reads it too (a newer Claude name).
        let name = declared
            .and_then(|m| m.entry.get("name"))
            .and_then(Value::as_str)
            .unwrap_or(id);
        let mut entry = json!({
            "id": id, "name": name, "reasoning": false,
            "contextWindow": 128000, "maxTokens": 4096,
        });
        match declared.filter(|m| m.input.is_some()) {
            Some(m) => entry["input"] = mock_input(m),
            // The run's model with no input declared: OpenClaw decides what it takes from its
            // own catalog, as it does for the real model (the lab's own model takes text).
            None if run_model && !is_fallback => {}
            None => entry["input"] = json!(["text"]),
        }
        if let Some(compat) = declared
            .and_then(|m| m.entry.get("compat"))
            .filter(|c| c.is_object())
        {
            entry["compat"] = compat.clone();
        }
        entry
    };
    let mut others: Map<String, Value> = Map::new();
    let other = |m: &&DeclaredModel<'_>| {
        !m.provider
            .trim()
            .eq_ignore_ascii_case(model.provider.trim())
    };
    for m in declared.iter().filter(other) {
        let entry = others
            .entry(m.provider.to_string())
            .or_insert_with(|| mock_provider(Vec::new()));
        if let Some(models) = entry.get_mut("models").and_then(Value::as_array_mut) {
            models.push(mock_model(m.id, Some(m), false));
        }
    }
    let mut providers = others;
    providers.insert(
        model.provider.clone(),
        mock_provider(vec![mock_model(&model.model, run_model.as_ref(), true)]),
    );
    root.insert(
        "models".to_string(),
        json!({"mode": "replace", "providers": providers}),
    );
    let primary = json!({ "primary": model.as_ref_string() });
    let agents = root
        .entry("agents")
        .or_insert_with(|| Value::Object(Map::new()));
    if let Some(agents) = agents.as_object_mut() {
        let defaults = agents
            .entry("defaults")
            .or_insert_with(|| Value::Object(Map::new()));
        if let Some(defaults) = defaults.as_object_mut() {
            defaults.insert("model".to_string(), primary.clone());
        }
        // Agents that name their own model would otherwise ask for a provider that no longer
        // exists; the verified agent must run on the mock.
        let overrides = agents
            .get_mut("entries")
            .and_then(Value::as_object_mut)
            .map(|entries| entries.values_mut().collect::<Vec<_>>())
            .unwrap_or_default();
        for entry in overrides {
            retarget_model(entry, &primary);
        }
        if let Some(list) = agents.get_mut("list").and_then(Value::as_array_mut) {
            for entry in list {
                retarget_model(entry, &primary);
            }
        }
    }
    out
}

/// What a declared model takes, for the mock: its `input` when a list of strings, else text.
fn mock_input(model: &DeclaredModel<'_>) -> Value {
    match model.input {
        Some(input) if input.iter().all(Value::is_string) => Value::Array(input.to_vec()),
        _ => json!(["text"]),
    }
}

fn retarget_model(entry: &mut Value, primary: &Value) {
    if let Some(entry) = entry.as_object_mut()
        && entry.contains_key("model")
    {
        entry.insert("model".to_string(), primary.clone());
    }
}

/// The id a lab job and its run stand in for (OpenClaw gives them random UUIDs).
const STAND_IN_ID: &str = "6a0f3c2e-9b1d-4e7a-8c5f-2d4b6e8a0c1f";

/// The session key the run's turn has: the context's own, the subagent's or the group's
/// [`session_args`] names, else the key OpenClaw gives `--session-id clawdeck-verify`.
pub fn run_session_key(agent: &str, ctx: &PolicyContext) -> String {
    match session_args(agent, ctx).as_slice() {
        [flag, key] if flag == "--session-key" => key.clone(),
        // A job the lab runs without a key runs in its own cron run session, named by ids
        // OpenClaw's random ones are normalised like.
        _ if ctx.is_scheduled() => format!("agent:{agent}:cron:{STAND_IN_ID}:run:{STAND_IN_ID}"),
        _ => format!("agent:{agent}:explicit:clawdeck-verify"),
    }
}

/// How the run names its session: `--session-key` for a subagent or group context (the key
/// carries what OpenClaw derives the subagent role and the group policy from) and the agent's
/// main session for a named client's `chat.send` (the private gateway's turn runs there), else
/// a fixed `--session-id`.
pub(crate) fn session_args(agent: &str, ctx: &PolicyContext) -> Vec<String> {
    if let Some(key) = ctx.session_key.as_deref().filter(|k| !k.trim().is_empty()) {
        return vec!["--session-key".to_string(), key.to_string()];
    }
    if ctx.names_client() {
        return vec!["--session-key".to_string(), format!("agent:{agent}:main")];
    }
    if ctx.subagent {
        return vec![
            "--session-key".to_string(),
            format!("agent:{agent}:subagent:clawdeck-verify"),
        ];
    }
    if let (Some(channel), Some(group)) = (ctx.channel.as_deref(), ctx.group.as_deref()) {
        return vec![
            "--session-key".to_string(),
            format!("agent:{agent}:{channel}:group:{group}"),
        ];
    }
    vec!["--session-id".to_string(), "clawdeck-verify".to_string()]
}

/// Context fields a CLI run cannot express (the run would silently ignore them).
pub(crate) fn inexpressible(ctx: &PolicyContext) -> Vec<&'static str> {
    let mut out = Vec::new();
    // A non-owner and a sender are expressed by a turn on a private gateway (see
    // `private_gateway`), a sender by a Telegram direct message; what that cannot carry is lost.
    if super::sender_run::has_sender(ctx) {
        out.extend(super::sender_run::unsendable(ctx));
    }
    if ctx.sandboxed {
        out.push("--sandboxed (the real run sandboxes only as agents.*.sandbox.mode says)");
    }
    if ctx.heartbeat && (ctx.has_sender() || ctx.names_client() || ctx.spawner_key().is_some()) {
        out.push("--heartbeat with a sender, a client or a spawner (a heartbeat's turn has none)");
    }
    // A job's turn has no sender, client, spawner or owner; its channel is its delivery's.
    let scheduled_with = ctx.has_sender()
        || ctx.names_client()
        || ctx.spawner_key().is_some()
        || ctx.heartbeat
        || ctx.owner.is_some();
    if ctx.is_scheduled() && scheduled_with {
        out.push(
            "--scheduled-tools with a sender, a client, a spawner, a heartbeat or an owner flag (a scheduled job's turn has none)",
        );
    }
    // Only a job's delivery names an account the lab can give (its `accountId`).
    if ctx.account.is_some() && !ctx.is_scheduled() {
        out.push("--account");
    }
    out.extend(provider_unsayable(ctx));
    out.extend(client_unsayable(ctx));
    out.extend(super::job_creator::creator_unsayable(ctx));
    out
}

/// What a turn whose gateway client is named cannot carry: the lab starts it with that
/// client's `chat.send`, which has no channel sender, and observes a spawned subagent through
/// the `agent` method, which carries no client.
fn client_unsayable(ctx: &PolicyContext) -> Vec<&'static str> {
    if !ctx.names_client() {
        return Vec::new();
    }
    let mut out = Vec::new();
    if super::sender_run::has_sender(ctx) {
        out.push("--client with a sender (a channel's message carries no gateway client)");
    }
    if ctx.spawner_key().is_some() {
        out.push("--client with --spawned-by (the lab spawns through the agent method, which carries no client)");
    }
    let provider = super::private_gateway::message_provider(ctx);
    if provider
        .as_deref()
        .is_some_and(|p| p != clawdeck_core::context::CHAT_SEND_CHANNEL)
    {
        out.push("--client with a channel other than webchat (only chat.send carries a client)");
    }
    out
}

/// What a turn over the context's message provider cannot carry: the lab starts a `node`
/// turn (a paired node's voice transcript, always a non-owner's), and no other.
fn provider_unsayable(ctx: &PolicyContext) -> Vec<&'static str> {
    let Some(provider) = super::private_gateway::message_provider(ctx) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    match provider.as_str() {
        "node" => {
            if ctx.owner == Some(true) {
                out.push("--owner with --channel node (a node's voice turn runs as no owner)");
            }
            if super::sender_run::has_sender(ctx) || ctx.spawner_key().is_some() {
                out.push("--channel node with a sender or a spawner (a node's turn has neither)");
            }
        }
        "voice" | "discord-voice" => {
            out.push("--channel voice or discord-voice (only a voice call starts such a turn)")
        }
        _ => {}
    }
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;

    fn ctx() -> PolicyContext {
        PolicyContext::default()
    }

    #[test]
    fn a_node_turn_is_started_only_as_no_owner_and_a_voice_call_not_at_all() {
        let node = PolicyContext {
            channel: Some("Node".into()),
            owner: Some(false),
            session_key: Some("agent:main:main".into()),
            ..ctx()
        };
        assert!(super::super::private_gateway::node_turn(&node));
        assert!(inexpressible(&node).is_empty());
        let owner = PolicyContext {
            owner: Some(true),
            ..node.clone()
        };
        assert_eq!(
            inexpressible(&owner).len(),
            1,
            "{:?}",
            inexpressible(&owner)
        );
        // A key naming the node channel says where the session lives, not how the turn came.
        let keyed = PolicyContext {
            channel: None,
            session_key: Some("agent:main:node:group:g1".into()),
            ..ctx()
        };
        assert!(!super::super::private_gateway::node_turn(&keyed));
        let voice = PolicyContext {
            channel: Some("discord-voice".into()),
            ..ctx()
        };
        assert!(inexpressible(&voice)[0].contains("voice call"));
    }

    #[test]
    fn an_installed_packages_load_path_is_dropped_and_the_others_kept() {
        let dir = tempfile::tempdir().unwrap();
        let plugin = |name: &str, package: &str| {
            let path = dir.path().join(name);
            std::fs::create_dir_all(&path).unwrap();
            let manifest = json!({ "name": package }).to_string();
            std::fs::write(path.join("package.json"), manifest).unwrap();
            path.display().to_string()
        };
        let discord = plugin("discord", "@openclaw/discord");
        let slack = plugin("slack", "@openclaw/slack");
        let missing = dir.path().join("gone").display().to_string();
        let config = json!({"plugins": {"load": {"paths": [discord, slack, missing]}}});
        let installs = vec!["@openclaw/discord".to_string()];
        let kept = without_load_paths_of(&config, &installs);
        assert_eq!(kept["plugins"]["load"]["paths"], json!([slack, missing]));
        assert_eq!(without_load_paths_of(&config, &[]), config);
    }

    #[test]
    fn the_reasoning_model_is_the_mock_marked_as_reasoning() {
        let model = ModelRef {
            provider: "mock".into(),
            model: "mock-1".into(),
        };
        let isolated = isolated_config(&json!({}), &model, "http://127.0.0.1:9");
        let marked = with_reasoning_model(&isolated);
        assert_eq!(
            marked.pointer("/models/providers/mock/models/0/reasoning"),
            Some(&json!(true))
        );
        assert_eq!(
            isolated.pointer("/models/providers/mock/models/0/reasoning"),
            Some(&json!(false))
        );
    }

    #[test]
    fn the_agent_model_comes_from_the_context_then_the_agent_then_the_defaults() {
        let config = json!({
            "agents": {
                "defaults": {"model": {"primary": "anthropic/claude-opus-4"}},
                "list": [{"id": "ops", "model": "openai/gpt-5"}, {"id": "main"}],
            }
        });
        assert_eq!(
            agent_model(&config, "ops", &ctx()).as_ref_string(),
            "openai/gpt-5"
        );
        assert_eq!(
            agent_model(&config, "MAIN", &ctx()).as_ref_string(),
            "anthropic/claude-opus-4"
        );
        let with_flags = PolicyContext {
            provider: Some("google".into()),
            model: Some("google/gemini-3".into()),
            ..ctx()
        };
        assert_eq!(
            agent_model(&config, "ops", &with_flags).as_ref_string(),
            "google/gemini-3"
        );
        assert_eq!(
            agent_model(&json!({}), "main", &ctx()).as_ref_string(),
            "mock/mock-1"
        );
        let entries = json!({"agents": {"entries": {"Ops": {"model": {"primary": "xai/grok-5"}}}}});
        assert_eq!(
            agent_model(&entries, "ops", &ctx()).as_ref_string(),
            "xai/grok-5"
        );
    }

    #[test]
    fn the_mock_takes_what_the_operators_model_entry_declares() {
        let model = ModelRef {
            provider: "vis".into(),
            model: "Eye-1".into(),
        };
        let declared = json!({"models": {"providers": {"VIS": {"models": [
            {"id": "other", "input": ["text"]},
            {"id": "eye-1", "input": ["text", "image"]},
        ]}}}});
        let input = |config: &Value| {
            isolated_config(config, &model, "http://127.0.0.1:9/v1")
                .pointer("/models/providers/vis/models/0/input")
                .cloned()
        };
        assert_eq!(input(&declared), Some(json!(["text", "image"])));
        // Not a list of strings: text only.
        let odd =
            json!({"models": {"providers": {"vis": {"models": [{"id": "eye-1", "input": [1]}]}}}});
        assert_eq!(input(&odd), Some(json!(["text"])));
        // Undeclared, or declared without input: OpenClaw's catalog decides, as for the real one.
        for config in [
            json!({}),
            json!({"models": {"providers": {"vis": {"models": [{"id": "eye-1"}]}}}}),
            json!({"models": {"providers": {"vis": {"models": [{"id": "eye-2", "input": ["image"]}]}}}}),
        ] {
            assert_eq!(input(&config), None, "{config}");
        }
        // The lab's own model (the config names none) takes text.
        let own = ModelRef {
            provider: FALLBACK_PROVIDER.into(),
            model: FALLBACK_MODEL.into(),
        };
        let own_input = isolated_config(&json!({}), &own, "http://127.0.0.1:9/v1");
        assert_eq!(
            own_input.pointer("/models/providers/mock/models/0/input"),
            Some(&json!(["text"]))
        );
        // The other providers stay, served by the mock, their secrets gone.
        let other = json!({"models": {"providers": {
            "vis": {"apiKey": "sk-vis", "models": [{"id": "eye-1", "input": ["text", "image"]}]},
            "together": {"apiKey": "sk-together", "baseUrl": "https://api.together.xyz/v1",
                         "models": [{"id": "t-1", "input": ["text", "image"]}, {"id": "t-2"}]},
            "empty": {"models": []},
        }}});
        let out = isolated_config(&other, &model, "http://127.0.0.1:9/v1");
        let together = &out["models"]["providers"]["together"];
        assert_eq!(together["baseUrl"], "http://127.0.0.1:9/v1");
        assert_eq!(together["models"][0]["input"], json!(["text", "image"]));
        assert_eq!(together["models"][1]["input"], json!(["text"]));
        assert!(out["models"]["providers"].get("empty").is_none());
        assert!(!out.to_string().contains("sk-"));
        assert_eq!(
            out["models"]["providers"].as_object().map(|p| p.len()),
            Some(2)
        );
    }

    #[test]
    fn the_isolated_config_replaces_models_and_keeps_everything_else() {
        let config = json!({
            "models": {"providers": {"openai": {"apiKey": "sk-secret"}}},
            "tools": {"profile": "coding", "byProvider": {"openai": {"deny": ["exec"]}}},
            "channels": {"telegram": {"groups": {"-1": {"tools": {"deny": ["read"]}}}}},
            "agents": {"entries": {"ops": {"model": "openai/gpt-5", "tools": {"deny": ["write"]}}},
                       "list": [{"id": "main", "model": {"primary": "x/y", "fallbacks": []}}]},
        });
        let model = ModelRef {
            provider: "openai".into(),
            model: "gpt-5".into(),
        };
        let out = isolated_config(&config, &model, "http://127.0.0.1:9/v1");
        assert_eq!(out["tools"], config["tools"]);
        assert_eq!(out["channels"], config["channels"]);
        assert_eq!(out["models"]["mode"], "replace");
        assert_eq!(
            out["models"]["providers"]["openai"]["baseUrl"],
            "http://127.0.0.1:9/v1"
        );
        assert!(!out.to_string().contains("sk-secret"));
        assert_eq!(
            out["models"]["providers"]["openai"]["models"][0]["id"],
            "gpt-5"
        );
        assert_eq!(
            out["agents"]["defaults"]["model"]["primary"],
            "openai/gpt-5"
        );
        assert_eq!(
            out["agents"]["entries"]["ops"]["model"]["primary"],
            "openai/gpt-5"
        );
        assert_eq!(
            out["agents"]["entries"]["ops"]["tools"]["deny"],
            json!(["write"])
        );
        assert_eq!(out["agents"]["list"][0]["model"]["primary"], "openai/gpt-5");
    }

    #[test]
    fn sessions_follow_the_context() {
        assert_eq!(
            session_args("main", &ctx()),
            ["--session-id", "clawdeck-verify"]
        );
        let sub = PolicyContext {
            subagent: true,
            ..ctx()
        };
        assert_eq!(
            session_args("ops", &sub),
            ["--session-key", "agent:ops:subagent:clawdeck-verify"]
        );
        let group = PolicyContext {
            channel: Some("telegram".into()),
            group: Some("-100123".into()),
            ..ctx()
        };
        assert_eq!(
            session_args("main", &group),
            ["--session-key", "agent:main:telegram:group:-100123"]
        );
        let explicit = PolicyContext {
            session_key: Some("agent:main:subagent:a:subagent:b".into()),
            subagent: true,
            ..ctx()
        };
        assert_eq!(
            session_args("main", &explicit),
            ["--session-key", "agent:main:subagent:a:subagent:b"]
        );
        let not_owner = PolicyContext {
            owner: Some(false),
            ..ctx()
        };
        // A non-owner runs through a private gateway, a Telegram sender writes to one; a
        // phone number cannot come through Telegram.
        assert!(inexpressible(&not_owner).is_empty());
        let sender = PolicyContext {
            sender_id: Some("42".into()),
            ..ctx()
        };
        assert!(inexpressible(&sender).is_empty());
        let phone = PolicyContext {
            sender_e164: Some("+15550001".into()),
            ..ctx()
        };
        assert_eq!(inexpressible(&phone).len(), 1);
        assert!(inexpressible(&ctx()).is_empty());
    }
}
