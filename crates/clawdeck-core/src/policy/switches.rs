//! Tools a config switches off (the pack's `switches`, read by `semantics::switches`): OpenClaw
//! never builds them, so no allowlist brings them back. They are removed before the chain, at
//! the owner layer (the gate that already keeps tools from being offered at all), each with the
//! key that switched it off: `absent: tools.web.search.enabled is false`.

use std::collections::HashMap;

use super::layer::{LayerId, LayerPolicy, RuleEntry};
use super::sources::LayerInputs;
use crate::config::keypath::KeySegment;
use crate::context::PolicyContext;
use crate::mcp_servers::BUNDLE_MCP;
use crate::semantics::switches::{
    AGENT_METHOD_HAS_NO_CALLER, HEARTBEAT_HAS_NO_CALLER, RunFacts, SPAWNED_HAS_NO_CALLER,
    SwitchedOff, UI_GUEST_HAS_NO_CALLER,
};
use serde_json::Value;

use super::trace::ABSENT;

/// The owner layer's label when it carries switched-off tools.
const LABEL: &str = "tools switched off by config";

/// The owner layer's label when it carries what the turn's message provider keeps out.
const PROVIDER_LABEL: &str = "tools the turn's message provider keeps out";

/// Adds a removal for every tool a switch keeps from being built, and for every tool the
/// turn's message provider filters out.
pub(crate) fn apply(layers: &mut [LayerPolicy], inputs: &LayerInputs<'_>) {
    let Some(owner) = layers.iter_mut().find(|l| l.id == LayerId::Owner) else {
        return;
    };
    apply_switches(owner, inputs);
    apply_message_provider(owner, inputs);
}

/// OpenClaw filters a turn's tools by its message provider (`filterToolsByMessageProvider`):
/// the channel the turn came over, not one a session key names.
fn apply_message_provider(owner: &mut LayerPolicy, inputs: &LayerInputs<'_>) {
    let Some(provider) = inputs.ctx.message_provider() else {
        return;
    };
    let switches = &inputs.registry.semantics.switches;
    let removed: Vec<(String, String)> = inputs
        .registry
        .tools
        .iter()
        .filter(|t| !t.is_clawdecks())
        .filter_map(|t| {
            Some((
                t.name.clone(),
                switches.provider_removes(provider, &t.name)?,
            ))
        })
        .collect();
    if removed.is_empty() {
        return;
    }
    owner.also_does(PROVIDER_LABEL, format!("message provider {provider}"));
    for (tool, reason) in removed {
        owner.deny.push(RuleEntry::builtin(tool, reason));
    }
}

fn apply_switches(owner: &mut LayerPolicy, inputs: &LayerInputs<'_>) {
    let removed = switched_off(inputs);
    if removed.is_empty() {
        return;
    }
    let mut keys: Vec<&str> = removed.iter().map(|(_, off)| off.path.as_str()).collect();
    keys.dedup();
    owner.also_does(LABEL, format!("switched off: {}", keys.join(", ")));
    for (tool, off) in removed {
        owner.deny.push(RuleEntry::builtin_at(
            tool,
            format!("{ABSENT}{}", off.reason),
            off.path,
        ));
    }
}

/// Every registered tool a switch removes, with the switch.
fn switched_off(inputs: &LayerInputs<'_>) -> Vec<(String, SwitchedOff)> {
    let registry = inputs.registry;
    let switches = &registry.semantics.switches;
    let raw = &inputs.cfg.raw;
    let mut out = Vec::new();
    let agent_path = inputs.agent.path.to_string();
    let agent = agent_entry(raw, inputs).map(|entry| (entry, agent_path.as_str()));
    let ctx = inputs.ctx;
    let run = RunFacts {
        channel: ctx.channel.as_deref(),
        sender: ctx.has_sender(),
        no_caller: no_caller(registry, ctx),
    };
    for switch in &switches.keys {
        if let Some(off) = switch.off(raw, agent, run) {
            // The Feishu plugin's own families decide its tools (`feishu_tools`), account by
            // account, which a single key cannot say.
            let removes = switch.removes.iter().filter(|t| registry.contains(t));
            for tool in removes.filter(|t| super::feishu_tools::family_of(t).is_none()) {
                out.push((tool.clone(), off.clone()));
            }
        }
    }
    out.extend(without_vision(inputs));
    out.extend(without_client_caps(inputs));
    out.extend(without_xai(inputs));
    out.extend(without_heartbeat_reply(inputs));
    out.extend(without_full_registration(inputs));
    out.extend(super::scheduled_cap::switched_off(inputs));
    let removed: Vec<String> = out.iter().map(|(tool, _)| tool.clone()).collect();
    out.extend(
        without_own_credential(inputs)
            .into_iter()
            .filter(|(tool, _)| !removed.contains(tool)),
    );
    let Some(plugins) = &switches.plugins else {
        return out;
    };
    let mut decided: HashMap<&str, Option<SwitchedOff>> = HashMap::new();
    for spec in &registry.tools {
        let Some(id) = spec.source.plugin_id() else {
            continue;
        };
        // MCP server tools and a node's tools load with no plugin of this gateway.
        if id == BUNDLE_MCP || spec.source.node().is_some() || spec.is_clawdecks() {
            continue;
        }
        let decision = decided
            .entry(id)
            .or_insert_with(|| plugins.plugin_off(raw, id));
        if let Some(off) = decision {
            let reason = format!("{} (plugin {id} does not load)", off.reason);
            out.push((
                spec.name.clone(),
                SwitchedOff {
                    path: off.path.clone(),
                    reason,
                },
            ));
        }
    }
    out
}

/// Why the turn has no caller: a spawned subagent's, one of a gateway's agent method, or a
/// non-owner's from an operator UI client.
fn no_caller(registry: &crate::catalog::Registry, ctx: &PolicyContext) -> Option<&'static str> {
    if ctx.spawner_key().is_some() {
        return Some(SPAWNED_HAS_NO_CALLER);
    }
    if ctx.heartbeat {
        return Some(HEARTBEAT_HAS_NO_CALLER);
    }
    if ctx.turn_host() == crate::context::TurnHost::AgentMethod && !local_operator_turn(ctx) {
        return Some(AGENT_METHOD_HAS_NO_CALLER);
    }
    let caps = &registry.semantics.client_capabilities;
    caps.operator_ui_guest(ctx)
        .then_some(UI_GUEST_HAS_NO_CALLER)
}

/// Whether a turn of the gateway's agent method is the local operator's own: an owner's (a
/// connection with `operator.admin` on the gateway's machine, as `openclaw agent` there is)
/// that names its session by key. OpenClaw binds such a turn a local operator's authority (its
/// direct operator authority needs a resolved session key); a turn naming only a session id,
/// a non-owner's and a paired node's get none.
fn local_operator_turn(ctx: &PolicyContext) -> bool {
    let keyed = ctx
        .session_key
        .as_deref()
        .is_some_and(|k| !k.trim().is_empty());
    keyed && ctx.is_owner() && !ctx.is_node_turn()
}

/// The tools a model that takes images brings, when this run's model does not (and no media
/// source brings view_image): OpenClaw does not build them for it.
fn without_vision(inputs: &LayerInputs<'_>) -> Vec<(String, SwitchedOff)> {
    // A config that names no such model: the run simply lacks them (`policy::resolve`).
    if !inputs.registry.names_vision_model {
        return Vec::new();
    }
    let lacked = lacked_vision_tools(inputs.cfg, inputs.registry, inputs.resolved, inputs.agent);
    if lacked.is_empty() {
        return Vec::new();
    }
    let resolved = inputs.resolved;
    let model = resolved.model.as_deref().unwrap_or("OpenClaw's default");
    let (path, reason) = match (&resolved.model_input, &resolved.model_source) {
        (Some(input), source) if input.from_catalog => (
            source
                .clone()
                .unwrap_or_else(|| "agents.defaults.model".to_string()),
            format!(
                "the run's model {model} does not take images ({})",
                input.path
            ),
        ),
        (Some(input), _) => (
            input.path.clone(),
            format!("the run's model {model} does not take images"),
        ),
        (None, source) => (
            source
                .clone()
                .unwrap_or_else(|| "agents.defaults.model".to_string()),
            format!(
                "the run's model {model} is not declared to take images (clawdeck reads a \
                 model's input from models.providers and the providers' catalogs)"
            ),
        ),
    };
    lacked
        .into_iter()
        .map(|name| {
            let off = SwitchedOff {
                path: path.clone(),
                reason: reason.clone(),
            };
            (name, off)
        })
        .collect()
}

/// The registry's tools a model that takes images brings, which this run lacks: its model
/// does not take images and no media source brings them (view_image from an image model or a
/// key). How they are shown depends on the config: switched off when it names a model that
/// takes images, else simply not in the run.
pub(super) fn lacked_vision_tools(
    cfg: &crate::config::LoadedConfig,
    registry: &crate::catalog::Registry,
    resolved: &super::trace::ResolvedContext,
    agent: &crate::config::AgentInfo,
) -> Vec<String> {
    if resolved
        .model_input
        .as_ref()
        .is_some_and(|i| i.takes_images)
    {
        return Vec::new();
    }
    let semantics = &registry.semantics;
    let credentials = cfg.credentials(Some(agent.id.as_str()));
    registry
        .tools
        .iter()
        .filter(|spec| semantics.needs_vision(&spec.name))
        .filter(|spec| {
            semantics
                .media_source(&cfg.raw, &credentials, &spec.name)
                .is_none()
        })
        .map(|spec| spec.name.clone())
        .collect()
}

/// xAI's remote tools the registry holds that this run lacks: its provider is not xAI and
/// their config does not turn them on.
fn without_xai(inputs: &LayerInputs<'_>) -> Vec<(String, SwitchedOff)> {
    let semantics = &inputs.registry.semantics;
    let provider = inputs.resolved.provider.as_deref();
    inputs
        .registry
        .tools
        .iter()
        .filter_map(|spec| {
            let (path, reason) = semantics.xai_tool_off(&inputs.cfg.raw, &spec.name, provider)?;
            Some((spec.name.clone(), SwitchedOff { path, reason }))
        })
        .collect()
}

/// A heartbeat's turn whose replies do not go through the message tool: OpenClaw does not
/// build the heartbeat's tool. (A turn that is no heartbeat's lacks it at all:
/// `policy::resolve`.)
fn without_heartbeat_reply(inputs: &LayerInputs<'_>) -> Vec<(String, SwitchedOff)> {
    let Some(rules) = &inputs.registry.semantics.heartbeat_turn else {
        return Vec::new();
    };
    let (key, on) = rules.reply_setting(&inputs.cfg.raw, inputs.ctx);
    if !inputs.ctx.heartbeat || on || !inputs.registry.contains(&rules.tool) {
        return Vec::new();
    }
    let reason = format!(
        "{key} is not \"{}\": a heartbeat's turn gets it only where its reply goes through the message tool",
        rules.value
    );
    vec![(rules.tool.clone(), SwitchedOff { path: key, reason })]
}

/// Plugin tools (plugin id, tool) whose plugin registers them, in the tool-discovery
/// registration a turn gets outside a gateway's full plugin registry, as a factory that
/// builds nothing (`registerClickClackDiscussions`, @openclaw/clickclack 2026.9.4). No local,
/// agent-method, chat.send or scheduled turn of 2026.9.6 has one (real cases
/// `clickclack-discussion-*-turn`).
const FULL_REGISTRATION_ONLY: &[(&str, &str)] = &[("clickclack", "discussion")];

/// The plugin tools only a gateway's full plugin registration builds, which no turn clawdeck
/// can describe gets.
fn without_full_registration(inputs: &LayerInputs<'_>) -> Vec<(String, SwitchedOff)> {
    inputs
        .registry
        .tools
        .iter()
        .filter_map(|spec| {
            let crate::tool::ToolSource::Plugin { plugin_id, .. } = &spec.source else {
                return None;
            };
            if !FULL_REGISTRATION_ONLY.contains(&(plugin_id.as_str(), spec.name.as_str())) {
                return None;
            }
            let reason = format!(
                "its plugin builds it only in a gateway's full plugin registration; a local, \
                 agent-method, chat.send or scheduled turn gets the tool-discovery one, where \
                 {plugin_id} registers it as a factory that builds nothing"
            );
            let path = format!("plugins.entries.{plugin_id}");
            Some((spec.name.clone(), SwitchedOff { path, reason }))
        })
        .collect()
}

/// The tools a gateway client's capabilities decide that this turn's client does not give.
/// A context that names no client has none of them at all (`policy::resolve`).
fn without_client_caps(inputs: &LayerInputs<'_>) -> Vec<(String, SwitchedOff)> {
    let caps = &inputs.registry.semantics.client_capabilities;
    let Some(client) = caps.turn_client(inputs.ctx) else {
        return Vec::new();
    };
    inputs
        .registry
        .tools
        .iter()
        .filter_map(|spec| {
            let reason = caps.lacks(&spec.name, inputs.ctx, &client)?;
            let path = "gateway client".to_string();
            Some((spec.name.clone(), SwitchedOff { path, reason }))
        })
        .collect()
}

/// The media tools the registry holds for another agent's stored auth profile, which this
/// run's agent does not read: OpenClaw builds them only for that agent's runs.
fn without_own_credential(inputs: &LayerInputs<'_>) -> Vec<(String, SwitchedOff)> {
    let agent = inputs.agent.id.as_str();
    // Only a store another agent owns can bring what this run lacks.
    if inputs
        .cfg
        .auth_profiles
        .iter()
        .all(|store| store.read_by(Some(agent)))
    {
        return Vec::new();
    }
    let semantics = &inputs.registry.semantics;
    let raw = &inputs.cfg.raw;
    let own = inputs.cfg.credentials(Some(agent));
    let any = inputs.cfg.credentials(None);
    inputs
        .registry
        .tools
        .iter()
        .filter(|spec| semantics.media_source(raw, &own, &spec.name).is_none())
        .filter_map(|spec| {
            let elsewhere = semantics.media_source(raw, &any, &spec.name)?;
            let off = SwitchedOff {
                path: "auth profiles".to_string(),
                reason: format!(
                    "only another agent's stored auth profile brings it, a store agent {} does \
                     not read: {}",
                    inputs.agent.id,
                    elsewhere.describe()
                ),
            };
            Some((spec.name.clone(), off))
        })
        .collect()
}

/// The context's agent entry in the raw config (`None` for OpenClaw's implicit agent).
fn agent_entry<'a>(raw: &'a Value, inputs: &LayerInputs<'_>) -> Option<&'a Value> {
    if inputs.agent.implicit || inputs.agent.path.is_root() {
        return None;
    }
    inputs
        .agent
        .path
        .segments()
        .iter()
        .try_fold(raw, |value, segment| match segment {
            KeySegment::Key(key) => value.get(key),
            KeySegment::Index(index) => value.get(index),
        })
}

#[cfg(test)]
mod tests {
    use crate::catalog::Registry;
    use crate::config::load_from_str;
    use crate::context::PolicyContext;
    use crate::policy::{LayerId, Resolution, resolve};

    fn resolve_2026(config: &str, agent: Option<&str>) -> Resolution {
        let cfg = load_from_str(config, "t.json5")
            .unwrap()
            .with_pack("2026.9")
            .unwrap();
        let registry = Registry::build(&cfg, &crate::mcp_servers::ServerListing::Off);
        let ctx = PolicyContext {
            agent: agent.map(str::to_string),
            ..PolicyContext::default()
        };
        resolve(&cfg, &registry, &ctx).unwrap()
    }

    /// The removal of `tool`: its layer, rule and config path.
    fn absent(res: &Resolution, tool: &str) -> (LayerId, String, String) {
        let removal = res
            .trace(tool)
            .unwrap()
            .removed_by
            .clone()
            .unwrap_or_else(|| panic!("{tool} is visible"));
        (
            removal.layer,
            removal.builtin.unwrap_or_default(),
            removal.config_path.unwrap_or_default(),
        )
    }

    fn visible(res: &Resolution, tool: &str) -> bool {
        res.trace(tool).is_some_and(|t| t.visible)
    }

    #[test]
    fn a_key_switched_off_removes_its_tools_before_any_allowlist() {
        let res = resolve_2026(
            "{ tools: { allow: ['*'], web: { search: { enabled: false }, fetch: { enabled: false } }, updatePlan: false }, transcripts: { enabled: false } }",
            None,
        );
        let (layer, rule, path) = absent(&res, "web_search");
        assert_eq!(layer, LayerId::Owner);
        assert_eq!(rule, "absent: tools.web.search.enabled is false");
        assert_eq!(path, "tools.web.search.enabled");
        assert_eq!(absent(&res, "web_fetch").2, "tools.web.fetch.enabled");
        assert_eq!(absent(&res, "progress_card").2, "tools.updatePlan");
        assert_eq!(absent(&res, "transcripts").2, "transcripts.enabled");
        assert!(visible(&res, "exec") && visible(&res, "browser"));
        // `clawdeck explain web_search` names the key in its headline.
        let text = crate::policy::render_tool(&res, res.trace("web_search").unwrap());
        assert!(
            text.contains("HIDDEN, absent: tools.web.search.enabled is false"),
            "{text}"
        );
        let owner = res.layers.iter().find(|l| l.id == LayerId::Owner).unwrap();
        assert_eq!(owner.label, "tools switched off by config");
        // Only `false` switches a tool off.
        let on = resolve_2026("{ tools: { web: { search: { enabled: true } } } }", None);
        assert!(visible(&on, "web_search"));
    }

    #[test]
    fn an_agents_apply_patch_object_replaces_the_global_one() {
        let config = "{ tools: { exec: { applyPatch: { enabled: false } } }, agents: { list: [{ id: 'main', default: true }, { id: 'ops', tools: { exec: { applyPatch: { workspaceOnly: true } } } }, { id: 'dev', tools: { exec: { applyPatch: { enabled: false } } } }] } }";
        assert_eq!(
            absent(&resolve_2026(config, Some("main")), "apply_patch").2,
            "tools.exec.applyPatch.enabled"
        );
        assert!(visible(&resolve_2026(config, Some("ops")), "apply_patch"));
        assert_eq!(
            absent(&resolve_2026(config, Some("dev")), "apply_patch").2,
            "agents.list[2].tools.exec.applyPatch.enabled"
        );
    }

    #[test]
    fn plugin_switches_remove_every_tool_of_a_plugin_that_does_not_load() {
        let res = resolve_2026("{ plugins: { allow: ['browser'] } }", None);
        assert!(visible(&res, "browser"));
        assert!(
            visible(&res, "memory_search"),
            "memory-core holds the memory slot"
        );
        for tool in [
            "canvas",
            "file_fetch",
            "dir_list",
            "node_inference",
            "talk_voice",
        ] {
            let (layer, rule, path) = absent(&res, tool);
            assert_eq!(layer, LayerId::Owner, "{tool}");
            assert!(
                rule.starts_with("absent: plugins.allow does not list "),
                "{rule}"
            );
            assert_eq!(path, "plugins.allow");
        }
        let res = resolve_2026("{ plugins: { slots: { memory: 'none' } } }", None);
        let (_, rule, path) = absent(&res, "intent");
        assert_eq!(
            rule,
            "absent: plugins.slots.memory is \"none\" (plugin memory-core does not load)"
        );
        assert_eq!(path, "plugins.slots.memory");
        let res = resolve_2026(
            "{ plugins: { deny: ['canvas'], entries: { browser: { enabled: false } } } }",
            None,
        );
        assert_eq!(absent(&res, "canvas").2, "plugins.deny[0]");
        assert_eq!(absent(&res, "browser").2, "plugins.entries.browser.enabled");
        assert!(visible(&res, "talk_voice"));
        let off = resolve_2026("{ plugins: { enabled: false } }", None);
        assert!(!visible(&off, "memory_get") && !visible(&off, "file_write"));
        assert!(visible(&off, "exec"));
    }

    #[test]
    fn a_plugin_tool_built_only_when_its_key_is_true_in_its_chat_with_a_sender() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("openclaw.plugin.json"),
            r#"{"id": "whatsapp", "configSchema": {}, "channels": ["whatsapp"],
                "contracts": {"tools": ["whatsapp_call", "whatsapp_login"]}}"#,
        )
        .unwrap();
        let config = |calls: &str| {
            format!(
                "{{ plugins: {{ load: {{ paths: [{:?}] }} }}, channels: {{ whatsapp: {{ {calls} }} }} }}",
                dir.path().display().to_string()
            )
        };
        let run = |config: &str, ctx: PolicyContext| {
            let cfg = load_from_str(config, "t.json5")
                .unwrap()
                .with_pack("2026.9")
                .unwrap();
            let registry = Registry::build(&cfg, &crate::mcp_servers::ServerListing::Off);
            resolve(&cfg, &registry, &ctx).unwrap()
        };
        let chat = PolicyContext {
            channel: Some("whatsapp".into()),
            group: Some("120363@g.us".into()),
            sender_id: Some("+15550001".into()),
            ..PolicyContext::default()
        };
        let unset = run(&config(""), chat.clone());
        assert!(visible(&unset, "whatsapp_login"));
        let (layer, rule, path) = absent(&unset, "whatsapp_call");
        assert_eq!(layer, LayerId::Owner);
        assert_eq!(rule, "absent: channels.whatsapp.actions.calls is not true");
        assert_eq!(path, "channels.whatsapp.actions.calls");
        let on = config("actions: { calls: true }");
        assert!(visible(&run(&on, chat.clone()), "whatsapp_call"));
        let no_sender = PolicyContext {
            sender_id: None,
            ..chat.clone()
        };
        assert!(
            absent(&run(&on, no_sender), "whatsapp_call")
                .1
                .contains("requester")
        );
        let elsewhere = PolicyContext {
            channel: Some("telegram".into()),
            ..chat
        };
        assert_eq!(
            absent(&run(&on, elsewhere), "whatsapp_call").1,
            "absent: built only in a whatsapp chat"
        );
    }
}
