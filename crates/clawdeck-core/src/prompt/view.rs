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
use crate::skills::{EligibilityEnv, SkillSet, resolve_skills};
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
    // Today's OpenClaw: tools by name, Tool Search's direct tools only, schemas as they are.
    let facts = super::surface::RunFacts::of(&resolution.resolved);
    let surface = super::surface::model_surface(&registry.semantics, &config.raw, facts, &visible);
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

    let agent = resolution.resolved.agent.clone();
    let workspace = workspace_dir(config, Some(&agent));
    let home = home_dir();
    let skills = resolve_skills(
        &skill_roots(config, Some(&agent)),
        &EligibilityEnv::from_process(config.raw.clone()),
        &prompt_limits(&config.raw),
        home.as_deref(),
    );

    let guidance = super::router_guidance::system_prompt_section();
    let runtime = RuntimeInfo {
        agent: Some(agent),
        os: Some(platform_name(std::env::consts::OS)),
        arch: Some(std::env::consts::ARCH.to_string()),
        provider: resolution.resolved.provider.clone(),
        model: resolution.resolved.model.clone(),
        channel: ctx.channel.clone(),
    };
    let input = PromptInput {
        mode: options.mode,
        tools: &offered,
        skills_prompt: Some(&skills.prompt.text),
        router_guidance: Some(&guidance),
        workspace: Some(workspace.clone()),
        runtime,
        tooling,
    };
    let sections = prompt_sections(&input);
    let router_guidance = sections.iter().any(|s| s.title == ROUTER_TOOL);
    let prompt = join_sections(&sections);
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
    })
}
