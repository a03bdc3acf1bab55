//! `clawdeck explain exec --command CMD`: will this command run? The verdict (runs, asks,
//! denied, hidden) with the step and config key that decided it, the change that flips it, and
//! each segment of the command line on its own.

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use serde_json::json;

use super::{Cli, exit};
use crate::config::LoadedConfig;
use crate::exec_allowlist::PathResolver;
use crate::exec_verdict::levels::{Ask, Security};
use crate::exec_verdict::{self, ExecQuestion, ExecVerdict, Surface};
use crate::gateway::session_describe::SessionSettings;
use crate::policy::Resolution;

/// The flags of `explain exec` that ask about one command.
#[derive(Debug, Args)]
pub struct ExecCommandArgs {
    /// With `explain exec`: the command line to judge (split and matched as OpenClaw does)
    #[arg(long, value_name = "CMD")]
    pub command: Option<String>,
    /// Who started the turn: an operator client that can answer approvals (interactive),
    /// nobody who can (headless: `openclaw agent` through the gateway, the HTTP API), an
    /// automation's agent turn (cron: headless, never forwarded to chat, allow-always mints a
    /// standing grant), or an embedded `openclaw agent --local` run (local)
    #[arg(long, value_enum, default_value = "interactive", requires = "command")]
    pub surface: SurfaceArg,
    /// The host approvals document (JSON5, as `openclaw approvals set --file` takes it).
    /// Default: the one OpenClaw stored in its state database
    /// (`$OPENCLAW_STATE_DIR`, else ~/.openclaw: state/openclaw.sqlite), read-only; with
    /// --remote-config, the gateway host's (exec.approvals.get, operator.admin)
    #[arg(long, value_name = "FILE", requires = "command")]
    pub approvals: Option<PathBuf>,
    /// The session's permission mode (read-only, guarded, workspace, full), set with
    /// `sessions.patch` or the Control UI: it replaces the configured exec policy, and `full`
    /// lifts the approvals document's floors
    #[arg(long, value_name = "MODE", requires = "command")]
    pub permission_mode: Option<String>,
    /// The session's elevated level (off, on, ask, full), set with `/elevated` or
    /// `sessions.patch`; it counts only for a chat turn whose sender tools.elevated.allowFrom
    /// names. Default: agents.defaults.elevatedDefault, else on
    #[arg(long, value_name = "LEVEL", requires = "command", value_parser = parse_elevated)]
    pub elevated: Option<exec_verdict::elevated::ElevatedLevel>,
    /// The turn's own `/exec security=...` (deny, allowlist, full): for that chat message only;
    /// it replaces the configured security, or only tightens a session's permission mode
    #[arg(long, value_name = "SECURITY", requires = "command", value_parser = parse_security)]
    pub exec_security: Option<Security>,
    /// The turn's own `/exec ask=...` (off, on-miss, always), as --exec-security
    #[arg(long, value_name = "ASK", requires = "command", value_parser = parse_ask)]
    pub exec_ask: Option<Ask>,
}

fn parse_security(text: &str) -> Result<Security, String> {
    Security::parse(text)
        .ok_or_else(|| format!("{text:?} is not an exec security (deny, allowlist, full)"))
}

fn parse_ask(text: &str) -> Result<Ask, String> {
    Ask::parse(text).ok_or_else(|| format!("{text:?} is not an exec ask (off, on-miss, always)"))
}

fn parse_elevated(text: &str) -> Result<exec_verdict::elevated::ElevatedLevel, String> {
    exec_verdict::elevated::ElevatedLevel::parse(text)
        .ok_or_else(|| format!("{text:?} is not an elevated level (off, on, ask, full)"))
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum SurfaceArg {
    Interactive,
    Headless,
    Cron,
    Local,
}

/// Answers `explain exec --command`; None when no command was given (the layers are shown).
pub fn run(
    cli: &Cli,
    args: &ExecCommandArgs,
    remote: &super::remote_config::RemoteConfigArgs,
    tool: Option<&str>,
    loaded: &LoadedConfig,
    res: &Resolution,
    as_json: bool,
) -> Option<u8> {
    let command = args.command.as_deref()?;
    if tool != Some("exec") {
        eprintln!(
            "clawdeck explain: --command is asked of exec: `clawdeck explain exec --command CMD`"
        );
        return Some(exit::USAGE);
    }
    // With --remote-config the document is the gateway host's (exec.approvals.get).
    let found = if remote.remote_config && args.approvals.is_none() {
        super::remote_config::host_approvals(cli, remote)
    } else {
        exec_verdict::approvals_doc::find(args.approvals.as_deref())
    };
    let (doc, approvals_from) = match found {
        Ok(found) => found,
        Err(err) => {
            super::err_untrusted(cli, &format!("clawdeck explain: {err}"));
            return Some(exit::USAGE);
        }
    };
    let session = match SessionSide::read(cli, args, remote, res) {
        Ok(session) => session,
        Err(err) => {
            super::err_untrusted(cli, &format!("clawdeck explain: {err}"));
            return Some(exit::USAGE);
        }
    };
    if let Some(mode) = &session.permission_mode
        && let Err(err) = exec_verdict::check_permission_mode(loaded, mode)
    {
        super::err_untrusted(
            cli,
            &format!("clawdeck explain: {}: {err}", session.mode_from),
        );
        return Some(exit::USAGE);
    }
    let surface = match args.surface {
        SurfaceArg::Interactive => Surface::Interactive,
        SurfaceArg::Headless => Surface::Headless,
        SurfaceArg::Cron => Surface::Cron,
        SurfaceArg::Local => Surface::Local,
    };
    let question = ExecQuestion {
        command,
        surface,
        approvals: doc.as_ref(),
        permission_mode: session.permission_mode.as_deref(),
        elevated: session.elevated,
        turn_exec: exec_verdict::permission_mode::TurnExec {
            security: args.exec_security,
            ask: args.exec_ask,
        },
    };
    let resolver = PathResolver::from_env();
    let verdict = exec_verdict::explain(loaded, res, &question, &resolver);
    if as_json {
        let out = json!({
            "command": command_json(command, &verdict),
            "surface": surface,
            "permissionMode": session.permission_mode,
            "session": session.json(),
            "context": res.resolved,
            "approvals": approvals_from,
        });
        outln!("{}", crate::cli::json_text::pretty(&out));
    } else {
        super::out_untrusted(cli, &format!("config: {}\n", loaded.describe()));
        super::out_untrusted(
            cli,
            &format!(
                "approvals: {}\n",
                approvals_from
                    .as_deref()
                    .unwrap_or("none stored (OpenClaw's defaults)")
            ),
        );
        if let Some(line) = session.line() {
            super::out_untrusted(cli, &line);
        }
        super::out_untrusted(cli, &verdict_text(command, surface, &verdict));
    }
    Some(exit::OK)
}

/// The session's permission mode and elevated level: the flags, else (with `--remote-config`
/// and a session key) what the gateway keeps for the session.
struct SessionSide {
    permission_mode: Option<String>,
    elevated: Option<exec_verdict::elevated::ElevatedLevel>,
    /// Where the mode came from, for an error.
    mode_from: String,
    /// `--permission-mode` or `--elevated` was given.
    flags_given: bool,
    /// The session key and gateway asked, and what it keeps for the session (None: no such
    /// session there).
    asked: Option<(String, String, Option<SessionSettings>)>,
}

impl SessionSide {
    fn read(
        cli: &Cli,
        args: &ExecCommandArgs,
        remote: &super::remote_config::RemoteConfigArgs,
        res: &Resolution,
    ) -> Result<SessionSide, String> {
        let mut side = SessionSide {
            permission_mode: args.permission_mode.clone(),
            elevated: args.elevated,
            mode_from: "--permission-mode".to_string(),
            flags_given: args.permission_mode.is_some() || args.elevated.is_some(),
            asked: None,
        };
        let key = res.context.session_key.as_deref().filter(|k| !k.is_empty());
        let (Some(key), true) = (key, remote.remote_config) else {
            return Ok(side);
        };
        let (url, found) = super::remote_config::session_settings(cli, remote, key)?;
        let settings = found.clone().unwrap_or_default();
        if side.permission_mode.is_none() && settings.permission_mode.is_some() {
            side.permission_mode = settings.permission_mode;
            side.mode_from = format!("gateway {url}: session {key}'s permissionMode");
        }
        if side.elevated.is_none()
            && let Some(level) = settings.elevated_level
        {
            side.elevated = Some(
                exec_verdict::elevated::ElevatedLevel::parse(&level).ok_or_else(|| {
                    format!("gateway {url}: session {key}'s elevatedLevel {level:?} is not a level")
                })?,
            );
        }
        side.asked = Some((key.to_string(), url, found));
        Ok(side)
    }

    fn line(&self) -> Option<String> {
        let (key, url, found) = self.asked.as_ref()?;
        let Some(kept) = found else {
            return Some(format!(
                "session: {key} (gateway {url} has no such session)\n"
            ));
        };
        Some(format!(
            "session: {key} (gateway {url}): permissionMode {} · elevatedLevel {}{}\n",
            kept.permission_mode.as_deref().unwrap_or("none"),
            kept.elevated_level.as_deref().unwrap_or("none"),
            if self.flags_given {
                " (the flags given replace them)"
            } else {
                ""
            }
        ))
    }

    fn json(&self) -> serde_json::Value {
        match &self.asked {
            None => serde_json::Value::Null,
            Some((key, url, found)) => json!({
                "key": key,
                "gateway": url,
                "found": found.is_some(),
                "permissionMode": found.as_ref().and_then(|f| f.permission_mode.clone()),
                "elevatedLevel": found.as_ref().and_then(|f| f.elevated_level.clone()),
            }),
        }
    }
}

/// The contract scripts read: `verdict`, `step`, `key`, `fix`, `segments`.
fn command_json(command: &str, v: &ExecVerdict) -> serde_json::Value {
    json!({
        "text": command,
        "verdict": v.verdict,
        "step": v.step,
        "key": v.key,
        "fix": v.fix,
        "reason": v.reason,
        "host": v.host,
        "security": v.security,
        "ask": v.ask,
        "askFallback": v.ask_fallback,
        "elevated": { "level": v.elevated.level, "why": v.elevated.why },
        "segments": v.segments.iter().map(|s| json!({
            "text": s.text, "verdict": s.verdict, "step": s.step, "key": s.key,
        })).collect::<Vec<_>>(),
        "allowAlways": v.allow_always.as_ref().map(|a| json!({
            "decisions": a.decisions,
            "whyNot": a.why_not,
            "stores": a.stores,
            "nextTime": a.next_time,
        })),
    })
}

fn verdict_text(command: &str, surface: Surface, v: &ExecVerdict) -> String {
    let word = |verdict| match verdict {
        exec_verdict::Verdict::Runs => "runs",
        exec_verdict::Verdict::Asks => "asks",
        exec_verdict::Verdict::Denied => "DENIED",
        exec_verdict::Verdict::Hidden => "hidden",
    };
    let mut out = format!(
        "exec `{command}` ({}): {}\n",
        surface.as_str(),
        word(v.verdict)
    );
    out.push_str(&format!(
        "  decided at: {}{}\n",
        v.step,
        v.key
            .as_deref()
            .map(|k| format!(" ({k})"))
            .unwrap_or_default()
    ));
    out.push_str(&format!("  why: {}\n", v.reason));
    if let Some(fix) = &v.fix {
        out.push_str(&format!("  fix: {fix}\n"));
    }
    out.push_str(&format!(
        "  host {} · security {} · ask {} · askFallback {}\n",
        v.host,
        v.security.as_str(),
        v.ask.as_str(),
        v.ask_fallback.as_str()
    ));
    if v.verdict != exec_verdict::Verdict::Hidden {
        out.push_str(&format!(
            "  elevated {}: {}\n",
            v.elevated.level.as_str(),
            v.elevated.why
        ));
    }
    for s in &v.segments {
        out.push_str(&format!(
            "  segment `{}`: {} ({})\n",
            s.text,
            word(s.verdict),
            s.step
        ));
    }
    if let Some(a) = &v.allow_always {
        out.push_str(&format!(
            "  the question offers: {}\n",
            a.decisions.join(", ")
        ));
        match (&a.why_not, a.stores.is_empty()) {
            (Some(why), _) => out.push_str(&format!("  no allow-always: {why}\n")),
            (None, false) => {
                out.push_str(&format!("  allow-always stores: {}\n", a.stores.join(", ")))
            }
            (None, true) => {}
        }
        if let Some(next) = &a.next_time {
            out.push_str(&format!("  next time: {next}\n"));
        }
    }
    out
}
