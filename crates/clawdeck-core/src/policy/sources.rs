//! Where each layer's rules come from: the config and the context decide which layers apply and
//! what they allow and deny (seed 001 §3.4–§3.6, OpenClaw's `resolveEffectiveToolPolicy`,
//! `resolveGroupToolPolicy`, sandbox and subagent policies).

use std::collections::BTreeMap;

use super::PolicyError;
use super::layer::{LayerId, LayerPolicy, RuleEntry};
use super::matcher::CompiledList;
use super::sender_keys::match_sender;
use super::trace::{PolicyWarning, ResolvedContext};
use crate::catalog::Registry;
use crate::config::openclaw::{GroupConfig, ProviderPolicyConfig, ToolPolicyConfig};
use crate::config::{AgentInfo, KeyPath, LoadedConfig};
use crate::context::PolicyContext;
use crate::semantics::{Semantics, SubagentRules};

fn entries(list: &[String], path: &KeyPath) -> Vec<RuleEntry> {
    list.iter()
        .enumerate()
        .map(|(i, p)| RuleEntry::configured(p.clone(), path.index(i).to_string()))
        .collect()
}

/// Why a Tool Search control is in an allowlist the config left empty.
const CONTROL_RULE: &str = "Tool Search's control: OpenClaw adds its controls to every allowlist \
     while Tool Search is on (mergeAlsoAllowPolicy), so an empty one keeps only them";

/// The controls OpenClaw adds to every layer's allowlist for this config: Tool Search's, when
/// it is on; none otherwise. Read once per resolution ([`LayerInputs::search_controls`]).
pub(crate) fn search_controls(cfg: &LoadedConfig, registry: &Registry) -> Vec<String> {
    registry
        .semantics
        .tool_search
        .as_ref()
        .filter(|rules| rules.mode(&cfg.raw).is_some())
        .map(|rules| rules.controls())
        .unwrap_or_default()
}

/// An allowlist the config wrote empty (`allow: []` at `path`): no restriction, except that
/// with Tool Search on it holds the controls and nothing else (no tool of the catalog passes).
fn empty_allowlist(controls: &[String], path: String) -> (Option<Vec<RuleEntry>>, Option<String>) {
    if controls.is_empty() {
        return (None, None);
    }
    let only = controls
        .iter()
        .map(|name| RuleEntry::builtin_at(name.clone(), CONTROL_RULE, path.clone()))
        .collect();
    (Some(only), Some(path))
}

/// How a layer whose allowlist holds only Tool Search's controls says a tool is not in it.
fn controls_miss(allow: Option<&Vec<RuleEntry>>, path: Option<&String>) -> Option<String> {
    let only_controls = allow.is_some_and(|list| {
        !list.is_empty()
            && list
                .iter()
                .all(|e| e.builtin.as_deref() == Some(CONTROL_RULE))
    });
    only_controls.then(|| {
        format!(
            "{} is empty and Tool Search is on: only Tool Search's controls pass (OpenClaw adds \
             them to every allowlist)",
            path.map_or("the allowlist", String::as_str)
        )
    })
}

/// The allowlist of an `{allow, alsoAllow}` pair: a non-empty allow gains alsoAllow; an absent or
/// empty allow with alsoAllow is no restriction (OpenClaw's `["*", ...alsoAllow]`); an empty
/// allow alone is [`empty_allowlist`].
fn merged_allow(
    allow: Option<&Vec<String>>,
    also: Option<&Vec<String>>,
    base: &KeyPath,
    controls: &[String],
) -> (Option<Vec<RuleEntry>>, Option<String>) {
    match allow {
        Some(list) if !list.is_empty() => {
            let mut out = entries(list, &base.key("allow"));
            if let Some(also) = also {
                out.extend(entries(also, &base.key("alsoAllow")));
            }
            (Some(out), Some(base.key("allow").to_string()))
        }
        Some(_) if also.is_none_or(|a| a.is_empty()) => {
            empty_allowlist(controls, base.key("allow").to_string())
        }
        _ => (None, None),
    }
}

/// A tool policy's three lists as the config wrote them (absent or not).
#[derive(Clone, Copy)]
struct PolicyLists<'a> {
    allow: Option<&'a Vec<String>>,
    also: Option<&'a Vec<String>>,
    deny: Option<&'a Vec<String>>,
}

impl<'a> PolicyLists<'a> {
    fn of(
        allow: Option<&'a Vec<String>>,
        also: Option<&'a Vec<String>>,
        deny: Option<&'a Vec<String>>,
    ) -> Self {
        PolicyLists { allow, also, deny }
    }
}

fn policy_layer(
    id: LayerId,
    label: String,
    base: &KeyPath,
    lists: PolicyLists<'_>,
    note: String,
    controls: &[String],
) -> LayerPolicy {
    let PolicyLists { allow, also, deny } = lists;
    if allow.is_none() && also.is_none() && deny.is_none() {
        return LayerPolicy::absent(id, label, format!("no allow/alsoAllow/deny in {base}"));
    }
    let (allow_entries, allow_path) = merged_allow(allow, also, base, controls);
    LayerPolicy {
        id,
        label,
        present: true,
        source_path: Some(base.to_string()),
        miss_reason: controls_miss(allow_entries.as_ref(), allow_path.as_ref()),
        allow: allow_entries,
        allow_path,
        deny: deny
            .map(|d| entries(d, &base.key("deny")))
            .unwrap_or_default(),
        note,
        defaults_plus: defaults_plus(allow, also),
    }
}

/// A policy's entries when it has `alsoAllow` but no allowlist ([`LayerPolicy::defaults_plus`]).
fn defaults_plus(allow: Option<&Vec<String>>, also: Option<&Vec<String>>) -> Option<Vec<String>> {
    let also = also.filter(|a| !a.is_empty())?;
    match allow {
        None => Some(also.clone()),
        Some(list) if list.is_empty() => Some(
            std::iter::once("*".to_string())
                .chain(also.iter().cloned())
                .collect(),
        ),
        Some(_) => None,
    }
}

/// `agent:<id>:subagent:...` or `subagent:...` (OpenClaw's `isSubagentSessionKey`).
pub fn is_subagent_session_key(key: &str) -> bool {
    crate::session_key::parse(key).subagent
}

/// The agent's main session: no key (the console), `main`, or `agent:<id>:main`.
fn is_main_session(key: Option<&str>, agent: &str) -> bool {
    match key.map(|k| k.trim().to_lowercase()) {
        None => true,
        Some(k) => k.is_empty() || k == "main" || k == format!("agent:{agent}:main"),
    }
}

/// Fills in the context: agent, provider/model, owner, subagent, sandbox.
pub(crate) fn resolve_context<'a>(
    cfg: &'a LoadedConfig,
    semantics: &Semantics,
    ctx: &PolicyContext,
) -> Result<(ResolvedContext, &'a AgentInfo), PolicyError> {
    let agent = context_agent(cfg, ctx)?;
    let (provider, model, model_source) = provider_and_model(cfg, ctx, agent);
    let (owner, owner_source) = owner_of(cfg, semantics, ctx);
    let (subagent, subagent_source) = subagent_of(ctx);
    let (sandboxed, sandbox_source) = sandboxed_by(cfg, ctx, agent);
    let model_input = provider
        .as_deref()
        .zip(model.as_deref())
        .and_then(|(provider, model)| semantics.model_input(&cfg.raw, provider, model));
    let agent_path = (!agent.implicit).then(|| agent.path.to_string());
    let code_mode = semantics.code_mode.as_ref().map(|rules| {
        let run_agent = crate::semantics::RunAgent {
            entry: agent.path.lookup(&cfg.raw).filter(|_| !agent.implicit),
            path: agent_path.as_deref(),
        };
        let catalog_id = provider
            .as_deref()
            .zip(model.as_deref())
            .map(|(p, m)| semantics.model_rules.normalize_id(p, m));
        rules.activation(
            &cfg.raw,
            run_agent,
            provider.as_deref(),
            model.as_deref(),
            catalog_id.as_deref(),
        )
    });
    let resolved = ResolvedContext {
        agent: agent.id.clone(),
        agent_path,
        provider,
        model,
        model_source,
        model_input,
        code_mode,
        owner,
        owner_source,
        subagent,
        subagent_source,
        sandboxed,
        sandbox_source,
        remote: ctx.remote,
        turn: ctx.turn_host(),
        delivery: ctx.delivery(),
        job_owner: ctx.job_owner_key().map(str::to_string),
        job_owner_channel: ctx
            .job_owner_context(crate::context::CreatorChannel::of(
                semantics.creator_channel_from_turn,
            ))
            .filter(|owner| owner.group.is_none())
            .and_then(|owner| owner.channel),
        channel: ctx.channel.clone(),
        turn_channel: ctx.turn_channel.clone(),
        openclaw: cfg.pack.pack.clone(),
        openclaw_reason: cfg.pack.reason.clone(),
        // Settled once the layers are built.
        gateway_config_reads: true,
        // Settled with the tools the turn has.
        pinned_widget: false,
        message_tool_reply: ctx.heartbeat
            && semantics
                .heartbeat_turn
                .as_ref()
                .is_some_and(|rules| rules.reply_setting(&cfg.raw, ctx).1),
        swarm: semantics.swarm_enabled(
            &cfg.raw,
            agent
                .path
                .lookup(&cfg.raw)
                .filter(|_| !agent.implicit)
                .map(|entry| (entry, agent.path.to_string()))
                .as_ref()
                .map(|(entry, path)| (*entry, path.as_str())),
        ),
    };
    Ok((resolved, agent))
}

/// Whether the turn is its owner's, and why: what the turn's kind says, else the flags, else
/// the config's owner lists.
fn owner_of(cfg: &LoadedConfig, semantics: &Semantics, ctx: &PolicyContext) -> (bool, String) {
    match ctx.owner {
        // OpenClaw starts a subagent's turn through its gateway as no owner (the spawner's
        // owner rights reach it only as what the spawner could not do: the inherited layer).
        _ if ctx.spawner_key().is_some() => (
            false,
            "a spawned subagent's turn runs as no owner".to_string(),
        ),
        // The heartbeat runner names no sender the owner list could match.
        _ if ctx.heartbeat => (false, "a heartbeat's turn runs as no owner".to_string()),
        // The cron service passes no senderIsOwner: OpenClaw removes the owner-only core tools
        // only from a turn known not to be the owner's (what needs a confirmed owner goes:
        // the switches).
        _ if ctx.is_scheduled() => (
            true,
            "a scheduled job's turn names no owner, which keeps the owner-only tools".to_string(),
        ),
        Some(owner) => (
            owner,
            if owner {
                "--owner".to_string()
            } else {
                "--not-owner".to_string()
            },
        ),
        None => owner_from_config(cfg, semantics, ctx),
    }
}

/// The context's agent, else the config's default one.
fn context_agent<'a>(
    cfg: &'a LoadedConfig,
    ctx: &PolicyContext,
) -> Result<&'a AgentInfo, PolicyError> {
    match ctx
        .agent
        .as_deref()
        .map(str::trim)
        .filter(|a| !a.is_empty())
    {
        Some(id) => cfg.agent(id).ok_or_else(|| PolicyError::UnknownAgent {
            id: id.to_string(),
            known: cfg.agent_ids(),
        }),
        None => cfg
            .default_agent()
            .ok_or_else(|| PolicyError::UnknownAgent {
                id: "main".into(),
                known: Vec::new(),
            }),
    }
}

/// Provider, model and where they come from: the context's (the provider from a
/// `provider/model` when only the model is given), else the agent's configured model.
fn provider_and_model(
    cfg: &LoadedConfig,
    ctx: &PolicyContext,
    agent: &AgentInfo,
) -> (Option<String>, Option<String>, Option<String>) {
    let clean = |v: &Option<String>| {
        v.as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
    };
    let mut provider = clean(&ctx.provider).map(|p| p.to_lowercase());
    let mut model = clean(&ctx.model);
    let mut model_source = None;
    if provider.is_some() || model.is_some() {
        model_source = Some("context (--provider/--model)".to_string());
        if provider.is_none()
            && let Some((p, _)) = model.as_deref().and_then(|m| m.split_once('/'))
        {
            provider = Some(p.to_lowercase());
        }
    } else if let Some((configured, path)) = cfg.agent_model(&agent.id) {
        if let Some((p, _)) = configured.split_once('/') {
            provider = Some(p.to_lowercase());
        }
        model = Some(configured);
        model_source = Some(path.to_string());
    }
    (provider, model, model_source)
}

/// A subagent session (`--subagent`, a subagent session key, or a spawner named), and why.
fn subagent_of(ctx: &PolicyContext) -> (bool, Option<String>) {
    if let Some(key) = ctx
        .session_key
        .as_deref()
        .filter(|k| is_subagent_session_key(k))
    {
        (
            true,
            Some(format!("session key \"{key}\" is a subagent key")),
        )
    } else if let Some(key) = ctx.spawner_key() {
        (true, Some(format!("spawned by session \"{key}\"")))
    } else if ctx.subagent {
        (true, Some("--subagent".to_string()))
    } else {
        (false, None)
    }
}

/// Sandboxed (`--sandboxed`, or the agent's sandbox mode for this session), and why.
fn sandboxed_by(
    cfg: &LoadedConfig,
    ctx: &PolicyContext,
    agent: &AgentInfo,
) -> (bool, Option<String>) {
    let (mode, mode_path) = sandbox_mode(cfg, agent);
    if ctx.sandboxed {
        (true, Some("--sandboxed".to_string()))
    } else if mode == "all" {
        (true, Some(format!("{mode_path} = \"all\"")))
    } else if mode == "non-main" && !is_main_session(ctx.session_key.as_deref(), &agent.id) {
        (
            true,
            Some(format!(
                "{mode_path} = \"non-main\" and this is not the main session"
            )),
        )
    } else {
        (false, None)
    }
}

/// Owner from `commands.ownerAllowFrom` when a sender is named; otherwise the console operator,
/// who is the owner. A named sender and no list: the seed's OpenClaw trusts them, today's
/// does not (a channel sender is an owner only when the list names them). Today's OpenClaw
/// knows a sender by id and phone number only (`resolveSenderCandidates`: no username), and a
/// `*` entry names nobody (`stripWildcardAllowFrom`); the seed's matched usernames and `*`.
fn owner_from_config(
    cfg: &LoadedConfig,
    semantics: &Semantics,
    ctx: &PolicyContext,
) -> (bool, String) {
    let today = semantics.sender_owner_needs_allowlist;
    let named = [&ctx.sender_id, &ctx.sender_e164, &ctx.sender_username]
        .into_iter()
        .flatten()
        .any(|s| !s.trim().is_empty());
    let username = if today { &None } else { &ctx.sender_username };
    let senders: Vec<String> = [&ctx.sender_id, &ctx.sender_e164, username]
        .into_iter()
        .flatten()
        .map(|s| s.trim().trim_start_matches('@').to_lowercase())
        .filter(|s| !s.is_empty())
        .collect();
    let Some(list) = cfg.openclaw.commands.owner_allow_from.as_ref() else {
        if named && today {
            return (
                false,
                "a channel sender is the owner only when commands.ownerAllowFrom names them (none is set)"
                    .to_string(),
            );
        }
        return (true, "the console operator is the owner".to_string());
    };
    if !named {
        return (
            true,
            "no sender in the context: the console operator is the owner".to_string(),
        );
    }
    let channel = ctx.channel.as_deref().map(|c| c.trim().to_lowercase());
    for (i, entry) in list.iter().enumerate() {
        let text = match entry {
            serde_json::Value::String(s) => s.trim().to_lowercase(),
            serde_json::Value::Number(n) => n.to_string(),
            _ => continue,
        };
        let (entry_channel, entry_sender) = match text.split_once(':') {
            Some((c, s)) => (Some(c.to_string()), s.trim_start_matches('@').to_string()),
            None => (None, text.trim_start_matches('@').to_string()),
        };
        if entry_channel.is_some() && entry_channel != channel {
            continue;
        }
        if (entry_sender == "*" && !today) || senders.contains(&entry_sender) {
            return (true, format!("commands.ownerAllowFrom[{i}]"));
        }
    }
    let why = if today {
        "sender not in commands.ownerAllowFrom, which OpenClaw matches by id or phone number (`*` names nobody)"
    } else {
        "sender not in commands.ownerAllowFrom"
    };
    (false, why.to_string())
}

fn sandbox_mode(cfg: &LoadedConfig, agent: &AgentInfo) -> (String, String) {
    if let Some(mode) = agent.entry.sandbox.as_ref().and_then(|s| s.mode.clone()) {
        return (
            mode.trim().to_lowercase(),
            agent.path.key("sandbox").key("mode").to_string(),
        );
    }
    if let Some(mode) = cfg
        .openclaw
        .agents
        .defaults
        .sandbox
        .as_ref()
        .and_then(|s| s.mode.clone())
    {
        return (
            mode.trim().to_lowercase(),
            "agents.defaults.sandbox.mode".to_string(),
        );
    }
    ("off".to_string(), "default sandbox mode".to_string())
}

/// `byProvider` lookup: keys lowercased; `provider/model` first, then `provider`.
fn lookup_provider<'a>(
    map: &'a BTreeMap<String, ProviderPolicyConfig>,
    provider: Option<&str>,
    model: Option<&str>,
) -> Option<(&'a String, &'a ProviderPolicyConfig)> {
    let mut candidates = Vec::new();
    if let Some(model) = model {
        if model.contains('/') {
            candidates.push(model.to_lowercase());
        } else if let Some(provider) = provider {
            candidates.push(format!("{provider}/{}", model.to_lowercase()));
        }
    }
    if let Some(provider) = provider {
        candidates.push(provider.to_lowercase());
    }
    candidates.iter().find_map(|wanted| {
        map.iter()
            .find(|(key, _)| key.trim().to_lowercase() == *wanted)
    })
}

/// Everything the layers need besides the config.
pub(crate) struct LayerInputs<'a> {
    pub cfg: &'a LoadedConfig,
    pub registry: &'a Registry,
    pub ctx: &'a PolicyContext,
    pub agent: &'a AgentInfo,
    pub resolved: &'a ResolvedContext,
    /// [`search_controls`] of the config.
    pub search_controls: Vec<String>,
}

/// The ten layers, in order.
pub(crate) fn build_layers(
    inputs: &LayerInputs<'_>,
    warnings: &mut Vec<PolicyWarning>,
) -> Vec<LayerPolicy> {
    // `tools.byProvider` and the agent's `byProvider`, looked up once for the three layers.
    let (global_provider, agent_provider) = provider_policies(inputs);
    let mut layers = vec![
        owner_layer(inputs),
        profile_layer(inputs, warnings),
        provider_profile_layer(inputs, &global_provider, &agent_provider, warnings),
        global_layer(inputs),
        provider_layer(
            inputs,
            LayerId::GlobalProvider,
            "tools.byProvider.allow".to_string(),
            global_provider,
            "tools.byProvider",
        ),
        agent_layer(inputs),
        provider_layer(
            inputs,
            LayerId::AgentProvider,
            format!("agents.{}.tools.byProvider.allow", inputs.agent.id),
            agent_provider,
            &format!("agents.{}.tools.byProvider", inputs.agent.id),
        ),
        job_group_layer(inputs, warnings),
    ];
    if inputs.registry.semantics.sender_layer {
        layers.push(sender_layer(inputs, warnings));
    }
    layers.push(sandbox_layer(inputs));
    layers.push(subagent_layer(inputs));
    layers
}

fn owner_layer(inputs: &LayerInputs<'_>) -> LayerPolicy {
    let r = inputs.resolved;
    let label = "owner-only tools";
    if r.owner && !r.remote {
        return LayerPolicy::absent(LayerId::Owner, label, format!("owner ({})", r.owner_source));
    }
    let mut deny = Vec::new();
    let mut notes = Vec::new();
    if !r.owner {
        notes.push(format!("not an owner ({})", r.owner_source));
        for spec in inputs.registry.tools.iter().filter(|t| t.flags.owner_only) {
            deny.push(RuleEntry::builtin(
                spec.name.clone(),
                "owner-only tool, removed for non-owners",
            ));
        }
    }
    if r.remote {
        notes.push("remote caller".to_string());
        for spec in inputs
            .registry
            .tools
            .iter()
            .filter(|t| t.flags.local_system)
        {
            deny.push(RuleEntry::builtin(
                spec.name.clone(),
                "local system tool, never offered to a remote caller (it would touch this computer)",
            ));
        }
    }
    LayerPolicy {
        id: LayerId::Owner,
        label: label.to_string(),
        present: true,
        source_path: None,
        allow: None,
        allow_path: None,
        deny,
        note: notes.join("; "),
        defaults_plus: None,
        miss_reason: None,
    }
}

fn profile_entries(
    semantics: &Semantics,
    profile: &str,
    profile_path: &KeyPath,
    also: Option<(&Vec<String>, KeyPath)>,
    layer: LayerId,
    warnings: &mut Vec<PolicyWarning>,
) -> Option<Vec<RuleEntry>> {
    let id = profile.trim().to_lowercase();
    let members = match semantics.profile(&id) {
        Some(members) => members,
        None => {
            warnings.push(PolicyWarning {
                layer: Some(layer),
                message: format!(
                    "unknown profile \"{profile}\": no restriction (the {} semantics ignore an unknown profile; OpenClaw 2026.9 refuses the config)",
                    semantics.id
                ),
                config_path: Some(profile_path.to_string()),
            });
            None
        }
    };
    let members = members?;
    let mut out: Vec<RuleEntry> = members
        .iter()
        .map(|m| {
            RuleEntry::builtin_at(
                m.clone(),
                format!("profile \"{id}\""),
                profile_path.to_string(),
            )
        })
        .collect();
    if let Some((also, path)) = also {
        out.extend(entries(also, &path));
    }
    Some(out)
}

fn profile_layer(inputs: &LayerInputs<'_>, warnings: &mut Vec<PolicyWarning>) -> LayerPolicy {
    let agent_tools = inputs.agent.entry.tools.as_ref();
    let global = &inputs.cfg.openclaw.tools;
    let agent_tools_path = inputs.agent.path.key("tools");
    let (profile, path) = match agent_tools.and_then(|t| t.profile.as_ref()) {
        Some(p) => (p, agent_tools_path.key("profile")),
        None => match global.profile.as_ref() {
            Some(p) => (p, KeyPath::parse_dotted("tools.profile")),
            None => match inputs.registry.semantics.default_profile.as_ref() {
                // Not configured: the version's default profile, named by the key that changes it.
                Some(p) => (p, KeyPath::parse_dotted("tools.profile")),
                None => {
                    return LayerPolicy::absent(
                        LayerId::Profile,
                        "tools.profile",
                        "no tools.profile",
                    );
                }
            },
        },
    };
    let also = match agent_tools.and_then(|t| t.also_allow.as_ref()) {
        Some(a) => Some((a, agent_tools_path.key("alsoAllow"))),
        None => global
            .also_allow
            .as_ref()
            .map(|a| (a, KeyPath::parse_dotted("tools.alsoAllow"))),
    };
    let also_path = also.as_ref().map(|(_, p)| p.to_string());
    let allow = profile_entries(
        &inputs.registry.semantics,
        profile,
        &path,
        also,
        LayerId::Profile,
        warnings,
    );
    let allow = allow.map(|list| with_heartbeat_reply(list, inputs));
    let note = match &allow {
        Some(_) => format!("profile \"{profile}\" from {path}"),
        None => format!("profile \"{profile}\" from {path}: no restriction"),
    };
    LayerPolicy {
        id: LayerId::Profile,
        label: format!("tools.profile ({profile})"),
        present: true,
        source_path: Some(path.to_string()),
        allow,
        allow_path: Some(path.to_string()),
        deny: Vec::new(),
        note,
        defaults_plus: None,
        miss_reason: Some(match also_path {
            Some(also_path) => format!("not in profile \"{profile}\" ({path}) nor in {also_path}"),
            None => format!("not in profile \"{profile}\" ({path})"),
        }),
    }
}

/// A profile's allowlist with what a heartbeat's turn adds to it where its reply goes through
/// the message tool (the heartbeat's tool and message: OpenClaw's runtime profile alsoAllow).
fn with_heartbeat_reply(mut list: Vec<RuleEntry>, inputs: &LayerInputs<'_>) -> Vec<RuleEntry> {
    let Some(rules) = &inputs.registry.semantics.heartbeat_turn else {
        return list;
    };
    let (key, on) = rules.reply_setting(&inputs.cfg.raw, inputs.ctx);
    if inputs.ctx.heartbeat && on {
        let why = format!("a heartbeat's turn where {key} is \"{}\"", rules.value);
        for tool in &rules.profile_also_allow {
            list.push(RuleEntry::builtin_at(
                tool.clone(),
                why.clone(),
                key.clone(),
            ));
        }
    }
    list
}

/// Whether the profile layers let `name` through without restricting: each is absent, names
/// an unrestricted or unknown profile, or has an alsoAllow entry (the entries no built-in rule
/// wrote) that matches it. OpenClaw asks this of `gateway` to decide its config reads.
pub(crate) fn profiles_grant(layers: &[LayerPolicy], registry: &Registry, name: &str) -> bool {
    layers
        .iter()
        .filter(|l| matches!(l.id, LayerId::Profile | LayerId::ProviderProfile) && l.present)
        .all(|layer| match &layer.allow {
            None => true,
            Some(allow) => {
                let also: Vec<RuleEntry> = allow
                    .iter()
                    .filter(|e| e.builtin.is_none())
                    .cloned()
                    .collect();
                !also.is_empty() && CompiledList::compile(also, registry).matches(name)
            }
        })
}

/// A matched `byProvider` entry with its key path.
type ProviderMatch<'a> = Option<(KeyPath, &'a ProviderPolicyConfig)>;

/// The matched `byProvider` entries: (global, agent).
fn provider_policies<'a>(inputs: &LayerInputs<'a>) -> (ProviderMatch<'a>, ProviderMatch<'a>) {
    let provider = inputs.resolved.provider.as_deref();
    let model = inputs.resolved.model.as_deref();
    let global =
        lookup_provider(&inputs.cfg.openclaw.tools.by_provider, provider, model).map(|(key, p)| {
            (
                KeyPath::parse_dotted("tools.byProvider").key(key.clone()),
                p,
            )
        });
    let agent = inputs.agent.entry.tools.as_ref().and_then(|tools| {
        lookup_provider(&tools.by_provider, provider, model).map(|(key, p)| {
            (
                inputs
                    .agent
                    .path
                    .key("tools")
                    .key("byProvider")
                    .key(key.clone()),
                p,
            )
        })
    });
    (global, agent)
}

fn no_provider_note(inputs: &LayerInputs<'_>, what: &str) -> String {
    match (&inputs.resolved.provider, &inputs.resolved.model) {
        (None, None) => "no provider or model in the context".to_string(),
        (p, m) => format!(
            "no {what} entry for {}",
            [p.clone(), m.clone()]
                .into_iter()
                .flatten()
                .collect::<Vec<_>>()
                .join(" / ")
        ),
    }
}

fn provider_profile_layer(
    inputs: &LayerInputs<'_>,
    global: &ProviderMatch<'_>,
    agent: &ProviderMatch<'_>,
    warnings: &mut Vec<PolicyWarning>,
) -> LayerPolicy {
    let label = "tools.byProvider.profile";
    let found = agent
        .as_ref()
        .and_then(|(path, p)| p.profile.as_ref().map(|prof| (path.clone(), prof, *p)))
        .or_else(|| {
            global
                .as_ref()
                .and_then(|(path, p)| p.profile.as_ref().map(|prof| (path.clone(), prof, *p)))
        });
    let Some((base, profile, _)) = found else {
        return LayerPolicy::absent(
            LayerId::ProviderProfile,
            label,
            no_provider_note(inputs, "byProvider profile"),
        );
    };
    let also = agent
        .as_ref()
        .and_then(|(path, p)| p.also_allow.as_ref().map(|a| (a, path.key("alsoAllow"))))
        .or_else(|| {
            global
                .as_ref()
                .and_then(|(path, p)| p.also_allow.as_ref().map(|a| (a, path.key("alsoAllow"))))
        });
    let path = base.key("profile");
    let also_path = also.as_ref().map(|(_, p)| p.to_string());
    let allow = profile_entries(
        &inputs.registry.semantics,
        profile,
        &path,
        also,
        LayerId::ProviderProfile,
        warnings,
    )
    .map(|list| with_heartbeat_reply(list, inputs));
    LayerPolicy {
        id: LayerId::ProviderProfile,
        label: format!("{label} ({profile})"),
        present: true,
        source_path: Some(base.to_string()),
        allow,
        allow_path: Some(path.to_string()),
        deny: Vec::new(),
        note: format!("profile \"{profile}\" from {path}"),
        defaults_plus: None,
        miss_reason: Some(match also_path {
            Some(also_path) => format!("not in profile \"{profile}\" ({path}) nor in {also_path}"),
            None => format!("not in profile \"{profile}\" ({path})"),
        }),
    }
}

fn global_layer(inputs: &LayerInputs<'_>) -> LayerPolicy {
    let t = &inputs.cfg.openclaw.tools;
    policy_layer(
        LayerId::Global,
        "tools.allow".to_string(),
        &KeyPath::root().key("tools"),
        PolicyLists::of(t.allow.as_ref(), t.also_allow.as_ref(), t.deny.as_ref()),
        "tools.allow/alsoAllow/deny".to_string(),
        &inputs.search_controls,
    )
}

/// A `byProvider` allow/deny layer (global or the agent's): the entry matched for the context's
/// provider/model, or absent with the reason.
fn provider_layer(
    inputs: &LayerInputs<'_>,
    id: LayerId,
    label: String,
    matched: ProviderMatch<'_>,
    section: &str,
) -> LayerPolicy {
    match matched {
        Some((path, p)) => policy_layer(
            id,
            label,
            &path,
            PolicyLists::of(p.allow.as_ref(), p.also_allow.as_ref(), p.deny.as_ref()),
            format!("matched {path}"),
            &inputs.search_controls,
        ),
        None => LayerPolicy::absent(id, label, no_provider_note(inputs, section)),
    }
}

fn agent_layer(inputs: &LayerInputs<'_>) -> LayerPolicy {
    let label = format!("agents.{}.tools.allow", inputs.agent.id);
    match &inputs.agent.entry.tools {
        Some(t) => policy_layer(
            LayerId::Agent,
            label,
            &inputs.agent.path.key("tools"),
            PolicyLists::of(t.allow.as_ref(), t.also_allow.as_ref(), t.deny.as_ref()),
            format!(
                "agent \"{}\" ({})",
                inputs.agent.id,
                inputs.agent.path.key("tools")
            ),
            &inputs.search_controls,
        ),
        None => LayerPolicy::absent(
            LayerId::Agent,
            label,
            format!("agent \"{}\" has no tools section", inputs.agent.id),
        ),
    }
}

/// Group id candidates from a scoped id: `X:topic:T:sender:S` → [raw, X:topic:T, X].
pub(crate) fn group_id_candidates(raw: &str) -> Vec<String> {
    let raw = raw.trim();
    let mut out = vec![raw.to_string()];
    let base = raw.split(":sender:").next().unwrap_or(raw);
    if base != raw {
        out.push(base.to_string());
    }
    if let Some((group, _)) = base.split_once(":topic:")
        && !out.iter().any(|o| o == group)
    {
        out.push(group.to_string());
    }
    out
}

/// The group layer of the turn; a job an agent created reads it in its creator's session and
/// account ([`PolicyContext::job_owner_context`]), not in the session it runs in.
fn job_group_layer(inputs: &LayerInputs<'_>, warnings: &mut Vec<PolicyWarning>) -> LayerPolicy {
    let from =
        crate::context::CreatorChannel::of(inputs.registry.semantics.creator_channel_from_turn);
    let Some(owner) = inputs.ctx.job_owner_context(from) else {
        return group_layer(inputs, warnings);
    };
    let key = owner.session_key.as_deref().unwrap_or_default();
    if owner.group.is_none() {
        // OpenClaw reads a job's creator's group only; a direct chat's policy is the chat's turn's.
        return LayerPolicy::absent(
            LayerId::Group,
            "group tools.allow",
            format!(
                "{key} names no group (the session of the agent's turn that created the job: a job an agent made reads its creator's group policy only)"
            ),
        );
    }
    let owner_inputs = LayerInputs {
        ctx: &owner,
        search_controls: inputs.search_controls.clone(),
        ..*inputs
    };
    let mut layer = group_layer(&owner_inputs, warnings);
    layer.note = format!(
        "{} (the session of the agent's turn that created the job, {key}: a job an agent made reads its creator's group policy)",
        layer.note
    );
    layer
}

fn group_layer(inputs: &LayerInputs<'_>, warnings: &mut Vec<PolicyWarning>) -> LayerPolicy {
    let label = "group tools.allow";
    let ctx = inputs.ctx;
    let Some(channel) = ctx
        .channel
        .as_deref()
        .map(str::trim)
        .filter(|c| !c.is_empty())
    else {
        return LayerPolicy::absent(LayerId::Group, label, "no channel in the context");
    };
    let Some(group) = ctx
        .group
        .as_deref()
        .map(str::trim)
        .filter(|g| !g.is_empty())
    else {
        if inputs.registry.semantics.direct_chat_policy {
            return direct_chat_layer(inputs, channel, warnings);
        }
        return LayerPolicy::absent(
            LayerId::Group,
            label,
            format!("{channel}: no group in the context (direct chat)"),
        );
    };
    if let Some(layer) = plugin_group_layer(inputs, channel, group, warnings) {
        return layer;
    }
    let Some((groups, table_path)) = inputs.cfg.group_table(channel, ctx.account.as_deref()) else {
        return LayerPolicy::absent(
            LayerId::Group,
            label,
            format!("channels.{channel} has no groups"),
        );
    };

    let specific = group_id_candidates(group)
        .into_iter()
        .find_map(|c| groups.get_key_value(&c));
    let wildcard = groups.get_key_value("*");
    let mut local_warnings = Vec::new();
    // First hit wins: group.toolsBySender → group.tools → "*".toolsBySender → "*".tools.
    let mut chosen: Option<(KeyPath, &ToolPolicyConfig, String)> = None;
    for (key, cfg) in [specific, wildcard].into_iter().flatten() {
        let group_path = table_path.key(key.clone());
        let cfg: &GroupConfig = cfg;
        let by_sender_path = group_path.key("toolsBySender");
        if let Some((sender_key, policy)) = match_sender(
            &cfg.tools_by_sender,
            &sender_rules_ctx(inputs),
            &by_sender_path,
            LayerId::Group,
            &mut local_warnings,
        ) {
            let path = by_sender_path.key(sender_key.clone());
            chosen = Some((
                path,
                policy,
                format!("group \"{key}\", sender key \"{sender_key}\""),
            ));
            break;
        }
        if let Some(tools) = &cfg.tools {
            chosen = Some((
                group_path.key("tools"),
                tools,
                format!("group \"{key}\" tools"),
            ));
            break;
        }
    }
    warnings.extend(local_warnings);
    chat_policy_layer(
        label,
        chosen,
        format!("{table_path}: no entry for group \"{group}\" or \"*\""),
        &inputs.search_controls,
    )
}

/// The group layer from the channel plugin's own resolver (Slack's channels, Discord's
/// guilds, Matrix's rooms) when it finds a policy; `None` leaves `channels.<ch>.groups` to
/// decide, as OpenClaw does. A channel the pack does not name is read from its groups, with
/// a warning that says so.
fn plugin_group_layer(
    inputs: &LayerInputs<'_>,
    channel: &str,
    group: &str,
    warnings: &mut Vec<PolicyWarning>,
) -> Option<LayerPolicy> {
    use super::channel_groups::{ChannelRule, PluginInputs, plugin_policy, rule_for};
    let source = match rule_for(&inputs.registry.semantics, channel) {
        ChannelRule::Known(source) => source,
        ChannelRule::NotModelled => {
            warnings.push(PolicyWarning {
                layer: Some(LayerId::Group),
                message: format!(
                    "channel {channel}: group policy not modelled for OpenClaw {}, read channels.{channel}.groups (its channel plugin may keep it elsewhere)",
                    inputs.registry.semantics.id
                ),
                config_path: Some(format!("channels.{channel}")),
            });
            return None;
        }
    };
    let lowered = channel.to_lowercase();
    let exact_keys = inputs
        .registry
        .semantics
        .channel_keys_case_sensitive
        .iter()
        .any(|c| c.eq_ignore_ascii_case(&lowered));
    let ctx = sender_rules_ctx(inputs);
    let plugin = PluginInputs {
        raw: &inputs.cfg.raw,
        ctx: &ctx,
        channel: &lowered,
        exact_keys,
    };
    let chosen = plugin_policy(source, &plugin, &group_id_candidates(group), warnings)?;
    Some(policy_layer(
        LayerId::Group,
        "group tools.allow".to_string(),
        &chosen.path,
        PolicyLists::of(
            chosen.policy.allow.as_ref(),
            chosen.policy.also_allow.as_ref(),
            chosen.policy.deny.as_ref(),
        ),
        chosen.what,
        &inputs.search_controls,
    ))
}

/// The group layer from the chat policy chosen (where it is written, the policy, why), or
/// absent with `none`.
fn chat_policy_layer(
    label: &str,
    chosen: Option<(KeyPath, &ToolPolicyConfig, String)>,
    none: String,
    controls: &[String],
) -> LayerPolicy {
    match chosen {
        Some((path, policy, what)) => policy_layer(
            LayerId::Group,
            label.to_string(),
            &path,
            PolicyLists::of(
                policy.allow.as_ref(),
                policy.also_allow.as_ref(),
                policy.deny.as_ref(),
            ),
            what,
            controls,
        ),
        None => LayerPolicy::absent(LayerId::Group, label, none),
    }
}

/// A direct chat's conversation policy (`channels.<channel>.direct`, Telegram's): the entry of
/// the chat (a direct chat's id is its sender's) or else `*`, alone (an exact entry replaces
/// `*` whole); in it a matching `toolsBySender` entry, else `tools`. Direct chats match senders
/// by channel key, id, username and name (no phone number).
fn direct_chat_layer(
    inputs: &LayerInputs<'_>,
    channel: &str,
    warnings: &mut Vec<PolicyWarning>,
) -> LayerPolicy {
    let label = "group tools.allow";
    let ctx = inputs.ctx;
    let Some((table, table_path)) = inputs.cfg.direct_table(channel, ctx.account.as_deref()) else {
        return LayerPolicy::absent(
            LayerId::Group,
            label,
            format!("{channel}: direct chat, and channels.{channel} has no direct entries"),
        );
    };
    let chat = ctx
        .sender_id
        .as_deref()
        .map(str::trim)
        .filter(|id| !id.is_empty());
    let Some((key, entry)) = chat
        .and_then(|id| table.get_key_value(id))
        .or_else(|| table.get_key_value("*"))
    else {
        return LayerPolicy::absent(
            LayerId::Group,
            label,
            format!(
                "{table_path}: no entry for direct chat \"{}\" or \"*\"",
                chat.unwrap_or("-")
            ),
        );
    };
    let entry_path = table_path.key(key.clone());
    let by_sender_path = entry_path.key("toolsBySender");
    let without_phone = PolicyContext {
        sender_e164: None,
        ..ctx.clone()
    };
    let chosen = match match_sender(
        &entry.tools_by_sender,
        &without_phone,
        &by_sender_path,
        LayerId::Group,
        warnings,
    ) {
        Some((sender_key, policy)) => Some((
            by_sender_path.key(sender_key.clone()),
            policy,
            format!("direct chat \"{key}\", sender key \"{sender_key}\""),
        )),
        None => entry.tools.as_ref().map(|tools| {
            (
                entry_path.key("tools"),
                tools,
                format!("direct chat \"{key}\" tools"),
            )
        }),
    };
    chat_policy_layer(
        label,
        chosen,
        format!("{entry_path}: no tools and no toolsBySender entry for the sender"),
        &inputs.search_controls,
    )
}

/// Whether the turn is an owner's from webchat (the Control UI's or an operator's `chat.send`
/// from a connection with operator.admin): OpenClaw asks the turn's message provider, else the
/// session's channel.
fn owner_webchat_turn(inputs: &LayerInputs<'_>) -> bool {
    let ctx = inputs.ctx;
    // 2026.8 runs an agent-method turn that came over no channel in webchat, in a session
    // whose key names a channel too (its Runtime line says `channel=webchat`).
    let agent_method = inputs.registry.semantics.agent_method_channel(ctx);
    inputs.resolved.owner
        && ctx
            .message_provider()
            .or(agent_method)
            .or(ctx.channel.as_deref())
            .is_some_and(|c| c.trim().eq_ignore_ascii_case("webchat"))
}

/// Why the turn asks for no sender policy (OpenClaw's `senderPolicyMode: "never"`, which skips
/// every sender rule, a group's too); `None` when sender rules apply.
fn no_sender_rules(inputs: &LayerInputs<'_>) -> Option<&'static str> {
    if owner_webchat_turn(inputs) {
        // OpenClaw's `isOwnerInternalSession`.
        Some(
            "an owner's turn from webchat (the gateway's own chat): OpenClaw applies no sender policy",
        )
    } else if inputs
        .registry
        .semantics
        .scheduled_skips_sender_rules(inputs.ctx)
    {
        Some(
            "a scheduled job's turn (its tool cap is its policy): OpenClaw applies no sender policy",
        )
    } else {
        None
    }
}

/// The context `toolsBySender` is matched in: one whose sender rules are off for a turn that
/// asks for no sender policy ([`no_sender_rules`]), and whose
/// sender is the turn's gateway client when that is no operator UI client and the context
/// names no sender (OpenClaw's chat.send takes such a client's id as the turn's `SenderId`).
fn sender_rules_ctx<'a>(inputs: &LayerInputs<'a>) -> std::borrow::Cow<'a, PolicyContext> {
    if no_sender_rules(inputs).is_some() {
        return std::borrow::Cow::Owned(PolicyContext {
            sender_rules_off: true,
            ..inputs.ctx.clone()
        });
    }
    let caps = &inputs.registry.semantics.client_capabilities;
    match caps.client_as_sender(inputs.ctx) {
        Some(id) => std::borrow::Cow::Owned(PolicyContext {
            sender_id: Some(id),
            ..inputs.ctx.clone()
        }),
        None => std::borrow::Cow::Borrowed(inputs.ctx),
    }
}

/// Today's `tools.toolsBySender` layer: the agent's `tools.toolsBySender` entry for the sender,
/// else the global one (OpenClaw's `resolveSenderToolPolicy`).
fn sender_layer(inputs: &LayerInputs<'_>, warnings: &mut Vec<PolicyWarning>) -> LayerPolicy {
    let label = "tools.toolsBySender";
    if let Some(why) = no_sender_rules(inputs) {
        return LayerPolicy::absent(LayerId::Sender, label, why);
    }
    let parse =
        |value: Option<&serde_json::Value>, path: &KeyPath, warnings: &mut Vec<PolicyWarning>| {
            let value = value?;
            match serde_json::from_value::<BTreeMap<String, ToolPolicyConfig>>(value.clone()) {
                Ok(map) => Some(map),
                Err(err) => {
                    warnings.push(PolicyWarning {
                        layer: Some(LayerId::Sender),
                        message: format!(
                            "{path} is not a map of sender keys to tool policies ({err}); ignored"
                        ),
                        config_path: Some(path.to_string()),
                    });
                    None
                }
            }
        };
    let agent_path = inputs.agent.path.key("tools").key("toolsBySender");
    let global_path = KeyPath::parse_dotted("tools.toolsBySender");
    let agent_map = parse(
        inputs
            .agent
            .entry
            .tools
            .as_ref()
            .and_then(|t| t.tools_by_sender.as_ref()),
        &agent_path,
        warnings,
    );
    let global_map = parse(
        inputs.cfg.openclaw.tools.tools_by_sender.as_ref(),
        &global_path,
        warnings,
    );
    if agent_map.is_none() && global_map.is_none() {
        return LayerPolicy::absent(LayerId::Sender, label, "no tools.toolsBySender");
    }
    let ctx = sender_rules_ctx(inputs);
    for (map, base) in [(&agent_map, &agent_path), (&global_map, &global_path)] {
        let Some(map) = map else { continue };
        if let Some((key, policy)) = match_sender(map, &ctx, base, LayerId::Sender, warnings) {
            let path = base.key(key.clone());
            return policy_layer(
                LayerId::Sender,
                label.to_string(),
                &path,
                PolicyLists::of(
                    policy.allow.as_ref(),
                    policy.also_allow.as_ref(),
                    policy.deny.as_ref(),
                ),
                format!("sender key \"{key}\" at {path}"),
                &inputs.search_controls,
            );
        }
    }
    LayerPolicy::absent(
        LayerId::Sender,
        label,
        "no toolsBySender entry matches this sender",
    )
}

fn sandbox_layer(inputs: &LayerInputs<'_>) -> LayerPolicy {
    let label = "sandbox tools.allow";
    if !inputs.resolved.sandboxed {
        return LayerPolicy::absent(LayerId::Sandbox, label, "not sandboxed");
    }
    let policies = SandboxPolicies::of(inputs);
    let (allow, allow_path) = sandbox_allow(inputs, &policies);
    let mut deny = sandbox_deny(inputs, &policies);
    let mut note = inputs.resolved.sandbox_source.clone().unwrap_or_default();
    if let Some((access, path)) = workspace_access(inputs) {
        if access.trim().eq_ignore_ascii_case("ro") {
            for t in &inputs.registry.semantics.sandbox.read_only_deny {
                deny.push(RuleEntry::builtin_at(
                    t.clone(),
                    "read-only sandbox workspace",
                    path.to_string(),
                ));
            }
        }
        note.push_str(&format!("; workspaceAccess \"{access}\""));
    }
    // OpenClaw does not build these for a sandboxed run at all: no allow list brings them back.
    for t in &inputs.registry.semantics.sandbox.unsandboxed_only {
        deny.push(RuleEntry::builtin(
            t.clone(),
            "never built for a sandboxed run (sandbox.unsandboxedOnly)",
        ));
    }
    LayerPolicy {
        id: LayerId::Sandbox,
        label: label.to_string(),
        present: true,
        source_path: policies
            .agent
            .or(policies.global)
            .map(|(path, _)| path.to_string()),
        defaults_plus: None,
        miss_reason: if allow_path.is_none() {
            Some(
                "not in the default sandbox allowlist (tools.sandbox.tools.allow replaces it)"
                    .to_string(),
            )
        } else {
            controls_miss(allow.as_ref(), allow_path.as_ref())
        },
        allow,
        allow_path,
        deny,
        note,
    }
}

/// The sandbox tool policies that apply: the agent's `tools.sandbox.tools`, then the global one.
struct SandboxPolicies<'a> {
    agent: Option<(KeyPath, &'a ToolPolicyConfig)>,
    global: Option<(KeyPath, &'a ToolPolicyConfig)>,
}

impl<'a> SandboxPolicies<'a> {
    fn of(inputs: &'a LayerInputs<'_>) -> SandboxPolicies<'a> {
        let agent = inputs
            .agent
            .entry
            .tools
            .as_ref()
            .and_then(|t| t.sandbox.as_ref())
            .and_then(|s| s.tools.as_ref())
            .map(|p| {
                (
                    inputs.agent.path.key("tools").key("sandbox").key("tools"),
                    p,
                )
            });
        let global = inputs
            .cfg
            .openclaw
            .tools
            .sandbox
            .as_ref()
            .and_then(|s| s.tools.as_ref())
            .map(|p| (KeyPath::parse_dotted("tools.sandbox.tools"), p));
        SandboxPolicies { agent, global }
    }

    /// One list (allow, alsoAllow, deny) from the agent's policy, else the global one.
    fn pick(
        &self,
        list: impl Fn(&'a ToolPolicyConfig) -> Option<&'a Vec<String>>,
    ) -> Option<(KeyPath, &'a Vec<String>)> {
        self.agent
            .as_ref()
            .and_then(|(path, p)| list(p).map(|v| (path.clone(), v)))
            .or_else(|| {
                self.global
                    .as_ref()
                    .and_then(|(path, p)| list(p).map(|v| (path.clone(), v)))
            })
    }
}

/// The sandbox's allowlist (None: everything) and where it was set (None: the default one).
fn sandbox_allow(
    inputs: &LayerInputs<'_>,
    policies: &SandboxPolicies<'_>,
) -> (Option<Vec<RuleEntry>>, Option<String>) {
    let (mut allow, allow_path) = match policies.pick(|p| p.allow.as_ref()) {
        // An explicit empty allow list allows everything (alsoAllow does not change that:
        // OpenClaw's mergeAllowlist), or only Tool Search's controls while it is on.
        Some((path, list)) if list.is_empty() => {
            empty_allowlist(&inputs.search_controls, path.key("allow").to_string())
        }
        Some((path, list)) => (
            Some(entries(list, &path.key("allow"))),
            Some(path.key("allow").to_string()),
        ),
        None => (
            Some(
                inputs
                    .registry
                    .semantics
                    .sandbox
                    .default_allow
                    .iter()
                    .map(|t| RuleEntry::builtin(t.clone(), "default sandbox allowlist"))
                    .collect(),
            ),
            None,
        ),
    };
    if let (Some(list), Some((path, also))) =
        (allow.as_mut(), policies.pick(|p| p.also_allow.as_ref()))
    {
        list.extend(entries(also, &path.key("alsoAllow")));
    }
    (allow, allow_path)
}

/// The sandbox's denylist: the configured one, else the default one and the channel ids.
fn sandbox_deny(inputs: &LayerInputs<'_>, policies: &SandboxPolicies<'_>) -> Vec<RuleEntry> {
    if let Some((path, list)) = policies.pick(|p| p.deny.as_ref()) {
        return entries(list, &path.key("deny"));
    }
    let sandbox = &inputs.registry.semantics.sandbox;
    let mut d: Vec<RuleEntry> = sandbox
        .default_deny
        .iter()
        .map(|t| RuleEntry::builtin(t.clone(), "default sandbox denylist"))
        .collect();
    for channel in inputs.cfg.openclaw.channels.keys() {
        d.push(RuleEntry::builtin(
            channel.clone(),
            "default sandbox denylist (channel ids)",
        ));
    }
    if sandbox.explicit_allow_lifts_default_deny {
        // Today's OpenClaw: what allow or alsoAllow names is not denied by default.
        let named: Vec<RuleEntry> = [
            policies
                .pick(|p| p.allow.as_ref())
                .map(|(path, list)| (path.key("allow"), list)),
            policies
                .pick(|p| p.also_allow.as_ref())
                .map(|(path, list)| (path.key("alsoAllow"), list)),
        ]
        .into_iter()
        .flatten()
        .flat_map(|(path, list)| entries(list, &path))
        .collect();
        if !named.is_empty() {
            let lifted = CompiledList::compile(named, inputs.registry);
            d.retain(|entry| !lifted.matches(&entry.pattern));
        }
    }
    d
}

/// The sandbox's `workspaceAccess` and where it is set: the agent's, else the defaults'.
fn workspace_access(inputs: &LayerInputs<'_>) -> Option<(String, KeyPath)> {
    inputs
        .agent
        .entry
        .sandbox
        .as_ref()
        .and_then(|s| {
            s.workspace_access
                .clone()
                .map(|a| (a, inputs.agent.path.key("sandbox").key("workspaceAccess")))
        })
        .or_else(|| {
            inputs
                .cfg
                .openclaw
                .agents
                .defaults
                .sandbox
                .as_ref()
                .and_then(|s| s.workspace_access.clone())
                .map(|a| {
                    (
                        a,
                        KeyPath::parse_dotted("agents.defaults.sandbox.workspaceAccess"),
                    )
                })
        })
}

/// How deep a subagent session is: `--subagent-depth`, else the number of `subagent:` segments
/// in its key, else 1.
fn subagent_depth(ctx: &PolicyContext) -> u32 {
    if let Some(depth) = ctx.subagent_depth {
        return depth.max(1);
    }
    let key = ctx.session_key.as_deref().unwrap_or("");
    crate::session_key::parse(key).subagent_depth.max(1)
}

/// What the pack denies every subagent: its default denylist (less what allow or alsoAllow
/// lift, where the pack says they do), the always-denied tools and the primary-session-only
/// ones.
fn subagent_builtin_deny(
    inputs: &LayerInputs<'_>,
    allow: Option<&Vec<String>>,
    also: Option<&Vec<String>>,
) -> Vec<RuleEntry> {
    let rules = &inputs.registry.semantics.subagent;
    let mut deny: Vec<RuleEntry> = Vec::new();
    if rules.allow_lifts_default_deny {
        // Seed 001 §3.4: a default-deny entry named in allow or alsoAllow is lifted.
        let lifted: Vec<String> = allow
            .into_iter()
            .chain(also)
            .flatten()
            .map(|n| inputs.registry.canonical(n))
            .collect();
        deny.extend(
            rules
                .default_deny
                .iter()
                .filter(|t| !lifted.iter().any(|l| l == *t))
                .map(|t| RuleEntry::builtin(t.clone(), "default subagent denylist")),
        );
    } else {
        deny.extend(
            rules
                .default_deny
                .iter()
                .map(|t| RuleEntry::builtin(t.clone(), "default subagent denylist")),
        );
    }
    deny.extend(rules.always_deny.iter().map(|t| {
        RuleEntry::builtin(
            t.clone(),
            "always denied to subagents, whatever the config says",
        )
    }));
    deny.extend(
        inputs
            .registry
            .semantics
            .primary_session_only
            .iter()
            .map(|t| {
                RuleEntry::builtin(
                    t.clone(),
                    "only a primary session gets it, never a subagent",
                )
            }),
    );
    deny
}

/// Where the pack has spawn depths: a leaf subagent (at maxSpawnDepth) loses the leaf
/// denylist. The note says the depth and the role.
fn depth_deny(inputs: &LayerInputs<'_>, note: &mut String) -> Vec<RuleEntry> {
    let rules = &inputs.registry.semantics.subagent;
    let Some(default_max) = rules.default_max_spawn_depth else {
        return Vec::new();
    };
    let depth = subagent_depth(inputs.ctx);
    let configured_max = SubagentRules::configured_max_spawn_depth(&inputs.cfg.raw);
    let (max, max_path) = match configured_max {
        Some(m) => (m, "agents.defaults.subagents.maxSpawnDepth".to_string()),
        None => (
            default_max,
            format!("default maxSpawnDepth {default_max}; agents.defaults.subagents.maxSpawnDepth"),
        ),
    };
    let leaf = depth >= max;
    note.push_str(&format!(
        "; depth {depth} of maxSpawnDepth {max}: {}",
        if leaf { "leaf" } else { "orchestrator" }
    ));
    if !leaf {
        return Vec::new();
    }
    rules
        .leaf_deny
        .iter()
        .map(|t| {
            RuleEntry::builtin_at(
                t.clone(),
                format!("denied to leaf subagents (depth {depth} >= maxSpawnDepth {max})"),
                max_path.clone(),
            )
        })
        .collect()
}

fn subagent_layer(inputs: &LayerInputs<'_>) -> LayerPolicy {
    let label = "subagent tools.allow";
    if !inputs.resolved.subagent {
        return LayerPolicy::absent(LayerId::Subagent, label, "not a subagent session");
    }
    let path = KeyPath::parse_dotted("tools.subagents.tools");
    let configured = inputs
        .cfg
        .openclaw
        .tools
        .subagents
        .as_ref()
        .and_then(|s| s.tools.as_ref());
    let allow = configured.and_then(|c| c.allow.as_ref());
    let also = configured.and_then(|c| c.also_allow.as_ref());
    let mut note = inputs.resolved.subagent_source.clone().unwrap_or_default();
    let mut deny = subagent_builtin_deny(inputs, allow, also);
    deny.extend(depth_deny(inputs, &mut note));
    for spec in inputs
        .registry
        .tools
        .iter()
        .filter(|t| t.flags.local_system)
    {
        deny.push(RuleEntry::builtin(
            spec.name.clone(),
            "local system tool, never offered to a subagent (only the main agent may touch this computer)",
        ));
    }
    if let Some(list) = configured.and_then(|c| c.deny.as_ref()) {
        deny.extend(entries(list, &path.key("deny")));
    }
    // OpenClaw's mergeConfiguredSubagentAllow: alsoAllow joins any configured allow, an empty
    // one too; what stays empty is no restriction (or Tool Search's controls alone).
    let (allow_entries, allow_path) = match allow {
        Some(list) => {
            let mut out = entries(list, &path.key("allow"));
            if let Some(also) = also {
                out.extend(entries(also, &path.key("alsoAllow")));
            }
            if out.is_empty() {
                empty_allowlist(&inputs.search_controls, path.key("allow").to_string())
            } else {
                (Some(out), Some(path.key("allow").to_string()))
            }
        }
        None => (None, None),
    };
    LayerPolicy {
        id: LayerId::Subagent,
        label: label.to_string(),
        present: true,
        source_path: configured.map(|_| path.to_string()),
        defaults_plus: None,
        miss_reason: controls_miss(allow_entries.as_ref(), allow_path.as_ref()),
        allow: allow_entries,
        allow_path,
        deny,
        note,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::sender_keys::{SenderKey, parse_sender_key};

    #[test]
    fn subagent_session_keys() {
        assert!(is_subagent_session_key("subagent:abc"));
        assert!(is_subagent_session_key("Agent:main:SubAgent:x"));
        assert!(!is_subagent_session_key("agent:main:main"));
        assert!(!is_subagent_session_key("agent:subagent"));
    }

    #[test]
    fn scoped_group_ids() {
        assert_eq!(
            group_id_candidates("-100:topic:7:sender:9"),
            vec!["-100:topic:7:sender:9", "-100:topic:7", "-100"]
        );
        assert_eq!(
            group_id_candidates("-100:topic:7"),
            vec!["-100:topic:7", "-100"]
        );
        assert_eq!(group_id_candidates("-100"), vec!["-100"]);
    }

    #[test]
    fn sender_keys_parse() {
        assert_eq!(
            parse_sender_key("id:42"),
            (SenderKey::Id("42".into()), false)
        );
        assert_eq!(
            parse_sender_key("username:@Alice"),
            (SenderKey::Username("alice".into()), false)
        );
        assert_eq!(
            parse_sender_key("E164:+1555"),
            (SenderKey::E164("+1555".into()), false)
        );
        assert_eq!(
            parse_sender_key("name: Bob "),
            (SenderKey::Name("bob".into()), false)
        );
        assert_eq!(parse_sender_key("*"), (SenderKey::Any, false));
        assert_eq!(
            parse_sender_key("channel:Telegram:42"),
            (SenderKey::Channel("telegram".into(), "42".into()), false)
        );
        assert_eq!(
            parse_sender_key("admin_user"),
            (SenderKey::Id("admin_user".into()), true)
        );
    }

    #[test]
    fn provider_lookup_prefers_provider_model() {
        let mut map = BTreeMap::new();
        map.insert("OpenAI".to_string(), ProviderPolicyConfig::default());
        map.insert("openai/gpt-5".to_string(), ProviderPolicyConfig::default());
        assert_eq!(
            lookup_provider(&map, Some("openai"), Some("gpt-5"))
                .unwrap()
                .0,
            "openai/gpt-5"
        );
        assert_eq!(
            lookup_provider(&map, Some("openai"), Some("openai/gpt-5"))
                .unwrap()
                .0,
            "openai/gpt-5"
        );
        assert_eq!(
            lookup_provider(&map, Some("openai"), Some("gpt-4"))
                .unwrap()
                .0,
            "OpenAI"
        );
        assert!(lookup_provider(&map, Some("google"), None).is_none());
    }
}
