//! The three orderings OpenClaw combines exec settings by: security (deny < allowlist < full,
//! the stricter wins), ask (off < on-miss < always, the stricter wins) and the mode presets
//! that set both (`exec-approvals-core`'s `resolveExecPolicyForMode`).

use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Security {
    Deny,
    Allowlist,
    Full,
}

impl Security {
    pub fn parse(text: &str) -> Option<Security> {
        match text.trim().to_lowercase().as_str() {
            "deny" => Some(Security::Deny),
            "allowlist" => Some(Security::Allowlist),
            "full" => Some(Security::Full),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Security::Deny => "deny",
            Security::Allowlist => "allowlist",
            Security::Full => "full",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Ask {
    Off,
    OnMiss,
    Always,
}

impl Ask {
    pub fn parse(text: &str) -> Option<Ask> {
        match text.trim().to_lowercase().as_str() {
            "off" => Some(Ask::Off),
            "on-miss" => Some(Ask::OnMiss),
            "always" => Some(Ask::Always),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Ask::Off => "off",
            Ask::OnMiss => "on-miss",
            Ask::Always => "always",
        }
    }
}

/// The (security, ask) pair a `tools.exec.mode` stands for; `auto` also sends misses to a
/// reviewer model first (not modelled: it is said where it matters).
pub fn mode_pair(mode: &str) -> Option<(Security, Ask)> {
    match mode.trim().to_lowercase().as_str() {
        "deny" => Some((Security::Deny, Ask::Off)),
        "allowlist" => Some((Security::Allowlist, Ask::Off)),
        "ask" | "auto" => Some((Security::Allowlist, Ask::OnMiss)),
        "full" => Some((Security::Full, Ask::Off)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stricter_value_is_the_smaller_security_and_the_larger_ask() {
        assert_eq!(Security::Full.min(Security::Allowlist), Security::Allowlist);
        assert_eq!(Security::Deny.min(Security::Full), Security::Deny);
        assert_eq!(Ask::Off.max(Ask::Always), Ask::Always);
        assert_eq!(mode_pair("ask"), Some((Security::Allowlist, Ask::OnMiss)));
        assert_eq!(mode_pair("bogus"), None);
        assert_eq!(Security::parse(" Allowlist "), Some(Security::Allowlist));
        assert_eq!(Ask::parse("on-miss"), Some(Ask::OnMiss));
    }
}
