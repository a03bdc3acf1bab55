//! Elevated mode as OpenClaw 2026.9.6 (and 2026.8.2) applies it to an exec call: a chat turn
//! carries the session's elevated level when the sender may use it (`tools.elevated.enabled`,
//! not false by default, for the agent too; the sender named in `tools.elevated.allowFrom` for
//! the turn's channel, and in the agent's own list when it has one). The level is the turn's
//! `/elevated` directive, else the session's (`sessions.patch {elevatedLevel}`), else
//! `agents.defaults.elevatedDefault`, else `on`. Any level but `off` moves a sandboxed command
//! to the gateway (or keeps it on the node); `full` also skips approvals when neither the exec
//! policy nor the approvals document asks for anything (security full, ask off).
//! Headless runs (`openclaw agent`, cron) carry no level.

use serde::Serialize;
use serde_json::Value;

use super::surface::Surface;
use crate::config::LoadedConfig;
use crate::context::PolicyContext;

/// The channel a gateway operator's `chat.send` turn comes from (OpenClaw's
/// INTERNAL_MESSAGE_CHANNEL).
const OPERATOR_CHANNEL: &str = "webchat";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ElevatedLevel {
    Off,
    /// `on` or `ask`: out of the sandbox, approvals as configured.
    On,
    Full,
}

impl ElevatedLevel {
    /// `off`, `on`, `ask` (an alias of `on`) or `full`.
    pub fn parse(text: &str) -> Option<ElevatedLevel> {
        match text.trim().to_lowercase().as_str() {
            "off" => Some(ElevatedLevel::Off),
            "on" | "ask" => Some(ElevatedLevel::On),
            "full" => Some(ElevatedLevel::Full),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            ElevatedLevel::Off => "off",
            ElevatedLevel::On => "on",
            ElevatedLevel::Full => "full",
        }
    }
}

/// The level a turn's exec calls run with, and why.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Elevated {
    pub level: ElevatedLevel,
    /// Where the level came from, or the gate that keeps it off.
    pub why: String,
}

impl Elevated {
    /// No level: what a verdict decided before elevated mattered says.
    pub fn off() -> Elevated {
        Elevated {
            level: ElevatedLevel::Off,
            why: "not resolved".to_string(),
        }
    }
}

/// The elevated level of a turn on `surface` in `ctx` for `agent`, the session's level being
/// `requested` when known.
pub fn resolve(
    cfg: &LoadedConfig,
    agent: &str,
    ctx: &PolicyContext,
    surface: Surface,
    requested: Option<ElevatedLevel>,
) -> Elevated {
    let off = |why: String| Elevated {
        level: ElevatedLevel::Off,
        why,
    };
    if surface != Surface::Interactive {
        return off("a headless run carries no elevated level (only chat turns do)".to_string());
    }
    let agent_raw = cfg
        .agent(agent)
        .and_then(|info| Some((cfg.agent_raw(info)?, info.path.to_string())));
    let agent_elevated = agent_raw
        .as_ref()
        .and_then(|(raw, path)| Some((raw.pointer("/tools/elevated")?, path.clone())));
    if cfg.raw.pointer("/tools/elevated/enabled") == Some(&Value::Bool(false)) {
        return off("tools.elevated.enabled is false".to_string());
    }
    if let Some((raw, path)) = &agent_elevated
        && raw.get("enabled") == Some(&Value::Bool(false))
    {
        return off(format!("{path}.tools.elevated.enabled is false"));
    }
    let channel = ctx
        .channel
        .as_deref()
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .unwrap_or(OPERATOR_CHANNEL)
        .to_lowercase();
    let global = cfg.raw.pointer("/tools/elevated/allowFrom");
    if !allows(global, &channel, ctx) {
        return off(format!(
            "tools.elevated.allowFrom.{channel} does not name the sender"
        ));
    }
    if let Some((raw, path)) = &agent_elevated
        && let Some(list) = raw.get("allowFrom")
        && !allows(Some(list), &channel, ctx)
    {
        return off(format!(
            "{path}.tools.elevated.allowFrom.{channel} does not name the sender"
        ));
    }
    if let Some(level) = requested {
        return Elevated {
            level,
            why: format!("the session's elevatedLevel \"{}\"", level.as_str()),
        };
    }
    let configured = cfg
        .raw
        .pointer("/agents/defaults/elevatedDefault")
        .and_then(Value::as_str)
        .and_then(ElevatedLevel::parse);
    match configured {
        Some(level) => Elevated {
            level,
            why: format!("agents.defaults.elevatedDefault \"{}\"", level.as_str()),
        },
        None => Elevated {
            level: ElevatedLevel::On,
            why: format!(
                "on by default for senders in tools.elevated.allowFrom.{channel}; \
                 agents.defaults.elevatedDefault or /elevated changes it"
            ),
        },
    }
}

/// Whether `allow_from` (the per-channel lists) names the context's sender on `channel`.
fn allows(allow_from: Option<&Value>, channel: &str, ctx: &PolicyContext) -> bool {
    let entries: Vec<String> = allow_from
        .and_then(|a| a.get(channel))
        .and_then(Value::as_array)
        .map(|list| {
            list.iter()
                .filter_map(|e| match e {
                    Value::String(s) => Some(s.trim().to_string()),
                    Value::Number(n) => Some(n.to_string()),
                    _ => None,
                })
                .filter(|s| !s.is_empty())
                .collect()
        })
        .unwrap_or_default();
    entries
        .iter()
        .any(|entry| entry == "*" || names_sender(entry, channel, ctx))
}

/// One allowFrom entry against the sender: `id:`/`from:`/`e164:` name an identity, `name:`,
/// `username:`, `tag:` a mutable name (case and a leading `@` ignored); a bare entry matches the
/// sender's id or number, with or without a `channel:` prefix.
fn names_sender(entry: &str, channel: &str, ctx: &PolicyContext) -> bool {
    let strip = |s: &str| -> String {
        let s = s.trim();
        s.strip_prefix(&format!("{channel}:"))
            .unwrap_or(s)
            .to_string()
    };
    let same_id = |value: &str, field: &Option<String>| {
        field
            .as_deref()
            .is_some_and(|f| strip(f) == strip(value) || f.trim() == value.trim())
    };
    let same_name = |value: &str, field: &Option<String>| {
        let fold = |s: &str| s.trim().trim_start_matches('@').to_lowercase();
        field.as_deref().is_some_and(|f| fold(f) == fold(value))
    };
    match entry.split_once(':') {
        Some(("id" | "from", value)) => same_id(value, &ctx.sender_id),
        Some(("e164", value)) => same_id(value, &ctx.sender_e164),
        Some(("name", value)) => same_name(value, &ctx.sender_name),
        Some(("username", value)) => same_name(value, &ctx.sender_username),
        Some(("tag", _)) => false,
        _ => same_id(entry, &ctx.sender_id) || same_id(entry, &ctx.sender_e164),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(text: &str) -> LoadedConfig {
        crate::config::load_from_str(text, "t.json5").unwrap_or_else(|e| panic!("{e}"))
    }

    fn ctx() -> PolicyContext {
        PolicyContext::default()
    }

    #[test]
    fn nobody_is_elevated_until_allow_from_names_the_channel() {
        let c = config("{}");
        let e = resolve(&c, "main", &ctx(), Surface::Interactive, None);
        assert_eq!(e.level, ElevatedLevel::Off);
        assert_eq!(
            e.why,
            "tools.elevated.allowFrom.webchat does not name the sender"
        );
        let c = config(r#"{ tools: { elevated: { allowFrom: { webchat: ["*"] } } } }"#);
        let e = resolve(&c, "main", &ctx(), Surface::Interactive, None);
        assert_eq!(e.level, ElevatedLevel::On, "on is the default level");
        let e = resolve(
            &c,
            "main",
            &ctx(),
            Surface::Interactive,
            Some(ElevatedLevel::Full),
        );
        assert_eq!(e.level, ElevatedLevel::Full);
        let e = resolve(
            &c,
            "main",
            &ctx(),
            Surface::Headless,
            Some(ElevatedLevel::Full),
        );
        assert_eq!(e.level, ElevatedLevel::Off, "headless runs carry none");
    }

    #[test]
    fn a_disabled_gate_or_an_agent_list_without_the_sender_keeps_it_off() {
        let c = config(
            r#"{ tools: { elevated: { allowFrom: { telegram: ["12345", "username:@Ops"] } } },
                 agents: { defaults: { elevatedDefault: "full" }, ownership: "explicit",
                   entries: { main: {}, quiet: { tools: { elevated: { enabled: false } } },
                              picky: { tools: { elevated: { allowFrom: { telegram: ["999"] } } } } } } }"#,
        );
        let mut tg = ctx();
        tg.channel = Some("telegram".into());
        tg.sender_id = Some("telegram:12345".into());
        let e = resolve(&c, "main", &tg, Surface::Interactive, None);
        assert_eq!(
            (e.level, e.why.as_str()),
            (
                ElevatedLevel::Full,
                "agents.defaults.elevatedDefault \"full\""
            )
        );
        let e = resolve(&c, "quiet", &tg, Surface::Interactive, None);
        assert_eq!(e.level, ElevatedLevel::Off);
        assert!(
            e.why.ends_with("tools.elevated.enabled is false"),
            "{}",
            e.why
        );
        let e = resolve(&c, "picky", &tg, Surface::Interactive, None);
        assert_eq!(e.level, ElevatedLevel::Off);
        let mut named = ctx();
        named.channel = Some("telegram".into());
        named.sender_username = Some("ops".into());
        let e = resolve(&c, "main", &named, Surface::Interactive, None);
        assert_eq!(
            e.level,
            ElevatedLevel::Full,
            "username: matches without @ or case"
        );
        named.sender_username = Some("dev".into());
        let e = resolve(&c, "main", &named, Surface::Interactive, None);
        assert_eq!(e.level, ElevatedLevel::Off);
    }

    #[test]
    fn levels_parse_as_the_directive_takes_them() {
        assert_eq!(ElevatedLevel::parse("ask"), Some(ElevatedLevel::On));
        assert_eq!(ElevatedLevel::parse(" FULL "), Some(ElevatedLevel::Full));
        assert_eq!(ElevatedLevel::parse("yes"), None);
    }
}
