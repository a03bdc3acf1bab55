//! `message`'s poll-vote fields when iMessage reaches a remote Mac over SSH.
//!
//! iMessage's plugin (2026.9) gives every configured channel's turn its poll-vote fields, and
//! words them for the kind of account it describes (its default, which it is asked about with
//! no account): a remote one (`remoteHost`, a safe `[user@]host`) votes by an option's id and
//! says so on each, over the core's own wording of `pollOptionId` and `pollOptionIndex`. The
//! pack records iMessage's form for a local account; this rewords it (2026.9.6:
//! `imessage-remote-configured-message-form`, `cross-channel-telegram-chat-remote-imessage`).

use serde_json::{Map, Value, json};

/// The field only iMessage gives a turn: its poll-vote fields are in the form when it is.
const TEXT_FIELD: &str = "pollOptionText";

const OPTION_ID: &str = "Stable iMessage poll option id. Required for Remote Mac over SSH accounts; copy it from the inbound poll options.";
const LOCAL_ONLY: &str = "Local iMessage accounts only. Remote Mac accounts must use pollOptionId.";

/// The remote Mac iMessage's default account reaches, as OpenClaw accepts one for `scp`
/// (`normalizeScpRemoteHost`; an unsafe one is ignored): its `remoteHost`, else, once a
/// gateway has started the channel (`channel_started`), the host of the SSH wrapper script its
/// `cliPath` names, which the plugin reads then.
pub(crate) fn remote_host(raw: &Value, channel_started: bool) -> Option<String> {
    let section = raw.pointer("/channels/imessage")?;
    let view = crate::semantics::imessage_default_view(section)?;
    let configured = view
        .get("remoteHost")
        .and_then(Value::as_str)
        .and_then(normalize_scp_host);
    let cli_path = || view.get("cliPath").and_then(Value::as_str);
    configured.or_else(|| {
        channel_started
            .then(cli_path)
            .flatten()
            .and_then(wrapper_script_host)
    })
}

/// The host of an SSH wrapper script at `cli_path` (`exec ssh [-T] <host> imsg "$@"`, after
/// an optional `#!` line: the only form the plugin reads); None for a bare command name, a
/// file it cannot read, or any other script.
fn wrapper_script_host(cli_path: &str) -> Option<String> {
    let path = cli_path.trim();
    if !path.contains(['/', '\\']) {
        return None;
    }
    let path = match path.strip_prefix("~/") {
        Some(rest) => std::path::Path::new(&std::env::var_os("HOME")?).join(rest),
        None => std::path::PathBuf::from(path),
    };
    let content = std::fs::read_to_string(path).ok()?;
    parse_wrapper(&content)
}

fn parse_wrapper(content: &str) -> Option<String> {
    static FORM: std::sync::LazyLock<Option<regex::Regex>> = std::sync::LazyLock::new(|| {
        regex::Regex::new(
            r#"^exec\s+("[^"]+"|'[^']+'|[^\s"']+)\s+(?:-T\s+)?(\S+)\s+("[^"]+"|'[^']+'|[^\s"']+)\s+"\$@"$"#,
        )
        .ok()
    });
    // A continued line is no simple wrapper.
    if content.contains("\\\n") || content.contains("\\\r\n") {
        return None;
    }
    let mut lines: Vec<&str> = content
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    if lines.first().is_some_and(|l| l.starts_with("#!")) {
        lines.remove(0);
    }
    let [line] = lines[..] else {
        return None;
    };
    let parts = FORM.as_ref()?.captures(line)?;
    let executable = |token: &str, name: &str| is_executable(token, name);
    if !executable(&parts[1], "ssh") || !executable(&parts[3], "imsg") {
        return None;
    }
    normalize_scp_host(&parts[2])
}

/// A command token that runs `name`: the bare name or an absolute path to it, quoted whole
/// or not at all.
fn is_executable(token: &str, name: &str) -> bool {
    let quoted = token.len() >= 2
        && (token.starts_with('"') && token.ends_with('"')
            || token.starts_with('\'') && token.ends_with('\''));
    let executable = if quoted {
        &token[1..token.len() - 1]
    } else if token.contains(['"', '\'']) {
        return false;
    } else {
        token
    };
    executable == name
        || (executable.starts_with('/') && executable.rsplit('/').next() == Some(name))
}

fn normalize_scp_host(value: &str) -> Option<String> {
    let trimmed = value.trim();
    let token = |s: &str| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
    };
    let bracketed_ipv6 = |s: &str| {
        s.len() > 2
            && s.starts_with('[')
            && s.ends_with(']')
            && s[1..s.len() - 1]
                .chars()
                .all(|c| c.is_ascii_hexdigit() || matches!(c, ':' | '.' | '%'))
    };
    if trimmed.is_empty()
        || trimmed.chars().any(|c| c.is_control() || c.is_whitespace())
        || trimmed.starts_with('-')
        || trimmed.contains(['/', '\\'])
    {
        return None;
    }
    let (user, host) = match trimmed.split_once('@') {
        Some((user, host)) if !user.is_empty() && !host.is_empty() && token(user) => {
            (Some(user), host)
        }
        Some(_) => return None,
        None => (None, trimmed),
    };
    if host.starts_with('-') || host.contains('@') {
        return None;
    }
    if !(token(host) || bracketed_ipv6(host)) {
        return None;
    }
    Some(match user {
        Some(user) => format!("{user}@{host}"),
        None => host.to_string(),
    })
}

/// Rewords iMessage's poll-vote fields in a form that has them (`parameters`) for a remote
/// account.
pub(crate) fn adapt(parameters: &mut Value) {
    let Some(properties) = parameters
        .get_mut("properties")
        .and_then(Value::as_object_mut)
    else {
        return;
    };
    if !properties.contains_key(TEXT_FIELD) {
        return;
    }
    set(
        properties,
        "pollOptionId",
        json!({ "type": "string" }),
        OPTION_ID,
    );
    set(
        properties,
        "pollOptionIndex",
        json!({ "type": "integer", "minimum": 1 }),
        LOCAL_ONLY,
    );
    set(
        properties,
        TEXT_FIELD,
        json!({ "type": "string" }),
        LOCAL_ONLY,
    );
}

/// iMessage's field over the form's: its schema, with `description`.
fn set(properties: &mut Map<String, Value>, field: &str, mut schema: Value, description: &str) {
    schema["description"] = json!(description);
    properties.insert(field.to_string(), schema);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_remote_host_is_taken_as_openclaw_takes_one_for_scp() {
        assert_eq!(
            normalize_scp_host(" me@mac.local "),
            Some("me@mac.local".into())
        );
        assert_eq!(normalize_scp_host("mac"), Some("mac".into()));
        assert_eq!(normalize_scp_host("[fe80::1]"), Some("[fe80::1]".into()));
        for unsafe_host in [
            "", "-oProxy", "a@b@c", "@mac", "me@", "mac/x", "m ac", "mac:22", "me@-x",
        ] {
            assert_eq!(normalize_scp_host(unsafe_host), None, "{unsafe_host:?}");
        }
    }

    #[test]
    fn only_the_simple_ssh_wrapper_names_a_host() {
        let host = |script: &str| parse_wrapper(script);
        assert_eq!(
            host("#!/bin/sh\nexec ssh -T me@mac imsg \"$@\"\n"),
            Some("me@mac".into())
        );
        assert_eq!(
            host("exec '/usr/bin/ssh' mac /opt/bin/imsg \"$@\""),
            Some("mac".into())
        );
        for other in [
            "exec ssh me@mac imsg",
            "exec ssh me@mac imsg \"$@\"\necho done",
            "exec ssh \\\n me@mac imsg \"$@\"",
            "exec rsh me@mac imsg \"$@\"",
            "exec ssh -oProxy imsg \"$@\"",
        ] {
            assert_eq!(host(other), None, "{other:?}");
        }
    }

    #[test]
    fn a_wrapper_counts_only_once_a_gateway_started_the_channel() {
        let dir = std::env::temp_dir().join(format!("clawdeck-imsg-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let script = dir.join("imsg-over-ssh");
        std::fs::write(&script, "#!/bin/sh\nexec ssh -T me@mac imsg \"$@\"\n").unwrap();
        let raw = json!({ "channels": { "imessage": { "cliPath": script } } });
        assert_eq!(remote_host(&raw, true), Some("me@mac".into()));
        assert_eq!(remote_host(&raw, false), None);
        // A bare command name is never read.
        let bare = json!({ "channels": { "imessage": { "cliPath": "imsg" } } });
        assert_eq!(remote_host(&bare, true), None);
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn the_default_accounts_remote_host_counts_over_the_channels() {
        let raw = |imessage: Value| json!({ "channels": { "imessage": imessage } });
        assert_eq!(
            remote_host(
                &raw(json!({ "enabled": true, "remoteHost": "me@mac" })),
                false
            ),
            Some("me@mac".into())
        );
        // A named default account's own key wins; an unsafe host is none.
        let named = json!({ "remoteHost": "mac", "defaultAccount": "work",
            "accounts": { "work": { "remoteHost": "-bad" } } });
        assert_eq!(remote_host(&raw(named), false), None);
        assert_eq!(remote_host(&json!({}), true), None);
    }

    #[test]
    fn a_form_with_imessages_fields_takes_the_remote_wording_and_the_option_fields() {
        let mut form = json!({ "properties": {
            "pollOptionText": { "type": "string", "description": "Exact iMessage poll option text." } } });
        adapt(&mut form);
        let fields = &form["properties"];
        assert_eq!(fields["pollOptionText"]["description"], LOCAL_ONLY);
        assert_eq!(fields["pollOptionId"]["description"], OPTION_ID);
        assert_eq!(fields["pollOptionIndex"]["minimum"], 1);
        // A form without them (iMessage offers no poll-vote) is left alone.
        let mut other = json!({ "properties": { "message": { "type": "string" } } });
        let before = other.clone();
        adapt(&mut other);
        assert_eq!(other, before);
    }
}
