//! Everything the model is offered in one context, assembled once: the policy resolution, the
//! provider's tool payload, the skills, the slash commands and the system prompt. The CLI's
//! `schema`, `prompt` and `dispatch` and the console's Prompt view all render this value.

use std::path::PathBuf;

use serde::Serialize;

use super::{
    PromptInput, PromptMode, PromptSection, ROUTER_TOOL, RuntimeInfo, join_sections,
    prompt_sections,
};
use crate::catalog::Registry;
use crate::config::LoadedConfig;
use crate::context::PolicyContext;
use crate::policy::{PolicyError, Resolution};
use crate::provider::{ProviderApi, ProviderExport, export_tools_as};
use crate::skills::eligibility::platform_name;
use crate::skills::sources::{home_dir, prompt_limits, skill_roots, workspace_dir};
use crate::skills::{
    AgentSkillFilter, EligibilityEnv, SkillSet, SkillsPromptLimits, resolve_skills,
};
use crate::tool::ToolSpec;

/// Choices that are not part of the policy context.
#[derive(Debug, Clone, Default)]
pub struct LlmViewOptions {
    /// The request format; None = the one the context's provider speaks (OpenAI-compatible when
    /// no provider is known).
    pub api: Option<ProviderApi>,
    pub mode: PromptMode,
}

/// What the model sees in one context.
#[derive(Debug, Clone, Serialize)]
pub struct LlmView {
    pub resolution: Resolution,
    pub api: ProviderApi,
    /// Why this API: `--api`, the resolved provider, or the default.
    pub api_source: String,
    pub export: ProviderExport,
    pub skills: SkillSet,
    pub mode: PromptMode,
    pub workspace: PathBuf,
    /// Whether the clawbot_router guidance is in the prompt.
    pub router_guidance: bool,
    pub sections: Vec<PromptSection>,
    pub prompt: String,
    /// The workspace files injected under Project Context (OpenClaw's prompt only).
    pub workspace_files: Vec<super::workspace_files::ContextFile>,
    /// The release's template and the run as its builder was told (OpenClaw's prompt only):
    /// what a scheduled job's user message reads ([`super::job_message`]).
    #[serde(skip)]
    pub template: Option<&'static super::template::PromptTemplate>,
    #[serde(skip)]
    pub run: Option<super::openclaw_prompt::RunShape>,
}

/// Builds the view for `ctx`. Fails only when the context names an unknown agent.
pub fn build_llm_view(
    config: &LoadedConfig,
    registry: &Registry,
    ctx: &PolicyContext,
    options: &LlmViewOptions,
) -> Result<LlmView, PolicyError> {
    let resolution = crate::policy::resolve(config, registry, ctx)?;
    let (api, api_source) = match (options.api, resolution.resolved.provider.as_deref()) {
        (Some(api), _) => (api, "--api".to_string()),
        (None, Some(provider)) => (
            ProviderApi::for_provider(provider),
            format!("provider {provider}"),
        ),
        (None, None) => (
            ProviderApi::OpenAiChat,
            "default (no provider in this context)".to_string(),
        ),
    };
    let visible: Vec<ToolSpec> = resolution
        .visible()
        .filter_map(|t| registry.get(&t.name).cloned())
        .collect();
    let agent = resolution.resolved.agent.clone();
    // OpenClaw's own prompt (not the seed's) for a pack whose release's template is shipped.
    let template = (!registry.semantics.is_seed())
        .then(|| super::template::shipped(&series_of(&registry.semantics.id)))
        .flatten();
    let (package, workspace, skills) = prompt_sources(config, &agent, template);
    // Today's OpenClaw: tools by name, Tool Search's direct tools only, schemas as they are.
    let facts = run_facts(registry, &resolution, &skills);
    let surface = super::surface::model_surface(&registry.semantics, config, facts, &visible);
    let (sent, tooling) = match &surface {
        Some(surface) => (
            surface.direct.clone(),
            super::surface::tooling_section(&registry.semantics, surface),
        ),
        None => (visible.clone(), None),
    };
    let export = export_tools_as(api, &sent, registry.semantics.param_aliases);
    // The prompt names only tools the model can actually call through this API.
    let offered: Vec<ToolSpec> = sent
        .into_iter()
        .filter(|t| export.tools.contains(&t.name))
        .collect();

    let (sections, files, prompt, run) = match (template, &surface) {
        (Some(template), Some(surface)) => {
            let run = run_shape(
                config,
                &resolution,
                ctx,
                options.mode,
                facts,
                &workspace,
                package,
            );
            let prompt = openclaw_text(
                template,
                config,
                registry,
                surface,
                &run,
                &skills,
                options.mode,
            );
            let sections = super::split::split_sections(&prompt.text);
            (sections, prompt.files, prompt.text, Some(run))
        }
        _ => {
            let sections = seed_sections(
                &resolution,
                ctx,
                &offered,
                tooling,
                &skills,
                &workspace,
                options.mode,
            );
            let text = join_sections(&sections);
            (sections, Vec::new(), text, None)
        }
    };
    let router_guidance = sections.iter().any(|s| s.title == ROUTER_TOOL);
    Ok(LlmView {
        resolution,
        api,
        api_source,
        export,
        skills,
        mode: options.mode,
        workspace,
        router_guidance,
        sections,
        prompt,
        workspace_files: files,
        template: run.as_ref().and(template),
        run,
    })
}

/// What of the run decides the tools' descriptions, its skills included.
fn run_facts<'a>(
    registry: &Registry,
    resolution: &'a Resolution,
    skills: &SkillSet,
) -> super::surface::RunFacts<'a> {
    super::surface::RunFacts {
        skills_listed: skills.prompt.included > 0,
        ..super::surface::RunFacts::of_turn(
            &registry.semantics,
            &resolution.resolved,
            &resolution.context,
        )
    }
}

/// What the prompt reads from disk: the installed OpenClaw package (a release with a template
/// only), the agent's workspace (OpenClaw's default when none is configured) and the skills,
/// their catalog cut as the release cuts it.
fn prompt_sources(
    config: &LoadedConfig,
    agent: &str,
    template: Option<&super::template::PromptTemplate>,
) -> (Option<PathBuf>, PathBuf, SkillSet) {
    let openclaws = template.is_some();
    let package = openclaws
        .then(|| crate::paths::openclaw_package(&crate::config::openclaw_bin(config)))
        .flatten();
    let workspace = match openclaws && !workspace_configured(config, agent) {
        true => super::openclaw_prompt::default_workspace(config, agent)
            .unwrap_or_else(|| workspace_dir(config, Some(agent))),
        false => workspace_dir(config, Some(agent)),
    };
    let home = home_dir();
    let mut roots = skill_roots(config, Some(agent));
    roots.workspace = Some(workspace.join("skills"));
    if openclaws {
        openclaw_skill_roots(&mut roots, config, agent, package.as_deref());
    }
    // The agent's own entry decides its skill allowlist and prompt budget.
    let info = config.agent(agent).filter(|a| !a.implicit);
    let entry = info.and_then(|a| Some((config.agent_raw(a)?, a.path.to_string())));
    let entry = entry.as_ref().map(|(e, path)| (*e, path.as_str()));
    let env = EligibilityEnv {
        agent_skills: AgentSkillFilter::of(&config.raw, entry),
        ..EligibilityEnv::from_process(config.raw.clone())
    };
    // The release's own budget when the config sets none (the seed's otherwise).
    let defaults = SkillsPromptLimits {
        max_chars: template.map_or(SkillsPromptLimits::default().max_chars, |t| {
            t.skills_prompt_max_chars
        }),
        ..SkillsPromptLimits::default()
    };
    let limits = prompt_limits(&config.raw, entry.map(|(e, _)| e), defaults);
    let mut skills = resolve_skills(&roots, &env, &limits, home.as_deref());
    if let Some(template) = template {
        skills.prompt = release_catalog(template, &skills, None);
    }
    (package, workspace, skills)
}

/// The run as OpenClaw's builder is told about it.
fn run_shape(
    config: &LoadedConfig,
    resolution: &Resolution,
    ctx: &PolicyContext,
    mode: PromptMode,
    facts: super::surface::RunFacts<'_>,
    workspace: &std::path::Path,
    package: Option<PathBuf>,
) -> super::openclaw_prompt::RunShape {
    let agent = resolution.resolved.agent.as_str();
    let (provider, model_id) = provider_and_model_id(&resolution.resolved);
    let spawn = spawn_shape(config, ctx);
    // The channel a turn arrived over: a session key alone is a turn sent into the session
    // from elsewhere (the CLI, the Control UI, cron), as OpenClaw builds it. A spawned
    // subagent runs in its requester's; a gateway's agent method in the release's own.
    let channel = ctx
        .channel
        .clone()
        .filter(|_| !ctx.channel_from_key)
        .or_else(|| spawn.as_ref().and_then(|s| s.requester_channel.clone()))
        .or_else(|| {
            config
                .semantics
                .agent_method_channel(ctx)
                .map(str::to_string)
        });
    super::openclaw_prompt::RunShape {
        agent: agent.to_string(),
        // OpenClaw writes a minimal prompt for a subagent's or a cron session's run
        // (`resolvePromptModeForSession`) and for a run whose tool cap restricts it.
        minimal: mode == PromptMode::Minimal
            || resolution.resolved.subagent
            || ctx.in_cron_session()
            || ctx.cap_restricts(),
        skills_withheld: ctx.cap_restricts(),
        subagent: resolution.resolved.subagent,
        sandboxed: resolution.resolved.sandboxed,
        sandbox: resolution.resolved.sandboxed.then(|| {
            let state = crate::paths::openclaw_state_dir().unwrap_or_default();
            super::sandbox_info::sandbox_info(
                &config.raw,
                agent,
                ctx.session_key.as_deref(),
                workspace,
                &state,
            )
        }),
        channel,
        account: ctx.clone().with_session_key().account,
        main_session: is_main_session(ctx, agent),
        model: model_identity(&resolution.resolved),
        provider,
        model_id,
        default_model: default_model(config),
        session_key: ctx.session_key.clone(),
        workspace: workspace.to_path_buf(),
        node: package.as_ref().and_then(|_| {
            crate::paths::openclaw_node_version(&crate::config::openclaw_bin(config))
        }),
        package,
        date: Some(super::openclaw_prompt::prompt_date(config)),
        spawn,
        // OpenClaw's reply pipeline runs a chat.send into a direct chat (no group), not a
        // spawned subagent's turn nor a minimal prompt's.
        webchat_turn: facts.webchat_turn && ctx.group.is_none() && !resolution.resolved.subagent,
    }
}

/// A spawned subagent's place (`--spawned-by`): its spawner's session and channel, its own
/// session, its depth and whether it may spawn in turn (below maxSpawnDepth).
fn spawn_shape(
    config: &LoadedConfig,
    ctx: &PolicyContext,
) -> Option<super::openclaw_prompt::SpawnShape> {
    let spawner = ctx.spawner()?;
    let keyed = ctx.clone().with_session_key();
    let depth = keyed.subagent_depth.unwrap_or(1);
    let semantics = &config.semantics;
    let max_depth = crate::semantics::SubagentRules::configured_max_spawn_depth(&config.raw)
        .or(semantics.subagent.default_max_spawn_depth)
        .unwrap_or(1);
    let requester_channel = spawner
        .message_provider()
        .map(str::to_string)
        .or_else(|| semantics.gateway_agent_turn_channel.clone());
    Some(super::openclaw_prompt::SpawnShape {
        requester_session: spawner.session_key.clone().unwrap_or_default(),
        requester_channel,
        child_session: ctx.session_key.clone().unwrap_or_default(),
        depth,
        can_spawn: depth < max_depth,
    })
}

/// The model as OpenClaw names it to the model: `provider/model`.
fn model_identity(resolved: &crate::policy::ResolvedContext) -> Option<String> {
    match (&resolved.provider, &resolved.model) {
        (Some(provider), Some(model)) if !model.contains('/') => {
            Some(format!("{provider}/{model}"))
        }
        (_, model) => model.clone(),
    }
}

/// The run's provider (the resolved one, else the model ref's prefix) and its model id without
/// the provider (`gpt-5.1` of `openai/gpt-5.1`).
fn provider_and_model_id(
    resolved: &crate::policy::ResolvedContext,
) -> (Option<String>, Option<String>) {
    let model = resolved.model.as_deref();
    let provider = resolved
        .provider
        .clone()
        .or_else(|| Some(model?.split_once('/')?.0.to_string()));
    let id = model.map(|m| crate::model_ref::model_id(provider.as_deref().unwrap_or(""), m));
    (provider, id.map(str::to_string))
}

/// `agents.defaults.model` (a string or its `primary`).
fn default_model(config: &LoadedConfig) -> Option<String> {
    let model = config.raw.pointer("/agents/defaults/model")?;
    model
        .as_str()
        .or_else(|| model.get("primary").and_then(serde_json::Value::as_str))
        .map(str::to_string)
}

/// Whether the context is the agent's main session: its key is `agent:<id>:main`, or no key,
/// channel or group is given (`openclaw agent --agent <id>` runs there).
fn is_main_session(ctx: &PolicyContext, agent: &str) -> bool {
    match ctx.session_key.as_deref() {
        Some(key) => key
            .trim()
            .eq_ignore_ascii_case(&format!("agent:{agent}:main")),
        None => ctx.channel.is_none() && ctx.group.is_none(),
    }
}

/// `2026.9` for the packs `2026.9` and `2026.9.6`.
fn series_of(pack: &str) -> String {
    pack.split('.').take(2).collect::<Vec<_>>().join(".")
}

/// Whether the config names the agent's workspace (clawdeck's setting, the agent's own, the
/// defaults').
fn workspace_configured(config: &LoadedConfig, agent: &str) -> bool {
    config.settings.workspace.is_some()
        || config
            .agent(agent)
            .is_some_and(|a| a.entry.workspace.is_some())
        || config.openclaw.agents.defaults.workspace.is_some()
}

/// The prompt a release with a template writes: its Tooling list and deferred directory (the
/// surface holds OpenClaw's own tools only), its skills block.
fn openclaw_text(
    template: &super::template::PromptTemplate,
    config: &LoadedConfig,
    registry: &Registry,
    surface: &super::surface::ModelSurface,
    run: &super::openclaw_prompt::RunShape,
    skills: &SkillSet,
    mode: PromptMode,
) -> super::openclaw_prompt::OpenClawPrompt {
    if mode == PromptMode::None {
        let mut facts = super::template::Facts::default();
        if let Some(model) = &run.model {
            facts.set("model", model.clone());
        }
        return super::openclaw_prompt::OpenClawPrompt {
            text: super::template::render(&template.none_mode, &facts),
            files: Vec::new(),
        };
    }
    let cataloged: &[ToolSpec] = match template.cataloged_tools_in_prompt {
        super::template::CatalogedTools::DirectoryMode if !surface.directory_mode() => &[],
        _ => &surface.deferred,
    };
    let available: Vec<ToolSpec> = surface.direct.iter().chain(cataloged).cloned().collect();
    let deferred_directory = match (
        &surface.tool_search,
        registry.semantics.tool_search.as_ref(),
    ) {
        (Some(_), Some(rules)) => Some(super::surface::deferred_directory(rules, surface)),
        _ => None,
    };
    let tools = super::openclaw_prompt::PromptTools {
        available: &available,
        tool_lines: super::surface::tool_lines(&registry.semantics, surface).unwrap_or_default(),
        deferred_directory,
        code_mode: surface.code_mode,
    };
    // A sandboxed run reads the sandbox's copies of the skills (their paths count in the budget).
    let block = match run.sandbox.as_ref().and_then(|s| s.skills_root.as_deref()) {
        _ if run.skills_withheld => String::new(),
        Some(root) => release_catalog(template, skills, Some(root)).text,
        None => skills.prompt.text.clone(),
    };
    super::openclaw_prompt::build(template, config, run, &tools, &block)
}

/// The skills catalog as the release writes it (`skills_catalog`), each skill where the run
/// reads it: under the home folder as `~/...`, or a sandboxed run's copy under `sandbox_root`.
fn release_catalog(
    template: &super::template::PromptTemplate,
    skills: &SkillSet,
    sandbox_root: Option<&str>,
) -> crate::skills::SkillsPrompt {
    use super::skills_catalog::{CatalogSkill, CatalogWording, skills_catalog};
    let offered: Vec<&crate::skills::Skill> = skills.for_model().collect();
    let home = home_dir();
    let locations: Vec<String> = match sandbox_root {
        Some(root) => super::sandbox_info::sandbox_skill_locations(
            offered.iter().map(|s| s.file_path.as_path()),
            root,
        ),
        None => offered
            .iter()
            .map(|s| compact_home(&s.file_path.display().to_string(), home.as_deref()))
            .collect(),
    };
    let catalog = offered
        .iter()
        .zip(locations)
        .map(|(skill, location)| CatalogSkill {
            name: skill.name.clone(),
            description: skill.description.clone(),
            location,
        })
        .collect();
    let wording = CatalogWording {
        preamble: &template.skills_preamble,
        described: &template.skills_compact_loading.described,
        bare: &template.skills_compact_loading.bare,
    };
    skills_catalog(catalog, &skills.limits, wording)
}

/// A path under the home folder as `~/...`, as OpenClaw shows skill locations.
fn compact_home(path: &str, home: Option<&std::path::Path>) -> String {
    let prefix = home.map(|h| format!("{}/", h.display().to_string().trim_end_matches('/')));
    match prefix.as_deref().and_then(|p| path.strip_prefix(p)) {
        Some(rest) if prefix.as_deref() != Some("/") => format!("~/{rest}"),
        _ => path.to_string(),
    }
}

/// The skill folders today's OpenClaw reads besides clawdeck's: the installed package's
/// `skills/` (bundled) and, for the default agent, its `custodian-skills/`; the enabled
/// plugins' skills, shown where OpenClaw links them (`<state>/plugin-skills`).
fn openclaw_skill_roots(
    roots: &mut crate::skills::SkillRoots,
    config: &LoadedConfig,
    agent: &str,
    package: Option<&std::path::Path>,
) {
    if let Some(package) = package {
        if roots.bundled.is_none() {
            roots.bundled = Some(package.join("skills"));
        }
        if agent == config.default_agent_id() {
            roots.extra.push(package.join("custodian-skills"));
        }
    }
    let Some(published) =
        super::openclaw_prompt::default_workspace(config, &config.default_agent_id())
            .and_then(|w| w.parent().map(|p| p.join("plugin-skills")))
    else {
        return;
    };
    match package {
        // OpenClaw links the enabled plugins' skills anew at every run: read from the plugins.
        Some(package) => {
            roots.linked = super::plugin_skills::linked_roots(config, package)
                .into_iter()
                .map(|dir| crate::skills::LinkedRoot {
                    dir,
                    shown_under: published.clone(),
                })
                .collect()
        }
        // Without the package, what a gateway linked last.
        None => roots.extra.push(published),
    }
}

/// The prompt of the seeds and of releases without a template: the tool- and skill-related
/// sections.
fn seed_sections(
    resolution: &Resolution,
    ctx: &PolicyContext,
    offered: &[ToolSpec],
    tooling: Option<String>,
    skills: &SkillSet,
    workspace: &std::path::Path,
    mode: PromptMode,
) -> Vec<PromptSection> {
    let guidance = super::router_guidance::system_prompt_section();
    let runtime = RuntimeInfo {
        agent: Some(resolution.resolved.agent.clone()),
        os: Some(platform_name(std::env::consts::OS)),
        arch: Some(std::env::consts::ARCH.to_string()),
        provider: resolution.resolved.provider.clone(),
        model: resolution.resolved.model.clone(),
        channel: ctx.channel.clone(),
    };
    let input = PromptInput {
        mode,
        tools: offered,
        skills_prompt: Some(&skills.prompt.text),
        router_guidance: Some(&guidance),
        workspace: Some(workspace.to_path_buf()),
        runtime,
        tooling,
    };
    prompt_sections(&input)
}
