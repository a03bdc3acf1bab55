//! What a model is sent under today's OpenClaw packs: the tools with schemas in the request
//! (sorted by name), Tool Search's split into direct tools, meta tools and a deferred directory
//! in the system prompt, and the Tooling section as that version writes it. The seed pack keeps
//! the seeds' prompt and payload (see `tooling.rs`), so everything here applies only to packs
//! that carry these rules.

use serde_json::Value;

pub(crate) use super::run_facts::RunFacts;
use super::session_visibility;
use crate::config::LoadedConfig;
use crate::context::CHAT_SEND_CHANNEL;
use crate::semantics::{CodeModeRules, Semantics, ToolSearchRules};
use crate::tool::{ToolFlags, ToolSource, ToolSpec};

/// The tools a request carries and the deferred ones behind Tool Search or Code Mode.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ModelSurface {
    /// Tools sent with their schema, in the request's order.
    pub direct: Vec<ToolSpec>,
    /// Tools only named in the system prompt (Tool Search on), or callable only from Code
    /// Mode's `exec` (Code Mode on).
    pub deferred: Vec<ToolSpec>,
    /// Whether Tool Search is on, and why (`tools.toolSearch` or the version's default).
    pub tool_search: Option<String>,
    /// Code Mode engages: `direct` holds its `exec` and `wait` and the direct-only tools.
    pub code_mode: bool,
}

impl ModelSurface {
    /// Tool Search's mode (`tools`, `directory`, `code`) when it is on: the first word of its
    /// reason.
    fn tool_search_mode(&self) -> Option<&str> {
        self.tool_search.as_deref()?.split_whitespace().next()
    }

    /// Tool Search is on in its directory mode (deferred tools callable by their names).
    pub fn directory_mode(&self) -> bool {
        !self.code_mode && self.tool_search_mode() == Some("directory")
    }
}

fn names(value: Option<&Value>) -> Vec<String> {
    value
        .and_then(|v| serde_json::from_value::<Vec<String>>(v.clone()).ok())
        .unwrap_or_default()
}

/// A tool OpenClaw's run adds around the catalog's (Tool Search's meta tools, Code Mode's
/// controls): sent as the pack recorded it, never one of clawdeck's.
fn control_spec(name: &str, description: &str, parameters: Value, emoji: &str) -> ToolSpec {
    ToolSpec {
        name: name.to_string(),
        label: name.to_string(),
        summary: String::new(),
        description: description.to_string(),
        emoji: emoji.to_string(),
        parameters,
        source: ToolSource::Core,
        flags: ToolFlags {
            openclaw_only: true,
            ..ToolFlags::default()
        },
    }
}

/// The meta tools' specs (`tool_search`, `tool_describe`, `tool_call`) from the pack.
fn meta_tools(rules: &ToolSearchRules) -> Vec<ToolSpec> {
    let schemas = rules.extra.get("metaToolSchemas");
    rules
        .meta_tools
        .iter()
        .filter_map(|entry| {
            let name = match entry {
                Value::String(s) => s.clone(),
                Value::Object(map) => map.get("name")?.as_str()?.to_string(),
                _ => return None,
            };
            let schema = match entry {
                Value::Object(_) => Some(entry),
                _ => schemas.and_then(|s| s.get(&name)),
            };
            let description = schema
                .and_then(|s| s.get("description"))
                .and_then(Value::as_str)
                .unwrap_or_default();
            let parameters = schema
                .and_then(|s| s.get("parameters"))
                .cloned()
                .unwrap_or_else(|| serde_json::json!({"type": "object", "properties": {}}));
            Some(control_spec(&name, description, parameters, "🔎"))
        })
        .collect()
}

/// The channel whose account may reach a remote Mac.
const IMESSAGE: &str = "imessage";

/// The tool whose form a webchat turn's session key's chat decides.
const MESSAGE_TOOL: &str = "message";

/// Tools whose schema grows with the configured channels (message's actions): the recorded
/// variant for a configured channel replaces the channel-less one. A webchat turn's variant
/// (message's ClawHub search; skill_workshop's for the turn's skill library) and a gateway
/// turn's over a chat of a configured channel (message scoped to it) come before those; a
/// chat's form takes other configured channels' actions, and Matrix's owner actions follow the
/// turn.
fn adapt_to_channels(
    semantics: &Semantics,
    config: &LoadedConfig,
    facts: RunFacts<'_>,
    tools: &mut [ToolSpec],
) {
    // The run's variables, read only when a channel's account rule asks for them.
    let env = std::cell::OnceCell::new();
    // A turn that comes over a channel's chat proves that channel has an account (its token
    // may be in an environment clawdeck cannot read).
    let configured = |channel: &str| {
        facts
            .current_channel
            .is_some_and(|c| c.trim().eq_ignore_ascii_case(channel))
            || channel_plugin_loads(config, channel)
                && crate::semantics::channel_has_account(
                    &config.raw,
                    channel,
                    env.get_or_init(|| {
                        crate::semantics::set_credentials(
                            &config.raw,
                            config.credentials(None).dotenv,
                        )
                    }),
                    facts.secret_refs,
                )
    };
    let library = |v: &crate::semantics::ChannelVariant| match &v.when_skill_library {
        Some(wanted) => facts.skill_library == Some(wanted.as_str()),
        None => true,
    };
    // `chat`: the chat the tool talks in; `webchat`: whether it takes webchat's forms.
    let applies = |v: &crate::semantics::ChannelVariant, chat: Option<&str>, webchat: bool| {
        match (&v.when_turn_channel, &v.when_channel) {
            _ if v.when_message_tool_reply => facts.message_tool_reply,
            _ if v.when_pinned_widget => facts.pinned_widget,
            (Some(turn), _) if turn.eq_ignore_ascii_case(CHAT_SEND_CHANNEL) => {
                webchat && library(v)
            }
            // A turn over a chat of a configured channel: message scoped to that channel.
            (Some(turn), Some(channel)) => {
                chat.is_some_and(|c| c.trim().eq_ignore_ascii_case(turn)) && configured(channel)
            }
            (Some(_), None) => false,
            (None, Some(channel)) => configured(channel),
            (None, None) => false,
        }
    };
    use super::channel_union::{is_configured_form, union_of_forms};
    use super::cross_channel;
    for tool in tools.iter_mut() {
        let Some(forms) = semantics.channel_variants.get(&tool.name) else {
            continue;
        };
        // The message tool talks in a webchat turn's session key's chat; the others in webchat.
        let (chat, webchat) = if tool.name == MESSAGE_TOOL {
            let keys_chat = facts.message_chat != facts.current_channel;
            (facts.message_chat, facts.webchat_forms && !keys_chat)
        } else {
            (facts.current_channel, facts.webchat_forms)
        };
        let applies = |v: &crate::semantics::ChannelVariant| applies(v, chat, webchat);
        let Some(first) = forms.iter().find(|v| applies(v)) else {
            continue;
        };
        // The tool's own form (the core's fields as the release builds them without channels),
        // which the chosen form replaces.
        let base = std::mem::take(&mut tool.parameters);
        // Several configured channels: their forms taken together.
        let configured_forms: Vec<_> = forms.iter().filter(|v| is_configured_form(v)).collect();
        let applied: Vec<_> = configured_forms
            .iter()
            .copied()
            .filter(|v| applies(v))
            .collect();
        if is_configured_form(first) && applied.len() > 1 {
            (tool.description, tool.parameters) = union_of_forms(&applied, &configured_forms);
        } else {
            tool.description = first.description.clone();
            tool.parameters = first.parameters.value();
        }
        adapt_to_other_channels(
            tool,
            first,
            &cross_channel::Reference::new(&configured_forms, &base),
            &configured,
            (&config.raw, facts),
        );
    }
}

/// Whether OpenClaw loads `channel`'s plugin: not when this machine's OpenClaw lacks it
/// (discord-configured-without-its-plugin; unknown when clawdeck could not look), nor when
/// its entry switches it off (discord-plugin-switched-off).
fn channel_plugin_loads(config: &LoadedConfig, channel: &str) -> bool {
    let id = channel.trim().to_ascii_lowercase();
    let installed = config
        .installed_plugins
        .as_ref()
        .is_none_or(|ids| ids.contains(&id));
    installed && !crate::semantics::switches::PluginSwitches::disabled_by_entry(&config.raw, &id)
}

/// What a chat's form takes from the other configured channels, the owner actions Matrix
/// gives the turn, and iMessage's wording for a remote Mac: `form` is the one chosen for the turn, `reference` the configured channels'
/// forms of the tool and its own, `configured` whether a channel counts as configured.
fn adapt_to_other_channels(
    tool: &mut ToolSpec,
    form: &crate::semantics::ChannelVariant,
    reference: &super::cross_channel::Reference<'_>,
    configured: &dyn Fn(&str) -> bool,
    (raw, facts): (&Value, RunFacts<'_>),
) {
    use super::{cross_channel, owner_actions};
    // Each other channel is asked for its actions with the chat's account, which some do not
    // know (cross-channel-telegram-account-chat).
    let answers =
        |channel: &str| cross_channel::answers_for_account(raw, channel, facts.chat_account);
    // A chat's form (webchat's too) with other channels configured offers some of theirs too.
    let chat = match (&form.when_turn_channel, &form.when_channel) {
        (Some(turn), Some(channel)) if turn == channel => Some(channel.as_str()),
        (Some(turn), None) if turn.eq_ignore_ascii_case(CHAT_SEND_CHANNEL) => {
            Some(CHAT_SEND_CHANNEL)
        }
        _ => None,
    };
    if let Some(channel) = chat {
        let others: Vec<_> = reference
            .forms()
            .iter()
            .copied()
            .filter(|v| {
                v.when_channel
                    .as_deref()
                    .is_some_and(|c| c != channel && configured(c))
            })
            .collect();
        if !others.is_empty() {
            cross_channel::widen(
                (&mut tool.description, &mut tool.parameters),
                &others,
                &|v| v.when_channel.as_deref().is_some_and(answers),
                reference,
            );
        }
    }
    // Matrix's owner actions reach the form of any chat's turn (`permissions` a Telegram
    // owner's too: matrix-encryption-telegram-owner-turn).
    let matrix = |v: &&crate::semantics::ChannelVariant| {
        v.when_channel.as_deref() == Some(owner_actions::CHANNEL)
    };
    let matrix_answers = configured(owner_actions::CHANNEL) && answers(owner_actions::CHANNEL);
    if reference.forms().iter().any(matrix) && matrix_answers {
        let turn = owner_actions::OwnerTurn {
            sender_is_owner: facts.sender_is_owner,
            current_channel: facts.message_chat,
        };
        let actions = owner_actions::matrix_owner_actions(raw, turn);
        owner_actions::adapt(
            &mut tool.description,
            &mut tool.parameters,
            actions,
            reference,
        );
    }
    // iMessage words its poll-vote fields for a remote Mac in every turn it is configured.
    let remote = || super::imessage_remote::remote_host(raw, facts.channels_started()).is_some();
    if tool.name == MESSAGE_TOOL && configured(IMESSAGE) && remote() {
        super::imessage_remote::adapt(&mut tool.parameters);
    }
}

/// Some descriptions and schemas mention other tools: OpenClaw writes them for the tools that
/// are actually visible (sessions_spawn's "see agents_list" only beside agents_list).
fn adapt_to_neighbours(semantics: &Semantics, tools: &mut [ToolSpec]) {
    let names: Vec<String> = tools.iter().map(|t| t.name.clone()).collect();
    let visible = |name: &str| names.iter().any(|n| n == name);
    for tool in tools.iter_mut() {
        if let Some(variant) = semantics
            .schema_variants
            .get(&tool.name)
            .and_then(|vs| vs.iter().find(|v| !visible(&v.when_absent)))
        {
            tool.description = variant.description.clone();
            tool.parameters = variant.parameters.clone();
        }
        if let Some(props) = semantics.property_requires.get(&tool.name) {
            for (property, needs) in props {
                if visible(needs) {
                    continue;
                }
                if let Some(Value::Object(map)) = tool.parameters.get_mut("properties") {
                    map.remove(property);
                }
                if let Some(Value::Array(required)) = tool.parameters.get_mut("required") {
                    required.retain(|r| r.as_str() != Some(property));
                }
            }
        }
        if let Some(fragments) = semantics.description_fragments.get(&tool.name) {
            for fragment in fragments {
                let adapted = fragment.adapted(visible);
                tool.description = tool
                    .description
                    .replacen(&fragment.as_recorded(), &adapted, 1);
            }
        }
    }
}

/// The gateway tool's narrower form when the profiles withhold its config reads.
fn adapt_to_config_reads(semantics: &Semantics, facts: RunFacts<'_>, tools: &mut [ToolSpec]) {
    let Some(rule) = semantics.gateway_config_reads.as_ref() else {
        return;
    };
    if facts.gateway_config_reads {
        return;
    }
    for tool in tools.iter_mut().filter(|t| t.name == rule.tool) {
        tool.description = rule.without.description.clone();
        tool.parameters = rule.without.parameters.clone();
    }
}

/// The session tools' visibility sentence, as this run's config and sandbox make it.
fn adapt_to_session_visibility(
    semantics: &Semantics,
    raw: &Value,
    facts: RunFacts<'_>,
    tools: &mut [ToolSpec],
) {
    let Some(copy) = semantics.session_visibility.as_ref() else {
        return;
    };
    for tool in tools.iter_mut().filter(|t| copy.tools.contains(&t.name)) {
        tool.description = session_visibility::adapt(&tool.description, raw, copy, facts);
    }
}

/// Splits the visible tools the way the pack's OpenClaw sends them: OpenClaw's own tools only
/// (clawdeck's are served by `clawdeck mcp`, never by OpenClaw). `None` for packs without these
/// rules (the seed).
pub(crate) fn model_surface(
    semantics: &Semantics,
    config: &LoadedConfig,
    facts: RunFacts<'_>,
    visible: &[ToolSpec],
) -> Option<ModelSurface> {
    let raw = &config.raw;
    if semantics.is_seed() {
        return None;
    }
    let mut sorted: Vec<ToolSpec> = visible
        .iter()
        .filter(|t| !t.is_clawdecks())
        .cloned()
        .collect();
    sorted.sort_by(|a, b| a.name.cmp(&b.name));
    adapt_to_channels(semantics, config, facts, &mut sorted);
    if facts.automation_management {
        semantics.word_for_management(&mut sorted);
    }
    semantics.word_for_swarm(facts.swarm, &mut sorted);
    adapt_to_config_reads(semantics, facts, &mut sorted);
    adapt_to_neighbours(semantics, &mut sorted);
    adapt_to_session_visibility(semantics, raw, facts, &mut sorted);
    if facts.model_takes_images {
        semantics.word_for_vision(&mut sorted);
    }
    let all_direct = |direct: Vec<ToolSpec>| ModelSurface {
        direct,
        deferred: Vec::new(),
        tool_search: None,
        code_mode: false,
    };
    if facts.code_mode
        && let Some(code_mode) = semantics.code_mode.as_ref()
    {
        return Some(code_mode_surface(semantics, code_mode, facts, sorted));
    }
    let Some(rules) = semantics.tool_search.as_ref() else {
        return Some(all_direct(sorted));
    };
    let Some(mode) = rules.mode(raw) else {
        return Some(all_direct(sorted));
    };
    let mut keep_direct = names(rules.extra.get("coreCodingTools"));
    keep_direct.extend(direct_only(semantics, facts));
    let (mut direct, deferred): (Vec<ToolSpec>, Vec<ToolSpec>) = sorted
        .into_iter()
        .partition(|t| keep_direct.contains(&t.name));
    direct.extend(meta_tools(rules));
    direct.sort_by(|a, b| a.name.cmp(&b.name));
    Some(ModelSurface {
        direct,
        deferred,
        tool_search: Some(mode),
        code_mode: false,
    })
}

/// The tools sent directly under any compaction (their results cannot travel otherwise): the
/// pack's direct-only tools, and what a model that takes images brings when it does.
fn direct_only(semantics: &Semantics, facts: RunFacts<'_>) -> Vec<String> {
    let mut keep = semantics
        .tool_search
        .as_ref()
        .map(|rules| names(rules.extra.get("directOnlyTools")))
        .unwrap_or_default();
    if facts.model_takes_images {
        keep.extend(semantics.vision_model_tools.keys().cloned());
    }
    keep
}

/// Code Mode's split: its `exec` and `wait` and the direct-only tools are sent; every other
/// tool is callable only from the code `exec` runs (Tool Search does not apply then).
fn code_mode_surface(
    semantics: &Semantics,
    rules: &CodeModeRules,
    facts: RunFacts<'_>,
    sorted: Vec<ToolSpec>,
) -> ModelSurface {
    let keep = direct_only(semantics, facts);
    let (mut direct, cataloged): (Vec<ToolSpec>, Vec<ToolSpec>) =
        sorted.into_iter().partition(|t| keep.contains(&t.name));
    let exec = exec_description(rules, facts, &cataloged);
    direct.extend(rules.controls.iter().map(|(name, control)| {
        let description = match (name.as_str(), &exec) {
            ("exec", Some(exec)) => exec.clone(),
            _ => control.description.clone(),
        };
        control_spec(name, &description, control.parameters.clone(), "🧩")
    }));
    direct.sort_by(|a, b| a.name.cmp(&b.name));
    ModelSurface {
        direct,
        deferred: cataloged,
        tool_search: None,
        code_mode: true,
    }
}

/// Code Mode's exec description for the run: what the pack says it writes for the run's
/// budgets and catalog (else the capture's run's text), what it says of the MCP servers code
/// can call, then the index of the tools callable from code. `None` for packs that model
/// neither.
fn exec_description(
    rules: &CodeModeRules,
    facts: RunFacts<'_>,
    cataloged: &[ToolSpec],
) -> Option<String> {
    let index = rules.index.as_ref().map(|i| i.write(cataloged));
    // The MCP servers whose tools code can call (each tool names its own).
    let servers: Vec<crate::semantics::McpServer<'_>> = cataloged
        .iter()
        .filter_map(|t| {
            t.source
                .mcp_server()
                .map(|safe_name| crate::semantics::McpServer {
                    safe_name,
                    node: t.source.node(),
                })
        })
        .collect();
    let head = match (&rules.description, facts.code_mode_budgets) {
        (Some(description), Some(budgets)) => {
            let has = |name: &str| cataloged.iter().any(|t| t.name == name);
            let catalog = crate::semantics::CatalogFacts {
                shell: index
                    .as_ref()
                    .and_then(|i| i.callable_names.get("exec").cloned()),
                nodes: has("nodes"),
                mcp: !servers.is_empty(),
                sessions_spawn: has("sessions_spawn"),
                swarm: facts.swarm.unwrap_or(false),
                skills: facts.skills_listed,
            };
            description.write(budgets, &catalog)
        }
        _ => rules.controls.get("exec")?.description.clone(),
    };
    let head = match rules.namespaces.as_ref().and_then(|n| n.write(servers)) {
        Some(namespaces) => format!("{head}\n\n{namespaces}"),
        None => head,
    };
    Some(match index {
        Some(index) if !index.text.is_empty() => format!("{head}\n\n{}", index.text),
        _ => head,
    })
}

/// A tool's description as the deferred directory shows it: whitespace collapsed, cut at 177
/// characters (trailing space dropped) with `...`.
fn compact(text: &str) -> String {
    let collapsed = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if collapsed.chars().count() <= 180 {
        return collapsed;
    }
    let cut: String = collapsed.chars().take(177).collect();
    format!("{}...", cut.trim_end())
}

fn owner(tool: &ToolSpec) -> &str {
    tool.source.plugin_id().unwrap_or("core")
}

/// The Tooling section as the pack's OpenClaw writes it; `None` when the pack has no rule.
pub(crate) fn tooling_section(semantics: &Semantics, surface: &ModelSurface) -> Option<String> {
    let rule = semantics.tooling_rule.as_ref()?;
    let mut lines: Vec<String> = vec![rule.header.clone()];
    lines.extend(tool_lines(semantics, surface)?);
    let mut text = lines.join("\n");
    text.push('\n');
    if surface.tool_search.is_some()
        && let Some(rules) = semantics.tool_search.as_ref()
    {
        text.push_str(&deferred_directory(rules, surface));
    }
    text.push_str(&rule.footer);
    Some(text)
}

/// Tooling's list of the tools the model calls by name: `- name: summary` in the release's
/// order, then the others by name, Tool Search's meta tools last.
pub(crate) fn tool_lines(semantics: &Semantics, surface: &ModelSurface) -> Option<Vec<String>> {
    let rule = semantics.tooling_rule.as_ref()?;
    let mut lines: Vec<String> = Vec::new();
    let listed: Vec<&ToolSpec> = if surface.tool_search.is_some() || surface.code_mode {
        surface.direct.iter().collect()
    } else {
        surface
            .direct
            .iter()
            .chain(surface.deferred.iter())
            .collect()
    };
    let meta: Vec<&str> = semantics
        .tool_search
        .as_ref()
        .map(|r| {
            r.meta_tools
                .iter()
                .filter_map(|m| m.as_str())
                .collect::<Vec<_>>()
        })
        .unwrap_or_default();
    // Code Mode's exec is not the shell's: its own line.
    let controls = semantics
        .code_mode
        .as_ref()
        .filter(|_| surface.code_mode)
        .map(|rules| &rules.prompt_summaries);
    let summary = |name: &String| match controls {
        Some(controls) if controls.contains_key(name) => controls.get(name),
        _ => semantics.prompt_summaries.get(name),
    };
    for name in &rule.summary_order {
        if let Some(tool) = listed.iter().find(|t| &t.name == name) {
            match summary(name) {
                Some(summary) => lines.push(format!("- {}: {summary}", tool.name)),
                None => lines.push(format!("- {}", tool.name)),
            }
        }
    }
    let mut rest: Vec<&str> = listed
        .iter()
        .map(|t| t.name.as_str())
        .filter(|n| !rule.summary_order.iter().any(|o| o == n) && !meta.contains(n))
        .collect();
    rest.sort_unstable();
    lines.extend(
        rest.into_iter()
            .map(|n| match controls.and_then(|controls| controls.get(n)) {
                Some(summary) => format!("- {n}: {summary}"),
                None => format!("- {n}"),
            }),
    );
    let mut meta_listed: Vec<&str> = listed
        .iter()
        .map(|t| t.name.as_str())
        .filter(|n| meta.contains(n))
        .collect();
    meta_listed.sort_unstable();
    lines.extend(meta_listed.into_iter().map(|n| format!("- {n}")));
    Some(lines)
}

/// Tool Search's deferred directory in the system prompt: the cataloged tools by name (2026.8.2
/// also lists the catalog's tools that are sent directly), then the release's guidance for the
/// mode, after the count of tools only a search finds.
pub(crate) fn deferred_directory(rules: &ToolSearchRules, surface: &ModelSurface) -> String {
    let text = |key: &str| {
        rules
            .extra
            .get(key)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    };
    let guidance = DirectoryGuidance::of(rules);
    let mut cataloged: Vec<&ToolSpec> = surface.deferred.iter().collect();
    if guidance.lists_direct_tools {
        // The core coding tools are sent directly and stay in the catalog too.
        let coding = names(rules.extra.get("coreCodingTools"));
        cataloged.extend(surface.direct.iter().filter(|t| coding.contains(&t.name)));
    }
    cataloged.sort_by(|a, b| a.name.cmp(&b.name));
    let mut out = String::from("### Deferred Tool Schemas\n");
    out.push_str(&text("directoryHeading"));
    out.push('\n');
    // OpenClaw's directory names only its own tools; MCP server tools are found by searching
    // and only counted here.
    let (listed, searchable): (Vec<&ToolSpec>, Vec<&ToolSpec>) =
        cataloged.into_iter().partition(|t| !t.source.is_mcp());
    for tool in listed {
        out.push_str(&format!(
            "- {} ({}): {}\n",
            tool.name,
            owner(tool),
            compact(&tool.description)
        ));
    }
    out.push('\n');
    out.push_str(&text("directoryNotice"));
    out.push('\n');
    let mode = surface.tool_search_mode().unwrap_or("tools");
    out.push_str(&guidance.footer(mode, searchable.len()));
    out.push_str("\n\n");
    out
}

/// The deferred directory's closing guidance as the release words it (`directoryGuidance`,
/// read from its directory formatter).
#[derive(Debug, Default, serde::Deserialize)]
#[serde(rename_all = "camelCase", default)]
struct DirectoryGuidance {
    code: String,
    omitted: String,
    listed: String,
    mode_suffix: std::collections::BTreeMap<String, String>,
    lists_direct_tools: bool,
}

impl DirectoryGuidance {
    fn of(rules: &ToolSearchRules) -> Self {
        rules
            .extra
            .get("directoryGuidance")
            .and_then(|v| serde_json::from_value(v.clone()).ok())
            .unwrap_or_default()
    }

    /// The footer for `mode` when `omitted` cataloged tools are not listed.
    fn footer(&self, mode: &str, omitted: usize) -> String {
        let mut guidance = match (mode, omitted) {
            ("code", _) => self.code.clone(),
            (_, 0) => self.listed.clone(),
            _ => self.omitted.clone(),
        };
        if let Some(suffix) = self.mode_suffix.get(mode) {
            guidance.push_str(suffix);
        }
        match omitted {
            0 => guidance,
            n => format!("{n} additional tools omitted. {guidance}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::Registry;
    use crate::config::load_from_str;
    use crate::context::PolicyContext;

    /// `config` under `pack`: its registry, `ctx`'s resolution and the tools it keeps visible.
    struct Run {
        cfg: crate::config::LoadedConfig,
        registry: Registry,
        resolution: crate::policy::Resolution,
        visible: Vec<ToolSpec>,
    }

    fn run(config: &str, pack: &str, ctx: &PolicyContext) -> Run {
        let cfg = load_from_str(config, "t.json5")
            .unwrap()
            .with_pack(pack)
            .unwrap();
        let registry = Registry::build(&cfg, &crate::mcp_servers::ServerListing::Off);
        let resolution = crate::policy::resolve(&cfg, &registry, ctx).unwrap();
        let visible: Vec<ToolSpec> = resolution
            .visible()
            .filter_map(|t| registry.get(&t.name).cloned())
            .collect();
        Run {
            cfg,
            registry,
            resolution,
            visible,
        }
    }

    impl Run {
        fn facts(&self) -> RunFacts<'_> {
            RunFacts::of(&self.resolution.resolved)
        }

        fn surface(&self, facts: RunFacts<'_>) -> ModelSurface {
            model_surface(&self.registry.semantics, &self.cfg, facts, &self.visible).unwrap()
        }
    }

    /// The surface and the deferred directory for `config` under `pack`.
    fn directory(config: &str, pack: &str) -> (ModelSurface, String) {
        let run = run(config, pack, &PolicyContext::default());
        let surface = run.surface(run.facts());
        let rules = run.registry.semantics.tool_search.as_ref().unwrap();
        let text = deferred_directory(rules, &surface);
        (surface, text)
    }

    #[test]
    fn the_directory_footer_follows_the_release_and_the_mode() {
        let tools = r#"{ tools: { toolSearch: { mode: "tools" } } }"#;
        let (surface, text) = directory(tools, "2026.8");
        assert!(surface.direct.iter().any(|t| t.name == "exec"));
        // 2026.8.2 lists the core coding tools it also sends directly; 2026.9.6 does not.
        assert!(text.contains("\n- exec (core): "), "{text}");
        assert!(
            text.trim_end()
                .ends_with("Call tool_describe with a listed tool name to load its full schema before using tool_call."),
            "{text}"
        );
        let (_, text) = directory(tools, "2026.9");
        assert!(!text.contains("\n- exec (core): "), "{text}");
        assert!(text.contains("Deferred names are not directly callable."));
        let (surface, text) = directory(
            r#"{ tools: { toolSearch: { mode: "directory" } } }"#,
            "2026.9",
        );
        assert!(surface.directory_mode());
        assert!(
            text.trim_end().ends_with(
                "Call a unique deferred tool name directly, or use tool_call with its id and args."
            ),
            "{text}"
        );
    }

    /// Each directly sent tool's description for `config` under the 2026.9 pack.
    fn descriptions(
        config: &str,
        ctx: &PolicyContext,
    ) -> std::collections::BTreeMap<String, String> {
        let run = run(config, "2026.9", ctx);
        run.surface(run.facts())
            .direct
            .into_iter()
            .map(|t| (t.name, t.description))
            .collect()
    }

    /// Telegram without a token in the config is no configured channel, unless the turn comes
    /// over a Telegram chat: then its account exists (its token where clawdeck cannot read).
    #[test]
    fn a_turn_over_a_channels_chat_counts_that_channel_as_configured() {
        let config = "{ tools: { toolSearch: false }, channels: { telegram: {} } }";
        let run = run(config, "2026.9", &PolicyContext::default());
        let message = |facts: RunFacts<'_>| {
            run.surface(facts)
                .direct
                .into_iter()
                .find(|t| t.name == "message")
                .map(|t| t.description)
                .unwrap_or_default()
        };
        let plain = run.facts();
        assert!(message(plain).contains("Supports actions: broadcast, send."));
        let over_telegram = RunFacts {
            current_channel: Some("telegram"),
            message_chat: Some("telegram"),
            ..plain
        };
        assert!(message(over_telegram).contains("topic-create"));
    }

    #[test]
    fn follow_up_sentences_name_only_the_tools_still_visible() {
        let all = descriptions(
            "{ tools: { toolSearch: false } }",
            &PolicyContext::default(),
        );
        assert!(all["sessions_send"].contains(
            "use `conversations_list` plus `conversations_send`/`conversations_turn`. Thread"
        ));
        assert!(all["sessions_spawn"].contains("Check spawns via `subagents`/`sessions_history`."));
        let some = descriptions(
            "{ tools: { toolSearch: false, deny: ['conversations_turn', 'subagents'] } }",
            &PolicyContext::default(),
        );
        assert!(
            some["sessions_send"]
                .contains("use `conversations_list` plus `conversations_send`. Thread")
        );
        assert!(some["sessions_spawn"].contains("Check spawns via `sessions_history`."));
        let none = descriptions(
            "{ tools: { toolSearch: false, deny: ['conversations_list', 'subagents', 'sessions_history'] } }",
            &PolicyContext::default(),
        );
        assert!(!none["sessions_send"].contains("exact external destination"));
        assert!(!none["sessions_spawn"].contains("Check spawns"));
        assert!(!none["sessions_search"].contains("Follow up with sessions_history"));
    }

    #[test]
    fn gateway_loses_its_config_reads_under_a_restricting_profile() {
        let open = descriptions(
            "{ tools: { toolSearch: false } }",
            &PolicyContext::default(),
        );
        assert!(open["gateway"].starts_with("Read gateway config/schema."));
        assert!(open["gateway"].ends_with("Other system changes: use openclaw tool."));
        let coding = descriptions(
            "{ tools: { toolSearch: false, profile: 'coding' } }",
            &PolicyContext::default(),
        );
        assert!(coding["gateway"].starts_with("Update OpenClaw with update.run"));
        assert!(!coding.contains_key("openclaw"));
        assert!(coding["gateway"].ends_with("Never via shell."));
        // Naming gateway in alsoAllow gives the reads back, without the openclaw tool's sentence.
        let granted = descriptions(
            "{ tools: { toolSearch: false, profile: 'coding', alsoAllow: ['gateway'] } }",
            &PolicyContext::default(),
        );
        assert!(granted["gateway"].starts_with("Read gateway config/schema."));
        assert!(granted["gateway"].ends_with("Never via shell."));
    }

    #[test]
    fn a_sandboxed_session_sees_the_sandbox_wording_of_session_visibility() {
        let sandboxed = PolicyContext {
            sandboxed: true,
            ..PolicyContext::default()
        };
        let d = descriptions(
            "{ tools: { toolSearch: false, sessions: { visibility: 'all' } } }",
            &sandboxed,
        );
        assert!(d["sessions_spawn"].contains(
            "(tree: current session + own spawn subtree (sandbox: spawned sessions only))"
        ));
        let d = descriptions(
            "{ tools: { toolSearch: false, sessions: { visibility: 'self' } } }",
            &PolicyContext::default(),
        );
        assert!(d["sessions_spawn"].contains("(self: current session only)"));
    }

    #[test]
    fn descriptions_are_cut_like_openclaw_cuts_them() {
        assert_eq!(compact("a  b\n c"), "a b c");
        let long = "word ".repeat(60);
        let cut = compact(&long);
        assert!(cut.ends_with("..."));
        assert!(cut.chars().count() <= 180);
        assert!(!cut.trim_end_matches("...").ends_with(' '));
    }
}
