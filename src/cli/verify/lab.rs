//! `clawdeck verify` with the lab built in (cargo feature `verify`).

use std::time::Duration;

use serde_json::{Value, json};

use super::VerifyArgs;
use crate::catalog::Registry;
use crate::cli::{Cli, async_runtime, exit};
use crate::config::{self, ConfigSource, LoadedConfig};
use crate::context::PolicyContext;
use crate::deck::session_compare::{ComparedContext, context_for_session};
use crate::prompt::LlmView;
use crate::verify::prompt_compare::PromptComparison;
use crate::verify::{
    self, Agreement, Comparison, GatewayTarget, ObservedView, RunOptions, Surface, ToolVerdict,
    VerifyError,
};
use clawdeck_core::dotenv::DotEnvPlace;

/// The credential variables (the pack's media and provider keys) the operator's login shell
/// sets, for the lab's stand-in profile.
fn login_shell_credentials(loaded: &LoadedConfig) -> Vec<String> {
    let credentials = loaded.semantics.credential_variables();
    loaded
        .dotenv_files
        .iter()
        .filter(|d| d.place == DotEnvPlace::LoginShell)
        .flat_map(|d| d.set.iter())
        .filter(|name| credentials.contains(name.as_str()))
        .cloned()
        .collect()
}

/// How the lab's local run gets the operator's credentials: copies of the dotenv files, the
/// login shell's key names, and the stored auth profiles the run's agent reads.
fn local_run_options(
    cli: &Cli,
    args: &VerifyArgs,
    loaded: &LoadedConfig,
    agent: &str,
    timeout: Duration,
) -> RunOptions {
    let (auth_profiles, left_out) = verify::lab_profiles(loaded, agent);
    if left_out > 0 {
        crate::cli::err_untrusted(
            cli,
            &format!(
                "clawdeck verify: the lab's run gets the first {} stored auth profiles; \
                 {left_out} more are not given to it",
                verify::MAX_LAB_PROFILES
            ),
        );
    }
    RunOptions {
        openclaw_bin: args.openclaw.clone(),
        timeout,
        dotenv_files: loaded
            .dotenv_files
            .iter()
            .filter(|d| d.place != DotEnvPlace::LoginShell)
            .map(|d| (d.place, d.path.clone()))
            .collect(),
        login_shell_names: login_shell_credentials(loaded),
        auth_profiles,
        ..RunOptions::default()
    }
}

pub fn run(cli: &Cli, args: &VerifyArgs) -> u8 {
    let mut loaded = match config::load_from(&cli.config_request()) {
        Ok(loaded) => loaded,
        Err(err) => {
            crate::cli::err_untrusted(cli, &format!("clawdeck verify: {err}"));
            return exit::USAGE;
        }
    };
    if args.gateway.is_some() && loaded.source == ConfigSource::EmbeddedDemo {
        eprintln!(
            "clawdeck verify: warning: comparing a gateway with the embedded demo config (no OpenClaw config found); the demo is not the gateway's config, so disagreements are expected. Pass --config with the gateway's openclaw.json"
        );
    }
    // The prediction reads the package of the OpenClaw the lab runs (its skills and docs).
    loaded.settings.router.cli_bin = args.openclaw.as_ref().map(|p| p.display().to_string());
    let registry = Registry::build(&loaded, cli.server_listing());
    let ctx = match session_context(cli, args) {
        Ok(ctx) => ctx,
        Err(err) => {
            crate::cli::err_untrusted(cli, &format!("clawdeck verify: {err}"));
            return exit::USAGE;
        }
    };
    let predicted = verify::predict(&loaded, &registry, &ctx)
        .and_then(|view| in_clients_session(&loaded, &registry, ctx, view));
    let (ctx, view) = match predicted {
        Ok(predicted) => predicted,
        Err(err) => {
            crate::cli::err_untrusted(cli, &format!("clawdeck verify: {err}"));
            return exit::USAGE;
        }
    };
    let agent = view.resolution.resolved.agent.clone();
    let timeout = Duration::from_secs(args.timeout.max(1));
    let runtime = match async_runtime() {
        Ok(rt) => rt,
        Err(err) => {
            crate::cli::err_untrusted(cli, &format!("clawdeck verify: {err}"));
            return exit::USAGE;
        }
    };
    let (source, observed) = match &args.gateway {
        Some(url) => {
            let Some(asked) = ask_gateway(cli, args, url, &ctx, &agent, &runtime, timeout) else {
                return exit::USAGE;
            };
            asked
        }
        None => {
            let mut options = local_run_options(cli, args, &loaded, &agent, timeout);
            options.client = loaded.semantics.client_capabilities.turn_client(&ctx);
            let run = verify::observe_cli(&loaded.raw, &agent, &ctx, &options);
            (local_run_source(&ctx, &agent), runtime.block_on(run))
        }
    };
    let observed = match observed {
        Ok(observed) => observed,
        Err(err) => {
            crate::cli::err_untrusted(cli, &format!("clawdeck verify: {err}"));
            return exit::USAGE;
        }
    };
    let mut comparison = verify::compare_view(&view, &registry, &observed);
    if args.gateway.is_none() {
        comparison
            .notes
            .extend(unknown_model_note(&view.resolution.resolved));
    }
    // The lab's local run as clawdeck predicts it, once: its prompt and a job's message read it.
    let sent_text = observed.system_prompt.is_some() || observed.user_message.is_some();
    let predicted = (args.gateway.is_none() && sent_text)
        .then(|| run_prediction(&loaded, &registry, &ctx, &view))
        .flatten();
    let report = Report {
        source: &source,
        observed: &observed,
        comparison: &comparison,
        prompt: observed.system_prompt.as_deref().map(|real| {
            let ours = predicted.as_ref().map(|(_, v)| v);
            run_prompt_comparison(&loaded, args, &view, ours, real)
        }),
        user_message: observed
            .user_message
            .as_deref()
            .zip(predicted.as_ref())
            .filter(|_| ctx.is_scheduled())
            .and_then(|(real, (run_ctx, run_view))| {
                super::job_message::compare_job_message(run_view, run_ctx, real)
            }),
    };
    print_report(cli, args, &loaded, &view, &report);
    if comparison.is_clean() {
        exit::OK
    } else {
        exit::TOOL_ERROR
    }
}

/// What clawdeck could not tell about the run's model: the lab's own takes text only, and for
/// a model neither the config nor a catalog describes OpenClaw's own model table decides.
fn unknown_model_note(resolved: &crate::policy::ResolvedContext) -> Option<String> {
    if resolved.model_input.is_some() {
        return None;
    }
    Some(match resolved.model.as_deref() {
        Some(model) => format!(
            "clawdeck does not know what {model} takes (the config declares no input for it and no provider catalog it reads lists it); the lab left that to OpenClaw's own model table, and a model that takes images also gets view_image and computer, which clawdeck does not show"
        ),
        None => "the config names no model, so the lab served its own, which takes text only; a real model that takes images also gets view_image and computer, which neither side shows here".to_string(),
    })
}

/// Where the observed view came from, for a run on the local CLI (or the private gateway a
/// sender, a non-owner or a spawner's turn needs).
fn local_run_source(ctx: &PolicyContext, agent: &str) -> String {
    if let Some(owner) = ctx.job_owner_key() {
        format!(
            "a scheduled job an agent made on a private gateway (its turn in {owner} called automations to add it with the tool cap; then cron.run), agent {agent} (recording mock LLM)"
        )
    } else if ctx.is_scheduled() {
        format!(
            "a scheduled job's turn on a private gateway (cron.add with the tool cap, then cron.run), agent {agent} (recording mock LLM)"
        )
    } else if ctx.heartbeat {
        format!(
            "a heartbeat's turn on a private gateway (its wake method, mode now), agent {agent} (recording mock LLM)"
        )
    } else if verify::private_gateway::node_turn(ctx) {
        format!(
            "a paired node's voice transcript to a private gateway (node.event voice.transcript), agent {agent}, as a non-owner (recording mock LLM)"
        )
    } else if verify::sender_run::has_sender(ctx) {
        let message = match verify::sender_run::sender_channel(ctx) {
            verify::sender_run::SenderChannel::Telegram => format!(
                "a Telegram direct message from sender {} to a private gateway, agent {agent} (stand-in Bot API, recording mock LLM)",
                verify::sender_run::telegram_sender(ctx).id
            ),
            verify::sender_run::SenderChannel::Signal => format!(
                "a Signal direct message from {} to a private gateway, agent {agent} (@openclaw/signal installed from npm, stand-in signal-cli daemon, recording mock LLM)",
                verify::sender_run::signal_sender(ctx).e164
            ),
        };
        match ctx.spawner_key() {
            Some(_) => format!("the subagent spawned by {message}"),
            None => message,
        }
    } else if ctx.names_client() {
        let client = ctx.client.as_deref().unwrap_or("cli");
        let extra = match ctx.client_caps.as_slice() {
            [] => String::new(),
            caps => format!(" also declaring {}", caps.join(", ")),
        };
        let who = if ctx.owner == Some(false) {
            "a non-owner"
        } else {
            "the owner"
        };
        format!(
            "a chat.send turn on a private gateway from gateway client {client}{extra}, agent {agent}, as {who} (recording mock LLM)"
        )
    } else if let Some(spawner) = ctx.spawner_key() {
        // The spawner's turn runs on a private gateway and calls sessions_spawn; the
        // subagent's own request is the one compared.
        format!(
            "the subagent of agent {agent} that a turn in session \"{spawner}\" spawned on a private gateway{} (recording mock LLM)",
            if ctx.owner == Some(false) {
                ", the spawner a non-owner"
            } else {
                ""
            }
        )
    } else if ctx.owner == Some(false) || ctx.gateway_run {
        // A non-owner's turn, or one asked of the agent method, runs on a private gateway (see
        // verify::private_gateway); that host words sessions_send's description its own way,
        // which the report shows as it finds it.
        let who = match ctx.owner == Some(false) {
            true => "a non-owner",
            false => "the owner",
        };
        format!("a private gateway's agent method, agent {agent}, as {who} (recording mock LLM)")
    } else {
        format!("openclaw agent --local --agent {agent} (recording mock LLM)")
    }
}

/// Asks the gateway at `url` for the session's `tools.effective`: where the answer came from,
/// and the answer. `None` (said on stderr) when the question cannot be put.
fn ask_gateway(
    cli: &Cli,
    args: &VerifyArgs,
    url: &str,
    ctx: &PolicyContext,
    agent: &str,
    runtime: &tokio::runtime::Runtime,
    timeout: Duration,
) -> Option<(String, Result<ObservedView, VerifyError>)> {
    let Some(session) = ctx.session_key.clone() else {
        eprintln!(
            "clawdeck verify: --gateway needs the session to ask about: --session KEY (e.g. agent:{agent}:main)"
        );
        return None;
    };
    let target = GatewayTarget {
        url: url.to_string(),
        token: args
            .token
            .clone()
            .or_else(|| std::env::var("OPENCLAW_GATEWAY_TOKEN").ok()),
    };
    let identity = match crate::gateway::DeviceIdentity::load_default() {
        Ok(identity) => identity,
        Err(err) => {
            crate::cli::err_untrusted(cli, &format!("clawdeck verify: {err}"));
            return None;
        }
    };
    let observed = runtime.block_on(verify::observe_gateway(
        &target, &session, &identity, timeout,
    ));
    Some((
        format!("gateway {url}, tools.effective for {session}"),
        observed,
    ))
}

/// The system prompt OpenClaw sent against the one clawdeck writes for the same run: a local
/// run's prediction (`predicted`: its session, where a main session delegates, and the model
/// the mock serves), else the context's own view.
fn run_prompt_comparison(
    loaded: &LoadedConfig,
    args: &VerifyArgs,
    view: &LlmView,
    predicted: Option<&LlmView>,
    real: &str,
) -> PromptComparison {
    let agent = view.resolution.resolved.agent.as_str();
    let ours = predicted.map_or(view.prompt.as_str(), |v| v.prompt.as_str());
    let fresh_workspace = args.gateway.is_none() && !workspace_configured(&loaded.raw, agent);
    if !fresh_workspace {
        return compare_prompt(real, ours);
    }
    let mut comparison = compare_prompt(&without_lab_repo(real), ours);
    comparison.retain(|title| !is_fresh_workspace_section(title));
    comparison
}

/// The context of the lab's local run (its session, and the mock's model under the agent's
/// provider) and clawdeck's view of it; `None` when it cannot be predicted.
fn run_prediction(
    loaded: &LoadedConfig,
    registry: &Registry,
    ctx: &PolicyContext,
    view: &LlmView,
) -> Option<(PolicyContext, LlmView)> {
    let agent = view.resolution.resolved.agent.as_str();
    let mut run_ctx = ctx.clone();
    run_ctx.session_key = Some(verify::run_session_key(agent, ctx));
    let model = verify::home::agent_model(&loaded.raw, agent, ctx);
    run_ctx.provider = Some(model.provider);
    run_ctx.model = Some(model.model);
    let run_view = verify::predict(loaded, registry, &run_ctx).ok()?;
    Some((run_ctx, run_view))
}

/// `real` without the `repo=` of its `Runtime:` line when that is the fresh workspace OpenClaw
/// made a git repository in the lab's home (2026.8.2 names it), not the operator's.
fn without_lab_repo(real: &str) -> String {
    verify::prompt_compare::without_runtime_facts(real, |fact| {
        fact.starts_with("repo=") && fact.contains("/clawdeck-verify-")
    })
}

/// Whether the config names the agent's workspace; when not, a local run's is the fresh one
/// OpenClaw seeds in the run's temporary home, not the operator's.
fn workspace_configured(raw: &Value, agent: &str) -> bool {
    let own = raw
        .pointer("/agents/list")
        .and_then(Value::as_array)
        .is_some_and(|list| {
            list.iter().any(|a| {
                a.get("id").and_then(Value::as_str) == Some(agent) && a.get("workspace").is_some()
            })
        });
    own || raw.pointer("/agents/defaults/workspace").is_some()
}

/// The sections a fresh workspace writes: its files, Project Context, the bootstrap hand-over
/// and the repository's project key.
fn is_fresh_workspace_section(title: &str) -> bool {
    title.starts_with("$HOME/")
        || matches!(
            title,
            "Project Context" | "Bootstrap Pending" | "Conversation Context" | "Workspace"
        )
}

/// The system prompt OpenClaw sent against clawdeck's, section by section, both normalised
/// (homes, the package, dates, ids) so that only what the builders wrote differs.
fn compare_prompt(real: &str, ours: &str) -> PromptComparison {
    verify::prompt_compare::compare_prompts(
        &super::normalized_here(real),
        &super::normalized_here(ours),
    )
}

/// What one verification found.
struct Report<'a> {
    source: &'a str,
    observed: &'a ObservedView,
    comparison: &'a Comparison,
    /// The system prompts compared, when the run sent one.
    prompt: Option<PromptComparison>,
    /// A scheduled job's user messages compared, when the run was one.
    user_message: Option<super::job_message::MessageComparison>,
}

/// Prints the comparison as JSON (`--json`) or as the text report.
fn print_report(
    cli: &Cli,
    args: &VerifyArgs,
    loaded: &LoadedConfig,
    view: &LlmView,
    report: &Report<'_>,
) {
    let Report {
        source,
        observed,
        comparison,
        ref prompt,
        ref user_message,
    } = *report;
    let compared = ComparedContext::of(&view.resolution);
    if args.json {
        let out = json!({
            "config": loaded.describe(),
            "compared": compared,
            "context": view.resolution.resolved,
            "verifiedAgainst": source,
            "surface": comparison.surface,
            "verdicts": comparison.verdicts,
            "notes": comparison.notes,
            "prompt": prompt,
            "userMessage": user_message,
            "summary": {
                "policyDisagreements": comparison.policy_disagreements(),
                "schemaDifferences": comparison.schema_differences(),
                "agree": comparison.agreeing(),
            },
        });
        outln!("{}", crate::cli::json_text::pretty(&out));
    } else {
        // Tool names, agent ids and the CLI's words come from the config and from OpenClaw.
        let mut text = format!("config: {}\n", loaded.describe());
        if let Some(key) = &compared.session_key {
            text.push_str(&format!("session: {key}\n"));
        }
        text.push_str(&format!("compared: {}\n", compared.label()));
        text.push_str(&render(source, observed, comparison));
        if let Some(prompt) = prompt {
            text.push_str(&prompt_lines(prompt));
        }
        if let Some(message) = user_message {
            text.push_str(&super::job_message::message_lines(message));
        }
        crate::cli::out_untrusted(cli, &text);
    }
}

/// A named client's `chat.send` turn runs in a session, the agent's main one when the context
/// names none (as the lab's turn does): the context and clawdeck's view of it in that session.
fn in_clients_session(
    loaded: &LoadedConfig,
    registry: &Registry,
    ctx: PolicyContext,
    view: LlmView,
) -> Result<(PolicyContext, LlmView), crate::policy::PolicyError> {
    if !ctx.names_client() || ctx.session_key.is_some() {
        return Ok((ctx, view));
    }
    let agent = &view.resolution.resolved.agent;
    let ctx = PolicyContext {
        session_key: Some(verify::home::run_session_key(agent, &ctx)),
        ..ctx
    }
    .with_session_key();
    let view = verify::predict(loaded, registry, &ctx)?;
    Ok((ctx, view))
}

/// The context flags, with `--session` (else `--session-key`) deciding agent, channel, group
/// and subagent as the gateway does for that session.
fn session_context(cli: &Cli, args: &VerifyArgs) -> Result<PolicyContext, String> {
    let flags = cli.context.to_context();
    match args.session.as_deref().or(flags.session_key.as_deref()) {
        Some(key) => context_for_session(&flags, key),
        None => Ok(flags),
    }
}

/// The text report: where the truth came from, each disagreement with clawdeck's rule, notes,
/// and the summary line.
pub fn render(source: &str, observed: &ObservedView, comparison: &Comparison) -> String {
    let mut out = format!("verified against: {source}, {}\n", surface_line(observed));
    let width = comparison
        .disagreements()
        .map(|v| v.tool.len())
        .max()
        .unwrap_or(0);
    for verdict in comparison.disagreements() {
        out.push_str(&verdict_lines(verdict, width));
    }
    if let Some(refusal) = &comparison.refusal_disagreement {
        out.push_str(&format!("  refusal        {refusal}\n"));
    }
    for note in &comparison.notes {
        out.push_str(&format!("note: {note}\n"));
    }
    out.push_str(&format!("summary: {}\n", comparison.summary()));
    out
}

/// Which sections of the system prompt differ: a summary line, then each section OpenClaw sent
/// that clawdeck's lacks or words otherwise (under 98% alike), and each only clawdeck's has.
fn prompt_lines(prompt: &PromptComparison) -> String {
    const ALIKE: f64 = 0.98;
    let below = prompt.below(ALIKE);
    let mut out = format!(
        "prompt: {} sections sent, {} missing in clawdeck's, {} under {:.0}% alike, {} only clawdeck's (whole prompt {:.1}% alike)\n",
        prompt.real_sections(),
        prompt.missing().len(),
        below.len(),
        ALIKE * 100.0,
        prompt.extra().len(),
        prompt.similarity * 100.0
    );
    let name = |title: &str| {
        if title.is_empty() {
            "(identity)".to_string()
        } else {
            title.to_string()
        }
    };
    for title in prompt.missing() {
        out.push_str(&format!("  missing        {}\n", name(title)));
    }
    for section in below {
        out.push_str(&format!(
            "  differs        {} ({:.1}% alike)\n",
            name(&section.title),
            section.similarity * 100.0
        ));
    }
    for title in prompt.extra() {
        out.push_str(&format!("  clawdeck-only  {}\n", name(title)));
    }
    out
}

fn surface_line(observed: &ObservedView) -> String {
    match &observed.surface {
        Surface::Direct => format!("{} tools sent with schemas", observed.tools.len()),
        Surface::ToolSearch { deferred, .. } => format!(
            "Tool Search: {} direct + {} deferred tools",
            observed.tools.len(),
            deferred.len()
        ),
        Surface::CodeMode {
            cataloged, omitted, ..
        } => format!(
            "Code Mode: exec, wait + {} direct tools, {} more callable from code",
            observed.tools.len(),
            cataloged.len() + omitted
        ),
        Surface::GatewayEffective => format!("{} tools listed", observed.tools.len()),
        Surface::Refused { .. } => "run refused, zero tools".to_string(),
    }
}

fn verdict_lines(verdict: &ToolVerdict, width: usize) -> String {
    let rule = verdict.clawdeck_rule.as_deref().unwrap_or("-");
    let mut out = String::new();
    match verdict.agreement {
        Agreement::ClawdeckOnly => out.push_str(&format!(
            "  clawdeck-only  {:width$}  OpenClaw does not expose it; clawdeck: {rule}\n",
            verdict.tool
        )),
        Agreement::OpenclawOnly => {
            let owner = verdict
                .openclaw_owner
                .as_deref()
                .map(|o| format!(" ({o})"))
                .unwrap_or_default();
            out.push_str(&format!(
                "  openclaw-only  {:width$}  OpenClaw exposes it{owner}; clawdeck: {rule}\n",
                verdict.tool
            ));
        }
        Agreement::Agree => {}
    }
    if verdict.has_schema_difference() {
        out.push_str(&format!(
            "  schema         {:width$}  {} difference{}\n",
            verdict.tool,
            verdict.schema.len() + verdict.schema_more,
            if verdict.schema.len() + verdict.schema_more == 1 {
                ""
            } else {
                "s"
            }
        ));
        for diff in &verdict.schema {
            out.push_str(&format!(
                "      {}: clawdeck {} / openclaw {}\n",
                if diff.pointer.is_empty() {
                    "/"
                } else {
                    &diff.pointer
                },
                short(diff.clawdeck.as_ref()),
                short(diff.openclaw.as_ref())
            ));
        }
        if verdict.schema_more > 0 {
            out.push_str(&format!("      ... {} more\n", verdict.schema_more));
        }
    }
    out
}

fn short(value: Option<&Value>) -> String {
    const MAX: usize = 70;
    let Some(value) = value else {
        return "(absent)".to_string();
    };
    let text = value.to_string();
    if text.chars().count() <= MAX {
        text
    } else {
        format!("{}…", text.chars().take(MAX).collect::<String>())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_labs_own_repo_leaves_the_runtime_line() {
        let real = "x\nRuntime: agent=main | repo=/tmp/clawdeck-verify-1-2-0/.openclaw/workspace | thinking=off\n\
                    Runtime: agent=ops | repo=/srv/ws | thinking=off";
        assert_eq!(
            without_lab_repo(real),
            "x\nRuntime: agent=main | thinking=off\nRuntime: agent=ops | repo=/srv/ws | thinking=off"
        );
    }

    #[test]
    fn a_workspace_under_the_operators_home_is_the_same_section_on_both_sides() {
        // The embedded demo's workspace lives under the operator's home: the real run reads
        // it there too, so both prompts title its files alike.
        let Some(home) = std::env::var("HOME").ok().filter(|h| h.len() > 1) else {
            eprintln!("SKIPPED: no HOME to name");
            return;
        };
        let prompt = format!("intro\n## {home}/ws/AGENTS.md\nbe kind\n");
        let compared = compare_prompt(&prompt, &prompt);
        assert!(compared.missing().is_empty(), "{:?}", compared.missing());
        assert!(compared.extra().is_empty(), "{:?}", compared.extra());
    }
}
