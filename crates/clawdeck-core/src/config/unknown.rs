//! Which unknown keys deserve a warning. OpenClaw's schema has many keys clawdeck does not read;
//! inside sections clawdeck only skims (channel settings, model providers, agent defaults) they
//! are expected. Inside the policy objects clawdeck interprets, an unknown key is usually a typo
//! (`alow`, `alsoallow`) that silently changes what a tool policy means, so it is reported.

use super::keypath::{KeyPath, KeySegment};
use super::locate::locate_paths;

/// Agent-entry keys current OpenClaw accepts (besides the ones clawdeck types).
const AGENT_ENTRY_KEYS: &[&str] = &[
    "description",
    "cwd",
    "agentDir",
    "utilityModel",
    "decisionModel",
    "models",
    "modelPolicy",
    "thinkingDefault",
    "verboseDefault",
    "toolProgressDetail",
    "reasoningDefault",
    "fastModeDefault",
    "contextInjection",
    "bootstrapMaxChars",
    "bootstrapTotalMaxChars",
    "experimental",
    "skills",
    "embeddedAgent",
    "params",
    "runtime",
    "memory",
    "memorySearch",
    "humanDelay",
    "typingMode",
    "tts",
    "skillsLimits",
    "contextLimits",
    "heartbeat",
    "identity",
    "groupChat",
];

/// One warning per unknown key that is not expected, each naming file, position and path.
pub(crate) fn unknown_key_warnings(ignored: &[KeyPath], text: &str, origin: &str) -> Vec<String> {
    let reported: Vec<KeyPath> = ignored
        .iter()
        .filter(|path| !is_tolerated(path))
        .cloned()
        .collect();
    let positions = locate_paths(text, &reported);
    reported
        .iter()
        .zip(positions)
        .map(|(path, position)| match position {
            Some((line, column)) => {
                format!("{origin}:{line}:{column}: unknown key ignored (at {path})")
            }
            None => format!("{origin}: unknown key ignored (at {path})"),
        })
        .collect()
}

fn keys(path: &KeyPath) -> Vec<Option<&str>> {
    path.segments()
        .iter()
        .map(|s| match s {
            KeySegment::Key(k) => Some(k.as_str()),
            KeySegment::Index(_) => None,
        })
        .collect()
}

fn is_tolerated(path: &KeyPath) -> bool {
    let k = keys(path);
    let last = k.last().copied().flatten().unwrap_or("");
    match k.as_slice() {
        // Channel settings: everything but groups/accounts is channel business.
        [Some("channels"), _, _] => true,
        [Some("channels"), _, Some("accounts"), _, _] => true,
        // Group settings (requireMention, allowFrom, topics, ...).
        [Some("channels"), _, Some("groups"), _, _] => true,
        [
            Some("channels"),
            _,
            Some("accounts"),
            _,
            Some("groups"),
            _,
            _,
        ] => true,
        [Some("agents"), Some("defaults"), ..] => true,
        [Some("agents"), Some("list"), None, _] | [Some("agents"), Some("entries"), _, _] => {
            AGENT_ENTRY_KEYS.contains(&last)
        }
        [Some("agents"), Some("list"), None, Some("sandbox"), ..]
        | [Some("agents"), Some("entries"), _, Some("sandbox"), ..] => false,
        [Some("models"), ..] => true,
        [Some("plugins"), ..] => true,
        [Some("commands"), ..] => true,
        [Some("tools"), Some("subagents"), _] => true,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn policy_typos_are_reported_channel_settings_are_not() {
        assert!(!is_tolerated(&KeyPath::parse_dotted("tools.alow")));
        assert!(!is_tolerated(
            &KeyPath::parse_dotted("agents.list").index(0).key("tool")
        ));
        assert!(is_tolerated(
            &KeyPath::parse_dotted("agents.list")
                .index(0)
                .key("heartbeat")
        ));
        assert!(is_tolerated(&KeyPath::parse_dotted(
            "channels.telegram.botToken"
        )));
        assert!(is_tolerated(
            &KeyPath::parse_dotted("channels.telegram.groups")
                .key("-1")
                .key("requireMention")
        ));
        assert!(!is_tolerated(
            &KeyPath::parse_dotted("channels.telegram.groups")
                .key("-1")
                .key("tools")
                .key("alow")
        ));
        assert!(!is_tolerated(&KeyPath::parse_dotted("nonsense")));
    }
}
