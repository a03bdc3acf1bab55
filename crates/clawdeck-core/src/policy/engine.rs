//! The chain: compile each layer once, then walk every tool through every layer.

use std::sync::Arc;

use super::PolicyError;
use super::layer::{LayerId, LayerPolicy, RuleEntry};
use super::matcher::{CompiledList, NO_MATCH};
use super::normalize::{canonical, normalize_tool_name};
use super::sources::{LayerInputs, build_layers, profiles_grant, resolve_context};
use super::trace::{
    Decision, LayerDecision, LayerSummary, PolicyWarning, Removal, RemovalKind, Resolution,
    ResolvedContext, RuleRef, SharedText, ToolTrace,
};
use crate::catalog::{PLUGINS_GROUP, Registry};
use crate::config::LoadedConfig;
use crate::context::PolicyContext;
use crate::semantics::UnknownOnlyAllowlist;

/// A shared rule reference with its sentence.
type Explained = (Arc<RuleRef>, SharedText);

/// A layer ready to evaluate. Labels, reasons and rule references are built once per layer and
/// rule, then shared by every tool's trace.
struct CompiledLayer {
    policy: LayerPolicy,
    allow: Option<CompiledList>,
    deny: CompiledList,
    allow_used: Vec<bool>,
    deny_used: Vec<bool>,
    removed_first: usize,
    label: SharedText,
    skipped_reason: SharedText,
    kept_reason: SharedText,
    miss: Explained,
    deny_cache: Vec<Option<Explained>>,
    allow_cache: Vec<Option<Explained>>,
    /// The allow pattern that lets the tool apply_patch follows through (`exec` in the seed,
    /// `write` today), explained.
    apply_patch_leader_allowed: Option<Explained>,
}

impl CompiledLayer {
    /// Takes the policy's lists (the compiled lists keep the entries, for summaries).
    fn new(mut policy: LayerPolicy, registry: &Registry) -> CompiledLayer {
        let allow_entries = policy.allow.take();
        let deny_entries = std::mem::take(&mut policy.deny);
        let allow_len = allow_entries.as_ref().map_or(0, Vec::len);
        let deny_len = deny_entries.len();
        // An absent layer decides nothing; its lists are not worth compiling.
        let (allow, deny) = if policy.present {
            (
                allow_entries.map(|entries| CompiledList::compile(entries, registry)),
                CompiledList::compile(deny_entries, registry),
            )
        } else {
            (
                allow_entries.map(CompiledList::inert),
                CompiledList::inert(deny_entries),
            )
        };
        let miss_rule = RuleRef {
            pattern: None,
            expanded_from: None,
            config_path: policy.allow_path.clone(),
            builtin: None,
        };
        let miss_reason = match (&policy.miss_reason, &policy.allow_path) {
            (Some(reason), _) => reason.clone(),
            (None, Some(path)) => format!("not in the allowlist ({path})"),
            (None, None) => "not in the allowlist".to_string(),
        };
        CompiledLayer {
            allow_used: vec![false; allow_len],
            deny_used: vec![false; deny_len],
            removed_first: 0,
            label: SharedText::from(policy.label.as_str()),
            skipped_reason: SharedText::from(policy.note.as_str()),
            kept_reason: SharedText::from("not denied; no allowlist"),
            miss: (Arc::new(miss_rule), SharedText::from(miss_reason)),
            apply_patch_leader_allowed: None,
            deny_cache: vec![None; deny.patterns.len()],
            allow_cache: vec![None; allow.as_ref().map_or(0, |a| a.patterns.len())],
            policy,
            allow,
            deny,
        }
    }
}

/// The chain of a context before it is run: the context as the engine reads it, what it
/// resolved to, and its layers.
struct Chain<'a> {
    ctx: PolicyContext,
    resolved: ResolvedContext,
    agent: &'a crate::config::AgentInfo,
    layers: Vec<LayerPolicy>,
    search_controls: Vec<String>,
}

/// Builds `ctx`'s layers, the spawner's inherited layer last when one is named.
fn chain<'a>(
    cfg: &'a LoadedConfig,
    registry: &Registry,
    ctx: &PolicyContext,
    warnings: &mut Vec<PolicyWarning>,
) -> Result<Chain<'a>, PolicyError> {
    // What the session key says fills the fields no flag set, wherever the context came from.
    let ctx = ctx.clone().with_session_key();
    // A spawned subagent's turn has no sender of its own: a sender named with a spawner wrote
    // to the spawner, whose rules reach the subagent only through what it inherits.
    let own = match ctx.spawner_key() {
        Some(_) => ctx.without_sender(),
        None => ctx.clone(),
    };
    let (resolved, agent) = resolve_context(cfg, &registry.semantics, &own)?;
    let inputs = LayerInputs {
        cfg,
        registry,
        ctx: &own,
        agent,
        resolved: &resolved,
        search_controls: super::sources::search_controls(cfg, registry),
    };
    let mut layers = build_layers(&inputs, warnings);
    super::plugin_selection::apply(&mut layers, &inputs);
    super::switches::apply(&mut layers, &inputs);
    super::feishu_tools::apply(&mut layers, &inputs);
    let search_controls = inputs.search_controls;
    if let (Some(key), Some(spawner)) = (ctx.spawner_key(), ctx.spawner()) {
        super::inherited::leave_to_inheritance(&mut layers);
        // The spawner names no spawner of its own: one level is inherited, as stored.
        let spawner_chain = chain(cfg, registry, &spawner, &mut Vec::new())?;
        let spawner_layers = spawner_chain.layers.clone();
        let seen = resolve_layers(spawner_chain.layers, registry, &mut Vec::new());
        layers.push(super::inherited::inherited_layer(
            key,
            &spawner_layers,
            &seen.visible_names(),
        ));
    }
    Ok(Chain {
        ctx,
        resolved,
        agent,
        layers,
        search_controls,
    })
}

/// Resolves the tool list for `ctx` with an explanation for every tool and layer.
pub fn resolve(
    cfg: &LoadedConfig,
    registry: &Registry,
    ctx: &PolicyContext,
) -> Result<Resolution, PolicyError> {
    let mut warnings = Vec::new();
    let Chain {
        ctx,
        resolved,
        agent,
        layers,
        search_controls,
    } = chain(cfg, registry, ctx, &mut warnings)?;
    let gateway_config_reads = profiles_grant(&layers, registry, "gateway");
    let mut resolution = resolve_layers(layers, registry, &mut warnings);
    // On a config that names no model taking images, a run that lacks the tools such a model
    // brings does not have them at all (else the switches show them switched off).
    if !registry.names_vision_model {
        let lacked = super::switches::lacked_vision_tools(cfg, registry, &resolved, agent);
        resolution
            .tools
            .retain(|trace| !lacked.contains(&trace.name));
    }
    // Nor does a turn have the tools only another kind of turn gets (a client's, a host's, a
    // heartbeat's), except the widget tool a scheduled job's cap keeps, pinned-only.
    let pinned = super::scheduled_cap::pinned_widget(registry, &ctx);
    resolution.tools.retain(|trace| {
        registry.semantics.turn_has(&trace.name, &ctx) || pinned == Some(trace.name.as_str())
    });
    if controls_remain(&resolution.layers, &search_controls) {
        resolution.refusal = None;
    }
    // A scheduled job's cap is the run's own explicit allowlist (its runtime toolsAllow): a cap
    // that names tools, none of them left callable, is refused as the config's allowlists are,
    // Tool Search's controls or not (seen on 2026.9.6 and 2026.8.2).
    if let Some(cap) = ctx.scheduled_tools.as_ref().filter(|cap| !cap.is_empty()) {
        let runtime = format!("runtime toolsAllow: {}", cap.join(", "));
        resolution.refusal = no_tools_refusal(
            &resolution.layers,
            &resolution.tools,
            registry,
            Some(runtime),
        );
    }
    // A job an agent made from an account no longer configured does not run at all.
    let from = crate::context::CreatorChannel::of(registry.semantics.creator_channel_from_turn);
    if let Some(why) = super::scheduled_cap::unavailable_creator_account(cfg, &ctx, from) {
        resolution.refusal = Some(why);
    }
    resolution.context = ctx;
    resolution.resolved = resolved;
    resolution.resolved.gateway_config_reads = gateway_config_reads;
    resolution.resolved.pinned_widget = pinned.is_some();
    resolution.resolved.openclaw = cfg.pack.pack.clone();
    resolution.resolved.openclaw_reason = cfg.pack.reason.clone();
    resolution.warnings = warnings;
    let sandboxed = resolution.resolved.sandboxed;
    let http = !registry.semantics.gateway_http_deny.is_empty();
    let resolved = &resolution.resolved;
    let host = resolved.turn;
    let model = resolved.model.as_deref().zip(resolved.model_input.as_ref());
    let credentials = cfg.credentials(Some(agent.id.as_str()));
    for trace in &mut resolution.tools {
        // A tool a switch keeps OpenClaw from building was not built for any reason.
        let switched_off = trace
            .removed_by
            .as_ref()
            .is_some_and(|r| r.switched_off().is_some());
        trace.built_because = (!switched_off)
            .then(|| {
                let semantics = &registry.semantics;
                semantics
                    .built_because(&cfg.raw, &credentials, model, &trace.name)
                    .or_else(|| turn_brought(semantics, &trace.name, host, pinned))
                    .or_else(|| node_published(registry, &trace.name))
            })
            .flatten();
        if trace.name == "exec" && !registry.semantics.is_seed() {
            trace.notes = super::call_notes::exec_notes(cfg, agent, sandboxed);
        }
        let form = super::call_notes::form_note(
            &registry.semantics,
            &resolution.context,
            resolved.owner,
            &trace.name,
        );
        trace.notes.extend(form);
        if http && !registry.get(&trace.name).is_some_and(|s| s.is_clawdecks()) {
            trace
                .notes
                .push(super::call_notes::http_note(cfg, registry, &trace.name));
        }
    }
    Ok(resolution)
}

/// What of the turn itself brought tool `name`: its host (a gateway's own tool), its being a
/// heartbeat's, or a scheduled job's cap that keeps it `pinned`; `None` for any other tool.
fn turn_brought(
    semantics: &crate::semantics::Semantics,
    name: &str,
    host: crate::context::TurnHost,
    pinned: Option<&str>,
) -> Option<String> {
    if let Some(rules) = semantics.heartbeat_turn.as_ref().filter(|r| r.tool == name) {
        return Some(rules.brought_by());
    }
    if pinned == Some(name) {
        return Some(super::scheduled_cap::PINNED_BECAUSE.to_string());
    }
    let built = semantics.host_builds(name, host)?;
    built.then(|| format!("the turn is {}", host.describe()))
}

/// A paired node's tool is in the run because the node published it (the gateway's node.list).
fn node_published(registry: &Registry, name: &str) -> Option<String> {
    let source = &registry.get(name)?.source;
    let node = source.node()?;
    let server = source
        .mcp_server()
        .map(|server| format!(" from its MCP server {server}"))
        .unwrap_or_default();
    Some(format!(
        "node {} published it{server} (node.list, node {})",
        node.label, node.id
    ))
}

/// Runs given layers (already built) over the registry. Public for tests and benchmarks that
/// build layers by hand; `resolve` fills in the context afterwards.
pub fn resolve_layers(
    layers: Vec<LayerPolicy>,
    registry: &Registry,
    warnings: &mut Vec<PolicyWarning>,
) -> Resolution {
    let mut compiled: Vec<CompiledLayer> = layers
        .into_iter()
        .map(|mut policy| {
            if policy.present {
                strip_plugin_only_allowlist(&mut policy, registry, warnings);
            }
            CompiledLayer::new(policy, registry)
        })
        .collect();

    let (decisions, removed_at) = decide_layer_by_layer(&mut compiled, registry);
    let tools = tool_traces(registry, decisions, &removed_at);
    let summaries = layer_summaries(compiled, warnings);
    Resolution {
        context: PolicyContext::default(),
        resolved: ResolvedContext {
            agent: String::new(),
            agent_path: None,
            provider: None,
            model: None,
            model_source: None,
            model_input: None,
            code_mode: None,
            owner: true,
            owner_source: String::new(),
            subagent: false,
            subagent_source: None,
            sandboxed: false,
            sandbox_source: None,
            remote: false,
            turn: crate::context::TurnHost::Local,
            delivery: None,
            job_owner: None,
            job_owner_channel: None,
            channel: None,
            turn_channel: None,
            openclaw: registry.semantics.id.clone(),
            openclaw_reason: String::new(),
            gateway_config_reads: true,
            message_tool_reply: false,
            pinned_widget: false,
            swarm: None,
        },
        refusal: no_tools_refusal(&summaries, &tools, registry, None),
        layers: summaries,
        tools,
        warnings: Vec::new(),
    }
}

/// The layer that removed no tool: `removed_at` for a visible tool.
const NOT_REMOVED: usize = usize::MAX;

/// Every tool's decision at every layer, and the layer that removed each first.
///
/// Layer by layer: each list is matched against the whole registry once, pattern by pattern,
/// into a buffer reused by every layer; then every tool gets this layer's decision. (One
/// buffer per layer, not one for the whole chain: buffers stay small, and a resolution of a
/// thousand tools allocates nothing large besides its tool list.)
fn decide_layer_by_layer(
    compiled: &mut [CompiledLayer],
    registry: &Registry,
) -> (Vec<Vec<LayerDecision>>, Vec<usize>) {
    let n = registry.tools.len();
    let mut decisions: Vec<Vec<LayerDecision>> =
        (0..n).map(|_| Vec::with_capacity(compiled.len())).collect();
    let mut removed_at = vec![NOT_REMOVED; n];
    let mut deny_first = vec![NO_MATCH; n];
    let mut allow_first = vec![NO_MATCH; n];
    for (k, layer) in compiled.iter_mut().enumerate() {
        if layer.policy.present {
            match_layer(layer, registry, &mut deny_first, &mut allow_first);
        }
        for (index, spec) in registry.tools.iter().enumerate() {
            let matched = Matched {
                deny: deny_first[index],
                allow: allow_first[index],
                is_apply_patch: spec.name == "apply_patch",
            };
            let reached = removed_at[index] == NOT_REMOVED;
            let decision = decide(layer, matched, reached);
            if reached && decision.decision == Decision::Removed {
                layer.removed_first += 1;
                removed_at[index] = k;
            }
            decisions[index].push(decision);
        }
    }
    (decisions, removed_at)
}

/// Each tool's first matching deny and allow entry in this layer; and whether its allowlist
/// lets apply_patch's leader through.
fn match_layer(
    layer: &mut CompiledLayer,
    registry: &Registry,
    deny_first: &mut [u32],
    allow_first: &mut [u32],
) {
    deny_first.fill(NO_MATCH);
    layer
        .deny
        .first_matches_into(registry, &mut layer.deny_used, deny_first);
    if let Some(allow) = &layer.allow {
        allow_first.fill(NO_MATCH);
        allow.first_matches_into(registry, &mut layer.allow_used, allow_first);
        let leader = registry.semantics.apply_patch_follows.as_str();
        layer.apply_patch_leader_allowed = allow.scan(leader, &mut Vec::new(), &mut []).map(|p| {
            let rule = rule_ref(allow, p);
            let reason = format!(
                "{} (apply_patch follows {leader})",
                describe_rule(&rule, "allowed")
            );
            (Arc::new(rule), SharedText::from(reason))
        });
    }
}

fn tool_traces(
    registry: &Registry,
    decisions: Vec<Vec<LayerDecision>>,
    removed_at: &[usize],
) -> Vec<ToolTrace> {
    let mut tools = Vec::with_capacity(registry.tools.len());
    for ((index, spec), decisions) in registry.tools.iter().enumerate().zip(decisions) {
        let removed_by = decisions.get(removed_at[index]).map(removal);
        tools.push(ToolTrace {
            name: spec.name.clone(),
            source: spec.source.kind(),
            plugin_id: spec.source.plugin_id().map(str::to_string),
            node: spec.source.node().cloned(),
            groups: registry.groups_at(index),
            visible: removed_by.is_none(),
            removed_by,
            decisions,
            clawdeck_own: spec.is_clawdecks(),
            notes: Vec::new(),
            built_because: None,
        });
    }
    tools
}

/// The compiled layers are done: their entries and texts move into the summaries.
fn layer_summaries(
    compiled: Vec<CompiledLayer>,
    warnings: &mut Vec<PolicyWarning>,
) -> Vec<LayerSummary> {
    let mut summaries = Vec::with_capacity(compiled.len());
    for layer in compiled {
        unused_entry_warnings(&layer, warnings);
        let patterns = |list: CompiledList| -> Vec<String> {
            list.entries.into_iter().map(|e| e.pattern).collect()
        };
        summaries.push(LayerSummary {
            id: layer.policy.id,
            label: layer.policy.label,
            present: layer.policy.present,
            source_path: layer.policy.source_path,
            allow: layer.allow.map(patterns),
            deny: patterns(layer.deny),
            note: layer.policy.note,
            removed: layer.removed_first,
        });
    }
    summaries
}

/// Whether Tool Search's controls are left callable where an allowlist holds nothing else: they
/// are tools OpenClaw builds and lets through every allowlist, so such a run is not refused
/// (recorded from 2026.9.6: `sandbox-empty-allow-tool-search` sends the controls alone). They
/// are not in the registry, so [`no_tools_refusal`] cannot see them.
fn controls_remain(layers: &[LayerSummary], controls: &[String]) -> bool {
    !controls.is_empty()
        && layers.iter().any(|l| {
            l.present
                && l.allow
                    .as_ref()
                    .is_some_and(|a| !a.is_empty() && a.iter().all(|p| controls.contains(p)))
        })
}

/// Today's OpenClaw refuses a run whose explicit allowlists leave no callable tool (its
/// `buildEmptyExplicitToolAllowlistError`; profiles are not explicit allowlists), the run's own
/// (`runtime`, named last, as OpenClaw lists it) among them. clawdeck's own tools do not count:
/// OpenClaw does not have them.
fn no_tools_refusal(
    layers: &[LayerSummary],
    tools: &[ToolTrace],
    registry: &Registry,
    runtime: Option<String>,
) -> Option<String> {
    registry.semantics.no_tools_error.as_ref()?;
    let mut explicit: Vec<String> = layers
        .iter()
        .filter(|l| {
            l.present
                && !matches!(
                    l.id,
                    LayerId::Owner | LayerId::Profile | LayerId::ProviderProfile | LayerId::Sender
                )
        })
        .filter_map(|l| {
            let allow = l.allow.as_ref().filter(|a| !a.is_empty())?;
            let entries: Vec<String> = allow.iter().map(|p| registry.canonical(p)).collect();
            Some(format!("{}: {}", l.label, entries.join(", ")))
        })
        .collect();
    explicit.extend(runtime);
    if explicit.is_empty() {
        return None;
    }
    let callable = tools.iter().any(|t| {
        t.visible
            && registry
                .get(&t.name)
                .is_some_and(|spec| !spec.is_clawdecks())
    });
    (!callable).then(|| {
        format!(
            "No callable tools remain after resolving explicit tool allowlist ({}); no registered tools matched. Fix the allowlist or enable the plugin that registers the requested tool.",
            explicit.join("; ")
        )
    })
}

/// Why a tool is hidden, from the decision of the layer that removed it first.
fn removal(decision: &LayerDecision) -> Removal {
    let rule = decision.rule.as_deref();
    let text = |field: fn(&RuleRef) -> &Option<String>| rule.and_then(|r| field(r).clone());
    let pattern = text(|r| &r.pattern);
    Removal {
        layer: decision.id,
        kind: if pattern.is_some() {
            RemovalKind::Denied
        } else {
            RemovalKind::NotAllowed
        },
        pattern,
        expanded_from: text(|r| &r.expanded_from),
        config_path: text(|r| &r.config_path),
        builtin: text(|r| &r.builtin),
        reason: String::from(decision.reason.as_str()),
    }
}

fn rule_ref(list: &CompiledList, pattern_index: usize) -> RuleRef {
    let pattern = &list.patterns[pattern_index];
    let entry: &RuleEntry = &list.entries[pattern.entry];
    RuleRef {
        pattern: Some(entry.pattern.clone()),
        expanded_from: pattern.expanded_from.clone(),
        config_path: entry.config_path.clone(),
        builtin: entry.builtin.clone(),
    }
}

fn describe_rule(rule: &RuleRef, verb: &str) -> String {
    // Built by hand: this runs once per matched rule of every list, and `format!` costs more
    // than the rest of building the rule's explanation.
    let pattern = rule.pattern.as_deref().unwrap_or("");
    let mut text = String::with_capacity(
        verb.len()
            + pattern.len()
            + rule.builtin.as_ref().map_or(0, String::len)
            + rule.config_path.as_ref().map_or(0, String::len)
            + 12,
    );
    text.push_str(verb);
    text.push_str(" by \"");
    text.push_str(pattern);
    text.push('"');
    match (&rule.builtin, &rule.config_path) {
        (Some(builtin), Some(path)) => {
            text.push_str(" (");
            text.push_str(builtin);
            text.push_str(", ");
            text.push_str(path);
            text.push(')');
        }
        (Some(builtin), None) => {
            text.push_str(" (");
            text.push_str(builtin);
            text.push(')');
        }
        (None, Some(path)) => {
            text.push_str(" at ");
            text.push_str(path);
        }
        (None, None) => {}
    }
    text
}

/// The cached explanation of pattern `p` of `list`, built on first use.
fn explained(
    cache: &mut [Option<Explained>],
    list: &CompiledList,
    p: usize,
    verb: &str,
) -> Explained {
    if let Some(hit) = &cache[p] {
        return hit.clone();
    }
    let rule = rule_ref(list, p);
    let reason = SharedText::from(describe_rule(&rule, verb));
    let value = (Arc::new(rule), reason);
    cache[p] = Some(value.clone());
    value
}

/// What the lists said about one tool at one layer.
#[derive(Clone, Copy)]
struct Matched {
    deny: u32,
    allow: u32,
    is_apply_patch: bool,
}

fn decide(layer: &mut CompiledLayer, matched: Matched, reached: bool) -> LayerDecision {
    let make = |layer: &CompiledLayer, decision, rule: Option<Arc<RuleRef>>, reason: SharedText| {
        LayerDecision {
            id: layer.policy.id,
            label: layer.label.clone(),
            decision,
            reached,
            rule,
            reason,
        }
    };
    if !layer.policy.present {
        return make(layer, Decision::Skipped, None, layer.skipped_reason.clone());
    }
    // Deny first.
    if let Some(p) = pattern_index(matched.deny) {
        let (rule, reason) = explained(&mut layer.deny_cache, &layer.deny, p, "denied");
        return make(layer, Decision::Removed, Some(rule), reason);
    }
    let Some(allow) = &layer.allow else {
        return make(layer, Decision::Kept, None, layer.kept_reason.clone());
    };
    if let Some(p) = pattern_index(matched.allow) {
        let (rule, reason) = explained(&mut layer.allow_cache, allow, p, "allowed");
        return make(layer, Decision::Kept, Some(rule), reason);
    }
    // Older OpenClaw: apply_patch is allowed wherever exec is.
    if matched.is_apply_patch
        && let Some((rule, reason)) = layer.apply_patch_leader_allowed.clone()
    {
        return make(layer, Decision::Kept, Some(rule), reason);
    }
    let (rule, reason) = layer.miss.clone();
    make(layer, Decision::Removed, Some(rule), reason)
}

fn pattern_index(first: u32) -> Option<usize> {
    (first != NO_MATCH).then_some(first as usize)
}

/// An allowlist's entries sorted by what they name.
struct AllowlistKinds<'a> {
    /// Some entry names a core tool (or everything).
    has_core: bool,
    /// Entries that name no known tool.
    unknown: Vec<&'a str>,
    /// Known tools of this version that its default run lacks (a vision model, a provider ...).
    gated: Vec<&'a str>,
    plugin_entries: Vec<&'a str>,
    /// Wildcards, settled only when no cheaper entry names a core tool.
    wildcards: Vec<&'a RuleEntry>,
}

impl<'a> AllowlistKinds<'a> {
    fn of(allow: &'a [RuleEntry], registry: &Registry) -> AllowlistKinds<'a> {
        let mut kinds = AllowlistKinds {
            has_core: false,
            unknown: Vec::new(),
            gated: Vec::new(),
            plugin_entries: Vec::new(),
            wildcards: Vec::new(),
        };
        let plugin_groups = &registry.plugin_groups().by_plugin;
        for entry in allow {
            let name = canonical(&entry.pattern, &registry.semantics);
            let name = name.as_ref();
            if name.is_empty() {
                continue;
            }
            if name.chars().all(|c| c == '*') {
                kinds.has_core = true;
                continue;
            }
            let names_plugin = plugin_groups.contains_key(name);
            let group = if name.starts_with("group:") || names_plugin {
                registry.expand_group(name)
            } else {
                None
            };
            if group.is_none() && name.contains('*') {
                // Decided below, only if no cheaper entry settles it.
                kinds.wildcards.push(entry);
                continue;
            }
            let tool = registry.get(name);
            let is_plugin = name == PLUGINS_GROUP
                || names_plugin
                || tool.is_some_and(|t| t.source.plugin_id().is_some());
            let is_core = match group {
                Some(members) => members.iter().any(|m| registry.is_core(m)),
                None => tool.is_some_and(|t| t.source.plugin_id().is_none()),
            };
            kinds.has_core |= is_core;
            if is_plugin {
                kinds.plugin_entries.push(&entry.pattern);
            } else if !is_core && entry.builtin.is_none() {
                // A profile's own entries for tools this run lacks are not the operator's to
                // fix (OpenClaw suppresses those warnings too).
                if registry.semantics.conditional(name).is_some() {
                    kinds.gated.push(&entry.pattern);
                } else {
                    kinds.unknown.push(&entry.pattern);
                }
            }
        }
        kinds
    }

    /// A wildcard counts as core when it matches a core tool. Wildcards that match nothing at
    /// all are reported by the unused-entry warnings, so they are only examined when the list
    /// might be stripped.
    fn settle_wildcards(&mut self, registry: &Registry) {
        let list = CompiledList::compile(
            self.wildcards.iter().map(|&e| e.clone()).collect(),
            registry,
        );
        let mut core_hits = vec![false; self.wildcards.len()];
        let mut scratch = Vec::new();
        for tool in registry
            .tools
            .iter()
            .filter(|t| t.source.plugin_id().is_none())
        {
            list.scan(&tool.name, &mut scratch, &mut core_hits);
        }
        self.has_core = core_hits.iter().any(|&h| h);
        for (entry, hit) in self.wildcards.iter().zip(core_hits) {
            if !hit {
                self.unknown.push(&entry.pattern);
            }
        }
    }
}

/// Seed 001 §2.3: an allowlist without any core entry would disable every core tool, so it is
/// dropped (with a warning) and the layer keeps everything it does not deny. `*` counts as core,
/// so does a group or wildcard that covers a core tool.
fn strip_plugin_only_allowlist(
    policy: &mut LayerPolicy,
    registry: &Registry,
    warnings: &mut Vec<PolicyWarning>,
) {
    let Some(allow) = &policy.allow else {
        return;
    };
    // Blank entries are dropped before matching; a list of only blanks is an empty list, and an
    // empty allowlist restricts nothing.
    if allow.iter().all(|e| e.pattern.trim().is_empty()) {
        policy.allow = None;
        return;
    }
    let mut kinds = AllowlistKinds::of(allow, registry);
    if !kinds.has_core && !kinds.wildcards.is_empty() {
        kinds.settle_wildcards(registry);
    }
    let AllowlistKinds {
        has_core,
        unknown,
        gated,
        plugin_entries,
        ..
    } = kinds;
    // Today's OpenClaw keeps such a list: it only warns, and the layer removes everything the
    // list does not name (possibly every tool, which refuses the run).
    let keep = registry.semantics.unknown_only_allowlist == UnknownOnlyAllowlist::Keep;
    if has_core || keep {
        if !unknown.is_empty() || !gated.is_empty() {
            let suffix = match (gated.is_empty(), unknown.is_empty()) {
                (false, false) => {
                    "Some entries are shipped core tools but unavailable in the current runtime/provider/model/config; other entries won't match any tool unless the plugin is enabled."
                }
                (false, true) => {
                    "These entries are shipped core tools but unavailable in the current runtime/provider/model/config."
                }
                _ => "These entries won't match any tool unless the plugin is enabled.",
            };
            let listed: Vec<&str> = gated.iter().chain(unknown.iter()).copied().collect();
            warnings.push(PolicyWarning {
                layer: Some(policy.id),
                message: format!(
                    "tools: {} allowlist contains unknown entries ({}). {suffix}",
                    policy.label,
                    listed.join(", ")
                ),
                config_path: policy.allow_path.clone(),
            });
        }
        return;
    }
    let listed = if unknown.is_empty() {
        plugin_entries.join(", ")
    } else {
        unknown.join(", ")
    };
    let what = if unknown.is_empty() {
        "only plugin entries"
    } else {
        "unknown entries"
    };
    warnings.push(PolicyWarning {
        layer: Some(policy.id),
        message: format!(
            "tools: {} allowlist contains {what} ({listed}). Ignoring allowlist so core tools remain available. Use tools.alsoAllow for additive plugin tool enablement.",
            policy.label
        ),
        config_path: policy.allow_path.clone(),
    });
    policy.note = format!("{}; allowlist ignored (no core entry)", policy.note);
    policy.allow = None;
}

/// Config entries that match no tool at all are probably typos or missing plugins.
fn unused_entry_warnings(layer: &CompiledLayer, warnings: &mut Vec<PolicyWarning>) {
    if !layer.policy.present {
        return;
    }
    let lists = [
        (layer.allow.as_ref(), &layer.allow_used, "allow"),
        (Some(&layer.deny), &layer.deny_used, "deny"),
    ];
    for (list, used, kind) in lists {
        let Some(list) = list else { continue };
        for (i, entry) in list.entries.iter().enumerate() {
            if entry.builtin.is_some() || used.get(i).copied().unwrap_or(true) {
                continue;
            }
            let name = normalize_tool_name(&entry.pattern);
            if name.is_empty() {
                continue;
            }
            let hint = if name.starts_with("group:") {
                " (no such group)"
            } else {
                ""
            };
            warnings.push(PolicyWarning {
                layer: Some(layer.policy.id),
                message: format!("{kind} entry \"{}\" matches no tool{hint}", entry.pattern),
                config_path: entry.config_path.clone(),
            });
        }
    }
}
