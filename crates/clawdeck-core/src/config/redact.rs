//! Secrets out of config text before it is shown or written: the values at the key paths
//! OpenClaw itself redacts in `config.get` (src/config/sensitive-paths.ts), replaced by its
//! sentinel, so a gateway that did not redact (or an older one) leaks nothing through clawdeck.

use serde_json::Value;

/// What OpenClaw puts in place of a secret.
pub const REDACTED: &str = "__OPENCLAW_REDACTED__";

/// Key names that look secret but are not (OpenClaw's whitelist, lowercase suffixes).
const NOT_SECRET_SUFFIXES: &[&str] = &[
    "maxtokens",
    "maxoutputtokens",
    "maxinputtokens",
    "maxcompletiontokens",
    "contexttokens",
    "totaltokens",
    "tokencount",
    "tokenlimit",
    "tokenbudget",
    "passwordfile",
];

/// OpenClaw's `isSensitiveConfigPath` on a dotted path (`gateway.auth.token`, arrays as
/// `list[]`): `…token`, `password`, `secret`, `api?key`, `encrypt?key`, `private?key`,
/// `…serviceaccount(ref)`, everything under `localService.env`.
pub fn is_secret_path(path: &str) -> bool {
    let lower = path.to_lowercase();
    if lower.contains("localservice.env.") {
        return true;
    }
    if NOT_SECRET_SUFFIXES.iter().any(|s| lower.ends_with(s)) {
        return false;
    }
    lower.ends_with("token")
        || lower.contains("password")
        || lower.contains("secret")
        || has_joined(&lower, "api", "key")
        || has_joined(&lower, "encrypt", "key")
        || has_joined(&lower, "private", "key")
        || lower.ends_with("serviceaccount")
        || lower.ends_with("serviceaccountref")
}

/// `first`, at most one character, then `second` (the regex `first.?second`).
fn has_joined(text: &str, first: &str, second: &str) -> bool {
    text.match_indices(first).any(|(at, _)| {
        let rest = &text[at + first.len()..];
        rest.starts_with(second)
            || rest
                .char_indices()
                .nth(1)
                .is_some_and(|(i, _)| rest[i..].starts_with(second))
    })
}

/// A value worth hiding: not empty, not a `${ENV}` placeholder, not already redacted.
fn is_concrete(value: &str) -> bool {
    let trimmed = value.trim();
    let placeholder = trimmed.starts_with("${") && trimmed.ends_with('}');
    !trimmed.is_empty() && !placeholder && trimmed != REDACTED
}

/// Every secret string in `value` (by key path), longest first.
pub fn secret_values(value: &Value) -> Vec<String> {
    let mut out = Vec::new();
    collect(value, "", false, &mut out);
    out.sort_by(|a, b| b.len().cmp(&a.len()).then(a.cmp(b)));
    out.dedup();
    out
}

fn collect(value: &Value, path: &str, inherited: bool, out: &mut Vec<String>) {
    match value {
        Value::String(s) if (inherited || is_secret_path(path)) && is_concrete(s) => {
            out.push(s.clone())
        }
        Value::Array(items) => {
            let path = format!("{path}[]");
            let secret = inherited || is_secret_path(&path);
            for item in items {
                collect(item, &path, secret, out);
            }
        }
        Value::Object(map) => {
            // A service account object is secret as a whole (OpenClaw redacts it entire).
            let whole = inherited || {
                let lower = path.to_lowercase();
                lower.ends_with("serviceaccount") || lower.ends_with("serviceaccountref")
            };
            for (key, item) in map {
                let child = if path.is_empty() {
                    key.clone()
                } else {
                    format!("{path}.{key}")
                };
                collect(item, &child, whole, out);
            }
        }
        _ => {}
    }
}

/// `text` with every occurrence of each secret in `parsed` (the same document, parsed)
/// replaced by [`REDACTED`], as OpenClaw redacts the raw text it returns.
pub fn redact_text(text: &str, parsed: &Value) -> String {
    secret_values(parsed)
        .iter()
        .fold(text.to_string(), |acc, secret| {
            acc.replace(secret.as_str(), REDACTED)
        })
}

/// `value` with secrets replaced in place (for JSON shown or written).
pub fn redact_value(value: &mut Value) {
    redact_in(value, "", false);
}

fn redact_in(value: &mut Value, path: &str, inherited: bool) {
    match value {
        Value::String(s) if (inherited || is_secret_path(path)) && is_concrete(s) => {
            *s = REDACTED.to_string();
        }
        Value::Array(items) => {
            let path = format!("{path}[]");
            let secret = inherited || is_secret_path(&path);
            for item in items {
                redact_in(item, &path, secret);
            }
        }
        Value::Object(map) => {
            let lower = path.to_lowercase();
            let whole = inherited
                || lower.ends_with("serviceaccount")
                || lower.ends_with("serviceaccountref");
            for (key, item) in map.iter_mut() {
                let child = if path.is_empty() {
                    key.clone()
                } else {
                    format!("{path}.{key}")
                };
                redact_in(item, &child, whole);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn secret_paths_follow_openclaws_names() {
        for path in [
            "gateway.auth.token",
            "gateway.auth.password",
            "models.providers.mock.apiKey",
            "models.providers.mock.api_key",
            "channels.telegram.botToken",
            "skills.entries.x.env.SECRET_THING",
            "plugins.x.privateKey",
            "channels.googlechat.serviceAccount",
            "tools.x.localService.env.ANYTHING",
        ] {
            assert!(is_secret_path(path), "{path} is secret");
        }
        for path in [
            "models.providers.mock.models[].maxTokens",
            "agents.defaults.contextTokens",
            "gateway.auth.passwordFile",
            "tools.profile",
            "gateway.auth.mode",
            "models.providers.mock.baseUrl",
        ] {
            assert!(!is_secret_path(path), "{path} is not secret");
        }
    }

    #[test]
    fn text_and_values_lose_their_secrets_and_keep_the_rest() {
        let text = r#"{ gateway: { auth: { mode: "token", token: "s3cr3t-tok" } },
  models: { providers: { m: { apiKey: "sk-live-123", baseUrl: "http://x", maxTokens: 4096,
    headers: { Authorization: "${AUTH}" } } } },
  tools: { profile: "coding" } }"#;
        let parsed: Value = json5::from_str(text).unwrap();
        let redacted = redact_text(text, &parsed);
        assert!(!redacted.contains("s3cr3t-tok") && !redacted.contains("sk-live-123"));
        assert_eq!(redacted.matches(REDACTED).count(), 2);
        assert!(redacted.contains(r#"profile: "coding""#) && redacted.contains("4096"));
        let mut value = json!({"gateway": {"auth": {"token": "s3cr3t-tok", "mode": "token"}},
            "env": {"vars": {"X": "1"}}, "sa": {"serviceAccount": {"key": "k"}}});
        redact_value(&mut value);
        assert_eq!(value["gateway"]["auth"]["token"], REDACTED);
        assert_eq!(value["gateway"]["auth"]["mode"], "token");
        assert_eq!(value["sa"]["serviceAccount"]["key"], REDACTED);
        assert_eq!(value["env"]["vars"]["X"], "1");
    }
}
