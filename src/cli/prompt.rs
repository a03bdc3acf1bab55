//! `clawdeck prompt`: the system prompt the model receives in a context, exactly.

use clap::Args;
use serde_json::{Value, json};

use super::schema::{all_warnings, load_view, parse_api};
use super::{Cli, exit};
use crate::catalog::Registry;
use crate::config::LoadedConfig;
use crate::policy::sources::is_subagent_session_key;
use crate::prompt::job_message::{ScheduledJob, job_user_message_now};
use crate::prompt::{LlmView, LlmViewOptions, PromptMode, ROUTER_TOOL};
use crate::provider::ProviderApi;

#[derive(Debug, Args)]
pub struct PromptArgs {
    /// Prompt mode: full (main session), minimal (subagent: no skills, core tools), none.
    /// Default: minimal for a subagent context, else full
    #[arg(long, value_name = "MODE", value_parser = parse_mode)]
    pub mode: Option<PromptMode>,
    /// Print only the clawbot_router guidance section (or why the prompt has none)
    #[arg(long)]
    pub router: bool,
    /// Request format whose tool set the prompt lists (default: the context's provider's)
    #[arg(long, value_name = "API", value_parser = parse_api)]
    pub api: Option<ProviderApi>,
    /// Print where the context window goes: every section with its size in characters and
    /// estimated tokens, largest first, where it came from and what would shrink it
    #[arg(long)]
    pub sections: bool,
    /// Print JSON: sections (with sizes), skills with eligibility, slash commands, and the prompt
    /// (and a scheduled job's user message)
    #[arg(long)]
    pub json: bool,
    /// Print the user message of a scheduled job's turn (with --scheduled-tools): the job's
    /// message as OpenClaw's cron service wraps it, instead of the system prompt
    #[arg(long, conflicts_with_all = ["router", "sections"])]
    pub user_message: bool,
    #[command(flatten)]
    pub job: JobArgs,
}

/// The scheduled job whose user message `--user-message` (and `--json`) writes.
#[derive(Debug, Args, Default)]
pub struct JobArgs {
    /// The job's id (default: the one a cron session key names, else `<job-id>`)
    #[arg(long, value_name = "ID")]
    pub job_id: Option<String>,
    /// The job's name (default: `<job-name>`)
    #[arg(long, value_name = "NAME")]
    pub job_name: Option<String>,
    /// The job's message (default: `<job-message>`)
    #[arg(long, value_name = "TEXT")]
    pub job_message: Option<String>,
}

impl JobArgs {
    /// The job as the flags (or a cron session key) name it; placeholders for the rest.
    fn job(&self, session_key: Option<&str>) -> ScheduledJob {
        let placeholder = ScheduledJob::placeholder(session_key);
        let or = |value: &Option<String>, default: String| {
            value
                .as_deref()
                .map(str::trim)
                .filter(|v| !v.is_empty())
                .map_or(default, str::to_string)
        };
        ScheduledJob {
            id: or(&self.job_id, placeholder.id),
            name: or(&self.job_name, placeholder.name),
            message: or(&self.job_message, placeholder.message),
        }
    }
}

fn parse_mode(text: &str) -> Result<PromptMode, String> {
    PromptMode::parse(text)
        .ok_or_else(|| format!("unknown prompt mode \"{text}\" (expected full, minimal or none)"))
}

pub fn run(cli: &Cli, args: &PromptArgs) -> u8 {
    // OpenClaw builds subagent prompts in minimal mode.
    let ctx = cli.context.to_context();
    let subagent = ctx.subagent
        || ctx
            .session_key
            .as_deref()
            .is_some_and(is_subagent_session_key);
    let mode = args.mode.unwrap_or(if subagent {
        PromptMode::Minimal
    } else {
        PromptMode::Full
    });
    let options = LlmViewOptions {
        api: args.api,
        mode,
    };
    let (loaded, registry, view) = match load_view(cli, "prompt", &options) {
        Ok(v) => v,
        Err(code) => return code,
    };
    // The router guidance is clawdeck's, not OpenClaw's: a release's own prompt never has it,
    // the clawdeck host's does whenever the router is visible in a full prompt.
    let router_section: Option<String> = view
        .sections
        .iter()
        .find(|s| s.title == ROUTER_TOOL)
        .map(|s| s.text.clone())
        .or_else(|| {
            let visible = view
                .resolution
                .trace(ROUTER_TOOL)
                .is_some_and(|t| t.visible);
            (visible && view.mode == PromptMode::Full)
                .then(crate::prompt::router_guidance::system_prompt_section)
        });
    let router_note = router_note(&view, router_section.is_some());

    // A scheduled job's user message, for the two outputs that show it.
    let user_message =
        || job_user_message_now(&view, &ctx, &args.job.job(ctx.session_key.as_deref()));
    if args.json {
        let mut out = prompt_json(&loaded, &registry, &view, router_note.as_deref());
        if let Ok(message) = &user_message() {
            out["user_message"] = json!(message);
        }
        outln!("{}", crate::cli::json_text::pretty(&out));
        return exit::OK;
    }

    for warning in all_warnings(&loaded, &registry, &view)
        .iter()
        .chain(&view.skills.warnings)
    {
        super::err_untrusted(cli, &format!("warning: {warning}"));
    }
    // Plugin and skill descriptions are untrusted: neutralised on a terminal unless `--raw`.
    let guard = super::output_guard(cli);
    let out = |text: &str| outln!("{}", guard.text(crate::sanitize::StdStream::Stdout, text));
    if args.user_message {
        return match user_message() {
            Ok(message) => {
                out(&message);
                exit::OK
            }
            Err(why) => {
                super::err_untrusted(cli, &format!("error: prompt --user-message: {why}"));
                exit::USAGE
            }
        };
    }
    if args.router {
        match router_section {
            Some(section) => out(&section),
            None => out(&router_note.unwrap_or_default()),
        }
        return exit::OK;
    }
    if args.sections {
        for line in sections_table(&view) {
            out(&line);
        }
        return exit::OK;
    }
    out(&view.prompt);
    exit::OK
}

/// `prompt --sections`: one line per section, largest first, and the total.
fn sections_table(view: &LlmView) -> Vec<String> {
    let sizes = crate::prompt::report::section_sizes(view);
    let total: usize = view.prompt.chars().count();
    let width = sizes
        .iter()
        .map(|s| s.title.chars().count())
        .max()
        .unwrap_or(7)
        .clamp(7, 60);
    let mut lines = vec![format!(
        "{:<width$}  {:>6}  {:>6}  {:>5}  SOURCE",
        "SECTION", "CHARS", "TOKENS", "SHARE"
    )];
    for s in &sizes {
        let share = if total == 0 {
            0.0
        } else {
            s.chars as f64 * 100.0 / total as f64
        };
        let shrink = s
            .shrink
            .as_deref()
            .map(|k| format!(" · shrink: {k}"))
            .unwrap_or_default();
        lines.push(format!(
            "{:<width$}  {:>6}  {:>6}  {:>4.1}%  {}{shrink}",
            s.title, s.chars, s.tokens, share, s.source
        ));
    }
    lines.push(format!(
        "{} sections, {total} characters, about {} tokens",
        sizes.len(),
        total.div_ceil(4)
    ));
    lines
}

/// Why the prompt has no router guidance section, when it has none (`has_section` false).
fn router_note(view: &LlmView, has_section: bool) -> Option<String> {
    match (has_section, view.resolution.trace(ROUTER_TOOL)) {
        (true, _) => None,
        (false, Some(trace)) if !trace.visible => Some(format!(
            "no router guidance: {ROUTER_TOOL} is hidden in this context ({})",
            trace
                .removed_by
                .as_ref()
                .map(|r| r.reason.as_str())
                .unwrap_or("hidden by policy")
        )),
        (false, Some(_)) if view.mode != PromptMode::Full => Some(format!(
            "no router guidance: the {} prompt leaves {ROUTER_TOOL} out",
            view.mode.id()
        )),
        (false, Some(_)) => Some(format!(
            "no router guidance: {} cannot take {ROUTER_TOOL}",
            view.api
        )),
        (false, None) => Some(format!(
            "no router guidance: {ROUTER_TOOL} is not registered"
        )),
    }
}

/// The `--json` document: sections, skills with eligibility, slash commands, and the prompt.
fn prompt_json(
    loaded: &LoadedConfig,
    registry: &Registry,
    view: &LlmView,
    router_note: Option<&str>,
) -> Value {
    let skills: Vec<Value> = view
        .skills
        .statuses
        .iter()
        .map(|s| {
            json!({
                "name": s.skill.name,
                "source": s.skill.source,
                "location": s.skill.file_path,
                "eligible": s.eligible(),
                "reasons": s.ineligible.iter().map(|r| r.to_string()).collect::<Vec<_>>(),
                "model_invocable": !s.skill.disable_model_invocation,
                "user_invocable": s.skill.user_invocable,
            })
        })
        .collect();
    json!({
        "section_sizes": crate::prompt::report::section_sizes(view),
        "mode": view.mode,
        "api": view.api,
        "context": view.resolution.resolved,
        "workspace": view.workspace,
        "router_guidance": view.router_guidance,
        "router_note": router_note,
        "tools": view.export.tools,
        "skills": {
            "total": view.skills.prompt.total,
            "included": view.skills.prompt.included,
            "compact": view.skills.prompt.compact,
            "truncated": view.skills.prompt.truncated,
            "skills": skills,
            "overridden": view.skills.overridden,
            "warnings": view.skills.warnings,
        },
        "commands": view.skills.commands,
        "warnings": all_warnings(loaded, registry, view),
        "sections": view.sections,
        "prompt": view.prompt,
    })
}
